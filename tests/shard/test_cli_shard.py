"""`argus gates --all --shard I/N` on every machine, then `argus merge`: the same verdicts and
exit code as one unsharded run (sensed files written by hand; the browser version is in
test_shard_browser.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from argus.spec import View
from tests.conftest import RunArgus
from tests.gates.test_cli_gates import project
from tests.support.sensed import seal_sensed

SLUGS = ["list-populated-light", "list-populated-dark", "list-empty-light", "list-empty-dark"]
ALL = ("--feature", "habits", "--target", "list", "--all")


def sensed_views(tmp_path: Path, red: str | None = None) -> tuple[Path, Path]:
    """A habits copy and a directory with one sensed SLUG/ per view; ``red`` has a page error."""
    root, template = project(tmp_path)
    sensed = tmp_path / "runs"
    for slug in SLUGS:
        view_dir = sensed / slug
        view_dir.mkdir(parents=True)
        for name in ("probe.json", "console.json", "axe.json"):
            (view_dir / name).write_bytes((template / name).read_bytes())
        if slug == red:
            console = {"messages": [], "page_errors": [{"text": "boom"}]}
            (view_dir / "console.json").write_text(json.dumps(console))
        _, state, appearance = slug.split("-")
        seal_sensed(view_dir, View("habits", "list", state, appearance))
    return root, sensed


def gate_shards(run_argus: RunArgus, root: Path, sensed: Path, total: int) -> list[Path]:
    paths = []
    for index in range(1, total + 1):
        path = root / f"shard-{index}.json"
        done = run_argus(
            "gates", *ALL, "--sensed", str(sensed), "--shard", f"{index}/{total}",
            "--results", str(path), cwd=root,
        )  # fmt: skip
        assert done.returncode in (0, 1), done.stderr
        paths.append(path)
    return paths


@pytest.mark.parametrize("red", [None, "list-empty-dark"])
def test_three_shards_merge_to_the_unsharded_verdicts(
    tmp_path: Path, run_argus: RunArgus, red: str | None
) -> None:
    root, sensed = sensed_views(tmp_path, red)
    whole = run_argus("gates", *ALL, "--sensed", str(sensed), "--json", cwd=root)
    assert whole.returncode == (1 if red else 0), whole.stderr
    expected = {slug: result["all_green"] for slug, result in json.loads(whole.stdout).items()}
    assert set(expected) == set(SLUGS)

    shards = gate_shards(run_argus, root, sensed, 3)
    ran = [len(json.loads(p.read_text())["views"]) for p in shards]
    assert sum(ran) == 4 and max(ran) - min(ran) <= 1
    out = tmp_path / "merged"
    merged = run_argus("merge", *map(str, shards), "--out", str(out), "--json", cwd=root)
    assert merged.returncode == whole.returncode, merged.stderr
    payload = json.loads(merged.stdout)
    assert {v["slug"]: v["status"] == "green" for v in payload["views"]} == expected
    assert [v["slug"] for v in payload["views"]] == SLUGS  # the spec's order
    durations = json.loads((out / "durations.json").read_text())["durations_ms"]
    assert set(durations) == {f"habits/{slug}" for slug in SLUGS}
    page = (out / "report.html").read_text()
    assert all(slug in page for slug in SLUGS)
    assert ("boom" in page) is False  # page text is not echoed; the gate summary is


def test_merge_without_every_shard_exits_2(tmp_path: Path, run_argus: RunArgus) -> None:
    root, sensed = sensed_views(tmp_path)
    shards = gate_shards(run_argus, root, sensed, 3)
    done = run_argus("merge", str(shards[0]), str(shards[2]), cwd=root)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert "shard 2/3 missing" in done.stderr


def test_durations_file_from_a_merge_balances_the_next_split(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    root, sensed = sensed_views(tmp_path)
    durations = root / "durations.json"
    table = {f"habits/{s}": ms for s, ms in zip(SLUGS, (4000, 1000, 1000, 1000), strict=True)}
    durations.write_text(json.dumps({"durations_ms": table}))
    counts = []
    for index in (1, 2):
        path = root / f"d{index}.json"
        done = run_argus(
            "gates", *ALL, "--sensed", str(sensed), "--shard", f"{index}/2",
            "--durations", str(durations), "--results", str(path), cwd=root,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        counts.append([v["slug"] for v in json.loads(path.read_text())["views"]])
    assert counts == [["list-populated-light"], SLUGS[1:]]
    durations.write_text(json.dumps({"durations_ms": {"habits/x": -5}}))
    bad = run_argus(
        "gates",
        *ALL,
        "--sensed",
        str(sensed),
        "--shard",
        "1/2",
        "--durations",
        str(durations),
        cwd=root,
    )
    assert bad.returncode == 2 and "finite" in bad.stderr


def test_gates_needs_a_view_or_all(tmp_path: Path, run_argus: RunArgus) -> None:
    root, _ = sensed_views(tmp_path)
    done = run_argus("gates", "--feature", "habits", "--target", "list", cwd=root)
    assert done.returncode == 2 and "--all" in done.stderr


def test_loop_shards_only_a_report_only_run(tmp_path: Path, run_argus: RunArgus) -> None:
    root, _ = sensed_views(tmp_path)
    done = run_argus("loop", "--feature", "habits", "--shard", "1/2", cwd=root)
    assert done.returncode == 2 and "report-only" in done.stderr
