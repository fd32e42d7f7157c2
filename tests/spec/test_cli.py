from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import RunArgus
from tests.spec.project import make_project, spec_data, write_json


def one_line_error(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("argus: ")
    assert "Traceback" not in stderr
    return lines[0]


def test_lint_valid_spec_exits_0(tmp_path: Path, run_argus: RunArgus) -> None:
    spec = make_project(tmp_path)
    result = run_argus("lint", str(spec))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{spec}: valid" in result.stdout
    assert "reference list populated/light: present" in result.stdout
    assert result.stderr == ""


def test_lint_invalid_spec_exits_1_and_prints_json_paths(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    data = spec_data()
    data["targets"][0]["canonical"]["state"] = "loading"
    spec = make_project(tmp_path, data)
    (spec.parent / "references/list-populated-light.png").write_bytes(b"not a png")
    result = run_argus("lint", str(spec))
    assert result.returncode == 1
    assert "INVALID (2 errors)" in result.stdout
    assert "$.targets[0].canonical.state: 'loading' is not a state" in result.stdout
    assert "$.targets[0].references[0].file: marked present but not a PNG" in result.stdout
    assert result.stderr == ""


def test_lint_schema_error_exits_1(tmp_path: Path, run_argus: RunArgus) -> None:
    data = spec_data()
    data["targets"][0]["states"] = []
    result = run_argus("lint", str(make_project(tmp_path, data)))
    assert result.returncode == 1
    assert "error $.targets[0].states: [] should be non-empty" in result.stdout


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "spec not found"),
        (b'{"feature": ', "spec is not valid JSON (line 1"),
        (b" " * (5 * 1024 * 1024 + 1), "over the 5 MiB limit"),
    ],
    ids=["missing", "bad-json", "oversized"],
)
def test_lint_unreadable_spec_exits_2_with_one_line(
    tmp_path: Path, run_argus: RunArgus, content: bytes | None, expected: str
) -> None:
    spec = make_project(tmp_path)
    if content is None:
        spec.unlink()
    else:
        spec.write_bytes(content)
    result = run_argus("lint", str(spec))
    assert result.returncode == 2
    line = one_line_error(result.stderr)
    assert str(spec) in line
    assert expected in line


def test_lint_json_report(tmp_path: Path, run_argus: RunArgus) -> None:
    spec = make_project(tmp_path)
    data = spec_data()
    data["targets"][0]["references"] = []
    write_json(spec, data)
    result = run_argus("lint", "--json", str(spec))
    assert result.returncode == 0
    document = json.loads(result.stdout)
    assert document["valid"] is True
    assert document["unreadable"] == []
    (report,) = document["specs"]
    assert report["valid"] is True
    assert report["errors"] == []
    assert report["reference_worklist"][0]["status"] == "needed"


def test_lint_json_report_of_an_invalid_spec(tmp_path: Path, run_argus: RunArgus) -> None:
    data = spec_data()
    data["design_system"]["tokens"] = "../tokens.json"
    result = run_argus("lint", "--json", str(make_project(tmp_path / "repo", data)))
    assert result.returncode == 1
    (report,) = json.loads(result.stdout)["specs"]
    assert report["errors"][0]["path"] == "$.design_system.tokens"
    assert "'..'" in report["errors"][0]["message"]


def test_lint_without_arguments_finds_every_feature(tmp_path: Path, run_argus: RunArgus) -> None:
    make_project(tmp_path)
    bad = spec_data()
    bad["feature"] = "other"
    bad["targets"] = []
    write_json(tmp_path / "argus/specs/other/spec.json", bad)
    result = run_argus("lint", cwd=tmp_path / "argus")
    assert result.returncode == 1
    # Paths are shown relative to the working directory.
    assert result.stdout.startswith("specs/habits/spec.json: valid")
    assert "\nspecs/other/spec.json: INVALID" in result.stdout


