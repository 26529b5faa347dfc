"""The policies' Legends value ``evaluate_legends.l_value`` reads each unit's share of the
steps it does not compute from the kingdom from the base unit records (``legends_dyn``
says which). It must give the very same float as ``l_value_full``, the step-by-step
evaluation (project, assess, wars, end, deployment, deaths), on any Legends kingdom: every
unit of the Legends card set in both rows at many ages (also past the records' ages),
pending and fresh pieces with any tier done (projection: ``add_age``, ``upgrade_buildings``,
``conditional_gain``), any artifacts in the zone (pending or not), every building
configuration and building set, 2 and 3+ players, every valuing policy."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from simcore.games.paper_tales import evaluate as ev
from simcore.games.paper_tales import evaluate_legends as el
from simcore.games.paper_tales.kernel_legends import legends_lx
from simcore.games.paper_tales.policies import default_weights
from simcore.games.paper_tales.tables import (
    A_KIND,
    A_PHASE,
    MAX_ARTIFACTS,
    U_AB0,
    U_NAB,
    CardSet,
    compile_legends_tables,
)


@njit
def _both(tb, lx, weights, pcs, ns, pdones, bls, sas, nas, insets, misc, out):
    """``l_value`` (one faces-and-artifacts cache for the whole run) and ``l_value_full``
    of each kingdom (both on copies: the projection writes the scratch rows,
    ``F_BUILDABLE`` the scratch levels)."""
    wpc = np.zeros((ev.MAX_PIECES, ev.N_PC), np.int32)
    wbl = np.zeros(bls.shape[1], np.int32)
    zx = np.full(el.fixed_size(bls.shape[1]), -1, np.int32)  # one cache for the run
    for k in range(pcs.shape[0]):
        gold, bonus, seen0, seen1, two, turn, pol = misc[k]
        for m in range(2):
            args = (
                tb, lx, weights, pol, pcs[k].copy(), np.int64(ns[k]), pdones[k].copy(),
                bls[k].copy(), sas[k].copy(), np.int64(nas[k]), np.int64(gold), np.int64(bonus),
                seen0, seen1, two == 1, turn, wpc, wbl, zx, insets[k],
            )  # fmt: skip
            if m == 0:
                out[k, 0] = el.l_value(*args)
            else:
                out[k, 1] = el.l_value_full(*args)


def _kingdoms(tb: tuple, lx: tuple, count: int, max_age: int, seed: int) -> tuple:
    """Random Legends kingdoms: up to 5 spots + a virtual piece on spot 0 or 3, any unit
    (half of them drawn among the units with Legends kinds or kingdom-dependent steps),
    0-4 artifacts; building levels and artifacts shared by runs of 8 kingdoms (as the
    options of one decision) or not."""
    ut, bt = tb[0], tb[1]
    n_units, n_buildings, n_arts = ut.shape[0], bt.shape[0], lx[0].shape[0]
    rng = np.random.default_rng(seed)
    special = [u for u in range(n_units) if lx[4][u] or ut[u, ev.KU_DYN]]
    pcs = np.zeros((count, ev.MAX_PIECES, ev.N_PC), np.int32)
    ns = np.zeros(count, np.int32)
    pdones = np.full((count, ev.MAX_PIECES), -1, np.int32)
    bls = np.zeros((count, max(n_buildings, 1)), np.int32)
    sas = np.zeros((count, MAX_ARTIFACTS + 1, el.N_SA), np.int32)
    nas = np.zeros(count, np.int32)
    insets = np.ones((count, max(n_buildings, 1)), np.int32)
    misc = np.zeros((count, 7), np.int32)
    for k in range(count):
        n = int(rng.integers(0, ev.MAX_PIECES + 1))
        spots = [int(x) for x in rng.permutation(5)[: min(n, 5)]]
        if n == ev.MAX_PIECES:
            spots.append(int(rng.choice([0, 3])))
        for i, spot in enumerate(spots):
            fresh = int(rng.random() < 0.5)
            pending = fresh * int(rng.random() < 0.8)
            top = max_age if rng.random() < 0.3 else 2
            age = int(rng.integers(0, top + 1))
            u = int(rng.choice(special)) if rng.random() < 0.5 else int(rng.integers(0, n_units))
            pcs[k, i] = (spot, u, age, pending, fresh)
            pdones[k, i] = rng.integers(-1, el.T_COUNT + 1)
        ns[k] = len(spots)
        bls[k] = bls[k - 1] if k % 8 and rng.random() < 0.8 else rng.integers(0, 3, n_buildings)
        insets[k] = rng.random(n_buildings) < 0.7
        if k % 8 and rng.random() < 0.8:
            sas[k], nas[k] = sas[k - 1], nas[k - 1]
        else:
            nas[k] = rng.integers(0, 5)
            for i in range(nas[k]):
                sas[k, i] = (rng.integers(0, n_arts), rng.random() < 0.4, rng.integers(-1, 5))
        misc[k] = (
            rng.integers(-3, 15),
            rng.integers(0, 4),
            rng.integers(0, 20),
            rng.integers(0, 20),
            int(rng.random() < 0.2),
            rng.integers(1, 5),
            rng.integers(1, 4),
        )
    return pcs, ns, pdones, bls, sas, nas, insets, misc


@pytest.mark.parametrize("max_age", [4, ev.UR_AGES + 2])
def test_value_equals_the_full_evaluation(legends: CardSet, max_age: int) -> None:
    tables = compile_legends_tables(legends)
    tb = ev.kernel_tables(tables)
    lx = legends_lx(legends, tables)
    weights = default_weights()
    kingdoms = _kingdoms(tb, lx, 20_000, max_age, max_age)
    out = np.zeros((kingdoms[0].shape[0], 2))
    _both(tb, lx, weights, *kingdoms, out)
    assert np.isfinite(out).all()
    bad = np.flatnonzero(out[:, 0] != out[:, 1])
    assert bad.size == 0, (bad[:5], out[bad[:5]])


def test_legends_dyn_marks_what_reads_the_kingdom(legends: CardSet) -> None:
    """The records are read only for self-contained steps: a unit whose abilities are all
    base kinds has its base ``KU_DYN``; a ``conditional_gain`` of the Income or War phase
    marks that step."""
    tables = compile_legends_tables(legends)
    tb = ev.kernel_tables(tables)
    ut, ab = tb[0], tb[2]
    ldyn = el.legends_dyn(tables.ut, tables.ab)
    steps = {el.PH_INCOME: ev.D_INCOME, el.PH_WAR: ev.D_WAR}
    gains = 0
    for u in range(ut.shape[0]):
        rows = range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB])
        if {int(ab[j, A_KIND]) for j in rows} <= ev.BASE_KINDS:
            assert ldyn[u] == ut[u, ev.KU_DYN], u
        for j in rows:
            if ab[j, A_KIND] == el.K_CONDITIONAL_GAIN and int(ab[j, A_PHASE]) in steps:
                assert ldyn[u] & steps[int(ab[j, A_PHASE])], u
                gains += 1
    assert gains  # the card set has some
