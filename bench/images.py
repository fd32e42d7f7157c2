"""Deterministic UI-like page images for the diff benchmarks.

A page is a header bar, a sidebar, a list of cards with anti-aliased text and buttons: the
kind of screenshot a snapshot check compares. The same seed always draws the same pixels on
one Pillow/FreeType build; nothing here is random at run time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFont

LIGHT = {
    "bg": (248, 249, 251),
    "header": (36, 99, 235),
    "header_text": (255, 255, 255),
    "sidebar": (238, 240, 244),
    "card": (255, 255, 255),
    "border": (218, 222, 230),
    "text": (17, 17, 20),
    "muted": (96, 104, 118),
    "button": (36, 99, 235),
    "button_text": (255, 255, 255),
}
DARK = {
    "bg": (17, 18, 22),
    "header": (30, 41, 74),
    "header_text": (236, 238, 243),
    "sidebar": (26, 28, 34),
    "card": (32, 34, 41),
    "border": (55, 59, 70),
    "text": (236, 238, 243),
    "muted": (150, 156, 170),
    "button": (96, 140, 250),
    "button_text": (17, 18, 22),
}


@dataclass(frozen=True)
class PagePair:
    name: str
    a: np.ndarray
    b: np.ndarray


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def render_page(
    width: int, height: int, palette: dict[str, tuple[int, int, int]], edited_row: int = -1
) -> np.ndarray:
    """Draw one page as an HxWx4 uint8 array; `edited_row` changes that list row's label."""
    scale = width / 1440
    img = Image.new("RGBA", (width, height), (*palette["bg"], 255))
    draw = ImageDraw.Draw(img)
    title = _font(max(12, round(22 * scale)))
    body = _font(max(10, round(15 * scale)))
    small = _font(max(9, round(12 * scale)))
    header_h = round(64 * scale)
    sidebar_w = round(240 * scale)
    draw.rectangle((0, 0, width, header_h), fill=palette["header"])
    draw.text(
        (round(24 * scale), round(20 * scale)), "Habits", font=title, fill=palette["header_text"]
    )
    draw.rectangle((0, header_h, sidebar_w, height), fill=palette["sidebar"])
    for i, label in enumerate(["Today", "This week", "Streaks", "Archive", "Settings"]):
        y = header_h + round((24 + 40 * i) * scale)
        draw.text((round(24 * scale), y), label, font=body, fill=palette["text"])
    row_h = round(72 * scale)
    left = sidebar_w + round(32 * scale)
    right = width - round(32 * scale)
    y = header_h + round(24 * scale)
    row = 0
    while y + row_h < height - round(16 * scale):
        draw.rounded_rectangle(
            (left, y, right, y + row_h - round(12 * scale)),
            radius=round(8 * scale),
            fill=palette["card"],
            outline=palette["border"],
        )
        name = f"Habit number {row + 1}: drink water, walk, read"
        if row == edited_row:
            name = f"Habit number {row + 1}: stretch, journal, sleep early"
        draw.text(
            (left + round(16 * scale), y + round(10 * scale)), name, font=body, fill=palette["text"]
        )
        draw.text(
            (left + round(16 * scale), y + round(34 * scale)),
            f"{(row * 7) % 31 + 1} day streak - last done {row % 5 + 1} days ago",
            font=small,
            fill=palette["muted"],
        )
        bx = right - round(120 * scale)
        draw.rounded_rectangle(
            (bx, y + round(14 * scale), bx + round(100 * scale), y + round(46 * scale)),
            radius=round(6 * scale),
            fill=palette["button"],
        )
        draw.text(
            (bx + round(22 * scale), y + round(21 * scale)),
            "Check in",
            font=small,
            fill=palette["button_text"],
        )
        y += row_h
        row += 1
    return np.asarray(img, dtype=np.uint8).copy()


def sparse_pair(width: int = 1440, height: int = 900) -> PagePair:
    """The same light page twice, one list row's text edited."""
    return PagePair(
        "sparse", render_page(width, height, LIGHT), render_page(width, height, LIGHT, edited_row=5)
    )


def dense_pair(width: int = 1440, height: int = 900) -> PagePair:
    """The page in its light and its dark appearance: nearly every pixel differs."""
    return PagePair("dense", render_page(width, height, LIGHT), render_page(width, height, DARK))
