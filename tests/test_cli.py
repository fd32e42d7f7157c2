from __future__ import annotations

from argus import __version__
from tests.conftest import RunArgus


def test_version_prints_package_version(run_argus: RunArgus) -> None:
    result = run_argus("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"argus {__version__}"
    assert __version__ != "0.0.0"


def test_no_command_prints_usage_and_exits_2(run_argus: RunArgus) -> None:
    result = run_argus()
    assert result.returncode == 2
    assert "usage: argus" in result.stderr
