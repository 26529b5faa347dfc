"""Differential test: the numba kernel plays exactly the games of the readable reference.

For the same (seed, game id, seat policies, card data, rules options) both must produce the
same dataset, column by column: the four tables ``engine_kit.run_chunk`` writes are compared
with the same tables built from ``reference.final_state`` (``engine.reference_frames``), so every
stored field (scores, the nine-part LP breakdown and its summaries, gold, wars, winners and
ranks, every card's story, every building's history, reshuffles) is checked.

Budget: reference.py plays ~190 random but only ~10 greedy/warlord/builder four-player
games/s, so the default run plays 500 ``random`` games per player count (2-5) and a few
dozen of each other policy and of mixed rotated seats; ``-m slow`` plays 500 per player
count with every policy, mixed seats rotated, and every non-default option on 100 games.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from simcore import engine_kit
from simcore.games.paper_tales import engine
from simcore.games.paper_tales.engine import (
    SEAT_PARTS,
    frame_mismatch,
    prepare,
    reference_frames,
)
from simcore.games.paper_tales.tables import CardSet

run_chunk = functools.partial(engine_kit.run_chunk, engine)

PLAYERS = (2, 3, 4, 5)
MIXED = ("greedy", "random", "warlord", "builder", "greedy")

DEFAULT = (("random", 500), ("greedy", 12), ("warlord", 12), ("builder", 12), ("mixed", 16))
SLOW = (("random", 2000), ("greedy", 500), ("warlord", 500), ("builder", 500), ("mixed", 500))

# Every §8 option and rule constant away from its default (rules.toml), one at a time.
OPTIONS: tuple[dict[str, Any], ...] = (
    {"first_draft_direction": "previous"},
    {"direct_level2_requirement": "max"},
    {"land_cost_on_upgrade": True},
    {"deploy_discard": "death"},
    {"healed_units_age": False},
    {"strong_units_scope": "front"},
    {"per_war_won_rows": "front"},
    {"shapeshift_on_deploy": False},
    {"shapeshift_free": False},
    {"kraken_count_at_end": False},
    {"keep": 0},
    {"reshuffle_discard": False},
    {"front_spots": 1, "back_spots": 1},
    {"extra_front_spots": 0},
    {"turns": 3, "start_gold": 8, "base_income": 4, "war_lp": 2, "land_cost_per_building": 1},
    {"deal": 4, "strong_units_min": 2},
)
TWO_PLAYER: tuple[dict[str, Any], ...] = (
    {"zero_strength_wins": True, "per_war_won_times": 2},
    {"double_ratio": 3, "double_war_lp": 5, "war_lp": 2, "discard_per_step": 2},
)


def seat_policies(spec: str, players: int) -> list[str]:
    return list(MIXED[:players]) if spec == "mixed" else [spec] * players


def with_options(cards: CardSet, two: bool = False, **options: Any) -> CardSet:
    """The card set with rules.toml options (``two``: ``[two_player]`` keys) replaced."""
    rules = cards.rules
    if two:
        rules = dataclasses.replace(
            rules, two_player=dataclasses.replace(rules.two_player, **options)
        )
    else:
        rules = dataclasses.replace(rules, options=dict(rules.options, **options))
    return dataclasses.replace(cards, rules=rules)


def compare(
    cards: CardSet, players: int, policies: list[str], seed: int, first: int, n: int,
    rotate: bool = False,
) -> dict[str, pl.DataFrame]:  # fmt: skip
    """Play games ``first .. first+n-1`` both ways; assert every dataset column is equal."""
    prep = prepare(cards, "base", players, policies, rotate)
    got = run_chunk(prep, seed, first, n, check=True)
    want = reference_frames(prep, seed, first, n)
    for table, frame in got.items():
        mismatch = frame_mismatch(frame, want[table], table)
        assert mismatch is None, mismatch
    return got


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize(("spec", "n"), DEFAULT)
def test_kernel_plays_the_reference_games(cards: CardSet, players: int, spec: str, n: int) -> None:
    got = compare(cards, players, seat_policies(spec, players), 11 + players, 0, n, spec == "mixed")
    assert got["seats"]["score"].sum() > 0


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize(("spec", "n"), SLOW)
def test_kernel_plays_the_reference_games_long(
    cards: CardSet, players: int, spec: str, n: int
) -> None:
    compare(cards, players, seat_policies(spec, players), 101 + players, 1000, n, spec == "mixed")


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
def test_every_option_is_honoured(cards: CardSet, options: dict[str, Any]) -> None:
    """Each non-default option, 4 mixed rotated seats (3 when the deck is too small)."""
    modified = with_options(cards, **options)
    players = 3 if options.get("reshuffle_discard") is False else 4
    compare(modified, players, list(MIXED[:players]), 5, 0, 30, rotate=True)
    compare(modified, players, ["random"] * players, 6, 0, 60)


@pytest.mark.parametrize("options", TWO_PLAYER, ids=lambda o: ",".join(o))
def test_two_player_options_are_honoured(cards: CardSet, options: dict[str, Any]) -> None:
    modified = with_options(cards, two=True, **options)
    compare(modified, 2, ["warlord", "builder"], 5, 0, 30, rotate=True)
    compare(modified, 2, ["random", "random"], 6, 0, 80)


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTIONS + TWO_PLAYER, ids=lambda o: ",".join(o))
def test_every_option_is_honoured_long(cards: CardSet, options: dict[str, Any]) -> None:
    two = options in TWO_PLAYER
    modified = with_options(cards, two=two, **options)
    players = 2 if two else (3 if options.get("reshuffle_discard") is False else 5)
    compare(modified, players, list(MIXED[:players]), 9, 100, 100, rotate=True)


@pytest.mark.parametrize(
    ("seed", "first"),
    [(0, 0), (2**63 - 1, 0), (1, 2**63 - 40), (2**62 + 12345, 2**40), (2**32, 2**32 - 3)],
)
def test_extreme_seeds_and_game_ids(cards: CardSet, seed: int, first: int) -> None:
    compare(cards, 4, ["random", "greedy", "random", "builder"], seed, first, 8, rotate=True)


def test_results_do_not_depend_on_chunking_or_threads(cards: CardSet) -> None:
    import numba

    prep = prepare(cards, "base", 4, list(MIXED[:4]), True)
    whole = run_chunk(prep, 3, 0, 300)
    parts = [run_chunk(prep, 3, lo, hi - lo) for lo, hi in ((0, 7), (7, 150), (150, 300))]
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        single = run_chunk(prep, 3, 0, 300)
    finally:
        numba.set_num_threads(old)
    for table, frame in whole.items():
        assert_frame_equal(frame, pl.concat([p[table] for p in parts]))
        assert_frame_equal(frame, single[table])


def test_the_dataset_tables_are_consistent(cards: CardSet) -> None:
    """Cross-table facts: breakdown sums to score, one winner share per game, cards per
    seat and turn = the draft picks (+ Shapeshifter reveals), built buildings' levels."""
    prep = prepare(cards, "base", 4, ["greedy"] * 4, False)
    t = run_chunk(prep, 21, 0, 200)
    seats = t["seats"]
    total = sum(seats[c] for c in SEAT_PARTS)
    assert (total == seats["score"]).all()
    assert (seats.group_by("game_id").agg(pl.col("win").sum())["win"] - 1.0).abs().max() < 1e-9
    drafted = t["cards"].filter(pl.col("pick") > 0).group_by("game_id", "seat", "turn").len()
    assert (drafted["len"] == 5).all()
    assert t["buildings"]["level"].is_in([1, 2]).all()
    assert np.all(t["games"]["turns"].to_numpy() == 4)


def test_kernel_plays_the_issue_game_of_a_shapeshifter_beside_a_necromancer(
    cards: CardSet,
) -> None:
    """Seed 2, game 21, 4 players (greedy, warlord, builder, greedy): in turn 3 seat 1
    deploys a Necromancer on spot 0 and a Shapeshifter on spot 4 (card replacement
    resolves first: its Blacksmith ends the phase with 2 tokens); both engines agree."""
    got = compare(cards, 4, ["greedy", "warlord", "builder", "greedy"], 2, 21, 1)
    assert len(got["seats"]) == 4
