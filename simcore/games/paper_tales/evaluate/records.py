"""Paper Tales evaluation: the tables the kernel and ``value`` read, built once per card set.

``kernel_tables`` (the kernel's ``tb``: ``ut`` with the ``KU_*`` columns, ``bt`` with
each face's ability-kind mask, the unit records ``ur``), ``unit_records``,
``front_first`` and, for Legends, ``legends_dyn`` (``lx.ldyn``: the steps a unit computes
from the kingdom in ``l_value``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from talesim.simcore.jit import alloc

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import (  # passed as call arguments (see layout.py)
    K_GOLD,
    K_LP,
    PH_DEPLOYMENT,
    PH_END,
    PH_INCOME,
)
from .end import dies, unit_death
from .facts import unit_gain, unit_production
from .strength import unit_strength, unit_war

# The steps each base kind is read in (kinds absent here are read by no step of a
# kingdom's value: production, tokens and dying have their own columns and records; an
# unknown kind, e.g. an expansion's, counts as read everywhere).
STEPS_OF_KIND = {
    L.K_GOLD: L.STEP_INCOME,
    L.K_SET_STRENGTH: L.STEP_STRENGTH,
    L.K_ADD_STRENGTH: L.STEP_STRENGTH,
    L.K_CANNOT_FIGHT: L.STEP_STRENGTH,
    L.K_FIGHT_FROM_BACK: L.STEP_STRENGTH,
    L.K_LP_PER_WAR_WON: L.STEP_WAR,
    L.K_GOLD_PER_WAR_WON: L.STEP_WAR,
    L.K_LP: L.STEP_WAR | L.STEP_END | L.STEP_DEPLOY,
    L.K_DEATH_LP: L.STEP_DEATH,
    L.K_DEATH_GOLD: L.STEP_DEATH,
}
BASE_KINDS = frozenset(range(L.K_LP_PER_DYING_AGE + 1))  # the base game's 19 kinds
# An ability is self-contained when its multiplier and condition read only the unit (its
# tokens, its row): a unit's share of a step whose abilities are all self-contained is a
# function of (unit, row, tokens), tabulated by ``unit_records``; the other steps are
# computed from the kingdom's totals.
SELF_CONTAINED_PER = frozenset((L.P_ONE, L.P_AGE_SELF))
SELF_CONTAINED_WHEN = frozenset((L.W_ALWAYS, L.W_AGED, L.W_EXACTLY_ONE_AGE, L.W_FRONT_ROW))

# The Legends kinds no step of a kingdom's value reads: they act through the deployment
# tiers, the payments and ``l_project`` only.
SCORELESS_LEGENDS_KINDS = frozenset(
    (L.K_DEPLOY_ARTIFACT, L.K_REPEAT_DEPLOY, L.K_BUILD_FREE, L.K_ART_COST_MODIFIER)
)


@alloc
def unit_records(ut, ab, rules):
    """``ur[u, row, age, UR_*]``: unit ``u``'s share of each scoring step on the Front
    (row 0) or Back (row 1) row with ``age`` tokens, from the per-unit functions with every
    kingdom total 0. Exact for the units whose abilities read only the unit (``KU_DYN`` =
    0); production and death apply to every unit (the loader keeps them self-contained)."""
    ur = np.zeros((ut.shape[0], 2, L.UR_AGES, L.N_UR), np.int32)
    strong_min = rules[L.R_STRONG_MIN]
    front_only = rules[L.R_STRONG_FRONT_ONLY]
    for u in range(ut.shape[0]):
        for row in range(2):
            spot = 0 if row == 0 else L.MAX_FRONT
            front = row == 0
            for age in range(L.UR_AGES):
                r = ur[u, row, age]
                wood, food, crystal = unit_production(ut, u, age, spot, 0, 0)
                r[L.UR_WOOD] = wood
                r[L.UR_FOOD] = food
                r[L.UR_CRYSTAL] = crystal
                r[L.UR_INCOME] = unit_gain(ut, ab, u, K_GOLD, PH_INCOME, age, spot, 0, 0, 0, 0, 0)
                value, from_back = unit_strength(ut, ab, u, age, spot, 0, 0, 0, 0, 0, 0)
                r[L.UR_STRENGTH] = value if front or from_back else 0
                r[L.UR_STRONG] = 1 if value >= strong_min and (front or not front_only) else 0
                pw, wu, _ = unit_war(ut, ab, rules, u, age, spot, 0, 0, 0, 0, 0, 0, 0)
                r[L.UR_PER_WAR] = pw
                r[L.UR_WAR_LP] = wu
                r[L.UR_END_LP] = unit_gain(ut, ab, u, K_LP, PH_END, age, spot, 0, 0, 0, 0, 0)
                r[L.UR_DEPLOY_LP] = unit_gain(
                    ut, ab, u, K_LP, PH_DEPLOYMENT, age, spot, 0, 0, 0, 0, 0
                )
                r[L.UR_DIES] = 1 if dies(ut, ab, u, age) else 0
                r[L.UR_DEATH_LP] = unit_death(ut, ab, u, age, spot, 0, 0, 0, 0, 0)[0]
    return ur


def _unit_columns(ut: np.ndarray, ab: np.ndarray) -> np.ndarray:
    """The ``KU_*`` columns of each unit (see their comments)."""
    cols = np.zeros((ut.shape[0], L.N_KU - L.N_UCOLS), np.int32)
    for u in range(ut.shape[0]):
        c = cols[u]
        for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
            kind = int(ab[j, L.A_KIND])
            c[L.KU_MASK - L.N_UCOLS] |= 1 << kind
            if kind not in BASE_KINDS:
                c[L.KU_DYN - L.N_UCOLS] |= L.STEP_ALL
            elif (
                ab[j, L.A_PER] not in SELF_CONTAINED_PER
                or ab[j, L.A_WHEN] not in SELF_CONTAINED_WHEN
            ):
                c[L.KU_DYN - L.N_UCOLS] |= STEPS_OF_KIND.get(kind, 0)
            if ab[j, L.A_ON_DEPLOY] and kind == L.K_ADD_AGE and ab[j, L.A_PER] == L.P_ONE:
                if ab[j, L.A_TARGET] == L.T_SELF:
                    c[L.KU_SELF_AGE - L.N_UCOLS] += ab[j, L.A_AMOUNT]
                elif ab[j, L.A_TARGET] == L.T_OTHERS:
                    c[L.KU_OTHERS_AGE - L.N_UCOLS] += ab[j, L.A_AMOUNT]
            if ab[j, L.A_ON_DEPLOY] and kind == L.K_UPGRADE_BUILDINGS:
                c[L.KU_UPGRADE - L.N_UCOLS] = 1
            if kind == L.K_LP_PER_DYING_AGE:
                c[L.KU_PER_DYING - L.N_UCOLS] += ab[j, L.A_AMOUNT]
    return cols


def legends_dyn(ut: np.ndarray, ab: np.ndarray) -> np.ndarray:
    """``ldyn[u]``: the scoring steps (``STEP_*``) unit ``u`` computes from the kingdom in
    ``l_value``; the others are read from its base record (``unit_records``). A
    base kind marks its steps as ``evaluate``'s ``KU_DYN`` does (a multiplier or condition
    that reads more than the unit); ``conditional_gain`` marks its phase's step (Income or
    War), whatever its counter; a kind of ``SCORELESS_LEGENDS_KINDS`` marks nothing; an
    unknown kind marks every step."""
    dyn = np.zeros(ut.shape[0], np.int32)
    for u in range(ut.shape[0]):
        for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
            kind = int(ab[j, L.A_KIND])
            if kind in BASE_KINDS:
                if (
                    ab[j, L.A_PER] not in SELF_CONTAINED_PER
                    or ab[j, L.A_WHEN] not in SELF_CONTAINED_WHEN
                ):
                    dyn[u] |= STEPS_OF_KIND.get(kind, 0)
            elif kind == L.K_CONDITIONAL_GAIN:
                dyn[u] |= {L.PH_INCOME: L.STEP_INCOME, L.PH_WAR: L.STEP_WAR}.get(
                    int(ab[j, L.A_PHASE]), 0
                )
            elif kind not in SCORELESS_LEGENDS_KINDS:
                dyn[u] |= L.STEP_ALL
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
    kut[:, L.KU_FRONT_FIRST] = front_first(kut, ur)
    return KernelTables(kut, kbt, kab, rules, np.ascontiguousarray(tables.deck, np.int32), ur)


def masked_tables(tables: Any) -> tuple:
    """``(ut, bt, ab, rules)`` of ``kernel_tables`` without the unit records: ``ut`` with the
    ``KU_*`` columns (``KU_FRONT_FIRST`` left 0), ``bt`` with each face's ability-kind mask.
    What the kingdom functions read (a position's scoring needs no records)."""
    ut, bt, ab = tables.ut, tables.bt, tables.ab
    fmask = np.zeros(bt.shape[:2], np.int32)
    for b in range(bt.shape[0]):
        for k in range(bt.shape[1]):
            for j in range(bt[b, k, L.B_AB0], bt[b, k, L.B_AB0] + bt[b, k, L.B_NAB]):
                fmask[b, k] |= 1 << int(ab[j, L.A_KIND])
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
        if c in (L.UR_STRENGTH, L.UR_STRONG):
            same &= front[:, :, c] >= back[:, :, c]
        else:
            same &= front[:, :, c] == back[:, :, c]
    own = (kut[:, L.KU_DYN] == 0) & (kut[:, L.KU_OTHERS_AGE] == 0) & (kut[:, L.KU_UPGRADE] == 0)
    return (same.all(axis=1) & own).astype(np.int32)
