"""Differential test: the numba kernel plays exactly the games of the readable reference.

For the same (seed, game id, seat policies, card data, rules options) both must produce the
same dataset, column by column: the four tables ``engine_kit.run_chunk`` writes are compared
with the same tables built from ``reference.final_state`` (``engine.reference_frames``), so every
stored field (scores, the nine-part LP breakdown and its summaries, gold, wars, winners and
ranks, every card's story, every building's history, reshuffles) is checked.

Both variants: the Legends games (``deployment_order = "tiers"``, the kernel given ``lx``)
are compared on the same tables with their Legends columns (``games.building_pool``, the
eleven breakdown parts, ``seats.artifacts_in_zone`` / ``artifact_gold``, ``cards.kind`` /
``deploy_cost`` / ``how_deployed``). Their cases' ids name the variant.

Budget: the reference plays ~190 random but only ~10 greedy/warlord/builder four-player
base games/s (~100 random, a few greedy Legends games/s), so the default run plays 500
``random`` games per player count (2-5; Legends 150) and a dozen or so of each other policy
and of mixed rotated seats; ``-m slow`` plays 500 per player count with every policy (base
``random``: 2000), mixed seats rotated, and every non-default base option on 100 games.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import numpy as np
import polars as pl
import pytest
from kit import seat_policies

from talesim.simcore import engine_kit
from talesim.simcore.games.paper_tales import engine
from talesim.simcore.games.paper_tales.engine import (
    LEGENDS_SEAT_PARTS,
    SEAT_PARTS,
    frame_mismatch,
    prepare,
    reference_frames,
)
from talesim.simcore.games.paper_tales.tables import CardSet

run_chunk = functools.partial(engine_kit.run_chunk, engine)

PLAYERS = (2, 3, 4, 5)
MIXED = ("greedy", "random", "warlord", "builder", "greedy")

#: The policy specs a case plays ("mixed": ``MIXED``).
SPECS = ("random", "greedy", "warlord", "builder", "mixed")
# Per variant: the seed (+ the player count) and the games of each of ``SPECS``.
DEFAULT = {"base": (11, (500, 12, 12, 12, 16)), "legends": (31, (150, 12, 12, 12, 12))}
SLOW = {"base": (101, (2000, 500, 500, 500, 500)), "legends": (301, (500, 500, 500, 500, 500))}

# Every option of docs/rules/paper-tales.md §8 and rule constant away from its default
# (rules.toml), one at a time.
BASE_OPTIONS: tuple[dict[str, Any], ...] = (
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
# The Legends switches away from their defaults (rules.toml [variant.legends]), one at a time.
LEGENDS_OPTIONS: tuple[dict[str, Any], ...] = (
    {"simultaneity_gold": "less"},
    {"discount_active_when_paid_same_phase": False},
    {"use_port_abbey": True},
    {"artifact_cost_base": 0, "artifact_cost_step": 2},
    {"deploy_discard": "death", "shapeshift_on_deploy": False},
    {"legends_buildings": ("royal-palace", "inn"), "artifact_cost_floor": 1},
)
# Per variant, the two runs each option plays: (seats, seed, games); mixed seats rotate.
OPTION_RUNS = {
    "base": (("mixed", 5, 30), ("random", 6, 60)),
    "legends": (("random", 9, 60), ("mixed", 10, 8)),
}
TWO_PLAYER: tuple[dict[str, Any], ...] = (
    {"zero_strength_wins": True, "per_war_won_times": 2},
    {"double_ratio": 3, "double_war_lp": 5, "war_lp": 2, "discard_per_step": 2},
)


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


def runs(table: dict[str, tuple[int, tuple[int, ...]]], first: int, marks: Any = ()) -> list:
    """The (variant, seed, policy spec, first game, games) cases of ``DEFAULT`` or
    ``SLOW``."""
    return [
        pytest.param(variant, seed, spec, first, n, id=f"{variant}-{spec}-{n}", marks=marks)
        for variant, (seed, games) in table.items()
        for spec, n in zip(SPECS, games, strict=True)
    ]


def compare(
    cards: CardSet, players: int, policies: list[str], seed: int, first: int, n: int,
    rotate: bool = False,
) -> dict[str, pl.DataFrame]:  # fmt: skip
    """Play games ``first .. first+n-1`` both ways; assert every dataset column is equal.
    The base games run in checking mode too (the Legends one: ``test_legends_check_mode``)."""
    variant = "legends" if cards.legends else "base"
    prep = prepare(cards, variant, players, policies, rotate)
    got = run_chunk(prep, seed, first, n, check=not cards.legends)
    want = reference_frames(prep, seed, first, n)
    for table, frame in got.items():
        mismatch = frame_mismatch(frame, want[table], table)
        assert mismatch is None, mismatch
    return got


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize(
    ("variant", "seed", "spec", "first", "n"),
    runs(DEFAULT, 0) + runs(SLOW, 1000, pytest.mark.slow),  # ``-m slow``: more games
)
def test_kernel_plays_the_reference_games(
    cardsets: dict[str, CardSet], variant: str, seed: int, spec: str, first: int, n: int,
    players: int,
) -> None:  # fmt: skip
    policies = seat_policies(spec, players, MIXED)
    got = compare(cardsets[variant], players, policies, seed + players, first, n, spec == "mixed")
    seats = got["seats"]
    assert seats["score"].sum() > 0
    if variant == "legends":
        total = seats.select(pl.sum_horizontal(list(LEGENDS_SEAT_PARTS)))[:, 0]
        assert (total == seats["score"]).all()
        assert seats["artifacts_in_zone"].sum() > 0
        if spec == "random":
            assert got["games"]["building_pool"].n_unique() == 3


@pytest.mark.parametrize(
    ("variant", "options"),
    [("base", o) for o in BASE_OPTIONS] + [("legends", o) for o in LEGENDS_OPTIONS],
    ids=lambda v: v if isinstance(v, str) else ",".join(f"{k}={x}" for k, x in v.items()),
)
def test_every_option_is_honoured(
    cardsets: dict[str, CardSet], variant: str, options: dict[str, Any]
) -> None:
    """Each non-default option or switch, 4 seats (3 when the deck is too small): mixed
    rotated ones and random ones."""
    modified = with_options(cardsets[variant], **options)
    players = 3 if options.get("reshuffle_discard") is False else 4
    for spec, seed, n in OPTION_RUNS[variant]:
        policies = seat_policies(spec, players, MIXED)
        compare(modified, players, policies, seed, 0, n, rotate=spec == "mixed")


@pytest.mark.parametrize("options", TWO_PLAYER, ids=lambda o: ",".join(o))
def test_two_player_options_are_honoured(cards: CardSet, options: dict[str, Any]) -> None:
    modified = with_options(cards, two=True, **options)
    compare(modified, 2, ["warlord", "builder"], 5, 0, 30, rotate=True)
    compare(modified, 2, ["random", "random"], 6, 0, 80)


@pytest.mark.slow
@pytest.mark.parametrize("options", BASE_OPTIONS + TWO_PLAYER, ids=lambda o: ",".join(o))
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


def test_kernel_plays_a_shapeshifter_deployed_beside_a_necromancer(
    cards: CardSet,
) -> None:
    """Seed 2, game 21, 4 players (greedy, warlord, builder, greedy): in turn 3 seat 1
    deploys a Necromancer on spot 0 and a Shapeshifter on spot 4 (card replacement
    resolves first: its Blacksmith ends the phase with 2 tokens); both engines agree."""
    got = compare(cards, 4, ["greedy", "warlord", "builder", "greedy"], 2, 21, 1)
    assert len(got["seats"]) == 4
