"""The ``learned`` player (learned.py, reference/learned.py) and what ``talesim learn``
records of a search.

* kernel = reference: games with learned seats, and with mc seats whose playouts are
  learned, are the same games in both (every stored field);
* the features the kernel records for a search's candidates are the rulebook's, in greedy's
  order, with each candidate's mean outcome;
* no peeking: states equal in what the seat sees and different in what it cannot see give
  the same learned choice; a change the seat sees can change it;
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from kit import prepared, random_model, watching

from talesim.simcore import learned
from talesim.simcore.games.fairy_tale import kernel
from talesim.simcore.games.fairy_tale.engine import reference_player, simulate_arrays
from talesim.simcore.games.fairy_tale.layout import ASK_CAND, ASK_N, ASK_SEAT, DECK, HAND, POS_TOP
from talesim.simcore.games.fairy_tale.learned import FEATURES
from talesim.simcore.games.fairy_tale.reference import FairyTaleGame, Rules, Search, play_reference
from talesim.simcore.games.fairy_tale.reference.game import final_state
from talesim.simcore.games.fairy_tale.reference.learned import features
from talesim.simcore.games.fairy_tale.tables import DEAL, CardSet

CASES = [
    ("basic", ["learned", "greedy", "random"], 4),
    ("beginner", ["learned", "collector"], 4),
    ("expert", ["learned", "greedy", "learned", "collector"], 4),
    ("expert", ["greedy", "learned", "random", "collector", "learned"], 3),
    ("expert", ["mc:rollouts=2:top=2:playout=learned", "learned", "greedy"], 2),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{len(c[1])}p-{c[1][0][:2]}")
def test_kernel_equals_reference_with_learned_seats(case: tuple) -> None:
    """The kernel and the rulebook play the same games with learned seats (and an mc seat
    whose playouts are learned): every field of the final state agrees."""
    variant, specs, games = case
    prep = prepared("fairy-tale", variant, specs, True, (random_model("fairy-tale", 5),))
    a = simulate_arrays(prep, 23, 0, games)
    play = reference_player(prep)  # each seat's policy, search and model as the kernel's
    for g in range(games):
        ref = final_state(play(23, g))
        assert a["score"][g].tolist() == ref["scores"], (variant, g)
        for p, received in enumerate(ref["received"]):
            assert a["card"][g, p].tolist() == [x[0] for x in received], (variant, g, p)
            assert a["played"][g, p].tolist() == [x[3] >= 0 for x in received], (variant, g, p)


def searched_features(
    rules: Rules, prep: Any, seed: int, g: int
) -> list[tuple[list[list[float]], int, int]]:
    """Each search of reference game ``g``: its ranked candidates' features (the rulebook's,
    ``rank`` and ``options`` filled in), the decision kind and the seat."""
    seen: list[tuple[list[list[float]], int, int]] = []

    def see(game: FairyTaleGame, search: Search, decision: Any, p: int, options: list[int],
            neighbour: int) -> None:  # fmt: skip
        ranked = game.ranked_options(decision, p, options, neighbour)[: search.top]
        if len(ranked) > 1:
            rows = [features(game, decision, options[k], p, neighbour)[0] for k in ranked]
            for r, row in enumerate(rows):
                row[FEATURES.index("rank")] = r
                row[FEATURES.index("options")] = len(set(options))
            seen.append((rows, int(decision), p))

    codes, searches = prep.reference_seats(g, Search)
    with watching(FairyTaleGame, "search_decide", see):
        play_reference(rules, prep.weights, codes, seed, g, searches=searches)
    return seen


def test_the_record_holds_the_rulebooks_features_and_outcomes(cards: CardSet) -> None:
    """What ``talesim learn`` records of each search: the candidates' features are the
    rulebook's (``reference/learned.features``) in greedy's order (``rank`` 0, 1, ...),
    with each candidate's mean outcome (in wins, the margin term within ±0.05)."""
    prep = prepared(
        "fairy-tale", "expert", ["mc:rollouts=2:top=3", "greedy", "collector"], True, ()
    )
    rec = learned.new_record(2, 200, 3, len(FEATURES))
    simulate_arrays(prep, 41, 0, 2, record=rec)
    rules = Rules(cards, "expert")
    for g in range(2):
        seen = searched_features(rules, prep, 41, g)
        assert rec.count[g] == len(seen) > 10
        for r, (rows, kind, seat) in enumerate(seen):
            n = rec.n[g, r]
            assert n == len(rows)
            assert (rec.kind[g, r], rec.seat[g, r]) == (kind, seat)
            assert rec.x[g, r, :n].tolist() == rows
            assert np.all((rec.value[g, r, :n] >= -0.06) & (rec.value[g, r, :n] <= 1.06))


def stopped_at_learned(prep: Any, models: np.ndarray, seed: int, g: int, stop: int) -> Any:
    """The kernel game stopped at seat 0's ``stop``-th learned decision (earlier asks
    answered by the model)."""
    tb = prep.tables
    s = kernel.new_state(tb.ct.shape[0], tb.deck.shape[0])
    table, _ = prep.slot_table()
    slots = [int(x) for x in prep.seat_slot]
    for p in range(prep.players):
        s.policy[p] = table[slots[p], 0]
        s.model[p] = table[slots[p], 4]
    kernel.new_game(tb, prep.weights, s, prep.players, np.uint64(seed), g)
    asked = 0
    while kernel.play_on(tb, prep.weights, s, prep.players):
        if s.flat[ASK_SEAT] == 0:
            if asked == stop:
                return s
            asked += 1
        kernel.answer(s, kernel.learned_answer(tb, models, s, prep.players))
    raise AssertionError("the game ended first")


def test_learned_choice_does_not_peek(cards: CardSet) -> None:
    """No peeking: at learned decisions, states that differ only in what the seat does not
    read (the undealt deck reordered; a card of another hand than the one it drafts from
    swapped with an undealt one) give the same choice; a change of its candidates can
    change it."""
    specs = ["learned", "greedy", "random", "greedy"]
    prep = prepared("fairy-tale", "expert", specs, models=(random_model("fairy-tale", 9),))
    models = prep.packed_models()
    tb = prep.tables
    deck_size = len(tb.deck)
    changed = 0
    for stop in (0, 3, 7, 12, 20, 26):
        s = stopped_at_learned(prep, models, 5, 2, stop)
        base = kernel.learned_answer(tb, models, kernel.copy_state(s), 4)
        top = int(s.flat[POS_TOP])
        cand, n = int(s.flat[ASK_CAND]), int(s.flat[ASK_N])
        hidden = []
        if deck_size - top >= 2:
            c = kernel.copy_state(s)
            c.flat[DECK + top : DECK + deck_size] = s.flat[DECK + top : DECK + deck_size][::-1]
            hidden.append(c)
        drafting = HAND <= cand < HAND + 4 * DEAL
        if drafting and top < deck_size:
            own_row = (cand - HAND) // DEAL
            for h in range(4):
                if h != own_row and s.hand_n[h] > 0:
                    c = kernel.copy_state(s)
                    c.hand[h, 0], c.flat[DECK + top] = s.flat[DECK + top], s.hand[h, 0]
                    hidden.append(c)
                    break
        assert hidden, stop
        for c in hidden:
            assert kernel.learned_answer(tb, models, c, 4) == base, stop
        if drafting and top < deck_size:
            for i in range(n):
                c = kernel.copy_state(s)
                c.flat[cand + i] = s.flat[DECK + top]
                if kernel.learned_answer(tb, models, c, 4) != base:
                    changed += 1
                    break
    assert changed > 0
