"""Every report metric on tiny hand-made datasets with answers computed by hand."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from kit import SEAT_SCHEMA

from talesim.reports import metrics as m


def seats_frame(rows: list[tuple[int, int, str, int, int, float]]) -> pl.LazyFrame:
    """rows: (game_id, seat, policy, score, rank, win)."""
    return pl.DataFrame(
        rows,
        schema=SEAT_SCHEMA,
        orient="row",
    ).lazy()


def two_games(*seats: tuple[int, int, float]) -> pl.LazyFrame:
    """Two 2-player games of one policy, "g": each seat's (score, rank, win), in the order
    game 0 seat 0, game 0 seat 1, game 1 seat 0, game 1 seat 1."""
    places = [(0, 0), (0, 1), (1, 0), (1, 1)]
    return seats_frame([(g, s, "g", *seat) for (g, s), seat in zip(places, seats, strict=True)])


def buildings_frame(rows: list[tuple[int, int, str, int, int, int | None]]) -> pl.DataFrame:
    """rows: (game_id, seat, building, level, turn_built, turn_upgraded)."""
    columns = ["game_id", "seat", "building", "level", "turn_built", "turn_upgraded"]
    return pl.DataFrame(rows, schema=columns, orient="row")


# --- intervals -----------------------------------------------------------------------------


def test_wilson_matches_newcombe_1998_textbook_value() -> None:
    # Newcombe (1998), Statistics in Medicine 17:857, example: 81/263 -> 0.2553 to 0.3662
    lo, hi = m.wilson(81 / 263, 263)
    assert lo == pytest.approx(0.2553, abs=5e-5)
    assert hi == pytest.approx(0.3662, abs=5e-5)


def test_wilson_by_hand_half_and_edges() -> None:
    # p = 0.5, n = 100: centre 0.5, half = 1.96·sqrt(0.0025 + 0.000096)/1.0384 = 0.0962
    lo, hi = m.wilson(0.5, 100)
    assert (lo, hi) == pytest.approx((0.40383, 0.59617), abs=1e-4)
    lo, hi = m.wilson(0.0, 10)  # never won: lower bound exactly 0, upper > 0
    assert lo == pytest.approx(0.0, abs=1e-12)
    assert 0.25 < hi < 0.35
    assert all(math.isnan(x) for x in m.wilson(0.3, 0))


def test_wilson_exprs_equal_scalar_version_and_scale() -> None:
    df = pl.DataFrame({"p": [0.1, 0.5, 0.9, 0.0], "n": [10, 100, 37, 0]})
    lo, hi = m.wilson_exprs("p", "n", scale=4)
    out = df.select(lo.alias("lo"), hi.alias("hi"))
    for (p, n), (a, b) in zip(df.iter_rows(), out.iter_rows(), strict=True):
        if n == 0:
            assert a is None
            assert b is None
        else:
            ea, eb = m.wilson(p, n)
            assert (a, b) == pytest.approx((4 * ea, 4 * eb))


def test_newcombe_difference_textbook_value() -> None:
    # Newcombe (1998) example (a): 56/70 − 48/80 = 0.2000, method 10: 0.0524 to 0.3339
    d, lo, hi = m.newcombe(56 / 70, 70, 48 / 80, 80)
    assert d == pytest.approx(0.2)
    assert lo == pytest.approx(0.0524, abs=5e-5)
    assert hi == pytest.approx(0.3339, abs=5e-5)


# --- seats and policies ----------------------------------------------------------------------

# Two 2-player games: game 0 won by seat 0 (greedy); game 1 a tie (each 1/2).
TWO_GAMES = [
    (0, 0, "greedy", 30, 1, 1.0),
    (0, 1, "random", 20, 2, 0.0),
    (1, 0, "random", 25, 1, 0.5),
    (1, 1, "greedy", 25, 1, 0.5),
]


def test_win_share_by_seat_counts_shared_wins_as_fractions() -> None:
    df = m.win_share_by(seats_frame(TWO_GAMES), "seat", players=2)
    assert df["seat"].to_list() == [0, 1]
    assert df["n"].to_list() == [2, 2]
    # seat 0: wins 1 + 1/2 over 2 seats = 0.75 -> share 1.5; seat 1: 0.25 -> 0.5
    assert df["ws"].to_list() == pytest.approx([1.5, 0.5])
    assert df["mean_score"].to_list() == pytest.approx([27.5, 22.5])
    lo, hi = m.wilson(0.75, 2)
    assert (df["ws_lo"][0], df["ws_hi"][0]) == pytest.approx((2 * lo, 2 * hi))


def test_win_share_by_policy_sums_to_players() -> None:
    df = m.win_share_by(seats_frame(TWO_GAMES), "policy", players=2)
    assert df["policy"].to_list() == ["greedy", "random"]
    assert df["ws"].to_list() == pytest.approx([1.5, 0.5])
    assert sum(df["ws"]) == pytest.approx(2.0)


def test_score_histogram_groups_and_counts() -> None:
    df = m.score_histogram(seats_frame(TWO_GAMES), "policy")
    assert df.rows() == [("greedy", 25, 1), ("greedy", 30, 1), ("random", 20, 1), ("random", 25, 1)]


def test_pairwise_results_and_matchup_with_ties() -> None:
    # one 3-player game: A rank 1, B rank 2, C rank 2 (B and C tied)
    seats = seats_frame([(0, 0, "A", 9, 1, 1.0), (0, 1, "B", 5, 2, 0.0), (0, 2, "C", 5, 2, 0.0)])
    pairs = m.pairwise_results(seats)
    got = {(r["policy"], r["opponent"]): (r["n"], r["ahead"]) for r in pairs.iter_rows(named=True)}
    assert got[("A", "B")] == (1, 1.0)
    assert got[("B", "A")] == (1, 0.0)
    assert got[("B", "C")] == (1, 0.5)
    assert got[("C", "B")] == (1, 0.5)
    mm = m.matchup_matrix(pairs)
    ws = {(r["policy"], r["opponent"]): r["ws"] for r in mm.iter_rows(named=True)}
    assert ws[("A", "C")] == 2.0
    assert ws[("C", "A")] == 0.0
    assert ws[("B", "C")] == 1.0


def test_bradley_terry_two_policies_closed_form() -> None:
    # A ahead of B in 3 of 4 comparisons: s_A / s_B = 3, geometric mean 1 -> s_A = sqrt(3)
    s = m.bt_fit(np.array([[0.0, 4.0], [4.0, 0.0]]), np.array([3.0, 1.0]))
    assert s[0] == pytest.approx(math.sqrt(3), rel=1e-9)
    assert s[1] == pytest.approx(1 / math.sqrt(3), rel=1e-9)


def test_bradley_terry_recovers_consistent_strengths() -> None:
    # true strengths 4 : 2 : 1; records with exactly the expected counts out of 300 each
    true = [4.0, 2.0, 1.0]
    tot = np.full((3, 3), 300.0) - np.diag([300.0] * 3)
    wins = np.array([sum(300 * a / (a + b) for b in true if b != a) for a in true])
    s = m.bt_fit(tot, wins)
    assert s[0] / s[1] == pytest.approx(2.0, rel=1e-6)
    assert s[1] / s[2] == pytest.approx(2.0, rel=1e-6)
    assert math.prod(s) == pytest.approx(1.0)


# --- cards -----------------------------------------------------------------------------------


def test_card_table_by_hand() -> None:
    # 2-player games. Seat wins: g0 s0 = 1, g0 s1 = 0, g1 s0 = 0, g1 s1 = 1.
    seats = two_games((9, 1, 1.0), (3, 2, 0.0), (2, 2, 0.0), (8, 1, 1.0))
    cards = pl.DataFrame(
        {
            "game_id": [0, 0, 0, 1, 1, 1],
            "seat": [0, 0, 1, 0, 1, 1],
            "card": ["elf", "elf", "elf", "elf", "orc", "elf"],
            "pick": [1, 3, 2, 5, 1, 4],
            "played": [True, False, True, False, True, True],
            "face_up": [True, False, False, False, True, True],
            "points": [4, 0, 0, 0, 6, 2],
        }
    ).lazy()
    df = m.card_table(cards, seats, players=2)
    elf = df.filter(pl.col("card") == "elf").row(0, named=True)
    # elf copies: (g0,s0,win1,played) (g0,s0,1,not) (g0,s1,0,played) (g1,s0,0,not) (g1,s1,1,played)
    assert elf["n"] == 5
    assert elf["ws"] == pytest.approx(2 * 3 / 5)
    assert elf["n_played"] == 3
    assert elf["ws_played"] == pytest.approx(2 * 2 / 3)
    assert elf["n_not_played"] == 2
    assert elf["ws_not_played"] == pytest.approx(2 * 1 / 2)
    assert elf["improvement"] == pytest.approx(4 / 3 - 1)
    assert elf["improvement_lo"] < elf["improvement"] < elf["improvement_hi"]
    assert elf["play_rate"] == pytest.approx(3 / 5)
    assert elf["n_final"] == 2
    assert elf["ws_final"] == pytest.approx(2.0)
    assert elf["mean_pick"] == pytest.approx((1 + 3 + 2 + 5 + 4) / 5)
    assert elf["mean_points"] == pytest.approx(6 / 5)
    orc = df.filter(pl.col("card") == "orc").row(0, named=True)
    assert orc["n"] == 1
    assert orc["ws"] == pytest.approx(2.0)
    assert orc["n_not_played"] == 0
    assert orc["ws_not_played"] is None
    assert orc["improvement"] is None


def test_card_table_keeps_given_cards_apart() -> None:
    """Pick 0 (a card that came without a choice): counted only in n_given / ws_given;
    every other column describes the copies chosen. Without pick 0 no _given column."""
    seats = two_games((9, 1, 1.0), (3, 2, 0.0), (2, 2, 0.0), (8, 1, 1.0))
    cards = pl.DataFrame(
        {
            "game_id": [0, 0, 1, 1, 1],
            "seat": [0, 1, 0, 1, 1],
            "card": ["elf", "elf", "elf", "elf", "orc"],
            "pick": [0, 2, 0, 4, 0],
        }
    ).lazy()
    df = m.card_table(cards, seats, players=2)
    elf = df.filter(pl.col("card") == "elf").row(0, named=True)
    # chosen elves: (g0,s1,win 0, pick 2) (g1,s1,win 1, pick 4); dealt: (g0,s0,1) (g1,s0,0)
    assert (elf["n"], elf["ws"], elf["mean_pick"]) == (2, pytest.approx(1.0), pytest.approx(3.0))
    assert (elf["n_given"], elf["ws_given"]) == (2, pytest.approx(1.0))
    assert elf["ws_given_lo"] < 1.0 < elf["ws_given_hi"]
    assert "orc" not in df["card"].to_list()  # dealt only, never chosen: no chosen figures
    chosen_only = m.card_table(cards.filter(pl.col("pick") > 0), seats, players=2)
    assert "n_given" not in chosen_only.columns


def test_card_seat_table_judges_a_card_within_its_seat() -> None:
    """Four 2-player games; seat 0 wins games 0, 1 and 2 (rate 3/4), seat 1 game 3 (1/4).
    The elf taken by seat 0 in games 0 and 3 (won, lost): rate 1/2, so (1/2) / (3/4) = 2/3
    of its seat's; by seat 1 in game 3 (won): 1 / (1/4) = 4."""
    winner = {0: 0, 1: 0, 2: 0, 3: 1}
    seats = seats_frame(
        [(g, s, "g", 0, 1 if winner[g] == s else 2, float(winner[g] == s))
         for g in range(4) for s in range(2)]
    )  # fmt: skip
    cards = pl.DataFrame(
        {"game_id": [0, 3, 3], "seat": [0, 0, 1], "card": ["elf", "elf", "elf"]}
    ).lazy()
    df = m.card_seat_table(cards, seats)
    assert df.select("card", "seat", "n").rows() == [("elf", 0, 2), ("elf", 1, 1)]
    s0, s1 = df.row(0, named=True), df.row(1, named=True)
    assert s0["ws"] == pytest.approx((1 / 2) / (3 / 4))
    assert s1["ws"] == pytest.approx(1 / (1 / 4))
    lo, hi = m.wilson(0.5, 2)
    assert (s0["ws_lo"], s0["ws_hi"]) == (pytest.approx(lo / 0.75), pytest.approx(hi / 0.75))


