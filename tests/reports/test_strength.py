"""reports.strength on hand-made tables: each verdict, a flip between two levels, an
interval straddling the band edge; ratings and their intervals; rank correlation."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from talesim.reports import strength as st

BAND = (0.9, 1.1)
LEVELS = ["greedy", "mc:rollouts=4", "mc:rollouts=32"]


def cards(rows: dict[str, list[tuple[float, float]]]) -> pl.DataFrame:
    """card -> one (ws_lo, ws_hi) per level of LEVELS."""
    out = []
    for card, intervals in rows.items():
        for level, (lo, hi) in zip(LEVELS, intervals, strict=True):
            out.append(
                {"card": card, "policy": level, "ws": (lo + hi) / 2, "ws_lo": lo, "ws_hi": hi}
            )
    return pl.DataFrame(out)


@pytest.mark.parametrize(
    ("interval", "status"),
    [
        ((1.12, 1.20), "strong"),
        ((0.70, 0.89), "weak"),
        ((0.92, 1.08), "even"),
        ((0.90, 1.10), "even"),  # touching the edges is inside
        ((1.05, 1.15), "unclear"),  # straddles the upper edge
        ((0.85, 0.95), "unclear"),  # straddles the lower edge
        ((0.85, 1.04), "unclear"),  # straddles, 0.19 wide: narrower than the band
        ((0.80, 1.20), "not checked"),  # straddles and wider than the band: cannot tell
        ((1.20, 1.80), "strong"),  # wide, but wholly above: this level can tell
        ((0.20, 0.80), "weak"),
        ((None, None), "not checked"),
    ],
)
def test_level_status(interval: tuple, status: str) -> None:
    assert st.level_status(*interval, BAND) == status


def test_a_card_taken_too_rarely_is_not_checked() -> None:
    assert st.level_status(1.2, 1.3, BAND, n=st.MIN_TAKEN - 1) == "not checked"
    assert st.level_status(1.2, 1.3, BAND, n=st.MIN_TAKEN) == "strong"


def test_each_verdict_flips_and_straddles() -> None:
    v = st.verdicts(
        cards(
            {
                "always-strong": [(1.2, 1.3), (1.15, 1.25), (1.11, 1.2)],
                "always-weak": [(0.5, 0.6), (0.6, 0.7), (0.7, 0.85)],
                "always-even": [(0.95, 1.05), (0.93, 1.0), (1.0, 1.09)],
                "flips-at-32": [(0.95, 1.05), (0.96, 1.04), (1.12, 1.2)],
                "weak-then-strong": [(0.6, 0.7), (1.0, 1.05), (1.2, 1.3)],
                "straddles": [(1.12, 1.2), (1.05, 1.15), (1.12, 1.2)],
            }
        ),
        LEVELS,
        BAND,
    )
    got = {r["card"]: (r["verdict"], r["flips"]) for r in v.iter_rows(named=True)}
    assert got["always-strong"] == ("strong", "")
    assert got["always-weak"] == ("weak", "")
    assert got["always-even"] == ("even", "")
    assert got["flips-at-32"] == ("policy-dependent", "even->strong at mc:rollouts=32")
    assert got["weak-then-strong"] == (
        "policy-dependent",
        "weak->even at mc:rollouts=4; even->strong at mc:rollouts=32",
    )
    # strong at two levels, unclear at the middle one: no level says otherwise
    assert got["straddles"] == ("unclear", "")
    statuses = v.filter(pl.col("card") == "straddles")["statuses"][0]
    assert statuses == "greedy: strong, mc:rollouts=4: unclear, mc:rollouts=32: strong"


def test_a_verdict_needs_every_level_that_checked_the_card() -> None:
    """Strong at the strongest level only is not a strong verdict; a level that cannot
    tell (no data, or an interval wider than the band) is left out and named."""
    v = st.verdicts(cards({"late": [(0.95, 1.05), (0.95, 1.05), (1.3, 1.4)]}), LEVELS, BAND)
    assert v["verdict"].to_list() == ["policy-dependent"]
    missing = cards({"late": [(1.2, 1.3), (1.2, 1.3), (1.2, 1.3)]}).filter(
        pl.col("policy") != "greedy"
    )
    got = st.verdicts(missing, LEVELS, BAND).row(0, named=True)
    assert (got["verdict"], got["not_checked"]) == ("strong", "greedy")
    # a small, expensive strongest level: its interval straddles the band and is wider
    # than it, so the card's verdict is the other levels' (not "unclear")
    small = cards({"x": [(1.12, 1.2), (1.15, 1.25), (0.95, 1.3)]})
    got = st.verdicts(small, LEVELS, BAND).row(0, named=True)
    assert (got["verdict"], got["not_checked"]) == ("strong", "mc:rollouts=32")
    assert got["statuses"].endswith("mc:rollouts=32: not checked")
    # no level checked it: unclear, every level named
    none = st.verdicts(cards({"y": [(0.5, 1.5)] * 3}), LEVELS, BAND).row(0, named=True)
    assert (none["verdict"], none["not_checked"]) == ("unclear", ", ".join(LEVELS))


def test_ratings_order_and_intervals() -> None:
    """Three policies, 400 four-seat games: 'a' first and 'b' second, except one game in ten
    where 'b' is first and 'a' second; the two 'c' seats last."""
    rows = []
    for g in range(400):
        upset = g % 10 == 0
        ranks = {"a": 2 if upset else 1, "b": 1 if upset else 2}
        for seat, (policy, rank) in enumerate([("a", 0), ("b", 0), ("c", 3), ("c", 4)]):
            rank = ranks.get(policy, rank)
            rows.append({"unit": g, "play": g, "seat": seat, "policy": policy, "rank": rank})
    r = st.ratings(pl.DataFrame(rows), ["a", "b", "c"], seed=1)
    assert r["policy"].to_list() == ["a", "b", "c"]
    for row in r.iter_rows(named=True):
        assert row["rating_lo"] <= row["rating"] <= row["rating_hi"]
    a, b, c = r["rating"].to_list()
    assert a - b > 200  # a ahead of b 9 times in 10
    assert b - c > 200
    assert r["rating_hi"][1] < r["rating_lo"][0]  # 400 games tell a from b


def test_a_runs_ratings_resample_blocks_of_games() -> None:
    """A run's seats (game_id, no units): the same point ratings as one unit per game,
    intervals from blocks of games, and blocks never more than games."""
    rows = []
    for g in range(400):
        first, second = ("b", "a") if g % 10 == 0 else ("a", "b")
        for seat, (policy, rank) in enumerate([(first, 1), (second, 2), ("c", 3), ("c", 4)]):
            rows.append({"game_id": g, "seat": seat, "policy": policy, "rank": rank})
    seats = pl.DataFrame(rows)
    per_game = st.ratings(seats.with_columns(play="game_id", unit="game_id"), ["a", "b", "c"])
    for blocks in (50, 1000):
        r = st.run_ratings(seats.lazy(), blocks=blocks)
        assert r["policy"].to_list() == ["a", "b", "c"]
        assert r["rating"].to_list() == pytest.approx(per_game["rating"].to_list())
        assert r["rating_hi"][1] < r["rating_lo"][0]


def test_rank_correlation_of_adjacent_levels() -> None:
    df = pl.DataFrame(
        {
            "card": ["x", "y", "z", "w"] * 2,
            "policy": ["p"] * 4 + ["q"] * 4,
            "ws": [1.0, 1.1, 0.9, 1.3, 2.0, 2.1, 1.5, 2.5],
        }
    )
    rc = st.rank_correlations(df, ["p", "q"])
    assert rc.row(0, named=True) == {
        "from": "p",
        "to": "q",
        "cards": 4,
        "spearman": pytest.approx(1.0),
    }
    flipped = df.with_columns(pl.when(pl.col("policy") == "q").then(-pl.col("ws")).otherwise("ws"))
    assert st.rank_correlations(flipped, ["p", "q"])["spearman"][0] == pytest.approx(-1.0)


def test_a_relative_share_counts_both_errors() -> None:
    """``relative_share``: the log half-widths add in quadrature (0.3 and 0.4 make 0.5); an
    exact policy share only scales the card's interval; a card that never won has a low end
    of 0, and a policy share whose interval reaches 0 leaves the high end unbounded."""
    e = math.exp
    ws, lo, hi = st.relative_share(
        np.array([1.0]), np.array([e(-0.3)]), np.array([e(0.3)]), 1.0, e(-0.4), e(0.4)
    )
    assert (ws[0], lo[0], hi[0]) == pytest.approx((1.0, e(-0.5), e(0.5)))
    ws, lo, hi = st.relative_share(
        np.array([1.2, 0.0]), np.array([1.0, 0.0]), np.array([1.5, 0.2]), 2.0, 2.0, 2.0
    )
    assert list(ws) == pytest.approx([0.6, 0.0])
    assert list(lo) == pytest.approx([0.5, 0.0])
    assert list(hi) == pytest.approx([0.75, 0.1])
    ws, lo, hi = st.relative_share(
        np.array([2.0]), np.array([1.5]), np.array([2.5]), 0.01, 0.0, 0.05
    )
    assert ws[0] == pytest.approx(200.0)
    assert lo[0] == pytest.approx(200.0 * math.exp(-math.hypot(math.log(2 / 1.5), math.log(5))))
    assert math.isnan(hi[0])
    assert all(math.isnan(a[0]) for a in st.relative_share(*([np.array([1.0])] * 3), 0, 0, 0.1))
