"""Which fonts a page really rendered with: Chromium's own answer, not the CSS font stack.

The probe (probe.js) picks one representative element per (font-family, weight, style) with
visible text of its own and names it by its child-index path; ``CSS.getPlatformFontsForNode``
then names the platform fonts that drew its glyphs. Web fonts that finished loading come from
``document.fonts``, read by the probe too. Nothing in the page is modified.
"""

from __future__ import annotations

import asyncio
from typing import Any

from playwright.async_api import CDPSession


class FontProbe:
    """Asks through a CDP session on the page; ``enable`` once, when the page is opened."""

    def __init__(self, session: CDPSession) -> None:
        self._session = session

    async def enable(self) -> None:
        await self._session.send("DOM.enable")
        await self._session.send("CSS.enable")

    async def used(self, picks: dict[str, Any]) -> dict[str, Any]:
        """``picks``: the probe's ``{"picked": [...], "webfonts": [...]}`` for this document."""
        picked: list[dict[str, str]] = picks["picked"]
        document = await self._session.send("DOM.getDocument", {"depth": 0})
        root = document["root"]["nodeId"]
        found = await asyncio.gather(
            *(
                self._session.send("DOM.querySelector", {"nodeId": root, "selector": p["selector"]})
                for p in picked
            )
        )
        wanted = [int(answer["nodeId"]) for answer in found if answer.get("nodeId")]
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
        return {
            "rendered": sorted(
                rendered.values(), key=lambda f: (-f["glyphs"], f["postscript_name"])
            ),
            "declared": [{k: p[k] for k in ("family", "weight", "style")} for p in picked],
            "web_fonts_loaded": picks["webfonts"],
        }
