"""``argus init FEATURE --adapter textual --app FILE.py:CLASS``: a spec sensed by the Textual
adapter, the project's sense.sh and an argus.toml with the gates that apply (no textual
needed: nothing is sensed here)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from argus.config import load_config
from argus.spec import load_spec
from tests.conftest import RunArgus

SCRIPT = "argus/adapters/textual/sense.sh"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    return tmp_path


def test_init_writes_a_textual_spec_and_its_sense_script(repo: Path, run_argus: RunArgus) -> None:
    result = run_argus("init", "shop", "--adapter", "textual", "--app", "app.py:Shop", cwd=repo)
    assert result.returncode == 0, result.stderr
    assert f"wrote {SCRIPT}" in result.stdout and "wrote argus.toml" in result.stdout
    spec = load_spec(repo / "argus/specs/shop/spec.json")
    assert spec.adapter == "textual"
    assert [t.route for t in spec.targets] == ["app://shop/main"]
    script = repo / SCRIPT
    assert os.access(script, os.X_OK)
    text = script.read_text()
    assert '"${ARGUS_PYTHON:-python3}" -m argus.adapters.textual --app app.py:Shop' in text
    assert text.rstrip().endswith('"$@"')
    config = load_config(repo)
    assert config.base_url in (None, "") and config.web_server is None
    assert "axe" not in config.gates.enabled and "a11y_ids" in config.gates.enabled


def test_an_existing_sense_script_is_kept(repo: Path, run_argus: RunArgus) -> None:
    script = repo / SCRIPT
    script.parent.mkdir(parents=True)
    script.write_text("#!/usr/bin/env bash\necho mine\n")
    result = run_argus("init", "shop", "--adapter", "textual", "--app", "app.py:Shop", cwd=repo)
    assert result.returncode == 0, result.stderr
    assert script.read_text() == "#!/usr/bin/env bash\necho mine\n"
    assert f"kept {SCRIPT}" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--adapter", "qt", "--app", "app.py:Shop"], "ships no adapter of that name"),
        (["--adapter", "textual"], "needs --app FILE.py:CLASS"),
        (["--app", "app.py:Shop"], "give --adapter too"),
        (["--adapter", "textual", "--app", "app.py"], "name the Textual app as FILE.py:CLASS"),
        (["--adapter", "textual", "--app", "a.py:A", "--url", "http://127.0.0.1:1"], "drop --url"),
        (["--adapter", "textual", "--app", "a.py:A", "--framework", "dash"], "drop --framework"),
    ],
)
def test_bad_adapter_flags_are_one_line_and_write_nothing(
    repo: Path, run_argus: RunArgus, args: list[str], message: str
) -> None:
    result = run_argus("init", "shop", *args, cwd=repo)
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in repo.iterdir()) == [".git"]


def test_lint_does_not_ask_a_textual_spec_for_axe(repo: Path, run_argus: RunArgus) -> None:
    run_argus("init", "shop", "--adapter", "textual", "--app", "app.py:Shop", cwd=repo)
    linted = run_argus("lint", cwd=repo)
    assert "lacks WCAG gate" not in linted.stdout + linted.stderr
    spec = repo / "argus/specs/shop/spec.json"
    spec.write_text(spec.read_text().replace('"adapter": "textual"', '"adapter": "web"'))
    web = run_argus("lint", cwd=repo)
    assert "lacks WCAG gate(s) this version offers: axe" in web.stdout + web.stderr
