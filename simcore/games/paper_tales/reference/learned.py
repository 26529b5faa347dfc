"""The ``learned`` player, restated readably (``learned.py`` compiles the same): greedy's
best ``top`` distinct options of a draft pick, deployment step or construction choice
(``search.ranked``, the candidates ``mc`` searches), the features of each
(``learned.FEATURES``), and the one the model scores best (ties to greedy's first best).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from talesim.simcore.learned import Model

from ..learned import (
    COMPONENTS,
    F_CARD_STRENGTH,
    F_COMPONENT0,
    F_COST,
    F_LEAD,
    F_LEAD_LEFT,
    F_LEAD_RIGHT,
    F_OPTIONS,
    F_PASS,
    F_PLAYERS,
    F_RANK,
    F_STEP,
    F_TURN,
    N_FEATURES,
    feature_rows,
)
from .brain import Brain
from .search import DECISIONS, _label, option_value, ranked

if TYPE_CHECKING:
    from .game import Game


class RowBrain(Brain):
    """A brain that values every option under one row of ``learned.feature_rows`` (a value
    component: 1 on its features, 0 elsewhere): greedy's valuation of that component."""

    def __init__(self, game: Game, row: int) -> None:
        weights, lweights = feature_rows()
        super().__init__(game, weights)
        self.lweights = lweights
        self.row = row

    def w(self, p: int) -> np.ndarray:
        return self.weights[self.row]

    def lw(self, p: int) -> np.ndarray:
        return self.lweights[self.row]


def facts(game: Game, decision: str, p: int, option: Any, x: list[float]) -> None:
    """The option's own features and the context into ``x`` (``learned._facts``)."""
    r = game.rules
    card = -1
    cost = strength = passing = 0
    step = game.step
    if decision == "draft":
        card = option
    elif decision == "build":
        step = 0
        if option is None:
            passing = 1
        else:
            cost = option.gold
    else:
        if option.kind == "place":
            card = game.players[p].hand[option.a]
        passing = int(option.kind == "stop")
    if card >= 0 and not r.is_artifact(card):
        cost, strength = r.cost(card), r.unit(card).strength
    lp = [pl.lp for pl in game.players]
    n = game.n
    x[F_COST] = cost
    x[F_CARD_STRENGTH] = strength
    x[F_PASS] = passing
    x[F_TURN] = game.turn
    x[F_STEP] = step
    x[F_PLAYERS] = n
    x[F_LEAD] = lp[p] - max(lp[q] for q in range(n) if q != p)
    x[F_LEAD_LEFT] = lp[p] - lp[(p + 1) % n]
    x[F_LEAD_RIGHT] = lp[p] - lp[(p - 1) % n]


def features(
    game: Game, decision: str, p: int, best: list[tuple[int, float, Any]], distinct: int
) -> list[list[float]]:
    """The features of each of greedy's ranked options ``best`` (``search.ranked``, in its
    order) of seat ``p``'s ``decision`` of ``distinct`` distinct options."""
    rows = []
    for rank, (_, value, option) in enumerate(best):
        x = [0.0] * N_FEATURES
        x[0] = value
        x[F_RANK] = rank
        x[F_OPTIONS] = distinct
        facts(game, decision, p, option, x)
        rows.append(x)
    for c, (_, _, legends) in enumerate(COMPONENTS):
        if legends >= 0 and not game.rules.legends:
            continue  # the Legends component: 0 in a base game
        brain = RowBrain(game, c)
        for x, (_, _, option) in zip(rows, best, strict=True):
            x[F_COMPONENT0 + c] = option_value(game, brain, decision, p, option)
    return [[float(v) for v in x] for x in rows]


def ranked_features(
    game: Game, decision: str, p: int, top: int
) -> tuple[list[tuple[int, float, Any]], list[list[float]]]:
    """Greedy's best ``top`` distinct options of seat ``p``'s ``decision`` (``search.ranked``:
    option index, greedy's value, option) and their features."""
    best = ranked(game, decision, p)
    distinct = len(best)
    best = best[:top]
    return best, features(game, decision, p, best, distinct)


def learned_decide(game: Game, model: Model, decision: str, p: int) -> int:
    """The index of the option the model chooses among greedy's best ``model.top``;
    narrated as a ``learned`` event: every candidate with greedy's value and its score."""
    best, rows = ranked_features(game, decision, p, model.top)
    scores, choice = model.choose(DECISIONS.index(decision), rows)
    if game.record:
        game.emit(
            "learned",
            seat=p,
            decision=decision,
            candidates=[
                {
                    "option": _label(game, decision, p, option),
                    "value": round(value, 4),
                    "score": round(s, 4),
                }
                for (_, value, option), s in zip(best, scores, strict=True)
            ],
            chosen=_label(game, decision, p, best[choice][2]),
        )
    return best[choice][0]
