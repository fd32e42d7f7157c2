"""Argus's exceptions, and the one seam where foreign errors become ours.

    ArgusError                 anything a user can hit; printed as one line, exit 2
    ├── InputError             a file or argument is unreadable, malformed or out of range
    ├── ConfigError            argus.toml / [tool.argus] is invalid
    ├── SensorError            the sensor could not render or probe a view
    ├── JudgeError             a judge could not produce a usable verdict
    └── StateError             stored loop state is inconsistent with the request

A failed *check* (a red gate, a failing dimension) is data, never an exception: exceptions are
for "could not run". Code that calls a foreign library maps its errors here with
``raise ... from exc`` so the CLI never shows a traceback.
"""

from __future__ import annotations


class ArgusError(Exception):
    """Base class: ``str(err)`` is the single line shown to the user."""

    exit_code = 2


class InputError(ArgusError):
    """Bad input: which file, what is wrong, what to do."""


class ConfigError(ArgusError):
    """The project configuration is invalid."""


class SensorError(ArgusError):
    """The sensor failed to render or probe a view."""


class JudgeError(ArgusError):
    """A judge backend could not produce a usable verdict."""


class StateError(ArgusError):
    """Stored state does not allow the requested transition."""
