"""Evidence files for assertion tests: a small screenshot and a UI tree, written just now."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from argus.assertion import AssertionPacket, build_packet

TREE = {
    "version": 1,
    "url": "http://127.0.0.1/plans",
    "elements": [{"index": 0, "tag": "h1", "role": "heading", "name": "Choose a tier"}],
    "aria_snapshot": '- heading "Choose a tier" [level=1]',
}


def write_evidence(directory: Path, tree: object = TREE) -> dict[str, Path]:
    directory.mkdir(parents=True, exist_ok=True)
    shot = directory / "shot.png"
    Image.new("RGBA", (64, 48), (240, 240, 240, 255)).save(shot)
    ui = directory / "tree.json"
    ui.write_text(json.dumps(tree), "utf-8")
    return {"screenshot": shot, "ui-tree": ui}


@pytest.fixture
def packet(tmp_path: Path) -> AssertionPacket:
    return build_packet(
        tmp_path / "packet",
        assertion="The selected tier is highlighted.",
        evidence=write_evidence(tmp_path / "captured"),
        vocabulary="plans are called tiers",
    )
