"""`argus ids` through the real CLI: exit 0/1/2, unknown targets, JSON and ARIA text probes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import RunArgus

CONTRACT = ["list.habits", "button.add", "row.habit.*"]


def repo(root: Path, contract: list[str] = CONTRACT) -> Path:
    (root / "argus.toml").write_text("", encoding="utf-8")
    spec_dir = root / "argus" / "specs" / "demo"
    spec_dir.mkdir(parents=True)
    (spec_dir / "tokens.json").write_text('{"colors": {}}', encoding="utf-8")
    spec = {
        "feature": "demo",
        "adapter": "web",
        "design_system": {"tokens": "argus/specs/demo/tokens.json"},
        "targets": [
            {"id": "list", "route": "/", "states": ["populated"], "a11y_contract": contract}
        ],
    }
    path = spec_dir / "spec.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    return path


def probe(root: Path, doc: Any, name: str = "probe.json") -> Path:
    path = root / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


FULL = {"elements": [{"testid": "list.habits"}, {"testid": "button.add"}, {"id": "row.habit.1"}]}


def test_all_present_exits_0(run_argus: RunArgus, tmp_path: Path) -> None:
    spec = repo(tmp_path)
    result = run_argus(
        "ids", "--spec", str(spec), "--target", "list", "--probe", str(probe(tmp_path, FULL))
    )
    assert result.returncode == 0, result.stderr
    assert "3/3 present" in result.stdout and "PASS" in result.stdout


def test_missing_id_exits_1_and_names_it(run_argus: RunArgus, tmp_path: Path) -> None:
    spec = repo(tmp_path)
    partial = {"elements": [{"testid": "list.habits"}, {"testid": "button.add"}]}
    args = [
        "ids",
        "--spec",
        str(spec),
        "--target",
        "list",
        "--probe",
        str(probe(tmp_path, partial)),
    ]
    result = run_argus(*args)
    assert result.returncode == 1
    assert "missing  row.habit.*" in result.stdout
    report = json.loads(run_argus(*args, "--json").stdout)
    assert report["missing"] == ["row.habit.*"]
    assert report["expected"] == 3 and report["present"] == 2 and report["target"] == "list"


def test_aria_snapshot_text_probe(run_argus: RunArgus, tmp_path: Path) -> None:
    spec = repo(tmp_path)
    text = (
        '- list "Habits" [data-testid=list.habits]:\n'
        "  - listitem [data-testid=row.habit.1]: Water\n"
        '- button "Add" [data-testid=button.add]\n'
    )
    result = run_argus(
        "ids",
        "--spec",
        str(spec),
        "--target",
        "list",
        "--probe",
        str(probe(tmp_path, text, "aria.yml")),
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("target", "probe_doc", "probe_name", "message"),
    [
        ("nope", FULL, "probe.json", "no target 'nope' (targets: list)"),
        ("list", "{not json", "probe.json", "probe is not valid JSON"),
        ("list", None, "absent.json", "probe not found"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    run_argus: RunArgus, tmp_path: Path, target: str, probe_doc: Any, probe_name: str, message: str
) -> None:
    spec = repo(tmp_path)
    probe_path = (
        tmp_path / probe_name if probe_doc is None else probe(tmp_path, probe_doc, probe_name)
    )
    result = run_argus("ids", "--spec", str(spec), "--target", target, "--probe", str(probe_path))
    assert result.returncode == 2
    assert result.stderr.startswith("argus: ") and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_a_bare_star_contract_entry_is_bad_input(run_argus: RunArgus, tmp_path: Path) -> None:
    spec = repo(tmp_path, ["*"])
    result = run_argus(
        "ids", "--spec", str(spec), "--target", "list", "--probe", str(probe(tmp_path, FULL))
    )
    assert result.returncode == 2
    assert "would match any id" in result.stderr
