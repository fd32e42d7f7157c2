"""A process that says what it was started with, for tests/loop/test_warm_runner.py:

    python -m tests.support.warm_probe [exit N | kill | raise | message | sleep | read]

prints one JSON line (argv, working directory, environment, sys.path, its descriptors, the
account's state home, the temporary directory, random numbers, its pid and its parent's),
then exits as told (``read``: prints what its stdin held as a second JSON line).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import tempfile
import time

import numpy.random

import argus.state_home


def main() -> None:
    surroundings = {
        "argv": sys.argv,
        "orig_argv": sys.orig_argv,
        "cwd": os.getcwd(),
        "env": dict(os.environ),
        "path": sys.path,
        "name": __name__,
        "fds": sorted(os.listdir("/proc/self/fd")),
        "stdin": os.path.samestat(os.fstat(0), os.stat(os.devnull)),
        "account_home": str(argus.state_home.account_home()),
        "tempdir": tempfile.gettempdir(),
        "random": random.random(),
        "numpy_random": float(numpy.random.random()),
        "pid": os.getpid(),
        "ppid": os.getppid(),
    }
    print(json.dumps(surroundings), flush=True)
    print("to stderr", file=sys.stderr)
    what = sys.argv[1:2]
    if what == ["exit"]:
        sys.exit(int(sys.argv[2]))
    if what == ["kill"]:
        os.kill(os.getpid(), signal.SIGKILL)
    if what == ["raise"]:
        raise ValueError("raised by the probe")
    if what == ["message"]:
        sys.exit("exited with a message")
    if what == ["sleep"]:
        time.sleep(60)
    if what == ["read"]:
        print(json.dumps(sys.stdin.read()))


if __name__ == "__main__":
    main()
