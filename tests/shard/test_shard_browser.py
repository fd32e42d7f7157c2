"""The example app sensed and gated in 3 shards, as 3 CI machines would, then merged: the same
verdicts, order and exit code as one unsharded `argus gates --all --sense`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from argus.spec import load_spec
from tests.conftest import RunArgus
from tests.support.habits import HABITS_SPEC, copy_habits

pytestmark = pytest.mark.browser


def test_three_sharded_machines_merge_to_one_run(tmp_path: Path, run_argus: RunArgus) -> None:
    # One seeded defect, so the merged run holds green and red views; the exit codes of an
    # all-green merge and of a red one are tests/shard/test_merge.py's, without a browser.
    root = copy_habits(tmp_path, ("missing_id",))
    slugs = [view.slug for view in load_spec(root / HABITS_SPEC).views()]
    args = ("gates", "--feature", "habits", "--all", "--sense")
    whole = run_argus(*args, "--out", str(tmp_path / "whole"), "--json", cwd=root)
    assert whole.returncode == 1, whole.stderr
    expected = {slug: r["all_green"] for slug, r in json.loads(whole.stdout).items()}
    shards = []
    for index in (1, 2, 3):  # each "machine" writes into its own directory
        out = tmp_path / f"machine-{index}"
        done = run_argus(*args, "--shard", f"{index}/3", "--out", str(out), cwd=root)
        assert done.returncode in (0, 1), done.stderr
        shards.append(root / f".argus/results/gates-habits-shard-{index}-of-3.json")
    merged = run_argus("merge", *map(str, shards), "--json", cwd=root)
    assert merged.returncode == whole.returncode, merged.stderr
    views = json.loads(merged.stdout)["views"]
    assert [v["slug"] for v in views] == slugs
    assert {v["slug"]: v["status"] == "green" for v in views} == expected
    assert set(expected.values()) == {True, False}, expected  # both kinds of view merged
    report = root / ".argus/results/merged-gates-habits/report.html"
    assert all(slug in report.read_text() for slug in slugs)
