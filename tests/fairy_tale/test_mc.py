"""The ``mc`` search policy and the resumable game it needs (kernel/, mc.py, reference/).

* resumable: ``play_game`` is ``new_game`` then ``play_on``; a copy of a game stopped at a
  decision plays on to the same end;
* kernel = reference for games with mc seats at a small budget (``rollouts=2:top=2``);
* no peeking: states equal in what the seat sees and different in what it cannot see
  (another hand, the deck order, a face-down discard) give the same search, kernel and
  reference;
* stream separation: an mc seat's budget changes nothing in the deal.

The same results whatever the chunk size or thread count: ``tests/test_engine_conformance.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from kit import SMALL_MC, prepared, watching

from talesim.simcore.games.fairy_tale import kernel
from talesim.simcore.games.fairy_tale.engine import simulate_arrays
from talesim.simcore.games.fairy_tale.layout import (
    DECK,
    HAND,
    HAND_N,
    KEPT_PICK,
    PH_DRAFT,
    PH_PLAY,
    POS_PHASE,
    POS_ROUND,
    POS_STEP,
    POS_TOP,
)
from talesim.simcore.games.fairy_tale.reference import (
    FairyTaleGame,
    Phase,
    Rules,
    Search,
    play_reference,
)
from talesim.simcore.games.fairy_tale.tables import DEAL, CardSet


def fresh_state(prep: Any, game_id: int) -> kernel.GameState:
    """A zeroed ``GameState`` with game ``game_id``'s seats (policies, mc parameters)."""
    tb = prep.tables
    s = kernel.new_state(tb.ct.shape[0], tb.deck.shape[0])
    table, _ = prep.slot_table()
    codes, _ = prep.reference_seats(game_id, Search)
    slots = [int(x) for x in prep.seat_slot]
    for p in range(prep.players):
        s.policy[p] = codes[p]
        s.mc_par[p] = table[
            slots[(p + game_id) % prep.players] if prep.rotate_seats else slots[p], 1:4
        ]
    return s


# --- resumable games ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["basic", "beginner", "expert"])
def test_play_game_is_new_game_then_play_on(variant: str) -> None:
    """Resumable games: a new state played on to the end is the game ``play_game`` plays
    (heuristic seats: ``play_on`` never stops)."""
    prep = prepared("fairy-tale", variant, ["greedy", "random", "collector"])
    tb = prep.tables
    for g in range(5):
        a, b = fresh_state(prep, g), fresh_state(prep, g)
        assert kernel.play_game(tb, prep.weights, a, 3, np.uint64(11), g, False) == 0
        kernel.new_game(tb, prep.weights, b, 3, np.uint64(11), g)
        assert not kernel.play_on(tb, prep.weights, b, 3)
        np.testing.assert_array_equal(a.flat, b.flat)
        np.testing.assert_array_equal(a.sm, b.sm)


