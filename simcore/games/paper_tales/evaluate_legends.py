"""Paper Tales, *Ce qui forge les légendes*, compiled: the scoring of one Legends kingdom.

The kernel's twin of ``reference.py``'s rule functions as a Legends game calls them
(``production``, ``assess``, ``war_phase_lp``, ``end_lp``, ``gain_holds``, ``per_value``
with the Legends facts): a kingdom is the base one (pieces ``pc[:n]``, levels ``bl``, see
``evaluate.py``) plus its artifact zone ``zx[:nz]`` (artifact indices, ``xt`` rows). The
base ``evaluate`` functions stay as they are (the base kernel's speed); only what a
Legends kingdom reads differently is here: the counters ``artifacts``, ``units_cost_*``,
``resource_sets`` / ``resources``, the ``conditional_gain`` kind, and the artifacts'
production and abilities. Shared leaves (``when_holds``, ``unit_production``,
``fight``, ``wars_counted``, ``base_facts``) come from ``evaluate.py``.
"""

from __future__ import annotations

import numpy as np

from simcore.jit import hot, hot_outline

from .evaluate import (
    KB_MASK,
    KU_MASK,
    M_ADD_STRENGTH,
    M_GOLD,
    M_LP,
    M_STRENGTH,
    M_WAR_UNIT,
    N_PC,
    PC_AGE,
    PC_FRESH,
    PC_PENDING,
    PC_SPOT,
    PC_UNIT,
    base_facts,
    death_rewards,
    deploy_lp,
    dies,
    fight,
    never_dies,
    production,
    wars_counted,
    weighted,
    when_holds,
)
from .policies import LF_ARTIFACTS, W_UNAFFORDABLE
from .scoring import (
    K_ADD_AGE,
    K_ADD_STRENGTH,
    K_CANNOT_FIGHT,
    K_FIGHT_FROM_BACK,
    K_GOLD,
    K_GOLD_PER_WAR_WON,
    K_LP,
    K_LP_PER_WAR_WON,
    K_SET_STRENGTH,
    K_UPGRADE_BUILDINGS,
    P_AGE_KINGDOM,
    P_AGE_SELF,
    P_CRYSTAL,
    P_FOOD,
    P_INCOME_GOLD,
    P_LEVEL2_BUILDINGS,
    P_ONE,
    P_STRONG_UNITS,
    P_WOOD,
    PH_END,
    PH_INCOME,
    PH_WAR,
    T_OTHERS,
    T_SELF,
)
from .tables import (
    A_AMOUNT,
    A_COUNTER,
    A_GOLD,
    A_KIND,
    A_LP,
    A_MIN,
    A_ON_DEPLOY,
    A_PER,
    A_PER_COST,
    A_PER_OTHER,
    A_PHASE,
    A_REQ0,
    A_TARGET,
    A_TIER,
    A_VALUE,
    A_WHEN,
    B_AB0,
    B_LP,
    B_NAB,
    L_ART_COST_BASE,
    L_ART_COST_FLOOR,
    L_ART_COST_STEP,
    LEVELS,
    MAX_FRONT,
    R_BASE_INCOME,
    R_PWW_FRONT_ONLY,
    R_STRONG_FRONT_ONLY,
    R_STRONG_MIN,
    R_TURNS,
    U_AB0,
    U_COST,
    U_NAB,
    U_STRENGTH,
    X_AB0,
    X_LP,
    X_NAB,
    X_PROD0,
    LegendsEffect,
    Per,
    Target,
    Tier,
)

K_DEPLOY_ARTIFACT = int(LegendsEffect.DEPLOY_ARTIFACT_FROM_HAND)
K_REPEAT_DEPLOY = int(LegendsEffect.REPEAT_DEPLOY_ABILITIES)
K_BUILD_FREE = int(LegendsEffect.BUILD_FREE)
K_CONDITIONAL_GAIN = int(LegendsEffect.CONDITIONAL_GAIN)
K_ART_COST_MODIFIER = int(LegendsEffect.ARTIFACT_COST_MODIFIER)
P_ARTIFACTS = int(Per.ARTIFACTS)
P_UNITS_COST_GE = int(Per.UNITS_COST_GE)
P_UNITS_COST_LE = int(Per.UNITS_COST_LE)
P_RESOURCE_SETS = int(Per.RESOURCE_SETS)
P_RESOURCES = int(Per.RESOURCES)
# ability-kind masks (``KU_MASK`` / ``KB_MASK`` bits): an entity without one of these kinds
# is skipped by the scan that reads only them
M_GAIN = 1 << K_CONDITIONAL_GAIN
M_INCOME_L = M_GOLD | M_GAIN
M_WAR_UNIT_L = M_WAR_UNIT | M_GAIN
M_WAR_FACE_L = M_LP | M_GAIN
M_PROJECT_L = (1 << K_UPGRADE_BUILDINGS) | (1 << K_ADD_AGE) | M_GAIN  # what l_project applies


