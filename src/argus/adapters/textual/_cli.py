"""The adapter's arguments, the app they name, and the exit codes (see ``__main__``)."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, MutableMapping, Sequence
from pathlib import Path
from typing import Any

DEFAULT_THEMES = {"light": "textual-light", "dark": "textual-dark"}
DEFAULT_SIZE = (80, 24)


class BadInput(ValueError):
    """An argument the adapter cannot use: one line for the user, exit 2."""


def _size(text: str) -> tuple[int, int]:
    columns, _, rows = text.partition("x")
    if not (columns.isdigit() and rows.isdigit()) or not (
        10 <= int(columns) <= 500 and 5 <= int(rows) <= 200
    ):
        raise BadInput(f"--size {text!r}: expected COLUMNSxROWS, e.g. 80x24 (10-500 by 5-200)")
    return int(columns), int(rows)


def _themes(pairs: Sequence[str]) -> dict[str, str]:
    themes = dict(DEFAULT_THEMES)
    for pair in pairs:
        appearance, _, theme = pair.partition("=")
        if not appearance or not theme:
            raise BadInput(f"--theme {pair!r}: expected APPEARANCE=THEME, e.g. dark=textual-dark")
        themes[appearance] = theme
    return themes


def steady_environment(environ: MutableMapping[str, str]) -> None:
    """The same render whatever the shell says: Textual reads NO_COLOR (a monochrome app) and
    TEXTUAL* variables (features, animation level, colour system, ...) when it is imported, so
    they go before it is; animations are off, so the app is at rest once its messages are."""
    for name in [n for n in environ if n == "NO_COLOR" or n.startswith("TEXTUAL")]:
        del environ[name]
    environ["TEXTUAL_ANIMATIONS"] = "none"


def load_app(spec: str) -> Callable[[], Any]:
    """The app class (or factory) ``FILE.py:NAME`` or ``MODULE:NAME`` names."""
    where, _, name = spec.partition(":")
    if not where or not name:
        raise BadInput(f"--app {spec!r}: expected FILE.py:CLASS or MODULE:CLASS")
    if where.endswith(".py"):
        path = Path(where)
        if not path.is_file():
            raise BadInput(f"--app {spec!r}: {path} does not exist")
        sys.path.insert(0, str(path.resolve().parent))
        loaded = importlib.util.spec_from_file_location(path.stem, path)
        if loaded is None or loaded.loader is None:
            raise BadInput(f"--app {spec!r}: {path} cannot be loaded as a module")
        module = importlib.util.module_from_spec(loaded)
        sys.modules[path.stem] = module
        loaded.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    factory = getattr(module, name, None)
    if not callable(factory):
        raise BadInput(f"--app {spec!r}: {where} has no class or function {name!r}")
    return factory  # type: ignore[no-any-return]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m argus.adapters.textual")
    p.add_argument("--app", required=True, help="FILE.py:CLASS or MODULE:CLASS")
    for name in ("route", "state", "appearance", "fixture", "out"):
        p.add_argument(f"--{name}", required=True)
    p.add_argument("--size", default="80x24", help="the terminal, COLUMNSxROWS (default 80x24)")
    p.add_argument("--theme", action="append", default=[], help="APPEARANCE=THEME")
    return p


def _fail(message: str, code: int) -> int:
    print(f"argus textual adapter: {message}", file=sys.stderr)
    return code


def _reason(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"


def main(argv: Sequence[str]) -> int:
    args = parser().parse_args(list(argv))
    try:
        size = _size(args.size)
        themes = _themes(args.theme)
        if args.appearance not in themes:
            raise BadInput(
                f"--appearance {args.appearance!r} has no theme; map it with "
                f"--theme {args.appearance}=THEME"
            )
        out = Path(args.out)
        if not out.is_dir():
            raise BadInput(f"--out {out}: not a folder")
        steady_environment(os.environ)
        from argus.adapters.textual._capture import sense_app  # textual only past the arguments
    except BadInput as exc:
        return _fail(str(exc), 2)
    except ImportError as exc:
        return _fail(f"{exc}; install the 'textual' extra (pip install 'argus[textual]')", 2)
    os.environ.update(ARGUS_FIXTURE=args.fixture, ARGUS_ROUTE=args.route, ARGUS_STATE=args.state)
    try:
        make_app = load_app(args.app)
    except BadInput as exc:
        return _fail(str(exc), 2)
    except Exception as exc:  # the app's module failed to import: its error, in one line
        return _fail(f"cannot load --app {args.app}: {_reason(exc)}", 2)
    try:
        asyncio.run(sense_app(make_app, out, theme=themes[args.appearance], size=size))
    except Exception as exc:  # the app's own failure, for the sensor error's stderr tail
        return _fail(f"the app failed: {_reason(exc)}", 1)
    return 0
