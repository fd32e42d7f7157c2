"""`argus judge`: score one view against the rubric with a judge backend; write verdict.json."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument, add_view_arguments, feature_spec, repo_root
from argus.cli._types import count
from argus.config import load_config
from argus.errors import InputError
from argus.gates.inputs import check_sensed_view, gate_inputs, view_dir
from argus.gates.runner import RESULT_FILE, configured_gates
from argus.io import atomic_write_json
from argus.judge.assemble import packet_for_view
from argus.judge.base import run_judge
from argus.judge.registry import get_judge
from argus.schemas import load_rubric
from argus.sense.views import check_view
from argus.spec import View
from argus.store import Event, RunStore
from argus.verdict import NormalizedVerdict

VERDICT_FILE = "verdict.json"
PREVIOUS_RENDER = "render.prev.png"
EVIDENCE_CHARS = 110
EXIT_CODES = {"pass": 0, "fail": 1, "unverified": 1, "inconclusive": 2}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "judge",
        help="score one view against the rubric (needs all-green gates)",
        description="Build the judge packet for one view (spec, tokens, rubric, reference, "
        "render, probe, gate result; never a diff), score the rubric's dimensions with a judge "
        "backend, write verdict.json into the view's run directory and record it in the run "
        "store. Exit 0 when every dimension passes, 1 when one fails or could not be verified, "
        "2 on bad input, red gates or an inconclusive judge.",
    )
    add_view_arguments(parser)
    parser.add_argument(
        "--backend",
        help="judge backend (default: [judge] backend): metric, litellm, command, composite, "
        "or an installed plug-in's (docs/plugins.md)",
    )
    parser.add_argument(
        "--sensed",
        type=Path,
        metavar="DIR",
        help="a directory a sensor wrote (default: the run directory)",
    )
    parser.add_argument(
        "--gate-result",
        type=Path,
        metavar="FILE",
        help="gate-result.json (default: the run directory's)",
    )
    parser.add_argument(
        "--iteration", type=count, help="iteration number (default: one more than recorded)"
    )
    add_root_argument(parser)
    parser.add_argument("--json", action="store_true", help="print verdict.json")
    parser.set_defaults(func=run_judge_command)


def _next_iteration(root: Path, view: View) -> int:
    with RunStore.open(root) as store:
        return 1 + len(store.events(feature=view.feature, kind="verdict", view=view))


def run_judge_command(args: argparse.Namespace) -> int:
    root = repo_root(args)
    config = load_config(root)
    spec = feature_spec(config.root, args.feature)
    view = View(spec.feature, args.target, args.state, args.appearance)
    check_view(spec, view)
    run_dir = view_dir(spec, view).resolve()
    sensed = (args.sensed or run_dir).resolve()
    if not (sensed / "render.png").is_file():
        raise InputError(
            f"{sensed}: no render.png; sense the view first (argus sense) or pass --sensed DIR"
        )
    gate_result = (args.gate_result or sensed / RESULT_FILE).resolve()
    if not gate_result.is_file():
        raise InputError(f"{gate_result}: no gate result; run argus gates on this view first")
    # The view's files, all of its last sense, which succeeded: after a failed sense the older
    # render left on disk is never judged.
    check_sensed_view(sensed, view)
    iteration = args.iteration or _next_iteration(config.root, view)
    judge = get_judge(args.backend or config.judge.backend, config)
    packet = packet_for_view(
        spec,
        view,
        sensed=sensed,
        gate_result=gate_result,
        run_dir=run_dir,
        iteration=iteration,
        prev_render=run_dir / PREVIOUS_RENDER,
        gates=configured_gates(gate_inputs(spec, view, sensed, config=config)),
    )
    verdict = run_judge(judge, packet, load_rubric(packet.require("rubric")))
    data = verdict.to_json()
    atomic_write_json(run_dir / VERDICT_FILE, data)
    with RunStore.open(config.root) as store:
        store.append(
            Event(
                kind="verdict",
                feature=view.feature,
                target=view.target,
                state=view.state,
                appearance=view.appearance,
                iteration=iteration,
                payload=data,
            )
        )
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(render_table(verdict))
        written = run_dir / VERDICT_FILE
        shown = written.relative_to(config.root) if written.is_relative_to(config.root) else written
        print(f"wrote {shown}")
    if verdict.outcome == "inconclusive":
        print(f"argus judge: inconclusive: {verdict.other.get('error', '')}", file=sys.stderr)
    return EXIT_CODES[verdict.outcome]


def render_table(verdict: NormalizedVerdict) -> str:
    rows = [("dimension", "status", "score", "evidence")]
    for dim in verdict.dimensions:
        score = "-" if dim.score is None else f"{dim.score:g}"
        evidence = (
            dim.evidence
            if len(dim.evidence) <= EVIDENCE_CHARS
            else dim.evidence[: EVIDENCE_CHARS - 1] + "…"
        )
        status = dim.status if dim.status == "pass" else dim.status.upper()
        rows.append((dim.name, status, score, evidence))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = [f"{r[0]:<{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]:<{widths[2]}}  {r[3]}" for r in rows]
    outcome = verdict.outcome
    if outcome == "inconclusive":
        error = verdict.other.get("error", "")
        lines.append(f"inconclusive: {error}")
    else:
        closer = verdict.other.get("closer_to_reference_than_prev")
        lines.append(
            f"{outcome}"
            + ("" if closer is None else f"; closer to the reference than before: {closer}")
        )
    return "\n".join(lines)
