"""`argus contract`: drive a contract run; `argus hook stop`: the Stop hook that guards it.

    argus contract start CONTRACT.json            # idle -> running
    argus contract advance ID verifying           # the work is ready to be checked
    argus contract grade ID STAGE                 # a mechanical stage: Argus runs its command
    argus contract judge ID STAGE                 # a judgment stage: an independent grader
    argus contract complete ID                    # every required stage passed: closed
    argus contract status [ID] [--json]
    argus contract pause ID --reason R | resume ID | abort ID --reason R

Exit codes: 0 done (a stage passed, a phase changed); 1 a stage did not pass, or the run cannot
complete yet; 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument, repo_root
from argus.errors import InputError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "contract",
        help="drive work through declared stages to closure (graders, budgets, Stop hook)",
        description="Declare the stages a piece of work must pass (mechanical: Argus runs a "
        "command; judgment: an independent grader says GO) and drive them to closure. "
        "Nobody reports a stage's outcome: Argus runs it or asks the grader.",
    )
    actions = parser.add_subparsers(dest="contract_action", metavar="ACTION", required=True)

    start = actions.add_parser("start", help="start a run of CONTRACT.json")
    start.add_argument("contract", type=Path, metavar="CONTRACT.json")
    _common(start, "start")

    advance = actions.add_parser("advance", help="move a run to verifying (or back to running)")
    advance.add_argument("id")
    advance.add_argument("phase", choices=("verifying", "running"))
    _common(advance, "advance")

    for name, what in (("grade", "run a mechanical stage"), ("judge", "grade a judgment stage")):
        action = actions.add_parser(name, help=what)
        action.add_argument("id")
        action.add_argument("stage")
        _common(action, name)

    complete = actions.add_parser("complete", help="close a run whose required stages passed")
    complete.add_argument("id")
    _common(complete, "complete")

    status = actions.add_parser("status", help="where runs stand")
    status.add_argument("id", nargs="?")
    status.add_argument("--json", action="store_true")
    _common(status, "status")

    for name, what in (("pause", "pause (a Stop hook lets the session end)"), ("abort", "abort")):
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

    root = repo_root(args)
    action = args.action
    if action == "start":
        from argus.config import load_config

        config = load_config(root)
        implementer = config.implementer
        state = run.start(root, args.contract, implementer.model, implementer.command)
        print(f"contract {state.contract_id}: running ({len(state.stages)} stages)")
        return 0
    if action in ("grade", "judge"):
        outcome = (run.grade if action == "grade" else run.judge)(root, args.id, args.stage)
        print(f"stage {outcome.stage}: {outcome.status}: {outcome.detail}")
        return 0 if outcome.status == "passed" else 1
    if action == "complete":
        path = run.complete(root, args.id)
        print(f"contract {args.id}: completed; summary: {path}")
        return 0
    if action == "status":
        return _status(root, args.id, args.json)
    if action in ("pause", "abort") and not sys.stdin.isatty():
        raise InputError(
            f"argus contract {action} is a person's decision: run it in a terminal (an agent "
            "finishes the stages instead)"
        )
    changed = {
        "advance": lambda: run.advance(root, args.id, args.phase),
        "pause": lambda: run.pause(root, args.id, args.reason),
        "resume": lambda: run.resume(root, args.id),
        "abort": lambda: run.abort(root, args.id, args.reason),
    }[action]()
    print(f"contract {changed.contract_id}: {changed.phase}")
    return 0


def _status(root: Path, contract_id: str | None, as_json: bool) -> int:
    from argus.contract.state import load_state, started_runs

    ids = [contract_id] if contract_id else [p.parent.name for p in started_runs(root)]
    states = [load_state(root, i) for i in ids]
    if as_json:
        print(json.dumps([s.to_json() for s in states], indent=2))
        return 0
    if not states:
        print("no contract runs")
    for state in states:
        reason = f" ({state.reason})" if state.reason else ""
        print(f"{state.contract_id}: {state.phase}{reason}")
        for stage_id, stage in state.stages.items():
            print(f"  {stage_id}: {stage.status} ({stage.attempts} attempt(s))")
    return 0
