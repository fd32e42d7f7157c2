"""Fixtures shared by every test package."""

from __future__ import annotations

import functools
import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.cli import run_as_process, run_in_process

# Shared fixtures (serve, warm_sensor): see tests/support/fixtures.py. The scheduling of one
# xdist session for the whole suite (make test): tests/support/xdist_groups.py.
pytest_plugins = ("tests.support.fixtures", "tests.support.xdist_groups", "pytester")

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT.parent / "shared"
CHILD_SITE = Path(__file__).resolve().parent / "support" / "child_site"

RunArgus = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(autouse=True)
def _private_state_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Argus's per-user state (the registry of open contract runs, pins, the person key) in a
    test's own directories, never the real ~/.local/state: the chosen state home and, for
    in-process calls, the account's own one; for the Python processes a test starts, the same
    through tests/support/child_site/sitecustomize.py on their PYTHONPATH)."""
    monkeypatch.setenv("ARGUS_STATE_HOME", str(tmp_path_factory.mktemp("argus-state")))
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    account = tmp_path_factory.mktemp("argus-account-state")
    monkeypatch.setattr("argus.state_home.account_home", lambda: account)
    monkeypatch.setenv("ARGUS_TEST_ACCOUNT_STATE", str(account))
    rest = os.environ.get("PYTHONPATH", "")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(CHILD_SITE), rest])))


PERSON_PASSPHRASE = "the person's own passphrase"


@functools.cache
def _person_key_record() -> str:
    """One person key for the whole session (scrypt is slow on purpose)."""
    import hashlib

    from argus.person import SCRYPT

    salt = bytes(16)
    digest = hashlib.scrypt(PERSON_PASSPHRASE.encode(), salt=salt, dklen=32, **SCRYPT)
    return json.dumps({**SCRYPT, "salt": salt.hex(), "scrypt": digest.hex()})


@pytest.fixture(autouse=True)
def _a_person_at_hand(_private_state_home: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests act as the person by default: a person key in the test's state home and its
    passphrase in ARGUS_PERSON_KEY (what a person's own shell may hold). The tests of who
    counts as a person (tests/contract/test_person.py) clear it."""
    home = Path(os.environ["ARGUS_STATE_HOME"])
    (home / "person-key.json").write_text(_person_key_record())
    monkeypatch.setenv("ARGUS_PERSON_KEY", PERSON_PASSPHRASE)
    monkeypatch.delenv("ARGUS_CONFINED", raising=False)


@pytest.fixture(autouse=True)
def _not_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests behave the same on a laptop and in CI: the CI variable (which makes a missing
    snapshot baseline a failure, as in Playwright) is cleared, and the tests of CI mode set it
    themselves."""
    monkeypatch.delenv("CI", raising=False)


@pytest.fixture
def run_argus(request: pytest.FixtureRequest) -> RunArgus:
    """Run the real CLI: run_argus("lint", "x.json", cwd=tmp_path). In this process
    (tests/support/cli.py), browser tests included, unless the test is marked ``process``: then
    as a new ``python -m argus`` process."""
    as_process = request.node.get_closest_marker("process") is not None

    def run(
        *args: str,
        cwd: Path | None = None,
        env: dict[str, str] | None = None,
        timeout: float = 300,
        stdin: bytes = b"",
    ) -> subprocess.CompletedProcess[str]:
        if as_process:
            return run_as_process(args, cwd, env, timeout, stdin)
        return run_in_process(args, cwd, env, stdin)

    return run


@pytest.fixture(autouse=True)
def _hash_checked_implementers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loop tests run their implementers hash-checked only by default (their fake implementers
    write where a sandbox would refuse them); tests/loop/test_forgery.py and test_sandbox.py
    run the sandboxed path explicitly (argus.confine)."""
    monkeypatch.setenv("ARGUS_SANDBOX", "off")
