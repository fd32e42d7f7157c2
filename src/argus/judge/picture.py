"""One image as the visual measures read it: decoded once, each reading of it computed once.

A judged view with a reference and a previous render compares three images several ways
(fidelity, the pixel numbers, closer-to-reference for this render and the previous one); the
layout blocks and the composition-scale grey of each image are the costly part, so a
``Picture`` keeps them, the comparisons made with another picture (SSIM, structure changes:
fidelity and closer-to-reference both ask for the render's), and the reference keeps its copy
resized to a render's size.

Pictures are also kept across judge calls in one process, by the SHA-256 of the PNG file (the
packet's manifest digest, verified when the packet is read): in the loop the reference is the
same file every iteration and the previous render is the render judged one iteration before,
so only the new render is decoded and read. A picture depends on nothing but its pixels, and
its pixel array is read-only, so a kept one is exactly what decoding again would give.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from argus.diff.png import decode_png
from argus.judge._composition import StructureChange, structure_changes
from argus.judge._layout import Block, find_blocks, find_regions
from argus.judge._ssim import Grey, grey_block_mean, mean_ssim

SSIM_DOWNSAMPLE = 4  # composition scale: 4×4 px blocks averaged before SSIM
KEPT_PICTURES = 6  # recent pictures kept by digest: a loop's reference, render and previous one

RGBA8 = NDArray[np.uint8]


@dataclass(frozen=True)
class Layout:
    regions: list[Block]
    blocks: list[Block]


class Picture:
    """An RGBA image and its readings: layout blocks and composition-scale grey levels."""

    def __init__(self, pixels: RGBA8) -> None:
        pixels.flags.writeable = False  # shared between measures (and judge calls): never edited
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


_kept: OrderedDict[str, Picture] = OrderedDict()
_kept_lock = threading.Lock()


def kept_picture(digest: str) -> Picture | None:
    """The picture of the PNG file whose SHA-256 is ``digest``, if one was kept."""
    with _kept_lock:
        picture = _kept.get(digest)
        if picture is not None:
            _kept.move_to_end(digest)
        return picture


def keep_picture(digest: str, picture: Picture) -> None:
    """Keep ``picture`` for the PNG file with SHA-256 ``digest`` (the least recent one goes)."""
    with _kept_lock:
        _kept[digest] = picture
        _kept.move_to_end(digest)
        while len(_kept) > KEPT_PICTURES:
            _kept.popitem(last=False)


def forget_pictures() -> None:
    """Drop every kept picture (what a new process starts with)."""
    with _kept_lock:
        _kept.clear()


def picture_of(digest: str, decode: Callable[[], RGBA8]) -> Picture:
    """The kept picture for ``digest``, or a new one from ``decode()`` (then kept)."""
    picture = kept_picture(digest)
    if picture is None:
        picture = Picture(decode())
        keep_picture(digest, picture)
    return picture


def warm_picture(path: Path) -> None:
    """Decode ``path`` and compute its readings ahead of a judge that will need them (kept by
    the file's digest, as a packet names it). Anything unreadable is left for the judge."""
    try:
        data = path.read_bytes()
        picture = picture_of(
            hashlib.sha256(data).hexdigest(), lambda: decode_png(data, source=path)
        )
        picture.layout  # noqa: B018 (computed and kept)
        picture.composition  # noqa: B018
    except Exception:  # a broken reference is reported by the judge that reads it
        return
