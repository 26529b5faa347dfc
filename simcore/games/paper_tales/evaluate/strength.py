"""Paper Tales evaluation: strength (§2.3) and the wars phase.

One unit's strength (``unit_strength``; Legends ``l_unit_strength``), a kingdom's
assessment (``assess`` / ``l_assess``: production, income, strength), the wars
(``fight``, ``wars_counted``) and the war-phase LP and gold (``unit_war`` /
``l_unit_war``, ``war_phase_lp`` / ``l_war_phase_lp``). Each base function sits beside its
Legends twin; they stay two where the Legends one reads the pieces and the zone in its
multipliers (``l_per``), so the base game keeps its lean ``per_value`` loops. §N:
``docs/rules/paper-tales.md``.
"""

from __future__ import annotations

from talesim.simcore.jit import hot

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import (  # passed as call arguments (see layout.py)
    K_ADD_STRENGTH,
    K_GOLD,
    K_LP,
    PH_INCOME,
    PH_WAR,
)
from .facts import (
    base_facts,
    face_gain,
    face_mask,
    gain_holds,
    l_fixed_gain,
    l_per,
    l_unit_income,
    per_value,
    production,
    unit_gain,
    when_holds,
)


@hot
def _set_strength(ut, ab, u, age, spot, food, crystal):
    """(first, end of the strength abilities' rows, strength before ``add_strength``,
    fights from the Back row) of unit ``u`` with ``age`` tokens on ``spot``: printed, or
    its ``set_strength`` whose condition holds. No strength ability: no row, the printed
    strength, the Front row only."""
    lo, hi = ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]
    if not ut[u, L.KU_MASK] & L.M_STRENGTH:
        lo = hi
    value = ut[u, L.U_STRENGTH]
    from_back = False
    for j in range(lo, hi):
        kind = ab[j, L.A_KIND]
        if kind == L.K_SET_STRENGTH and when_holds(ab[j, L.A_WHEN], age, spot, food, crystal):
            value = ab[j, L.A_VALUE]
        elif kind == L.K_FIGHT_FROM_BACK:
            from_back = True
    return lo, hi, value, from_back


@hot
def _unless_cannot_fight(ab, lo, hi, value, age, spot, food, crystal):
    """``value``, or 0 when a ``cannot_fight`` row of ``ab[lo:hi]`` holds."""
    for j in range(lo, hi):
        if ab[j, L.A_KIND] == L.K_CANNOT_FIGHT and when_holds(
            ab[j, L.A_WHEN], age, spot, food, crystal
        ):
            return 0
    return value


@hot
def unit_strength(ut, ab, u, age, spot, wood, food, crystal, income, age_all, n_level2):
    """(strength, fights from the Back row) of one unit: printed, ``set_strength``,
    ``add_strength``, ``cannot_fight``."""
    lo, hi, value, from_back = _set_strength(ut, ab, u, age, spot, food, crystal)
    for j in range(lo, hi):
        if ab[j, L.A_KIND] == L.K_ADD_STRENGTH:
            value += ab[j, L.A_AMOUNT] * per_value(
                ab[j, L.A_PER], age, age_all, wood, food, crystal, income, n_level2, 0
            )
    return _unless_cannot_fight(ab, lo, hi, value, age, spot, food, crystal), from_back


@hot
def l_unit_strength(ut, ab, u, age, spot, pc, n, wood, food, crystal, facts):
    """``unit_strength`` with the Legends multipliers (``l_per``): (strength, fights from
    the Back row) of unit ``u`` with ``age`` tokens on ``spot``."""
    lo, hi, value, from_back = _set_strength(ut, ab, u, age, spot, food, crystal)
    for j in range(lo, hi):
        if ab[j, L.A_KIND] == L.K_ADD_STRENGTH:
            value += ab[j, L.A_AMOUNT] * l_per(
                ut, ab, j, ab[j, L.A_PER], age, spot, pc, n, wood, food, crystal, facts
            )
    return _unless_cannot_fight(ab, lo, hi, value, age, spot, food, crystal), from_back


