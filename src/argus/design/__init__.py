"""Design systems: read from design-schema files, extracted from a rendered page, compared.
See docs/design.md."""
