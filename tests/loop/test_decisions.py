"""The human decisions (argus.loop.human.decisions): one code path for `argus approve` and
`argus ui`, each recorded in the run store with the OS user and the time, each refused under a
loop."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from argus.config import load_config
from argus.errors import InputError, StateError
from argus.loop.engine.modes import Mode
from argus.loop.engine.run import LoopOptions, run_loop
from argus.loop.guard.lock import FeatureLock
from argus.loop.human.decisions import accept_baseline, latest_render, os_user, record_spotcheck
from argus.loop.records.layout import RunLayout
from argus.loop.records.signoff import load_records
from argus.loop.records.status import Status
from argus.spec import load_spec
from argus.spec.model import View
from argus.store import RunStore
from tests.loop.fakeapp import FEATURE, FakeServices, make_repo, write_png

VIEW = View(FEATURE, "list", "a", "light")


def _run(root: Path, mode: Mode = Mode.HEADLESS) -> Any:
    return run_loop(
        LoopOptions(feature=FEATURE, root=root, mode=mode), services_factory=FakeServices
    )


def _spec_dir(root: Path) -> Path:
    return root / "argus" / "specs" / FEATURE


def _decisions(root: Path) -> list[Any]:
    with RunStore.open(root) as store:
        return store.events(kind="human_decision")


def test_cli_approve_of_a_candidate_is_recorded_with_user_and_time(
    tmp_path: Path, run_argus: Any
) -> None:
    root = make_repo(tmp_path, [], reference="needed")
    first = _run(root)
    assert first.status is Status.NEEDS_CONTEXT
    done = run_argus("approve", "--feature", FEATURE, "--target", "list", cwd=root)
    assert done.returncode == 0, done.stderr
    (event,) = _decisions(root)
    assert event.payload["action"] == "approve_reference"
    assert (event.payload["by"], event.payload["via"]) == (os_user(), "cli")
    assert event.payload["reference"] == f"argus/specs/{FEATURE}/references/list-a-light.png"
    assert (event.target, event.state, event.appearance) == ("list", "a", "light")
    assert event.run_id == first.run_id and event.created_at


def test_cli_spotcheck_with_a_comment_is_recorded(tmp_path: Path, run_argus: Any) -> None:
    root = make_repo(tmp_path, [])
    first = _run(root, Mode.INTERACTIVE)
    wrong = run_argus(
        "approve", "--feature", FEATURE, "--target", "list", "--wrong", "hierarchy",
        "--note", "the heading is not the first thing seen", cwd=root,
    )  # fmt: skip
    assert wrong.returncode == 0, wrong.stderr
    (event,) = _decisions(root)
    assert event.payload["action"] == "spotcheck"
    assert event.payload["status"] == "wrong" and event.payload["wrong_dimension"] == "hierarchy"
    assert event.payload["note"] == "the heading is not the first thing seen"
    assert event.run_id == first.run_id
    (record,) = load_records(_spec_dir(root) / ".argus-runs" / "signoff.json")
    assert record["human_spotcheck"]["note"] == "the heading is not the first thing seen"


def _changed_baseline(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A signed-off view whose baseline has since changed on disk: render != baseline."""
    root = make_repo(tmp_path, [])
    assert _run(root).status is Status.DONE
    render, _ = latest_render(RunLayout(_spec_dir(root)), VIEW) or (None, 0)
    assert render is not None
    baseline = _spec_dir(root) / "__snapshots__" / "list-a-light.png"
    write_png(baseline, "an older look")
    return root, render, baseline


def test_accept_baseline_writes_the_render_and_records_it(tmp_path: Path) -> None:
    root, render, baseline = _changed_baseline(tmp_path)
    spec = load_spec(_spec_dir(root) / "spec.json")
    decision = accept_baseline(spec, load_config(root), VIEW, via="ui")
    assert baseline.read_bytes() == render.read_bytes()
    (event,) = _decisions(root)
    assert event.payload["action"] == "accept_baseline"
    assert event.payload["was"] == "diff"
    assert event.payload["via"] == "ui" and event.payload["by"] == os_user()
    assert event.payload["baseline"] == f"argus/specs/{FEATURE}/__snapshots__/list-a-light.png"
    assert event.payload["iteration"] == decision.payload["iteration"] == 2


def test_cli_accept_baseline(tmp_path: Path, run_argus: Any) -> None:
    root, render, baseline = _changed_baseline(tmp_path)
    result = run_argus(
        "approve", "--feature", FEATURE, "--target", "list", "--state", "a",
        "--appearance", "light", "--baseline", cwd=root,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert baseline.read_bytes() == render.read_bytes()
    assert [e.payload["via"] for e in _decisions(root)] == ["cli"]


def test_accept_baseline_refuses_a_render_newer_than_the_one_shown(tmp_path: Path) -> None:
    root, _, baseline = _changed_baseline(tmp_path)
    before = baseline.read_bytes()
    spec = load_spec(_spec_dir(root) / "spec.json")
    with pytest.raises(StateError, match="newer render"):
        accept_baseline(spec, load_config(root), VIEW, via="ui", iteration=1)
    assert baseline.read_bytes() == before
    assert _decisions(root) == []


def test_decisions_refuse_while_a_loop_holds_the_lock(tmp_path: Path) -> None:
    root, _, baseline = _changed_baseline(tmp_path)
    before = baseline.read_bytes()
    spec = load_spec(_spec_dir(root) / "spec.json")
    with FeatureLock(_spec_dir(root) / ".argus-runs", FEATURE):
        with pytest.raises(StateError, match="another argus loop is running"):
            accept_baseline(spec, load_config(root), VIEW, via="ui")
        with pytest.raises(StateError, match="another argus loop is running"):
            record_spotcheck(spec, VIEW, wrong=None, note=None, via="ui")
    assert baseline.read_bytes() == before
    assert _decisions(root) == []


def test_accept_baseline_without_the_snapshot_gate_is_bad_input(tmp_path: Path) -> None:
    root, _, baseline = _changed_baseline(tmp_path)
    before = baseline.read_bytes()
    (root / "argus.toml").write_text(
        '[judge]\nbackend = "metric"\n[gates]\nenabled = ["console"]\n'
    )
    spec = load_spec(_spec_dir(root) / "spec.json")
    with pytest.raises(InputError, match="does not run the snapshot gate"):
        accept_baseline(spec, load_config(root), VIEW, via="cli")
    assert baseline.read_bytes() == before
    assert _decisions(root) == []
