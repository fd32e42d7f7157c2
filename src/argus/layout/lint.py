"""Lint pages of boxes and wrap the findings in a versioned envelope.

    result = lint(Path("report/definition/pages/p1"), root, LintOptions(strict=True))
    result.exit_code        # 0 clean or info only, 1 an error (or a warning under strict),
                            # 3 the visual-type reference could not be loaded
    result.to_json()        # {schema_version, linter_version, input, exit_code, summary, ...}

A layout that fails is 1 even when the reference is missing: exit 3 ("could not verify") is
only for a page that nothing else found wrong, so a failing lint never reads as degraded.
Bad input (unreadable, malformed, outside the repository) raises InputError: exit 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from argus import __version__
from argus.layout.checks import CHECKS, Finding, Settings
from argus.layout.model import Page, load_pages
from argus.layout.reference import ReferenceUnavailable, VisualTypes, load_visual_types

SCHEMA_VERSION = 1


@dataclass(frozen=True)
class LintOptions:
    pbir: bool | None = None  # None: on when a file has a $schema
    strict: bool = False
    settings: Settings = field(default_factory=Settings)
    visual_types: Path | None = None  # None: Argus's packaged reference


@dataclass(frozen=True)
class LintResult:
    input: str
    pbir: bool
    strict: bool
    pages: tuple[Page, ...]
    findings: tuple[Finding, ...]
    unverified: tuple[str, ...]  # checks that could not run without the reference
    reference: str | None

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    @property
    def exit_code(self) -> int:
        if self.count("error") or (self.strict and self.count("warning")):
            return 1
        return 3 if self.unverified else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "linter_version": __version__,
            "input": self.input,
            "exit_code": self.exit_code,
            "pbir": self.pbir,
            "strict": self.strict,
            "reference": self.reference,
            "summary": {
                "pages": len(self.pages),
                "visuals": sum(len(p.boxes) for p in self.pages),
                "errors": self.count("error"),
                "warnings": self.count("warning"),
                "info": self.count("info"),
                "unverified_checks": list(self.unverified),
            },
            "findings": [f.to_json() for f in self.findings],
        }


def page_settings(page: Page, flags: Settings) -> Settings:
    """The command line's settings with the page's own ``_lintConfig`` on top."""
    own = page.config
    return replace(
        flags,
        equal_gap_px=flags.equal_gap_px if own.equal_gap_px is None else own.equal_gap_px,
        column_align_px=(
            flags.column_align_px if own.column_align_px is None else own.column_align_px
        ),
        max_overrides=flags.max_overrides if own.max_overrides is None else own.max_overrides,
    )


def lint(path: Path, root: Path, options: LintOptions = LintOptions()) -> LintResult:
    pages = load_pages(path, root)
    pbir = any(p.pbir for p in pages) if options.pbir is None else options.pbir
    types: VisualTypes | None = None
    reference: str | None = None
    if pbir:
        try:
            types = load_visual_types(options.visual_types)
            reference = types.source
        except ReferenceUnavailable as exc:
            reference = f"unavailable: {exc}"
    findings: list[Finding] = []
    unverified: list[str] = []
    for check in CHECKS.values():
        if check.pbir and not pbir:
            continue
        if check.needs_reference and types is None:
            unverified.append(check.id)
            continue
        for page in pages:
            findings.extend(check.run(page, page_settings(page, options.settings), types))
    findings.sort(key=lambda f: (f.page, f.check, f.visuals))
    relative = path.resolve().relative_to(root.resolve()).as_posix()
    return LintResult(
        relative or ".", pbir, options.strict, pages, tuple(findings), tuple(unverified), reference
    )


def render_text(result: LintResult) -> str:
    lines = [
        f"{f.severity.upper():7} {f.check} {f.page}: {f.message}\n        fix: {f.fix}"
        for f in result.findings
    ]
    if result.unverified:
        lines.append(
            f"UNVERIFIED {', '.join(result.unverified)}: the visual-type reference could not "
            f"be loaded ({result.reference})"
        )
    lines.append(
        f"{len(result.pages)} page(s), {sum(len(p.boxes) for p in result.pages)} visual(s): "
        f"{result.count('error')} error(s), {result.count('warning')} warning(s) "
        f"-> exit {result.exit_code}"
    )
    return "\n".join(lines)
