"""Every golden playthrough (``tests/golden_games.py``) replays in ``reference/`` to the byte.

A failure after an intended change to rules, policies, card data or the random stream:
review the diff, then run ``tests/make_golden.py GAME``. The numba kernels replaying the
same files are each game's ``tests/<game>/test_golden.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from golden_games import GAMES, case_of, files, play

from talesim.simcore import registry

CASES = [(game, path) for game in GAMES for path in files(game)]


def test_every_game_and_variant_has_a_golden_playthrough() -> None:
    """Each variant of each game that can be simulated is pinned by a file, and every pinned
    case is one the harness regenerates."""
    for game in registry.GAMES.values():
        if not game.simulates:
            continue
        assert game.name in GAMES, game.name
        pinned = {json.loads(f.read_text())["variant"] for f in files(game.name)}
        assert {v.name for v in game.variants if v.kernel} <= pinned, game.name
        assert {f.stem for f in files(game.name)} == set(GAMES[game.name][2]), game.name


@pytest.mark.parametrize(("game", "path"), CASES, ids=[f"{g}-{p.stem}" for g, p in CASES])
def test_reference_replays_golden_game(game: str, path: Path) -> None:
    pinned = json.loads(path.read_text())
    replayed = play(game, case_of(pinned))
    assert replayed.keys() == pinned.keys()
    for key, value in pinned.items():
        assert replayed[key] == value, key
