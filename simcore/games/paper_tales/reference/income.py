"""§2.4 Income: every seat gains ``base_income`` + the income abilities of its units,
building faces and artifacts (``kingdom.assess``, ``kingdom.income_gain``). §N:
``docs/rules/paper-tales.md``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


def income(game: Game) -> None:
    game.phase = "income"
    for p, pl in enumerate(game.players):
        gain = game.assessment(p).income
        pl.gold += gain
        game.emit("income", seat=p, gold=gain, total=pl.gold)
