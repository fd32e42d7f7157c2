"""The one-screen summary printed when a run ends: a block per view, then what to do next."""

from __future__ import annotations

from argus.loop.engine.run import RunOutcome
from argus.loop.records.status import exit_code

MAX_CONCERNS = 4


def render_summary(outcome: RunOutcome) -> str:
    lines: list[str] = []
    run = f" run {outcome.run_id}" if outcome.run_id else ""
    resumed = " (resumed)" if outcome.resumed else ""
    lines.append(f"argus loop {outcome.feature} [{outcome.mode.value}]{run}{resumed}")
    width = max((len(r.view.slug) for r in outcome.views), default=0)
    for result in outcome.views:
        head = f"  {result.view.slug:<{width}}  {result.status.value:<18}"
        iterations = f"{result.iterations} iteration{'s' if result.iterations != 1 else ''}"
        lines.append(f"{head}  {iterations:<13}  {result.detail}".rstrip())
        if result.last is not None and result.end != "signed_off":
            lines.append(f"      last: {result.last.summary()}")
        for concern in result.concerns[:MAX_CONCERNS]:
            lines.append(f"      concern: {concern}")
        if len(result.concerns) > MAX_CONCERNS:
            lines.append(f"      … and {len(result.concerns) - MAX_CONCERNS} more concerns")
    for note in outcome.notes:
        lines.append(f"  {note}")
    if outcome.runs_dir is not None:
        lines.append(f"  run directory: {outcome.runs_dir}")
    lines.append(f"status: {outcome.status.value} (exit {exit_code(outcome.status)})")
    return "\n".join(lines)
