"""The incremental scorer (``incremental.py``) equals full rescoring.

§N: a section of ``docs/rules/drako.md``, DRAKO's rules.

Property (hypothesis): for a random kingdom (kinds skewed towards portals, dragons and
goblins, to stress links), a random visibility, a random Legend river and a random change
(kind ``k`` face up on cell ``c``: a placement or a reveal, onto a face-up or face-down
card, portals and face-up portals included), under both presets and random §9 link options:

* the cached score change equals the change of ``reference.KingdomView``'s total;
* the cached Legend checks equal the reference's, for the kingdom and the changed kingdom;
* the plan terms (Σ points × Legend progress over the river, dragons' progress to
  domestication) equal ``Brain.near`` / ``Brain.tame_progress``, to the last bit;
* the greedy claim term ``max(0, claim - b_claim)`` equals the one from full rescoring
  (``b_claim``: the kingdom's best claim now), and with ``b_claim = -1`` the claim is the
  full best claim after the change (``claim_before``'s question);
* the caches themselves (links, kind masks) match a fresh computation, and
  ``load_claims`` returns the best claim.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from talesim.simcore.games.drako import incremental, layout, scoring
from talesim.simcore.games.drako.kernel import new_state
from talesim.simcore.games.drako.reference import KingdomView, Rules
from talesim.simcore.games.drako.tables import (
    CELLS,
    KINDS,
    N_KINDS,
    N_LEGENDS,
    Kind,
    compile_tables,
)

# kinds drawn from this list: portals, dragons and goblins more often than in a deck
SKEWED = [*range(N_KINDS), Kind.PORTAL, Kind.PORTAL, Kind.PORTAL, Kind.DRAGON, Kind.GOBLIN]
LINK_OPTIONS = (
    "portal_chaining",
    "goblin_land_via_portal",
    "goblin_conflict_via_portal",
    "dragon_via_portal",
    "legend_goblin_via_portal",
)


VARIANTS: dict[tuple[str, tuple[bool, ...]], tuple[Rules, tuple]] = {}


def variant(data, preset: str, switches: tuple[bool, ...]) -> tuple[Rules, tuple]:
    """(Rules, tables as a tuple) of ``preset`` with the link options set to ``switches``."""
    if (preset, switches) in VARIANTS:
        return VARIANTS[preset, switches]
    base = data.presets[preset]
    options = dataclasses.replace(base.options, **dict(zip(LINK_OPTIONS, switches, strict=True)))
    changed = dataclasses.replace(
        data, presets={preset: dataclasses.replace(base, options=options)}
    )
    VARIANTS[preset, switches] = (
        Rules(changed, preset, 4),
        compile_tables(changed, preset, 4),
    )
    return VARIANTS[preset, switches]


@st.composite
def cases(draw: st.DrawFn):
    preset = draw(st.sampled_from(["brief", "published"]))
    switches = tuple(draw(st.booleans()) for _ in LINK_OPTIONS)
    grid = [int(draw(st.sampled_from(SKEWED))) for _ in range(CELLS)]
    up = [draw(st.booleans()) or draw(st.booleans()) for _ in range(CELLS)]  # 3/4 face up
    river = draw(st.lists(st.integers(0, N_LEGENDS - 1), min_size=8, max_size=8, unique=True))
    river = [g if draw(st.integers(0, 5)) else -1 for g in river]  # some empty slots
    cell = draw(st.integers(0, CELLS - 1))
    kind = draw(st.integers(0, N_KINDS - 1))
    return preset, switches, grid, up, river, cell, kind


def total(view: KingdomView) -> int:
    return sum(view.breakdown().values())


def near(rules: Rules, view: KingdomView, river: list[int]) -> float:
    """``Brain.near``: Σ over the river Legends of points × progress."""
    return sum(
        rules.legends[g].points * view.legend_progress(rules.legends[g]) for g in river if g >= 0
    )


def tame(rules: Rules, view: KingdomView) -> float:
    """``Brain.tame_progress``."""
    return sum(
        min(max((view.tame_links(d, k) for k in rules.tame), default=0), 2) / 2
        for d in view.cells(Kind.DRAGON)
    )


def best_claim(rules: Rules, view: KingdomView, river: list[int]) -> int:
    pts = [rules.legends[g].points for g in river if g >= 0 and view.legend_met(rules.legends[g])]
    return max(pts, default=0)


def loaded(data, case):
    """(rules, tables, state, grid, visible cells, reference view) of a case's kingdom, loaded
    into the caches."""
    preset, switches, grid, up, river, _, _ = case
    rules, tb = variant(data, preset, switches)
    s = new_state(4, 80)
    s.river[:8] = river
    g = np.array(grid, dtype=np.int32)
    vis = int(scoring.visible_mask(np.array(up)))
    incremental.load_kingdom(tb, s, g, vis)
    before = KingdomView(rules, [k if u else None for k, u in zip(grid, up, strict=True)])
    return rules, tb, s, g, vis, before


@settings(max_examples=1500, deadline=None)
@given(cases())
def test_incremental_change_equals_full_rescoring(data, case) -> None:
    preset, switches, grid, up, river, cell, kind = case
    rules, tb, s, g, vis, before = loaded(data, case)
    changed = [k if u else None for k, u in zip(grid, up, strict=True)]
    changed[cell] = kind
    after = KingdomView(rules, changed)
    where = f"{preset} {switches} {[KINDS[k] for k in grid]} up={up} cell {cell} -> {KINDS[kind]}"

    # the caches
    assert s.kfacts[layout.KF_VIS] == vis
    for k in range(N_KINDS):
        assert s.kmask[k] == int(scoring.kind_mask(g, vis, k)), where
    for i in before.cells():
        assert {j for j in range(CELLS) if (int(s.reach[i]) >> j) & 1} & set(
            before.cells()
        ) == before.full[i], where

    # Legends, as they are and after the change
    zone = incremental.portal_zone(tb, s, cell) if kind == Kind.PORTAL else 0
    face_up_portal = up[cell] and grid[cell] == Kind.PORTAL and kind != Kind.PORTAL
    for lg in range(N_LEGENDS):
        met = incremental.legend_met_after(tb, s, lg, -1, -1, 0)
        assert met == before.legend_met(rules.legends[lg]), (where, lg)
        if not face_up_portal:
            met = incremental.legend_met_after(tb, s, lg, cell, kind, zone)
            assert met == after.legend_met(rules.legends[lg]), (where, lg, "after")
    b_claim = best_claim(rules, before, river)
    assert incremental.best_claim_after(tb, s, -1, -1, 0) == b_claim, where
    assert incremental.load_claims(tb, s) == b_claim, where

    # the score change and the claim term, for the kingdom's own best claim and another
    claim_after = best_claim(rules, after, river)
    incremental.load_pair_row(tb, s, g, cell)
    assert incremental.near_after(tb, s, -1, -1, 0) == near(rules, before, river), where
    assert incremental.tame_after(tb, s, -1, -1, 0) == tame(rules, before), where
    for bc in (b_claim, -1):  # the best claim now; -1: the full best claim after
        d, c, n, t = incremental.evaluate_change(tb, s, g, cell, kind, True, bc, True, True)
        assert d == total(after) - total(before), (where, d)
        assert max(0, c - bc) == max(0, claim_after - bc), (where, bc, c, claim_after)
        assert n == near(rules, after, river), (where, n)
        assert t == tame(rules, after), (where, t)
        assert incremental.evaluate_change(tb, s, g, cell, kind, False, bc, False, False)[1:] == (
            0,
            0.0,
            0.0,
        )
        incremental.load_claims(tb, s)  # gain rows: filled again for the next b_claim
    assert incremental.best_claim_changed(tb, s, g, cell, kind) == claim_after, where
    assert g.tolist() == grid  # the rescoring path restores the grid ...
    assert s.kfacts[layout.KF_VIS] == vis  # ... and the caches
    assert s.kmask[Kind.PORTAL] == int(scoring.kind_mask(g, vis, int(Kind.PORTAL)))


@settings(max_examples=300, deadline=None)
@given(
    cases(),
    st.lists(st.tuples(st.integers(0, CELLS - 1), st.integers(0, N_KINDS - 1)), max_size=12),
)
def test_pair_rows_serve_every_candidate_of_a_kingdom(data, case, more) -> None:
    """``load_pair_row`` fills a cell's row once per loaded kingdom; candidates evaluated
    later on the same cell (another kind, after other cells) still get the exact score
    change, and a row kept from earlier equals a freshly computed one."""
    _, _, grid, up, _, cell, kind = case
    rules, tb, s, g, vis, before = loaded(data, case)
    for c, k in [(cell, kind), *more]:
        if up[c] and grid[c] == Kind.PORTAL and k != Kind.PORTAL:
            continue  # a face-up portal replaced: rescored in full, no pair row
        changed = [q if u else None for q, u in zip(grid, up, strict=True)]
        changed[c] = k
        incremental.load_pair_row(tb, s, g, c)
        zone = incremental.portal_zone(tb, s, c) if k == Kind.PORTAL else 0
        d = incremental.delta_score(tb, s, g, c, k, zone)
        assert d == total(KingdomView(rules, changed)) - total(before), (grid, up, c, k)
    kept = s.prow.copy()
    filled = int(s.kfacts[layout.KF_PROW_ROWS])
    incremental.load_kingdom(tb, s, g, vis)
    assert s.kfacts[layout.KF_PROW_ROWS] == 0
    for c in range(CELLS):
        if (filled >> c) & 1:
            incremental.load_pair_row(tb, s, g, c)
            assert s.prow[c].tolist() == kept[c].tolist(), (grid, up, c)
