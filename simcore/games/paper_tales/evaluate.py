"""Paper Tales, compiled: the scoring of one kingdom and the policies' value of it.

The kernel's twin of ``reference.py``'s module-level rule functions (``production``,
``assess``, ``fight``, ``war_phase_lp``, ``end_lp``, ``dies``, ``death_rewards``) and of
``reference.Brain.project`` / ``features`` / ``value``. A kingdom is a list of *pieces*, as
in the reference: rows of ``pc[MAX_PIECES, N_PC]`` (columns ``PC_*``), ``n`` of them, plus
the building levels ``bl[B]``. A list, not the 5 spots, because a policy's draft sketch puts
a virtual card on spot 0 or 3 beside the unit already there (``Brain.card_value``).
Every function is order-independent over the pieces (sums and counts only), so callers
may list them in any order.

Everything here is ``hot`` (inlined into its caller, no NRT, no allocation): the pieces and
building arrays are scratch rows the kernel owns. Ability kinds, conditions and
multipliers are read from the ``ab`` opcode table; no card is named.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simcore.jit import alloc, hot, hot_inline, hot_outline

from .policies import (
    F_AGING_LP,
    F_BUILDABLE,
    F_DEPLOY_LP,
    F_END_LP,
    F_GOLD,
    F_INCOME,
    F_KEEP,
    F_LEVEL2,
    F_MARGIN,
    F_PROD,
    F_STRENGTH,
    F_STRONG,
    F_UNITS,
    F_WAR_LP,
    MARGIN_CAP,
)
from .scoring import (
    K_ADD_AGE,
    K_ADD_STRENGTH,
    K_CANNOT_FIGHT,
    K_DEATH_GOLD,
    K_DEATH_LP,
    K_DIES_AT_AGE,
    K_FIGHT_FROM_BACK,
    K_GOLD,
    K_GOLD_PER_WAR_WON,
    K_LP,
    K_LP_PER_DYING_AGE,
    K_LP_PER_WAR_WON,
    K_NEVER_DIES,
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
    W_AGED,
    W_ALWAYS,
    W_EXACTLY_ONE_AGE,
    W_FRONT_ROW,
    W_HAS_FOOD,
)
from .tables import (
    A_AMOUNT,
    A_KIND,
    A_MIN_AGE,
    A_ON_DEPLOY,
    A_PER,
    A_PHASE,
    A_TARGET,
    A_VALUE,
    A_WHEN,
    B_AB0,
    B_LP,
    B_NAB,
    B_PROD0,
    B_REQ0,
    LEVELS,
    MAX_ABILITIES,
    MAX_AGE,
    MAX_FRONT,
    MAX_SPOTS,
    N_BCOLS,
    N_RES,
    N_UCOLS,
    R2_DOUBLE_LP,
    R2_DOUBLE_RATIO,
    R2_PWW_TIMES,
    R2_WAR_LP,
    R2_ZERO_WINS,
    R_BASE_INCOME,
    R_PWW_FRONT_ONLY,
    R_STRONG_FRONT_ONLY,
    R_STRONG_MIN,
    R_TURNS,
    R_WAR_LP,
    U_AB0,
    U_NAB,
    U_PROD0,
    U_PROD_PER,
    U_PROD_WHEN,
    U_STRENGTH,
    ix,
)

# --- a piece: one unit on a (possibly virtual) spot ----------------------------------------
PC_SPOT = 0  # spot 0..4 (0..2 Front, 3..4 Back)
PC_UNIT = 1  # unit index (``ut`` row)
PC_AGE = 2  # age tokens
PC_PENDING = 3  # 1: placed, on-deploy abilities not resolved (projected by policies)
PC_FRESH = 4  # 1: placed in this Deployment phase
N_PC = 5
MAX_PIECES = MAX_SPOTS + 1  # 5 spots + the virtual card of a draft/keep sketch (card_value)


# --- ability-kind masks (``kernel_tables``): bit k set = the unit / face has an ability of
# Effect k. The evaluator skips the ability loops a mask rules out (same results, faster).
KB_MASK = N_BCOLS  # extra column of the kernel's ``bt``
# --- the kernel's extra ``ut`` columns (``kernel_tables``) ------------------------------------
KU_MASK = N_UCOLS  # the ability-kind mask
KU_DYN = N_UCOLS + 1  # scoring steps (D_*) where an ability reads more than the unit itself
KU_SELF_AGE = N_UCOLS + 2  # tokens its on-deploy add_age puts on itself (projection)
KU_OTHERS_AGE = N_UCOLS + 3  # ... on each other unit of its owner (projection)
KU_UPGRADE = N_UCOLS + 4  # 1: on deploy, every level-1 building becomes level 2
KU_PER_DYING = N_UCOLS + 5  # LP per token on the owner's dying units
KU_FRONT_FIRST = (
    N_UCOLS + 6
)  # 1: its Front-row records dominate its Back-row ones (``front_first``)
N_KU = N_UCOLS + 7
# --- scoring steps of a unit (bits of KU_DYN) -------------------------------------------------
D_INCOME, D_STRENGTH, D_WAR, D_END, D_DEPLOY, D_DEATH = 1, 2, 4, 8, 16, 32
D_ALL = 63
# The steps each base kind is read in (kinds absent here are read by no step of a
# kingdom's value: production, tokens and dying have their own columns and records; an
# unknown kind, e.g. an expansion's, counts as read everywhere).
STEPS_OF_KIND = {
    K_GOLD: D_INCOME,
    K_SET_STRENGTH: D_STRENGTH,
    K_ADD_STRENGTH: D_STRENGTH,
    K_CANNOT_FIGHT: D_STRENGTH,
    K_FIGHT_FROM_BACK: D_STRENGTH,
    K_LP_PER_WAR_WON: D_WAR,
    K_GOLD_PER_WAR_WON: D_WAR,
    K_LP: D_WAR | D_END | D_DEPLOY,
    K_DEATH_LP: D_DEATH,
    K_DEATH_GOLD: D_DEATH,
}
BASE_KINDS = frozenset(range(K_LP_PER_DYING_AGE + 1))  # the base game's 19 kinds
# An ability is self-contained when its multiplier and condition read only the unit (its
# tokens, its row): a unit's share of a step whose abilities are all self-contained is a
# function of (unit, row, tokens), tabulated by ``unit_records``; the other steps are
# computed from the kingdom's totals.
SELF_CONTAINED_PER = frozenset((P_ONE, P_AGE_SELF))
SELF_CONTAINED_WHEN = frozenset((W_ALWAYS, W_AGED, W_EXACTLY_ONE_AGE, W_FRONT_ROW))
# --- unit records ``ur[u, row, age, UR_*]`` (``unit_records``) ------------------------------
UR_WOOD, UR_FOOD, UR_CRYSTAL = 0, 1, 2  # production
UR_INCOME = 3  # income abilities' gold
UR_STRENGTH = 4  # strength counted in the kingdom's (0 in the Back row without fight_from_back)
UR_STRONG = 5  # 1: counts as a strong unit
UR_PER_WAR = 6  # per-war-won LP for one war
UR_WAR_LP = 7  # war-phase 'lp'
UR_END_LP = 8  # end-phase 'lp' (Relic)
UR_DEPLOY_LP = 9  # deployment 'lp' (Kraken)
UR_DIES = 10  # 1: dies in Aging
UR_DEATH_LP = 11  # death_lp when it dies
W_DYN, W_DYING = PC_SPOT, PC_PENDING  # columns of ``value``'s scratch rows
# --- the totals of ``value``'s first pass (``piece_terms``), an int64 row ``acc[AC_*]`` -------
AC_WOOD, AC_FOOD, AC_CRYSTAL, AC_AGE_ALL, AC_PER_DYING, AC_INCOME, AC_STRENGTH = range(7)
AC_STRONG, AC_PER_WAR, AC_WAR_UNITS, AC_RELIC, AC_DEP, AC_TOKENS, AC_AGING_LP = range(7, 14)
AC_KEEP = 14  # printed strength of the units that survive Aging
AC_DYN = 15  # pieces with a step computed from the kingdom's totals (``W_DYN`` != 0)
N_AC = 16
N_UR = 16  # padded: one 64-byte line a record
UR_AGES = MAX_AGE + 10  # tokens tabulated: the box's 30 + projections and Agings left
# --- the building cache ``bc`` (``faces_of``): what a configuration of levels gives -----------
BC_KEY = 0  # the levels as a base-3 number; -1: empty
BC_WOOD, BC_FOOD, BC_CRYSTAL = 1, 2, 3  # production
BC_LEVEL2 = 4  # level-2 buildings
BC_LP = 5  # end LP of the faces shown
BC_N0 = 6  # BC_N0 + step: its face-ability terms
BS_INCOME, BS_STRENGTH, BS_WAR, BS_END = 0, 1, 2, 3  # the steps that read face abilities
N_BS = 4
BC_TERMS = BC_N0 + N_BS  # then per step, room for every ability of every face: the terms
# (when, per, amount) of its face abilities (``face_room``)


@hot
def face_room(n_buildings):
    """Terms a step may hold in ``bc``: every ability of every face (``MAX_ABILITIES`` a
    face). ``bc`` holds ``BC_TERMS + N_BS * face_room(B) * 3`` ints."""
    return n_buildings * LEVELS * MAX_ABILITIES


M_GOLD = 1 << K_GOLD
M_STRENGTH = (
    (1 << K_SET_STRENGTH) | (1 << K_ADD_STRENGTH) | (1 << K_CANNOT_FIGHT) | (1 << K_FIGHT_FROM_BACK)
)
M_ADD_STRENGTH = 1 << K_ADD_STRENGTH
M_LP = 1 << K_LP
M_WAR_UNIT = (1 << K_LP_PER_WAR_WON) | (1 << K_GOLD_PER_WAR_WON) | M_LP
M_NEVER_DIES = 1 << K_NEVER_DIES
M_DYING = M_NEVER_DIES | (1 << K_DIES_AT_AGE)
M_DEATH = (1 << K_DEATH_LP) | (1 << K_DEATH_GOLD)
M_PER_DYING = 1 << K_LP_PER_DYING_AGE
M_PROJECT = (1 << K_ADD_AGE) | (1 << K_UPGRADE_BUILDINGS)


@hot
def face_mask(bt, bl):
    """The kinds of every building face a kingdom shows."""
    m = 0
    for b in range(bt.shape[0]):
        for k in range(bl[b]):
            m |= bt[b, k, KB_MASK]
    return m


@hot_inline
def when_holds(when, age, spot, food, crystal):
    """Condition ``when`` for a unit with ``age`` tokens on ``spot`` (a building: 0, -1)."""
    if when == W_ALWAYS:
        return True
    if when == W_AGED:
        return age >= 1
    if when == W_EXACTLY_ONE_AGE:
        return age == 1
    if when == W_FRONT_ROW:
        return 0 <= spot < MAX_FRONT
    if when == W_HAS_FOOD:
        return food >= 1
    return crystal >= 1  # W_HAS_CRYSTAL


@hot_inline
def per_value(per, age, age_all, wood, food, crystal, income, n_level2, n_strong):
    """Multiplier ``per`` (``age``: tokens on the unit, 0 for a building). A multiplier a
    phase does not know (the loader forbids those) is 0."""
    if per == P_ONE:
        return 1
    if per == P_AGE_SELF:
        return age
    if per == P_AGE_KINGDOM:
        return age_all
    if per == P_WOOD:
        return wood
    if per == P_FOOD:
        return food
    if per == P_CRYSTAL:
        return crystal
    if per == P_INCOME_GOLD:
        return income
    if per == P_LEVEL2_BUILDINGS:
        return n_level2
    if per == P_STRONG_UNITS:
        return n_strong
    return 0


# --- one unit's share of each scoring step (the loop bodies of the kingdom functions below;
# ``unit_records`` tabulates them for the units whose share depends on the unit alone) ------


@hot
def unit_production(ut, u, age, spot, food, crystal):
    """(wood, food, crystal) one unit produces (gated by its own tokens/row)."""
    if not when_holds(ut[u, U_PROD_WHEN], age, spot, food, crystal):
        return 0, 0, 0
    mult = age if ut[u, U_PROD_PER] == P_AGE_SELF else 1
    return ut[u, U_PROD0] * mult, ut[u, U_PROD0 + 1] * mult, ut[u, U_PROD0 + 2] * mult


@hot
def unit_strength(ut, ab, u, age, spot, wood, food, crystal, income, age_all, n_level2):
    """(strength, fights from the Back row) of one unit: printed, ``set_strength``,
    ``add_strength``, ``cannot_fight``."""
    lo = ut[u, U_AB0]
    hi = lo + ut[u, U_NAB]
    value = ut[u, U_STRENGTH]
    from_back = False
    if not ut[u, KU_MASK] & M_STRENGTH:
        hi = lo  # no strength ability: the printed strength
    for j in range(lo, hi):
        kind = ab[j, A_KIND]
        if kind == K_SET_STRENGTH and when_holds(ab[j, A_WHEN], age, spot, food, crystal):
            value = ab[j, A_VALUE]
        elif kind == K_FIGHT_FROM_BACK:
            from_back = True
    for j in range(lo, hi):
        if ab[j, A_KIND] == K_ADD_STRENGTH:
            value += ab[j, A_AMOUNT] * per_value(
                ab[j, A_PER], age, age_all, wood, food, crystal, income, n_level2, 0
            )
    for j in range(lo, hi):
        if ab[j, A_KIND] == K_CANNOT_FIGHT and when_holds(ab[j, A_WHEN], age, spot, food, crystal):
            value = 0
    return value, from_back


@hot
def unit_war(ut, ab, rules, u, age, spot, wood, food, crystal, income, age_all, n_level2, n_strong):
    """(per-war-won LP for one war, war-phase ``lp``, gold per war won) of one unit."""
    per_war = war_units = gold = 0
    if not ut[u, KU_MASK] & M_WAR_UNIT:
        return per_war, war_units, gold
    counts = spot < MAX_FRONT or not rules[R_PWW_FRONT_ONLY]
    for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
        kind = ab[j, A_KIND]
        if kind == K_LP_PER_WAR_WON and counts:
            mult = per_value(
                ab[j, A_PER], age, age_all, wood, food, crystal, income, n_level2, n_strong
            )
            per_war += ab[j, A_AMOUNT] * mult
        elif kind == K_GOLD_PER_WAR_WON and counts:
            gold += ab[j, A_AMOUNT]
        elif (
            kind == K_LP
            and ab[j, A_PHASE] == PH_WAR
            and when_holds(ab[j, A_WHEN], age, spot, food, crystal)
        ):
            mult = per_value(
                ab[j, A_PER], age, age_all, wood, food, crystal, income, n_level2, n_strong
            )
            war_units += ab[j, A_AMOUNT] * mult
    return per_war, war_units, gold


@hot
def unit_gain(ut, ab, u, kind, phase, age, spot, wood, food, crystal, age_all, n_level2):
    """One unit's ``kind`` abilities of ``phase`` whose condition holds, times their
    multiplier: income ``gold``; ``lp`` of the End (Relic) or Deployment (Kraken)."""
    gain = 0
    if not ut[u, KU_MASK] & (1 << kind):
        return gain
    for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
        if (
            ab[j, A_KIND] == kind
            and ab[j, A_PHASE] == phase
            and when_holds(ab[j, A_WHEN], age, spot, food, crystal)
        ):
            gain += ab[j, A_AMOUNT] * per_value(
                ab[j, A_PER], age, age_all, wood, food, crystal, 0, n_level2, 0
            )
    return gain


@hot
def unit_death(ut, ab, u, age, spot, wood, food, crystal, age_all, n_level2):
    """(LP, gold) of one unit's ``death_lp`` / ``death_gold`` when it dies."""
    lp = gold = 0
    if not ut[u, KU_MASK] & M_DEATH:
        return lp, gold
    for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
        kind = ab[j, A_KIND]
        if kind == K_DEATH_LP:
            if when_holds(ab[j, A_WHEN], age, spot, food, crystal):
                lp += ab[j, A_AMOUNT] * per_value(
                    ab[j, A_PER], age, age_all, wood, food, crystal, 0, n_level2, 0
                )
        elif kind == K_DEATH_GOLD:
            gold += ab[j, A_AMOUNT] * per_value(
                ab[j, A_PER], age, age_all, wood, food, crystal, 0, n_level2, 0
            )
    return lp, gold


