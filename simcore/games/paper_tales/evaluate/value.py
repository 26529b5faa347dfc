"""Paper Tales evaluation: the policies' value of a kingdom, from tables.

``value`` (base) and ``l_value`` (Legends) give the very integers of ``value_full`` /
``l_value_full`` (tests), summed in feature order in float64 as the reference does, but
read each unit's share of every step that reads only the unit from its record
(``records.unit_records``) in one first pass over the pieces (``piece_terms`` /
``l_piece_terms``), and the building faces (and artifacts) from their cache
(``cache``). A decision values its options from one first pass (``first_pass`` /
``kingdom_totals`` / ``value_totals``; Legends ``l_option_pass`` with ``l_value``'s modes).
Two functions, not one: the base value keeps its totals in an int64 row ``acc`` the
kernel's incremental options update (``kernel.sketch``), the Legends one its projection by
tiers and the artifacts; folding them would put Legends bookkeeping in the base game's
innermost decision loop.
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot, hot_inline, hot_outline

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import (  # passed as call arguments (see layout.py)
    BS_END,
    BS_INCOME,
    BS_STRENGTH,
    BS_WAR,
    FS_END,
    FS_INCOME,
    FS_STRENGTH,
    FS_WAR,
    FX_BASE,
    FX_PASS,
    K_GOLD,
    K_LP,
    PH_DEPLOYMENT,
    PH_END,
    PH_INCOME,
    ix,
)
from .cache import face_terms, fixed_gain, fixed_terms, project_levels
from .end import dies, l_unit_end, never_dies, unit_death
from .facts import l_unit_income, unit_gain, unit_production
from .project import l_project, weighted
from .strength import fight, l_piece_strength, l_unit_war, unit_strength, unit_war, wars_counted


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


@hot_outline
def l_value(
    tb, lx, weights, pol, pc, n, pdone, bl, sa, na, gold, bonus, seen0, seen1, two, turn, wpc,
    wbl, zx, inset, mode,
):  # fmt: skip
    """``Brain.value`` of a Legends sketch (pieces ``pc[:n]`` with their tiers done
    ``pdone``, levels ``bl``, artifacts ``sa[:na]``, ``gold``, deployment LP already
    projected ``bonus``): its features (the base
    ``F_*`` with the artifacts' war / end LP and the projected deployment gains, then the
    ``LF_*``) times the policy's weights, summed in feature order. ``lx.lweights`` holds the
    Legends weights; ``inset`` the game's building set (``F_BUILDABLE`` counts only it).

    The same integers as the step-by-step evaluation (``l_value_full``: project, assess,
    wars, end, deployment, deaths), with each unit's share of every step it does not
    compute from the kingdom (``lx.ldyn``, ``legends_dyn``) read from the base unit records
    ``tb.ur`` (``records.unit_records``) in one pass over the pieces (``l_piece_terms``);
    the other steps of those units are computed as the phases do; the building faces and
    the artifacts from their cache in ``zx`` (``fixed_terms``: production, printed LP and
    the ability rows each step reads, kept from call to call).

    ``mode`` (an int64, so that every caller shares one compiled copy): ``LV_FULL``;
    ``LV_GIVEN``: ``zx``'s ``FX_PASS`` slot holds the first pass of ``pc[:n]``
    (``l_option_pass``), used unless the sketch projects; ``LV_BASE``: only the first pass
    of ``pc[:n]`` as it is (no projection) into the ``FX_BASE`` slot, returns 0."""
    ut, bt, ab, rules, ur, xt, ldyn = tb.ut, tb.bt, tb.ab, tb.rules, tb.ur, lx.xt, lx.ldyn
    projected = False
    if mode != L.LV_BASE:
        gain, more, projected = l_project(ut, bt, ab, xt, pc, n, pdone, bl, sa, na, zx, wpc, wbl)
        gold += gain
        bonus += more
    if not projected:  # nothing moves: read the sketch itself (no copy)
        wpc = pc
    turns = rules[L.R_TURNS]
    extra = turns - turn + 1
    dyn = 0  # the steps some piece computes from the kingdom's totals
    dyns = 0  # each piece's steps STEP_* (6 bits a piece)
    dying = 0  # a bit a dying piece
    if projected or mode != L.LV_GIVEN:
        wood = food = crystal = age_all = per_dying = strength = n_strong = income = 0
        per_war = war_units = relic = dep = tokens = aging_lp = keep = 0
        for i in range(n):
            bits, t = l_piece_terms(ut, ab, ur, ldyn, wpc, i, extra)
            wood += t[L.LA_WOOD]
            food += t[L.LA_FOOD]
            crystal += t[L.LA_CRYSTAL]
            age_all += t[L.LA_AGE_ALL]
            per_dying += t[L.LA_PER_DYING]
            income += t[L.LA_INCOME]
            strength += t[L.LA_STRENGTH]
            n_strong += t[L.LA_STRONG]
            per_war += t[L.LA_PER_WAR]
            war_units += t[L.LA_WAR_UNITS]
            relic += t[L.LA_RELIC]
            dep += t[L.LA_DEP]
            tokens += t[L.LA_TOKENS]
            aging_lp += t[L.LA_AGING_LP]
            keep += t[L.LA_KEEP]
            dyn |= bits
            dyns |= (bits & L.STEP_ALL) << (6 * i)
            dying |= (bits // L.LA_DYING) << i
            if mode == L.LV_BASE:
                zx[L.FX_BASE + L.LA_ROWS + i] = bits
        if mode == L.LV_BASE:
            for c in range(L.LA_ROWS):
                zx[L.FX_BASE + c] = 0
            sums = (
                wood, food, crystal, age_all, per_dying, income, strength, n_strong, per_war,
                war_units, relic, dep, tokens, aging_lp, keep,
            )  # fmt: skip
            _la_add(zx, FX_BASE, sums, 1)
            return 0.0
    else:
        a = L.FX_PASS
        wood = _la(zx, a + L.LA_WOOD)
        food = _la(zx, a + L.LA_FOOD)
        crystal = _la(zx, a + L.LA_CRYSTAL)
        age_all = _la(zx, a + L.LA_AGE_ALL)
        per_dying = _la(zx, a + L.LA_PER_DYING)
        income = _la(zx, a + L.LA_INCOME)
        strength = _la(zx, a + L.LA_STRENGTH)
        n_strong = _la(zx, a + L.LA_STRONG)
        per_war = _la(zx, a + L.LA_PER_WAR)
        war_units = _la(zx, a + L.LA_WAR_UNITS)
        relic = _la(zx, a + L.LA_RELIC)
        dep = _la(zx, a + L.LA_DEP)
        tokens = _la(zx, a + L.LA_TOKENS)
        aging_lp = _la(zx, a + L.LA_AGING_LP)
        keep = _la(zx, a + L.LA_KEEP)
        for i in range(n):
            bits = _la(zx, a + L.LA_ROWS + i)
            dyn |= bits
            dyns |= (bits & L.STEP_ALL) << (6 * i)
            dying |= (bits // L.LA_DYING) << i
    income += rules[L.R_BASE_INCOME]
    fixed_terms(bt, ab, xt, wbl, zx, na)
    wood += zx[L.FX_WOOD]
    food += zx[L.FX_WOOD + 1]
    crystal += zx[L.FX_WOOD + 2]
    n_level2 = zx[L.FX_LEVEL2]
    # income, then strength (they read the income), as l_assess
    facts = (age_all, n_level2, 0, 0, na)
    for i in range(n if dyn & L.STEP_INCOME else 0):
        if (dyns >> (6 * i)) & L.STEP_INCOME:
            income += l_unit_income(
                ut, ab, wpc[i, L.PC_UNIT], wpc[i, L.PC_AGE], wpc[i, L.PC_SPOT], wpc, n, wood, food,
                crystal, facts,
            )  # fmt: skip
    income += fixed_gain(ut, bt, ab, zx, FS_INCOME, wpc, n, 1, wood, food, crystal, facts)
    facts = (age_all, n_level2, income, 0, na)
    for i in range(n if dyn & L.STEP_STRENGTH else 0):
        if (dyns >> (6 * i)) & L.STEP_STRENGTH:
            value, strong = l_piece_strength(ut, ab, rules, wpc, i, n, wood, food, crystal, facts)
            strength += value
            n_strong += strong
    strength += fixed_gain(ut, bt, ab, zx, FS_STRENGTH, wpc, n, 1, wood, food, crystal, facts)
    won, war_lp = fight(rules, two, strength, seen0, seen1)
    pww = wars_counted(rules, two, won)
    per_war *= pww
    facts = (age_all, n_level2, income, n_strong, na)
    end_facts = (age_all, n_level2, 0, 0, na)
    for i in range(n if dyn & (L.STEP_WAR | L.STEP_END | L.STEP_DEPLOY | L.STEP_DEATH) else 0):
        d = (dyns >> (6 * i)) & L.STEP_ALL
        u, age, spot = wpc[i, L.PC_UNIT], wpc[i, L.PC_AGE], wpc[i, L.PC_SPOT]
        if d & L.STEP_WAR:
            pw, wu, _, _ = l_unit_war(
                ut, ab, rules, u, age, spot, wpc, n, wood, food, crystal, facts
            )
            per_war += pw * pww
            war_units += wu
        if d & L.STEP_END:
            end_age = age + extra if never_dies(ut, u) else age
            relic += l_unit_end(ut, ab, u, end_age, spot, wpc, n, wood, food, crystal, end_facts)
        if d & L.STEP_DEPLOY and wpc[i, L.PC_FRESH]:
            dep += unit_gain(
                ut, ab, u, K_LP, PH_DEPLOYMENT, age, spot, wood, food, crystal, age_all, n_level2
            )
        if d & L.STEP_DEATH and (dying >> i) & 1:
            aging_lp += unit_death(ut, ab, u, age, spot, wood, food, crystal, age_all, n_level2)[0]
    war_fixed = fixed_gain(ut, bt, ab, zx, FS_WAR, wpc, n, pww, wood, food, crystal, facts)
    end_fixed = zx[L.FX_LP] + fixed_gain(
        ut, bt, ab, zx, FS_END, wpc, n, 1, wood, food, crystal, end_facts
    )
    if tokens:
        aging_lp += per_dying * tokens
    war = war_lp + per_war + war_units + war_fixed
    lp = (war, relic + end_fixed, dep + bonus, aging_lp)
    totals = (income, strength, wood, food, crystal, keep, n, n_level2, n_strong)
    kingdom = lp + totals
    return weighted(
        weights, pol, bt, wbl, turns - turn, kingdom, gold, seen0, seen1, two, lx, inset, na
    )


@hot
def first_pass(tb, pc, n, bl, turn, wpc, wbl, bc, acc):
    """``value``'s first pass over the kingdom ``pc[:n]``/``bl``: the projected levels into
    ``wbl``/``bc`` (``project_levels``), every piece's share of the totals into ``acc`` and
    its scratch row into ``wpc`` (``piece_terms``). Returns the tokens the pending pieces
    put on the others (``project_levels``)."""
    ut, ab, ur = tb.ut, tb.ab, tb.ur
    others, _ = project_levels(ut, tb.bt, ab, pc, n, bl, wbl, bc)
    extra = tb.rules[L.R_TURNS] - turn + 1
    for c in range(L.N_AC):
        acc[c] = 0
    for i in range(n):
        piece_terms(ut, ab, ur, pc, i, others, extra, wpc, acc, 1)
    return others


@hot
def piece_terms(ut, ab, ur, pc, i, others, extra, wpc, acc, sign):
    """Add (``sign`` 1) or take back (-1) piece ``i``'s share of the totals in ``acc``
    (``AC_*``; every step its abilities do not read the kingdom in, from its unit record)
    and write its scratch row ``wpc[i]``: (steps from the totals ``W_DYN``, -, projected
    tokens, dying ``W_DYING``, -). ``others``: ``project_levels``' tokens; ``extra``: the
    Agings left. The shares are integers: the totals do not depend on the pieces' order,
    so a decision can value its options from one first pass (``value_totals``)."""
    k = ix(i)
    u = pc[k, L.PC_UNIT]
    uu = ix(u)
    age = pc[k, L.PC_AGE] + others
    if pc[k, L.PC_PENDING]:
        age += ut[uu, L.KU_SELF_AGE] - ut[uu, L.KU_OTHERS_AGE]
    end_age = age + extra if never_dies(ut, u) else age
    spot = pc[k, L.PC_SPOT]
    row = ix(0 if spot < L.MAX_FRONT else 1)
    d = ut[uu, L.KU_DYN]
    r = ur[uu, row, 0]
    if age >= 0 and end_age < L.UR_AGES:
        r = ur[uu, row, ix(age)]
        wood, food, crystal = r[L.UR_WOOD], r[L.UR_FOOD], r[L.UR_CRYSTAL]
        dying = r[L.UR_DIES] == 1
    else:  # beyond the records: every step from the functions (production and death
        d = L.STEP_ALL  # read only the unit: the loader keeps them self-contained)
        wood, food, crystal = unit_production(ut, u, age, spot, 0, 0)
        dying = dies(ut, ab, u, age)
    wpc[k, L.W_DYN] = d
    if d:
        acc[L.AC_DYN] += sign
    wpc[k, L.PC_AGE] = age
    wpc[k, L.W_DYING] = dying
    acc[L.AC_WOOD] += sign * wood
    acc[L.AC_FOOD] += sign * food
    acc[L.AC_CRYSTAL] += sign * crystal
    acc[L.AC_AGE_ALL] += sign * age
    acc[L.AC_PER_DYING] += sign * ut[uu, L.KU_PER_DYING]
    if not d & L.STEP_INCOME:
        acc[L.AC_INCOME] += sign * r[L.UR_INCOME]
    if not d & L.STEP_STRENGTH:
        acc[L.AC_STRENGTH] += sign * r[L.UR_STRENGTH]
        acc[L.AC_STRONG] += sign * r[L.UR_STRONG]
    if not d & L.STEP_WAR:
        acc[L.AC_PER_WAR] += sign * r[L.UR_PER_WAR]
        acc[L.AC_WAR_UNITS] += sign * r[L.UR_WAR_LP]
    if not d & L.STEP_END:
        acc[L.AC_RELIC] += sign * ur[uu, row, ix(end_age), L.UR_END_LP]
    if pc[k, L.PC_FRESH] and not d & L.STEP_DEPLOY:
        acc[L.AC_DEP] += sign * r[L.UR_DEPLOY_LP]
    if dying:
        acc[L.AC_TOKENS] += sign * age
        if not d & L.STEP_DEATH:
            acc[L.AC_AGING_LP] += sign * r[L.UR_DEATH_LP]
    else:
        acc[L.AC_KEEP] += sign * ut[uu, L.U_STRENGTH]


@hot
def l_piece_terms(ut, ab, ur, ldyn, pc, i, extra):
    """Piece ``i``'s share of ``l_value``'s totals: (its row's bits: the steps it computes
    from the kingdom's totals ``STEP_*`` and ``LA_DYING``; its shares in ``LA_*`` order),
    every step ``ldyn`` does not mark from its unit record. ``extra``: the Agings left.
    The shares are integers that read only the piece: a decision can value its options
    from one first pass (``l_option_pass``)."""
    u, age, spot = pc[i, L.PC_UNIT], pc[i, L.PC_AGE], pc[i, L.PC_SPOT]
    end_age = age + extra if never_dies(ut, u) else age
    row = 0 if spot < L.MAX_FRONT else 1
    d = ldyn[u]
    r = ur[u, row, 0]
    if age >= 0 and end_age < L.UR_AGES:
        r = ur[u, row, age]
        wood, food, crystal = r[L.UR_WOOD], r[L.UR_FOOD], r[L.UR_CRYSTAL]
        dies_now = r[L.UR_DIES] == 1
    else:  # beyond the records: every step from the functions
        d = L.STEP_ALL
        wood, food, crystal = unit_production(ut, u, age, spot, 0, 0)
        dies_now = dies(ut, ab, u, age)
    income = strength = strong = per_war = war_lp = relic = dep = tokens = aging_lp = keep = 0
    if not d & L.STEP_INCOME:
        income = r[L.UR_INCOME]
    if not d & L.STEP_STRENGTH:
        strength = r[L.UR_STRENGTH]
        strong = r[L.UR_STRONG]
    if not d & L.STEP_WAR:
        per_war = r[L.UR_PER_WAR]
        war_lp = r[L.UR_WAR_LP]
    if not d & L.STEP_END:
        relic = ur[u, row, end_age, L.UR_END_LP]
    if pc[i, L.PC_FRESH] and not d & L.STEP_DEPLOY:
        dep = r[L.UR_DEPLOY_LP]
    bits = d
    if dies_now:
        bits |= L.LA_DYING
        tokens = age
        if not d & L.STEP_DEATH:
            aging_lp = r[L.UR_DEATH_LP]
    else:
        keep = ut[u, L.U_STRENGTH]
    shares = (
        wood, food, crystal, age, ut[u, L.KU_PER_DYING], income, strength, strong, per_war,
        war_lp, relic, dep, tokens, aging_lp, keep,
    )  # fmt: skip
    return bits, shares


@hot
def kingdom_totals(tb, pc, n, wpc, bc, acc):
    """``assess`` from a first pass (``first_pass``: the pieces' totals ``acc``, scratch
    rows ``wpc``, the levels' cache ``bc``): (wood, food, crystal, income, strength, tokens
    on all units, level-2 buildings, strong units, the steps some piece computes from the
    kingdom's totals ``STEP_*``). The same integers as ``assess`` of the projected kingdom."""
    ut, bt, ab, rules = tb.ut, tb.bt, tb.ab, tb.rules
    wood = bc[L.BC_WOOD] + acc[L.AC_WOOD]
    food = bc[L.BC_FOOD] + acc[L.AC_FOOD]
    crystal = bc[L.BC_CRYSTAL] + acc[L.AC_CRYSTAL]
    n_level2 = bc[L.BC_LEVEL2]
    age_all = acc[L.AC_AGE_ALL]
    income = acc[L.AC_INCOME] + rules[L.R_BASE_INCOME]
    strength = acc[L.AC_STRENGTH]
    n_strong = acc[L.AC_STRONG]
    dyn = 0  # the steps some unit needs computed from the kingdom's totals
    for i in range(n if acc[L.AC_DYN] else 0):
        dyn |= wpc[ix(i), L.W_DYN]
    for i in range(n if dyn & L.STEP_INCOME else 0):
        if wpc[i, L.W_DYN] & L.STEP_INCOME:
            income += unit_gain(
                ut, ab, pc[i, L.PC_UNIT], K_GOLD, PH_INCOME, wpc[i, L.PC_AGE], pc[i, L.PC_SPOT],
                wood, food, crystal, age_all, n_level2,
            )  # fmt: skip
    income += face_terms(bt, bc, BS_INCOME, age_all, wood, food, crystal, 0, n_level2, 0)
    strong_min = rules[L.R_STRONG_MIN]
    front_only = rules[L.R_STRONG_FRONT_ONLY]
    for i in range(n if dyn & L.STEP_STRENGTH else 0):
        if wpc[i, L.W_DYN] & L.STEP_STRENGTH:
            spot = pc[i, L.PC_SPOT]
            value, from_back = unit_strength(
                ut,
                ab,
                pc[i, L.PC_UNIT],
                wpc[i, L.PC_AGE],
                spot,
                wood,
                food,
                crystal,
                income,
                age_all,
                n_level2,
            )
            front = spot < L.MAX_FRONT
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
    ut, bt, ab, rules = tb.ut, tb.bt, tb.ab, tb.rules
    wood, food, crystal, income, strength, age_all, n_level2, n_strong, dyn = kingdom_totals(
        tb, pc, n, wpc, bc, acc
    )
    per_war = acc[L.AC_PER_WAR]
    war_units = acc[L.AC_WAR_UNITS]
    relic = acc[L.AC_RELIC]
    dep = acc[L.AC_DEP]
    aging_lp = acc[L.AC_AGING_LP]
    turns = rules[L.R_TURNS]
    extra = turns - turn + 1
    won, war_lp = fight(rules, two, strength, seen0, seen1)
    pww = wars_counted(rules, two, won)
    per_war *= pww
    for i in range(n if dyn & (L.STEP_WAR | L.STEP_END | L.STEP_DEPLOY | L.STEP_DEATH) else 0):
        u = pc[i, L.PC_UNIT]
        d = wpc[i, L.W_DYN]
        age = wpc[i, L.PC_AGE]
        spot = pc[i, L.PC_SPOT]
        if d & L.STEP_WAR:
            pw, wu, _ = unit_war(
                ut, ab, rules, u, age, spot, wood, food, crystal, income, age_all, n_level2,
                n_strong,
            )  # fmt: skip
            per_war += pw * pww
            war_units += wu
        if d & L.STEP_END:
            end_age = age + extra if never_dies(ut, u) else age
            relic += unit_gain(
                ut, ab, u, K_LP, PH_END, end_age, spot, wood, food, crystal, age_all, n_level2
            )
        if d & L.STEP_DEPLOY and pc[i, L.PC_FRESH]:
            dep += unit_gain(
                ut, ab, u, K_LP, PH_DEPLOYMENT, age, spot, wood, food, crystal, age_all, n_level2
            )
        if d & L.STEP_DEATH and wpc[i, L.W_DYING]:
            aging_lp += unit_death(ut, ab, u, age, spot, wood, food, crystal, age_all, n_level2)[0]
    war_buildings = face_terms(
        bt, bc, BS_WAR, age_all, wood, food, crystal, income, n_level2, n_strong
    )
    end_b = bc[L.BC_LP] + face_terms(bt, bc, BS_END, age_all, wood, food, crystal, 0, n_level2, 0)
    if acc[L.AC_TOKENS]:
        aging_lp += acc[L.AC_PER_DYING] * acc[L.AC_TOKENS]
    war = war_lp + per_war + war_units + war_buildings
    lp = (war, end_b + relic, dep, aging_lp)
    totals = (income, strength, wood, food, crystal, acc[L.AC_KEEP], n, n_level2, n_strong)
    return weighted(weights, pol, bt, wbl, turns - turn, lp + totals, gold, seen0, seen1, two)


@hot
def _la_add(zx, a, t, sign):
    """Add ``sign`` x the shares ``t`` (``LA_*`` order) to the first-pass slot ``zx[a:]``."""
    zx[a + L.LA_WOOD] += sign * t[L.LA_WOOD]
    zx[a + L.LA_FOOD] += sign * t[L.LA_FOOD]
    zx[a + L.LA_CRYSTAL] += sign * t[L.LA_CRYSTAL]
    zx[a + L.LA_AGE_ALL] += sign * t[L.LA_AGE_ALL]
    zx[a + L.LA_PER_DYING] += sign * t[L.LA_PER_DYING]
    zx[a + L.LA_INCOME] += sign * t[L.LA_INCOME]
    zx[a + L.LA_STRENGTH] += sign * t[L.LA_STRENGTH]
    zx[a + L.LA_STRONG] += sign * t[L.LA_STRONG]
    zx[a + L.LA_PER_WAR] += sign * t[L.LA_PER_WAR]
    zx[a + L.LA_WAR_UNITS] += sign * t[L.LA_WAR_UNITS]
    zx[a + L.LA_RELIC] += sign * t[L.LA_RELIC]
    zx[a + L.LA_DEP] += sign * t[L.LA_DEP]
    zx[a + L.LA_TOKENS] += sign * t[L.LA_TOKENS]
    zx[a + L.LA_AGING_LP] += sign * t[L.LA_AGING_LP]
    zx[a + L.LA_KEEP] += sign * t[L.LA_KEEP]


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
    for c in range(L.N_LA):
        zx[L.FX_PASS + c] = zx[L.FX_BASE + c]
    if k < 0:
        return n0
    extra = tb.rules[L.R_TURNS] - turn + 1
    for step in range(2):  # take back, then add: one inlined copy of l_piece_terms
        sign = 2 * step - 1
        if sign > 0:
            pc[k, L.PC_SPOT] = spot
            pc[k, L.PC_UNIT] = u
            pc[k, L.PC_AGE] = age
            if new:
                pc[k, L.PC_PENDING] = 1
                pc[k, L.PC_FRESH] = 1
        if sign > 0 or k < n0:
            bits, shares = l_piece_terms(tb.ut, tb.ab, tb.ur, lx.ldyn, pc, k, extra)
            _la_add(zx, FX_PASS, shares, sign)
            zx[L.FX_PASS + L.LA_ROWS + k] = bits if sign > 0 else 0
    return max(n0, k + 1)


@hot
def l_art_cost_now(ut, bt, ab, lr, pc, n, bl, inset, in_zone):
    """``Game.placement_cost`` of an artifact when nothing is placed (Recruitment, the keep):
    max(floor, base + step x ``in_zone`` + the ``artifact_cost_modifier``s of the units and
    the set's building faces)."""
    modifier = 0
    for i in range(n):
        u = pc[i, L.PC_UNIT]
        for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
            if ab[j, L.A_KIND] == L.K_ART_COST_MODIFIER:
                modifier += ab[j, L.A_AMOUNT]
    for b in range(bt.shape[0]):
        if inset[b]:
            for k in range(bl[b]):
                for j in range(bt[b, k, L.B_AB0], bt[b, k, L.B_AB0] + bt[b, k, L.B_NAB]):
                    if ab[j, L.A_KIND] == L.K_ART_COST_MODIFIER:
                        modifier += ab[j, L.A_AMOUNT]
    raw = lr[L.L_ART_COST_BASE] + lr[L.L_ART_COST_STEP] * in_zone + modifier
    return max(lr[L.L_ART_COST_FLOOR], raw)


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
    ut = tb.ut
    U = ut.shape[0]
    if t >= U:
        cost = l_art_cost_now(ut, tb.bt, tb.ab, lx.lrules, pc, n, bl, inset, na)
        sa[na, L.SA_X] = t - U
        sa[na, L.SA_PENDING] = 1
        sa[na, L.SA_DONE] = -1
        l_option_pass(tb, lx, pc, n, -1, 0, 0, 0, 0, turn, zx)
        v = l_value(
            tb, lx, weights, pol, pc, np.int64(n), pdone, bl, sa, np.int64(na + 1),
            np.int64(gold - cost), np.int64(0), seen0, seen1, two, turn, wpc, wbl, zx, inset,
            np.int64(L.LV_GIVEN),
        )  # fmt: skip
    else:
        cost = ut[t, L.U_COST]
        v = -np.inf
        for spot in (0, L.MAX_FRONT):
            m = l_option_pass(tb, lx, pc, n, n, spot, t, 0, 1, turn, zx)
            pdone[n] = -1
            w = l_value(
                tb, lx, weights, pol, pc, np.int64(m), pdone, bl, sa, np.int64(na),
                np.int64(gold - cost), np.int64(0), seen0, seen1, two, turn, wpc, wbl, zx, inset,
                np.int64(L.LV_GIVEN),
            )  # fmt: skip
            if w > v:
                v = w
    if cost > gold:
        v -= weights[pol, L.W_UNAFFORDABLE]
    return v
