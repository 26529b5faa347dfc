"""The DRAKO kernel as the runner and the CLI use it: the same arrays run after run, the
four dataset tables and their invariants, the checking mode, and a ``talesim simulate
drako`` run through Typer's CliRunner (then ``talesim report``). Chunk and thread
determinism: ``tests/test_engine_conformance.py``."""

from __future__ import annotations

import functools
import mmap
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from kit import ok

from talesim.simcore import engine_kit
from talesim.simcore.games.drako import engine
from talesim.simcore.games.drako.engine import prepare, result_buffers, simulate_arrays
from talesim.simcore.games.drako.kernel import new_chunk_out
from talesim.simcore.games.drako.tables import BREAKDOWN, CELLS, KINDS, CardSet
from talesim.simcore.registry import GameError

run_chunk = functools.partial(engine_kit.run_chunk, engine)

MIXED = ["greedy", "random", "legend-hunter", "random"]
TABLES = ("games", "seats", "cards", "legends", "draws")


def test_arrays_are_deterministic(data: CardSet) -> None:
    prep = prepare(data, "published", 3, ["legend-hunter"] * 3, False)
    a = simulate_arrays(prep, 5, 0, 30)
    b = simulate_arrays(prep, 5, 0, 30)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def test_large_chunks_use_populated_buffers_and_play_the_same_games(data: CardSet) -> None:
    """A chunk of more than ``POPULATE_FROM_BYTES`` of results gets ``new_chunk_out``'s
    buffers (fields, shapes, dtypes, zeros and -1 padding, writable and contiguous) in one
    populated mapping, but the draw log, whose pages are mapped when written (the rows past
    the longest game never are); its games are those of a small chunk."""
    n = 2_400  # ~1.3 MB of four-player results, and 3.8 MB of draw log
    big = result_buffers(n, 4)
    for name, a, b in zip(big._fields, big, new_chunk_out(n, 4, 800), strict=True):
        owner = a
        while isinstance(owner, np.ndarray):
            owner = owner.base
        if name == "draws":
            assert owner is None  # its own np.zeros
        else:
            assert isinstance(owner, memoryview), name  # the mapping, not np.zeros
            assert isinstance(owner.obj, mmap.mmap), name
        assert a.shape == b.shape, name
        assert a.dtype == b.dtype, name
        assert a.flags.c_contiguous, name
        assert a.flags.writeable, name
        np.testing.assert_array_equal(a, b, err_msg=name)
    prep = prepare(data, "brief", 4, ["random"] * 4, True)
    whole = simulate_arrays(prep, 3, 0, n)
    first = simulate_arrays(prep, 3, 0, 40)
    for key in first:
        np.testing.assert_array_equal(whole[key][:40], first[key], err_msg=key)


