"""Many games: ``simulate_chunk`` (``prange`` over blocks of games, scratch allocated once
per block), ``simulate_chunk_search`` for runs with ``mc`` seats, and the result buffers
(``ChunkOut``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange

from talesim.simcore.buffers import zeroed_buffers
from talesim.simcore.jit import alloc_callee, block_bounds, chunk_entry, hot, parallel_callee

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import build_tables, ix, state_size
from ..learned import X_SIZE
from .game import _play_game
from .search import _play_game_search


class ChunkOut(NamedTuple):
    """Result buffers of a chunk, indexed by game offset ``i`` (then seat, then pick)."""

    score: np.ndarray  # int16[n, P]
    breakdown: np.ndarray  # int16[n, P, N_BREAKDOWN]
    face_down: np.ndarray  # int8[n, P]: face-down tableau cards at the end
    policy: np.ndarray  # int8[n, P]: policy id of each seat
    trick: np.ndarray  # int16[n]: identity taken by a face-up Trickster, -1
    card: np.ndarray  # int16[n, P, PICKS]: cards received, in order
    round: np.ndarray  # int8[n, P, PICKS]
    pick: np.ndarray  # int8[n, P, PICKS]
    played: np.ndarray  # bool[n, P, PICKS]
    face_up: np.ndarray  # bool[n, P, PICKS]: played and face up at the end
    points: np.ndarray  # int16[n, P, PICKS]: final points (0 unless face up)
    violation: np.ndarray  # int8[n]: checking mode: first broken invariant (INVARIANTS), 0


def new_chunk_out(n_games: int, n_players: int) -> ChunkOut:
    """Allocate the result buffers of a chunk (in Python, before the kernel runs), zeroed
    and already backed by memory (``zeroed_buffers``)."""
    n, P = n_games, n_players
    return ChunkOut(
        *zeroed_buffers(
            [
                ((n, P), np.int16),
                ((n, P, L.N_BREAKDOWN), np.int16),
                ((n, P), np.int8),
                ((n, P), np.int8),
                ((n,), np.int16),
                ((n, P, L.PICKS), np.int16),
                ((n, P, L.PICKS), np.int8),
                ((n, P, L.PICKS), np.int8),
                ((n, P, L.PICKS), np.bool_),
                ((n, P, L.PICKS), np.bool_),
                ((n, P, L.PICKS), np.int16),
                ((n,), np.int8),
            ]
        )
    )


@hot
def _seat_up(st, slot_table, seat_slot, rotate, n_players, g):
    """Game ``g``'s seats: each seat's slot, policy, mc parameters and model row
    (``slot_table``)."""
    for p in range(n_players):
        slot = seat_slot[(p + g) % n_players] if rotate else seat_slot[p]
        st[ix(L.SLOT + p)] = slot
        st[ix(L.POLICY + p)] = slot_table[slot, 0]
        for k in range(3):
            st[ix(L.MC_PAR + p * 3 + k)] = slot_table[slot, 1 + k]
        st[ix(L.MODEL + p)] = slot_table[slot, 4]


@hot
def _store(out, st, u, n_players):
    """Game offset ``u``'s results from ``st`` into ``out`` (indexed through ``ix`` too: no
    wrap-around code for negative indices)."""
    out.trick[u] = -1
    for p in range(n_players):
        q = ix(p)
        out.score[u, q] = st[ix(L.SCORE + p)]
        out.policy[u, q] = st[ix(L.SLOT + p)]
        for b in range(L.N_BREAKDOWN):
            out.breakdown[u, q, ix(b)] = st[ix(L.BREAKDOWN + p * L.N_BREAKDOWN + b)]
        down = 0
        for slot in range(st[ix(L.TAB_N + p)]):
            down += 1 - st[ix(L.TAB_UP + p * L.TABLEAU + slot)]
        out.face_down[u, q] = down
        if st[ix(L.TRICK_AS + p)] >= 0:
            out.trick[u] = st[ix(L.TRICK_AS + p)]
        for k in range(L.PICKS):
            v = ix(k)
            slot = st[ix(L.PICK_SLOT + p * L.PICKS + k)]
            out.card[u, q, v] = st[ix(L.PICK_CARD + p * L.PICKS + k)]
            out.round[u, q, v] = st[ix(L.PICK_ROUND + p * L.PICKS + k)]
            out.pick[u, q, v] = st[ix(L.PICK_NO + p * L.PICKS + k)]
            out.played[u, q, v] = slot >= 0
            out.face_up[u, q, v] = slot >= 0 and st[ix(L.TAB_UP + p * L.TABLEAU + slot)] == 1
            out.points[u, q, v] = st[ix(L.POINTS + p * L.TABLEAU + slot)] if slot >= 0 else 0


@alloc_callee  # the block scratch
def _run_block(
    kt, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, lo, hi, out, check,
    search, models, rec,
):  # fmt: skip
    """Play game offsets ``lo .. hi-1`` of a chunk (a block) with one scratch state and,
    with ``mc`` seats, two copies of it for the searches; all allocated once per block.
    The ``prange`` body computes ``lo`` and ``hi``: its index is typed ``int64`` when the
    chunk is typed and ``uint64`` when the loop body is compiled, so a block taking the
    index compiled twice.
    ``search``: None (heuristic seats) or True (``mc`` or ``learned`` seats: ``models``
    their packed models, ``rec`` what the searches record). numba prunes an ``is None``
    test on an argument by the argument's type when it compiles, so the heuristics' kernel
    compiles no search. A bool flag would not do: numba prunes no branch on a bool
    argument, literal or not, so both branches, the whole search, would compile
    (``simcore.jit``, "Compile time, 4")."""
    size = state_size(kt[ix(L.K_DECK_SIZE)])
    st = np.zeros(size, np.int32)
    sm = np.zeros(L.SM_SIZE, np.uint64)
    if search is not None:
        stw = np.zeros(size, np.int32)
        smw = np.zeros(L.SM_SIZE, np.uint64)
        stp = np.zeros(size, np.int32)
        smp = np.zeros(L.SM_SIZE, np.uint64)
        x = np.zeros(X_SIZE, np.float64)
    for i in range(lo, hi):
        g = first_game + i
        _seat_up(st, slot_table, seat_slot, rotate, n_players, g)
        u = ix(i)
        if search is not None:
            out.violation[u] = _play_game_search(
                kt, weights, models, st, sm, stw, smw, stp, smp, x, n_players, seed, g, check,
                rec, u,
            )  # fmt: skip
        else:
            out.violation[u] = _play_game(kt, weights, st, sm, n_players, seed, g, check)
        _store(out, st, u, n_players)


@parallel_callee
def _chunk(
    tb, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, n_games, n_blocks,
    out, check, search, models, rec,
):  # fmt: skip
    """Both chunk kernels: the card tables ``kt`` built once from ``tb``, then the blocks
    of games in parallel, each a ``_run_block`` (``search``, ``models``, ``rec`` as it
    takes them)."""
    kt = build_tables(tb.ct, tb.deps, tb.deck, tb.id_order, tb.in_deck, tb.rules, tb.sel)
    for b in prange(n_blocks):
        lo, hi = block_bounds(b, n_games, n_blocks)
        _run_block(
            kt, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, lo, hi,
            out, check, search, models, rec,
        )  # fmt: skip


@chunk_entry
def simulate_chunk(
    tb, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, n_games, n_blocks,
    out, check,
):  # fmt: skip
    """Play games ``first_game .. first_game + n_games - 1`` of heuristic seats into ``out``
    (a ``ChunkOut``); ``tb`` is the ``tables.Tables`` (a NamedTuple of arrays, read by
    name). Blocks of games run in parallel; each block allocates its scratch once. Seat s
    of game g plays the spec of slot ``seat_slot[(s + g) % n]`` if ``rotate`` (else
    ``seat_slot[s]``): row ``slot_table[slot]`` = (policy, mc rollouts, mc top, mc playout
    policy). ``check``: checking mode (``out.violation``). A run with ``mc`` seats:
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
    """``simulate_chunk`` for runs with ``mc`` or ``learned`` seats (a kernel of its own: a
    run of heuristics never compiles the search nor the model): ``models`` the packed
    models (``simcore.learned.pack``), ``rec`` the searches' record (``simcore.learned
    .Record``; ``no_record()`` when the run records nothing)."""
    _chunk(
        tb, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, n_games,
        n_blocks, out, check, True, models, rec,
    )  # fmt: skip
