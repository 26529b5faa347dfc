"""Paper Tales evaluation: the static scoring of a position (``talesim score``), compiled.

Every seat is assessed by the function the kernel's Wars and Income phases use
(``assess`` / ``l_assess``), its wars by ``fight``; then each source (unit, building,
artifact) goes alone through the per-source functions ``war_phase_lp`` and ``end_lp`` (and
their Legends twins) are written with (``unit_war``, ``unit_gain``, ``face_gain``;
``l_unit_war``, ``l_unit_end``, ``l_fixed_war``, ``l_fixed_end``, ...) with the whole
kingdom's facts, and the seat's LP and gold parts are the sums of its sources' shares: the
position is scored as if this turn's wars and income and the End's building, unit and
artifact LP were the last scoring events. ``state_io.score_reference`` does the same with
``reference/``'s rulebook functions: the oracle of this one in the tests. (Summing the
sources instead of also calling ``war_phase_lp`` / ``end_lp`` compiles a third faster.)

One function for both variants: the artifact table ``xt`` is None in a base game, where
numba prunes the Legends branches, so a base position compiles the base functions only.
It compiles the evaluation alone, never the game kernel.
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import alloc

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import (  # passed as call arguments (see layout.py)
    K_ADD_STRENGTH,
    K_GOLD,
    K_LP,
    PH_END,
    PH_INCOME,
    PH_WAR,
)
from .end import l_fixed_end, l_unit_end
from .facts import face_gain, l_fixed_gain, l_unit_income, unit_gain
from .strength import (
    assess,
    fight,
    l_assess,
    l_fixed_war,
    l_unit_strength,
    l_unit_war,
    unit_strength,
    unit_war,
    wars_counted,
)

# --- a seat's results ``seat[P, SC_*]`` ------------------------------------------------------
SC_WOOD, SC_FOOD, SC_CRYSTAL = 0, 1, 2  # production
SC_STRENGTH = 3  # kingdom strength
SC_WARS_WON = 4
SC_INCOME = 5  # income: base, units, buildings, artifacts (SC_INCOME + k)
SC_LP = 9  # LP parts (SC_LP + k), in ``LP_PARTS`` order
SC_WAR_GOLD = 17  # gold_per_war_won and war conditional gains: gold, not income
N_SC = 18
INCOME_PARTS = ("base", "units", "buildings", "artifacts")
LP_PARTS = (
    "wars", "per_war_won", "war_units", "war_buildings", "war_artifacts",
    "buildings", "relic", "artifacts",
)  # fmt: skip
WAR_PARTS = LP_PARTS[:5]
END_PARTS = LP_PARTS[5:]
(
    LP_WARS, LP_PER_WAR_WON, LP_WAR_UNITS, LP_WAR_BUILDINGS, LP_WAR_ARTIFACTS, LP_BUILDINGS,
    LP_RELIC, LP_ARTIFACTS,
) = range(8)  # fmt: skip
# --- each source's ``src[P, k, SRC_*]``: units (a piece each, ``pcs`` order), then buildings
# (``bt`` order), then artifacts (zone order) ---------------------------------------------------
SRC_STRENGTH, SRC_LP, SRC_GOLD = 0, 1, 2
N_SRC = 3


@alloc
def score_position(tb, xt, pcs, ns, bls, zxs, nzs, seat, src):
    """Score every seat of a position into ``seat[P, N_SC]`` and ``src[P, k, N_SRC]`` (both
    zeroed by the caller). ``tb`` = (ut, bt, ab, rules) of ``records.masked_tables``;
    ``xt``: the artifacts (None: a base game); seat ``p``'s kingdom: the pieces
    ``pcs[p, :ns[p]]``, the levels ``bls[p]``, the zone ``zxs[p, :nzs[p]]``. A source's
    strength: a unit's own (whether or not it fights from its row), a face's or artifact's
    ``add_strength`` to the kingdom."""
    ut, bt, ab, rules = tb
    n_players = ns.shape[0]
    two = n_players == 2
    facts = np.zeros((n_players, 8), np.int64)
    for p in range(n_players):
        if xt is None:
            a = assess(ut, bt, ab, rules, pcs[p], ns[p], bls[p])
        else:
            a = l_assess(ut, bt, ab, rules, xt, pcs[p], ns[p], bls[p], zxs[p], nzs[p])
        for c in range(8):
            facts[p, c] = a[c]
    for p in range(n_players):
        if two:
            won, lp = fight(rules, True, facts[p, 4], facts[1 - p, 4], 0)
        else:
            right = facts[(p - 1) % n_players, 4]  # seat p-1: the right neighbour
            won, lp = fight(rules, False, facts[p, 4], right, facts[(p + 1) % n_players, 4])
        seat[p, SC_WARS_WON] = won
        seat[p, SC_LP + LP_WARS] = lp
        _score_seat(ut, bt, ab, rules, xt, pcs[p], ns[p], bls[p], zxs[p], nzs[p], two, won,
                    facts[p], seat[p], src[p])  # fmt: skip


@alloc
def _score_seat(ut, bt, ab, rules, xt, pc, n, bl, zx, nz, two, won, f, out, src):
    """One seat's parts (``out``: a row of ``seat``) and sources (``src``) after its wars
    (``won`` of them), from its assessment ``f``: each source through the per-source
    functions ``war_phase_lp`` / ``end_lp`` (Legends: their twins) sum, so a part is the sum
    of its sources' shares."""
    wood, food, crystal, income, strength, age_all, n_level2, n_strong = (
        f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7],
    )  # fmt: skip
    out[SC_WOOD], out[SC_FOOD], out[SC_CRYSTAL] = wood, food, crystal
    out[SC_STRENGTH] = strength
    out[SC_INCOME] = rules[L.R_BASE_INCOME]
    pww = wars_counted(rules, two, won)
    B = bt.shape[0]
    only = np.zeros(B, np.int32)  # one building at its level, the others unbuilt
    f_income = (age_all, n_level2, 0, 0, nz)  # what each phase knows (``l_assess``)
    f_strength = (age_all, n_level2, income, 0, nz)
    f_war = (age_all, n_level2, income, n_strong, nz)
    for i in range(n):
        u, age, spot = pc[i, L.PC_UNIT], pc[i, L.PC_AGE], pc[i, L.PC_SPOT]
        if xt is None:
            strength = unit_strength(
                ut, ab, u, age, spot, wood, food, crystal, income, age_all, n_level2
            )[0]
            g = unit_gain(
                ut,
                ab,
                u,
                K_GOLD,
                PH_INCOME,
                age,
                spot,
                wood,
                food,
                crystal,
                age_all,
                n_level2,
            )
            pw, wu, gpw = unit_war(
                ut, ab, rules, u, age, spot, wood, food, crystal, income, age_all, n_level2,
                n_strong,
            )  # fmt: skip
            gw = 0
            end = unit_gain(
                ut,
                ab,
                u,
                K_LP,
                PH_END,
                age,
                spot,
                wood,
                food,
                crystal,
                age_all,
                n_level2,
            )
        else:
            strength = l_unit_strength(
                ut, ab, u, age, spot, pc, n, wood, food, crystal, f_strength
            )[0]
            g = l_unit_income(ut, ab, u, age, spot, pc, n, wood, food, crystal, f_income)
            pw, wu, gpw, gw = l_unit_war(
                ut, ab, rules, u, age, spot, pc, n, wood, food, crystal, f_war
            )
            end = l_unit_end(ut, ab, u, age, spot, pc, n, wood, food, crystal, f_income)
        out[SC_INCOME + 1] += g
        out[SC_LP + LP_PER_WAR_WON] += pw * pww
        out[SC_LP + LP_WAR_UNITS] += wu
        out[SC_LP + LP_RELIC] += end
        out[SC_WAR_GOLD] += gpw * pww + gw
        s = src[i]
        s[SRC_STRENGTH] = strength
        s[SRC_LP] = pw * pww + wu + end
        s[SRC_GOLD] = g + gpw * pww + gw
    for k in range(B + (0 if xt is None else nz)):
        lo = 0  # the source alone: one building (``only``) or one artifact (``zx[lo:]``)
        hi = 0
        if k < B:
            if not bl[k]:
                continue
            only[k] = bl[k]
        else:
            lo = k - B
            hi = 1
        if xt is None:
            strength = face_gain(
                bt, ab, only, K_ADD_STRENGTH, -1, False, age_all, wood, food, crystal, income,
                n_level2, 0,
            )  # fmt: skip
            g = face_gain(
                bt, ab, only, K_GOLD, PH_INCOME, True, age_all, wood, food, crystal, 0,
                n_level2, 0,
            )  # fmt: skip
            pw = wa = gw = ea = 0
            wb = face_gain(
                bt, ab, only, K_LP, PH_WAR, True, age_all, wood, food, crystal, income,
                n_level2, n_strong,
            )  # fmt: skip
            eb = bt[k, bl[k] - 1, L.B_LP] + face_gain(
                bt,
                ab,
                only,
                K_LP,
                PH_END,
                True,
                age_all,
                wood,
                food,
                crystal,
                0,
                n_level2,
                0,
            )
        else:
            one = zx[lo:]
            strength = l_fixed_gain(
                ut, bt, ab, xt, pc, n, only, one, hi, wood, food, crystal, f_strength, True
            )
            g = l_fixed_gain(
                ut, bt, ab, xt, pc, n, only, one, hi, wood, food, crystal, f_income, False
            )
            pw, wb, wa, gw = l_fixed_war(
                ut, bt, ab, xt, pc, n, only, one, hi, pww, wood, food, crystal, f_war
            )
            eb, ea = l_fixed_end(
                ut, bt, ab, xt, pc, n, only, one, hi, wood, food, crystal, f_income
            )
        out[SC_INCOME + (2 if k < B else 3)] += g
        out[SC_LP + LP_PER_WAR_WON] += pw
        out[SC_LP + LP_WAR_BUILDINGS] += wb
        out[SC_LP + LP_WAR_ARTIFACTS] += wa
        out[SC_LP + LP_BUILDINGS] += eb
        out[SC_LP + LP_ARTIFACTS] += ea
        out[SC_WAR_GOLD] += gw
        s = src[n + k]
        s[SRC_STRENGTH] = strength
        s[SRC_LP] = pw + wb + wa + eb + ea
        s[SRC_GOLD] = g + gw
        if k < B:
            only[k] = 0
