"""Images for a model: PNG data URLs, downscaled to stay within a pixel budget.

Vision models bill (and often silently shrink) by pixels; sending a render larger than the
budget wastes tokens without adding detail the model would see. The budget is per image
(``[judge] max_image_pixels``); the aspect ratio is kept.
"""

from __future__ import annotations

import base64
import io
import math
from pathlib import Path

from PIL import Image

from argus.diff.png import MAX_PNG_BYTES, open_png
from argus.errors import InputError
from argus.io import read_bytes


def fit_within(width: int, height: int, max_pixels: int) -> tuple[int, int]:
    """The largest size with the same aspect ratio and at most ``max_pixels`` pixels."""
    if width * height <= max_pixels:
        return width, height
    scale = math.sqrt(max_pixels / (width * height))
    return max(1, math.floor(width * scale)), max(1, math.floor(height * scale))


def png_data_url(path: Path, max_pixels: int) -> tuple[str, tuple[int, int]]:
    """``path`` as a ``data:image/png;base64,...`` URL at most ``max_pixels`` big, and its size."""
    data = read_bytes(path, what="PNG image", limit=MAX_PNG_BYTES)
    try:
        with open_png(data, path) as image:
            size = fit_within(image.width, image.height, max_pixels)
            if size != (image.width, image.height):
                buffer = io.BytesIO()
                image.convert("RGBA").resize(size, Image.Resampling.LANCZOS).save(buffer, "PNG")
                data = buffer.getvalue()
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: not a readable PNG ({exc})") from exc
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii"), size
