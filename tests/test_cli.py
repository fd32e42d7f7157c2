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


def test_help_lists_every_command(run_argus: RunArgus) -> None:
    from argus.cli import COMMANDS

    result = run_argus("--help")
    assert result.returncode == 0
    for name in COMMANDS:
        assert name in result.stdout


def test_a_command_runs_with_only_its_own_module_imported() -> None:
    import subprocess
    import sys

    # Importing every command would pull numpy and Playwright into `argus schema`.
    code = (
        "import sys; from argus.cli import main; main(['schema', 'rubric']); "
        "print('numpy' in sys.modules, 'playwright' in sys.modules, file=sys.stderr)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0
    assert result.stderr.strip().splitlines()[-1] == "False False"
