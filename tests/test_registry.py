"""``simcore/registry.py`` against the games: every engine module provides the whole
``registry.Engine`` contract with the same parameters (so no caller asks which a game
takes)."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from simcore import registry

GAMES = list(registry.GAMES)


def _contract() -> dict[str, inspect.Signature]:
    """Each member of ``registry.Engine`` and its signature without ``self``."""
    out = {}
    for name, member in vars(registry.Engine).items():
        if callable(member) and not name.startswith("_"):
            sig = inspect.signature(member)
            out[name] = sig.replace(parameters=list(sig.parameters.values())[1:])
    return out


def _shape(sig: inspect.Signature) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in sig.parameters.values()]


@pytest.mark.parametrize("game", GAMES)
def test_every_engine_keeps_the_whole_contract(game: str) -> None:
    engine = registry.engine(game)
    contract = _contract()
    assert {"load_cards", "default_weights", "score_state", "score_state_reference"} <= set(
        contract
    )
    for name, sig in contract.items():
        assert callable(getattr(engine, name, None)), f"{game}: engine.{name} missing"
        assert _shape(inspect.signature(getattr(engine, name))) == _shape(sig), (game, name)


@pytest.mark.parametrize("game", ["fairy-tale", "drako"])
def test_a_state_that_names_its_variant_refuses_another(game: str) -> None:
    """Fairy Tale's and DRAKO's end states name their variant (``variant_option``):
    ``score_state`` given one apart is a ``GameError``, before the state is read."""
    engine = registry.engine(game)
    key = registry.get_game(game).variant_option
    for score in (engine.score_state, engine.score_state_reference):
        with pytest.raises(registry.GameError, match=f'its "{key}" key'):
            score({}, None, "any")