def test_card_table_without_optional_columns_and_deployed_alias() -> None:
    seats = seats_frame([(0, 0, "g", 1, 1, 1.0), (0, 1, "g", 0, 2, 0.0)])
    cards = pl.DataFrame(
        {"game_id": [0, 0], "seat": [0, 1], "card": ["a", "a"], "deployed": [True, False]}
    ).lazy()
    df = m.card_table(cards, seats, players=2)
    assert "mean_pick" not in df.columns
    assert "ws_final" not in df.columns
    assert df["ws_played"][0] == pytest.approx(2.0)
    assert df["ws_not_played"][0] == 0.0


# --- Paper Tales buildings -------------------------------------------------------------------


def test_building_curves_by_hand() -> None:
    # 2 games × 2 seats, scores 10, 20, 30, 40; wins on seats with 20 and 40.
    seats = two_games((10, 2, 0.0), (20, 1, 1.0), (30, 2, 0.0), (40, 1, 1.0))
    buildings = buildings_frame(
        [
            (0, 1, "mine", 2, 1, 3),
            (1, 0, "mine", 1, 2, None),
            (1, 1, "mine", 2, 3, None),  # built directly at level 2 on turn 3
        ]
    ).lazy()
    df = m.building_curves(buildings, seats, players=2)
    rows = {(r["level"], r["turn"]): r for r in df.iter_rows(named=True)}
    assert set(rows) == {(1, 1), (1, 2), (1, 3), (2, 3)}
    assert rows[(1, 1)]["n"] == 1
    assert rows[(1, 1)]["ws"] == pytest.approx(2.0)
    assert rows[(1, 2)]["mean_score"] == pytest.approx(30)
    # level 1 by turn 2: seats scoring 20 and 30 (mean 25) vs the others 10, 40 (mean 25)
    assert rows[(1, 2)]["marginal_score"] == pytest.approx(0.0)
    # level 1 by turn 1: 20 vs mean(10, 30, 40) = 26.67
    assert rows[(1, 1)]["marginal_score"] == pytest.approx(20 - 80 / 3)
    # level 2 on turn 3: seats 20 (upgraded) and 40 (direct): 30 vs 20
    assert rows[(2, 3)]["n"] == 2
    assert rows[(2, 3)]["marginal_score"] == pytest.approx(10.0)
    # by turn 3 every... not every seat has level 1: 20, 30, 40 vs 10
    assert rows[(1, 3)]["marginal_score"] == pytest.approx(30 - 10)


