"""`argus demo`: the whole loop on the Habits example, from broken to signed off.

It copies examples/habits into ``.argus/demo/habits`` (ignored by git, so the repository never
changes), gives the copy its own free port, approves candidate references for the views that
have none (rendered from the example before anything is broken: in a real project that is a
person's HE-1 decision, made here on your behalf), seeds some defects from the example's
defects.json, then runs ``argus loop --mode headless`` with the metric judge and the EXAMPLE
implementer examples/implementer/fix_one_defect.py, a script that undoes one seeded defect per
call. It ends DONE and says where the report is.
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import sys
import tempfile
from pathlib import Path
from typing import Any

import argus
from argus.config import load_config
from argus.errors import ArgusError, InputError
from argus.loop.engine.modes import Mode
from argus.loop.engine.run import LoopOptions, RunOutcome, run_loop
from argus.loop.human.references import default_reference_file, mark_reference
from argus.loop.records.status import exit_code
from argus.loop.terminal.progress import make_progress
from argus.loop.terminal.summary import render_summary
from argus.spec import Spec, find_repo_root, load_spec

FEATURE = "habits"
EXAMPLE_PORT = "8765"
# Seeded defects: two gates, one console error, and one only the judge can see. Each has a
# non-empty replacement, so the example implementer can undo it by reversing the substitution.
DEFAULT_DEFECTS = ("off_grid_margin", "missing_id", "console_error", "missing_row")
_COPY_IGNORE = shutil.ignore_patterns(".argus-runs", ".argus", "__snapshots__", "__pycache__")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="run the loop on a broken copy of the Habits example until it signs off",
        description="Copy examples/habits to .argus/demo/, seed defects, start its web server "
        "and run the loop headless with the metric judge and an example implementer that "
        "repairs one seeded defect per call. Exit codes as for argus loop.",
    )
    parser.add_argument(
        "--examples", type=Path, metavar="DIR", help="the examples directory (default: found)"
    )
    parser.add_argument(
        "--workdir",
        type=Path,
        metavar="DIR",
        help="where the working copy goes (default: .argus/demo under the repository)",
    )
    parser.add_argument(
        "--defects",
        default=",".join(DEFAULT_DEFECTS),
        help="comma-separated defect names from examples/habits/defects.json",
    )
    parser.set_defaults(func=run_demo)


def find_examples(explicit: Path | None) -> Path:
    candidates = [explicit] if explicit else []
    candidates += [Path(argus.__file__).resolve().parents[2] / "examples", Path.cwd() / "examples"]
    for candidate in candidates:
        if candidate is not None and (candidate / "habits" / "argus.toml").is_file():
            return candidate.resolve()
    raise InputError(
        "cannot find examples/habits; run argus demo from the Argus repository or pass --examples"
    )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def make_working_copy(examples: Path, workdir: Path) -> Path:
    """A fresh copy of the example with its own port, so it never reuses another server."""
    root = workdir / FEATURE
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(examples / "habits", root, ignore=_COPY_IGNORE)
    config = root / "argus.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace(EXAMPLE_PORT, str(_free_port())), encoding="utf-8")
    return root


def apply_defects(root: Path, names: list[str]) -> None:
    """Seed the named defects of ``root``'s defects.json into its files (each one's ``find``
    must occur exactly once); InputError for an unknown name or one whose text moved."""
    defects = {d["name"]: d for d in json.loads((root / "defects.json").read_text("utf-8"))}
    for name in names:
        if name not in defects:
            raise InputError(f"{root / 'defects.json'}: no defect {name!r}; see the file")
        defect = defects[name]
        path = root / defect["file"]
        text = path.read_text(encoding="utf-8")
        if text.count(defect["find"]) != 1:
            raise InputError(f"{path}: defect {name!r} no longer applies (its text moved)")
        path.write_text(text.replace(defect["find"], defect["replace"]), encoding="utf-8")


def approve_missing_references(root: Path) -> list[str]:
    """Render every view without a reference from the clean copy and approve it as a
    candidate reference (HE-1, decided here on the user's behalf)."""
    from argus.sense.controls_choice import DEMO
    from argus.sense.sensor import Sensor

    spec = load_spec(root / "argus" / "specs" / FEATURE / "spec.json")
    missing = [v for v in spec.views() if not _has_reference(spec, v.target, v.state, v.appearance)]
    if not missing:
        return []
    with (
        tempfile.TemporaryDirectory(prefix="argus-demo-") as tmp,
        Sensor(load_config(root), controls=DEMO) as s,
    ):
        for view in missing:
            result = s.sense(spec, view, Path(tmp) / view.slug)
            if not result.ok:
                raise ArgusError(f"demo: could not render {view.slug}: {result.error}")
            relative = default_reference_file(view)
            (spec.spec_dir / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(result.render, spec.spec_dir / relative)
            mark_reference(spec.path, view, status="present", source="candidate", file=relative)
    return [v.slug for v in missing]


def _has_reference(spec: Spec, target: str, state: str, appearance: str) -> bool:
    reference = spec.target(target).reference_for(state, appearance)
    return reference is not None and reference.status == "present"


def _report(root: Path, outcome: RunOutcome) -> str:
    """Where the report is: the HTML report when argus.report can write one, else the run dir."""
    try:
        from argus.report import write_report

        return f"report: {write_report(root, FEATURE, outcome.run_id, None)}"
    except (ImportError, ArgusError) as err:
        return f"run directory: {outcome.runs_dir} (no HTML report: {err})"


def run_demo(args: argparse.Namespace) -> int:
    examples = find_examples(args.examples)
    workdir = (args.workdir or find_repo_root(Path.cwd()) / ".argus" / "demo").resolve()
    names = [n.strip() for n in args.defects.split(",") if n.strip()]
    root = make_working_copy(examples, workdir)
    print(f"argus demo: working copy at {root}", flush=True)
    approved = approve_missing_references(root)
    if approved:
        print(
            "argus demo: approved candidate references rendered from the clean example for "
            f"{', '.join(approved)} (HE-1; in your project a person decides this)",
            flush=True,
        )
    apply_defects(root, names)
    print(f"argus demo: seeded defects: {', '.join(names)}", flush=True)
    implementer = (
        f"{sys.executable} {examples / 'implementer' / 'fix_one_defect.py'} "
        "--workdir {workdir} --prompt {prompt_file}"
    )
    outcome = run_loop(
        LoopOptions(feature=FEATURE, root=root, mode=Mode.HEADLESS, implementer=implementer),
        progress=make_progress(sys.stderr),
    )
    print(render_summary(outcome))
    print(_report(root, outcome))
    return exit_code(outcome.status)
