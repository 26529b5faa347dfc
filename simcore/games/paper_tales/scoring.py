"""Paper Tales static scoring of a position (reference §2.3, §2.4, §2.7): strength, wars,
the LP of the wars phase, this turn's income and the end-of-game LP.

Style: numba-ready plain Python. Every function takes only numpy int32 arrays and ints
(the compiled tables of ``tables.py`` and the position arrays below), loops over them
and writes into output arrays it is given; no Python objects, no allocation inside the
per-seat helpers. It is NOT compiled today (``talesim score`` scores one position, so the
compile time would dominate); part 2 wraps these same functions with ``simcore.jit.hot``
for the kernel.

Position arrays (P seats, in table order: seat p's neighbours are p-1 and p+1, cyclic)::

    units[P, MAX_SPOTS]   unit index per spot, -1 empty; spots 0..2 Front (2 = the
                          extra spot), 3..4 Back (``FRONT_ROW``/``BACK_ROW``)
    ages[P, MAX_SPOTS]    age tokens on that unit
    blevel[P, B]          building level: 0 not built, 1, 2

Evaluation order (each step uses only earlier ones): production -> income (Ogre needs
it) -> unit strengths -> kingdom strength -> wars -> war-phase LP (Barracks L2 needs the
unit strengths) and per-war-won abilities -> end LP.
"""

from __future__ import annotations

import numpy as np

from .tables import (
    A_AMOUNT,
    A_KIND,
    A_PER,
    A_PHASE,
    A_VALUE,
    A_WHEN,
    B_AB0,
    B_EXTRA_SPOT,
    B_LP,
    B_NAB,
    B_PROD0,
    LEVELS,
    MAX_FRONT,
    MAX_SPOTS,
    N_RES,
    R2_DOUBLE_LP,
    R2_DOUBLE_RATIO,
    R2_PWW_TIMES,
    R2_SINGLE_WAR,
    R2_WAR_LP,
    R2_ZERO_WINS,
    R_BASE_INCOME,
    R_PWW_FRONT_ONLY,
    R_STRONG_FRONT_ONLY,
    R_STRONG_MIN,
    R_WAR_LP,
    U_AB0,
    U_NAB,
    U_PROD0,
    U_PROD_PER,
    U_PROD_WHEN,
    U_STRENGTH,
    Effect,
    Per,
    Phase,
    Resource,
    Target,
    When,
)

# Plain ints for the loops (numba reads module-level ints as constants).
K_FIGHT_FROM_BACK = int(Effect.FIGHT_FROM_BACK)
K_SET_STRENGTH = int(Effect.SET_STRENGTH)
K_ADD_STRENGTH = int(Effect.ADD_STRENGTH)
K_CANNOT_FIGHT = int(Effect.CANNOT_FIGHT)
K_LP = int(Effect.LP)
K_LP_PER_WAR_WON = int(Effect.LP_PER_WAR_WON)
K_GOLD_PER_WAR_WON = int(Effect.GOLD_PER_WAR_WON)
K_GOLD = int(Effect.GOLD)
# the turn engine's effects (kernel.py, evaluate.py)
K_ADD_AGE = int(Effect.ADD_AGE)
K_UPGRADE_BUILDINGS = int(Effect.UPGRADE_BUILDINGS)
K_SHAPESHIFT = int(Effect.SHAPESHIFT)
K_NO_LAND_COST = int(Effect.NO_LAND_COST)
K_GOLD_FOR_RESOURCE = int(Effect.GOLD_FOR_RESOURCE)
K_NEVER_DIES = int(Effect.NEVER_DIES)
K_DIES_AT_AGE = int(Effect.DIES_AT_AGE)
K_HEAL = int(Effect.HEAL)
K_DEATH_LP = int(Effect.DEATH_LP)
K_DEATH_GOLD = int(Effect.DEATH_GOLD)
K_LP_PER_DYING_AGE = int(Effect.LP_PER_DYING_AGE)
PH_DEPLOYMENT = int(Phase.DEPLOYMENT)
T_SELF = int(Target.SELF)
T_OTHERS = int(Target.OTHERS)
PH_WAR = int(Phase.WAR)
PH_INCOME = int(Phase.INCOME)
PH_END = int(Phase.END)
W_ALWAYS = int(When.ALWAYS)
W_AGED = int(When.AGED)
W_EXACTLY_ONE_AGE = int(When.EXACTLY_ONE_AGE)
W_FRONT_ROW = int(When.FRONT_ROW)
W_HAS_FOOD = int(When.HAS_FOOD)
W_HAS_CRYSTAL = int(When.HAS_CRYSTAL)
P_ONE = int(Per.ONE)
P_AGE_SELF = int(Per.AGE_SELF)
P_AGE_KINGDOM = int(Per.AGE_KINGDOM)
P_WOOD = int(Per.WOOD)
P_FOOD = int(Per.FOOD)
P_CRYSTAL = int(Per.CRYSTAL)
P_INCOME_GOLD = int(Per.INCOME_GOLD)
P_LEVEL2_BUILDINGS = int(Per.LEVEL2_BUILDINGS)
P_STRONG_UNITS = int(Per.STRONG_UNITS)
WOOD = int(Resource.WOOD)
FOOD = int(Resource.FOOD)
CRYSTAL = int(Resource.CRYSTAL)

