"""The ``mc`` search policy (determinized flat Monte-Carlo; bound as ``DrakoGame`` methods
of the same name): greedy's order of the options (``greedy_order``), the search, an option
as text, the outcome, ``clone`` and the determinization.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from talesim.simcore import flat_mc
from talesim.simcore.flat_mc import Search
from talesim.simcore.rng import GameRng

from ..tables import (
    KINDS,
)
from .brain import Brain
from .rules import (
    SourceOption,
)

if TYPE_CHECKING:
    from .game import DrakoGame


def greedy_order(values: list[float], top: int) -> list[int]:
    """The indices of the ``top`` best ``values``, best first, ties in index order: the
    options an asked seat weighs (``mc.rank``)."""
    return sorted(range(len(values)), key=lambda i: (-values[i], i))[:top]


def describe(self: DrakoGame, p: int, decision: str, option: SourceOption) -> str:
    """An option as text, for the narration."""
    if option is None:
        return "draw"
    if decision == "source":
        return f"take {KINDS[self.discard[-1]]} -> cell {option.cell}"
    assert self.hand is not None
    card = KINDS[self.hand[1]]
    if option.reveal:
        return f"discard {card}, reveal cell {option.cell}"
    return f"place {card} -> cell {option.cell}"


def outcome(self: DrakoGame, p: int) -> int:
    """Seat ``p``'s result of a finished game, in ``OUTCOME_UNIT``s: its share of the win
    (the §7.5 winners) plus ``MARGIN_WEIGHT`` x its margin over the best other score
    (clipped)."""
    won = self.winners()
    scores = [pl.score for pl in self.players]
    margin = scores[p] - max(s for q, s in enumerate(scores) if q != p)
    return flat_mc.outcome(p in won, len(won), margin)


def clone(self: DrakoGame) -> DrakoGame:
    """A copy that plays on independently (silent: no events; heuristic seats only)."""
    g = self.silent_copy()
    g.brain = Brain(g, self.weights)
    g.deck, g.discard = list(self.deck), list(self.discard)
    g.legend_deck, g.river = list(self.legend_deck), list(self.river)
    g.draws = list(self.draws)
    return g


def determinize(self: DrakoGame, p: int, rng: GameRng) -> None:
    """Deal what seat ``p`` cannot see anew, consistently with what it sees, from
    ``rng``. It sees every face-up kingdom card, the discard pile, the river, the claims
    and the card in hand; hidden are the face-down cards (its own too), the draw pile's
    order and the legend deck's order. It does not remember which cards a reshuffle put
    into the draw pile (as ``Brain.unseen``). So the pool is the box minus what it sees;
    listed by kind, shuffled, it is dealt to every face-down cell (seat 0 first, cells
    in order), then to the draw pile from the bottom up; the legend deck's cards, listed
    by index, are shuffled (after the pool)."""
    seen: Counter[int] = Counter(self.discard)
    for pl in self.players:
        seen.update(s.kind for s in pl.kingdom if s.face_up)
    if self.hand is not None:
        seen[self.hand[1]] += 1
    pool = [k for k in sorted(self.rules.copies) for _ in range(self.rules.copies[k] - seen[k])]
    rng.shuffle(pool)
    cards = iter(pool)
    for pl in self.players:
        for s in pl.kingdom:
            if not s.face_up:
                s.kind = next(cards)
    self.deck = list(cards)
    self.legend_deck = sorted(self.legend_deck)
    rng.shuffle(self.legend_deck)


def search(
    self: DrakoGame,
    search: Search,
    decision: str,
    p: int,
    options: Sequence[SourceOption],
    values: list[float],
) -> int:
    """``mc``: determinized flat Monte-Carlo search (see the spec page). The ``top``
    options best by greedy's value (ties in option order) each play ``rollouts``
    playouts from the same worlds; the best summed outcome wins, ties to greedy's first
    best. Returns the option's index."""
    ranked = greedy_order(values, search.top)
    number, totals, best = self.search_totals(search, p, ranked)
    if self.record:
        rollouts = search.rollouts if len(ranked) > 1 else 0
        self.emit(
            "search",
            seat=p,
            turn=self.turn,
            decision=decision,
            number=number,
            candidates=[
                {
                    "option": self.describe(p, decision, options[i]),
                    "value": round(values[i], 4),
                    "playouts": rollouts,
                    "mean": flat_mc.mean_outcome(totals[j], rollouts),
                }
                for j, i in enumerate(ranked)
            ],
            chosen=self.describe(p, decision, options[ranked[best]]),
        )
    return ranked[best]
