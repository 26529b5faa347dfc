"""Shared helpers for the DRAKO tests (tests can't import each other under
``--import-mode=importlib``, so helpers are handed out as fixtures).

ASCII kingdoms: 4 rows separated by ``/`` (row 0 first), 4 cards per row separated by
spaces. One letter per kind (upper case: face up, lower case: face down)::

    P plain   F forest   M mountain   S swamp
    H human   E elf      D dwarf      G goblin   R dragon   O portal

e.g. ``"H P s s / s s s s / s s s s / s s s s"``: a face-up Human next to a face-up
Plain, everything else face down (invisible to ``view``: it counts as empty).

* ``data``    - the built-in rules file (loaded once per session).
* ``grid``    - ``grid("H P S S / ...")`` -> (kinds: list[int], face_up: list[bool]).
* ``view``    - ``view(ascii, preset="brief")`` -> ``KingdomView`` of the face-up cards.
* ``view``    - also checks that the compiled scoring (``scoring.score_kingdom``,
                ``cell_points``, ``legends_met``) of those face-up cards agrees with it.
* ``scored``  - ``scored(state)`` -> ``score_state(state, data)`` (the compiled scoring),
                checked equal, as JSON text, to ``score_state_reference`` (the readable one).
* ``score``   - ``score(ascii, preset="brief", legends=())`` -> the ``scored`` row of
                a one-player state (all cards face up; case ignored).
* ``seat``    - ``seat(state, p)`` -> the kernel state with seat ``p``'s kingdom caches
                (``kernel.seat_view`` in Python).
* ``new_game``- ``new_game(players=2, preset="brief", policies=None, seed=1, game_id=0)``
                -> a ``DrakoGame`` after setup.
* ``hidden_changes`` - ``hidden_changes(s, players)`` -> copies of the kernel state ``s``
                (stopped at a decision) that differ only in what the deciding seat cannot
                see (the no-peeking tests of ``mc`` and ``learned``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from talesim.simcore.games.drako import kernel, scoring
from talesim.simcore.games.drako.engine import score_state, score_state_reference
from talesim.simcore.games.drako.layout import M_DECK_N, M_LD_N, M_TURN
from talesim.simcore.games.drako.mc import forget_caches
from talesim.simcore.games.drako.policies import Policy, default_weights
from talesim.simcore.games.drako.reference import DrakoGame, KingdomView, Rules
from talesim.simcore.games.drako.tables import (
    BREAKDOWN,
    CELLS,
    KINDS,
    N_BREAKDOWN,
    SIDE,
    CardSet,
    compile_tables,
    load_cardset,
)

LETTERS = {
    "P": "plain",
    "F": "forest",
    "M": "mountain",
    "S": "swamp",
    "H": "human",
    "E": "elf",
    "D": "dwarf",
    "G": "goblin",
    "R": "dragon",
    "O": "portal",
}


def parse_grid(text: str) -> tuple[list[int], list[bool]]:
    rows = [r.split() for r in text.split("/")]
    assert len(rows) == SIDE, text
    assert all(len(r) == SIDE for r in rows), text
    kinds, up = [], []
    for row in rows:
        for token in row:
            kinds.append(KINDS.index(LETTERS[token.upper()]))
            up.append(token.isupper())
    return kinds, up


def as_json_grid(text: str) -> list[list[str]]:
    kinds, _ = parse_grid(text)
    return [[KINDS[k] for k in kinds[r * SIDE : (r + 1) * SIDE]] for r in range(SIDE)]


def seat_view(s: Any, p: int) -> Any:
    """``kernel.seat_view`` in Python: the state with seat ``p``'s kingdom caches."""
    return s._replace(
        reach=s.seat_reach[p],
        kmask=s.seat_kmask[p],
        dtame=s.seat_dtame[p],
        kfacts=s.seat_kfacts[p],
        goal=s.seat_goal[p],
        ready=s.seat_ready[p],
        prow=s.seat_prow[p],
    )


@pytest.fixture(scope="session")
def seat() -> Callable[[Any, int], Any]:
    return seat_view


@pytest.fixture(scope="session")
def data() -> CardSet:
    return load_cardset()


@pytest.fixture
def grid() -> Callable[[str], tuple[list[int], list[bool]]]:
    return parse_grid


@pytest.fixture
def json_grid() -> Callable[[str], list[list[str]]]:
    return as_json_grid


