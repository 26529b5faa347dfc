"""§2.5 Construction, both variants: what a seat pays for each building (its
production, the land cost, gold substitutions; Legends: the land terms of artifacts and
faces of the game's set), the options and the build. §N: ``docs/rules/paper-tales.md``.
"""

from __future__ import annotations

from talesim.simcore.jit import hot, hot_outline

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..evaluate.facts import production
from ..layout import D_BUILD  # passed as call arguments (see layout.py)
from .brain import build_choice
from .state import _facts, _freeze, _load, _searched


@hot
def payment_facts(tb, s, p):
    """What ``Game.payment`` reads of seat ``p`` (the same for every building it may build):
    (production of wood, food, crystal, the land cost of a new building, the resources
    (bit mask) that may be paid in gold). The land cost is 0 with a ``no_land_cost`` unit."""
    ut, bt, ab, rules = tb.ut, tb.bt, tb.ab, tb.rules
    n = _load(s, p)
    prod0, prod1, prod2 = production(ut, bt, s.pc, n, s.bl)
    free_land = False
    subst = 0
    for i in range(n):
        u = s.pc[i, L.PC_UNIT]
        for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
            if ab[j, L.A_KIND] == L.K_NO_LAND_COST:
                free_land = True
            elif ab[j, L.A_KIND] == L.K_GOLD_FOR_RESOURCE:
                subst |= ab[j, L.A_RES_MASK]
    owned = 0
    for c in range(bt.shape[0]):
        if s.blevel[p, c]:
            owned += 1
    land = 0 if free_land else rules[L.R_LAND_COST] * owned
    return prod0, prod1, prod2, land, subst


@hot
def payment(tb, facts, b, level, upgrade):
    """``Game.payment``: the cheapest gold payment for building ``b`` to ``level``, -1 if
    impossible (the first cheapest of the gold/resource choices; gold held not checked),
    with the seat's ``payment_facts``."""
    prod0, prod1, prod2, land, subst = facts
    if upgrade and not tb.rules[L.R_LAND_ON_UPGRADE]:
        land = 0
    return _cheapest(tb.bt, tb.rules, b, level, upgrade, land, subst, prod0, prod1, prod2)


@hot
def _cheapest(bt, rules, b, level, upgrade, land, subst, prod0, prod1, prod2):
    """The cheapest gold payment of building ``b`` to ``level`` given the land cost, the
    resources ``subst`` (bit mask) that may be paid in gold and the production; -1 if
    impossible (``Game.payment``'s choice loop: bit k of c = level k pays gold)."""
    first = 1 if upgrade else 0
    n_levels = 1 if upgrade else level
    use_sum = rules[L.R_DIRECT_L2_SUM]
    best = -1
    for c in range(1 << n_levels):
        gold = land
        need0 = need1 = need2 = 0
        ok = True
        for k in range(n_levels):
            face = first + k
            if (c >> k) & 1:
                if bt[b, face, L.B_GOLD_INSTEAD] < 0:
                    ok = False
                else:
                    gold += bt[b, face, L.B_GOLD_INSTEAD]
                continue
            r0 = bt[b, face, L.B_REQ0]
            r1 = bt[b, face, L.B_REQ0 + 1]
            r2 = bt[b, face, L.B_REQ0 + 2]
            if use_sum:
                need0 += r0
                need1 += r1
                need2 += r2
            else:
                need0 = max(need0, r0)
                need1 = max(need1, r1)
                need2 = max(need2, r2)
        if not ok:
            continue
        for r in range(L.N_RES):
            need = need0 if r == 0 else (need1 if r == 1 else need2)
            have = prod0 if r == 0 else (prod1 if r == 1 else prod2)
            missing = max(0, need - have)
            if missing and not (subst >> r) & 1:
                ok = False
            gold += missing
        if ok and (best < 0 or gold < best):
            best = gold
    return best


@hot
def offer(s, p, n_opt, b, level, upgrade, gold):
    """A construction option into ``s.bopt`` when its payment ``gold`` is possible (>= 0)
    and held; the new count of options."""
    if gold < 0 or gold > s.pi[p, L.I_GOLD]:
        return n_opt
    s.bopt[n_opt, 0] = b
    s.bopt[n_opt, 1] = level
    s.bopt[n_opt, 2] = upgrade
    s.bopt[n_opt, 3] = gold
    return n_opt + 1


@hot
def _build(s, p, b, level, upgrade, gold, turn):
    """Seat ``p`` builds ``b`` to ``level`` for ``gold`` in Construction (its log)."""
    s.pi[p, L.I_GOLD] -= gold
    s.blevel[p, b] = level
    s.blog[p, b, L.BL_LEVEL] = level
    if not upgrade:
        s.blog[p, b, L.BL_BUILT] = turn
    if level == 2:
        s.blog[p, b, L.BL_UPGRADED] = turn
    s.blog[p, b, L.BL_HOW] = L.H_BUILD if level == 1 or upgrade else L.H_DIRECT


