"""The ``mc`` policy compiled: ``reference/search.py`` restated on the kernel's state, the
same draws in the same order (``tests/paper_tales/test_mc.py`` plays both).

A game with mc or learned seats runs in a kernel of its own (``simulate_chunk_search``), so
runs of heuristics never compile the search nor the model: ``play_game_search`` plays on
(``game._play_on`` with ``search`` True) until an mc or learned seat's draft pick,
deployment step or construction choice; a learned seat's is answered by its model
(``learned.learned_choice``, ``G_ANSWER_*``), an mc seat's is decided by ``_search`` on
copies of the state (and recorded, ``learned.record_search``, when the run records), and
the game plays on with that choice (``G_FORCE_*``). ``_search``: the distinct options
ranked by greedy's value (``mc.rank``), the ``top`` best each played out ``rollouts``
times from the same worlds (a copy of the state, the draft step rewound, ``determinize``;
one world a rollout) by copies in which every seat plays the ``playout`` policy (a learned
playout's seats answered as they ask, from the mc seat's ``I_MODEL`` row), the option
taken first; the best summed ``outcome`` wins, ties to greedy's first best.

``Search`` is a block's search scratch: the mc seats' parameters, each seat's decision
count (its search streams), the candidates and their sums, the hidden slots of a world.
A block has a second one for the learned choices (a playout's learned seats rank their
options while the search's candidates wait).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange

from talesim.simcore.jit import alloc, alloc_callee, block_bounds, hot, hot_outline, parallel
from talesim.simcore.rng import rng_next, search_state

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..learned import X_SIZE, learned_choice, record_search
from ..mc import (
    MAX_CAND,
    OUTCOME_UNIT,
    copy_lstate,
    copy_state,
    determinize,
    outcome,
    rank,
    rewind_draft,
)
from .game import _play_on, _write_legends_out, _write_out, new_game
from .state import _new_lstate, _new_state


class Search(NamedTuple):
    """A block's search scratch (allocated once per block, beside the states)."""

    par: np.ndarray  # int32[P, 3]: each seat's (rollouts, top, playout policy code)
    dn: np.ndarray  # int32[P]: decisions each seat has searched (its search streams)
    rank: np.ndarray  # int32[MAX_CAND]: the options searched, greedy's best first
    val: np.ndarray  # float64[MAX_CAND]: greedy's value of each distinct option
    idx: np.ndarray  # int32[MAX_CAND]: the distinct options not ranked yet
    sums: np.ndarray  # int64[MAX_CAND]: summed outcome of each searched option
    rval: np.ndarray  # float64[MAX_CAND]: greedy's value of each ranked option
    n_opt: np.ndarray  # int32[1]: the distinct options of the last ranking
    where: np.ndarray  # int32[D]: a world's hidden slots: what holds the card (W_*)
    seat: np.ndarray  # int32[D]: ... whose (-1: the piles)
    pos: np.ndarray  # int32[D]: ... at which index or spot
    old: np.ndarray  # int32[D]: ... its card
    row: np.ndarray  # int32[D]: ... the holder's log row of that card (-1: none)
    pool: np.ndarray  # int32[D]: the hidden cards, by card id, then shuffled
    used: np.ndarray  # int32[D]: a pool card dealt already
    mark: np.ndarray  # int32[D]: scratch: cards in the pool (to list them by id)
    playouts: np.ndarray  # int64[1]: playouts of the game being played


@alloc
def new_search(P, D):
    return Search(
        np.zeros((P, 3), np.int32),
        np.zeros(P, np.int32),
        np.zeros(MAX_CAND, np.int32),
        np.zeros(MAX_CAND, np.float64),
        np.zeros(MAX_CAND, np.int32),
        np.zeros(MAX_CAND, np.int64),
        np.zeros(MAX_CAND, np.float64),
        np.zeros(1, np.int32),
        np.zeros(D, np.int32),
        np.zeros(D, np.int32),
        np.zeros(D, np.int32),
        np.zeros(D, np.int32),
        np.zeros(D, np.int32),
        np.zeros(D, np.int32),
        np.zeros(D, np.int32),
        np.zeros(D, np.int32),
        np.zeros(1, np.int64),
    )


# --- the search ------------------------------------------------------------------------------


