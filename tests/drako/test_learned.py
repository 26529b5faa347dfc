"""DRAKO's ``learned`` player (learned.py, ``reference.DrakoGame.learned_*``) and what
``talesim learn`` records of a search.

* kernel = reference: games with learned seats, and with mc seats whose playouts are
  learned, are the same games in both, both presets;
* the features the kernel records for a search's options are the rulebook's, in greedy's
  order, with each option's mean outcome;
* no peeking: states equal in what the seat sees and different in what it cannot see (the
  draw pile's order, a face-down card, the legend deck's order) give the same learned
  choice; a change the seat sees can change it;
* ``talesim play`` narrates each learned decision with its options' scores.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from kit import prepared, random_model, watching
from typer.testing import CliRunner

from talesim.cli.main import app
from talesim.simcore import learned
from talesim.simcore.games.drako import kernel
from talesim.simcore.games.drako.engine import GAME, draw_table, reference_player, simulate_arrays
from talesim.simcore.games.drako.layout import M_TURN
from talesim.simcore.games.drako.learned import FEATURES, KINDS
from talesim.simcore.games.drako.mc import forget_caches
from talesim.simcore.games.drako.reference import (
    DrakoGame,
    Rules,
    Search,
    final_state,
    play_reference,
)
from talesim.simcore.games.drako.tables import CELLS, CardSet

# --- kernel = reference ---------------------------------------------------------------------

PLAYOUT = "mc:rollouts=2:top=2:playout=learned"
CASES = [
    ("brief", ["learned", "greedy"], 2),
    ("published", ["greedy", "learned", "random"], 1),
    ("brief", ["learned", "legend-hunter", "learned", "random"], 1),
    ("published", [PLAYOUT, "learned"], 1),
    pytest.param(("brief", [PLAYOUT, "random", "legend-hunter"], 1), marks=pytest.mark.slow),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{len(c[1])}p-{c[1][0][:2]}")
def test_kernel_equals_reference_with_learned_seats(data: CardSet, case: tuple) -> None:
    """The kernel and the rulebook play the same games with learned seats (and mc seats
    whose playouts are learned), seats rotated: scores, turns, kingdoms, claims, draws."""
    preset, specs, games = case
    prep = prepared(GAME.name, preset, specs, True, (random_model(GAME.name, 5),))
    a = simulate_arrays(prep, 23, 0, games)
    play = reference_player(prep)  # each seat's policy, search and model as the kernel's
    for g in range(games):
        game = play(23, g)
        ref = final_state(game)
        assert a["score"][g].tolist() == ref["scores"], (preset, g)
        assert a["turns"][g] == ref["turns"], (preset, g)
        assert a["seat_turns"][g].tolist() == ref["player_turns"], (preset, g)
        kinds = [[data.kinds[k].id for k in row] for row in a["grid"][g].tolist()]
        assert kinds == ref["kingdoms"], (preset, g)
        one = (a["draws"][g : g + 1], a["turns"][g : g + 1], np.array([g]), len(specs))
        assert draw_table(*one).drop("game_id").rows() == [d.row() for d in game.draws], g


# --- the record -----------------------------------------------------------------------------


def searched_features(
    rules: Rules, prep: Any, seed: int, g: int
) -> list[tuple[list[list[float]], int, int]]:
    """Each search of reference game ``g`` of more than one option: its ranked options'
    features (the rulebook's ``learned_features``), the decision kind and the seat."""
    seen: list[tuple[list[list[float]], int, int]] = []

    def see(game: DrakoGame, search: Search, decision: str, p: int, options: Any,
            values: list[float]) -> None:  # fmt: skip
        ranked = sorted(range(len(options)), key=lambda i: (-values[i], i))[: search.top]
        if len(ranked) > 1:
            rows = game.learned_features(decision, p, options, ranked)
            seen.append((rows, KINDS.index(decision), p))

    codes, searches = prep.reference_seats(g, Search)
    with watching(DrakoGame, "search", see):
        play_reference(rules, prep.weights, codes, seed, g, searches=searches)
    return seen


@pytest.mark.parametrize(
    ("preset", "specs"),
    [
        ("brief", ["mc:rollouts=2:top=3", "greedy"]),
        ("published", ["random", "mc:rollouts=2:top=2", "legend-hunter"]),
    ],
)
def test_the_record_holds_the_rulebooks_features_and_outcomes(
    data: CardSet, preset: str, specs: list[str]
) -> None:
    """What ``talesim learn`` records of each search: the options' features are the
    rulebook's (``DrakoGame.learned_features``) in greedy's order (``rank`` 0, 1, ...),
    with each option's mean outcome (in wins, the margin term within ±0.05)."""
    prep = prepared(GAME.name, preset, specs, False, ())
    rec = learned.new_record(1, 200, 3, len(FEATURES))
    simulate_arrays(prep, 41, 0, 1, record=rec)
    seen = searched_features(Rules(data, preset, len(specs)), prep, 41, 0)
    assert rec.count[0] == len(seen) > 10
    assert {kind for _, kind, _ in seen} == {0, 1}
    for r, (rows, kind, seat) in enumerate(seen):
        n = rec.n[0, r]
        assert n == len(rows)
        assert (rec.kind[0, r], rec.seat[0, r]) == (kind, seat)
        np.testing.assert_array_equal(rec.x[0, r, :n], np.array(rows, np.float32), err_msg=r)
        assert rec.x[0, r, :n, FEATURES.index("rank")].tolist() == list(range(n))
        assert np.all((rec.value[0, r, :n] >= -0.06) & (rec.value[0, r, :n] <= 1.06))


# --- no peeking -----------------------------------------------------------------------------


def stopped_at_learned(prep: Any, models: np.ndarray, seed: int, g: int, stop: int) -> Any:
    """The kernel game stopped at seat 0's ``stop``-th learned decision (every other seat a
    heuristic; earlier asks answered by the model)."""
    tb = prep.tables
    s = kernel.new_state(prep.players, len(tb.deck))
    table, seat_slot = prep.slot_table()
    kernel._seat_up(s, table, seat_slot, False, prep.players, g)
    kernel.new_game(tb, s, prep.players, np.uint64(seed), g)
    for _ in range(stop):
        assert kernel.play_on(tb, prep.weights, s, prep.players)
        kernel.learned_answer(tb, prep.weights, models, s, prep.players)
    assert kernel.play_on(tb, prep.weights, s, prep.players)
    assert (int(s.meta[M_TURN]) - 1) % prep.players == 0
    return s


@pytest.mark.parametrize("preset", ["brief", "published"])
def test_learned_choice_does_not_peek(data: CardSet, preset: str, hidden_changes: Any) -> None:
    """No peeking: at learned decisions, states that differ only in what the seat cannot
    see (``hidden_changes``) give the same choice; a change of what it sees (two face-up
    cards of its own kingdom swapped) changes it at some decision."""
    specs = ["learned", "greedy", "random", "legend-hunter"]
    prep = prepared(GAME.name, preset, specs, False, (random_model(GAME.name, 9),))
    models = prep.packed_models()
    tb, w = prep.tables, prep.weights
    changed = 0
    for stop in (0, 4, 8, 12):
        s = stopped_at_learned(prep, models, 5, 2, stop)
        base = kernel.learned_answer(tb, w, models, kernel.clone(s), 4)
        hidden = hidden_changes(s, 4)
        assert len(hidden) >= 2, stop
        for c in hidden:
            assert kernel.learned_answer(tb, w, models, c, 4) == base, stop
        up = [cell for cell in range(CELLS) if s.up[0, cell] == 1]
        pairs = [(a, b) for a in up for b in up if s.grid[0, a] != s.grid[0, b]]
        for a, b in pairs:
            c = kernel.clone(s)
            c.grid[0, a], c.grid[0, b] = s.grid[0, b], s.grid[0, a]
            forget_caches(c, 4)
            if kernel.learned_answer(tb, w, models, c, 4) != base:
                changed += 1
                break
    assert changed > 0


# --- talesim learn, play --------------------------------------------------------------------


def test_play_narrates_each_learned_decision() -> None:
    """``talesim play drako --policy learned,...`` (the shipped model) shows, at each
    learned decision of more than one option, greedy's best options with their model
    scores, and the choice."""
    result = CliRunner().invoke(
        app, ["play", "drako", "--seed", "3", "--players", "2", "--policy", "learned,greedy"]
    )
    assert result.exit_code == 0, result.output
    text = result.output
    assert "seat 0 scores its source" in text
    assert "seat 0 scores its action" in text
    assert "  score " in text
    assert "-> draw" in text or "-> take" in text
