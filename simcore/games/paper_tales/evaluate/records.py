"""Paper Tales evaluation: the tables the kernel and ``value`` read, built once per card set.

``kernel_tables`` (the kernel's ``tb``: ``ut`` with the ``KU_*`` columns, ``bt`` with
each face's ability-kind mask, the unit records ``ur``), ``unit_records``,
``front_first`` and, for Legends, ``legends_dyn`` (``lx.ldyn``: the steps a unit computes
from the kingdom in ``l_value``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from simcore.jit import alloc

from ..schema import (
    K_ADD_AGE,
    K_ADD_STRENGTH,
    K_ART_COST_MODIFIER,
    K_BUILD_FREE,
    K_CANNOT_FIGHT,
    K_CONDITIONAL_GAIN,
    K_DEATH_GOLD,
    K_DEATH_LP,
    K_DEPLOY_ARTIFACT,
    K_FIGHT_FROM_BACK,
    K_GOLD,
    K_GOLD_PER_WAR_WON,
    K_LP,
    K_LP_PER_DYING_AGE,
    K_LP_PER_WAR_WON,
    K_REPEAT_DEPLOY,
    K_SET_STRENGTH,
    K_UPGRADE_BUILDINGS,
    P_AGE_SELF,
    P_ONE,
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
)
from ..tables import (
    A_AMOUNT,
    A_KIND,
    A_ON_DEPLOY,
    A_PER,
    A_PHASE,
    A_TARGET,
    A_WHEN,
    B_AB0,
    B_NAB,
    MAX_FRONT,
    N_UCOLS,
    R_STRONG_FRONT_ONLY,
    R_STRONG_MIN,
    U_AB0,
    U_NAB,
)
from .end import dies, unit_death
from .facts import unit_gain, unit_production
from .layout import (
    D_ALL,
    D_DEATH,
    D_DEPLOY,
    D_END,
    D_INCOME,
    D_STRENGTH,
    D_WAR,
    KU_DYN,
    KU_FRONT_FIRST,
    KU_MASK,
    KU_OTHERS_AGE,
    KU_PER_DYING,
    KU_SELF_AGE,
    KU_UPGRADE,
    N_KU,
    N_UR,
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
)
from .strength import unit_strength, unit_war

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

# The Legends kinds no step of a kingdom's value reads: they act through the deployment
# tiers, the payments and ``l_project`` only.
SCORELESS_LEGENDS_KINDS = frozenset(
    (K_DEPLOY_ARTIFACT, K_REPEAT_DEPLOY, K_BUILD_FREE, K_ART_COST_MODIFIER)
)


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


def legends_dyn(ut: np.ndarray, ab: np.ndarray) -> np.ndarray:
    """``ldyn[u]``: the scoring steps (``D_*``) unit ``u`` computes from the kingdom in
    ``l_value``; the others are read from its base record (``unit_records``). A
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


class KernelTables(NamedTuple):
    """The kernel's card tables ``tb``, read by name in compiled code (numba resolves a
    field name to its position when it compiles: the same machine code as ``tb[0]``)."""

    ut: np.ndarray  # int32[U, N_UCOLS + KU_*]: units, with the kernel's extra columns
    bt: np.ndarray  # int32[B, LEVELS, N_BCOLS + 1]: building faces, with ``KB_MASK``
    ab: np.ndarray  # int32[A, N_ACOLS(_LEGENDS)]: abilities
    rules: np.ndarray  # int32[N_RULES]: the switches R_*
    deck: np.ndarray  # int32[deck size]: one card type per physical card
    ur: np.ndarray  # the unit records (``unit_records``)


def kernel_tables(tables: Any) -> KernelTables:
    """``tables.Tables`` as the kernel's ``KernelTables``: ``ut`` with the ``KU_*`` columns,
    ``bt`` with the ability-kind mask of each face (``KB_MASK``), and the unit records
    (``unit_records``)."""
    kut, kbt, kab, rules = masked_tables(tables)
    ur = unit_records(kut, kab, rules)
    kut[:, KU_FRONT_FIRST] = front_first(kut, ur)
    return KernelTables(kut, kbt, kab, rules, np.ascontiguousarray(tables.deck, np.int32), ur)


def masked_tables(tables: Any) -> tuple:
    """``(ut, bt, ab, rules)`` of ``kernel_tables`` without the unit records: ``ut`` with the
    ``KU_*`` columns (``KU_FRONT_FIRST`` left 0), ``bt`` with each face's ability-kind mask.
    What the kingdom functions read (a position's scoring needs no records)."""
    ut, bt, ab = tables.ut, tables.bt, tables.ab
    fmask = np.zeros(bt.shape[:2], np.int32)
    for b in range(bt.shape[0]):
        for k in range(bt.shape[1]):
            for j in range(bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB]):
                fmask[b, k] |= 1 << int(ab[j, A_KIND])
    return (
        np.ascontiguousarray(np.concatenate([ut, _unit_columns(ut, ab)], axis=1), np.int32),
        np.ascontiguousarray(np.concatenate([bt, fmask[:, :, None]], axis=2), dtype=np.int32),
        np.ascontiguousarray(ab, dtype=np.int32),
        np.ascontiguousarray(tables.rules, dtype=np.int32),
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
