"""Evidence reading shared by the gates, the judges and the surfaces above them.

    from argus.evidence.content import clip, fence    # page content held short and fenced
    from argus.evidence.probe import parse_probe      # probe.json as a read-only view

This package sits below both ``argus.gates`` and ``argus.judge`` (docs/internals.md): it reads
what a sensor recorded and never decides a gate or a score. The package imports none of its
modules itself, so a light command that needs one reader loads only that reader.
"""
