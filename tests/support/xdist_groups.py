"""One xdist session for the whole suite (``make test``: ``pytest -n auto --dist loadgroup``).

Every browser test is marked ``xdist_group`` with its module's path, so each browser module runs
on one worker (its served app and warm sensor start once there, as ``--dist loadfile`` did for
the browser group alone). Under ``--dist loadgroup`` the grouped tests are queued before all
others, and every other test is scheduled on its own, so the short non-browser tests keep both
workers busy until the end of the run.

Why not xdist's own loadgroup scheduler: in pytest-xdist 3.8.0 a worker tells the controller a
test's group by appending ``@group`` to the test's node id, through ``item._nodeid``. pytest 9.2
keeps node ids in a structured ``item._id`` and no longer reads ``_nodeid``, so the suffix is
lost and every grouped test is scheduled alone (pytest-xdist issue 1386, still open). Here each
worker writes the groups of its own collection to a file in a folder the controller chose
(passed in ``workerinput``), before it reports its collection. The controller's scheduler is
xdist's LoadScopeScheduling (the base of its loadgroup scheduler), and it takes each test's
scope from that file. Only public xdist hooks are used (``pytest_configure_node``,
``pytest_xdist_make_scheduler``), and node ids are not changed.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from xdist.workermanage import WorkerController

_KEY = "argus_xdist_groups"
_FOLDER = pytest.StashKey[Path]()


def group_of(item: pytest.Item) -> str | None:
    """The item's ``xdist_group`` name, as xdist names it (several marks: names sorted, joined
    with ``_``), or None."""
    names = {
        str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
        for mark in item.iter_markers("xdist_group")
    }
    return "_".join(sorted(names)) or None


def _loadgroup(config: pytest.Config) -> bool:
    return bool(config.getoption("dist", None) == "loadgroup")


def _folder_on_worker(config: pytest.Config) -> Path | None:
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    if workerinput is None or _KEY not in workerinput:
        return None
    return Path(workerinput[_KEY])


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("browser") and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.partition("::")[0]))
    if _folder_on_worker(config) is not None:
        # The grouped tests first, in collection order; the scheduler keeps this order when
        # xdist's reordering by group size is off (--no-loadscope-reorder).
        items.sort(key=lambda item: group_of(item) is None)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """On a worker under ``--dist loadgroup``: write the groups before xdist's own hook sends the
    collection (node ids as sent, after every other hook that may change them)."""
    folder = _folder_on_worker(session.config)
    if folder is None:
        return
    groups = {item.nodeid: group for item in session.items if (group := group_of(item))}
    worker = session.config.workerinput["workerid"]  # type: ignore[attr-defined]
    partial = folder / f"{worker}.json.part"
    partial.write_text(json.dumps(groups), "utf-8")
    os.replace(partial, folder / f"{worker}.json")


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: WorkerController) -> None:
    config = node.config
    if not _loadgroup(config):
        return
    if _FOLDER not in config.stash:
        config.stash[_FOLDER] = Path(tempfile.mkdtemp(prefix="argus-xdist-groups-"))
    node.workerinput[_KEY] = str(config.stash[_FOLDER])


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if not _loadgroup(config) or _FOLDER not in config.stash:
        return None
    from xdist.scheduler import LoadScopeScheduling

    folder = config.stash[_FOLDER]

    class GroupsFromWorkers(LoadScopeScheduling):  # type: ignore[misc]
        """loadgroup's scheduling, each test's group read from the workers' files."""

        groups: dict[str, str] | None = None

        def _split_scope(self, nodeid: str) -> str:
            # Called once every worker has reported its collection, so its file is written.
            if self.groups is None:
                self.groups = {}
                for path in sorted(folder.glob("*.json")):
                    self.groups.update(json.loads(path.read_text("utf-8")))
            return self.groups.get(nodeid, nodeid)

    return GroupsFromWorkers(config, log)


def pytest_unconfigure(config: pytest.Config) -> None:
    if _FOLDER in config.stash:
        shutil.rmtree(config.stash[_FOLDER], ignore_errors=True)
