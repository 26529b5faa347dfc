"""Many games: ``simulate_chunk`` (``prange`` over blocks of games, one scratch state per
block), ``simulate_chunk_search`` for runs with mc or learned seats, and the result buffers
(``ChunkOut``). §N: a section of ``docs/rules/drako.md``, DRAKO's rules."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange

from talesim.simcore.jit import alloc_callee, block_bounds, chunk_entry, hot, parallel_callee

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import ix
from ..learned import X_SIZE
from .game import play_game
from .search import play_game_search
from .state import new_state


class ChunkOut(NamedTuple):
    """Result buffers of a chunk, indexed by game offset ``i`` (then seat, then cell)."""

    turns: np.ndarray  # int16[n]: game turns played (all seats)
    cap_hit: np.ndarray  # bool[n]: the turn cap ended the game
    policy: np.ndarray  # int8[n, P]
    score: np.ndarray  # int16[n, P]
    breakdown: np.ndarray  # int16[n, P, N_BREAKDOWN]
    rank: np.ndarray  # int8[n, P]: 1 = winner (total, then §7.5 key if the preset says so)
    seat_turns: np.ndarray  # int16[n, P]
    ended: np.ndarray  # bool[n, P]: this seat's action ended the game
    grid: np.ndarray  # int8[n, P, CELLS]: final kind of each cell
    replaced: np.ndarray  # bool[n, P, CELLS]
    turn_placed: np.ndarray  # int16[n, P, CELLS]: 0 = dealt at setup
    claim_n: np.ndarray  # int8[n, P]
    claim_legend: np.ndarray  # int8[n, P, N_LEGENDS]: legend index, claim order; -1 pad
    claim_turn: np.ndarray  # int16[n, P, N_LEGENDS]
    violation: np.ndarray  # int8[n]: checking mode: first broken invariant, 0
    playouts: np.ndarray  # int64[n]: playouts the mc seats ran (0 without one)
    # search kernel only (``_record_end``): how the game ended
    end_visible: np.ndarray  # int16[n, P]: each seat's visible score before the final reveal
    end_alt: np.ndarray  # bool[n]: the ender had a placement that would not have ended it
    # the draw log (``layout.DW_*``), turn-major: entry [t - 1, i] is game i's turn t, the
    # first ``turns[i]`` used. Turn-major so that the rows past the longest game (most of
    # a log sized for the cap: ~60 of 800 records used at four players) are memory never
    # written, so never made resident (``engine.result_buffers`` leaves them unmapped).
    draws: np.ndarray  # int16[cap x P, n]: the run's turn cap x players, its most turns


def new_chunk_out(n_games: int, n_players: int, max_turns: int) -> ChunkOut:
    """Allocate the result buffers of a chunk (in Python, before the kernel runs);
    ``max_turns``: the most turns a game of the run can last (its turn cap x players), the
    draw log's width."""
    if not 0 < max_turns <= L.MAX_TURNS:
        raise ValueError(f"max_turns {max_turns} outside 1..{L.MAX_TURNS}")
    n, P = n_games, n_players
    return ChunkOut(
        np.zeros(n, np.int16),
        np.zeros(n, np.bool_),
        np.zeros((n, P), np.int8),
        np.zeros((n, P), np.int16),
        np.zeros((n, P, L.N_BREAKDOWN), np.int16),
        np.zeros((n, P), np.int8),
        np.zeros((n, P), np.int16),
        np.zeros((n, P), np.bool_),
        np.zeros((n, P, L.CELLS), np.int8),
        np.zeros((n, P, L.CELLS), np.bool_),
        np.zeros((n, P, L.CELLS), np.int16),
        np.zeros((n, P), np.int8),
        np.full((n, P, L.N_LEGENDS), -1, np.int8),
        np.zeros((n, P, L.N_LEGENDS), np.int16),
        np.zeros(n, np.int8),
        np.zeros(n, np.int64),
        np.zeros((n, P), np.int16),
        np.zeros(n, np.bool_),
        np.zeros((max_turns, n), np.int16),
    )


@hot
def _seat_up(s, slot_table, seat_slot, rotate, n_players, g):
    """Game ``g``'s seats: each seat's slot, policy code, mc parameters and model row
    (``slot_table`` rows: policy, rollouts, top, playout, model row)."""
    for p in range(n_players):
        slot = seat_slot[(p + g) % n_players] if rotate else seat_slot[ix(p)]
        s.slot[ix(p)] = slot
        s.policy[ix(p)] = slot_table[ix(slot), 0]
        for k in range(3):
            s.mc_par[ix(p), ix(k)] = slot_table[ix(slot), ix(k + 1)]
        s.model[ix(p)] = slot_table[ix(slot), 4]


