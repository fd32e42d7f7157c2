"""PNG files in and out: decode to H x W x 4 uint8 RGBA arrays, encode and save atomically.

Pillow decodes (after zlib-ng has inflated the image data, see ``preinflate``); its C
decoder releases the GIL, so two files decode in parallel threads.
RGB and RGBA images (every browser screenshot) are decoded straight into the numpy buffer:
Pillow keeps both modes as 4 bytes a pixel, RGB with a pad byte of 255, which is exactly
opaque RGBA. Other modes are converted, then pasted into the buffer (``np.asarray`` would
copy through ``tobytes``).
"""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from PIL import Image, ImageFile, UnidentifiedImageError

from argus.diff.arrays import U8
from argus.diff.preinflate import pre_inflated
from argus.errors import InputError
from argus.io import atomic_write_bytes, read_bytes

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Screenshots of long pages are large; the cap only guards against absurd files.
MAX_PNG_BYTES = 256 * 1024 * 1024

_pool: ThreadPoolExecutor | None = None


def _to_rgba_array(im: Image.Image) -> U8:
    if im.mode != "RGBA":
        im = im.convert("RGBA")
    width, height = im.size
    arr = np.empty((height, width, 4), dtype=np.uint8)
    target = Image.frombuffer("RGBA", (width, height), arr, "raw", "RGBA", 0, 1)
    # frombuffer maps our buffer read-only; pasting into it then fills `arr` in one copy.
    target.readonly = 0
    target.paste(im)
    row = height // 2
    sample = np.frombuffer(im.crop((0, row, width, row + 1)).tobytes(), dtype=np.uint8)
    if not np.array_equal(arr[row].reshape(-1), sample):  # a Pillow that copied instead
        return np.asarray(im, dtype=np.uint8).copy()
    return arr


def _decode_in_place(im: ImageFile.ImageFile) -> U8 | None:
    """Let the decoder write into our buffer; None if this Pillow did not (then re-decode)."""
    width, height = im.size
    arr = np.empty((height, width, 4), dtype=np.uint8)
    # ImageFile.load() allocates image memory only when there is none: give it ours.
    core = Image.core.map_buffer(arr, (width, height), "raw", 0, (im.mode, 0, 1))  # type: ignore[attr-defined]
    im.im = core
    im.load()
    if im.im is not core:
        return None
    if im.mode == "RGB" and not bool(np.all(arr[height // 2, :, 3] == 255)):
        return None
    return arr


def _decode(data: bytes) -> U8:
    with Image.open(io.BytesIO(data), formats=["PNG"]) as im:
        if im.mode in ("RGB", "RGBA") and "transparency" not in im.info:
            fast = _decode_in_place(im)
            if fast is not None:
                return fast
            im = Image.open(io.BytesIO(data), formats=["PNG"])
        im.load()
        return _to_rgba_array(im)


def decode_png(data: bytes, source: Path | str = "image") -> U8:
    """Decode PNG bytes to RGBA; anything that is not a readable PNG is an InputError."""
    if not data.startswith(PNG_SIGNATURE):
        raise InputError(f"{source}: not a PNG image (no PNG signature); pass a .png file")
    prepared = pre_inflated(data)
    try:
        if prepared is not None:
            try:
                return _decode(prepared)
            except (OSError, SyntaxError, ValueError):
                pass  # decode the original below, so that any error is about the user's file
        return _decode(data)
    except Image.DecompressionBombError as exc:
        # Pillow refuses dimensions over twice Image.MAX_IMAGE_PIXELS before decoding.
        raise InputError(f"{source}: PNG is too large to decode safely ({exc})") from exc
    except (OSError, SyntaxError, ValueError, UnidentifiedImageError) as exc:
        raise InputError(f"{source}: corrupt or truncated PNG ({exc}); re-export it") from exc


def load_png(path: Path) -> U8:
    """Read and decode one PNG file to an H x W x 4 uint8 RGBA array."""
    return decode_png(read_bytes(path, what="PNG image", limit=MAX_PNG_BYTES), path)


def load_png_pair(first: Path, second: Path) -> tuple[U8, U8]:
    """Decode two PNG files in parallel."""
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="argus-png")
    later = _pool.submit(load_png, second)
    a = load_png(first)
    return a, later.result()


def encode_png(img: U8, compress_level: int = 6) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(img), "RGBA").save(
        buf, format="PNG", compress_level=compress_level
    )
    return buf.getvalue()


def save_png(path: Path, img: U8, compress_level: int = 6) -> None:
    """Encode an RGBA array as PNG and write it atomically."""
    atomic_write_bytes(path, encode_png(img, compress_level))
