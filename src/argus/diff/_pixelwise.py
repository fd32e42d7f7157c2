"""pixelmatch 7.2.0 one pixel at a time, in plain Python: for a pair where few pixels differ.

The same arithmetic as the vectorised kernel (``argus.diff._kernel``, ``yiq``, ``_antialias``)
in the same operation order, on Python floats, which are IEEE doubles as JavaScript's numbers
and numpy's float64 are: every delta is bit for bit the kernel's, so every pixel lands on the
same side of the threshold and of each anti-aliasing test. Two opaque pixels' differences
are exact integers either way (the blended form gives exactly r1 - r2 for them); a
semi-transparent pixel is blended over pixelmatch's checkerboard at its byte offset.

An image is given as its rows, each a sequence of pixels as the uint32 their RGBA bytes read
as on a little-endian machine (red in the low byte), at least every row within two of a
pixel asked about (its neighbours, and theirs for the flat-area test). The deltas of opaque
pairs and the flat-area answers are kept as they are computed: a screenshot's changed pixels
are a few colours over and over (a text's anti-aliasing levels on one background).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from argus.diff._constants import (
    I_B,
    I_G,
    I_R,
    MAX_YIQ_DELTA,
    OFFSETS,
    PHI,
    PHI_SQUARED,
    Q_B,
    Q_G,
    Q_R,
    Y_B,
    Y_G,
    Y_R,
)

Rows = Sequence[Sequence[int]]

_OPAQUE = 0xFF000000


def background(k: int, checkerboard: bool) -> tuple[float, float, float]:
    """The (r, g, b) a semi-transparent pixel at byte offset ``k`` is blended over."""
    if not checkerboard:
        return 255.0, 255.0, 255.0
    return (
        48.0 + 159.0 * (k % 2),
        48.0 + 159.0 * (int(k / PHI) % 2),
        48.0 + 159.0 * (int(k / PHI_SQUARED) % 2),
    )


def _differences(p1: int, p2: int, k: int, checkerboard: bool) -> tuple[float, float, float]:
    """The channel differences of two pixels, blended over the background at byte offset
    ``k`` when either is not opaque (``argus.diff.yiq.channel_differences``)."""
    r1, g1, b1, a1 = p1 & 255, p1 >> 8 & 255, p1 >> 16 & 255, p1 >> 24
    r2, g2, b2, a2 = p2 & 255, p2 >> 8 & 255, p2 >> 16 & 255, p2 >> 24
    if a1 == 255 and a2 == 255:
        return float(r1 - r2), float(g1 - g2), float(b1 - b2)
    da = a1 - a2
    rb, gb, bb = background(k, checkerboard)
    return (
        (r1 * a1 - r2 * a2 - rb * da) / 255.0,
        (g1 * a1 - g2 * a2 - gb * da) / 255.0,
        (b1 * a1 - b2 * a2 - bb * da) / 255.0,
    )


def color_delta(p1: int, p2: int, k: int, checkerboard: bool) -> float:
    """The squared YIQ distance of two pixels, negative where the second is darker."""
    dr, dg, db = _differences(p1, p2, k, checkerboard)
    y = dr * Y_R + dg * Y_G + db * Y_B
    i = dr * I_R + dg * -I_G + db * -I_B
    q = dr * Q_R + dg * -Q_G + db * Q_B
    delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    return -delta if y > 0 else delta


def brightness_delta(p1: int, p2: int, k: int, checkerboard: bool) -> float:
    """The Y (luma) component of two pixels' difference."""
    dr, dg, db = _differences(p1, p2, k, checkerboard)
    return dr * Y_R + dg * Y_G + db * Y_B


