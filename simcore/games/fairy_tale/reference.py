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

from dataclasses import dataclass, field
from typing import Any

import numpy as np

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


class FairyTaleGame:
    """One game. ``run()`` plays it to the end; ``events`` narrates it if ``record``."""

    def __init__(
        self,
        rules: Rules,
        weights: np.ndarray,
        seat_policies: list[int],
        seed: int,
        game_id: int,
        record: bool = False,
    ) -> None:
        assert 1 <= len(seat_policies) <= MAX_PLAYERS  # 1: scoring a lone tableau
        self.rules = rules
        self.n = len(seat_policies)
        self.rng = GameRng(seed, game_id)
        self.brain = Brain(rules, weights, self.rng)
        self.players = [Player(seat, pol) for seat, pol in enumerate(seat_policies)]
        n_cards = len(rules.cards)
        self.up = Counts(self.n, n_cards)  # face-up counts
        self.down = [[0] * n_cards for _ in range(self.n)]  # face-down counts
        # What a drafter can count on: face up + kept this round.
        self.hyp = Counts(self.n, n_cards)
        self.record = record
        self.events: list[Event] = []
        self.round = 0
        self.step = 0

    # -- helpers ---------------------------------------------------------------------
    def emit(self, event: str, **data: Any) -> None:
        if self.record:
            self.events.append({"event": event, **data})

    def cid(self, c: int) -> str:
        return self.rules.cards[c].id

    def decide(self, decision: Decision, p: int, options: list[int], neighbour: int) -> int:
        if len(options) == 1:
            return 0  # forced: no policy asked, no random number drawn
        if decision == Decision.DRAFT:
            own, own_fc = self.hyp.cards[p], self.hyp.factions[p]
        else:
            own, own_fc = self.up.cards[p], self.up.factions[p]
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
        deck = list(self.rules.deck)
        self.rng.shuffle(deck)
        top = 0
        if self.rules.beginner:
            top = self.beginner_start(deck)
        for rnd in range(ROUNDS):
            self.round = rnd
            first = self.rules.beginner and rnd == 0
            top = self.draft(deck, top, DEAL - 1 if first else DEAL)
            self.play_round(PLAYS - 1 if first else PLAYS)
        self.final_scoring()
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

    def draft(self, deck: list[int], top: int, hand_size: int) -> int:
        pick_offset = 1 if self.rules.beginner else 0
        for player in self.players:
            player.hand = deck[top : top + hand_size]
            top += hand_size
            player.kept = []
            self.emit(
                "deal",
                round=self.round + 1,
                seat=player.seat,
                cards=[self.cid(c) for c in player.hand],
            )
        direction = 1 if self.round % 2 == 0 else -1  # left = seat+1 in rounds 1 and 3
        for step in range(hand_size):
            for p, player in enumerate(self.players):
                neighbour = (p + direction) % self.n
                i = self.decide(Decision.DRAFT, p, player.hand, neighbour)
                c = player.hand.pop(i)
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
            if step < hand_size - 1:
                hands = [pl.hand for pl in self.players]
                for p in range(self.n):
                    self.players[(p + direction) % self.n].hand = hands[p]
        return top

    def play_round(self, plays: int) -> None:
        for step in range(plays):
            self.step = step
            revealed = []
            for p, player in enumerate(self.players):
                i = self.decide(Decision.PLAY, p, [c for c, _ in player.kept], p)
                revealed.append(player.kept.pop(i))
            slots = []
            for p, (c, pick) in enumerate(revealed):
                slots.append(self.to_tableau(p, c, pick))
                self.emit("reveal", round=self.round + 1, step=step + 1, seat=p, card=self.cid(c))
            self.resolve_effects([c for c, _ in revealed], slots)
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

    def resolve_effects(self, revealed: list[int], slots: list[int]) -> None:
        """Hunt -> Open -> Close (reference §4)."""
        r = self.rules
        hunted = [False] * self.n
        if r.hunt:
            for h, e in enumerate(revealed):
                if r.effect(e)["kind"] != "hunt":
                    continue
                prey = r.effect(e)["faction"]
                for q in range(self.n):
                    if q != h and r.cards[revealed[q]].faction == prey:
                        hunted[q] = True
                        self.emit(
                            "hunt",
                            seat=h,
                            card=self.cid(e),
                            target_seat=q,
                            target=self.cid(revealed[q]),
                        )
            for q in range(self.n):
                if hunted[q] and self.players[q].tableau[slots[q]].face_up:
                    self.turn(q, slots[q], False)
        if not r.effects:
            return
        for p, e in enumerate(revealed):
            if hunted[p] or r.effect(e)["kind"] != "open":
                continue
            for _ in range(r.effect(e)["count"]):
                tableau = self.players[p].tableau
                options = [
                    s for s, t in enumerate(tableau) if not t.face_up and r.selects(e, t.card)
                ]
                if not options:
                    break
                i = self.decide(Decision.OPEN, p, [tableau[s].card for s in options], p)
                self.turn(p, options[i], True)
                self.emit("open", seat=p, by=self.cid(e), card=self.cid(tableau[options[i]].card))
        aimed: list[list[int]] = [[] for _ in range(self.n)]
        for p, e in enumerate(revealed):
            eff = r.effect(e)
            if hunted[p] or eff["kind"] != "close":
                continue
            for q in range(self.n):
                if (eff["scope"] == "you" and q != p) or (eff["scope"] == "others" and q == p):
                    continue
                aimed[q] += [e] * eff["count"]
        for q in range(self.n):
            if aimed[q]:
                self.resolve_closes(q, aimed[q])

    def resolve_closes(self, q: int, effects: list[int]) -> None:
        """Player ``q`` closes as many distinct face-up cards as ``effects`` allow (a maximum
        matching of cards to effects), choosing one card at a time among those that can
        still be matched together with the ones already chosen."""
        tableau = self.players[q].tableau
        chosen: list[int] = []
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


def play_reference(
    rules: Rules,
    weights: np.ndarray,
    seat_policies: list[int],
    seed: int,
    game_id: int,
    record: bool = False,
) -> FairyTaleGame:
    """Play one game with the readable rules."""
    return FairyTaleGame(rules, weights, seat_policies, seed, game_id, record).run()


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
