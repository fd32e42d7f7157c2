"""pixelmatch 7.2.0's constants, shared by the vectorised kernel (``argus.diff.yiq``,
``argus.diff._antialias``) and the per-pixel path (``argus.diff._pixelwise``). No numpy."""

from __future__ import annotations

# The largest possible YIQ delta (black against white): thresholds scale it quadratically.
MAX_YIQ_DELTA = 35215.0

Y_R, Y_G, Y_B = 0.29889531, 0.58662247, 0.11448223
I_R, I_G, I_B = 0.59597799, 0.27417610, 0.32180189
Q_R, Q_G, Q_B = 0.21147017, 0.52261711, 0.31114694

# Semi-transparent pixels are composited over a background before comparing. pixelmatch 7
# derives a per-pixel "checkerboard" from the pixel's byte offset k (always a multiple of 4,
# so the red term is constant) and the golden ratio; 255 (white) when the option is off.
PHI = 1.618033988749895
PHI_SQUARED = 2.618033988749895

# Neighbour offsets (dx, dy) in pixelmatch's visiting order (x outer, y inner): the order
# decides which of two equally dark (or bright) neighbours counts as the darkest.
OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
