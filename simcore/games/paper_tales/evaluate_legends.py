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

from simcore.jit import hot, hot_inline, hot_outline

from .evaluate import (
    BASE_KINDS,
    D_ALL,
    D_DEATH,
    D_DEPLOY,
    D_END,
    D_INCOME,
    D_STRENGTH,
    D_WAR,
    KB_MASK,
    KU_MASK,
    KU_PER_DYING,
    M_ADD_STRENGTH,
    M_GOLD,
    M_LP,
    M_STRENGTH,
    M_WAR_UNIT,
    MAX_PIECES,
    N_PC,
    PC_AGE,
    PC_FRESH,
    PC_PENDING,
    PC_SPOT,
    PC_UNIT,
    SELF_CONTAINED_PER,
    SELF_CONTAINED_WHEN,
    STEPS_OF_KIND,
    UR_AGES,
    UR_CRYSTAL,
    UR_DEATH_LP,
    UR_DEPLOY_LP,
    UR_DIES,
    UR_END_LP,
    UR_FOOD,
    UR_INCOME,
    UR_PER_WAR,
    UR_STRENGTH,
    UR_STRONG,
    UR_WAR_LP,
    UR_WOOD,
    base_facts,
    death_rewards,
    deploy_lp,
    dies,
    fight,
    never_dies,
    production,
    unit_death,
    unit_gain,
    unit_production,
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
    PH_DEPLOYMENT,
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
    B_PROD0,
    L_ART_COST_BASE,
    L_ART_COST_FLOOR,
    L_ART_COST_STEP,
    LEVELS,
    MAX_ABILITIES,
    MAX_ARTIFACTS,
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
def l_unit_income(ut, ab, u, age, spot, pc, n, wood, food, crystal, facts):
    """One unit's income gold (``_income_gain`` of each of its abilities)."""
    income = 0
    if not ut[u, KU_MASK] & M_INCOME_L:
        return income
    for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
        income += _income_gain(ut, ab, j, age, spot, pc, n, wood, food, crystal, facts)
    return income


@hot
def l_fixed_income(ut, bt, ab, xt, pc, n, bl, zx, nz, wood, food, crystal, facts):
    """The income gold of the building faces shown and of the artifacts ``zx[:nz]``."""
    income = 0
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
    return income


@hot
def l_piece_strength(ut, ab, rules, pc, i, n, wood, food, crystal, facts):
    """(strength counted in the kingdom's, 1 if strong) of piece ``i``: printed,
    ``set_strength``, ``add_strength`` (Legends multipliers), ``cannot_fight``; a Back-row
    unit counts only with ``fight_from_back``."""
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
        if ab[j, A_KIND] == K_CANNOT_FIGHT and when_holds(ab[j, A_WHEN], age, spot, food, crystal):
            value = 0
    front = spot < MAX_FRONT
    strong = value >= rules[R_STRONG_MIN] and (front or not rules[R_STRONG_FRONT_ONLY])
    return value if front or from_back else 0, 1 if strong else 0


@hot
def l_fixed_strength(ut, bt, ab, xt, pc, n, bl, zx, nz, wood, food, crystal, facts):
    """The ``add_strength`` of the building faces shown and of the artifacts ``zx[:nz]``."""
    total = 0
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
    return total


@hot
def l_assess(ut, bt, ab, rules, xt, pc, n, bl, zx, nz):
    """``reference.assess`` of a Legends kingdom: (wood, food, crystal, income, strength,
    age_all, n_level2, n_strong)."""
    wood, food, crystal = l_production(ut, bt, xt, pc, n, bl, zx, nz)
    age_all, n_level2 = base_facts(bt, pc, n, bl)
    facts = (age_all, n_level2, 0, 0, nz)
    income = rules[R_BASE_INCOME]
    for i in range(n):
        income += l_unit_income(
            ut, ab, pc[i, PC_UNIT], pc[i, PC_AGE], pc[i, PC_SPOT], pc, n, wood, food, crystal,
            facts,
        )  # fmt: skip
    income += l_fixed_income(ut, bt, ab, xt, pc, n, bl, zx, nz, wood, food, crystal, facts)
    facts = (age_all, n_level2, income, 0, nz)
    total = 0
    n_strong = 0
    for i in range(n):
        value, strong = l_piece_strength(ut, ab, rules, pc, i, n, wood, food, crystal, facts)
        total += value
        n_strong += strong
    total += l_fixed_strength(ut, bt, ab, xt, pc, n, bl, zx, nz, wood, food, crystal, facts)
    return wood, food, crystal, income, total, age_all, n_level2, n_strong


@hot
def l_unit_war(ut, ab, rules, u, age, spot, pc, n, wood, food, crystal, facts):
    """(per-war-won LP for one war, war-phase LP, gold per war won, flat war gold) of one
    unit (``lp_per_war_won`` / ``gold_per_war_won`` only from the Front when the rules say
    so; war ``lp``; war ``conditional_gain``)."""
    per_war = war_units = gold_per_war = gold = 0
    if not ut[u, KU_MASK] & M_WAR_UNIT_L:
        return per_war, war_units, gold_per_war, gold
    counts = spot < MAX_FRONT or not rules[R_PWW_FRONT_ONLY]
    for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
        kind = ab[j, A_KIND]
        if kind == K_LP_PER_WAR_WON and counts:
            mult = l_per(ut, ab, j, ab[j, A_PER], age, spot, pc, n, wood, food, crystal, facts)
            per_war += ab[j, A_AMOUNT] * mult
        elif kind == K_GOLD_PER_WAR_WON and counts:
            gold_per_war += ab[j, A_AMOUNT]
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
    return per_war, war_units, gold_per_war, gold


@hot
def l_fixed_war(ut, bt, ab, xt, pc, n, bl, zx, nz, pww, wood, food, crystal, facts):
    """The war phase of the building faces shown and of the artifacts ``zx[:nz]`` with
    ``pww`` wars counted: (per-war-won LP, war_buildings LP, war_artifacts LP, gold)."""
    per_war = war_buildings = war_arts = gold = 0
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
    return per_war, war_buildings, war_arts, gold


@hot
def l_war_phase_lp(
    ut, bt, ab, rules, xt, pc, n, bl, zx, nz, two, won, wood, food, crystal, income, age_all,
    n_level2, n_strong,
):  # fmt: skip
    """``reference.war_phase_lp`` (Legends): (per_war_won, war_units, war_buildings,
    war_artifacts LP, war gold)."""
    pww = wars_counted(rules, two, won)
    facts = (age_all, n_level2, income, n_strong, nz)
    per_war = war_units = gold = 0
    for i in range(n):
        pw, wu, gpw, g = l_unit_war(
            ut, ab, rules, pc[i, PC_UNIT], pc[i, PC_AGE], pc[i, PC_SPOT], pc, n, wood, food,
            crystal, facts,
        )  # fmt: skip
        per_war += pw * pww
        war_units += wu
        gold += gpw * pww + g
    pw, war_buildings, war_arts, g = l_fixed_war(
        ut, bt, ab, xt, pc, n, bl, zx, nz, pww, wood, food, crystal, facts
    )
    return per_war + pw, war_units, war_buildings, war_arts, gold + g


@hot
def l_unit_end(ut, ab, u, age, spot, pc, n, wood, food, crystal, facts):
    """One unit's end-phase ``lp`` (Relic) with ``age`` tokens."""
    relic = 0
    if not ut[u, KU_MASK] & M_LP:
        return relic
    for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
        if (
            ab[j, A_KIND] == K_LP
            and ab[j, A_PHASE] == PH_END
            and when_holds(ab[j, A_WHEN], age, spot, food, crystal)
        ):
            relic += ab[j, A_AMOUNT] * l_per(
                ut, ab, j, ab[j, A_PER], age, spot, pc, n, wood, food, crystal, facts
            )
    return relic


@hot
def l_fixed_end(ut, bt, ab, xt, pc, n, bl, zx, nz, wood, food, crystal, facts):
    """The End of the building faces shown (their top face's LP, end ``lp``) and of the
    artifacts ``zx[:nz]`` (printed LP, end ``lp``): (buildings LP, artifacts LP)."""
    buildings = arts = 0
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
    return buildings, arts


@hot
def l_end_lp(ut, bt, ab, xt, pc, n, bl, zx, nz, extra_age, wood, food, crystal, age_all, n_level2):
    """``reference.end_lp`` (Legends): (buildings, relic, artifacts) LP. ``extra_age``:
    tokens added to the units that never die (policies' end projection; 0 at the End)."""
    facts = (age_all, n_level2, 0, 0, nz)
    buildings, arts = l_fixed_end(ut, bt, ab, xt, pc, n, bl, zx, nz, wood, food, crystal, facts)
    relic = 0
    for i in range(n):
        u, age = pc[i, PC_UNIT], pc[i, PC_AGE]
        if extra_age and never_dies(ut, u):
            age += extra_age
        relic += l_unit_end(ut, ab, u, age, pc[i, PC_SPOT], pc, n, wood, food, crystal, facts)
    return buildings, relic, arts


# --- the policies' value of a Legends kingdom (reference.Brain.project_legends / features) ----

# A sketch's artifacts ``sa[MAX_ARTIFACTS + 1, N_SA]`` (``reference.Art``): the zone, plus the
# virtual artifact of a draft / keep / Jester option.
SA_X, SA_PENDING, SA_DONE = 0, 1, 2
N_SA = 3
# The artifact zone's columns (``kernel.LState.zone``) and the per-spot tier
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


# --- ``l_value``'s cache of the building faces and artifacts, in the tail of ``zx`` ---------
# ``zx[:FX_ARTS]`` holds a kingdom's artifact indices (``l_project``); the rest is what the
# faces shown (levels after the projection) and those artifacts give: their production,
# level-2 count, printed LP and, per step, the ability rows it reads as terms (row, 1 for a
# face: its condition applies). The options of a decision share their buildings and
# artifacts, so it is rebuilt about once a decision (``fixed_terms``).
FX_ARTS = MAX_ARTIFACTS + 1  # a zone's artifacts + a draft / keep / Jester option's
FX_KEY = FX_ARTS  # the levels as a base-3 number; -1: empty
FX_NA = FX_KEY + 1  # artifacts cached
FX_X0 = FX_NA + 1  # their indices
FX_WOOD = FX_X0 + FX_ARTS  # production (then food, crystal)
FX_LEVEL2 = FX_WOOD + 3  # level-2 buildings
FX_LP = FX_LEVEL2 + 1  # the top faces' LP and the artifacts' printed LP
FX_N0 = FX_LP + 1  # FX_N0 + step: its terms
FS_INCOME, FS_STRENGTH, FS_WAR, FS_END = 0, 1, 2, 3
N_FS = 4
# ``l_value``'s first pass (``l_piece_terms``: the pieces' shares of the totals, then per row
# its steps from the kingdom's totals ``D_*`` and ``LA_DYING``), in two slots of ``zx``: a
# decision's base sketch (``LV_BASE``) and the sketch being valued. Not part of the cache.
(
    LA_WOOD, LA_FOOD, LA_CRYSTAL, LA_AGE_ALL, LA_PER_DYING, LA_INCOME, LA_STRENGTH, LA_STRONG,
    LA_PER_WAR, LA_WAR_UNITS, LA_RELIC, LA_DEP, LA_TOKENS, LA_AGING_LP, LA_KEEP, LA_ROWS,
) = range(16)  # fmt: skip
N_LA = LA_ROWS + MAX_PIECES
LA_DYING = D_ALL + 1  # a row's bit: the piece dies at the next Aging
FX_BASE = FX_N0 + N_FS  # the base sketch's first pass
FX_PASS = FX_BASE + N_LA  # the valued sketch's
FX_TERMS = FX_PASS + N_LA  # then per step, room for every ability of every face and artifact
# ``l_value``'s modes: value the sketch; value it from the first pass in the ``FX_PASS`` slot
# (``l_option_pass``; in full if it projects); only the first pass of the unprojected sketch
# into the ``FX_BASE`` slot (no value)
LV_FULL, LV_GIVEN, LV_BASE = 0, 1, 2


@hot
def fixed_room(n_buildings):
    """Terms a step may hold: every ability of every face and artifact."""
    return (n_buildings * LEVELS + FX_ARTS) * MAX_ABILITIES


@hot
def fixed_size(n_buildings):
    """Length of ``zx``: the artifacts, the cache, ``N_FS`` lists of (row, face) terms."""
    return FX_TERMS + N_FS * fixed_room(n_buildings) * 2


@hot
def _push_term(zx, room, step, j, face):
    t = FX_TERMS + (step * room + zx[FX_N0 + step]) * 2
    zx[t] = j
    zx[t + 1] = face
    zx[FX_N0 + step] += 1


@hot
def _add_terms(ab, zx, room, lo, hi, face):
    """The ability rows ``lo:hi`` of a face (``face`` 1) or an artifact (0) as terms of
    the steps that read them (as ``l_fixed_income`` / ``_strength`` / ``_war`` / ``_end``)."""
    for j in range(lo, hi):
        kind, phase = ab[j, A_KIND], ab[j, A_PHASE]
        gain = kind == K_CONDITIONAL_GAIN
        if phase == PH_INCOME and (kind == K_GOLD or gain):
            _push_term(zx, room, FS_INCOME, j, face)
        if kind == K_ADD_STRENGTH:
            _push_term(zx, room, FS_STRENGTH, j, face)
        if (phase == PH_WAR and (kind == K_LP or gain)) or (kind == K_LP_PER_WAR_WON and not face):
            _push_term(zx, room, FS_WAR, j, face)
        if kind == K_LP and phase == PH_END:
            _push_term(zx, room, FS_END, j, face)


@hot
def fixed_terms(bt, ab, xt, bl, zx, nz):
    """The cache for the levels ``bl`` and the artifacts ``zx[:nz]``, rebuilt unless it
    holds them already."""
    key = 0
    for b in range(bt.shape[0]):
        key = key * (LEVELS + 1) + bl[b]
    hit = zx[FX_KEY] == key and zx[FX_NA] == nz
    for i in range(nz if hit else 0):
        hit &= zx[FX_X0 + i] == zx[i]
    if hit:
        return
    zx[FX_KEY] = key
    zx[FX_NA] = nz
    for c in range(FX_WOOD, FX_BASE):
        zx[c] = 0
    room = fixed_room(bt.shape[0])
    for b in range(bt.shape[0]):
        lv = bl[b]
        if lv == LEVELS:
            zx[FX_LEVEL2] += 1
        if lv:
            zx[FX_LP] += bt[b, lv - 1, B_LP]
        for k in range(lv):
            for r in range(3):
                zx[FX_WOOD + r] += bt[b, k, B_PROD0 + r]
            _add_terms(ab, zx, room, bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB], 1)
    for i in range(nz):
        x = zx[i]
        zx[FX_X0 + i] = x
        zx[FX_LP] += xt[x, X_LP]
        for r in range(3):
            zx[FX_WOOD + r] += xt[x, X_PROD0 + r]
        _add_terms(ab, zx, room, xt[x, X_AB0], xt[x, X_AB0] + xt[x, X_NAB], 0)


