"""The convergence loop: implement, sense, gate, judge, record, decide, sign off.

``loop.state`` keeps the durable per-view counters; the other modules here orchestrate a run
(see docs/loop.md).
"""
