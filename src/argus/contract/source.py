"""Reading a contract file: YAML or JSON, the seed's camelCase names mapped onto Argus's own.

``.yaml``/``.yml`` files are read with a safe loader that refuses duplicate keys (the last one
would silently win) and anchors/aliases (a few lines of aliases can expand into billions of
nodes); anything else is JSON (argus.io). The
newer contract's names are accepted beside the older ones and mapped before the schema check:

    passCriteria -> pass_criteria            executionBudget -> budget
    maxMechanicalAttempts -> max_attempts_per_stage
    maxTotalMechanicalAttempts -> max_total_attempts
    maxTotalJudgmentDispatches -> max_judgment_dispatches
    failurePolicy.maxMechanicalFailures -> failure_policy.max_mechanical_failures
    stageVerifier / loopGrader -> grader     fallbackModels -> fallback_models
    timeoutMs -> timeout (seconds)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from argus.errors import InputError
from argus.io import read_bytes, read_json

RENAMES = {
    "passCriteria": "pass_criteria",
    "executionBudget": "budget",
    "maxMechanicalAttempts": "max_attempts_per_stage",
    "maxTotalMechanicalAttempts": "max_total_attempts",
    "maxTotalJudgmentDispatches": "max_judgment_dispatches",
    "failurePolicy": "failure_policy",
    "maxMechanicalFailures": "max_mechanical_failures",
    "fallbackModels": "fallback_models",
    "stageVerifier": "grader",
    "loopGrader": "grader",
}


class _UniqueKeyLoader(yaml.SafeLoader):
    """A safe loader that refuses a mapping with the same key twice."""


def _mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        seen.add(key)
    return dict(loader.construct_mapping(node))


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def _renamed(value: Any) -> Any:
    if isinstance(value, list):
        return [_renamed(v) for v in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        if key == "timeoutMs" and isinstance(item, int | float) and not isinstance(item, bool):
            out["timeout"] = item / 1000
            continue
        name = RENAMES.get(key, key) if isinstance(key, str) else key
        if name in out:
            raise InputError(f"contract: {key!r} and {name!r} name the same setting; keep one")
        out[name] = _renamed(item)
    return out


def read_contract(path: Path) -> tuple[bytes, Any]:
    """The file's bytes (their digest pins the run) and its data with names mapped."""
    raw = read_bytes(path, what="contract")
    if path.suffix.lower() in (".yaml", ".yml"):
        try:
            text = raw.decode("utf-8-sig")
            events = yaml.parse(text, Loader=yaml.SafeLoader)
            if any(isinstance(event, yaml.AliasEvent) for event in events):
                raise InputError(f"{path}: contract uses YAML aliases (*name); write it out")
            data = yaml.load(text, Loader=_UniqueKeyLoader)
        except UnicodeDecodeError as exc:
            raise InputError(f"{path}: contract is not UTF-8 text") from exc
        except (yaml.YAMLError, RecursionError, ValueError) as exc:
            where = getattr(exc, "problem_mark", None)
            line = f" (line {where.line + 1})" if where is not None else ""
            problem = getattr(exc, "problem", None) or type(exc).__name__
            raise InputError(f"{path}: contract is not valid YAML{line}: {problem}") from exc
    else:
        data = read_json(path, what="contract")
    try:
        return raw, _renamed(data)
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from exc
    except RecursionError as exc:
        raise InputError(f"{path}: contract is nested too deeply to be a contract") from exc
