"""``scoring.py`` (numba arrays, for the kernel) and ``reference/`` (readable sets) agree,
and so do ``engine.score_state`` (``talesim score drako``, the kernel's final scoring) and
``engine.score_state_reference``.

Rules §6-§7 (``docs/rules/drako.md``, as every §N below): both implement links, tribe land
points, conflicts, dragons, Legends and the §7.5 tie-break; they must give the same numbers
on every grid, visibility mask and combination of the §9 options that change scoring.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from talesim.simcore.games.drako import scoring
from talesim.simcore.games.drako.engine import score_state, score_state_reference
from talesim.simcore.games.drako.reference import KingdomView, Rules, winners
from talesim.simcore.games.drako.tables import (
    BREAKDOWN,
    CELLS,
    KINDS,
    MAX_PLAYERS,
    N_BREAKDOWN,
    N_KINDS,
    SIDE,
    compile_tables,
)

SCORING_OPTIONS = (
    "orthogonal_only",
    "portal_chaining",
    "goblin_land_via_portal",
    "goblin_conflict_via_portal",
    "goblin_goblin_conflict",
    "dragon_via_portal",
    "legend_goblin_via_portal",
)
GRIDS = 3000
STATES = 300


def random_options(data, rng: np.random.Generator):
    """The data with one preset whose scoring options are drawn at random."""
    base = data.presets["brief"]
    changes = {name: bool(rng.integers(2)) for name in SCORING_OPTIONS}
    changes["dragon_values"] = tuple(int(v) for v in rng.integers(0, 8, size=rng.integers(1, 5)))
    changes["dragon_max_positive"] = int(rng.integers(0, 5))
    changes["conflict_points"] = int(rng.integers(-3, 1))
    options = dataclasses.replace(base.options, **changes)
    preset = dataclasses.replace(base, options=options)
    return dataclasses.replace(data, presets={"brief": preset})


def test_scoring_agrees_with_reference_on_random_grids(data) -> None:
    rng = np.random.default_rng(20260429)
    direct = np.zeros(CELLS, dtype=np.int64)
    full = np.zeros(CELLS, dtype=np.int64)
    out = np.zeros(N_BREAKDOWN, dtype=np.int32)
    met = np.zeros(len(data.legends), dtype=np.int32)
    points = np.zeros(CELLS, dtype=np.int32)
    variant = data
    for n in range(GRIDS):
        if n % 100 == 0:
            variant = random_options(data, rng)
            t = compile_tables(variant, "brief")
            rules = Rules(variant, "brief", 4)
        # skewed kinds: more portals, dragons and goblins than a deck has, to stress links
        grid = rng.choice(N_KINDS, size=CELLS, p=[0.07] * 4 + [0.09] * 4 + [0.16, 0.20]).astype(
            np.int32
        )
        up = rng.random(CELLS) < (0.5 if n % 2 else 1.0)
        vis = int(scoring.visible_mask(up))
        total = scoring.score_kingdom(
            grid, vis, t.kind_cat, t.kind_blind, t.kind_tame, t.land_pts, t.rival,
            t.dragon_values, t.adj, t.rules, direct, full, out,
        )  # fmt: skip
        scoring.legends_met(t.legend, grid, vis, t.kind_blind, t.rules, direct, full, met)
        scoring.cell_points(
            grid, vis, t.kind_cat, t.kind_blind, t.kind_tame, t.land_pts, t.dragon_values,
            t.rules, direct, full, points,
        )  # fmt: skip
        view = KingdomView(rules, [int(k) if u else None for k, u in zip(grid, up, strict=True)])
        expected = view.breakdown()
        assert out.tolist() == [expected[b] for b in BREAKDOWN], (n, grid.tolist(), up.tolist())
        assert total == sum(expected.values())
        assert met.tolist() == [int(view.legend_met(lg)) for lg in variant.legends], n
        assert points.tolist() == view.cell_points(), n


def random_state(data, rng: np.random.Generator) -> dict:
    """A ``talesim score drako`` state: 1 to 4 kingdoms dealt from the shuffled 4-player box
    (skewed, as above, by dealing only the kinds drawn), each holding a random share of the
    Legends, under a random preset."""
    box = np.array(data.deck(MAX_PLAYERS))
    n = int(rng.integers(1, MAX_PLAYERS + 1))
    weights = rng.random(N_KINDS)[box]
    cards = rng.choice(box, size=n * CELLS, replace=False, p=weights / weights.sum())
    legends = [lg.id for lg in data.legends]
    owner = rng.integers(-1, n, size=len(legends))  # -1: nobody holds it
    return {
        "rules": str(rng.choice(list(data.presets))),
        "players": [
            {
                "grid": [
                    [KINDS[k] for k in cards[p * CELLS + r * SIDE : p * CELLS + (r + 1) * SIDE]]
                    for r in range(SIDE)
                ],
                "legends": [lid for lid, q in zip(legends, owner, strict=True) if q == p],
            }
            for p in range(n)
        ],
    }


def test_score_state_agrees_with_reference_on_random_states(data) -> None:
    """``talesim score drako`` by the kernel's compiled final scoring and by ``reference/``:
    the same JSON text, per card points, Legends met and winners included."""
    rng = np.random.default_rng(23)
    for n in range(STATES):
        state = random_state(data, rng)
        kernel = json.dumps(score_state(state, data))
        assert kernel == json.dumps(score_state_reference(state, data)), (n, state)


def test_link_masks_match_reference_links(data) -> None:
    """The shared link computation itself, cell by cell."""
    rng = np.random.default_rng(7)
    t = compile_tables(data, "brief")
    rules = Rules(data, "brief", 4)
    direct = np.zeros(CELLS, dtype=np.int64)
    full = np.zeros(CELLS, dtype=np.int64)
    for _ in range(500):
        grid = rng.integers(0, N_KINDS, size=CELLS).astype(np.int32)
        up = rng.random(CELLS) < 0.8
        scoring.link_masks(grid, int(scoring.visible_mask(up)), t.adj, True, direct, full)
        view = KingdomView(rules, [int(k) if u else None for k, u in zip(grid, up, strict=True)])
        for i in range(CELLS):
            assert {j for j in range(CELLS) if (int(direct[i]) >> j) & 1} == view.direct[i]
            assert {j for j in range(CELLS) if (int(full[i]) >> j) & 1} == view.full[i]


@pytest.mark.parametrize("categories", [True, False])
@pytest.mark.parametrize("tribes_summed", [True, False])
def test_winners_agree(categories: bool, tribes_summed: bool) -> None:
    rng = np.random.default_rng(3)
    for _ in range(2000):
        P = int(rng.integers(1, 5))
        b = rng.integers(-3, 4, size=(P, N_BREAKDOWN)).astype(np.int32)
        totals = b.sum(axis=1).astype(np.int32)
        keys = np.zeros_like(b)
        flags = np.zeros(P, dtype=np.int32)
        n = scoring.winners(totals, b, categories, tribes_summed, keys, flags)
        dicts = [dict(zip(BREAKDOWN, row.tolist(), strict=True)) for row in b]
        expected = winners(totals.tolist(), dicts, categories, tribes_summed)
        assert np.flatnonzero(flags).tolist() == expected
        assert n == len(expected)
