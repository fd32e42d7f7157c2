"""`argus contract`: drive a contract run; `argus hook stop`: the Stop hook that guards it.

    argus contract validate CONTRACT.yaml|json    # exit 0 valid, 1 with every problem listed
    argus contract doctor --contract FILE [--executor-model M] [--grader-model M]
    argus contract pin CONTRACT | --preset NAME   # a person: runs honour it as it is now
    argus contract start CONTRACT | --preset NAME # idle -> running
    argus contract advance ID verifying           # the work is ready to be checked
    argus contract stage-input ID STAGE           # an executor stage: its exact input packet
    argus contract stage-complete ID STAGE --input-fingerprint F --output-digest SHA --evidence R
    argus contract grade ID STAGE                 # a mechanical stage: Argus runs its command
    argus contract judge ID STAGE                 # a reviewer stage: an independent grader
    argus contract summary write ID < body.md     # the closure summary (Argus stamps it)
    argus contract summary show ID
    argus contract complete ID                    # every required stage passed: closed
    argus contract block ID --reason R            # waiting on something outside the session
    argus contract retarget ID NEW_CONTRACT       # keep verdicts that still hold
    argus contract status [ID] [--json]           # runs, each with its archived runs
    argus contract verify ID                      # the ledger's chain; state.json against it
    argus contract pause ID --reason R | resume ID | abort ID --reason R

Exit codes: 0 done (a stage passed, a phase changed, a contract is valid); 1 a stage did not
pass, a contract is not valid, the run cannot close yet, or verify found a broken ledger; 2 bad
input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument, repo_root
from argus.errors import InputError

HUMAN_ONLY = ("pause", "resume", "abort", "pin")  # a person's decisions (argus.person)
RUN_ACTIONS = (
    ("grade", "run a mechanical stage"),
    ("judge", "have a reviewer stage's independent grader judge it"),
    ("stage-input", "an executor stage's exact input packet (JSON)"),
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "contract",
        help="drive work through declared stages to closure (graders, budgets, Stop hook)",
        description="Declare the stages a piece of work must pass (executor: prompt-driven "
        "work completed against an exact input; mechanical: Argus runs a command; "
        "stage-verifier and loop-grader: an independent grader says GO) and drive them to "
        "closure. Nobody reports a stage's outcome: Argus runs it or asks the grader.",
    )
    actions = parser.add_subparsers(dest="contract_action", metavar="ACTION", required=True)

    validate = actions.add_parser("validate", help="check a contract file (YAML or JSON)")
    validate.add_argument("contract", type=Path, metavar="CONTRACT")
    _common(validate, "validate")

    doctor = actions.add_parser("doctor", help="every reason a run would be refused")
    doctor.add_argument("--contract", type=Path, required=True, metavar="CONTRACT")
    doctor.add_argument("--executor-model", help="default: [implementer] model")
    doctor.add_argument("--grader-model", default="", help="stands in for every model grader")
    _common(doctor, "doctor")

    pin = actions.add_parser(
        "pin", help="a person pins CONTRACT (or a preset) as it is now: runs honour only that"
    )
    pin.add_argument("contract", type=Path, metavar="CONTRACT", nargs="?")
    pin.add_argument("--preset", help="frontend-ui, docs-workflow or custom-pipeline")
    _common(pin, "pin")

    start = actions.add_parser("start", help="start a run of CONTRACT (or of a preset)")
    start.add_argument("contract", type=Path, metavar="CONTRACT", nargs="?")
    start.add_argument("--preset", help="frontend-ui, docs-workflow or custom-pipeline")
    _common(start, "start")

    advance = actions.add_parser("advance", help="move a run to verifying (or back to running)")
    advance.add_argument("id")
    advance.add_argument("phase", choices=("verifying", "running"))
    _common(advance, "advance")

    for name, what in RUN_ACTIONS:
        action = actions.add_parser(name, help=what)
        action.add_argument("id")
        action.add_argument("stage")
        if name == "judge":
            action.add_argument(
                "--expect",
                choices=("stage-verifier", "loop-grader"),
                help="refuse a stage of the other reviewer role",
            )
        _common(action, name)

    done = actions.add_parser("stage-complete", help="complete an executor stage (pass only)")
    done.add_argument("id")
    done.add_argument("stage")
    done.add_argument("--input-fingerprint", required=True)
    done.add_argument("--output-digest", required=True, help="lower-case SHA-256 of the output")
    done.add_argument("--evidence", action="append", required=True, metavar="REF")
    _common(done, "stage-complete")

    complete = actions.add_parser("complete", help="close a run whose required stages passed")
    complete.add_argument("id")
    _common(complete, "complete")

    retarget = actions.add_parser("retarget", help="give an open run a new contract")
    retarget.add_argument("id")
    retarget.add_argument("contract", type=Path, metavar="NEW_CONTRACT")
    _common(retarget, "retarget")

    summary = actions.add_parser("summary", help="write (from stdin) or show the summary")
    summary.add_argument("what", choices=("write", "show"))
    summary.add_argument("id")
    _common(summary, "summary")

    status = actions.add_parser("status", help="where runs stand")
    status.add_argument("id", nargs="?")
    status.add_argument("--json", action="store_true")
    _common(status, "status")

    verify = actions.add_parser(
        "verify", help="walk a run's hash-chained ledger and check state.json against it"
    )
    verify.add_argument("id")
    _common(verify, "verify")

    for name, what in (
        ("pause", "pause (a Stop hook lets the session end)"),
        ("abort", "abort"),
        ("block", "block on something outside the session (needs a fresh summary)"),
    ):
        action = actions.add_parser(name, help=what)
        action.add_argument("id")
        action.add_argument("--reason", required=True)
        _common(action, name)
    resume = actions.add_parser("resume", help="resume a paused or blocked run")
    resume.add_argument("id")
    _common(resume, "resume")


def _common(parser: argparse.ArgumentParser, action: str) -> None:
    add_root_argument(parser)
    parser.set_defaults(func=run_contract, action=action)


def run_contract(args: argparse.Namespace) -> int:
    from argus.contract import run

    action = args.action
    if action in HUMAN_ONLY:
        from argus.person import require_person

        require_person(f"argus contract {action}")
    if action == "validate":
        return _validate(args.contract)
    root = repo_root(args)
    if action == "doctor":
        return _doctor(root, args)
    if action in ("start", "pin"):
        return _start(root, args)
    if action in ("grade", "judge"):
        if action == "grade":
            outcome = run.grade(root, args.id, args.stage)
        else:
            outcome = run.judge(root, args.id, args.stage, args.expect)
        print(f"stage {outcome.stage}: {outcome.status}: {outcome.detail}")
        return 0 if outcome.status == "passed" else 1
    if action in ("stage-input", "stage-complete"):
        return _executor(root, args)
    if action == "complete":
        path = run.complete(root, args.id)
        print(f"contract {args.id}: completed; summary: {path}")
        return 0
    if action == "status":
        return _status(root, args.id, args.json)
    if action == "verify":
        return _verify(root, args.id)
    if action == "summary":
        return _summary(root, args)
    if action == "retarget":
        from argus.contract.retarget import retarget

        state, kept = retarget(root, args.id, args.contract)
        print(f"contract {state.contract_id}: retargeted; kept: {', '.join(kept) or 'none'}")
        return 0
    if action == "abort" and not _has_state(root, args.id):
        from argus.contract.registry import forget

        if forget(root, args.id):
            print(f"contract {args.id}: its files were gone; the open run is forgotten")
            return 0
    changed = {
        "advance": lambda: run.advance(root, args.id, args.phase),
        "pause": lambda: run.pause(root, args.id, args.reason),
        "resume": lambda: run.resume(root, args.id),
        "abort": lambda: run.abort(root, args.id, args.reason),
        "block": lambda: run.block(root, args.id, args.reason),
    }[action]()
    print(f"contract {changed.contract_id}: {changed.phase}")
    return 0


def _has_state(root: Path, contract_id: str) -> bool:
    from argus.contract.state import state_dir

    return (state_dir(root, contract_id) / "state.json").is_file()


def _validate(path: Path) -> int:
    from argus.contract.model import check_graph_errors
    from argus.contract.source import read_contract
    from argus.schemas import validate_errors

    _, data = read_contract(path)  # unreadable or not YAML/JSON: bad input (exit 2)
    errors = validate_errors("contract", data)
    if not errors:
        errors = check_graph_errors(data, path)
    if errors:
        for error in errors:
            print(f"{path}: {error}", file=sys.stderr)
        return 1
    print(f"valid contract: {data['id']} ({len(data['stages'])} stages)")
    return 0


def _doctor(root: Path, args: argparse.Namespace) -> int:
    from argus.config import load_config
    from argus.contract.doctor import diagnose

    implementer = load_config(root).implementer
    model = implementer.model if args.executor_model is None else args.executor_model
    found = diagnose(root, args.contract, model, implementer.command, args.grader_model)
    for refusal in found.refusals:
        print(f"refused: {refusal}")
    for note in found.notes:
        print(f"note: {note}")
    if found.refusals:
        return 1
    assert found.contract is not None
    print(f"ready: {found.contract.id} ({len(found.contract.stages)} stages)")
    return 0


def _start(root: Path, args: argparse.Namespace) -> int:
    from argus.config import load_config
    from argus.contract import run

    config = load_config(root)
    if (args.contract is None) == (args.preset is None):
        raise InputError(
            f"argus contract {args.action}: give a CONTRACT file or --preset NAME (one)"
        )
    if args.preset is None:
        path: Path = args.contract
    else:
        from argus.contract.presets import write_preset

        path, notes = write_preset(root, args.preset, config)
        for note in notes:
            print(f"note: {note}")
    if args.action == "pin":
        from argus.contract.model import load_contract
        from argus.contract.pins import pin

        contract = load_contract(path)
        print(f"contract {contract.id}: pinned {pin(root, contract)} ({path})")
        return 0
    implementer = config.implementer
    state = run.start(root, path, implementer.model, implementer.command)
    print(f"contract {state.contract_id}: running ({len(state.stages)} stages)")
    return 0


def _executor(root: Path, args: argparse.Namespace) -> int:
    from argus.contract.executor import stage_complete, stage_input

    if args.action == "stage-input":
        print(json.dumps(stage_input(root, args.id, args.stage), indent=2, sort_keys=True))
        return 0
    outcome = stage_complete(
        root, args.id, args.stage, args.input_fingerprint, args.output_digest, args.evidence
    )
    print(f"stage {outcome.stage}: {outcome.status}: {outcome.detail}")
    return 0


def _summary(root: Path, args: argparse.Namespace) -> int:
    from argus.contract import run
    from argus.contract.state import load_state
    from argus.contract.summary import current_summary

    if args.what == "write":
        try:
            body = sys.stdin.buffer.read(256 * 1024).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError("summary: standard input is not UTF-8 text") from exc
        written = run.summary_write(root, args.id, body)
        print(f"contract {args.id}: summary written: {written}")
        return 0
    current, why = current_summary(root, load_state(root, args.id))
    if current is None:
        print(f"contract {args.id}: {why}", file=sys.stderr)
        return 1
    print(current.read_text("utf-8"), end="")
    return 0


def _status(root: Path, contract_id: str | None, as_json: bool) -> int:
    from argus.contract.history import archived_ids, archived_runs
    from argus.contract.state import load_state, started_runs

    if contract_id:
        ids = [contract_id]
    else:
        ids = sorted({p.parent.name for p in started_runs(root)} | set(archived_ids(root)))
    states = {i: load_state(root, i) for i in ids if contract_id or _has_state(root, i)}
    archives = {i: archived_runs(root, i) for i in ids}
    if as_json:
        listed = [
            {**states[i].to_json(), "archived": [a.to_json() for a in archives[i]]}
            if i in states
            else {"contract_id": i, "phase": None, "archived": [a.to_json() for a in archives[i]]}
            for i in ids
        ]
        print(json.dumps(listed, indent=2))
        return 0
    if not ids:
        print("no contract runs")
    for i in ids:
        state = states.get(i)
        if state is None:
            print(f"{i}: no open run")
        else:
            reason = f" ({state.reason})" if state.reason else ""
            print(f"{state.contract_id}: {state.phase}{reason}")
            for stage_id, stage in state.stages.items():
                print(f"  {stage_id}: {stage.status} ({stage.attempts} attempt(s))")
        for old in archives[i]:
            summary = ", with its summary" if old.summary else ""
            print(
                f"  archived run {old.run_id}: {old.phase}{summary} ({old.folder}; "
                f"{old.records} ledger record(s) in the run store)"
            )
    return 0


def _verify(root: Path, contract_id: str) -> int:
    """Exit 0 when the run store's chain holds and the state.json of the open run and of each
    archived run is what its records fold to; 1, naming the first broken event or the state.json
    that differs, when not."""
    from argus.contract.history import check_runs
    from argus.contract.state import load_state, state_dir

    checked = check_runs(root, contract_id)
    if not checked and not (state_dir(root, contract_id) / "state.json").is_file():
        load_state(root, contract_id)  # no run: names the runs there are, exit 2
    for run in checked:
        which = f"archived run {run.run_id}: " if run.archived else ""
        if run.problem is not None:
            print(f"contract {contract_id}: {which}{run.problem}")
        else:
            print(
                f"contract {contract_id}: {which}ledger intact ({run.records} record(s) in the "
                f"run store, hash chain holds) and state.json matches it; phase {run.phase}"
            )
    return 1 if any(run.problem is not None for run in checked) else 0
