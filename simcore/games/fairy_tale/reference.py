"""Fairy Tale in plain Python: the executable rulebook.

Readable, object-based and slow. It draws from the same random stream as the numba kernel
and makes the same decisions, so for the same (seed, game id, policies, cards, variant) it
plays exactly the same game (``tests/fairy_tale/test_reference_vs_kernel.py``). Scores are
always recomputed from scratch here (``total``); the kernel's incremental shortcuts must
agree with it.

Rules (reference §0, §3-§5):
  setup    shuffle the deck; beginner: each player gets one face-up card without Open/Close
  round    x4: deal 5 (beginner round 1: 4); pick one, pass the rest (left = seat+1 in rounds
           1 and 3, right in 2 and 4) until all are kept; then 3 play steps (beginner round
           1: 2): everyone reveals one kept card, then Hunt -> Open -> Close; discard the rest
  end      face-down cards score 0; a face-up Trickster copies the best other card; majorities
           compare face-up counts; ties share the win
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

import numpy as np

from simcore import flat_mc
from simcore.rng import GameRng

from .policies import N_WEIGHTS, W_DENY, W_EFFECT, W_GAIN, W_HARM, W_SYNERGY, Decision, Policy
from .tables import (
    DEAL,
    FACTIONS,
    MAX_PLAYERS,
    PLAYS,
    ROUNDS,
    TABLEAU,
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


# --- scoring (reference §5) -------------------------------------------------------------


class Counts:
    """Face-up counts of every player, by card and by faction. Rows are plain lists so a
    policy can add a hypothetical card to a row and take it back."""

    def __init__(self, n_players: int, n_cards: int) -> None:
        self.cards = [[0] * n_cards for _ in range(n_players)]
        self.factions = [[0] * len(FACTIONS) for _ in range(n_players)]


def copy_value(
    rules: Rules, u: int, own: list[int], own_fc: list[int], counts: Counts, p: int
) -> int:
    """Points of one face-up copy of ``u`` for player ``p`` whose counts are ``own``."""
    v = rules.value(u)
    others = [q for q in range(len(counts.cards)) if q != p]

    def leads(mine: int, theirs: list[int]) -> bool:
        if mine == 0:
            return False
        return all(t < mine or (t == mine and not rules.strict) for t in theirs)

    kind = v["kind"]
    if kind in ("fixed", "wild"):
        return v["points"]
    if kind == "count":
        return v["per"] * own[rules.index[v["of"]]]
    if kind == "quest_cards":
        return v["points"] if all(own[rules.index[n]] > 0 for n in v["needs"]) else 0
    if kind == "quest_majority":
        f = FACTIONS.index(v["faction"])
        return v["points"] if leads(own_fc[f], [counts.factions[q][f] for q in others]) else 0
    assert kind == "majority"
    return v["points"] if leads(own[u], [counts.cards[q][u] for q in others]) else 0


def total(rules: Rules, own: list[int], own_fc: list[int], counts: Counts, p: int) -> int:
    """Score of the face-up cards counted in ``own`` (a Trickster counts only its -1)."""
    return sum(
        own[u] * copy_value(rules, u, own, own_fc, counts, p) for u in range(len(own)) if own[u]
    )


def _shift(rules: Rules, own: list[int], own_fc: list[int], c: int, k: int) -> None:
    own[c] += k
    own_fc[rules.faction(c)] += k


def gain_of_adding(
    rules: Rules, c: int, own: list[int], own_fc: list[int], counts: Counts, p: int
) -> int:
    before = total(rules, own, own_fc, counts, p)
    _shift(rules, own, own_fc, c, 1)
    after = total(rules, own, own_fc, counts, p)
    _shift(rules, own, own_fc, c, -1)
    return after - before


def card_gain(
    rules: Rules, c: int, own: list[int], own_fc: list[int], counts: Counts, p: int
) -> int:
    """What one more face-up ``c`` is worth to ``p``, as every decision values it: its
    ``gain_of_adding``; a Trickster its own points plus the best gain of a card it can copy
    (what it scores at the end if nothing else changes)."""
    if rules.value(c)["kind"] != "wild":
        return gain_of_adding(rules, c, own, own_fc, counts, p)
    best = max(
        (
            gain_of_adding(rules, u, own, own_fc, counts, p)
            for u in range(len(rules.cards))
            if u in rules.in_deck and rules.value(u)["kind"] != "wild"
        ),
        default=0,
    )
    return rules.value(c)["points"] + best


def card_loss(
    rules: Rules, c: int, own: list[int], own_fc: list[int], counts: Counts, p: int
) -> int:
    """What turning one face-up ``c`` face down costs ``p``: ``card_gain`` of ``c`` without
    it (a Trickster loses its points and its best copy, not just its points)."""
    _shift(rules, own, own_fc, c, -1)
    d = card_gain(rules, c, own, own_fc, counts, p)
    _shift(rules, own, own_fc, c, 1)
    return d


# --- policies (same formulas as policies.py) ---------------------------------------------


class Brain:
    """The heuristic players, restated readably. See ``policies.py`` for the formulas."""

    def __init__(self, rules: Rules, weights: np.ndarray, rng: GameRng) -> None:
        self.rules = rules
        self.weights = weights
        self.rng = rng

    def card_gain(self, c: int, own: list[int], own_fc: list[int], counts: Counts, p: int) -> int:
        return card_gain(self.rules, c, own, own_fc, counts, p)

    def least_close_loss(
        self, e: int, own: list[int], own_fc: list[int], counts: Counts, p: int
    ) -> int:
        """The owner closes, one by one, the matching card that costs least (lowest index
        on ties)."""
        r = self.rules
        lost = 0
        removed = []
        for _ in range(r.effect(e)["count"]):
            options = [
                (card_loss(r, t, own, own_fc, counts, p), t)
                for t in range(len(own))
                if own[t] > 0 and r.selects(e, t)
            ]
            if not options:
                break
            loss, t = min(options)
            lost += loss
            _shift(r, own, own_fc, t, -1)
            removed.append(t)
        for t in removed:
            _shift(r, own, own_fc, t, 1)
        return lost

    def open_gain(
        self, e: int, own: list[int], own_fc: list[int], down: list[int], counts: Counts, p: int
    ) -> int:
        r = self.rules
        gained = 0
        opened = []
        for _ in range(r.effect(e)["count"]):
            options = [
                (card_gain(r, t, own, own_fc, counts, p), -t)
                for t in range(len(own))
                if down[t] > 0 and r.selects(e, t)
            ]
            if not options:
                break
            gain, neg_t = max(options)
            gained += gain
            _shift(r, own, own_fc, -neg_t, 1)
            down[-neg_t] -= 1
            opened.append(-neg_t)
        for t in opened:
            _shift(r, own, own_fc, t, -1)
            down[t] += 1
        return gained

    def effect_terms(
        self,
        c: int,
        own: list[int],
        own_fc: list[int],
        down: list[int],
        counts: Counts,
        p: int,
        want_harm: bool,
    ) -> tuple[int, int]:
        r = self.rules
        e = r.effect(c)
        if e["kind"] not in ("open", "close"):
            return 0, 0
        _shift(r, own, own_fc, c, 1)
        eff = harm = 0
        if e["kind"] == "open":
            eff = self.open_gain(c, own, own_fc, down, counts, p)
        else:
            if e["scope"] != "others":
                eff = -self.least_close_loss(c, own, own_fc, counts, p)
            if e["scope"] != "you" and want_harm:
                harm = sum(
                    self.least_close_loss(c, counts.cards[q], counts.factions[q], counts, q)
                    for q in range(len(counts.cards))
                    if q != p
                )
        _shift(r, own, own_fc, c, -1)
        return eff, harm

    def synergy(self, c: int, own: list[int], own_fc: list[int], counts: Counts, p: int) -> int:
        r = self.rules
        v = r.value(c)
        if v["kind"] == "wild":
            return 0
        related = [c]
        if v["kind"] == "count" and r.index[v["of"]] != c:
            related.append(r.index[v["of"]])
        if v["kind"] == "quest_cards":
            related += [r.index[n] for n in v["needs"]]
        related += [int(u) for u in r.tables.deps[c] if u >= 0]

        def interaction(u: int) -> int:
            without = gain_of_adding(r, u, own, own_fc, counts, p)
            _shift(r, own, own_fc, c, 1)
            with_c = gain_of_adding(r, u, own, own_fc, counts, p)
            _shift(r, own, own_fc, c, -1)
            return with_c - without

        return max(interaction(u) for u in related)

    def value(
        self,
        decision: Decision,
        w: np.ndarray,
        c: int,
        own: list[int],
        own_fc: list[int],
        down: list[int],
        counts: Counts,
        p: int,
        neighbour: int,
    ) -> float:
        r = self.rules
        if decision == Decision.OPEN:
            return float(card_gain(r, c, own, own_fc, counts, p))
        if decision == Decision.CLOSE:
            return float(-card_loss(r, c, own, own_fc, counts, p))
        gain = eff = harm = syn = deny = 0
        if w[W_GAIN] != 0.0:
            gain = self.card_gain(c, own, own_fc, counts, p)
        if w[W_EFFECT] != 0.0 or w[W_HARM] != 0.0:
            eff, harm = self.effect_terms(c, own, own_fc, down, counts, p, w[W_HARM] != 0.0)
        if decision == Decision.DRAFT:
            if w[W_SYNERGY] != 0.0:
                syn = self.synergy(c, own, own_fc, counts, p)
            if w[W_DENY] != 0.0 and neighbour != p:
                deny = self.card_gain(
                    c, counts.cards[neighbour], counts.factions[neighbour], counts, neighbour
                )
        return float(
            w[W_GAIN] * gain
            + w[W_EFFECT] * eff
            + w[W_HARM] * harm
            + w[W_SYNERGY] * syn
            + w[W_DENY] * deny
        )

    def choose(
        self,
        policy: int,
        decision: Decision,
        options: list[int],
        own: list[int],
        own_fc: list[int],
        down: list[int],
        counts: Counts,
        p: int,
        neighbour: int,
    ) -> int:
        """Index of the chosen option (first best); ``random`` draws from the stream."""
        if policy == Policy.RANDOM:
            return self.rng.below(len(options))
        w = self.weights[policy]
        assert len(w) == N_WEIGHTS
        values = [
            self.value(decision, w, c, own, own_fc, down, counts, p, neighbour) for c in options
        ]
        return values.index(max(values))


# --- the game ----------------------------------------------------------------------------


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


#: A search outcome in whole units: a win is worth ``OUTCOME_UNIT`` (shared k ways:
#: ``OUTCOME_UNIT // k``, exact for k <= 5), plus ``MARGIN_WEIGHT`` per point of margin over
#: the best other player, the margin clipped to ``±MARGIN_CLIP``: win + 0.001 x margin.
OUTCOME_UNIT = 60_000
MARGIN_WEIGHT = 60
MARGIN_CLIP = 50


@dataclass(frozen=True)
class Search:
    """An ``mc`` seat's parameters (its policy spec)."""

    rollouts: int
    top: int
    playout: int  # the heuristic (``Policy``) every seat plays in the playouts


