"""Design systems: read from design-schema files, extracted from a rendered page, compared.
See docs/design.md."""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.design.diff import diff_documents
    from argus.design.extract import build_schema, measure

# The package's face: each name is imported from its module on first use (PEP 562), so
# importing one module of the package loads none of the others.
_SOURCES = {
    "build_schema": "argus.design.extract",
    "measure": "argus.design.extract",
    "diff_documents": "argus.design.diff",
}

__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "build_schema",
    "diff_documents",
    "measure",
]
