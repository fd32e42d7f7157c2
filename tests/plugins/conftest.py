from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.gates.conftest import habits_inputs
from tests.plugins.fakedist import forget_plugins

__all__ = ["habits_inputs"]  # the gate tests' fixture, shared


@pytest.fixture(autouse=True)
def _fresh_registries() -> Iterator[None]:
    """Each test sees only the plug-ins installed for it (and after it, the real ones)."""
    forget_plugins()
    yield
    forget_plugins()
