"""``simcore/registry.py`` against the games: every engine module provides the whole
``registry.Engine`` contract with the same parameters (so no caller asks which a game
takes), and the facts the registry restates (variants, player ranges, policies, weight
names) are the game's own data."""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import pytest

from talesim.simcore import registry

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


def _facts(game: str) -> dict[str, Any]:
    """What the game's own data says about the facts the registry restates: each variant's
    player range, the policies and the number of weights of a policy's row."""
    engine = registry.engine(game)
    cards = engine.load_cards()
    policies = importlib.import_module(f"{registry.get_game(game).package}.policies")
    if game == "fairy-tale":
        from talesim.simcore.games.fairy_tale.tables import (
            DEAL,
            MAX_PLAYERS,
            ROUNDS,
            compile_tables,
        )

        # a game deals ROUNDS x DEAL cards to each seat: the deck bounds the seats
        decks = {v: len(compile_tables(cards, v).deck) for v in cards.rules.variants}
        deals = {v: n // (ROUNDS * DEAL) for v, n in decks.items()}
        ranges = {v: (2, min(n, MAX_PLAYERS)) for v, n in deals.items()}
    elif game == "drako":
        from talesim.simcore.games.drako.tables import MAX_PLAYERS, MIN_PLAYERS

        ranges = dict.fromkeys(cards.presets, (MIN_PLAYERS, MAX_PLAYERS))
    else:
        spec = cards.rules.variants
        ranges = {v: (spec[v]["min_players"], spec[v]["max_players"]) for v in spec}
    return {
        "ranges": ranges,
        "policies": tuple(policies.POLICY_NAMES),
        "weights": policies.N_WEIGHTS,
        "default_weights": engine.default_weights().shape,
    }


@pytest.mark.parametrize("game", GAMES)
def test_the_registry_restates_the_games_data(game: str) -> None:
    g = registry.get_game(game)
    facts = _facts(game)
    assert {v.name: (v.min_players, v.max_players) for v in g.variants} == facts["ranges"]
    assert g.default_variant in facts["ranges"]
    assert g.policies == facts["policies"]
    assert len(g.weight_names) == facts["weights"]
    assert facts["default_weights"] == (len(g.policies), facts["weights"])
    assert set(g.weighted_policies) < set(g.policies)
    for policy, params in g.policy_params:
        assert policy in g.policies
        for p in params:
            assert set(p.choices) <= set(g.policies), (policy, p.name)


@pytest.mark.parametrize("game", ["fairy-tale", "drako"])
def test_a_state_that_names_its_variant_refuses_another(game: str) -> None:
    """Fairy Tale's and DRAKO's end states name their variant (``variant_option``):
    ``score_state`` given one apart is a ``GameError``, before the state is read."""
    engine = registry.engine(game)
    key = registry.get_game(game).variant_option
    for score in (engine.score_state, engine.score_state_reference):
        with pytest.raises(registry.GameError, match=f'its "{key}" key'):
            score({}, None, "any")
