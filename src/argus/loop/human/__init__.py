"""The decisions a person makes: references (HE-1), spot-checks (HE-2) and baselines.

``decisions`` is the one code path for ``argus approve`` and ``argus ui``; ``references``
bootstraps a missing reference from a candidate render; ``baseline`` writes a view's snapshot
baseline, for the loop at sign-off and for a person accepting a render.
"""
