"""Every HTML page comes from a template (argus.report.templating): no module assembles markup
in Python strings, where one forgotten escape is an injection. Docstrings may name tags, and
regular expressions may match them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "argus"
# An opening or closing tag of the elements a page is made of.
TAG = re.compile(
    r"</?(html|head|body|main|header|footer|nav|section|article|aside|div|span|p|a|br|hr|"
    r"table|caption|thead|tbody|tr|td|th|ul|ol|li|dl|dt|dd|h[1-6]|img|figure|figcaption|"
    r"details|summary|pre|code|strong|em|kbd|button|form|fieldset|legend|input|textarea|"
    r"label|select|option|style|script|title|meta|link)(\s[^<>]*)?/?>",
    re.IGNORECASE,
)


def _exempt(tree: ast.AST) -> set[int]:
    """Docstrings, and patterns handed to ``re`` (they read markup, they do not build it)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
        ):
            found.update(id(arg) for arg in node.args)
    return found


def markup_in(source: str) -> list[tuple[int, str]]:
    """(line, text) of each string constant, f-string part included, that holds a tag."""
    tree = ast.parse(source)
    skip = _exempt(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and TAG.search(node.value)
    ]


def test_no_module_builds_markup_in_strings() -> None:
    found = [
        f"{path.relative_to(SRC)}:{line}: {text[:60]!r}"
        for path in sorted(SRC.rglob("*.py"))
        for line, text in markup_in(path.read_text("utf-8"))
    ]
    assert not found, "markup built in Python; use a template:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ('x = f"<td>{value}</td>"', True),
        ("x = \"<div class='a'>\"", True),
        ("x = '</ul>'", True),
        ('def f():\n    """Reads a <canvas> or a <div>."""\n', False),
        ('x = "a < b and c > d"', False),
        ('x = "svg rect"', False),
        ('X = re.compile(r"(<style[^>]*>)(.*?)</style>")', False),
    ],
)
def test_the_check_sees_tags_in_strings_and_not_in_docstrings(source: str, caught: bool) -> None:
    assert bool(markup_in(source)) is caught
