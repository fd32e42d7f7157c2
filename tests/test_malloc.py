"""A many-pairs process keeps freed memory for reuse (argus._malloc): a repeated dense
comparison faults in few new pages, where glibc's defaults map fresh ones each time."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

from argus import _malloc

glibc = pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
    reason="glibc's mallopt",
)

# One dense comparison (the bench's light page against its dark one) three times; prints the
# page faults of the third.
ROUNDS = """
import resource, sys
from argus._malloc import keep_freed_memory
if sys.argv[1] == "keep":
    assert keep_freed_memory()
from argus.diff import compare
from bench.images import dense_pair
pair = dense_pair(1440, 900)
compare(pair.a, pair.b)
compare(pair.a, pair.b)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
compare(pair.a, pair.b)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _faults(mode: str) -> int:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run(
        [sys.executable, "-c", ROUNDS, mode], capture_output=True, text=True, env=env, check=True
    )
    return int(out.stdout.split()[-1])


@glibc
def test_freed_blocks_are_reused_instead_of_mapped_again() -> None:
    default, kept = _faults("default"), _faults("keep")
    # glibc's defaults: about 12,000 new pages of 4 KiB a comparison; kept: a few dozen.
    assert kept * 4 < default


def test_nothing_is_changed_off_linux(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_malloc.sys, "platform", "darwin")
    assert _malloc.keep_freed_memory() is False


def test_a_c_library_without_mallopt_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    class NoMallopt:
        def __init__(self, name: object) -> None:
            pass

    monkeypatch.setattr(_malloc.sys, "platform", "linux")
    monkeypatch.setattr(_malloc.ctypes, "CDLL", NoMallopt)
    assert _malloc.keep_freed_memory() is False
