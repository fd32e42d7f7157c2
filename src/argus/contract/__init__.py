"""Contracts (seed 003, enact-loop): the stages a piece of work must pass before its session ends.

Mechanical stages Argus runs itself (pass = exit 0); judgment stages an independent grader
decides (GO with evidence); phases, budgets and fingerprints in ``.argus/contracts/ID/``; and a
Claude Code Stop hook that refuses to end a session while a run is open. See docs/contract.md.
"""
