"""Paper Tales' ``mc`` search policy and the resumable game it needs (kernel/game.py,
kernel/search.py, reference/search.py), both variants.

* resumable: a game that can stop plays the heuristics' games; a copy of a game stopped
  at a decision, answered the same way, plays on to the same end;
* kernel = reference for games with mc seats at a small budget (``rollouts=2:top=2``),
  base and Legends, 2 to 4 players, every dataset table;
* no peeking: states equal in what the seat sees and different in what it cannot see
  (the draw pile's order, another seat's pack, hand, kept card or face-down placement, a
  card another seat discarded face down) give the same search, playout for playout,
  kernel and reference; a control changes one of its own cards;
* stream separation: a search never draws from the game's stream.

What every game's search shares (the same runs whatever the chunks and threads, the CLI's
spec errors, the narration): ``tests/test_engine_conformance.py``.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import polars as pl
import pytest
from kit import SMALL_MC, prepared, watching

from talesim.simcore import engine_kit
from talesim.simcore.games.paper_tales import engine, layout
from talesim.simcore.games.paper_tales.engine import (
    GAME,
    frame_mismatch,
    reference_frames,
    simulate_arrays,
)
from talesim.simcore.games.paper_tales.kernel import game as kgame
from talesim.simcore.games.paper_tales.reference import Game, Rules
from talesim.simcore.games.paper_tales.reference.search import Search

run_chunk = functools.partial(engine_kit.run_chunk, engine)


# --- resumable games ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["base", "legends"])
def test_a_game_that_can_stop_plays_the_heuristics_games(kgames: Any, variant: str) -> None:
    """Resumable games: with heuristic seats, the search kernel's ``_play_on`` never stops
    and plays the games of ``play_game`` (every per-seat and per-card record)."""
    prep = prepared("paper-tales", variant, ["greedy", "random", "warlord", "builder"])
    for g in range(3):
        k = kgames.KGame(prep, 11, g)
        assert not k.advance()
        ref = kgames.KGame(prep, 11, g)
        kgame.play_game(k.tb, k.lx, prep.weights, ref.s, ref.ls, 4, np.uint64(11), g, False)
        for name in ("pi", "parts", "sp", "blevel", "blog", "log", "g"):
            np.testing.assert_array_equal(
                getattr(k.s, name), getattr(ref.s, name), err_msg=f"{name} {g}"
            )


def test_a_copy_at_a_decision_plays_on_to_the_same_end(kgames: Any) -> None:
    """Resumable games: at the stops of a game with an mc seat (draft picks, deployment
    steps, construction), a copy answered the same way plays on to the same end."""
    prep = prepared("paper-tales", "base", ["greedy", SMALL_MC, "random"])
    k = kgames.KGame(prep, 5, 2)
    answers: list[int] = []
    copies: list[tuple[Any, int]] = []
    asked = set()
    while k.advance():
        asked.add(int(k.s.g[layout.G_ASK_DEC]))
        copies.append((k.clone(), len(answers)))
        i, _ = k.decide()
        answers.append(i)
        k.answer(i)
    assert len(answers) >= 20
    assert asked == {layout.D_DRAFT, layout.D_DEPLOY, layout.D_BUILD}
    for c, first in copies[:: max(1, len(copies) // 6)]:
        for i in answers[first:]:
            c.answer(i)
            if not c.advance():
                break
        for name in ("pi", "parts", "sp", "blevel", "log"):
            np.testing.assert_array_equal(getattr(c.s, name), getattr(k.s, name), err_msg=name)


# --- kernel = reference ---------------------------------------------------------------------

MC_CASES = [
    ("base", [SMALL_MC, "greedy", "random"], 2),
    ("base", ["warlord", SMALL_MC], 1),
    ("legends", [SMALL_MC, "greedy", "builder"], 1),
    ("legends", ["greedy", "mc:rollouts=2:top=3:playout=random", "random", SMALL_MC], 1),
]


@pytest.mark.parametrize(("variant", "specs", "games"), MC_CASES)
def test_mc_kernel_equals_reference(variant: str, specs: list[str], games: int) -> None:
    """The kernel and reference/ play the same games with mc seats (same searches, same
    streams), seats rotated: every table of the dataset is equal, and ``seats.policy``
    names each seat's spec."""
    prep = prepared("paper-tales", variant, specs, rotate=True)
    frames = run_chunk(prep, 31, 0, games)
    ref = reference_frames(prep, 31, 0, games)
    for table in ("games", "seats", "cards", "buildings"):
        assert frame_mismatch(frames[table], ref[table], table) is None
    canonical = set(GAME.canonical_policies(specs))
    assert set(frames["seats"]["policy"].cast(pl.String)) == canonical
    assert simulate_arrays(prep, 31, 0, games)["playouts"].sum() > 0


# --- no peeking -----------------------------------------------------------------------------

SEARCHER = 2  # the mc seat: seats 0 and 1 act before it in a step
SPECS = ["greedy", "random", "mc:rollouts=3:top=3", "warlord"]


