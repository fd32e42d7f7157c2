"""A report-only loop split with --shard: each shard converges only its views, and the shards
together cover the unsharded run's views with the same statuses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from argus.loop.engine.modes import Mode
from argus.loop.engine.run import LoopOptions, run_loop
from argus.shard.split import Shard, shard_views
from argus.spec import load_spec
from tests.loop.fakeapp import FEATURE, FakeServices, make_repo

STATES = ("a", "b", "c", "d", "e")


def _run(root: Path, only: frozenset[str] | None) -> dict[str, str]:
    options = LoopOptions(feature=FEATURE, root=root, mode=Mode.REPORT_ONLY, only_views=only)
    outcome = run_loop(options, services_factory=lambda *a: FakeServices(*a))
    return {v.view.slug: v.status.value for v in outcome.views}


def test_shards_of_a_report_only_run_cover_it_once(tmp_path: Path) -> None:
    defects: list[dict[str, Any]] = [
        {"name": "spacing", "kind": "dimension", "target": "layout_spacing"}
    ]
    root = make_repo(tmp_path, defects, states=STATES)
    whole = _run(root, None)
    assert len(whole) == len(STATES)
    views = load_spec(root / "argus/specs" / FEATURE / "spec.json").views()
    merged: dict[str, str] = {}
    for index in (1, 2, 3):
        mine = frozenset(v.slug for v in shard_views(views, Shard(index, 3)))
        ran = _run(root, mine)
        assert set(ran) == mine  # nothing outside the shard was touched
        assert not set(ran) & set(merged)
        merged.update(ran)
    assert merged == whole


def test_missing_reference_is_bootstrapped_only_by_the_canonical_views_shard(
    tmp_path: Path,
) -> None:
    root = make_repo(tmp_path, states=STATES, reference="needed")
    assert _run(root, frozenset({"list-b-light"})) == {}
    assert set(_run(root, frozenset({"list-a-light"}))) == {"list-a-light"}
