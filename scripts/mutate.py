"""Mutation testing of the deciding code, one module at a time (``make mutate``).

For each ``module=tests`` pair this copies the project into a scratch directory
(``.mutate/<name>/``: src, tests, examples and a pyproject.toml with a ``[tool.mutmut]``
section naming that one module and its own tests, browser tests left out), runs
``mutmut run`` there, and reads the outcome of every mutant with ``mutmut results --all``.
Each module gets a fresh copy, so its mutants are judged by its own tests only.

Written:
- ``.mutate/results.json``: every mutant's name and status, per module (a run over some
  modules replaces theirs and keeps the others': delete the file to start over), and
  ``.mutate/keys.json``: every mutant's stable key (see ``mutant_keys``);
- ``.mutate/summary.md``: per module killed (a timeout counts as killed) / survived (a mutant no
  test covers too) / equivalent (listed in docs/mutation-equivalent.txt by its key, one
  ``key reason`` a line) / wording (only a prose string changed) / not run, and the score =
  killed / (killed + survived); then every stale entry of docs/mutation-equivalent.txt (its
  key is no mutant of a module that ran: the code changed), which also makes the run exit 1.

Usage: ``python scripts/mutate.py [--collect] [module=tests ...]`` (paths relative to the
repository); without arguments the deciding modules below. ``--collect`` re-reads the outcomes
of earlier runs from .mutate/ (after editing docs/mutation-equivalent.txt, say) without
running. ``MUTATE_MAX_CHILDREN`` sets mutmut's workers (default 1: the machine is shared).
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / ".mutate"
EQUIVALENT = ROOT / "docs" / "mutation-equivalent.txt"

# The deciding code the issue names, each with the tests that own it.
DEFAULT = (
    "src/argus/tokens/contrast.py=tests/tokens/test_contrast.py,tests/tokens/test_cli_contrast.py,tests/color",
    "src/argus/verdict.py=tests/verdict",
    "src/argus/loop/records/state.py=tests/loop/test_state.py",  # not the slow SIGKILL test
    "src/argus/diff/_kernel.py=tests/diff/test_kernel.py,tests/diff/test_conformance.py,tests/diff/test_mask_path.py",
    "src/argus/gates/token_compliance.py=tests/gates/test_token_compliance.py,tests/gates/test_gate_entrypoints.py,tests/gates/test_chart_colours.py",
    "src/argus/gates/_chart_colours.py=tests/gates/test_chart_colours.py",
    "src/argus/gates/_canvas_pixels.py=tests/gates/test_canvas_pixels.py,tests/gates/test_chart_colours.py",
    "src/argus/judge/metric/_hierarchy.py=tests/judge/test_metric.py,tests/judge/test_metric_hierarchy.py",
    "src/argus/judge/metric/figures.py=tests/judge/test_metric_hierarchy.py",
    # gates: contrast family
    "src/argus/gates/rendered_contrast.py=tests/gates/test_rendered_contrast.py,tests/gates/test_rendered_contrast_rules.py,tests/gates/test_gate_entrypoints.py,tests/gates/test_chart_contrast.py",
    "src/argus/gates/_chart_contrast.py=tests/gates/test_chart_contrast.py",
    "src/argus/gates/_text_shadow.py=tests/gates/test_text_shadow.py,tests/gates/test_rendered_contrast.py",
    "src/argus/gates/_token_contrast.py=tests/gates/test_declared_gates.py,tests/gates/test_gate_entrypoints.py",
    "src/argus/gates/render_pixels.py=tests/gates/test_render_pixels.py,tests/gates/test_rendered_contrast.py",
    # gates: page evidence
    "src/argus/gates/a11y_ids.py=tests/gates/test_a11y_ids.py,tests/gates/test_declared_gates.py",
    "src/argus/gates/_console.py=tests/gates/test_console.py",
    "src/argus/gates/axe.py=tests/gates/test_axe.py",
    "src/argus/gates/focus_visible.py=tests/gates/test_focus_visible.py",
    "src/argus/evidence/probe.py=tests/evidence/test_probe.py",
    "src/argus/evidence/graphics.py=tests/evidence/test_graphics.py,tests/gates/test_chart_colours.py,tests/gates/test_chart_contrast.py,tests/gates/test_gate_entrypoints.py",
    "src/argus/gates/inputs.py=tests/gates/test_inputs.py",
    # gates: snapshot family
    "src/argus/gates/_snapshot.py=tests/gates/test_snapshot.py,tests/gates/test_snapshot_outcome.py,tests/gates/test_baseline_browser.py,tests/gates/test_adapter_gates.py,tests/gates/test_snapshot_only.py",
    "src/argus/gates/comparison.py=tests/gates/test_comparison.py,tests/gates/test_snapshot_outcome.py",
    # when a framework's page is settled (argus.frameworks), beside the quiet network
    "src/argus/sense/framework_settle.py=tests/frameworks/test_settle.py",
    "src/argus/gates/_stale_baseline.py=tests/gates/test_stale_baseline.py,tests/gates/test_snapshot.py",
    "src/argus/gates/baseline_browser.py=tests/gates/test_baseline_browser.py",
    "src/argus/diff/snapshot.py=tests/diff/test_snapshot.py,tests/diff/test_snapshot_bytes.py",
    # compare (the count, density and regions) and compare_files/compare_pngs (decode first, or
    # answer a pair proved the same without decoding: argus.diff.samepixels)
    "src/argus/diff/comparison.py=tests/diff/test_comparison.py,tests/diff/test_compare.py,tests/diff/test_mask_path.py,tests/diff/test_snapshot.py,tests/diff/test_samepixels.py,tests/diff/test_cli_pairs.py,tests/diff/test_cli_diff.py",
    "src/argus/diff/samepixels.py=tests/diff/test_samepixels.py,tests/diff/test_cli_pairs.py,tests/diff/test_cli_diff.py",
    "src/argus/diff/pngcheck.py=tests/diff/test_pngcheck.py,tests/evidence/test_png_input.py",
    "src/argus/diff/pairs.py=tests/diff/test_cli_pairs.py,tests/diff/test_pairs_plain.py",
    "src/argus/diff/_pairline.py=tests/diff/test_pairs_plain.py,tests/diff/test_cli_pairs.py",
    "src/argus/diff/_pairdecode.py=tests/diff/test_pairdecode.py,tests/diff/test_cli_pairs.py",
    # gates: commands, source and the runner
    "src/argus/gates/_commands.py=tests/gates/test_commands.py",
    "src/argus/confine/program.py=tests/confine/test_program.py,tests/gates/test_commands.py",
    "src/argus/gates/_source_scan.py=tests/gates/test_source_tokens.py",
    "src/argus/gates/_source_tokens.py=tests/gates/test_source_tokens.py",
    "src/argus/gates/_tell_tales.py=tests/gates/test_tell_tales.py",
    "src/argus/gates/_lighthouse.py=tests/gates/test_lighthouse_gate.py",
    "src/argus/gates/runner.py=tests/gates/test_runner.py,tests/gates/test_gate_result_schema.py,tests/gates/test_snapshot.py",
    "src/argus/gates/base.py=tests/gates/test_base.py,tests/gates/test_base_findings.py,tests/gates/test_registry.py,tests/spec/test_lint_advice.py",
    # the gate registry: built-ins, plug-ins by entry point, a plug-in's [gates.NAME] settings
    "src/argus/gates/_registry.py=tests/gates/test_registry.py,tests/gates/test_base.py,tests/plugins/test_entrypoints.py,tests/spec/test_lint_advice.py",
    # metric judge dimensions
    "src/argus/judge/metric/__init__.py=tests/judge/test_metric_context.py,tests/judge/test_metric.py",
    "src/argus/judge/metric/_accessibility.py=tests/judge/test_metric_accessibility.py,tests/judge/test_metric.py,tests/judge/test_metric_focus_and_controls.py",
    "src/argus/judge/metric/controls.py=tests/judge/test_metric_focus_and_controls.py",
    "src/argus/judge/metric/_context.py=tests/judge/test_metric_context.py,tests/judge/test_metric.py",
    "src/argus/judge/metric/_design.py=tests/judge/test_metric_design.py,tests/judge/test_metric.py",
    "src/argus/judge/metric/_functional.py=tests/judge/test_metric_functional.py,tests/judge/test_metric.py,tests/judge/test_metric_focus.py,tests/judge/test_metric_focus_and_controls.py",
    "src/argus/judge/metric/_visual.py=tests/judge/test_metric_visual.py,tests/judge/test_metric.py",
    "src/argus/judge/metric/checks/_alignment.py=tests/judge/test_metric_typed.py",
    "src/argus/judge/metric/checks/_formats.py=tests/judge/test_metric_typed.py",
    "src/argus/judge/metric/checks/_order.py=tests/judge/test_metric_typed.py",
    "src/argus/judge/metric/checks/_shown.py=tests/judge/test_metric_typed.py",
    "src/argus/judge/metric/checks/_trap.py=tests/judge/test_metric_typed.py",
    "src/argus/judge/metric/checks/_values.py=tests/judge/test_metric_typed.py",
    # sign-off, referee, contract completion, Stop hook
    "src/argus/loop/records/signoff.py=tests/loop/test_signoff.py",
    # what a sign-off depends on: which way each setting weakens
    "src/argus/loop/guard/pin_rules.py=tests/loop/test_config_pin.py",
    "src/argus/referee/verdict.py=tests/referee",
    "src/argus/referee/_evidence.py=tests/referee/test_evidence_states.py",
    # completion: the deciding part of `argus contract complete` (run.py only opens and locks)
    # and the ledger proof it and the Stop hook ask; not the slow CLI end-to-end tests
    "src/argus/contract/_completion.py=tests/contract/test_completion.py",
    "src/argus/contract/_proof.py=tests/contract/test_proof.py",
    "src/argus/contract/hook.py=tests/contract/test_hook.py,tests/contract/test_forgery.py,tests/contract/test_runstate.py",
    # the run-state layer's hash chain: what every tamper check of the events and ledgers asks
    "src/argus/store/chain.py=tests/store/test_chain.py",
    "src/argus/store/_mirror.py=tests/store/test_runs_mirror.py",
    # who counts as a person, pinned contracts, the PreToolUse guard (issue 24, route 6)
    "src/argus/person.py=tests/contract/test_person.py",
    "src/argus/contract/pins.py=tests/contract/test_pins.py",
    "src/argus/agents/_guard.py=tests/agents/test_guard.py",
    # the advisory review: which tasks a merged PR's body closes, and how an answer is flagged
    "src/argus/review/refs.py=tests/review/test_refs.py",
    "src/argus/review/_judge.py=tests/review/test_judge.py",
    # the layout linter's seven checks: their findings decide `argus layout lint` and the
    # referee's layout gate
    "src/argus/layout/checks.py=tests/layout/test_lint.py,tests/layout/test_rows_columns.py,tests/layout/test_page_format.py",
)

# Modules whose tests include `process` tests that run Argus in a child process: mutmut's
# stats pass fails them (the child's trampoline loads mutmut's config from the child's own
# folder and cannot), and what a child calls is never mapped to a test anyway, so their mutants
# are judged by the in-process tests only.
IN_PROCESS_ONLY = {"src/argus/person.py"}

COPIED = ("src", "tests", "examples")
KILLED = {"killed"}
TIMEOUT = {"timeout"}
NOT_CHECKED = {"skipped", "not checked"}  # "no tests" is a gap: counted as survived


def slug(module: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", module.removeprefix("src/argus/").removesuffix(".py"))


def parse(arg: str) -> tuple[str, list[str]]:
    if "=" not in arg:
        raise SystemExit(f"mutate: {arg!r}: expected module=tests[,tests] (paths in the repo)")
    module, tests = arg.split("=", 1)
    paths = [t for t in tests.split(",") if t]
    for path in (module, *paths):
        if not (ROOT / path).exists():
            raise SystemExit(f"mutate: {path}: no such file or directory in {ROOT}")
    return module, paths


def toml_list(items: list[str]) -> str:
    return "[" + ", ".join(json.dumps(i) for i in items) + "]"


def prepare(work: Path, module: str, tests: list[str]) -> None:
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", ".argus", "*.egg-info", ".pytest_cache")
    for name in COPIED:
        shutil.copytree(ROOT / name, work / name, ignore=ignore)
    markers = "not browser and not process" if module in IN_PROCESS_ONLY else "not browser"
    config = (
        "\n[tool.mutmut]\n"
        'source_paths = ["src"]\n'
        f"only_mutate = {toml_list([module])}\n"
        f'pytest_add_cli_args = ["-m", "{markers}", "-p", "no:cacheprovider", "-q"]\n'
        f"pytest_add_cli_args_test_selection = {toml_list(tests)}\n"
        'also_copy = ["examples"]\n'
    )
    (work / "pyproject.toml").write_text(
        (ROOT / "pyproject.toml").read_text("utf-8") + config, "utf-8"
    )


def equivalents() -> dict[str, str]:
    """docs/mutation-equivalent.txt: each accepted equivalent mutant's key with its reason."""
    if not EQUIVALENT.is_file():
        return {}
    return parse_equivalents(EQUIVALENT.read_text("utf-8"))


