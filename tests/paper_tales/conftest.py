"""Shared helpers for the Paper Tales tests (tests can't import each other under
``--import-mode=importlib``, so helpers are handed out as fixtures).

* ``cards``  - the built-in card set (loaded once per session).
* ``seat``   - ``seat("knight commander+1", "archer", mine=2, gold=3)`` -> one player's JSON:
               units separated by spaces, ``+n`` = n age tokens; first the Front row,
               then the Back row; buildings and gold/lp as keywords.
* ``score``  - ``score(seat0, seat1, ...)`` -> the ``score_state`` result (seats in order),
               checked equal to ``score_state_reference``'s (the compiled scoring against
               the rulebook, on every position a scoring test builds).
* ``table``  - ``table(players=3, policies="greedy", seed=1)`` -> a ``Table``: a reference
               ``Game`` after setup (turn 1) with helpers that move real cards from the
               draw pile onto spots, into hands or into buildings, so the phase code of
               ``reference.py`` runs on a constructed position and card conservation holds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from simcore.games.paper_tales.engine import score_state, score_state_reference
from simcore.games.paper_tales.policies import POLICY_NAMES, default_weights
from simcore.games.paper_tales.reference import CardLog, Game, Rules, Slot
from simcore.games.paper_tales.tables import CardSet, load_cardset


def _row(text: str) -> list[dict[str, Any]]:
    out = []
    for token in text.split():
        unit, _, age = token.partition("+")
        out.append({"unit": unit, "age": int(age or 0)})
    return out


def make_seat(front: str = "", back: str = "", **kw: int) -> dict[str, Any]:
    """One player's JSON: ``kw`` holds building levels, and ``gold``/``lp``."""
    player: dict[str, Any] = {"front": _row(front), "back": _row(back)}
    buildings = {k: v for k, v in kw.items() if k not in ("gold", "lp")}
    if buildings:
        player["buildings"] = buildings
    for key in ("gold", "lp"):
        if key in kw:
            player[key] = kw[key]
    return player


@pytest.fixture(scope="session")
def cards() -> CardSet:
    return load_cardset()


@pytest.fixture
def seat() -> Callable[..., dict[str, Any]]:
    return make_seat


@pytest.fixture
def score(cards: CardSet) -> Callable[..., dict[str, Any]]:
    def run(*seats: dict[str, Any]) -> dict[str, Any]:
        result = score_state({"players": list(seats)}, cards)
        assert result == score_state_reference({"players": list(seats)}, cards)
        return result

    return run


class Table:
    """A reference game after setup, with helpers to build a position from real cards."""

    def __init__(self, cards: CardSet, players: int, policies: str, seed: int, **options: Any):
        if options:
            opts = dict(cards.rules.options, **options)
            cards = dataclasses.replace(cards, rules=dataclasses.replace(cards.rules, options=opts))
        self.rules = Rules(cards, players)
        names = policies.split(",") if "," in policies else [policies] * players
        codes = [POLICY_NAMES.index(n) for n in names]
        self.game = Game(self.rules, default_weights(), codes, seed, 0, record=True)
        self.game.setup()
        self.game.turn = 1
        self.game.freeze_strengths()

    def take(self, unit: str) -> int:
        """Remove a card of ``unit`` from the draw pile (its top-most copy)."""
        g = self.game
        for i in range(len(g.deck) - 1, -1, -1):
            if g.rules.unit(g.deck[i]).id == unit:
                return g.deck.pop(i)
        raise LookupError(f"no {unit} left in the draw pile")

    def put(self, p: int, spot: int, unit: str, age: int = 0, fresh: bool = False) -> Slot:
        """A unit on seat ``p``'s ``spot`` (``fresh``: placed this phase, not revealed)."""
        card = self.take(unit)
        pl = self.game.players[p]
        log = pl.receive(CardLog(card, unit, self.game.turn, 1))
        log.deployed, log.fate = not fresh, "in_play" if not fresh else "hand"
        slot = Slot(card, age=age, fresh=fresh, resolved=not fresh)
        pl.spots[spot] = slot
        return slot

    def hand(self, p: int, *units: str) -> list[int]:
        cards = [self.take(u) for u in units]
        pl = self.game.players[p]
        for c in cards:
            pl.receive(CardLog(c, self.rules.unit(c).id, self.game.turn, 1))
        pl.hand = cards
        return cards

    def build(self, p: int, **levels: int) -> None:
        pl = self.game.players[p]
        for name, lv in levels.items():
            b = self.rules.cards.building_index[name]
            pl.blevel[b] = lv
            pl.buildings[b].level = lv

    def seat(self, p: int):
        return self.game.players[p]

    def units(self, p: int) -> list[tuple[str, int] | None]:
        """(unit id, age) per spot."""
        return [
            (self.rules.unit(sl.card).id, sl.age) if sl is not None else None
            for sl in self.game.players[p].spots
        ]

    def event(self, kind: str, p: int) -> dict[str, Any]:
        """Seat ``p``'s latest event of ``kind``."""
        return next(e for e in reversed(self.game.events) if e["event"] == kind and e["seat"] == p)

    def wars(self, p: int = 0) -> dict[str, Any]:
        """Run the Wars phase; seat ``p``'s event (strength, against, won, lp, gold)."""
        self.game.wars()
        return self.event("wars", p)

    def income(self, p: int = 0) -> int:
        """Run the Income phase; the gold seat ``p`` gained."""
        before = self.seat(p).gold
        self.game.income()
        return self.seat(p).gold - before

    def aging(self, p: int = 0) -> dict[str, Any]:
        """Run the Aging phase; seat ``p``'s event (saved, died, lp, gold)."""
        self.game.aging()
        return self.event("aging", p)

    def end_buildings(self, p: int = 0) -> int:
        """Run the End; seat ``p``'s building LP."""
        self.game.end()
        return self.seat(p).parts["buildings"]

    def level(self, p: int, building: str) -> int:
        return self.game.players[p].blevel[self.rules.cards.building_index[building]]


@pytest.fixture
def table(cards: CardSet) -> Callable[..., Table]:
    def make(players: int = 3, policies: str = "greedy", seed: int = 1, **options: Any) -> Table:
        return Table(cards, players, policies, seed, **options)

    return make
