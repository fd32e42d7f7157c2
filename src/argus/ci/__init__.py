"""CI output for Argus's results: JUnit XML, GitHub workflow annotations and a JSON summary.

    cases = [CaseResult(suite="habits", classname="habits.list-populated-light", name="axe",
                        status="failed", message="2 rules", file=spec_path, line=12)]
    emit_reports(parse_reporters(["junit=out.xml", "github", "json=summary.json"]), cases,
                 tool="argus gates")

``argus gates``, ``argus loop`` and the pytest plugin turn their results into ``CaseResult``s
and hand them here; nothing in this package knows about gates or views.
"""

from __future__ import annotations

from argus.ci._github import step_summary, workflow_annotations
from argus.ci._junit import junit_xml
from argus.ci._reporters import Reporter, emit_reports, parse_reporters
from argus.ci._summary import json_summary
from argus.ci.cases import CaseResult, CaseStatus

__all__ = [
    "CaseResult",
    "CaseStatus",
    "Reporter",
    "emit_reports",
    "json_summary",
    "junit_xml",
    "parse_reporters",
    "step_summary",
    "workflow_annotations",
]