# Columns of the per-seat LP breakdown ``lp_parts[P, N_LP_PARTS]`` (all LP).
LP_WARS = 0  # war_lp (3, or the 2-player 3/6) per war won
LP_PER_WAR_WON = 1  # lp_per_war_won abilities (Commander, Colossus, Master Alchemist)
LP_WAR_UNITS = 2  # war-phase 'lp' of units (none in the base game)
LP_WAR_BUILDINGS = 3  # war-phase 'lp' of buildings (Tavern/Mine/Temple/Barracks L2)
LP_BUILDINGS = 4  # end: 1 per level-1 face, 3 per level-2 face (the face's printed LP)
LP_END_UNITS = 5  # end-phase 'lp' of units (Relic of Wisdom)
N_LP_PARTS = 6
LP_PART_NAMES = ("wars", "per_war_won", "war_units", "war_buildings", "buildings", "relic")
WAR_PARTS = (LP_WARS, LP_PER_WAR_WON, LP_WAR_UNITS, LP_WAR_BUILDINGS)
END_PARTS = (LP_BUILDINGS, LP_END_UNITS)

# Columns of the per-seat gold breakdown ``gold_parts[P, N_GOLD_PARTS]``.
G_BASE = 0  # base income (2)
G_INCOME_UNITS = 1  # income 'gold' of units
G_INCOME_BUILDINGS = 2  # income 'gold' of buildings
G_WAR = 3  # gold_per_war_won (Rogue): gained in the wars phase, not income
N_GOLD_PARTS = 4
GOLD_PART_NAMES = ("base", "units", "buildings", "war")


def has_extra_spot(bt, blevel, p):
    """1 if seat ``p`` owns a building whose current face opens the extra Front spot."""
    for b in range(bt.shape[0]):
        lv = blevel[p, b]
        for k in range(lv):
            if bt[b, k, B_EXTRA_SPOT]:
                return 1
    return 0


def when_holds(when, age, spot, prod):
    """Does condition ``when`` hold for a unit with ``age`` tokens on ``spot``?"""
    if when == W_ALWAYS:
        return True
    if when == W_AGED:
        return age >= 1
    if when == W_EXACTLY_ONE_AGE:
        return age == 1
    if when == W_FRONT_ROW:
        return 0 <= spot < MAX_FRONT
    if when == W_HAS_FOOD:
        return prod[FOOD] >= 1
    return prod[CRYSTAL] >= 1  # W_HAS_CRYSTAL


