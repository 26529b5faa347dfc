"""Properties of every seeded reference game, checked with hypothesis.

Rules (sections of ``docs/rules/drako.md``): §2.2 (deck by player count), §3 (16 cards per
kingdom), §4 (one card in, one out: card conservation after every turn, checked by
``DrakoGame.check_invariants``), §4.5 (each Legend claimed at most once, at most
``legends_per_turn`` per turn), §7 (score = breakdown; the array scorer of ``scoring.py``
agrees on every end state), §8 (the game ends right after a player's last reveal, or at
the turn cap); ``simcore/rng.py`` (determinism: same seed and game id, same game).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from kit import random_model

from talesim.simcore.games.drako import scoring
from talesim.simcore.games.drako.policies import POLICY_NAMES, default_weights
from talesim.simcore.games.drako.reference import DrakoGame, Rules, final_state, play_reference
from talesim.simcore.games.drako.tables import BREAKDOWN, CELLS, N_BREAKDOWN, compile_tables

ALL_CELLS = (1 << CELLS) - 1


@st.composite
def setups(draw: st.DrawFn, policies: tuple[str, ...]) -> tuple[str, list[int], int, int]:
    """(preset, one policy code per seat, seed, game id)."""
    preset = draw(st.sampled_from(["brief", "published"]))
    players = draw(st.integers(2, 4))
    names = draw(st.lists(st.sampled_from(policies), min_size=players, max_size=players))
    seed = draw(st.integers(0, 2**63 - 1))
    game_id = draw(st.integers(0, 10**9))
    return preset, [POLICY_NAMES.index(n) for n in names], seed, game_id


def check_finished_game(data, game: DrakoGame, preset: str) -> None:
    rules = game.rules
    assert game.cards_in_play() == Counter(data.deck(game.n))
    assert game.over
    ended = [pl.seat for pl in game.players if pl.ended_game]
    if game.cap_hit:
        assert ended == []
        assert game.turn == rules.max_turns
    else:
        assert len(ended) == 1
        ender = game.players[ended[0]]
        assert ender.turns >= 12  # 12 face-down cards, at most one revealed per turn
        # seat order: seats up to the ender played as often as it, later seats once less
        assert [pl.turns for pl in game.players] == [
            ender.turns if pl.seat <= ender.seat else ender.turns - 1 for pl in game.players
        ]
    assert sum(pl.turns for pl in game.players) == game.turn
    claimed = [c.legend for pl in game.players for c in pl.claims]
    assert len(claimed) == len(set(claimed))
    t = compile_tables(data, preset, game.n)
    direct = np.zeros(CELLS, dtype=np.int64)
    full = np.zeros(CELLS, dtype=np.int64)
    out = np.zeros(N_BREAKDOWN, dtype=np.int32)
    for pl in game.players:
        assert len(pl.kingdom) == CELLS
        assert all(s.face_up for s in pl.kingdom)
        assert pl.score == sum(pl.breakdown.values())
        assert pl.breakdown["conflicts"] <= 0
        assert pl.breakdown["legends"] == sum(rules.legends[c.legend].points for c in pl.claims)
        per_turn = Counter(c.turn for c in pl.claims)
        assert all(n <= rules.o.legends_per_turn for n in per_turn.values())
        grid = np.array([s.kind for s in pl.kingdom], dtype=np.int32)
        scoring.score_kingdom(
            grid, ALL_CELLS, t.kind_cat, t.kind_blind, t.kind_tame, t.land_pts, t.rival,
            t.dragon_values, t.adj, t.rules, direct, full, out,
        )  # fmt: skip
        assert out.tolist()[: N_BREAKDOWN - 1] == [pl.breakdown[b] for b in BREAKDOWN[:-1]]
    assert game.winners()


def played_in_checking_mode(data, setup) -> tuple[DrakoGame, str]:
    """The game of ``setup`` (preset, policies, seed, game id) played by ``reference/``
    checking its invariants as it goes, and its preset."""
    preset, policies, seed, game_id = setup
    rules = Rules(data, preset, len(policies))
    model = random_model("drako", 3)  # a learned seat's
    models = [model if POLICY_NAMES[p] == "learned" else None for p in policies]
    game = play_reference(rules, default_weights(), policies, seed, game_id, check=True,
                          models=models)  # fmt: skip
    return game, preset


@settings(max_examples=60, deadline=None)
@given(setups(("random",)))
def test_random_games_keep_every_invariant(data, setup) -> None:
    check_finished_game(data, *played_in_checking_mode(data, setup))


@settings(max_examples=8, deadline=None)
@given(setups(POLICY_NAMES))
def test_mixed_policy_games_keep_every_invariant(data, setup) -> None:
    check_finished_game(data, *played_in_checking_mode(data, setup))


@settings(max_examples=15, deadline=None)
@given(setups(("random", "random", "random", "greedy")))
def test_same_seed_and_game_id_same_game(data, setup) -> None:
    preset, policies, seed, game_id = setup
    rules = Rules(data, preset, len(policies))
    a = play_reference(rules, default_weights(), policies, seed, game_id, record=True)
    b = play_reference(rules, default_weights(), policies, seed, game_id, record=True)
    assert final_state(a) == final_state(b)
    assert a.events == b.events


def test_game_ids_give_different_games(data) -> None:
    rules = Rules(data, "brief", 3)
    states = {
        str(final_state(play_reference(rules, default_weights(), [0, 0, 0], 5, g)))
        for g in range(20)
    }
    assert len(states) == 20
