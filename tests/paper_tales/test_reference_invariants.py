"""Properties of every seeded reference game, checked with hypothesis (each policy, 2-5
players): card conservation at every phase boundary (``Game.check_invariants``: each card
in exactly one place), gold >= 0, age tokens in 0..30, the marker never below the floor,
score = breakdown; at the end: the dataset records agree with the final position, win
shares sum to 1; determinism (same seed and game id -> same game).
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from talesim.simcore.games.paper_tales.policies import POLICY_NAMES, default_weights
from talesim.simcore.games.paper_tales.reference import (
    BREAKDOWN,
    CARD_FIELDS,
    Game,
    Rules,
    final_state,
    play_reference,
)
from talesim.simcore.rng import GameRng

WEIGHTS = default_weights()


@st.composite
def setups(draw: st.DrawFn, policies: tuple[str, ...]) -> tuple[list[int], int, int]:
    players = draw(st.integers(2, 5))
    names = draw(st.lists(st.sampled_from(policies), min_size=players, max_size=players))
    return (
        [POLICY_NAMES.index(n) for n in names],
        draw(st.integers(0, 2**63 - 1)),
        draw(st.integers(0, 10**9)),
    )


def check_finished(game: Game) -> None:
    r = game.rules
    assert game.over
    assert game.turn == r.turns
    assert sum(pl.win for pl in game.players) == pytest.approx(1.0)
    fs = final_state(game)
    for pl, seat in zip(game.players, fs["seats"], strict=True):
        assert seat["score"] == sum(seat["breakdown"]) == pl.lp >= 0
        assert pl.parts["floor"] >= 0
        drafted = [c for c in pl.logs if c.pick > 0]
        assert len(drafted) == 5 * r.turns
        assert sorted(c.pick for c in drafted) == sorted(list(range(1, 6)) * r.turns)
        in_play = {sl.card for sl in pl.spots if sl is not None}
        for c in pl.logs:
            if pl.log[c.card] is not c:
                continue  # an earlier story of a card that came back after a reshuffle
            assert (c.fate == "in_play") == (c.card in in_play)
            assert c.died_in_aging == (c.fate == "died")
            assert c.deployed == (c.turn_deployed > 0)
            assert c.deployed == (c.row in ("front", "back"))
            if c.fate in ("in_play", "died"):
                assert c.deployed
        for b, log in enumerate(pl.buildings):
            assert log.level == pl.blevel[b]
            assert (log.turn_built > 0) == (pl.blevel[b] > 0)
            assert (log.turn_upgraded > 0) == (pl.blevel[b] == 2)
        assert len(seat["cards"][0]) == len(CARD_FIELDS)
    assert len(fs["seats"][0]["breakdown"]) == len(BREAKDOWN)


def play(cards, policies: list[int], seed: int, game_id: int) -> Game:
    return play_reference(Rules(cards, len(policies)), WEIGHTS, policies, seed, game_id, check=True)


@settings(max_examples=40, deadline=None)
@given(setups(("random",)))
def test_random_games_keep_every_invariant(cards, setup) -> None:
    check_finished(play(cards, *setup))


@settings(max_examples=12, deadline=None)
@given(setups(("greedy", "warlord", "builder", "random")))
def test_mixed_policy_games_keep_every_invariant(cards, setup) -> None:
    check_finished(play(cards, *setup))


@pytest.mark.parametrize("policy", POLICY_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_each_policy_at_each_player_count(cards, policy, players) -> None:
    check_finished(play(cards, [POLICY_NAMES.index(policy)] * players, 77, players))


def test_same_seed_same_game(cards) -> None:
    a = final_state(play(cards, [1, 0, 2, 3], 5, 9))
    b = final_state(play(cards, [1, 0, 2, 3], 5, 9))
    c = final_state(play(cards, [1, 0, 2, 3], 5, 10))
    assert a == b
    assert a != c


OPTION_FLIPS = {
    "first_draft_direction": "previous",
    "direct_level2_requirement": "max",
    "land_cost_on_upgrade": True,
    "deploy_discard": "death",
    "healed_units_age": False,
    "strong_units_scope": "front",
    "per_war_won_rows": "front",
    "shapeshift_on_deploy": False,
    "shapeshift_free": False,
    "kraken_count_at_end": False,
    "keep": 0,
}


@settings(max_examples=15, deadline=None)
@given(setups(("random", "greedy", "builder")), st.sets(st.sampled_from(sorted(OPTION_FLIPS))))
def test_every_section_8_option_keeps_the_invariants(cards, setup, flips) -> None:
    """The non-default value of every option of rules.toml (docs/rules/paper-tales.md §8),
    any combination."""
    opts = dict(cards.rules.options, **{k: OPTION_FLIPS[k] for k in flips})
    varied = dataclasses.replace(cards, rules=dataclasses.replace(cards.rules, options=opts))
    check_finished(play(varied, *setup))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(setups(("greedy", "warlord", "builder", "random")))
def test_many_games_keep_every_invariant(cards, setup) -> None:
    check_finished(play(cards, *setup))


@pytest.mark.parametrize("players", [2, 5])
def test_random_numbers_are_the_documented_ones(cards, monkeypatch, players) -> None:
    """The RNG docstring of reference/, counted: one shuffle of the deck (N - 1 numbers),
    one shuffle per reshuffle (cards - 1 numbers), one number per random decision with
    more than one option; nothing else draws."""
    calls = []
    real = GameRng.next_u64
    monkeypatch.setattr(GameRng, "next_u64", lambda self: calls.append(1) or real(self))
    rules = Rules(cards, players)
    game = play_reference(rules, WEIGHTS, [0] * players, 3, 1, record=True, trace=True)
    assert game.trace is not None
    decisions = sum(1 for _, _, n, _, _ in game.trace if n > 1)
    reshuffles = [e["cards"] for e in game.events if e["event"] == "reshuffle"]
    assert len(calls) == (len(rules.unit_of) - 1) + sum(c - 1 for c in reshuffles) + decisions
    assert {phase for phase, *_ in game.trace} <= {
        "recruitment", "deployment", "construction", "aging"
    }  # fmt: skip
