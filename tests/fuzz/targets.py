"""Every file Argus reads, each with the CLI entry that reads it and its documented exit codes.

A target prepares a working directory once (a copy of the Habits example, a started contract,
a built assertion packet ...), then for each generated input writes the input over one file
and runs the command in-process. ``seed`` is the valid file the mutations start from.
"""

from __future__ import annotations

import io
import json
import shutil
import sys
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import strategies as st
from PIL import Image

from argus.cli import main
from tests.fuzz import mutate
from tests.support.habits import copy_habits
from tests.verdict.helpers import gate_result, verdict

SPEC = Path("argus/specs/habits/spec.json")
SPEC_DIR = SPEC.parent
VIEW = ["--feature", "habits", "--target", "list", "--state", "populated", "--appearance", "light"]
REVIEW_SIGNOFF = Path(__file__).resolve().parents[1] / "review" / "signoff.json"


@dataclass(frozen=True)
class Outcome:
    code: int
    stdout: str
    stderr: str


def run_cli(argv: list[str], cwd: Path, stdin: str | None = None) -> Outcome:
    """``argus ARGV`` in-process from ``cwd``; an exception escapes (that is a traceback)."""
    out, err = io.StringIO(), io.StringIO()
    old_cwd, old_stdin = Path.cwd(), sys.stdin
    try:
        import os

        os.chdir(cwd)
        if stdin is not None:
            sys.stdin = io.StringIO(stdin)
        with redirect_stdout(out), redirect_stderr(err):
            code = main(argv)
    finally:
        sys.stdin = old_stdin
        os.chdir(old_cwd)
    return Outcome(code, out.getvalue(), err.getvalue())


@dataclass
class Workdir:
    root: Path  # the repository the command runs in
    files: dict[str, Path] = field(default_factory=dict)
    seeds: dict[str, bytes] = field(default_factory=dict)
    pristine: dict[Path, bytes] = field(default_factory=dict)  # restored before every input

    def restore(self) -> None:
        for path, data in self.pristine.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)

    def keep(self, *paths: Path) -> None:
        for path in paths:
            self.pristine[path] = path.read_bytes()


@dataclass(frozen=True)
class Target:
    name: str
    prepare: Callable[[Path], Workdir]
    inputs: Callable[[Workdir], st.SearchStrategy[tuple[str, bytes]]]
    argv: Callable[[Workdir], list[str]]
    codes: frozenset[int]
    stdin: bool = False  # the input goes to standard input, not to a file
    cleanup: tuple[str, ...] = ()  # directories under root removed after every input
    after_input: Callable[[Workdir], None] | None = None  # run once the input is written


def _habits(tmp: Path) -> Workdir:
    return Workdir(copy_habits(tmp))


def _json_file(key: str) -> Callable[[Workdir], st.SearchStrategy[tuple[str, bytes]]]:
    def inputs(work: Workdir) -> st.SearchStrategy[tuple[str, bytes]]:
        seed = json.loads(work.seeds[key])
        return mutate.json_inputs(seed).map(lambda blob: (key, blob))

    return inputs


def _one_file(work: Workdir, key: str, path: Path, seed: bytes | None = None) -> Workdir:
    path.parent.mkdir(parents=True, exist_ok=True)
    if seed is not None:
        path.write_bytes(seed)
    work.files[key] = path
    work.seeds[key] = path.read_bytes()
    return work


def _dumps(value: Any) -> bytes:
    return json.dumps(value, indent=1).encode()


# -- preparations -------------------------------------------------------------------------


def prep_spec(tmp: Path) -> Workdir:
    work = _habits(tmp)
    return _one_file(work, "spec", work.root / SPEC)


def prep_tokens(tmp: Path) -> Workdir:
    work = _habits(tmp)
    return _one_file(work, "tokens", work.root / SPEC_DIR / "tokens.json")