def test_building_curves_never_upgraded_building_reaches_level_one_only() -> None:
    """A building that never reached level 2 (``turn_upgraded`` null, or 0 as older datasets
    wrote it) counts for level 1 on the turn it was built and for no level-2 turn: no
    "level 2 reached on turn 0" row."""
    seats = pl.DataFrame(
        {"game_id": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "score": [10, 20, 30, 40]}
    ).with_columns(win=pl.Series([0.0, 1.0, 0.0, 1.0]))
    buildings = buildings_frame(
        [(0, 1, "barracks", 1, 1, None), (1, 0, "barracks", 1, 2, 0), (1, 1, "barracks", 2, 2, 4)]
    )
    df = m.building_curves(buildings.lazy(), seats.lazy(), players=2)
    rows = {(r["level"], r["turn"]): r for r in df.iter_rows(named=True)}
    assert set(rows) == {(1, 1), (1, 2), (2, 4)}
    assert rows[(1, 2)]["n"] == 2
    assert rows[(2, 4)]["n"] == 1
    # level 2 by turn 4: only the seat scoring 40 (upgraded on turn 4); the others 10, 20, 30
    assert rows[(2, 4)]["marginal_score"] == pytest.approx(40 - 20)


# --- DRAKO -----------------------------------------------------------------------------------


