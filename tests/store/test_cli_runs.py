"""`argus runs` through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

from argus.store import CONTRACT_MODE, Event, RunStore, db_path
from tests.conftest import RunArgus


def _seed(root: Path) -> tuple[str, str]:
    with RunStore.open(root) as store:
        first = store.start_run("habits", "headless")
        store.append(Event(kind="run_started", feature="habits", run_id=first))
        store.append(
            Event(
                kind="verdict",
                feature="habits",
                run_id=first,
                target="list",
                state="populated",
                appearance="light",
                iteration=1,
                payload={"all_pass": True},
            )
        )
        store.finish_run(first, "DONE")
        second = store.start_run("settings", "report-only")
        store.append(Event(kind="note", feature="settings", run_id=second, payload={"n": 1}))
    return first, second


def test_no_store_yet_is_not_an_error_and_creates_nothing(
    run_argus: RunArgus, tmp_path: Path
) -> None:
    (tmp_path / "argus.toml").write_text("")
    result = run_argus("runs", cwd=tmp_path)
    assert result.returncode == 0 and "no runs recorded yet" in result.stdout
    assert not db_path(tmp_path).exists()
    result = run_argus("runs", "--json", cwd=tmp_path)
    assert json.loads(result.stdout) == {"runs": [], "reviews": []}


def test_lists_runs_with_event_counts(run_argus: RunArgus, tmp_path: Path) -> None:
    (tmp_path / "argus.toml").write_text("")
    first, second = _seed(tmp_path)
    result = run_argus("runs", cwd=tmp_path)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[1].startswith(second) and "running" in lines[1]  # most recent first
    assert lines[2].startswith(first) and "DONE" in lines[2] and "verdict 1" in lines[2]


def test_a_contract_run_is_listed_as_one_open_then_with_its_phase(
    run_argus: RunArgus, tmp_path: Path
) -> None:
    (tmp_path / "argus.toml").write_text("")
    _seed(tmp_path)
    name = "contract/ship-it/0123"
    with RunStore.open(tmp_path) as store:  # as argus.contract._ledger keeps one
        store.open_run(name, "contract/ship-it", CONTRACT_MODE)
    listed = run_argus("runs", cwd=tmp_path).stdout.splitlines()[1].split()
    assert listed[:3] == [name, "contract/ship-it", "contract"] and listed[4] == "open"
    (shown, *loops) = json.loads(run_argus("runs", "--json", cwd=tmp_path).stdout)["runs"]
    assert (shown["kind"], shown["status"]) == ("contract", None)
    assert {run["kind"] for run in loops} == {"loop"}
    with RunStore.open(tmp_path) as store:
        store.append(
            Event(kind="run_finished", feature="contract/ship-it", run_id=name,
                  payload={"status": "aborted"})
        )  # fmt: skip
        store.finish_run(name, "aborted")
    assert run_argus("runs", cwd=tmp_path).stdout.splitlines()[1].split()[4] == "aborted"


def test_feature_filter_and_json(run_argus: RunArgus, tmp_path: Path) -> None:
    (tmp_path / "argus.toml").write_text("")
    first, _ = _seed(tmp_path)
    result = run_argus("runs", "--feature", "habits", "--json", cwd=tmp_path)
    runs = json.loads(result.stdout)["runs"]
    assert [run["run_id"] for run in runs] == [first]
    assert [event["kind"] for event in runs[0]["events"]] == ["run_started", "verdict"]
    assert runs[0]["events"][1]["payload"] == {"all_pass": True}


def test_one_run_with_kind_filter(run_argus: RunArgus, tmp_path: Path) -> None:
    (tmp_path / "argus.toml").write_text("")
    first, _ = _seed(tmp_path)
    result = run_argus("runs", "--run", first, "--kind", "verdict", cwd=tmp_path)
    assert result.returncode == 0
    assert "verdict" in result.stdout and "list/populated/light #1" in result.stdout
    assert "run_started" not in result.stdout
    result = run_argus("runs", "--run", "nope", cwd=tmp_path)
    assert result.returncode == 2 and "no run 'nope'" in result.stderr


def test_corrupt_store_is_one_line_exit_2(run_argus: RunArgus, tmp_path: Path) -> None:
    (tmp_path / "argus.toml").write_text("")
    path = db_path(tmp_path)
    path.parent.mkdir()
    path.write_text("definitely not sqlite\n" * 200)
    result = run_argus("runs", cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"argus: {path}")
    assert "Traceback" not in result.stderr


def test_report_only_runs_are_listed_too(run_argus: RunArgus, tmp_path: Path) -> None:
    # report-only keeps its own store inside the feature's run directory.
    (tmp_path / "argus.toml").write_text("")
    first, _ = _seed(tmp_path)
    spec_dir = tmp_path / "argus" / "specs" / "habits"
    spec_dir.mkdir(parents=True)
    (spec_dir / "spec.json").write_text("{}")
    with RunStore.open(spec_dir / ".argus-runs" / "report-only") as store:
        dry = store.start_run("habits", "report-only")
        store.append(Event(kind="run_started", feature="habits", run_id=dry))
        store.finish_run(dry, "FAILED")
    result = run_argus("runs", "--json", cwd=tmp_path)
    runs = {run["run_id"]: run for run in json.loads(result.stdout)["runs"]}
    assert {first, dry} <= set(runs)
    assert (runs[dry]["mode"], runs[dry]["status"]) == ("report-only", "FAILED")
    one = run_argus("runs", "--run", dry, cwd=tmp_path)
    assert one.returncode == 0 and one.stdout.startswith(f"run {dry}: habits, report-only")


def test_reviews_are_listed_and_found_by_kind(run_argus: RunArgus, tmp_path: Path) -> None:
    from argus.review.record import record_outcome, record_review

    (tmp_path / "argus.toml").write_text("")
    first, _ = _seed(tmp_path)
    review = record_review(
        tmp_path, "habits", {"verdict": "unmet", "confidence": 0.9, "flag": "notify"}
    )
    assert review.id is not None
    record_outcome(tmp_path, review.id, "agreed")
    listed = run_argus("runs", cwd=tmp_path)
    assert first in listed.stdout and f"#{review.id}" in listed.stdout
    assert "unmet, confidence 0.9, flag notify" in listed.stdout
    only = run_argus("runs", "--kind", "acceptance_fidelity_review", "--json", cwd=tmp_path)
    data = json.loads(only.stdout)
    assert data["runs"] == [], "no loop run holds a review"
    assert [e["id"] for e in data["reviews"]] == [review.id]
    text = run_argus("runs", "--kind", "acceptance_fidelity_review", cwd=tmp_path).stdout
    assert "no runs match" not in text and first not in text