DTCG = {
    "color": {
        "$type": "color",
        "brand": {"$value": {"colorSpace": "srgb", "components": [0.1, 0.3, 0.74]}},
        "ink": {"$value": "#111114", "$extensions": {"org.argus.appearances": {"dark": "#fff"}}},
        "alias": {"$value": "{color.brand}"},
        "hsl": {"$value": {"colorSpace": "hsl", "components": [120, 100, 25], "alpha": 0.5}},
    },
    "space": {"$type": "dimension", "sm": {"$value": "8px"}, "md": {"$value": "1rem"}},
    "radius": {"$type": "dimension", "card": {"$value": {"value": 4, "unit": "px"}}},
    "font": {"$type": "fontFamily", "body": {"$value": ["Inter", "sans-serif"]}},
}


def prep_dtcg(tmp: Path) -> Workdir:
    tmp.mkdir(parents=True, exist_ok=True)
    return _one_file(Workdir(tmp), "tokens", tmp / "tokens.json", _dumps(DTCG))


def prep_pairs(tmp: Path) -> Workdir:
    work = _habits(tmp)
    work.files["tokens"] = work.root / SPEC_DIR / "tokens.json"
    return _one_file(work, "pairs", work.root / SPEC_DIR / "contrast-pairs.json")


def prep_argus_toml(tmp: Path) -> Workdir:
    work = _habits(tmp)
    _sensed(work)
    return _one_file(work, "config", work.root / "argus.toml")


def prep_pyproject(tmp: Path) -> Workdir:
    work = _habits(tmp)
    _sensed(work)
    toml = (work.root / "argus.toml").read_text()
    (work.root / "argus.toml").unlink()
    text = toml.replace("\n[", "\n[tool.argus.").replace("# Argus", "[tool.argus]\n# Argus", 1)
    text = '[project]\nname = "habits"\n\n' + text.replace(
        "[tool.argus]\n# Argus", "# Argus"
    ).replace("base_url", "[tool.argus]\nbase_url", 1)
    return _one_file(work, "config", work.root / "pyproject.toml", text.encode())


def _sensed(work: Workdir) -> Path:
    """A hand-written sensed directory of the list/populated/light view."""
    from tests.gates.probes import el, page
    from tests.gates.test_runner import CONTRACT_IDS

    sensed = work.root / "sensed"
    sensed.mkdir(exist_ok=True)
    probe = page(*(el("div", testid=t) for t in CONTRACT_IDS), body_bg="rgb(245, 246, 248)")
    docs = {
        "probe.json": probe,
        "console.json": {"messages": [], "page_errors": []},
        "axe.json": {"violations": [], "incomplete": []},
    }
    for name, doc in docs.items():
        (sensed / name).write_text(json.dumps(doc))
    Image.new("RGB", (64, 40), (245, 246, 248)).save(sensed / "render.png")
    _seal(sensed)
    work.files["sensed"] = sensed
    return sensed


def _seal(sensed: Path) -> None:
    """Bind the sensed files to a successful sense, as the sensor does (a fuzzed probe, console
    or axe document is then read by the gates, not refused as another sense's file)."""
    from argus.spec import View
    from tests.support.sensed import seal_sensed

    view = View("habits", "list", "populated", "light")
    seal_sensed(sensed, view, {"viewport": {"width": 1280, "height": 800}})


def prep_sensed(name: str) -> Callable[[Path], Workdir]:
    def prepare(tmp: Path) -> Workdir:
        work = _habits(tmp)
        sensed = _sensed(work)
        config = work.root / "argus.toml"
        text = config.read_text().replace(
            '"rendered_contrast", "token_compliance", "source_tokens", "snapshot"',
            '"token_compliance"',
        )
        config.write_text(text)
        return _one_file(work, name, sensed / f"{name}.json")

    return prepare


def prep_verdict(tmp: Path) -> Workdir:
    tmp.mkdir(parents=True, exist_ok=True)
    work = Workdir(tmp)
    _one_file(work, "rubric", tmp / "rubric.json", _dumps(_rubric_json()))
    return _one_file(work, "verdict", tmp / "verdict.json", _dumps(verdict({"hierarchy": 0.5})))


def _rubric_json() -> dict[str, Any]:
    from argus.schemas.rubric import default_rubric_text

    return dict(json.loads(default_rubric_text()))


