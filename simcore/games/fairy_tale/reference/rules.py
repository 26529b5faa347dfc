"""The card facts in readable form (``Rules``), a game's records (``Player``, its
``Slot``s and ``Received`` cards) and where a game is (``Phase``, ``Position``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from ..tables import (
    FACTIONS,
    CardSet,
    Tables,
    compile_tables,
)

BREAKDOWN = ("fixed", "variable", "conditional", "majority", "trickster")
KIND_COLUMN = {
    "fixed": "fixed",
    "count": "variable",
    "quest_cards": "conditional",
    "quest_majority": "conditional",
    "majority": "majority",
    "wild": "trickster",
}

Event = dict[str, Any]


@dataclass
class Slot:
    """A tableau card: which card, whether it is face up, and which pick brought it."""

    card: int
    face_up: bool
    pick: int


@dataclass
class Received:
    """A card a player received: drafted (pick 1..20) or the beginner starting card (0)."""

    card: int
    round: int
    pick_no: int
    slot: int = -1  # tableau slot once played, -1 if discarded


@dataclass
class Player:
    seat: int
    policy: int
    hand: list[int] = field(default_factory=list)  # the hand being drafted
    kept: list[tuple[int, int]] = field(default_factory=list)  # (card, index in received)
    tableau: list[Slot] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)
    trickster_as: int = -1
    points: list[int] = field(default_factory=list)  # final points per tableau slot
    breakdown: dict[str, int] = field(default_factory=dict)
    score: int = 0


class Rules:
    """Card facts in readable form: ``rules.card(i)`` is the ``Card`` of index ``i``."""

    def __init__(self, cards: CardSet, variant: str) -> None:
        self.cards = cards.cards
        self.tables: Tables = compile_tables(cards, variant)
        vr = cards.rules.variants[variant]
        self.effects = vr.effects
        self.hunt = vr.hunt
        self.beginner = vr.beginner_setup
        self.strict = cards.rules.majority_ties == "strict"
        self.deck = [int(c) for c in self.tables.deck]
        self.in_deck = frozenset(self.deck)
        self.by_id = sorted(range(len(self.cards)), key=lambda i: self.cards[i].id)
        self.index = cards.index

    def value(self, c: int) -> dict[str, Any]:
        return self.cards[c].value

    def effect(self, c: int) -> dict[str, Any]:
        return self.cards[c].effect

    def faction(self, c: int) -> int:
        return FACTIONS.index(self.cards[c].faction)

    def selects(self, effect_card: int, c: int) -> bool:
        """Can the Open/Close of ``effect_card`` pick card ``c``?"""
        e = self.effect(effect_card)
        card = self.cards[c]
        if e.get("faction", "any") != "any" and card.faction != e["faction"]:
            return False
        if "exclude_faction" in e and card.faction == e["exclude_faction"]:
            return False
        return e.get("category", "any") in ("any", card.category)


class Phase(IntEnum):
    """Where a game is (``Position.phase``): what ``play_on`` does next."""

    DEAL = 0  # deal the round's hands, then draft
    DRAFT = 1  # draft step ``step``, seat ``seat`` keeps a card next
    PLAY = 2  # play step ``step``, seat ``seat`` chooses the card it reveals next
    OPEN = 3  # play step ``step``: seat ``seat``'s Open effects, ``sub`` already applied
    CLOSE = 4  # play step ``step``: seat ``seat`` closes cards next (``close_chosen`` so far)
    END = 5  # final scoring done


@dataclass
class Position:
    """Where a game is: a game copied at any decision can be played on from there
    (``play_on``), which is what a search policy's playouts do."""

    round: int = 0
    phase: Phase = Phase.DEAL
    step: int = 0
    seat: int = 0
    sub: int = 0
    top: int = 0  # next undealt card of the deck
