"""Pinned contracts (argus.contract.pins): a run starts, retargets and closes only under a
contract a person pinned as it is now, and the Stop hook holds a run whose contract is not."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from argus.cli import main
from argus.contract import run
from argus.contract.hook import stop_decision
from argus.contract.model import load_contract
from argus.contract.pins import PINS, pin_problem
from argus.contract.retarget import retarget
from argus.contract.state import load_state
from argus.errors import InputError
from tests.contract.conftest import summarize, write_contract

GO = json.dumps(
    {"verdict": "GO", "evidence": "done.txt reads 'done'", "findings": [], "nonce": "@NONCE@"}
)


def _unpin_all() -> None:
    for home in (Path(os.environ["ARGUS_STATE_HOME"]), *_other_homes()):
        for record in (home / PINS).glob("*.json"):
            record.unlink()


def _other_homes() -> list[Path]:
    from argus.state_home import state_homes

    return state_homes()[1:]


def _contract(repo: Path) -> Path:
    path = write_contract(repo)  # pins it, as a person would
    _unpin_all()
    return path


def test_an_unpinned_contract_does_not_start(
    repo: Path, real_pins: None, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _contract(repo)
    assert main(["contract", "start", str(path), "--root", str(repo)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "is not pinned" in err
    assert main(["contract", "pin", str(path), "--root", str(repo)]) == 0
    assert "pinned" in capsys.readouterr().out
    assert main(["contract", "start", str(path), "--root", str(repo)]) == 0


def test_a_contract_edited_after_pinning_is_refused_naming_the_file(
    repo: Path, real_pins: None, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _contract(repo)
    assert main(["contract", "pin", str(path), "--root", str(repo)]) == 0
    data = json.loads(path.read_text())
    data["stages"] = data["stages"][:1]  # the executor drops the review
    path.write_text(json.dumps(data))
    assert main(["contract", "start", str(path), "--root", str(repo)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path}: edited after it was pinned" in err


def test_pinning_is_a_person_s_decision(
    repo: Path, real_pins: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _contract(repo)
    monkeypatch.delenv("ARGUS_PERSON_KEY")
    assert main(["contract", "pin", str(path), "--root", str(repo)]) == 2
    assert pin_problem(repo, load_contract(path)) is not None, "nothing was pinned"


def test_a_pin_of_one_s_own_does_not_outvote_the_person_s(repo: Path, real_pins: None) -> None:
    from argus.contract.pins import pin

    path = _contract(repo)
    pin(repo, load_contract(path))
    assert pin_problem(repo, load_contract(path)) is None
    forged = Path(os.environ["ARGUS_STATE_HOME"]) / PINS
    (record,) = forged.glob("*.json")
    record.write_text(json.dumps({**json.loads(record.read_text()), "sha256": "0" * 64}))
    assert "pins disagree" in str(pin_problem(repo, load_contract(path)))


def _passed_and_summarized(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run.start(repo, write_contract(repo), "anthropic/the-builder", "")
    run.advance(repo, "ship-it", "verifying")
    (repo / "done.txt").write_text("done")
    assert run.grade(repo, "ship-it", "check").status == "passed"
    monkeypatch.setenv("GRADER_ANSWER", GO)
    assert run.judge(repo, "ship-it", "review").status == "passed"
    summarize(repo)


def test_complete_and_the_stop_hook_honour_only_a_pinned_contract(
    repo: Path, real_pins: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    _passed_and_summarized(repo, monkeypatch)  # write_contract pinned it
    _unpin_all()  # the pin is gone (or the run predates it)
    with pytest.raises(InputError, match="is not pinned"):
        run.complete(repo, "ship-it")
    decision = stop_decision(repo)
    assert decision is not None and "cannot close" in decision["reason"]
    assert "is not pinned" in decision["reason"]
    assert load_state(repo, "ship-it").phase == "verifying"
    assert main(["contract", "pin", str(repo / "contract.json"), "--root", str(repo)]) == 0
    assert "passed every required stage" in str(stop_decision(repo))
    run.complete(repo, "ship-it")
    assert load_state(repo, "ship-it").phase == "completed" and stop_decision(repo) is None


def test_a_retarget_needs_a_pinned_contract(repo: Path, real_pins: None) -> None:
    run.start(repo, write_contract(repo), "anthropic/the-builder", "")
    data = json.loads((repo / "contract.json").read_text())
    data["name"] = "Ship it, renamed"
    (repo / "new.json").write_text(json.dumps(data))
    with pytest.raises(InputError, match=r"new\.json: edited after it was pinned"):
        retarget(repo, "ship-it", repo / "new.json")
    assert main(["contract", "pin", str(repo / "new.json"), "--root", str(repo)]) == 0
    state, _ = retarget(repo, "ship-it", repo / "new.json")
    assert state.contract_path == str(repo / "new.json")


def test_a_preset_is_pinned_as_argus_toml_makes_it(
    repo: Path, real_pins: None, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "argus.toml").write_text(
        '[implementer]\nmodel = "anthropic/the-builder"\n[judge]\nmodel = "openai/reviewer"\n'
    )
    root = ["--root", str(repo)]
    assert main(["contract", "start", "--preset", "custom-pipeline", *root]) == 2
    assert "is not pinned" in capsys.readouterr().err
    assert main(["contract", "pin", "--preset", "custom-pipeline", *root]) == 0
    assert main(["contract", "start", "--preset", "custom-pipeline", *root]) == 0
    (repo / "argus.toml").write_text(
        '[implementer]\nmodel = "anthropic/the-builder"\n[judge]\nmodel = "openai/weaker"\n'
    )
    summarize(repo, "custom-pipeline")
    assert main(["contract", "abort", "custom-pipeline", "--reason", "x", *root]) == 0
    capsys.readouterr()
    assert main(["contract", "start", "--preset", "custom-pipeline", *root]) == 2
    assert "edited after it was pinned" in capsys.readouterr().err


def _pinned_record(repo: Path) -> tuple[Path, Path]:
    """The person's pin record in ARGUS_STATE_HOME, and the contract it pins."""
    from argus.contract.pins import pin

    path = _contract(repo)
    pin(repo, load_contract(path))
    assert pin_problem(repo, load_contract(path)) is None
    (record,) = (Path(os.environ["ARGUS_STATE_HOME"]) / PINS).glob("*.json")
    return record, path


