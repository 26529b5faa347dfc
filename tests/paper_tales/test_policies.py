"""The heuristic players (policies.py, ``reference.Brain``): the archetypes play
measurably differently, greedy beats random, every decision takes the first best option,
and a forced choice draws no random number.
"""

from __future__ import annotations

import statistics

import pytest

from talesim.simcore.games.paper_tales.policies import (
    F_END_LP,
    N_FEATURES,
    POLICY_NAMES,
    Policy,
    default_weights,
    policy_code,
)
from talesim.simcore.games.paper_tales.reference import Piece, Rules, final_state, play_reference

GAMES = 12


@pytest.fixture(scope="module")
def rotation(cards) -> dict[int, dict[str, list[float]]]:
    """4 seats, each policy once, rotated over the games: per policy, its war LP, buildings
    owned, level-2 buildings, score and win share."""
    rules = Rules(cards, 4)
    out: dict[int, dict[str, list[float]]] = {p: {} for p in Policy}
    for g in range(GAMES):
        pols = [(g + k) % 4 for k in range(4)]
        fs = final_state(play_reference(rules, default_weights(), pols, 11, g))
        for seat in fs["seats"]:
            d = out[seat["policy"]]
            for key, v in (
                ("wars", seat["breakdown"][0]),
                ("buildings", sum(1 for b in seat["buildings"] if b[1])),
                ("level2", sum(1 for b in seat["buildings"] if b[1] == 2)),
                ("score", seat["score"]),
            ):
                d.setdefault(key, []).append(v)
    return out


def mean(rot, policy: Policy, key: str) -> float:
    return statistics.mean(rot[policy][key])


def test_warlord_wins_more_wars_than_builder(rotation) -> None:
    assert mean(rotation, Policy.WARLORD, "wars") > mean(rotation, Policy.BUILDER, "wars") + 3


def test_builder_builds_more_level_2_than_warlord(rotation) -> None:
    assert mean(rotation, Policy.BUILDER, "level2") > mean(rotation, Policy.WARLORD, "level2") + 0.5


def test_heuristics_beat_random(rotation) -> None:
    for p in (Policy.GREEDY, Policy.WARLORD, Policy.BUILDER):
        assert mean(rotation, p, "score") > mean(rotation, Policy.RANDOM, "score") + 10


def test_weights_and_codes() -> None:
    w = default_weights()
    assert w.shape == (len(Policy), N_FEATURES + 2)
    assert (w[Policy.RANDOM] == 0).all()
    assert [policy_code(n) for n in POLICY_NAMES] == list(range(len(POLICY_NAMES)))
    with pytest.raises(ValueError, match="policies: random, greedy, warlord, builder, mc"):
        policy_code("chaos")


def test_forced_choice_draws_nothing(table) -> None:
    t = table(policies="random")
    state = t.game.rng.state
    assert t.game.brain.decide(0, 1, lambda i: 0.0) == 0
    assert t.game.rng.state == state
    t.game.brain.decide(0, 3, lambda i: 0.0)
    assert t.game.rng.state != state


def test_first_best_option_wins_ties(table) -> None:
    t = table(policies="greedy")
    assert t.game.brain.decide(0, 4, lambda i: [1.0, 2.0, 2.0, 0.0][i]) == 1


def test_end_lp_feature_projects_the_relic_tokens(table) -> None:
    """Turn 1, a Relic of Wisdom placed with 0 A: it will carry 4 A at the end (4 Agings):
    F_END_LP = 2 x 4 = 8; the Town L1 face adds 1."""
    t = table()
    t.build(0, town=1)
    brain = t.game.brain
    sk = brain.sketch(0)
    sk.pieces.append(Piece(3, t.rules.cards.index["relic-of-wisdom"], 0, pending=True, fresh=True))
    assert brain.features(0, sk)[F_END_LP] == 8 + 1
    t.game.turn = 4
    assert brain.features(0, sk)[F_END_LP] == 2 + 1
