"""§3 setup (``setup``, bound as ``DrakoGame.setup``): the Legend river, the shuffled deck,
distinct centres, face-down borders, the first discard (the package docstring's RNG order,
setup 1-5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..tables import (
    BORDER,
    CELLS,
    CENTRE,
    KINDS,
)
from .rules import (
    Slot,
)

if TYPE_CHECKING:
    from .game import DrakoGame


def setup(self: DrakoGame) -> None:
    r = self.rules
    self.legend_deck = list(range(len(r.legends)))
    self.rng.shuffle(self.legend_deck)
    self.river = [self.legend_deck.pop() for _ in range(r.o.legend_row_size)]
    self.deck = list(r.deck)
    self.rng.shuffle(self.deck)
    for pl in self.players:
        pl.kingdom = [Slot(-1, False) for _ in range(CELLS)]
        drawn: list[int] = []
        aside: list[int] = []
        while len(drawn) < len(CENTRE):
            c = self.deck.pop()
            (aside if r.o.setup_center_distinct and c in drawn else drawn).append(c)
        if aside:
            self.deck.extend(aside)
            self.rng.shuffle(self.deck)
        for cell, c in zip(CENTRE, drawn, strict=True):
            pl.kingdom[cell] = Slot(c, True)
    for pl in self.players:
        for cell in BORDER:
            pl.kingdom[cell] = Slot(self.deck.pop(), False)
    self.discard = [self.deck.pop()]
    self.emit(
        "setup",
        river=[r.legends[g].id for g in self.river if g is not None],
        centres=[[KINDS[pl.kingdom[c].kind] for c in CENTRE] for pl in self.players],
        discard=KINDS[self.discard[-1]],
    )
