"""What the ledger must hold for a required stage to count as passed (argus.contract._proof),
decided on synthetic ledger entries: each missing piece of evidence leaves the stage unproven."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from argus.contract._proof import unproven
from argus.contract.model import Budget, Contract, Grader, Stage
from argus.contract.state import evidence_digest

EXECUTOR = "anthropic/the-builder"
SHA = "ab" * 32
TREE = "c" * 64


def _stage(stage_id: str, kind: str, **fields: Any) -> Stage:
    base: dict[str, Any] = {"command": None, "pass_criteria": None, "grader": None}
    return Stage(stage_id, stage_id, kind, fields.pop("required", True), (), **{**base, **fields})


STAGES = (
    _stage("check", "mechanical", command="make check"),
    _stage("produce", "executor", prompt="write it", prompt_sha256=SHA),
    _stage("review", "judgment", grader=Grader(None, "/usr/bin/grader", 2)),
    _stage("loop", "loop-grader", grader=Grader("openai/gpt-5", None, 1)),
    _stage("extra", "mechanical", command="make extra", required=False),
)
CONTRACT = Contract("c", "C", STAGES, Budget(), 60.0, Path("c.json"), "d" * 64)

GOOD: dict[str, dict[str, Any]] = {
    "check": {"command": "make check", "exit_code": 0},
    "produce": {
        "input_fingerprint": SHA,
        "output_digest": "0123456789abcdef" * 4,
        "prompt_sha256": SHA,
        "evidence_refs": ["out.txt"],
    },
    "review": {"verdict": "GO", "evidence": "it works", "grader": {"command": "/usr/bin/grader"}},
    "loop": {"verdict": "GO", "evidence": "done", "grader": {"model": "openai/gpt-5"}},
}


def record(last: Any, *, tree: str | None = TREE, status: str = "passed") -> dict[str, Any]:
    digest = evidence_digest(last) if isinstance(last, dict) else "0" * 64
    return {"status": status, "last": last, "evidence_sha256": digest, "worktree": tree}


def entries(**records: dict[str, Any]) -> list[dict[str, Any]]:
    found = {stage_id: record(last) for stage_id, last in GOOD.items()}
    found.update(records)
    out: list[dict[str, Any]] = [{"kind": "run", "record": {"phase": "verifying"}}]
    out += [{"kind": "stage", "stage": k, "record": v} for k, v in found.items()]
    return out


def unproven_ids(ledger: list[dict[str, Any]], tree: str | None = TREE) -> list[str]:
    return [reason.split(" ", 1)[0] for reason in unproven(CONTRACT, EXECUTOR, ledger, tree)]


def test_every_required_stage_proven_and_the_optional_one_ignored() -> None:
    assert unproven(CONTRACT, EXECUTOR, entries(), TREE) == []
    assert unproven_ids([]) == ["check", "produce", "review", "loop"]  # in contract order


def test_the_latest_record_of_a_stage_decides() -> None:
    failed = {"kind": "stage", "stage": "check", "record": record(GOOD["check"], status="failed")}
    assert unproven_ids([*entries(), failed]) == ["check"]
    passed = {"kind": "stage", "stage": "check", "record": record(GOOD["check"])}
    assert unproven_ids([*entries(), failed, passed]) == []


@pytest.mark.parametrize("stage_id", ["check", "produce", "review", "loop"])
def test_a_pass_without_matching_evidence_or_on_another_tree_is_unproven(stage_id: str) -> None:
    last = GOOD[stage_id]
    assert unproven_ids(entries(**{stage_id: record(last, status="failed")})) == [stage_id]
    forged = {**record(last), "evidence_sha256": "0" * 64}
    assert unproven_ids(entries(**{stage_id: forged})) == [stage_id]
    assert unproven_ids(entries(**{stage_id: record("not an object")})) == [stage_id]
    other_tree = record(last, tree="e" * 64)
    assert unproven_ids(entries(**{stage_id: other_tree})) == [stage_id]
    assert unproven_ids(entries(**{stage_id: other_tree}), tree=None) == []  # no tree to compare


@pytest.mark.parametrize(
    "last",
    [
        {"command": "make other", "exit_code": 0},
        {"command": "make check", "exit_code": 1},
        {"command": "make check"},
    ],
)
def test_a_mechanical_pass_needs_exit_0_of_its_own_command(last: dict[str, Any]) -> None:
    assert unproven_ids(entries(check=record(last))) == ["check"]


@pytest.mark.parametrize(
    "change",
    [
        {"input_fingerprint": SHA[:-1]},
        {"input_fingerprint": SHA + "a"},
        {"input_fingerprint": SHA.upper()},
        {"input_fingerprint": "X" * 64},
        {"input_fingerprint": None},
        {"output_digest": "g" * 64},
        {"output_digest": 7},
        {"prompt_sha256": "f" * 64},
        {"evidence_refs": []},
        {"evidence_refs": "out.txt"},
    ],
)
def test_an_executor_pass_needs_a_completion_against_its_packet(change: dict[str, Any]) -> None:
    last = {**GOOD["produce"], **change}
    assert unproven_ids(entries(produce=record(last))) == ["produce"]


@pytest.mark.parametrize("change", [{"verdict": "NO-GO"}, {"evidence": ""}, {"evidence": " \n"},
                                    {"evidence": 7}, {"grader": {"command": "/usr/bin/other"}},
                                    {"grader": "/usr/bin/grader"}, {"grader": {}}])  # fmt: skip
def test_a_command_graded_pass_needs_a_go_with_evidence_from_its_grader(
    change: dict[str, Any],
) -> None:
    last = {**GOOD["review"], **change}
    assert unproven_ids(entries(review=record(last))) == ["review"]


@pytest.mark.parametrize(
    ("grader", "proven"),
    [
        ({"model": "openai/gpt-5"}, True),
        ({"model_requested": "openai/gpt-4o", "model": "openai/gpt-5"}, True),  # a fallback
        ({"model_requested": EXECUTOR, "model": "openai/gpt-5"}, False),  # what ran decides
        ({"model_requested": "openai/gpt-5", "model_actual": "gpt-5-2025-08-07"}, True),
        # the provider answered with the executor's model (a dated snapshot of it)
        ({"model_requested": "openai/gpt-5", "model_actual": "the-builder-20250929"}, False),
        ({"model": "the-builder"}, False),  # the executor under another name
        ({"model": EXECUTOR}, False),
        ({"model": ""}, False),
        ({}, False),
    ],
)
def test_a_model_graded_pass_needs_a_grader_other_than_the_executor(
    grader: dict[str, Any], proven: bool
) -> None:
    last = {**GOOD["loop"], "grader": grader}
    assert unproven_ids(entries(loop=record(last))) == ([] if proven else ["loop"])
