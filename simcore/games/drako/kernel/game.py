"""One compiled game and many: ``_new_game``, the resumable ``_play_on``, ``play_game``
(heuristic seats), the result buffers (``ChunkOut``) and ``simulate_chunk`` (``prange``
over blocks of games, one scratch state per block)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange

from simcore.jit import alloc, hot, hot_outline, parallel
from simcore.rng import rng_start

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import ix
from ..mc import forget_caches
from .end import _record_end, check_final, check_state, final_scoring
from .setup import setup
from .state import new_state
from .turn import take_turn

# --- one game ------------------------------------------------------------------------------


@hot
def _new_game(tb, s, n_players, seed, game_id, check):
    """A new game in ``s`` (seats already set: ``policy``, ``slot``, ``mc_par``): setup done,
    the position at seat 0's first turn; with ``check``, ``meta[M_VIOL]`` holds the first
    invariant broken by the setup (``INVARIANTS``), else 0."""
    rng_start(s.rng, seed, game_id)
    for p in range(n_players):
        s.claim_n[ix(p)] = 0
        s.turns[ix(p)] = 0
        s.ended[ix(p)] = 0
        s.mc_dn[ix(p)] = 0
        s.mc_po[ix(p)] = 0
    for i in range(L.N_LEGENDS):
        s.river[ix(i)] = -1
    s.meta[L.M_TURN] = 0
    setup(tb, s, n_players)
    forget_caches(s, n_players)
    s.meta[L.M_STEP] = L.STEP_TURN
    s.meta[L.M_FORCE_SEAT] = -1
    s.meta[L.M_CAP] = 0
    s.meta[L.M_VIOL] = 0
    if check:
        s.meta[L.M_VIOL] = check_state(tb, s, n_players, tb.rules[L.R_TURN_CAP] * n_players)


@hot_outline
def _play_on(tb, weights, s, n_players, check, search):
    """Play the game in ``s`` on from where it is (``meta[M_TURN]``, ``meta[M_STEP]``) to
    the end, final scoring included; with ``check``, verify the invariants after each turn
    and at the end (``meta[M_VIOL]``). Returns True when it stopped at an mc seat's
    decision instead (call again once ``meta[M_FORCE_*]`` hold the choice). ``search``, a
    compile-time constant (a literal ``True`` or ``False`` at every call): whether the
    game can stop and resume within a turn (an mc seat, a playout's forced first
    decision) and records how it ended (``_record_end``). The heuristics' kernel passes
    ``False``, so every stop check, answer and resumed position is pruned from it and
    each turn starts at ``STEP_TURN``."""
    max_turns = tb.rules[L.R_TURN_CAP] * n_players
    while True:
        # the seat of this turn (counted already from STEP_SOURCE on); not a loop-carried
        # ``p = 0``, whose literal type would make numba compile the whole turn twice
        turn = s.meta[L.M_TURN] - (0 if not search or s.meta[L.M_STEP] == L.STEP_TURN else 1)
        p = turn % n_players
        final = take_turn(tb, weights, s, p, search)
        if search and final < 0:
            return True
        if check and s.meta[L.M_VIOL] == 0:
            s.meta[L.M_VIOL] = check_state(tb, s, n_players, max_turns)
        if final:
            s.ended[ix(p)] = 1
            if search and s.meta[L.M_END_REC] != 0:
                _record_end(tb, s, n_players, p)
            break
        if s.meta[L.M_TURN] >= max_turns:
            s.meta[L.M_CAP] = 1
            break
    final_scoring(tb, s, n_players)
    if check and s.meta[L.M_VIOL] == 0:
        s.meta[L.M_VIOL] = check_final(s, n_players)
    return False


@hot_outline
def play_game(tb, weights, s, n_players, seed, game_id, check):
    """Play one complete game of heuristic seats into ``s`` (seats already set): a new game,
    then play on (it never stops: no seat searches). Returns ``(turns, cap_hit,
    violation)``; ``violation`` is the first broken invariant's code when ``check``, else
    0."""
    _new_game(tb, s, n_players, seed, game_id, check)
    _play_on(tb, weights, s, n_players, check, False)
    return s.meta[L.M_TURN], s.meta[L.M_CAP], s.meta[L.M_VIOL]


# --- many games ------------------------------------------------------------------------------


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


def new_chunk_out(n_games: int, n_players: int) -> ChunkOut:
    """Allocate the result buffers of a chunk (in Python, before the kernel runs)."""
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
    )


@hot
def _seat_up(s, slot_table, seat_slot, rotate, n_players, g):
    """Game ``g``'s seats: each seat's slot, policy code and mc parameters (``slot_table``
    rows: policy, rollouts, top, playout)."""
    for p in range(n_players):
        slot = seat_slot[(p + g) % n_players] if rotate else seat_slot[ix(p)]
        s.slot[ix(p)] = slot
        s.policy[ix(p)] = slot_table[ix(slot), 0]
        for k in range(3):
            s.mc_par[ix(p), ix(k)] = slot_table[ix(slot), ix(k + 1)]


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
    out.end_alt[ix(i)] = s.meta[L.M_ALT] != 0


@alloc  # the block scratch
def _run_block(
    tb, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, lo, hi, out, check
):
    """Play game offsets ``lo .. hi-1`` of a chunk of heuristic seats with one scratch
    state."""
    s = new_state(n_players, tb.deck.shape[0])
    for i in range(lo, hi):
        g = first_game + i
        _seat_up(s, slot_table, seat_slot, rotate, n_players, g)
        turns, cap_hit, violation = play_game(tb, weights, s, n_players, seed, g, check)
        _store(out, s, i, n_players, turns, cap_hit, violation)


@parallel
def simulate_chunk(
    tb, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, n_games, n_blocks,
    out, check,
):  # fmt: skip
    """Play games ``first_game .. first_game + n_games - 1`` of heuristic seats into ``out``
    (a ``ChunkOut``). Blocks of games run in parallel; each block allocates its scratch
    once. Seat s of game g plays the spec of slot ``seat_slot[(s + g) % n]`` if ``rotate``
    (else ``seat_slot[s]``): row ``slot_table[slot]`` = (policy code, mc rollouts, mc top,
    mc playout policy). A run with mc seats: ``simulate_chunk_search``."""
    for b in prange(n_blocks):
        lo = b * n_games // n_blocks
        hi = (b + 1) * n_games // n_blocks
        _run_block(
            tb, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, lo, hi,
            out, check,
        )  # fmt: skip