@hot
def fixed_gain(ut, bt, ab, zx, step, pc, n, pww, wood, food, crystal, facts):
    """The cached terms of ``step`` with the kingdom's totals: income gold, strength, war
    LP (``pww`` wars counted), end LP (the printed LP not included)."""
    room = fixed_room(bt.shape[0])
    t = FX_TERMS + step * room * 2
    gain = 0
    for _ in range(zx[FX_N0 + step]):
        j, face = zx[t], zx[t + 1]
        t += 2
        kind = ab[j, A_KIND]
        if step == FS_INCOME:
            gain += _income_gain(ut, ab, j, 0, -1, pc, n, wood, food, crystal, facts)
        elif kind == K_CONDITIONAL_GAIN:
            if gain_holds(ut, ab, j, 0, -1, pc, n, wood, food, crystal, facts):
                gain += ab[j, A_LP]
        elif not face or when_holds(ab[j, A_WHEN], 0, -1, food, crystal) or step == FS_STRENGTH:
            mult = l_per(ut, ab, j, ab[j, A_PER], 0, -1, pc, n, wood, food, crystal, facts)
            gain += ab[j, A_AMOUNT] * mult * (pww if kind == K_LP_PER_WAR_WON else 1)
    return gain


@hot
def l_weighted(lx, weights, pol, bt, wbl, inset, left, kingdom, gold, na, seen0, seen1, two):
    """``evaluate.weighted`` of a Legends kingdom's totals ``kingdom`` (``F_BUILDABLE``
    counts only the game's set ``inset``: the other buildings of ``wbl``, a scratch, are
    made complete), then the ``LF_*`` terms (``na`` artifacts)."""
    for b in range(bt.shape[0]):
        if not inset[b]:
            wbl[b] = LEVELS
    v = weighted(weights, pol, bt, wbl, left, kingdom, gold, seen0, seen1, two)
    v += lx[3][pol, LF_ARTIFACTS] * (na * left)
    return v