@hot
def face_gain(
    bt, ab, bl, kind, phase, check_when, age_all, wood, food, crystal, income, n_level2, n_strong
):
    """Sum over the faces a kingdom shows of their ``kind`` abilities (of ``phase``; -1: any
    phase; ``check_when``: only those whose condition holds)."""
    total = 0
    bit = 1 << kind
    for b in range(bt.shape[0]):
        for k in range(bl[b]):
            if not bt[b, k, KB_MASK] & bit:
                continue
            for j in range(bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB]):
                if (
                    ab[j, A_KIND] == kind
                    and (phase < 0 or ab[j, A_PHASE] == phase)
                    and (not check_when or when_holds(ab[j, A_WHEN], 0, -1, food, crystal))
                ):
                    total += ab[j, A_AMOUNT] * per_value(
                        ab[j, A_PER], 0, age_all, wood, food, crystal, income, n_level2, n_strong
                    )
    return total


# --- a kingdom: the reference's rule functions ------------------------------------------------


@hot
def production(ut, bt, pc, n, bl):
    """(wood, food, crystal) produced: units gated by their own tokens/row, building faces."""
    wood = food = crystal = 0
    for i in range(n):
        w, f, c = unit_production(ut, pc[i, PC_UNIT], pc[i, PC_AGE], pc[i, PC_SPOT], food, crystal)
        wood += w
        food += f
        crystal += c
    for b in range(bt.shape[0]):
        for k in range(bl[b]):
            wood += bt[b, k, B_PROD0]
            food += bt[b, k, B_PROD0 + 1]
            crystal += bt[b, k, B_PROD0 + 2]
    return wood, food, crystal


