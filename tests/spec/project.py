"""Build a small project with one valid feature spec, for the spec tests to break on purpose."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

PNG_BYTES = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16  # the signature is all the lint reads

TOKENS: dict[str, Any] = {
    "colors": {
        "surface": {"light": "#ffffff", "dark": "#101014"},
        "text": {"light": "#16161a", "dark": "#f0f0f4"},
        "accent": "#2453c4",
    },
    "spacing": {"sm": 8, "md": 16},
    "type": {"body": 16, "title": 24},
}

PAIRS: dict[str, Any] = {"pairs": [{"fg": "text", "bg": "surface", "min": 4.5}]}

FIXTURE: dict[str, Any] = {"habits": [{"title": "Read"}, {"title": "Walk"}, {"title": "Sleep"}]}

SPEC: dict[str, Any] = {
    "feature": "habits",
    "adapter": "web",
    "design_system": {
        "tokens": "argus/specs/habits/tokens.json",
        "contrast_pairs": "argus/specs/habits/contrast-pairs.json",
    },
    "targets": [
        {
            "id": "list",
            "route": "/",
            "states": ["populated", "empty"],
            "appearances": ["light", "dark"],
            "fixtures": {"populated": "three-habits"},
            "canonical": {"state": "populated", "appearance": "light"},
            "a11y_contract": ["screen.habits", "row.habit.*"],
            "references": [
                {
                    "state": "populated",
                    "appearance": "light",
                    "status": "present",
                    "source": "human",
                    "file": "references/list-populated-light.png",
                }
            ],
            "expectations": {
                "populated": {
                    "aria_snapshot": '- heading "Habits" [level=1]',
                    "counts": [
                        {
                            "role": "listitem",
                            "equals_fixture": {
                                "file": "fixtures/three-habits.json",
                                "pointer": "/habits",
                            },
                        }
                    ],
                },
                "empty": {"counts": [{"role": "listitem", "equals": 0}]},
            },
        }
    ],
}


def spec_data() -> dict[str, Any]:
    """A fresh, mutable copy of the valid spec."""
    return copy.deepcopy(SPEC)


def write_json(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2))
    return path


def make_project(root: Path, spec: dict[str, Any] | None = None) -> Path:
    """Write the project under ``root`` (an argus.toml marks it) and return the spec path."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "argus.toml").write_text("")
    feature = root / "argus" / "specs" / "habits"
    (feature / "references").mkdir(parents=True, exist_ok=True)
    (feature / "references" / "list-populated-light.png").write_bytes(PNG_BYTES)
    write_json(feature / "tokens.json", TOKENS)
    write_json(feature / "contrast-pairs.json", PAIRS)
    write_json(root / "fixtures" / "three-habits.json", FIXTURE)
    return write_json(feature / "spec.json", spec_data() if spec is None else spec)
