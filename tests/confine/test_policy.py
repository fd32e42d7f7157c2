"""The allow-list each backend applies, and which backend this machine gets, said loudly."""

from __future__ import annotations

import itertools
import shutil
import tempfile
from pathlib import Path

import pytest

from argus.confine import (
    BUBBLEWRAP,
    HASH_CHECKED,
    LANDLOCK,
    Policy,
    contain,
    detect,
    workspace,
)
from argus.confine import _bwrap as bwrap
from argus.confine import detection as detect_module
from argus.confine._landlock import allow_list


def test_landlock_allows_writes_beneath_the_workspace_but_what_is_protected(
    tmp_path: Path,
) -> None:
    for rel in ("repo/spec/s.json", "repo/app/a.js", "repo/app/fixtures/f.json", "repo/top.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    (tmp_path / "repo" / "link").symlink_to(tmp_path / "repo" / "spec")
    (tmp_path / "elsewhere").mkdir()
    repo = tmp_path / "repo"
    rules = allow_list([str(repo)], [str(repo / "spec"), str(repo / "app" / "fixtures" / "f.json")])
    dirs, files = set(rules.dirs), set(rules.files)
    assert str(repo / "app" / "fixtures") not in dirs  # it holds a denied file: entered
    assert str(repo / "spec") not in dirs | files and str(repo / "link") not in dirs | files
    assert str(repo) not in dirs and str(repo / "app") not in dirs  # hold denied paths
    assert str(repo / "top.txt") in files and str(repo / "app" / "a.js") in files
    assert not any(p.startswith(str(repo / "spec")) for p in dirs | files)
    # An allow-list: nothing outside the workspace, not the folder beside it, not /tmp or /usr.
    assert all(p.startswith(str(repo)) or p.startswith("/dev/") for p in dirs | files)
    assert "/dev/null" in files


def test_bubblewrap_binds_the_workspace_writable_and_its_protected_set_read_only(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    (repo / "argus" / "specs").mkdir(parents=True)
    (repo / "argus.toml").write_text("")
    script = tmp_path / "tools" / "lint.sh"
    script.parent.mkdir()
    script.write_text("true\n")
    argv = bwrap.argv(workspace("gate", repo), repo, ["/bin/sh", "-c", f"sh {script}"])
    pairs = [tuple(argv[i : i + 3]) for i in range(len(argv) - 2)]
    for flag in ("--unshare-user", "--unshare-pid", "--die-with-parent", "--new-session"):
        assert flag in argv
    assert argv[argv.index("--cap-drop") + 1] == "ALL"
    assert ("--ro-bind", "/", "/") in pairs and ("--tmpfs", "/tmp") in itertools.pairwise(argv)
    writable = pairs.index(("--bind", str(repo), str(repo)))
    for protected in (repo / ".argus", repo / "argus", repo / "argus.toml"):
        # bound read-only after (so on top of) the writable workspace
        assert pairs.index(("--ro-bind", str(protected), str(protected))) > writable
    # The script it names lies in the host's /tmp, hidden by the private one: shown read-only.
    assert ("--ro-bind", str(script.parent), str(script.parent)) in pairs
    assert argv[-4:] == ["--", "/bin/sh", "-c", f"sh {script}"]


def test_a_read_only_policy_writes_nowhere_but_its_own_folder(tmp_path: Path) -> None:
    argv = bwrap.argv(Policy("grader", (tmp_path,)), tmp_path, ["grade"])
    assert [argv[i + 1] for i, word in enumerate(argv) if word == "--bind"] == [str(tmp_path)]


def test_detection_prefers_bubblewrap_then_landlock_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("ARGUS_SANDBOX", raising=False)
    monkeypatch.setattr(bwrap, "problem", lambda: "")
    assert (detect().protection, detect().containment) == (BUBBLEWRAP, "pid namespace")
    monkeypatch.setattr(bwrap, "problem", lambda: "bwrap is not installed")
    monkeypatch.setattr(detect_module, "abi_version", lambda: 4)
    monkeypatch.setattr(contain, "available", lambda: True)
    fallback = detect()
    assert (fallback.protection, fallback.abi, fallback.containment) == (LANDLOCK, 4, "cgroup")
    assert fallback.why_not == "bwrap is not installed"
    monkeypatch.setattr(contain, "available", lambda: False)
    assert detect().containment == "sweep"  # said: a fast chain can outrun the sweep
    monkeypatch.setattr(detect_module, "abi_version", lambda: 0)
    none = detect()
    assert none.protection == HASH_CHECKED and not none.active and none.containment == "sweep"
    assert none.why_not == "bwrap is not installed; this kernel offers no Landlock"
    monkeypatch.setenv("ARGUS_SANDBOX", "landlock")
    monkeypatch.setattr(detect_module, "abi_version", lambda: 3)
    assert detect().protection == LANDLOCK  # bubblewrap skipped on request


def test_a_file_right_in_tmp_is_shown_alone_and_a_virtualenv_whole(tmp_path: Path) -> None:
    """What the command and its environment name in the host's /tmp is bound back, read-only,
    folders shallower first; a script right in /tmp alone, never the whole of /tmp; a
    virtualenv's bin folder on PATH with its virtualenv."""
    folder = Path(tempfile.mkdtemp(prefix="argus-named-", dir="/tmp"))
    try:
        script = folder.with_suffix(".sh")
        script.write_text("true\n")
        (folder / "venv" / "bin").mkdir(parents=True)
        (folder / "venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
        (folder / "home").mkdir()
        env = {
            "PATH": f"{folder / 'venv' / 'bin'}:/usr/bin",
            "PYTHONPATH": str(folder),
            "HOME": str(folder / "home"),
        }
        argv = bwrap.argv(Policy("grader", (tmp_path,)), tmp_path, ["sh", str(script)], env)
        shown = [argv[i + 2] for i, word in enumerate(argv) if word == "--ro-bind"][1:]
        wanted = {str(folder), str(script), str(folder / "venv"), str(folder / "home")}
        assert wanted <= set(shown), shown
        assert str(folder / "venv" / "bin") not in shown and "/tmp" not in shown
        depths = [len(Path(path).parts) for path in shown]
        assert depths == sorted(depths)
    finally:
        script.unlink(missing_ok=True)
        shutil.rmtree(folder, ignore_errors=True)