@hot
def base_facts(bt, pc, n, bl):
    """(tokens on all units, level-2 buildings): the multipliers every phase knows."""
    age_all = 0
    for i in range(n):
        age_all += pc[i, PC_AGE]
    n_level2 = 0
    for b in range(bt.shape[0]):
        if bl[b] == LEVELS:
            n_level2 += 1
    return age_all, n_level2


@hot
def assess(ut, bt, ab, rules, pc, n, bl):
    """``reference.assess``: (wood, food, crystal, income, strength, age_all, n_level2,
    n_strong). Unit strength: printed, ``set_strength``, ``add_strength``, ``cannot_fight``;
    Back-row units count only with ``fight_from_back``; building ``add_strength`` adds to
    the total."""
    wood, food, crystal = production(ut, bt, pc, n, bl)
    age_all, n_level2 = base_facts(bt, pc, n, bl)
    faces = face_mask(bt, bl)
    income = rules[R_BASE_INCOME]
    for i in range(n):
        income += unit_gain(
            ut, ab, pc[i, PC_UNIT], K_GOLD, PH_INCOME, pc[i, PC_AGE], pc[i, PC_SPOT], wood,
            food, crystal, age_all, n_level2,
        )  # fmt: skip
    if faces & M_GOLD:
        income += face_gain(
            bt, ab, bl, K_GOLD, PH_INCOME, True, age_all, wood, food, crystal, 0, n_level2, 0
        )
    total = 0
    n_strong = 0
    strong_min = rules[R_STRONG_MIN]
    front_only = rules[R_STRONG_FRONT_ONLY]
    for i in range(n):
        spot = pc[i, PC_SPOT]
        value, from_back = unit_strength(
            ut, ab, pc[i, PC_UNIT], pc[i, PC_AGE], spot, wood, food, crystal, income,
            age_all, n_level2,
        )  # fmt: skip
        front = spot < MAX_FRONT
        if front or from_back:
            total += value
        if value >= strong_min and (front or not front_only):
            n_strong += 1
    if faces & M_ADD_STRENGTH:
        total += face_gain(
            bt, ab, bl, K_ADD_STRENGTH, -1, False, age_all, wood, food, crystal, income,
            n_level2, 0,
        )  # fmt: skip
    return wood, food, crystal, income, total, age_all, n_level2, n_strong


