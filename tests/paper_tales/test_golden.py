"""Golden playthroughs: complete reference games pinned in tests/paper_tales/golden/*.json,
one base game per player count (2-5) and two games of the expansion (``legends-*``).

``tests/test_golden.py`` replays them in ``reference.py``; here the narration and the numba
kernel replay them. A failure after an intended change to rules, policies, card data or the
random stream: review the diff, then run ``tests/make_golden.py paper-tales``.
"""

from __future__ import annotations

import functools
import json
from functools import cache
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from simcore import engine_kit
from simcore.games.paper_tales import engine
from simcore.games.paper_tales.engine import (
    LEGENDS_SEAT_PARTS,
    SEAT_PARTS,
    narrate,
    play_events,
    prepare,
)
from simcore.games.paper_tales.policies import POLICY_NAMES
from simcore.games.paper_tales.tables import CardSet, load_cardset

run_chunk = functools.partial(engine_kit.run_chunk, engine)


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


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_kernel_replays_golden_game(path: Path) -> None:
    """The numba kernel (``kernel.py``, both variants, in checking mode)
    stores each pinned game with the pinned scores, parts, gold, wars and reshuffles."""
    g = pinned(path)
    variant = g["variant"]
    prepared = prepare(cards_of(variant), variant, len(g["policies"]), g["policies"], False)
    frames = run_chunk(prepared, g["seed"], g["game_id"], 1, check=variant == "base")
    seats = frames["seats"].sort("seat")
    assert seats["score"].to_list() == g["scores"]
    assert seats["gold"].to_list() == [s["gold"] for s in g["seats"]]
    assert seats["wars_won"].to_list() == [s["wars_won"] for s in g["seats"]]
    parts = list(LEGENDS_SEAT_PARTS if variant == "legends" else SEAT_PARTS)
    assert [list(r) for r in seats.select(parts).rows()] == [s["breakdown"] for s in g["seats"]]
    assert frames["games"]["reshuffles"].to_list() == [g["reshuffles"]]
    if variant == "legends":
        assert seats["artifacts_in_zone"].to_list() == [len(s["artifacts"]) for s in g["seats"]]
        pool = frames["games"]["building_pool"].cast(pl.String).to_list()
        assert pool == [g["building_pool"]]
