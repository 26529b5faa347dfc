"""Golden playthroughs of every game: one harness for the pinned reference games.

Each file ``tests/<game>/golden/<case>.json`` pins one complete game played by the game's
``reference/`` (its variant, seats, seed and game id, then what that game produced: final
state and, for DRAKO and Paper Tales, the narrated events), so that any change to the rules,
the policies, the card data or the random stream shows up as a diff to review.
``tests/test_golden.py`` replays every file in ``reference/``; ``kernel_view`` gives what
the numba kernel stores of the same game, which ``tests/test_engine_conformance.py`` checks
against the file (so the kernel equals the rulebook on every pinned game). After an
intended change, review the diff, then:

    .venv/bin/python tests/make_golden.py [GAME ...]
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
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
    from talesim.simcore.games.fairy_tale.policies import default_weights
    from talesim.simcore.games.fairy_tale.reference import Rules, final_state, play_reference
    from talesim.simcore.games.fairy_tale.tables import load_cardset

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
    from talesim.simcore.games.drako.policies import POLICY_NAMES, default_weights
    from talesim.simcore.games.drako.reference import Rules, final_state, play_reference
    from talesim.simcore.games.drako.tables import load_cardset

    rules = Rules(load_cardset(), case.variant, len(case.policies))
    codes = [POLICY_NAMES.index(p) for p in case.policies]
    game = play_reference(rules, default_weights(), codes, case.seed, case.game_id, record=True)
    return {**final_state(game), "events": game.events}


def _paper_tales(case: Case) -> dict[str, Any]:
    from talesim.simcore.games.paper_tales.policies import POLICY_NAMES, default_weights
    from talesim.simcore.games.paper_tales.reference import Rules, final_state, play_reference
    from talesim.simcore.games.paper_tales.tables import load_cardset

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


# --- what the kernel stores of a pinned game ------------------------------------------------

#: (facts read from the pinned file, the same facts as the kernel stores them): equal keys.
View = tuple[dict[str, Any], dict[str, Any]]


def _fairy_tale_kernel(g: dict[str, Any]) -> View:
    """Scores, breakdowns, every seat's received cards and each pick's points."""
    from talesim.simcore.games.fairy_tale.engine import POLICY_NAMES, prepare, simulate_arrays
    from talesim.simcore.games.fairy_tale.tables import load_cardset

    cards = load_cardset()
    ids = cards.ids()
    names = [POLICY_NAMES[p] for p in g["policies"]]
    prepared = prepare(cards, g["variant"], len(names), names, False)
    a = simulate_arrays(prepared, g["seed"], g["game_id"], 1)
    points_by_pick = [[0] * len(pl) for pl in g["received"]]
    for p, pl in enumerate(g["received"]):
        for k, (_, _, _, slot) in enumerate(pl):
            if slot >= 0:
                points_by_pick[p][k] = g["points"][p][slot]
    pinned = {
        "scores": g["scores"],
        "breakdown": g["breakdown"],
        "received": [[c for c, *_ in pl] for pl in g["received"]],
        "points by pick": points_by_pick,
    }
    stored = {
        "scores": a["score"][0].tolist(),
        "breakdown": a["breakdown"][0].tolist(),
        "received": [[ids[c] for c in row] for row in a["card"][0]],
        "points by pick": a["points"][0].tolist(),
    }
    return pinned, stored


def drako_kernel_state(data: Any, a: dict[str, Any], i: int) -> dict[str, Any]:
    """Game offset ``i`` of DRAKO's kernel arrays in ``reference.final_state``'s shape."""
    from talesim.simcore.games.drako.tables import KINDS

    P = a["score"].shape[1]
    return {
        "turns": int(a["turns"][i]),
        "cap_hit": bool(a["cap_hit"][i]),
        "scores": a["score"][i].tolist(),
        "breakdown": a["breakdown"][i].tolist(),
        "kingdoms": [[KINDS[k] for k in row] for row in a["grid"][i]],
        "turn_placed": a["turn_placed"][i].tolist(),
        "claims": [
            [
                [data.legends[a["claim_legend"][i, p, k]].id, int(a["claim_turn"][i, p, k])]
                for k in range(a["claim_n"][i, p])
            ]
            for p in range(P)
        ],
        "player_turns": a["seat_turns"][i].tolist(),
        "ended_by": [p for p in range(P) if a["ended"][i, p]],
        "winners": [p for p in range(P) if a["rank"][i, p] == 1],
    }


def _drako_kernel(g: dict[str, Any]) -> View:
    """Everything ``reference.final_state`` pins (all but the narrated events)."""
    from talesim.simcore.games.drako.engine import prepare, simulate_arrays
    from talesim.simcore.games.drako.tables import load_cardset

    data = load_cardset()
    prepared = prepare(data, g["variant"], len(g["policies"]), g["policies"], False)
    stored = drako_kernel_state(data, simulate_arrays(prepared, g["seed"], g["game_id"], 1), 0)
    return {k: g[k] for k in stored}, stored


@cache
def _paper_tales_cards(variant: str) -> Any:
    from talesim.simcore.games.paper_tales.tables import load_cardset

    return load_cardset(variant=variant) if variant == "legends" else load_cardset()


def _paper_tales_kernel(g: dict[str, Any]) -> View:
    """Scores, gold, wars won, LP parts and reshuffles (Legends: the artifacts in each zone
    and the building pool too); the base game's kernel runs in checking mode."""
    import polars as pl

    from talesim.simcore import engine_kit
    from talesim.simcore.games.paper_tales import engine

    variant = g["variant"]
    cards = _paper_tales_cards(variant)
    prepared = engine.prepare(cards, variant, len(g["policies"]), g["policies"], False)
    check = variant == "base"
    frames = engine_kit.run_chunk(engine, prepared, g["seed"], g["game_id"], 1, check=check)
    seats = frames["seats"].sort("seat")
    parts = list(engine.LEGENDS_SEAT_PARTS if variant == "legends" else engine.SEAT_PARTS)
    pinned = {
        "scores": g["scores"],
        "gold": [s["gold"] for s in g["seats"]],
        "wars_won": [s["wars_won"] for s in g["seats"]],
        "breakdown": [s["breakdown"] for s in g["seats"]],
        "reshuffles": [g["reshuffles"]],
    }
    stored = {
        "scores": seats["score"].to_list(),
        "gold": seats["gold"].to_list(),
        "wars_won": seats["wars_won"].to_list(),
        "breakdown": [list(r) for r in seats.select(parts).rows()],
        "reshuffles": frames["games"]["reshuffles"].to_list(),
    }
    if variant == "legends":
        pinned["artifacts_in_zone"] = [len(s["artifacts"]) for s in g["seats"]]
        stored["artifacts_in_zone"] = seats["artifacts_in_zone"].to_list()
        pinned["building_pool"] = [g["building_pool"]]
        stored["building_pool"] = frames["games"]["building_pool"].cast(pl.String).to_list()
    return pinned, stored


KERNEL_VIEWS: dict[str, Callable[[dict[str, Any]], View]] = {
    "fairy-tale": _fairy_tale_kernel,
    "drako": _drako_kernel,
    "paper-tales": _paper_tales_kernel,
}


def kernel_view(game: str, pinned: dict[str, Any]) -> View:
    """The numba kernel's game of the pinned case (its seed, game id, variant and seats):
    what it stores beside the same facts read from the file, as two dicts with equal keys."""
    return KERNEL_VIEWS[game](pinned)
