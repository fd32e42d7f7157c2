"""Turn a pydantic model into the JSON Schema Argus publishes and validates with.

Pydantic's own output is close; this keeps it in the shape the hand-written schemas had, so
validation messages stay ``$.path: message`` as users know them:

- no generated ``title`` on every property and model (only the document's own title), and
  a model's docstring as a one-line description;
- ``Literal`` values as a bare ``enum``/``const`` (no extra ``type`` to fail first);
- an optional field that is never null (``X | SkipJsonSchema[None] = None``) carries no
  ``default: null``; a nullable scalar is ``type: [X, "null"]`` (an enum gains ``null``)
  rather than an ``anyOf`` whose messages say less;
- a mapping whose keys have a pattern names it in ``propertyNames`` (pydantic's
  ``patternProperties`` would let a key that does not match through unchecked).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"

# Keys that may sit beside a scalar ``type`` and still mean the same once ``null`` joins it.
_SCALAR_KEYS = frozenset(
    {"type", "description", "pattern", "minLength", "maxLength", "minimum", "maximum"}
)


class _ArgusJsonSchema(GenerateJsonSchema):
    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        generated = super().model_schema(schema)
        generated.pop("title", None)
        if isinstance(generated.get("description"), str):  # a docstring, wrapped for the code
            generated["description"] = " ".join(generated["description"].split())
        return generated

    def literal_schema(self, schema: core_schema.LiteralSchema) -> JsonSchemaValue:
        generated = super().literal_schema(schema)
        generated.pop("type", None)
        return generated

    def default_schema(self, schema: core_schema.WithDefaultSchema) -> JsonSchemaValue:
        generated = super().default_schema(schema)
        if schema.get("default", ...) is None:
            generated.pop("default", None)
        return generated

    def dict_schema(self, schema: core_schema.DictSchema) -> JsonSchemaValue:
        generated = super().dict_schema(schema)
        patterns = generated.pop("patternProperties", None)
        if patterns:
            ((pattern, values),) = patterns.items()
            generated["propertyNames"] = {"pattern": pattern}
            generated["additionalProperties"] = values
        return generated

    def nullable_schema(self, schema: core_schema.NullableSchema) -> JsonSchemaValue:
        inner = self.generate_inner(schema["schema"])
        if "enum" in inner and set(inner) <= {"enum", "description"}:
            return {**inner, "enum": [*inner["enum"], None]}
        if isinstance(inner.get("type"), str) and set(inner) <= _SCALAR_KEYS:
            return {**inner, "type": [inner["type"], "null"]}
        return super().nullable_schema(schema)


@dataclass(frozen=True)
class Published:
    """A file's model with the title and description its schema opens with."""

    model: type[BaseModel]
    title: str
    description: str

    def schema(self, name: str) -> dict[str, Any]:
        """The JSON Schema of the model as ``argus schema NAME`` prints it."""
        body = self.model.model_json_schema(schema_generator=_ArgusJsonSchema, mode="validation")
        defs = body.pop("$defs", None)
        head = {
            "$schema": DRAFT_2020_12,
            "$id": f"urn:argus:schema:{name}",
            "title": self.title,
            "description": self.description,
        }
        # The document's own keys first, then its parts: the order a reader of
        # ``argus schema NAME`` wants.
        return {**head, **body} if defs is None else {**head, **body, "$defs": defs}
