"""`argus report` through the real CLI: exit codes, output, one-line errors."""

from __future__ import annotations

import webbrowser
from pathlib import Path

import pytest

from argus.cli._report import open_in_browser
from argus.report import LATEST_NAME, report_name
from tests.conftest import RunArgus
from tests.report.builder import FEATURE, build_run


def test_writes_the_report_and_prints_its_path(tmp_path: Path, run_argus: RunArgus) -> None:
    built = build_run(tmp_path)
    done = run_argus("report", "--feature", FEATURE, cwd=built.root)
    assert done.returncode == 0, done.stderr
    path = Path(done.stdout.strip())
    assert path == built.runs_dir / report_name(built.run_id)
    assert path.is_file() and (built.runs_dir / LATEST_NAME).is_file()


def test_run_and_out(tmp_path: Path, run_argus: RunArgus) -> None:
    built = build_run(tmp_path / "repo")
    out = tmp_path / "out.html"
    done = run_argus("report", "--run", built.run_id, "--out", str(out), cwd=built.root)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(out) and built.run_id in out.read_text(encoding="utf-8")


def test_open_is_a_no_op_in_ci(tmp_path: Path, run_argus: RunArgus) -> None:
    built = build_run(tmp_path)
    env = {"CI": "true", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = run_argus("report", "--open", cwd=built.root, env=env)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).is_file()


@pytest.mark.parametrize(("ci", "opened"), [("true", False), ("1", False), ("", True), ("0", True)])
def test_open_uses_webbrowser_outside_ci(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ci: str, opened: bool
) -> None:
    calls: list[str] = []
    monkeypatch.setenv("CI", ci)
    monkeypatch.setattr(webbrowser, "open", lambda url: calls.append(url) or True)
    page = tmp_path / "r.html"
    assert open_in_browser(page) is opened
    assert calls == ([page.resolve().as_uri()] if opened else [])


def test_no_runs_for_the_feature_exits_2(tmp_path: Path, run_argus: RunArgus) -> None:
    built = build_run(tmp_path)
    done = run_argus("report", "--feature", "nope", cwd=built.root)
    assert done.returncode == 2
    assert done.stderr.startswith("argus: no runs recorded for feature 'nope'")
    assert len(done.stderr.strip().splitlines()) == 1 and done.stdout == ""


def test_unknown_run_exits_2(tmp_path: Path, run_argus: RunArgus) -> None:
    built = build_run(tmp_path)
    done = run_argus("report", "--run", "20000101T000000Z-000000", cwd=built.root)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"argus: no run '20000101T000000Z-000000' recorded for {built.root.resolve().as_posix()}; "
        "'argus runs' lists the recorded runs"
    )


def test_out_into_a_directory_exits_2(tmp_path: Path, run_argus: RunArgus) -> None:
    built = build_run(tmp_path)
    done = run_argus("report", "--out", str(tmp_path), cwd=built.root)
    assert done.returncode == 2
    assert "is a directory; pass a file name to --out" in done.stderr
