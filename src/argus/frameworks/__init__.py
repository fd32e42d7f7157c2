"""Python UI frameworks Argus knows first-hand (docs/frameworks.md): how ``argus init
--framework NAME`` starts an app built with one, when the sensor calls its page settled, how a
fixture reaches the app, and which of its volatile parts a snapshot masks.

    framework = get_framework("streamlit")      # InputError naming the known ones
    framework.server.command_for(8501), framework.settle.ready, framework.masks
"""

from argus.frameworks._model import Framework, ServerPreset, SettleRule
from argus.frameworks._registry import KNOWN, framework_masks, framework_names, get_framework

__all__ = [
    "KNOWN",
    "Framework",
    "ServerPreset",
    "SettleRule",
    "framework_masks",
    "framework_names",
    "get_framework",
]
