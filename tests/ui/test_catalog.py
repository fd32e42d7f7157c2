"""What the review page lists: each view's status and the three filters."""

from __future__ import annotations

from pathlib import Path

from argus.loop.engine.modes import Mode
from argus.ui._catalog import feature_runs
from tests.loop.fakeapp import make_repo
from tests.ui.support import changed_snapshot_repo, loop


def _filters(root: Path) -> dict[str, list[str]]:
    (card,) = feature_runs(root, "demo").views
    return {
        name: [card.slug] if card.matches(name) else [] for name in ("failed", "pending", "changed")
    }


def test_a_red_gate_the_loop_could_not_fix_is_failed(tmp_path: Path) -> None:
    defect = {"name": "x", "kind": "gate", "target": "console", "fixable": False}
    root = make_repo(tmp_path, [defect])
    loop(root)
    (card,) = feature_runs(root, "demo").views
    assert card.report is not None and card.report.gates is not None
    assert card.report.gates.red == ("console",)
    assert _filters(root) == {"failed": ["list-a-light"], "pending": [], "changed": []}


def test_a_candidate_reference_waits_for_a_person(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [], reference="needed")
    loop(root)
    (card,) = feature_runs(root, "demo").views
    assert card.waiting == "HE-1" and card.reference_label == "Candidate reference"
    assert _filters(root) == {"failed": [], "pending": ["list-a-light"], "changed": []}


def test_the_runs_first_signoff_waits_for_its_spotcheck(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [], states=("a", "b"))
    loop(root, Mode.INTERACTIVE)
    waiting = {c.slug: c.waiting for c in feature_runs(root, "demo").views}
    assert waiting == {"list-a-light": "HE-2", "list-b-light": ""}


def test_a_render_that_moved_from_its_baseline_is_changed(tmp_path: Path) -> None:
    root, _, _ = changed_snapshot_repo(tmp_path)
    (card,) = feature_runs(root, "demo").views
    assert card.snapshot is not None and card.snapshot.mismatch == 32 * 24
    assert card.iteration == 2 and card.status == "DONE"
    assert _filters(root)["changed"] == ["list-a-light"]


def test_a_view_the_run_never_reached(tmp_path: Path) -> None:
    root = make_repo(tmp_path, [])
    (card,) = feature_runs(root, "demo").views
    assert (card.status, card.render, card.snapshot) == ("NOT_STARTED", None, None)
    assert _filters(root) == {"failed": [], "pending": [], "changed": []}


def test_an_unreadable_render_is_said_not_compared(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from argus.ui._app import Settings, create_app
    from argus.ui._security import Origin

    root, render, _ = changed_snapshot_repo(tmp_path)
    render.write_bytes(b"not a png")
    (card,) = feature_runs(root, "demo").views
    assert card.snapshot is None and "render.png" in card.error
    assert not card.matches("changed")
    app = create_app(Settings(root, "t", Origin("127.0.0.1", 8765)))
    page = TestClient(app, base_url="http://127.0.0.1:8765").get("/view/demo/list-a-light")
    assert page.status_code == 200 and "cannot compare" in page.text
    assert "Not compared: " in page.text


def test_a_loop_is_seen_by_its_lock_and_never_this_servers_own_decision(tmp_path: Path) -> None:
    import os

    from argus.loop.guard.lock import FeatureLock
    from argus.ui._catalog import loop_holder

    root = make_repo(tmp_path, [])
    spec_dir = root / "argus" / "specs" / "demo"
    assert loop_holder(spec_dir) is None
    with FeatureLock(spec_dir / ".argus-runs", "demo"):
        # Held in this very process, as the server holds it during a decision.
        assert loop_holder(spec_dir) is None
    (spec_dir / ".argus-runs" / "loop.lock").write_text(f"{os.getppid()}\n")
    assert loop_holder(spec_dir) == os.getppid()  # another live process holds it