def prep_gate_result(tmp: Path) -> Workdir:
    tmp.mkdir(parents=True, exist_ok=True)
    doc = gate_result(
        {"axe": "pass", "a11y_ids": {"expected": 3, "present": 3, "missing": []}, "lint": "skip"},
        state="populated",
        appearance="light",
        details={"axe": {"status": "pass", "summary": "ok", "findings": [], "data": {}}},
    )
    return _one_file(Workdir(tmp), "gates", tmp / "gate-result.json", _dumps(doc))


def prep_loop_state(tmp: Path) -> Workdir:
    work = _habits(tmp)
    done = run_cli(["state", "init", *VIEW], work.root)
    assert done.code == 0, done.stderr
    path = work.root / SPEC_DIR / ".argus-runs" / "list-populated-light" / "state.json"
    return _one_file(work, "state", path)


def _contract(tmp: Path) -> dict[str, Any]:
    return {
        "id": "ship-it",
        "name": "Ship the feature",
        "stages": [
            {"id": "check", "name": "The check", "type": "mechanical", "command": "true"},
            {
                "id": "review",
                "name": "Code review",
                "type": "judgment",
                "requires": ["check"],
                "pass_criteria": "done.txt says done",
                "grader": {"command": "/bin/cat", "rounds": 2},
            },
        ],
        "budget": {"max_attempts_per_stage": 2, "max_total_attempts": 5},
        "timeout": 60,
    }


def _repo(tmp: Path) -> Path:
    root = tmp / "repo"
    root.mkdir(parents=True, exist_ok=True)
    (root / ".git").mkdir(exist_ok=True)
    (root / "argus.toml").write_text('[implementer]\nmodel = "anthropic/the-builder"\n')
    return root


def _pinned(root: Path) -> None:
    """A person pinned the seed contract (a generated one is refused as edited after pinning,
    once it has been read and its graders checked)."""
    from argus.contract.model import load_contract
    from argus.contract.pins import pin

    pin(root, load_contract(root / "contract.json"))


def prep_contract(tmp: Path) -> Workdir:
    root = _repo(tmp)
    work = _one_file(Workdir(root), "contract", root / "contract.json", _dumps(_contract(tmp)))
    _pinned(root)
    return work


def prep_contract_state(tmp: Path) -> Workdir:
    root = _repo(tmp)
    (root / "contract.json").write_bytes(_dumps(_contract(tmp)))
    _pinned(root)
    done = run_cli(["contract", "start", "contract.json"], root)
    assert done.code == 0, done.stderr
    return _one_file(Workdir(root), "state", root / ".argus/contracts/ship-it/state.json")


def prep_referee(tmp: Path) -> Workdir:
    root = _repo(tmp)
    work = Workdir(root)
    docs = {
        "gates": prep_gate_result(tmp / "g").seeds["gates"],
        "console": _dumps({"messages": [{"level": "error"}], "page_errors": []}),
        "lighthouse": _dumps(
            {"categories": {"accessibility": {"score": 0.95}, "performance": {"score": 0.8}}}
        ),
        "ssim": _dumps({"ssim_score": 0.93}),
        "parity": _dumps({"a": {"b": [1, 2]}, "c": "x"}),
        "design": _dumps({"spacing_base": 8, "type_ratio": 1.25, "components": ["Button"]}),
    }
    for key, data in docs.items():
        _one_file(work, key, root / "evidence" / f"{key}.json", data)
    config = {
        "surface": "web",
        "gates": "evidence/gates.json",
        "console": "evidence/console.json",
        "lighthouse": "evidence/lighthouse.json",
        "ssim": "evidence/ssim.json",
        "parity": {"candidate": "evidence/parity.json", "reference": "evidence/parity.json"},
        "design_schema": {"candidate": "evidence/design.json", "reference": "evidence/design.json"},
        "thresholds": {"ssim_min": 0.9, "max_console_errors": 1},
    }
    work.keep(*work.files.values())
    return _one_file(work, "config", root / "referee.json", _dumps(config))