@hot
def l_per(ut, ab, j, per, age, spot, pc, n, wood, food, crystal, facts):
    """``reference.per_value`` of ability row ``j`` with multiplier code ``per`` for a source
    with ``age`` tokens on ``spot`` (-1: a building face or an artifact). ``facts`` =
    (age_all, n_level2, income, n_strong, n_artifacts): what the phase knows."""
    age_all, n_level2, income, n_strong, n_arts = facts
    if per == P_ONE:
        return 1
    if per == P_AGE_SELF:
        return age
    if per == P_WOOD:
        return wood
    if per == P_FOOD:
        return food
    if per == P_CRYSTAL:
        return crystal
    if per == P_AGE_KINGDOM:
        return age_all
    if per == P_LEVEL2_BUILDINGS:
        return n_level2
    if per == P_INCOME_GOLD:
        return income
    if per == P_STRONG_UNITS:
        return n_strong
    if per == P_ARTIFACTS:
        return n_arts
    if per in (P_UNITS_COST_GE, P_UNITS_COST_LE):
        count = 0
        for i in range(n):
            if ab[j, A_PER_OTHER] and spot >= 0 and pc[i, PC_SPOT] == spot:
                continue
            cost = ut[pc[i, PC_UNIT], U_COST]
            if per == P_UNITS_COST_GE:
                count += cost >= ab[j, A_PER_COST]
            else:
                count += cost <= ab[j, A_PER_COST]
        return count
    if per == P_RESOURCE_SETS:
        return min(wood, min(food, crystal))
    if per == P_RESOURCES:
        return wood + food + crystal
    return 0


@hot
def gain_holds(ut, ab, j, age, spot, pc, n, wood, food, crystal, facts):
    """``reference.gain_holds``: ``conditional_gain`` row ``j`` of a source (``age``,
    ``spot``; -1: no piece) holds."""
    return (
        when_holds(ab[j, A_WHEN], age, spot, food, crystal)
        and wood >= ab[j, A_REQ0]
        and food >= ab[j, A_REQ0 + 1]
        and crystal >= ab[j, A_REQ0 + 2]
        and l_per(ut, ab, j, ab[j, A_COUNTER], age, spot, pc, n, wood, food, crystal, facts)
        >= ab[j, A_MIN]
    )


@hot
def l_production(ut, bt, xt, pc, n, bl, zx, nz):
    """``reference.production``: units, building faces, then the artifacts' production."""
    wood, food, crystal = production(ut, bt, pc, n, bl)
    for i in range(nz):
        x = zx[i]
        wood += xt[x, X_PROD0]
        food += xt[x, X_PROD0 + 1]
        crystal += xt[x, X_PROD0 + 2]
    return wood, food, crystal


@hot
def _income_gain(ut, ab, j, age, spot, pc, n, wood, food, crystal, facts):
    """``reference.income_gain`` of ability row ``j``."""
    if ab[j, A_PHASE] != PH_INCOME:
        return 0
    kind = ab[j, A_KIND]
    if kind == K_GOLD and when_holds(ab[j, A_WHEN], age, spot, food, crystal):
        return ab[j, A_AMOUNT] * l_per(
            ut, ab, j, ab[j, A_PER], age, spot, pc, n, wood, food, crystal, facts
        )
    if kind == K_CONDITIONAL_GAIN and gain_holds(
        ut, ab, j, age, spot, pc, n, wood, food, crystal, facts
    ):
        return ab[j, A_GOLD]
    return 0