def test_lint_accepts_a_feature_directory(tmp_path: Path, run_argus: RunArgus) -> None:
    spec = make_project(tmp_path)
    result = run_argus("lint", str(spec.parent))
    assert result.returncode == 0


def test_lint_with_one_unreadable_spec_among_several_exits_2(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    spec = make_project(tmp_path)
    result = run_argus("lint", str(spec), str(tmp_path / "nope.json"))
    assert result.returncode == 2
    assert "valid" in result.stdout
    assert "nope.json: spec not found" in one_line_error(result.stderr)


def test_lint_without_specs_exits_2(tmp_path: Path, run_argus: RunArgus) -> None:
    (tmp_path / "argus.toml").write_text("")
    result = run_argus("lint", cwd=tmp_path)
    assert result.returncode == 2
    assert "argus init FEATURE" in one_line_error(result.stderr)


def test_init_then_lint_is_clean_with_the_reference_needed(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    created = run_argus("init", "habits", cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    assert "wrote argus/specs/habits/spec.json" in created.stdout
    assert "wrote argus/specs/habits/.gitignore" in created.stdout
    text = run_argus("lint", cwd=tmp_path)
    assert text.returncode == 0, text.stdout
    assert (
        "reference main populated/light: needed (put the image at references/main-" in text.stdout
    )
    result = run_argus("lint", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    (report,) = json.loads(result.stdout)["specs"]
    assert report["errors"] == []
    assert report["reference_worklist"][0]["status"] == "needed"


def test_init_refuses_an_existing_feature(tmp_path: Path, run_argus: RunArgus) -> None:
    (tmp_path / "argus.toml").write_text("")
    assert run_argus("init", "habits", cwd=tmp_path).returncode == 0
    before = (tmp_path / "argus/specs/habits/spec.json").read_bytes()
    again = run_argus("init", "habits", cwd=tmp_path)
    assert again.returncode == 2
    assert "already exists" in one_line_error(again.stderr)
    assert (tmp_path / "argus/specs/habits/spec.json").read_bytes() == before


def test_init_rejects_a_bad_feature_name(tmp_path: Path, run_argus: RunArgus) -> None:
    (tmp_path / "argus.toml").write_text("")
    result = run_argus("init", "My_Feature", cwd=tmp_path)
    assert result.returncode == 2
    assert "invalid feature name 'My_Feature'" in one_line_error(result.stderr)
    assert not (tmp_path / "argus").exists()


def test_init_that_fails_half_way_leaves_nothing_behind(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    (tmp_path / "argus.toml").write_text("")
    feature = tmp_path / "argus" / "specs" / "pw"
    (feature / ".gitignore").mkdir(parents=True)  # written last: the spec files come first
    result = run_argus("init", "pw", cwd=tmp_path)
    assert result.returncode == 2, result.stdout
    assert result.stderr.startswith("argus: ") and ".gitignore" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in feature.iterdir()) == [".gitignore"]
    assert not (tmp_path / ".gitignore").exists()

    (feature / ".gitignore").rmdir()  # the cause fixed: init now succeeds
    result = run_argus("init", "pw", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (feature / "spec.json").is_file() and (feature / ".gitignore").is_file()


def test_init_where_the_feature_is_a_file_is_one_line(tmp_path: Path, run_argus: RunArgus) -> None:
    (tmp_path / "argus.toml").write_text("")
    (tmp_path / "argus" / "specs").mkdir(parents=True)
    (tmp_path / "argus" / "specs" / "x").write_text("not a directory")
    result = run_argus("init", "x", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("argus: ") and "argus/specs/x" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert (tmp_path / "argus" / "specs" / "x").read_text() == "not a directory"


@pytest.mark.parametrize(
    ("file", "content", "code", "needle"),
    [
        ("tokens.json", "{not json", 2, "not valid JSON"),
        ("contrast-pairs.json", "{not json", 2, "not valid JSON"),
        ("contrast-pairs.json", None, 2, "not found"),
        # Readable but wrong: the spec is invalid (1), not unreadable.
        ("contrast-pairs.json", '{"pairs": [{"fg": "nope", "bg": "surface"}]}', 1, "'nope'"),
    ],
)
def test_lint_named_files_unreadable_exit_2_semantic_problems_exit_1(
    tmp_path: Path, run_argus: RunArgus, file: str, content: str | None, code: int, needle: str
) -> None:
    make_project(tmp_path)
    path = tmp_path / "argus" / "specs" / "habits" / file
    if content is None:
        path.unlink()
    else:
        path.write_text(content)
    result = run_argus("lint", cwd=tmp_path)
    assert result.returncode == code, result.stdout + result.stderr
    assert needle in result.stdout
    if code == 2:
        assert result.stderr.startswith("argus: ") and needle in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    else:
        assert result.stderr == ""


def test_init_writes_a_working_argus_toml_from_the_start_command_and_url(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    from argus.config import load_config
    from argus.sense.server import url_answers, web_server
    from tests.support.habits import free_port

    (tmp_path / ".git").mkdir()
    (tmp_path / "index.html").write_text("<!doctype html><p>app</p>")
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    command = f"{sys.executable} -m http.server {port} --bind 127.0.0.1"
    created = run_argus("init", "checkout", "--start-command", command, "--url", url, cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    assert "wrote argus.toml" in created.stdout
    config = load_config(tmp_path)
    assert config.base_url == url
    assert config.web_server is not None and config.web_server.command == command
    with web_server(config, tmp_path) as answering:
        assert answering == url and url_answers(url)
    assert run_argus("lint", cwd=tmp_path).returncode == 0


def test_init_without_settings_writes_a_template_and_says_what_to_set(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    (tmp_path / ".git").mkdir()
    created = run_argus("init", "checkout", cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    assert "base_url" in created.stdout and "[web_server]" in created.stdout
    text = (tmp_path / "argus.toml").read_text()
    assert "# base_url" in text  # to fill in, never a guessed address


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--start-command", "npm start"], "needs --url"),
        (["--url", "localhost:3000"], "--url"),
    ],
)
def test_init_bad_app_settings_are_one_line_and_write_nothing(
    tmp_path: Path, run_argus: RunArgus, args: list[str], message: str
) -> None:
    (tmp_path / ".git").mkdir()
    result = run_argus("init", "checkout", *args, cwd=tmp_path)
    assert result.returncode == 2
    assert message in one_line_error(result.stderr)
    assert not (tmp_path / "argus.toml").exists() and not (tmp_path / "argus").exists()


def test_init_never_overwrites_a_config(tmp_path: Path, run_argus: RunArgus) -> None:
    (tmp_path / "argus.toml").write_text('base_url = "http://127.0.0.1:9"\n')
    result = run_argus("init", "checkout", "--url", "http://127.0.0.1:3000", cwd=tmp_path)
    assert result.returncode == 2 and "already configured" in one_line_error(result.stderr)
    assert (tmp_path / "argus.toml").read_text() == 'base_url = "http://127.0.0.1:9"\n'
    plain = run_argus("init", "checkout", cwd=tmp_path)
    assert plain.returncode == 0 and "wrote argus.toml" not in plain.stdout


def test_init_at_a_terminal_asks_for_the_start_command_and_url(tmp_path: Path) -> None:
    import os
    import pty
    import subprocess

    from argus.config import load_config

    (tmp_path / ".git").mkdir()
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "argus", "init", "checkout"],
        cwd=tmp_path,
        stdin=follower,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    os.close(follower)
    os.write(leader, b"npm run dev\nhttp://127.0.0.1:4173\n")
    out, err = process.communicate(timeout=120)
    os.close(leader)
    assert process.returncode == 0, err.decode()
    assert b"wrote argus.toml" in out
    config = load_config(tmp_path)
    assert config.base_url == "http://127.0.0.1:4173"
    assert config.web_server is not None and config.web_server.command == "npm run dev"
