"""For the test run's child processes only (tests/conftest.py puts this folder on their
PYTHONPATH): Argus writes a person's state to the account's own ~/.local/state/argus whatever
the environment says, by design, so a ``python -m argus`` the tests start would write into the
real one. Here the account's place is the test's own folder, named by
ARGUS_TEST_ACCOUNT_STATE. The product has no such switch: an agent could use it to hide a run.
"""

import os
from pathlib import Path

_ACCOUNT = os.environ.get("ARGUS_TEST_ACCOUNT_STATE")
if _ACCOUNT:
    try:
        import argus.state_home as _state_home
    except ImportError:  # a child that is not Python with argus on its path
        pass
    else:
        _state_home.account_home = lambda: Path(_ACCOUNT)