@hot
def l_piece_strength(ut, ab, rules, pc, i, n, wood, food, crystal, facts):
    """(strength counted in the kingdom's, 1 if strong) of piece ``i`` (``l_unit_strength``):
    a Back-row unit counts only with ``fight_from_back``."""
    spot = pc[i, L.PC_SPOT]
    value, from_back = l_unit_strength(
        ut, ab, pc[i, L.PC_UNIT], pc[i, L.PC_AGE], spot, pc, n, wood, food, crystal, facts
    )
    front = spot < L.MAX_FRONT
    strong = value >= rules[L.R_STRONG_MIN] and (front or not rules[L.R_STRONG_FRONT_ONLY])
    return value if front or from_back else 0, 1 if strong else 0


@hot
def assess(ut, bt, ab, rules, pc, n, bl):
    """``reference.assess``: (wood, food, crystal, income, strength, age_all, n_level2,
    n_strong). Unit strength: printed, ``set_strength``, ``add_strength``, ``cannot_fight``;
    Back-row units count only with ``fight_from_back``; building ``add_strength`` adds to
    the total."""
    wood, food, crystal = production(ut, bt, pc, n, bl)
    age_all, n_level2 = base_facts(bt, pc, n, bl)
    faces = face_mask(bt, bl)
    income = rules[L.R_BASE_INCOME]
    for i in range(n):
        income += unit_gain(
            ut, ab, pc[i, L.PC_UNIT], K_GOLD, PH_INCOME, pc[i, L.PC_AGE], pc[i, L.PC_SPOT], wood,
            food, crystal, age_all, n_level2,
        )  # fmt: skip
    if faces & L.M_GOLD:
        income += face_gain(
            bt, ab, bl, K_GOLD, PH_INCOME, True, age_all, wood, food, crystal, 0, n_level2, 0
        )
    total = 0
    n_strong = 0
    strong_min = rules[L.R_STRONG_MIN]
    front_only = rules[L.R_STRONG_FRONT_ONLY]
    for i in range(n):
        spot = pc[i, L.PC_SPOT]
        value, from_back = unit_strength(
            ut, ab, pc[i, L.PC_UNIT], pc[i, L.PC_AGE], spot, wood, food, crystal, income,
            age_all, n_level2,
        )  # fmt: skip
        front = spot < L.MAX_FRONT
        if front or from_back:
            total += value
        if value >= strong_min and (front or not front_only):
            n_strong += 1
    if faces & L.M_ADD_STRENGTH:
        total += face_gain(
            bt, ab, bl, K_ADD_STRENGTH, -1, False, age_all, wood, food, crystal, income,
            n_level2, 0,
        )  # fmt: skip
    return wood, food, crystal, income, total, age_all, n_level2, n_strong


@hot
def l_assess(ut, bt, ab, rules, xt, pc, n, bl, zx, nz):
    """``reference.assess`` of a Legends kingdom: (wood, food, crystal, income, strength,
    age_all, n_level2, n_strong)."""
    wood, food, crystal = production(ut, bt, pc, n, bl, xt, zx, nz)
    age_all, n_level2 = base_facts(bt, pc, n, bl)
    facts = (age_all, n_level2, 0, 0, nz)
    income = rules[L.R_BASE_INCOME]
    for i in range(n):
        income += l_unit_income(
            ut, ab, pc[i, L.PC_UNIT], pc[i, L.PC_AGE], pc[i, L.PC_SPOT], pc, n, wood, food, crystal,
            facts,
        )  # fmt: skip
    income += l_fixed_gain(ut, bt, ab, xt, pc, n, bl, zx, nz, wood, food, crystal, facts, False)
    facts = (age_all, n_level2, income, 0, nz)
    total = 0
    n_strong = 0
    for i in range(n):
        value, strong = l_piece_strength(ut, ab, rules, pc, i, n, wood, food, crystal, facts)
        total += value
        n_strong += strong
    total += l_fixed_gain(ut, bt, ab, xt, pc, n, bl, zx, nz, wood, food, crystal, facts, True)
    return wood, food, crystal, income, total, age_all, n_level2, n_strong


@hot
def l_strength(tb, lx, pc, n, bl, ls, p):
    """Seat ``p``'s kingdom strength (pieces ``pc[:n]`` loaded, its paid artifacts)."""
    nz = 0
    for i in range(ls.zn[p]):
        if ls.zone[p, i, L.Z_PAID]:
            ls.zx[nz] = ls.zone[p, i, L.Z_X]
            nz += 1
    return l_assess(tb.ut, tb.bt, tb.ab, tb.rules, lx.xt, pc, n, bl, ls.zx, nz)[4]


