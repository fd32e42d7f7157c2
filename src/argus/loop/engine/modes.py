"""The three ways to run the loop, and what each one may do.

| mode           | edits | sign-off + baseline | human pauses                   | iterations |
| interactive    | yes   | yes                 | HE-1 (reference), HE-2 (first  | to budget  |
|                |       |                     | sign-off spot-check)           |            |
| headless       | yes   | yes                 | HE-1 only; spot-check pending  | to budget  |
| report-only    | no    | no                  | none; gaps are reported        | exactly 1  |
"""

from __future__ import annotations

from enum import StrEnum


class Mode(StrEnum):
    INTERACTIVE = "interactive"
    HEADLESS = "headless"
    REPORT_ONLY = "report-only"

    @property
    def edits(self) -> bool:
        """The implementer runs and the repository may change."""
        return self is not Mode.REPORT_ONLY

    @property
    def signs_off(self) -> bool:
        return self is not Mode.REPORT_ONLY

    @property
    def pauses_for_spotcheck(self) -> bool:
        return self is Mode.INTERACTIVE

    @property
    def single_iteration(self) -> bool:
        return self is Mode.REPORT_ONLY
