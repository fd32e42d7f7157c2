"""``argus lint``'s warnings: what a valid spec (with its project's config) will not do.

- **WCAG gates left out.** A project (``[gates] enabled``) or a target (``gates``) whose
  explicit gate list predates a WCAG gate this version offers never runs it: a removed focus
  ring or an unreadable text passes those gates unseen. The gates that measure WCAG criteria
  are the ones the gate registry lists with WCAG criteria (``argus.gates.wcag_gates()``), not a
  list kept here; the callers above the gates (``argus lint``, the report) pass it in, so the
  spec layer never imports the gates. A spec sensed by a project adapter is not asked for the
  gates that audit a web page's markup (``axe``): its views have none.
- **Views that cannot sign off under the metric judge alone.** functional_correctness
  abstains on a state without machine expectations, and on one whose expectations all hold
  while prose criteria remain (spec.md acceptance criteria, component contracts) and the
  target does not declare ``expectations_cover_prose``. An abstained dimension is never a
  pass, so with ``[judge] backend = "metric"`` (the default) such a view ends unverified on
  every run. The warning says what to add.

Warnings never make a spec invalid: ``argus lint`` exits 0 on them unless ``--strict``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argus.spec._checks import Issue
from argus.spec.prose import are_prose, prose_criteria

if TYPE_CHECKING:
    from argus.config import ProjectConfig


def missing_wcag_gates(gates: Sequence[str], wcag: Mapping[str, str]) -> list[str]:
    """The WCAG gates (name -> criteria) a gate list leaves out, as "name (criteria)"."""
    return [f"{name} ({criteria})" for name, criteria in wcag.items() if name not in gates]


def project_gate_warnings(config: ProjectConfig, wcag: Mapping[str, str]) -> list[Issue]:
    """The project's explicit ``[gates] enabled`` without a WCAG gate this version offers
    (the default list has them all, so only a list someone wrote can lack one)."""
    if "enabled" not in config.gates.model_fields_set:
        return []
    missing = missing_wcag_gates(config.gates.enabled, wcag)
    if not missing:
        return []
    return [Issue(_enabled_key(config), _gates_message("the project's gate list", missing))]


def target_gate_warnings(data: dict[str, Any], wcag: Mapping[str, str]) -> Iterator[Issue]:
    for i, target in enumerate(data["targets"]):
        if "gates" in target:
            missing = missing_wcag_gates(target["gates"], wcag)
            if missing:
                label = f"target '{target['id']}''s gate list"
                yield Issue(f"$.targets[{i}].gates", _gates_message(label, missing))


def _gates_message(label: str, missing: list[str]) -> str:
    return (
        f"{label} lacks WCAG gate(s) this version offers: {', '.join(missing)}; add them, "
        "or nothing checks these criteria before the judge"
    )


def _enabled_key(config: ProjectConfig) -> str:
    source = config.source
    if source is not None and source.name == "pyproject.toml":
        return f"{source.name} [tool.argus.gates] enabled"
    return f"{source.name if source is not None else 'argus.toml'} [gates] enabled"


def metric_alone(config: ProjectConfig) -> bool:
    """Whether the metric judge is the only judge: no model takes what it abstains on."""
    judge = config.judge
    if judge.backend == "metric":
        return True
    return judge.backend == "composite" and not (judge.command or judge.model)


def signoff_warnings(data: dict[str, Any], spec_dir: Path) -> Iterator[Issue]:
    """Per target and state: why functional_correctness will abstain, and what to add."""
    spec_md_path = spec_dir / "spec.md"
    spec_md = spec_md_path.read_text(encoding="utf-8") if spec_md_path.is_file() else ""
    for i, target in enumerate(data["targets"]):
        expectations = target.get("expectations", {})
        for state in target["states"]:
            view = f"{target['id']}/{state}"
            if state not in expectations:
                yield Issue(
                    f"$.targets[{i}].expectations",
                    f"{view} cannot sign off under the metric judge alone: it has no machine "
                    "expectations, so functional_correctness abstains; add "
                    f"expectations.{state} (aria_snapshot, counts, texts, focus_order) that "
                    "check what the spec asks of it",
                )
                continue
            contracts = [
                c for c in target.get("component_contracts", []) if c.get("state") in (None, state)
            ]
            prose = prose_criteria(spec_md, contracts)
            if prose and target.get("expectations_cover_prose") is not True:
                yield Issue(
                    f"$.targets[{i}].expectations_cover_prose",
                    f"{view} cannot sign off under the metric judge alone: its "
                    f"{are_prose(prose)} no machine expectation covers, so "
                    "functional_correctness abstains; add expectations that check each "
                    'criterion and set "expectations_cover_prose": true, or configure a '
                    'model judge ([judge] backend = "composite" with a model or command)',
                )


# Gates that audit a web page's markup: a spec sensed by a project adapter (a terminal or
# native UI) gives them nothing to read, so leaving them out of its gate list is no gap.
WEB_PAGE_GATES = frozenset({"axe"})


def applicable_wcag_gates(
    spec_data: Mapping[str, Any], wcag: Mapping[str, str]
) -> Mapping[str, str]:
    """The WCAG gates that can measure the spec's views (all of them for a web spec)."""
    if spec_data.get("adapter", "web") == "web":
        return wcag
    return {name: criteria for name, criteria in wcag.items() if name not in WEB_PAGE_GATES}


def wcag_gate_notes(
    spec_data: Mapping[str, Any], config: ProjectConfig, wcag: Mapping[str, str]
) -> list[str]:
    """The WCAG-gate warnings as the report's notes: one line each, naming where to add."""
    wcag = applicable_wcag_gates(spec_data, wcag)
    found = project_gate_warnings(config, wcag)
    if isinstance(spec_data.get("targets"), list):
        found.extend(target_gate_warnings(dict(spec_data), wcag))
    return [str(issue) for issue in found]


def lint_warnings(
    data: dict[str, Any], spec_path: Path, config: ProjectConfig, wcag: Mapping[str, str]
) -> list[Issue]:
    """Every warning for one schema-valid spec under its project's config; ``wcag``: the
    known gates that measure WCAG criteria (name -> criteria)."""
    wcag = applicable_wcag_gates(data, wcag)
    warnings = project_gate_warnings(config, wcag)
    warnings.extend(target_gate_warnings(data, wcag))
    if metric_alone(config):
        warnings.extend(signoff_warnings(data, spec_path.parent))
    return warnings