def referee_evidence(work: Workdir) -> st.SearchStrategy[tuple[str, bytes]]:
    keys = ["gates", "console", "lighthouse", "ssim", "parity", "design"]
    return st.sampled_from(keys).flatmap(
        lambda key: mutate.json_inputs(json.loads(work.seeds[key])).map(lambda b: (key, b))
    )


def prep_hook(tmp: Path) -> Workdir:
    root = _repo(tmp)
    work = Workdir(root)
    work.seeds["hook"] = _dumps(
        {
            "session_id": "abc",
            "transcript_path": "/tmp/t.jsonl",
            "cwd": str(root),
            "hook_event_name": "Stop",
            "stop_hook_active": False,
        }
    )
    return work


def prep_assertion(tmp: Path) -> Workdir:
    tmp.mkdir(parents=True, exist_ok=True)
    shot = tmp / "shot.png"
    Image.fromarray(np.full((40, 64, 3), 200, dtype=np.uint8)).save(shot)
    tree = tmp / "tree.json"
    tree.write_text(json.dumps({"elements": [{"tag": "button", "text": "Save"}]}))
    done = run_cli(
        [
            "assert", "packet", "--assertion", "the button says Save",
            "--evidence", f"screenshot={shot}", "--evidence", f"ui-tree={tree}",
            "--out", str(tmp / "packet"),
        ],
        tmp,
    )  # fmt: skip
    assert done.code == 0, done.stderr
    manifest = json.loads((tmp / "packet" / "judge-packet.json").read_text())
    answer = {
        "packet_id": manifest.get("packet_id", ""),
        "verdict": "passed",
        "reason": "The screenshot shows a button labelled Save.",
        "citations": ["screenshot"],
    }
    work = Workdir(tmp)
    shutil.copytree(tmp / "packet", tmp / "packet-pristine")
    return _one_file(work, "answer", tmp / "answer.json", _dumps(answer))


def prep_signoff(tmp: Path) -> Workdir:
    work = _habits(tmp)
    runs = work.root / SPEC_DIR / ".argus-runs"
    return _one_file(work, "signoff", runs / "signoff.json", REVIEW_SIGNOFF.read_bytes())


def prep_run_record(tmp: Path) -> Workdir:
    work = _habits(tmp)
    runs = work.root / SPEC_DIR / ".argus-runs"
    records = json.loads(REVIEW_SIGNOFF.read_text())
    for record in records["records"]:
        record["human_spotcheck"] = {"status": "pending"}
    _one_file(work, "signoff", runs / "signoff.json", _dumps(records))
    work.keep(work.files["signoff"])
    run = {
        "version": 1,
        "run_id": records["records"][0]["run_id"],
        "feature": "habits",
        "mode": "headless",
        "target": None,
        "max_iterations": 12,
        "started_at": "2026-11-30T14:21:38+00:00",
        "updated_at": "2026-11-30T14:21:47+00:00",
        "status": "finished",
        "final_status": "DONE",
        "store": ".argus/runs.sqlite",
        "config_sha256": "0" * 64,
        "views": {"list-populated-light": {"status": "signed_off", "iterations": 6}},
        "notes": [],
    }
    return _one_file(work, "run", runs / "run.json", _dumps(run))


def prep_rubric(tmp: Path) -> Workdir:
    return prep_verdict(tmp)


def prep_png(tmp: Path) -> Workdir:
    tmp.mkdir(parents=True, exist_ok=True)
    work = Workdir(tmp)
    base = np.full((24, 32, 4), 255, dtype=np.uint8)
    base[4:10, 4:20] = (20, 40, 200, 255)
    Image.fromarray(base, "RGBA").save(tmp / "b.png")
    work.files["b"] = tmp / "b.png"
    return _one_file(work, "png", tmp / "a.png", (tmp / "b.png").read_bytes())


def prep_diff_pairs(tmp: Path) -> Workdir:
    work = prep_png(tmp)
    seed = b'{"expected": "a.png", "actual": "b.png", "threshold": 0.1, "window": 8}\n'
    return _one_file(work, "pairs", tmp / "pairs.jsonl", seed)


