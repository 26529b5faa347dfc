"""The ``mc`` search policy's parts on the kernel's state (``kernel/search.py`` drives them):
a searched decision's candidates (``reference.search.candidates``: the distinct options of
a seat's draft pick, deployment step or construction choice, ``distinct_options``; their
values under the seat's weight row, ``option_values``; the best ``top`` of them, ``rank``),
the draft step rewound, the hidden cards dealt anew (``determinize``), the outcome and the
state copies. The ``learned`` player (``learned.py``) scores the ranked options, valuing
each under the feature rows too.
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot, hot_outline
from talesim.simcore.rng import rng_shuffle

from . import layout as L  # noqa: N812 (the schema, read as L.NAME)
from .kernel.brain import _l_step_value
from .kernel.construction import build_options
from .kernel.payment import l_moves
from .kernel.place import moves
from .kernel.sketch import (
    _build_value,
    _card_value_from,
    _kept_base,
    _l_base_pass,
    _l_build_value,
    _l_card_value,
    _repeated_units,
    _sketch_base,
    _step_value,
    _upgrade_pending,
)
from .layout import NONE, ix  # passed as call arguments (see layout.py)

#: A playout's outcome in whole units (``reference.search.OUTCOME_UNIT`` etc.).
OUTCOME_UNIT = 60_000
MARGIN_WEIGHT = 60
MARGIN_CLIP = 50

#: Candidates of one decision: a deployment step's options bound them all (a pack holds
#: at most ``MAX_DEAL``, construction 1 + ``MAX_BUILD_OPTIONS``).
MAX_CAND = L.MAX_DEPLOY_OPTIONS

# where a hidden card lies (``Search.where``; ``reference.search.determinize``'s slots)
W_PACK, W_DRAFTED, W_HAND, W_KEPT, W_SPOT, W_ZONE, W_DECK, W_DISC = range(8)


@hot
def distinct_options(tb, lx, s, ls, p, decision, idx):
    """Seat ``p``'s distinct options at ``decision`` into ``idx`` (their indices, in option
    order); returns how many. Draft: one card of each unit of the pack (the first);
    construction: 0 = nothing, then ``s.bopt`` (filled here); deployment: the options of
    ``s.opt`` (filled here) but a placement of a hand card whose unit an earlier hand card
    has."""
    k = 0
    if decision == L.D_DRAFT:
        for i in range(s.pi[p, L.I_PACK_N]):
            u = tb.deck[ix(s.packs[p, i])]
            twin = False  # an earlier card of its unit: the same pick
            for j in range(i):
                if tb.deck[ix(s.packs[p, j])] == u:
                    twin = True
            if not twin:
                idx[k] = i
                k += 1
    elif decision == L.D_BUILD:
        for i in range(build_options(tb, lx, s, ls, p) + 1):
            idx[k] = i
            k += 1
    else:
        if lx is None:  # noqa: SIM108 (statements: numba prunes the dead branch)
            n_opt = moves(tb, s, p)
        else:
            n_opt = l_moves(tb, lx, s, ls, p)
        again = _repeated_units(tb, s, p)
        for i in range(n_opt):
            kind, a = s.opt[ix(i), 0], s.opt[ix(i), 1]
            if (kind == L.M_PLACE or kind == L.M_PLACE_ARTIFACT) and (again >> a) & 1:
                continue
            idx[k] = i
            k += 1
    return k


@hot_outline
def option_values(tb, lx, weights, s, ls, p, decision, idx, k, val, cache, n_players):
    """The value of each option ``idx[:k]`` of seat ``p``'s ``decision`` under its weight
    row (``s.pi[p, I_POLICY]``) into ``val[:k]``, as greedy values it: draft, the card's
    ``card_value`` (``cache`` 1: the seat's draft values of this phase, ``s.dvf``, read and
    filled; 0: neither); deployment, the kingdom after the step (``distinct_options`` filled
    ``s.opt``); construction, the kingdom with the building raised and its price paid.
    One compiled copy for the ranking and the learned player's feature rows (an int64
    ``cache``, not a literal: one specialisation)."""
    if decision == L.D_DRAFT:
        t = ix(s.pi[p, L.I_TWIN])
        n0 = -1
        others = 0
        for j in range(k):
            u = tb.deck[ix(s.packs[p, idx[j]])]
            if cache != 0 and s.dvs[t, ix(u)] != 0:
                val[j] = s.dvf[t, ix(u)]
                continue
            if lx is None:
                if n0 < 0:
                    n0, others = _sketch_base(tb, s, p)
                v = _card_value_from(tb, weights, s, p, u, n0, others, n_players)
            else:
                if n0 < 0:  # here ``others`` holds the sketch's artifacts
                    n0, others = _l_base_pass(tb, lx, weights, s, ls, p, n_players)
                v = _l_card_value(tb, lx, weights, s, ls, p, u, n0, others, n_players)
            if cache != 0:
                s.dvf[t, ix(u)] = v
                s.dvs[t, ix(u)] = 1
            val[j] = v
    elif decision == L.D_BUILD:
        if lx is None:
            n0, _ = _sketch_base(tb, s, p)
            raised = not _upgrade_pending(tb.ut, s.pc, n0)
        for j in range(k):
            i = idx[j]
            if lx is None:
                val[j] = _build_value(tb, weights, s, p, n0, i, n_players, raised)
            else:
                val[j] = _l_build_value(tb, lx, weights, s, ls, p, i, n_players)
    else:
        if lx is None:
            n0, others = _kept_base(tb, s, p, NONE, np.int64(0))
        else:
            n0, others = _l_base_pass(tb, lx, weights, s, ls, p, n_players)
        paid_none = -1
        for j in range(k):
            i = idx[j]
            kind, a, b = s.opt[ix(i), 0], s.opt[ix(i), 1], s.opt[ix(i), 2]
            if lx is None:
                v = _step_value(tb, weights, s, p, n0, others, kind, a, b, n_players)
            else:
                v, paid_none = _l_step_value(
                    tb, lx, weights, s, ls, p, n0, others, kind, a, b, n_players, paid_none
                )
            val[j] = v


@hot_outline
def rank(tb, lx, weights, s, ls, ms, p, decision, top, n_players):
    """Fill ``ms.rank`` with the ``top`` best distinct options of seat ``p``'s ``decision``
    by greedy's value (``ms.rval``: their values), best first, ties in option order
    (``reference.search.candidates``; ``ms.n_opt[0]``: how many distinct options there
    are). Returns how many are ranked."""
    k = distinct_options(tb, lx, s, ls, p, decision, ms.idx)
    option_values(tb, lx, weights, s, ls, p, decision, ms.idx, k, ms.val, np.int64(1), n_players)
    ms.n_opt[0] = k
    m = min(top, k)
    for r in range(m):  # the first best of those left, one after the other
        j = 0
        for i in range(1, k - r):
            if ms.val[i] > ms.val[j]:
                j = i
        ms.rank[r] = ms.idx[j]
        ms.rval[r] = ms.val[j]
        for i in range(j, k - r - 1):
            ms.idx[i] = ms.idx[i + 1]
            ms.val[i] = ms.val[i + 1]
    return m


# --- a world: the draft step rewound, the hidden cards dealt anew -------------------------


@hot
def rewind_draft(tb, s, n_players, p):
    """``reference.search.rewind_draft``: the picks (and 2-player discards) of the seats
    before ``p`` in this draft step taken back, each card to the end of its pack (the
    discards from the top of the discard pile, the last seat's first); the position moves
    to the step's first seat."""
    discards = tb.rules[L.R2_DISCARD] if n_players == 2 else 0
    m = s.pi[p, L.I_PACK_N]  # every pack held m cards when the step began
    thrown = min(discards, m - 1)
    for q in range(p - 1, -1, -1):
        for _ in range(thrown):
            s.g[L.G_DISC_N] -= 1
            s.packs[q, s.pi[q, L.I_PACK_N]] = s.disc[s.g[L.G_DISC_N]]
            s.pi[q, L.I_PACK_N] += 1
        s.pi[q, L.I_DRAFT_N] -= 1
        s.pi[q, L.I_LOG_N] -= 1
        s.packs[q, s.pi[q, L.I_PACK_N]] = s.drafted[q, s.pi[q, L.I_DRAFT_N]]
        s.pi[q, L.I_PACK_N] += 1
    s.g[L.G_SEAT] = 0


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
    drafting = s.g[L.G_PHASE] == 0 and s.g[L.G_BEGUN] != 0
    deploying = s.g[L.G_PHASE] == 1 and s.g[L.G_BEGUN] != 0
    known = -1
    if drafting and s.g[L.G_STEP] > 1:
        first = tb.rules[L.R_FIRST_DIRECTION]
        direction = first if s.g[L.G_TURN] % 2 == 1 else -first
        known = (p + direction) % n_players
    k = 0
    for q in range(n_players):
        if q == p:
            continue
        if drafting:
            if q == known:
                _sort(s.packs[q], s.pi[q, L.I_PACK_N])
            else:
                for i in range(s.pi[q, L.I_PACK_N]):
                    k = _slot(ms, k, W_PACK, q, i, s.packs[q, i])
            for i in range(s.pi[q, L.I_DRAFT_N]):
                k = _slot(ms, k, W_DRAFTED, q, i, s.drafted[q, i])
        for i in range(s.pi[q, L.I_HAND_N]):
            k = _slot(ms, k, W_HAND, q, i, s.hand[q, i])
        if s.pi[q, L.I_KEPT] >= 0:
            k = _slot(ms, k, W_KEPT, q, 0, s.pi[q, L.I_KEPT])
        if deploying:
            for spot in range(L.MAX_SPOTS):
                if s.sp[q, spot, L.S_CARD] >= 0 and s.sp[q, spot, L.S_FRESH]:
                    k = _slot(ms, k, W_SPOT, q, spot, s.sp[q, spot, L.S_CARD])
            if lx is not None:
                for i in range(ls.zn[q]):
                    if not ls.zone[q, i, L.Z_PAID]:
                        k = _slot(ms, k, W_ZONE, q, i, ls.zone[q, i, L.Z_CARD])
    for i in range(s.g[L.G_DECK_N]):
        k = _slot(ms, k, W_DECK, -1, i, s.deck[i])
    for i in range(s.g[L.G_DISC_N]):
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
        s.pi[q, L.I_KEPT] = card
    elif w == W_SPOT:
        s.sp[q, i, L.S_CARD] = card
        s.sp[q, i, L.S_UNIT] = tb.deck[card]
    elif w == W_ZONE:
        if ls is not None:  # a base game has no zone (numba prunes this)
            ls.zone[q, i, L.Z_CARD] = card
            ls.zone[q, i, L.Z_X] = tb.deck[card] - U
    elif w == W_DECK:
        s.deck[i] = card
    else:
        s.disc[i] = card
    r = ms.row[j]
    if r >= 0:
        s.card_log[card] = r
        s.log[q, r, L.L_CARD] = card
        s.log[q, r, L.L_UNIT] = tb.deck[card]


@hot
def outcome(s, n_players, p):
    """``reference.search.outcome``: seat ``p``'s share of the win (``I_WINNER``) plus
    ``MARGIN_WEIGHT`` x its LP margin over the best other seat, clipped."""
    k = 0
    other = -(1 << 30)
    for q in range(n_players):
        k += s.pi[q, L.I_WINNER]
        if q != p:
            other = max(other, s.pi[q, L.I_LP])
    win = OUTCOME_UNIT // k if s.pi[p, L.I_WINNER] else 0
    margin = max(-MARGIN_CLIP, min(MARGIN_CLIP, s.pi[p, L.I_LP] - other))
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
    for r in range(s.g[L.G_PENDING_N]):
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
