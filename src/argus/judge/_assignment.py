"""Minimum-cost assignment of rows to columns (the Hungarian method, Kuhn 1955 / Munkres 1957).

``assign(cost)`` pairs each row with at most one column and each column with at most one row so
that the sum of the chosen costs is smallest, for any rectangular cost matrix. This is the
shortest-augmenting-path form with row and column potentials, O(n²·m).
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def assign(cost: Sequence[Sequence[float]]) -> list[tuple[int, int]]:
    """The optimal (row, column) pairs, min(rows, columns) of them, sorted by row."""
    n_rows = len(cost)
    n_cols = len(cost[0]) if n_rows else 0
    if n_rows == 0 or n_cols == 0:
        return []
    transposed = n_rows > n_cols
    # The algorithm below wants rows <= columns; solve the transpose otherwise.
    matrix = (
        [list(col) for col in zip(*cost, strict=True)] if transposed else [list(r) for r in cost]
    )
    n, m = len(matrix), len(matrix[0])
    for row in matrix:
        if len(row) != m or any(math.isnan(v) for v in row):
            raise ValueError("cost matrix must be rectangular and free of NaN")
    u = [0.0] * (n + 1)  # row potentials (1-based; 0 is the virtual start)
    v = [0.0] * (m + 1)  # column potentials
    owner = [0] * (m + 1)  # owner[j]: the row assigned to column j, 0 when free
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        owner[0] = i
        j0 = 0
        min_to = [math.inf] * (m + 1)
        used = [False] * (m + 1)
        # Grow a tree of tight edges from row i until it reaches a free column.
        while True:
            used[j0] = True
            i0 = owner[j0]
            delta = math.inf
            j1 = 0
            for j in range(1, m + 1):
                if used[j]:
                    continue
                reduced = matrix[i0 - 1][j - 1] - u[i0] - v[j]
                if reduced < min_to[j]:
                    min_to[j] = reduced
                    way[j] = j0
                if min_to[j] < delta:
                    delta = min_to[j]
                    j1 = j
            for j in range(m + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    min_to[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        # Flip the augmenting path back to its start.
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    pairs = [(owner[j] - 1, j - 1) for j in range(1, m + 1) if owner[j]]
    if transposed:
        pairs = [(c, r) for r, c in pairs]
    return sorted(pairs)
