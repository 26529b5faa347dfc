"""Golden playthroughs: complete reference games pinned in tests/drako/golden/*.json.

A failure after an intended change to rules, policies, data or the random stream: review
the diff, then run ``tests/drako/make_golden.py``. (The meta-test that every preset has a
golden file lives in tests/fairy_tale/test_golden.py and covers every registered game.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simcore.games.drako.policies import POLICY_NAMES, default_weights
from simcore.games.drako.reference import Rules, final_state, play_reference
from simcore.games.drako.tables import load_data

GOLDEN = Path(__file__).resolve().parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def test_both_presets_are_pinned() -> None:
    assert {json.loads(f.read_text())["variant"] for f in FILES} == {"brief", "published"}


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_reference_replays_golden_game(path: Path) -> None:
    g = json.loads(path.read_text())
    rules = Rules(load_data(), g["variant"], len(g["policies"]))
    codes = [POLICY_NAMES.index(p) for p in g["policies"]]
    game = play_reference(rules, default_weights(), codes, g["seed"], g["game_id"], record=True)
    state = json.loads(json.dumps(final_state(game)))
    for key, value in state.items():
        assert value == g[key], key
    assert json.loads(json.dumps(game.events)) == g["events"]
