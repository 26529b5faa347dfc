"""Regenerate the Paper Tales golden playthroughs (only after an intended rule, policy,
card-data or random-stream change):

    .venv/bin/python tests/paper_tales/make_golden.py

One base file per player count (2-5) and two Legends files (``--variant legends``: the
expansion; ``tests/paper_tales/test_golden.py`` replays all of them), each pinning
one complete reference game: its
``final_state`` (scores, breakdowns, card and building records, final kingdoms, winners)
and its narrated events, so that any change shows up as a diff to review. The numba
kernel must replay the same games.
"""

from __future__ import annotations

import json
from pathlib import Path

from simcore.games.paper_tales.policies import POLICY_NAMES, default_weights
from simcore.games.paper_tales.reference import Rules, final_state, play_reference
from simcore.games.paper_tales.tables import load_cardset

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = {
    "base-2p-greedy-random": (["greedy", "random"], 2026, 3),
    "base-3p-archetypes": (["warlord", "builder", "greedy"], 7, 41),
    "base-4p-mixed": (["greedy", "warlord", "random", "builder"], 99, 5),
    "base-5p-greedy": (["greedy", "greedy", "warlord", "builder", "greedy"], 123, 0),
    "legends-2p-greedy-random": (["greedy", "random"], 2027, 8),
    "legends-4p-mixed": (["greedy", "warlord", "random", "builder"], 31, 2),
}


def golden(name: str) -> dict:
    policies, seed, game_id = CASES[name]
    variant = name.split("-", 1)[0]
    cards = load_cardset(variant="legends") if variant == "legends" else load_cardset()
    rules = Rules(cards, len(policies))
    codes = [POLICY_NAMES.index(p) for p in policies]
    game = play_reference(rules, default_weights(), codes, seed, game_id, record=True)
    return {
        "variant": variant,
        "policies": policies,
        "seed": seed,
        "game_id": game_id,
        **final_state(game),
        "events": game.events,
    }


if __name__ == "__main__":
    for name in CASES:
        (GOLDEN / f"{name}.json").write_text(json.dumps(golden(name), indent=1) + "\n")
