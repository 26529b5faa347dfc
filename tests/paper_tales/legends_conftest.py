"""Helpers for the Legends reference tests (tests cannot import each other under
``--import-mode=importlib``, so helpers are fixtures).

* ``legends`` - the Legends card set (loaded once per session).
* ``ltable``  - ``ltable(players=3, policies="greedy", seed=1, **options)`` -> an ``LTable``:
                a Legends reference ``Game`` after setup (turn 1) whose seats build every
                building of the catalog's base and Legends pools, with helpers that move
                real cards (units and artifacts) from the draw pile onto spots, into the
                artifact zone or into hands, so card conservation holds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from simcore.games.paper_tales.policies import POLICY_NAMES, default_weights
from simcore.games.paper_tales.reference import CardLog, Game, Rules, Slot, ZoneCard
from simcore.games.paper_tales.tables import CardSet, load_cardset


@pytest.fixture(scope="session")
def legends() -> CardSet:
    return load_cardset(variant="legends")


class LTable:
    """A Legends reference game after setup, with helpers to build a position."""

    def __init__(self, cards: CardSet, players: int, policies: str, seed: int, **options: Any):
        if options:
            opts = dict(cards.rules.options, **options)
            cards = dataclasses.replace(cards, rules=dataclasses.replace(cards.rules, options=opts))
        self.rules = Rules(cards, players)
        names = policies.split(",") if "," in policies else [policies] * players
        codes = [POLICY_NAMES.index(n) for n in names]
        self.game = Game(self.rules, default_weights(), codes, seed, 0, record=True)
        self.game.setup()
        pools = (
            ("base", "legends", "integral")
            if options.get("use_port_abbey")
            else ("base", "legends")
        )
        self.game.bset = [b for b, bd in enumerate(cards.buildings) if bd.pool in pools]
        self.game.turn = 1
        self.game.phase = "deployment"
        self.game.freeze_strengths()

    def take(self, cid: str) -> int:
        """Remove a card (unit or artifact id) from the draw pile (its top-most copy)."""
        g = self.game
        for i in range(len(g.deck) - 1, -1, -1):
            if g.rules.card_id(g.deck[i]) == cid:
                return g.deck.pop(i)
        raise LookupError(f"no {cid} left in the draw pile")

    def _log(self, p: int, card: int) -> CardLog:
        kind = "artifact" if self.rules.is_artifact(card) else "unit"
        return self.game.players[p].receive(
            CardLog(card, self.rules.card_id(card), self.game.turn, 1, kind=kind)
        )

    def put(self, p: int, spot: int, unit: str, age: int = 0, fresh: bool = False) -> Slot:
        """A unit on seat ``p``'s ``spot`` (``fresh``: placed this phase, not revealed)."""
        card = self.take(unit)
        log = self._log(p, card)
        log.deployed, log.fate = not fresh, "in_play" if not fresh else "hand"
        slot = Slot(card, age=age, fresh=fresh, resolved=not fresh)
        self.game.players[p].spots[spot] = slot
        return slot

    def art(self, p: int, artifact: str, placed: bool = False) -> ZoneCard:
        """An artifact in seat ``p``'s zone (``placed``: face down this phase, unpaid)."""
        card = self.take(artifact)
        log = self._log(p, card)
        if not placed:
            log.deployed, log.fate, log.row = True, "in_zone", "zone"
        z = ZoneCard(card, self.rules.artifact_of(card), fresh=placed, paid=not placed)
        self.game.players[p].zone.append(z)
        return z

    def hand(self, p: int, *cids: str) -> list[int]:
        cards = [self.take(c) for c in cids]
        for c in cards:
            self._log(p, c)
        self.game.players[p].hand = cards
        return cards

    def build(self, p: int, **levels: int) -> None:
        pl = self.game.players[p]
        for name, lv in levels.items():
            b = self.rules.cards.building_index[name.replace("_", "-")]
            pl.blevel[b] = lv
            pl.buildings[b].level = lv

    def seat(self, p: int):
        return self.game.players[p]

    def units(self, p: int) -> list[tuple[str, int] | None]:
        return [
            (self.rules.card_id(sl.card), sl.age) if sl is not None else None
            for sl in self.game.players[p].spots
        ]

    def zone(self, p: int) -> list[str]:
        return [self.rules.card_id(z.card) for z in self.game.players[p].zone]

    def event(self, kind: str, p: int) -> dict[str, Any]:
        return next(e for e in reversed(self.game.events) if e["event"] == kind and e["seat"] == p)

    def reveal(self) -> None:
        """Payment then the tiers, every seat (the Deployment phase after placement)."""
        for p in range(self.game.n):
            self.game.pay_legends(p)
        self.game.tiers()

    def wars(self, p: int = 0) -> dict[str, Any]:
        self.game.wars()
        return self.event("wars", p)

    def income(self, p: int = 0) -> int:
        before = self.seat(p).gold
        self.game.income()
        return self.seat(p).gold - before

    def aging(self, p: int = 0) -> dict[str, Any]:
        self.game.aging()
        return self.event("aging", p)

    def end(self, p: int = 0) -> dict[str, int]:
        self.game.end()
        return self.seat(p).parts

    def level(self, p: int, building: str) -> int:
        return self.game.players[p].blevel[self.rules.cards.building_index[building]]


@pytest.fixture
def ltable(legends: CardSet) -> Callable[..., LTable]:
    def make(players: int = 3, policies: str = "greedy", seed: int = 1, **options: Any) -> LTable:
        return LTable(legends, players, policies, seed, **options)

    return make
