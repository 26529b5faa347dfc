"""The ``mc`` policy compiled: ``reference/search.py`` restated on the kernel's state, the
same draws in the same order (``tests/paper_tales/test_mc.py`` plays both).

A game with mc or learned seats runs in a kernel of its own (``simulate_chunk_search``), so
runs of heuristics never compile the search nor the model: ``play_game_search`` plays on
(``game._play_on`` with ``search`` True) until an mc or learned seat's draft pick,
deployment step or construction choice; a learned seat's is answered by its model
(``learned.learned_choice``, ``G_ANSWER_*``), an mc seat's is decided by ``_search`` on
copies of the state (and recorded, ``learned.record_search``, when the run records), and
the game plays on with that choice (``G_FORCE_*``). ``_search``: the distinct options
ranked by greedy's value (``rank.rank``), the ``top`` best each played out ``rollouts``
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

from simcore.jit import alloc, alloc_callee, hot, hot_outline, parallel
from simcore.rng import rng_next, rng_shuffle, search_state

from .. import schema as S  # noqa: N812 (the schema, read as S.NAME)
from ..learned import X_SIZE, learned_choice, record_search
from .game import _play_on, _write_legends_out, _write_out, new_game
from .rank import rank
from .state import _new_lstate, _new_state

#: A playout's outcome in whole units (``reference.search.OUTCOME_UNIT`` etc.).
OUTCOME_UNIT = 60_000
MARGIN_WEIGHT = 60
MARGIN_CLIP = 50

#: Candidates of one decision: a deployment step's options bound them all (a pack holds
#: at most ``MAX_DEAL``, construction 1 + ``MAX_BUILD_OPTIONS``).
MAX_CAND = S.MAX_DEPLOY_OPTIONS

# where a hidden card lies (``Search.where``; ``reference.search.determinize``'s slots)
W_PACK, W_DRAFTED, W_HAND, W_KEPT, W_SPOT, W_ZONE, W_DECK, W_DISC = range(8)


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


# --- a world: the draft step rewound, the hidden cards dealt anew -------------------------


@hot
def rewind_draft(tb, s, n_players, p):
    """``reference.search.rewind_draft``: the picks (and 2-player discards) of the seats
    before ``p`` in this draft step taken back, each card to the end of its pack (the
    discards from the top of the discard pile, the last seat's first); the position moves
    to the step's first seat."""
    discards = tb.rules[S.R2_DISCARD] if n_players == 2 else 0
    m = s.pi[p, S.I_PACK_N]  # every pack held m cards when the step began
    thrown = min(discards, m - 1)
    for q in range(p - 1, -1, -1):
        for _ in range(thrown):
            s.g[S.G_DISC_N] -= 1
            s.packs[q, s.pi[q, S.I_PACK_N]] = s.disc[s.g[S.G_DISC_N]]
            s.pi[q, S.I_PACK_N] += 1
        s.pi[q, S.I_DRAFT_N] -= 1
        s.pi[q, S.I_LOG_N] -= 1
        s.packs[q, s.pi[q, S.I_PACK_N]] = s.drafted[q, s.pi[q, S.I_DRAFT_N]]
        s.pi[q, S.I_PACK_N] += 1
    s.g[S.G_SEAT] = 0


@hot
def _slot(ms, k, where, q, i, card):
    ms.where[k] = where
    ms.seat[k] = q
    ms.pos[k] = i
    ms.old[k] = card
    return k + 1


@hot
def determinize(tb, lx, s, ls, ms, n_players, p):
    """``reference.search.determinize``, the same slots in the same order, the same draws
    (one ``rng_shuffle`` of the hidden cards listed by card id, from ``s.rng``)."""
    U = tb.ut.shape[0]
    drafting = s.g[S.G_PHASE] == 0 and s.g[S.G_BEGUN] != 0
    deploying = s.g[S.G_PHASE] == 1 and s.g[S.G_BEGUN] != 0
    known = -1
    if drafting and s.g[S.G_STEP] > 1:
        first = tb.rules[S.R_FIRST_DIRECTION]
        direction = first if s.g[S.G_TURN] % 2 == 1 else -first
        known = (p + direction) % n_players
    k = 0
    for q in range(n_players):
        if q == p:
            continue
        if drafting:
            if q == known:
                _sort(s.packs[q], s.pi[q, S.I_PACK_N])
            else:
                for i in range(s.pi[q, S.I_PACK_N]):
                    k = _slot(ms, k, W_PACK, q, i, s.packs[q, i])
            for i in range(s.pi[q, S.I_DRAFT_N]):
                k = _slot(ms, k, W_DRAFTED, q, i, s.drafted[q, i])
        for i in range(s.pi[q, S.I_HAND_N]):
            k = _slot(ms, k, W_HAND, q, i, s.hand[q, i])
        if s.pi[q, S.I_KEPT] >= 0:
            k = _slot(ms, k, W_KEPT, q, 0, s.pi[q, S.I_KEPT])
        if deploying:
            for spot in range(S.MAX_SPOTS):
                if s.sp[q, spot, S.S_CARD] >= 0 and s.sp[q, spot, S.S_FRESH]:
                    k = _slot(ms, k, W_SPOT, q, spot, s.sp[q, spot, S.S_CARD])
            if lx is not None:
                for i in range(ls.zn[q]):
                    if not ls.zone[q, i, S.Z_PAID]:
                        k = _slot(ms, k, W_ZONE, q, i, ls.zone[q, i, S.Z_CARD])
    for i in range(s.g[S.G_DECK_N]):
        k = _slot(ms, k, W_DECK, -1, i, s.deck[i])
    for i in range(s.g[S.G_DISC_N]):
        by = s.disc_by[i]
        if by >= 0 and by != p:
            k = _slot(ms, k, W_DISC, -1, i, s.disc[i])
    for j in range(k):  # the log rows, before any card moves
        w = ms.where[j]
        logged = w == W_DRAFTED or w == W_HAND or w == W_KEPT or w == W_SPOT or w == W_ZONE
        ms.row[j] = s.card_log[ms.old[j]] if logged else -1
    D = tb.deck.shape[0]
    for c in range(D):
        ms.mark[c] = 0
    for j in range(k):
        ms.mark[ms.old[j]] = 1
    n = 0
    for c in range(D):
        if ms.mark[c]:
            ms.pool[n] = c
            ms.used[n] = 0
            n += 1
    rng_shuffle(s.rng, ms.pool, n)
    for j in range(k):  # face-down spots take units, face-down zone cards artifacts
        w = ms.where[j]
        if w == W_SPOT or w == W_ZONE:
            want = w == W_ZONE
            for i in range(n):
                if not ms.used[i] and (tb.deck[ms.pool[i]] >= U) == want:
                    ms.used[i] = 1
                    _put(tb, s, ls, ms, j, ms.pool[i], U)
                    break
    i = 0
    for j in range(k):
        w = ms.where[j]
        if w == W_SPOT or w == W_ZONE:
            continue
        while ms.used[i]:
            i += 1
        ms.used[i] = 1
        _put(tb, s, ls, ms, j, ms.pool[i], U)


@hot
def _sort(a, n):
    """``a[:n]`` in increasing order (insertion sort: a pack)."""
    for i in range(1, n):
        x = a[i]
        j = i
        while j > 0 and a[j - 1] > x:
            a[j] = a[j - 1]
            j -= 1
        a[j] = x


@hot
def _put(tb, s, ls, ms, j, card, U):
    """Card ``card`` into hidden slot ``j``; a logged slot's log row follows it."""
    w, q, i = ms.where[j], ms.seat[j], ms.pos[j]
    if w == W_PACK:
        s.packs[q, i] = card
    elif w == W_DRAFTED:
        s.drafted[q, i] = card
    elif w == W_HAND:
        s.hand[q, i] = card
    elif w == W_KEPT:
        s.pi[q, S.I_KEPT] = card
    elif w == W_SPOT:
        s.sp[q, i, S.S_CARD] = card
        s.sp[q, i, S.S_UNIT] = tb.deck[card]
    elif w == W_ZONE:
        if ls is not None:  # a base game has no zone (numba prunes this)
            ls.zone[q, i, S.Z_CARD] = card
            ls.zone[q, i, S.Z_X] = tb.deck[card] - U
    elif w == W_DECK:
        s.deck[i] = card
    else:
        s.disc[i] = card
    r = ms.row[j]
    if r >= 0:
        s.card_log[card] = r
        s.log[q, r, S.L_CARD] = card
        s.log[q, r, S.L_UNIT] = tb.deck[card]


@hot
def outcome(s, n_players, p):
    """``reference.search.outcome``: seat ``p``'s share of the win (``I_WINNER``) plus
    ``MARGIN_WEIGHT`` x its LP margin over the best other seat, clipped."""
    k = 0
    other = -(1 << 30)
    for q in range(n_players):
        k += s.pi[q, S.I_WINNER]
        if q != p:
            other = max(other, s.pi[q, S.I_LP])
    win = OUTCOME_UNIT // k if s.pi[p, S.I_WINNER] else 0
    margin = max(-MARGIN_CLIP, min(MARGIN_CLIP, s.pi[p, S.I_LP] - other))
    return win + MARGIN_WEIGHT * margin


# --- copies ----------------------------------------------------------------------------------


@hot
def _cp1(dst, src):
    for i in range(src.shape[0]):
        dst[i] = src[i]


@hot
def _cp2(dst, src):
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@hot
def _cp3(dst, src):
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            for k in range(src.shape[2]):
                dst[i, j, k] = src[i, j, k]


@hot
def copy_state(d, s):
    """Copy game state ``s`` into ``d`` (allocated alike, once per block)."""
    _cp1(d.g, s.g)
    _cp1(d.deck, s.deck)
    _cp1(d.disc, s.disc)
    _cp1(d.disc_by, s.disc_by)
    _cp2(d.packs, s.packs)
    _cp2(d.drafted, s.drafted)
    _cp2(d.hand, s.hand)
    _cp2(d.pi, s.pi)
    _cp2(d.parts, s.parts)
    _cp3(d.sp, s.sp)
    _cp2(d.blevel, s.blevel)
    _cp3(d.blog, s.blog)
    _cp3(d.log, s.log)
    _cp1(d.card_log, s.card_log)
    _cp1(d.strength, s.strength)
    _cp2(d.dvf, s.dvf)
    _cp2(d.dvs, s.dvs)
    _cp2(d.bc, s.bc)
    for r in range(s.g[S.G_PENDING_N]):
        for k in range(s.pend.shape[1]):
            d.pend[r, k] = s.pend[r, k]
    _cp1(d.rng, s.rng)


@hot
def copy_lstate(d, s):
    """Copy a Legends state ``s`` into ``d`` (the fields that outlive a decision)."""
    _cp3(d.zone, s.zone)
    _cp1(d.zn, s.zn)
    _cp3(d.sx, s.sx)
    _cp3(d.llog, s.llog)
    _cp2(d.lparts, s.lparts)
    _cp1(d.art_gold, s.art_gold)
    _cp1(d.inset, s.inset)
    _cp1(d.lg, s.lg)
    _cp2(d.copies, s.copies)
    _cp1(d.zx, s.zx)


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
    s.g[S.G_ANSWER_IDX] = learned_choice(tb, lx, weights, models, s, ls, ml, x, n_players)
    s.g[S.G_ANSWER_SEAT] = s.g[S.G_ASK_SEAT]


@hot_outline
def _search(tb, lx, weights, models, s, ls, w, wl, c, cl, ms, ml, x, n_players, seed, game_id):
    """The mc decision the game in ``s`` stopped at (``G_ASK_*``); returns the option
    chosen (the module docstring). Every random number comes from the search stream of
    (seed, game, seat, decision number), none from the game's. ``models`` (the packed
    models), ``ml``, ``x``: a learned playout's models and scratch."""
    p = np.int64(s.g[S.G_ASK_SEAT])
    decision = s.g[S.G_ASK_DEC]
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
        if decision == S.D_DRAFT:
            rewind_draft(tb, w, n_players, p)
        determinize(tb, lx, w, wl, ms, n_players, p)
        playout_state = rng_next(w.rng)
        stream = w.rng[0]
        for q in range(n_players):
            w.pi[q, S.I_POLICY] = playout
            w.pi[q, S.I_MODEL] = s.pi[p, S.I_MODEL]
            for u in range(w.dvs.shape[1]):  # draft values of the policies before
                w.dvs[q, u] = 0
        for j in range(m):
            copy_state(c, w)
            if lx is not None:
                copy_lstate(cl, wl)
            c.rng[0] = playout_state
            c.g[S.G_FORCE_SEAT] = p
            c.g[S.G_FORCE_IDX] = ms.rank[j]
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
        p = s.g[S.G_ASK_SEAT]
        if s.pi[p, S.I_POLICY] == S.P_LEARNED:
            _answer_learned(tb, lx, weights, models, s, ls, ml, x, n_players)
            continue
        i = _search(
            tb, lx, weights, models, s, ls, w, wl, c, cl, ms, ml, x, n_players, seed, game_id
        )
        record_search(tb, lx, weights, s, ls, ms, ml, x, n_players, OUTCOME_UNIT, rec, u)
        s.g[S.G_FORCE_SEAT] = p
        s.g[S.G_FORCE_IDX] = i
    return s.g[S.G_VIOL]


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
            s.pi[p, S.I_POLICY] = table[slot, 0]
            s.pi[p, S.I_MODEL] = table[slot, 4]
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
        lo = b * n_games // n_blocks
        hi = (b + 1) * n_games // n_blocks
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