def check_compiled(data: CardSet, preset: str, kinds: list[int], up: list[bool]) -> None:
    """The compiled scoring of the face-up cards equals ``reference.KingdomView``'s:
    breakdown, each card's points, the Legends met."""
    t = compile_tables(data, preset)
    grid = np.array(kinds, dtype=np.int32)
    vis = int(scoring.visible_mask(np.array(up)))
    direct, full = np.zeros(CELLS, np.int64), np.zeros(CELLS, np.int64)
    out, points = np.zeros(N_BREAKDOWN, np.int32), np.zeros(CELLS, np.int32)
    met = np.zeros(len(data.legends), np.int32)
    scoring.score_kingdom(
        grid, vis, t.kind_cat, t.kind_blind, t.kind_tame, t.land_pts, t.rival,
        t.dragon_values, t.adj, t.rules, direct, full, out,
    )  # fmt: skip
    scoring.cell_points(
        grid, vis, t.kind_cat, t.kind_blind, t.kind_tame, t.land_pts, t.dragon_values,
        t.rules, direct, full, points,
    )  # fmt: skip
    scoring.legends_met(t.legend, grid, vis, t.kind_blind, t.rules, direct, full, met)
    view = KingdomView(
        Rules(data, preset, 4), [k if u else None for k, u in zip(kinds, up, strict=True)]
    )
    expected = view.breakdown()
    assert out.tolist() == [expected[b] for b in BREAKDOWN], (kinds, up)
    assert points.tolist() == view.cell_points(), (kinds, up)
    assert met.tolist() == [int(view.legend_met(lg)) for lg in data.legends], (kinds, up)


@pytest.fixture
def view(data: CardSet) -> Callable[..., KingdomView]:
    def make(text: str, preset: str = "brief") -> KingdomView:
        kinds, up = parse_grid(text)
        check_compiled(data, preset, kinds, up)
        return KingdomView(
            Rules(data, preset, 4), [k if u else None for k, u in zip(kinds, up, strict=True)]
        )

    return make


@pytest.fixture
def scored(data: CardSet) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def run(state: dict[str, Any]) -> dict[str, Any]:
        result = score_state(state, data)
        assert json.dumps(result) == json.dumps(score_state_reference(state, data)), state
        return result

    return run


@pytest.fixture
def score(scored: Callable[[dict[str, Any]], dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    def run(text: str, preset: str = "brief", legends: Sequence[str] = ()) -> dict[str, Any]:
        state = {
            "rules": preset,
            "players": [{"grid": as_json_grid(text), "legends": list(legends)}],
        }
        return scored(state)["players"][0]

    return run


@pytest.fixture
def new_game(data: CardSet) -> Callable[..., DrakoGame]:
    def make(
        players: int = 2,
        preset: str = "brief",
        policies: Sequence[int] | None = None,
        seed: int = 1,
        game_id: int = 0,
        rules: Rules | None = None,
    ) -> DrakoGame:
        pols = list(policies) if policies is not None else [int(Policy.GREEDY)] * players
        game = DrakoGame(
            rules or Rules(data, preset, players), default_weights(), pols, seed, game_id
        )
        game.setup()
        return game

    return make


def _hidden_changes(s: kernel.GameState, n_players: int) -> list[kernel.GameState]:
    """Copies of ``s`` that differ from it only in what the searching seat cannot see: the
    draw pile reversed; a face-down card of another kingdom and of its own swapped with a
    draw-pile card (or with each other); the legend deck reversed."""
    p = (int(s.meta[M_TURN]) - 1) % n_players
    out = []
    deck_n = int(s.meta[M_DECK_N])
    if deck_n > 1 and len(set(s.deck[:deck_n].tolist())) > 1:
        c = kernel.clone(s)
        c.deck[:deck_n] = s.deck[:deck_n][::-1]
        out.append(c)
    for q in (p, (p + 1) % n_players):
        down = [cell for cell in range(CELLS) if s.up[q, cell] == 0]
        for cell in down:
            others = [i for i in range(deck_n) if s.deck[i] != s.grid[q, cell]]
            if others:
                c = kernel.clone(s)
                i = others[0]
                c.grid[q, cell], c.deck[i] = s.deck[i], s.grid[q, cell]
                out.append(c)
                break
    ld = int(s.meta[M_LD_N])
    if ld > 1:
        c = kernel.clone(s)
        c.ldeck[:ld] = s.ldeck[:ld][::-1]
        out.append(c)
    for c in out:
        forget_caches(c, n_players)  # caches are exact: recomputed or kept, the same values
    return out


@pytest.fixture
def hidden_changes() -> Callable[[kernel.GameState, int], list[kernel.GameState]]:
    return _hidden_changes
