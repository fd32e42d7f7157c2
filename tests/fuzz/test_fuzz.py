"""Property: whatever bytes a file Argus reads holds, the command ends with a documented exit
code, and a refusal (exit 2) is one line on stderr: never a traceback, never a hang."""

from __future__ import annotations

import shutil
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.conftest import FUZZ_SETTINGS, HANG_SECONDS, TALLY
from tests.fuzz.targets import TARGETS, Outcome, Target, Workdir, run_cli


class Hang(BaseException):
    """An input took longer than the watchdog allows."""


@contextmanager
def watchdog(seconds: int) -> Iterator[None]:
    if seconds <= 0:
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"no answer after {seconds}s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def feed(target: Target, work: Workdir, key: str, blob: bytes) -> Outcome:
    work.restore()
    for name in target.cleanup:
        shutil.rmtree(work.root / name, ignore_errors=True)
    packet = work.root / "packet-pristine"
    if packet.is_dir():  # a checked answer is recorded in the packet: start from a fresh one
        shutil.rmtree(work.root / "packet", ignore_errors=True)
        shutil.copytree(packet, work.root / "packet")
    stdin = None
    if target.stdin:
        stdin = blob.decode("utf-8", "replace")
    else:
        work.files[key].write_bytes(blob)
    if target.after_input is not None:
        target.after_input(work)
    with watchdog(HANG_SECONDS):
        return run_cli(target.argv(work), work.root, stdin)


@pytest.mark.parametrize("target", TARGETS, ids=[t.name for t in TARGETS])
def test_no_input_gives_a_traceback_or_an_undocumented_exit(target: Target, tmp_path: Path) -> None:
    work = target.prepare(tmp_path / "work")
    seed_outcome = feed(target, work, *_first_seed(work))
    # The seed is a valid input (the mutations start from something the command accepts).
    assert seed_outcome.code in target.codes - {2}, seed_outcome.stderr

    @FUZZ_SETTINGS
    @given(data=st.data())
    def property_(data: st.DataObject) -> None:
        key, blob = data.draw(target.inputs(work), label="input")
        outcome = feed(target, work, key, blob)
        TALLY[(target.name, outcome.code)] += 1
        assert outcome.code in target.codes, (outcome.code, outcome.stderr[-2000:])
        if outcome.code == 2:
            lines = outcome.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("argus: "), outcome.stderr[-2000:]
        assert "Traceback" not in outcome.stderr

    property_()


def _first_seed(work: Workdir) -> tuple[str, bytes]:
    key = next(iter(work.seeds))
    return key, work.seeds[key]
