"""The contract runner on the run-state layer: a run an earlier Argus left (state.json and a
ledger.jsonl written here by hand) is imported into the run store, then reads, resumes and
verifies; workspaces are separate; a closed run is archived when the contract starts again and
is listed by ``status``, its ledger still in the store."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from argus.cli import main
from argus.contract import run
from argus.contract.hook import run_stop_hook
from argus.contract.model import load_contract
from argus.contract.registry import remembered
from argus.contract.state import load_state
from argus.store.chain import link_hash
from argus.store.model import CHAINED_COLUMNS, chain_content
from tests.contract.conftest import ledger_rows, summarize, tamper, write_contract

RUN_DIR = Path(".argus/contracts/ship-it")


def _hash(entry: dict[str, Any]) -> str:
    """How the ledger's lines were hashed before the run-state layer: SHA-256 of the line's
    canonical JSON without its own hash."""
    body = {k: v for k, v in entry.items() if k != "hash"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def earlier_run(root: Path, phase: str = "paused") -> list[str]:
    """A paused run as an earlier Argus left it: state.json (version 2) and its ledger."""
    contract = load_contract(write_contract(root))
    stage = {"status": "pending", "attempts": 0, "last": {}, "evidence_sha256": None}
    stages = {"check": {**stage, "worktree": None}, "review": {**stage, "worktree": None}}
    fields = {
        "run_id": "0123456789abcdef",
        "contract_sha256": contract.digest,
        "executor_model": "anthropic/the-builder",
        "phase": phase,
        "resume_phase": "running",
        "reason": "a person looks at it",
        "total_attempts": 0,
        "judgment_dispatches": 0,
        "mechanical_failures": 0,
        "fingerprint": "f" * 64,
    }
    state = {
        "version": 2,
        **fields,
        "contract_id": "ship-it",
        "contract_path": str(root / "contract.json"),
        "stages": stages,
        "history": [{"at": "2025-01-01T00:00:00+00:00", "from": "running", "to": phase}],
    }
    lines, previous = [], ""
    changes = [
        {"kind": "run", "record": fields},
        *({"kind": "stage", "stage": k, "record": v} for k, v in stages.items()),
    ]
    for seq, change in enumerate(changes, 1):
        entry = {"seq": seq, "prev": previous, **change}
        entry["hash"] = previous = _hash(entry)
        lines.append(json.dumps(entry, sort_keys=True, separators=(",", ":")))
    (root / RUN_DIR).mkdir(parents=True)
    (root / RUN_DIR / "state.json").write_text(json.dumps(state, indent=2))
    (root / RUN_DIR / "ledger.jsonl").write_text("\n".join(lines) + "\n")
    return lines


def cli(root: Path, *args: str) -> int:
    return main(["contract", *args, "--root", str(root)])


def test_a_run_an_earlier_argus_left_reads_resumes_and_verifies(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = earlier_run(repo)
    assert cli(repo, "status") == 0
    assert "ship-it: paused (a person looks at it)" in capsys.readouterr().out
    assert cli(repo, "verify", "ship-it") == 0
    assert "ledger intact (3 record(s)" in capsys.readouterr().out
    assert run.resume(repo, "ship-it").phase == "running"
    assert cli(repo, "verify", "ship-it") == 0
    written = [payload for _, _, payload in ledger_rows(repo)]
    old = [json.loads(line) for line in lines]
    assert len(written) == 4, "the old records, then the resume's"
    for record, line in zip(written[:3], old, strict=False):
        assert (record["seq"], record["record"]) == (line["seq"], line["record"])
    assert not (repo / RUN_DIR / "ledger.jsonl").exists(), "imported: never written again"
    kept = (repo / RUN_DIR / "ledger.imported.jsonl").read_text().splitlines()
    assert kept == lines, "the old lines stay as they were"
    assert load_state(repo, "ship-it").phase == "running"


def test_verify_names_the_first_line_edited_outside_argus(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    earlier_run(repo)
    assert cli(repo, "verify", "ship-it") == 0  # imported
    (first, _, _), (second, _, payload), (third, _, _) = ledger_rows(repo)
    payload["record"]["status"] = "passed"
    tamper(repo, "UPDATE events SET payload = ? WHERE id = ?", json.dumps(payload), second)
    capsys.readouterr()
    assert cli(repo, "verify", "ship-it") == 1
    out = capsys.readouterr().out
    assert f"hash chain is broken at event {second}" in out and "edited" in out
    # Re-hashed: the event after it no longer follows it.
    with closing(sqlite3.connect(repo / ".argus/argus.db")) as conn:
        row = conn.execute(
            f"SELECT prev_hash, {', '.join(CHAINED_COLUMNS)} FROM events WHERE id = ?", (second,)
        ).fetchone()
    rehashed = link_hash(row[0], chain_content(tuple(row[1:])))
    tamper(repo, "UPDATE events SET hash = ? WHERE id = ?", rehashed, second)
    assert cli(repo, "verify", "ship-it") == 1
    assert f"hash chain is broken at event {third}" in capsys.readouterr().out
    assert first < second < third


def test_verify_finds_a_state_json_that_is_not_the_ledger_s_view(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    earlier_run(repo)
    raw = json.loads((repo / RUN_DIR / "state.json").read_text())
    raw["phase"] = "completed"
    (repo / RUN_DIR / "state.json").write_text(json.dumps(raw))
    assert cli(repo, "verify", "ship-it") == 1
    assert "does not match the run's ledger" in capsys.readouterr().out


# -- workspaces are separate ---------------------------------------------------------------


def git_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    (path / "argus.toml").write_text('[implementer]\nmodel = "anthropic/the-builder"\n')
    subprocess.run(["git", "init", "-q", str(path)], check=True, capture_output=True)
    return path


def hook(cwd: Path) -> str:
    return run_stop_hook(json.dumps({"cwd": str(cwd)}).encode(), None, cwd)


@pytest.mark.parametrize("nested", [False, True])
def test_an_open_run_in_one_repository_holds_no_session_in_another(
    tmp_path: Path, nested: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    first = git_repo(tmp_path / "first")
    # Nested: a repository of its own inside the first one's folder (a vendored checkout).
    second = git_repo(first / "vendor" / "second" if nested else tmp_path / "second")
    run.start(first, write_contract(first), "anthropic/the-builder", "")
    (first / "src").mkdir()
    assert json.loads(hook(first / "src"))["decision"] == "block"
    assert hook(second) == ""
    assert cli(second, "status") == 0
    assert capsys.readouterr().out.strip() == "no contract runs"
    assert run.start(second, write_contract(second), "anthropic/the-builder", "").phase == (
        "running"
    )
    assert [e["root"] for e in remembered(first)] == [str(first.resolve())]
    summarize(second)
    run.abort(second, "ship-it", "done here")
    assert hook(second) == ""
    # The first run's files deleted: the registry still holds the first session, and only it.
    shutil.rmtree(first / ".argus")
    assert "files are gone" in json.loads(hook(first / "src"))["reason"]
    assert hook(second) == ""


def test_a_session_of_the_outer_project_in_a_nested_repository_is_still_held(
    tmp_path: Path,
) -> None:
    # A nested repository is a workspace of its own (above), but a session whose project is
    # the outer one (CLAUDE_PROJECT_DIR) and that moved into the nested one is still held.
    outer = git_repo(tmp_path / "outer")
    nested = git_repo(outer / "vendor" / "inner")
    run.start(outer, write_contract(outer), "anthropic/the-builder", "")
    assert hook(nested) == ""
    event = json.dumps({"cwd": str(nested)}).encode()
    held = json.loads(run_stop_hook(event, str(outer), nested))
    assert held["decision"] == "block" and "ship-it" in held["reason"]


# -- a closed run is archived when the contract starts again ------------------------------


def test_the_next_start_archives_a_closed_run_with_its_summary_and_status_lists_it(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = run.start(repo, write_contract(repo), "anthropic/the-builder", "").run_id
    summarize(repo)
    run.abort(repo, "ship-it", "a person ends it")
    capsys.readouterr()
    assert cli(repo, "status") == 0
    assert "archived run" not in capsys.readouterr().out  # closed, not archived yet
    second = run.start(repo, repo / "contract.json", "anthropic/the-builder", "").run_id
    assert second != first
    assert not (repo / RUN_DIR / "summaries").exists(), "the old summary moved with its run"
    assert cli(repo, "status") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "ship-it: running (started)"
    (listed,) = [line for line in out if "archived run" in line]
    assert f"archived run {first}: aborted, with its summary" in listed
    assert cli(repo, "status", "--json") == 0
    (shown,) = json.loads(capsys.readouterr().out)
    assert shown["run_id"] == second
    (old,) = shown["archived"]
    assert (old["run_id"], old["phase"], old["summary"]) == (first, "aborted", True)
    assert old["records"] >= 2, "its ledger stays in the run store"
    assert cli(repo, "verify", "ship-it") == 0
    assert f"archived run {first}: ledger intact" in capsys.readouterr().out
    assert list((Path(old["folder"]) / "summaries").glob("*-summary.md"))


def test_an_archive_cut_short_is_finished_by_the_next_start_never_split_or_mixed(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = run.start(repo, write_contract(repo), "anthropic/the-builder", "").run_id
    summarize(repo)
    run.abort(repo, "ship-it", "a person ends it")
    moved: list[str] = []
    real = Path.rename

    def cut_short(self: Path, target: Path) -> Path:
        if len(moved) == 2:
            raise OSError(28, "No space left on device")
        moved.append(self.name)
        return real(self, target)

    monkeypatch.setattr(Path, "rename", cut_short)
    with pytest.raises(OSError):
        run.start(repo, repo / "contract.json", "anthropic/the-builder", "")
    monkeypatch.setattr(Path, "rename", real)
    assert "state.json" not in moved, "what names the run moves last"
    assert load_state(repo, "ship-it").phase == "aborted"  # the closed run is still there
    second = run.start(repo, repo / "contract.json", "anthropic/the-builder", "")
    (archived,) = (repo / RUN_DIR / "archive").iterdir()
    assert archived.name.endswith(first)
    assert {"state.json", "summaries", "summary-current.json"} <= {
        p.name for p in archived.iterdir()
    }
    new_ledger = [p for _, name, p in ledger_rows(repo) if name.endswith(second.run_id)]
    assert new_ledger[0]["seq"] == 1, "the new run's ledger is its own"
    assert new_ledger[0]["record"]["run_id"] == second.run_id
    assert cli(repo, "verify", "ship-it") == 0


def test_a_contract_with_only_archived_runs_is_listed(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from argus.contract.history import archive_run

    state = run.start(repo, write_contract(repo), "anthropic/the-builder", "")
    summarize(repo)
    archive_run(repo, run.abort(repo, "ship-it", "a person ends it"))
    assert cli(repo, "status") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "ship-it: no open run"
    assert out[1].startswith(f"  archived run {state.run_id}: aborted, with its summary (")
    assert cli(repo, "status", "--json") == 0
    (shown,) = json.loads(capsys.readouterr().out)
    assert shown["phase"] is None and shown["archived"][0]["run_id"] == state.run_id
