"""The policies' decisions (``reference.Brain``) of deployment, keep, tokens,
construction and healing, and the Legends ones (Jester, Titan, copies): one function per
decision for both variants (``lx`` / ``ls`` None in a base game, where numba prunes the
Legends branch). The draft is in ``recruitment.py``.
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot, hot_outline
from talesim.simcore.rng import rng_below

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..evaluate.facts import production
from ..evaluate.value import l_option_pass
from ..layout import (  # passed as call arguments (see layout.py)
    LV_FULL,
    LV_GIVEN,
    NONE,
    T_ENTER,
    ix,
)
from .payment import _has_k5, _pay_order
from .sketch import (
    _build_value,
    _card_value_from,
    _enter_jester,
    _enter_titan,
    _kept_base,
    _l_base_pass,
    _l_build_value,
    _l_card_value,
    _lsketch,
    _lv,
    _project_in_place,
    _remove_value,
    _repeated_units,
    _restore_lrow,
    _set_art,
    _sketch_base,
    _step_value,
    _upgrade_pending,
    _value,
    best_save,
    first_best,
    front_first_holds,
    unvalued_choice,
)
from .state import _lload, _load, _piece_at


@hot_outline
def jester_l(tb, lx, weights, s, ls, p, m, cost, n_players):
    """``Brain.jester``: 0 = none, i = the hand card ``s.hand[p, s.spots[i - 1]]`` into the
    zone (pending, its tier 1a done) for ``cost``."""
    if s.pi[p, L.I_POLICY] == L.P_RANDOM:
        return rng_below(s.rng, m + 1)
    U = tb.ut.shape[0]
    best = -np.inf
    chosen = 0
    for i in range(m + 1):
        n, na = _lsketch(s, ls, p)
        gold = s.pi[p, L.I_GOLD]
        if i:
            _set_art(ls, na, tb.deck[s.hand[p, s.spots[i - 1]]] - U, T_ENTER)
            na += 1
            gold -= cost
        v = _lv(tb, lx, weights, s, ls, p, n, na, gold, 0, n_players, LV_FULL)
        best, chosen = first_best(i, v, best, chosen)
    return chosen


@hot_outline
def titan_l(tb, lx, weights, s, ls, p, m, level, n_players):
    """``Brain.titan``: index in ``ls.bopt[:m]`` of the building built free (mandatory)."""
    k = unvalued_choice(s, p, m)
    if k >= 0:
        return k
    best = -np.inf
    chosen = 0
    for i in range(m):
        n, na = _lsketch(s, ls, p)
        s.bl[ls.bopt[i]] = level
        v = _lv(tb, lx, weights, s, ls, p, n, na, s.pi[p, L.I_GOLD], 0, n_players, LV_FULL)
        best, chosen = first_best(i, v, best, chosen)
    return chosen


@hot_outline
def copy_l(tb, lx, weights, s, ls, p, m, n_players):
    """``Brain.copy_target``: 0 = none, i = the unit on ``s.spots[i - 1]``. Value: the
    sketch projected; the target's tier-1a abilities as this policy would resolve them
    (``Brain.copy_enter``); the target's later on-deploy effects projected once more."""
    if s.pi[p, L.I_POLICY] == L.P_RANDOM:
        return rng_below(s.rng, m + 1)
    ut, ab = tb.ut, tb.ab
    best = -np.inf
    chosen = 0
    for i in range(m + 1):
        n, na = _lsketch(s, ls, p)
        gold, bonus = _project_in_place(tb, lx, s, ls, n, na)
        gold += s.pi[p, L.I_GOLD]
        if i:
            k = _piece_at(s, n, s.spots[i - 1])
            u = s.pc[k, L.PC_UNIT]
            for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
                if not ab[j, L.A_ON_DEPLOY]:
                    continue
                if ab[j, L.A_KIND] == L.K_BUILD_FREE:
                    _enter_titan(tb, lx, weights, s, ls, p, n, na, gold, bonus, j, n_players)
                elif (
                    ab[j, L.A_KIND] == L.K_DEPLOY_ARTIFACT
                    and ab[j, L.A_COST] <= gold
                    and _enter_jester(tb, lx, weights, s, ls, p, n, na, gold, bonus, j, n_players)
                ):
                    na += 1
                    gold -= ab[j, L.A_COST]
            s.pc[k, L.PC_PENDING] = 1
            ls.pdone[k] = L.T_COPY
            more_gold, more_lp = _project_in_place(tb, lx, s, ls, n, na)
            gold += more_gold
            bonus += more_lp
        v = _lv(tb, lx, weights, s, ls, p, n, na, gold, bonus, n_players, LV_FULL)
        best, chosen = first_best(i, v, best, chosen)
    return chosen


