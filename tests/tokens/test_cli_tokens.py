"""`argus tokens show` through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import RunArgus

DTCG = {
    "color": {
        "$type": "color",
        "bg": {
            "$value": "#ffffff",
            "$extensions": {"mode": {"light": "#ffffff", "dark": "#000000"}},
        },
        "brand": {"$value": "oklch(0.62796 0.25768 29.2339)"},
    },
    "space": {"$type": "dimension", "md": {"$value": "1rem"}},
}


def test_show_text(run_argus: RunArgus, tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    path.write_text(json.dumps(DTCG), encoding="utf-8")
    result = run_argus("tokens", "show", str(path))
    assert result.returncode == 0, result.stderr
    assert "(dtcg format); appearances: light, dark" in result.stdout
    assert "color.bg" in result.stdout and "light #ffffff  dark #000000" in result.stdout
    assert "#ff0000  (every appearance)" in result.stdout
    assert "space.md" in result.stdout and "16px" in result.stdout


def test_show_json_for_one_appearance(run_argus: RunArgus, tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    path.write_text(json.dumps(DTCG), encoding="utf-8")
    result = run_argus("tokens", "show", str(path), "--appearance", "dark", "--json")
    assert result.returncode == 0, result.stderr
    model = json.loads(result.stdout)
    assert model["colors"] == {"color.bg": "#000000", "color.brand": "#ff0000"}
    assert model["spacing"] == {"space.md": 16.0}
    assert model["format"] == "dtcg" and model["appearances"] == ["light", "dark"]


def test_show_errors_are_one_line_exit_2(run_argus: RunArgus, tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    path.write_text(json.dumps({"a": {"$type": "color", "$value": "{b}"}}), encoding="utf-8")
    for args, message in (
        ((str(path),), "token 'a' refers to {b}, which is not defined"),
        ((str(tmp_path / "absent.json"),), "tokens file not found"),
    ):
        result = run_argus("tokens", "show", *args)
        assert result.returncode == 2
        assert result.stderr.startswith("argus: ") and message in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    path.write_text(json.dumps(DTCG), encoding="utf-8")
    result = run_argus("tokens", "show", str(path), "--appearance", "dim")
    assert result.returncode == 2
    assert "tokens define no appearance 'dim' (they define light, dark)" in result.stderr
