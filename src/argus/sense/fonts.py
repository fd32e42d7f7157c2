"""Which fonts a page really rendered with: Chromium's own answer, not the CSS font stack.

One representative element per (font-family, weight, style) that has visible text of its own
is picked in the page, and ``CSS.getPlatformFontsForNode`` names the platform fonts that drew
its glyphs. Web fonts that finished loading are listed from ``document.fonts``. Nothing in the
page is modified, so the lookup can run beside the screenshots.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from playwright.async_api import CDPSession, Page

# Representatives are given as indexes into document.body.querySelectorAll("*"), the same
# document order CDP's DOM.querySelectorAll returns.
PICK_JS = """() => {
  const all = document.body.querySelectorAll("*");
  const position = new Map();
  all.forEach((el, i) => position.set(el, i));
  const seen = new Map();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !position.has(el) || !node.textContent.trim() || !el.checkVisibility()) continue;
    const s = getComputedStyle(el);
    const key = [s.fontFamily, s.fontWeight, s.fontStyle].join("|");
    if (!seen.has(key)) {
      seen.set(key, {index: position.get(el), family: s.fontFamily, weight: s.fontWeight,
                     style: s.fontStyle});
    }
  }
  const webfonts = [];
  document.fonts.forEach((f) => {
    if (f.status === "loaded") webfonts.push({family: f.family, weight: f.weight, style: f.style});
  });
  return JSON.stringify({picked: Array.from(seen.values()), webfonts});
}"""


class FontProbe:
    """Asks through a CDP session on the page; ``enable`` once, when the page is opened."""

    def __init__(self, page: Page, session: CDPSession) -> None:
        self._page = page
        self._session = session

    async def enable(self) -> None:
        await self._session.send("DOM.enable")
        await self._session.send("CSS.enable")

    async def used(self) -> dict[str, Any]:
        picked = json.loads(await self._page.evaluate(PICK_JS))
        document = await self._session.send("DOM.getDocument", {"depth": 0})
        found = await self._session.send(
            "DOM.querySelectorAll", {"nodeId": document["root"]["nodeId"], "selector": "body *"}
        )
        node_ids: list[int] = found["nodeIds"]
        wanted = [node_ids[p["index"]] for p in picked["picked"] if p["index"] < len(node_ids)]
        answers = await asyncio.gather(
            *(self._session.send("CSS.getPlatformFontsForNode", {"nodeId": n}) for n in wanted)
        )
        rendered: dict[str, dict[str, Any]] = {}
        for answer in answers:
            for font in answer.get("fonts", []):
                key = str(font.get("postScriptName") or font.get("familyName"))
                entry = rendered.setdefault(
                    key,
                    {
                        "family": font.get("familyName", ""),
                        "postscript_name": font.get("postScriptName", ""),
                        "web_font": bool(font.get("isCustomFont", False)),
                        "glyphs": 0,
                    },
                )
                entry["glyphs"] += int(font.get("glyphCount", 0))
        declared = [{k: p[k] for k in ("family", "weight", "style")} for p in picked["picked"]]
        return {
            "rendered": sorted(
                rendered.values(), key=lambda f: (-f["glyphs"], f["postscript_name"])
            ),
            "declared": declared,
            "web_fonts_loaded": picked["webfonts"],
        }
