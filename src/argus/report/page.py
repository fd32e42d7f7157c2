"""The whole report page, rendered from ``templates/report.html``.

The page has no script and makes no request: its Content-Security-Policy allows only inline
styles and ``data:`` images, so even a string that slipped past escaping could not run or
fetch anything.
"""

from __future__ import annotations

from importlib import resources

from argus import __version__
from argus.report.model import RunReport
from argus.report.templating import render

CSP = (
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
    "base-uri 'none'; form-action 'none'"
)


def stylesheet() -> str:
    return resources.files("argus.report").joinpath("report.css").read_text("utf-8")


def render_page(report: RunReport) -> str:
    return render("report.html", report=report, csp=CSP, css=stylesheet(), version=__version__)
