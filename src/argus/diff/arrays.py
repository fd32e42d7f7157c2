"""The array types the diff modules pass around."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

U8 = npt.NDArray[np.uint8]  # RGBA images (H x W x 4), channel bytes, counts
U32 = npt.NDArray[np.uint32]  # pixels as one word each
F64 = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]  # flat pixel positions
Mask = npt.NDArray[np.bool_]
