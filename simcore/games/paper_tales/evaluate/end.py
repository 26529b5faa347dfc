"""Paper Tales evaluation: the End (§2.7), deaths (§2.6) and deployment LP.

``end_lp`` (Legends ``l_end_lp``: with the artifacts' printed and end LP, a part of its
own), who dies (``dies``, ``never_dies``), what a death gives (``unit_death``,
``death_rewards``) and the deployment-phase ``lp`` (``deploy_lp``). §N:
``docs/rules/paper-tales.md``.
"""

from __future__ import annotations

from talesim.simcore.jit import hot

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import K_LP, PH_DEPLOYMENT, PH_END, ix  # passed as call arguments (see layout.py)
from .facts import face_gain, face_mask, l_per, per_value, unit_gain, when_holds


@hot
def never_dies(ut, u):
    return ut[ix(u), L.KU_MASK] & L.M_NEVER_DIES != 0


@hot
def end_lp(ut, bt, ab, pc, n, bl, extra_age, wood, food, crystal, age_all, n_level2):
    """``reference.end_lp``: (building LP, unit end LP). ``extra_age``: tokens added to the
    units that never die (the policies' end projection; 0 in the real End phase)."""
    buildings = relic = 0
    for b in range(bt.shape[0]):
        lv = bl[b]
        if lv:
            buildings += bt[b, lv - 1, L.B_LP]
    if face_mask(bt, bl) & L.M_LP:
        buildings += face_gain(
            bt, ab, bl, K_LP, PH_END, True, age_all, wood, food, crystal, 0, n_level2, 0
        )
    for i in range(n):
        u = pc[i, L.PC_UNIT]
        age = pc[i, L.PC_AGE]
        if extra_age and never_dies(ut, u):
            age += extra_age
        relic += unit_gain(
            ut, ab, u, K_LP, PH_END, age, pc[i, L.PC_SPOT], wood, food, crystal, age_all, n_level2
        )
    return buildings, relic


@hot
def l_end_lp(ut, bt, ab, xt, pc, n, bl, zx, nz, extra_age, wood, food, crystal, age_all, n_level2):
    """``reference.end_lp`` (Legends): (buildings, relic, artifacts) LP. ``extra_age``:
    tokens added to the units that never die (policies' end projection; 0 at the End).
    Beside ``end_lp``, not folded into it: a third part and the Legends multipliers
    (``l_per``), which the base game's End and value do not read."""
    facts = (age_all, n_level2, 0, 0, nz)
    buildings, arts = l_fixed_end(ut, bt, ab, xt, pc, n, bl, zx, nz, wood, food, crystal, facts)
    relic = 0
    for i in range(n):
        u, age = pc[i, L.PC_UNIT], pc[i, L.PC_AGE]
        if extra_age and never_dies(ut, u):
            age += extra_age
        relic += l_unit_end(ut, ab, u, age, pc[i, L.PC_SPOT], pc, n, wood, food, crystal, facts)
    return buildings, relic, arts


@hot
def l_unit_end(ut, ab, u, age, spot, pc, n, wood, food, crystal, facts):
    """One unit's end-phase ``lp`` (Relic) with ``age`` tokens."""
    relic = 0
    if not ut[u, L.KU_MASK] & L.M_LP:
        return relic
    for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
        if (
            ab[j, L.A_KIND] == L.K_LP
            and ab[j, L.A_PHASE] == L.PH_END
            and when_holds(ab[j, L.A_WHEN], age, spot, food, crystal)
        ):
            relic += ab[j, L.A_AMOUNT] * l_per(
                ut, ab, j, ab[j, L.A_PER], age, spot, pc, n, wood, food, crystal, facts
            )
    return relic