def png_strategy(work: Workdir) -> st.SearchStrategy[tuple[str, bytes]]:
    return mutate.png_inputs(work.seeds["png"]).map(lambda blob: ("png", blob))


def toml_strategy(work: Workdir) -> st.SearchStrategy[tuple[str, bytes]]:
    return mutate.toml_inputs(work.seeds["config"]).map(lambda blob: ("config", blob))


def prep_probe(tmp: Path) -> Workdir:
    work = _habits(tmp)
    sensed = _sensed(work)
    return _one_file(work, "probe", sensed / "probe.json")


def prep_layout(tmp: Path) -> Workdir:
    root = _repo(tmp)
    boxes = {
        "width": 1280,
        "height": 720,
        "boxes": [
            {"name": "title", "x": 0, "y": 0, "width": 1280, "height": 60},
            {"name": "a", "x": 0, "y": 80, "width": 400, "height": 300},
            {"name": "b", "x": 420, "y": 80, "width": 400, "height": 300},
            {"name": "c", "x": 840, "y": 80, "width": 400, "height": 300},
        ],
        "_lintConfig": {"tolerance": {"equal_gap_px": 10, "column_align_px": 8}},
    }
    return _one_file(Workdir(root), "boxes", root / "boxes.json", _dumps(boxes))


def prep_design(tmp: Path) -> Workdir:
    root = _repo(tmp)
    work = Workdir(root)
    reference = {
        "spacing_base": 8,
        "type_ratio": 1.25,
        "elevation_levels": 3,
        "breakpoints": [640, 1024],
        "components": ["Button", "Card"],
    }
    _one_file(work, "reference", root / "reference.json", _dumps(reference))
    work.keep(work.files["reference"])
    return _one_file(work, "candidate", root / "candidate.json", _dumps(reference))


def design_strategy(work: Workdir) -> st.SearchStrategy[tuple[str, bytes]]:
    return st.sampled_from(["candidate", "reference"]).flatmap(
        lambda key: mutate.json_inputs(json.loads(work.seeds[key])).map(lambda b: (key, b))
    )


def prep_lighthouse(tmp: Path) -> Workdir:
    work = _habits(tmp)
    categories = {
        name: {"id": name, "title": name, "score": score}
        for name, score in (
            ("accessibility", 0.97),
            ("performance", 0.9),
            ("best-practices", 0.95),
            ("seo", 0.92),
        )
    }
    report = {"lighthouseVersion": "12.0.0", "categories": categories}
    return _one_file(work, "report", work.root / "lighthouse.json", _dumps(report))


ALL_CODES = frozenset({0, 1, 2})