def test_a_pin_is_kept_by_repository_and_contract_id_with_who_and_when(
    repo: Path, real_pins: None
) -> None:
    import getpass
    import hashlib

    record, path = _pinned_record(repo)
    contract = load_contract(path)
    key = hashlib.sha256(f"{repo.resolve()}\0ship-it".encode()).hexdigest()[:32]
    assert record.name == f"{key}.json"
    kept = json.loads(record.read_text())
    assert isinstance(kept.pop("pinned_at"), str)
    assert kept == {
        "root": str(repo.resolve()),
        "contract_id": "ship-it",
        "path": str(contract.path),
        "sha256": contract.digest,
        "by": getpass.getuser(),
    }


def test_a_pin_by_a_user_without_a_name_says_unknown(
    repo: Path, real_pins: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import getpass

    def nameless() -> str:
        raise KeyError("uid not in the password database")

    monkeypatch.setattr(getpass, "getuser", nameless)
    record, _ = _pinned_record(repo)
    assert json.loads(record.read_text())["by"] == "unknown"


@pytest.mark.parametrize("damage", ["directory", "not json", "too deep", "over 64 KiB"])
def test_a_pin_record_that_cannot_be_read_honours_nothing(
    repo: Path, real_pins: None, damage: str
) -> None:
    record, path = _pinned_record(repo)
    text = record.read_text().rstrip()  # ends with the closing brace
    if damage == "directory":
        record.unlink()
        record.mkdir()
    elif damage == "not json":
        record.write_text(text[:-1])
    elif damage == "too deep":
        record.write_text("[" * 100_000)
    else:  # the same record, whole, behind whitespace: only its first 64 KiB are read
        record.write_text(" " * (65537 - len(text.encode())) + text)
    problem = pin_problem(repo, load_contract(path))
    assert problem is not None and "edited after it was pinned (or its pins disagree)" in problem
