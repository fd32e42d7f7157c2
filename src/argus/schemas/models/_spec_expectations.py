"""A spec's machine-checkable expectations for one state of a target."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field
from pydantic.config import JsonValue
from typing_extensions import TypeAliasType

from argus.schemas.models._base import Absent, Closed

Text = Annotated[str, Field(min_length=1)]
RepoPath = TypeAliasType(
    "RepoPath",
    Annotated[
        str,
        Field(
            min_length=1,
            max_length=1024,
            description="A path inside the repository. It may not contain '..' and may not "
            "resolve (through symlinks either) outside the repository root.",
        ),
    ],
)

# A check reads a table's column or a list's items, never both.
_COLUMN_OR_LIST: JsonValue = [{"required": ["column"]}, {"required": ["list"]}]


class Values(Closed):
    """Where a check reads its values: a table's column by header text, or a list's items."""

    model_config = ConfigDict(json_schema_extra={"oneOf": _COLUMN_OR_LIST})

    table: Text | Absent = Field(
        default=None,
        description="id or data-testid of the table (or an element holding it); default: any "
        "table with that header",
    )
    column: Text | Absent = Field(
        default=None, description="the column's header text (white space collapsed)"
    )
    list: Text | Absent = Field(
        default=None, description="id or data-testid of an element whose children are the items"
    )


class FormatCheck(Closed):
    model_config = ConfigDict(
        json_schema_extra={
            "allOf": [
                {"oneOf": _COLUMN_OR_LIST},
                {"oneOf": [{"required": ["format"]}, {"required": ["pattern"]}]},
            ]
        }
    )

    table: Text | Absent = None
    column: Text | Absent = None
    list: Text | Absent = None
    format: (
        Literal["iso_date", "integer", "thousands", "decimal2", "currency", "percent"] | Absent
    ) = Field(
        default=None,
        description="iso_date 2026-03-01; integer 1200; thousands 1,200 or 1,200.50; decimal2 "
        "1200.50; currency $1,200.50 (a symbol, separators, two decimals); percent 12% or 12.5%.",
    )
    pattern: Annotated[str, Field(min_length=1, max_length=500)] | Absent = Field(
        default=None, description="a Python regular expression each whole value must match"
    )


class SortCheck(Closed):
    model_config = ConfigDict(json_schema_extra={"oneOf": _COLUMN_OR_LIST})

    table: Text | Absent = None
    column: Text | Absent = None
    list: Text | Absent = None
    order: Literal["asc", "desc"]
    by: Literal["number", "text", "date"] = Field(
        default="text",
        description="number: the figures (symbols, separators and % ignored); text: "
        "case-insensitive; date: ISO dates, or date_format",
    )
    date_format: Annotated[str, Field(min_length=2, max_length=100)] | Absent = Field(
        default=None, description="a strftime pattern the dates are written in, e.g. '%d %b %Y'"
    )


class ShownCheck(Closed):
    id: Text = Field(description="id or data-testid of the element")
    text: Text | Absent = Field(
        default=None, description="text the element (with its descendants) must show"
    )


class FocusTrap(Closed):
    """Where Tab goes from inside a region: a dialog that must keep the focus (traps: true), or
    a region the keyboard must be able to leave (traps: false)."""

    region: Text = Field(description="id or data-testid of the region")
    traps: bool
    from_: Text | Absent = Field(
        default=None,
        alias="from",
        description="id or data-testid of the control focused first (default: whatever holds "
        "the focus after the state's steps)",
    )
    presses: int = Field(default=10, ge=1, le=50, description="how many times Tab is pressed")


class EqualsFixture(Closed):
    file: RepoPath = Field(description="Repository-relative JSON file holding the fixture data.")
    pointer: str = Field(
        pattern=r"^(/.*)?$",
        description="JSON Pointer (RFC 6901) to an array; its length is the expected count.",
    )


class CountCheck(Closed):
    # A count is a number or a fixture's array length, one of the two.
    model_config = ConfigDict(
        json_schema_extra={
            "if": {"required": ["equals_fixture"]},
            "then": {"not": {"required": ["equals"]}},
            "else": {"required": ["equals"]},
        }
    )

    role: Text
    name: str | Absent = None
    equals: Annotated[int, Field(ge=0)] | Absent = None
    equals_fixture: EqualsFixture | Absent = None


class Texts(Closed):
    fixture: Text | Absent = Field(
        default=None, description="JSON fixture (repository path) whose data the templates read."
    )
    expect: Annotated[list[Text], Field(min_length=1)] = Field(
        description="Jinja2 templates over the fixture's data; each non-empty line a template "
        "renders is text the page must show, e.g. "
        "'{{ items|length }} {{ \"item\"|plural(items|length) }}'."
    )


class Expectation(Closed):
    aria_snapshot: Text | Absent = Field(
        default=None,
        description="A Playwright-style ARIA snapshot template the page's accessibility tree "
        "must match.",
    )
    counts: list[CountCheck] | Absent = Field(
        default=None,
        description="How many elements with a role (and optionally an accessible name) the "
        "page must show.",
    )
    texts: Texts | Absent = Field(
        default=None, description="Text the page must show, tied to the fixture."
    )
    focus_order: Annotated[list[Text], Field(min_length=1, max_length=50)] | Absent = Field(
        default=None,
        description="Ids (id or data-testid) keyboard focus visits in order: the first holds "
        "the focus after the state's steps, each next one is reached with Tab.",
    )
    numeric_columns: Annotated[list[Values], Field(min_length=1)] | Absent = Field(
        default=None,
        description="Table columns (or lists) of figures whose text must sit at the right edge "
        "of each cell (right-aligned, so digits line up).",
    )
    formats: Annotated[list[FormatCheck], Field(min_length=1)] | Absent = Field(
        default=None,
        description="Every value of a column or list must be written in a named format or "
        "match a pattern.",
    )
    sort: Annotated[list[SortCheck], Field(min_length=1)] | Absent = Field(
        default=None, description="A column or list whose values must be in this order."
    )
    shown: Annotated[list[ShownCheck], Field(min_length=1, max_length=50)] | Absent = Field(
        default=None,
        description="Elements (by id or data-testid) the state must show, each optionally with "
        "a text it must contain: the empty or error state the spec describes.",
    )
    focus_trap: FocusTrap | Absent = None
