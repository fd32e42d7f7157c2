"""`argus init`'s argus.toml: where the app answers and how Argus starts it.

Written only when the repository has no Argus config yet (no argus.toml, no [tool.argus] in
pyproject.toml), and never over one: the values come from ``--start-command``/``--url`` or
from the questions ``argus init`` asks at a terminal.
"""

from __future__ import annotations

import json
import tomllib
import urllib.parse
from pathlib import Path

from argus.errors import InputError
from argus.frameworks import Framework

CONFIG_FILE = "argus.toml"


def existing_config(root: Path) -> Path | None:
    """The file that already configures Argus in ``root``, if any."""
    toml_path = root / CONFIG_FILE
    if toml_path.exists():
        return toml_path
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        try:
            data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError):
            return None  # load_config reports it when it is read
        tool = data.get("tool")
        if isinstance(tool, dict) and "argus" in tool:
            return pyproject
    return None


def check_url(url: str) -> str:
    """An http(s) URL with a host, without trailing spaces; InputError otherwise."""
    url = url.strip()
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError(
            f"--url {url!r}: give the address your app answers at, e.g. http://127.0.0.1:3000"
        )
    return url


def config_text(url: str, start_command: str = "") -> str:
    """The argus.toml for an app at ``url`` (empty: not known yet, left for you to fill in),
    started by ``start_command`` (empty: by you)."""
    if not url:
        return (
            "# Argus config, written by argus init. Every key: docs/sense.md and docs/gates.md.\n"
            "# Where your running app answers (required to render views):\n"
            '# base_url = "http://127.0.0.1:3000"\n'
            "\n"
            "# How Argus starts the app before rendering (stopped afterwards):\n"
            "# [web_server]\n"
            '# command = "npm run dev"\n'
            '# url = "http://127.0.0.1:3000"\n'
        )
    lines = [
        "# Argus config, written by argus init. Every key: docs/sense.md and docs/gates.md.",
        f"base_url = {_toml_string(url)}",
    ]
    if start_command:
        lines += [
            "",
            "# Argus starts the app with this command before rendering and stops it afterwards;",
            "# an app already answering at url is reused.",
            "[web_server]",
            f"command = {_toml_string(start_command)}",
            f"url = {_toml_string(url)}",
            "timeout = 60",
            "reuse_existing = true",
        ]
    else:
        lines += [
            "",
            "# Start the app yourself before argus sense/gates/loop, or let Argus do it:",
            "# [web_server]",
            '# command = "npm run dev"',
            f"# url = {_toml_string(url)}",
        ]
    return "\n".join(lines) + "\n"


def adapter_config_text(adapter: str, gates: tuple[str, ...]) -> str:
    """The argus.toml for an app sensed by the project adapter ``adapter`` (no web server, no
    base_url), with the gates that apply to its platform."""
    listed = ", ".join(_toml_string(gate) for gate in gates)
    return "\n".join(
        [
            "# Argus config, written by argus init. Every key: docs/sense.md and docs/gates.md.",
            f"# The spec's adapter ({adapter!r}) senses the app through",
            f"# argus/adapters/{adapter}/sense.sh: no base_url or [web_server] (docs/sense.md).",
            "[gates]",
            f"enabled = [{listed}]",
            "",
        ]
    )


def framework_config_text(framework: Framework, url: str = "") -> str:
    """The argus.toml for an app built with ``framework``: its name (the sensor's settle rule and
    the snapshot mask preset), and the ``[web_server]`` command and readiness settings that
    start it at ``url`` (empty: the framework's usual port on 127.0.0.1)."""
    preset = framework.server
    parts = urllib.parse.urlsplit(url) if url else None
    port = (parts.port if parts is not None else None) or preset.port
    base = url.rstrip("/") if url else f"http://127.0.0.1:{port}"
    reuse = "true" if preset.reuse_existing else "false"
    lines = [
        "# Argus config, written by argus init. Every key: docs/sense.md, docs/gates.md and",
        f"# docs/frameworks.md ({framework.title}).",
        f"base_url = {_toml_string(base)}",
        f"framework = {_toml_string(framework.name)}",
        "",
        "# Fixtures reach the app as the URL's query parameters (docs/frameworks.md):",
        f"# {framework.fixture_input}",
        "# Argus starts the app with this command (name your app's file in it) and waits for",
        "# url to answer before rendering; it stops the app afterwards.",
        "[web_server]",
        f"command = {_toml_string(preset.command_for(port))}",
        f"url = {_toml_string(base + preset.health_path)}",
        f"timeout = {preset.timeout:g}",
    ]
    if not preset.reuse_existing:
        lines.append(
            f"# {framework.title} serves the same page shell for every app: a server Argus did"
        )
        lines.append("# not start could not prove it is yours, so it is never reused.")
    lines.append(f"reuse_existing = {reuse}")
    return "\n".join(lines) + "\n"


def _toml_string(value: str) -> str:
    # A JSON string is a valid TOML basic string (same escapes), non-ASCII kept as \u escapes.
    return json.dumps(value)
