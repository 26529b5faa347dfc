"""The ``draws`` table: one row per turn, the card the seat took (§4.1: the top discard, or
the top of the draw pile) and what it did with it (placed, or discarded to reveal a cell).

* per rule, in the kernel, on hand-chosen decisions (an ``mc`` seat answered by the test):
  taking the discard places it (§4.1 A); a drawn card is placed on a face-up card, or
  discarded and a face-down cell revealed (§4.1 B, §4.2);
* properties over many games of every policy: one row per turn, seat by turn order; the
  cards table's ``turn_placed``, ``replaced`` and final kinds are what the placed rows
  say; a discard taken is always placed; a reveal is of a face-down cell;
* the log's width is the run's turn cap x players, and a capped game fills it.

(The kernel and ``reference/`` record the same draws game for game:
``test_reference_vs_kernel.py``.) §N: a section of ``docs/rules/drako.md``.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import polars as pl
import pytest
from kit import SMALL_MC, prepared, seat_policies, with_turn_cap

from talesim.simcore import engine_kit
from talesim.simcore.games.drako import engine, kernel
from talesim.simcore.games.drako.engine import decode_draws, prepare, simulate_arrays
from talesim.simcore.games.drako.layout import (
    M_DECK_N,
    M_DISC_N,
    M_HAND,
    M_STEP,
    SRC_DECK,
    SRC_DISCARD,
    STEP_ACTION,
    STEP_SOURCE,
)
from talesim.simcore.games.drako.tables import CELLS, CENTRE, Kind

run_chunk = functools.partial(engine_kit.run_chunk, engine)
SEED = np.uint64(21)


def stopped(prep: Any, g: int) -> kernel.GameState:
    """Game ``g`` stopped at seat 0's (the mc seat's) first decision, its source."""
    s = kernel.new_state(prep.players, len(prep.tables.deck))
    table, seat_slot = prep.slot_table()
    for p in range(prep.players):
        s.slot[p] = seat_slot[p]
        s.policy[p] = table[seat_slot[p], 0]
        s.mc_par[p] = table[seat_slot[p], 1:4]
    kernel.new_game(prep.tables, s, prep.players, SEED, g)
    assert kernel.play_on(prep.tables, prep.weights, s, prep.players)
    assert s.meta[M_STEP] == STEP_SOURCE
    return s


def placements(prep: Any, s: kernel.GameState, card: int) -> list[int]:
    """The cells seat 0 may place ``card`` on (§4.3), in enumeration order."""
    locked = prep.tables.kind_locked
    return [
        c
        for c in range(CELLS)
        if not s.up[0, c] or (not locked[s.grid[0, c]] and s.grid[0, c] != card)
    ]


def answered(prep: Any, s: kernel.GameState, i: int) -> dict[str, Any]:
    """Answer seat 0's decision with option ``i``, play on to its next decision (or the
    end); turn 1's draw record, decoded."""
    kernel.answer(s, prep.players, i)
    kernel.play_on(prep.tables, prep.weights, s, prep.players)
    return {k: v[0].item() for k, v in decode_draws(s.draws[:1]).items()}


@pytest.fixture(scope="module")
def prep() -> Any:
    return prepared("drako", "brief", [SMALL_MC, "greedy", "greedy", "greedy"])


def test_taking_the_discard_places_it(prep) -> None:
    """§4.1 A: seat 0 takes the top discard onto cell 0 (face down): a placed discard
    row, the face-down card it covered recorded."""
    s = stopped(prep, 3)
    top, under = int(s.discard[s.meta[M_DISC_N] - 1]), int(s.grid[0, 0])
    assert placements(prep, s, top)[0] == 0
    row = answered(prep, s, 0)
    assert row == {"source": SRC_DISCARD, "placed": True, "card": top, "cell": 0,
                   "covered": under, "face_down": True}  # fmt: skip
    assert s.grid[0, 0] == top
    assert s.placed[0, 0] == 1


def test_drawing_and_revealing_discards_the_card(prep) -> None:
    """§4.1 B, §4.2: seat 0 draws (the last source option) and discards the card to reveal
    cell 15: a not-placed deck row naming the revealed card."""
    s = stopped(prep, 3)
    drawn, hidden = int(s.deck[s.meta[M_DECK_N] - 1]), int(s.grid[0, 15])
    n_source = len(placements(prep, s, int(s.discard[s.meta[M_DISC_N] - 1]))) + 1
    kernel.answer(s, prep.players, n_source - 1)
    assert kernel.play_on(prep.tables, prep.weights, s, prep.players)
    assert s.meta[M_STEP] == STEP_ACTION
    assert s.meta[M_HAND] == drawn
    cells = placements(prep, s, drawn)
    face_down = [c for c in range(CELLS) if not s.up[0, c]]
    row = answered(prep, s, len(cells) + face_down.index(15))
    assert row == {"source": SRC_DECK, "placed": False, "card": drawn, "cell": 15,
                   "covered": hidden, "face_down": True}  # fmt: skip
    assert s.grid[0, 15] == hidden
    assert s.up[0, 15] == 1
    assert s.placed[0, 15] == 0


