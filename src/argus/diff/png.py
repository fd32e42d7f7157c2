"""PNG files in and out: decode to H x W x 4 uint8 RGBA arrays, encode and save atomically.

Pillow decodes (after zlib-ng has inflated the image data, see ``preinflate``); its C
decoder releases the GIL, so two files decode in parallel threads.
RGB and RGBA images (every browser screenshot) are decoded straight into the numpy buffer:
Pillow keeps both modes as 4 bytes a pixel, RGB with a pad byte of 255, which is exactly
opaque RGBA. Other modes are converted, then pasted into the buffer (``np.asarray`` would
copy through ``tobytes``). 16-bit greyscale, which Pillow's own conversion clips to white above
255, is scaled to 8 bits here (its high byte, as Pillow does for 16-bit colour).

Before any decoding, ``check_png`` reads the header and the chunk list: dimensions over
``MAX_PNG_PIXELS`` (a 69-byte file can declare 150 million pixels) and files made of many
metadata chunks (which Pillow parses one by one, slowly) are refused in one line. Every reader
of a PNG in Argus goes through it, so Pillow never decodes, or warns about, an image that
large.
"""

from __future__ import annotations

import io
import struct
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageFile, PngImagePlugin, UnidentifiedImageError

from argus.diff.arrays import U8
from argus.diff.preinflate import pre_inflated
from argus.errors import InputError
from argus.io import atomic_write_bytes, read_bytes

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Screenshots of long pages are large; the cap only guards against absurd files.
MAX_PNG_BYTES = 256 * 1024 * 1024
# Pillow's own decompression-bomb warning threshold: nothing above it is ever decoded, so Pillow
# never prints its multi-line warning (about 9459 x 9459, or 2560 x 34952 at a scale of 2).
MAX_PNG_PIXELS = 89_478_485
# A browser screenshot has a handful of metadata chunks; image data may be split into many.
MAX_METADATA_CHUNKS = 1000
MAX_CHUNKS = 100_000
_CHUNK_HEAD = struct.Struct(">I4s")
_IHDR = struct.Struct(">IIBBBBB")
_GREY16_MODES = frozenset({"I;16", "I;16B", "I;16L", "I"})


@dataclass(frozen=True)
class PngHeader:
    width: int
    height: int
    bit_depth: int
    colour_type: int


def check_png(data: bytes, source: Path | str = "image") -> PngHeader:
    """The PNG's header, or one InputError line when it is not a PNG Argus will decode: no
    signature, no IHDR first, zero or too many pixels, or too many chunks."""
    if not data.startswith(PNG_SIGNATURE):
        raise InputError(f"{source}: not a PNG image (no PNG signature); pass a .png file")
    pos = len(PNG_SIGNATURE)
    if len(data) < pos + 8 + _IHDR.size or data[pos + 4 : pos + 8] != b"IHDR":
        raise InputError(f"{source}: corrupt or truncated PNG (no IHDR header); re-export it")
    width, height, depth, colour, *_ = _IHDR.unpack_from(data, pos + 8)
    if width == 0 or height == 0:
        raise InputError(f"{source}: corrupt PNG (it declares {width} x {height} pixels)")
    if width * height > MAX_PNG_PIXELS:
        raise InputError(
            f"{source}: PNG is too large to decode safely ({width} x {height} pixels, over "
            f"{MAX_PNG_PIXELS:,}); pass a smaller image"
        )
    chunks = metadata = 0
    while pos + 8 <= len(data):
        length, kind = _CHUNK_HEAD.unpack_from(data, pos)
        chunks += 1
        if kind not in (b"IDAT", b"IHDR", b"PLTE", b"IEND"):
            metadata += 1
        if metadata > MAX_METADATA_CHUNKS or chunks > MAX_CHUNKS:
            what = "metadata chunks" if metadata > MAX_METADATA_CHUNKS else "chunks"
            limit = MAX_METADATA_CHUNKS if metadata > MAX_METADATA_CHUNKS else MAX_CHUNKS
            raise InputError(f"{source}: PNG has more than {limit:,} {what}; re-export it")
        if kind == b"IEND":
            break
        pos += 12 + length
    return PngHeader(width, height, depth, colour)


def open_png(data: bytes, source: Path | str = "image") -> Image.Image:
    """A lazily decoded Pillow image of checked PNG bytes (see ``check_png``)."""
    check_png(data, source)
    try:
        return Image.open(io.BytesIO(data), formats=["PNG"])
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
        raise InputError(f"{source}: corrupt or truncated PNG ({exc}); re-export it") from exc


def read_png_header(path: Path) -> PngHeader:
    """The checked header of the PNG file at ``path`` (nothing is decoded)."""
    return check_png(read_bytes(path, what="PNG image", limit=MAX_PNG_BYTES), path)


def _grey16_to_rgba(im: Image.Image) -> U8:
    values = np.asarray(im).astype(np.uint32)
    grey = (np.minimum(values, 0xFFFF) >> 8).astype(np.uint8)
    arr = np.empty((*grey.shape, 4), dtype=np.uint8)
    arr[..., :3] = grey[..., None]
    arr[..., 3] = 255
    transparent = im.info.get("transparency")
    if isinstance(transparent, int) and not isinstance(transparent, bool):
        arr[..., 3][values == transparent] = 0
    return arr


def _to_rgba_array(im: Image.Image) -> U8:
    if im.mode in _GREY16_MODES:
        return _grey16_to_rgba(im)
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


def _open_checked(data: bytes) -> ImageFile.ImageFile:
    """Pillow's PNG reader on bytes ``check_png`` accepted. Not ``Image.open``: on bytes it
    first imports the BMP, GIF, JPEG and PPM readers too (a few ms of every ``argus diff``),
    and its decompression-bomb check is ``check_png``'s pixel limit, which is lower."""
    return PngImagePlugin.PngImageFile(io.BytesIO(data))


def _decode(data: bytes) -> U8:
    with _open_checked(data) as im:
        if im.mode in ("RGB", "RGBA") and "transparency" not in im.info:
            fast = _decode_in_place(im)
            if fast is not None:
                return fast
            im = _open_checked(data)
        im.load()
        return _to_rgba_array(im)


def decode_png(data: bytes, source: Path | str = "image") -> U8:
    """Decode PNG bytes to RGBA; anything that is not a readable PNG is an InputError."""
    check_png(data, source)
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
    """Decode two PNG files in parallel: the second on a thread of its own (a bare thread,
    not a pool: concurrent.futures' imports cost ``argus diff`` more than the thread does).
    An error in the first file is the one raised when both are bad."""
    decoded: list[U8] = []
    failed: list[BaseException] = []

    def decode_second() -> None:
        try:
            decoded.append(load_png(second))
        except BaseException as exc:  # handed to the caller's thread below
            failed.append(exc)

    worker = threading.Thread(target=decode_second, name="argus-png", daemon=True)
    worker.start()
    try:
        a = load_png(first)
    finally:
        worker.join()
    if failed:
        raise failed[0]
    return a, decoded[0]


def encode_png(img: U8, compress_level: int = 6) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(img), "RGBA").save(
        buf, format="PNG", compress_level=compress_level
    )
    return buf.getvalue()


def save_png(path: Path, img: U8, compress_level: int = 6) -> None:
    """Encode an RGBA array as PNG and write it atomically."""
    atomic_write_bytes(path, encode_png(img, compress_level))
