"""Commands that agents and hooks run many times import only what they need (issue 17, part 2).

Each case runs the real command as a process with ``python -X importtime`` and reads the
modules it imported from that report; a heavy module on a light command's path fails the
test. Nothing here is timed: the check is which modules were loaded, not how long it took.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from argus.diff import save_png
from argus.schemas import load_rubric

# Heavy modules none of these commands needs: the browser driver, the JSON Schema validator
# and its reference resolver, pydantic (argus.config's models), YAML, the spec's model and
# lint, sensing and the loop.
BROWSER_AND_SCHEMAS = frozenset(
    {
        "playwright",
        "jsonschema",
        "referencing",
        "pydantic",
        "yaml",
        "argus.config",
        "argus.spec.model",
        "argus.spec.lint",
        "argus.sense",
        "argus.loop",
    }
)
IMAGES = frozenset({"numpy", "PIL"})


def imported(*args: str, cwd: Path, stdin: bytes = b"") -> tuple[int, set[str]]:
    """The exit code of ``argus ARGS`` and every module it imported (top-level names and the
    argus modules in full)."""
    # Without CLAUDE_PROJECT_DIR: the hook would also look there, and an open run in the
    # developer's own project would (rightly) load its contract.
    env = {k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "argus", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        check=False,
    )
    modules: set[str] = set()
    for line in done.stderr.decode("utf-8", "replace").splitlines():
        if not line.startswith("import time:") or line.rstrip().endswith("imported package"):
            continue
        name = line.rsplit("|", 1)[1].strip()
        modules.add(name)
        modules.add(name.split(".", 1)[0])
    assert "argus.cli" in modules, done.stderr[-2000:]  # the report was read
    return done.returncode, modules


def heavy(modules: set[str], forbidden: frozenset[str]) -> set[str]:
    """The modules at or below a forbidden name."""
    return {m for m in modules if any(m == f or m.startswith(f"{f}.") for f in forbidden)}


def test_version_imports_no_subcommand(tmp_path: Path) -> None:
    code, modules = imported("--version", cwd=tmp_path)
    assert code == 0
    assert heavy(modules, BROWSER_AND_SCHEMAS | IMAGES) == set()
    assert {m for m in modules if m.startswith("argus.cli.")} == set()


def test_hook_stop_with_no_open_run_imports_nothing_heavy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As an agent's hook runs it: without the person's passphrase (with it, argus.cli loads
    # argus.person to take it out of the environment, which needs hashlib).
    monkeypatch.delenv("ARGUS_PERSON_KEY", raising=False)
    event = {"session_id": "s", "cwd": str(tmp_path), "hook_event_name": "Stop"}
    code, modules = imported("hook", "stop", cwd=tmp_path, stdin=json.dumps(event).encode("utf-8"))
    assert code == 0
    assert "argus.contract.hook" in modules  # the hook really ran
    assert heavy(modules, BROWSER_AND_SCHEMAS | IMAGES) == set()
    # With no run to read: neither the run store (SQLite, the hash chain) nor a contract.
    run_only = {"sqlite3", "argus.store.runstore", "argus.store.chain", "argus.contract.model"}
    assert modules & run_only == set()
    assert "argus.contract._open_run" not in modules
    # What only a write needs (argus.io's temporary files, folder swaps and removals; the
    # registry's entry names): about a fifth of this process's CPU before they were left out.
    assert modules & {"tempfile", "shutil", "ctypes", "hashlib"} == set()


def sparse_pair(folder: Path) -> None:
    """a.png and b.png in ``folder``: 8 pixels differ, so argus.diff.sparse answers."""
    a = np.full((40, 60, 4), 255, dtype=np.uint8)
    b = a.copy()
    b[10:12, 10:14, :3] = 0
    save_png(folder / "a.png", a)
    save_png(folder / "b.png", b)


def test_diff_imports_the_kernel_but_no_browser_or_schema(tmp_path: Path) -> None:
    sparse_pair(tmp_path)
    code, modules = imported("diff", "a.png", "b.png", cwd=tmp_path)
    assert code == 1  # 8 pixels differ: compared without numpy (argus.diff.sparse)
    assert "argus.diff.sparse" in modules and {"numpy", "PIL.Image"} & modules == set()
    assert heavy(modules, BROWSER_AND_SCHEMAS) == set()
    # Many changed pixels (4,800, over argus.diff.sparse.MAX_CHANGED): the kernel.
    save_png(tmp_path / "many.png", np.zeros((60, 80, 4), dtype=np.uint8))
    save_png(tmp_path / "white.png", np.full((60, 80, 4), 255, dtype=np.uint8))
    code, modules = imported("diff", "white.png", "many.png", cwd=tmp_path)
    assert code == 1
    assert "argus.diff._kernel" in modules
    assert heavy(modules, BROWSER_AND_SCHEMAS) == set()
    # The snapshot gate's half of argus.diff stays unloaded.
    assert {"argus.diff.snapshot", "argus.diff.masks"} & modules == set()
    # Pillow's PNG reader only: not the BMP, GIF, JPEG and PPM readers `Image.open` loads.
    assert "PIL.PngImagePlugin" in modules
    assert {"PIL.JpegImagePlugin", "PIL.GifImagePlugin", "PIL.BmpImagePlugin"} & modules == set()


def test_diff_of_a_sparse_pair_imports_neither_typing_nor_shutil(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each was a few % of this process: typing for the light path's NamedTuples (collections'
    # at run time), shutil for argparse's help formatter (argus.cli gives it the width).
    # Without the person's passphrase, as a user's shell runs it (with it, argus.cli loads
    # argus.person, which needs more).
    monkeypatch.delenv("ARGUS_PERSON_KEY", raising=False)
    sparse_pair(tmp_path)
    code, modules = imported("diff", "a.png", "b.png", cwd=tmp_path)
    assert code == 1 and "argus.diff._pointstats" in modules  # the sparse path ran
    assert {"typing", "shutil"} & modules == set()


def test_diff_of_byte_identical_files_loads_neither_numpy_nor_pillow(tmp_path: Path) -> None:
    a = np.full((40, 60, 4), 255, dtype=np.uint8)
    save_png(tmp_path / "a.png", a)
    (tmp_path / "copy.png").write_bytes((tmp_path / "a.png").read_bytes())
    code, modules = imported("diff", "a.png", "copy.png", cwd=tmp_path)
    assert code == 0
    assert "argus.diff.pngcheck" in modules  # the files were checked, not taken on trust
    assert heavy(modules, BROWSER_AND_SCHEMAS | IMAGES) == set()
    # Asked for a diff image, it decodes after all (the image needs the pixels).
    code, modules = imported("diff", "a.png", "copy.png", "--out", "d.png", cwd=tmp_path)
    assert code == 0 and {"numpy", "PIL"} <= modules


@pytest.mark.parametrize("command", [("verdict", "check"), ("lint",)])
def test_help_of_a_light_command_imports_nothing_heavy(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    code, modules = imported(*command, "--help", cwd=tmp_path)
    assert code == 0
    assert heavy(modules, BROWSER_AND_SCHEMAS | IMAGES) == set()


def test_verdict_check_reads_its_schemas_without_pydantic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rubric = load_rubric(None)
    verdict = {
        "iteration": 1,
        "feature": "habits",
        "target": "list",
        "dimensions": {
            name: {"score": 1, "anchor": dim.anchor, "evidence": "measured"}
            for name, dim in rubric.dimensions.items()
        },
        "all_pass": True,
        "failed_dimensions": [],
    }
    (tmp_path / "verdict.json").write_text(json.dumps(verdict))
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    imported("verdict", "check", "verdict.json", cwd=tmp_path)  # keeps the schemas if none are
    code, modules = imported("verdict", "check", "verdict.json", cwd=tmp_path)
    assert code == 0
    assert {"argus.verdict", "jsonschema"} <= modules  # it validated
    assert heavy(modules, frozenset({"pydantic", "pydantic_core", "argus.config"})) == set()


def test_config_models_are_built_on_first_use_not_at_import() -> None:
    code = (
        "import argus.config as c; "
        "models = [c.ProjectConfig, c.GatesConfig, c.BrowserConfig]; "
        "before = [m.__pydantic_complete__ for m in models]; "
        "c.ProjectConfig.model_validate({}); "
        "print(before, c.ProjectConfig.__pydantic_complete__)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[False,", "False,", "False]", "True"]
