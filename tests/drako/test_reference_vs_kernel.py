"""Differential test: the numba kernel plays exactly the games of the readable reference.

For the same (seed, game id, seat policies, rules file, preset) both must agree on
everything a game produces: turns, cap hit, scores, the seven-category breakdowns, the
final grids (kind of each cell), the turn each card was placed, the Legends claimed (which,
by whom, on which turn, in claim order), each seat's turns, who ended the game and the
winners, and every turn's draw decision (the ``draws`` table). Reference: the
random-stream order in ``reference/``'s package docstring.

Budget: reference/ plays ~35 random games/s but only ~2-3 greedy or legend-hunter
games/s (its greedy search rescoring with Python sets), so the default run plays 300
``random`` games per (player count, preset) and a few dozen of the other policies; ``-m
slow`` plays >= 300 of each policy per (player count, preset) and >= 1,000 random ones.
"""

from __future__ import annotations

import functools

import polars as pl
import pytest
from golden_games import drako_kernel_state
from kit import seat_policies, with_turn_cap

from talesim.simcore import engine_kit
from talesim.simcore.games.drako import engine
from talesim.simcore.games.drako.engine import prepare, simulate_arrays
from talesim.simcore.games.drako.reference import Rules, final_state, play_reference
from talesim.simcore.games.drako.tables import CardSet

run_chunk = functools.partial(engine_kit.run_chunk, engine)

PRESETS = ("brief", "published")
PLAYERS = (2, 3, 4)
MIXED = ("legend-hunter", "random", "greedy", "random")

# (policy spec, games per (player count, preset)); spec "mixed" = MIXED[:players].
DEFAULT = (("random", 300), ("greedy", 6), ("legend-hunter", 6), ("mixed", 6))
SLOW = (("random", 1000), ("greedy", 300), ("legend-hunter", 300), ("mixed", 100))


def compare(
    data: CardSet, preset: str, policies: list[str], seed: int, first: int, n: int,
    rotate: bool = False,
) -> dict[str, int]:  # fmt: skip
    """Play games ``first .. first+n-1`` (a seat per policy) both ways; assert every field
    is equal. Returns counts of what the games exercised (claims, reshuffle-long games,
    replaced cards)."""
    players = len(policies)
    prep = prepare(data, preset, players, policies, rotate)
    a = simulate_arrays(prep, seed, first, n)
    rules = Rules(data, preset, players)
    ids = [int(x) for x in prep.seat_policy]
    seen = {"claims": 0, "replaced": 0, "shared_wins": 0}
    draws = engine.draw_table(a["draws"], a["turns"], engine_kit.game_ids(first, n), players)
    by_game = draws.partition_by("game_id", as_dict=True, include_key=False)
    for i in range(n):
        g = first + i
        seats = [ids[(p + g) % players] for p in range(players)] if rotate else ids
        game = play_reference(rules, prep.weights, seats, seed, g)
        ref = final_state(game)
        got = drako_kernel_state(data, a, i)
        where = f"{preset} {players}p {policies} seed {seed} game {g}"
        assert a["policy"][i].tolist() == seats, where
        for key in ref:
            assert got[key] == ref[key], f"{where}: {key}"
        assert by_game[(g,)].rows() == [d.row() for d in game.draws], f"{where}: draws"
        replaced = a["replaced"][i]
        assert (replaced == (a["turn_placed"][i] > 0)).all(), where
        seen["claims"] += int(a["claim_n"][i].sum())
        seen["replaced"] += int(replaced.sum())
        seen["shared_wins"] += len(ref["winners"]) > 1
    return seen


def _cases(table: tuple[tuple[str, int], ...]) -> list[tuple[str, int, str, int]]:
    return [
        (preset, players, spec, games)
        for spec, games in table
        for preset in PRESETS
        for players in PLAYERS
    ]


def _id(case: tuple) -> str:
    preset, players, spec, games = case
    return f"{preset}-{players}p-{spec}-{games}"


@pytest.mark.parametrize("case", _cases(DEFAULT), ids=_id)
def test_kernel_equals_reference(data, case) -> None:
    """The kernel and reference/ agree on every game, field by field."""
    preset, players, spec, games = case
    seen = compare(data, preset, seat_policies(spec, players, MIXED), 4040 + players, 0, games)
    assert seen["claims"] > 0
    assert seen["replaced"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("case", _cases(SLOW), ids=_id)
def test_kernel_equals_reference_many_games(data, case) -> None:
    """More games per policy, player count and preset (run with ``-m slow``)."""
    preset, players, spec, games = case
    compare(data, preset, seat_policies(spec, players, MIXED), 99, 10_000, games)


def test_far_game_ids_and_big_seed(data) -> None:
    """Game ids far from 0 and the largest seed give the same games both ways."""
    compare(data, "brief", ["random"] * 4, 2**63 - 1, 10**12, 40)
    compare(data, "published", ["greedy"] * 3, 0, 123_456_789, 4)


def test_rotated_seats(data) -> None:
    """--rotate-seats: seat s of game g plays policy[(s + g) % P], in both implementations."""
    compare(data, "brief", ["greedy", "random", "legend-hunter"], 77, 5, 9, rotate=True)


def test_default_run_covers_300_random_games_per_cell() -> None:
    """The default differential run covers >= 300 random games per player count and preset
    and every policy at every player count and preset."""
    cells = {(pr, p, spec): g for pr, p, spec, g in _cases(DEFAULT)}
    assert all(cells[(pr, p, "random")] >= 300 for pr in PRESETS for p in PLAYERS)
    assert {spec for _, _, spec in cells} == {"random", "greedy", "legend-hunter", "mixed"}
    slow = {(pr, p, spec): g for pr, p, spec, g in _cases(SLOW)}
    assert (
        min(
            slow[(pr, p, s)] for pr in PRESETS for p in PLAYERS for s in ("greedy", "legend-hunter")
        )
        >= 300
    )


@pytest.mark.parametrize("policy", ["random", "greedy", "mixed"])
def test_capped_games_are_recorded_and_equal(data, policy: str) -> None:
    """A game stopped by the turn cap (``turns_per_player_cap``, set tiny here: 16 turns per
    player, a few past the 12-reveal minimum, so some games end and some are cut) is the same
    game in the kernel and in reference/, and the dataset flags it: ``games.cap_hit``,
    exactly cap x players turns, no ender."""
    cap, players, n = 16, 3, 40
    capped = with_turn_cap(data, cap)
    compare(capped, "brief", seat_policies(policy, players, MIXED), 8, 0, n)
    prep = prepare(capped, "brief", players, seat_policies(policy, players, MIXED), False)
    games = run_chunk(prep, 8, 0, n)["games"]
    seats = run_chunk(prep, 8, 0, n)["seats"]
    hit = games.filter(pl.col("cap_hit"))
    assert 0 < hit.height < n, policy  # both kinds of game occur
    assert (hit["turns"] == cap * players).all()
    assert (games.filter(~pl.col("cap_hit"))["turns"] <= cap * players).all()
    enders = seats.group_by("game_id").agg(pl.col("ended_game").sum()).join(games, on="game_id")
    assert (enders["ended_game"] == (~enders["cap_hit"]).cast(pl.Int64)).all()
