"""How many copies of a view the dead-control probe keeps side by side ([sense] control_copies)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from argus.config import SenseConfig
from argus.sense import _controls as controls
from argus.sense._controls import copies_for


def test_the_setting_is_kept_up_to_the_number_of_controls() -> None:
    assert copies_for(3, 8) == 3
    assert copies_for(1, 8) == 1
    assert copies_for(4, 2) == 2  # never more copies than controls to activate
    assert copies_for(3, 0) == 1


def test_auto_keeps_two_with_a_core_to_spare_and_one_without(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(controls.os, "cpu_count", lambda: 2)
    assert copies_for(0, 8) == 2
    monkeypatch.setattr(controls.os, "cpu_count", lambda: 1)
    assert copies_for(0, 8) == 1
    monkeypatch.setattr(controls.os, "cpu_count", lambda: None)
    assert copies_for(0, 8) == 1


def test_the_config_defaults_to_auto_and_bounds_the_setting() -> None:
    assert SenseConfig().control_copies == 0
    with pytest.raises(ValidationError):
        SenseConfig(control_copies=9)
    with pytest.raises(ValidationError):
        SenseConfig(control_copies=-1)