@hot
def fight(rules, two, mine, s0, s1):
    """``reference.fight``: (wars won, war LP) against the neighbours' strengths ``s0``,
    ``s1`` (``two``: the 2-player single war against ``s0``)."""
    if two:
        if mine >= s0 and (mine > 0 or rules[R2_ZERO_WINS]):
            if mine >= rules[R2_DOUBLE_RATIO] * s0:
                return 1, rules[R2_DOUBLE_LP]
            return 1, rules[R2_WAR_LP]
        return 0, 0
    won = 0
    if mine >= s0:
        won += 1
    if mine >= s1:
        won += 1
    return won, won * rules[R_WAR_LP]


@hot
def wars_counted(rules, two, won):
    """How many times per-war-won abilities count (2 players: ``R2_PWW_TIMES`` if won)."""
    if two and won:
        return rules[R2_PWW_TIMES]
    return won


@hot
def war_phase_lp(
    ut, bt, ab, rules, pc, n, bl, two, won, wood, food, crystal, income, age_all, n_level2, n_strong
):
    """``reference.war_phase_lp``: (per_war_won, war_units, war_buildings LP, war gold)."""
    pww = wars_counted(rules, two, won)
    per_war = war_units = war_buildings = gold = 0
    for i in range(n):
        pw, wu, g = unit_war(
            ut, ab, rules, pc[i, PC_UNIT], pc[i, PC_AGE], pc[i, PC_SPOT], wood, food, crystal,
            income, age_all, n_level2, n_strong,
        )  # fmt: skip
        per_war += pw * pww
        war_units += wu
        gold += g * pww
    if face_mask(bt, bl) & M_LP:
        war_buildings = face_gain(
            bt, ab, bl, K_LP, PH_WAR, True, age_all, wood, food, crystal, income, n_level2,
            n_strong,
        )  # fmt: skip
    return per_war, war_units, war_buildings, gold


@hot
def never_dies(ut, u):
    return ut[ix(u), KU_MASK] & M_NEVER_DIES != 0


@hot
def end_lp(ut, bt, ab, pc, n, bl, extra_age, wood, food, crystal, age_all, n_level2):
    """``reference.end_lp``: (building LP, unit end LP). ``extra_age``: tokens added to the
    units that never die (the policies' end projection; 0 in the real End phase)."""
    buildings = relic = 0
    for b in range(bt.shape[0]):
        lv = bl[b]
        if lv:
            buildings += bt[b, lv - 1, B_LP]
    if face_mask(bt, bl) & M_LP:
        buildings += face_gain(
            bt, ab, bl, K_LP, PH_END, True, age_all, wood, food, crystal, 0, n_level2, 0
        )
    for i in range(n):
        u = pc[i, PC_UNIT]
        age = pc[i, PC_AGE]
        if extra_age and never_dies(ut, u):
            age += extra_age
        relic += unit_gain(
            ut, ab, u, K_LP, PH_END, age, pc[i, PC_SPOT], wood, food, crystal, age_all, n_level2
        )
    return buildings, relic


@hot
def dies(ut, ab, u, age):
    """§2.6: >= 1 token dies, unless ``never_dies``; ``dies_at_age`` raises the threshold."""
    need = 1
    if not ut[u, KU_MASK] & M_DYING:
        return age >= need
    for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
        kind = ab[j, A_KIND]
        if kind == K_NEVER_DIES:
            return False
        if kind == K_DIES_AT_AGE:
            need = ab[j, A_MIN_AGE]
    return age >= need


@hot
def death_rewards(ut, ab, pc, n, mask, wood, food, crystal, age_all, n_level2):
    """``reference.death_rewards``: (LP, gold) of the pieces whose bit is set in ``mask``
    dying (their ``death_lp``/``death_gold``, every piece's ``lp_per_dying_age``)."""
    lp = gold = tokens = 0
    for i in range(n):
        if not (mask >> i) & 1:
            continue
        age = pc[i, PC_AGE]
        tokens += age
        dl, dg = unit_death(
            ut, ab, pc[i, PC_UNIT], age, pc[i, PC_SPOT], wood, food, crystal, age_all, n_level2
        )
        lp += dl
        gold += dg
    for i in range(n if tokens else 0):
        lp += ut[pc[i, PC_UNIT], KU_PER_DYING] * tokens
    return lp, gold


@hot
def deploy_lp(ut, ab, pc, n, fresh_only, wood, food, crystal, age_all, n_level2):
    """Deployment-phase ``lp`` of the pieces (``fresh_only``: placed this phase)."""
    lp = 0
    for i in range(n):
        if fresh_only and not pc[i, PC_FRESH]:
            continue
        lp += unit_gain(
            ut, ab, pc[i, PC_UNIT], K_LP, PH_DEPLOYMENT, pc[i, PC_AGE], pc[i, PC_SPOT], wood, food,
            crystal, age_all, n_level2,
        )  # fmt: skip
    return lp


