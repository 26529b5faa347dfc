"""``scoring.py`` (arrays, for ``talesim score`` and the kernel) and ``reference.py``
(readable objects) agree on random positions: production, income, every unit's war
strength, kingdom strength, wars won, the war-phase LP parts, war gold and the end LP
(reference §2.3, §2.4, §2.7), at 2-5 players and under the §8 options that change scoring.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simcore.games.paper_tales import scoring
from simcore.games.paper_tales.reference import (
    Piece,
    Rules,
    assess,
    end_lp,
    fight,
    production,
    war_phase_lp,
)
from simcore.games.paper_tales.tables import MAX_SPOTS, N_RES, compile_tables

POSITIONS = 1000


def with_options(cards, **options):
    opts = dict(cards.rules.options, **options)
    return dataclasses.replace(cards, rules=dataclasses.replace(cards.rules, options=opts))


@pytest.mark.parametrize(
    "options",
    [{}, {"strong_units_scope": "front", "per_war_won_rows": "front"}],
)
def test_scoring_agrees_with_reference_on_random_positions(cards, options) -> None:
    cards = with_options(cards, **options)
    tables = compile_tables(cards)
    rng = np.random.default_rng(20261129)
    nu, nb = len(cards.units), len(cards.buildings)
    for k in range(POSITIONS):
        n = int(rng.integers(2, 6))
        rules = Rules(cards, n)
        units = np.where(
            rng.random((n, MAX_SPOTS)) < 0.75, rng.integers(0, nu, (n, MAX_SPOTS)), -1
        ).astype(np.int32)
        ages = rng.integers(0, 4, (n, MAX_SPOTS)).astype(np.int32)
        blevel = rng.integers(0, 3, (n, nb)).astype(np.int32)
        out = [np.zeros((n,), np.int32), np.zeros((n, MAX_SPOTS), np.int32), np.zeros(n, np.int32)]
        lp_parts = np.zeros((n, scoring.N_LP_PARTS), np.int32)
        gold_parts = np.zeros((n, scoring.N_GOLD_PARTS), np.int32)
        per_unit = [np.zeros((n, MAX_SPOTS), np.int32) for _ in range(2)]
        per_bld = [np.zeros((n, nb), np.int32) for _ in range(3)]
        scoring.score_seats(
            tables, units, ages, blevel, *out, lp_parts, gold_parts, *per_unit, *per_bld
        )
        strength, unit_str, wars_won = out
        kingdoms = []
        for p in range(n):
            pieces = [
                Piece(s, int(units[p, s]), int(ages[p, s]))
                for s in range(MAX_SPOTS)
                if units[p, s] >= 0
            ]
            bl = [int(x) for x in blevel[p]]
            kingdoms.append((pieces, bl, assess(rules, pieces, bl)))
        for p, (pieces, bl, a) in enumerate(kingdoms):
            where = (k, p, units[p].tolist(), ages[p].tolist(), bl)
            prod = np.zeros(N_RES, np.int32)
            scoring.production(tables.ut, tables.bt, units, ages, blevel, p, prod)
            assert production(rules, pieces, bl) == prod.tolist(), where
            assert a.strength == strength[p], where
            assert a.strengths == [int(unit_str[p, pc.spot]) for pc in pieces], where
            income = gold_parts[p, : scoring.G_WAR].sum()
            assert a.income == income, where
            won, war_lp = fight(
                rules, a.strength, [kingdoms[q][2].strength for q in rules.neighbours(p)]
            )
            parts, gold = war_phase_lp(rules, pieces, bl, a, won)
            end = end_lp(rules, pieces, bl, a)
            assert won == wars_won[p], where
            expected = [
                war_lp, parts["per_war_won"], parts["war_units"], parts["war_buildings"],
                end["buildings"], end["relic"],
            ]  # fmt: skip
            assert lp_parts[p].tolist() == expected, where
            assert gold == gold_parts[p, scoring.G_WAR], where