@hot
def l_piece_terms(ut, ab, ur, ldyn, pc, i, extra):
    """Piece ``i``'s share of ``l_value``'s totals: (its row's bits: the steps it computes
    from the kingdom's totals ``D_*`` and ``LA_DYING``; its shares in ``LA_*`` order),
    every step ``ldyn`` does not mark from its unit record. ``extra``: the Agings left.
    The shares are integers that read only the piece: a decision can value its options
    from one first pass (``l_option_pass``)."""
    u, age, spot = pc[i, PC_UNIT], pc[i, PC_AGE], pc[i, PC_SPOT]
    end_age = age + extra if never_dies(ut, u) else age
    row = 0 if spot < MAX_FRONT else 1
    d = ldyn[u]
    r = ur[u, row, 0]
    if age >= 0 and end_age < UR_AGES:
        r = ur[u, row, age]
        wood, food, crystal = r[UR_WOOD], r[UR_FOOD], r[UR_CRYSTAL]
        dies_now = r[UR_DIES] == 1
    else:  # beyond the records: every step from the functions
        d = D_ALL
        wood, food, crystal = unit_production(ut, u, age, spot, 0, 0)
        dies_now = dies(ut, ab, u, age)
    income = strength = strong = per_war = war_lp = relic = dep = tokens = aging_lp = keep = 0
    if not d & D_INCOME:
        income = r[UR_INCOME]
    if not d & D_STRENGTH:
        strength = r[UR_STRENGTH]
        strong = r[UR_STRONG]
    if not d & D_WAR:
        per_war = r[UR_PER_WAR]
        war_lp = r[UR_WAR_LP]
    if not d & D_END:
        relic = ur[u, row, end_age, UR_END_LP]
    if pc[i, PC_FRESH] and not d & D_DEPLOY:
        dep = r[UR_DEPLOY_LP]
    bits = d
    if dies_now:
        bits |= LA_DYING
        tokens = age
        if not d & D_DEATH:
            aging_lp = r[UR_DEATH_LP]
    else:
        keep = ut[u, U_STRENGTH]
    shares = (
        wood, food, crystal, age, ut[u, KU_PER_DYING], income, strength, strong, per_war,
        war_lp, relic, dep, tokens, aging_lp, keep,
    )  # fmt: skip
    return bits, shares


