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

from simcore.jit import hot, hot_inline, hot_outline

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
    MAX_FRONT,
    MAX_SPOTS,
    N_BCOLS,
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
KU_MASK = N_UCOLS  # extra column of the kernel's ``ut``
KB_MASK = N_BCOLS  # extra column of the kernel's ``bt``
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


def kernel_tables(tables: Any) -> tuple:
    """``tables.Tables`` as the kernel's tuple ``(ut, bt, ab, rules, deck)``, with the
    ability-kind mask of each unit (column ``KU_MASK``) and building face (``KB_MASK``)."""
    ut, bt, ab = tables.ut, tables.bt, tables.ab
    umask = np.zeros(ut.shape[0], np.int32)
    for u in range(ut.shape[0]):
        for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
            umask[u] |= 1 << int(ab[j, A_KIND])
    fmask = np.zeros(bt.shape[:2], np.int32)
    for b in range(bt.shape[0]):
        for k in range(bt.shape[1]):
            for j in range(bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB]):
                fmask[b, k] |= 1 << int(ab[j, A_KIND])
    return (
        np.ascontiguousarray(np.concatenate([ut, umask[:, None]], axis=1), dtype=np.int32),
        np.ascontiguousarray(np.concatenate([bt, fmask[:, :, None]], axis=2), dtype=np.int32),
        np.ascontiguousarray(ab, dtype=np.int32),
        np.ascontiguousarray(tables.rules, dtype=np.int32),
        np.ascontiguousarray(tables.deck, dtype=np.int32),
    )


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


@hot
def production(ut, bt, pc, n, bl):
    """(wood, food, crystal) produced: units gated by their own tokens/row, building faces."""
    wood = food = crystal = 0
    for i in range(n):
        u = pc[i, PC_UNIT]
        age = pc[i, PC_AGE]
        if not when_holds(ut[u, U_PROD_WHEN], age, pc[i, PC_SPOT], food, crystal):
            continue
        mult = age if ut[u, U_PROD_PER] == P_AGE_SELF else 1
        wood += ut[u, U_PROD0] * mult
        food += ut[u, U_PROD0 + 1] * mult
        crystal += ut[u, U_PROD0 + 2] * mult
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
    income = rules[R_BASE_INCOME]
    faces = face_mask(bt, bl)
    for i in range(n):
        u = pc[i, PC_UNIT]
        if not ut[u, KU_MASK] & M_GOLD:
            continue
        age = pc[i, PC_AGE]
        spot = pc[i, PC_SPOT]
        for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
            if (
                ab[j, A_PHASE] == PH_INCOME
                and ab[j, A_KIND] == K_GOLD
                and when_holds(ab[j, A_WHEN], age, spot, food, crystal)
            ):
                income += ab[j, A_AMOUNT] * per_value(
                    ab[j, A_PER], age, age_all, wood, food, crystal, 0, n_level2, 0
                )
    for b in range(bt.shape[0] if faces & M_GOLD else 0):
        for k in range(bl[b]):
            for j in range(bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB]):
                if (
                    ab[j, A_PHASE] == PH_INCOME
                    and ab[j, A_KIND] == K_GOLD
                    and when_holds(ab[j, A_WHEN], 0, -1, food, crystal)
                ):
                    income += ab[j, A_AMOUNT] * per_value(
                        ab[j, A_PER], 0, age_all, wood, food, crystal, 0, n_level2, 0
                    )
    total = 0
    n_strong = 0
    strong_min = rules[R_STRONG_MIN]
    front_only = rules[R_STRONG_FRONT_ONLY]
    for i in range(n):
        u = pc[i, PC_UNIT]
        age = pc[i, PC_AGE]
        spot = pc[i, PC_SPOT]
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
            if ab[j, A_KIND] == K_CANNOT_FIGHT and when_holds(
                ab[j, A_WHEN], age, spot, food, crystal
            ):
                value = 0
        front = spot < MAX_FRONT
        if front or from_back:
            total += value
        if value >= strong_min and (front or not front_only):
            n_strong += 1
    for b in range(bt.shape[0] if faces & M_ADD_STRENGTH else 0):
        for k in range(bl[b]):
            for j in range(bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB]):
                if ab[j, A_KIND] == K_ADD_STRENGTH:
                    total += ab[j, A_AMOUNT] * per_value(
                        ab[j, A_PER], 0, age_all, wood, food, crystal, income, n_level2, 0
                    )
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
def war_phase_lp(
    ut, bt, ab, rules, pc, n, bl, two, won, wood, food, crystal, income, age_all, n_level2, n_strong
):
    """``reference.war_phase_lp``: (per_war_won, war_units, war_buildings LP, war gold)."""
    pww = won
    if two and won:
        pww = rules[R2_PWW_TIMES]
    front_only = rules[R_PWW_FRONT_ONLY]
    per_war = war_units = war_buildings = gold = 0
    for i in range(n):
        u = pc[i, PC_UNIT]
        if not ut[u, KU_MASK] & M_WAR_UNIT:
            continue
        age = pc[i, PC_AGE]
        spot = pc[i, PC_SPOT]
        counts = spot < MAX_FRONT or not front_only
        for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
            kind = ab[j, A_KIND]
            if kind == K_LP_PER_WAR_WON and counts:
                mult = per_value(
                    ab[j, A_PER], age, age_all, wood, food, crystal, income, n_level2, n_strong
                )
                per_war += ab[j, A_AMOUNT] * mult * pww
            elif kind == K_GOLD_PER_WAR_WON and counts:
                gold += ab[j, A_AMOUNT] * pww
            elif (
                kind == K_LP
                and ab[j, A_PHASE] == PH_WAR
                and when_holds(ab[j, A_WHEN], age, spot, food, crystal)
            ):
                mult = per_value(
                    ab[j, A_PER], age, age_all, wood, food, crystal, income, n_level2, n_strong
                )
                war_units += ab[j, A_AMOUNT] * mult
    for b in range(bt.shape[0] if face_mask(bt, bl) & M_LP else 0):
        for k in range(bl[b]):
            for j in range(bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB]):
                if (
                    ab[j, A_KIND] == K_LP
                    and ab[j, A_PHASE] == PH_WAR
                    and when_holds(ab[j, A_WHEN], 0, -1, food, crystal)
                ):
                    war_buildings += ab[j, A_AMOUNT] * per_value(
                        ab[j, A_PER], 0, age_all, wood, food, crystal, income, n_level2, n_strong
                    )
    return per_war, war_units, war_buildings, gold


