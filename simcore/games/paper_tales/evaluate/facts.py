"""Paper Tales evaluation: the facts of a kingdom and its production and income terms.

Conditions (``when_holds``), multipliers (``per_value``; Legends ``l_per``, which also
reads the pieces and the zone), ``conditional_gain`` (``gain_holds``), production
(``unit_production``, ``production``), the multipliers every phase knows (``base_facts``),
and the per-source gains of the income step (``unit_gain``, ``face_gain``; Legends
``income_gain`` and its unit / face-and-artifact sums, the latter shared with the
strength's). The kernel's twins of
``reference``'s ``when_holds``, ``per_value``, ``gain_holds``, ``production``,
``income_gain``. Ability kinds, conditions and multipliers are read from the ``ab``
opcode table; no card is named.
"""

from __future__ import annotations

from talesim.simcore.jit import hot, hot_inline

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)


@hot_inline
def when_holds(when, age, spot, food, crystal):
    """Condition ``when`` for a unit with ``age`` tokens on ``spot`` (a building: 0, -1)."""
    if when == L.W_ALWAYS:
        return True
    if when == L.W_AGED:
        return age >= 1
    if when == L.W_EXACTLY_ONE_AGE:
        return age == 1
    if when == L.W_FRONT_ROW:
        return 0 <= spot < L.MAX_FRONT
    if when == L.W_HAS_FOOD:
        return food >= 1
    return crystal >= 1  # W_HAS_CRYSTAL


@hot_inline
def per_value(per, age, age_all, wood, food, crystal, income, n_level2, n_strong):
    """Multiplier ``per`` (``age``: tokens on the unit, 0 for a building). A multiplier a
    phase does not know (the loader forbids those) is 0."""
    if per == L.P_ONE:
        return 1
    if per == L.P_AGE_SELF:
        return age
    if per == L.P_AGE_KINGDOM:
        return age_all
    if per == L.P_WOOD:
        return wood
    if per == L.P_FOOD:
        return food
    if per == L.P_CRYSTAL:
        return crystal
    if per == L.P_INCOME_GOLD:
        return income
    if per == L.P_LEVEL2_BUILDINGS:
        return n_level2
    if per == L.P_STRONG_UNITS:
        return n_strong
    return 0


@hot
def l_per(ut, ab, j, per, age, spot, pc, n, wood, food, crystal, facts):
    """``reference.per_value`` of ability row ``j`` with multiplier code ``per`` for a source
    with ``age`` tokens on ``spot`` (-1: a building face or an artifact). ``facts`` =
    (age_all, n_level2, income, n_strong, n_artifacts): what the phase knows. The Legends
    multipliers here, the base game's ``per_value``: not folded into one, because the
    Legends counters read the pieces and the zone, and the base game's innermost loops
    keep ``per_value``'s nine integers."""
    age_all, n_level2, income, n_strong, n_arts = facts
    if per == L.P_ARTIFACTS:
        return n_arts
    if per in (L.P_UNITS_COST_GE, L.P_UNITS_COST_LE):
        count = 0
        for i in range(n):
            if ab[j, L.A_PER_OTHER] and spot >= 0 and pc[i, L.PC_SPOT] == spot:
                continue
            cost = ut[pc[i, L.PC_UNIT], L.U_COST]
            if per == L.P_UNITS_COST_GE:
                count += cost >= ab[j, L.A_PER_COST]
            else:
                count += cost <= ab[j, L.A_PER_COST]
        return count
    if per == L.P_RESOURCE_SETS:
        return min(wood, min(food, crystal))
    if per == L.P_RESOURCES:
        return wood + food + crystal
    return per_value(per, age, age_all, wood, food, crystal, income, n_level2, n_strong)


@hot
def gain_holds(ut, ab, j, age, spot, pc, n, wood, food, crystal, facts):
    """``reference.gain_holds``: ``conditional_gain`` row ``j`` of a source (``age``,
    ``spot``; -1: no piece) holds."""
    return (
        when_holds(ab[j, L.A_WHEN], age, spot, food, crystal)
        and wood >= ab[j, L.A_REQ0]
        and food >= ab[j, L.A_REQ0 + 1]
        and crystal >= ab[j, L.A_REQ0 + 2]
        and l_per(ut, ab, j, ab[j, L.A_COUNTER], age, spot, pc, n, wood, food, crystal, facts)
        >= ab[j, L.A_MIN]
    )


@hot
def unit_production(ut, u, age, spot, food, crystal):
    """(wood, food, crystal) one unit produces (gated by its own tokens/row)."""
    if not when_holds(ut[u, L.U_PROD_WHEN], age, spot, food, crystal):
        return 0, 0, 0
    mult = age if ut[u, L.U_PROD_PER] == L.P_AGE_SELF else 1
    return ut[u, L.U_PROD0] * mult, ut[u, L.U_PROD0 + 1] * mult, ut[u, L.U_PROD0 + 2] * mult


@hot
def production(ut, bt, pc, n, bl, xt=None, zx=None, nz=0):
    """``reference.production``: (wood, food, crystal) of the units (gated by their own
    tokens/row) and the building faces; Legends (artifact table ``xt``, None in a base
    game, where numba prunes the loop): then the artifacts ``zx[:nz]``."""
    wood = food = crystal = 0
    for i in range(n):
        w, f, c = unit_production(
            ut, pc[i, L.PC_UNIT], pc[i, L.PC_AGE], pc[i, L.PC_SPOT], food, crystal
        )
        wood += w
        food += f
        crystal += c
    for b in range(bt.shape[0]):
        for k in range(bl[b]):
            wood += bt[b, k, L.B_PROD0]
            food += bt[b, k, L.B_PROD0 + 1]
            crystal += bt[b, k, L.B_PROD0 + 2]
    if xt is not None:
        for i in range(nz):
            x = zx[i]
            wood += xt[x, L.X_PROD0]
            food += xt[x, L.X_PROD0 + 1]
            crystal += xt[x, L.X_PROD0 + 2]
    return wood, food, crystal


