"""`argus gates --update-snapshots MODE`: Playwright's update modes through the CLI.

Each case runs the snapshot gate alone over a hand-written sensed directory, with the
project's ``[gates.snapshot] update`` set to a different mode than the flag, so every case
also shows that the flag overrides the config for that run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from PIL import Image, ImageDraw
from PIL.PngImagePlugin import PngInfo

from argus.spec import View, load_spec
from tests.conftest import RunArgus
from tests.gates.probes import page
from tests.gates.test_cli_gates import VIEW
from tests.support.habits import HABITS_SPEC, copy_habits
from tests.support.sensed import seal_sensed

BASELINE = Path("argus/specs/habits/__snapshots__/list-populated-light.png")
PAGE = (245, 246, 248)
OTHER = (20, 20, 20)


def snapshot_project(tmp_path: Path, config_update: str) -> tuple[Path, Path]:
    """A Habits copy gating only the snapshot, and a sensed directory with a plain render."""
    root = copy_habits(tmp_path)
    config = root / "argus.toml"
    text = re.sub(r"enabled = \[.*\]", 'enabled = ["snapshot"]', config.read_text())
    config.write_text(text + f'\n[gates.snapshot]\nupdate = "{config_update}"\n')
    sensed = tmp_path / "sensed"
    sensed.mkdir()
    (sensed / "probe.json").write_text(json.dumps(page()))
    Image.new("RGB", (1280, 800), PAGE).save(sensed / "render.png")
    seal_sensed(sensed, View("habits", "list", "populated", "light"))
    return root, sensed


def write_baseline(root: Path, *, differs: bool) -> Path:
    """A baseline equal to the render, or one with a dark block the render does not have.
    It carries a text chunk Argus never writes, so a rewrite shows even when pixels match."""
    path = root / BASELINE
    path.parent.mkdir(parents=True, exist_ok=True)
    image = Image.new("RGB", (1280, 800), PAGE)
    if differs:
        ImageDraw.Draw(image).rectangle((100, 100, 300, 200), fill=OTHER)
    info = PngInfo()
    info.add_text("written-by", "the test")
    image.save(path, pnginfo=info)
    return path


def handwritten(path: Path) -> bool:
    with Image.open(path) as image:
        return image.info.get("written-by") == "the test"


def pixel(path: Path) -> tuple[int, ...]:
    with Image.open(path) as image:
        return tuple(image.convert("RGB").getpixel((150, 150)))


def gate(run_argus: RunArgus, root: Path, sensed: Path, mode: str) -> tuple[int, dict]:
    done = run_argus(
        "gates", *VIEW, "--sensed", str(sensed), "--update-snapshots", mode, "--json", cwd=root
    )
    assert done.returncode in (0, 1), done.stderr
    detail = json.loads(done.stdout)["details"]["snapshot"]
    return done.returncode, detail


def test_missing_writes_only_a_missing_baseline(tmp_path: Path, run_argus: RunArgus) -> None:
    root, sensed = snapshot_project(tmp_path, config_update="none")
    code, detail = gate(run_argus, root, sensed, "missing")
    # Written, not compared: with the snapshot the only gate nothing was measured, so exit 1.
    assert (code, detail["status"], detail["data"]["action"]) == (1, "new", "written")
    assert pixel(root / BASELINE) == PAGE

    # An existing, differing baseline is kept: the run reports the diff and writes nothing.
    write_baseline(root, differs=True)
    code, detail = gate(run_argus, root, sensed, "missing")
    assert (code, detail["status"], detail["data"]["action"]) == (1, "diff", "none")
    assert pixel(root / BASELINE) == OTHER


def test_changed_overwrites_a_differing_baseline(tmp_path: Path, run_argus: RunArgus) -> None:
    root, sensed = snapshot_project(tmp_path, config_update="missing")
    baseline = write_baseline(root, differs=True)
    code, detail = gate(run_argus, root, sensed, "changed")
    # The status says what was compared (a diff), the action what was done about it.
    assert (code, detail["status"], detail["data"]["action"]) == (1, "diff", "updated")
    assert pixel(baseline) == PAGE
    code, detail = gate(run_argus, root, sensed, "changed")
    assert (code, detail["status"], detail["data"]["action"]) == (0, "pass", "none")


def test_all_overwrites_even_an_identical_baseline(tmp_path: Path, run_argus: RunArgus) -> None:
    root, sensed = snapshot_project(tmp_path, config_update="missing")
    baseline = write_baseline(root, differs=False)
    code, detail = gate(run_argus, root, sensed, "all")
    assert (code, detail["status"], detail["data"]["action"]) == (0, "pass", "updated")
    assert pixel(baseline) == PAGE and not handwritten(baseline)


def test_changed_keeps_a_matching_baseline(tmp_path: Path, run_argus: RunArgus) -> None:
    root, sensed = snapshot_project(tmp_path, config_update="all")
    baseline = write_baseline(root, differs=False)
    code, detail = gate(run_argus, root, sensed, "changed")
    assert (code, detail["status"], detail["data"]["action"]) == (0, "pass", "none")
    assert handwritten(baseline)


def test_none_fails_on_a_missing_baseline_without_writing(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    # As in Playwright: with updates off, a missing snapshot is a failure, never a green skip.
    root, sensed = snapshot_project(tmp_path, config_update="all")
    code, detail = gate(run_argus, root, sensed, "none")
    assert (code, detail["status"], detail["data"]["action"]) == (1, "diff", "none")
    assert not (root / BASELINE).exists()
    assert "no baseline at" in detail["summary"] and "(update mode none)" in detail["summary"]
    assert "--update-snapshots=missing" in detail["summary"]


def test_none_keeps_a_differing_baseline(tmp_path: Path, run_argus: RunArgus) -> None:
    root, sensed = snapshot_project(tmp_path, config_update="all")
    baseline = write_baseline(root, differs=True)
    before = baseline.read_bytes()
    code, detail = gate(run_argus, root, sensed, "none")
    assert (code, detail["status"], detail["data"]["action"]) == (1, "diff", "none")
    assert baseline.read_bytes() == before


def test_unknown_mode_is_refused_with_exit_2(tmp_path: Path, run_argus: RunArgus) -> None:
    root, sensed = snapshot_project(tmp_path, config_update="missing")
    done = run_argus(
        "gates", *VIEW, "--sensed", str(sensed), "--update-snapshots", "some", cwd=root
    )
    assert done.returncode == 2
    assert "--update-snapshots" in done.stderr and "changed" in done.stderr
    assert not (root / BASELINE).exists()


def test_in_ci_a_missing_baseline_fails_and_is_not_written(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    root, sensed = snapshot_project(tmp_path, config_update="missing")
    quiet = {k: v for k, v in os.environ.items() if k != "CI"}
    for how, env in (("--ci", quiet), ("env", {**quiet, "CI": "true"})):
        args = ["gates", *VIEW, "--sensed", str(sensed), "--json"]
        done = run_argus(*args, *(["--ci"] if how == "--ci" else []), cwd=root, env=env)
        assert done.returncode == 1, (how, done.stderr)
        assert json.loads(done.stdout)["gates"]["snapshot"] == "diff"
        assert not (root / BASELINE).exists()
    # An explicit update mode still writes it, in CI too.
    done = run_argus(
        "gates",
        *VIEW,
        "--sensed",
        str(sensed),
        "--ci",
        "--update-snapshots",
        "missing",
        "--json",
        cwd=root,
    )
    # (exit 1: the snapshot is this project's only gate, and a new baseline measures nothing)
    assert done.returncode == 1 and json.loads(done.stdout)["gates"]["snapshot"] == "new"
    assert (root / BASELINE).exists()


def test_gates_all_says_per_view_which_baselines_it_wrote(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    """The first `argus gates --all` on a laptop writes the missing baselines (Playwright's
    default), and says so for each view and once more on stderr; a second run writes none."""
    root, _ = snapshot_project(tmp_path, config_update="missing")
    spec = load_spec(root / HABITS_SPEC)
    views = spec.views("list")
    sensed = tmp_path / "all"
    for view in views:
        shutil.copytree(tmp_path / "sensed", sensed / view.slug)
        seal_sensed(sensed / view.slug, view)
    args = ("gates", "--feature", "habits", "--target", "list", "--all", "--sensed", str(sensed))
    first = run_argus(*args, cwd=root)
    assert first.returncode in (0, 1), first.stderr
    for view in views:
        written = root / f"argus/specs/habits/__snapshots__/{view.slug}.png"
        assert written.is_file()
        line = next(x for x in first.stdout.splitlines() if x.startswith(view.slug + " "))
        assert f"NEW baseline written at {written}" in line
    assert f"{len(views)} baseline(s) written or replaced" in first.stderr
    second = run_argus(*args, cwd=root)
    assert "baseline" not in second.stdout + second.stderr
    one = run_argus("gates", *VIEW, "--sensed", str(sensed / views[0].slug), cwd=root)
    assert "NEW baseline" not in one.stdout
    (root / BASELINE).unlink()
    one = run_argus("gates", *VIEW, "--sensed", str(tmp_path / "sensed"), "--json", cwd=root)
    assert json.loads(one.stdout)["gates"]["snapshot"] == "new"
    assert f"list-populated-light: NEW baseline written at {root / BASELINE}" in one.stderr
