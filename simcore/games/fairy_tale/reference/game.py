"""``FairyTaleGame``: one game's state, its flow (setup, deal, draft, play steps, discard)
and its decisions; ``play_reference``, ``final_state``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from talesim.simcore import flat_mc

from ..policies import Decision, Policy
from ..tables import (
    DEAL,
    MAX_PLAYERS,
    PLAYS,
    ROUNDS,
    TABLEAU,
)
from . import effects, end, search
from .brain import Brain
from .learned import learned_decide
from .rules import BREAKDOWN, Phase, Player, Position, Received, Rules, Slot
from .scoring import Counts, _shift


class FairyTaleGame(flat_mc.RulebookGame):
    """One game (``FairyTaleGame(rules, weights, seat_policies, seed, game_id, record,
    searches)``, see ``flat_mc.RulebookGame``). ``run()`` plays it to the end; ``events``
    narrates it if ``record``.

    The game is resumable: ``pos`` says where it is, and everything ``play_on`` needs to
    continue from there is in the object, so ``clone()`` at any decision can be played on
    to the end. The hands being drafted stay in ``rows`` (row h: the hand dealt to seat
    h); passing moves which seat reads a row: at draft step s seat p reads row
    ``(p + s * back) % n`` (``back`` = n - 1 in rounds 1 and 3, when hands pass left to
    seat + 1, else 1)."""

    rules: Rules

    def init_state(self, seat_policies: list[int], **options: Any) -> None:
        """The players, their counts, the draft rows and the position, before the deal."""
        assert 1 <= len(seat_policies) <= MAX_PLAYERS  # 1: scoring a lone tableau
        self.brain = Brain(self.rules, self.weights, self.rng)
        # typed as flat_mc.SearchGame declares it (mypy matches a settable member exactly)
        self.players: Sequence[Player] = [
            Player(seat, pol) for seat, pol in enumerate(seat_policies)
        ]
        n_cards = len(self.rules.cards)
        self.up = Counts(self.n, n_cards)  # face-up counts
        self.down = [[0] * n_cards for _ in range(self.n)]  # face-down counts
        # What a drafter can count on: face up + kept this round.
        self.hyp = Counts(self.n, n_cards)
        self.pos = Position()
        self.deck: list[int] = []
        self.rows: list[list[int]] = [[] for _ in range(self.n)]
        self.revealed: list[tuple[int, int] | None] = [None] * self.n  # this step's (card, pick)
        self.slots: list[int] = [-1] * self.n  # tableau slot of each revealed card
        self.hunted = [False] * self.n
        self.aimed: list[list[int]] = [[] for _ in range(self.n)]  # Close effects per player
        self.close_chosen: list[int] = []  # slots closed so far by the player at pos.seat

    @property
    def round(self) -> int:
        return self.pos.round

    @property
    def step(self) -> int:
        return self.pos.step

    # -- helpers ---------------------------------------------------------------------
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
        model = self.models[p]
        if self.players[p].policy == Policy.LEARNED and model is not None:
            return learned_decide(self, model, decision, p, options, neighbour)
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
    def run(self, check: bool = False) -> FairyTaleGame:
        """A new game (shuffle, beginner start), then play on to the end. (``check`` is
        ``RulebookGame``'s: the tests' harness checks Fairy Tale's invariants itself.)"""
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

    # -- the rules of the other modules, bound as methods (``game.hunt()`` is
    # ``effects.hunt(game)``) ------------------------------------------------------------
    resolve_effects = effects.resolve_effects
    hunt = effects.hunt
    resolve_open_close = effects.resolve_open_close
    resolve_closes = effects.resolve_closes
    matchable = effects.matchable
    final_scoring = end.final_scoring
    choose_trickster = end.choose_trickster
    winners = end.winners
    search_decide = search.search_decide
    ranked_options = search.ranked_options
    outcome = search.outcome
    clone = search.clone
    rewind_step = search.rewind_step
    determinize = search.determinize
    revealed_this_round = search.revealed_this_round
    deal_hidden = search.deal_hidden
    recount_hyp = search.recount_hyp


#: Play one game with the readable rules (``flat_mc.RulebookGame.play``; ``searches``: the
#: parameters of each ``mc`` seat, None for a heuristic one).
play_reference = FairyTaleGame.play


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
