"""reports.luck on synthetic balanced tournaments: an ANOVA computed by hand, a game decided
by the deal alone, one decided by skill alone, mixtures whose shares have a closed form,
degenerate inputs (nulls, never a warning) and the bootstrap's reproducibility."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np
import polars as pl
import pytest

from talesim.reports import luck

pytestmark = pytest.mark.filterwarnings("error")

FOUR = ("a", "b", "c", "d")  # "a" is the strongest where skill counts

#: (unit, seating) -> each seat's win
Winner = Callable[[int, tuple[str, ...]], Sequence[float]]


def tournament(deals: int, compositions: Sequence[tuple[str, ...]], winner: Winner) -> pl.DataFrame:
    """The ``seats`` of a balanced tournament: each composition's ``deals`` (one unit each)
    played in every distinct seating of the composition, ``winner`` deciding each game."""
    rows = []
    unit = play = 0
    for composition in compositions:
        seatings = sorted(set(itertools.permutations(composition)))
        for _ in range(deals):
            for seating in seatings:
                wins = winner(unit, seating)
                for seat, policy in enumerate(seating):
                    rows.append((unit, play, seat, policy, float(wins[seat])))
                play += 1
            unit += 1
    schema = {"unit": pl.Int64, "play": pl.Int64, "seat": pl.Int64, "policy": pl.String,
              "win": pl.Float64}  # fmt: skip
    return pl.DataFrame(rows, schema=schema, orient="row")


def one_hot(seat: int, players: int) -> list[float]:
    return [1.0 if s == seat else 0.0 for s in range(players)]


def mixture(q: float, r: float, players: int, seed: int) -> Winner:
    """Each game: with probability q the deal decides (the unit's favoured seat wins, one
    seat drawn per unit), with probability r skill does ("a" wins), else a fair coin.

    Closed form, with p = a seat's chance to win given its deal and policy and
    y = players × win: the favoured seat adds players·q·([favoured] − 1/players) to E[y],
    "a" adds players·r·([a] − 1/players), and Var(y) = players − 1 in all, so the
    decomposition is deal q², skill r², rest 1 − q² − r². A policy with mean chance m has
    Var(E[y | deal]) = q²(players − 1) and Var(y) = players² m (1 − m): deal share
    q²(players − 1) / (players² m (1 − m)), which is q² when r = 0."""
    rng = np.random.default_rng(seed)
    favoured: dict[int, int] = {}

    def winner(unit: int, seating: tuple[str, ...]) -> list[float]:
        best = favoured.setdefault(unit, int(rng.integers(players)))
        draw = rng.random()
        if draw < q:
            seat = best
        elif draw < q + r:
            seat = seating.index("a")
        else:
            seat = int(rng.integers(players))
        return one_hot(seat, players)

    return winner


def by_policy(frame: pl.DataFrame) -> dict[str, dict]:
    return {row["policy"]: row for row in frame.iter_rows(named=True)}


def by_part(frame: pl.DataFrame) -> dict[str, dict]:
    return {row["part"]: row for row in frame.iter_rows(named=True)}


def inside(row: dict, value: float, column: str) -> bool:
    return row[f"{column}_lo"] <= value <= row[f"{column}_hi"]


def near(row: dict, value: float, column: str) -> bool:
    """``value`` is within twice the interval's half-width (about four standard errors) of
    the estimate: a check that one tournament passes whatever its seed."""
    return abs(row[column] - value) <= row[f"{column}_hi"] - row[f"{column}_lo"]


# --- by hand ---------------------------------------------------------------------------------


def test_anova_by_hand() -> None:
    """Three seats, composition (a, a, b): seatings aab, aba, baa; two deals.

    y = 3 × win. a's rows by group (unit, seat), two each (a sits at a seat in two of the
    three seatings): (0,0) [3, 3], (0,1) [0, 3], (0,2) [0, 0], (1,0) [1.5, 0], (1,1) [0, 0],
    (1,2) [3, 3]. N = 12, G = 6, n0 = 2, ȳ = 16.5 / 12 = 1.375; group means 3, 1.5, 0,
    0.75, 0, 3.
    MSB = 2 (1.625² + 0.125² + 1.375² + 0.625² + 1.375² + 1.625²) / 5 = 18.9375 / 5 = 3.7875
    MSW = (4.5 + 1.125) / 6 = 0.9375;  σ²_deal = (3.7875 − 0.9375) / 2 = 1.425
    share = 1.425 / (1.425 + 0.9375) = 38/63.
    b sits once per seating: groups of one row, no within-group variance: null.

    Decomposition over all 18 rows (ȳ = 1), six groups of three (every seat: a, a, b):
    group means 2, 1, 0, 0.5, 0, 2.5; SS_total = 27 + 22.5 − 18 = 31.5;
    SS_deal = 3 (1 + 0 + 1 + 0.25 + 1 + 2.25) = 16.5; a's mean 1.375 (12 rows), b's 0.25
    (6 rows): SS_skill = 12 · 0.375² + 6 · 0.75² = 5.0625; SS_rest = 9.9375 on
    18 − 6 − 2 + 1 = 11 degrees of freedom: MS_rest = 159/176.
    σ²_deal = (16.5 / 5 − 159/176) / 3 = 703/880; σ²_skill = (5.0625 − 159/176) / 18
    = 61/264; in 2640ths: 2109, 610, 2385 of 5104."""
    games = {0: [[1, 0, 0], [1, 0, 0], [0, 1, 0]], 1: [[0.5, 0, 0.5], [0, 0, 1], [0, 0, 1]]}
    seats = tournament(
        2, [("a", "a", "b")], lambda u, s: games[u][["aab", "aba", "baa"].index("".join(s))]
    )
    shares = luck.deal_shares(seats, ["a", "b", "c"], players=3)
    assert shares.columns == ["policy", "rows", "deal_share", "deal_share_lo", "deal_share_hi"]
    got = by_policy(shares)
    assert got["a"]["rows"] == 12
    assert got["a"]["deal_share"] == pytest.approx(38 / 63, abs=1e-12)
    assert got["b"]["rows"] == 6
    assert got["b"]["deal_share"] is None
    assert got["c"] == {"policy": "c", "rows": 0, "deal_share": None, "deal_share_lo": None,
                        "deal_share_hi": None}  # fmt: skip

    parts = luck.decomposition(seats, players=3)
    assert parts["part"].to_list() == ["deal", "skill", "rest"]
    assert parts["share"].to_list() == pytest.approx(
        [2109 / 5104, 610 / 5104, 2385 / 5104], abs=1e-12
    )
    for row in parts.iter_rows(named=True):
        assert inside(row, row["share"], "share")


# --- the extremes ----------------------------------------------------------------------------


def test_the_deal_decides_everything() -> None:
    """Whoever sits at the unit's favoured seat wins: five policies at four-seat tables
    (five compositions), 20 deals each."""
    seats = tournament(
        20, list(itertools.combinations((*FOUR, "e"), 4)), lambda u, s: one_hot(u * 7 % 4, 4)
    )
    shares = luck.deal_shares(seats, [*FOUR, "e"], players=4)
    assert shares["deal_share"].to_list() == pytest.approx([1.0] * 5)
    assert shares["deal_share_lo"].to_list() == pytest.approx([1.0] * 5)
    parts = by_part(luck.decomposition(seats, players=4))
    assert parts["deal"]["share"] == pytest.approx(1.0)
    assert parts["skill"]["share"] == pytest.approx(0.0, abs=1e-12)
    assert parts["rest"]["share"] == pytest.approx(0.0, abs=1e-12)


def test_skill_decides_everything() -> None:
    """ "a" always wins, whatever the deal: skill is everything. A policy whose outcome
    never varies (always or never the winner) has no deal share to give."""
    seats = tournament(30, [FOUR], lambda u, s: one_hot(s.index("a"), 4))
    parts = by_part(luck.decomposition(seats, players=4))
    assert parts["deal"]["share"] == pytest.approx(0.0, abs=1e-12)
    assert parts["skill"]["share"] == pytest.approx(1.0)
    assert parts["rest"]["share"] == pytest.approx(0.0, abs=1e-12)
    assert luck.deal_shares(seats, FOUR, players=4)["deal_share"].to_list() == [None] * 4


def test_skill_and_a_coin() -> None:
    """ "a" wins nine games in ten, a coin decides the tenth; the deal plays no part: deal
    shares near 0 (their intervals reach 0), skill 0.9² = 0.81."""
    seats = tournament(300, [FOUR], mixture(0.0, 0.9, 4, seed=3))
    for row in luck.deal_shares(seats, FOUR, players=4).iter_rows(named=True):
        assert row["deal_share"] < 0.02
        assert row["deal_share_lo"] == 0.0
    parts = by_part(luck.decomposition(seats, players=4))
    assert parts["deal"]["share"] < 0.01
    assert near(parts["skill"], 0.81, "share")


# --- mixtures with a closed form -------------------------------------------------------------


def test_deal_or_coin_gives_q_squared() -> None:
    """The deal decides with probability q = 0.5, a coin otherwise: every deal share and the
    decomposition's deal part are q² = 0.25, skill 0. Over 30 tournaments of 60 deals the
    estimates average the truth and the 95% intervals hold it about 95% of the time."""
    estimates, held, parts_held = [], 0, 0
    for rep in range(30):
        seats = tournament(60, [FOUR], mixture(0.5, 0.0, 4, seed=100 + rep))
        shares = luck.deal_shares(seats, FOUR, players=4, seed=rep)
        estimates += shares["deal_share"].to_list()
        held += sum(inside(row, 0.25, "deal_share") for row in shares.iter_rows(named=True))
        parts = by_part(luck.decomposition(seats, players=4, seed=rep))
        parts_held += inside(parts["deal"], 0.25, "share")
        assert parts["skill"]["share"] < 0.01
    assert np.mean(estimates) == pytest.approx(0.25, abs=0.01)
    assert held >= 0.85 * 120
    assert parts_held >= 0.8 * 30


def test_intervals_narrow_with_more_units() -> None:
    """Four times the deals, about half the width (1/√units)."""
    widths = []
    for deals in (100, 400):
        seats = tournament(deals, [FOUR], mixture(0.5, 0.0, 4, seed=deals))
        shares = luck.deal_shares(seats, FOUR, players=4)
        widths.append((shares["deal_share_hi"] - shares["deal_share_lo"]).mean())
    assert 0.35 * widths[0] < widths[1] < 0.7 * widths[0]


def test_deal_skill_and_coin() -> None:
    """Deal q = 0.5, skill r = 0.3, else a coin, four seats (mixture's closed form):
    decomposition 0.25 / 0.09 / 0.66; deal share of "a" (m = 0.3 + 0.7/4 = 0.475)
    0.046875 / 0.249375 = 0.188, of the others (m = 0.7/4 = 0.175) 0.046875 / 0.144375
    = 0.325: the stronger policy depends less on its deal."""
    seats = tournament(400, [FOUR], mixture(0.5, 0.3, 4, seed=7))
    parts = by_part(luck.decomposition(seats, players=4))
    for part, truth in {"deal": 0.25, "skill": 0.09, "rest": 0.66}.items():
        assert near(parts[part], truth, "share")
    shares = by_policy(luck.deal_shares(seats, FOUR, players=4))
    for policy, m in {"a": 0.475, "b": 0.175, "c": 0.175, "d": 0.175}.items():
        assert near(shares[policy], 0.25 * 3 / 16 / (m * (1 - m)), "deal_share")
    assert shares["a"]["deal_share_hi"] < shares["b"]["deal_share_lo"]


# --- degenerate inputs -----------------------------------------------------------------------


def test_degenerate_inputs_give_nulls() -> None:
    # one unit where "a" only ever sits at seat 0: one group
    one_group = pl.DataFrame(
        {"unit": [0, 0, 0, 0], "play": [0, 0, 1, 1], "seat": [0, 1, 0, 1],
         "policy": ["a", "b", "a", "c"], "win": [1.0, 0.0, 0.0, 1.0]}
    )  # fmt: skip
    got = by_policy(luck.deal_shares(one_group, ["a", "z"], players=2))
    assert got["a"]["rows"] == 2
    assert got["a"]["deal_share"] is None
    assert got["a"]["deal_share_lo"] is None
    assert got["z"]["rows"] == 0  # never plays
    assert got["z"]["deal_share"] is None

    no_wins = tournament(5, [FOUR], lambda u, s: [0.0] * 4)
    assert luck.deal_shares(no_wins, FOUR, players=4)["deal_share"].null_count() == 4
    assert luck.decomposition(no_wins, players=4)["share"].null_count() == 3

    # "d" always loses, the others always tie: 4/3 each, whose rounding is no variance
    ties = tournament(5, [FOUR], lambda u, s: [0.0 if p == "d" else 1 / 3 for p in s])
    assert luck.deal_shares(ties, FOUR, players=4)["deal_share"].null_count() == 4
    assert luck.decomposition(ties, players=4)["share"].to_list() == pytest.approx([0, 1, 0])

    # two-seat tables: a policy sits once per seating, groups of one row
    pairs = tournament(50, [("a", "b"), ("a", "c")], mixture(0.5, 0.0, 2, seed=0))
    assert luck.deal_shares(pairs, ["a", "b"], players=2)["deal_share"].null_count() == 2

    empty = no_wins.clear()
    assert luck.deal_shares(empty, FOUR, players=4)["rows"].to_list() == [0] * 4
    parts = luck.decomposition(empty, players=4)
    assert parts["part"].to_list() == ["deal", "skill", "rest"]
    assert parts.null_count().row(0) == (0, 3, 3, 3)


# --- the bootstrap ---------------------------------------------------------------------------


def test_bootstrap_is_reproducible() -> None:
    seats = tournament(60, [FOUR], mixture(0.4, 0.2, 4, seed=5))
    first = luck.deal_shares(seats, FOUR, players=4, seed=11)
    assert first.equals(luck.deal_shares(seats, FOUR, players=4, seed=11))
    assert not first.equals(luck.deal_shares(seats, FOUR, players=4, seed=12))
    # unit labels only name the units: any labels in the same order draw the same resamples
    relabelled = seats.with_columns(pl.col("unit") * 7 + 100).sample(
        fraction=1.0, shuffle=True, seed=0
    )
    assert first.equals(luck.deal_shares(relabelled, FOUR, players=4, seed=11))
    parts = luck.decomposition(seats, players=4, seed=11)
    assert parts.equals(luck.decomposition(seats, players=4, seed=11))
    assert parts.equals(luck.decomposition(relabelled, players=4, seed=11))
