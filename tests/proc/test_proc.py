"""argus.proc: a command in its own process group, its timeout, its stop, its output's tail."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from argus.proc import one_line, read_tail, run_in_group, start_in_group, stop_group

PY = sys.executable


def alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status  # a zombie is dead, just not yet reaped


def gone(pid: int) -> bool:
    """Poll until ``pid`` is dead (a killed process may take a moment to be reaped by init)."""
    for _ in range(50):
        if not alive(pid):
            return True
        time.sleep(0.1)
    return False


def spawner(tmp_path: Path, *, ignore_term: bool, then: str) -> list[str]:
    """An argv whose process starts a sleeping grandchild, writes its pid, then runs ``then``."""
    script = tmp_path / "spawn.py"
    script.write_text(
        "import signal, subprocess, sys, time\n"
        + ("signal.signal(signal.SIGTERM, signal.SIG_IGN)\n" if ignore_term else "")
        + f"child = subprocess.Popen([{PY!r}, '-c', 'import time; time.sleep(60)'])\n"
        + f"open({str(tmp_path / 'child.pid')!r}, 'w').write(str(child.pid))\n"
        + "print('started', flush=True)\n"
        + then
        + "\n"
    )
    return [PY, str(script)]


@pytest.mark.parametrize(
    ("command", "code", "output"),
    [
        ("echo out; echo err >&2; exit 3", 3, "out\nerr\n"),  # a string runs through the shell
        ([PY, "-c", "print('a b')"], 0, "a b\n"),  # a sequence is an argv, no shell
    ],
    ids=["shell", "argv"],
)
def test_runs_to_the_end_with_output_in_the_log(
    tmp_path: Path, command: str | list[str], code: int, output: str
) -> None:
    log = tmp_path / "logs" / "run.log"
    run = run_in_group(command, cwd=tmp_path, timeout=30, log_path=log)
    assert (run.exit_code, run.timed_out) == (code, False)
    assert log.read_text() == output


@pytest.mark.parametrize("grace", [0, 0.2], ids=["kill-at-once", "term-then-kill"])
def test_timeout_stops_the_whole_group(tmp_path: Path, grace: float) -> None:
    # The leader ignores SIGTERM, so only the SIGKILL that follows the grace can end it.
    argv = spawner(tmp_path, ignore_term=True, then="time.sleep(60)")
    run = run_in_group(argv, cwd=tmp_path, timeout=2, log_path=tmp_path / "log", grace=grace)
    assert (run.exit_code, run.timed_out) == (None, True)
    assert "started" in (tmp_path / "log").read_text()
    assert gone(int((tmp_path / "child.pid").read_text()))


def test_stop_reaches_members_left_after_the_leader_exited(tmp_path: Path) -> None:
    argv = spawner(tmp_path, ignore_term=False, then="sys.exit(0)")
    with (tmp_path / "log").open("wb") as log:
        process = start_in_group(argv, cwd=tmp_path, log=log)
    assert process.wait(timeout=30) == 0
    grandchild = int((tmp_path / "child.pid").read_text())
    assert alive(grandchild)
    stop_group(process, grace=0)
    assert gone(grandchild)


def test_a_command_that_cannot_start_raises_oserror(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        run_in_group(["no-such-program-xyz"], cwd=tmp_path, timeout=5, log_path=tmp_path / "l")


def test_stop_group_on_a_finished_process_returns(tmp_path: Path) -> None:
    process = start_in_group("true", cwd=tmp_path, log=subprocess.DEVNULL)
    process.wait(timeout=30)
    stop_group(process)
    assert process.returncode == 0


def test_read_tail_reads_only_the_end(tmp_path: Path) -> None:
    log = tmp_path / "log"
    log.write_bytes(b"a" * 100 + b"STATUS: DONE\n")
    assert read_tail(log, max_bytes=13) == "STATUS: DONE\n"
    assert read_tail(log) == "a" * 100 + "STATUS: DONE\n"
    assert read_tail(tmp_path / "missing") == ""


@pytest.mark.parametrize(
    ("output", "kwargs", "expected"),
    [
        ("line one\n  line two\n", {}, "line one line two"),
        (b"bytes\xff out", {}, "bytes\ufffd out"),
        ("x" * 10 + "tail", {"max_chars": 4}, "tail"),
        ("  \n", {}, "(no output)"),
        (b"", {"empty": "(no stderr)"}, "(no stderr)"),
    ],
)
def test_one_line(output: str | bytes, kwargs: dict, expected: str) -> None:
    assert one_line(output, **kwargs) == expected


def test_an_interrupt_while_it_runs_ends_the_whole_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C reaches Argus only (the group has a session of its own): Argus ends the group,
    so a Lighthouse, a gate command or an implementer never outlives an interrupted run."""
    argv = spawner(tmp_path, ignore_term=True, then="time.sleep(60)")
    pid_file = tmp_path / "child.pid"
    real_wait = subprocess.Popen.wait
    interrupted: list[int] = []

    def wait(self: subprocess.Popen[bytes], timeout: float | None = None) -> int:
        if not interrupted:
            interrupted.append(self.pid)
            for _ in range(300):  # until the grandchild is up (a bound, not a measurement)
                if pid_file.is_file() and pid_file.read_text():
                    break
                time.sleep(0.05)
            raise KeyboardInterrupt
        return real_wait(self, timeout)

    monkeypatch.setattr(subprocess.Popen, "wait", wait)
    with pytest.raises(KeyboardInterrupt):
        run_in_group(argv, cwd=tmp_path, timeout=60, log_path=tmp_path / "log")
    assert gone(interrupted[0]) and gone(int(pid_file.read_text()))