@hot
def base_facts(bt, pc, n, bl):
    """(tokens on all units, level-2 buildings): the multipliers every phase knows."""
    age_all = 0
    for i in range(n):
        age_all += pc[i, L.PC_AGE]
    n_level2 = 0
    for b in range(bt.shape[0]):
        if bl[b] == L.LEVELS:
            n_level2 += 1
    return age_all, n_level2


@hot
def pending_effects(ut, pc, n):
    """What the pending pieces of ``pc[:n]`` will predictably do on deploy: (tokens their
    ``add_age`` puts on each other piece, 1 if one upgrades the buildings)."""
    others = 0
    upgrade = 0
    for i in range(n):
        if pc[i, L.PC_PENDING]:
            others += ut[pc[i, L.PC_UNIT], L.KU_OTHERS_AGE]
            upgrade |= ut[pc[i, L.PC_UNIT], L.KU_UPGRADE]
    return others, upgrade


@hot
def face_mask(bt, bl):
    """The kinds of every building face a kingdom shows."""
    m = 0
    for b in range(bt.shape[0]):
        for k in range(bl[b]):
            m |= bt[b, k, L.KB_MASK]
    return m


@hot
def unit_gain(ut, ab, u, kind, phase, age, spot, wood, food, crystal, age_all, n_level2):
    """One unit's ``kind`` abilities of ``phase`` whose condition holds, times their
    multiplier: income ``gold``; ``lp`` of the End (Relic) or Deployment (Kraken)."""
    gain = 0
    if not ut[u, L.KU_MASK] & (1 << kind):
        return gain
    for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
        if (
            ab[j, L.A_KIND] == kind
            and ab[j, L.A_PHASE] == phase
            and when_holds(ab[j, L.A_WHEN], age, spot, food, crystal)
        ):
            gain += ab[j, L.A_AMOUNT] * per_value(
                ab[j, L.A_PER], age, age_all, wood, food, crystal, 0, n_level2, 0
            )
    return gain


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
            if not bt[b, k, L.KB_MASK] & bit:
                continue
            for j in range(bt[b, k, L.B_AB0], bt[b, k, L.B_AB0] + bt[b, k, L.B_NAB]):
                if (
                    ab[j, L.A_KIND] == kind
                    and (phase < 0 or ab[j, L.A_PHASE] == phase)
                    and (not check_when or when_holds(ab[j, L.A_WHEN], 0, -1, food, crystal))
                ):
                    total += ab[j, L.A_AMOUNT] * per_value(
                        ab[j, L.A_PER], 0, age_all, wood, food, crystal, income, n_level2, n_strong
                    )
    return total


@hot
def income_gain(ut, ab, j, age, spot, pc, n, wood, food, crystal, facts):
    """``reference.income_gain`` of ability row ``j``."""
    if ab[j, L.A_PHASE] != L.PH_INCOME:
        return 0
    kind = ab[j, L.A_KIND]
    if kind == L.K_GOLD and when_holds(ab[j, L.A_WHEN], age, spot, food, crystal):
        return ab[j, L.A_AMOUNT] * l_per(
            ut, ab, j, ab[j, L.A_PER], age, spot, pc, n, wood, food, crystal, facts
        )
    if kind == L.K_CONDITIONAL_GAIN and gain_holds(
        ut, ab, j, age, spot, pc, n, wood, food, crystal, facts
    ):
        return ab[j, L.A_GOLD]
    return 0


@hot
def l_unit_income(ut, ab, u, age, spot, pc, n, wood, food, crystal, facts):
    """One unit's income gold (``income_gain`` of each of its abilities)."""
    income = 0
    if not ut[u, L.KU_MASK] & L.M_INCOME_L:
        return income
    for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
        income += income_gain(ut, ab, j, age, spot, pc, n, wood, food, crystal, facts)
    return income


@hot
def _fixed_term(ut, ab, j, pc, n, wood, food, crystal, facts, strength):
    """Ability row ``j`` of a building face or an artifact: its income gold
    (``income_gain``), or with ``strength`` its ``add_strength`` (whatever its condition)."""
    if not strength:
        return income_gain(ut, ab, j, 0, -1, pc, n, wood, food, crystal, facts)
    if ab[j, L.A_KIND] == L.K_ADD_STRENGTH:
        return ab[j, L.A_AMOUNT] * l_per(
            ut, ab, j, ab[j, L.A_PER], 0, -1, pc, n, wood, food, crystal, facts
        )
    return 0


@hot
def l_fixed_gain(ut, bt, ab, xt, pc, n, bl, zx, nz, wood, food, crystal, facts, strength):
    """The income gold (``strength``: the ``add_strength``) of the building faces shown and
    of the artifacts ``zx[:nz]`` (``_fixed_term``)."""
    mask = L.M_ADD_STRENGTH if strength else L.M_INCOME_L
    total = 0
    for b in range(bt.shape[0]):
        for k in range(bl[b]):
            if not bt[b, k, L.KB_MASK] & mask:
                continue
            for j in range(bt[b, k, L.B_AB0], bt[b, k, L.B_AB0] + bt[b, k, L.B_NAB]):
                total += _fixed_term(ut, ab, j, pc, n, wood, food, crystal, facts, strength)
    for i in range(nz):
        x = zx[i]
        for j in range(xt[x, L.X_AB0], xt[x, L.X_AB0] + xt[x, L.X_NAB]):
            total += _fixed_term(ut, ab, j, pc, n, wood, food, crystal, facts, strength)
    return total
