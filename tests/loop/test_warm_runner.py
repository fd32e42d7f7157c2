"""The warm runner (tests/support/warm_runner.py) that forks the loop's drives: each run is a
process started as ``subprocess.run`` would start a new interpreter (argv, working directory,
environment, descriptors, standard streams) and ends with subprocess's return code."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO_ROOT
from tests.support.warm_runner import run_module, shutdown

PROBE = [sys.executable, "-m", "tests.support.warm_probe"]
DIFFERS_PER_PROCESS = ("random", "numpy_random", "pid", "ppid", "stdin")


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The test's environment, a temporary directory of its own and ``extra``."""
    (tmp_path / "tmp").mkdir(parents=True, exist_ok=True)
    return {**os.environ, "TMPDIR": str(tmp_path / "tmp"), **extra}


def _surroundings(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(proc.stdout.splitlines()[0])
    return found


def _fresh(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=False
    )


def test_a_warm_run_is_started_as_a_new_interpreter(tmp_path: Path) -> None:
    env = _env(tmp_path, WARM_PROBE="this run's own")
    for name in ("LANG", "LC_ALL", "LC_CTYPE"):  # the interpreter's start-up sets LC_CTYPE
        env.pop(name, None)
    args = [*PROBE, "exit", "3"]
    warm = run_module(args, cwd=REPO_ROOT, env=env, timeout=60)
    fresh = _fresh(args, REPO_ROOT, env)
    assert warm.args == args
    assert (warm.returncode, warm.stderr) == (fresh.returncode, fresh.stderr) == (3, "to stderr\n")
    ours, theirs = _surroundings(warm), _surroundings(fresh)
    assert ours["stdin"] is True  # /dev/null
    for varies in DIFFERS_PER_PROCESS:
        del ours[varies], theirs[varies]
    assert ours == theirs
    assert ours["env"]["WARM_PROBE"] == "this run's own"
    assert ours["env"]["LC_CTYPE"] == "C.UTF-8"
    assert ours["tempdir"] == str(tmp_path / "tmp")
    assert ours["fds"] == ["0", "1", "2", "3"]  # 3: the listing's own


def test_return_codes_are_subprocess_s(tmp_path: Path) -> None:
    env = _env(tmp_path)
    runs = {
        tuple(how): run_module([*PROBE, *how], cwd=REPO_ROOT, env=env, timeout=60)
        for how in ([], ["exit", "3"], ["kill"], ["raise"], ["message"])
    }
    codes = {how: run.returncode for how, run in runs.items()}
    assert codes == {
        (): 0,
        ("exit", "3"): 3,
        ("kill",): -signal.SIGKILL,
        ("raise",): 1,
        ("message",): 1,
    }
    assert runs[("kill",)].stdout.endswith("\n") and runs[("kill",)].stderr == "to stderr\n"
    assert runs[("message",)].stderr == "to stderr\nexited with a message\n"
    raised = runs[("raise",)].stderr.splitlines()  # above it, the server's frames
    assert raised[0] == "to stderr" and raised[1] == "Traceback (most recent call last):"
    assert raised[-1] == "ValueError: raised by the probe"


def test_each_run_has_its_own_environment_and_nothing_else(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    account = {"ARGUS_TEST_ACCOUNT_STATE": str(first)}
    one = _surroundings(run_module(PROBE, cwd=REPO_ROOT, env=_env(first, **account), timeout=60))
    env = {k: v for k, v in _env(second).items() if k != "ARGUS_TEST_ACCOUNT_STATE"}
    env["ONLY_THE_SECOND"] = "yes"
    two = _surroundings(run_module(PROBE, cwd=REPO_ROOT, env=env, timeout=60))
    assert one["account_home"] == str(first)  # the tests' sitecustomize, with the run's env
    assert two["account_home"] != str(first)  # not kept from the first run
    assert "ARGUS_TEST_ACCOUNT_STATE" not in two["env"] and "ONLY_THE_SECOND" not in one["env"]
    assert two["env"] == {**env, **{k: v for k, v in two["env"].items() if k not in env}}
    assert set(two["env"]) - set(env) <= {"LC_CTYPE"}  # what the interpreter's start-up adds
    assert (one["tempdir"], two["tempdir"]) == (str(first / "tmp"), str(second / "tmp"))
    assert one["random"] != two["random"]  # seeded again in each child
    assert one["numpy_random"] != two["numpy_random"]
    assert one["pid"] != two["pid"]
    assert one["ppid"] == two["ppid"] != os.getpid()  # one warm server, not this process


def test_the_working_directory_is_the_run_s(tmp_path: Path) -> None:
    pythonpath = os.pathsep.join([str(REPO_ROOT), os.environ.get("PYTHONPATH", "")])
    env = _env(tmp_path, PYTHONPATH=pythonpath)
    warm = _surroundings(run_module(PROBE, cwd=tmp_path, env=env, timeout=60))
    fresh = _surroundings(_fresh(PROBE, tmp_path, env))
    assert warm["cwd"] == str(tmp_path) == warm["path"][0]
    assert warm["path"] == fresh["path"]


def test_a_timeout_kills_the_run_and_raises_as_subprocess_does(tmp_path: Path) -> None:
    env = _env(tmp_path)
    started = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired) as expired:
        run_module([*PROBE, "sleep"], cwd=REPO_ROOT, env=env, timeout=1)
    assert time.monotonic() - started < 30  # killed, not waited for (it sleeps 60 s)
    assert expired.value.timeout == 1
    pid = json.loads(str(expired.value.stdout).splitlines()[0])["pid"]
    assert not Path(f"/proc/{pid}").exists()  # killed and reaped
    after = run_module([*PROBE, "exit", "4"], cwd=REPO_ROOT, env=env, timeout=60)
    assert after.returncode == 4  # the server goes on


def test_a_module_that_reads_the_environment_as_it_imports_is_refused(tmp_path: Path) -> None:
    (tmp_path / "reads_at_import.py").write_text(
        "import os\nCHOSEN = os.environ.get('WARM_CHOICE')\n"
    )
    (tmp_path / "opens_at_import.py").write_text("import holds_a_file\n")
    (tmp_path / "holds_a_file.py").write_text("LOG = open(__file__)\n")
    (tmp_path / "starts_a_thread.py").write_text(
        "import threading, time\n"
        "threading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n"
    )
    env = _env(tmp_path, PYTHONPATH=str(REPO_ROOT))
    with pytest.raises(RuntimeError, match="read WARM_CHOICE from the environment"):
        run_module([sys.executable, "-m", "reads_at_import"], cwd=tmp_path, env=env, timeout=60)
    with pytest.raises(RuntimeError, match="left descriptors"):
        run_module([sys.executable, "-m", "opens_at_import"], cwd=tmp_path, env=env, timeout=60)
    with pytest.raises(RuntimeError, match="and 2 threads"):
        run_module([sys.executable, "-m", "starts_a_thread"], cwd=tmp_path, env=env, timeout=60)


def test_shutdown_ends_the_servers(tmp_path: Path) -> None:
    server = _surroundings(run_module(PROBE, cwd=REPO_ROOT, env=_env(tmp_path), timeout=60))["ppid"]
    assert Path(f"/proc/{server}").exists()
    shutdown()
    assert not Path(f"/proc/{server}").exists()  # ended and reaped
    again = _surroundings(run_module(PROBE, cwd=REPO_ROOT, env=_env(tmp_path), timeout=60))
    assert again["ppid"] != server  # a new one, started when needed


def test_input_reaches_the_run_s_stdin_as_subprocess_gives_it(tmp_path: Path) -> None:
    env = _env(tmp_path)
    args = [*PROBE, "read"]
    text = "first line\nsecond, é\n" + "x" * 200_000  # more than a pipe holds
    warm = run_module(args, cwd=REPO_ROOT, env=env, timeout=60, input=text)
    fresh = subprocess.run(
        args, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=60, input=text
    )
    assert warm.returncode == fresh.returncode == 0
    assert json.loads(warm.stdout.splitlines()[1]) == json.loads(fresh.stdout.splitlines()[1])
    assert json.loads(warm.stdout.splitlines()[1]) == text
    assert _surroundings(warm)["stdin"] is False  # a pipe, not /dev/null
    empty = run_module(args, cwd=REPO_ROOT, env=env, timeout=60, input="")
    assert json.loads(empty.stdout.splitlines()[1]) == ""
    assert _surroundings(empty)["stdin"] is False
    unread = run_module([*PROBE, "exit", "5"], cwd=REPO_ROOT, env=env, timeout=60, input=text)
    assert unread.returncode == 5  # a child that never reads its stdin does not hold the run up


def test_a_preloading_server_serves_every_working_directory(tmp_path: Path) -> None:
    pythonpath = os.pathsep.join([str(REPO_ROOT), os.environ.get("PYTHONPATH", "")])
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir(), two.mkdir()
    env = _env(tmp_path, PYTHONPATH=pythonpath)
    preload = ("argus.diff",)
    runs = [
        _surroundings(run_module(PROBE, cwd=cwd, env=env, timeout=60, preload=preload))
        for cwd in (one, two)
    ]
    fresh = _surroundings(_fresh(PROBE, two, env))
    assert runs[0]["ppid"] == runs[1]["ppid"] != os.getpid()  # one server for both
    assert [run["cwd"] for run in runs] == [str(one), str(two)]
    assert runs[1]["path"] == fresh["path"]
    assert (runs[1]["argv"], runs[1]["orig_argv"]) == (fresh["argv"], fresh["orig_argv"])
    (two / "numpy").mkdir()  # a directory without __init__.py is no package: numpy still wins
    run_module(PROBE, cwd=two, env=env, timeout=60, preload=preload)
    (two / "numpy" / "__init__.py").write_text("")
    with pytest.raises(RuntimeError, match="holds numpy, which a new interpreter"):
        run_module(PROBE, cwd=two, env=env, timeout=60, preload=preload)
    (one / "json.py").write_text("")
    with pytest.raises(RuntimeError, match="holds json"):
        run_module(PROBE, cwd=one, env=env, timeout=60, preload=preload)
