"""Argus: sign off a UI only on evidence from outside the builder."""

# The one place the version is written: pyproject.toml reads it from here (setuptools
# `dynamic`), so `argus --version` needs no package-metadata lookup (~25 ms saved per call).
__version__ = "0.1.0"

__all__ = ["__version__"]
