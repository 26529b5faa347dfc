"""Shared helpers for the Paper Tales tests (tests can't import each other under
``--import-mode=importlib``, so helpers are handed out as fixtures).

* ``cards``  - the built-in card set (loaded once per session).
* ``seat``   - ``seat("knight commander+1", "archer", mine=2, gold=3)`` -> one player's JSON:
               units separated by spaces, ``+n`` = n age tokens; first the Front row,
               then the Back row; buildings and gold/lp as keywords.
* ``score``  - ``score(seat0, seat1, ...)`` -> the ``score_state`` result (seats in order).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from simcore.games.paper_tales.engine import score_state
from simcore.games.paper_tales.tables import CardSet, load_cardset


def _row(text: str) -> list[dict[str, Any]]:
    out = []
    for token in text.split():
        unit, _, age = token.partition("+")
        out.append({"unit": unit, "age": int(age or 0)})
    return out


def make_seat(front: str = "", back: str = "", **kw: int) -> dict[str, Any]:
    """One player's JSON: ``kw`` holds building levels, and ``gold``/``lp``."""
    player: dict[str, Any] = {"front": _row(front), "back": _row(back)}
    buildings = {k: v for k, v in kw.items() if k not in ("gold", "lp")}
    if buildings:
        player["buildings"] = buildings
    for key in ("gold", "lp"):
        if key in kw:
            player[key] = kw[key]
    return player


@pytest.fixture(scope="session")
def cards() -> CardSet:
    return load_cardset()


@pytest.fixture
def seat() -> Callable[..., dict[str, Any]]:
    return make_seat


@pytest.fixture
def score(cards: CardSet) -> Callable[..., dict[str, Any]]:
    def run(*seats: dict[str, Any]) -> dict[str, Any]:
        return score_state({"players": list(seats)}, cards)

    return run
