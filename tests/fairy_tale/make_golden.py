"""Regenerate the golden playthroughs (only after an intended rule or policy change):

    .venv/bin/python tests/fairy_tale/make_golden.py

Each file pins one complete game (received cards, tableaux, points, scores) so that any
change to the rules, the policies or the random stream shows up as a diff to review.
"""

from __future__ import annotations

import json
from pathlib import Path

from simcore.games.fairy_tale.policies import default_weights
from simcore.games.fairy_tale.reference import Rules, final_state, play_reference
from simcore.games.fairy_tale.tables import load_cardset

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = {
    "expert-4p-mixed": ("expert", [1, 2, 0, 1], 2026, 0),
    "basic-3p-greedy": ("basic", [1, 1, 1], 7, 41),
    "beginner-2p-collector": ("beginner", [2, 2], 99, 5),
}


def golden(name: str) -> dict:
    variant, policies, seed, game_id = CASES[name]
    cards = load_cardset()
    game = play_reference(Rules(cards, variant), default_weights(), policies, seed, game_id)
    state = final_state(game)
    ids = cards.ids()
    return {
        "variant": variant,
        "policies": policies,
        "seed": seed,
        "game_id": game_id,
        "scores": state["scores"],
        "breakdown": state["breakdown"],
        "received": [[[ids[c], r, k, slot] for c, r, k, slot in pl] for pl in state["received"]],
        "tableau": [[[ids[c], up] for c, up in pl] for pl in state["tableau"]],
        "points": state["points"],
        "trickster_as": [ids[t] if t >= 0 else None for t in state["trickster_as"]],
    }


if __name__ == "__main__":
    for name in CASES:
        (GOLDEN / f"{name}.json").write_text(json.dumps(golden(name), indent=1) + "\n")
