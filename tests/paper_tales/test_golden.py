"""Golden playthroughs: complete reference games pinned in tests/paper_tales/golden/*.json,
one base game per player count (2-5) and two games of the expansion (``legends-*``).

``tests/test_golden.py`` replays them in ``reference/`` and
``tests/test_engine_conformance.py`` in the numba kernel; here the narration replays them.
A failure after an intended change to rules, policies, card data or the random stream:
review the diff, then run ``tests/make_golden.py paper-tales``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from talesim.simcore.games.paper_tales.engine import narrate, play_events
from talesim.simcore.games.paper_tales.policies import POLICY_NAMES
from talesim.simcore.games.paper_tales.tables import CardSet, load_cardset

GOLDEN = Path(__file__).resolve().parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


@cache
def cards_of(variant: str) -> CardSet:
    return load_cardset(variant=variant) if variant == "legends" else load_cardset()


def pinned(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def test_every_player_count_and_the_expansion_are_pinned() -> None:
    games = [pinned(f) for f in FILES]
    assert sorted(len(g["policies"]) for g in games if g["variant"] == "base") == [2, 3, 4, 5]
    legends = [g for g in games if g["variant"] == "legends"]
    assert len(legends) == 2
    assert any(s["artifacts"] for g in legends for s in g["seats"])


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_every_golden_event_narrates(path: Path) -> None:
    """``engine.narrate`` tells every event kind of a whole game in words (no raw dicts)."""
    g = pinned(path)
    codes = [POLICY_NAMES.index(p) for p in g["policies"]]
    events = play_events(cards_of(g["variant"]), g["variant"], codes, g["seed"], g["game_id"])
    assert events[1:] == g["events"]
    for event in events:
        text = narrate(event)
        assert text
        assert not text.startswith("{"), event
