"""Argus: sign off a UI only on evidence from outside the builder."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("argus-ui")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0"

__all__ = ["__version__"]