class _Image:
    """One image's rows and what has been learnt of them: opaque pairs' brightness deltas
    and which pixels sit in a flat area (three or more equal neighbours, the border one)."""

    def __init__(
        self,
        rows: Rows,
        width: int,
        height: int,
        checkerboard: bool,
        brightness: dict[int, dict[int, float]] | None = None,
    ) -> None:
        self.rows, self.width, self.height = rows, width, height
        self.checkerboard = checkerboard
        self._flat: dict[int, bool] = {}
        # The brightness deltas of opaque pixels, by the centre pixel, then its neighbour:
        # the same in either image, so both images share them.
        self._brightness = {} if brightness is None else brightness

    def around(self, x: int, y: int) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
        """The border count (pixelmatch counts one equal neighbour for a pixel on the
        border), the pixel's neighbours in visiting order, and which of ``OFFSETS`` each is."""
        rows, width, height = self.rows, self.width, self.height
        if 0 < x < width - 1 and 0 < y < height - 1:
            above, row, below = rows[y - 1], rows[y], rows[y + 1]
            left, right = x - 1, x + 1
            pixels = (above[left], row[left], below[left], above[x])
            return 0, (*pixels, below[x], above[right], row[right], below[right]), _ALL
        which = tuple(
            i for i, (dx, dy) in enumerate(OFFSETS) if 0 <= x + dx < width and 0 <= y + dy < height
        )
        return 1, tuple(rows[y + OFFSETS[i][1]][x + OFFSETS[i][0]] for i in which), which

    def flat(self, x: int, y: int) -> bool:
        """pixelmatch's hasManySiblings: three or more equal neighbours, the border one."""
        pos = y * self.width + x
        found = self._flat.get(pos)
        if found is not None:
            return found
        rows = self.rows
        if 0 < x < self.width - 1 and 0 < y < self.height - 1:
            above, row, below = rows[y - 1], rows[y], rows[y + 1]
            centre, left, right = row[x], x - 1, x + 1
            equal = (above[left], row[left], below[left], above[x], below[x]).count(centre)
            equal += (above[right], row[right], below[right]).count(centre)
        else:
            border, pixels, _which = self.around(x, y)
            equal = border + pixels.count(rows[y][x])
        found = self._flat[pos] = equal > 2
        return found

    def antialiased(self, other: _Image, x: int, y: int) -> bool:
        """pixelmatch's antialiased: at most two neighbours of zero brightness delta (the
        border one), a darker and a brighter one, and the darkest or the brightest of them
        in a flat area of both images."""
        rows = self.rows
        if 0 < x < self.width - 1 and 0 < y < self.height - 1:
            above, row, below = rows[y - 1], rows[y], rows[y + 1]
            centre = row[x]
            left, right = x - 1, x + 1
            pixels: tuple[int, ...] = (above[left], row[left], below[left], above[x])
            pixels += (below[x], above[right], row[right], below[right])
            zeroes, which = 0, _ALL
        else:
            centre = rows[y][x]
            zeroes, pixels, which = self.around(x, y)
        # Equal pixels have a zero delta: three of them rule anti-aliasing out at once.
        zeroes += pixels.count(centre)
        if zeroes > 2:
            return False
        known = self._brightness.get(centre) if centre >= _OPAQUE else None
        if known is None and centre >= _OPAQUE:
            known = self._brightness[centre] = {}
        low = high = 0.0
        darkest = brightest = 0
        i = -1
        for pixel in pixels:
            i += 1
            if pixel == centre:
                continue  # counted above
            if known is not None and pixel >= _OPAQUE:  # no background: keep the delta
                delta = known.get(pixel)
                if delta is None:
                    delta = known[pixel] = _opaque_brightness(centre, pixel)
            else:  # blended over the background at the centre's offset
                k = (y * self.width + x) * 4
                delta = brightness_delta(centre, pixel, k, self.checkerboard)
            if delta < low:
                low, darkest = delta, i
            elif delta > high:
                high, brightest = delta, i
            elif delta == 0:
                zeroes += 1
                if zeroes > 2:
                    return False
        if low == 0 or high == 0:
            return False
        dx, dy = OFFSETS[which[darkest]]
        if self.flat(x + dx, y + dy) and other.flat(x + dx, y + dy):
            return True
        dx, dy = OFFSETS[which[brightest]]
        return self.flat(x + dx, y + dy) and other.flat(x + dx, y + dy)


_ALL = tuple(range(len(OFFSETS)))


def _opaque_brightness(p1: int, p2: int) -> float:
    """``brightness_delta`` of two opaque pixels: their differences are exact integers."""
    return (
        ((p1 & 255) - (p2 & 255)) * Y_R
        + ((p1 >> 8 & 255) - (p2 >> 8 & 255)) * Y_G
        + ((p1 >> 16 & 255) - (p2 >> 16 & 255)) * Y_B
    )


def counted(
    first: Rows,
    second: Rows,
    size: tuple[int, int],
    changed: Iterable[tuple[int, int]],
    *,
    threshold: float,
    include_aa: bool,
    checkerboard: bool = True,
) -> list[int]:
    """The flat positions, in the order given, of the ``changed`` pixels (x, y: their
    values differ) that pixelmatch counts: over the threshold and, unless ``include_aa``,
    anti-aliasing in neither image."""
    width, height = size
    max_delta = MAX_YIQ_DELTA * threshold * threshold
    brightness: dict[int, dict[int, float]] = {}
    a = _Image(first, width, height, checkerboard, brightness)
    b = _Image(second, width, height, checkerboard, brightness)
    deltas: dict[int, float] = {}
    found: list[int] = []
    for x, y in changed:
        p1, p2 = first[y][x], second[y][x]
        pos = y * width + x
        if p1 & p2 & _OPAQUE == _OPAQUE:
            key = p1 << 32 | p2
            delta = deltas.get(key)
            if delta is None:
                delta = deltas[key] = color_delta(p1, p2, 0, False)
        else:
            delta = color_delta(p1, p2, pos * 4, checkerboard)
        if abs(delta) <= max_delta:
            continue
        if not include_aa and (a.antialiased(b, x, y) or b.antialiased(a, x, y)):
            continue
        found.append(pos)
    return found