def per_value(per, age, age_kingdom, prod, income, n_level2, n_strong):
    """The multiplier ``per`` for one ability (``age``: tokens on its unit, 0 for a building)."""
    if per == P_ONE:
        return 1
    if per == P_AGE_SELF:
        return age
    if per == P_AGE_KINGDOM:
        return age_kingdom
    if per == P_WOOD:
        return prod[WOOD]
    if per == P_FOOD:
        return prod[FOOD]
    if per == P_CRYSTAL:
        return prod[CRYSTAL]
    if per == P_INCOME_GOLD:
        return income
    if per == P_LEVEL2_BUILDINGS:
        return n_level2
    return n_strong  # P_STRONG_UNITS


def production(ut, bt, units, ages, blevel, p, prod):
    """Resources produced in seat ``p``'s kingdom (units and building faces) into ``prod``."""
    for r in range(N_RES):
        prod[r] = 0
    for s in range(MAX_SPOTS):
        u = units[p, s]
        if u < 0:
            continue
        if not when_holds(ut[u, U_PROD_WHEN], ages[p, s], s, prod):
            continue
        mult = ages[p, s] if ut[u, U_PROD_PER] == P_AGE_SELF else 1
        for r in range(N_RES):
            prod[r] += ut[u, U_PROD0 + r] * mult
    for b in range(bt.shape[0]):
        for k in range(blevel[p, b]):
            for r in range(N_RES):
                prod[r] += bt[b, k, B_PROD0 + r]


def score_seats(
    tables,
    units,
    ages,
    blevel,
    strength,
    unit_str,
    wars_won,
    lp_parts,
    gold_parts,
    unit_lp,
    unit_gold,
    bld_lp,
    bld_gold,
    bld_str,
):
    """Score every seat of a position; writes the output arrays (all zeroed here).

    Outputs: ``strength[P]`` kingdom strength; ``unit_str[P, S]`` each unit's war-phase
    strength (whether or not it fights from its row); ``wars_won[P]``; ``lp_parts[P,
    N_LP_PARTS]`` and ``gold_parts[P, N_GOLD_PARTS]`` (columns ``LP_*``/``G_*``); per source:
    ``unit_lp``/``unit_gold`` [P, S], ``bld_lp``/``bld_gold``/``bld_str`` [P, B].
    """
    ut, bt, ab, rules = tables.ut, tables.bt, tables.ab, tables.rules
    n = units.shape[0]
    prod = np.zeros((n, N_RES), dtype=np.int32)
    strength[:] = 0
    wars_won[:] = 0
    unit_str[:, :] = 0
    lp_parts[:, :] = 0
    gold_parts[:, :] = 0
    unit_lp[:, :] = 0
    unit_gold[:, :] = 0
    bld_lp[:, :] = 0
    bld_gold[:, :] = 0
    bld_str[:, :] = 0
    for p in range(n):
        production(ut, bt, units, ages, blevel, p, prod[p])
        _income(ut, bt, ab, rules, units, ages, blevel, p, prod[p], gold_parts, unit_gold, bld_gold)
        _strength(
            ut, bt, ab, units, ages, blevel, p, prod[p], gold_parts, strength, unit_str, bld_str
        )
    _wars(rules, strength, wars_won, lp_parts)
    for p in range(n):
        _war_and_end_lp(
            ut,
            bt,
            ab,
            rules,
            units,
            ages,
            blevel,
            p,
            prod[p],
            unit_str,
            wars_won,
            lp_parts,
            gold_parts,
            unit_lp,
            unit_gold,
            bld_lp,
        )


