"""Validate JUnit XML against the shipped Jenkins JUnit schema (lxml)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from lxml import etree

XSD = Path(__file__).parent / "data" / "jenkins-junit.xsd"


@cache
def _schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(XSD)))


def junit_errors(document: bytes) -> list[str]:
    """Every schema violation of ``document``; [] when it is valid."""
    schema = _schema()
    schema.validate(etree.fromstring(document))
    return [f"line {e.line}: {e.message}" for e in schema.error_log]
