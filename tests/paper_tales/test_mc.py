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
* stream separation: a search never draws from the game's stream;
* the same results whatever the chunk size or thread count;
* spec errors through the CLI; the dataset names the spec; the narration of a search.
"""

from __future__ import annotations

import functools
from typing import Any

import numba
import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from cli.main import app
from simcore import engine_kit
from simcore.games.paper_tales import engine, schema
from simcore.games.paper_tales.engine import (
    GAME,
    frame_mismatch,
    kernel_args,
    prepare,
    reference_frames,
    simulate_arrays,
)
from simcore.games.paper_tales.kernel import game as kgame
from simcore.games.paper_tales.kernel import search as ks
from simcore.games.paper_tales.kernel import state as kst
from simcore.games.paper_tales.reference import Game, Rules
from simcore.games.paper_tales.reference.search import Search
from simcore.games.paper_tales.tables import CardSet

run_chunk = functools.partial(engine_kit.run_chunk, engine)

SMALL = "mc:rollouts=2:top=2"


def prepared(cards: CardSet, variant: str, specs: list[str], rotate: bool = False) -> Any:
    return prepare(cards, variant, len(specs), list(GAME.canonical_policies(specs)), rotate)


# --- the kernel game from Python ---------------------------------------------------------


class KGame:
    """A kernel game with its copies and search scratch, seats as ``_run_block_search``
    sets them."""

    def __init__(self, prep: Any, seed: int, g: int) -> None:
        self.prep, self.seed, self.g, self.n = prep, np.uint64(seed), g, prep.players
        self.tb, self.lx = kernel_args(prep)
        D, B = self.tb.deck.shape[0], self.tb.bt.shape[0]
        U = self.tb.ut.shape[0] + (self.lx.xt.shape[0] if self.lx is not None else 0)
        self.s = kst._new_state(self.n, D, B, U)
        self.w = kst._new_state(self.n, D, B, U)
        self.c = kst._new_state(self.n, D, B, U)
        legends = self.lx is not None
        self.ls = kst._new_lstate(self.n, B) if legends else None
        self.wl = kst._new_lstate(self.n, B) if legends else None
        self.cl = kst._new_lstate(self.n, B) if legends else None
        self.ms = ks.new_search(self.n, D)
        table, seat_slot = prep.slot_table()
        for p in range(self.n):
            slot = int(seat_slot[(p + g) % self.n] if prep.rotate_seats else seat_slot[p])
            self.s.pi[p, schema.I_POLICY] = table[slot, 0]
            self.ms.par[p] = table[slot, 1:4]
        kgame.new_game(self.tb, self.lx, self.s, self.ls, self.n, self.seed, g, False)

    def advance(self) -> bool:
        """Play on: True when stopped at an mc seat's decision."""
        return bool(ks.advance(self.tb, self.lx, self.prep.weights, self.s, self.ls, self.n))

    def decide(self) -> tuple[int, list[int]]:
        """The search of the decision the game stopped at: (choice, summed outcomes)."""
        i = ks.decide(
            self.tb, self.lx, self.prep.weights, self.s, self.ls, self.w, self.wl, self.c,
            self.cl, self.ms, self.n, self.seed, self.g,
        )  # fmt: skip
        p = int(self.s.g[schema.G_ASK_SEAT])
        return int(i), [int(x) for x in self.ms.sums[: int(self.ms.par[p, 1])]]

    def answer(self, i: int) -> None:
        self.s.g[schema.G_FORCE_SEAT] = self.s.g[schema.G_ASK_SEAT]
        self.s.g[schema.G_FORCE_IDX] = i

    def clone(self) -> KGame:
        out = object.__new__(KGame)
        out.__dict__.update(self.__dict__)
        out.s = type(self.s)(*[a.copy() for a in self.s])
        out.ls = type(self.ls)(*[a.copy() for a in self.ls]) if self.ls is not None else None
        out.ms = type(self.ms)(*[a.copy() for a in self.ms])
        return out


