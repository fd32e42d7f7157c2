"""The HTML report of a loop run: one self-contained file per run (see docs/report.md).

write_report(root, feature, run_id=None, out=None) -> Path    collect, render and write
find_run(root, feature, run_id) -> FoundRun                    which run (InputError if none)
collect_report(root, found) -> RunReport                       everything shown, as data
render_page(report) -> str                                     the HTML document
"""

from argus.report._write import LATEST_NAME, report_name, write_report
from argus.report.collect import collect_report
from argus.report.model import RunReport, ViewReport
from argus.report.page import render_page
from argus.report.select import FoundRun, find_run

__all__ = [
    "LATEST_NAME",
    "FoundRun",
    "RunReport",
    "ViewReport",
    "collect_report",
    "find_run",
    "render_page",
    "report_name",
    "write_report",
]