@hot_outline
def _play_on_search(tb, lx, weights, s, ls, n_players, check):
    """``game._play_on`` of a game that can stop at an mc or learned seat's decision: one
    compiled copy of the whole game, shared by the game itself, its playouts and the
    tests."""
    return _play_on(tb, lx, weights, s, ls, n_players, check, True)


@hot
def _answer_learned(tb, lx, weights, models, s, ls, ml, x, n_players):
    """Answer the learned seat's decision asked at ``G_ASK_*`` (``learned.learned_choice``;
    ``ml``, ``x``: its scratch): the game plays on with it (``G_ANSWER_*``)."""
    s.g[L.G_ANSWER_IDX] = learned_choice(tb, lx, weights, models, s, ls, ml, x, n_players)
    s.g[L.G_ANSWER_SEAT] = s.g[L.G_ASK_SEAT]


@hot_outline
def _search(tb, lx, weights, models, s, ls, w, wl, c, cl, ms, ml, x, n_players, seed, game_id):
    """The mc decision the game in ``s`` stopped at (``G_ASK_*``); returns the option
    chosen (the module docstring). Every random number comes from the search stream of
    (seed, game, seat, decision number), none from the game's. ``models`` (the packed
    models), ``ml``, ``x``: a learned playout's models and scratch."""
    p = np.int64(s.g[L.G_ASK_SEAT])
    decision = s.g[L.G_ASK_DEC]
    rollouts = ms.par[p, 0]
    top = ms.par[p, 1]
    playout = ms.par[p, 2]
    number = ms.dn[p]
    ms.dn[p] = number + 1
    m = rank(tb, lx, weights, s, ls, ms, p, decision, top, n_players)
    if m == 1:
        return ms.rank[0]
    ms.playouts[0] += m * rollouts
    for j in range(m):
        ms.sums[j] = 0
    stream = search_state(seed, game_id, p, number)
    no_check = n_players < 0  # False, typed like play_game's check (one _play_on compiled)
    for _ in range(rollouts):
        copy_state(w, s)
        if lx is not None:
            copy_lstate(wl, ls)
        w.rng[0] = stream
        if decision == L.D_DRAFT:
            rewind_draft(tb, w, n_players, p)
        determinize(tb, lx, w, wl, ms, n_players, p)
        playout_state = rng_next(w.rng)
        stream = w.rng[0]
        for q in range(n_players):
            w.pi[q, L.I_POLICY] = playout
            w.pi[q, L.I_MODEL] = s.pi[p, L.I_MODEL]
            for u in range(w.dvs.shape[1]):  # draft values of the policies before
                w.dvs[q, u] = 0
        for j in range(m):
            copy_state(c, w)
            if lx is not None:
                copy_lstate(cl, wl)
            c.rng[0] = playout_state
            c.g[L.G_FORCE_SEAT] = p
            c.g[L.G_FORCE_IDX] = ms.rank[j]
            while _play_on_search(tb, lx, weights, c, cl, n_players, no_check):
                _answer_learned(tb, lx, weights, models, c, cl, ml, x, n_players)
            ms.sums[j] += outcome(c, n_players, p)
    best = 0
    for j in range(1, m):
        if ms.sums[j] > ms.sums[best]:
            best = j
    return ms.rank[best]


@hot_outline
def play_game_search(
    tb, lx, weights, models, s, ls, w, wl, c, cl, ms, ml, x, n_players, seed, game_id, check,
    rec, u,
):  # fmt: skip
    """``game.play_game`` with asked seats (an mc seat's parameters in ``ms.par``, a
    learned seat's model row in ``s.pi[:, I_MODEL]``): at each of their decisions the game
    stops; a learned seat's is answered by its model, an mc seat's searched by ``_search``
    on copies (``w``/``wl``, ``c``/``cl``: states allocated alike) and recorded as game
    offset ``u`` of ``rec`` (``learned.record_search``: nothing unless the run records);
    the game plays on with that choice. ``weights`` carries the learned player's feature
    rows last (``learned.with_feature_rows``)."""
    new_game(tb, lx, s, ls, n_players, seed, game_id, check)
    ms.playouts[0] = 0
    for p in range(n_players):
        ms.dn[p] = 0
    while _play_on_search(tb, lx, weights, s, ls, n_players, check):
        p = s.g[L.G_ASK_SEAT]
        if s.pi[p, L.I_POLICY] == L.P_LEARNED:
            _answer_learned(tb, lx, weights, models, s, ls, ml, x, n_players)
            continue
        i = _search(
            tb, lx, weights, models, s, ls, w, wl, c, cl, ms, ml, x, n_players, seed, game_id
        )
        record_search(tb, lx, weights, s, ls, ms, ml, x, n_players, OUTCOME_UNIT, rec, u)
        s.g[L.G_FORCE_SEAT] = p
        s.g[L.G_FORCE_IDX] = i
    return s.g[L.G_VIOL]


