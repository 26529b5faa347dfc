"""The ``learned`` player, restated readably (``learned.py`` compiles the same; bound as
``DrakoGame`` methods of the same name): among greedy's best ``top`` options, the one the
model scores best, and the features of each option.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..learned import (
    F_DRAGON,
    F_DRAW,
    F_ENDS,
    F_FACE_DOWN,
    F_GAIN,
    F_NEIGHBOURS,
    F_PORTAL,
    F_RANK,
    F_REVEAL,
    F_TAME,
    F_TURN,
    N_MARGINS,
)
from ..learned import KINDS as LEARNED_KINDS
from ..tables import (
    Kind,
)
from .rules import (
    SourceOption,
)
from .scoring import KingdomView
from .search import greedy_order

if TYPE_CHECKING:
    from .game import DrakoGame


def learned_decide(
    self: DrakoGame, decision: str, p: int, options: Sequence[SourceOption], values: list[float]
) -> int:
    """``learned``: among greedy's best ``model.top`` options (ranked as ``search``
    ranks them), the one its model scores best (``learned_features``), ties to greedy's
    first best. Returns the option's index."""
    model = self.models[p]
    if model is None:  # the kernel asks a learned seat only with its model row
        raise ValueError(f"seat {p} plays learned without a model")
    ranked = greedy_order(values, model.top)
    xs = self.learned_features(decision, p, options, ranked)
    scores, j = model.choose(LEARNED_KINDS.index(decision), list(xs))
    choice = ranked[j]
    if self.record and len(ranked) > 1:
        self.emit(
            "learned",
            seat=p,
            turn=self.turn,
            decision=decision,
            candidates=[
                {
                    "option": self.describe(p, decision, options[i]),
                    "value": round(values[i], 4),
                    "score": round(score, 3),
                }
                for i, score in zip(ranked, scores, strict=True)
            ],
            chosen=self.describe(p, decision, options[choice]),
        )
    return choice


def learned_features(
    self: DrakoGame, decision: str, p: int, options: Sequence[SourceOption], ranked: list[int]
) -> list[list[float]]:
    """``learned.FEATURES`` of the ``ranked`` options (greedy's order) of seat ``p``'s
    ``decision``, from what it sees: each term the change legend-hunter's
    ``Brain.features`` measure, against the visible kingdom (a reveal: over the unseen
    kinds, in kind order, weighted by their copies), then the context."""
    r, brain = self.rules, self.brain
    kinds = brain.visible(p)
    base = self.learned_terms(kinds, True)
    down = len(self.players[p].face_down())
    if decision == "action":
        assert self.hand is not None
        card = self.hand[1]
    else:
        card = self.discard[-1] if self.discard else -1
    context = self.learned_context(p, down, len(options))
    rows = []
    for rank, i in enumerate(ranked):
        own = [0.0] * F_TURN
        option = options[i]
        if option is None:
            own[F_DRAW] = 1.0
        else:
            cell = option.cell
            opens = kinds[cell] is None
            final = opens and down == 1
            claim_ok = self.claims_left > 0 and (not final or r.o.legend_claim_after_final_reveal)
            pool = brain.unseen(p, card) if option.reveal else Counter({card: 1})
            n = sum(pool.values())
            sums: list[float] = [0, 0, 0.0, 0.0]
            for k in sorted(pool):
                changed = list(kinds)
                changed[cell] = k
                terms = self.learned_terms(changed, claim_ok)
                sums[0] += pool[k] * (terms[0] - base[0])
                sums[1] += pool[k] * max(0, terms[1] - base[1])
                sums[2] += pool[k] * (terms[2] - base[2])
                sums[3] += pool[k] * (terms[3] - base[3])
            if n:
                own[F_GAIN : F_TAME + 1] = [v / n for v in sums]
            own[F_REVEAL] = option.reveal
            own[F_FACE_DOWN] = opens
            own[F_ENDS] = final
            own[F_DRAGON] = not option.reveal and card == Kind.DRAGON
            own[F_PORTAL] = not option.reveal and card == Kind.PORTAL
            own[F_NEIGHBOURS] = len(r.neighbours[cell])
        own[F_RANK] = rank
        rows.append([float(v) for v in own] + context)
    return rows


def learned_terms(self: DrakoGame, kinds: list[int | None], claim_ok: bool) -> tuple:
    """(score, best claim (0 unless ``claim_ok``), near, tame) of a visible kingdom:
    ``Brain.features`` with every term."""
    view = KingdomView(self.rules, kinds)
    claim = self.brain.best_claim(view) if claim_ok else 0
    score = sum(view.breakdown().values())
    return score, claim, self.brain.near(view), self.brain.tame_progress(view)


def learned_context(self: DrakoGame, p: int, down: int, n_options: int) -> list[float]:
    """The context features of seat ``p``'s decision (``learned.FEATURES`` from
    ``turn``): its turns, its and its rivals' face-down cards, the margins of the
    visible scores (face-up cards and held Legends), the players, the options."""
    totals = []
    for q, pl in enumerate(self.players):
        held = sum(self.rules.legends[c.legend].points for c in pl.claims)
        view = KingdomView(self.rules, self.brain.visible(q))
        totals.append(sum(view.breakdown(held).values()))
    rivals = [(p + j) % self.n for j in range(1, self.n)]
    margins = [totals[p] - totals[q] for q in rivals]
    context = [
        self.players[p].turns,
        down,
        min(len(self.players[q].face_down()) for q in rivals),
        totals[p] - max(totals[q] for q in rivals),
        *margins,
        *[0] * (N_MARGINS - len(margins)),
        self.n,
        n_options,
    ]
    return [float(v) for v in context]
