"""Ground the implementer must not move: the protected set, the config, the one-writer lock.

``integrity`` hashes the protected files around every edit, ``manifest`` keeps the set as the
loop last left it in the run store, ``resume`` checks it before a resumed run does anything,
``config_guard`` pins the effective config, and ``lock`` holds one writer per feature.
"""
