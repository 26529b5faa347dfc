"""Golden playthroughs: complete games pinned in tests/fairy_tale/golden/*.json.

The differential test proves kernel == reference; this proves both still play the games
they played when the golden files were written. A failure after an intended change to
rules, policies, card data or the random stream: review, then run make_golden.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from simcore import registry
from simcore.games.fairy_tale.engine import POLICY_NAMES, prepare, simulate_arrays
from simcore.games.fairy_tale.policies import default_weights
from simcore.games.fairy_tale.reference import Rules, final_state, play_reference
from simcore.games.fairy_tale.tables import load_cardset

GOLDEN = Path(__file__).resolve().parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def test_every_game_and_variant_has_a_golden_playthrough() -> None:
    """Meta-test: each variant of each game that can be simulated is pinned by a file."""
    for game in registry.GAMES.values():
        if not game.simulates:
            continue
        folder = Path(__file__).resolve().parent.parent / game.package.rsplit(".", 1)[-1]
        pinned = {json.loads(f.read_text())["variant"] for f in (folder / "golden").glob("*.json")}
        assert {v.name for v in game.variants if v.kernel} <= pinned, game.name


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_reference_replays_golden_game(path: Path) -> None:
    g = json.loads(path.read_text())
    cards = load_cardset()
    ids = cards.ids()
    game = play_reference(
        Rules(cards, g["variant"]), default_weights(), g["policies"], g["seed"], g["game_id"]
    )
    state = final_state(game)
    assert state["scores"] == g["scores"]
    assert state["breakdown"] == g["breakdown"]
    assert [[[ids[c], r, k, s] for c, r, k, s in pl] for pl in state["received"]] == g["received"]
    assert [[[ids[c], up] for c, up in pl] for pl in state["tableau"]] == g["tableau"]
    assert state["points"] == g["points"]


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_kernel_replays_golden_game(path: Path) -> None:
    g = json.loads(path.read_text())
    cards = load_cardset()
    ids = cards.ids()
    names = [POLICY_NAMES[p] for p in g["policies"]]
    a = simulate_arrays(
        prepare(cards, g["variant"], len(names), names, False), g["seed"], g["game_id"], 1
    )
    assert a["score"][0].tolist() == g["scores"]
    assert a["breakdown"][0].tolist() == g["breakdown"]
    received = [[c for c, *_ in pl] for pl in g["received"]]
    assert [[ids[c] for c in row] for row in a["card"][0]] == received
    points_by_pick = [[0] * len(pl) for pl in g["received"]]
    for p, pl in enumerate(g["received"]):
        for k, (_, _, _, slot) in enumerate(pl):
            if slot >= 0:
                points_by_pick[p][k] = g["points"][p][slot]
    assert np.array_equal(a["points"][0], np.array(points_by_pick))
