"""Sensors for UIs that are not web pages, each written to the adapter contract
(docs/sense.md, "Adapter contract (non-web platforms)"): a project's
``argus/adapters/NAME/sense.sh`` runs one and Argus checks what it wrote.

    python -m argus.adapters.textual --app app.py:MyApp --route R --state S --appearance A
        --fixture F --out DIR          # argus.adapters.textual: a Textual app, by its pilot
"""

__all__: list[str] = []