@hot
def fight(rules, two, mine, s0, s1):
    """``reference.fight``: (wars won, war LP) against the neighbours' strengths ``s0``,
    ``s1`` (``two``: the 2-player single war against ``s0``)."""
    if two:
        if mine >= s0 and (mine > 0 or rules[L.R2_ZERO_WINS]):
            if mine >= rules[L.R2_DOUBLE_RATIO] * s0:
                return 1, rules[L.R2_DOUBLE_LP]
            return 1, rules[L.R2_WAR_LP]
        return 0, 0
    won = 0
    if mine >= s0:
        won += 1
    if mine >= s1:
        won += 1
    return won, won * rules[L.R_WAR_LP]


@hot
def wars_counted(rules, two, won):
    """How many times per-war-won abilities count (2 players: ``R2_PWW_TIMES`` if won)."""
    if two and won:
        return rules[L.R2_PWW_TIMES]
    return won


@hot
def unit_war(ut, ab, rules, u, age, spot, wood, food, crystal, income, age_all, n_level2, n_strong):
    """(per-war-won LP for one war, war-phase ``lp``, gold per war won) of one unit."""
    per_war = war_units = gold = 0
    if not ut[u, L.KU_MASK] & L.M_WAR_UNIT:
        return per_war, war_units, gold
    counts = spot < L.MAX_FRONT or not rules[L.R_PWW_FRONT_ONLY]
    for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
        kind = ab[j, L.A_KIND]
        if kind == L.K_LP_PER_WAR_WON and counts:
            mult = per_value(
                ab[j, L.A_PER], age, age_all, wood, food, crystal, income, n_level2, n_strong
            )
            per_war += ab[j, L.A_AMOUNT] * mult
        elif kind == L.K_GOLD_PER_WAR_WON and counts:
            gold += ab[j, L.A_AMOUNT]
        elif (
            kind == L.K_LP
            and ab[j, L.A_PHASE] == L.PH_WAR
            and when_holds(ab[j, L.A_WHEN], age, spot, food, crystal)
        ):
            mult = per_value(
                ab[j, L.A_PER], age, age_all, wood, food, crystal, income, n_level2, n_strong
            )
            war_units += ab[j, L.A_AMOUNT] * mult
    return per_war, war_units, gold


@hot
def l_unit_war(ut, ab, rules, u, age, spot, pc, n, wood, food, crystal, facts):
    """(per-war-won LP for one war, war-phase LP, gold per war won, flat war gold) of one
    unit (``lp_per_war_won`` / ``gold_per_war_won`` only from the Front when the rules say
    so; war ``lp``; war ``conditional_gain``)."""
    per_war = war_units = gold_per_war = gold = 0
    if not ut[u, L.KU_MASK] & L.M_WAR_UNIT_L:
        return per_war, war_units, gold_per_war, gold
    counts = spot < L.MAX_FRONT or not rules[L.R_PWW_FRONT_ONLY]
    for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
        kind = ab[j, L.A_KIND]
        if kind == L.K_LP_PER_WAR_WON and counts:
            mult = l_per(ut, ab, j, ab[j, L.A_PER], age, spot, pc, n, wood, food, crystal, facts)
            per_war += ab[j, L.A_AMOUNT] * mult
        elif kind == L.K_GOLD_PER_WAR_WON and counts:
            gold_per_war += ab[j, L.A_AMOUNT]
        elif (
            kind == L.K_LP
            and ab[j, L.A_PHASE] == L.PH_WAR
            and when_holds(ab[j, L.A_WHEN], age, spot, food, crystal)
        ):
            mult = l_per(ut, ab, j, ab[j, L.A_PER], age, spot, pc, n, wood, food, crystal, facts)
            war_units += ab[j, L.A_AMOUNT] * mult
        elif (
            kind == L.K_CONDITIONAL_GAIN
            and ab[j, L.A_PHASE] == L.PH_WAR
            and gain_holds(ut, ab, j, age, spot, pc, n, wood, food, crystal, facts)
        ):
            war_units += ab[j, L.A_LP]
            gold += ab[j, L.A_GOLD]
    return per_war, war_units, gold_per_war, gold