@hot
def _la_add(zx, a, t, sign):
    """Add ``sign`` x the shares ``t`` (``LA_*`` order) to the first-pass slot ``zx[a:]``."""
    zx[a + LA_WOOD] += sign * t[LA_WOOD]
    zx[a + LA_FOOD] += sign * t[LA_FOOD]
    zx[a + LA_CRYSTAL] += sign * t[LA_CRYSTAL]
    zx[a + LA_AGE_ALL] += sign * t[LA_AGE_ALL]
    zx[a + LA_PER_DYING] += sign * t[LA_PER_DYING]
    zx[a + LA_INCOME] += sign * t[LA_INCOME]
    zx[a + LA_STRENGTH] += sign * t[LA_STRENGTH]
    zx[a + LA_STRONG] += sign * t[LA_STRONG]
    zx[a + LA_PER_WAR] += sign * t[LA_PER_WAR]
    zx[a + LA_WAR_UNITS] += sign * t[LA_WAR_UNITS]
    zx[a + LA_RELIC] += sign * t[LA_RELIC]
    zx[a + LA_DEP] += sign * t[LA_DEP]
    zx[a + LA_TOKENS] += sign * t[LA_TOKENS]
    zx[a + LA_AGING_LP] += sign * t[LA_AGING_LP]
    zx[a + LA_KEEP] += sign * t[LA_KEEP]


