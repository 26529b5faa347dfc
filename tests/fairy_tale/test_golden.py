"""The kernel replays the golden playthroughs of tests/fairy_tale/golden/*.json.

``tests/test_golden.py`` replays them in ``reference/``; the differential test proves
kernel == reference on many more games; this proves the kernel still plays the games pinned
when the files were written (regenerate: ``tests/make_golden.py fairy-tale``).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from simcore.games.fairy_tale.engine import POLICY_NAMES, prepare, simulate_arrays
from simcore.games.fairy_tale.tables import load_cardset

GOLDEN = Path(__file__).resolve().parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


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
