"""``--argus-shard i/n`` splits a pytest run's tests across machines as ``argus --shard``
splits views; ``--argus-durations`` balances by recorded times and records the run's."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from argus.shard.outcomes import collection
from tests.conftest import RunArgus
from tests.support.one_comparison import INNER_PLUGINS_OFF

TESTS = "\n".join(f"def test_{name}():\n    pass\n" for name in "abcdefg")


def _run(suite: pytest.Pytester, *args: str) -> pytest.RunResult:
    # In process (fast), without the plug-ins no inner run loads (INNER_PLUGINS_OFF).
    return suite.runpytest(*INNER_PLUGINS_OFF, *args)


def _ran(result: pytest.RunResult) -> set[str]:
    return {m.group(1) for m in re.finditer(r"::test_(\w+) PASSED", result.stdout.str())}


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(test_many=TESTS)
    return pytester


def test_three_shards_run_every_test_once_and_evenly(suite: pytest.Pytester) -> None:
    shards = []
    for index in (1, 2, 3):
        result = _run(suite, "-v", f"--argus-shard={index}/3")
        result.assert_outcomes(passed=len(_ran(result)), deselected=7 - len(_ran(result)))
        result.stdout.fnmatch_lines([f"argus shard {index}/3: {len(_ran(result))} of 7 tests"])
        shards.append(_ran(result))
    assert set().union(*shards) == set("abcdefg")
    assert sum(len(s) for s in shards) == 7
    assert sorted(len(s) for s in shards) == [2, 2, 3]
    # Every machine computes the same split on its own.
    assert _ran(_run(suite, "-v", "--argus-shard=2/3")) == shards[1]


def test_recorded_durations_balance_the_shards_and_are_kept_up_to_date(
    suite: pytest.Pytester,
) -> None:
    slow = "test_many.py::test_c"
    table = {f"test_many.py::test_{n}": 10.0 for n in "abcdefg"} | {slow: 5000.0}
    kept = {"other.py::test_elsewhere": 7.0}
    # Each CI machine starts from the same file (a cache, an artefact) and writes its own copy.
    copies = [suite.path / "one.json", suite.path / "two.json"]
    for copy in copies:
        copy.write_text(json.dumps({"durations_ms": table | kept}))
    first = _run(suite, "-v", "--argus-shard=1/2", f"--argus-durations={copies[0]}")
    second = _run(suite, "-v", "--argus-shard=2/2", f"--argus-durations={copies[1]}")
    # The long test fills one shard alone; the six short ones go to the other.
    assert sorted([_ran(first), _ran(second)], key=len) == [{"c"}, set("abdefg")]
    alone = copies[0] if _ran(first) == {"c"} else copies[1]
    written = json.loads(alone.read_text())["durations_ms"]
    assert set(written) == set(table) | set(kept)
    assert written["other.py::test_elsewhere"] == 7.0  # another suite's time is kept
    assert written["test_many.py::test_a"] == 10.0  # another shard's test: as it was
    assert written[slow] < 5000.0  # replaced by this run's measured time


def test_without_the_option_nothing_is_deselected(suite: pytest.Pytester) -> None:
    _run(
        suite,
    ).assert_outcomes(passed=7)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--argus-shard=0/3"], "--argus-shard"),
        (["--argus-shard=4/3"], "--argus-shard"),
        (["--argus-shard=two"], "--argus-shard"),
        (["--argus-durations=d.json"], "--argus-durations only makes sense with --argus-shard"),
        (["--argus-shard=1/2", "--argus-durations=bad.json"], "bad.json"),
    ],
)
def test_bad_input_is_a_usage_error(suite: pytest.Pytester, args: list[str], needle: str) -> None:
    (suite.path / "bad.json").write_text('{"durations_ms": {"x": -1}}')
    result = _run(suite, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert needle in result.stderr.str()
    assert (suite.path / "bad.json").read_text() == '{"durations_ms": {"x": -1}}'


RECORDING = "\n".join(
    f"""
def test_{name}(record_property):
    record_property("argus", json.dumps({{"name": "{name}", "status": "{status}",
                                         "ok": {status == "passed"}, "message": "",
                                         "gates": [], "duration_ms": 1.0}}))
