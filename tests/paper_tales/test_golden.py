"""Golden playthroughs: complete reference games pinned in tests/paper_tales/golden/*.json,
one per player count (2-5).

A failure after an intended change to rules, policies, card data or the random stream:
review the diff, then run ``tests/paper_tales/make_golden.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simcore.games.paper_tales.engine import narrate, play_events
from simcore.games.paper_tales.policies import POLICY_NAMES, default_weights
from simcore.games.paper_tales.reference import Rules, final_state, play_reference

GOLDEN = Path(__file__).resolve().parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def test_every_player_count_is_pinned() -> None:
    assert sorted(len(json.loads(f.read_text())["policies"]) for f in FILES) == [2, 3, 4, 5]


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_reference_replays_golden_game(cards, path: Path) -> None:
    g = json.loads(path.read_text())
    rules = Rules(cards, len(g["policies"]))
    codes = [POLICY_NAMES.index(p) for p in g["policies"]]
    game = play_reference(rules, default_weights(), codes, g["seed"], g["game_id"], record=True)
    state = json.loads(json.dumps(final_state(game)))
    for key, value in state.items():
        assert value == g[key], key
    assert json.loads(json.dumps(game.events)) == g["events"]


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_every_golden_event_narrates(cards, path: Path) -> None:
    """``engine.narrate`` tells every event kind of a whole game in words (no raw dicts)."""
    g = json.loads(path.read_text())
    codes = [POLICY_NAMES.index(p) for p in g["policies"]]
    events = play_events(cards, "base", codes, g["seed"], g["game_id"])
    assert events[1:] == g["events"]
    for event in events:
        text = narrate(event)
        assert text
        assert not text.startswith("{"), event


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_kernel_replays_golden_game(cards, path: Path) -> None:
    """The numba kernel stores each pinned game with the pinned scores, gold and wars."""
    from simcore.games.paper_tales.engine import prepare, simulate_arrays

    g = json.loads(path.read_text())
    prepared = prepare(cards, "base", len(g["policies"]), g["policies"], False)
    a = simulate_arrays(prepared, g["seed"], g["game_id"], 1, check=True)
    assert a["score"][0].tolist() == g["scores"]
    assert a["gold"][0].tolist() == [st["gold"] for st in g["seats"]]
    assert a["wars_won"][0].tolist() == [st["wars_won"] for st in g["seats"]]
    assert a["parts"][0].tolist() == [st["breakdown"] for st in g["seats"]]
    assert int(a["reshuffles"][0]) == g["reshuffles"]
