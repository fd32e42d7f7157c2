"""Shared inputs for the gate tests: the Habits tokens."""

from __future__ import annotations

import pytest

from argus.tokens import Tokens, load_tokens
from tests.support.habits import HABITS_DIR

HABITS_TOKENS = HABITS_DIR / "argus" / "specs" / "habits" / "tokens.json"


@pytest.fixture(scope="session")
def tokens() -> Tokens:
    return load_tokens(HABITS_TOKENS)
