"""``simcore.until_ci``: the criterion of ``simulate --until-ci H``, on hand-made frames
against hand-computed Wilson half-widths.
"""

from __future__ import annotations

import math

import polars as pl
import pytest

from reports.strength import MIN_TAKEN
from simcore import runner
from simcore import until_ci as ci
from simcore.batch import encode_part

# --- the criterion ---------------------------------------------------------------------------


def test_chunk_stats_sum_copies_and_their_seats_wins() -> None:
    """Three two-player games (a win, a tie, a win): copies count with their seat's win."""
    seats = pl.DataFrame(
        {"game_id": [0, 0, 1, 1, 2, 2], "seat": [0, 1] * 3, "win": [1, 0, 0.5, 0.5, 0, 1]},
        schema={"game_id": pl.Int64, "seat": pl.Int8, "win": pl.Float64},
    )
    cards = pl.DataFrame(
        {"game_id": [0, 0, 0, 1, 1, 2], "seat": [0, 0, 1, 0, 1, 1], "card": list("aababa")},
        schema={"game_id": pl.Int64, "seat": pl.Int8, "card": pl.Enum(["a", "b"])},
    )
    legends = pl.DataFrame({"game_id": [2], "seat": [1], "legend": ["x"]})
    want = pl.DataFrame(
        {"kind": ["card", "card", "legend"], "entity": ["a", "b", "x"], "n": [4, 2, 1]}
        | {"wins": [3.5, 0.5, 1.0]}
    )
    frames = {"seats": seats, "cards": cards, "legends": legends}
    for parts in (
        frames,
        {t: encode_part(f) for t, f in frames.items()},  # from a Dask worker
        frames | {"seats": seats.reverse()},  # another row order: joined, not gathered
    ):
        got = ci.chunk_stats(parts, 2).sort("kind", "entity")
        assert got.equals(want), got


def test_verdict_on_hand_computed_wilson_half_widths() -> None:
    """Four players; p and n give these 95% Wilson half-widths of the win rate (z = 1.96...),
    times 4: p 0.25 on 100 -> 0.3351850437, 0.3 on 400 -> 0.1789391476, 0.5 on 120 ->
    0.3522451784; a card taken 99 times is not judged."""
    stats = pl.DataFrame(
        {
            "kind": ["card", "card", "card", "legend"],
            "entity": ["a", "b", "rare", "x"],
            "n": [100, 400, MIN_TAKEN - 1, 120],
            "wins": [25.0, 120.0, 99.0, 60.0],
        }
    )
    widths = ci.half_widths(stats, 4)
    assert widths["entity"].to_list() == ["x", "a", "b"]
    assert widths["half_width"].to_list() == pytest.approx(
        [0.35224517835566455, 0.3351850437154786, 0.17893914764264898], abs=1e-12
    )
    assert ci.verdict(stats, 4, 0.36) == ci.Verdict(True, 3, widths["half_width"][0], "x")
    assert ci.verdict(stats, 4, 0.35).met is False
    assert ci.verdict(stats.filter(pl.col("entity") == "rare"), 4, 1.0) == ci.Verdict(
        False, 0, None, None
    )


def test_tracker_judges_each_prefix_in_order_whatever_the_arrival_order() -> None:
    def chunk(n: int, wins: float) -> pl.DataFrame:
        return pl.DataFrame({"kind": ["card"], "entity": ["a"], "n": [n], "wins": [wins]})

    # p 0.25, 2 players: half-width 0.0846 on 400 copies, 0.0599155 on 800
    tracker = ci.Tracker(0.07, 2)
    tracker.add(2, chunk(400, 100.0))
    tracker.add(1, chunk(400, 100.0))
    assert (tracker.prefix, tracker.stop_at, tracker.verdict) == (0, None, None)
    tracker.add(0, chunk(400, 100.0))  # prefix 1 does not meet it, prefix 2 does
    assert (tracker.prefix, tracker.stop_at) == (2, 2)
    assert tracker.verdict is not None
    assert tracker.verdict.largest == pytest.approx(0.0599155, abs=1e-7)
    assert ci.Tracker(0.07, 2, min_chunks=3).min_chunks == 3
    late = ci.Tracker(0.07, 2, min_chunks=3)
    for i in range(3):
        late.add(i, chunk(400, 100.0))
    assert late.stop_at == 3  # never before min_chunks


def test_check_half_width() -> None:
    assert ci.check_half_width(0.02) == 0.02
    for bad in (0, -0.1, math.nan, math.inf, True, "0.1"):
        with pytest.raises(runner.RunError, match="--until-ci must be a number above 0"):
            ci.check_half_width(bad)