def stopped(prep: Any, seed: int, g: int, want: Any) -> KGame:
    """The kernel game stopped at the first mc decision ``want(game)`` accepts (the
    earlier ones searched and answered)."""
    k = KGame(prep, seed, g)
    while k.advance():
        if want(k):
            return k
        k.answer(k.decide()[0])
    raise AssertionError("no such decision")


# --- resumable games ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["base", "legends"])
def test_a_game_that_can_stop_plays_the_heuristics_games(cards: CardSet, variant: str) -> None:
    """Resumable games: with heuristic seats, the search kernel's ``_play_on`` never stops
    and plays the games of ``play_game`` (every per-seat and per-card record)."""
    prep = prepared(cards, variant, ["greedy", "random", "warlord", "builder"])
    for g in range(3):
        k = KGame(prep, 11, g)
        assert not k.advance()
        ref = KGame(prep, 11, g)
        kgame.play_game(k.tb, k.lx, prep.weights, ref.s, ref.ls, 4, np.uint64(11), g, False)
        for name in ("pi", "parts", "sp", "blevel", "blog", "log", "g"):
            np.testing.assert_array_equal(
                getattr(k.s, name), getattr(ref.s, name), err_msg=f"{name} {g}"
            )


def test_a_copy_at_a_decision_plays_on_to_the_same_end(cards: CardSet) -> None:
    """Resumable games: at the stops of a game with an mc seat (draft picks, deployment
    steps, construction), a copy answered the same way plays on to the same end."""
    prep = prepared(cards, "base", ["greedy", SMALL, "random"])
    k = KGame(prep, 5, 2)
    answers: list[int] = []
    copies: list[tuple[KGame, int]] = []
    asked = set()
    while k.advance():
        asked.add(int(k.s.g[schema.G_ASK_DEC]))
        copies.append((k.clone(), len(answers)))
        i, _ = k.decide()
        answers.append(i)
        k.answer(i)
    assert len(answers) >= 20
    assert asked == {schema.D_DRAFT, schema.D_DEPLOY, schema.D_BUILD}
    for c, first in copies[:: max(1, len(copies) // 6)]:
        for i in answers[first:]:
            c.answer(i)
            if not c.advance():
                break
        for name in ("pi", "parts", "sp", "blevel", "log"):
            np.testing.assert_array_equal(getattr(c.s, name), getattr(k.s, name), err_msg=name)


# --- kernel = reference ---------------------------------------------------------------------

MC_CASES = [
    ("base", [SMALL, "greedy", "random"], 2),
    ("base", ["warlord", SMALL], 1),
    ("legends", [SMALL, "greedy", "builder"], 1),
    ("legends", ["greedy", "mc:rollouts=2:top=3:playout=random", "random", SMALL], 1),
]


@pytest.mark.parametrize(("variant", "specs", "games"), MC_CASES)
def test_mc_kernel_equals_reference(
    cards: CardSet, variant: str, specs: list[str], games: int
) -> None:
    """The kernel and reference.py play the same games with mc seats (same searches, same
    streams), seats rotated: every table of the dataset is equal, and ``seats.policy``
    names each seat's spec."""
    prep = prepared(cards, variant, specs, rotate=True)
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


def _at_draft(k: KGame) -> bool:
    return int(k.s.g[schema.G_ASK_DEC]) == schema.D_DRAFT and int(k.s.g[schema.G_STEP]) >= 2


def _at_deploy(k: KGame) -> bool:
    s = k.s
    placed = any(s.sp[q, spot, schema.S_FRESH] and s.sp[q, spot, schema.S_CARD] >= 0
                 for q in range(SEARCHER) for spot in range(s.sp.shape[1]))  # fmt: skip
    return int(s.g[schema.G_ASK_DEC]) == schema.D_DEPLOY and placed and int(s.g[schema.G_TURN]) >= 2


def _at_build(k: KGame) -> bool:
    return int(k.s.g[schema.G_ASK_DEC]) == schema.D_BUILD and int(k.s.g[schema.G_TURN]) >= 2


def _swap_with_deck(k: KGame, get: Any, put: Any, q: int) -> KGame:
    """A copy in which the card ``get(state)`` (held by seat ``q``, or -1: a pile) and a
    draw-pile card of another unit trade places (a held card's log row stays with it)."""
    c = k.clone()
    s = c.s
    card = get(s)
    units = k.tb.deck
    i = next(i for i in range(int(s.g[schema.G_DECK_N])) if units[s.deck[i]] != units[card])
    other = int(s.deck[i])
    s.deck[i] = card
    put(s, other)
    if q >= 0:
        row = s.card_log[card]
        s.card_log[other] = row
        s.log[q, row, schema.L_CARD] = other
        s.log[q, row, schema.L_UNIT] = units[other]
    return c


def hidden_changes(k: KGame) -> list[KGame]:
    """Copies of ``k`` that differ only in what the searching seat cannot see."""
    s = k.s
    out = []
    c = k.clone()
    n = int(s.g[schema.G_DECK_N])
    c.s.deck[:n] = s.deck[:n][::-1]
    out.append(c)
    q = 0 if SEARCHER != 0 else 1
    if int(s.g[schema.G_PHASE]) == 0:  # a pack the seat has not seen (seat 3's, passing left)
        for h in range(k.n):
            if h != SEARCHER and s.pi[h, schema.I_PACK_N] > 0 and h != (SEARCHER + 1) % k.n:

                def put(st: Any, card: int, h: int = h) -> None:
                    st.packs[h, 0] = card

                out.append(_swap_with_deck(k, lambda st, h=h: int(st.packs[h, 0]), put, -1))
                break
    if int(s.g[schema.G_PHASE]) == 0 and s.pi[q, schema.I_DRAFT_N] > 0:  # its picks this turn

        def put_pick(st: Any, card: int) -> None:
            st.drafted[q, 0] = card

        out.append(_swap_with_deck(k, lambda st: int(st.drafted[q, 0]), put_pick, q))
    if s.pi[q, schema.I_HAND_N] > 0:

        def put_hand(st: Any, card: int) -> None:
            st.hand[q, 0] = card

        out.append(_swap_with_deck(k, lambda st: int(st.hand[q, 0]), put_hand, q))
    if s.pi[q, schema.I_KEPT] >= 0:

        def put_kept(st: Any, card: int) -> None:
            st.pi[q, schema.I_KEPT] = card

        out.append(_swap_with_deck(k, lambda st: int(st.pi[q, schema.I_KEPT]), put_kept, q))
    for spot in range(s.sp.shape[1]):
        if s.sp[q, spot, schema.S_CARD] >= 0 and s.sp[q, spot, schema.S_FRESH]:

            def put_spot(st: Any, card: int, spot: int = spot) -> None:
                st.sp[q, spot, schema.S_CARD] = card
                st.sp[q, spot, schema.S_UNIT] = k.tb.deck[card]

            get = lambda st, spot=spot: int(st.sp[q, spot, schema.S_CARD])  # noqa: E731
            out.append(_swap_with_deck(k, get, put_spot, q))
            break
    for i in range(int(s.g[schema.G_DISC_N])):
        if s.disc_by[i] >= 0 and s.disc_by[i] != SEARCHER:

            def put_disc(st: Any, card: int, i: int = i) -> None:
                st.disc[i] = card

            out.append(_swap_with_deck(k, lambda st, i=i: int(st.disc[i]), put_disc, -1))
            break
    return out


@pytest.mark.parametrize("variant", ["base", "legends"])
@pytest.mark.parametrize("where", [_at_draft, _at_deploy, _at_build])
def test_kernel_search_does_not_peek(cards: CardSet, variant: str, where: Any) -> None:
    """No peeking (kernel): the search at a draft pick, a deployment step and a
    construction choice is the same, playout for playout (equal summed outcomes), in
    every state that differs only in what the seat cannot see."""
    prep = prepared(cards, variant, SPECS)
    k = stopped(prep, 8, 1, where)
    assert int(k.s.g[schema.G_ASK_SEAT]) == SEARCHER
    changed = hidden_changes(k)
    assert len(changed) >= 3
    base = k.clone().decide()
    assert any(base[1])
    for c in changed:
        assert c.decide() == base


def test_kernel_search_sees_what_it_sees(cards: CardSet) -> None:
    """Control for the no-peeking test: the seat's own hand card traded with a draw-pile
    card changes the search's outcomes."""
    prep = prepared(cards, "base", SPECS)
    k = stopped(prep, 8, 1, _at_deploy)

    def put(st: Any, card: int) -> None:
        st.hand[SEARCHER, 0] = card

    c = _swap_with_deck(k, lambda st: int(st.hand[SEARCHER, 0]), put, SEARCHER)
    assert c.decide()[1] != k.clone().decide()[1]


def stopped_reference(prep: Any, seed: int, g: int, decision: str, turn: int) -> tuple[Game, Any]:
    """A copy of the reference game at its mc seat's first ``decision`` of turn ``turn``
    or later, and that seat's ``Search``."""
    codes, searches = prep.reference_seats(g, Search)
    game = Game(Rules(prep.cards, prep.players), prep.weights, codes, seed, g, searches=searches)
    captured: list[Game] = []
    real = Game.search_decide

    def spy(self: Game, search: Any, dec: str, p: int) -> int:
        later = self.turn >= turn and (dec != "draft" or self.step >= 2)
        if not captured and dec == decision and later:
            captured.append(self.clone())
        return real(self, search, dec, p)

    Game.search_decide = spy  # type: ignore[method-assign]
    try:
        game.run()
    finally:
        Game.search_decide = real  # type: ignore[method-assign]
    return captured[0], searches[SEARCHER]


@pytest.mark.parametrize(("decision", "turn"), [("draft", 2), ("deploy", 2), ("build", 1)])
def test_reference_search_does_not_peek(cards: CardSet, decision: str, turn: int) -> None:
    """No peeking (reference.py): the same choice and recorded means from states that
    differ in the draw pile's order and in another seat's hidden cards; a control: the
    seat's own hand or pack changed changes them."""
    prep = prepared(cards, "base", SPECS)
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


def test_the_search_never_draws_from_the_game_stream(cards: CardSet) -> None:
    """Stream separation: a search leaves the game's stream, piles, packs and hands as
    they were (kernel), and the reference game's stream likewise."""
    prep = prepared(cards, "base", SPECS)
    k = stopped(prep, 4, 3, _at_deploy)
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


def test_mc_runs_are_the_same_whatever_the_chunks_and_threads(cards: CardSet) -> None:
    """Same results whatever the chunk size or thread count (the search streams belong to
    (seed, game, seat, decision), not to a block)."""
    prep = prepared(cards, "base", [SMALL, "greedy", "random"], rotate=True)
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simulate_arrays(prep, 9, 0, 6)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
        parts = [simulate_arrays(prep, 9, 0, 2), simulate_arrays(prep, 9, 2, 4)]
    finally:
        numba.set_num_threads(old)
    for key, value in one.items():
        np.testing.assert_array_equal(np.concatenate([p[key] for p in parts]), value, err_msg=key)


# --- the CLI --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("mc:rollouts=0", "rollouts must be between 1 and 1024"),
        ("mc:depth=3", "has no parameter 'depth'"),
        ("mc:playout=mc", "playout must be one of random, greedy, warlord, builder"),
        ("mc:top=two", "top must be an integer"),
    ],
)
def test_bad_mc_specs_are_one_error_line(tmp_path: Any, spec: str, fragment: str) -> None:
    """A bad mc spec: one ``error:`` line naming it, exit 2, no dataset."""
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app,
        ["simulate", "paper-tales", "--games", "4", "--players", "2", "--seed", "1",
         "--policy", f"{spec},greedy", "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error:"), result.output
    assert fragment in lines[0]
    assert not out.exists()


def test_play_narrates_each_search() -> None:
    """``talesim play paper-tales`` shows, at each mc decision, every searched candidate
    with greedy's value, its mean outcome and playout count, and the choice."""
    result = CliRunner().invoke(
        app,
        ["play", "paper-tales", "--seed", "3", "--players", "2", "--policy", f"{SMALL},greedy"],
    )
    assert result.exit_code == 0, result.output
    text = result.output
    for decision in ("draft", "deploy", "build"):
        assert f"seat 0 searches its {decision} decision" in text
    assert "over 2 playouts" in text
    assert "mc:rollouts=2:top=2:playout=warlord" in text
