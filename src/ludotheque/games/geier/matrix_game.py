"""Zero-sum matrix games: the value and optimal mixed strategies of both players.

A small dense simplex (Bland's rule, so it cannot cycle) on the classic reformulation: shift the payoffs to be
positive, then ``max 1·y  s.t.  B y <= 1, y >= 0``; the column player's strategy is ``y / Σy``, the row player's
is the dual (the objective row under the slack columns) over the same sum, and the value is ``1/Σy - shift``.
Saddle points (pure solutions), common in Geier's endgames, are found first without any pivoting.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

Matrix = NDArray[np.float64]
Vector = NDArray[np.float64]

_EPS = 1e-12


def solve(payoff: Matrix) -> tuple[float, Vector, Vector]:
    """``(value, row strategy, column strategy)`` of the game where the row player maximizes ``payoff``."""
    a = np.asarray(payoff, dtype=np.float64)
    m, n = a.shape
    row_min = a.min(axis=1)
    col_max = a.max(axis=0)
    lower = float(row_min.max())
    upper = float(col_max.min())
    if upper - lower <= 1e-12:
        p = np.zeros(m)
        q = np.zeros(n)
        p[int(row_min.argmax())] = 1.0
        q[int(col_max.argmin())] = 1.0
        return lower, p, q
    shift = 1.0 - float(a.min())
    b = a + shift
    tableau = np.zeros((m + 1, n + m + 1))
    tableau[:m, :n] = b
    tableau[:m, n : n + m] = np.eye(m)
    tableau[:m, -1] = 1.0
    tableau[m, :n] = -1.0
    basis = list(range(n, n + m))
    for _ in range(50 * (n + m)):
        objective = tableau[m, :-1]
        entering = -1
        for j in range(n + m):
            if objective[j] < -1e-10:
                entering = j
                break
        if entering < 0:
            break
        column = tableau[:m, entering]
        best_row = -1
        best_ratio = np.inf
        for i in range(m):
            if column[i] > _EPS:
                ratio = tableau[i, -1] / column[i]
                if ratio < best_ratio - 1e-12 or (
                    abs(ratio - best_ratio) <= 1e-12 and best_row >= 0 and basis[i] < basis[best_row]
                ):
                    best_ratio = ratio
                    best_row = i
        if best_row < 0:  # cannot happen for a positive matrix (the LP is bounded)
            raise ArithmeticError("unbounded matrix game LP")
        tableau[best_row] /= tableau[best_row, entering]
        for i in range(m + 1):
            if i != best_row and tableau[i, entering] != 0.0:
                tableau[i] -= tableau[i, entering] * tableau[best_row]
        basis[best_row] = entering
    total = float(tableau[m, -1])
    y = np.zeros(n)
    for i, var in enumerate(basis):
        if var < n:
            y[var] = tableau[i, -1]
    x = np.maximum(tableau[m, n : n + m], 0.0)
    q = np.maximum(y, 0.0) / total
    p = x / total
    p /= p.sum()
    q /= q.sum()
    return 1.0 / total - shift, p, q
