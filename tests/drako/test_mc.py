"""DRAKO's ``mc`` search policy and the resumable game it needs (kernel.py, mc.py,
reference/).

* resumable: ``play_game`` is ``new_game`` then ``play_on``; a copy of a game stopped at a
  decision plays on to the same end;
* kernel = reference for games with mc seats at a small budget (``rollouts=2:top=2``),
  both presets;
* no peeking: states equal in what the seat sees and different in what it cannot see (the
  draw pile's order, a face-down card of another kingdom or of its own, the legend deck's
  order) give the same search, kernel and reference; a control changes a face-up card;
* stream separation: the search never draws from the game's stream, and an mc seat's
  budget changes nothing in the deal.

(Chunk and thread determinism, the CLI's spec errors and narration of a search: the
harness every game passes, ``tests/test_engine_conformance.py``.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from kit import SMALL_MC, prepared, watching

from talesim.simcore.games.drako import kernel
from talesim.simcore.games.drako.engine import draw_table, simulate_arrays
from talesim.simcore.games.drako.layout import M_STEP, STEP_ACTION, STEP_SOURCE
from talesim.simcore.games.drako.mc import forget_caches
from talesim.simcore.games.drako.reference import (
    DrakoGame,
    Rules,
    Search,
    final_state,
    play_reference,
)
from talesim.simcore.games.drako.tables import CELLS, CardSet


def fresh_state(prep: Any, game_id: int) -> kernel.GameState:
    """A zeroed ``GameState`` with game ``game_id``'s seats (slots, policies, mc
    parameters), as ``kernel._seat_up`` sets them."""
    s = kernel.new_state(prep.players, len(prep.tables.deck))
    table, seat_slot = prep.slot_table()
    n = prep.players
    for p in range(n):
        slot = int(seat_slot[(p + game_id) % n] if prep.rotate_seats else seat_slot[p])
        s.slot[p] = slot
        s.policy[p] = table[slot, 0]
        s.mc_par[p] = table[slot, 1:4]
    return s


def stopped_kernel_game(prep: Any, seed: int, g: int, stop: int) -> kernel.GameState:
    """The kernel game stopped at its ``stop``-th mc decision (earlier ones searched)."""
    tb = prep.tables
    s = fresh_state(prep, g)
    kernel.new_game(tb, s, prep.players, np.uint64(seed), g)
    for _ in range(stop):
        assert kernel.play_on(tb, prep.weights, s, prep.players)
        i, _ = kernel.search(tb, prep.weights, s, prep.players, np.uint64(seed), g)
        kernel.answer(s, prep.players, i)
    assert kernel.play_on(tb, prep.weights, s, prep.players)
    return s


# --- resumable games ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["brief", "published"])
def test_play_game_is_new_game_then_play_on(preset: str) -> None:
    """Resumable games: with heuristic seats ``play_on`` never stops, and a new state played
    on to the end has ``play_game``'s kingdoms, scores, ranks, claims, turns and cards."""
    prep = prepared("drako", preset, ["greedy", "random", "legend-hunter"])
    for g in range(4):
        a, b = fresh_state(prep, g), fresh_state(prep, g)
        tb = prep.tables
        kernel.play_game(tb, prep.weights, a, 3, np.uint64(11), g, False)
        kernel.new_game(tb, b, 3, np.uint64(11), g)
        assert not kernel.play_on(tb, prep.weights, b, 3)
        for name in ("grid", "score", "rank", "claim_g", "claim_t", "turns", "placed", "meta"):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


