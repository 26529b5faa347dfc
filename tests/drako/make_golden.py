"""Regenerate the DRAKO golden playthroughs (only after an intended rule or policy change):

    .venv/bin/python tests/drako/make_golden.py

Each file pins one complete reference game (final kingdoms, turn placed, Legend claims,
breakdowns, winners) and its narrated events, so that any change to the rules, the
policies or the random stream shows up as a diff to review. Part 2's kernel must replay
the same games.
"""

from __future__ import annotations

import json
from pathlib import Path

from simcore.games.drako.policies import POLICY_NAMES, default_weights
from simcore.games.drako.reference import Rules, final_state, play_reference
from simcore.games.drako.tables import load_data

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = {
    "brief-4p-mixed": ("brief", ["greedy", "legend-hunter", "random", "greedy"], 2026, 0),
    "brief-2p-random": ("brief", ["random", "random"], 7, 41),
    "published-3p-greedy": ("published", ["greedy", "greedy", "legend-hunter"], 99, 5),
}


def golden(name: str) -> dict:
    preset, policies, seed, game_id = CASES[name]
    rules = Rules(load_data(), preset, len(policies))
    codes = [POLICY_NAMES.index(p) for p in policies]
    game = play_reference(rules, default_weights(), codes, seed, game_id, record=True)
    return {
        "variant": preset,
        "policies": policies,
        "seed": seed,
        "game_id": game_id,
        **final_state(game),
        "events": game.events,
    }


if __name__ == "__main__":
    for name in CASES:
        (GOLDEN / f"{name}.json").write_text(json.dumps(golden(name), indent=1) + "\n")
