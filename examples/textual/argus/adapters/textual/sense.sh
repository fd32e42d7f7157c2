#!/usr/bin/env bash
# Argus's Textual adapter (docs/sense.md, "Textual"): senses app.py's ShoppingList by its
# pilot. ARGUS_PYTHON is the interpreter running Argus, so the app's textual is its.
set -eu
exec "${ARGUS_PYTHON:-python3}" -m argus.adapters.textual \
  --app app.py:ShoppingList --size 80x16 \
  --theme light=shop-light --theme dark=shop-dark "$@"