@hot
def project(ut, bt, ab, pc, n, bl, wpc, wbl):
    """``Brain.project`` into ``wpc``/``wbl``: the pending pieces' predictable on-deploy
    effects (``add_age`` on self / others per one, ``upgrade_buildings``)."""
    others = 0
    upgrade = 0
    for i in range(n):
        if pc[i, PC_PENDING]:
            others += ut[pc[i, PC_UNIT], KU_OTHERS_AGE]
            upgrade |= ut[pc[i, PC_UNIT], KU_UPGRADE]
    for i in range(n):
        for c in range(N_PC):
            wpc[i, c] = pc[i, c]
        wpc[i, PC_AGE] += others
        if pc[i, PC_PENDING]:
            u = pc[i, PC_UNIT]
            wpc[i, PC_AGE] += ut[u, KU_SELF_AGE] - ut[u, KU_OTHERS_AGE]
            wpc[i, PC_PENDING] = 0
    for b in range(bt.shape[0]):
        wbl[b] = LEVELS if upgrade and bl[b] == 1 else bl[b]


@hot
def buildable(bt, bl, wood, food, crystal):
    """Buildings whose next level's printed requirement is produced (gold ignored)."""
    count = 0
    for b in range(bt.shape[0]):
        lv = bl[b]
        if lv < 2 and (
            wood >= bt[b, ix(lv), B_REQ0]
            and food >= bt[b, ix(lv), B_REQ0 + 1]
            and crystal >= bt[b, ix(lv), B_REQ0 + 2]
        ):
            count += 1
    return count


@hot
def clamp_margin(d):
    if d < -MARGIN_CAP:
        return -MARGIN_CAP
    if d > MARGIN_CAP:
        return MARGIN_CAP
    return d


@hot
def weighted(w, pol, bt, bl, left, kingdom, gold, seen0, seen1, two):
    """The 14 features of a kingdom's totals ``kingdom`` (war LP, end LP, deployment LP,
    aging LP, income, strength, wood, food, crystal, printed strength surviving Aging,
    pieces, level-2 buildings, strong units) times the policy's weights, summed in feature
    order (float64, as the reference does)."""
    war, end, dep, aging, income, strength, wood, food, crystal, keep, n, n_level2, n_strong = (
        kingdom
    )
    margin = clamp_margin(strength - seen0)
    if not two:
        margin += clamp_margin(strength - seen1)
    wp = w[ix(pol)]
    v = 0.0
    v += wp[F_WAR_LP] * war
    v += wp[F_END_LP] * end
    v += wp[F_DEPLOY_LP] * dep
    v += wp[F_AGING_LP] * aging
    v += wp[F_INCOME] * income
    v += wp[F_GOLD] * gold
    v += wp[F_STRENGTH] * strength
    v += wp[F_MARGIN] * margin
    v += wp[F_PROD] * ((wood + food + crystal) * left)
    v += wp[F_BUILDABLE] * (buildable(bt, bl, wood, food, crystal) * left)
    v += wp[F_KEEP] * (keep * left)
    v += wp[F_UNITS] * n
    v += wp[F_LEVEL2] * (n_level2 * left)
    v += wp[F_STRONG] * n_strong
    return v


@hot_outline
def value_full(tb, weights, pol, pc, n, bl, gold, seen0, seen1, two, turn, wpc, wbl):
    """``Brain.value`` step by step with the kingdom functions above (the reference's
    structure): the oracle of ``value`` (tests)."""
    ut, bt, ab, rules = tb[0], tb[1], tb[2], tb[3]
    project(ut, bt, ab, pc, n, bl, wpc, wbl)
    wood, food, crystal, income, strength, age_all, n_level2, n_strong = assess(
        ut, bt, ab, rules, wpc, n, wbl
    )
    won, war_lp = fight(rules, two, strength, seen0, seen1)
    per_war, war_units, war_buildings, _ = war_phase_lp(
        ut, bt, ab, rules, wpc, n, wbl, two, won, wood, food, crystal, income, age_all,
        n_level2, n_strong,
    )  # fmt: skip
    turns = rules[R_TURNS]
    end_b, end_r = end_lp(
        ut, bt, ab, wpc, n, wbl, turns - turn + 1, wood, food, crystal, age_all, n_level2
    )
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
    war = war_lp + per_war + war_units + war_buildings
    lp = (war, end_b + end_r, dep, aging_lp)
    totals = (income, strength, wood, food, crystal, keep, n, n_level2, n_strong)
    return weighted(weights, pol, bt, wbl, turns - turn, lp + totals, gold, seen0, seen1, two)


@hot
def faces_of(bt, ab, bl, key, bc):
    """Fill the building cache ``bc`` for the levels ``bl`` (configuration ``key``): their
    production, level-2 count, end LP of the faces, and each face ability a kingdom's value
    reads (``face_gain``'s four uses) as a term (when, per, amount) of its step ``BS_*``."""
    bc[BC_KEY] = key
    for c in range(BC_WOOD, BC_TERMS):
        bc[c] = 0
    for b in range(bt.shape[0]):
        lv = bl[b]
        if lv == LEVELS:
            bc[BC_LEVEL2] += 1
        if lv:
            bc[BC_LP] += bt[b, lv - 1, B_LP]
        for k in range(lv):
            add_face(bt, ab, b, k, bc, 1)


@hot
def add_face(bt, ab, b, k, bc, sign):
    """Face ``k`` of building ``b`` into the cache ``bc`` (``sign`` 1): its production and
    its abilities' terms, appended to their steps' lists; ``sign`` -1 takes back the face
    added last (the lists' counts go down)."""
    for r in range(N_RES):
        bc[BC_WOOD + r] += sign * bt[b, k, B_PROD0 + r]
    for j in range(bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB]):
        kind = ab[j, A_KIND]
        phase = ab[j, A_PHASE]
        when = ab[j, A_WHEN]
        step = -1
        if kind == K_GOLD and phase == PH_INCOME:
            step = BS_INCOME
        elif kind == K_ADD_STRENGTH:
            step = BS_STRENGTH
            when = W_ALWAYS  # assess adds it whatever its condition
        elif kind == K_LP and phase == PH_WAR:
            step = BS_WAR
        elif kind == K_LP and phase == PH_END:
            step = BS_END
        if step < 0:
            continue
        if sign > 0:
            t = BC_TERMS + (step * face_room(bt.shape[0]) + bc[BC_N0 + step]) * 3
            bc[t] = when
            bc[t + 1] = ab[j, A_PER]
            bc[t + 2] = ab[j, A_AMOUNT]
        bc[BC_N0 + step] += sign


@hot
def raise_building(bt, ab, bc, b, lv, level, sign):
    """The cache ``bc`` with building ``b`` at ``level`` instead of ``lv`` (``sign`` 1), or
    back (``sign`` -1, right after): the faces ``lv .. level - 1`` (``add_face``), the end
    LP of its top face, the level-2 count. Its key is left as it was: a construction
    option's levels are valued from the seat's cache and put back before anything reads
    the key."""
    for k in range(lv, level):
        add_face(bt, ab, b, k, bc, sign)
    bc[BC_LP] += sign * (bt[b, level - 1, B_LP] - (bt[b, lv - 1, B_LP] if lv else 0))
    if level == LEVELS:
        bc[BC_LEVEL2] += sign


