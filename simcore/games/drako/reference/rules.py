"""The game's records in readable form: ``Rules`` (one preset at one player count), the
sources and actions of a turn (``Source``, ``Action``, ``SourceOption``, ``Draw``: the
decision a turn records), a kingdom's cards
and a seat (``Slot``, ``Claim``, ``Player``) and how far a turn has got (``Step``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from ..tables import (
    CELLS,
    CENTRE,
    KINDS,
    CardSet,
    Category,
    Kind,
    neighbour_masks,
)

Event = dict[str, Any]
TRIBE_BREAKDOWN = {Kind.ELF: "elf", Kind.DWARF: "dwarf", Kind.HUMAN: "human", Kind.GOBLIN: "goblin"}


class Source(IntEnum):
    DISCARD = 0  # take the top discard; it must be placed (§4.1 A)
    DECK = 1  # draw the top card; place it, or discard it and reveal a face-down card (§4.1 B)


@dataclass(frozen=True)
class Action:
    source: Source
    cell: int  # where the card is placed, or (reveal) the face-down cell revealed
    reveal: bool = False  # DECK only: the drawn card goes to the discard pile


@dataclass(frozen=True)
class Draw:
    """One draw decision (§4.1: every turn takes one card), a row of the ``draws`` table."""

    seat: int
    turn: int
    source: Source
    card: int  # the kind taken
    placed: bool  # False: a drawn card discarded, ``cell`` revealed
    cell: int  # placed on, or revealed
    covered: int  # the kind that lay on ``cell``: replaced, or revealed
    face_down: bool  # ``cell`` was face down before the action

    def row(self) -> tuple[int, int, str, str, bool, int, str, bool]:
        """The row as the ``draws`` table holds it (ids for the codes)."""
        return (
            self.seat, self.turn, self.source.name.lower(), KINDS[self.card], self.placed,
            self.cell, KINDS[self.covered], self.face_down,
        )  # fmt: skip


@dataclass
class Slot:
    """One card of a kingdom."""

    kind: int
    face_up: bool
    replaced: bool = False  # this cell's card was replaced at least once
    turn_placed: int = 0  # 0: dealt at setup; else the game turn that placed it


@dataclass(frozen=True)
class Claim:
    legend: int  # index in CardSet.legends
    turn: int
    when: str  # "before" or "after" the action


@dataclass
class Player:
    seat: int
    policy: int
    kingdom: list[Slot] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    turns: int = 0
    ended_game: bool = False
    breakdown: dict[str, int] = field(default_factory=dict)
    score: int = 0
    legends_met: list[int] = field(default_factory=list)  # at the end, all cards face up

    def face_down(self) -> list[int]:
        return [c for c, s in enumerate(self.kingdom) if not s.face_up]


class Rules:
    """One preset at one player count, in readable form."""

    def __init__(self, data: CardSet, preset: str, players: int) -> None:
        self.data = data
        self.preset = preset
        self.players = players
        self.o = data.preset(preset).options
        self.kinds = data.kinds
        self.legends = data.legends
        masks = neighbour_masks(self.o.orthogonal_only)
        self.neighbours = tuple(
            tuple(j for j in range(CELLS) if (int(masks[i]) >> j) & 1) for i in range(CELLS)
        )
        self.deck = data.deck(players)
        self.copies = Counter(self.deck)
        self.category = [Category[k.category.upper()] for k in self.kinds]
        self.blind = {i for i, k in enumerate(self.kinds) if k.portal_blind}
        self.tame = [i for i, k in enumerate(self.kinds) if k.domesticates]
        self.locked = {KINDS.index(k) for k in self.o.replace_locked}
        self.land_points = {
            (t, KINDS.index(land)): pts
            for t, k in enumerate(self.kinds)
            for land, pts in k.land_points.items()
        }
        pairs = [*self.o.rivals] + ([("goblin", "goblin")] if self.o.goblin_goblin_conflict else [])
        self.rivals = {frozenset((KINDS.index(a), KINDS.index(b))) for a, b in pairs}
        self.max_turns = self.o.turns_per_player_cap * players
        if len(self.deck) < CELLS * players + 1:
            raise ValueError(
                f"{players} players need {CELLS * players + 1} kingdom cards; the deck has "
                f"{len(self.deck)}"
            )
        if self.o.setup_center_distinct and len(self.copies) < len(CENTRE):
            raise ValueError(f"a distinct centre needs {len(CENTRE)} kinds in the deck")

    def is_land(self, k: int) -> bool:
        return self.category[k] == Category.LAND

    def is_tribe(self, k: int) -> bool:
        return self.category[k] == Category.TRIBE

    def dragon_value(self, n: int) -> int:
        values = self.o.dragon_values
        return values[min(n, len(values)) - 1]


class Step(IntEnum):
    """How far the current seat's turn has got (``DrakoGame.step``): where ``play_on``
    continues (kernel ``policies.STEP_*``)."""

    TURN = 0  # the turn begins: nothing of it done yet
    SOURCE = 1  # the turn is counted; the seat chooses its source next
    ACTION = 2  # the card is in hand (``DrakoGame.hand``), the claim before made; the action next


#: An option of the source decision: a placement of the top discard, or None: draw.
SourceOption = Action | None