@hot
def l_assess(ut, bt, ab, rules, xt, pc, n, bl, zx, nz):
    """``reference.assess`` of a Legends kingdom: (wood, food, crystal, income, strength,
    age_all, n_level2, n_strong)."""
    wood, food, crystal = l_production(ut, bt, xt, pc, n, bl, zx, nz)
    age_all, n_level2 = base_facts(bt, pc, n, bl)
    facts = (age_all, n_level2, 0, 0, nz)
    income = rules[R_BASE_INCOME]
    for i in range(n):
        u, age, spot = pc[i, PC_UNIT], pc[i, PC_AGE], pc[i, PC_SPOT]
        if not ut[u, KU_MASK] & M_INCOME_L:
            continue
        for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
            income += _income_gain(ut, ab, j, age, spot, pc, n, wood, food, crystal, facts)
    for b in range(bt.shape[0]):
        for k in range(bl[b]):
            if not bt[b, k, KB_MASK] & M_INCOME_L:
                continue
            for j in range(bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB]):
                income += _income_gain(ut, ab, j, 0, -1, pc, n, wood, food, crystal, facts)
    for i in range(nz):
        x = zx[i]
        for j in range(xt[x, X_AB0], xt[x, X_AB0] + xt[x, X_NAB]):
            income += _income_gain(ut, ab, j, 0, -1, pc, n, wood, food, crystal, facts)
    facts = (age_all, n_level2, income, 0, nz)
    total = 0
    n_strong = 0
    for i in range(n):
        u, age, spot = pc[i, PC_UNIT], pc[i, PC_AGE], pc[i, PC_SPOT]
        lo, hi = ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]
        if not ut[u, KU_MASK] & M_STRENGTH:
            lo = hi  # printed strength, fights from the Front only
        value = ut[u, U_STRENGTH]
        from_back = False
        for j in range(lo, hi):
            kind = ab[j, A_KIND]
            if kind == K_SET_STRENGTH and when_holds(ab[j, A_WHEN], age, spot, food, crystal):
                value = ab[j, A_VALUE]
            elif kind == K_FIGHT_FROM_BACK:
                from_back = True
        for j in range(lo, hi):
            if ab[j, A_KIND] == K_ADD_STRENGTH:
                value += ab[j, A_AMOUNT] * l_per(
                    ut, ab, j, ab[j, A_PER], age, spot, pc, n, wood, food, crystal, facts
                )
        for j in range(lo, hi):
            if ab[j, A_KIND] == K_CANNOT_FIGHT and when_holds(
                ab[j, A_WHEN], age, spot, food, crystal
            ):
                value = 0
        front = spot < MAX_FRONT
        if front or from_back:
            total += value
        if value >= rules[R_STRONG_MIN] and (front or not rules[R_STRONG_FRONT_ONLY]):
            n_strong += 1
    for b in range(bt.shape[0]):
        for k in range(bl[b]):
            if not bt[b, k, KB_MASK] & M_ADD_STRENGTH:
                continue
            for j in range(bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB]):
                if ab[j, A_KIND] == K_ADD_STRENGTH:
                    total += ab[j, A_AMOUNT] * l_per(
                        ut, ab, j, ab[j, A_PER], 0, -1, pc, n, wood, food, crystal, facts
                    )
    for i in range(nz):
        x = zx[i]
        for j in range(xt[x, X_AB0], xt[x, X_AB0] + xt[x, X_NAB]):
            if ab[j, A_KIND] == K_ADD_STRENGTH:
                total += ab[j, A_AMOUNT] * l_per(
                    ut, ab, j, ab[j, A_PER], 0, -1, pc, n, wood, food, crystal, facts
                )
    return wood, food, crystal, income, total, age_all, n_level2, n_strong