TARGETS: tuple[Target, ...] = (
    Target("spec", prep_spec, _json_file("spec"), lambda w: ["lint", str(SPEC)], ALL_CODES),
    Target(
        "tokens",
        prep_tokens,
        _json_file("tokens"),
        lambda w: ["tokens", "show", str(w.files["tokens"])],
        frozenset({0, 2}),
    ),
    Target(
        "tokens-dtcg",
        prep_dtcg,
        _json_file("tokens"),
        lambda w: ["tokens", "show", str(w.files["tokens"])],
        frozenset({0, 2}),
    ),
    Target(
        "contrast-pairs",
        prep_pairs,
        _json_file("pairs"),
        lambda w: [
            "contrast",
            "--tokens",
            str(w.files["tokens"]),
            "--pairs",
            str(w.files["pairs"]),
        ],
        ALL_CODES,
    ),
    Target(
        "argus.toml",
        prep_argus_toml,
        toml_strategy,
        lambda w: ["gates", *VIEW, "--sensed", str(w.files["sensed"]), "--out", "out"],
        ALL_CODES,
        cleanup=("out",),
    ),
    Target(
        "tool.argus",
        prep_pyproject,
        toml_strategy,
        lambda w: ["gates", *VIEW, "--sensed", str(w.files["sensed"]), "--out", "out"],
        ALL_CODES,
        cleanup=("out",),
    ),
    *(
        Target(
            f"sensed-{name}",
            prep_sensed(name),
            _json_file(name),
            lambda w: ["gates", *VIEW, "--sensed", str(w.files["sensed"]), "--out", "out"],
            ALL_CODES,
            cleanup=("out",),
            # meta.json is fuzzed as written (the sense record is part of what is read)
            after_input=None if name == "meta" else lambda w: _seal(w.files["sensed"]),
        )
        for name in ("probe", "console", "axe", "meta")
    ),
    Target(
        "verdict",
        prep_verdict,
        _json_file("verdict"),
        lambda w: ["verdict", "check", str(w.files["verdict"])],
        ALL_CODES,
    ),
    Target(
        "rubric",
        prep_rubric,
        _json_file("rubric"),
        lambda w: ["verdict", "check", str(w.files["verdict"]), "--rubric", str(w.files["rubric"])],
        ALL_CODES,
    ),
    Target(
        "gate-result",
        prep_gate_result,
        _json_file("gates"),
        lambda w: ["verdict", "check", "--gate", str(w.files["gates"])],
        ALL_CODES,
    ),
    Target(
        "loop-state",
        prep_loop_state,
        _json_file("state"),
        lambda w: ["state", "show", *VIEW],
        ALL_CODES,
    ),
    Target(
        "contract",
        prep_contract,
        _json_file("contract"),
        lambda w: ["contract", "start", "contract.json"],
        ALL_CODES,
        cleanup=(".argus",),
    ),
    Target(
        "contract-state",
        prep_contract_state,
        _json_file("state"),
        lambda w: ["contract", "status", "ship-it"],
        ALL_CODES,
    ),
    Target(
        "referee-config",
        prep_referee,
        _json_file("config"),
        lambda w: ["referee", "referee.json"],
        ALL_CODES,
    ),
    Target(
        "referee-evidence",
        prep_referee,
        referee_evidence,
        lambda w: ["referee", "referee.json"],
        ALL_CODES,
    ),
    Target(
        "hook-input",
        prep_hook,
        _json_file("hook"),
        lambda w: ["hook", "stop"],
        frozenset({0, 2}),
        stdin=True,
    ),
    Target(
        "assertion-answer",
        prep_assertion,
        _json_file("answer"),
        lambda w: ["assert", "check", "--packet", "packet", "--verdict", str(w.files["answer"])],
        ALL_CODES,
    ),
    Target(
        "signoff",
        prep_signoff,
        _json_file("signoff"),
        lambda w: ["approve", "--feature", "habits", "--target", "list"],
        frozenset({0, 2}),
    ),
    Target(
        "run-record",
        prep_run_record,
        _json_file("run"),
        lambda w: ["approve", "--feature", "habits", "--target", "list"],
        frozenset({0, 2}),
    ),
    Target(
        "png",
        prep_png,
        png_strategy,
        lambda w: ["diff", str(w.files["png"]), str(w.files["b"])],
        ALL_CODES,
    ),
    Target(
        "diff-pairs",
        prep_diff_pairs,
        _json_file("pairs"),
        lambda w: ["diff", "--pairs", str(w.files["pairs"])],
        ALL_CODES,
    ),
    Target(
        "layout-boxes",
        prep_layout,
        _json_file("boxes"),
        lambda w: ["layout", "lint", str(w.files["boxes"]), "--root", str(w.root)],
        frozenset({0, 1, 2, 3}),
    ),
    Target(
        "design-schema",
        prep_design,
        design_strategy,
        lambda w: ["design", "diff", str(w.files["candidate"]), str(w.files["reference"])],
        ALL_CODES,
    ),
    Target(
        "lighthouse-report",
        prep_lighthouse,
        _json_file("report"),
        lambda w: ["lighthouse", *VIEW, "--from-report", str(w.files["report"])],
        ALL_CODES,
    ),
    Target(
        "probe-ids",
        prep_probe,
        _json_file("probe"),
        lambda w: [
            "ids",
            "--spec",
            str(SPEC),
            "--target",
            "list",
            "--probe",
            str(w.files["probe"]),
        ],
        ALL_CODES,
    ),
)
