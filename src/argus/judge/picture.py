"""One image as the visual measures read it: decoded once, each reading of it computed once.

A judged view with a reference and a previous render compares three images several ways
(fidelity, the pixel numbers, closer-to-reference for this render and the previous one); the
layout blocks and the composition-scale grey of each image are the costly part, so a
``Picture`` keeps them, and the reference keeps its copy resized to a render's size.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from argus.judge.layout import Block, find_blocks, find_regions
from argus.judge.ssim import Grey, grey_block_mean

SSIM_DOWNSAMPLE = 4  # composition scale: 4×4 px blocks averaged before SSIM

RGBA8 = NDArray[np.uint8]


@dataclass(frozen=True)
class Layout:
    regions: list[Block]
    blocks: list[Block]


class Picture:
    """An RGBA image and its readings: layout blocks and composition-scale grey levels."""

    def __init__(self, pixels: RGBA8) -> None:
        self.pixels = pixels
        self._fitted: dict[tuple[int, int], Picture] = {}

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.pixels.shape)

    @cached_property
    def layout(self) -> Layout:
        regions = find_regions(self.pixels)
        return Layout(regions, find_blocks(self.pixels, regions))

    @cached_property
    def composition(self) -> Grey:
        """Grey levels averaged over SSIM_DOWNSAMPLE² blocks, what SSIM compares."""
        return grey_block_mean(self.pixels, SSIM_DOWNSAMPLE)

    def fitted(self, shape: tuple[int, ...]) -> Picture:
        """This picture at another image's size (a mock may be drawn at another scale)."""
        if self.pixels.shape[:2] == shape[:2]:
            return self
        size = (int(shape[0]), int(shape[1]))
        if size not in self._fitted:
            resized = Image.fromarray(self.pixels, "RGBA").resize(
                (size[1], size[0]), Image.Resampling.LANCZOS
            )
            self._fitted[size] = Picture(np.asarray(resized, dtype=np.uint8).copy())
        return self._fitted[size]