def test_a_copy_at_a_decision_plays_on_to_the_same_end() -> None:
    """Resumable games: at every stop of a game with an mc seat (source and action
    decisions), a copy of the state answered the same way plays on to the same end."""
    prep = prepared("drako", "brief", [SMALL_MC, "greedy", "legend-hunter", "random"])
    tb = prep.tables
    seed = np.uint64(5)
    s = fresh_state(prep, 2)
    kernel.new_game(tb, s, 4, seed, 2)
    answers: list[int] = []
    copies: list[tuple[kernel.GameState, int]] = []
    steps = set()
    while kernel.play_on(tb, prep.weights, s, 4):
        steps.add(int(s.meta[M_STEP]))
        copies.append((kernel.clone(s), len(answers)))
        i, _ = kernel.search(tb, prep.weights, s, 4, seed, 2)
        answers.append(i)
        kernel.answer(s, 4, i)
    assert len(answers) >= 10
    assert steps == {STEP_SOURCE, STEP_ACTION}
    for c, k in copies[:: max(1, len(copies) // 6)]:
        for i in answers[k:]:
            kernel.answer(c, 4, i)
            if not kernel.play_on(tb, prep.weights, c, 4):
                break
        for name in ("grid", "score", "rank", "claim_g", "turns", "placed"):
            np.testing.assert_array_equal(getattr(c, name), getattr(s, name), err_msg=name)


# --- kernel = reference ---------------------------------------------------------------------

MC_CASES = [
    ("brief", [SMALL_MC, "greedy"], 2),
    ("published", ["greedy", SMALL_MC], 2),
    ("brief", ["mc:rollouts=2:top=2:playout=random", "legend-hunter", "random"], 1),
    ("published", [SMALL_MC, "random", "mc:rollouts=2:top=3:playout=legend-hunter"], 1),
]


@pytest.mark.parametrize(("preset", "specs", "games"), MC_CASES)
def test_mc_kernel_equals_reference(
    data: CardSet, preset: str, specs: list[str], games: int
) -> None:
    """The kernel and reference/ play the same games with mc seats (same searches, same
    streams, the same draw decisions), seats rotated; the ``policy`` column names each
    seat's spec."""
    n = len(specs)
    prep = prepared("drako", preset, specs, rotate=True)
    a = simulate_arrays(prep, 31, 0, games)
    rules = Rules(data, preset, n)
    table, _ = prep.slot_table()
    for g in range(games):
        codes, searches = prep.reference_seats(g, Search)
        game = play_reference(rules, prep.weights, codes, 31, g, searches=searches)
        ref = final_state(game)
        assert [int(x) for x in table[a["policy"][g], 0]] == codes
        assert a["score"][g].tolist() == ref["scores"], g
        assert a["turns"][g] == ref["turns"], g
        assert a["seat_turns"][g].tolist() == ref["player_turns"], g
        ranks = a["rank"][g].tolist()
        assert [p for p in range(n) if ranks[p] == 1] == ref["winners"], g
        kinds = [[data.kinds[k].id for k in row] for row in a["grid"][g].tolist()]
        assert kinds == ref["kingdoms"], g
        draws = draw_table(a["draws"][g : g + 1], a["turns"][g : g + 1], np.array([g]), n)
        assert draws.drop("game_id").rows() == [d.row() for d in game.draws], g
    assert a["playouts"].sum() > 0


# --- no peeking -----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["brief", "published"])
@pytest.mark.parametrize("stop", [0, 5, 11])
def test_kernel_search_does_not_peek(preset: str, stop: int, hidden_changes: Any) -> None:
    """No peeking (kernel): the search at a decision is the same, playout for playout
    (equal summed outcomes), in every state that differs only in what the seat cannot
    see."""
    prep = prepared("drako", preset, ["mc:rollouts=3:top=3", "greedy", "random", "legend-hunter"])
    tb = prep.tables
    s = stopped_kernel_game(prep, 8, 1, stop)
    changed = hidden_changes(s, 4)
    assert len(changed) >= 3
    base = kernel.search(tb, prep.weights, kernel.clone(s), 4, np.uint64(8), 1)
    assert any(base[1])
    for c in changed:
        assert kernel.search(tb, prep.weights, c, 4, np.uint64(8), 1) == base


def test_kernel_search_sees_what_it_sees() -> None:
    """Control for the no-peeking test: swapping two face-up cards of another kingdom
    (what the seat sees) changes the search's outcomes."""
    prep = prepared("drako", "brief", ["mc:rollouts=3:top=3", "greedy", "random", "legend-hunter"])
    tb = prep.tables
    s = stopped_kernel_game(prep, 8, 1, 5)
    q = 1
    up = [cell for cell in range(CELLS) if s.up[q, cell] == 1]
    a, b = next((x, y) for x in up for y in up if s.grid[q, x] != s.grid[q, y])
    c = kernel.clone(s)
    c.grid[q, a], c.grid[q, b] = s.grid[q, b], s.grid[q, a]
    forget_caches(c, 4)
    base = kernel.search(tb, prep.weights, kernel.clone(s), 4, np.uint64(8), 1)
    assert kernel.search(tb, prep.weights, c, 4, np.uint64(8), 1)[1] != base[1]


def stopped_reference_game(
    data: CardSet, preset: str, specs: list[str], seed: int, g: int, stop: int
) -> tuple[DrakoGame, tuple]:
    """A copy of the reference game at seat 0's ``stop``-th mc decision, and the search's
    arguments."""
    prep = prepared("drako", preset, specs)
    codes, searches = prep.reference_seats(g, Search)
    game = DrakoGame(Rules(data, preset, len(specs)), prep.weights, codes, seed, g)
    game.searches = searches
    captured: list[tuple[DrakoGame, tuple]] = []

    def see(game: DrakoGame, *args: Any) -> None:
        if game.search_count[0] == stop and args[2] == 0 and not captured:
            captured.append((game.clone(), args))

    with watching(DrakoGame, "search", see):
        game.setup()
        while not captured and not game.over:
            game.take_turn()
    return captured[0]


@pytest.mark.parametrize("stop", [0, 7])
def test_reference_search_does_not_peek(data: CardSet, stop: int) -> None:
    """No peeking (reference/): the same choice and recorded means from states that
    differ in the draw pile's order, a face-down card and the legend deck's order; and a
    control: a face-up card changed changes them."""
    game, args = stopped_reference_game(
        data, "brief", ["mc:rollouts=3:top=3", "greedy", "random"], 8, 1, stop
    )
    search, decision, p, options, values = args

    def searched(g: DrakoGame) -> tuple[int, list]:
        g.record, g.events = True, []
        g.search_count = list(game.search_count)
        i = g.search(search, decision, p, options, values)
        return i, g.events

    base = searched(game.clone())
    variants = []
    v = game.clone()
    v.deck.reverse()
    variants.append(v)
    v = game.clone()
    v.legend_deck.reverse()
    variants.append(v)
    for q in (0, 1):
        v = game.clone()
        slot = next(s for s in v.players[q].kingdom if not s.face_up)
        i = next(i for i, k in enumerate(v.deck) if k != slot.kind)
        slot.kind, v.deck[i] = v.deck[i], slot.kind
        variants.append(v)
    for v in variants:
        assert searched(v) == base
    v = game.clone()
    ups = [s for s in v.players[1].kingdom if s.face_up]
    a, b = next((x, y) for x in ups for y in ups if x.kind != y.kind)
    a.kind, b.kind = b.kind, a.kind
    assert searched(v)[1] != base[1]


# --- streams ---------------------------------------------------------------------------------


def test_the_search_never_draws_from_the_game_stream(data: CardSet) -> None:
    """Stream separation: a search leaves the game's stream, deck and kingdoms as they
    were, and the deal is the same whatever the mc seat's budget (kernel and reference)."""
    prep = prepared("drako", "brief", [SMALL_MC, "random", "greedy"])
    tb = prep.tables
    s = stopped_kernel_game(prep, 4, 3, 2)
    before = kernel.clone(s)
    kernel.search(tb, prep.weights, s, 3, np.uint64(4), 3)
    for name in ("rng", "deck", "grid", "up", "ldeck", "river", "discard"):
        np.testing.assert_array_equal(getattr(s, name), getattr(before, name), err_msg=name)
    setups = []
    for spec in ("greedy", "mc:rollouts=1:top=2", "mc:rollouts=3:top=3"):
        prep = prepared("drako", "brief", [spec, "random", "greedy"])
        codes, searches = prep.reference_seats(3, Search)
        game = play_reference(
            Rules(data, "brief", 3), prep.weights, codes, 4, 3, True, searches=searches
        )
        assert game.events[0]["event"] == "setup"
        setups.append(game.events[0])
    assert setups[0] == setups[1] == setups[2]
