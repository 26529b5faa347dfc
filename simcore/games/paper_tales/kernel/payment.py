"""Legends placement and payment (``docs/rules/paper-tales-legends.md`` §2.4): the artifact
zone, the payment in the canonical order (``_pay_order``), the Legends options of a step
(``l_moves``) and applying one (``_l_apply_move``).
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot, hot_outline

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..evaluate.end import death_rewards
from ..layout import (  # passed as call arguments (see layout.py)
    F_REPLACED,
    F_UNPAID,
    HD_PLACED,
    LP_AGING,
    M_PLACE,
    M_PLACE_ARTIFACT,
    M_REMOVE,
    M_STOP,
    NONE,
    ROW_ZONE,
)
from .place import (
    _add_empty_spots,
    _add_moves,
    _add_opt,
    _apply_move,
    _first_empty,
    _is_old,
)
from .state import _facts, _kill, _score, _to_discard


@hot
def _art_modifier_now(tb, s, ls, p, replace):
    """``Game.art_modifier_now``: Σ ``artifact_cost_modifier`` of the seat's old units (not
    the one on spot ``replace``, leaving) and building faces."""
    ut, bt, ab = tb.ut, tb.bt, tb.ab
    total = 0
    for spot in range(L.MAX_SPOTS):
        if spot == replace or s.sp[p, spot, L.S_CARD] < 0 or s.sp[p, spot, L.S_FRESH]:
            continue
        total += _k5(ut, ab, s.sp[p, spot, L.S_UNIT])
    for b in range(bt.shape[0]):
        if not ls.inset[b]:
            continue
        for k in range(s.blevel[p, b]):
            if not bt[b, k, L.KB_MASK] & L.M_K5:
                continue
            for j in range(bt[b, k, L.B_AB0], bt[b, k, L.B_AB0] + bt[b, k, L.B_NAB]):
                if ab[j, L.A_KIND] == L.K_ART_COST_MODIFIER:
                    total += ab[j, L.A_AMOUNT]
    return total


@hot
def _k5(ut, ab, u):
    """Σ ``artifact_cost_modifier`` amounts of unit ``u``."""
    total = 0
    if not _has_k5(ut, ab, u):
        return total
    for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
        if ab[j, L.A_KIND] == L.K_ART_COST_MODIFIER:
            total += ab[j, L.A_AMOUNT]
    return total


@hot
def _has_k5(ut, ab, u):
    """Unit ``u`` has an ``artifact_cost_modifier`` (its ``KU_MASK`` bit)."""
    return ut[u, L.KU_MASK] & L.M_K5 != 0


@hot
def _group(ut, ab, u):
    """Payment group of a unit: 0 negative cost, 1 with an artifact discount, 2 others."""
    if ut[u, L.U_COST] < 0:
        return 0
    return 1 if _has_k5(ut, ab, u) else 2


@hot_outline
def _pay_order(tb, lx, s, ls, p, extra, replace, commit, turn):
    """``Game.payment_order`` of the cards placed this phase, plus hand card ``extra``
    (-1: none) as if placed, the old unit on spot ``replace`` (-1: none) gone: (ok, gold
    taken, what ``extra`` costs at its turn or ``NO_COST``); ok False if some card could
    not be paid (callers pass int64 values, ``NONE`` for -1: one compiled copy for the
    policies' calls, one for the payment). ``commit``: pay for real
    (``Game.pay_legends``: unpaid cards discarded, logs, the zone's unpaid cards dropped)."""
    ut, ab, deck = tb.ut, tb.ab, tb.deck
    lr = lx.lrules
    U = ut.shape[0]
    gold = s.pi[p, L.I_GOLD]
    modifier = _art_modifier_now(tb, s, ls, p, replace)
    in_zone = 0
    for i in range(ls.zn[p]):
        in_zone += ls.zone[p, i, L.Z_PAID]
    ok = True
    total = 0
    xcost = L.NO_COST
    extra_unit = extra >= 0 and deck[extra] < U
    for group in range(3):
        for spot in range(L.MAX_SPOTS + 1):
            if spot < L.MAX_SPOTS:
                if spot == replace or s.sp[p, spot, L.S_CARD] < 0 or not s.sp[p, spot, L.S_FRESH]:
                    continue
                card = s.sp[p, spot, L.S_CARD]
            elif extra_unit:
                card = extra
            else:
                continue
            u = deck[card]
            if _group(ut, ab, u) != group:
                continue
            cost = ut[u, L.U_COST]
            if cost > gold:
                ok = False
                if commit:
                    _kill(s, p, spot, F_UNPAID)
                continue
            gold -= cost
            total += cost
            if spot == L.MAX_SPOTS:
                xcost = cost
            if commit:
                row = L.ROW_FRONT if spot < L.MAX_FRONT else L.ROW_BACK
                _log_paid(s, ls, p, card, turn, cost, row, HD_PLACED)
            if lr[L.L_DISCOUNT_SAME_PHASE]:
                modifier += _k5(ut, ab, u)
    kept = 0
    for i in range(ls.zn[p] + 1):
        if i < ls.zn[p]:
            if ls.zone[p, i, L.Z_PAID]:
                if commit:
                    _zone_copy(ls, p, i, kept)
                kept += 1
                continue
            card = ls.zone[p, i, L.Z_CARD]
        elif extra >= 0 and not extra_unit:
            card = extra
        else:
            continue
        cost = max(
            lr[L.L_ART_COST_FLOOR],
            lr[L.L_ART_COST_BASE] + lr[L.L_ART_COST_STEP] * in_zone + modifier,
        )
        if cost > gold:
            ok = False
            if commit:
                _to_discard(s, card)
                s.log[p, s.card_log[card], L.L_FATE] = L.F_UNPAID
            continue
        gold -= cost
        total += cost
        in_zone += 1
        if i == ls.zn[p]:
            xcost = cost
        if commit:
            _log_paid(s, ls, p, card, turn, cost, ROW_ZONE, HD_PLACED)
            ls.art_gold[p] += cost
            ls.zone[p, i, L.Z_PAID] = 1
            _zone_copy(ls, p, i, kept)
            kept += 1
    if commit:
        ls.zn[p] = kept
        s.pi[p, L.I_GOLD] = gold
    return ok, total, xcost


@hot
def _zone_copy(ls, p, i, k):
    if i != k:
        for c in range(L.N_Z):
            ls.zone[p, k, c] = ls.zone[p, i, c]


@hot
def _log_paid(s, ls, p, card, turn, cost, row, how):
    """The log of a card deployed this turn for ``cost`` (``how``: HD_*)."""
    k = s.card_log[card]
    r = s.log[p, k]
    r[L.L_DEPLOYED] = 1
    r[L.L_TURN_DEPLOYED] = turn
    r[L.L_FATE] = L.F_IN_ZONE if row == L.ROW_ZONE else L.F_IN_PLAY
    r[L.L_ROW] = row
    ls.llog[p, k, L.LL_COST] = cost
    ls.llog[p, k, L.LL_HOW] = how


@hot
def l_moves(tb, lx, s, ls, p):
    """``Game.moves`` (Legends): STOP, each hand card's PLACE options when everything placed
    stays payable with it (``places_legends``), then the MOVE options, then the REMOVE
    options (an old unit whose leaving keeps everything placed payable); their count. The
    gold each hand card's payment takes goes to ``ls.hpaid`` (``deploy_l`` reads it)."""
    ut, deck = tb.ut, tb.deck
    U = ut.shape[0]
    front = _first_empty(tb, s, p, False)
    back = _first_empty(tb, s, p, True)
    n = _add_opt(s, 0, M_STOP, -1, -1)
    for i in range(s.pi[p, L.I_HAND_N]):
        card = s.hand[p, i]
        ok, paid, _ = _pay_order(tb, lx, s, ls, p, np.int64(card), NONE, False, NONE)
        ls.hpaid[i] = paid
        if deck[card] >= U:
            if ok:
                n = _add_opt(s, n, M_PLACE_ARTIFACT, i, -1)
            continue
        if ok:
            n = _add_empty_spots(s, n, i, front, back)
        for spot in range(L.MAX_SPOTS):
            if _is_old(tb, s, p, spot) and _replace_ok(tb, lx, s, ls, p, card, spot, ok):
                n = _add_opt(s, n, M_PLACE, i, spot)
    n = _add_moves(tb, s, p, n)
    for spot in range(L.MAX_SPOTS):
        if _is_old(tb, s, p, spot) and _replace_ok(tb, lx, s, ls, p, NONE, spot, True):
            n = _add_opt(s, n, M_REMOVE, spot, -1)
    return n


@hot
def _replace_ok(tb, lx, s, ls, p, card, spot, ok):
    """``_pay_order(card, spot)[0]`` given ``ok`` = ``_pay_order(card, -1)[0]`` (``card``
    ``NONE``: a removal; what is placed is payable, so ``ok`` = True): replacing or removing
    an old unit changes the payment only through its ``artifact_cost_modifier`` (old units
    are not paid again), so without one the answer is ``ok``."""
    if not _has_k5(tb.ut, tb.ab, s.sp[p, spot, L.S_UNIT]):
        return ok
    return _pay_order(tb, lx, s, ls, p, np.int64(card), np.int64(spot), False, NONE)[0]


@hot
def _l_apply_move(tb, lx, s, ls, p, kind, a, b):
    """``Game.apply_move`` (Legends): an artifact goes face down into the zone; a replaced
    unit's death abilities (``deploy_discard = death``) see the artifacts."""
    if kind == L.M_PLACE_ARTIFACT:
        card = s.hand[p, a]
        m = s.pi[p, L.I_HAND_N]
        for i in range(a, m - 1):
            s.hand[p, i] = s.hand[p, i + 1]
        s.pi[p, L.I_HAND_N] = m - 1
        _zone_add(tb, ls, p, card, 0, -1)
        return
    if kind == L.M_REMOVE:
        if tb.rules[L.R_DISCARD_IS_DEATH]:
            _l_death_abilities(tb, lx, s, ls, p, 1 << a)
        _kill(s, p, a, F_REPLACED)
        return
    if kind == L.M_PLACE and s.sp[p, b, L.S_CARD] >= 0 and tb.rules[L.R_DISCARD_IS_DEATH]:
        _l_death_abilities(tb, lx, s, ls, p, 1 << b)
        _kill(s, p, b, F_REPLACED)
    _apply_move(tb, s, p, kind, a, b)


@hot
def _zone_add(tb, ls, p, card, paid, entered):
    k = ls.zn[p]
    ls.zone[p, k, L.Z_CARD] = card
    ls.zone[p, k, L.Z_X] = tb.deck[card] - tb.ut.shape[0]
    ls.zone[p, k, L.Z_FRESH] = 1
    ls.zone[p, k, L.Z_PAID] = paid
    ls.zone[p, k, L.Z_ENTERED] = entered
    ls.zone[p, k, L.Z_DONE] = -1
    ls.zn[p] = k + 1


@hot_outline
def _l_death_abilities(tb, lx, s, ls, p, mask_spots):
    """``Game.death_abilities`` (the production counts the artifacts)."""
    n, _nz, wood, food, crystal, facts = _facts(tb, lx, s, ls, p)
    mask = 0
    for i in range(n):
        if (mask_spots >> s.pc[i, L.PC_SPOT]) & 1:
            mask |= 1 << i
    lp, gold = death_rewards(tb.ut, tb.ab, s.pc, n, mask, wood, food, crystal, facts[0], facts[1])
    _score(s, p, LP_AGING, lp)
    s.pi[p, L.I_GOLD] += gold
