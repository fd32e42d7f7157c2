"""argus.closing.Closing: ``with`` closes the resource, also when the block raises."""

from __future__ import annotations

import pytest

from argus.closing import Closing


class Resource(Closing):
    def __init__(self) -> None:
        self.closed = 0

    def close(self) -> None:
        self.closed += 1


def test_with_returns_the_resource_and_closes_it_once() -> None:
    resource = Resource()
    with resource as entered:
        assert entered is resource and resource.closed == 0
    assert resource.closed == 1


def test_closes_when_the_block_raises_and_lets_the_error_through() -> None:
    resource = Resource()
    with pytest.raises(KeyError), resource:
        raise KeyError("x")
    assert resource.closed == 1
