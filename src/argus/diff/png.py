"""PNG files in and out: decode to H x W x 4 uint8 RGBA arrays, encode and save atomically.

Pillow decodes; its C decoder releases the GIL, so two files decode in parallel threads. A
Pillow that inflates through the system zlib is handed the image data inflated by zlib-ng,
a stored block at a time (``argus.diff._preinflate.stored_png``): about 9 against 14 ms of CPU
for a 1440x900 screenshot (2026-12-03). One that runs zlib-ng itself (``inflates_with_zlib_ng``)
inflates as fast on its own, and pre-inflating would only add passes over the pixels
(measured: 7.5 against 6.6 ms for a 1440x900 screenshot, 95 against 38 ms at 3840x2160,
with the whole data inflated at once), so it is skipped.
RGB and RGBA images (every browser screenshot) are decoded straight into the numpy buffer:
Pillow keeps both modes as 4 bytes a pixel, RGB with a pad byte of 255, which is exactly
opaque RGBA. Other modes are converted, then pasted into the buffer (``np.asarray`` would
copy through ``tobytes``). 16-bit greyscale, which Pillow's own conversion clips to white above
255, is scaled to 8 bits here (its high byte, as Pillow does for 16-bit colour).

A pair (``decode_png_pair``) decodes its first image whole and its second from the first's
pixels and its own differing rows (``argus.diff._pairdecode``): the same pixels, for the
decode of one image and a few rows. Each file's image data is inflated once, by zlib-ng: the
first image is decoded from its inflated rows stored uncompressed (``stored_rows``, the PNG
``pre_inflated`` gives), whatever this Pillow inflates with.

Before any decoding, ``check_png`` (argus.diff.pngcheck, re-exported here) refuses what
Pillow must never see.
"""

from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import IO, cast

import numpy as np
from PIL import Image, ImageFile, PngImagePlugin, UnidentifiedImageError

from argus.diff._pairdecode import Filtered, PairPlan, decode_second, filtered, plan_pair
from argus.diff._preinflate import StoredPng, stored_png, stored_rows
from argus.diff.arrays import U8
from argus.diff.pngcheck import MAX_METADATA_CHUNKS as MAX_METADATA_CHUNKS
from argus.diff.pngcheck import MAX_PNG_BYTES as MAX_PNG_BYTES
from argus.diff.pngcheck import MAX_PNG_PIXELS as MAX_PNG_PIXELS
from argus.diff.pngcheck import PNG_SIGNATURE as PNG_SIGNATURE
from argus.diff.pngcheck import PngHeader as PngHeader
from argus.diff.pngcheck import check_png as check_png
from argus.diff.pngcheck import read_png_bytes
from argus.errors import InputError
from argus.io import atomic_write_bytes

_GREY16_MODES = frozenset({"I;16", "I;16B", "I;16L", "I"})


def inflates_with_zlib_ng(core: object) -> bool:
    """Whether Pillow's ``_imaging`` (``core``) inflates with zlib-ng: the zlib it calls at
    run time says so (``zlib_version``, from ``zlibVersion()``, is "1.3.1.zlib-ng" for
    zlib-ng's zlib-compatible build). Not ``zlib_ng_version``: that is the version Pillow
    was compiled against, and a wheel can report it while its ``_imaging`` loads the
    system ``libz.so.1`` (Pillow 12.3.0 here: "2.3.3", and zlib 1.2.13 inflating)."""
    runtime = getattr(core, "zlib_version", None)
    return isinstance(runtime, str) and "zlib-ng" in runtime


# Pre-inflate with zlib-ng only for a Pillow that does not inflate with zlib-ng itself.
PRE_INFLATE = not inflates_with_zlib_ng(Image.core)  # type: ignore[attr-defined]


def open_png(data: bytes, source: Path | str = "image") -> Image.Image:
    """A lazily decoded Pillow image of checked PNG bytes (see ``check_png``)."""
    check_png(data, source)
    try:
        return Image.open(io.BytesIO(data), formats=["PNG"])
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
        raise InputError(f"{source}: corrupt or truncated PNG ({exc}); re-export it") from exc


def read_png_header(path: Path) -> PngHeader:
    """The checked header of the PNG file at ``path`` (nothing is decoded)."""
    return check_png(read_png_bytes(path), path)


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


def _open_checked(data: bytes | StoredPng) -> ImageFile.ImageFile:
    """Pillow's PNG reader on bytes ``check_png`` accepted, or on such a PNG read with its
    image data stored (``StoredPng``). Not ``Image.open``: on bytes it first imports the BMP,
    GIF, JPEG and PPM readers too (a few ms of every ``argus diff``), and its
    decompression-bomb check is ``check_png``'s pixel limit, which is lower."""
    fp = io.BytesIO(data) if isinstance(data, bytes) else cast(IO[bytes], data.reader())
    return PngImagePlugin.PngImageFile(fp)


