"""The stable capture's rule with a first shot already taken in the network's quiet window
(argus.sense.web.stable_capture, ``first``): without the probe a first shot that matches an
expected image ends the capture; with the probe it never does, the probe runs beside a
confirming shot."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from argus.sense import web
from argus.sense._shots import Shot

PNG = b"\x89PNG first"


def _capture(
    monkeypatch: pytest.MonkeyPatch, shots: list[bytes], *, probe: bool, expected: tuple[bytes, ...]
) -> tuple[tuple[bytes, Any, bool, int], list[str]]:
    calls: list[str] = []

    async def fake_probe(page: object, session: object, budget: object) -> Any:
        calls.append("probe")
        return ([], None, {}), {}

    monkeypatch.setattr(web, "_probe", fake_probe)
    taken = iter(shots)

    async def shoot() -> Shot:
        calls.append("shot")
        return Shot(next(taken), True)

    async def run() -> tuple[bytes, Any, bool, int]:
        return await web.stable_capture(
            shoot,
            page=None,  # type: ignore[arg-type]
            probe_with=object() if probe else None,  # type: ignore[arg-type]
            expected=expected,
            first=Shot(PNG, True),
        )

    return asyncio.run(run()), calls


def test_a_matching_first_shot_ends_a_bare_capture(monkeypatch: pytest.MonkeyPatch) -> None:
    (png, probed, settled, attempts), calls = _capture(
        monkeypatch, [], probe=False, expected=(PNG,)
    )
    assert (png, probed, settled, attempts) == (PNG, None, True, 1) and calls == []


def test_a_matching_first_shot_does_not_end_a_probed_capture(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (png, probed, settled, attempts), calls = _capture(
        monkeypatch, [PNG], probe=True, expected=(PNG,)
    )
    assert png == PNG and settled and attempts == 2
    assert probed is not None and sorted(calls) == ["probe", "shot"]


def test_a_probed_capture_goes_on_until_two_shots_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    (png, probed, settled, attempts), calls = _capture(
        monkeypatch, [b"moved", b"moved"], probe=True, expected=()
    )
    assert png == b"moved" and settled and attempts == 3 and probed is not None
    assert calls.count("probe") == 2 and calls.count("shot") == 2


def test_a_probe_that_throws_cancels_the_shot_beside_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The error goes on only once the paired shot is stopped: nothing is left running on a
    page the sensor is about to reset or close."""
    shot_ended: list[str] = []

    async def failing_probe(page: object, session: object, budget: object) -> Any:
        await asyncio.sleep(0)
        raise RuntimeError("the probe's evaluation threw")

    async def slow_shot() -> Shot:
        try:
            await asyncio.sleep(5)
        except asyncio.CancelledError:
            shot_ended.append("cancelled")
            raise
        shot_ended.append("finished")
        return Shot(PNG, True)

    monkeypatch.setattr(web, "_probe", failing_probe)

    async def run() -> list[str]:
        with pytest.raises(RuntimeError, match="threw"):
            await web.stable_capture(
                slow_shot,
                page=None,  # type: ignore[arg-type]
                probe_with=object(),  # type: ignore[arg-type]
                expected=(),
                first=Shot(PNG, True),
            )
        return list(shot_ended)  # as the error arrived, before asyncio.run's own clean-up

    assert asyncio.run(run()) == ["cancelled"]
