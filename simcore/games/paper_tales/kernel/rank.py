"""A searched decision's candidates (``reference.search.candidates``): the distinct options
of a seat's draft pick, deployment step or construction choice (``distinct_options``),
their values under the seat's weight row (``option_values``) and the best ``top`` of them
(``rank``). The ``mc`` search (``search.py``) plays out the ranked options; the ``learned``
player (``learned.py``) scores them, valuing each under the feature rows too.
"""

from __future__ import annotations

import numpy as np

from simcore.jit import hot, hot_outline

from .. import schema as S  # noqa: N812 (the schema, read as S.NAME)
from ..schema import LV_FULL, NONE  # passed as call arguments (see schema.py)
from ..tables import ix
from .build import build_options
from .decide import _l_step_value
from .payment import l_moves
from .place import moves
from .sketch import (
    _build_value,
    _card_value_from,
    _kept_base,
    _l_base_pass,
    _l_card_value,
    _lsketch,
    _lv,
    _repeated_units,
    _sketch_base,
    _step_value,
    _upgrade_pending,
)


@hot
def distinct_options(tb, lx, s, ls, p, decision, idx):
    """Seat ``p``'s distinct options at ``decision`` into ``idx`` (their indices, in option
    order); returns how many. Draft: one card of each unit of the pack (the first);
    construction: 0 = nothing, then ``s.bopt`` (filled here); deployment: the options of
    ``s.opt`` (filled here) but a placement of a hand card whose unit an earlier hand card
    has."""
    k = 0
    if decision == S.D_DRAFT:
        for i in range(s.pi[p, S.I_PACK_N]):
            u = tb.deck[ix(s.packs[p, i])]
            twin = False  # an earlier card of its unit: the same pick
            for j in range(i):
                if tb.deck[ix(s.packs[p, j])] == u:
                    twin = True
            if not twin:
                idx[k] = i
                k += 1
    elif decision == S.D_BUILD:
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
            if (kind == S.M_PLACE or kind == S.M_PLACE_ARTIFACT) and (again >> a) & 1:
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
    if decision == S.D_DRAFT:
        t = ix(s.pi[p, S.I_TWIN])
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
    elif decision == S.D_BUILD:
        if lx is None:
            n0, _ = _sketch_base(tb, s, p)
            raised = not _upgrade_pending(tb.ut, s.pc, n0)
        for j in range(k):
            i = idx[j]
            if lx is None:
                val[j] = _build_value(tb, weights, s, p, n0, i, n_players, raised)
            else:
                n, na = _lsketch(s, ls, p)
                gold = s.pi[p, S.I_GOLD]
                if i:
                    s.bl[s.bopt[i - 1, 0]] = s.bopt[i - 1, 1]
                    gold -= s.bopt[i - 1, 3]
                val[j] = _lv(tb, lx, weights, s, ls, p, n, na, gold, 0, n_players, LV_FULL)
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