"""
    for name, status in zip("abcdefg", ["passed"] * 6 + ["failed"], strict=True)
)


def test_argus_merge_takes_the_shards_reports_and_refuses_a_missing_one(
    pytester: pytest.Pytester, run_argus: RunArgus
) -> None:
    """As a CI matrix does: each machine writes its --argus-report, one job merges them."""
    pytester.makepyfile(test_many="import json\n" + RECORDING)
    reports = [pytester.path / f"shard-{i}.json" for i in (1, 2)]
    for index, report in enumerate(reports, 1):
        _run(pytester, f"--argus-shard={index}/2", f"--argus-report={report}")
        assert json.loads(report.read_text())["shard"] == {"index": index, "total": 2}
    out = pytester.path / "merged"
    done = run_argus("merge", *map(str, reports), "--out", str(out), cwd=pytester.path)
    assert done.returncode == 1, done.stderr  # test_g's assertion failed
    merged = json.loads((out / "report.json").read_text())
    assert (merged["total"], merged["failed"], merged["shard"]) == (7, 1, None)
    assert sorted(a["name"] for a in merged["assertions"]) == list("abcdefg")
    assert (out / "report.html").is_file()
    assert "from 2 shard(s)" in done.stdout and "1 failed (exit 1)" in done.stdout

    alone = run_argus("merge", str(reports[0]), "--out", str(out), cwd=pytester.path)
    assert alone.returncode == 2 and "shard 2/2 missing" in alone.stderr
    twice = run_argus("merge", *map(str, reports), str(reports[0]), cwd=pytester.path)
    assert twice.returncode == 2 and "given twice" in twice.stderr

    # A report that says a failed assertion was ok is not believed.
    forged = json.loads(reports[1].read_text())
    forged["assertions"] = [{**a, "ok": True} for a in forged["assertions"]]
    reports[1].write_text(json.dumps(forged))
    first = json.loads(reports[0].read_text())
    first["assertions"] = [{**a, "ok": True} for a in first["assertions"]]
    reports[0].write_text(json.dumps(first))
    done = run_argus("merge", *map(str, reports), "--out", str(out), cwd=pytester.path)
    assert done.returncode == 1 and "test_g: g: passed or failed re-derived" in done.stdout


def test_a_results_file_and_a_pytest_report_do_not_merge(
    tmp_path: Path, run_argus: RunArgus
) -> None:
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"version": 1, "shard": None, "assertions": []}))
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"schema": "argus-results/1"}))
    done = run_argus("merge", str(report), str(results), cwd=tmp_path)
    assert done.returncode == 2 and "cannot be merged with pytest reports" in done.stderr


OUTCOMES = """import pytest

def test_pass():
    pass

def test_fail():
    assert False

@pytest.fixture
def broken():
    raise RuntimeError("no fixture")

def test_setup_error(broken):
    pass

@pytest.fixture
def untidy():
    yield
    raise RuntimeError("no teardown")

def test_teardown_error(untidy):
    pass

@pytest.mark.skip
def test_skipped():
    pass

def test_skipped_in_call():
    pytest.skip("later")

@pytest.mark.xfail
def test_xfailed():
    assert False

@pytest.mark.xfail
def test_xpassed():
    pass

@pytest.mark.xfail(strict=True)
def test_xpassed_strictly():
    pass