@hot
def _store(out, s, i, n_players, turns, cap_hit, violation):
    """Game offset ``i``'s results from ``s`` into ``out``."""
    out.turns[ix(i)] = turns
    out.cap_hit[ix(i)] = cap_hit != 0
    out.violation[ix(i)] = violation
    playouts = 0
    for p in range(n_players):
        playouts += s.mc_po[ix(p)]
        out.end_visible[ix(i), ix(p)] = s.end_vis[ix(p)]
        out.policy[ix(i), ix(p)] = s.slot[ix(p)]
        out.score[ix(i), ix(p)] = s.score[ix(p)]
        out.rank[ix(i), ix(p)] = s.rank[ix(p)]
        out.seat_turns[ix(i), ix(p)] = s.turns[ix(p)]
        out.ended[ix(i), ix(p)] = s.ended[ix(p)] != 0
        for b in range(L.N_BREAKDOWN):
            out.breakdown[i, p, b] = s.bd[ix(p), ix(b)]
        for c in range(L.CELLS):
            out.grid[i, p, c] = s.grid[ix(p), ix(c)]
            out.replaced[i, p, c] = s.replaced[ix(p), ix(c)] != 0
            out.turn_placed[i, p, c] = s.placed[ix(p), ix(c)]
        out.claim_n[ix(i), ix(p)] = s.claim_n[ix(p)]
        for k in range(s.claim_n[ix(p)]):
            out.claim_legend[i, p, k] = s.claim_g[ix(p), ix(k)]
            out.claim_turn[i, p, k] = s.claim_t[ix(p), ix(k)]
    out.playouts[ix(i)] = playouts
    # the turn loop stops at the cap, so ``turns`` <= cap x players, the log's width (the
    # checking mode's "turn cap exceeded"); the bound keeps a write inside it regardless
    for t in range(min(turns, out.draws.shape[0])):
        out.draws[ix(t), ix(i)] = s.draws[ix(t)]
    out.end_alt[ix(i)] = s.meta[L.M_ALT] != 0


@alloc_callee  # the block scratch
def _run_block(
    tb, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, lo, hi, out, check,
    search, models, rec,
):  # fmt: skip
    """Play game offsets ``lo .. hi-1`` of a chunk (a block) with one scratch state and,
    with asked seats, two copies of it for the searches and the learned player's float
    scratch; all allocated once per block. ``search``: None (heuristic seats) or True (mc
    or learned seats: ``models`` their packed models, ``rec`` what the searches record),
    tested ``is None``, which numba prunes by the argument's type, so the heuristics'
    kernel compiles no search nor model (it prunes no branch on a bool: ``simcore.jit``,
    "Compile time, 4"). The ``prange`` body computes ``lo`` and ``hi`` (a block taking the
    loop index compiles twice, ``int64`` and ``uint64``)."""
    s = new_state(n_players, tb.deck.shape[0])
    if search is not None:
        w = new_state(n_players, tb.deck.shape[0])
        c = new_state(n_players, tb.deck.shape[0])
        x = np.zeros(X_SIZE, np.float64)
    for i in range(lo, hi):
        g = first_game + i
        _seat_up(s, slot_table, seat_slot, rotate, n_players, g)
        if search is not None:
            turns, cap_hit, violation = play_game_search(
                tb, weights, models, s, w, c, x, n_players, seed, g, check, rec, i
            )
        else:
            turns, cap_hit, violation = play_game(tb, weights, s, n_players, seed, g, check)
        _store(out, s, i, n_players, turns, cap_hit, violation)


@parallel_callee
def _chunk(
    tb, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, n_games, n_blocks,
    out, check, search, models, rec,
):  # fmt: skip
    """Both chunk kernels: the blocks of games in parallel, each a ``_run_block`` with
    its own scratch (``search``, ``models``, ``rec`` as it takes them)."""
    for b in prange(n_blocks):
        lo, hi = block_bounds(b, n_games, n_blocks)
        _run_block(
            tb, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, lo, hi,
            out, check, search, models, rec,
        )  # fmt: skip


@chunk_entry
def simulate_chunk(
    tb, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, n_games, n_blocks,
    out, check,
):  # fmt: skip
    """Play games ``first_game .. first_game + n_games - 1`` of heuristic seats into ``out``
    (a ``ChunkOut``). Blocks of games run in parallel; each block allocates its scratch
    once. Seat s of game g plays the spec of slot ``seat_slot[(s + g) % n]`` if ``rotate``
    (else ``seat_slot[s]``): row ``slot_table[slot]`` = (policy code, mc rollouts, mc top,
    mc playout policy, model row). A run with mc or learned seats:
    ``simulate_chunk_search``."""
    _chunk(
        tb, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, n_games,
        n_blocks, out, check, None, None, None,
    )  # fmt: skip


@chunk_entry
def simulate_chunk_search(
    tb, weights, models, slot_table, seat_slot, rotate, n_players, seed, first_game, n_games,
    n_blocks, out, check, rec,
):  # fmt: skip
    """``simulate_chunk`` for runs with mc or learned seats (a kernel of its own: a run of
    heuristics never compiles the search nor the model): ``models`` the packed models
    (``simcore.learned.pack``), ``rec`` the searches' record (``simcore.learned.Record``;
    ``no_record()`` when the run records nothing)."""
    _chunk(
        tb, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, n_games,
        n_blocks, out, check, True, models, rec,
    )  # fmt: skip
