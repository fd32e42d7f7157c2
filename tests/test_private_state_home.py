"""The test run keeps Argus's per-user state out of the real ~/.local/state/argus, in this
process and in the Python processes it starts (tests/conftest.py)."""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
from pathlib import Path

from tests.support.cli import code_under_test

ASK = (
    "from argus.state_home import account_home, state_homes\n"
    "print(account_home())\n"
    "print(*state_homes())"
)


def _real_account_place() -> Path:
    return Path(pwd.getpwuid(os.getuid()).pw_dir) / ".local" / "state" / "argus"


def test_this_process_writes_per_user_state_into_the_tests_folders() -> None:
    from argus.state_home import account_home, state_homes

    assert account_home() == Path(os.environ["ARGUS_TEST_ACCOUNT_STATE"])
    assert _real_account_place() not in state_homes()


def test_a_python_process_the_tests_start_does_the_same() -> None:
    done = subprocess.run(
        [sys.executable, "-c", ASK],
        env=code_under_test(os.environ),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    account, homes = done.stdout.splitlines()
    assert Path(account) == Path(os.environ["ARGUS_TEST_ACCOUNT_STATE"])
    assert str(_real_account_place()) not in homes.split()
    assert Path(os.environ["ARGUS_STATE_HOME"]) == Path(homes.split()[0])


def test_without_the_tests_variable_a_process_keeps_the_accounts_own_place() -> None:
    # The switch is the tests' own sitecustomize, not the product's: without the variable the
    # account's place is the real one, whatever else the environment says.
    env = {k: v for k, v in code_under_test(os.environ).items() if k != "ARGUS_TEST_ACCOUNT_STATE"}
    done = subprocess.run(
        [sys.executable, "-c", ASK],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert Path(done.stdout.splitlines()[0]) == _real_account_place()