@hot
def l_war_phase_lp(
    ut, bt, ab, rules, xt, pc, n, bl, zx, nz, two, won, wood, food, crystal, income, age_all,
    n_level2, n_strong,
):  # fmt: skip
    """``reference.war_phase_lp`` (Legends): (per_war_won, war_units, war_buildings,
    war_artifacts LP, war gold)."""
    pww = wars_counted(rules, two, won)
    facts = (age_all, n_level2, income, n_strong, nz)
    per_war = war_units = war_buildings = war_arts = gold = 0
    for i in range(n):
        u, age, spot = pc[i, PC_UNIT], pc[i, PC_AGE], pc[i, PC_SPOT]
        counts = spot < MAX_FRONT or not rules[R_PWW_FRONT_ONLY]
        if not ut[u, KU_MASK] & M_WAR_UNIT_L:
            continue
        for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
            kind = ab[j, A_KIND]
            if kind == K_LP_PER_WAR_WON and counts:
                mult = l_per(ut, ab, j, ab[j, A_PER], age, spot, pc, n, wood, food, crystal, facts)
                per_war += ab[j, A_AMOUNT] * mult * pww
            elif kind == K_GOLD_PER_WAR_WON and counts:
                gold += ab[j, A_AMOUNT] * pww
            elif (
                kind == K_LP
                and ab[j, A_PHASE] == PH_WAR
                and when_holds(ab[j, A_WHEN], age, spot, food, crystal)
            ):
                mult = l_per(ut, ab, j, ab[j, A_PER], age, spot, pc, n, wood, food, crystal, facts)
                war_units += ab[j, A_AMOUNT] * mult
            elif (
                kind == K_CONDITIONAL_GAIN
                and ab[j, A_PHASE] == PH_WAR
                and gain_holds(ut, ab, j, age, spot, pc, n, wood, food, crystal, facts)
            ):
                war_units += ab[j, A_LP]
                gold += ab[j, A_GOLD]
    for b in range(bt.shape[0]):
        for k in range(bl[b]):
            if not bt[b, k, KB_MASK] & M_WAR_FACE_L:
                continue
            for j in range(bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB]):
                kind = ab[j, A_KIND]
                if (
                    kind == K_LP
                    and ab[j, A_PHASE] == PH_WAR
                    and when_holds(ab[j, A_WHEN], 0, -1, food, crystal)
                ):
                    war_buildings += ab[j, A_AMOUNT] * l_per(
                        ut, ab, j, ab[j, A_PER], 0, -1, pc, n, wood, food, crystal, facts
                    )
                elif (
                    kind == K_CONDITIONAL_GAIN
                    and ab[j, A_PHASE] == PH_WAR
                    and gain_holds(ut, ab, j, 0, -1, pc, n, wood, food, crystal, facts)
                ):
                    war_buildings += ab[j, A_LP]
                    gold += ab[j, A_GOLD]
    for i in range(nz):
        x = zx[i]
        for j in range(xt[x, X_AB0], xt[x, X_AB0] + xt[x, X_NAB]):
            kind = ab[j, A_KIND]
            if kind == K_LP_PER_WAR_WON:
                mult = l_per(ut, ab, j, ab[j, A_PER], 0, -1, pc, n, wood, food, crystal, facts)
                per_war += ab[j, A_AMOUNT] * mult * pww
            elif kind == K_GOLD_PER_WAR_WON:
                gold += ab[j, A_AMOUNT] * pww
            elif kind == K_LP and ab[j, A_PHASE] == PH_WAR:
                mult = l_per(ut, ab, j, ab[j, A_PER], 0, -1, pc, n, wood, food, crystal, facts)
                war_arts += ab[j, A_AMOUNT] * mult
            elif (
                kind == K_CONDITIONAL_GAIN
                and ab[j, A_PHASE] == PH_WAR
                and gain_holds(ut, ab, j, 0, -1, pc, n, wood, food, crystal, facts)
            ):
                war_arts += ab[j, A_LP]
                gold += ab[j, A_GOLD]
    return per_war, war_units, war_buildings, war_arts, gold


