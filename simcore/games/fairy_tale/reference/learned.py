"""The ``learned`` player, restated readably (``learned.py`` compiles the same): the
features of each distinct candidate, greedy's best ``top`` of them, and the one the model
scores best (ties to greedy's first best).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from talesim.simcore.learned import Model

from ..learned import F_OPTIONS, F_RANK
from ..policies import Decision
from .scoring import card_gain, card_loss

if TYPE_CHECKING:
    from .game import FairyTaleGame


def features(
    game: FairyTaleGame, decision: Decision, c: int, p: int, neighbour: int
) -> tuple[list[float], float]:
    """Candidate card ``c``'s features for seat ``p`` (``learned.FEATURES``; ``rank`` and
    ``options`` left 0) and greedy's value of it."""
    r, brain, counts = game.rules, game.brain, game.up
    own, own_fc = game.own_counts(decision, p)
    gain = eff = harm = syn = deny = 0
    if decision == Decision.OPEN:
        gain = card_gain(r, c, own, own_fc, counts, p)
    elif decision == Decision.CLOSE:
        gain = -card_loss(r, c, own, own_fc, counts, p)
    else:
        gain = brain.card_gain(c, own, own_fc, counts, p)
        eff, harm = brain.effect_terms(c, own, own_fc, game.down[p], counts, p, True)
        if decision == Decision.DRAFT:
            syn = brain.synergy(c, own, own_fc, counts, p)
            if neighbour != p:
                deny = brain.card_gain(
                    c, counts.cards[neighbour], counts.factions[neighbour], counts, neighbour
                )
    kind = r.effect(c)["kind"]
    x = [
        gain,
        eff,
        harm,
        syn,
        deny,
        0,
        r.value(c).get("points", 0),
        kind == "open",
        kind == "close",
        kind == "hunt",
        own[c],
        game.round,
        game.step,
        game.n,
        sum(game.down[p]),
        0,
    ]
    return [float(v) for v in x], float(gain + eff)


def learned_decide(
    game: FairyTaleGame,
    model: Model,
    decision: Decision,
    p: int,
    options: list[int],
    neighbour: int,
) -> int:
    """The index of the option the model chooses among greedy's best ``model.top``."""
    first: dict[int, int] = {}
    for i, c in enumerate(options):
        first.setdefault(c, i)
    rows = [(i, *features(game, decision, c, p, neighbour)) for c, i in first.items()]
    order = sorted(range(len(rows)), key=lambda k: (-rows[k][2], k))[: model.top]
    for rank, k in enumerate(order):
        x = rows[k][1]
        x[F_RANK] = float(rank)
        x[F_OPTIONS] = float(len(rows))
    scores, j = model.choose(int(decision), [rows[k][1] for k in order])
    choice = rows[order[j]][0] if order else 0
    if game.record and len(order) > 1:
        game.emit(
            "learned",
            seat=p,
            decision=decision.name.lower(),
            candidates=[
                {"card": game.cid(options[rows[k][0]]), "score": round(s, 3)}
                for k, s in zip(order, scores, strict=True)
            ],
            chosen=game.cid(options[choice]),
        )
    return choice