"""


def _report(pytester: pytest.Pytester, *args: str) -> dict[str, Any]:
    path = pytester.path / "report.json"
    _run(pytester, f"--argus-report={path}", *args)
    report: dict[str, Any] = json.loads(path.read_text())
    return report


def test_the_report_lists_every_test_with_its_outcome_and_the_collection(
    pytester: pytest.Pytester,
) -> None:
    """A test without a view assertion is in the report too, with pytest's own outcome: a
    failed setup or teardown is an error, a strict xpass a failure."""
    pytester.makepyfile(test_outcomes=OUTCOMES)
    report = _report(pytester)
    tests = {k.split("::")[1].removeprefix("test_"): v for k, v in report["tests"].items()}
    assert tests == {
        "pass": "passed",
        "fail": "failed",
        "setup_error": "error",
        "teardown_error": "error",
        "skipped": "skipped",
        "skipped_in_call": "skipped",
        "xfailed": "xfailed",
        "xpassed": "xpassed",
        "xpassed_strictly": "failed",
    }
    assert report["tests_failed"] == 4 and report["version"] == 2
    assert report["collected"] == collection(report["tests"])


def test_a_stopped_run_lists_what_it_never_ran(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_outcomes=OUTCOMES)
    report = _report(pytester, "-x")  # stops at test_fail, the second test
    tests = {k.split("::")[1].removeprefix("test_"): v for k, v in report["tests"].items()}
    assert (tests.pop("pass"), tests.pop("fail")) == ("passed", "failed")
    assert len(tests) == 7 and set(tests.values()) == {"not run"}
    assert report["tests_failed"] == 8


def test_under_xdist_the_controller_lists_every_workers_tests(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_outcomes=OUTCOMES)
    alone = _report(pytester, "--argus-shard=1/2")
    both = _report(pytester, "--argus-shard=1/2", "-p", "xdist", "-n", "2")
    assert both["tests"] == alone["tests"] and both["collected"] == alone["collected"]
    assert both["collected"]["count"] == 9 and len(both["tests"]) < 9


def _shard_reports(pytester: pytest.Pytester, name: str = "shard", *args: str) -> list[Path]:
    reports = [pytester.path / f"{name}-{i}.json" for i in (1, 2)]
    for index, report in enumerate(reports, 1):
        _run(pytester, f"--argus-shard={index}/2", f"--argus-report={report}", *args)
    return reports


def test_a_test_failing_without_an_assertion_fails_the_merge(
    pytester: pytest.Pytester, run_argus: RunArgus
) -> None:
    pytester.makepyfile(
        test_many="import json\n" + RECORDING.replace('"failed"', '"passed"'),
        test_plain="def test_plain():\n    assert 1 == 2\n",
    )
    reports = _shard_reports(pytester)
    out = pytester.path / "merged"
    done = run_argus("merge", *map(str, reports), "--out", str(out), cwd=pytester.path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "test_plain.py::test_plain  failed" in done.stdout
    assert "0 failed, 1 test(s) failed or did not run (exit 1)" in done.stdout
    merged = json.loads((out / "report.json").read_text())
    assert len(merged["tests"]) == 8 and merged["tests_failed"] == 1
    assert "test_plain.py::test_plain" in (out / "report.html").read_text()


def test_shards_that_split_differently_or_collected_differently_do_not_merge(
    pytester: pytest.Pytester, run_argus: RunArgus
) -> None:
    """Machines that computed different splits (one with a durations file, one without), one
    that collected other tests (another -k), or a report that lost a test: bad input, never a
    smaller green run."""
    pytester.makepyfile(test_many=TESTS)
    one, two = _shard_reports(pytester)
    table = {f"test_many.py::test_{n}": 10.0 for n in "abcdefg"} | {"test_many.py::test_c": 5e3}
    (pytester.path / "slow.json").write_text(json.dumps({"durations_ms": table}))
    timed = pytester.path / "timed.json"
    _run(pytester, "--argus-shard=1/2", f"--argus-report={timed}", "--argus-durations=slow.json")
    other = pytester.path / "other.json"
    _run(pytester, "--argus-shard=2/2", f"--argus-report={other}", "-k", "not test_a")
    assert run_argus("merge", str(one), str(two), cwd=pytester.path).returncode == 0

    # The timed machine ran c alone; the other, without the times, its share by count.
    assert list(json.loads(timed.read_text())["tests"]) == ["test_many.py::test_c"]
    split = run_argus("merge", str(timed), str(two), cwd=pytester.path)
    assert split.returncode == 2, split.stdout
    assert "of the 7 collected tests ran in no shard" in split.stderr
    assert "same --argus-durations file" in split.stderr

    collected = run_argus("merge", str(one), str(other), cwd=pytester.path)
    assert collected.returncode == 2 and "collected different tests" in collected.stderr

    lost = json.loads(two.read_text())
    del lost["tests"][next(iter(lost["tests"]))]
    two.write_text(json.dumps(lost))
    dropped = run_argus("merge", str(one), str(two), cwd=pytester.path)
    assert (
        dropped.returncode == 2 and "1 of the 7 collected tests ran in no shard" in dropped.stderr
    )

    old = json.loads(one.read_text())
    one.write_text(json.dumps({"version": 1, "shard": old["shard"], "assertions": []}))
    mixed = run_argus("merge", str(one), str(two), cwd=pytester.path)
    assert mixed.returncode == 2 and "a version 1 report" in mixed.stderr