@hot
def face_terms(bt, bc, step, age_all, wood, food, crystal, income, n_level2, n_strong):
    """The cached face abilities of ``step`` (``faces_of``) with the kingdom's totals."""
    gain = 0
    t = BC_TERMS + step * face_room(bt.shape[0]) * 3
    for _ in range(bc[BC_N0 + step]):
        if when_holds(bc[ix(t)], 0, -1, food, crystal):
            gain += bc[ix(t + 2)] * per_value(
                bc[ix(t + 1)], 0, age_all, wood, food, crystal, income, n_level2, n_strong
            )
        t += 3
    return gain


@hot
def strong_terms_nonnegative(bt, bc):
    """No cached war-phase face ability (``faces_of``) loses LP per strong unit."""
    t = BC_TERMS + BS_WAR * face_room(bt.shape[0]) * 3
    for _ in range(bc[BC_N0 + BS_WAR]):
        if bc[ix(t + 1)] == P_STRONG_UNITS and bc[ix(t + 2)] < 0:
            return False
        t += 3
    return True


@hot
def project_levels(ut, bt, ab, pc, n, bl, wbl, bc):
    """``Brain.project``'s part that the pieces' totals do not depend on: the levels ``bl``
    with a pending Golem's upgrade into ``wbl`` and their building cache ``bc`` (rebuilt
    on a new configuration). Returns (tokens the pending pieces' on-deploy abilities put on
    each other piece, 1 if a pending piece upgrades the buildings)."""
    others = 0
    upgrade = 0
    for i in range(n):
        if pc[i, PC_PENDING]:
            others += ut[pc[i, PC_UNIT], KU_OTHERS_AGE]
            upgrade |= ut[pc[i, PC_UNIT], KU_UPGRADE]
    key = 0
    for b in range(bt.shape[0]):
        lv = bl[b]
        if upgrade and lv == 1:
            lv = LEVELS
        wbl[b] = lv
        key = key * (LEVELS + 1) + lv
    if bc[BC_KEY] != key:
        faces_of(bt, ab, wbl, key, bc)
    return others, upgrade


@hot
def piece_terms(ut, ab, ur, pc, i, others, extra, wpc, acc, sign):
    """Add (``sign`` 1) or take back (-1) piece ``i``'s share of the totals in ``acc``
    (``AC_*``; every step its abilities do not read the kingdom in, from its unit record)
    and write its scratch row ``wpc[i]``: (steps from the totals ``W_DYN``, -, projected
    tokens, dying ``W_DYING``, -). ``others``: ``project_levels``' tokens; ``extra``: the
    Agings left. The shares are integers: the totals do not depend on the pieces' order,
    so a decision can value its options from one first pass (``value_totals``)."""
    k = ix(i)
    u = pc[k, PC_UNIT]
    uu = ix(u)
    age = pc[k, PC_AGE] + others
    if pc[k, PC_PENDING]:
        age += ut[uu, KU_SELF_AGE] - ut[uu, KU_OTHERS_AGE]
    end_age = age + extra if never_dies(ut, u) else age
    spot = pc[k, PC_SPOT]
    row = ix(0 if spot < MAX_FRONT else 1)
    d = ut[uu, KU_DYN]
    r = ur[uu, row, 0]
    if age >= 0 and end_age < UR_AGES:
        r = ur[uu, row, ix(age)]
        wood, food, crystal = r[UR_WOOD], r[UR_FOOD], r[UR_CRYSTAL]
        dying = r[UR_DIES] == 1
    else:  # beyond the records: every step from the functions (production and death
        d = D_ALL  # read only the unit: the loader keeps them self-contained)
        wood, food, crystal = unit_production(ut, u, age, spot, 0, 0)
        dying = dies(ut, ab, u, age)
    wpc[k, W_DYN] = d
    if d:
        acc[AC_DYN] += sign
    wpc[k, PC_AGE] = age
    wpc[k, W_DYING] = dying
    acc[AC_WOOD] += sign * wood
    acc[AC_FOOD] += sign * food
    acc[AC_CRYSTAL] += sign * crystal
    acc[AC_AGE_ALL] += sign * age
    acc[AC_PER_DYING] += sign * ut[uu, KU_PER_DYING]
    if not d & D_INCOME:
        acc[AC_INCOME] += sign * r[UR_INCOME]
    if not d & D_STRENGTH:
        acc[AC_STRENGTH] += sign * r[UR_STRENGTH]
        acc[AC_STRONG] += sign * r[UR_STRONG]
    if not d & D_WAR:
        acc[AC_PER_WAR] += sign * r[UR_PER_WAR]
        acc[AC_WAR_UNITS] += sign * r[UR_WAR_LP]
    if not d & D_END:
        acc[AC_RELIC] += sign * ur[uu, row, ix(end_age), UR_END_LP]
    if pc[k, PC_FRESH] and not d & D_DEPLOY:
        acc[AC_DEP] += sign * r[UR_DEPLOY_LP]
    if dying:
        acc[AC_TOKENS] += sign * age
        if not d & D_DEATH:
            acc[AC_AGING_LP] += sign * r[UR_DEATH_LP]
    else:
        acc[AC_KEEP] += sign * ut[uu, U_STRENGTH]


@hot
def value(tb, weights, pol, pc, n, bl, gold, seen0, seen1, two, turn, wpc, wbl, bc, acc):
    """``Brain.value``: the weighted features of the kingdom ``pc[:n]``/``bl`` with ``gold``,
    against the frozen neighbour strengths ``seen0``/``seen1``, summed in feature order in
    float64 exactly as the reference does. ``wpc``/``wbl``/``acc``: scratch; ``bc``: the
    building cache (``faces_of``), kept from call to call (the options of one decision
    share their buildings).

    The same integers as ``value_full``, read from tables instead of interpreted: a unit
    adds its ``unit_records`` row (its share of each step at its projected tokens and row)
    for every step its abilities do not read the kingdom in (``KU_DYN``); the other steps,
    and the building faces' abilities, are computed with the kingdom's totals (so are all
    steps of a unit projected beyond the records' tokens). Inlined (``hot``) into its
    callers: as a call it marshalled 12 arrays ~1,250 times a game (+7% greedy)."""
    first_pass(tb, pc, n, bl, turn, wpc, wbl, bc, acc)
    return value_totals(tb, weights, pol, pc, n, wpc, wbl, bc, acc, gold, seen0, seen1, two, turn)