def parse_equivalents(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, reason = line.partition(" ")
            found[key] = reason.strip()
    return found


def key_module(key: str) -> str:
    """The dotted module of an entry's key or a mutant's name (argus.a.b.x_f@… -> argus.a.b)."""
    return key.partition("@")[0].partition("__mutmut_")[0].rpartition(".")[0]


def stale_entries(module: str, keys: dict[str, str] | None, known: dict[str, str]) -> list[str]:
    """The entries of docs/mutation-equivalent.txt for ``module`` that mark no mutant of it:
    their key is no mutant's (the mutated code changed: the entry must be checked again and
    re-keyed or dropped), or they name a mutant by mutmut's number, which an edit to the
    function silently moves to another mutant. ``keys`` None: the run kept no keys."""
    dotted = module_name(module)
    mine = [k for k in known if key_module(k) == dotted]
    if not mine:
        return []
    if keys is None:
        return [f"{k} (not checked: no mutant keys for {module}; run it again)" for k in mine]
    current = set(keys.values())
    stale: list[str] = []
    for key in mine:
        if MUTANT.fullmatch(key):
            stale.append(f"{key} (a mutmut number, not a key: renumbered by any edit)")
        elif key not in current:
            stale.append(f"{key} (no mutant of {module} makes this change now)")
    return stale


MUTANT = re.compile(r"(?P<function>.+)__mutmut_(?P<number>\d+|orig)")


def module_name(module: str) -> str:
    """The dotted name mutmut gives a module's mutants: src/argus/a/b.py -> argus.a.b."""
    dotted = module.removeprefix("src/").removesuffix(".py").replace("/", ".")
    return dotted.removesuffix(".__init__")


def _generated_functions(code: str) -> dict[str, list[str]]:
    """Each function and method mutmut generated in a mutated module (``x_f__mutmut_3``,
    ``xǁClassǁm__mutmut_orig``), as its non-blank lines stripped, its own name written as the
    function's (so the original and a mutant differ only by the mutation)."""
    lines = code.splitlines()
    found: dict[str, list[str]] = {}
    for top in ast.parse(code).body:
        for node in top.body if isinstance(top, ast.ClassDef) else [top]:
            match = MUTANT.fullmatch(getattr(node, "name", ""))
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or not match:
                continue
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            own = re.compile(rf"\b{re.escape(node.name)}\b")
            text = [
                own.sub(match["function"], ln).strip() for ln in lines[first - 1 : node.end_lineno]
            ]
            found[node.name] = [ln for ln in text if ln]
    return found


def mutant_changes(code: str) -> dict[str, list[str]]:
    """Each mutant in a module mutmut generated (``.mutate/<module>/mutants/src/...``), by its
    generated name, with what it changes in its function: the removed lines as ``-line``, the
    added as ``+line``, with the line either side as `` line``, all stripped: what ``mutmut
    show`` prints, without the line numbers and with one line of context, not three."""
    functions = _generated_functions(code)
    changes: dict[str, list[str]] = {}
    for name, body in functions.items():
        match = MUTANT.fullmatch(name)
        original = functions.get(f"{match['function']}__mutmut_orig") if match else None
        if match is None or match["number"] == "orig" or original is None:
            continue
        diff = list(difflib.unified_diff(original, body, lineterm="", n=1))[2:]
        changes[name] = [ln for ln in diff if not ln.startswith("@@")]
    return changes


def mutant_keys(module: str, code: str) -> dict[str, str]:
    """Each mutant's full name (as ``mutmut results`` lists it) with its stable key: the
    function's mutant prefix and a fingerprint of its change, ``argus.a.b.x_f@1a2b3c4d5e``.

    mutmut numbers a function's mutants in order, so an edit to the function renumbers
    them; the key only changes when the mutated line or a line next to it does (then the entry
    is reported stale, never silently moved). Two mutants of one function making the same
    change amid the same lines are told apart by their order: ``@…#2``."""
    prefix = module_name(module)
    keys: dict[str, str] = {}
    seen: dict[str, int] = {}
    changes = mutant_changes(code)
    ordered = sorted(changes, key=lambda n: (n.partition("__mutmut_")[0], _number(n)))
    for name in ordered:
        function = name.partition("__mutmut_")[0]
        digest = hashlib.sha256("\n".join(changes[name]).encode("utf-8")).hexdigest()[:10]
        key = f"{prefix}.{function}@{digest}"
        seen[key] = seen.get(key, 0) + 1
        keys[f"{prefix}.{name}"] = key if seen[key] == 1 else f"{key}#{seen[key]}"
    return keys


def _number(name: str) -> int:
    return int(name.rpartition("__mutmut_")[2])


def _tokens(line: str) -> list[tuple[int, str]] | None:
    try:
        found = tokenize.generate_tokens(io.StringIO(line.strip() + "\n").readline)
        return [(t.type, t.string) for t in found if t.type not in IGNORED_TOKENS]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None


IGNORED_TOKENS = {tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.COMMENT}


def is_wording(diff: str) -> bool:
    """True when the mutant only changes prose: one string literal with a space in it (an
    error message, an evidence sentence) replaced by another string or None. Tests assert
    outcomes, not wording, so these are reported apart and left out of the score."""
    minus = [ln[1:] for ln in diff.splitlines() if ln.startswith("-") and not ln.startswith("---")]
    plus = [ln[1:] for ln in diff.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    if len(minus) != 1 or len(plus) != 1:
        return False
    old, new = _tokens(minus[0]), _tokens(plus[0])
    if old is None or new is None or len(old) != len(new):
        return False
    changed = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    if len(changed) != 1:
        return False
    (kind, text), (_, replacement) = changed[0]
    prose = kind == tokenize.STRING and " " in text
    return prose and (replacement == "None" or replacement[-1:] in "\"'")


def module_keys(module: str) -> dict[str, str] | None:
    """The stable key of every mutant of ``module``, read from the mutated copy mutmut left
    in .mutate/<module>/mutants/ (None when there is none)."""
    mutated = OUT / slug(module) / "mutants" / module
    return mutant_keys(module, mutated.read_text("utf-8")) if mutated.is_file() else None


def run_module(module: str, tests: list[str], *, collect_only: bool = False) -> dict[str, str]:
    work = OUT / slug(module)
    mutmut = [sys.executable, "-m", "mutmut"]
    env = {**os.environ, "PYTHONPATH": ""}
    if not collect_only:
        prepare(work, module, tests)
        children = os.environ.get("MUTATE_MAX_CHILDREN", "1")
        log = (work / "mutmut.log").open("w", encoding="utf-8")
        print(f"mutate: {module} (tests: {' '.join(tests)}) ...", flush=True)
        subprocess.run(
            [*mutmut, "run", "--max-children", children], cwd=work, env=env, stdout=log, stderr=log
        )
    elif not work.is_dir():
        raise SystemExit(f"mutate: {module}: no earlier run in {work}")
    listed = subprocess.run(
        [*mutmut, "results", "--all", "true"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
    )
    statuses: dict[str, str] = {}
    for line in listed.stdout.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and name:
            statuses[name] = status.strip()
    for name, status in statuses.items():
        if status not in KILLED | TIMEOUT:
            shown = subprocess.run(
                [*mutmut, "show", name], cwd=work, env=env, capture_output=True, text=True
            )
            if is_wording(shown.stdout):
                statuses[name] = f"wording ({status})"
    return statuses


def summarise(
    results: dict[str, dict[str, str]], keys: dict[str, dict[str, str]]
) -> tuple[str, list[str]]:
    """The summary table (with the surviving mutants and their keys) and the stale entries of
    docs/mutation-equivalent.txt for the modules in ``results``."""
    known = equivalents()
    rows = [
        "| module | mutants | killed | survived | equivalent | wording | not run | score "
        "| strict |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    survivors: list[str] = []
    stale: list[str] = []
    needless: list[str] = []
    for module, statuses in results.items():
        caught = KILLED | TIMEOUT
        key = keys.get(module, {})
        stale += [
            f"- {module}: {entry}" for entry in stale_entries(module, keys.get(module), known)
        ]
        listed = {n for n in statuses if key.get(n) in known}
        equivalent = [n for n, s in statuses.items() if n in listed and s not in caught]
        needless += [
            f"- {key[n]} ({n})" for n, s in statuses.items() if n in listed and s in caught
        ]
        wording = [n for n, s in statuses.items() if s.startswith("wording") and n not in listed]
        unrun = [n for n, s in statuses.items() if s in NOT_CHECKED and n not in listed]
        killed = [n for n, s in statuses.items() if s in caught]
        apart = set(equivalent) | set(wording) | set(unrun) | set(killed)
        survived = [n for n in statuses if n not in apart]
        scored = len(killed) + len(survived)
        score = f"{100 * len(killed) / scored:.1f} %" if scored else "n/a"
        # strict: every mutant not killed (equivalent and wording too) counts against the tests.
        strict = f"{100 * len(killed) / len(statuses):.1f} %" if statuses else "n/a"
        rows.append(
            f"| {module} | {len(statuses)} | {len(killed)} | {len(survived)} | "
            f"{len(equivalent)} | {len(wording)} | {len(unrun)} | {score} | {strict} |"
        )
        survivors += [f"- {n} ({statuses[n]}) key {key.get(n, '?')}" for n in sorted(survived)]
    text = "\n".join(rows) + "\n"
    text += (
        "\nscore = killed / (killed + survived); equivalent mutants (listed with the reason in "
        "docs/mutation-equivalent.txt by key), wording-only mutants (one prose string changed) and "
        "mutants mutmut did not run are left out. A mutant no test covers is survived. "
        "strict = killed / mutants.\n"
    )
    if stale:
        text += (
            f"\nSTALE: {len(stale)} entries of docs/mutation-equivalent.txt mark no mutant "
            "(check each again: re-key it from the survivors below, or drop it):\n\n"
        )
        text += "\n".join(stale) + "\n"
    if needless:
        text += "\nListed as equivalent but killed (the entry can go):\n\n"
        text += "\n".join(needless) + "\n"
    if survivors:
        text += (
            "\nSurviving mutants (`mutmut show NAME` in .mutate/<module>/; the key is what "
            "docs/mutation-equivalent.txt lists):\n\n"
        )
        text += "\n".join(survivors) + "\n"
    return text, stale


def main(argv: list[str]) -> int:
    collect_only = "--collect" in argv  # re-read earlier runs' outcomes, mutate nothing
    argv = [a for a in argv if a != "--collect"]
    pairs = [parse(a) for a in (argv or list(DEFAULT))]
    OUT.mkdir(exist_ok=True)
    results_path, keys_path = OUT / "results.json", OUT / "keys.json"
    # Modules run earlier keep their results, so a run over a few modules adds to the table.
    results: dict[str, dict[str, str]] = _read(results_path)
    keys: dict[str, dict[str, str]] = _read(keys_path)
    for module, tests in pairs:
        statuses = run_module(module, tests, collect_only=collect_only)
        mine = module_keys(module)
        # another make mutate may have added modules meanwhile
        results, keys = _read(results_path), _read(keys_path)
        results[module] = statuses
        keys.pop(module, None)
        if mine is not None:
            keys[module] = mine
        results_path.write_text(json.dumps(results, indent=1, sort_keys=True), "utf-8")
        keys_path.write_text(json.dumps(keys, indent=1, sort_keys=True), "utf-8")
        (OUT / "summary.md").write_text(summarise(results, keys)[0], "utf-8")
    text, stale = summarise(results, keys)
    print(text)
    print(f"mutate: results in {results_path} and {OUT / 'summary.md'}")
    if stale:
        print(
            f"mutate: {len(stale)} stale entries in {EQUIVALENT}:\n" + "\n".join(stale),
            file=sys.stderr,
        )
        return 1
    return 0


def _read(path: Path) -> dict[str, dict[str, str]]:
    return json.loads(path.read_text("utf-8")) if path.is_file() else {}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
