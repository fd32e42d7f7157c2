"""Which rows of a pair's second PNG to decode, from the two files' filtered rows alone.

A PNG row is filtered against the row above it, so a row of the second image decodes to the
same pixels as the first's when its filtered bytes are the same and the row above decoded
the same (or its filter, None or Sub, does not read the row above). ``differing_rows``
finds the rows whose filtered bytes differ; ``walk_spans`` hands a decoder the spans of rows
to decode, in order, each extended while its last row still decodes differently (a row
below may hold the same filtered bytes over different pixels), doubling, until the rows
meet again. No numpy: both the numpy decoder (``argus.diff._pairdecode``) and the one of
``argus diff``'s path without numpy (``argus.diff.sparse``) walk the same spans.
"""

from __future__ import annotations

from collections.abc import Callable, Container

# Rows compared at once before they are compared one by one.
BLOCK_ROWS = 32
# Rows decoded at first below a span that still differs (doubled each time it still does).
GROW = 8

NO_ABOVE = (0, 1)  # filter types None and Sub: a row that does not read the row above

# Decodes the second image's rows start to end (after the spans before it); says whether
# its last row decoded differently from the first image's, or None when it failed.
SpanDecoder = Callable[[int, int], bool | None]


def differing_rows(first: bytes, second: bytes, length: int, limit: int) -> list[int]:
    """The rows (of ``length`` bytes) in which two equally long buffers differ: blocks of
    rows compared whole (one memcmp each), and the rows of a differing block one by one;
    the search stops once more than ``limit`` are found."""
    view = memoryview(second)
    rows = len(first) // length
    found: list[int] = []
    for block in range(0, rows, BLOCK_ROWS):
        start, end = block * length, min(rows, block + BLOCK_ROWS) * length
        if first.startswith(view[start:end], start):
            continue
        found.extend(
            row
            for row in range(block, min(rows, block + BLOCK_ROWS))
            if not first.startswith(view[row * length : (row + 1) * length], row * length)
        )
        if len(found) > limit:
            break
    return found


def walk_spans(
    first_rows: bytes, length: int, differing: Container[int], budget: int, decode: SpanDecoder
) -> bool:
    """Decode, by ``decode``, every span of the second image's rows that can differ from
    the first's: each run of ``differing`` rows, and below it the rows that must be decoded
    because the row above them did (``first_rows``: the first file's filtered rows, of
    ``length`` bytes). False when a span failed or more than ``budget`` rows would be
    decoded (then decode the file whole)."""
    height = len(first_rows) // length
    row = 0
    above_differs = False  # the second image's decoded row above `row` differs from the first's
    grow = GROW
    while row < height:
        if row not in differing and (not above_differs or first_rows[row * length] in NO_ABOVE):
            above_differs = False  # the same bytes over the same row above, or no row above
            row += 1
            continue
        end = row + 1
        while end in differing:
            end += 1
        if above_differs:  # same bytes over a different row above: decode further down
            end = max(end, min(height, row + grow))
            grow *= 2
        else:
            grow = GROW
        budget -= end - row
        if budget < 0:
            return False
        differs = decode(row, end)
        if differs is None:
            return False
        above_differs = differs
        row = end
    return True
