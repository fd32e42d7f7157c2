"""``argus lint``'s engine: schema errors, semantic checks and the reference worklist."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argus.schemas import schema_violations
from argus.spec._checks import Issue, consistency_issues, path_issues
from argus.spec._files import file_issues
from argus.spec._load import read_spec_data
from argus.spec.advice import lint_warnings
from argus.spec.model import view_slug
from argus.spec.paths import find_repo_root

if TYPE_CHECKING:
    from argus.config import ProjectConfig


@dataclass(frozen=True)
class WorklistItem:
    """A view's reference status: what a human still has to supply or approve."""

    target: str
    state: str
    appearance: str
    status: str  # present | needed | candidate
    file: str | None
    canonical: bool

    @property
    def slug(self) -> str:
        return view_slug(self.target, self.state, self.appearance)

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "state": self.state,
            "appearance": self.appearance,
            "status": self.status,
            "file": self.file,
            "canonical": self.canonical,
        }


@dataclass(frozen=True)
class LintReport:
    spec: Path
    errors: tuple[Issue, ...]
    worklist: tuple[WorklistItem, ...]
    # What a valid spec will not do (argus.spec.advice): never an error; --strict fails on it.
    warnings: tuple[Issue, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def unreadable(self) -> tuple[Issue, ...]:
        """Errors about a named file that cannot be read at all (exit 2, not 1)."""
        return tuple(e for e in self.errors if e.unreadable)

    def to_json(self) -> dict[str, Any]:
        return {
            "spec": str(self.spec),
            "valid": self.valid,
            "errors": [{"path": e.path, "message": e.message} for e in self.errors],
            "warnings": [{"path": w.path, "message": w.message} for w in self.warnings],
            "reference_worklist": [item.to_json() for item in self.worklist],
        }


def reference_worklist(data: dict[str, Any]) -> list[WorklistItem]:
    """Every canonical view with its reference status, then other references still open."""
    items: list[WorklistItem] = []
    for target in data["targets"]:
        appearances = target.get("appearances", ["light"])
        canonical = target.get("canonical", {})
        view = (
            canonical.get("state", target["states"][0]),
            canonical.get("appearance", appearances[0]),
        )
        references = {(r["state"], r["appearance"]): r for r in target.get("references", [])}
        entry = references.get(view)
        items.append(
            WorklistItem(
                target=target["id"],
                state=view[0],
                appearance=view[1],
                status=entry["status"] if entry else "needed",
                file=entry.get("file") if entry else None,
                canonical=True,
            )
        )
        items.extend(
            WorklistItem(target["id"], key[0], key[1], ref["status"], ref.get("file"), False)
            for key, ref in references.items()
            if key != view and ref["status"] != "present"
        )
    return items


def lint_data(
    data: Any,
    spec_path: Path,
    root: Path,
    config: ProjectConfig | None = None,
    wcag: Mapping[str, str] | None = None,
) -> LintReport:
    """Lint parsed spec JSON: schema first; the semantic checks only run on a schema-valid spec,
    and the warnings (``config``'s gates and judge against the spec, ``wcag`` the gates that
    measure WCAG criteria, see lint_spec) only on a valid one."""
    violations = schema_violations("spec", data)
    if violations:
        return LintReport(spec_path, tuple(Issue(*v) for v in violations), ())
    absolute = spec_path.absolute()
    escapes = path_issues(data, absolute, root)
    issues = consistency_issues(data, absolute, root) + escapes
    # Opening files is only safe once every path is known to stay inside the repository.
    if not escapes:
        issues.extend(file_issues(data, absolute, root))
    warnings: list[Issue] = []
    if config is not None and not issues:
        warnings = lint_warnings(data, absolute, config, wcag or {})
    return LintReport(spec_path, tuple(issues), tuple(reference_worklist(data)), tuple(warnings))


def lint_spec(
    path: Path, root: Path | None = None, *, wcag: Mapping[str, str] | None = None
) -> LintReport:
    """Lint one spec.json under its project's config. InputError (exit 2) when the file itself
    cannot be read as JSON; ConfigError when the project's config cannot be. ``wcag``: the
    gates that measure WCAG criteria (``argus.gates.wcag_gates()``, which the spec layer cannot
    import); a gate list lacking one is warned of, and without it nobody is."""
    from argus.config import load_config

    data = read_spec_data(path)
    root = root or find_repo_root(path.absolute().parent)
    return lint_data(data, path, root, load_config(root), wcag)
