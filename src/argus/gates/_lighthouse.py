"""lighthouse (opt-in): the real Lighthouse run against the view's URL, each category against
its own minimum from ``[gates.lighthouse]``.

Not in the default gate list: add "lighthouse" to ``[gates] enabled`` (or a target's gates).
The view's web server is started (or reused) as for sensing. The report is written to the
view's run directory as lighthouse.json. A category under its minimum fails; a score that is
not a finite number in [0, 1] is an error; no Node.js or a Lighthouse crash is an error
("could not run"), never a pass or a skip.
"""

from __future__ import annotations

from argus.config import LighthouseConfig
from argus.gates._registry import register_gate
from argus.gates.base import Finding, GateInputs, GateOutcome, GateStatus
from argus.lighthouse.score import CategoryGrade, grade, next_action, overall_of_all

STATUS = {"pass": GateStatus.PASS, "fail": GateStatus.FAIL, "error": GateStatus.ERROR}


def lighthouse_gate(inputs: GateInputs) -> GateOutcome:
    from argus.lighthouse.run import run_lighthouse
    from argus.sense.browser import discover_browser
    from argus.sense.server import web_server
    from argus.sense.views import plan_view

    if inputs.spec.adapter != "web":
        return GateOutcome("lighthouse", GateStatus.SKIP, "Lighthouse needs a web view")
    settings = inputs.config.gates.lighthouse
    plan = plan_view(inputs.spec, inputs.view, inputs.config)
    assert plan.url is not None
    browser = discover_browser(inputs.config)
    with web_server(inputs.config, inputs.root, inputs.spec):
        report = run_lighthouse(
            plan.url,
            browser=browser,
            out=inputs.run_dir / "lighthouse.json",
            timeout_s=settings.timeout,
        )
    grades = grade(report, settings.minimums())
    findings = tuple(_finding(g) for g in grades if g.status in ("fail", "error", "not_captured"))
    status = overall_of_all(grades)
    summary = ", ".join(f"{g.category} {g.score if g.score is not None else '-'}" for g in grades)
    data = {"categories": [g.to_json() for g in grades], "next_action": next_action(grades)}
    if status == "not_captured":
        return GateOutcome("lighthouse", GateStatus.ERROR, "Lighthouse reported no category")
    return GateOutcome("lighthouse", STATUS[status], summary, findings, data)


def _finding(g: CategoryGrade) -> Finding:
    if g.status == "not_captured":
        value, reason = "missing", "is not in the report (not measured is not passed)"
    elif g.score is None:
        value, reason = "invalid", "score is not a number in [0, 1]"
    else:
        value = reason = f"{g.score:g}"
    return Finding(
        element="page",
        property=g.category,
        value=value,
        expected=f">= {g.minimum:g}",
        message=f"Lighthouse {g.category} {reason} (minimum {g.minimum:g})",
    )


# Registered by a call, not a decorator, so that mutation testing (mutmut skips decorated
# functions) reaches the gate's body.
register_gate("lighthouse", settings=LighthouseConfig)(lighthouse_gate)
