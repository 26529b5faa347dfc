"""Golden playthroughs of every game: one harness for the pinned reference games.

Each file ``tests/<game>/golden/<case>.json`` pins one complete game played by the game's
``reference.py`` (its variant, seats, seed and game id, then what that game produced: final
state and, for DRAKO and Paper Tales, the narrated events), so that any change to the rules,
the policies, the card data or the random stream shows up as a diff to review.
``tests/test_golden.py`` replays every file; the games' own ``test_golden.py`` check that the
numba kernel stores the same games. After an intended change, review the diff, then:

    .venv/bin/python tests/make_golden.py [GAME ...]
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Case:
    variant: str
    policies: tuple[Any, ...]  # as the file stores them (Fairy Tale: policy codes)
    seed: int
    game_id: int


def _fairy_tale(case: Case) -> dict[str, Any]:
    from simcore.games.fairy_tale.policies import default_weights
    from simcore.games.fairy_tale.reference import Rules, final_state, play_reference
    from simcore.games.fairy_tale.tables import load_cardset

    cards = load_cardset()
    rules = Rules(cards, case.variant)
    game = play_reference(rules, default_weights(), list(case.policies), case.seed, case.game_id)
    state = final_state(game)
    ids = cards.ids()
    return {
        "scores": state["scores"],
        "breakdown": state["breakdown"],
        "received": [[[ids[c], r, k, slot] for c, r, k, slot in pl] for pl in state["received"]],
        "tableau": [[[ids[c], up] for c, up in pl] for pl in state["tableau"]],
        "points": state["points"],
        "trickster_as": [ids[t] if t >= 0 else None for t in state["trickster_as"]],
    }


def _drako(case: Case) -> dict[str, Any]:
    from simcore.games.drako.policies import POLICY_NAMES, default_weights
    from simcore.games.drako.reference import Rules, final_state, play_reference
    from simcore.games.drako.tables import load_data

    rules = Rules(load_data(), case.variant, len(case.policies))
    codes = [POLICY_NAMES.index(p) for p in case.policies]
    game = play_reference(rules, default_weights(), codes, case.seed, case.game_id, record=True)
    return {**final_state(game), "events": game.events}


def _paper_tales(case: Case) -> dict[str, Any]:
    from simcore.games.paper_tales.policies import POLICY_NAMES, default_weights
    from simcore.games.paper_tales.reference import Rules, final_state, play_reference
    from simcore.games.paper_tales.tables import load_cardset

    legends = case.variant == "legends"
    cards = load_cardset(variant="legends") if legends else load_cardset()
    rules = Rules(cards, len(case.policies))
    codes = [POLICY_NAMES.index(p) for p in case.policies]
    game = play_reference(rules, default_weights(), codes, case.seed, case.game_id, record=True)
    return {**final_state(game), "events": game.events}


#: Game -> (its test folder, how a case is played, the pinned cases).
GAMES: dict[str, tuple[str, Callable[[Case], dict[str, Any]], dict[str, Case]]] = {
    "fairy-tale": (
        "fairy_tale",
        _fairy_tale,
        {
            "expert-4p-mixed": Case("expert", (1, 2, 0, 1), 2026, 0),
            "basic-3p-greedy": Case("basic", (1, 1, 1), 7, 41),
            "beginner-2p-collector": Case("beginner", (2, 2), 99, 5),
        },
    ),
    "drako": (
        "drako",
        _drako,
        {
            "brief-4p-mixed": Case(
                "brief", ("greedy", "legend-hunter", "random", "greedy"), 2026, 0
            ),
            "brief-2p-random": Case("brief", ("random", "random"), 7, 41),
            "published-3p-greedy": Case("published", ("greedy", "greedy", "legend-hunter"), 99, 5),
        },
    ),
    "paper-tales": (
        "paper_tales",
        _paper_tales,
        {
            "base-2p-greedy-random": Case("base", ("greedy", "random"), 2026, 3),
            "base-3p-archetypes": Case("base", ("warlord", "builder", "greedy"), 7, 41),
            "base-4p-mixed": Case("base", ("greedy", "warlord", "random", "builder"), 99, 5),
            "base-5p-greedy": Case(
                "base", ("greedy", "greedy", "warlord", "builder", "greedy"), 123, 0
            ),
            "legends-2p-greedy-random": Case("legends", ("greedy", "random"), 2027, 8),
            "legends-4p-mixed": Case("legends", ("greedy", "warlord", "random", "builder"), 31, 2),
        },
    ),
}


def folder(game: str) -> Path:
    return TESTS / GAMES[game][0] / "golden"


def files(game: str) -> list[Path]:
    return sorted(folder(game).glob("*.json"))


def case_of(pinned: dict[str, Any]) -> Case:
    """The game a file pins, read from the file itself."""
    return Case(pinned["variant"], tuple(pinned["policies"]), pinned["seed"], pinned["game_id"])


def play(game: str, case: Case) -> dict[str, Any]:
    """The whole pinned content of one case, as JSON would store it."""
    header = {
        "variant": case.variant,
        "policies": list(case.policies),
        "seed": case.seed,
        "game_id": case.game_id,
    }
    played = GAMES[game][1](case)
    return {**header, **json.loads(json.dumps(played))}


def write(game: str) -> list[Path]:
    """Regenerate every pinned case of ``game``; the paths written."""
    paths = []
    for name, case in GAMES[game][2].items():
        path = folder(game) / f"{name}.json"
        path.write_text(json.dumps(play(game, case), indent=1) + "\n")
        paths.append(path)
    return paths