@hot
def l_end_lp(ut, bt, ab, xt, pc, n, bl, zx, nz, extra_age, wood, food, crystal, age_all, n_level2):
    """``reference.end_lp`` (Legends): (buildings, relic, artifacts) LP. ``extra_age``:
    tokens added to the units that never die (policies' end projection; 0 at the End)."""
    facts = (age_all, n_level2, 0, 0, nz)
    buildings = relic = arts = 0
    for i in range(nz):
        x = zx[i]
        arts += xt[x, X_LP]
        for j in range(xt[x, X_AB0], xt[x, X_AB0] + xt[x, X_NAB]):
            if ab[j, A_KIND] == K_LP and ab[j, A_PHASE] == PH_END:
                arts += ab[j, A_AMOUNT] * l_per(
                    ut, ab, j, ab[j, A_PER], 0, -1, pc, n, wood, food, crystal, facts
                )
    for b in range(bt.shape[0]):
        lv = bl[b]
        if lv:
            buildings += bt[b, lv - 1, B_LP]
        for k in range(lv):
            if not bt[b, k, KB_MASK] & M_LP:
                continue
            for j in range(bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB]):
                if (
                    ab[j, A_KIND] == K_LP
                    and ab[j, A_PHASE] == PH_END
                    and when_holds(ab[j, A_WHEN], 0, -1, food, crystal)
                ):
                    buildings += ab[j, A_AMOUNT] * l_per(
                        ut, ab, j, ab[j, A_PER], 0, -1, pc, n, wood, food, crystal, facts
                    )
    for i in range(n):
        u, age, spot = pc[i, PC_UNIT], pc[i, PC_AGE], pc[i, PC_SPOT]
        if not ut[u, KU_MASK] & M_LP:
            continue
        if extra_age and never_dies(ut, u):
            age += extra_age
        for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
            if (
                ab[j, A_KIND] == K_LP
                and ab[j, A_PHASE] == PH_END
                and when_holds(ab[j, A_WHEN], age, spot, food, crystal)
            ):
                relic += ab[j, A_AMOUNT] * l_per(
                    ut, ab, j, ab[j, A_PER], age, spot, pc, n, wood, food, crystal, facts
                )
    return buildings, relic, arts


# --- the policies' value of a Legends kingdom (reference.Brain.project_legends / features) ----

# A sketch's artifacts ``sa[MAX_ARTIFACTS + 1, N_SA]`` (``reference.Art``): the zone, plus the
# virtual artifact of a draft / keep / Jester option.
SA_X, SA_PENDING, SA_DONE = 0, 1, 2
N_SA = 3
# The artifact zone's columns (``kernel_legends.LState.zone``) and the per-spot tier
# bookkeeping (``LState.sx``); here because the policies' sketches read them.
Z_CARD, Z_X, Z_FRESH, Z_PAID, Z_ENTERED, Z_DONE = range(6)
N_Z = 6
SX_DONE, SX_SKIP = 0, 1
N_SX = 2
T_LEVELS, T_AGE, T_COUNT, T_PENALTY = (
    int(Tier.LEVELS),
    int(Tier.AGE),
    int(Tier.COUNT),
    int(Tier.PENALTY),
)
T_ALL = int(Target.ALL)
T_ONE = int(Target.ONE)


@hot
def l_sketch(s, ls, p, n):
    """``Brain.sketch`` (Legends) beside the pieces ``s.pc[:n]`` the caller loaded: each
    piece's last tier done into ``ls.pdone``, the zone (face-down cards included) into
    ``ls.sa``; the number of sketch artifacts."""
    for i in range(n):
        ls.pdone[i] = ls.sx[p, s.pc[i, PC_SPOT], SX_DONE]
    for i in range(ls.zn[p]):
        ls.sa[i, SA_X] = ls.zone[p, i, Z_X]
        ls.sa[i, SA_PENDING] = ls.zone[p, i, Z_FRESH] and ls.zone[p, i, Z_DONE] < T_PENALTY
        ls.sa[i, SA_DONE] = ls.zone[p, i, Z_DONE]
    return ls.zn[p]


