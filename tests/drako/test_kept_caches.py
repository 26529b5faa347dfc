"""The kingdom caches follow their owner's actions, and each seat's caches are kept
between its turns.

* ``incremental.change_kingdom`` after each action leaves the same caches as a fresh
  ``load_kingdom`` of the changed kingdom (pair rows kept from before included);
* each seat's kingdom caches are kept between its turns (``policies.park`` /
``policies.load_seat``) and follow its own actions (``policies.after_action``): whatever
the order of seats, the caches a seat gets back equal a fresh load of its kingdom."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st
from kit import load_by_path

from talesim.simcore.games.drako import incremental, kernel, layout, policies, scoring
from talesim.simcore.games.drako.kernel import new_state
from talesim.simcore.games.drako.tables import CELLS, N_KINDS, N_LEGENDS, Kind, compile_tables

# the sibling test file's helpers (a test file is not importable by name)
helpers = load_by_path("drako_incremental_helpers", Path(__file__).with_name("test_incremental.py"))
SKEWED, cases, loaded = helpers.SKEWED, helpers.cases, helpers.loaded

P = 4
WEIGHTS = policies.default_weights()
GREEDY = int(policies.Policy.GREEDY)


def claim_caches(s):
    """The Legend caches of ``incremental.load_claims``: Legends met, best claim, goals,
    ready cells of the 8 river slots."""
    return (
        int(s.kfacts[layout.KF_MET]),
        int(s.kfacts[layout.KF_BCLAIM]),
        s.goal.tolist(),
        s.ready[:8].tolist(),
    )


def assert_same_caches(tb, s, g, vis, where) -> None:
    """The kingdom caches of ``s`` (pair rows: the filled ones) equal a fresh
    ``load_kingdom`` of ``g`` seen through ``vis``."""
    fresh = new_state(4, 80)
    incremental.load_kingdom(tb, fresh, g, vis)
    for key in (layout.KF_VIS, layout.KF_BLINDS, layout.KF_TAME):
        assert s.kfacts[key] == fresh.kfacts[key], (where, key)
    assert s.kfacts[layout.KF_DRAGON_PTS] == fresh.kfacts[layout.KF_DRAGON_PTS], where
    assert s.kmask.tolist() == fresh.kmask.tolist(), where
    assert s.reach.tolist() == fresh.reach.tolist(), where
    for d in range(CELLS):
        if (int(fresh.kmask[Kind.DRAGON]) >> d) & 1:
            assert s.dtame[d].tolist() == fresh.dtame[d].tolist(), (where, d)
    rows = int(s.kfacts[layout.KF_PROW_ROWS])
    for c in range(CELLS):
        if (rows >> c) & 1:
            incremental.load_pair_row(tb, fresh, g, c)
            assert s.prow[c].tolist() == fresh.prow[c].tolist(), (where, c)


@settings(max_examples=400, deadline=None)
@given(
    cases(),
    st.lists(
        st.tuples(st.integers(0, CELLS - 1), st.integers(0, N_KINDS - 1), st.integers(0, 1)),
        min_size=1,
        max_size=16,
    ),
)
def test_caches_follow_the_owners_actions(data, case, actions) -> None:
    """``change_kingdom`` after each action (a placement of any kind, or a reveal, on any
    cell) leaves the same caches as loading the changed kingdom afresh, the pair rows kept
    from before included; rows are filled between actions as decisions would."""
    _, _, grid, up, _, cell, _ = case
    _, tb, s, g, vis, _ = loaded(data, case)
    incremental.load_pair_row(tb, s, g, cell)
    for c, k, reveal in actions:
        o = int(g[c]) if (vis >> c) & 1 else -1
        if not (reveal and o < 0):  # a reveal shows the face-down card where it lies
            g[c] = k
        vis |= 1 << c
        incremental.change_kingdom(tb, s, g, c, o)
        where = (grid, up, c, k, reveal)
        assert_same_caches(tb, s, g, vis, where)
        incremental.load_pair_row(tb, s, g, (c + k) % CELLS)
        incremental.load_pair_row(tb, s, g, (c * 5 + 3) % CELLS)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["brief", "published"]),
    st.lists(
        st.lists(st.sampled_from(SKEWED), min_size=CELLS, max_size=CELLS), min_size=P, max_size=P
    ),
    st.lists(st.lists(st.booleans(), min_size=CELLS, max_size=CELLS), min_size=P, max_size=P),
    st.lists(st.integers(0, N_LEGENDS - 1), min_size=8, max_size=8, unique=True),
    st.lists(
        st.tuples(
            st.integers(0, P - 1),
            st.integers(0, CELLS - 1),
            st.integers(0, N_KINDS - 1),
            st.integers(0, 3),
        ),
        min_size=1,
        max_size=40,
    ),
)
@example(  # found by CI: seat 2's Legend caches kept while seat 0 loaded its own
    preset="brief",
    grids=[[0] * CELLS, [0] * CELLS, [0] * 12 + [4, 0, 0, 0], [0] * CELLS],
    ups=[
        [False] * CELLS,
        [False] * CELLS,
        [False] * 12 + [True, False, False, False],
        [False] * CELLS,
    ],
    river=list(range(8)),
    steps=[(2, 0, 2, 0), (0, 0, 0, 0), (2, 0, 1, 0)],
)
def test_kept_caches_equal_fresh_ones(data, seat, preset, grids, ups, river, steps) -> None:
    """... and the Legend caches after an action, when ``after_action`` kept them
    (``incremental.claims_after_card``), or after a claim refilled a river slot
    (``kernel._claim``, ``incremental.claims_after_slots``: at once for the loaded seat, at
    its next ``load_seat`` for the others), are the ones a fresh ``load_claims`` finds."""
    tb = compile_tables(data, preset, P)
    s = new_state(P, 80)
    s.river[:8] = river
    rest = [g for g in range(N_LEGENDS) if g not in river]
    s.ldeck[: len(rest)] = rest
    s.meta[layout.M_LD_N] = len(rest)
    s.grid[:] = np.array(grids, dtype=np.int32)
    s.up[:] = np.array(ups, dtype=np.int32)
    s.meta[layout.M_LOADED] = -1
    s.policy[:] = [GREEDY, GREEDY, GREEDY, int(policies.Policy.RANDOM)]  # random: never kept

    def assert_fresh_claims(p, where):
        kept = claim_caches(seat(s, p))
        policies.park(s)  # a fresh load of the kingdom, then of its Legends
        s.kept[p] = 0
        policies.load_seat(tb, seat(s, p), p)
        policies.seat_claims(tb, seat(s, p))
        assert kept == claim_caches(seat(s, p)), where

    # what: 0 a placement, 1 a reveal, 2 only look (a decision), 3 a claim of slot c % 8
    for p, c, k, what in steps:
        sp = seat(s, p)
        policies.load_seat(tb, sp, p)
        vis = int(scoring.visible_mask(s.up[p]))
        assert_same_caches(tb, sp, s.grid[p], vis, (preset, p, c, k, what))
        if s.meta[layout.M_CLAIMS_OK]:  # kept Legend caches (after claims: refreshed)
            assert_fresh_claims(p, (preset, p, c, k, what, "kept"))
        if what == 3:
            if k % 2 == 0:  # a decision looked at the Legends before the claim
                policies.seat_claims(tb, sp)
            kernel._claim(tb, sp, p, c % 8)
            if s.meta[layout.M_CLAIMS_OK]:  # the loaded Legend caches followed the river
                assert_fresh_claims(p, (preset, p, c, k, what, "claim"))
            continue
        incremental.load_pair_row(tb, sp, s.grid[p], c)
        incremental.load_pair_row(tb, sp, s.grid[p], (c + 7) % CELLS)
        if what == 2:
            continue
        if k % 2 == 0:  # a decision looked at the Legends before the action
            policies.seat_claims(tb, sp)
        o = int(s.grid[p, c]) if s.up[p, c] else -1
        if what == 0 or o >= 0:
            s.grid[p, c] = k
        s.up[p, c] = 1
        if k % 3 == 0:  # sometimes another seat's caches are loaded when p acts
            policies.load_seat(tb, seat(s, (p + 1) % P), (p + 1) % P)
        policies.after_action(tb, sp, p, c, o)
        if s.meta[layout.M_CLAIMS_OK]:  # the Legend caches followed the card
            assert_fresh_claims(p, (preset, p, c, k, what))
    for p in range(P):
        sp = seat(s, p)
        policies.load_seat(tb, sp, p)
        assert_same_caches(tb, sp, s.grid[p], int(scoring.visible_mask(s.up[p])), (preset, p))


@settings(max_examples=300, deadline=None)
@given(cases(), st.lists(st.integers(0, 6), min_size=N_KINDS, max_size=N_KINDS), st.booleans())
def test_reveal_bound_is_an_upper_bound(data, case, pool, claim) -> None:
    """``policies.reveal_bound`` of every face-down cell is at least the reveal's
    ``Σ pool[k] × value`` as ``best_action`` sums it (greedy weights, empty memo), so a reveal
    it rules out could not have beaten the best; the values it keeps in the memo are exact
    (all but a portal's)."""
    _, tb, s, g, vis, _ = loaded(data, case)
    b_claim = incremental.load_claims(tb, s)
    s.pool[:] = pool
    w = WEIGHTS[GREEDY]
    for c in range(CELLS):
        if (vis >> c) & 1:
            continue
        incremental.load_pair_row(tb, s, g, c)
        total = 0.0
        values = {}
        for k in range(N_KINDS):
            if pool[k]:
                f = incremental.evaluate_change(tb, s, g, c, k, claim, b_claim, False, False)
                values[k] = policies.value(w, f[0], f[1], 0.0, 0.0, 0, b_claim, 0.0, 0.0)
                total += pool[k] * values[k]
        bound = policies.reveal_bound(
            tb, w, s, c, claim, b_claim, policies.portal_pair_max(tb), policies.river_best(tb, s)
        )
        assert bound >= total, (case, c, bound, total)
        for k, v in values.items():  # the values it put into the memo are exact
            if (int(s.xmask[k]) >> c) & 1:
                assert s.xval[c, k] == v, (case, c, k, s.xval[c, k], v)
            else:  # only a portal's is a bound
                assert k == Kind.PORTAL, (case, c, k)
