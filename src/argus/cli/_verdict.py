"""`argus verdict check`: normalize a judge verdict or a gate result (derive, don't trust)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argus.errors import InputError
from argus.io import read_json

if TYPE_CHECKING:
    from argus.verdict import Correction, NormalizedGateResult, NormalizedVerdict


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "verdict",
        help="check and normalize a judge verdict or a gate result",
        description="Re-derive a verdict's all_pass, failed and unverified dimensions from its "
        "scores and the rubric, or a gate result's all_green from its gate statuses, and "
        "print the normalized document.",
    )
    actions = parser.add_subparsers(dest="verdict_action", metavar="ACTION", required=True)
    check = actions.add_parser(
        "check",
        help="normalize VERDICT.json (or --gate GATE.json)",
        description="Exit 0 when the verdict is a plain pass (every rubric dimension scored at "
        "its threshold) or the gates are all green, with nothing corrected; 1 when a dimension "
        "failed or is unverified, the verdict is inconclusive, a gate is red, or the document's "
        "own all_pass/failed_dimensions/all_green had to be corrected; 2 when it is malformed "
        "(a missing or extra dimension, a score other than 0/0.5/1, a wrong anchor...).",
    )
    check.add_argument("verdict", nargs="?", type=Path, help="the judge's verdict.json")
    check.add_argument("--gate", type=Path, metavar="GATE.json", help="check a gate result")
    check.add_argument(
        "--rubric",
        type=Path,
        help="rubric.json (default: argus/specs/FEATURE/rubric.json if present, else Argus's)",
    )
    check.add_argument("--json", action="store_true", help="print the normalized JSON")
    check.set_defaults(func=run_check)


def run_check(args: argparse.Namespace) -> int:
    # Loaded here, not at import: `--help` needs neither the rubric nor the JSON Schema
    # validator, and the rubric is found without `argus state`'s loop and sensing modules.
    from argus.cli._rubric import resolve_rubric
    from argus.verdict import normalize_gate_result, normalize_verdict

    if (args.verdict is None) == (args.gate is None):
        raise InputError("argus verdict check needs VERDICT.json or --gate GATE.json (one)")
    if args.gate is not None:
        if args.rubric is not None:
            raise InputError("--rubric applies to verdicts, not to a gate result")
        gates = normalize_gate_result(read_json(args.gate, what="gate result"), source=args.gate)
        _report_corrections(args.gate, gates.corrections)
        print(json.dumps(gates.to_json(), indent=2) if args.json else render_gates(gates))
        return 0 if gates.all_green and not gates.corrections else 1
    raw = read_json(args.verdict, what="verdict")
    feature = raw.get("feature") if isinstance(raw, dict) else None
    rubric = resolve_rubric(args.rubric, args.verdict.resolve().parent, feature)
    verdict = normalize_verdict(raw, rubric, source=args.verdict)
    _report_corrections(args.verdict, verdict.corrections)
    print(json.dumps(verdict.to_json(), indent=2) if args.json else render_verdict(verdict))
    return 0 if verdict.all_pass and not verdict.corrections else 1


def _report_corrections(path: Path, corrections: tuple[Correction, ...]) -> None:
    # On stderr, so that --json output stays one JSON document.
    for correction in corrections:
        print(f"argus: {path}: corrected {correction}", file=sys.stderr)


def render_verdict(verdict: NormalizedVerdict) -> str:
    view = "/".join(p for p in (verdict.target, verdict.state, verdict.appearance) if p)
    lines = [f"verdict: {verdict.feature} {view}, iteration {verdict.iteration}"]
    width = max(len(d.name) for d in verdict.dimensions)
    for dim in verdict.dimensions:
        score = "-" if dim.score is None else f"{dim.score:g}"
        status = dim.status.upper() if dim.status != "pass" else dim.status
        lines.append(
            f"  {status:<10} {dim.name:<{width}}  {score:>3}/{dim.threshold:g}  "
            f"[{dim.anchor}] {_one_line(dim.evidence)}"
        )
    outcome = verdict.outcome
    if outcome == "pass":
        lines.append("outcome: pass")
    elif outcome == "fail":
        lines.append(f"outcome: FAIL ({', '.join(verdict.failed_dimensions)})")
    elif outcome == "unverified":
        lines.append(
            f"outcome: UNVERIFIED ({', '.join(verdict.unverified_dimensions)}): not a pass"
        )
    else:
        lines.append(f"outcome: INCONCLUSIVE: {_one_line(str(verdict.other.get('error', '')))}")
    if verdict.corrections:
        lines.append(f"corrected: {len(verdict.corrections)} self-reported value(s) disagreed")
    return "\n".join(lines)


def render_gates(gates: NormalizedGateResult) -> str:
    lines = [f"gates: {gates.feature} {gates.target}"]
    width = max((len(g.name) for g in gates.gates), default=0)
    for gate in gates.gates:
        extra = (
            f" missing: {', '.join(gate.counts.get('missing', []))}"
            if gate.red and gate.counts
            else ""
        )
        lines.append(
            f"  {gate.status.upper() if gate.red else gate.status:<5} {gate.name:<{width}}{extra}"
        )
    if gates.all_green:
        lines.append("all green")
    else:
        lines.append(
            f"RED: {', '.join(gates.red_gates)}"
            if gates.red_gates
            else "NOT GREEN: " + gates.not_green_reason
        )
    return "\n".join(lines)


def _one_line(text: str, limit: int = 120) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