@hot
def l_project(ut, bt, ab, xt, pc, n, pdone, bl, sa, na, zx, wpc, wbl):
    """``Brain.project_legends`` into ``wpc`` / ``wbl`` (and the sketch's artifact indices
    into ``zx``): the pending sources' on-deploy effects of the tiers still to come, in tier
    order (``upgrade_buildings``; ``add_age`` per one on self / others / all; flat
    ``conditional_gain``). Returns (gold gained, deployment LP gained, False when nothing
    projects: the pieces are then ``pc`` itself, not copied into ``wpc``)."""
    for b in range(bt.shape[0]):
        wbl[b] = bl[b]
    pending = False
    for i in range(na):
        zx[i] = sa[i, SA_X]
        pending |= sa[i, SA_PENDING] != 0
    for i in range(n):  # a pending unit matters only with a kind l_project applies
        pending |= pc[i, PC_PENDING] != 0 and ut[pc[i, PC_UNIT], KU_MASK] & M_PROJECT_L != 0
    gold = bonus = 0
    if not pending:
        return gold, bonus, False
    for i in range(n):
        for c in range(N_PC):
            wpc[i, c] = pc[i, c]
        wpc[i, PC_PENDING] = 0
    for tier in (T_LEVELS, T_AGE, T_COUNT):
        for src in range(n + na):
            if src < n:
                if not pc[src, PC_PENDING] or tier <= pdone[src]:
                    continue
                me = src
                u = pc[src, PC_UNIT]
                if not ut[u, KU_MASK] & M_PROJECT_L:
                    continue
                lo, hi = ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]
            else:
                a = src - n
                if not sa[a, SA_PENDING] or tier <= sa[a, SA_DONE]:
                    continue
                me = -1
                x = sa[a, SA_X]
                lo, hi = xt[x, X_AB0], xt[x, X_AB0] + xt[x, X_NAB]
            for j in range(lo, hi):
                if not ab[j, A_ON_DEPLOY] or ab[j, A_TIER] != tier:
                    continue
                kind = ab[j, A_KIND]
                if kind == K_UPGRADE_BUILDINGS:
                    for b in range(bt.shape[0]):
                        if wbl[b] == 1:
                            wbl[b] = LEVELS
                elif kind == K_ADD_AGE and ab[j, A_PER] == P_ONE and ab[j, A_TARGET] != T_ONE:
                    t = ab[j, A_TARGET]
                    for o in range(n):
                        if (t == T_SELF and o == me) or (t == T_OTHERS and o != me) or t == T_ALL:
                            wpc[o, PC_AGE] += ab[j, A_AMOUNT]
                elif kind == K_CONDITIONAL_GAIN:
                    wood, food, crystal = l_production(ut, bt, xt, wpc, n, wbl, zx, na)
                    age_all, n_level2 = base_facts(bt, wpc, n, wbl)
                    age = wpc[me, PC_AGE] if me >= 0 else 0
                    spot = wpc[me, PC_SPOT] if me >= 0 else -1
                    facts = (age_all, n_level2, 0, 0, na)
                    if gain_holds(ut, ab, j, age, spot, wpc, n, wood, food, crystal, facts):
                        gold += ab[j, A_GOLD]
                        bonus += ab[j, A_LP]
    return gold, bonus, True


@hot_outline
def l_value(
    tb, lx, weights, pol, pc, n, pdone, bl, sa, na, gold, bonus, seen0, seen1, two, turn, wpc,
    wbl, zx, inset,
):  # fmt: skip
    """``Brain.value`` of a Legends sketch (pieces ``pc[:n]`` with their tiers done
    ``pdone``, levels ``bl``, artifacts ``sa[:na]``, ``gold``, deployment LP already
    projected ``bonus``): its features (the base
    ``F_*`` with the artifacts' war / end LP and the projected deployment gains, then the
    ``LF_*``) times the policy's weights, summed in feature order. ``lx[3]`` holds the
    Legends weights; ``inset`` the game's building set (``F_BUILDABLE`` counts only it)."""
    ut, bt, ab, rules, xt = tb[0], tb[1], tb[2], tb[3], lx[0]
    gain, more, projected = l_project(ut, bt, ab, xt, pc, n, pdone, bl, sa, na, zx, wpc, wbl)
    gold += gain
    bonus += more
    if not projected:  # nothing moves: read the sketch itself (no copy)
        wpc = pc
    wood, food, crystal, income, strength, age_all, n_level2, n_strong = l_assess(
        ut, bt, ab, rules, xt, wpc, n, wbl, zx, na
    )
    won, war_lp = fight(rules, two, strength, seen0, seen1)
    per_war, war_units, war_buildings, war_arts, _ = l_war_phase_lp(
        ut, bt, ab, rules, xt, wpc, n, wbl, zx, na, two, won, wood, food, crystal, income,
        age_all, n_level2, n_strong,
    )  # fmt: skip
    turns = rules[R_TURNS]
    end_b, end_r, end_a = l_end_lp(
        ut, bt, ab, xt, wpc, n, wbl, zx, na, turns - turn + 1, wood, food, crystal, age_all,
        n_level2,
    )  # fmt: skip
    dep = deploy_lp(ut, ab, wpc, n, True, wood, food, crystal, age_all, n_level2)
    mask = 0
    keep = 0
    for i in range(n):
        u = wpc[i, PC_UNIT]
        if dies(ut, ab, u, wpc[i, PC_AGE]):
            mask |= 1 << i
        else:
            keep += ut[u, U_STRENGTH]
    aging_lp, _ = death_rewards(ut, ab, wpc, n, mask, wood, food, crystal, age_all, n_level2)
    war = war_lp + per_war + war_units + war_buildings + war_arts
    lp = (war, end_b + end_r + end_a, dep + bonus, aging_lp)
    totals = (income, strength, wood, food, crystal, keep, n, n_level2, n_strong)
    for b in range(bt.shape[0]):  # F_BUILDABLE: only the set (others read as complete)
        if not inset[b]:
            wbl[b] = LEVELS
    left = turns - turn
    v = weighted(weights, pol, bt, wbl, left, lp + totals, gold, seen0, seen1, two)
    v += lx[3][pol, LF_ARTIFACTS] * (na * left)
    return v