@hot
def never_dies(ut, ab, u):
    if not ut[u, KU_MASK] & M_NEVER_DIES:
        return False
    for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
        if ab[j, A_KIND] == K_NEVER_DIES:
            return True
    return False


@hot
def end_lp(ut, bt, ab, pc, n, bl, extra_age, wood, food, crystal, age_all, n_level2):
    """``reference.end_lp``: (building LP, unit end LP). ``extra_age``: tokens added to the
    units that never die (the policies' end projection; 0 in the real End phase)."""
    buildings = relic = 0
    faces = face_mask(bt, bl)
    for b in range(bt.shape[0]):
        lv = bl[b]
        if lv:
            buildings += bt[b, lv - 1, B_LP]
        for k in range(lv if faces & M_LP else 0):
            for j in range(bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB]):
                if (
                    ab[j, A_KIND] == K_LP
                    and ab[j, A_PHASE] == PH_END
                    and when_holds(ab[j, A_WHEN], 0, -1, food, crystal)
                ):
                    buildings += ab[j, A_AMOUNT] * per_value(
                        ab[j, A_PER], 0, age_all, wood, food, crystal, 0, n_level2, 0
                    )
    for i in range(n):
        u = pc[i, PC_UNIT]
        if not ut[u, KU_MASK] & M_LP:
            continue
        age = pc[i, PC_AGE]
        if extra_age and never_dies(ut, ab, u):
            age += extra_age
        spot = pc[i, PC_SPOT]
        for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
            if (
                ab[j, A_KIND] == K_LP
                and ab[j, A_PHASE] == PH_END
                and when_holds(ab[j, A_WHEN], age, spot, food, crystal)
            ):
                relic += ab[j, A_AMOUNT] * per_value(
                    ab[j, A_PER], age, age_all, wood, food, crystal, 0, n_level2, 0
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
        u = pc[i, PC_UNIT]
        age = pc[i, PC_AGE]
        spot = pc[i, PC_SPOT]
        tokens += age
        if not ut[u, KU_MASK] & M_DEATH:
            continue
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
    for i in range(n if tokens else 0):
        u = pc[i, PC_UNIT]
        if not ut[u, KU_MASK] & M_PER_DYING:
            continue
        for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
            if ab[j, A_KIND] == K_LP_PER_DYING_AGE:
                lp += ab[j, A_AMOUNT] * tokens
    return lp, gold


@hot
def deploy_lp(ut, ab, pc, n, fresh_only, wood, food, crystal, age_all, n_level2):
    """Deployment-phase ``lp`` of the pieces (``fresh_only``: placed this phase)."""
    lp = 0
    for i in range(n):
        if fresh_only and not pc[i, PC_FRESH]:
            continue
        u = pc[i, PC_UNIT]
        if not ut[u, KU_MASK] & M_LP:
            continue
        age = pc[i, PC_AGE]
        for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
            if (
                ab[j, A_KIND] == K_LP
                and ab[j, A_PHASE] == PH_DEPLOYMENT
                and when_holds(ab[j, A_WHEN], age, pc[i, PC_SPOT], food, crystal)
            ):
                lp += ab[j, A_AMOUNT] * per_value(
                    ab[j, A_PER], age, age_all, wood, food, crystal, 0, n_level2, 0
                )
    return lp


@hot
def project(ut, bt, ab, pc, n, bl, wpc, wbl):
    """``Brain.project`` into ``wpc``/``wbl``: the pending pieces' predictable on-deploy
    effects (``add_age`` on self / others per one, ``upgrade_buildings``), spot order."""
    for i in range(n):
        for c in range(N_PC):
            wpc[i, c] = pc[i, c]
    for b in range(bt.shape[0]):
        wbl[b] = bl[b]
    for i in range(n):
        if not wpc[i, PC_PENDING]:
            continue
        u = wpc[i, PC_UNIT]
        wpc[i, PC_PENDING] = 0
        if not ut[u, KU_MASK] & M_PROJECT:
            continue
        for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
            if not ab[j, A_ON_DEPLOY]:
                continue
            kind = ab[j, A_KIND]
            if kind == K_ADD_AGE and ab[j, A_PER] == P_ONE and ab[j, A_TARGET] == T_SELF:
                wpc[i, PC_AGE] += ab[j, A_AMOUNT]
            elif kind == K_ADD_AGE and ab[j, A_PER] == P_ONE and ab[j, A_TARGET] == T_OTHERS:
                for o in range(n):
                    if o != i:
                        wpc[o, PC_AGE] += ab[j, A_AMOUNT]
            elif kind == K_UPGRADE_BUILDINGS:
                for b in range(bt.shape[0]):
                    if wbl[b] == 1:
                        wbl[b] = 2


@hot
def buildable(bt, bl, wood, food, crystal):
    """Buildings whose next level's printed requirement is produced (gold ignored)."""
    count = 0
    for b in range(bt.shape[0]):
        lv = bl[b]
        if lv < 2 and (
            wood >= bt[b, lv, B_REQ0]
            and food >= bt[b, lv, B_REQ0 + 1]
            and crystal >= bt[b, lv, B_REQ0 + 2]
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


@hot_outline
def value(tb, weights, pol, pc, n, bl, gold, seen0, seen1, two, turn, wpc, wbl):
    """``Brain.value``: the weighted features of the kingdom ``pc[:n]``/``bl`` with ``gold``,
    against the frozen neighbour strengths ``seen0``/``seen1``, summed in feature order in
    float64 exactly as the reference does. ``wpc``/``wbl``: scratch for the projection."""
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
    agings_left = turns - turn + 1
    end_b, end_r = end_lp(
        ut, bt, ab, wpc, n, wbl, agings_left, wood, food, crystal, age_all, n_level2
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
    left = turns - turn
    margin = clamp_margin(strength - seen0)
    if not two:
        margin += clamp_margin(strength - seen1)
    w = weights
    v = 0.0
    v += w[pol, F_WAR_LP] * (war_lp + per_war + war_units + war_buildings)
    v += w[pol, F_END_LP] * (end_b + end_r)
    v += w[pol, F_DEPLOY_LP] * dep
    v += w[pol, F_AGING_LP] * aging_lp
    v += w[pol, F_INCOME] * income
    v += w[pol, F_GOLD] * gold
    v += w[pol, F_STRENGTH] * strength
    v += w[pol, F_MARGIN] * margin
    v += w[pol, F_PROD] * ((wood + food + crystal) * left)
    v += w[pol, F_BUILDABLE] * (buildable(bt, wbl, wood, food, crystal) * left)
    v += w[pol, F_KEEP] * (keep * left)
    v += w[pol, F_UNITS] * n
    v += w[pol, F_LEVEL2] * (n_level2 * left)
    v += w[pol, F_STRONG] * n_strong
    return v
