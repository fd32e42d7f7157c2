"""Keep freed memory for reuse in a process that compares many images (glibc's malloc).

glibc serves an allocation over its mmap threshold (128 KiB at first, raised as large blocks
are freed, to 32 MiB at most) with fresh pages from the kernel and unmaps them on free, and
it trims the heap's free top above a trim threshold. A 1440x900 comparison makes numpy
temporaries of 1 to 10 MB each, so every dense pair of ``argus diff --pairs`` faulted in about
37 MB of new pages: about a fifth of the process's CPU time, spent in the system. With the
mmap threshold at its ceiling and the trim threshold above it, freed blocks stay in the heap
and the next pair reuses them. The cost is memory held between pairs (up to the largest
pair's working set), which a many-pairs process holds anyway at its peak.

Only where glibc's ``mallopt`` exists (Linux); elsewhere nothing is changed.
"""

from __future__ import annotations

import ctypes
import sys

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 * 1024 * 1024  # glibc's ceiling on 64-bit systems
TRIM_THRESHOLD = 256 * 1024 * 1024


def keep_freed_memory() -> bool:
    """Raise malloc's mmap and trim thresholds; whether the C library took both."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # no C library to load, or one without mallopt
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    # mallopt returns 1 on success, 0 on error (musl's stub always returns 0).
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    )