def test_legend_table_value_counts_and_count_vs_score() -> None:
    seats = two_games((10, 1, 1.0), (5, 2, 0.0), (7, 1, 0.5), (7, 1, 0.5))
    legends = pl.DataFrame(
        {
            "game_id": [0, 0, 1],
            "seat": [0, 1, 1],
            "legend": ["elf-pair", "four-tribes", "elf-pair"],
            "turn": [3, 5, 4],
        }
    ).lazy()
    lt = m.legend_table(legends, seats, players=2, n_games=2)
    elf = lt.filter(pl.col("legend") == "elf-pair").row(0, named=True)
    assert elf["claims"] == 2
    assert elf["claim_rate"] == 1.0
    assert elf["ws"] == pytest.approx(2 * 1.5 / 2)
    assert elf["mean_turn"] == 3.5
    games = pl.DataFrame({"game_id": [0, 1, 2], "turns": [12, 14, 12]}).lazy()
    assert m.value_counts(games, "turns").rows() == [(12, 2), (14, 1)]
    cards = pl.DataFrame(
        {
            "game_id": [0, 0, 0, 1],
            "seat": [0, 0, 1, 1],
            "card": ["dragon", "dragon", "elf", "dragon"],
        }
    ).lazy()
    cv = m.count_vs_score(cards, seats, "dragon", players=2)
    assert cv["count"].to_list() == [0, 1, 2]
    assert cv["n"].to_list() == [2, 1, 1]
    assert cv["mean_score"].to_list() == pytest.approx([6.0, 7.0, 10.0])


