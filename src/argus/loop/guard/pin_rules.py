"""What a verdict depends on, as flat settings, and which way each one weakens.

``pinned_settings`` reads the settings a sign-off rests on out of the project config, the
feature's rubric and its targets' gate lists: one key per setting, a plain JSON value each.
``RULES`` says, per setting, which direction is weaker, and ``weakenings`` compares a
configuration with one a person accepted, naming every setting that moved the weak way.
A setting with no rule counts as weakened by any change: an unknown lever is never free.

    HIGHER     a tolerance: raising it lets more through (max_console_errors, delta_e)
    LOWER      a minimum: lowering it lets more through (a rubric threshold, a Lighthouse score)
    FEWER      a set of checks: dropping one lets more through (a gate, an axe tag, a dimension)
    MORE       a set of exemptions: adding one lets more through (an ignored rule or pattern)
    NARROWER   a scope where empty means everything: any narrowing lets more through
    CHANGED    cannot be ordered (a judge, a gate command): any change needs a person
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from argus.config import ProjectConfig
from argus.schemas import Rubric
from argus.spec.model import Spec


class Weaker(StrEnum):
    HIGHER = "higher"
    LOWER = "lower"
    FEWER = "fewer"
    MORE = "more"
    NARROWER = "narrower"
    CHANGED = "changed"


# Per setting (fnmatch pattern over the keys pinned_settings makes), the weak direction.
RULES: dict[str, Weaker] = {
    "gates.target.*": Weaker.FEWER,
    "gates.commands": Weaker.FEWER,
    "gates.commands.*": Weaker.CHANGED,
    "gates.max_console_errors": Weaker.HIGHER,
    "gates.console.ignore": Weaker.MORE,
    "gates.rendered_contrast.level": Weaker.LOWER,
    "gates.axe.tags": Weaker.FEWER,
    "gates.axe.impact_floor": Weaker.HIGHER,
    "gates.axe.disable_rules": Weaker.MORE,
    "gates.axe.best_practice_rules": Weaker.FEWER,
    "gates.axe.include": Weaker.NARROWER,
    "gates.axe.exclude": Weaker.MORE,
    "gates.token_compliance.properties": Weaker.FEWER,
    "gates.token_compliance.allow": Weaker.MORE,
    "gates.token_compliance.delta_e": Weaker.HIGHER,
    "gates.source_tokens.paths": Weaker.CHANGED,
    "gates.source_tokens.git_base": Weaker.CHANGED,
    "gates.snapshot.threshold": Weaker.HIGHER,
    "gates.snapshot.max_diff_pixels": Weaker.HIGHER,
    "gates.snapshot.max_diff_pixel_ratio": Weaker.HIGHER,
    "gates.snapshot.max_window_density": Weaker.HIGHER,
    "gates.snapshot.update": Weaker.HIGHER,
    "gates.lighthouse.*": Weaker.LOWER,
    "gates.tell_tales.ignore": Weaker.MORE,
    "judge.backend": Weaker.CHANGED,
    # The framework's mask preset and settle rule: another framework paints other regions out.
    "framework": Weaker.CHANGED,
    "judge.command": Weaker.CHANGED,
    "judge.model": Weaker.CHANGED,
    "rubric.dimensions": Weaker.FEWER,
    "rubric.threshold.*": Weaker.LOWER,
    "rubric.consecutive_passes_required": Weaker.LOWER,
}

# Settings whose values are words with an order: their rank, strictest highest for LOWER
# settings and loosest highest for HIGHER ones. "changed"/"all" write the baseline from the
# render, so the snapshot compares nothing.
RANKS: dict[str, dict[str, int]] = {
    "gates.rendered_contrast.level": {"AA": 0, "AAA": 1},
    "gates.axe.impact_floor": {"minor": 0, "moderate": 1, "serious": 2, "critical": 3},
    "gates.snapshot.update": {"none": 0, "compare": 0, "missing": 0, "changed": 1, "all": 2},
}


def rule_for(key: str) -> Weaker:
    """The weak direction of ``key``: the exact rule, else the first pattern, else CHANGED."""
    if key in RULES:
        return RULES[key]
    for pattern, rule in RULES.items():
        if fnmatch.fnmatchcase(key, pattern):
            return rule
    return Weaker.CHANGED


def pinned_settings(config: ProjectConfig, rubric: Rubric, spec: Spec) -> dict[str, Any]:
    """The settings a sign-off of ``spec``'s views rests on (see the module doc)."""
    gates = config.gates
    settings: dict[str, Any] = {
        f"gates.target.{t.id}": sorted(gates.for_target(t.gates)) for t in spec.targets
    }
    settings["gates.commands"] = sorted(gates.commands)
    settings.update({f"gates.commands.{n}": c.command for n, c in gates.commands.items()})
    axe, tokens, snapshot = gates.axe, gates.token_compliance, gates.snapshot
    settings.update(
        {
            "gates.max_console_errors": gates.max_console_errors,
            "gates.console.ignore": sorted(gates.console.ignore),
            "gates.rendered_contrast.level": gates.rendered_contrast.level,
            "gates.axe.tags": sorted(axe.tags),
            "gates.axe.impact_floor": axe.impact_floor,
            "gates.axe.disable_rules": sorted(axe.disable_rules),
            "gates.axe.best_practice_rules": sorted(axe.best_practice_rules),
            "gates.axe.include": sorted(axe.include),
            "gates.axe.exclude": sorted(axe.exclude),
            "gates.token_compliance.properties": sorted(tokens.properties),
            "gates.token_compliance.allow": sorted(tokens.allow),
            "gates.token_compliance.delta_e": tokens.delta_e,
            "gates.source_tokens.paths": list(gates.source_tokens.paths),
            "gates.source_tokens.git_base": gates.source_tokens.git_base,
            "gates.snapshot.threshold": snapshot.threshold,
            "gates.snapshot.max_diff_pixels": snapshot.max_diff_pixels,
            "gates.snapshot.max_diff_pixel_ratio": snapshot.max_diff_pixel_ratio,
            "gates.snapshot.max_window_density": snapshot.max_window_density,
            "gates.snapshot.update": snapshot.update,
            "gates.tell_tales.ignore": sorted(gates.tell_tales.ignore),
            "judge.backend": config.judge.backend,
            "framework": config.framework,
            "judge.command": config.judge.command,
            "judge.model": config.judge.model,
            "rubric.dimensions": sorted(rubric.names),
            "rubric.consecutive_passes_required": rubric.consecutive_passes_required,
        }
    )
    for name, minimum in gates.lighthouse.minimums().items():
        settings[f"gates.lighthouse.{name}"] = minimum
    for name, dimension in rubric.dimensions.items():
        settings[f"rubric.threshold.{name}"] = dimension.threshold
    return settings


