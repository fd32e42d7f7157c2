"""Which fonts a page really rendered with: Chromium's own answer, not the CSS font stack.

One representative element per (font-family, weight, style) with its own text is marked in the
page, and ``CSS.getPlatformFontsForNode`` names the platform fonts that drew its glyphs.
Web fonts that finished loading are listed from ``document.fonts``.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.async_api import BrowserContext, Page

MARK_ATTR = "data-argus-font"

MARK_JS = """(attr) => {
  const seen = new Map();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim() || !el.checkVisibility()) continue;
    const s = getComputedStyle(el);
    const key = [s.fontFamily, s.fontWeight, s.fontStyle].join("|");
    if (seen.has(key)) continue;
    el.setAttribute(attr, String(seen.size));
    seen.set(key, {family: s.fontFamily, weight: s.fontWeight, style: s.fontStyle});
  }
  const webfonts = [];
  document.fonts.forEach((f) => {
    if (f.status === "loaded") webfonts.push({family: f.family, weight: f.weight, style: f.style});
  });
  return JSON.stringify({declared: Array.from(seen.values()), webfonts});
}"""

UNMARK_JS = """(attr) => {
  document.querySelectorAll("[" + attr + "]").forEach((el) => el.removeAttribute(attr));
}"""


async def fonts_used(context: BrowserContext, page: Page) -> dict[str, Any]:
    marked = json.loads(await page.evaluate(MARK_JS, MARK_ATTR))
    rendered: dict[str, dict[str, Any]] = {}
    session = await context.new_cdp_session(page)
    try:
        await session.send("DOM.enable")
        await session.send("CSS.enable")
        document = await session.send("DOM.getDocument", {"depth": 0})
        found = await session.send(
            "DOM.querySelectorAll",
            {"nodeId": document["root"]["nodeId"], "selector": f"[{MARK_ATTR}]"},
        )
        for node_id in found["nodeIds"]:
            answer = await session.send("CSS.getPlatformFontsForNode", {"nodeId": node_id})
            for font in answer.get("fonts", []):
                name = str(font.get("postScriptName") or font.get("familyName"))
                entry = rendered.setdefault(
                    name,
                    {
                        "family": font.get("familyName", ""),
                        "postscript_name": font.get("postScriptName", ""),
                        "web_font": bool(font.get("isCustomFont", False)),
                        "glyphs": 0,
                    },
                )
                entry["glyphs"] += int(font.get("glyphCount", 0))
    finally:
        await session.detach()
        await page.evaluate(UNMARK_JS, MARK_ATTR)
    return {
        "rendered": sorted(rendered.values(), key=lambda f: (-f["glyphs"], f["postscript_name"])),
        "declared": marked["declared"],
        "web_fonts_loaded": marked["webfonts"],
    }
