"""PNG rows decoded by Pillow's C decoder alone: no numpy, no ``PIL.Image``.

The path of ``argus diff`` that runs without numpy (``argus.diff.sparse``) still needs the
pixels Pillow decodes, exactly: it calls the decoder ``PIL.Image`` calls for a PNG (the
"zip" decoder of Pillow's core module, ``PIL._imaging``, which loads in a few ms where
``PIL.Image`` and numpy take tens) on the image data already inflated and checked, stored
uncompressed, and lets it write straight into a bytearray (``map_buffer``, as
``argus.diff.png`` lets it write into a numpy array). The pixels are Pillow's: 4 bytes a
pixel, an RGB pixel with a pad byte of 255, which is exactly the kernel's opaque RGBA.

Rows that do not start the image are decoded under the decoded row above them, given as a
row of filter type None (the rows a PNG filters against it then decode as in the whole
image): what ``argus.diff._pairdecode`` does with Pillow's PNG reader. Any refusal of the
decoder is None: the caller then decodes the files as before, so every error is Pillow's
about the user's file.
"""

from __future__ import annotations

from types import ModuleType

from argus.diff._preinflate import _BLOCK_HEADER, _LENGTH, _blocks
from argus.diff.samepixels import zlib_module

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy takes it as True)
if TYPE_CHECKING:
    from typing import Any

# The modes of 8-bit truecolour PNGs, by their channels: Pillow's mode and raw mode agree.
MODES = {3: "RGB", 4: "RGBA"}
_ERRORS = (AttributeError, TypeError, ValueError, OSError)


def pillow_core() -> Any | None:
    """Pillow's core module (``PIL._imaging``), or None without Pillow."""
    try:
        from PIL import _imaging
    except ImportError:
        return None
    return _imaging


def decode_rows(
    core: Any, channels: int, width: int, filtered: bytes | memoryview, above: bytes | None
) -> memoryview | None:
    """The rows of ``filtered`` (8-bit image data as a PNG holds it, inflated: each row a
    filter type and its samples) decoded, 4 bytes a pixel; under ``above`` (the decoded row
    above them) unless they start the image. None when the decoder refuses them."""
    zlib: ModuleType = zlib_module()
    length = 1 + width * channels
    rows, extra = len(filtered) // length, 0
    if above is not None:
        filtered = b"".join((b"\x00", raw_row(above, channels), filtered))
        extra = 1
    mode = MODES[channels]
    out = bytearray((rows + extra) * width * 4)
    try:
        image = core.map_buffer(out, (width, rows + extra), "raw", 0, (mode, 0, 1))
        decoder = core.zip_decoder(mode, mode)
        try:
            decoder.setimage(image, (0, 0, width, rows + extra))
            status, code = decoder.decode(stored(filtered, zlib))
        finally:
            decoder.cleanup()
    except _ERRORS:
        return None
    if status >= 0 or code < 0:  # rows left undecoded, or an error
        return None
    return memoryview(out)[extra * width * 4 :]


def stored(data: bytes | memoryview, zlib: ModuleType) -> bytes:
    """``data`` as a zlib stream of stored (uncompressed) deflate blocks: a copy and a
    checksum, where zlib's level 0 costs several times as much (measured 2026-12-03)."""
    view = memoryview(data)
    parts: list[bytes | memoryview] = [b"\x78\x01"]  # deflate, 32K window, no dictionary
    lengths = _blocks(len(view))
    start = 0
    for i, length in enumerate(lengths):
        parts.append(_BLOCK_HEADER.pack(i == len(lengths) - 1, length, length ^ 0xFFFF))
        parts.append(view[start : start + length])
        start += length
    parts.append(_LENGTH.pack(zlib.adler32(view) & 0xFFFFFFFF))
    return b"".join(parts)


def raw_row(decoded: bytes | bytearray | memoryview, channels: int) -> bytes:
    """A decoded row (4 bytes a pixel) as the PNG's samples: RGB drops the pad byte."""
    if channels == 4:
        return bytes(decoded)
    whole = bytes(decoded)
    out = bytearray(len(whole) // 4 * 3)
    out[0::3], out[1::3], out[2::3] = whole[0::4], whole[1::4], whole[2::4]
    return bytes(out)