def settings_digest(settings: Mapping[str, Any]) -> str:
    """sha256 of the settings' canonical JSON: what a run records and a person accepts."""
    text = json.dumps(dict(settings), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def weakenings(accepted: Mapping[str, Any], current: Mapping[str, Any]) -> list[str]:
    """One line per setting of ``current`` weaker than in ``accepted``. A setting either side
    lacks is not compared (a new target has nothing to be weaker than; a removed command or
    dimension is named by its set)."""
    found: list[str] = []
    for key in sorted(accepted):
        if key not in current or accepted[key] == current[key]:
            continue
        line = _weakened(key, rule_for(key), accepted[key], current[key])
        if line is not None:
            found.append(f"{key}: {line}")
    return found


def _weakened(key: str, rule: Weaker, old: Any, new: Any) -> str | None:
    """How ``old`` -> ``new`` weakens ``key`` under ``rule``, or None when it does not."""
    if rule in (Weaker.FEWER, Weaker.MORE, Weaker.NARROWER):
        if not (isinstance(old, list) and isinstance(new, list)):
            return f"changed from {_show(old)} to {_show(new)}"
        removed = sorted(set(map(str, old)) - set(map(str, new)))
        added = sorted(set(map(str, new)) - set(map(str, old)))
        if rule is Weaker.FEWER:
            return f"removed {', '.join(removed)}" if removed else None
        if rule is Weaker.MORE:
            return f"added {', '.join(added)}" if added else None
        # NARROWER: empty is everything, so leaving "everything" or dropping an entry narrows.
        if new and (not old or removed):
            return f"narrowed from {_show(old) if old else 'everything'} to {_show(new)}"
        return None
    if rule is Weaker.CHANGED:
        return f"changed from {_show(old)} to {_show(new)}"
    before, after = _rank(key, old), _rank(key, new)
    if before is None or after is None:  # unset or not a number: cannot be ordered
        return f"changed from {_show(old)} to {_show(new)}"
    if rule is Weaker.HIGHER and after > before:
        return f"raised from {_show(old)} to {_show(new)}"
    if rule is Weaker.LOWER and after < before:
        return f"lowered from {_show(old)} to {_show(new)}"
    return None


def _rank(key: str, value: Any) -> float | None:
    """Where ``value`` stands among ``key``'s values: its word's rank, or the number itself
    (not converted to float, so whole numbers past 2**53 still compare exactly)."""
    ranks = RANKS.get(key)
    if ranks is not None:
        return ranks.get(value) if isinstance(value, str) else None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value


def _show(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return "unset" if value is None else str(value)
