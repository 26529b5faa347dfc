"""Whole Legends games in ``reference/``, checked with hypothesis (every policy, 2-5
players, random switches of ``docs/rules/paper-tales-legends.md`` §8): card conservation at
every phase boundary (artifact zones included), gold never negative, score = breakdown, the
dataset records agree with the end position; determinism; and the base variant unchanged by
the expansion code."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from talesim.simcore.games.paper_tales.policies import POLICY_NAMES, default_weights
from talesim.simcore.games.paper_tales.reference import (
    LEGENDS_BREAKDOWN,
    LEGENDS_CARD_FIELDS,
    Game,
    Rules,
    final_state,
    play_reference,
)
from talesim.simcore.games.paper_tales.tables import load_cardset

WEIGHTS = default_weights()
GOLDEN = Path(__file__).resolve().parent / "golden"


@st.composite
def setups(draw: st.DrawFn) -> tuple[list[int], int, int, dict]:
    players = draw(st.integers(2, 5))
    names = draw(st.lists(st.sampled_from(POLICY_NAMES), min_size=players, max_size=players))
    options = {
        "use_port_abbey": draw(st.booleans()),
        "titan_level": draw(st.integers(1, 2)),
        "discount_active_when_paid_same_phase": draw(st.booleans()),
        "simultaneity_gold": draw(st.sampled_from(("more", "less"))),
    }
    return (
        [POLICY_NAMES.index(n) for n in names],
        draw(st.integers(0, 2**63 - 1)),
        draw(st.integers(0, 10**9)),
        options,
    )


def with_options(cards, options: dict):
    opts = dict(cards.rules.options, **options)
    return dataclasses.replace(cards, rules=dataclasses.replace(cards.rules, options=opts))


def check_finished(game: Game) -> None:
    r = game.rules
    assert game.over
    assert sum(pl.win for pl in game.players) == pytest.approx(1.0)
    fs = final_state(game)
    assert "+" in fs["building_pool"]
    for pl, seat in zip(game.players, fs["seats"], strict=True):
        assert seat["score"] == sum(seat["breakdown"]) == pl.lp >= 0
        assert len(seat["breakdown"]) == len(LEGENDS_BREAKDOWN)
        assert pl.gold >= 0
        zone = {z.card for z in pl.zone}
        for c in pl.logs:
            if pl.log[c.card] is not c:
                continue
            assert (c.fate == "in_zone") == (c.card in zone)
            assert c.kind == ("artifact" if r.is_artifact(c.card) else "unit")
            if c.kind == "artifact":
                assert c.fate in ("in_zone", "unpaid", "not_deployed", "kept", "hand")
                assert c.row in ("zone", "")
            assert c.deployed == (c.deploy_cost is not None)
        assert seat["artifact_gold"] == sum(pl.log[z.card].deploy_cost or 0 for z in pl.zone)
        assert len(seat["cards"][0]) == len(LEGENDS_CARD_FIELDS)
        assert len(seat["buildings"]) == len(game.bset)


@settings(max_examples=25, deadline=None)
@given(setups())
def test_legends_games_keep_every_invariant(legends, setup) -> None:
    policies, seed, game_id, options = setup
    cards = with_options(legends, options)
    game = play_reference(Rules(cards, len(policies)), WEIGHTS, policies, seed, game_id, check=True)
    check_finished(game)


def test_legends_games_are_deterministic(legends) -> None:
    a = play_reference(Rules(legends, 4), WEIGHTS, [0, 1, 2, 3], 9, 17, record=True)
    b = play_reference(Rules(legends, 4), WEIGHTS, [0, 1, 2, 3], 9, 17, record=True)
    assert final_state(a) == final_state(b)
    assert a.events == b.events


def test_greedy_deploys_artifacts(legends) -> None:
    """Greedy values artifacts (end LP, abilities, LF_ARTIFACTS): over a few 4-player games
    its seats deploy some."""
    n = 0
    for g in range(6):
        game = play_reference(Rules(legends, 4), WEIGHTS, [1] * 4, 3, g)
        n += sum(len(pl.zone) for pl in game.players)
    assert n > 0


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("base-*.json")), ids=lambda p: p.stem)
def test_base_variant_unchanged(path: Path) -> None:
    """The expansion code leaves base games as they were: the golden base playthroughs
    replay identically, events included."""
    g = json.loads(path.read_text())
    cards = load_cardset()
    assert not cards.legends
    codes = [POLICY_NAMES.index(p) for p in g["policies"]]
    game = play_reference(
        Rules(cards, len(codes)), WEIGHTS, codes, g["seed"], g["game_id"], record=True
    )
    state = json.loads(json.dumps(final_state(game)))
    for key, value in state.items():
        assert value == g[key], key
    assert json.loads(json.dumps(game.events)) == g["events"]
