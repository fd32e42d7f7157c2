"""`argus diff --pairs FILE|-`: many pairs in one process, one JSON line each, in order; a bad
line or pair is a line of its own, never the end of the run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from argus.diff import comparison, load_png, save_png
from argus.diff.pairs import MAX_LINE_BYTES
from argus.diff.png import decode_png_pair
from argus.errors import InputError

from ..conftest import RunArgus
from .conftest import page


def images(tmp_path: Path) -> None:
    """a.png; b.png (32 pixels changed); a_copy.png (the same bytes); a_level9.png (the same
    pixels, other bytes)."""
    a = page()
    b = a.copy()
    b[40:44, 40:48, :3] = 0
    save_png(tmp_path / "a.png", a)
    save_png(tmp_path / "b.png", b)
    (tmp_path / "a_copy.png").write_bytes((tmp_path / "a.png").read_bytes())
    save_png(tmp_path / "a_level9.png", a, compress_level=9)
    assert (tmp_path / "a_level9.png").read_bytes() != (tmp_path / "a.png").read_bytes()


def lines(*records: dict[str, Any] | str) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)


def records(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines()]


def test_mixed_good_and_bad_pairs_each_get_a_line_in_order(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    images(tmp_path)
    (tmp_path / "pairs.jsonl").write_text(
        lines(
            {"expected": "a.png", "actual": "b.png", "diff": "d.png"},
            {"expected": "a.png", "actual": "nope.png"},
            "not json",
            "",  # blank lines are skipped, but still counted
            {"expected": "a.png", "actual": "a_copy.png"},
            {"expected": "a.png", "actual": "b.png", "colour": "red"},
            ["a.png", "b.png"],
            {"expected": "a.png"},
        )
    )
    proc = run_argus("diff", "--pairs", "pairs.jsonl", cwd=tmp_path)
    assert proc.returncode == 2  # a pair could not be compared
    got = records(proc.stdout)
    assert [r["line"] for r in got] == [1, 2, 3, 5, 6, 7, 8]
    assert [r["exit_code"] for r in got] == [1, 2, 2, 0, 2, 2, 2]
    first = got[0]
    assert (first["expected"], first["actual"], first["mismatch"]) == ("a.png", "b.png", 32)
    assert first["regions"] == [{"x": 40, "y": 40, "width": 8, "height": 4, "pixels": 32}]
    assert first["diff_image"] == "d.png"
    assert load_png(tmp_path / "d.png")[41, 41].tolist() == [255, 0, 0, 255]
    assert got[1]["error"] == "pairs.jsonl line 2: nope.png: PNG image not found"
    assert got[2]["error"].startswith("pairs.jsonl line 3: not valid JSON (column 1")
    assert got[3]["same_bytes"] is True and got[3]["mismatch"] == 0
    assert got[4]["error"].startswith("pairs.jsonl line 6: colour: unknown key")
    assert got[5]["error"].startswith("pairs.jsonl line 7: not a JSON object")
    assert got[6]["error"].startswith("pairs.jsonl line 8: actual: required key is missing")
    # For a person, one line however many failed: how many, and the first, naming its line.
    assert proc.stderr.startswith("argus: 5 of 7 pairs could not be compared")
    assert "the first: pairs.jsonl line 2: nope.png: PNG image not found" in proc.stderr
    assert len(proc.stderr.splitlines()) == 1


def test_exit_1_when_a_pair_differs_and_0_when_none_does(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    images(tmp_path)
    same = {"expected": "a.png", "actual": "a_level9.png"}
    (tmp_path / "same.jsonl").write_text(lines(same, {"expected": "a.png", "actual": "a.png"}))
    (tmp_path / "some.jsonl").write_text(lines(same, {"expected": "a.png", "actual": "b.png"}))
    ok = run_argus("diff", "--pairs", "same.jsonl", cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    decoded, identical = records(ok.stdout)
    assert (decoded["mismatch"], decoded["same_bytes"]) == (0, False)  # decoded and compared
    assert (identical["mismatch"], identical["same_bytes"]) == (0, True)
    differs = run_argus("diff", "--pairs", "some.jsonl", cwd=tmp_path)
    assert differs.returncode == 1, differs.stderr
    assert [r["exit_code"] for r in records(differs.stdout)] == [0, 1]
    assert differs.stderr == ""


def test_a_pair_of_the_same_pixels_in_other_bytes_is_answered_without_decoding(
    tmp_path: Path, run_argus: RunArgus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As the single-pair command does (argus.diff.samepixels): in a batch most pairs are the
    # same screenshot, and only a pair that may differ, or whose diff image is asked for, is
    # decoded.
    images(tmp_path)
    decoded: list[tuple[Path | str, Path | str]] = []

    def counted(first: bytes, second: bytes, sources: tuple[Path | str, Path | str]) -> Any:
        decoded.append(sources)
        return decode_png_pair(first, second, sources)

    monkeypatch.setattr(comparison, "decode_png_pair", counted)
    same = {"expected": "a.png", "actual": "a_level9.png"}
    (tmp_path / "pairs.jsonl").write_text(
        lines(same, {"expected": "a.png", "actual": "b.png"}, {**same, "diff": "d.png"})
    )
    done = run_argus("diff", "--pairs", "pairs.jsonl", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    unchanged, changed, drawn = records(done.stdout)
    assert (unchanged["mismatch"], unchanged["same_bytes"]) == (0, False)
    assert (changed["mismatch"], drawn["mismatch"]) == (32, 0)
    assert [Path(a).name + " " + Path(b).name for a, b in decoded] == [
        "a.png b.png",
        "a.png a_level9.png",
    ]


def test_pairs_from_standard_input(tmp_path: Path, run_argus: RunArgus) -> None:
    images(tmp_path)
    data = lines({"expected": "a.png", "actual": "b.png"}, "{")
    proc = run_argus("diff", "--pairs", "-", cwd=tmp_path, stdin=data.encode())
    assert proc.returncode == 2
    good, bad = records(proc.stdout)
    assert good["mismatch"] == 32
    assert bad["error"].startswith("stdin line 2: not valid JSON")
    assert proc.stderr.startswith("argus: 1 of 2 pairs could not be compared")
    assert "the first: stdin line 2: not valid JSON" in proc.stderr


def test_a_line_option_overrides_the_command_line_default(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    images(tmp_path)
    b = page()
    b[40:44, 40:48, :3] = 245  # a faint change: counted only at a strict threshold
    save_png(tmp_path / "faint.png", b)
    pair = {"expected": "a.png", "actual": "faint.png"}
    (tmp_path / "p.jsonl").write_text(lines(pair, {**pair, "threshold": 0.01, "window": 4}))
    proc = run_argus("diff", "--pairs", "p.jsonl", "--threshold", "0.2", cwd=tmp_path)
    loose, strict = records(proc.stdout)
    assert (loose["mismatch"], loose["window"]) == (0, 16)
    assert (strict["mismatch"], strict["window"]) == (32, 4)
    assert proc.returncode == 1


def test_bad_option_values_in_a_line_are_that_lines_error(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    images(tmp_path)
    pair = {"expected": "a.png", "actual": "b.png"}
    (tmp_path / "p.jsonl").write_text(
        lines(
            {**pair, "threshold": 2},
            {**pair, "window": 0},
            {**pair, "include_aa": "yes"},
            {**pair, "expected": ""},
            {**pair, "diff": "missing-dir/d.png"},
            pair,
        )
    )
    proc = run_argus("diff", "--pairs", "p.jsonl", cwd=tmp_path)
    got = records(proc.stdout)
    assert [r["exit_code"] for r in got] == [2, 2, 2, 2, 2, 1]
    assert got[0]["error"].startswith("p.jsonl line 1: threshold: ")
    assert got[1]["error"].startswith("p.jsonl line 2: window: ")
    assert got[2]["error"].startswith("p.jsonl line 3: include_aa: ")
    assert got[3]["error"].startswith("p.jsonl line 4: expected: ")
    assert "missing-dir does not exist" in got[4]["error"]
    assert not (tmp_path / "missing-dir").exists()


def test_an_overlong_line_is_refused_and_the_next_one_still_read(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    images(tmp_path)
    long_line = json.dumps({"expected": "a.png", "actual": "x" * MAX_LINE_BYTES})
    (tmp_path / "p.jsonl").write_text(lines(long_line, {"expected": "a.png", "actual": "b.png"}))
    proc = run_argus("diff", "--pairs", "p.jsonl", cwd=tmp_path)
    long, good = records(proc.stdout)
    assert long["line"] == 1 and "over 64 KiB" in long["error"]
    assert (good["line"], good["mismatch"]) == (2, 32)


def test_unreadable_or_empty_input_exits_2_with_one_line(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    (tmp_path / "empty.jsonl").write_text("\n\n")
    (tmp_path / "dir").mkdir()
    cases = {
        "nope.jsonl": "--pairs nope.jsonl: file not found",
        "dir": "--pairs dir: is a directory",
        "empty.jsonl": "empty.jsonl: no pairs",
    }
    for name, message in cases.items():
        proc = run_argus("diff", "--pairs", name, cwd=tmp_path)
        assert proc.returncode == 2, name
        assert proc.stdout == "", name
        assert proc.stderr.startswith("argus: ") and message in proc.stderr, proc.stderr
        assert len(proc.stderr.splitlines()) == 1, name


def test_pairs_and_positional_images_do_not_mix(tmp_path: Path, run_argus: RunArgus) -> None:
    images(tmp_path)
    for args in (("a.png", "--pairs", "-"), ("--pairs", "-", "--out", "d.png")):
        proc = run_argus("diff", *args, cwd=tmp_path)
        assert proc.returncode == 2
        assert "give the images in the pairs file" in proc.stderr
    neither = run_argus("diff", cwd=tmp_path)
    assert neither.returncode == 2 and "A.png B.png" in neither.stderr


def test_identical_bytes_of_a_damaged_png_are_still_bad_input(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    images(tmp_path)
    data = (tmp_path / "a.png").read_bytes()
    (tmp_path / "cut.png").write_bytes(data[: len(data) - 20])
    flipped = bytearray(data)
    flipped[60] ^= 0xFF  # inside the image data: its chunk's CRC no longer matches
    (tmp_path / "flipped.png").write_bytes(bytes(flipped))
    for name, message in (("cut.png", "truncated"), ("flipped.png", "CRC mismatch")):
        proc = run_argus("diff", name, name, cwd=tmp_path)
        assert proc.returncode == 2, (name, proc.stdout)
        assert message in proc.stderr and len(proc.stderr.splitlines()) == 1
    whole = run_argus("diff", "a.png", "a_copy.png", "--json", cwd=tmp_path)
    assert whole.returncode == 0 and json.loads(whole.stdout)["same_bytes"] is True


def test_compare_pngs_decodes_a_pair_its_caller_already_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    images(tmp_path)
    first, second = (tmp_path / "a.png").read_bytes(), (tmp_path / "a_level9.png").read_bytes()
    decoded: list[bool] = []

    def counted(a: bytes, b: bytes, sources: tuple[Path | str, Path | str]) -> Any:
        decoded.append(True)
        return decode_png_pair(a, b, sources)

    monkeypatch.setattr(comparison, "decode_png_pair", counted)
    same = comparison.compare_pngs(first, second, ("a", "b"))
    assert (same.mismatch, same.window, decoded) == (0, comparison.DEFAULT_WINDOW, [])
    assert comparison.compare_pngs(first, second, ("a", "b"), window=7).window == 7
    assert comparison.compare_pngs(first, second, ("a", "b"), check_same=False).mismatch == 0
    assert decoded == [True]


def test_a_damaged_file_given_twice_is_named_as_the_first_source(tmp_path: Path) -> None:
    # Byte-identical files are not decoded, but a damaged one is still bad input, named as
    # decoding would name it: the first file's name.
    images(tmp_path)
    damaged = (tmp_path / "a.png").read_bytes()[:-20]
    with pytest.raises(InputError) as raised:
        comparison.compare_pngs(damaged, damaged, ("first.png", "second.png"))
    assert str(raised.value).startswith("first.png: "), raised.value
