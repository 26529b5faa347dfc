"""``DrakoGame``: one game's state, its flow (``run``, the resumable ``play_on``) and who
decides (a forced option, an asked seat: mc or learned); ``play_reference``,
``final_state``. The rules of ``setup``, ``turn``, ``learned``, ``search`` and ``end`` are
functions of the game bound as its methods of the same name (``game.take_turn()`` is
``turn.take_turn(game)``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from talesim.simcore import flat_mc

from ..policies import Policy
from ..tables import (
    BREAKDOWN,
    KINDS,
    MAX_PLAYERS,
)
from . import end, learned, search, setup, turn
from .brain import Brain
from .rules import (
    Draw,
    Player,
    Rules,
    Source,
    SourceOption,
    Step,
)


class DrakoGame(flat_mc.RulebookGame):
    """One game (``DrakoGame(rules, weights, seat_policies, seed, game_id, record,
    searches)``, see ``flat_mc.RulebookGame``). ``run()`` plays it to the end; ``events``
    narrates it if ``record``."""

    rules: Rules

    def init_state(self, seat_policies: list[int], **options: Any) -> None:
        """The players, the piles and the Legends, before setup."""
        assert 1 <= len(seat_policies) <= MAX_PLAYERS
        # typed as flat_mc.SearchGame declares it (mypy matches a settable member exactly)
        self.players: Sequence[Player] = [
            Player(seat, pol) for seat, pol in enumerate(seat_policies)
        ]
        self.brain = Brain(self, self.weights)
        self.deck: list[int] = []  # draw pile, top = end
        self.discard: list[int] = []  # discard pile, top = end
        self.legend_deck: list[int] = []  # top = end
        self.river: list[int | None] = []  # face-up Legends; None = empty slot
        self.turn = 0  # turns played so far (all players)
        self.current = 0  # seat to play
        self.claims_left = 0  # Legend claims the current player may still make this turn
        self.over = False
        self.cap_hit = False
        # resumable: where the current turn is, and the card in hand from STEP ACTION on
        self.step = Step.TURN
        self.hand: tuple[Source, int] | None = None
        self.draws: list[Draw] = []  # every turn's draw decision, in turn order (``apply``)

    def cards_in_play(self) -> Counter[int]:
        """Every kingdom card wherever it is (conservation: always equals the deck)."""
        c = Counter(self.deck) + Counter(self.discard)
        for pl in self.players:
            c.update(s.kind for s in pl.kingdom)
        return c

    def forced(self, p: int) -> int | None:
        """The option of a decision made already for seat ``p`` (by a search; a playout's
        candidate), consumed; else None."""
        if self.force is not None and self.force[0] == p:
            i = self.force[1]
            self.force = None
            return i
        return None

    def asked(self, p: int) -> bool:
        """Does seat ``p`` decide by a search (``mc``) or a model (``learned``)?"""
        return self.searches[p] is not None or self.players[p].policy == Policy.LEARNED

    def ask(
        self, decision: str, p: int, options: Sequence[SourceOption], values: list[float]
    ) -> int:
        """The asked seat ``p``'s choice among ``options`` (greedy's ``values``): its
        search's, else its model's."""
        search = self.searches[p]
        if search is not None:
            return self.search(search, decision, p, options, values)
        return self.learned_decide(decision, p, options, values)

    def run(self, check: bool = False) -> DrakoGame:
        """A new game (``setup``), then play on to the end."""
        self.setup()
        if check:
            self.check_invariants()
        return self.play_on(check)

    def play_on(self, check: bool = False) -> DrakoGame:
        """Play from where the game is (``current``, ``step``) to the end, scoring included."""
        while not self.over:
            self.take_turn()
            if check:
                self.check_invariants()
        self.final_scoring()
        return self

    setup = setup.setup
    can_replace = turn.can_replace
    legal_actions = turn.legal_actions
    sources = turn.sources
    claimable = turn.claimable
    claim = turn.claim
    take_turn = turn.take_turn
    source_options = turn.source_options
    decide_source = turn.decide_source
    source_values = turn.source_values
    decide_action = turn.decide_action
    apply = turn.apply
    reshuffle = turn.reshuffle
    learned_decide = learned.learned_decide
    learned_features = learned.learned_features
    learned_terms = learned.learned_terms
    learned_context = learned.learned_context
    describe = search.describe
    outcome = search.outcome
    clone = search.clone
    determinize = search.determinize
    search = search.search
    final_scoring = end.final_scoring
    winners = end.winners
    check_invariants = end.check_invariants


#: Play one game with the readable rules (``flat_mc.RulebookGame.play``; ``searches``: the mc
#: seats' parameters).
play_reference = DrakoGame.play


def final_state(game: DrakoGame) -> dict[str, Any]:
    """Comparable summary of a finished game (golden files and the part-2 differential test)."""
    return {
        "turns": game.turn,
        "cap_hit": game.cap_hit,
        "scores": [pl.score for pl in game.players],
        "breakdown": [[pl.breakdown[b] for b in BREAKDOWN] for pl in game.players],
        "kingdoms": [[KINDS[s.kind] for s in pl.kingdom] for pl in game.players],
        "turn_placed": [[s.turn_placed for s in pl.kingdom] for pl in game.players],
        "claims": [
            [[game.rules.legends[c.legend].id, c.turn] for c in pl.claims] for pl in game.players
        ],
        "player_turns": [pl.turns for pl in game.players],
        "ended_by": [pl.seat for pl in game.players if pl.ended_game],
        "winners": game.winners(),
    }