@hot
def deploy_choice(tb, lx, weights, s, ls, p, n_opt, n_players, n0, others):
    """``Brain.deploy_step``: (index of the deployment step taken, the seat's base sketch).
    Base game: the base sketch (``n0`` pieces, ``others``) is the one the seat's previous
    step left (``_commit_step``); ``n0`` < 0: none yet, sketched here (``_sketch_base``).
    Legends: each step's sketch (``Game.after_move_legends``) with the gold left after the
    canonical payment of everything placed (``_l_step_value``); the seat's sketch is loaded
    and its first pass made once per decision (``l_value``'s ``LV_BASE``)."""
    k = unvalued_choice(s, p, n_opt)
    if k >= 0:
        return k, n0, others
    if lx is None:
        n0, others = _kept_base(tb, s, p, n0, others)
        again = _repeated_units(tb, s, p)
    else:  # here ``others`` holds the sketch's artifacts
        n0, others = _l_base_pass(tb, lx, weights, s, ls, p, n_players)
        again = 0
    best = -np.inf
    chosen = 0
    front_of = -1  # hand card whose placement on the first empty Front spot dominates
    paid_none = -1  # Legends: the gold the payment of what is placed takes (computed once)
    for i in range(n_opt):
        kind, a, b = s.opt[ix(i), 0], s.opt[ix(i), 1], s.opt[ix(i), 2]
        if lx is None:
            if kind == L.M_PLACE and (again >> a) & 1:
                continue  # an earlier hand card of its unit was offered the same spots first
            empty = kind == L.M_PLACE and s.sp[p, b, L.S_CARD] < 0
            if empty and a == front_of and b >= L.MAX_FRONT:
                continue  # its Back-row twin: not worth more, listed after it (first best)
            v = _step_value(tb, weights, s, p, n0, others, kind, a, b, n_players)
        else:
            v, paid_none = _l_step_value(
                tb, lx, weights, s, ls, p, n0, others, kind, a, b, n_players, paid_none
            )
        best, chosen = first_best(i, v, best, chosen)
        if lx is None:
            front_of = -1
            if empty and b < L.MAX_FRONT:
                u = tb.deck[ix(s.hand[p, ix(a)])]
                if front_first_holds(tb, weights, s, p, u, n0 + 1, n_players):
                    front_of = a
    return chosen, n0, others


@hot
def keep_choice(tb, lx, weights, s, ls, p, n_players, n0, others):
    """``Brain.keep``: 0 = nothing, i = ``hand[i - 1]`` (nothing is valued -inf). Base game:
    from the base sketch the seat's deployment steps left (``deploy_choice``), a repeated
    unit valued once; Legends: every card valued from one base sketch and first pass
    (``_l_base_pass``)."""
    m = s.pi[p, L.I_HAND_N]
    k = unvalued_choice(s, p, m + 1)
    if k >= 0:
        return k
    if lx is None:
        n0, others = _kept_base(tb, s, p, n0, others)
        again = _repeated_units(tb, s, p)
    else:  # here ``others`` holds the sketch's artifacts
        n0, others = _l_base_pass(tb, lx, weights, s, ls, p, n_players)
        again = 0
    best = -np.inf
    chosen = 0
    for i in range(1, m + 1):
        if (again >> (i - 1)) & 1:
            continue  # valued as the earlier card of its unit; ties keep the first
        u = tb.deck[s.hand[p, i - 1]]
        if lx is None:
            v = _card_value_from(tb, weights, s, p, u, n0, others, n_players)
        else:
            v = _l_card_value(tb, lx, weights, s, ls, p, u, n0, others, n_players)
        if v > best:
            best = v
            chosen = i
    return chosen


@hot_outline  # rare (an ability adding tokens): one compiled copy, not one per call site
def age_target_choice(tb, lx, weights, s, ls, p, n_spots, amount, n_players):
    """``Brain.age_target``: index in ``s.spots[:n_spots]`` of the unit given ``amount``."""
    k = unvalued_choice(s, p, n_spots)
    if k >= 0:
        return k
    best = -np.inf
    chosen = 0
    for i in range(n_spots):
        if lx is None:
            n = _load(s, p)
        else:
            n, na = _lsketch(s, ls, p)
        for k in range(n):
            if s.pc[k, L.PC_SPOT] == s.spots[i]:
                s.pc[k, L.PC_AGE] += amount
        if lx is None:
            v = _value(tb, weights, s, p, n, s.pi[p, L.I_GOLD], n_players)
        else:
            v = _lv(tb, lx, weights, s, ls, p, n, na, s.pi[p, L.I_GOLD], 0, n_players, LV_FULL)
        best, chosen = first_best(i, v, best, chosen)
    return chosen


