"""Models for the learned players' tests (any game): seeded random weights, which decide
unlike any heuristic, and greedy's order (a linear score of minus the ``rank`` feature),
which plays the heuristic's first best."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simcore.learned import Head, Model


def random_model(
    game: str,
    variants: Sequence[str],
    features: Sequence[str],
    kinds: Sequence[str],
    seed: int,
    hidden: int = 4,
    top: int = 4,
) -> Model:
    """A model of seeded random weights, one head per kind."""
    rng = np.random.default_rng(seed)
    f = len(features)
    heads = tuple(
        Head(
            rng.normal(size=f),
            rng.uniform(0.5, 2.0, size=f),
            rng.normal(size=f),
            rng.normal(size=(f, hidden)),
            rng.normal(size=hidden),
            rng.normal(size=hidden),
        )
        for _ in kinds
    )
    return Model(game, tuple(variants), (4,), top, hidden, tuple(features), tuple(kinds), heads)


def rank_model(
    game: str, variants: Sequence[str], features: Sequence[str], kinds: Sequence[str], top: int
) -> Model:
    """A linear model scoring minus the ``rank`` feature: greedy's first best."""
    f = len(features)
    linear = np.zeros(f)
    linear[list(features).index("rank")] = -1.0
    head = Head(np.zeros(f), np.ones(f), linear, np.zeros((f, 0)), np.zeros(0), np.zeros(0))
    return Model(game, tuple(variants), (4,), top, 0, tuple(features), tuple(kinds),
                 (head,) * len(kinds))  # fmt: skip
