"""``--reporter`` for ``argus gates`` and ``argus loop``: their results as CI cases
(argus.ci), annotated on the spec line of the view's target."""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from argus.ci import CaseResult, CaseStatus, emit_reports, parse_reporters
from argus.ci.cases import SourceLine, line_of
from argus.gates.base import Finding, GateStatus
from argus.gates.runner import GateRun
from argus.loop.engine.run import RunOutcome
from argus.loop.records.status import Status
from argus.spec import Spec, View

MAX_DETAIL_FINDINGS = 10
_GATE_STATUS: dict[GateStatus, CaseStatus] = {
    GateStatus.PASS: "passed",
    GateStatus.FAIL: "failed",
    GateStatus.DIFF: "failed",
    GateStatus.ERROR: "error",
    GateStatus.SKIP: "skipped",
    GateStatus.NEW: "passed",
}


def add_reporter_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--reporter",
        action="append",
        default=[],
        metavar="KIND",
        help="CI output, repeatable: junit=PATH (JUnit XML), github (workflow annotations on "
        "the spec line, and a job summary table when GITHUB_STEP_SUMMARY is set) or "
        "json=PATH (a JSON summary)",
    )


def check_reporters(args: argparse.Namespace) -> None:
    """Refuse a bad --reporter before any work is done (InputError, exit 2)."""
    parse_reporters(args.reporter)


def _where(spec: Spec, target: str) -> tuple[Path, int | None]:
    return spec.path, line_of(spec.path, f'"id": "{target}"')


_SOURCE_LINE = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>[1-9]\d*)$")


def source_lines(root: Path, findings: Sequence[Finding]) -> tuple[SourceLine, ...]:
    """The findings that name a line of a file in the repository (``path:line``, as
    source_tokens and tell_tales write them), each as the place its annotation goes."""
    found = []
    for finding in findings:
        match = _SOURCE_LINE.match(finding.element)
        if match is None:
            continue
        path = (root / match["path"]).resolve()
        if not path.is_relative_to(root.resolve()) or not path.is_file():
            continue
        what = finding.message or f"{finding.property} {finding.value}"
        if finding.expected:
            what += f" (expected {finding.expected})"
        found.append(SourceLine(path, int(match["line"]), what))
    return tuple(found)


def gate_cases(spec: Spec, runs: Mapping[View, GateRun]) -> list[CaseResult]:
    """One case per gate per view."""
    cases = []
    for view, run in runs.items():
        file, line = _where(spec, view.target)
        for outcome in run.outcomes:
            findings = [
                f"{f.element}: {f.property} measured {f.value}"
                + (f", expected {f.expected}" if f.expected else "")
                for f in outcome.findings[:MAX_DETAIL_FINDINGS]
            ]
            cases.append(
                CaseResult(
                    suite=spec.feature,
                    classname=f"{spec.feature}.{view.slug}",
                    name=outcome.name,
                    # A status this table does not know is an error, never a pass.
                    status=_GATE_STATUS.get(outcome.status, "error"),
                    message=outcome.summary,
                    details="\n".join([outcome.summary, *findings]),
                    file=file,
                    line=line,
                    time_s=run.durations.get(outcome.name, 0.0),
                    sources=source_lines(spec.root, outcome.findings),
                )
            )
    return cases


def _loop_status(status: Status) -> CaseStatus:
    # Only a clean sign-off passes; a view that is blocked could not run; concerns and a
    # missing human decision are failures, never skips (nothing unverified reads as green).
    if status is Status.DONE:
        return "passed"
    return "error" if status is Status.BLOCKED else "failed"


def loop_cases(feature: str, spec: Spec | None, outcome: RunOutcome) -> list[CaseResult]:
    """One case per view the loop reached; a run that reached none (an invalid spec, a lock
    held elsewhere) is one case for the run, so it never reads as an empty, green report."""
    cases = []
    for result in outcome.views:
        file, line = _where(spec, result.view.target) if spec is not None else (None, None)
        message = f"{result.status.value}: {result.end}"
        details = [message, *result.concerns]
        if result.detail:
            details.append(result.detail)
        if result.last is not None and result.last.red_gates:
            details.append(f"red gates: {', '.join(result.last.red_gates)}")
        cases.append(
            CaseResult(
                suite=feature,
                classname=f"{feature}.{result.view.slug}",
                name="loop",
                status=_loop_status(result.status),
                message=message,
                details="\n".join(details),
                file=file,
                line=line,
                time_s=sum(result.timings.values()),
            )
        )
    if not cases:
        message = f"{outcome.status.value}: no view reached"
        cases.append(
            CaseResult(
                suite=feature,
                classname=f"{feature}.run",
                name="loop",
                status=_loop_status(outcome.status),
                message=message,
                details="\n".join([message, *outcome.notes]),
                file=None if spec is None else spec.path,
            )
        )
    return cases


def emit(args: argparse.Namespace, cases: list[CaseResult], tool: str, root: Path) -> None:
    if args.reporter:
        emit_reports(parse_reporters(args.reporter), cases, tool=tool, root=root)