@hot
def build_choice(tb, lx, weights, s, ls, p, n_opt, n_players):
    """``Brain.build``: 0 = nothing, i = ``s.bopt[i - 1]``. Base game: every option valued
    from one base sketch (``_build_value``); Legends: each option's sketch in full."""
    k = unvalued_choice(s, p, n_opt + 1)
    if k >= 0:
        return k
    if lx is None:
        n0, _ = _sketch_base(tb, s, p)
        raised = not _upgrade_pending(tb.ut, s.pc, n0)
    best = -np.inf
    chosen = 0
    for i in range(n_opt + 1):
        if lx is None:
            v = _build_value(tb, weights, s, p, n0, i, n_players, raised)
        else:
            v = _l_build_value(tb, lx, weights, s, ls, p, i, n_players)
        best, chosen = first_best(i, v, best, chosen)
    return chosen


@hot
def heal_choice(tb, lx, weights, s, ls, p, n_save):
    """``Brain.heal``: 0 = nobody, i = the unit on ``s.spots[i - 1]``. A save is worth
    W_SAVE_STRENGTH x (printed strength x turns left) - its death LP - W_GOLD x its gold
    (Legends: the production counts the artifacts)."""
    if s.pi[p, L.I_POLICY] == L.P_RANDOM:
        return rng_below(s.rng, n_save + 1)
    if lx is None:
        n = _load(s, p)
        wood, food, crystal = production(tb.ut, tb.bt, s.pc, n, s.bl)
    else:
        n, nz = _lload(s, ls, p)
        wood, food, crystal = production(tb.ut, tb.bt, s.pc, n, s.bl, lx.xt, ls.zx, nz)
    return best_save(tb, weights, s, p, n_save, n, wood, food, crystal)


@hot
def _l_step_value(tb, lx, weights, s, ls, p, n0, na0, kind, a, b, n_players, paid_none):
    """``deploy_choice``'s value of one Legends deployment step (``Brain.deploy_step``):
    its sketch with the gold left after the canonical payment of everything placed (right
    after ``l_moves``, whose per-card payments it reuses). A step changes one row of the
    seat's first pass (a unit moved or placed; none for STOP or an artifact) and is valued
    from that pass with the row's share replaced (``l_option_pass``, ``LV_GIVEN``: in full
    when the sketch projects), the row restored after (``_restore_lrow``). (value, the
    payment of what is placed, once computed)."""
    if kind == L.M_REMOVE:
        return _remove_value(tb, lx, weights, s, ls, p, n0, na0, a, n_players), paid_none
    U = tb.ut.shape[0]
    na = na0
    k = -1  # the row the step changes (n0: a new one)
    u = age = new = 0
    extra = -1
    replace = -1
    if kind == L.M_MOVE:
        for r in range(n0):
            if s.pc[r, L.PC_SPOT] == a:
                k = r
        if k >= 0:
            u, age = s.pc[k, L.PC_UNIT], s.pc[k, L.PC_AGE]
    elif kind == L.M_PLACE:
        extra = s.hand[p, a]
        k = n0
        for r in range(n0):
            if s.pc[r, L.PC_SPOT] == b:
                k = r
        u, new = tb.deck[extra], 1
        if s.sp[p, b, L.S_CARD] >= 0:
            replace = b
    elif kind == L.M_PLACE_ARTIFACT:
        extra = s.hand[p, a]
        _set_art(ls, na, tb.deck[extra] - U, -1)
        na += 1
    if replace >= 0 and not _has_k5(tb.ut, tb.ab, s.sp[p, replace, L.S_UNIT]):
        replace = -1  # the same payment (``_replace_ok``)
    if replace >= 0:
        paid = _pay_order(tb, lx, s, ls, p, np.int64(extra), np.int64(replace), False, NONE)[1]
    elif extra >= 0:
        paid = ls.hpaid[a]  # l_moves' payment with hand card ``a``
    else:
        if paid_none < 0:
            paid_none = _pay_order(tb, lx, s, ls, p, NONE, NONE, False, NONE)[1]
        paid = paid_none
    if 0 <= k < n0:
        for c in range(L.N_PC):
            s.pc0[k, c] = s.pc[k, c]
    n = l_option_pass(tb, lx, s.pc, n0, k, b, u, age, new, s.g[L.G_TURN], ls.zx)
    if new:
        ls.pdone[k] = -1
    v = _lv(tb, lx, weights, s, ls, p, n, na, s.pi[p, L.I_GOLD] - paid, 0, n_players, LV_GIVEN)
    _restore_lrow(s, ls, p, n0, k)
    return v, paid_none