@hot
def l_fixed_war(ut, bt, ab, xt, pc, n, bl, zx, nz, pww, wood, food, crystal, facts):
    """The war phase of the building faces shown and of the artifacts ``zx[:nz]`` with
    ``pww`` wars counted: (per-war-won LP, war_buildings LP, war_artifacts LP, gold)."""
    per_war = war_buildings = war_arts = gold = 0
    for b in range(bt.shape[0]):
        for k in range(bl[b]):
            if not bt[b, k, L.KB_MASK] & L.M_WAR_FACE_L:
                continue
            for j in range(bt[b, k, L.B_AB0], bt[b, k, L.B_AB0] + bt[b, k, L.B_NAB]):
                kind = ab[j, L.A_KIND]
                if (
                    kind == L.K_LP
                    and ab[j, L.A_PHASE] == L.PH_WAR
                    and when_holds(ab[j, L.A_WHEN], 0, -1, food, crystal)
                ):
                    war_buildings += ab[j, L.A_AMOUNT] * l_per(
                        ut, ab, j, ab[j, L.A_PER], 0, -1, pc, n, wood, food, crystal, facts
                    )
                elif (
                    kind == L.K_CONDITIONAL_GAIN
                    and ab[j, L.A_PHASE] == L.PH_WAR
                    and gain_holds(ut, ab, j, 0, -1, pc, n, wood, food, crystal, facts)
                ):
                    war_buildings += ab[j, L.A_LP]
                    gold += ab[j, L.A_GOLD]
    for i in range(nz):
        x = zx[i]
        for j in range(xt[x, L.X_AB0], xt[x, L.X_AB0] + xt[x, L.X_NAB]):
            kind = ab[j, L.A_KIND]
            if kind == L.K_LP_PER_WAR_WON:
                mult = l_per(ut, ab, j, ab[j, L.A_PER], 0, -1, pc, n, wood, food, crystal, facts)
                per_war += ab[j, L.A_AMOUNT] * mult * pww
            elif kind == L.K_GOLD_PER_WAR_WON:
                gold += ab[j, L.A_AMOUNT] * pww
            elif kind == L.K_LP and ab[j, L.A_PHASE] == L.PH_WAR:
                mult = l_per(ut, ab, j, ab[j, L.A_PER], 0, -1, pc, n, wood, food, crystal, facts)
                war_arts += ab[j, L.A_AMOUNT] * mult
            elif (
                kind == L.K_CONDITIONAL_GAIN
                and ab[j, L.A_PHASE] == L.PH_WAR
                and gain_holds(ut, ab, j, 0, -1, pc, n, wood, food, crystal, facts)
            ):
                war_arts += ab[j, L.A_LP]
                gold += ab[j, L.A_GOLD]
    return per_war, war_buildings, war_arts, gold


@hot
def war_phase_lp(
    ut, bt, ab, rules, pc, n, bl, two, won, wood, food, crystal, income, age_all, n_level2, n_strong
):
    """``reference.war_phase_lp``: (per_war_won, war_units, war_buildings LP, war gold)."""
    pww = wars_counted(rules, two, won)
    per_war = war_units = war_buildings = gold = 0
    for i in range(n):
        pw, wu, g = unit_war(
            ut, ab, rules, pc[i, L.PC_UNIT], pc[i, L.PC_AGE], pc[i, L.PC_SPOT], wood, food, crystal,
            income, age_all, n_level2, n_strong,
        )  # fmt: skip
        per_war += pw * pww
        war_units += wu
        gold += g * pww
    if face_mask(bt, bl) & L.M_LP:
        war_buildings = face_gain(
            bt, ab, bl, K_LP, PH_WAR, True, age_all, wood, food, crystal, income, n_level2,
            n_strong,
        )  # fmt: skip
    return per_war, war_units, war_buildings, gold


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
            ut, ab, rules, pc[i, L.PC_UNIT], pc[i, L.PC_AGE], pc[i, L.PC_SPOT], pc, n, wood, food,
            crystal, facts,
        )  # fmt: skip
        per_war += pw * pww
        war_units += wu
        gold += gpw * pww + g
    pw, war_buildings, war_arts, g = l_fixed_war(
        ut, bt, ab, xt, pc, n, bl, zx, nz, pww, wood, food, crystal, facts
    )
    return per_war + pw, war_units, war_buildings, war_arts, gold + g