@pytest.mark.parametrize("preset", ["brief", "published"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_tables_and_invariants(data: CardSet, preset: str, players: int) -> None:
    """Column names and types the reports read; 16 cards per kingdom and the box's copies;
    score = its breakdown; one winner share per game; Legends claimed once; the ender's
    kingdom is the one whose last face-down card was revealed (so the game is not capped)."""
    prep = prepare(data, preset, players, MIXED[:players], False)
    n = 120
    f = run_chunk(prep, 3, 1000, n, check=True)
    games, seats, cards, legends, draws = (f[t] for t in TABLES)
    assert games.columns == ["game_id", "turns", "cap_hit", "n_winners", "top_score"]
    assert seats.columns == [
        "game_id", "seat", "policy", "score", "rank", "win", *BREAKDOWN, "turns", "ended_game"
    ]  # fmt: skip
    assert cards.columns == ["game_id", "seat", "cell", "card", "replaced", "turn_placed"]
    assert legends.columns == ["game_id", "seat", "legend", "turn"]
    assert draws.columns == [
        "game_id", "seat", "turn", "source", "card", "placed", "cell", "covered", "face_down"
    ]  # fmt: skip
    assert draws.schema["source"] == pl.Enum(["discard", "deck"])
    assert draws.schema["covered"] == pl.Enum(list(KINDS))
    assert draws.height == games["turns"].cast(pl.Int64).sum()
    assert cards.schema["card"] == pl.Enum(list(KINDS))
    assert legends.schema["legend"] == pl.Enum([lg.id for lg in data.legends])
    assert games["game_id"].to_list() == list(range(1000, 1000 + n))
    assert seats.height == n * players
    assert cards.height == n * players * CELLS
    # 16 cards per kingdom; no more of a kind than the box holds
    per_kingdom = cards.group_by("game_id", "seat").len()
    assert (per_kingdom["len"] == CELLS).all()
    copies = {k.id: k.copies(players) for k in data.kinds}
    most = cards.group_by("game_id", "card").len()
    assert all(r["len"] <= copies[r["card"]] for r in most.iter_rows(named=True))
    # score = breakdown; legends column = claimed points
    assert (seats["score"] == seats.select(pl.sum_horizontal(BREAKDOWN)).to_series()).all()
    points = {lg.id: lg.points for lg in data.legends}
    held = legends.group_by("game_id", "seat").agg(
        pl.col("legend").cast(pl.String).replace_strict(points, return_dtype=pl.Int64).sum()
    )
    joined = seats.join(held, on=["game_id", "seat"], how="left").fill_null(0)
    assert (joined["legends"] == joined["legend"]).all()
    # winners: shares sum to 1 per game; rank 1 = win > 0
    per_game = seats.group_by("game_id").agg(pl.col("win").sum(), (pl.col("rank") == 1).sum())
    assert np.allclose(per_game["win"].to_numpy(), 1.0)
    assert ((seats["rank"] == 1) == (seats["win"] > 0)).all()
    # each Legend claimed at most once per game, on a turn that was played
    assert legends.group_by("game_id", "legend").len()["len"].max() in (None, 1)
    tj = legends.join(games, on="game_id")
    assert (tj["turn"] >= 1).all()
    assert (tj["turn"] <= tj["turns"]).all()
    # one ender per uncapped game; seat turns add up to the game's turns
    assert not games["cap_hit"].any()
    enders = seats.group_by("game_id").agg(pl.col("ended_game").sum())
    assert (enders["ended_game"] == 1).all()
    total = seats.group_by("game_id").agg(pl.col("turns").sum()).sort("game_id")
    assert (total["turns"] == games["turns"]).all()
    assert (games["turns"] >= 12).all()
    # a card placed during play was placed on a played turn and replaced a card
    placed = cards.join(games.select("game_id", pl.col("turns").alias("gt")), on="game_id")
    assert ((placed["turn_placed"] > 0) == placed["replaced"]).all()
    assert (placed["turn_placed"] <= placed["gt"]).all()


def test_prepare_rejects_bad_requests(data: CardSet) -> None:
    with pytest.raises(GameError, match="played by 2-4 players, not 5"):
        prepare(data, "brief", 5, ["random"] * 5, False)
    with pytest.raises(GameError, match="unknown policy 'collector'"):
        prepare(data, "brief", 2, ["collector", "random"], False)
    with pytest.raises(GameError, match="1 policies given for 2 players"):
        prepare(data, "brief", 2, ["random"], False)
    with pytest.raises(GameError, match="no variant 'expert'"):
        prepare(data, "expert", 2, ["random"] * 2, False)


def test_simulate_cli_writes_the_tables_and_a_report(finished_run, tmp_path: Path) -> None:
    out = finished_run("drako", "published")
    for t in TABLES:
        frame = pl.read_parquet(out / t / "*.parquet")
        assert frame.height > 0, t
    seats = pl.read_parquet(out / "seats" / "*.parquet")
    assert seats.height == 40 * 3
    assert set(seats["policy"].cast(pl.String)) == {"greedy", "random", "legend-hunter"}
    ok("report", out, "--out", tmp_path / "rep")
    assert (tmp_path / "rep" / "index.html").exists()