@hot_inline
def _la(zx, c):
    """``zx[c]`` as an int64 (a first-pass slot's total, as ``l_value``'s sums)."""
    return np.int64(zx[c])


@hot
def l_option_pass(tb, lx, pc, n0, k, spot, u, age, new, turn, zx):
    """The first pass of a decision's option (into ``FX_PASS``, for ``l_value``'s
    ``LV_GIVEN``) from its base sketch's (``FX_BASE``, ``LV_BASE`` of ``pc[:n0]``): row
    ``k`` (``n0``: a new row; -1: none, the base as it is) replaced by the piece ``u`` on
    ``spot`` with ``age`` tokens (``new``: pending and fresh, else as row ``k`` was), its
    share taken back and the new one added. The caller restores row ``k`` after. Returns
    the option's piece count."""
    for c in range(N_LA):
        zx[FX_PASS + c] = zx[FX_BASE + c]
    if k < 0:
        return n0
    extra = tb[3][R_TURNS] - turn + 1
    for step in range(2):  # take back, then add: one inlined copy of l_piece_terms
        sign = 2 * step - 1
        if sign > 0:
            pc[k, PC_SPOT] = spot
            pc[k, PC_UNIT] = u
            pc[k, PC_AGE] = age
            if new:
                pc[k, PC_PENDING] = 1
                pc[k, PC_FRESH] = 1
        if sign > 0 or k < n0:
            bits, shares = l_piece_terms(tb[0], tb[2], tb[5], lx[4], pc, k, extra)
            _la_add(zx, FX_PASS, shares, sign)
            zx[FX_PASS + LA_ROWS + k] = bits if sign > 0 else 0
    return max(n0, k + 1)


