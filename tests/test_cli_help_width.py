"""Help is laid out for the terminal's width as argparse's own formatter would lay it out,
though argus.cli finds that width without importing shutil (argparse imports it for every
argument it adds, which cost an ``argus diff`` process its bz2, lzma and fnmatch imports;
tests/test_startup_imports.py holds the diff command to not importing it)."""

from __future__ import annotations

import argparse
import shutil

import pytest

from argus.cli import build_parser, terminal_columns


@pytest.mark.parametrize("columns", [None, "100", "43", "0", "-5", "wide", ""])
def test_the_width_is_shutils(monkeypatch: pytest.MonkeyPatch, columns: str | None) -> None:
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.delenv("LINES", raising=False)
    assert terminal_columns() == shutil.get_terminal_size().columns


@pytest.mark.parametrize("columns", ["60", "132"])
@pytest.mark.parametrize("command", ["diff", "verdict", None])
def test_help_is_argparses_own_layout(
    monkeypatch: pytest.MonkeyPatch, columns: str, command: str | None
) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    ours = build_parser(only=command)
    # The same parser built with argparse's own formatter, which asks shutil for the width.
    monkeypatch.setattr(argparse.ArgumentParser, "__init__", _with_argparses_formatter)
    theirs = build_parser(only=command)
    if command is None:
        assert ours.format_help() == theirs.format_help()
        return
    assert _subparser(ours, command).format_help() == _subparser(theirs, command).format_help()
    assert len(max(_subparser(ours, command).format_help().splitlines(), key=len)) <= int(columns)


_ORIGINAL_INIT = argparse.ArgumentParser.__init__


def _with_argparses_formatter(
    self: argparse.ArgumentParser, *args: object, **kwargs: object
) -> None:
    kwargs["formatter_class"] = argparse.HelpFormatter
    _ORIGINAL_INIT(self, *args, **kwargs)  # type: ignore[arg-type]


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[name]
            return found
    raise AssertionError(f"no subcommand {name}")