# --- compare -----------------------------------------------------------------------------------


def test_delta_independent_is_newcombe_times_players() -> None:
    a = pl.DataFrame({"card": ["x"], "n": [80], "wins": [48.0]})
    b = pl.DataFrame({"card": ["x"], "n": [70], "wins": [56.0]})
    df = m.delta_independent(a, b, "card", players=1)
    r = df.row(0, named=True)
    assert r["delta"] == pytest.approx(0.2)
    assert (r["delta_lo"], r["delta_hi"]) == pytest.approx((0.0524, 0.3339), abs=5e-5)
    assert r["significant"]
    assert r["method"] == "independent"


def test_delta_paired_by_hand() -> None:
    # Same 4 games in both runs, key "p" observed once per game; wins a = 0,1,0,1, b = 1,1,0,1.
    a = pl.DataFrame({"game_id": [0, 1, 2, 3], "p": ["x"] * 4, "win": [0.0, 1.0, 0.0, 1.0]}).lazy()
    b = pl.DataFrame({"game_id": [0, 1, 2, 3], "p": ["x"] * 4, "win": [1.0, 1.0, 0.0, 1.0]}).lazy()
    r = m.delta_paired(a, b, "p", players=2).row(0, named=True)
    # R_a = 0.5, R_b = 0.75; N̄ = 1; e_g = (b_g - .75) - (a_g - .5) = .75, -.25, -.25, -.25
    se = math.sqrt((0.5625 + 3 * 0.0625) / (4 * 3))  # = 0.25
    assert r["delta"] == pytest.approx(2 * 0.25)
    assert (r["delta_lo"], r["delta_hi"]) == pytest.approx(
        (2 * (0.25 - m.Z95 * se), 2 * (0.25 + m.Z95 * se))
    )
    assert r["ws_a"] == pytest.approx(1.0)
    assert r["ws_b"] == pytest.approx(1.5)
    assert r["method"] == "paired"


def test_delta_paired_identical_runs_have_zero_width() -> None:
    a = pl.DataFrame(
        {"game_id": [0, 0, 1, 2], "p": ["x", "y", "x", "y"], "win": [1.0, 0.0, 0.5, 1.0]}
    ).lazy()
    df = m.delta_paired(a, a, "p", players=2)
    assert df["delta"].to_list() == pytest.approx([0.0, 0.0])
    assert df["delta_lo"].to_list() == pytest.approx([0.0, 0.0])
    assert not any(df["significant"])


