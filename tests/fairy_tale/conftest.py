"""Shared helpers for the Fairy Tale tests (tests can't import each other under
``--import-mode=importlib``, so helpers are handed out as fixtures).

* ``cards``   - the default card set (loaded once per session).
* ``score``   - ``score(players, variant="expert", cards=None)``: ``score_state`` on a list of
                ``(face_up_ids, face_down_ids)`` pairs.
* ``table``   - a ``Table`` builder for hand-made reference games (effect resolution tests).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from talesim.simcore.games.fairy_tale.engine import score_state
from talesim.simcore.games.fairy_tale.policies import Policy, default_weights
from talesim.simcore.games.fairy_tale.reference import FairyTaleGame, Rules, Slot, _shift
from talesim.simcore.games.fairy_tale.tables import CardSet, load_cardset


@pytest.fixture(scope="session")
def cards() -> CardSet:
    return load_cardset()


@pytest.fixture
def score(cards: CardSet) -> Callable[..., dict[str, Any]]:
    def run(
        players: Sequence[tuple[Sequence[str], Sequence[str]]],
        variant: str = "expert",
        cardset: CardSet | None = None,
    ) -> dict[str, Any]:
        state = {
            "variant": variant,
            "players": [{"face_up": list(up), "face_down": list(down)} for up, down in players],
        }
        return score_state(state, cardset or cards)

    return run


class Table:
    """A hand-built reference game: lay tableaux, reveal one card per player, inspect."""

    def __init__(self, cards: CardSet, variant: str, n_players: int, policy: int) -> None:
        self.rules = Rules(cards, variant)
        self.game = FairyTaleGame(self.rules, default_weights(), [policy] * n_players, 1, 0)
        self.ids = cards.index

    def lay(self, p: int, up: Sequence[str] = (), down: Sequence[str] = ()) -> None:
        """Put cards in player ``p``'s tableau (as ``state_io.place`` does, keeping ``hyp``
        equal to the face-up counts)."""
        g, r = self.game, self.rules
        for cid in up:
            c = self.ids[cid]
            g.players[p].tableau.append(Slot(c, True, -1))
            _shift(r, g.up.cards[p], g.up.factions[p], c, 1)
            _shift(r, g.hyp.cards[p], g.hyp.factions[p], c, 1)
        for cid in down:
            c = self.ids[cid]
            g.players[p].tableau.append(Slot(c, False, -1))
            g.down[p][c] += 1

    def reveal(self, *card_ids: str) -> list[int]:
        """Every player reveals one card (in seat order); then Hunt -> Open -> Close.
        Returns the tableau slot of each revealed card."""
        g = self.game
        assert len(card_ids) == g.n
        cs = [self.ids[cid] for cid in card_ids]
        slots = []
        for p, c in enumerate(cs):
            pick = g.receive(p, c, len(g.players[p].received) + 1)
            slots.append(g.to_tableau(p, c, pick))
        g.resolve_effects(cs, slots)
        return slots

    def up(self, p: int) -> list[str]:
        """Face-up card ids of player ``p``, in tableau order."""
        return [self.rules.cards[s.card].id for s in self.game.players[p].tableau if s.face_up]

    def down(self, p: int) -> list[str]:
        """Face-down card ids of player ``p``, in tableau order."""
        return [self.rules.cards[s.card].id for s in self.game.players[p].tableau if not s.face_up]

    def tableau(self, p: int) -> tuple[list[str], list[str]]:
        """Player ``p``'s tableau: its face-up and its face-down card ids, in tableau order."""
        return self.up(p), self.down(p)

    def check_counts(self) -> None:
        """The game's count rows agree with the tableaux (no effect forgot a counter)."""
        g = self.game
        for p, pl in enumerate(g.players):
            n_cards = len(self.rules.cards)
            up = [0] * n_cards
            down = [0] * n_cards
            for s in pl.tableau:
                (up if s.face_up else down)[s.card] += 1
            assert g.up.cards[p] == up
            assert g.down[p] == down


@pytest.fixture
def table(cards: CardSet) -> Callable[..., Table]:
    """``table(variant, n_players, policy=GREEDY)`` -> a fresh ``Table``."""

    def make(variant: str = "expert", n_players: int = 2, policy: int = Policy.GREEDY) -> Table:
        return Table(cards, variant, n_players, int(policy))

    return make
