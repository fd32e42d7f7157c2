"""`argus contrast` through the real CLI: exit codes 0/1/2, text and JSON, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import RunArgus

TOKENS = {
    "colors": {
        "surface": {"light": "#ffffff", "dark": "#0b0b0f"},
        "text": {"light": "#111114", "dark": "#f5f5f7"},
        "almost": "#228924",
    }
}


def write(path: Path, doc: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


def feature(root: Path, pairs: Any, *, with_pairs: bool = True) -> Path:
    """A repository with one feature spec naming its tokens and pairs files."""
    write(root / "argus.toml", "")
    spec_dir = root / "argus" / "specs" / "demo"
    write(spec_dir / "tokens.json", TOKENS)
    write(spec_dir / "contrast-pairs.json", pairs)
    design = {"tokens": "argus/specs/demo/tokens.json"}
    if with_pairs:
        design["contrast_pairs"] = "argus/specs/demo/contrast-pairs.json"
    spec = {
        "feature": "demo",
        "adapter": "web",
        "design_system": design,
        "targets": [{"id": "main", "route": "/", "states": ["populated"], "a11y_contract": ["a"]}],
    }
    return write(spec_dir / "spec.json", spec)


PASSING = {"pairs": [{"fg": "text", "bg": "surface", "min": 4.5}]}
FAILING = {
    "pairs": [{"fg": "text", "bg": "surface"}, {"fg": "almost", "bg": "surface", "min": 4.5}]
}


def test_passing_spec_exits_0_with_a_table(run_argus: RunArgus, tmp_path: Path) -> None:
    spec = feature(tmp_path, PASSING)
    result = run_argus("contrast", "--spec", str(spec), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "text / surface" in result.stdout
    assert "light" in result.stdout and "dark" in result.stdout
    assert result.stdout.strip().endswith("contrast: PASS (0 of 2 failing)")


def test_failing_pair_exits_1_and_never_prints_a_failing_ratio_as_the_minimum(
    run_argus: RunArgus, tmp_path: Path
) -> None:
    spec = feature(tmp_path, FAILING)
    result = run_argus("contrast", "--spec", str(spec), cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    failing = [line for line in result.stdout.splitlines() if line.startswith("FAIL ")]
    assert len(failing) == 2  # `almost` on white (light) and on near-black (dark)
    light = next(line for line in failing if " light " in line)
    assert "almost / surface" in light
    assert "4.49" in light and "4.50" not in light
    assert "contrast: FAIL (2 of 4 failing)" in result.stdout


def test_json_report(run_argus: RunArgus, tmp_path: Path) -> None:
    spec = feature(tmp_path, FAILING)
    result = run_argus("contrast", "--spec", str(spec), "--json", cwd=tmp_path)
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["passed"] is False and report["failures"] == 2
    almost = [p for p in report["pairs"] if p["fg"] == "almost"]
    assert {p["appearance"] for p in almost} == {"light", "dark"}
    assert all(p["status"] == "fail" for p in almost)
    light = next(p for p in almost if p["appearance"] == "light")
    assert 4.495 < light["ratio"] < 4.5 and light["min"] == 4.5


def test_tokens_and_pairs_instead_of_a_spec(run_argus: RunArgus, tmp_path: Path) -> None:
    tokens = write(tmp_path / "t.json", TOKENS)
    pairs = write(tmp_path / "p.json", PASSING)
    result = run_argus(
        "contrast", "--tokens", str(tokens), "--pairs", str(pairs), "--appearance", "dark"
    )
    assert result.returncode == 0, result.stderr
    assert "light" not in result.stdout


@pytest.mark.parametrize(
    ("setup", "args", "message"),
    [
        ("unknown-token", [], "pairs[0].fg names colour token 'nope'"),
        ("bad-tokens", [], "token 'colors.text': bad colour '#12'"),
        ("malformed-pairs", [], "contrast pairs file is not valid JSON"),
        ("no-pairs-in-spec", [], "design_system.contrast_pairs is not set"),
        ("ok", ["--appearance", "dim"], "tokens define no appearance 'dim'"),
        ("missing-spec", [], "spec not found"),
        ("ok", ["--tokens", "x.json"], "give either --spec or --tokens with --pairs"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    run_argus: RunArgus, tmp_path: Path, setup: str, args: list[str], message: str
) -> None:
    spec = tmp_path / "argus" / "specs" / "demo" / "spec.json"
    if setup == "unknown-token":
        feature(tmp_path, {"pairs": [{"fg": "nope", "bg": "surface"}]})
    elif setup == "bad-tokens":
        feature(tmp_path, PASSING)
        write(spec.parent / "tokens.json", {"colors": {"text": "#12"}})
    elif setup == "malformed-pairs":
        feature(tmp_path, "{")
    elif setup == "no-pairs-in-spec":
        feature(tmp_path, PASSING, with_pairs=False)
    elif setup == "ok":
        feature(tmp_path, PASSING)
    result = run_argus("contrast", "--spec", str(spec), *args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("argus: ")
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_neither_spec_nor_files_exits_2(run_argus: RunArgus) -> None:
    result = run_argus("contrast")
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "argus: argus contrast needs --spec SPEC, or --tokens TOKENS and --pairs PAIRS"
    )
