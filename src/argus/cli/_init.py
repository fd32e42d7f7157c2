"""`argus init FEATURE`: scaffold argus/specs/FEATURE/ from the shipped templates, and an
argus.toml that serves the app when the repository has no Argus config yet."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from argus.adapters import adapter_scaffold
from argus.errors import InputError
from argus.frameworks import Framework, get_framework
from argus.io import atomic_write_text
from argus.spec import find_repo_root
from argus.spec.project_config import (
    CONFIG_FILE,
    adapter_config_text,
    check_url,
    config_text,
    existing_config,
    framework_config_text,
)
from argus.spec.scaffold import AdapterScaffold, adapter_script_path, init_feature


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "init",
        help="scaffold a feature spec under argus/specs/FEATURE/ (and argus.toml)",
        description="Create argus/specs/FEATURE/ with spec.json, spec.md, tokens.json and "
        "contrast-pairs.json, and .gitignore rules that keep run artefacts out of git. When "
        "the repository has no Argus config yet, also write argus.toml: where the app answers "
        "(--url) and the command that starts it (--start-command); at a terminal, argus init "
        "asks for them. Never overwrites an existing feature or config.",
    )
    parser.add_argument("feature", metavar="FEATURE", help="feature slug, e.g. 'habits'")
    parser.add_argument(
        "--rubric",
        action="store_true",
        help="also copy the default rubric.json into the feature, to tune it",
    )
    parser.add_argument(
        "--start-command",
        metavar="CMD",
        help="the shell command that starts your app, e.g. 'npm run dev' ([web_server] command)",
    )
    parser.add_argument(
        "--framework",
        metavar="NAME",
        help="the Python UI framework the app is built with (streamlit, dash, gradio, nicegui, "
        "panel, server-rendered): writes its [web_server] command and readiness settings, and "
        "turns on its settle rule and mask preset (docs/frameworks.md)",
    )
    parser.add_argument(
        "--adapter",
        metavar="NAME",
        help="sense a non-web UI with one of Argus's adapters (textual): the spec's adapter, "
        "and argus/adapters/NAME/sense.sh unless the project has one (docs/sense.md)",
    )
    parser.add_argument(
        "--app",
        metavar="FILE.py:CLASS",
        help="with --adapter textual: the Textual app to sense, e.g. app.py:MyApp",
    )
    parser.add_argument(
        "--url",
        metavar="URL",
        help="where the running app answers, e.g. http://127.0.0.1:3000 (base_url)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    root = find_repo_root(Path.cwd())
    config_path = existing_config(root)
    adapter = _adapter(args)
    framework = _framework(args, config_path)
    url = ""
    if adapter is not None:
        text = adapter_config_text(adapter.name, adapter.gates)
    elif framework is None:
        start, url = _app_settings(args, config_path)
        text = config_text(url, start)
    else:
        url = check_url(args.url) if args.url else ""
        text = framework_config_text(framework, url)
    scaffold = init_feature(root, args.feature, with_rubric=args.rubric, adapter=adapter)
    for path in scaffold.written:
        print(f"wrote {path.relative_to(root)}")
    if config_path is None:
        atomic_write_text(root / CONFIG_FILE, text)
        print(f"wrote {CONFIG_FILE}")
    feature_dir = scaffold.feature_dir.relative_to(root)
    if adapter is not None:
        script = adapter_script_path(root, adapter.name)
        if script not in scaffold.written:
            print(f"kept {script.relative_to(root)}: check it senses the app you mean")
        print(
            f"next: map your themes to the appearances in {script.relative_to(root)} "
            "(--theme light=NAME --theme dark=NAME) and read the view's fixture from "
            'ARGUS_FIXTURE in the app; see docs/sense.md, "Textual"'
        )
    elif framework is not None:
        print(
            f"next: check that [web_server] command in {CONFIG_FILE} names your "
            f"{framework.title} app's file; fixtures arrive as query parameters "
            f"({framework.fixture_input}); see docs/frameworks.md"
        )
    elif config_path is None and not url:
        print(
            f"next: set base_url in {CONFIG_FILE} to where your app answers, and [web_server] "
            "command to how it starts (or start it yourself before argus sense)"
        )
    elif config_path is not None:
        print(
            f"next: check base_url and [web_server] in {config_path.name} "
            "(where your app answers and how it starts)"
        )
    print(
        f"next: describe the feature in {feature_dir}/spec.md and spec.json, put your design "
        f"tokens in tokens.json, add a reference image under {feature_dir}/references/ "
        "(or let 'argus loop' render a candidate), then run 'argus lint' and "
        f"'argus sense --feature {args.feature} --all'"
    )
    return 0


def _adapter(args: argparse.Namespace) -> AdapterScaffold | None:
    """What ``--adapter`` writes (InputError beside the web app's flags, or --app alone)."""
    if args.adapter is None:
        if args.app:
            raise InputError("--app names the app an adapter senses: give --adapter too")
        return None
    web = [
        flag
        for flag, value in (
            ("--framework", args.framework),
            ("--start-command", args.start_command),
            ("--url", args.url),
        )
        if value
    ]
    if web:
        raise InputError(
            f"--adapter {args.adapter} senses the app without a browser; drop {web[0]} "
            "(it is for web apps)"
        )
    return adapter_scaffold(args.adapter, args.app)


def _framework(args: argparse.Namespace, config_path: Path | None) -> Framework | None:
    """The framework ``--framework`` names (InputError for an unknown name, or beside
    --start-command, or where Argus is already configured)."""
    if args.framework is None:
        return None
    framework = get_framework(args.framework)
    if args.start_command:
        raise InputError(
            f"--framework {framework.name} writes the command that starts the app; "
            "drop --start-command (edit [web_server] command in argus.toml afterwards)"
        )
    if config_path is not None:
        raise InputError(
            f"{config_path}: Argus is already configured here; set framework = "
            f"{framework.name!r} and [web_server] there (docs/frameworks.md) instead of "
            "passing --framework"
        )
    return framework


def _app_settings(args: argparse.Namespace, config_path: Path | None) -> tuple[str, str]:
    """The start command and URL for a new argus.toml (flags, else asked at a terminal)."""
    start = (args.start_command or "").strip()
    url = (args.url or "").strip()
    if config_path is not None:
        if start or url:
            raise InputError(
                f"{config_path}: Argus is already configured here; set base_url and "
                "[web_server] there instead of passing --start-command/--url"
            )
        return "", ""
    if not start and not url and sys.stdin.isatty():
        start = input("Command that starts your app (empty if you start it yourself): ").strip()
        url = input("URL your app answers at [http://127.0.0.1:3000]: ").strip()
        url = url or "http://127.0.0.1:3000"
    if start and not url:
        raise InputError("--start-command needs --url too: the address the started app answers at")
    return start, check_url(url) if url else ""
