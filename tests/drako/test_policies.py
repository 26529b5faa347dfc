"""The reference policies: what they choose, what they know, and that they play as meant.

Reference: policies.py (formulas) and reference/ (random-stream order: greedy and
legend-hunter never draw a random number; random draws only for real choices).
"""

from __future__ import annotations

from talesim.simcore.games.drako.policies import Policy, default_weights
from talesim.simcore.games.drako.reference import (
    Action,
    DrakoGame,
    Rules,
    Slot,
    Source,
    play_reference,
)
from talesim.simcore.games.drako.tables import CELLS, KINDS
from talesim.simcore.rng import GameRng

K = {name: i for i, name in enumerate(KINDS)}


class CountingRng(GameRng):
    """GameRng that counts the draws made outside shuffles."""

    def __init__(self, seed: int, game_id: int) -> None:
        super().__init__(seed, game_id)
        self.in_shuffle = False
        self.shuffle_draws = 0
        self.other_draws = 0

    def below(self, n: int) -> int:
        if self.in_shuffle:
            self.shuffle_draws += 1
        else:
            self.other_draws += 1
        return super().below(n)

    def shuffle(self, items: list) -> None:
        self.in_shuffle = True
        super().shuffle(items)
        self.in_shuffle = False


def counted_game(data, policies: list[int], seed: int = 4, game_id: int = 9) -> DrakoGame:
    game = DrakoGame(
        Rules(data, "brief", len(policies)), default_weights(), policies, seed, game_id
    )
    game.rng = game.brain.rng = CountingRng(seed, game_id)
    return game.run()


def test_greedy_players_draw_no_random_number(data) -> None:
    game = counted_game(data, [Policy.GREEDY, Policy.LEGEND_HUNTER, Policy.GREEDY])
    assert game.rng.other_draws == 0
    assert game.rng.shuffle_draws > 0


def test_random_player_draws_for_its_choices(data) -> None:
    game = counted_game(data, [Policy.RANDOM, Policy.GREEDY])
    # at least the action draw of each of its turns (there are always 2+ legal actions)
    assert game.rng.other_draws >= game.players[0].turns


def test_same_seed_same_draws(data) -> None:
    a = counted_game(data, [Policy.RANDOM, Policy.RANDOM])
    b = counted_game(data, [Policy.RANDOM, Policy.RANDOM])
    assert a.rng.state == b.rng.state


def test_greedy_takes_the_discard_for_the_best_placement(data) -> None:
    """Player 0: face-up centre Human 5 and Swamps 6, 9, 10; the border face down. The
    Human's neighbours are 1, 4 (face down), 6 and 9 (Swamps, −1 each). A Plain from the
    discard pile is worth +2 on cell 1 or 4, but +3 on cell 6 or 9 (+2, and one Swamp
    less): greedy takes it for cell 6, the first best in enumeration order."""
    rules = Rules(data, "brief", 4)
    game = DrakoGame(rules, default_weights(), [Policy.GREEDY] * 2, 1, 0)
    game.setup()
    kingdom = game.players[0].kingdom
    centre = {5: "human", 6: "swamp", 9: "swamp", 10: "swamp"}
    for cell in range(CELLS):
        kind = K[centre.get(cell, "mountain")]
        kingdom[cell] = Slot(kind, cell in centre)
    game.discard.append(K["plain"])
    source, action = game.brain.choose_source(0, game.sources())
    assert source == Source.DISCARD
    assert action == Action(Source.DISCARD, 6)


def test_unseen_counts_what_nobody_can_see(data) -> None:
    rules = Rules(data, "brief", 2)
    game = DrakoGame(rules, default_weights(), [Policy.GREEDY] * 2, 1, 0)
    game.setup()
    pool = game.brain.unseen(0, in_hand=game.deck[-1])
    visible = sum(s.face_up for pl in game.players for s in pl.kingdom)
    assert sum(pool.values()) == 40 - visible - len(game.discard) - 1


def test_greedy_beats_random(data) -> None:
    rules = Rules(data, "brief", 2)
    wins = 0.0
    for g in range(6):
        for seats in ([Policy.GREEDY, Policy.RANDOM], [Policy.RANDOM, Policy.GREEDY]):
            game = play_reference(rules, default_weights(), seats, 3, g)
            greedy = seats.index(Policy.GREEDY)
            if greedy in game.winners():
                wins += 1 / len(game.winners())
    assert wins >= 11


def test_legend_hunter_claims_more_legends_than_greedy(data) -> None:
    rules = Rules(data, "brief", 2)
    claims = {Policy.GREEDY: 0, Policy.LEGEND_HUNTER: 0}
    for g in range(6):
        for seats in (
            [Policy.GREEDY, Policy.LEGEND_HUNTER],
            [Policy.LEGEND_HUNTER, Policy.GREEDY],
        ):
            game = play_reference(rules, default_weights(), seats, 3, g)
            for p, pol in enumerate(seats):
                claims[pol] += len(game.players[p].claims)
    assert claims[Policy.LEGEND_HUNTER] > claims[Policy.GREEDY]
