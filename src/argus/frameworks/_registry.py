"""The frameworks Argus knows, by name. A new one is a module beside the others holding one
``Framework`` constant, and a line in ``KNOWN``."""

from __future__ import annotations

from argus.errors import InputError
from argus.frameworks import _dash, _gradio, _nicegui, _panel, _server_rendered, _streamlit
from argus.frameworks._model import Framework

KNOWN: tuple[Framework, ...] = (
    _streamlit.STREAMLIT,
    _dash.DASH,
    _gradio.GRADIO,
    _nicegui.NICEGUI,
    _panel.PANEL,
    _server_rendered.SERVER_RENDERED,
)
_BY_NAME = {framework.name: framework for framework in KNOWN}


def framework_names() -> tuple[str, ...]:
    """Every known framework's name, in the registry's order."""
    return tuple(_BY_NAME)


def get_framework(name: str) -> Framework:
    """The framework called ``name``; InputError naming the known ones otherwise."""
    found = _BY_NAME.get(name.strip().lower())
    if found is None:
        raise InputError(
            f"unknown framework {name!r}; known frameworks: {', '.join(framework_names())}"
        )
    return found


def framework_masks(name: str) -> tuple[str, ...]:
    """The mask preset of the framework called ``name``; none for no framework ("")."""
    return get_framework(name).masks if name else ()
