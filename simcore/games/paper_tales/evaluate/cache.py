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

from talesim.simcore.jit import hot

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import (  # passed as call arguments (see layout.py)
    FS_END,
    FS_INCOME,
    FS_STRENGTH,
    FS_WAR,
    ix,
)
from .facts import gain_holds, income_gain, l_per, pending_effects, per_value, when_holds


@hot
def face_room(n_buildings):
    """Terms a step may hold in ``bc``: every ability of every face (``MAX_ABILITIES`` a
    face). ``bc`` holds ``BC_TERMS + N_BS * face_room(B) * 3`` ints."""
    return n_buildings * L.LEVELS * L.MAX_ABILITIES


@hot
def _levels_lp(bt, bl):
    """(level-2 buildings, printed LP of the top faces) of the levels ``bl``."""
    n_level2 = 0
    lp = 0
    for b in range(bt.shape[0]):
        lv = bl[b]
        if lv == L.LEVELS:
            n_level2 += 1
        if lv:
            lp += bt[b, lv - 1, L.B_LP]
    return n_level2, lp


@hot
def faces_of(bt, ab, bl, key, bc):
    """Fill the building cache ``bc`` for the levels ``bl`` (configuration ``key``): their
    production, level-2 count, end LP of the faces, and each face ability a kingdom's value
    reads (``face_gain``'s four uses) as a term (when, per, amount) of its step ``BS_*``."""
    bc[L.BC_KEY] = key
    for c in range(L.BC_WOOD, L.BC_TERMS):
        bc[c] = 0
    bc[L.BC_LEVEL2], bc[L.BC_LP] = _levels_lp(bt, bl)
    for b in range(bt.shape[0]):
        for k in range(bl[b]):
            add_face(bt, ab, b, k, bc, 1)


@hot
def add_face(bt, ab, b, k, bc, sign):
    """Face ``k`` of building ``b`` into the cache ``bc`` (``sign`` 1): its production and
    its abilities' terms, appended to their steps' lists; ``sign`` -1 takes back the face
    added last (the lists' counts go down)."""
    for r in range(L.N_RES):
        bc[L.BC_WOOD + r] += sign * bt[b, k, L.B_PROD0 + r]
    for j in range(bt[b, k, L.B_AB0], bt[b, k, L.B_AB0] + bt[b, k, L.B_NAB]):
        kind = ab[j, L.A_KIND]
        phase = ab[j, L.A_PHASE]
        when = ab[j, L.A_WHEN]
        step = -1
        if kind == L.K_GOLD and phase == L.PH_INCOME:
            step = L.BS_INCOME
        elif kind == L.K_ADD_STRENGTH:
            step = L.BS_STRENGTH
            when = L.W_ALWAYS  # assess adds it whatever its condition
        elif kind == L.K_LP and phase == L.PH_WAR:
            step = L.BS_WAR
        elif kind == L.K_LP and phase == L.PH_END:
            step = L.BS_END
        if step < 0:
            continue
        if sign > 0:
            t = L.BC_TERMS + (step * face_room(bt.shape[0]) + bc[L.BC_N0 + step]) * 3
            bc[t] = when
            bc[t + 1] = ab[j, L.A_PER]
            bc[t + 2] = ab[j, L.A_AMOUNT]
        bc[L.BC_N0 + step] += sign


@hot
def raise_building(bt, ab, bc, b, lv, level, sign):
    """The cache ``bc`` with building ``b`` at ``level`` instead of ``lv`` (``sign`` 1), or
    back (``sign`` -1, right after): the faces ``lv .. level - 1`` (``add_face``), the end
    LP of its top face, the level-2 count. Its key is left as it was: a construction
    option's levels are valued from the seat's cache and put back before anything reads
    the key."""
    for k in range(lv, level):
        add_face(bt, ab, b, k, bc, sign)
    bc[L.BC_LP] += sign * (bt[b, level - 1, L.B_LP] - (bt[b, lv - 1, L.B_LP] if lv else 0))
    if level == L.LEVELS:
        bc[L.BC_LEVEL2] += sign


@hot
def face_terms(bt, bc, step, age_all, wood, food, crystal, income, n_level2, n_strong):
    """The cached face abilities of ``step`` (``faces_of``) with the kingdom's totals."""
    gain = 0
    t = L.BC_TERMS + step * face_room(bt.shape[0]) * 3
    for _ in range(bc[L.BC_N0 + step]):
        if when_holds(bc[ix(t)], 0, -1, food, crystal):
            gain += bc[ix(t + 2)] * per_value(
                bc[ix(t + 1)], 0, age_all, wood, food, crystal, income, n_level2, n_strong
            )
        t += 3
    return gain


@hot
def strong_terms_nonnegative(bt, bc):
    """No cached war-phase face ability (``faces_of``) loses LP per strong unit."""
    t = L.BC_TERMS + L.BS_WAR * face_room(bt.shape[0]) * 3
    for _ in range(bc[L.BC_N0 + L.BS_WAR]):
        if bc[ix(t + 1)] == L.P_STRONG_UNITS and bc[ix(t + 2)] < 0:
            return False
        t += 3
    return True


