"""The policies' ``evaluate.value`` reads tables (unit records, the building cache) instead
of interpreting abilities. It must give the very same float as ``evaluate.value_full``, the
step-by-step evaluation with the reference's structure, on any kingdom: every unit in both
rows at many ages (also past the records' ages), pending and fresh pieces (projection:
Time Master-like tokens, Golem), every building configuration in any call order (the cache
is kept between calls), 2 and 3+ players, every policy's weights."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from numba import njit

from talesim.simcore.games.paper_tales import evaluate as ev
from talesim.simcore.games.paper_tales import layout
from talesim.simcore.games.paper_tales.policies import default_weights
from talesim.simcore.games.paper_tales.tables import (
    A_KIND,
    A_PER,
    A_WHEN,
    U_AB0,
    U_NAB,
    CardSet,
    compile_tables,
)


@njit
def _both(tb, weights, pcs, ns, bls, misc, out):
    """``value`` (one building cache for the whole run) and ``value_full`` per kingdom."""
    wpc = np.zeros((layout.MAX_PIECES, layout.N_PC), np.int32)
    wbl = np.zeros(bls.shape[1], np.int32)
    bc = np.full(layout.BC_TERMS + layout.N_BS * ev.cache.face_room(bls.shape[1]) * 3, -1, np.int32)
    acc = np.zeros(layout.N_AC, np.int64)
    for k in range(pcs.shape[0]):
        gold, seen0, seen1, two, turn, pol = misc[k]
        args = (pol, pcs[k], ns[k], bls[k], gold, seen0, seen1, two == 1, turn, wpc, wbl)
        out[k, 0] = ev.value.value(tb, weights, *args, bc, acc)
        out[k, 1] = ev.project.value_full(tb, weights, *args)


def random_spots(rng: np.random.Generator, max_age: int) -> Iterator[tuple[int, int, int, int]]:
    """The pieces of a random kingdom, each as (spot, age, pending, fresh): up to 5 spots
    + a virtual draft piece on spot 0 or 3; ages up to 2, or (3 in 10) up to ``max_age``;
    half the pieces fresh, most of those pending. A generator: the caller draws what else
    a piece needs (its unit) from ``rng`` before the next piece is drawn."""
    n = int(rng.integers(0, layout.MAX_PIECES + 1))
    spots = [int(x) for x in rng.permutation(5)[: min(n, 5)]]
    if n == layout.MAX_PIECES:
        spots.append(int(rng.choice([0, 3])))
    for spot in spots:
        fresh = int(rng.random() < 0.5)
        pending = fresh * int(rng.random() < 0.8)
        top = max_age if rng.random() < 0.3 else 2
        yield spot, int(rng.integers(0, top + 1)), pending, fresh


def _kingdoms(n_units: int, n_buildings: int, count: int, max_age: int, seed: int) -> tuple:
    """Random kingdoms: up to 5 spots + a virtual draft piece on spot 0 or 3; building
    levels shared by runs of 8 kingdoms (as the options of one decision) or not."""
    rng = np.random.default_rng(seed)
    pcs = np.zeros((count, layout.MAX_PIECES, layout.N_PC), np.int32)
    ns = np.zeros(count, np.int32)
    bls = np.zeros((count, max(n_buildings, 1)), np.int32)
    misc = np.zeros((count, 6), np.int32)
    for k in range(count):
        for i, (spot, age, pending, fresh) in enumerate(random_spots(rng, max_age)):
            pcs[k, i] = (spot, rng.integers(0, n_units), age, pending, fresh)
            ns[k] = i + 1
        bls[k] = bls[k - 1] if k % 8 and rng.random() < 0.8 else rng.integers(0, 3, n_buildings)
        misc[k] = (
            rng.integers(-3, 15),
            rng.integers(0, 20),
            rng.integers(0, 20),
            int(rng.random() < 0.2),
            rng.integers(1, 5),
            rng.integers(1, 4),
        )
    return pcs, ns, bls, misc


@pytest.mark.parametrize("max_age", [4, layout.UR_AGES + 2])
def test_value_equals_the_full_evaluation(cards: CardSet, max_age: int) -> None:
    tb = ev.records.kernel_tables(compile_tables(cards, cards.variant))
    weights = default_weights()
    pcs, ns, bls, misc = _kingdoms(tb.ut.shape[0], tb.bt.shape[0], 20_000, max_age, max_age)
    out = np.zeros((pcs.shape[0], 2))
    _both(tb, weights, pcs, ns, bls, misc, out)
    assert np.isfinite(out).all()
    np.testing.assert_array_equal(out[:, 0], out[:, 1])


def test_unit_columns_mark_what_reads_the_kingdom(cards: CardSet) -> None:
    """A unit's steps are computed from the kingdom's totals exactly when one of its
    abilities has a kingdom-wide multiplier or condition; most base units are all tables."""
    tables = compile_tables(cards, cards.variant)
    ut, ab = ev.records.kernel_tables(tables)[0], tables.ab
    for u, unit in enumerate(cards.units):
        rows = range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB])
        reads_kingdom = any(
            ab[j, A_PER] not in ev.records.SELF_CONTAINED_PER
            or ab[j, A_WHEN] not in ev.records.SELF_CONTAINED_WHEN
            for j in rows
            if int(ab[j, A_KIND]) in ev.records.STEPS_OF_KIND
        )
        assert bool(ut[u, layout.KU_DYN]) == reads_kingdom, unit.id
    assert 0 < np.count_nonzero(ut[:, layout.KU_DYN]) < len(cards.units) // 2
