"""The ``learned`` player's score of one candidate, compiled: every game's kernel calls
``model_score`` on the packed rows of ``simcore.learned.pack`` (``Model.score`` is its
plain-Python twin: the same operations in the same order, so both take the same
decisions).
"""

from __future__ import annotations

from talesim.simcore.jit import hot

#: The packed row's header (``simcore.learned.HEADER``): features, hidden units, kinds, top.
HEADER = 4


@hot
def model_top(models, row):
    """How many candidates model ``row`` scores (the best ``top`` by greedy's value)."""
    return int(models[row, 3])


@hot
def model_score(models, row, kind, x, xo, xh):
    """Score of the candidate whose features are ``x[xo : xo + F]`` under head ``kind`` of
    model ``row`` (standardised in place: ``x`` is scratch; the hidden units' sums at
    ``x[xh : xh + H]``, ``simcore.learned.MAX_HIDDEN`` at most). Each hidden unit sums its
    terms in feature order, as ``Model.score``; the loop runs over the units innermost, so
    it vectorises."""
    f = int(models[row, 0])
    h = int(models[row, 1])
    at = HEADER + kind * (3 * f + f * h + 2 * h)
    for i in range(f):
        x[xo + i] = (x[xo + i] - models[row, at + i]) / models[row, at + f + i]
    s = 0.0
    for i in range(f):
        s += models[row, at + 2 * f + i] * x[xo + i]
    w1 = at + 3 * f
    b1 = w1 + f * h
    for j in range(h):
        x[xh + j] = models[row, b1 + j]
    for i in range(f):
        z = x[xo + i]
        w = w1 + i * h
        for j in range(h):
            x[xh + j] += models[row, w + j] * z
    for j in range(h):
        if x[xh + j] > 0.0:
            s += models[row, b1 + h + j] * x[xh + j]
    return s