@pytest.mark.parametrize("variant", ["base", "legends"])
@pytest.mark.parametrize("where", ["draft", "deploy", "build"])
def test_kernel_search_does_not_peek(kgames: Any, variant: str, where: Any) -> None:
    """No peeking (kernel): the search at a draft pick, a deployment step and a
    construction choice is the same, playout for playout (equal summed outcomes), in
    every state that differs only in what the seat cannot see."""
    prep = prepared("paper-tales", variant, SPECS)
    k = kgames.stopped(prep, 8, 1, getattr(kgames, f"at_{where}"))
    assert int(k.s.g[layout.G_ASK_SEAT]) == SEARCHER
    changed = kgames.hidden_changes(k)
    assert len(changed) >= 3
    base = k.clone().decide()
    assert any(base[1])
    for c in changed:
        assert c.decide() == base


def test_kernel_search_sees_what_it_sees(kgames: Any) -> None:
    """Control for the no-peeking test: the seat's own hand card traded with a draw-pile
    card changes the search's outcomes."""
    prep = prepared("paper-tales", "base", SPECS)
    k = kgames.stopped(prep, 8, 1, kgames.at_deploy)

    def put(st: Any, card: int) -> None:
        st.hand[SEARCHER, 0] = card

    c = kgames.swap_with_deck(k, lambda st: int(st.hand[SEARCHER, 0]), put, SEARCHER)
    assert c.decide()[1] != k.clone().decide()[1]


def stopped_reference(prep: Any, seed: int, g: int, decision: str, turn: int) -> tuple[Game, Any]:
    """A copy of the reference game at its mc seat's first ``decision`` of turn ``turn``
    or later, and that seat's ``Search``."""
    codes, searches = prep.reference_seats(g, Search)
    game = Game(Rules(prep.cards, prep.players), prep.weights, codes, seed, g, searches=searches)
    captured: list[Game] = []

    def see(ref: Game, search: Any, dec: str, p: int) -> None:
        later = ref.turn >= turn and (dec != "draft" or ref.step >= 2)
        if not captured and dec == decision and later:
            captured.append(ref.clone())

    with watching(Game, "search_decide", see):
        game.run()
    return captured[0], searches[SEARCHER]


@pytest.mark.parametrize(("decision", "turn"), [("draft", 2), ("deploy", 2), ("build", 1)])
def test_reference_search_does_not_peek(decision: str, turn: int) -> None:
    """No peeking (reference/): the same choice and recorded means from states that
    differ in the draw pile's order and in another seat's hidden cards; a control: the
    seat's own hand or pack changed changes them."""
    prep = prepared("paper-tales", "base", SPECS)
    game, search = stopped_reference(prep, 8, 1, decision, turn)

    def searched(g: Game) -> tuple[int, list]:
        g.record, g.events = True, []
        g.search_count = list(game.search_count)
        g.searches = [None] * g.n
        i = g.search_decide(search, decision, SEARCHER)
        return i, g.events

    base = searched(game.clone())
    assert base[1][0]["candidates"][0]["playouts"] == 3
    variants = []
    v = game.clone()
    v.deck.reverse()
    variants.append(v)
    q = 0
    v = game.clone()
    held = v.players[q].hand or ([v.players[q].kept] if v.players[q].kept is not None else [])
    if held:
        card = held[0]
        i = next(i for i, d in enumerate(v.deck) if v.rules.unit_of[d] != v.rules.unit_of[card])
        other = v.deck[i]
        v.deck[i] = card
        if v.players[q].hand:
            v.players[q].hand[0] = other
        else:
            v.players[q].kept = other
        v.players[q].log[other] = v.players[q].log.pop(card)
        variants.append(v)
    assert len(variants) >= 2
    for v in variants:
        assert searched(v) == base
    v = game.clone()
    own = v.packs[SEARCHER] if decision == "draft" else v.players[SEARCHER].hand
    if decision != "build":
        card = own[0]
        i = next(i for i, d in enumerate(v.deck) if v.rules.unit_of[d] != v.rules.unit_of[card])
        own[0], v.deck[i] = v.deck[i], card
        if decision == "deploy":
            v.players[SEARCHER].log[own[0]] = v.players[SEARCHER].log.pop(card)
    else:
        v.players[SEARCHER].gold += 5
    assert searched(v)[1] != base[1]


# --- streams ---------------------------------------------------------------------------------


def test_the_search_never_draws_from_the_game_stream(kgames: Any) -> None:
    """Stream separation: a search leaves the game's stream, piles, packs and hands as
    they were (kernel), and the reference game's stream likewise."""
    prep = prepared("paper-tales", "base", SPECS)
    k = kgames.stopped(prep, 4, 3, kgames.at_deploy)
    before = k.clone()
    k.decide()
    for name in ("rng", "deck", "disc", "packs", "hand", "sp", "pi"):
        np.testing.assert_array_equal(getattr(k.s, name), getattr(before.s, name), err_msg=name)
    game, search = stopped_reference(prep, 4, 3, "draft", 1)
    state = game.rng.state
    deck = list(game.deck)
    game.search_decide(search, "draft", SEARCHER)
    assert game.rng.state == state
    assert game.deck == deck
