"""What a run leaves behind: the run directory's layout and every record the loop writes.

``layout`` names the files under ``.argus-runs/``; ``state`` keeps a view's counters,
``outcome`` what one iteration found, ``runrecord`` the current run, ``signoff`` the sign-off
records, ``events`` and ``spotchecks`` what the run store holds, ``status`` the four-state
status, and ``guarded`` which of these records are hashed like the protected set.
"""
