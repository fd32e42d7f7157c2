"""The advisory acceptance-fidelity review of merged PRs (seed 002): did the change meet the
task's acceptance? Met / partial / unmet with a confidence, recorded as an event beside the
deterministic evidence; it never blocks and never signs anything off. See docs/review.md.
"""