@hot_outline
def payment_facts_l(tb, lx, s, ls, p):
    """``kernel.payment_facts`` of a Legends seat (what ``Game.payment`` reads, the same for
    every building): its production with the artifacts', and the land cost and gold
    substitutions with the land discounts of units, building faces of the set and
    artifacts. ``kernel.payment`` prices each building from it."""
    ut, bt, ab, rules, xt = tb.ut, tb.bt, tb.ab, tb.rules, lx.xt
    n, nz, wood, food, crystal, _ = _facts(tb, lx, s, ls, p)
    land = (False, 0, 0)  # (no land cost, discount, substitutable resources)
    for i in range(n):
        u = s.pc[i, L.PC_UNIT]
        land = _land_terms(ab, ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB], land)
    for c in range(bt.shape[0]):
        if ls.inset[c]:
            for k in range(s.blevel[p, c]):
                land = _land_terms(
                    ab, bt[c, k, L.B_AB0], bt[c, k, L.B_AB0] + bt[c, k, L.B_NAB], land
                )
    for i in range(nz):
        x = ls.zx[i]
        land = _land_terms(ab, xt[x, L.X_AB0], xt[x, L.X_AB0] + xt[x, L.X_NAB], land)
    free_land, discount, subst = land
    owned = 0
    for c in range(bt.shape[0]):
        if s.blevel[p, c]:
            owned += 1
    gold = 0 if free_land else max(0, rules[L.R_LAND_COST] * owned - discount)
    return wood, food, crystal, gold, subst


@hot
def _land_terms(ab, lo, hi, land):
    """``land`` = (no land cost, Σ discounts, resource mask) with ability rows ``lo..hi-1``
    added (``no_land_cost``: ``A_DISCOUNT`` -1 waives, n lowers; ``gold_for_resource``)."""
    free_land, discount, subst = land
    for j in range(lo, hi):
        if ab[j, L.A_KIND] == L.K_NO_LAND_COST:
            if ab[j, L.A_DISCOUNT] < 0:
                free_land = True
            else:
                discount += ab[j, L.A_DISCOUNT]
        elif ab[j, L.A_KIND] == L.K_GOLD_FOR_RESOURCE:
            subst |= ab[j, L.A_RES_MASK]
    return free_land, discount, subst


@hot
def build_options(tb, lx, s, ls, p):
    """Seat ``p``'s construction options into ``s.bopt`` (``Game.build_options``: the
    game's buildings in order, a new level 1 then a direct level 2, or the upgrade of a
    level 1; each at its cheapest payment, held); how many."""
    bt = tb.bt
    n_opt = 0
    if lx is None:  # noqa: SIM108 (statements: numba prunes the dead branch)
        facts = payment_facts(tb, s, p)
    else:
        facts = payment_facts_l(tb, lx, s, ls, p)
    for b in range(bt.shape[0]):
        if lx is not None:  # noqa: SIM102 (``lx is not None`` alone: pruned in a base game)
            if not ls.inset[b]:
                continue
        lv = s.blevel[p, b]
        if lv == L.LEVELS:
            continue
        for level in (1, 2):
            if lv == 1 and level == 1:
                continue
            upgrade = lv == 1
            n_opt = offer(s, p, n_opt, b, level, upgrade, payment(tb, facts, b, level, upgrade))
    return n_opt


@hot_outline
def construction(tb, lx, weights, s, ls, n_players, turn, search):
    """``Game.construction`` (Legends: over the game's building set, with the Legends land
    terms: ``payment_facts_l``). ``search`` (a compile-time constant): the game can stop at
    an mc seat's choice and resume at seat ``G_SEAT``; returns True when it stopped."""
    if not search or s.g[L.G_BEGUN] == 0:
        _freeze(tb, lx, s, ls, n_players)
        s.g[L.G_BEGUN] = 1
        s.g[L.G_SEAT] = 0
    for p in range(s.g[L.G_SEAT] if search else 0, n_players):
        s.g[L.G_SEAT] = p
        n_opt = build_options(tb, lx, s, ls, p)
        k = _searched(s, p, D_BUILD, search and n_opt > 0)
        if k == L.ASK:
            return True
        if k < 0:
            k = build_choice(tb, lx, weights, s, ls, p, n_opt, n_players)
        if not k:
            continue
        b, level, upgrade, gold = (
            s.bopt[k - 1, 0],
            s.bopt[k - 1, 1],
            s.bopt[k - 1, 2],
            s.bopt[k - 1, 3],
        )
        _build(s, p, b, level, upgrade, gold, turn)
    return False