@hot
def l_strength(tb, lx, pc, n, bl, ls, p):
    """Seat ``p``'s kingdom strength (pieces ``pc[:n]`` loaded, its paid artifacts)."""
    nz = 0
    for i in range(ls.zn[p]):
        if ls.zone[p, i, Z_PAID]:
            ls.zx[nz] = ls.zone[p, i, Z_X]
            nz += 1
    return l_assess(tb[0], tb[1], tb[2], tb[3], lx[0], pc, n, bl, ls.zx, nz)[4]


@hot
def l_art_cost_now(ut, bt, ab, lr, pc, n, bl, inset, in_zone):
    """``Game.placement_cost`` of an artifact when nothing is placed (Recruitment, the keep):
    max(floor, base + step x ``in_zone`` + the ``artifact_cost_modifier``s of the units and
    the set's building faces)."""
    modifier = 0
    for i in range(n):
        u = pc[i, PC_UNIT]
        for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
            if ab[j, A_KIND] == K_ART_COST_MODIFIER:
                modifier += ab[j, A_AMOUNT]
    for b in range(bt.shape[0]):
        if inset[b]:
            for k in range(bl[b]):
                for j in range(bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB]):
                    if ab[j, A_KIND] == K_ART_COST_MODIFIER:
                        modifier += ab[j, A_AMOUNT]
    raw = lr[L_ART_COST_BASE] + lr[L_ART_COST_STEP] * in_zone + modifier
    return max(lr[L_ART_COST_FLOOR], raw)


@hot_outline
def l_card_value(
    tb, lx, weights, pol, pc, n, pdone, bl, sa, na, gold, t, seen0, seen1, two, turn, wpc, wbl,
    zx, inset,
):  # fmt: skip
    """``Brain.card_value`` (Legends) of card type ``t`` when nothing is placed (draft,
    keep): a unit on virtual spot 0, then 3, pending, its cost paid (the better one); an
    artifact pending in the zone at ``l_art_cost_now`` (``artifact_value``); minus
    ``W_UNAFFORDABLE`` if the cost is more than ``gold``. The sketch's zone is all paid.
    (The counts go to ``l_value`` as int64, like ``kernel_legends._lv``'s: one copy.)"""
    ut = tb[0]
    U = ut.shape[0]
    if t >= U:
        cost = l_art_cost_now(ut, tb[1], tb[2], lx[1], pc, n, bl, inset, na)
        sa[na, SA_X] = t - U
        sa[na, SA_PENDING] = 1
        sa[na, SA_DONE] = -1
        v = l_value(
            tb, lx, weights, pol, pc, np.int64(n), pdone, bl, sa, np.int64(na + 1),
            np.int64(gold - cost), np.int64(0), seen0, seen1, two, turn, wpc, wbl, zx, inset,
        )  # fmt: skip
    else:
        cost = ut[t, U_COST]
        v = -np.inf
        for spot in (0, MAX_FRONT):
            pc[n, PC_SPOT] = spot
            pc[n, PC_UNIT] = t
            pc[n, PC_AGE] = 0
            pc[n, PC_PENDING] = 1
            pc[n, PC_FRESH] = 1
            pdone[n] = -1
            w = l_value(
                tb, lx, weights, pol, pc, np.int64(n + 1), pdone, bl, sa, np.int64(na),
                np.int64(gold - cost), np.int64(0), seen0, seen1, two, turn, wpc, wbl, zx, inset,
            )  # fmt: skip
            if w > v:
                v = w
    if cost > gold:
        v -= weights[pol, W_UNAFFORDABLE]
    return v