def _income(ut, bt, ab, rules, units, ages, blevel, p, prod, gold_parts, unit_gold, bld_gold):
    """§2.4: base income + every income-phase 'gold' ability (units in either row, buildings)."""
    gold_parts[p, G_BASE] = rules[R_BASE_INCOME]
    for s in range(MAX_SPOTS):
        u = units[p, s]
        if u < 0:
            continue
        for i in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
            if (
                ab[i, A_PHASE] == PH_INCOME
                and ab[i, A_KIND] == K_GOLD
                and when_holds(ab[i, A_WHEN], ages[p, s], s, prod)
            ):
                g = ab[i, A_AMOUNT] * per_value(ab[i, A_PER], ages[p, s], 0, prod, 0, 0, 0)
                unit_gold[p, s] += g
                gold_parts[p, G_INCOME_UNITS] += g
    for b in range(bt.shape[0]):
        for k in range(blevel[p, b]):
            for i in range(bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB]):
                if (
                    ab[i, A_PHASE] == PH_INCOME
                    and ab[i, A_KIND] == K_GOLD
                    and when_holds(ab[i, A_WHEN], 0, -1, prod)
                ):
                    g = ab[i, A_AMOUNT] * per_value(ab[i, A_PER], 0, 0, prod, 0, 0, 0)
                    bld_gold[p, b] += g
                    gold_parts[p, G_INCOME_BUILDINGS] += g


def _age_kingdom(units, ages, p):
    total = 0
    for s in range(MAX_SPOTS):
        if units[p, s] >= 0:
            total += ages[p, s]
    return total


def _strength(ut, bt, ab, units, ages, blevel, p, prod, gold_parts, strength, unit_str, bld_str):
    """§2.3: each unit's war strength (printed; then set_strength; then add_strength; then
    cannot_fight -> 0), and the kingdom strength: Front row + Back-row fighters + buildings."""
    income = (
        gold_parts[p, G_BASE] + gold_parts[p, G_INCOME_UNITS] + gold_parts[p, G_INCOME_BUILDINGS]
    )
    age_all = _age_kingdom(units, ages, p)
    total = 0
    for s in range(MAX_SPOTS):
        u = units[p, s]
        if u < 0:
            continue
        age = ages[p, s]
        lo, hi = ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]
        value = ut[u, U_STRENGTH]
        from_back = False
        for i in range(lo, hi):
            if ab[i, A_KIND] == K_SET_STRENGTH and when_holds(ab[i, A_WHEN], age, s, prod):
                value = ab[i, A_VALUE]
            elif ab[i, A_KIND] == K_FIGHT_FROM_BACK:
                from_back = True
        for i in range(lo, hi):
            if ab[i, A_KIND] == K_ADD_STRENGTH:
                value += ab[i, A_AMOUNT] * per_value(ab[i, A_PER], age, age_all, prod, income, 0, 0)
        for i in range(lo, hi):
            if ab[i, A_KIND] == K_CANNOT_FIGHT and when_holds(ab[i, A_WHEN], age, s, prod):
                value = 0
        unit_str[p, s] = value
        if s < MAX_FRONT or from_back:
            total += value
    for b in range(bt.shape[0]):
        for k in range(blevel[p, b]):
            for i in range(bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB]):
                if ab[i, A_KIND] == K_ADD_STRENGTH:
                    add = ab[i, A_AMOUNT] * per_value(ab[i, A_PER], 0, age_all, prod, income, 0, 0)
                    bld_str[p, b] += add
                    total += add
    strength[p] = total


def _wars(rules, strength, wars_won, lp_parts):
    """§2.3: compare with each neighbour, >= wins, war_lp per war won. Two seats: §2.9's
    single war (strength > 0 unless zero wins allowed, >= the opponent's; double_war_lp when
    >= double_ratio x the opponent's)."""
    n = strength.shape[0]
    if n == 2 and rules[R2_SINGLE_WAR]:
        for p in range(2):
            me, opp = strength[p], strength[1 - p]
            if me >= opp and (me > 0 or rules[R2_ZERO_WINS]):
                wars_won[p] = 1
                if me >= rules[R2_DOUBLE_RATIO] * opp:
                    lp_parts[p, LP_WARS] = rules[R2_DOUBLE_LP]
                else:
                    lp_parts[p, LP_WARS] = rules[R2_WAR_LP]
        return
    for p in range(n):
        won = 0
        left, right = (p - 1) % n, (p + 1) % n
        if strength[p] >= strength[left]:
            won += 1
        if right != left and strength[p] >= strength[right]:
            won += 1
        wars_won[p] = won
        lp_parts[p, LP_WARS] = won * rules[R_WAR_LP]