@hot
def first_pass(tb, pc, n, bl, turn, wpc, wbl, bc, acc):
    """``value``'s first pass over the kingdom ``pc[:n]``/``bl``: the projected levels into
    ``wbl``/``bc`` (``project_levels``), every piece's share of the totals into ``acc`` and
    its scratch row into ``wpc`` (``piece_terms``). Returns the tokens the pending pieces
    put on the others (``project_levels``)."""
    ut, ab, ur = tb[0], tb[2], tb[5]
    others, _ = project_levels(ut, tb[1], ab, pc, n, bl, wbl, bc)
    extra = tb[3][R_TURNS] - turn + 1
    for c in range(N_AC):
        acc[c] = 0
    for i in range(n):
        piece_terms(ut, ab, ur, pc, i, others, extra, wpc, acc, 1)
    return others


@hot
def kingdom_totals(tb, pc, n, wpc, bc, acc):
    """``assess`` from a first pass (``first_pass``: the pieces' totals ``acc``, scratch
    rows ``wpc``, the levels' cache ``bc``): (wood, food, crystal, income, strength, tokens
    on all units, level-2 buildings, strong units, the steps some piece computes from the
    kingdom's totals ``D_*``). The same integers as ``assess`` of the projected kingdom."""
    ut, bt, ab, rules = tb[0], tb[1], tb[2], tb[3]
    wood = bc[BC_WOOD] + acc[AC_WOOD]
    food = bc[BC_FOOD] + acc[AC_FOOD]
    crystal = bc[BC_CRYSTAL] + acc[AC_CRYSTAL]
    n_level2 = bc[BC_LEVEL2]
    age_all = acc[AC_AGE_ALL]
    income = acc[AC_INCOME] + rules[R_BASE_INCOME]
    strength = acc[AC_STRENGTH]
    n_strong = acc[AC_STRONG]
    dyn = 0  # the steps some unit needs computed from the kingdom's totals
    for i in range(n if acc[AC_DYN] else 0):
        dyn |= wpc[ix(i), W_DYN]
    for i in range(n if dyn & D_INCOME else 0):
        if wpc[i, W_DYN] & D_INCOME:
            income += unit_gain(
                ut, ab, pc[i, PC_UNIT], K_GOLD, PH_INCOME, wpc[i, PC_AGE], pc[i, PC_SPOT],
                wood, food, crystal, age_all, n_level2,
            )  # fmt: skip
    income += face_terms(bt, bc, BS_INCOME, age_all, wood, food, crystal, 0, n_level2, 0)
    strong_min = rules[R_STRONG_MIN]
    front_only = rules[R_STRONG_FRONT_ONLY]
    for i in range(n if dyn & D_STRENGTH else 0):
        if wpc[i, W_DYN] & D_STRENGTH:
            spot = pc[i, PC_SPOT]
            value, from_back = unit_strength(
                ut,
                ab,
                pc[i, PC_UNIT],
                wpc[i, PC_AGE],
                spot,
                wood,
                food,
                crystal,
                income,
                age_all,
                n_level2,
            )
            front = spot < MAX_FRONT
            if front or from_back:
                strength += value
            if value >= strong_min and (front or not front_only):
                n_strong += 1
    strength += face_terms(bt, bc, BS_STRENGTH, age_all, wood, food, crystal, income, n_level2, 0)
    return wood, food, crystal, income, strength, age_all, n_level2, n_strong, dyn


@hot
def value_totals(tb, weights, pol, pc, n, wpc, wbl, bc, acc, gold, seen0, seen1, two, turn):
    """``value`` after its first pass: from the pieces' totals ``acc`` (``piece_terms`` of
    every piece of ``pc[:n]``, scratch rows ``wpc``) and the projected levels ``wbl`` with
    their cache ``bc``, the steps some piece computes from the kingdom's totals, the faces'
    terms, the wars and the weighted features."""
    ut, bt, ab, rules = tb[0], tb[1], tb[2], tb[3]
    wood, food, crystal, income, strength, age_all, n_level2, n_strong, dyn = kingdom_totals(
        tb, pc, n, wpc, bc, acc
    )
    per_war = acc[AC_PER_WAR]
    war_units = acc[AC_WAR_UNITS]
    relic = acc[AC_RELIC]
    dep = acc[AC_DEP]
    aging_lp = acc[AC_AGING_LP]
    turns = rules[R_TURNS]
    extra = turns - turn + 1
    won, war_lp = fight(rules, two, strength, seen0, seen1)
    pww = wars_counted(rules, two, won)
    per_war *= pww
    for i in range(n if dyn & (D_WAR | D_END | D_DEPLOY | D_DEATH) else 0):
        u = pc[i, PC_UNIT]
        d = wpc[i, W_DYN]
        age = wpc[i, PC_AGE]
        spot = pc[i, PC_SPOT]
        if d & D_WAR:
            pw, wu, _ = unit_war(
                ut, ab, rules, u, age, spot, wood, food, crystal, income, age_all, n_level2,
                n_strong,
            )  # fmt: skip
            per_war += pw * pww
            war_units += wu
        if d & D_END:
            end_age = age + extra if never_dies(ut, u) else age
            relic += unit_gain(
                ut, ab, u, K_LP, PH_END, end_age, spot, wood, food, crystal, age_all, n_level2
            )
        if d & D_DEPLOY and pc[i, PC_FRESH]:
            dep += unit_gain(
                ut, ab, u, K_LP, PH_DEPLOYMENT, age, spot, wood, food, crystal, age_all, n_level2
            )
        if d & D_DEATH and wpc[i, W_DYING]:
            aging_lp += unit_death(ut, ab, u, age, spot, wood, food, crystal, age_all, n_level2)[0]
    war_buildings = face_terms(
        bt, bc, BS_WAR, age_all, wood, food, crystal, income, n_level2, n_strong
    )
    end_b = bc[BC_LP] + face_terms(bt, bc, BS_END, age_all, wood, food, crystal, 0, n_level2, 0)
    if acc[AC_TOKENS]:
        aging_lp += acc[AC_PER_DYING] * acc[AC_TOKENS]
    war = war_lp + per_war + war_units + war_buildings
    lp = (war, end_b + relic, dep, aging_lp)
    totals = (income, strength, wood, food, crystal, acc[AC_KEEP], n, n_level2, n_strong)
    return weighted(weights, pol, bt, wbl, turns - turn, lp + totals, gold, seen0, seen1, two)


