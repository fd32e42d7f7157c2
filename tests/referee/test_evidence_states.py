"""What is wrong with an evidence file decides its gate: missing is not captured (exit 0, with
the reason), a non-finite number is a determinate error (exit 1, a verdict still written),
malformed is the source's own contract (bad input, or not captured for a design schema)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from argus.cli import main
from tests.referee.test_parity import card
from tests.referee.test_referee import config, png, write

PBIR = card()
DESIGN = {"spacing_base": 8, "type_ratio": 1.25, "breakpoints": ["sm", "md"]}
GATE_RESULT = {"feature": "f", "target": "t", "all_green": True, "gates": {"axe": "pass"}}
# One healthy file per JSON source: each is then broken in one way at a time.
GOOD: dict[str, Any] = {
    "gates": GATE_RESULT,
    "console": {"messages": [{"level": "info"}]},
    "lighthouse": {"categories": {"accessibility": {"score": 0.97}}},
    "ssim": {"ssim_score": 0.95},
}
PAIRS = {"parity": PBIR, "design_schema": DESIGN}


def referee_cli(root: Path, capsys: pytest.CaptureFixture[str], **entries: Any) -> Any:
    code = main(["referee", str(config(root, **entries)), "--root", str(root)])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else None), err


def gate(verdict: dict[str, Any], name: str) -> dict[str, Any]:
    return next(g for g in verdict["gates"] if g["name"] == name)


MISSING_ENTRIES = [
    ("layout", {"layout": "pages/absent.json"}),
    ("gates", {"gates": "absent/gate-result.json"}),
    ("console", {"console": "absent.json"}),
    ("lighthouse", {"lighthouse": "absent.json"}),
    ("ssim", {"ssim": "absent.json"}),
    ("ssim", {"ssim": {"render": "absent.png", "reference": "ref.png"}}),
    ("ssim", {"ssim": {"render": "ref.png", "reference": "absent.png"}}),
    ("parity", {"parity": {"candidate": "absent.json", "reference": "pair.json"}}),
    ("parity", {"parity": {"candidate": "pair.json", "reference": "absent.json"}}),
    ("design_schema", {"design_schema": {"candidate": "absent.json", "reference": "d.json"}}),
    ("design_schema", {"design_schema": {"candidate": "d.json", "reference": "absent.json"}}),
]


@pytest.mark.parametrize(("name", "entry"), MISSING_ENTRIES)
def test_a_missing_evidence_file_is_not_captured_with_its_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, entry: dict[str, Any]
) -> None:
    png(tmp_path, "ref.png", 240)
    write(tmp_path, "pair.json", PBIR)
    write(tmp_path, "d.json", DESIGN)
    code, verdict, err = referee_cli(tmp_path, capsys, **entry)
    assert (code, err) == (0, "")
    assert gate(verdict, name) == {
        "name": name,
        "status": "not_captured",
        "measured": {"reason": "missing"},
    }
    assert verdict["passed"] is None and verdict["next_action"] == "capture-runtime-evidence"
    assert f"does not exist (not captured): {name}" in " ".join(verdict["notes"])


def test_a_missing_file_hides_no_failure_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    console = write(tmp_path, "c.json", {"messages": [{"level": "error"}]})
    design = {"candidate": "absent.json", "reference": "absent-too.json"}
    code, verdict, _ = referee_cli(tmp_path, capsys, console=console, design_schema=design)
    assert code == 1 and verdict["next_action"] == "fix-console-errors"
    assert gate(verdict, "design_schema")["status"] == "not_captured"


NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e999"]


@pytest.mark.parametrize("number", NON_FINITE)
def test_a_non_finite_ssim_score_is_an_error_in_a_written_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], number: str
) -> None:
    (tmp_path / "ssim.json").write_text(f'{{"ssim_score": {number}}}')
    console = write(tmp_path, "c.json", {"messages": []})
    code, verdict, err = referee_cli(tmp_path, capsys, ssim="ssim.json", console=console)
    assert (code, err) == (1, "")
    assert gate(verdict, "ssim") == {
        "name": "ssim",
        "status": "error",
        "measured": {"reason": "non_finite"},
    }
    assert (verdict["passed"], verdict["next_action"]) == (False, "improve-visual-fidelity")
    assert "non-finite number (NaN or infinity), never a pass: ssim" in " ".join(verdict["notes"])


BROKEN_SIDES = [(name, None) for name in GOOD] + [
    (name, side) for name in PAIRS for side in ("candidate", "reference")
]


@pytest.mark.parametrize(("name", "side"), BROKEN_SIDES)
def test_a_non_finite_number_anywhere_in_evidence_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, side: str | None
) -> None:
    healthy = GOOD.get(name) or PAIRS[name]
    text = json.dumps({**healthy, "extra": 0.5}).replace("0.5", "NaN")
    (tmp_path / "bad.json").write_text(text)
    entry: Any = "bad.json"
    if side is not None:
        write(tmp_path, "good.json", PAIRS[name])
        other = "reference" if side == "candidate" else "candidate"
        entry = {side: "bad.json", other: "good.json"}
    code, verdict, err = referee_cli(tmp_path, capsys, **{name: entry})
    assert (code, err) == (1, "")
    assert gate(verdict, name)["status"] == "error"
    assert gate(verdict, name)["measured"] == {"reason": "non_finite"}


@pytest.mark.parametrize("name", [*GOOD, *PAIRS])
def test_the_healthy_files_grade_normally(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    # The other half of the tests above: the same files without the broken number are graded.
    if name in PAIRS:
        write(tmp_path, "c.json", PAIRS[name])
        write(tmp_path, "r.json", PAIRS[name])
        entry: Any = {"candidate": "c.json", "reference": "r.json"}
    else:
        entry = write(tmp_path, "good.json", GOOD[name])
    _, verdict, err = referee_cli(tmp_path, capsys, **{name: entry})
    assert err == "" and gate(verdict, name)["status"] == "pass"


@pytest.mark.parametrize("name", ["gates", "console", "lighthouse", "ssim", "parity"])
def test_a_malformed_file_is_still_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    (tmp_path / "bad.json").write_text('{"messages": [')
    write(tmp_path, "good.json", PBIR)
    entry: Any = (
        {"candidate": "bad.json", "reference": "good.json"} if name == "parity" else "bad.json"
    )
    code, verdict, err = referee_cli(tmp_path, capsys, **{name: entry})
    assert (code, verdict) == (2, None)
    assert err.startswith("argus: ") and "bad.json" in err and "not valid JSON" in err


# What each evidence file is called in the one-line refusal, so the user knows which to fix.
ROLES = {
    "gates": "gate result",
    "console": "console capture",
    "lighthouse": "Lighthouse report",
    "ssim": "SSIM capture",
    "parity": "parity candidate",
}


@pytest.mark.parametrize(("name", "role"), ROLES.items())
def test_the_refusal_names_which_evidence_the_file_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, role: str
) -> None:
    (tmp_path / "bad.json").write_text("[1,")
    write(tmp_path, "good.json", PBIR)
    entry: Any = (
        {"candidate": "bad.json", "reference": "good.json"} if name == "parity" else "bad.json"
    )
    code, _, err = referee_cli(tmp_path, capsys, **{name: entry})
    assert code == 2 and f"bad.json: {role} is not valid JSON" in err


@pytest.mark.parametrize("text", ['{"spacing_base": 8,', '{"a": 1, "a": 2}', "\xff\xfe"])
def test_an_unparseable_design_schema_is_not_captured_as_the_seed_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    (tmp_path / "bad.json").write_bytes(text.encode("latin-1"))
    write(tmp_path, "d.json", DESIGN)
    code, verdict, err = referee_cli(
        tmp_path, capsys, design_schema={"candidate": "bad.json", "reference": "d.json"}
    )
    assert (code, err) == (0, "")
    assert gate(verdict, "design_schema")["measured"] == {"reason": "unparseable"}
    assert gate(verdict, "design_schema")["status"] == "not_captured"


def test_an_oversized_design_schema_is_still_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "big.json").write_text('{"components": [' + ",".join(['"b"'] * 1_500_000) + "]}")
    write(tmp_path, "d.json", DESIGN)
    code, verdict, err = referee_cli(
        tmp_path, capsys, design_schema={"candidate": "big.json", "reference": "d.json"}
    )
    assert (code, verdict) == (2, None) and "5 MiB" in err


def test_a_non_finite_measured_ssim_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from argus.judge.picture import Picture

    png(tmp_path, "render.png", 250)
    png(tmp_path, "ref.png", 240)
    monkeypatch.setattr(Picture, "ssim", lambda self, other: math.nan)
    code, verdict, _ = referee_cli(
        tmp_path, capsys, ssim={"render": "render.png", "reference": "ref.png"}
    )
    assert code == 1 and gate(verdict, "ssim")["status"] == "error"


@pytest.mark.parametrize("text", ['{"visuals": [', '{"visuals": [], "x": NaN}'])
def test_a_broken_layout_is_the_linters_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    (tmp_path / "page.json").write_text(text)
    code, verdict, _ = referee_cli(tmp_path, capsys, surface="pbir", layout="page.json")
    assert code == 1 and gate(verdict, "layout")["status"] == "error"


@pytest.mark.parametrize("shape", [{"lines": []}, {}, [], {"messages": "none"}])
def test_a_console_capture_in_the_wrong_shape_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], shape: Any
) -> None:
    console = write(tmp_path, "c.json", shape)
    code, verdict, _ = referee_cli(tmp_path, capsys, console=console)
    assert code == 1 and gate(verdict, "console")["status"] == "error"


def test_a_png_that_is_not_a_regular_file_is_refused_not_read_forever(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    png(tmp_path, "ref.png", 240)
    os.mkfifo(tmp_path / "render.png")  # nobody writes: a plain read would wait forever
    code, verdict, err = referee_cli(
        tmp_path, capsys, ssim={"render": "render.png", "reference": "ref.png"}
    )
    assert (code, verdict) == (2, None) and "not a regular file" in err