def _war_and_end_lp(
    ut,
    bt,
    ab,
    rules,
    units,
    ages,
    blevel,
    p,
    prod,
    unit_str,
    wars_won,
    lp_parts,
    gold_parts,
    unit_lp,
    unit_gold,
    bld_lp,
):
    """Per-war-won abilities, war-phase 'lp' (scored whether or not a war was won), and
    the end LP: each building's current face + end-phase 'lp' (Relic of Wisdom)."""
    n = units.shape[0]
    pww = wars_won[p]
    if n == 2 and rules[R2_SINGLE_WAR] and pww > 0:
        pww = rules[R2_PWW_TIMES]
    age_all = _age_kingdom(units, ages, p)
    n_level2 = 0
    for b in range(bt.shape[0]):
        if blevel[p, b] == LEVELS:
            n_level2 += 1
    n_strong = 0
    last = MAX_FRONT if rules[R_STRONG_FRONT_ONLY] else MAX_SPOTS
    for s in range(last):
        if units[p, s] >= 0 and unit_str[p, s] >= rules[R_STRONG_MIN]:
            n_strong += 1
    for s in range(MAX_SPOTS):
        u = units[p, s]
        if u < 0:
            continue
        age = ages[p, s]
        counts = s < MAX_FRONT or not rules[R_PWW_FRONT_ONLY]
        for i in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
            kind, phase = ab[i, A_KIND], ab[i, A_PHASE]
            mult = per_value(ab[i, A_PER], age, age_all, prod, 0, n_level2, n_strong)
            if kind == K_LP_PER_WAR_WON and counts:
                v = ab[i, A_AMOUNT] * mult * pww
                unit_lp[p, s] += v
                lp_parts[p, LP_PER_WAR_WON] += v
            elif kind == K_GOLD_PER_WAR_WON and counts:
                g = ab[i, A_AMOUNT] * pww
                unit_gold[p, s] += g
                gold_parts[p, G_WAR] += g
            elif kind == K_LP and when_holds(ab[i, A_WHEN], age, s, prod):
                if phase == PH_WAR:
                    unit_lp[p, s] += ab[i, A_AMOUNT] * mult
                    lp_parts[p, LP_WAR_UNITS] += ab[i, A_AMOUNT] * mult
                elif phase == PH_END:
                    unit_lp[p, s] += ab[i, A_AMOUNT] * mult
                    lp_parts[p, LP_END_UNITS] += ab[i, A_AMOUNT] * mult
    for b in range(bt.shape[0]):
        lv = blevel[p, b]
        if lv > 0:
            bld_lp[p, b] += bt[b, lv - 1, B_LP]
            lp_parts[p, LP_BUILDINGS] += bt[b, lv - 1, B_LP]
        for k in range(lv):
            for i in range(bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB]):
                if ab[i, A_KIND] != K_LP or not when_holds(ab[i, A_WHEN], 0, -1, prod):
                    continue
                v = ab[i, A_AMOUNT] * per_value(
                    ab[i, A_PER], 0, age_all, prod, 0, n_level2, n_strong
                )
                if ab[i, A_PHASE] == PH_WAR:
                    bld_lp[p, b] += v
                    lp_parts[p, LP_WAR_BUILDINGS] += v
                elif ab[i, A_PHASE] == PH_END:
                    bld_lp[p, b] += v
                    lp_parts[p, LP_BUILDINGS] += v
