"""§2.2 Deployment, the placements: open spots, the options of a step (``moves``),
applying one (``_apply_move``), paying the units (``_pay``) and the keep. §N:
``docs/rules/paper-tales.md``.
"""

from __future__ import annotations

from talesim.simcore.jit import hot

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..evaluate.end import death_rewards
from ..evaluate.facts import base_facts, production
from ..layout import (  # passed as call arguments (see layout.py)
    F_REPLACED,
    F_UNPAID,
    LP_AGING,
    M_MOVE,
    M_PLACE,
    M_REMOVE,
    M_STOP,
)
from .state import _kill, _load, _score, _to_discard_by


@hot
def _opens_extra(tb, s, p):
    """``Rules.opens_extra_spot``: a building face of seat ``p`` opens the 5th spot."""
    if tb.rules[L.R_EXTRA_FRONT] <= 0:
        return 0
    bt = tb.bt
    for b in range(bt.shape[0]):
        for k in range(s.blevel[p, b]):
            if bt[b, k, L.B_EXTRA_SPOT]:
                return 1
    return 0


@hot
def _spot_open(tb, s, p, spot):
    rules = tb.rules
    if spot < L.MAX_FRONT:
        if spot == L.EXTRA_SPOT:
            return s.pi[p, L.I_EXTRA] == 1
        return spot < rules[L.R_FRONT_SPOTS]
    return spot - L.BACK0 < rules[L.R_BACK_SPOTS]


@hot
def _first_empty(tb, s, p, back):
    """First empty open spot of a row (Front: 0, 1, then the 5th spot 2), -1 if none."""
    rules = tb.rules
    if back:
        for spot in range(L.BACK0, L.BACK0 + rules[L.R_BACK_SPOTS]):
            if s.sp[p, spot, L.S_CARD] < 0:
                return spot
        return -1
    for spot in range(rules[L.R_FRONT_SPOTS]):
        if s.sp[p, spot, L.S_CARD] < 0:
            return spot
    if s.pi[p, L.I_EXTRA] and s.sp[p, L.EXTRA_SPOT, L.S_CARD] < 0:
        return L.EXTRA_SPOT
    return -1


@hot
def _add_opt(s, n, kind, a, b):
    s.opt[n, 0] = kind
    s.opt[n, 1] = a
    s.opt[n, 2] = b
    return n + 1


@hot
def _add_empty_spots(s, n, i, front, back):
    """After ``n`` options, hand card ``i`` placed on the first empty spot of the Front row
    (``front``) and of the Back row (``back``; -1: the row is full); the new count."""
    if front >= 0:
        n = _add_opt(s, n, M_PLACE, i, front)
    if back >= 0:
        n = _add_opt(s, n, M_PLACE, i, back)
    return n


@hot
def moves(tb, s, p):
    """``Game.moves``: the legal deployment steps into ``s.opt``, in the documented order
    (STOP, PLACE, MOVE, REMOVE); returns their count."""
    ut, deck = tb.ut, tb.deck
    front = _first_empty(tb, s, p, False)
    back = _first_empty(tb, s, p, True)
    budget = s.pi[p, L.I_GOLD]
    for spot in range(L.MAX_SPOTS):
        if s.sp[p, spot, L.S_CARD] >= 0 and s.sp[p, spot, L.S_FRESH]:
            budget -= ut[s.sp[p, spot, L.S_UNIT], L.U_COST]
    n = _add_opt(s, 0, M_STOP, -1, -1)
    for i in range(s.pi[p, L.I_HAND_N]):
        if ut[deck[s.hand[p, i]], L.U_COST] > budget:
            continue
        n = _add_empty_spots(s, n, i, front, back)
        for spot in range(L.MAX_SPOTS):
            if _is_old(tb, s, p, spot):
                n = _add_opt(s, n, M_PLACE, i, spot)
    n = _add_moves(tb, s, p, n)
    for spot in range(L.MAX_SPOTS):
        if _is_old(tb, s, p, spot):
            n = _add_opt(s, n, M_REMOVE, spot, -1)
    return n


@hot
def _is_old(tb, s, p, spot):
    """An open spot of seat ``p`` holding a unit in play from an earlier turn."""
    return (
        s.sp[p, spot, L.S_CARD] >= 0 and not s.sp[p, spot, L.S_FRESH] and _spot_open(tb, s, p, spot)
    )


@hot
def _add_moves(tb, s, p, n):
    """``Game.moves``' MOVE options after ``n`` others: each old unit not moved yet this
    phase, spot order, to each empty open spot, spot order (either row)."""
    for spot in range(L.MAX_SPOTS):
        if _is_old(tb, s, p, spot) and not s.sp[p, spot, L.S_MOVED]:
            for to in range(L.MAX_SPOTS):
                if s.sp[p, to, L.S_CARD] < 0 and _spot_open(tb, s, p, to):
                    n = _add_opt(s, n, M_MOVE, spot, to)
    return n


