"""The compiled scoring of a position (``evaluate.score``: ``talesim score``) and
``reference/``'s (``state_io.score_reference``, the rulebook functions) give the same JSON
on random positions: production, income and its parts, every source's strength, LP and gold,
kingdom strength, wars won, the war-phase LP parts, war gold and the end LP
(``docs/rules/paper-tales.md`` §2.3, §2.4, §2.7), at 2-5 players, under the §8 options that
change scoring, and for Legends with artifact zones and the whole building catalog."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from talesim.simcore.games.paper_tales import state_io
from talesim.simcore.games.paper_tales.tables import MAX_SPOTS, CardSet, load_cardset

POSITIONS = 1000
LEGENDS_POSITIONS = 500


def with_options(cards: CardSet, **options: object) -> CardSet:
    opts = dict(cards.rules.options, **options)
    return dataclasses.replace(cards, rules=dataclasses.replace(cards.rules, options=opts))


def random_position(cards: CardSet, rng: np.random.Generator) -> state_io.Position:
    """2-5 seats, each spot filled with probability 3/4 (any unit, 0-3 tokens), every
    building at level 0-2; Legends: a zone of 0-3 artifacts."""
    n = int(rng.integers(2, 6))
    nu, nb = len(cards.units), len(cards.buildings)
    units = np.where(rng.random((n, MAX_SPOTS)) < 0.75, rng.integers(0, nu, (n, MAX_SPOTS)), -1)
    pos = state_io.Position(
        units=units.astype(np.int32),
        ages=rng.integers(0, 4, (n, MAX_SPOTS)).astype(np.int32),
        blevel=rng.integers(0, 3, (n, nb)).astype(np.int32),
        gold=rng.integers(0, 5, n).astype(np.int32),
        lp=rng.integers(0, 20, n).astype(np.int32),
    )
    if not cards.legends:
        return pos
    nx = len(cards.artifacts)
    arts = tuple(
        tuple(int(x) for x in rng.integers(0, nx, int(rng.integers(0, 4)))) for _ in range(n)
    )
    return dataclasses.replace(pos, arts=arts)


@pytest.mark.parametrize(
    "options",
    [{}, {"strong_units_scope": "front", "per_war_won_rows": "front"}],
)
def test_scoring_agrees_with_reference_on_random_positions(cards, options) -> None:
    cards = with_options(cards, **options)
    rng = np.random.default_rng(20261129)
    for k in range(POSITIONS):
        pos = random_position(cards, rng)
        where = (k, pos.units.tolist(), pos.ages.tolist(), pos.blevel.tolist())
        assert state_io.score_position(cards, pos) == state_io.score_reference(cards, pos), where


@pytest.mark.parametrize(
    "options",
    [{}, {"strong_units_scope": "front", "per_war_won_rows": "front"}],
)
def test_legends_scoring_agrees_with_reference_on_random_positions(options) -> None:
    cards = with_options(load_cardset(variant="legends"), **options)
    rng = np.random.default_rng(20261206)
    for k in range(LEGENDS_POSITIONS):
        pos = random_position(cards, rng)
        where = (k, pos.units.tolist(), pos.ages.tolist(), pos.blevel.tolist(), pos.arts)
        assert state_io.score_position(cards, pos) == state_io.score_reference(cards, pos), where
