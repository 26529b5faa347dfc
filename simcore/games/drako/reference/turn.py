"""§4 one turn (bound as ``DrakoGame`` methods of the same name): the source, the Legend
claims before and after the action (§4.5), the action and its legality (§4.3), the
reshuffle (§4.4), and the options and choices of each decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..policies import W_TAKE_BAR
from ..tables import (
    CELLS,
    KINDS,
)
from .rules import (
    Action,
    Claim,
    Draw,
    Slot,
    Source,
    SourceOption,
    Step,
)
from .scoring import KingdomView

if TYPE_CHECKING:
    from .game import DrakoGame


def can_replace(self: DrakoGame, p: int, cell: int, card: int) -> bool:
    s = self.players[p].kingdom[cell]
    if not s.face_up:
        return True  # a face-down card can always be replaced, whatever it is
    if s.kind in self.rules.locked:
        return False  # face-up dragons and portals are locked
    return not (self.rules.o.replace_same_kind_forbidden and s.kind == card)


def legal_actions(self: DrakoGame, p: int, source: Source, card: int) -> list[Action]:
    """In enumeration order: placements on cells 0..15, then (DECK) reveals."""
    actions = [Action(source, c) for c in range(CELLS) if self.can_replace(p, c, card)]
    if source == Source.DECK:
        actions += [Action(source, c, True) for c in self.players[p].face_down()]
    return actions


def sources(self: DrakoGame) -> list[Source]:
    out = []
    if self.discard:
        out.append(Source.DISCARD)
    if self.deck:
        out.append(Source.DECK)
    return out


def claimable(self: DrakoGame, p: int) -> list[int]:
    """River slots whose Legend player ``p`` meets (face-up cards only by default)."""
    face_up_only = self.rules.o.legend_check_face_up_only
    kinds = [s.kind if s.face_up or not face_up_only else None for s in self.players[p].kingdom]
    view = KingdomView(self.rules, kinds)
    return [
        s
        for s, g in enumerate(self.river)
        if g is not None and view.legend_met(self.rules.legends[g])
    ]


def claim(self: DrakoGame, p: int, slot: int, when: str) -> None:
    g = self.river[slot]
    assert g is not None
    self.players[p].claims.append(Claim(g, self.turn, when))
    self.claims_left -= 1
    self.river[slot] = self.legend_deck.pop() if self.legend_deck else None
    self.emit("claim", seat=p, turn=self.turn, legend=self.rules.legends[g].id, when=when)


def take_turn(self: DrakoGame) -> None:
    """The current player's turn from where it is (``step``): source, claim before?,
    action, claims after (not after the final reveal), reshuffle, end of game or turn
    cap."""
    p = self.current
    player = self.players[p]
    if self.step == Step.TURN:
        self.turn += 1
        player.turns += 1
        self.claims_left = self.rules.o.legends_per_turn
        self.step = Step.SOURCE
    planned: Action | None = None
    if self.step == Step.SOURCE:
        source, planned = self.decide_source(p)
        if self.rules.o.legend_claim_timing == "before-or-after" and self.claims_left:
            slot = self.brain.claim_before(p, self.claimable(p), source, planned)
            if slot is not None:
                self.claim(p, slot, "before")
        card = self.discard.pop() if source == Source.DISCARD else self.deck.pop()
        self.hand = (source, card)
        self.step = Step.ACTION
    assert self.hand is not None
    source, card = self.hand
    actions = self.legal_actions(p, source, card)
    if planned is None:
        planned = actions[self.decide_action(p, card, actions)]
    assert planned in actions
    self.apply(p, source, card, planned)
    self.step, self.hand = Step.TURN, None
    final = not player.face_down()
    if not final or self.rules.o.legend_claim_after_final_reveal:
        while self.claims_left and (slots := self.claimable(p)):
            self.claim(p, self.brain.claim_after(p, slots), "after")
    if not self.deck:
        self.reshuffle()
    if final:  # §8: the game ends at once
        self.over = True
        player.ended_game = True
    elif self.turn >= self.rules.max_turns:
        self.over = True
        self.cap_hit = True
    self.current = (p + 1) % self.n


def source_options(self: DrakoGame, p: int) -> list[SourceOption]:
    """The mc source decision's options: each placement of the top discard (in
    enumeration order), then (when the deck has cards) None: draw."""
    options: list[SourceOption] = []
    if self.discard:
        options += self.legal_actions(p, Source.DISCARD, self.discard[-1])
    if self.deck:
        options.append(None)
    return options


def decide_source(self: DrakoGame, p: int) -> tuple[Source, Action | None]:
    sources = self.sources()
    if len(sources) == 1 and sources[0] == Source.DECK:
        return Source.DECK, None
    i = self.forced(p)
    if i is None and self.asked(p) and len(options := self.source_options(p)) > 1:
        i = self.ask("source", p, options, self.source_values(p, options))
    if i is None:
        return self.brain.choose_source(p, sources)
    option = self.source_options(p)[i]
    return (Source.DECK, None) if option is None else (Source.DISCARD, option)


def source_values(self: DrakoGame, p: int, options: list[SourceOption]) -> list[float]:
    """Greedy's value of each source option: a placement's own value, drawing the
    take bar (greedy draws when no placement is worth that much)."""
    card = self.discard[-1] if self.discard else -1
    placements = [a for a in options if a is not None]
    values = self.brain.action_values(p, card, placements) if placements else []
    bar = float(self.weights[self.players[p].policy][W_TAKE_BAR])
    return values + [bar] * (len(options) - len(placements))


def decide_action(self: DrakoGame, p: int, card: int, actions: list[Action]) -> int:
    if len(actions) == 1:
        return 0
    i = self.forced(p)
    if i is not None:
        return i
    if self.asked(p):
        return self.ask("action", p, actions, self.brain.action_values(p, card, actions))
    return self.brain.choose_action(p, card, actions)


def apply(self: DrakoGame, p: int, source: Source, card: int, action: Action) -> bool:
    """Carry out ``action`` with ``card`` in hand; True when it revealed a card."""
    slot = self.players[p].kingdom[action.cell]
    was_down = not slot.face_up
    self.draws.append(
        Draw(p, self.turn, source, card, not action.reveal, action.cell, slot.kind, was_down)
    )
    if action.reveal:
        assert was_down
        self.discard.append(card)
        slot.face_up = True
        self.emit(
            "turn", seat=p, turn=self.turn, source="deck", card=KINDS[card], action="reveal",
            cell=action.cell, revealed=KINDS[slot.kind],
        )  # fmt: skip
        return True
    self.discard.append(slot.kind)  # the replaced card goes face up on the discard pile
    self.emit(
        "turn", seat=p, turn=self.turn, source=source.name.lower(), card=KINDS[card],
        action="place", cell=action.cell, replaced=KINDS[slot.kind], was_face_down=was_down,
    )  # fmt: skip
    self.players[p].kingdom[action.cell] = Slot(card, True, True, self.turn)
    return was_down


def reshuffle(self: DrakoGame) -> None:
    """§4.4: the discard pile (but its top card) becomes the shuffled draw pile."""
    keep = 1 if self.rules.o.reshuffle_discard_keep_top else 0
    if len(self.discard) <= keep:
        return
    self.deck = self.discard[: len(self.discard) - keep]
    self.discard = self.discard[len(self.discard) - keep :]
    self.rng.shuffle(self.deck)
    self.emit("reshuffle", turn=self.turn, cards=len(self.deck))