@hot
def death_abilities(tb, s, p, mask_spots):
    """``Game.death_abilities``: the death abilities of seat ``p``'s units on the spots of
    bitmask ``mask_spots``: LP booked as ``aging``, gold gained at once. (LP, gold)."""
    ut, bt, ab = tb.ut, tb.bt, tb.ab
    n = _load(s, p)
    mask = 0
    for i in range(n):
        if (mask_spots >> s.pc[i, L.PC_SPOT]) & 1:
            mask |= 1 << i
    wood, food, crystal = production(ut, bt, s.pc, n, s.bl)
    age_all, n_level2 = base_facts(bt, s.pc, n, s.bl)
    lp, gold = death_rewards(ut, ab, s.pc, n, mask, wood, food, crystal, age_all, n_level2)
    _score(s, p, LP_AGING, lp)
    s.pi[p, L.I_GOLD] += gold
    return lp, gold


@hot
def _apply_move(tb, s, p, kind, a, b):
    """``Game.apply_move``."""
    if kind == L.M_MOVE:
        for c in range(L.N_SP):
            s.sp[p, b, c] = s.sp[p, a, c]
            s.sp[p, a, c] = -1
        s.sp[p, b, L.S_MOVED] = 1
        return
    if kind == L.M_REMOVE:  # ``Game.discard_old``
        if tb.rules[L.R_DISCARD_IS_DEATH]:
            death_abilities(tb, s, p, 1 << a)
        _kill(s, p, a, F_REPLACED)
        return
    card = s.hand[p, a]
    m = s.pi[p, L.I_HAND_N]
    for i in range(a, m - 1):
        s.hand[p, i] = s.hand[p, i + 1]
    s.pi[p, L.I_HAND_N] = m - 1
    if s.sp[p, b, L.S_CARD] >= 0:
        if tb.rules[L.R_DISCARD_IS_DEATH]:
            death_abilities(tb, s, p, 1 << b)
        _kill(s, p, b, F_REPLACED)
    s.sp[p, b, L.S_CARD] = card
    s.sp[p, b, L.S_UNIT] = tb.deck[card]
    s.sp[p, b, L.S_AGE] = 0
    s.sp[p, b, L.S_FRESH] = 1
    s.sp[p, b, L.S_RESOLVED] = 0
    s.sp[p, b, L.S_MOVED] = 0


@hot
def _pay(tb, s, p, turn):
    """``Game.pay``: negative costs first, then spot order; unpaid units are discarded."""
    ut = tb.ut
    for negative in (True, False):
        for spot in range(L.MAX_SPOTS):
            if s.sp[p, spot, L.S_CARD] < 0 or not s.sp[p, spot, L.S_FRESH]:
                continue
            cost = ut[s.sp[p, spot, L.S_UNIT], L.U_COST]
            if (cost < 0) != negative:
                continue
            if cost > s.pi[p, L.I_GOLD]:
                _kill(s, p, spot, F_UNPAID)
                continue
            s.pi[p, L.I_GOLD] -= cost
            row = s.log[p, s.card_log[s.sp[p, spot, L.S_CARD]]]
            row[L.L_DEPLOYED] = 1
            row[L.L_TURN_DEPLOYED] = turn
            row[L.L_FATE] = L.F_IN_PLAY
            row[L.L_ROW] = L.ROW_FRONT if spot < L.MAX_FRONT else L.ROW_BACK


@hot
def _put(s, p, spot, card, u, age, resolved):
    """A new unit card on ``spot`` (fresh, not moved)."""
    s.sp[p, spot, L.S_CARD] = card
    s.sp[p, spot, L.S_UNIT] = u
    s.sp[p, spot, L.S_AGE] = age
    s.sp[p, spot, L.S_FRESH] = 1
    s.sp[p, spot, L.S_RESOLVED] = resolved
    s.sp[p, spot, L.S_MOVED] = 0


@hot
def _replaces(ut, ab, u):
    """``Game.replaces``: unit ``u`` replaces its own card when deployed (Shapeshifter)."""
    for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
        if ab[j, L.A_ON_DEPLOY] and ab[j, L.A_KIND] == L.K_SHAPESHIFT:
            return True
    return False


@hot
def _keep(s, p, k):
    """``Game.keep_and_discard`` after the choice ``k`` (0: nothing, i: ``hand[i - 1]``):
    the rest of the hand goes to the discard pile, hand order."""
    if k:
        card = s.hand[p, k - 1]
        for i in range(k - 1, s.pi[p, L.I_HAND_N] - 1):
            s.hand[p, i] = s.hand[p, i + 1]
        s.pi[p, L.I_HAND_N] -= 1
        s.pi[p, L.I_KEPT] = card
        s.log[p, s.card_log[card], L.L_FATE] = L.F_KEPT
    for i in range(s.pi[p, L.I_HAND_N]):
        card = s.hand[p, i]
        _to_discard_by(s, card, p)
        s.log[p, s.card_log[card], L.L_FATE] = L.F_NOT_DEPLOYED
    s.pi[p, L.I_HAND_N] = 0
