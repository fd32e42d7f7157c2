"""``--argus-shard i/n`` for a pytest run: this machine runs its share of the collected tests.

The split is the one ``argus sense/gates/loop --shard`` use (argus.shard.split), keyed by each
test's node id: every machine computes it alone and the same way. With ``--argus-durations FILE``
(``{"durations_ms": {node id: ms}}``) the shards are balanced by those times; after the run the
plugin writes the times of the tests it ran into that file, keeping the other entries, so a CI cache
of the file (or the merge of every shard's copy) balances the next run. Tests of other shards are
deselected, as ``-k`` deselects them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from argus.errors import ArgusError
from argus.io import atomic_write_json
from argus.shard.outcomes import collection
from argus.shard.split import Shard, assign_keys, load_durations, parse_shard


def shard_option(config: pytest.Config) -> tuple[Shard | None, Path | None, dict[str, float]]:
    """The shard, the durations file and its table; bad input is a usage error (one line)."""
    text = config.getoption("argus_shard")
    durations_file = config.getoption("argus_durations")
    path = Path(durations_file) if durations_file else None
    try:
        shard = parse_shard(text) if text else None
        durations = load_durations(path) if path is not None and path.exists() else {}
    except ArgusError as err:
        raise pytest.UsageError(str(err).replace("--shard", "--argus-shard")) from err
    if path is not None and shard is None:
        raise pytest.UsageError("--argus-durations only makes sense with --argus-shard")
    return shard, path, durations


class ShardSelector:
    """Deselects the tests of other shards; records the run's test times for the next split."""

    def __init__(
        self, config: pytest.Config, shard: Shard, path: Path | None, table: dict[str, float]
    ) -> None:
        self.config = config
        self.shard = shard
        self.path = path
        self.durations = table
        self.ran: dict[str, float] = {}
        self.selected = 0
        self.collected = 0
        self.collection: dict[str, Any] | None = None  # the whole run's, before the split

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        self.collection = collection(item.nodeid for item in items)
        placed = assign_keys([item.nodeid for item in items], self.shard.total, self.durations)
        keep = [item for item in items if placed[item.nodeid] == self.shard.index]
        drop = [item for item in items if placed[item.nodeid] != self.shard.index]
        self.collected, self.selected = len(items), len(keep)
        if drop:
            self.config.hook.pytest_deselected(items=drop)
            items[:] = keep

    def pytest_report_collectionfinish(self) -> str:
        return f"argus shard {self.shard}: {self.selected} of {self.collected} tests"

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.ran[report.nodeid] = self.ran.get(report.nodeid, 0.0) + report.duration * 1000

    def pytest_sessionfinish(self) -> None:
        if self.path is None or hasattr(self.config, "workerinput") or not self.ran:
            return  # an xdist worker: the controller, which sees every report, writes
        table = {**self.durations, **{k: round(v, 1) for k, v in self.ran.items()}}
        atomic_write_json(self.path, {"durations_ms": dict(sorted(table.items()))})