def test_a_drawn_dragon_placed_on_a_face_up_card(prep) -> None:
    """§4.1 B, §4.3: a dragon on top of the draw pile (a game whose draw pile holds one,
    moved to the top: the same cards) placed on face-up centre cell 5: a placed deck row
    of a dragon that covered the face-up centre card."""

    def draw_pile(g: int) -> np.ndarray:
        s = stopped(prep, g)
        return s.deck[: s.meta[M_DECK_N]]

    s = stopped(prep, next(g for g in range(50) if (draw_pile(g) == Kind.DRAGON).any()))
    n = s.meta[M_DECK_N]
    i = int(np.flatnonzero(s.deck[:n] == Kind.DRAGON)[0])
    s.deck[i], s.deck[n - 1] = s.deck[n - 1], s.deck[i]
    centre = int(s.grid[0, CENTRE[0]])
    n_source = len(placements(prep, s, int(s.discard[s.meta[M_DISC_N] - 1]))) + 1
    kernel.answer(s, prep.players, n_source - 1)
    assert kernel.play_on(prep.tables, prep.weights, s, prep.players)
    assert s.meta[M_HAND] == Kind.DRAGON
    row = answered(prep, s, placements(prep, s, int(Kind.DRAGON)).index(CENTRE[0]))
    assert row == {"source": SRC_DECK, "placed": True, "card": int(Kind.DRAGON),
                   "cell": CENTRE[0], "covered": centre, "face_down": False}  # fmt: skip


CASES = [("brief", "random", 4), ("published", "mixed", 3), ("brief", "greedy", 2)]


@pytest.mark.parametrize(("preset", "spec", "players"), CASES)
def test_draws_agree_with_the_other_tables(data, preset, spec, players) -> None:
    """Over many games: a row a turn (seat = (turn - 1) % players, the seats' turn
    counts); a discard taken is always placed, a reveal is of a face-down cell; each
    cell's final card, ``turn_placed`` and ``replaced`` are its last placed row's (none:
    dealt, turn 0)."""
    policies = seat_policies(spec, players, ("legend-hunter", "random", "greedy", "random"))
    t = run_chunk(prepare(data, preset, players, policies, False), 17, 0, 150)
    draws, games, seats, cards = t["draws"], t["games"], t["seats"], t["cards"]
    per_game = draws.group_by("game_id").agg(n=pl.len(), last=pl.col("turn").max())
    joined = games.join(per_game, on="game_id")
    assert joined.height == 150
    assert (joined["n"] == joined["turns"].cast(pl.UInt32)).all()
    assert (joined["last"] == joined["turns"]).all()
    assert (draws["seat"].cast(pl.Int64) == (draws["turn"].cast(pl.Int64) - 1) % players).all()
    per_seat = draws.group_by("game_id", "seat").agg(n=pl.len()).join(seats, on=["game_id", "seat"])
    assert (per_seat["n"] == per_seat["turns"].cast(pl.UInt32)).all()
    assert draws.filter(pl.col("source") == "discard")["placed"].all()
    assert draws.filter(~pl.col("placed"))["face_down"].all()
    assert draws.filter(~pl.col("placed"))["source"].cast(pl.String).unique().to_list() == ["deck"]
    last = (
        draws.filter(pl.col("placed"))
        .sort("turn")
        .group_by("game_id", "seat", "cell")
        .agg(pl.col("turn").last().alias("placed_turn"), pl.col("card").last().alias("placed"))
    )
    c = cards.join(last, on=["game_id", "seat", "cell"], how="left")
    assert (c["turn_placed"] == c["placed_turn"].fill_null(0)).all()
    assert (c["replaced"] == c["placed_turn"].is_not_null()).all()
    chosen = c.filter(pl.col("placed_turn").is_not_null())
    assert chosen.height > 0
    assert (chosen["card"].cast(pl.String) == chosen["placed"].cast(pl.String)).all()
    assert draws.filter(pl.col("card") == "dragon").height > 0


def test_the_log_is_the_turn_cap_wide_and_a_capped_game_fills_it(data) -> None:
    """The draw log holds cap x players records (the most turns a game lasts); a game cut by
    a cap of 13 turns a player (3 players: 39 turns) records all 39."""
    capped = with_turn_cap(data, 13)
    prep = prepare(capped, "brief", 3, ["random"] * 3, False)
    a = simulate_arrays(prep, 8, 0, 30)
    assert a["draws"].shape == (30, 39)
    hit = np.flatnonzero(a["cap_hit"])
    assert len(hit) > 0
    t = run_chunk(prep, 8, 0, 30)
    rows = t["draws"].filter(pl.col("game_id") == int(hit[0]))
    assert rows["turn"].to_list() == list(range(1, 40))
    with pytest.raises(ValueError, match="max_turns"):
        kernel.new_chunk_out(1, 2, 4001)