@hot_outline
def l_value(
    tb, lx, weights, pol, pc, n, pdone, bl, sa, na, gold, bonus, seen0, seen1, two, turn, wpc,
    wbl, zx, inset, mode,
):  # fmt: skip
    """``Brain.value`` of a Legends sketch (pieces ``pc[:n]`` with their tiers done
    ``pdone``, levels ``bl``, artifacts ``sa[:na]``, ``gold``, deployment LP already
    projected ``bonus``): its features (the base
    ``F_*`` with the artifacts' war / end LP and the projected deployment gains, then the
    ``LF_*``) times the policy's weights, summed in feature order. ``lx[3]`` holds the
    Legends weights; ``inset`` the game's building set (``F_BUILDABLE`` counts only it).

    The same integers as the step-by-step evaluation (``l_value_full``: project, assess,
    wars, end, deployment, deaths), with each unit's share of every step it does not
    compute from the kingdom (``lx[4]``, ``legends_dyn``) read from the base unit records
    ``tb[5]`` (``evaluate.unit_records``) in one pass over the pieces (``l_piece_terms``);
    the other steps of those units are computed as the phases do; the building faces and
    the artifacts from their cache in ``zx`` (``fixed_terms``: production, printed LP and
    the ability rows each step reads, kept from call to call).

    ``mode`` (an int64, so that every caller shares one compiled copy): ``LV_FULL``;
    ``LV_GIVEN``: ``zx``'s ``FX_PASS`` slot holds the first pass of ``pc[:n]``
    (``l_option_pass``), used unless the sketch projects; ``LV_BASE``: only the first pass
    of ``pc[:n]`` as it is (no projection) into the ``FX_BASE`` slot, returns 0."""
    ut, bt, ab, rules, ur, xt, ldyn = tb[0], tb[1], tb[2], tb[3], tb[5], lx[0], lx[4]
    projected = False
    if mode != LV_BASE:
        gain, more, projected = l_project(ut, bt, ab, xt, pc, n, pdone, bl, sa, na, zx, wpc, wbl)
        gold += gain
        bonus += more
    if not projected:  # nothing moves: read the sketch itself (no copy)
        wpc = pc
    turns = rules[R_TURNS]
    extra = turns - turn + 1
    dyn = 0  # the steps some piece computes from the kingdom's totals
    dyns = 0  # each piece's steps D_* (6 bits a piece)
    dying = 0  # a bit a dying piece
    if projected or mode != LV_GIVEN:
        wood = food = crystal = age_all = per_dying = strength = n_strong = income = 0
        per_war = war_units = relic = dep = tokens = aging_lp = keep = 0
        for i in range(n):
            bits, t = l_piece_terms(ut, ab, ur, ldyn, wpc, i, extra)
            wood += t[LA_WOOD]
            food += t[LA_FOOD]
            crystal += t[LA_CRYSTAL]
            age_all += t[LA_AGE_ALL]
            per_dying += t[LA_PER_DYING]
            income += t[LA_INCOME]
            strength += t[LA_STRENGTH]
            n_strong += t[LA_STRONG]
            per_war += t[LA_PER_WAR]
            war_units += t[LA_WAR_UNITS]
            relic += t[LA_RELIC]
            dep += t[LA_DEP]
            tokens += t[LA_TOKENS]
            aging_lp += t[LA_AGING_LP]
            keep += t[LA_KEEP]
            dyn |= bits
            dyns |= (bits & D_ALL) << (6 * i)
            dying |= (bits // LA_DYING) << i
            if mode == LV_BASE:
                zx[FX_BASE + LA_ROWS + i] = bits
        if mode == LV_BASE:
            for c in range(LA_ROWS):
                zx[FX_BASE + c] = 0
            sums = (
                wood, food, crystal, age_all, per_dying, income, strength, n_strong, per_war,
                war_units, relic, dep, tokens, aging_lp, keep,
            )  # fmt: skip
            _la_add(zx, FX_BASE, sums, 1)
            return 0.0
    else:
        a = FX_PASS
        wood = _la(zx, a + LA_WOOD)
        food = _la(zx, a + LA_FOOD)
        crystal = _la(zx, a + LA_CRYSTAL)
        age_all = _la(zx, a + LA_AGE_ALL)
        per_dying = _la(zx, a + LA_PER_DYING)
        income = _la(zx, a + LA_INCOME)
        strength = _la(zx, a + LA_STRENGTH)
        n_strong = _la(zx, a + LA_STRONG)
        per_war = _la(zx, a + LA_PER_WAR)
        war_units = _la(zx, a + LA_WAR_UNITS)
        relic = _la(zx, a + LA_RELIC)
        dep = _la(zx, a + LA_DEP)
        tokens = _la(zx, a + LA_TOKENS)
        aging_lp = _la(zx, a + LA_AGING_LP)
        keep = _la(zx, a + LA_KEEP)
        for i in range(n):
            bits = _la(zx, a + LA_ROWS + i)
            dyn |= bits
            dyns |= (bits & D_ALL) << (6 * i)
            dying |= (bits // LA_DYING) << i
    income += rules[R_BASE_INCOME]
    fixed_terms(bt, ab, xt, wbl, zx, na)
    wood += zx[FX_WOOD]
    food += zx[FX_WOOD + 1]
    crystal += zx[FX_WOOD + 2]
    n_level2 = zx[FX_LEVEL2]
    # income, then strength (they read the income), as l_assess
    facts = (age_all, n_level2, 0, 0, na)
    for i in range(n if dyn & D_INCOME else 0):
        if (dyns >> (6 * i)) & D_INCOME:
            income += l_unit_income(
                ut, ab, wpc[i, PC_UNIT], wpc[i, PC_AGE], wpc[i, PC_SPOT], wpc, n, wood, food,
                crystal, facts,
            )  # fmt: skip
    income += fixed_gain(ut, bt, ab, zx, FS_INCOME, wpc, n, 1, wood, food, crystal, facts)
    facts = (age_all, n_level2, income, 0, na)
    for i in range(n if dyn & D_STRENGTH else 0):
        if (dyns >> (6 * i)) & D_STRENGTH:
            value, strong = l_piece_strength(ut, ab, rules, wpc, i, n, wood, food, crystal, facts)
            strength += value
            n_strong += strong
    strength += fixed_gain(ut, bt, ab, zx, FS_STRENGTH, wpc, n, 1, wood, food, crystal, facts)
    won, war_lp = fight(rules, two, strength, seen0, seen1)
    pww = wars_counted(rules, two, won)
    per_war *= pww
    facts = (age_all, n_level2, income, n_strong, na)
    end_facts = (age_all, n_level2, 0, 0, na)
    for i in range(n if dyn & (D_WAR | D_END | D_DEPLOY | D_DEATH) else 0):
        d = (dyns >> (6 * i)) & D_ALL
        u, age, spot = wpc[i, PC_UNIT], wpc[i, PC_AGE], wpc[i, PC_SPOT]
        if d & D_WAR:
            pw, wu, _, _ = l_unit_war(
                ut, ab, rules, u, age, spot, wpc, n, wood, food, crystal, facts
            )
            per_war += pw * pww
            war_units += wu
        if d & D_END:
            end_age = age + extra if never_dies(ut, u) else age
            relic += l_unit_end(ut, ab, u, end_age, spot, wpc, n, wood, food, crystal, end_facts)
        if d & D_DEPLOY and wpc[i, PC_FRESH]:
            dep += unit_gain(
                ut, ab, u, K_LP, PH_DEPLOYMENT, age, spot, wood, food, crystal, age_all, n_level2
            )
        if d & D_DEATH and (dying >> i) & 1:
            aging_lp += unit_death(ut, ab, u, age, spot, wood, food, crystal, age_all, n_level2)[0]
    war_fixed = fixed_gain(ut, bt, ab, zx, FS_WAR, wpc, n, pww, wood, food, crystal, facts)
    end_fixed = zx[FX_LP] + fixed_gain(
        ut, bt, ab, zx, FS_END, wpc, n, 1, wood, food, crystal, end_facts
    )
    if tokens:
        aging_lp += per_dying * tokens
    war = war_lp + per_war + war_units + war_fixed
    lp = (war, relic + end_fixed, dep + bonus, aging_lp)
    totals = (income, strength, wood, food, crystal, keep, n, n_level2, n_strong)
    return l_weighted(
        lx, weights, pol, bt, wbl, inset, turns - turn, lp + totals, gold, na, seen0, seen1, two
    )


@hot_outline
def l_value_full(
    tb, lx, weights, pol, pc, n, pdone, bl, sa, na, gold, bonus, seen0, seen1, two, turn, wpc,
    wbl, zx, inset,
):  # fmt: skip
    """``l_value`` step by step with the kingdom functions above (the reference's
    structure: project, assess, fight, war-phase LP, end LP, deployment LP, deaths): the
    oracle of ``l_value`` (tests; the kernel does not call it)."""
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
    return l_weighted(
        lx, weights, pol, bt, wbl, inset, turns - turn, lp + totals, gold, na, seen0, seen1, two
    )


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

    The caller made the sketch's first pass (``l_value``'s ``LV_BASE`` of ``pc[:n]``, once
    per decision): each option is valued from it (``l_option_pass``, ``LV_GIVEN``), a unit
    as a new row ``n``, an artifact with the rows as they are. (The counts go to
    ``l_value`` as int64, like ``kernel._lv``'s: one copy.)"""
    ut = tb[0]
    U = ut.shape[0]
    if t >= U:
        cost = l_art_cost_now(ut, tb[1], tb[2], lx[1], pc, n, bl, inset, na)
        sa[na, SA_X] = t - U
        sa[na, SA_PENDING] = 1
        sa[na, SA_DONE] = -1
        l_option_pass(tb, lx, pc, n, -1, 0, 0, 0, 0, turn, zx)
        v = l_value(
            tb, lx, weights, pol, pc, np.int64(n), pdone, bl, sa, np.int64(na + 1),
            np.int64(gold - cost), np.int64(0), seen0, seen1, two, turn, wpc, wbl, zx, inset,
            np.int64(LV_GIVEN),
        )  # fmt: skip
    else:
        cost = ut[t, U_COST]
        v = -np.inf
        for spot in (0, MAX_FRONT):
            m = l_option_pass(tb, lx, pc, n, n, spot, t, 0, 1, turn, zx)
            pdone[n] = -1
            w = l_value(
                tb, lx, weights, pol, pc, np.int64(m), pdone, bl, sa, np.int64(na),
                np.int64(gold - cost), np.int64(0), seen0, seen1, two, turn, wpc, wbl, zx, inset,
                np.int64(LV_GIVEN),
            )  # fmt: skip
            if w > v:
                v = w
    if cost > gold:
        v -= weights[pol, W_UNAFFORDABLE]
    return v


# --- the table ``l_value`` reads (``kernel.legends_lx``' ``lx[4]``) -------------------

# The Legends kinds no step of a kingdom's value reads: they act through the deployment
# tiers, the payments and ``l_project`` only.
SCORELESS_LEGENDS_KINDS = frozenset(
    (K_DEPLOY_ARTIFACT, K_REPEAT_DEPLOY, K_BUILD_FREE, K_ART_COST_MODIFIER)
)


def legends_dyn(ut: np.ndarray, ab: np.ndarray) -> np.ndarray:
    """``ldyn[u]``: the scoring steps (``D_*``) unit ``u`` computes from the kingdom in
    ``l_value``; the others are read from its base record (``evaluate.unit_records``). A
    base kind marks its steps as ``evaluate``'s ``KU_DYN`` does (a multiplier or condition
    that reads more than the unit); ``conditional_gain`` marks its phase's step (Income or
    War), whatever its counter; a kind of ``SCORELESS_LEGENDS_KINDS`` marks nothing; an
    unknown kind marks every step."""
    dyn = np.zeros(ut.shape[0], np.int32)
    for u in range(ut.shape[0]):
        for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
            kind = int(ab[j, A_KIND])
            if kind in BASE_KINDS:
                if (
                    ab[j, A_PER] not in SELF_CONTAINED_PER
                    or ab[j, A_WHEN] not in SELF_CONTAINED_WHEN
                ):
                    dyn[u] |= STEPS_OF_KIND.get(kind, 0)
            elif kind == K_CONDITIONAL_GAIN:
                dyn[u] |= {PH_INCOME: D_INCOME, PH_WAR: D_WAR}.get(int(ab[j, A_PHASE]), 0)
            elif kind not in SCORELESS_LEGENDS_KINDS:
                dyn[u] |= D_ALL
    return dyn
