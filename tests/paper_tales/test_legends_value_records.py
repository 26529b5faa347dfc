"""The policies' Legends value ``evaluate.l_value`` reads each unit's share of the
steps it does not compute from the kingdom from the base unit records (``legends_dyn``
says which). It must give the very same float as ``l_value_full``, the step-by-step
evaluation (project, assess, wars, end, deployment, deaths), on any Legends kingdom: every
unit of the Legends card set in both rows at many ages (also past the records' ages),
pending and fresh pieces with any tier done (projection: ``add_age``, ``upgrade_buildings``,
``conditional_gain``), any artifacts in the zone (pending or not), every building
configuration and building set, 2 and 3+ players, every valuing policy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from kit import load_by_path
from numba import njit

from talesim.simcore.games.paper_tales import evaluate as ev
from talesim.simcore.games.paper_tales import layout
from talesim.simcore.games.paper_tales.kernel import legends_lx
from talesim.simcore.games.paper_tales.policies import W_UNAFFORDABLE, default_weights
from talesim.simcore.games.paper_tales.tables import (
    A_KIND,
    A_PHASE,
    MAX_ARTIFACTS,
    MAX_FRONT,
    U_AB0,
    U_COST,
    U_NAB,
    CardSet,
    compile_legends_tables,
)

# the base kingdoms' pieces (a test file is not importable by name)
random_spots = load_by_path(
    "paper_tales_evaluate_tables", Path(__file__).with_name("test_evaluate_tables.py")
).random_spots


@njit
def _both(tb, lx, weights, pcs, ns, pdones, bls, sas, nas, insets, misc, out):
    """``l_value`` (one faces-and-artifacts cache for the whole run) and ``l_value_full``
    of each kingdom (both on copies: the projection writes the scratch rows,
    ``F_BUILDABLE`` the scratch levels)."""
    wpc = np.zeros((layout.MAX_PIECES, layout.N_PC), np.int32)
    wbl = np.zeros(bls.shape[1], np.int32)
    zx = np.full(ev.cache.fixed_size(bls.shape[1]), -1, np.int32)  # one cache for the run
    for k in range(pcs.shape[0]):
        gold, bonus, seen0, seen1, two, turn, pol = misc[k]
        for m in range(2):
            args = (
                tb, lx, weights, pol, pcs[k].copy(), np.int64(ns[k]), pdones[k].copy(),
                bls[k].copy(), sas[k].copy(), np.int64(nas[k]), np.int64(gold), np.int64(bonus),
                seen0, seen1, two == 1, turn, wpc, wbl, zx, insets[k],
            )  # fmt: skip
            if m == 0:
                out[k, 0] = ev.value.l_value(*args, np.int64(layout.LV_FULL))
            else:
                out[k, 1] = ev.project.l_value_full(*args)


def _kingdoms(tb: tuple, lx: tuple, count: int, max_age: int, seed: int) -> tuple:
    """Random Legends kingdoms: up to 5 spots + a virtual piece on spot 0 or 3, any unit
    (half of them drawn among the units with Legends kinds or kingdom-dependent steps),
    0-4 artifacts; building levels and artifacts shared by runs of 8 kingdoms (as the
    options of one decision) or not."""
    ut, bt = tb.ut, tb.bt
    n_units, n_buildings, n_arts = ut.shape[0], bt.shape[0], lx.xt.shape[0]
    rng = np.random.default_rng(seed)
    special = [u for u in range(n_units) if lx.ldyn[u] or ut[u, layout.KU_DYN]]
    pcs = np.zeros((count, layout.MAX_PIECES, layout.N_PC), np.int32)
    ns = np.zeros(count, np.int32)
    pdones = np.full((count, layout.MAX_PIECES), -1, np.int32)
    bls = np.zeros((count, max(n_buildings, 1)), np.int32)
    sas = np.zeros((count, MAX_ARTIFACTS + 1, layout.N_SA), np.int32)
    nas = np.zeros(count, np.int32)
    insets = np.ones((count, max(n_buildings, 1)), np.int32)
    misc = np.zeros((count, 7), np.int32)
    for k in range(count):
        for i, (spot, age, pending, fresh) in enumerate(random_spots(rng, max_age)):
            u = int(rng.choice(special)) if rng.random() < 0.5 else int(rng.integers(0, n_units))
            pcs[k, i] = (spot, u, age, pending, fresh)
            pdones[k, i] = rng.integers(-1, layout.T_COUNT + 1)
            ns[k] = i + 1
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


@pytest.mark.parametrize("max_age", [4, layout.UR_AGES + 2])
def test_value_equals_the_full_evaluation(legends: CardSet, max_age: int) -> None:
    tables = compile_legends_tables(legends)
    tb = ev.records.kernel_tables(tables)
    lx = legends_lx(legends, tables)
    weights = default_weights()
    kingdoms = _kingdoms(tb, lx, 20_000, max_age, max_age)
    out = np.zeros((kingdoms[0].shape[0], 2))
    _both(tb, lx, weights, *kingdoms, out)
    assert np.isfinite(out).all()
    bad = np.flatnonzero(out[:, 0] != out[:, 1])
    assert bad.size == 0, (bad[:5], out[bad[:5]])


@njit
def _options(tb, lx, weights, pcs, ns, pdones, bls, sas, nas, insets, misc, opts, out):
    """Each kingdom as a decision's base sketch (``LV_BASE``: its first pass), then each of
    its options ``opts[k, o]`` = (row changed, ``n``: a new one, -1: none; spot, unit,
    tokens, 1 if placed now) valued from that pass (``l_option_pass``, ``LV_GIVEN``), in
    full (``LV_FULL``) and step by step (``l_value_full``), each option on a copy of the
    base (one cache and one base pass for the decision, as ``kernev.deploy_choice``)."""
    wpc = np.zeros((layout.MAX_PIECES, layout.N_PC), np.int32)
    wbl = np.zeros(bls.shape[1], np.int32)
    zx = np.full(ev.cache.fixed_size(bls.shape[1]), -1, np.int32)
    for k in range(pcs.shape[0]):
        gold, bonus, seen0, seen1, two, turn, pol = misc[k]
        n0 = np.int64(ns[k])
        ev.value.l_value(
            tb, lx, weights, pol, pcs[k].copy(), n0, pdones[k].copy(), bls[k].copy(),
            sas[k].copy(), np.int64(nas[k]), np.int64(gold), np.int64(bonus), seen0, seen1,
            two == 1, turn, wpc, wbl, zx, insets[k], np.int64(layout.LV_BASE),
        )  # fmt: skip
        for o in range(opts.shape[1]):
            row, spot, u, age, new = opts[k, o]
            pc, pdone = pcs[k].copy(), pdones[k].copy()
            n = ev.value.l_option_pass(tb, lx, pc, n0, np.int64(row), spot, u, age, new, turn, zx)
            if new:
                pdone[row] = -1
            for m in range(3):
                args = (
                    tb, lx, weights, pol, pc.copy(), np.int64(n), pdone.copy(), bls[k].copy(),
                    sas[k].copy(), np.int64(nas[k]), np.int64(gold), np.int64(bonus), seen0,
                    seen1, two == 1, turn, wpc, wbl, zx, insets[k],
                )  # fmt: skip
                if m < 2:
                    mode = layout.LV_GIVEN if m == 0 else layout.LV_FULL
                    out[k, o, m] = ev.value.l_value(*args, np.int64(mode))
                else:
                    out[k, o, m] = ev.project.l_value_full(*args)


@pytest.mark.parametrize("max_age", [4, layout.UR_AGES + 2])
def test_options_from_one_first_pass_equal_the_full_value(legends: CardSet, max_age: int) -> None:
    """A decision's options valued from its base sketch's first pass with one row's share
    replaced (a unit placed on a new row or replacing a row, a row moved or aged, none)
    give the same float as the full ``l_value`` and ``l_value_full``, projecting or not."""
    tables = compile_legends_tables(legends)
    tb = ev.records.kernel_tables(tables)
    lx = legends_lx(legends, tables)
    weights = default_weights()
    kingdoms = _kingdoms(tb, lx, 10_000, max_age, 100 + max_age)
    ns = kingdoms[1]
    n_units = tb.ut.shape[0]
    special = [u for u in range(n_units) if lx.ldyn[u] or tb.ut[u, layout.KU_DYN]]
    rng = np.random.default_rng(max_age)
    opts = np.zeros((ns.size, 3, 5), np.int32)
    for k, n in enumerate(ns):
        for o in range(3):
            row = int(rng.integers(-1, min(n, layout.MAX_PIECES - 1) + 1))
            u = int(rng.choice(special)) if rng.random() < 0.5 else int(rng.integers(0, n_units))
            top = max_age if rng.random() < 0.3 else 2
            new = 1 if row == n or (row >= 0 and rng.random() < 0.5) else 0
            age = 0 if new else int(rng.integers(0, top + 1))
            opts[k, o] = (row, rng.integers(0, 5), u, age, new)
    out = np.zeros((ns.size, 3, 3))
    _options(tb, lx, weights, *kingdoms, opts, out)
    assert np.isfinite(out).all()
    for m in (1, 2):
        bad = np.argwhere(out[:, :, 0] != out[:, :, m])
        assert bad.size == 0, (m, len(bad), bad[:5])


@njit
def _cards(tb, lx, weights, pcs, ns, pdones, bls, sas, nas, insets, misc, cards, out):
    """Each kingdom as a draft's or a keep's sketch (``LV_BASE``: its first pass, once),
    then ``l_card_value`` of each card type ``cards[k, c]`` from that pass (``out[..., 0]``)
    and the same ``Brain.card_value`` in full, written out here (``out[..., 1]``): a unit as
    a new pending piece on spot 0, then 3 (the better), an artifact pending in the zone at
    its cost now; minus ``W_UNAFFORDABLE`` when its cost is more than the gold."""
    ut = tb.ut
    wpc = np.zeros((layout.MAX_PIECES, layout.N_PC), np.int32)
    wbl = np.zeros(bls.shape[1], np.int32)
    zx = np.full(ev.cache.fixed_size(bls.shape[1]), -1, np.int32)
    for k in range(pcs.shape[0]):
        gold, _, seen0, seen1, two, turn, pol = misc[k]
        n0, na = np.int64(ns[k]), np.int64(nas[k])
        pc, pdone, bl, sa = pcs[k].copy(), pdones[k].copy(), bls[k].copy(), sas[k].copy()
        ev.value.l_value(
            tb, lx, weights, pol, pc, n0, pdone, bl, sa, na, np.int64(0), np.int64(0), seen0,
            seen1, two == 1, turn, wpc, wbl, zx, insets[k], np.int64(layout.LV_BASE),
        )  # fmt: skip
        for c in range(cards.shape[1]):
            t = cards[k, c]
            out[k, c, 0] = ev.value.l_card_value(
                tb, lx, weights, pol, pc, n0, pdone, bl, sa, na, gold, t, seen0, seen1,
                two == 1, turn, wpc, wbl, zx, insets[k],
            )  # fmt: skip
            artifact = t >= ut.shape[0]
            v = -np.inf
            cost = 0
            for o in range(1 if artifact else 2):
                placed, done, zone = pcs[k].copy(), pdones[k].copy(), sas[k].copy()
                n, n_art = n0, na
                if artifact:
                    zone[na, layout.SA_X] = t - ut.shape[0]
                    zone[na, layout.SA_PENDING] = 1
                    zone[na, layout.SA_DONE] = -1
                    n_art = na + 1
                    cost = ev.value.l_art_cost_now(
                        ut, tb.bt, tb.ab, lx.lrules, pcs[k], n0, bls[k], insets[k], na
                    )
                else:
                    placed[n0, layout.PC_SPOT] = 0 if o == 0 else MAX_FRONT
                    placed[n0, layout.PC_UNIT] = t
                    placed[n0, layout.PC_AGE] = 0
                    placed[n0, layout.PC_PENDING] = 1
                    placed[n0, layout.PC_FRESH] = 1
                    done[n0] = -1
                    n = n0 + 1
                    cost = ut[t, U_COST]
                w = ev.value.l_value(
                    tb, lx, weights, pol, placed, n, done, bls[k].copy(), zone, n_art,
                    np.int64(gold - cost), np.int64(0), seen0, seen1, two == 1, turn, wpc, wbl,
                    zx, insets[k], np.int64(layout.LV_FULL),
                )  # fmt: skip
                v = max(v, w)
            if cost > gold:
                v -= weights[pol, W_UNAFFORDABLE]
            out[k, c, 1] = v


def test_card_values_from_one_first_pass_equal_the_full_value(legends: CardSet) -> None:
    """The draft and the keep value every card from the sketch's one first pass
    (``kernev._l_base_pass``): the same float as the card valued in full, for units and
    artifacts, affordable or not, projecting or not."""
    tables = compile_legends_tables(legends)
    tb = ev.records.kernel_tables(tables)
    lx = legends_lx(legends, tables)
    weights = default_weights()
    kingdoms = _kingdoms(tb, lx, 6_000, layout.UR_AGES + 2, 7)
    keep = kingdoms[1] < layout.MAX_PIECES  # room for the card's piece
    kingdoms = tuple(part[keep] for part in kingdoms)
    n_cards = tb.ut.shape[0] + lx.xt.shape[0]
    rng = np.random.default_rng(7)
    cards = rng.integers(0, n_cards, (keep.sum(), 4)).astype(np.int32)
    out = np.zeros((cards.shape[0], 4, 2))
    _cards(tb, lx, weights, *kingdoms, cards, out)
    assert np.isfinite(out).all()
    assert (cards >= tb.ut.shape[0]).any()  # artifacts
    assert (cards < tb.ut.shape[0]).any()  # units
    bad = np.argwhere(out[:, :, 0] != out[:, :, 1])
    assert bad.size == 0, (len(bad), bad[:5], out[tuple(bad[0])] if len(bad) else None)


def test_legends_dyn_marks_what_reads_the_kingdom(legends: CardSet) -> None:
    """The records are read only for self-contained steps: a unit whose abilities are all
    base kinds has its base ``KU_DYN``; a ``conditional_gain`` of the Income or War phase
    marks that step."""
    tables = compile_legends_tables(legends)
    tb = ev.records.kernel_tables(tables)
    ut, ab = tb.ut, tb.ab
    ldyn = ev.records.legends_dyn(tables.ut, tables.ab)
    steps = {layout.PH_INCOME: layout.STEP_INCOME, layout.PH_WAR: layout.STEP_WAR}
    gains = 0
    for u in range(ut.shape[0]):
        rows = range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB])
        if {int(ab[j, A_KIND]) for j in rows} <= ev.records.BASE_KINDS:
            assert ldyn[u] == ut[u, layout.KU_DYN], u
        for j in rows:
            if ab[j, A_KIND] == layout.K_CONDITIONAL_GAIN and int(ab[j, A_PHASE]) in steps:
                assert ldyn[u] & steps[int(ab[j, A_PHASE])], u
                gains += 1
    assert gains  # the card set has some
