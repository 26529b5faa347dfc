"""Shared helpers for the Paper Tales tests, base game and Legends (tests can't import each
other under ``--import-mode=importlib``, so helpers are handed out as fixtures).

* ``cards``    - the built-in card set (loaded once per session).
* ``legends``  - the Legends card set (loaded once per session).
* ``cardsets`` - both by variant name, ``cardsets["legends"]`` (tests parametrised by variant).
* ``seat``     - ``seat("knight commander+1", "archer", mine=2, gold=3)`` -> one player's JSON:
                 units separated by spaces, ``+n`` = n age tokens; first the Front row,
                 then the Back row; buildings and gold/lp as keywords.
* ``seats_file`` - ``seats_file(seat0, seat1, ...)`` -> the path of that JSON end state.
* ``score``    - ``score(seat0, seat1, ...)`` -> the ``score_state`` result (seats in order),
                 checked equal to ``score_state_reference``'s (the compiled scoring against
                 the rulebook, on every position a scoring test builds).
* ``table``    - ``table(players=3, policies="greedy", seed=1, **options)`` -> a ``Table``: a
                 reference ``Game`` after setup (turn 1) with helpers that move real cards
                 from the draw pile onto spots, into hands or into buildings, so the phase
                 code of ``reference/`` runs on a constructed position and card conservation
                 holds.
* ``ltable``   - the same on the Legends card set: the game is in its Deployment phase, its
                 seats build every building of the catalog's base and Legends pools (and
                 Port and Abbey with ``use_port_abbey=True``), and the helpers also move
                 artifacts into the zone.

The Legends tests are the files ``test_legends_*.py`` and the cases whose id names the
Legends variant: ``tests/conftest.py`` sends them to an xdist group of their own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from simcore.games.paper_tales.engine import score_state, score_state_reference
from simcore.games.paper_tales.policies import POLICY_NAMES, default_weights
from simcore.games.paper_tales.reference import CardLog, Game, Rules, Slot, ZoneCard
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


@pytest.fixture(scope="session")
def legends() -> CardSet:
    return load_cardset(variant="legends")


@pytest.fixture(scope="session")
def cardsets(cards: CardSet, legends: CardSet) -> dict[str, CardSet]:
    return {"base": cards, "legends": legends}


@pytest.fixture
def seat() -> Callable[..., dict[str, Any]]:
    return make_seat


@pytest.fixture
def seats_file(state_file: Callable[[Any], Path]) -> Callable[..., Path]:
    """``seats_file(seat0, seat1, ...)``: a JSON end state of these seats, written to a file."""
    return lambda *seats: state_file({"players": list(seats)})


@pytest.fixture
def score(cards: CardSet) -> Callable[..., dict[str, Any]]:
    def run(*seats: dict[str, Any]) -> dict[str, Any]:
        result = score_state({"players": list(seats)}, cards)
        assert result == score_state_reference({"players": list(seats)}, cards)
        return result

    return run


class Table:
    """A reference game after setup, with helpers to build a position from real cards (units
    and, in a Legends game, artifacts)."""

    def __init__(self, cards: CardSet, players: int, policies: str, seed: int, **options: Any):
        if options:
            opts = dict(cards.rules.options, **options)
            cards = dataclasses.replace(cards, rules=dataclasses.replace(cards.rules, options=opts))
        self.rules = Rules(cards, players)
        names = policies.split(",") if "," in policies else [policies] * players
        codes = [POLICY_NAMES.index(n) for n in names]
        self.game = Game(self.rules, default_weights(), codes, seed, 0, record=True)
        self.game.setup()
        if cards.legends:
            pools = (
                ("base", "legends", "integral")
                if options.get("use_port_abbey")
                else ("base", "legends")
            )
            self.game.bset = [b for b, bd in enumerate(cards.buildings) if bd.pool in pools]
            self.game.phase = "deployment"
        self.game.turn = 1
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
        """Buildings at these levels (a keyword's ``_`` stands for the id's ``-``)."""
        pl = self.game.players[p]
        for name, lv in levels.items():
            b = self.rules.cards.building_index[name.replace("_", "-")]
            pl.blevel[b] = lv
            pl.buildings[b].level = lv

    def seat(self, p: int):
        return self.game.players[p]

    def units(self, p: int) -> list[tuple[str, int] | None]:
        """(unit id, age) per spot."""
        return [
            (self.rules.card_id(sl.card), sl.age) if sl is not None else None
            for sl in self.game.players[p].spots
        ]

    def zone(self, p: int) -> list[str]:
        return [self.rules.card_id(z.card) for z in self.game.players[p].zone]

    def event(self, kind: str, p: int) -> dict[str, Any]:
        """Seat ``p``'s latest event of ``kind``."""
        return next(e for e in reversed(self.game.events) if e["event"] == kind and e["seat"] == p)

    def reveal(self) -> None:
        """Legends: payment then the tiers, every seat (the Deployment phase after placement)."""
        for p in range(self.game.n):
            self.game.pay_legends(p)
        self.game.tiers()

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

    def end(self, p: int = 0) -> dict[str, int]:
        """Run the End; seat ``p``'s LP parts."""
        self.game.end()
        return self.seat(p).parts

    def end_buildings(self, p: int = 0) -> int:
        """Run the End; seat ``p``'s building LP."""
        return self.end(p)["buildings"]

    def level(self, p: int, building: str) -> int:
        return self.game.players[p].blevel[self.rules.cards.building_index[building]]


@pytest.fixture
def table(cards: CardSet) -> Callable[..., Table]:
    def make(players: int = 3, policies: str = "greedy", seed: int = 1, **options: Any) -> Table:
        return Table(cards, players, policies, seed, **options)

    return make


@pytest.fixture
def ltable(legends: CardSet) -> Callable[..., Table]:
    def make(players: int = 3, policies: str = "greedy", seed: int = 1, **options: Any) -> Table:
        return Table(legends, players, policies, seed, **options)

    return make
