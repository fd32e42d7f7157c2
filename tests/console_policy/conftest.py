"""The metric judge's packet fixtures, shared."""

from tests.judge.conftest import habits_root, make_packet

__all__ = ["habits_root", "make_packet"]
