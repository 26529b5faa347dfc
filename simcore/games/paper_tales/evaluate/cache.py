"""Paper Tales evaluation: the caches of what building faces (and artifacts) give.

``value``'s building cache ``bc`` (``faces_of``: production, level-2 count, face LP and
each face ability's term per step; ``raise_building`` for a construction option) and the
Legends cache in the tail of ``zx`` (``fixed_terms``: the faces and the artifacts of a
sketch, their ability rows per step; ``fixed_gain``). The options of one decision share
their buildings (and artifacts), so a cache is rebuilt about once a decision. Two caches,
not one: the base one stores resolved (when, per, amount) terms read by the lean
``per_value``; the Legends one stores ability rows, because its multipliers read the
pieces (``l_per``) and its ``conditional_gain`` rows more than a term.
"""

from __future__ import annotations

from simcore.jit import hot

from ..schema import (
    K_ADD_STRENGTH,
    K_CONDITIONAL_GAIN,
    K_GOLD,
    K_LP,
    K_LP_PER_WAR_WON,
    P_STRONG_UNITS,
    PH_END,
    PH_INCOME,
    PH_WAR,
    W_ALWAYS,
)
from ..tables import (
    A_AMOUNT,
    A_KIND,
    A_LP,
    A_PER,
    A_PHASE,
    A_WHEN,
    B_AB0,
    B_LP,
    B_NAB,
    B_PROD0,
    LEVELS,
    MAX_ABILITIES,
    N_RES,
    X_AB0,
    X_LP,
    X_NAB,
    X_PROD0,
    ix,
)
from .facts import gain_holds, income_gain, l_per, per_value, when_holds
from .layout import (
    BC_KEY,
    BC_LEVEL2,
    BC_LP,
    BC_N0,
    BC_TERMS,
    BC_WOOD,
    BS_END,
    BS_INCOME,
    BS_STRENGTH,
    BS_WAR,
    FS_END,
    FS_INCOME,
    FS_STRENGTH,
    FS_WAR,
    FX_ARTS,
    FX_BASE,
    FX_KEY,
    FX_LEVEL2,
    FX_LP,
    FX_N0,
    FX_NA,
    FX_TERMS,
    FX_WOOD,
    FX_X0,
    KU_OTHERS_AGE,
    KU_UPGRADE,
    N_FS,
    PC_PENDING,
    PC_UNIT,
)


@hot
def face_room(n_buildings):
    """Terms a step may hold in ``bc``: every ability of every face (``MAX_ABILITIES`` a
    face). ``bc`` holds ``BC_TERMS + N_BS * face_room(B) * 3`` ints."""
    return n_buildings * LEVELS * MAX_ABILITIES


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
            gain += income_gain(ut, ab, j, 0, -1, pc, n, wood, food, crystal, facts)
        elif kind == K_CONDITIONAL_GAIN:
            if gain_holds(ut, ab, j, 0, -1, pc, n, wood, food, crystal, facts):
                gain += ab[j, A_LP]
        elif not face or when_holds(ab[j, A_WHEN], 0, -1, food, crystal) or step == FS_STRENGTH:
            mult = l_per(ut, ab, j, ab[j, A_PER], 0, -1, pc, n, wood, food, crystal, facts)
            gain += ab[j, A_AMOUNT] * mult * (pww if kind == K_LP_PER_WAR_WON else 1)
    return gain