class FairyTaleGame:
    """One game. ``run()`` plays it to the end; ``events`` narrates it if ``record``.

    The game is resumable: ``pos`` says where it is, and everything ``play_on`` needs to
    continue from there is in the object, so ``clone()`` at any decision can be played on
    to the end. The hands being drafted stay in ``rows`` (row h: the hand dealt to seat
    h); passing moves which seat reads a row: at draft step s seat p reads row
    ``(p + s * back) % n`` (``back`` = n - 1 in rounds 1 and 3, when hands pass left to
    seat + 1, else 1)."""

    def __init__(
        self,
        rules: Rules,
        weights: np.ndarray,
        seat_policies: list[int],
        seed: int,
        game_id: int,
        record: bool = False,
        searches: list[Search | None] | None = None,
    ) -> None:
        assert 1 <= len(seat_policies) <= MAX_PLAYERS  # 1: scoring a lone tableau
        self.rules = rules
        self.weights = weights
        self.n = len(seat_policies)
        self.seed = seed
        self.game_id = game_id
        self.rng = GameRng(seed, game_id)
        self.brain = Brain(rules, weights, self.rng)
        # typed as flat_mc.SearchGame declares it (mypy matches a settable member exactly)
        self.players: Sequence[Player] = [
            Player(seat, pol) for seat, pol in enumerate(seat_policies)
        ]
        self.searches = list(searches) if searches is not None else [None] * self.n
        self.search_count = [0] * self.n  # decisions each search seat has made
        n_cards = len(rules.cards)
        self.up = Counts(self.n, n_cards)  # face-up counts
        self.down = [[0] * n_cards for _ in range(self.n)]  # face-down counts
        # What a drafter can count on: face up + kept this round.
        self.hyp = Counts(self.n, n_cards)
        self.record = record
        self.events: list[Event] = []
        self.pos = Position()
        self.deck: list[int] = []
        self.rows: list[list[int]] = [[] for _ in range(self.n)]
        self.revealed: list[tuple[int, int] | None] = [None] * self.n  # this step's (card, pick)
        self.slots: list[int] = [-1] * self.n  # tableau slot of each revealed card
        self.hunted = [False] * self.n
        self.aimed: list[list[int]] = [[] for _ in range(self.n)]  # Close effects per player
        self.close_chosen: list[int] = []  # slots closed so far by the player at pos.seat
        self.force: tuple[int, int] | None = None  # (seat, option index) decided already

    @property
    def round(self) -> int:
        return self.pos.round

    @property
    def step(self) -> int:
        return self.pos.step

    # -- helpers ---------------------------------------------------------------------
    def emit(self, event: str, **data: Any) -> None:
        if self.record:
            self.events.append({"event": event, **data})

    def cid(self, c: int) -> str:
        return self.rules.cards[c].id

    def hand_size(self) -> int:
        """Cards dealt per player this round (beginner round 1: 4)."""
        return DEAL - 1 if self.rules.beginner and self.pos.round == 0 else DEAL

    def plays(self) -> int:
        """Play steps this round (beginner round 1: 2)."""
        return PLAYS - 1 if self.rules.beginner and self.pos.round == 0 else PLAYS

    def back(self) -> int:
        """How the row a seat reads moves each draft step (see the class docstring)."""
        return self.n - 1 if self.pos.round % 2 == 0 else 1

    def row_of(self, p: int, step: int) -> int:
        """The row (hand dealt to that seat) seat ``p`` drafts from at draft step ``step``."""
        return (p + step * self.back()) % self.n

    def decide(self, decision: Decision, p: int, options: list[int], neighbour: int) -> int:
        if len(options) == 1:
            return 0  # forced: no policy asked, no random number drawn
        if self.force is not None and self.force[0] == p:
            i = self.force[1]  # decided already (by a search; a playout's candidate)
            self.force = None
            return i
        search = self.searches[p]
        if search is not None:
            return self.search_decide(search, decision, p, options, neighbour)
        own, own_fc = self.own_counts(decision, p)
        return self.brain.choose(
            self.players[p].policy,
            decision,
            options,
            own,
            own_fc,
            self.down[p],
            self.up,
            p,
            neighbour,
        )

    def own_counts(self, decision: Decision, p: int) -> tuple[list[int], list[int]]:
        if decision == Decision.DRAFT:
            return self.hyp.cards[p], self.hyp.factions[p]
        return self.up.cards[p], self.up.factions[p]

    def receive(self, p: int, c: int, pick_no: int) -> int:
        player = self.players[p]
        player.received.append(Received(c, self.round + 1, pick_no))
        return len(player.received) - 1

    def to_tableau(self, p: int, c: int, pick: int) -> int:
        player = self.players[p]
        player.tableau.append(Slot(c, True, pick))
        slot = len(player.tableau) - 1
        player.received[pick].slot = slot
        _shift(self.rules, self.up.cards[p], self.up.factions[p], c, 1)
        assert len(player.tableau) <= TABLEAU
        return slot

    def turn(self, p: int, slot: int, face_up: bool) -> None:
        """Open (face_up=True) or close a tableau card."""
        s = self.players[p].tableau[slot]
        assert s.face_up != face_up
        s.face_up = face_up
        k = 1 if face_up else -1
        _shift(self.rules, self.up.cards[p], self.up.factions[p], s.card, k)
        _shift(self.rules, self.hyp.cards[p], self.hyp.factions[p], s.card, k)
        self.down[p][s.card] -= k

    # -- phases ----------------------------------------------------------------------
    def run(self) -> FairyTaleGame:
        """A new game (shuffle, beginner start), then play on to the end."""
        self.deck = list(self.rules.deck)
        self.rng.shuffle(self.deck)
        if self.rules.beginner:
            self.pos.top = self.beginner_start(self.deck)
        return self.play_on()

    def play_on(self) -> FairyTaleGame:
        """Play from ``pos`` to the end (final scoring included)."""
        while self.pos.round < ROUNDS:
            if self.pos.phase == Phase.DEAL:
                self.deal()
            if self.pos.phase == Phase.DRAFT:
                self.draft()
            self.play_round()
        if self.pos.phase != Phase.END:
            self.final_scoring()
            self.pos.phase = Phase.END
        return self

    def beginner_start(self, deck: list[int]) -> int:
        """Each player gets one face-up card; one with Open/Close goes back to a random place
        in the undealt deck and the player draws again."""
        top = 0
        for p in range(self.n):
            while self.rules.effect(deck[top])["kind"] in ("open", "close"):
                j = top + 1 + self.rng.below(len(deck) - top - 1)
                deck[top], deck[j] = deck[j], deck[top]
            c = deck[top]
            top += 1
            pick = self.receive(p, c, 0)
            self.to_tableau(p, c, pick)
            _shift(self.rules, self.hyp.cards[p], self.hyp.factions[p], c, 1)
            self.emit("start_card", seat=p, card=self.cid(c))
        return top

    def deal(self) -> None:
        hand_size = self.hand_size()
        for p, player in enumerate(self.players):
            self.rows[p] = self.deck[self.pos.top : self.pos.top + hand_size]
            self.pos.top += hand_size
            player.kept = []
            self.emit(
                "deal", round=self.round + 1, seat=p, cards=[self.cid(c) for c in self.rows[p]]
            )
        self.pos.phase, self.pos.step, self.pos.seat = Phase.DRAFT, 0, 0

    def draft(self) -> None:
        """Every seat keeps one card of the hand it reads, step after step, until every
        card is kept (hands pass left in rounds 1 and 3, right in 2 and 4)."""
        pick_offset = 1 if self.rules.beginner else 0
        direction = 1 if self.round % 2 == 0 else -1  # left = seat+1 in rounds 1 and 3
        for step in range(self.pos.step, self.hand_size()):
            self.pos.step = step
            for p in range(self.pos.seat, self.n):
                self.pos.seat = p
                player = self.players[p]
                hand = self.rows[self.row_of(p, step)]
                neighbour = (p + direction) % self.n
                i = self.decide(Decision.DRAFT, p, hand, neighbour)
                c = hand.pop(i)
                pick = self.receive(p, c, len(player.received) + 1 - pick_offset)
                player.kept.append((c, pick))
                _shift(self.rules, self.hyp.cards[p], self.hyp.factions[p], c, 1)
                self.emit(
                    "pick",
                    round=self.round + 1,
                    pick=player.received[pick].pick_no,
                    seat=p,
                    card=self.cid(c),
                )
            self.pos.seat = 0
        self.pos.phase, self.pos.step, self.pos.seat = Phase.PLAY, 0, 0

    def play_round(self) -> None:
        for step in range(self.pos.step, self.plays()):
            self.pos.step = step
            if self.pos.phase == Phase.PLAY:
                for p in range(self.pos.seat, self.n):
                    self.pos.seat = p
                    player = self.players[p]
                    i = self.decide(Decision.PLAY, p, [c for c, _ in player.kept], p)
                    self.revealed[p] = player.kept.pop(i)
                for p in range(self.n):
                    c, pick = self.revealed[p]  # type: ignore[misc]
                    self.slots[p] = self.to_tableau(p, c, pick)
                    self.emit(
                        "reveal", round=self.round + 1, step=step + 1, seat=p, card=self.cid(c)
                    )
                self.hunt()
                self.pos.phase, self.pos.seat, self.pos.sub = Phase.OPEN, 0, 0
            self.resolve_open_close()
            self.pos.phase, self.pos.seat = Phase.PLAY, 0
        for p, player in enumerate(self.players):
            for c, _ in player.kept:
                _shift(self.rules, self.hyp.cards[p], self.hyp.factions[p], c, -1)
            if player.kept:
                self.emit(
                    "discard",
                    round=self.round + 1,
                    seat=p,
                    cards=[self.cid(c) for c, _ in player.kept],
                )
            player.kept = []
        self.pos.round += 1
        self.pos.phase, self.pos.step, self.pos.seat = Phase.DEAL, 0, 0

    def resolve_effects(self, revealed: list[int], slots: list[int]) -> None:
        """Hunt -> Open -> Close (reference §4) of the cards ``revealed`` (one per seat, at
        tableau ``slots``)."""
        self.revealed = [(c, -1) for c in revealed]
        self.slots = list(slots)
        self.hunt()
        self.pos.phase, self.pos.seat, self.pos.sub = Phase.OPEN, 0, 0
        self.resolve_open_close()

    def hunt(self) -> None:
        """Each Hunt card turns face down the cards of its faction revealed this step by the
        other players (their effects are cancelled)."""
        r = self.rules
        revealed = [rc[0] for rc in self.revealed]  # type: ignore[index]
        self.hunted = [False] * self.n
        if not r.hunt:
            return
        for h, e in enumerate(revealed):
            if r.effect(e)["kind"] != "hunt":
                continue
            prey = r.effect(e)["faction"]
            for q in range(self.n):
                if q != h and r.cards[revealed[q]].faction == prey:
                    self.hunted[q] = True
                    self.emit(
                        "hunt",
                        seat=h,
                        card=self.cid(e),
                        target_seat=q,
                        target=self.cid(revealed[q]),
                    )
        for q in range(self.n):
            if self.hunted[q] and self.players[q].tableau[self.slots[q]].face_up:
                self.turn(q, self.slots[q], False)

    def resolve_open_close(self) -> None:
        """Open, then Close, from ``pos`` (``Phase.OPEN`` or ``Phase.CLOSE``)."""
        r = self.rules
        revealed = [rc[0] for rc in self.revealed]  # type: ignore[index]
        if not r.effects:
            return
        if self.pos.phase == Phase.OPEN:
            for p in range(self.pos.seat, self.n):
                self.pos.seat = p
                e = revealed[p]
                if self.hunted[p] or r.effect(e)["kind"] != "open":
                    continue
                for k in range(self.pos.sub, r.effect(e)["count"]):
                    self.pos.sub = k
                    tableau = self.players[p].tableau
                    options = [
                        s for s, t in enumerate(tableau) if not t.face_up and r.selects(e, t.card)
                    ]
                    if not options:
                        break
                    i = self.decide(Decision.OPEN, p, [tableau[s].card for s in options], p)
                    self.turn(p, options[i], True)
                    self.emit(
                        "open", seat=p, by=self.cid(e), card=self.cid(tableau[options[i]].card)
                    )
                self.pos.sub = 0
            self.aimed = [[] for _ in range(self.n)]
            for p, e in enumerate(revealed):
                eff = r.effect(e)
                if self.hunted[p] or eff["kind"] != "close":
                    continue
                for q in range(self.n):
                    if (eff["scope"] == "you" and q != p) or (eff["scope"] == "others" and q == p):
                        continue
                    self.aimed[q] += [e] * eff["count"]
            self.pos.phase, self.pos.seat = Phase.CLOSE, 0
            self.close_chosen = []
        for q in range(self.pos.seat, self.n):
            self.pos.seat = q
            if self.aimed[q]:
                self.resolve_closes(q, self.aimed[q])
            self.close_chosen = []

    def resolve_closes(self, q: int, effects: list[int]) -> None:
        """Player ``q`` closes as many distinct face-up cards as ``effects`` allow (a maximum
        matching of cards to effects), choosing one card at a time among those that can
        still be matched together with the ones already chosen (``close_chosen``)."""
        tableau = self.players[q].tableau
        chosen = self.close_chosen
        while True:
            options = [
                s
                for s, t in enumerate(tableau)
                if t.face_up and self.matchable([tableau[x].card for x in [*chosen, s]], effects)
            ]
            if not options:
                return
            i = self.decide(Decision.CLOSE, q, [tableau[s].card for s in options], q)
            chosen.append(options[i])
            self.turn(q, options[i], False)
            self.emit(
                "close",
                seat=q,
                card=self.cid(tableau[options[i]].card),
                by=sorted({self.cid(e) for e in effects}),
            )

    def matchable(self, cards: list[int], effects: list[int]) -> bool:
        """Can every card be answered by a different effect that selects it?"""
        if not cards:
            return True
        first, rest = cards[0], cards[1:]
        for k, e in enumerate(effects):
            if self.rules.selects(e, first) and self.matchable(
                rest, effects[:k] + effects[k + 1 :]
            ):
                return True
        return False

    def final_scoring(self) -> None:
        r = self.rules
        for p, player in enumerate(self.players):
            wild = [
                t.card for t in player.tableau if t.face_up and r.value(t.card)["kind"] == "wild"
            ]
            if wild:
                player.trickster_as = self.choose_trickster(p, wild[0])
                self.emit("trickster", seat=p, card=self.cid(player.trickster_as))
        for p, player in enumerate(self.players):
            player.breakdown = dict.fromkeys(BREAKDOWN, 0)
            player.points = []
            own, own_fc = self.up.cards[p], self.up.factions[p]
            for t in player.tableau:
                pts = 0
                if t.face_up:
                    kind = r.value(t.card)["kind"]
                    if kind == "wild":
                        pts = r.value(t.card)["points"] + copy_value(
                            r, player.trickster_as, own, own_fc, self.up, p
                        )
                    else:
                        pts = copy_value(r, t.card, own, own_fc, self.up, p)
                    player.breakdown[KIND_COLUMN[kind]] += pts
                player.points.append(pts)
            player.score = sum(player.points)
        scores = [pl.score for pl in self.players]
        self.emit(
            "final",
            scores=scores,
            winners=self.winners(),
            breakdown=[pl.breakdown for pl in self.players],
            face_down=[sum(not t.face_up for t in pl.tableau) for pl in self.players],
        )

    def choose_trickster(self, p: int, wild: int) -> int:
        """The Trickster becomes the copy of one other card (of this deck) that maximises its
        owner's score; ties go to the lowest card id. It then counts as that card."""
        r = self.rules
        own, own_fc = self.up.cards[p], self.up.factions[p]
        k = own[wild]
        _shift(r, own, own_fc, wild, -k)
        best, best_u = 0, -1
        for u in r.by_id:
            if u == wild or u not in r.in_deck:
                continue
            _shift(r, own, own_fc, u, k)
            score = total(r, own, own_fc, self.up, p)
            _shift(r, own, own_fc, u, -k)
            if best_u < 0 or score > best:
                best, best_u = score, u
        _shift(r, own, own_fc, best_u, k)
        return best_u

    def winners(self) -> list[int]:
        top = max(pl.score for pl in self.players)
        return [pl.seat for pl in self.players if pl.score == top]

    # -- the mc search policy --------------------------------------------------------
    def search_decide(
        self, search: Search, decision: Decision, p: int, options: list[int], neighbour: int
    ) -> int:
        """``mc``: determinized flat Monte-Carlo search (see the spec page). The ``top``
        options best by greedy's value each play ``rollouts`` playouts; the best mean
        outcome wins, ties to greedy's first best."""
        number = self.search_count[p]
        self.search_count[p] += 1
        ranked = self.ranked_options(decision, p, options, neighbour)[: search.top]
        totals = flat_mc.playout_totals(
            self,
            p,
            number,
            ranked,
            search.rollouts,
            search.playout,
            prepare=lambda world: world.rewind_step(p),
        )
        best = flat_mc.first_best(totals)  # greedy's order breaks ties
        if self.record:
            rollouts = search.rollouts if len(ranked) > 1 else 0
            self.emit(
                "search",
                seat=p,
                decision=decision.name.lower(),
                number=number,
                candidates=[
                    {
                        "card": self.cid(options[i]),
                        "playouts": rollouts,
                        "mean": round(totals[j] / rollouts / OUTCOME_UNIT, 4) if rollouts else None,
                    }
                    for j, i in enumerate(ranked)
                ],
                chosen=self.cid(options[ranked[best]]),
            )
        return ranked[best]

    def ranked_options(
        self, decision: Decision, p: int, options: list[int], neighbour: int
    ) -> list[int]:
        """Indices of the distinct options (an option equal to an earlier one is the same
        play), best first by greedy's value, ties in option order."""
        own, own_fc = self.own_counts(decision, p)
        w = self.weights[Policy.GREEDY]
        first: dict[int, int] = {}
        for i, c in enumerate(options):
            first.setdefault(c, i)
        value = {
            i: self.brain.value(decision, w, c, own, own_fc, self.down[p], self.up, p, neighbour)
            for c, i in first.items()
        }
        return sorted(value, key=lambda i: (-value[i], i))

    def outcome(self, p: int) -> int:
        """Seat ``p``'s result of a finished game, in ``OUTCOME_UNIT``s: its share of the win
        plus ``MARGIN_WEIGHT`` x its margin over the best other score (clipped)."""
        scores = [pl.score for pl in self.players]
        top = max(scores)
        win = OUTCOME_UNIT // scores.count(top) if scores[p] == top else 0
        margin = scores[p] - max(s for q, s in enumerate(scores) if q != p)
        return win + MARGIN_WEIGHT * max(-MARGIN_CLIP, min(MARGIN_CLIP, margin))

    def clone(self) -> FairyTaleGame:
        """A copy that plays on independently (silent: no events)."""
        g = copy.copy(self)
        g.rng = GameRng.at(self.rng.state)
        g.brain = Brain(self.rules, self.weights, g.rng)
        g.players = copy.deepcopy(self.players)
        g.searches = [None] * self.n  # the copies' seats play heuristics only
        g.search_count = list(self.search_count)
        g.up, g.hyp = copy.deepcopy(self.up), copy.deepcopy(self.hyp)
        g.down = [list(row) for row in self.down]
        g.record, g.events = False, []
        g.pos = copy.copy(self.pos)
        g.deck = list(self.deck)
        g.rows = [list(row) for row in self.rows]
        g.revealed = list(self.revealed)
        g.slots = list(self.slots)
        g.hunted = list(self.hunted)
        g.aimed = [list(a) for a in self.aimed]
        g.close_chosen = list(self.close_chosen)
        return g

    def rewind_step(self, p: int) -> None:
        """Take back the choices the seats before ``p`` made in this draft or play step:
        the step is simultaneous, so ``p`` does not know them, and the playouts make them
        again (``pos`` moves to the step's first seat)."""
        if self.pos.phase == Phase.DRAFT:
            for q in range(p):
                c, _ = self.players[q].kept.pop()
                self.players[q].received.pop()
                _shift(self.rules, self.hyp.cards[q], self.hyp.factions[q], c, -1)
                self.rows[self.row_of(q, self.pos.step)].append(c)
        elif self.pos.phase == Phase.PLAY:
            for q in range(p):
                self.players[q].kept.append(self.revealed[q])  # type: ignore[arg-type]
                self.players[q].kept.sort(key=lambda kept: kept[1])  # back in pick order
                self.revealed[q] = None
        else:
            return
        self.pos.seat = 0

    def determinize(self, p: int, rng: GameRng) -> None:
        """Deal the cards seat ``p`` cannot see anew, consistently with what it has seen.

        What ``p`` knows (besides every tableau, its own cards and every count): of each hand
        it drafted from this round, what it passed on. Row h's picks by other seats after p's
        k-th look at it (and, while drafting, the cards still in it) form *group* (h, k),
        whose cards p knows as a whole but not who holds which. In the play steps a group
        is forgotten (its cards join the pool) as soon as a seat that took one of its cards
        reveals a card the group holds (the revealed card may have been that one): then
        every revealed card came from a pick of no group, taken to be the seat's first such
        picks, and every world dealt is consistent with what is still remembered. Every
        other hidden card — the picks made before p saw the hand, the hands p has
        not seen, the undealt deck and the other seats' discards of earlier rounds (p does
        not remember earlier rounds' passes) — is one pool: the deck minus what p sees minus
        the groups. Each group's cards, then the pool, are listed by card index, shuffled
        from ``rng`` (``GameRng.shuffle``) and dealt to their places in a fixed order (seats,
        then their picks; the hands by row; the deck from the top). So the world depends
        only on what ``p`` has seen and on ``rng``."""
        r, n, pos = self.rules, self.n, self.pos
        drafting = pos.phase == Phase.DRAFT
        hand_size = self.hand_size()
        seen = pos.step if drafting else hand_size  # steps whose hand p has read and passed

        def group(h: int, step: int) -> int:
            """0, or 1 + h * DEAL + (k - 1) for a card of row h taken at ``step`` (or still in
            it at ``step``) after p's k-th look at row h."""
            looks = sum(1 for s in range(step) if self.row_of(p, s) == h)
            return 1 + h * DEAL + looks - 1 if looks else 0

        n_cards = len(r.cards)
        groups: dict[int, list[int]] = {}  # group -> count per card
        picks: dict[int, list[int]] = {}  # seat -> group of each of its picks this round
        for q in range(n):
            if q == p:
                continue
            first = len(self.players[q].received) - seen
            picks[q] = []
            for s in range(seen):
                g = group(self.row_of(q, s), s)
                picks[q].append(g)
                if g:
                    c = self.players[q].received[first + s].card
                    groups.setdefault(g, [0] * n_cards)[c] += 1
        own_row = self.row_of(p, pos.step) if drafting else -1
        row_group = [0] * n
        if drafting:
            for h in range(n):
                if h != own_row:
                    row_group[h] = group(h, pos.step)
                    for c in self.rows[h]:
                        if row_group[h]:
                            groups.setdefault(row_group[h], [0] * n_cards)[c] += 1
        # The play steps: a group that a card a seat revealed this round could come from
        # (the seat took a card of the group, and the group holds that card) is forgotten,
        # its cards join the pool; then every revealed card came from a pick of no group.
        revealed = {q: self.revealed_this_round(q) for q in picks} if not drafting else {}
        for q, cs in revealed.items():
            for g in picks[q]:
                if g and g in groups and any(groups[g][c] > 0 for c in cs):
                    groups[g] = [0] * n_cards
        forgotten = {g for g, counts in groups.items() if not any(counts)}
        left: dict[int, list[int]] = {}
        for q, gs in picks.items():
            gs = [0 if g in forgotten else g for g in gs]
            free = [s for s, g in enumerate(gs) if not g][: len(revealed.get(q, []))]
            left[q] = [g for s, g in enumerate(gs) if s not in free]
        # the hidden places, in their fixed order, and their group
        places: list[tuple[str, int, int, int]] = []  # (where, seat or row, index, group)
        for q, gs in left.items():
            places += [("kept", q, i, g) for i, g in enumerate(gs)]
        for h in range(n):
            if drafting and h != own_row:
                places += [("row", h, j, row_group[h]) for j in range(len(self.rows[h]))]
        places += [("deck", 0, i, 0) for i in range(pos.top, len(self.deck))]
        # the pool: the deck minus what p sees minus the groups
        pool = [0] * n_cards
        for c in r.deck:
            pool[c] += 1
        for q, player in enumerate(self.players):
            for t in player.tableau:
                pool[t.card] -= 1
            if q == p:
                for x in player.received:
                    if x.slot < 0:
                        pool[x.card] -= 1
        if drafting:
            for c in self.rows[own_row]:
                pool[c] -= 1
        for counts in groups.values():
            for c in range(n_cards):
                pool[c] -= counts[c]
        assert min(pool) >= 0
        for g in sorted(groups):
            self.deal_hidden(places, g, groups[g], rng)
        self.deal_hidden(places, 0, pool, rng)
        for q in left:
            self.recount_hyp(q)

    def revealed_this_round(self, q: int) -> list[int]:
        """The cards seat ``q`` has revealed in this round's play steps (the last of its
        tableau: one a step)."""
        n = self.hand_size() - len(self.players[q].kept)
        return [t.card for t in self.players[q].tableau[len(self.players[q].tableau) - n :]]

    def deal_hidden(
        self, places: list[tuple[str, int, int, int]], g: int, counts: list[int], rng: GameRng
    ) -> None:
        """Shuffle the cards ``counts`` (listed by card index) and deal them to the places of
        group ``g`` in order (the pool has more cards than places: the rest are discards)."""
        cards = [c for c in range(len(counts)) for _ in range(counts[c])]
        rng.shuffle(cards)
        dealt = iter(cards)
        for where, a, i, group in places:
            if group != g:
                continue
            c = next(dealt)
            if where == "deck":
                self.deck[i] = c
            elif where == "row":
                self.rows[a][i] = c
            else:  # a kept card (card, pick); its received record follows
                pick = self.players[a].kept[i][1]
                self.players[a].kept[i] = (c, pick)
                self.players[a].received[pick].card = c

    def recount_hyp(self, q: int) -> None:
        """``hyp`` of seat ``q`` from its face-up counts and kept cards."""
        r = self.rules
        self.hyp.cards[q][:] = self.up.cards[q]
        self.hyp.factions[q][:] = self.up.factions[q]
        for c, _ in self.players[q].kept:
            _shift(r, self.hyp.cards[q], self.hyp.factions[q], c, 1)


def play_reference(
    rules: Rules,
    weights: np.ndarray,
    seat_policies: list[int],
    seed: int,
    game_id: int,
    record: bool = False,
    searches: list[Search | None] | None = None,
) -> FairyTaleGame:
    """Play one game with the readable rules (``searches``: the parameters of each ``mc``
    seat, None for a heuristic one)."""
    return FairyTaleGame(rules, weights, seat_policies, seed, game_id, record, searches).run()


def final_state(game: FairyTaleGame) -> dict[str, Any]:
    """Comparable summary of a finished game (the differential test compares these)."""
    return {
        "scores": [pl.score for pl in game.players],
        "breakdown": [[pl.breakdown[b] for b in BREAKDOWN] for pl in game.players],
        "received": [
            [(x.card, x.round, x.pick_no, x.slot) for x in pl.received] for pl in game.players
        ],
        "tableau": [[(t.card, t.face_up) for t in pl.tableau] for pl in game.players],
        "points": [pl.points for pl in game.players],
        "trickster_as": [pl.trickster_as for pl in game.players],
    }