@hot
def l_fixed_end(ut, bt, ab, xt, pc, n, bl, zx, nz, wood, food, crystal, facts):
    """The End of the building faces shown (their top face's LP, end ``lp``) and of the
    artifacts ``zx[:nz]`` (printed LP, end ``lp``): (buildings LP, artifacts LP)."""
    buildings = arts = 0
    for i in range(nz):
        x = zx[i]
        arts += xt[x, L.X_LP]
        for j in range(xt[x, L.X_AB0], xt[x, L.X_AB0] + xt[x, L.X_NAB]):
            if ab[j, L.A_KIND] == L.K_LP and ab[j, L.A_PHASE] == L.PH_END:
                arts += ab[j, L.A_AMOUNT] * l_per(
                    ut, ab, j, ab[j, L.A_PER], 0, -1, pc, n, wood, food, crystal, facts
                )
    for b in range(bt.shape[0]):
        lv = bl[b]
        if lv:
            buildings += bt[b, lv - 1, L.B_LP]
        for k in range(lv):
            if not bt[b, k, L.KB_MASK] & L.M_LP:
                continue
            for j in range(bt[b, k, L.B_AB0], bt[b, k, L.B_AB0] + bt[b, k, L.B_NAB]):
                if (
                    ab[j, L.A_KIND] == L.K_LP
                    and ab[j, L.A_PHASE] == L.PH_END
                    and when_holds(ab[j, L.A_WHEN], 0, -1, food, crystal)
                ):
                    buildings += ab[j, L.A_AMOUNT] * l_per(
                        ut, ab, j, ab[j, L.A_PER], 0, -1, pc, n, wood, food, crystal, facts
                    )
    return buildings, arts


@hot
def dies(ut, ab, u, age):
    """§2.6: >= 1 token dies, unless ``never_dies``; ``dies_at_age`` raises the threshold."""
    need = 1
    if not ut[u, L.KU_MASK] & L.M_DYING:
        return age >= need
    for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
        kind = ab[j, L.A_KIND]
        if kind == L.K_NEVER_DIES:
            return False
        if kind == L.K_DIES_AT_AGE:
            need = ab[j, L.A_MIN_AGE]
    return age >= need


@hot
def unit_death(ut, ab, u, age, spot, wood, food, crystal, age_all, n_level2):
    """(LP, gold) of one unit's ``death_lp`` / ``death_gold`` when it dies."""
    lp = gold = 0
    if not ut[u, L.KU_MASK] & L.M_DEATH:
        return lp, gold
    for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
        kind = ab[j, L.A_KIND]
        if kind == L.K_DEATH_LP:
            if when_holds(ab[j, L.A_WHEN], age, spot, food, crystal):
                lp += ab[j, L.A_AMOUNT] * per_value(
                    ab[j, L.A_PER], age, age_all, wood, food, crystal, 0, n_level2, 0
                )
        elif kind == L.K_DEATH_GOLD:
            gold += ab[j, L.A_AMOUNT] * per_value(
                ab[j, L.A_PER], age, age_all, wood, food, crystal, 0, n_level2, 0
            )
    return lp, gold


@hot
def death_rewards(ut, ab, pc, n, mask, wood, food, crystal, age_all, n_level2):
    """``reference.death_rewards``: (LP, gold) of the pieces whose bit is set in ``mask``
    dying (their ``death_lp``/``death_gold``, every piece's ``lp_per_dying_age``)."""
    lp = gold = tokens = 0
    for i in range(n):
        if not (mask >> i) & 1:
            continue
        age = pc[i, L.PC_AGE]
        tokens += age
        dl, dg = unit_death(
            ut, ab, pc[i, L.PC_UNIT], age, pc[i, L.PC_SPOT], wood, food, crystal, age_all, n_level2
        )
        lp += dl
        gold += dg
    for i in range(n if tokens else 0):
        lp += ut[pc[i, L.PC_UNIT], L.KU_PER_DYING] * tokens
    return lp, gold


@hot
def deploy_lp(ut, ab, pc, n, fresh_only, wood, food, crystal, age_all, n_level2):
    """Deployment-phase ``lp`` of the pieces (``fresh_only``: placed this phase)."""
    lp = 0
    for i in range(n):
        if fresh_only and not pc[i, L.PC_FRESH]:
            continue
        lp += unit_gain(
            ut, ab, pc[i, L.PC_UNIT], K_LP, PH_DEPLOYMENT, pc[i, L.PC_AGE], pc[i, L.PC_SPOT],
            wood, food, crystal, age_all, n_level2,
        )  # fmt: skip
    return lp
