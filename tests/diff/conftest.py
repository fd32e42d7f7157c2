"""Shared helpers for the diff tests: fixture paths and small synthetic images."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from argus.diff import save_png

FIXTURES = Path(__file__).parent / "fixtures" / "pixelmatch-7.2.0"


def page(width: int = 64, height: int = 48) -> np.ndarray:
    """A small flat page: light background, a dark bar, a blue box."""
    img = np.full((height, width, 4), 250, dtype=np.uint8)
    img[..., 3] = 255
    img[4:8, 4 : width - 4, :3] = (20, 20, 20)
    img[20:36, 10:30, :3] = (36, 99, 235)
    return img


@pytest.fixture
def write_png(tmp_path: Path):  # type: ignore[no-untyped-def]
    def write(name: str, img: np.ndarray) -> Path:
        path = tmp_path / name
        save_png(path, img)
        return path

    return write
