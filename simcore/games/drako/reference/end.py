"""§7 final scoring and the §7.5 winners (bound as ``DrakoGame`` methods of the same name),
and the invariants checked after every step (``check_invariants``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..tables import (
    BORDER,
    CELLS,
)
from . import scoring
from .scoring import KingdomView

if TYPE_CHECKING:
    from .game import DrakoGame


def final_scoring(self: DrakoGame) -> None:
    """Reveal every face-down card where it lies, then score (§7, §8)."""
    for pl in self.players:
        for s in pl.kingdom:
            s.face_up = True
    for pl in self.players:
        view = KingdomView(self.rules, [s.kind for s in pl.kingdom])
        held = sum(self.rules.legends[c.legend].points for c in pl.claims)
        pl.breakdown = view.breakdown(held)
        pl.score = sum(pl.breakdown.values())
        pl.legends_met = [g for g, lg in enumerate(self.rules.legends) if view.legend_met(lg)]
    self.emit(
        "final",
        turns=self.turn,
        cap_hit=self.cap_hit,
        scores=[pl.score for pl in self.players],
        breakdown=[pl.breakdown for pl in self.players],
        winners=self.winners(),
    )


def winners(self: DrakoGame) -> list[int]:
    return scoring.winners(
        [pl.score for pl in self.players],
        [pl.breakdown for pl in self.players],
        self.rules.o.tie_break == "categories",
        self.rules.o.tie_break_tribes == "summed",
    )


def check_invariants(self: DrakoGame) -> None:
    """Rule invariants after every step (used by the tests' harness)."""
    assert self.cards_in_play() == self.rules.copies, "card conservation"
    for pl in self.players:
        assert len(pl.kingdom) == CELLS, "16 cards per kingdom"
        assert all(s.kind >= 0 for s in pl.kingdom)
        assert len(pl.face_down()) <= len(BORDER)
    assert self.turn <= self.rules.max_turns
    held = [c.legend for pl in self.players for c in pl.claims]
    in_river = [g for g in self.river if g is not None]
    assert sorted(held + in_river + self.legend_deck) == list(range(len(self.rules.legends)))