def test_delta_paired_ignores_games_missing_from_one_run() -> None:
    a = pl.DataFrame({"game_id": [0, 1, 9], "p": ["x"] * 3, "win": [1.0, 0.0, 1.0]}).lazy()
    b = pl.DataFrame({"game_id": [0, 1], "p": ["x"] * 2, "win": [1.0, 0.0]}).lazy()
    r = m.delta_paired(a, b, "p", players=2).row(0, named=True)
    assert r["n_a"] == 2
    assert r["delta"] == pytest.approx(0.0)


def test_trickster_copies_by_hand() -> None:
    """Four 2-player games: the Trickster ("w") copies a (twice), b (once), and in game 3 it
    lies face down (copies nothing, not counted). Card order b, a, w: b's row comes first."""
    order = pl.Enum(["b", "a", "w"])
    games = pl.DataFrame(
        {"game_id": [0, 1, 2, 3], "trickster_as": ["a", "a", "b", None]},
        schema={"game_id": pl.Int64, "trickster_as": order},
    )
    cards = pl.DataFrame(
        [
            (0, 1, "w", True, 4),  # game 0: seat 1's Trickster as a, 4 points
            (0, 0, "a", True, 3),  # a face-up a is not the Trickster
            (1, 0, "w", True, 2),
            (2, 1, "w", True, 6),
            (3, 0, "w", False, 0),  # face down: copies nothing
        ],
        schema={"game_id": pl.Int64, "seat": pl.Int8, "card": order, "face_up": pl.Boolean,
                "points": pl.Int16},
        orient="row",
    )  # fmt: skip
    seats = seats_frame(
        [(0, 0, "g", 10, 2, 0.0), (0, 1, "g", 20, 1, 1.0),  # the Trickster's seat wins
         (1, 0, "g", 10, 2, 0.0), (1, 1, "g", 20, 1, 1.0),  # it loses
         (2, 0, "g", 15, 1, 0.5), (2, 1, "g", 15, 1, 0.5),  # a tie: half a win
         (3, 0, "g", 10, 2, 0.0), (3, 1, "g", 20, 1, 1.0)]
    )  # fmt: skip
    df = m.trickster_copies(games.lazy(), cards.lazy(), seats, 2, ["w"])
    assert df["trickster_as"].cast(pl.String).to_list() == ["b", "a"]
    assert df["n"].to_list() == [1, 2]
    assert df["share"].to_list() == pytest.approx([1 / 3, 2 / 3])
    assert df["mean_points"].to_list() == pytest.approx([6.0, 3.0])  # a: (4 + 2) / 2
    # win share = mean(win) × 2: b 0.5 × 2, a (1 + 0) / 2 × 2
    assert df["ws"].to_list() == pytest.approx([1.0, 1.0])
    for row, n in zip(df.iter_rows(named=True), (1, 2), strict=True):
        lo, hi = m.wilson(0.5, n)
        assert (row["ws_lo"], row["ws_hi"]) == pytest.approx((2 * lo, 2 * hi))


def test_card_table_rows_in_card_order() -> None:
    """An Enum card column (the dataset's, in the card data's order) keeps that order; the
    names are plain strings in the table."""
    order = pl.Enum(["zebra", "apple", "mango"])
    cards = pl.DataFrame(
        {"game_id": [0, 0, 1], "seat": [0, 1, 0], "card": ["apple", "mango", "zebra"]},
        schema={"game_id": pl.Int64, "seat": pl.Int8, "card": order},
    )
    seats = seats_frame([(0, 0, "g", 10, 1, 1.0), (0, 1, "g", 5, 2, 0.0), (1, 0, "g", 9, 1, 1.0)])
    df = m.card_table(cards.lazy(), seats.with_columns(pl.col("seat").cast(pl.Int8)), 2)
    assert df["card"].to_list() == ["zebra", "apple", "mango"]
    assert df.schema["card"] == pl.String
