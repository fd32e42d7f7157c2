"""The framework example apps (examples/frameworks/NAME): a working copy on a free port, the
environment their [web_server] command runs in, and the loop that signs one off."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from argus.loop.records.signoff import load_records
from tests.conftest import REPO_ROOT
from tests.support.habits import copy_example

EXAMPLES = REPO_ROOT / "examples/frameworks"
FEATURE = "shop"
VIEW = "overview-populated-light"  # each example's one view


def require(module: str, framework: str) -> None:
    """Skip the module's tests, naming why, when ``framework`` is not installed here."""
    if importlib.util.find_spec(module) is None:
        pytest.skip(
            f"{framework} is not installed ({module!r} cannot be imported); install the "
            "'frameworks' extra (make test does) to sign off its example",
            allow_module_level=True,
        )


def example_port(name: str) -> int:
    """The port the example's argus.toml serves it on."""
    config = tomllib.loads((EXAMPLES / name / "argus.toml").read_text())
    return int(config["base_url"].rsplit(":", 1)[1].strip("/"))


def copy_framework_example(name: str, tmp_path: Path) -> Path:
    """A copy of examples/frameworks/NAME at tmp_path/NAME, served on a free port."""
    return copy_example(EXAMPLES / name, tmp_path, example_port=example_port(name))


def server_env() -> dict[str, str]:
    """This environment with the test's interpreter first on PATH, so the example's command
    (``streamlit run``, ``python app.py``) finds the framework installed beside Argus, and
    without pytest's own variable (NiceGUI takes it as its screen tests' run and waits for a
    test port instead of serving)."""
    bin_dir = str(Path(sys.executable).parent)
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}
    return {**env, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}


def sign_off(run_argus: Any, root: Path) -> dict[str, Any]:
    """``argus loop --mode headless`` on the copy: sense, gates, metric judge, twice, then the
    sign-off. Returns the one sign-off record."""
    result = run_argus(
        "loop", "--feature", FEATURE, "--mode", "headless", cwd=root, env=server_env(), timeout=600
    )
    done = result.returncode == 0 and "status: DONE (exit 0)" in result.stdout
    assert done, result.stdout + result.stderr + _judged(root)
    (record,) = load_records(root / f"argus/specs/{FEATURE}/.argus-runs/signoff.json")
    assert not record.get("concerns"), record.get("concerns")
    # Every dimension measured and passed by the metric judge: none abstained.
    scores = {k: v["score"] for k, v in record["final_verdict"]["dimensions"].items()}
    assert scores and all(score == 1 for score in scores.values()), scores
    return record


def _judged(root: Path) -> str:
    """What each iteration's judge said of a dimension it did not pass, and the dead-control
    probe's outcomes, for a sign-off that did not come: a run on a loaded CI machine leaves
    nothing else behind to read."""
    lines = []
    runs = root / f"argus/specs/{FEATURE}/.argus-runs"
    for verdict_path in sorted(runs.glob("*/iteration-*/verdict.json")):
        where = verdict_path.parent.relative_to(runs)
        verdict = _read(verdict_path)
        if "error" in verdict:
            lines.append(f"{where} verdict: {verdict['error']}")
        for name, dimension in _entries(verdict.get("dimensions")).items():
            if dimension.get("score") != 1:
                lines.append(
                    f"{where} {name} {dimension.get('score')}: {dimension.get('evidence')}"
                )
        controls = verdict_path.with_name("controls.json")
        if controls.exists():
            found = _read(controls)
            outcomes = [
                (c.get("name"), c.get("outcome"), c.get("effects"))
                for c in _entries(found.get("controls")).values()
            ]
            lines.append(
                f"{where} controls: {outcomes} ambient {found.get('ambient')} "
                f"error {found.get('error')}"
            )
    return "\n" + "\n".join(lines)


def _read(path: Path) -> dict[str, Any]:
    """A run's JSON file for a failure message: what it holds, or why it could not be read
    (a message must never hide the failure it reports behind one of its own)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        return {"error": f"unreadable: {exc}"}
    return data if isinstance(data, dict) else {"error": "not a JSON object"}


def _entries(value: Any) -> dict[Any, dict[str, Any]]:
    """The object entries of a mapping or a list read from a run's file (anything else: none)."""
    items = value.items() if isinstance(value, dict) else enumerate(value or [])
    return {key: item for key, item in items if isinstance(item, dict)}


def sensed(root: Path, view: str) -> dict[str, Any]:
    """The probe of one sensed view of the copy."""
    path = root / f"argus/specs/{FEATURE}/.argus-runs/{view}/probe.json"
    probe: dict[str, Any] = json.loads(path.read_text())
    return probe


def signs_off_with_a_held_control(run_argus: Any, tmp_path: Path, name: str, effect: str) -> None:
    """The example ``name`` signs off on its one view, and its Export button was activated by
    the dead-control probe with ``effect`` held: live, and nothing reached the app's server."""
    root = copy_framework_example(name, tmp_path)
    record = sign_off(run_argus, root)
    assert [record["target"], record["state"], record["appearance"]] == VIEW.split("-")
    runs = root / f"argus/specs/{FEATURE}/.argus-runs/{VIEW}"
    controls = json.loads(next(runs.rglob("controls.json")).read_text())
    (export,) = [c for c in controls["controls"] if c["name"] == "Export report"]
    assert export["outcome"] == "live" and effect in export["effects"], export