@alloc_callee  # the block scratch
def _run_block_search(
    tb, lx, weights, models, table, seat_slot, rotate, n_players, seed, first_game, lo, hi, out,
    playouts, check, rec,
):  # fmt: skip
    """``game._run_block`` with mc or learned seats: one game state, two copies for the
    searches (Legends: with their ``LState``), the search scratch and the learned choices'
    (a ``Search`` and the float scratch), allocated once."""
    n_types = tb.ut.shape[0]
    if lx is not None:
        n_types += lx.xt.shape[0]
    D, B = tb.deck.shape[0], tb.bt.shape[0]
    s = _new_state(n_players, D, B, n_types)
    w = _new_state(n_players, D, B, n_types)
    c = _new_state(n_players, D, B, n_types)
    if lx is None:
        ls = wl = cl = None
    else:
        ls = _new_lstate(n_players, B)
        wl = _new_lstate(n_players, B)
        cl = _new_lstate(n_players, B)
    ms = new_search(n_players, D)
    ml = new_search(n_players, D)
    x = np.zeros(X_SIZE, np.float64)
    for i in range(lo, hi):
        g = first_game + i
        for p in range(n_players):
            slot = seat_slot[(p + g) % n_players] if rotate else seat_slot[p]
            s.pi[p, L.I_POLICY] = table[slot, 0]
            s.pi[p, L.I_MODEL] = table[slot, 4]
            for k in range(3):
                ms.par[p, k] = table[slot, 1 + k]
        out.violation[i] = play_game_search(
            tb, lx, weights, models, s, ls, w, wl, c, cl, ms, ml, x, n_players, seed, g, check,
            rec, i,
        )  # fmt: skip
        _write_out(s, out, i, n_players, B)
        if lx is not None:
            _write_legends_out(s, ls, out, i, n_players)
        for p in range(n_players):
            out.policy[i, p] = seat_slot[(p + g) % n_players] if rotate else seat_slot[p]
        playouts[i] = ms.playouts[0]


@parallel
def simulate_chunk_search(
    tb, lx, weights, models, table, seat_slot, rotate, n_players, seed, first_game, n_games,
    n_blocks, out, playouts, check, rec,
):  # fmt: skip
    """``game.simulate_chunk`` with mc or learned seats: seat s of game g plays slot
    ``seat_slot[(s + g) % n]`` (``rotate``) of ``table`` (int32[slots, 5]: policy code, mc
    rollouts, top, playout policy code, model row); ``out.policy`` holds the slots,
    ``playouts`` each game's playouts. ``weights`` (and Legends ``lx.lweights``) carry the
    learned player's feature rows last (``learned.with_feature_rows``), ``models`` the
    packed models (``simcore.learned.pack``), ``rec`` the searches' record
    (``simcore.learned.Record``; ``no_record()`` when the run records nothing)."""
    for b in prange(n_blocks):
        lo, hi = block_bounds(b, n_games, n_blocks)
        _run_block_search(
            tb, lx, weights, models, table, seat_slot, rotate, n_players, seed, first_game, lo,
            hi, out, playouts, check, rec,
        )  # fmt: skip


# --- the search from Python (tests) ----------------------------------------------------------


@hot_outline
def advance(tb, lx, weights, s, ls, n_players):
    """``_play_on`` of a game that can search, without checking: True if it stopped at an
    mc or learned seat's decision (tests)."""
    return _play_on_search(tb, lx, weights, s, ls, n_players, n_players < 0)


@hot_outline
def decide(tb, lx, weights, models, s, ls, w, wl, c, cl, ms, ml, x, n_players, seed, game_id):
    """``_search`` (tests; the arguments typed as the chunk kernel's: one compiled search)."""
    return _search(
        tb, lx, weights, models, s, ls, w, wl, c, cl, ms, ml, x, n_players, seed, game_id
    )
