"""One image as the visual measures read it: decoded once, each reading of it computed once.

A judged view with a reference and a previous render compares three images several ways
(fidelity, the pixel numbers, closer-to-reference for this render and the previous one); the
layout blocks and the composition-scale grey of each image are the costly part, so a
``Picture`` keeps them, the comparisons made with another picture (SSIM, structure changes:
fidelity and closer-to-reference both ask for the render's), and the reference keeps its copy
resized to a render's size.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from argus.judge.composition import StructureChange, structure_changes
from argus.judge.layout import Block, find_blocks, find_regions
from argus.judge.ssim import Grey, grey_block_mean, mean_ssim

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
        self._ssim: dict[Picture, float] = {}
        self._changes: dict[Picture, list[StructureChange]] = {}

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

    def ssim(self, other: Picture) -> float:
        """Mean SSIM at composition scale against ``other`` (of the same size)."""
        if other not in self._ssim:
            self._ssim[other] = mean_ssim(self.composition, other.composition)
        return self._ssim[other]

    def changes_from(self, reference: Picture) -> list[StructureChange]:
        """What moved, appeared or vanished between ``reference``'s composition and this one."""
        if reference not in self._changes:
            ours, theirs = self.layout, reference.layout
            self._changes[reference] = structure_changes(
                ours.regions, ours.blocks, theirs.regions, theirs.blocks
            )
        return self._changes[reference]