@hot
def project_levels(ut, bt, ab, pc, n, bl, wbl, bc):
    """``Brain.project``'s part that the pieces' totals do not depend on: the levels ``bl``
    with a pending Golem's upgrade into ``wbl`` and their building cache ``bc`` (rebuilt
    on a new configuration). Returns (tokens the pending pieces' on-deploy abilities put on
    each other piece, 1 if a pending piece upgrades the buildings)."""
    others, upgrade = pending_effects(ut, pc, n)
    key = 0
    for b in range(bt.shape[0]):
        lv = bl[b]
        if upgrade and lv == 1:
            lv = L.LEVELS
        wbl[b] = lv
        key = key * (L.LEVELS + 1) + lv
    if bc[L.BC_KEY] != key:
        faces_of(bt, ab, wbl, key, bc)
    return others, upgrade


@hot
def fixed_room(n_buildings):
    """Terms a step may hold: every ability of every face and artifact."""
    return (n_buildings * L.LEVELS + L.FX_ARTS) * L.MAX_ABILITIES


@hot
def fixed_size(n_buildings):
    """Length of ``zx``: the artifacts, the cache, ``N_FS`` lists of (row, face) terms."""
    return L.FX_TERMS + L.N_FS * fixed_room(n_buildings) * 2


@hot
def _push_term(zx, room, step, j, face):
    t = L.FX_TERMS + (step * room + zx[L.FX_N0 + step]) * 2
    zx[t] = j
    zx[t + 1] = face
    zx[L.FX_N0 + step] += 1


@hot
def _add_terms(ab, zx, room, lo, hi, face):
    """The ability rows ``lo:hi`` of a face (``face`` 1) or an artifact (0) as terms of
    the steps that read them (as ``l_fixed_gain``, ``l_fixed_war``, ``l_fixed_end``)."""
    for j in range(lo, hi):
        kind, phase = ab[j, L.A_KIND], ab[j, L.A_PHASE]
        gain = kind == L.K_CONDITIONAL_GAIN
        if phase == L.PH_INCOME and (kind == L.K_GOLD or gain):
            _push_term(zx, room, FS_INCOME, j, face)
        if kind == L.K_ADD_STRENGTH:
            _push_term(zx, room, FS_STRENGTH, j, face)
        if (phase == L.PH_WAR and (kind == L.K_LP or gain)) or (
            kind == L.K_LP_PER_WAR_WON and not face
        ):
            _push_term(zx, room, FS_WAR, j, face)
        if kind == L.K_LP and phase == L.PH_END:
            _push_term(zx, room, FS_END, j, face)


@hot
def fixed_terms(bt, ab, xt, bl, zx, nz):
    """The cache for the levels ``bl`` and the artifacts ``zx[:nz]``, rebuilt unless it
    holds them already."""
    key = 0
    for b in range(bt.shape[0]):
        key = key * (L.LEVELS + 1) + bl[b]
    hit = zx[L.FX_KEY] == key and zx[L.FX_NA] == nz
    for i in range(nz if hit else 0):
        hit &= zx[L.FX_X0 + i] == zx[i]
    if hit:
        return
    zx[L.FX_KEY] = key
    zx[L.FX_NA] = nz
    for c in range(L.FX_WOOD, L.FX_BASE):
        zx[c] = 0
    room = fixed_room(bt.shape[0])
    zx[L.FX_LEVEL2], zx[L.FX_LP] = _levels_lp(bt, bl)
    for b in range(bt.shape[0]):
        for k in range(bl[b]):
            for r in range(3):
                zx[L.FX_WOOD + r] += bt[b, k, L.B_PROD0 + r]
            _add_terms(ab, zx, room, bt[b, k, L.B_AB0], bt[b, k, L.B_AB0] + bt[b, k, L.B_NAB], 1)
    for i in range(nz):
        x = zx[i]
        zx[L.FX_X0 + i] = x
        zx[L.FX_LP] += xt[x, L.X_LP]
        for r in range(3):
            zx[L.FX_WOOD + r] += xt[x, L.X_PROD0 + r]
        _add_terms(ab, zx, room, xt[x, L.X_AB0], xt[x, L.X_AB0] + xt[x, L.X_NAB], 0)


@hot
def fixed_gain(ut, bt, ab, zx, step, pc, n, pww, wood, food, crystal, facts):
    """The cached terms of ``step`` with the kingdom's totals: income gold, strength, war
    LP (``pww`` wars counted), end LP (the printed LP not included)."""
    room = fixed_room(bt.shape[0])
    t = L.FX_TERMS + step * room * 2
    gain = 0
    for _ in range(zx[L.FX_N0 + step]):
        j, face = zx[t], zx[t + 1]
        t += 2
        kind = ab[j, L.A_KIND]
        if step == L.FS_INCOME:
            gain += income_gain(ut, ab, j, 0, -1, pc, n, wood, food, crystal, facts)
        elif kind == L.K_CONDITIONAL_GAIN:
            if gain_holds(ut, ab, j, 0, -1, pc, n, wood, food, crystal, facts):
                gain += ab[j, L.A_LP]
        elif not face or when_holds(ab[j, L.A_WHEN], 0, -1, food, crystal) or step == L.FS_STRENGTH:
            mult = l_per(ut, ab, j, ab[j, L.A_PER], 0, -1, pc, n, wood, food, crystal, facts)
            gain += ab[j, L.A_AMOUNT] * mult * (pww if kind == L.K_LP_PER_WAR_WON else 1)
    return gain
