"""Bad input is one line on stderr and exit 2, never a traceback (issue 12)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from argus.cli import main, one_line
from argus.config import load_config
from argus.errors import ConfigError, InputError
from argus.io import atomic_write_bytes, read_bytes
from argus.tokens import load_tokens
from tests.conftest import RunArgus


def _argus(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    ("name", "data", "needle"),
    [
        ("argus.toml", b'base_url = "caf\xe9"\n', "not UTF-8"),
        ("pyproject.toml", b"[tool.argus]\nworkers = 1\n# \xff\xfe\n", "not UTF-8"),
        ("argus.toml", b"workers = " + b"1" * 5000 + b"\n", "not valid TOML"),
        ("pyproject.toml", b"tool = 1\n", "'tool' must be a table"),
    ],
)
def test_unreadable_config_is_one_config_error(
    tmp_path: Path, name: str, data: bytes, needle: str
) -> None:
    (tmp_path / name).write_bytes(data)
    with pytest.raises(ConfigError, match=needle) as info:
        load_config(tmp_path)
    assert "\n" not in str(info.value)


def test_non_utf8_config_through_the_cli(tmp_path: Path, run_argus: RunArgus) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "argus.toml").write_bytes(b'[judge]\nbackend = "m\xe9tric"\n')
    (tmp_path / "c.json").write_text("{}")
    done = run_argus("contract", "start", "c.json", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "not UTF-8" in done.stderr


def test_a_dtcg_colour_space_given_as_a_list_is_bad_input(tmp_path: Path) -> None:
    doc = {"ink": {"$type": "color", "$value": {"colorSpace": ["srgb"], "components": [0, 0, 0]}}}
    (tmp_path / "tokens.json").write_text(json.dumps(doc))
    with pytest.raises(InputError, match="colorSpace"):
        load_tokens(tmp_path / "tokens.json")


def test_a_contract_state_with_an_object_for_its_path_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state_dir = tmp_path / ".argus" / "contracts" / "ship-it"
    state_dir.mkdir(parents=True)
    (tmp_path / ".git").mkdir()
    (tmp_path / "c.json").write_text(
        json.dumps(
            {
                "id": "ship-it",
                "name": "Ship",
                "stages": [{"id": "a", "name": "A", "type": "mechanical", "command": "true"}],
            }
        )
    )
    root = ("--root", str(tmp_path))
    assert _argus(capsys, "contract", "pin", str(tmp_path / "c.json"), *root)[0] == 0
    code, err = _argus(capsys, "contract", "start", str(tmp_path / "c.json"), *root)
    assert code == 0, err
    path = state_dir / "state.json"
    state = json.loads(path.read_text())
    state["contract_path"] = {"not": "a path"}
    path.write_text(json.dumps(state))
    readers = (("contract", "status", "ship-it"), ("contract", "advance", "ship-it", "verifying"))
    for argv in readers:
        code, err = _argus(capsys, *argv, "--root", str(tmp_path))
        assert code == 2 and "contract_path" in err and err.count("\n") == 1, err


def test_a_nul_in_a_path_is_bad_input_on_read_and_on_write(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="NUL"):
        read_bytes(tmp_path / "a\0b.json")
    with pytest.raises(InputError, match="NUL"):
        atomic_write_bytes(tmp_path / "a\0b.json", b"{}")


def test_a_nul_in_a_spec_path_is_a_lint_finding_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.support.habits import HABITS_SPEC, copy_habits

    root = copy_habits(tmp_path)
    spec = root / HABITS_SPEC
    doc = json.loads(spec.read_text())
    doc["tokens"] = "tokens\0.json"
    spec.write_text(json.dumps(doc))
    code, err = _argus(capsys, "lint", str(spec))
    assert code in (1, 2) and "Traceback" not in err


@pytest.mark.parametrize(
    ("message", "shown"),
    [
        ("a\nb", "a\\nb"),
        ("key\r0", "key\\r0"),
        ("\x1b[2Jcleared", "\\x1b[2Jcleared"),
        ("line\u2028sep", "line\\u2028sep"),
        ("plain text: é ok", "plain text: é ok"),
    ],
)
def test_error_messages_stay_one_printable_line(message: str, shown: str) -> None:
    assert one_line(message) == shown


def test_a_key_with_a_newline_is_reported_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "referee.json").write_text(json.dumps({"bad\nkey\r": 1}))
    code, err = _argus(capsys, "referee", str(tmp_path / "referee.json"), "--root", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and "bad\\nkey\\r" in err
