from __future__ import annotations

from pathlib import Path

import pytest

from argus import __version__
from tests.conftest import RunArgus
from tests.support.habits import copy_habits


@pytest.mark.process  # `python -m argus` itself: the entry a user's shell and hooks start
def test_version_prints_package_version(run_argus: RunArgus) -> None:
    result = run_argus("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"argus {__version__}"
    assert __version__ != "0.0.0"


def test_no_command_prints_usage_and_exits_2(run_argus: RunArgus) -> None:
    result = run_argus()
    assert result.returncode == 2
    assert "usage: argus" in result.stderr


def test_help_lists_every_command(run_argus: RunArgus) -> None:
    from argus.cli import COMMANDS

    result = run_argus("--help")
    assert result.returncode == 0
    for name in COMMANDS:
        assert name in result.stdout


def test_a_command_runs_with_only_its_own_module_imported() -> None:
    import subprocess
    import sys

    # Importing every command would pull numpy and Playwright into `argus schema`.
    code = (
        "import sys; from argus.cli import main; main(['schema', 'rubric']); "
        "print('numpy' in sys.modules, 'playwright' in sys.modules, file=sys.stderr)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0
    assert result.stderr.strip().splitlines()[-1] == "False False"


VIEW_ARGS = ("--target", "list", "--state", "populated", "--appearance", "light")


@pytest.mark.parametrize(
    "command",
    [("gates", "--sensed", "."), ("judge",), ("approve",), ("sense",), ("state", "show")],
)
def test_view_commands_share_their_view_arguments(
    tmp_path: Path, run_argus: RunArgus, command: tuple[str, ...]
) -> None:
    """Every command working on one view takes the same four arguments, --feature required,
    and (except `state`, which needs no spec) names the features there are when it is wrong."""
    root = copy_habits(tmp_path)
    done = run_argus(*command, *VIEW_ARGS, cwd=root)
    assert done.returncode == 2 and "--feature" in done.stderr
    done = run_argus(*command, "--feature", "nope", *VIEW_ARGS, cwd=root)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    if command[0] != "state":
        assert "no feature 'nope' here (features: habits)" in done.stderr


@pytest.mark.parametrize(
    ("error", "needle"),
    [
        (
            PermissionError(13, "Permission denied", "/x/y.json"),
            "argus: /x/y.json: Permission denied",
        ),
        (MemoryError(), "argus: out of memory"),
        (RecursionError(), "argus: the input is nested too deeply"),
    ],
)
def test_unmapped_os_memory_and_recursion_errors_are_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    error: BaseException,
    needle: str,
) -> None:
    import argus.cli._schema
    from argus.cli import main

    def boom(args: object) -> int:
        raise error

    monkeypatch.setattr(argus.cli._schema, "run", boom)
    assert main(["schema"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(needle) and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("where", ["build_parser", "one_thread_while_numpy_loads"])
def test_ctrl_c_anywhere_is_one_line_and_130(
    where: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """While a command's modules import as much as while it runs (tests/sense/
    test_interrupt_browser.py sends a real SIGINT); a caller of main keeps its own hooks."""
    import sys

    import argus.cli

    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(argus.cli, where, interrupted)
    hook = sys.unraisablehook
    assert argus.cli.main(["lint"]) == 130
    assert capsys.readouterr().err == "argus: interrupted\n"
    assert sys.unraisablehook is hook


# KeyboardInterrupt raised as argus.cli is imported, as a Ctrl-C in a command's first
# milliseconds would be; the entry point is the installed `argus` script's own.
INTERRUPTED_IMPORT = """
import importlib.metadata, runpy, sys
class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == "argus.cli":
            raise KeyboardInterrupt
sys.meta_path.insert(0, Interrupt())
if sys.argv[1:] == ["-m"]:
    runpy.run_module("argus", run_name="__main__")
(entry,) = importlib.metadata.entry_points(group="console_scripts", name="argus")
sys.exit(entry.load()())
"""


@pytest.mark.process
@pytest.mark.parametrize("how", [[], ["-m"]], ids=["script", "python -m"])
def test_ctrl_c_while_argus_cli_imports_is_one_line_and_130(how: list[str]) -> None:
    import subprocess
    import sys

    program = [sys.executable, "-c", INTERRUPTED_IMPORT, *how]
    result = subprocess.run(program, capture_output=True, text=True)
    assert (result.returncode, result.stderr) == (130, "argus: interrupted\n")