def _decode(data: bytes | StoredPng) -> U8:
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
    return _decode_prepared(data, source, stored_png(data) if PRE_INFLATE else None)


def _decode_prepared(data: bytes, source: Path | str, prepared: bytes | StoredPng | None) -> U8:
    """Decode checked PNG bytes, from ``prepared`` (the same PNG with its image data stored
    uncompressed, ``argus.diff._preinflate``) when there is one and it decodes (a
    ``StoredPng`` whose data does not inflate to its rows raises ValueError as it is read)."""
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
    return decode_png(read_png_bytes(path), path)


def load_png_pair(first: Path, second: Path) -> tuple[U8, U8]:
    """Read and decode two PNG files, decoding in parallel (``decode_png_pair``)."""
    return decode_png_pair(read_png_bytes(first), read_png_bytes(second), (first, second))


def decode_png_pair(
    first: bytes, second: bytes, sources: tuple[Path | str, Path | str] = ("image 1", "image 2")
) -> tuple[U8, U8]:
    """Decode two PNGs, inflating each file's image data once (``argus.diff._pairdecode``).
    The first is decoded on a thread of its own (a bare thread, not a pool:
    concurrent.futures' imports cost ``argus diff`` more than the thread does): it inflates
    the first's image data, hands it to this thread, then decodes the first from it, while
    this one inflates the second's and compares the two row by row. The second is then built
    from the first's pixels and its own differing rows, or decoded whole when it cannot be
    (here, beside the first). An error in the first image is the one raised when both are
    bad."""
    decoded: list[U8] = []
    failed: list[BaseException] = []
    first_rows: list[Filtered | None] = []
    handed = threading.Event()  # set once first_rows holds the first's image data, or never will

    def decode_first() -> None:
        try:
            check_png(first, sources[0])
            inflated = filtered(first)
            first_rows.append(inflated)
            handed.set()
            decoded.append(_decode_prepared(first, sources[0], _prepared_first(first, inflated)))
        except BaseException as exc:  # handed to the caller's thread below
            failed.append(exc)
        finally:
            handed.set()

    worker = threading.Thread(target=decode_first, name="argus-png", daemon=True)
    worker.start()
    second_failed: BaseException | None = None
    b: U8 | None = None
    plan: PairPlan | None = None
    try:
        second_rows = filtered(second) if _checked_quietly(second) else None
        if second_rows is not None:
            handed.wait()
            plan = plan_pair(first_rows[0], second_rows) if first_rows else None
        if plan is None:
            try:
                b = decode_png(second, sources[1])
            except BaseException as exc:  # raised below, after the first image's error
                second_failed = exc
    finally:
        worker.join()
    if failed:
        raise failed[0]
    if second_failed is not None:
        raise second_failed
    a = decoded[0]
    if b is None:
        b = _second_from_first(second, a, plan)
    if b is None:
        b = decode_png(second, sources[1])
    return a, b


def _prepared_first(data: bytes, inflated: Filtered | None) -> bytes | StoredPng | None:
    """The first image of a pair with its image data stored uncompressed: from the rows the
    pair decode inflated (Pillow then only copies them), else as ``decode_png`` would."""
    if inflated is not None:
        return stored_rows(data, inflated.rows)
    return stored_png(data) if PRE_INFLATE else None


def _checked_quietly(data: bytes) -> bool:
    """Whether ``check_png`` accepts ``data`` (its error comes from the whole decode)."""
    try:
        check_png(data)
    except InputError:
        return False
    return True


def _second_from_first(second: bytes, a: U8, plan: PairPlan | None) -> U8 | None:
    """The second image from the first's pixels (``decode_second``), once Pillow has opened
    it as the plain RGB or RGBA image the plan read; None to decode it whole."""
    if plan is None:
        return None
    try:
        with _open_checked(second) as im:
            if im.mode not in ("RGB", "RGBA") or "transparency" in im.info:
                return None
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        return None
    return decode_second(plan, a, _decode)


def encode_png(img: U8, compress_level: int = 6) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(img), "RGBA").save(
        buf, format="PNG", compress_level=compress_level
    )
    return buf.getvalue()


def save_png(path: Path, img: U8, compress_level: int = 6) -> None:
    """Encode an RGBA array as PNG and write it atomically."""
    atomic_write_bytes(path, encode_png(img, compress_level))