@pytest.mark.parametrize("variant", ["basic", "beginner", "expert"])
def test_a_copy_at_a_decision_plays_on_to_the_same_end(variant: str) -> None:
    """Resumable games: at every stop of a game with an mc seat (draft, play, Open, Close
    decisions), a copy of the state answered the same way plays on to the same end."""
    prep = prepared("fairy-tale", variant, [SMALL_MC, "greedy", "collector", "random"])
    tb = prep.tables
    seed = np.uint64(5)
    s = fresh_state(prep, 2)
    kernel.new_game(tb, prep.weights, s, 4, seed, 2)
    answers: list[int] = []
    copies: list[tuple[kernel.GameState, int]] = []
    phases = set()
    while kernel.play_on(tb, prep.weights, s, 4):
        i, _ = kernel.search(tb, prep.weights, s, 4, seed, 2)
        phases.add(int(s.flat[POS_PHASE]))
        copies.append((kernel.copy_state(s), len(answers)))
        answers.append(i)
        kernel.answer(s, i)
    assert len(answers) >= 20
    assert {PH_DRAFT, PH_PLAY} <= phases
    for c, k in copies[:: max(1, len(copies) // 6)]:
        for i in answers[k:]:
            kernel.answer(c, i)
            if not kernel.play_on(tb, prep.weights, c, 4):
                break
        for name in ("score", "tab", "tab_up", "pick_card", "pick_slot", "points", "trick_as"):
            np.testing.assert_array_equal(getattr(c, name), getattr(s, name), err_msg=name)


# --- kernel = reference ---------------------------------------------------------------------

MC_CASES = [
    ("basic", [SMALL_MC, "greedy", "random"], 3),
    ("beginner", [SMALL_MC, "collector"], 3),
    ("expert", [SMALL_MC, "greedy", "greedy", "mc:rollouts=2:top=2:playout=random"], 2),
    ("expert", ["greedy", SMALL_MC, "random", "collector", "greedy"], 2),
]


@pytest.mark.parametrize("case", MC_CASES, ids=lambda c: f"{c[0]}-{len(c[1])}p")
def test_kernel_equals_reference_with_mc_seats(cards: CardSet, case: tuple) -> None:
    """The kernel and reference/ play the same games with mc seats: the same searches
    (streams, determinizations, playouts), so every stored field agrees."""
    variant, specs, games = case
    prep = prepared("fairy-tale", variant, specs)
    a = simulate_arrays(prep, 31, 0, games)
    rules = Rules(cards, variant)
    for g in range(games):
        codes, searches = prep.reference_seats(g, Search)
        game = play_reference(rules, prep.weights, codes, 31, g, searches=searches)
        assert a["score"][g].tolist() == [pl.score for pl in game.players], (variant, g)
        for p, pl in enumerate(game.players):
            assert a["card"][g, p].tolist() == [x.card for x in pl.received], (variant, g, p)
            assert a["played"][g, p].tolist() == [x.slot >= 0 for x in pl.received]


# --- no peeking ------------------------------------------------------------------------------


def stopped_kernel_game(prep: Any, seed: int, g: int, stop: int) -> kernel.GameState:
    """The kernel game stopped at seat 0's ``stop``-th mc decision."""
    tb = prep.tables
    s = fresh_state(prep, g)
    kernel.new_game(tb, prep.weights, s, prep.players, np.uint64(seed), g)
    for _ in range(stop):
        assert kernel.play_on(tb, prep.weights, s, prep.players)
        i, _ = kernel.search(tb, prep.weights, s, prep.players, np.uint64(seed), g)
        kernel.answer(s, i)
    assert kernel.play_on(tb, prep.weights, s, prep.players)
    return s


def unseen_rows(s: kernel.GameState, n: int) -> list[int]:
    """The hands (rows) seat 0 has not drafted from this round (while drafting)."""
    if s.flat[POS_PHASE] != PH_DRAFT:
        return []
    back = n - 1 if s.flat[POS_ROUND] % 2 == 0 else 1
    seen = {(s2 * back) % n for s2 in range(int(s.flat[POS_STEP]) + 1)}
    return [h for h in range(n) if h not in seen and s.hand_n[h] > 0]


def hidden_changes(s: kernel.GameState, n: int, deck_size: int) -> list[kernel.GameState]:
    """Copies of ``s`` that differ from it only in what seat 0 cannot see: the undealt deck
    reversed; (drafting) another seat's first pick of the round, taken from a hand seat 0
    had not seen, and a hand seat 0 has not seen, each swapped with an undealt card;
    another seat's discard of an earlier round swapped with an undealt card."""
    out = []
    top = int(s.flat[POS_TOP])
    if deck_size - top >= 2:
        c = kernel.copy_state(s)
        c.flat[DECK + top : DECK + deck_size] = s.flat[DECK + top : DECK + deck_size][::-1]
        out.append(c)
    drafting = s.flat[POS_PHASE] == PH_DRAFT
    if top < deck_size and drafting and s.kept_n[1] > 0 and s.kept[1, 0] != s.flat[DECK + top]:
        c = kernel.copy_state(s)
        c.kept[1, 0], c.flat[DECK + top] = s.flat[DECK + top], s.kept[1, 0]
        c.pick_card[1, s.flat[KEPT_PICK + DEAL]] = c.kept[1, 0]
        out.append(c)
    for h in unseen_rows(s, n) if top < deck_size else []:
        c = kernel.copy_state(s)
        c.hand[h, 0], c.flat[DECK + top] = s.flat[DECK + top], s.hand[h, 0]
        out.append(c)
        break
    this_round = int(s.flat[POS_ROUND]) + 1
    discards = [
        [
            k
            for k in range(int(s.pick_n[q]))
            if s.pick_slot[q, k] < 0 and s.pick_round[q, k] < this_round
        ]
        for q in range(n)
    ]
    if top < deck_size and discards[1]:
        k = discards[1][0]
        c = kernel.copy_state(s)
        c.pick_card[1, k], c.flat[DECK + top] = s.flat[DECK + top], s.pick_card[1, k]
        out.append(c)
    pairs = [
        (a, b) for a in discards[1] for b in discards[2] if s.pick_card[1, a] != s.pick_card[2, b]
    ]
    if pairs:  # two other seats' discards swapped (the deck may be dealt out)
        a, b = pairs[0]
        c = kernel.copy_state(s)
        c.pick_card[1, a], c.pick_card[2, b] = s.pick_card[2, b], s.pick_card[1, a]
        out.append(c)
    return out


@pytest.mark.parametrize("variant", ["basic", "expert"])
@pytest.mark.parametrize("stop", [0, 6, 17, 25])
def test_kernel_search_does_not_peek(variant: str, stop: int) -> None:
    """No peeking (kernel): the search at a decision is the same, playout for playout
    (equal summed outcomes), in every state that differs only in what the seat cannot see."""
    prep = prepared("fairy-tale", variant, ["mc:rollouts=3:top=3", "greedy", "random", "greedy"])
    tb = prep.tables
    s = stopped_kernel_game(prep, 8, 1, stop)
    deck_size = len(prep.tables.deck)
    changed = hidden_changes(s, 4, deck_size)
    assert changed
    base = kernel.search(tb, prep.weights, kernel.copy_state(s), 4, np.uint64(8), 1)
    for c in changed:
        assert not np.array_equal(c.flat, s.flat)
        assert kernel.search(tb, prep.weights, c, 4, np.uint64(8), 1) == base


def test_kernel_search_sees_what_it_sees() -> None:
    """Control for the no-peeking test: changing a card the seat sees (its own hand)
    changes the search's outcomes."""
    prep = prepared("fairy-tale", "expert", ["mc:rollouts=3:top=3", "greedy", "random", "greedy"])
    tb = prep.tables
    s = stopped_kernel_game(prep, 8, 1, 0)
    assert s.flat[POS_PHASE] == PH_DRAFT
    assert s.flat[POS_STEP] == 0
    top = int(s.flat[POS_TOP])
    c = kernel.copy_state(s)
    i = next(i for i in range(int(s.flat[HAND_N])) if s.flat[HAND + i] != s.flat[DECK + top])
    c.flat[HAND + i], c.flat[DECK + top] = s.flat[DECK + top], s.flat[HAND + i]
    base = kernel.search(tb, prep.weights, kernel.copy_state(s), 4, np.uint64(8), 1)
    assert kernel.search(tb, prep.weights, c, 4, np.uint64(8), 1)[1] != base[1]


def stopped_reference_game(
    cards: CardSet, variant: str, specs: list[str], seed: int, g: int, stop: int
) -> tuple[FairyTaleGame, tuple]:
    """A copy of the reference game at seat 0's ``stop``-th mc decision, and its arguments."""
    prep = prepared("fairy-tale", variant, specs)
    codes, searches = prep.reference_seats(g, Search)
    rules = Rules(cards, variant)
    game = FairyTaleGame(rules, prep.weights, codes, seed, g, searches=searches)
    captured: list[tuple[FairyTaleGame, tuple]] = []

    def see(game: FairyTaleGame, *args: Any) -> None:
        if game.search_count[0] == stop and args[2] == 0 and not captured:
            search, decision, seat, options, neighbour = args  # options: a list of the game
            captured.append((game.clone(), (search, decision, seat, list(options), neighbour)))

    with watching(FairyTaleGame, "search_decide", see):
        game.run()
    return captured[0]


@pytest.mark.parametrize("stop", [0, 9, 18])
def test_reference_search_does_not_peek(cards: CardSet, stop: int) -> None:
    """No peeking (reference/): the same search outcome (chosen candidate and recorded
    means) from states that differ in another hand, the deck order and a discard."""
    game, args = stopped_reference_game(
        cards, "expert", ["mc:rollouts=3:top=3", "greedy", "random", "greedy"], 8, 1, stop
    )

    def searched(g: FairyTaleGame) -> tuple[int, list]:
        g.record = True
        g.events = []
        i = g.search_decide(*args)
        return i, g.events

    base = searched(game.clone())
    top = game.pos.top
    variants = []
    v = game.clone()
    v.deck[top:] = v.deck[top:][::-1]
    variants.append(v)
    v = game.clone()
    drafting = game.pos.phase == Phase.DRAFT
    if drafting and v.players[1].kept and v.players[1].kept[0][0] != v.deck[top]:
        c, pick = v.players[1].kept[0]  # taken from a hand seat 0 had not seen
        v.players[1].kept[0] = (v.deck[top], pick)
        v.players[1].received[pick].card = v.deck[top]
        v.deck[top] = c
        variants.append(v)
    if game.pos.phase == Phase.DRAFT:
        seen = {game.row_of(0, s) for s in range(game.pos.step + 1)}
        for h in range(4):
            if h not in seen and game.rows[h]:
                v = game.clone()
                v.rows[h][0], v.deck[top] = v.deck[top], v.rows[h][0]
                variants.append(v)
                break
    for k, x in enumerate(game.players[1].received):
        if x.slot < 0 and x.round < game.pos.round + 1:  # a discard of an earlier round
            v = game.clone()
            v.players[1].received[k].card, v.deck[top] = v.deck[top], x.card
            variants.append(v)
            break
    assert len(variants) >= 2
    for v in variants:
        assert searched(v) == base


# --- streams ---------------------------------------------------------------------------------


def test_mc_budget_changes_nothing_in_the_deal(cards: CardSet) -> None:
    """Stream separation: with mc at different budgets in seat 0 the deck is shuffled and
    dealt the same, so the other seats' first hands are the same (kernel and reference)."""
    decks, deals = [], []
    for spec in ("greedy", "mc:rollouts=1:top=2", "mc:rollouts=3:top=3"):
        prep = prepared("fairy-tale", "expert", [spec, "greedy", "greedy", "random"])
        tb = prep.tables
        s = fresh_state(prep, 4)
        kernel.play_game(tb, prep.weights, s, 4, np.uint64(2), 4, False)
        decks.append(s.flat[DECK : DECK + len(prep.tables.deck)].tolist())
        codes, searches = prep.reference_seats(4, Search)
        game = play_reference(Rules(cards, "expert"), prep.weights, codes, 2, 4, True, searches)
        deals.append([e for e in game.events if e["event"] == "deal"])
    assert decks[0] == decks[1] == decks[2]
    assert deals[0] == deals[1] == deals[2]
    assert deals[0][1]["round"] == 1