# --- the tables ``value`` reads (built once per card set by ``kernel_tables``) ----------------


@alloc
def unit_records(ut, ab, rules):
    """``ur[u, row, age, UR_*]``: unit ``u``'s share of each scoring step on the Front
    (row 0) or Back (row 1) row with ``age`` tokens, from the per-unit functions with every
    kingdom total 0. Exact for the units whose abilities read only the unit (``KU_DYN`` =
    0); production and death apply to every unit (the loader keeps them self-contained)."""
    ur = np.zeros((ut.shape[0], 2, UR_AGES, N_UR), np.int32)
    strong_min = rules[R_STRONG_MIN]
    front_only = rules[R_STRONG_FRONT_ONLY]
    for u in range(ut.shape[0]):
        for row in range(2):
            spot = 0 if row == 0 else MAX_FRONT
            front = row == 0
            for age in range(UR_AGES):
                r = ur[u, row, age]
                wood, food, crystal = unit_production(ut, u, age, spot, 0, 0)
                r[UR_WOOD] = wood
                r[UR_FOOD] = food
                r[UR_CRYSTAL] = crystal
                r[UR_INCOME] = unit_gain(ut, ab, u, K_GOLD, PH_INCOME, age, spot, 0, 0, 0, 0, 0)
                value, from_back = unit_strength(ut, ab, u, age, spot, 0, 0, 0, 0, 0, 0)
                r[UR_STRENGTH] = value if front or from_back else 0
                r[UR_STRONG] = 1 if value >= strong_min and (front or not front_only) else 0
                pw, wu, _ = unit_war(ut, ab, rules, u, age, spot, 0, 0, 0, 0, 0, 0, 0)
                r[UR_PER_WAR] = pw
                r[UR_WAR_LP] = wu
                r[UR_END_LP] = unit_gain(ut, ab, u, K_LP, PH_END, age, spot, 0, 0, 0, 0, 0)
                r[UR_DEPLOY_LP] = unit_gain(
                    ut, ab, u, K_LP, PH_DEPLOYMENT, age, spot, 0, 0, 0, 0, 0
                )
                r[UR_DIES] = 1 if dies(ut, ab, u, age) else 0
                r[UR_DEATH_LP] = unit_death(ut, ab, u, age, spot, 0, 0, 0, 0, 0)[0]
    return ur


def _unit_columns(ut: np.ndarray, ab: np.ndarray) -> np.ndarray:
    """The ``KU_*`` columns of each unit (see their comments)."""
    cols = np.zeros((ut.shape[0], N_KU - N_UCOLS), np.int32)
    for u in range(ut.shape[0]):
        c = cols[u]
        for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
            kind = int(ab[j, A_KIND])
            c[KU_MASK - N_UCOLS] |= 1 << kind
            if kind not in BASE_KINDS:
                c[KU_DYN - N_UCOLS] |= D_ALL
            elif ab[j, A_PER] not in SELF_CONTAINED_PER or ab[j, A_WHEN] not in SELF_CONTAINED_WHEN:
                c[KU_DYN - N_UCOLS] |= STEPS_OF_KIND.get(kind, 0)
            if ab[j, A_ON_DEPLOY] and kind == K_ADD_AGE and ab[j, A_PER] == P_ONE:
                if ab[j, A_TARGET] == T_SELF:
                    c[KU_SELF_AGE - N_UCOLS] += ab[j, A_AMOUNT]
                elif ab[j, A_TARGET] == T_OTHERS:
                    c[KU_OTHERS_AGE - N_UCOLS] += ab[j, A_AMOUNT]
            if ab[j, A_ON_DEPLOY] and kind == K_UPGRADE_BUILDINGS:
                c[KU_UPGRADE - N_UCOLS] = 1
            if kind == K_LP_PER_DYING_AGE:
                c[KU_PER_DYING - N_UCOLS] += ab[j, A_AMOUNT]
    return cols


def kernel_tables(tables: Any) -> tuple:
    """``tables.Tables`` as the kernel's tuple ``(ut, bt, ab, rules, deck, ur)``: ``ut`` with
    the ``KU_*`` columns, ``bt`` with the ability-kind mask of each face (``KB_MASK``), and
    the unit records (``unit_records``)."""
    ut, bt, ab = tables.ut, tables.bt, tables.ab
    fmask = np.zeros(bt.shape[:2], np.int32)
    for b in range(bt.shape[0]):
        for k in range(bt.shape[1]):
            for j in range(bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB]):
                fmask[b, k] |= 1 << int(ab[j, A_KIND])
    kut = np.ascontiguousarray(np.concatenate([ut, _unit_columns(ut, ab)], axis=1), np.int32)
    kab = np.ascontiguousarray(ab, dtype=np.int32)
    rules = np.ascontiguousarray(tables.rules, dtype=np.int32)
    ur = unit_records(kut, kab, rules)
    kut[:, KU_FRONT_FIRST] = front_first(kut, ur)
    return (
        kut,
        np.ascontiguousarray(np.concatenate([bt, fmask[:, :, None]], axis=2), dtype=np.int32),
        kab,
        rules,
        np.ascontiguousarray(tables.deck, dtype=np.int32),
        ur,
    )


def front_first(kut: np.ndarray, ur: np.ndarray) -> np.ndarray:
    """``KU_FRONT_FIRST`` of each unit: 1 when, whatever its tokens, the unit in the Front
    row adds to every total of a kingdom what it adds in the Back row, except counted
    strength and strong units, where it adds at least as much; and no step of it is
    computed from the kingdom's totals (``KU_DYN`` = 0) and it projects nothing on the
    others. With ``kernel.front_first_holds`` (the kingdom and the policy's weights) its
    Back-row value cannot exceed its Front-row one, so ``card_value`` values only the
    Front row (the same maximum)."""
    front, back = ur[:, 0, :, :], ur[:, 1, :, :]
    same = np.ones((ur.shape[0], ur.shape[2]), bool)
    for c in range(ur.shape[3]):
        if c in (UR_STRENGTH, UR_STRONG):
            same &= front[:, :, c] >= back[:, :, c]
        else:
            same &= front[:, :, c] == back[:, :, c]
    own = (kut[:, KU_DYN] == 0) & (kut[:, KU_OTHERS_AGE] == 0) & (kut[:, KU_UPGRADE] == 0)
    return (same.all(axis=1) & own).astype(np.int32)
