"""The framework registry: every framework's record, names, and unknown names refused."""

from __future__ import annotations

import pytest

from argus.errors import InputError
from argus.frameworks import KNOWN, framework_names, get_framework
from argus.spec.selectors import supported_selector


def test_the_five_frameworks_and_server_rendered_apps_are_known() -> None:
    assert framework_names() == (
        "streamlit",
        "dash",
        "gradio",
        "nicegui",
        "panel",
        "server-rendered",
    )


def test_a_name_is_found_whatever_its_case_and_spaces() -> None:
    assert get_framework(" Streamlit ").name == "streamlit"


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(InputError) as caught:
        get_framework("django-rest")
    message = str(caught.value)
    assert "'django-rest'" in message and "\n" not in message
    for name in framework_names():
        assert name in message


@pytest.mark.parametrize("framework", KNOWN, ids=lambda f: f.name)
def test_each_record_is_usable(framework: object) -> None:
    from argus.frameworks import Framework

    assert isinstance(framework, Framework)
    command = framework.server.command_for(9123)
    assert "9123" in command and "{" not in command
    assert framework.server.health_path.startswith("/")
    assert framework.settle.ready.lstrip().startswith("() =>") and framework.settle.markers
    assert framework.fixture_input
    # A preset mask must be one the snapshot gate can resolve against the probe.
    assert all(supported_selector(mask) for mask in framework.masks)


def test_only_server_rendered_apps_are_reused() -> None:
    # Every other framework serves one page shell for every app: nothing to prove it is yours.
    reused = {f.name for f in KNOWN if f.server.reuse_existing}
    assert reused == {"server-rendered"}


def test_websocket_frameworks_wait_for_their_socket() -> None:
    by_socket = {f.name for f in KNOWN if f.settle.websocket}
    assert by_socket == {"streamlit", "nicegui", "panel"}
