"""The scorer is written numba-ready: compiled with ``numba.njit`` it gives the same arrays
as the plain-Python run (slow: ~5 s of compilation; run with ``-m slow``)."""

from __future__ import annotations

import numpy as np
import pytest

from simcore.games.paper_tales import scoring, state_io
from simcore.games.paper_tales.tables import compile_tables

HELPERS = (
    "has_extra_spot", "when_holds", "per_value", "production", "_income", "_age_kingdom",
    "_strength", "_wars", "_war_and_end_lp", "score_seats",
)  # fmt: skip


@pytest.mark.slow
def test_njit_scoring_equals_python(cards, seat, monkeypatch) -> None:
    from numba import njit

    state = {
        "players": [
            seat("knight commander+1", "archer farmer", barracks=2, town=2),
            seat("manticore leviathan+1", "relic-of-wisdom+3", mine=2, tavern=2),
            seat("dragon ogre", "strategist+2", temple=2),
        ]
    }
    tables = compile_tables(cards)
    pos = state_io.parse_state(state, cards)
    plain = state_io.score_arrays(tables, pos)
    for name in HELPERS:
        monkeypatch.setattr(scoring, name, njit(getattr(scoring, name)))
    monkeypatch.setattr(state_io, "_score_seats", scoring.score_seats)
    compiled = state_io.score_arrays(tables, pos)
    for a, b in zip(plain.__dict__.values(), compiled.__dict__.values(), strict=True):
        np.testing.assert_array_equal(a, b)
