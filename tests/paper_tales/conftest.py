"""Shared helpers for the Paper Tales tests, base game and Legends (tests can't import each
other under ``--import-mode=importlib``, so helpers are handed out as fixtures).

* ``cards``    - the built-in card set (loaded once per session).
* ``legends``  - the Legends card set (loaded once per session).
* ``cardsets`` - both by variant name, ``cardsets["legends"]`` (tests parametrised by variant).
* ``seat``     - ``seat("knight commander+1", "archer", mine=2, gold=3)`` -> one player's JSON:
                 units separated by spaces, ``+n`` = n age tokens; first the Front row,
                 then the Back row; buildings and gold/lp as keywords.
* ``seats_file`` - ``seats_file(seat0, seat1, ...)`` -> the path of that JSON end state.
* ``score``    - ``score(seat0, seat1, ...)`` -> the ``score_state`` result (seats in order),
                 checked equal to ``score_state_reference``'s (the compiled scoring against
                 the rulebook, on every position a scoring test builds).
* ``table``    - ``table(players=3, policies="greedy", seed=1, **options)`` -> a ``Table``: a
                 reference ``Game`` after setup (turn 1) with helpers that move real cards
                 from the draw pile onto spots, into hands or into buildings, so the phase
                 code of ``reference/`` runs on a constructed position and card conservation
                 holds; ``Table.place`` lays a seat's position out in the words of ``seat``
                 (``t = table().place(0, "knight commander+1", "archer", mine=2)``).
* ``ltable``   - the same on the Legends card set: the game is in its Deployment phase, its
                 seats build every building of the catalog's base and Legends pools (and
                 Port and Abbey with ``use_port_abbey=True``), and the helpers also move
                 artifacts into the zone.
* ``kgames``   - the kernel game driven from Python (``KGame``: a game of the search kernel
                 stopped at each mc or learned decision, its search, its learned answer), and
                 the no-peeking helpers: ``stopped``, the ``at_*`` stops, ``hidden_changes``
                 (copies that differ only in what the asking seat cannot see).

The Legends tests are the files ``test_legends_*.py`` and the cases whose id names the
Legends variant: ``tests/conftest.py`` sends them to an xdist group of their own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

from talesim.simcore.games.paper_tales import layout
from talesim.simcore.games.paper_tales.engine import score_state, score_state_reference, search_args
from talesim.simcore.games.paper_tales.kernel import game as kgame
from talesim.simcore.games.paper_tales.kernel import search as ks
from talesim.simcore.games.paper_tales.kernel import state as kst
from talesim.simcore.games.paper_tales.learned import learned_choice, new_scratch
from talesim.simcore.games.paper_tales.policies import POLICY_NAMES, default_weights
from talesim.simcore.games.paper_tales.reference import CardLog, Game, Rules, Slot, ZoneCard
from talesim.simcore.games.paper_tales.tables import BACK_ROW, FRONT_ROW, CardSet, load_cardset


def _row(text: str) -> list[dict[str, Any]]:
    out = []
    for token in text.split():
        unit, _, age = token.partition("+")
        out.append({"unit": unit, "age": int(age or 0)})
    return out


def make_seat(front: str = "", back: str = "", **kw: int) -> dict[str, Any]:
    """One player's JSON: ``kw`` holds building levels, and ``gold``/``lp``."""
    player: dict[str, Any] = {"front": _row(front), "back": _row(back)}
    buildings = {k: v for k, v in kw.items() if k not in ("gold", "lp")}
    if buildings:
        player["buildings"] = buildings
    for key in ("gold", "lp"):
        if key in kw:
            player[key] = kw[key]
    return player


@pytest.fixture(scope="session")
def cards() -> CardSet:
    return load_cardset()


@pytest.fixture(scope="session")
def legends() -> CardSet:
    return load_cardset(variant="legends")


@pytest.fixture(scope="session")
def cardsets(cards: CardSet, legends: CardSet) -> dict[str, CardSet]:
    return {"base": cards, "legends": legends}


@pytest.fixture
def seat() -> Callable[..., dict[str, Any]]:
    return make_seat


@pytest.fixture
def seats_file(state_file: Callable[[Any], Path]) -> Callable[..., Path]:
    """``seats_file(seat0, seat1, ...)``: a JSON end state of these seats, written to a file."""
    return lambda *seats: state_file({"players": list(seats)})


@pytest.fixture
def score(cards: CardSet) -> Callable[..., dict[str, Any]]:
    def run(*seats: dict[str, Any]) -> dict[str, Any]:
        result = score_state({"players": list(seats)}, cards)
        assert result == score_state_reference({"players": list(seats)}, cards)
        return result

    return run


class Table:
    """A reference game after setup, with helpers to build a position from real cards (units
    and, in a Legends game, artifacts)."""

    def __init__(self, cards: CardSet, players: int, policies: str, seed: int, **options: Any):
        if options:
            opts = dict(cards.rules.options, **options)
            cards = dataclasses.replace(cards, rules=dataclasses.replace(cards.rules, options=opts))
        self.rules = Rules(cards, players)
        names = policies.split(",") if "," in policies else [policies] * players
        codes = [POLICY_NAMES.index(n) for n in names]
        self.game = Game(self.rules, default_weights(), codes, seed, 0, record=True)
        self.game.setup()
        if cards.legends:
            pools = (
                ("base", "legends", "integral")
                if options.get("use_port_abbey")
                else ("base", "legends")
            )
            self.game.bset = [b for b, bd in enumerate(cards.buildings) if bd.pool in pools]
            self.game.phase = "deployment"
        self.game.turn = 1
        self.game.freeze_strengths()

    def take(self, cid: str) -> int:
        """Remove a card (unit or artifact id) from the draw pile (its top-most copy)."""
        g = self.game
        for i in range(len(g.deck) - 1, -1, -1):
            if g.rules.card_id(g.deck[i]) == cid:
                return g.deck.pop(i)
        raise LookupError(f"no {cid} left in the draw pile")

    def _log(self, p: int, card: int) -> CardLog:
        kind = "artifact" if self.rules.is_artifact(card) else "unit"
        return self.game.players[p].receive(
            CardLog(card, self.rules.card_id(card), self.game.turn, 1, kind=kind)
        )

    def put(self, p: int, spot: int, unit: str, age: int = 0, fresh: bool = False) -> Slot:
        """A unit on seat ``p``'s ``spot`` (``fresh``: placed this phase, not revealed)."""
        card = self.take(unit)
        log = self._log(p, card)
        log.deployed, log.fate = not fresh, "in_play" if not fresh else "hand"
        slot = Slot(card, age=age, fresh=fresh, resolved=not fresh)
        self.game.players[p].spots[spot] = slot
        return slot

    def place(
        self, p: int, front: str = "", back: str = "", arts: str = "", **levels: int
    ) -> Table:
        """Seat ``p``'s position in the words of the ``seat`` fixture: the units of ``front``
        on the Front spots in order (0, 1, then the extra 2) and those of ``back`` on the
        Back spots (3, 4), ``+n`` = n age tokens, ``.`` = an empty spot; the artifacts of
        ``arts`` in the zone; buildings at ``levels`` (``build``). The table, to go on."""
        for spots, row in ((FRONT_ROW, front), (BACK_ROW, back)):
            tokens = row.split()
            assert len(tokens) <= len(spots), row
            for spot, token in zip(spots, tokens, strict=False):
                unit, _, age = token.partition("+")
                if unit != ".":
                    self.put(p, spot, unit, age=int(age or 0))
        for artifact in arts.split():
            self.art(p, artifact)
        self.build(p, **levels)
        return self

    def art(self, p: int, artifact: str, placed: bool = False) -> ZoneCard:
        """An artifact in seat ``p``'s zone (``placed``: face down this phase, unpaid)."""
        card = self.take(artifact)
        log = self._log(p, card)
        if not placed:
            log.deployed, log.fate, log.row = True, "in_zone", "zone"
        z = ZoneCard(card, self.rules.artifact_of(card), fresh=placed, paid=not placed)
        self.game.players[p].zone.append(z)
        return z

    def hand(self, p: int, *cids: str) -> list[int]:
        cards = [self.take(c) for c in cids]
        for c in cards:
            self._log(p, c)
        self.game.players[p].hand = cards
        return cards

    def build(self, p: int, **levels: int) -> None:
        """Buildings at these levels (a keyword's ``_`` stands for the id's ``-``)."""
        pl = self.game.players[p]
        for name, lv in levels.items():
            b = self.rules.cards.building_index[name.replace("_", "-")]
            pl.blevel[b] = lv
            pl.buildings[b].level = lv

    def seat(self, p: int):
        return self.game.players[p]

    def units(self, p: int) -> list[tuple[str, int] | None]:
        """(unit id, age) per spot."""
        return [
            (self.rules.card_id(sl.card), sl.age) if sl is not None else None
            for sl in self.game.players[p].spots
        ]

    def zone(self, p: int) -> list[str]:
        return [self.rules.card_id(z.card) for z in self.game.players[p].zone]

    def event(self, kind: str, p: int) -> dict[str, Any]:
        """Seat ``p``'s latest event of ``kind``."""
        return next(e for e in reversed(self.game.events) if e["event"] == kind and e["seat"] == p)

    def reveal(self) -> None:
        """Legends: payment then the tiers, every seat (the Deployment phase after placement)."""
        for p in range(self.game.n):
            self.game.pay_legends(p)
        self.game.tiers()

    def wars(self, p: int = 0) -> dict[str, Any]:
        """Run the Wars phase; seat ``p``'s event (strength, against, won, lp, gold)."""
        self.game.wars()
        return self.event("wars", p)

    def income(self, p: int = 0) -> int:
        """Run the Income phase; the gold seat ``p`` gained."""
        before = self.seat(p).gold
        self.game.income()
        return self.seat(p).gold - before

    def aging(self, p: int = 0) -> dict[str, Any]:
        """Run the Aging phase; seat ``p``'s event (saved, died, lp, gold)."""
        self.game.aging()
        return self.event("aging", p)

    def end(self, p: int = 0) -> dict[str, int]:
        """Run the End; seat ``p``'s LP parts."""
        self.game.end()
        return self.seat(p).parts

    def end_buildings(self, p: int = 0) -> int:
        """Run the End; seat ``p``'s building LP."""
        return self.end(p)["buildings"]

    def level(self, p: int, building: str) -> int:
        return self.game.players[p].blevel[self.rules.cards.building_index[building]]


@pytest.fixture
def table(cards: CardSet) -> Callable[..., Table]:
    def make(players: int = 3, policies: str = "greedy", seed: int = 1, **options: Any) -> Table:
        return Table(cards, players, policies, seed, **options)

    return make


@pytest.fixture
def ltable(legends: CardSet) -> Callable[..., Table]:
    def make(players: int = 3, policies: str = "greedy", seed: int = 1, **options: Any) -> Table:
        return Table(legends, players, policies, seed, **options)

    return make


# --- the kernel game from Python (test_mc.py, test_learned.py) -------------------------------


class KGame:
    """A kernel game with its copies and search scratch, seats as ``_run_block_search``
    sets them (the search kernel's arguments: ``engine.search_args``, the packed models)."""

    def __init__(self, prep: Any, seed: int, g: int) -> None:
        self.prep, self.seed, self.g, self.n = prep, np.uint64(seed), g, prep.players
        self.tb, self.lx, self.weights = search_args(prep)
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
        self.ml = ks.new_search(self.n, D)  # the learned choices' scratch
        self.x = new_scratch()
        self.models = prep.packed_models()
        table, seat_slot = prep.slot_table()
        for p in range(self.n):
            slot = int(seat_slot[(p + g) % self.n] if prep.rotate_seats else seat_slot[p])
            self.s.pi[p, layout.I_POLICY] = table[slot, 0]
            self.s.pi[p, layout.I_MODEL] = table[slot, 4]
            self.ms.par[p] = table[slot, 1:4]
        kgame.new_game(self.tb, self.lx, self.s, self.ls, self.n, self.seed, g, False)

    def advance(self) -> bool:
        """Play on: True when stopped at an mc or learned seat's decision."""
        return bool(ks.advance(self.tb, self.lx, self.weights, self.s, self.ls, self.n))

    def decide(self) -> tuple[int, list[int]]:
        """The search of the decision the game stopped at: (choice, summed outcomes)."""
        i = ks.decide(
            self.tb, self.lx, self.weights, self.models, self.s, self.ls, self.w, self.wl,
            self.c, self.cl, self.ms, self.ml, self.x, self.n, self.seed, self.g,
        )  # fmt: skip
        p = int(self.s.g[layout.G_ASK_SEAT])
        return int(i), [int(x) for x in self.ms.sums[: int(self.ms.par[p, 1])]]

    def learned(self) -> int:
        """The learned seat's answer to the decision the game stopped at (its model)."""
        tables = (self.tb, self.lx, self.weights, self.models)
        return int(learned_choice(*tables, self.s, self.ls, self.ml, self.x, self.n))

    def asker(self) -> int:
        """The seat whose decision the game stopped at."""
        return int(self.s.g[layout.G_ASK_SEAT])

    def answer(self, i: int) -> None:
        self.s.g[layout.G_FORCE_SEAT] = self.s.g[layout.G_ASK_SEAT]
        self.s.g[layout.G_FORCE_IDX] = i

    def clone(self) -> KGame:
        out = object.__new__(KGame)
        out.__dict__.update(self.__dict__)
        out.s = type(self.s)(*[a.copy() for a in self.s])
        out.ls = type(self.ls)(*[a.copy() for a in self.ls]) if self.ls is not None else None
        out.ms = type(self.ms)(*[a.copy() for a in self.ms])
        return out


def stopped(prep: Any, seed: int, g: int, want: Callable[[KGame], bool]) -> KGame:
    """The kernel game stopped at the first mc or learned decision ``want(game)`` accepts
    (the earlier ones searched or scored, and answered)."""
    k = KGame(prep, seed, g)
    while k.advance():
        if want(k):
            return k
        learned = k.s.pi[k.asker(), layout.I_POLICY] == layout.P_LEARNED
        k.answer(k.learned() if learned else k.decide()[0])
    raise AssertionError("no such decision")


def at_draft(k: KGame) -> bool:
    """A draft pick after the first step."""
    return int(k.s.g[layout.G_ASK_DEC]) == layout.D_DRAFT and int(k.s.g[layout.G_STEP]) >= 2


def at_deploy(k: KGame) -> bool:
    """A deployment step from turn 2 on, after a seat before the asking one placed a card."""
    s = k.s
    placed = any(s.sp[q, spot, layout.S_FRESH] and s.sp[q, spot, layout.S_CARD] >= 0
                 for q in range(k.asker()) for spot in range(s.sp.shape[1]))  # fmt: skip
    return int(s.g[layout.G_ASK_DEC]) == layout.D_DEPLOY and placed and int(s.g[layout.G_TURN]) >= 2


def at_build(k: KGame) -> bool:
    """A construction choice from turn 2 on."""
    return int(k.s.g[layout.G_ASK_DEC]) == layout.D_BUILD and int(k.s.g[layout.G_TURN]) >= 2


def swap_with_deck(k: KGame, get: Any, put: Any, q: int) -> KGame:
    """A copy in which the card ``get(state)`` (held by seat ``q``, or -1: a pile) and a
    draw-pile card of another unit trade places (a held card's log row stays with it)."""
    c = k.clone()
    s = c.s
    card = get(s)
    units = k.tb.deck
    i = next(i for i in range(int(s.g[layout.G_DECK_N])) if units[s.deck[i]] != units[card])
    other = int(s.deck[i])
    s.deck[i] = card
    put(s, other)
    if q >= 0:
        row = s.card_log[card]
        s.card_log[other] = row
        s.log[q, row, layout.L_CARD] = other
        s.log[q, row, layout.L_UNIT] = units[other]
    return c


def hidden_changes(k: KGame) -> list[KGame]:
    """Copies of ``k`` that differ only in what the asking seat cannot see."""
    s = k.s
    seat = k.asker()
    out = []
    c = k.clone()
    n = int(s.g[layout.G_DECK_N])
    c.s.deck[:n] = s.deck[:n][::-1]
    out.append(c)
    q = 0 if seat != 0 else 1
    if int(s.g[layout.G_PHASE]) == 0:  # a pack the seat has not seen (seat 3's, passing left)
        for h in range(k.n):
            if h != seat and s.pi[h, layout.I_PACK_N] > 0 and h != (seat + 1) % k.n:

                def put(st: Any, card: int, h: int = h) -> None:
                    st.packs[h, 0] = card

                out.append(swap_with_deck(k, lambda st, h=h: int(st.packs[h, 0]), put, -1))
                break
    if int(s.g[layout.G_PHASE]) == 0 and s.pi[q, layout.I_DRAFT_N] > 0:  # its picks this turn

        def put_pick(st: Any, card: int) -> None:
            st.drafted[q, 0] = card

        out.append(swap_with_deck(k, lambda st: int(st.drafted[q, 0]), put_pick, q))
    if s.pi[q, layout.I_HAND_N] > 0:

        def put_hand(st: Any, card: int) -> None:
            st.hand[q, 0] = card

        out.append(swap_with_deck(k, lambda st: int(st.hand[q, 0]), put_hand, q))
    if s.pi[q, layout.I_KEPT] >= 0:

        def put_kept(st: Any, card: int) -> None:
            st.pi[q, layout.I_KEPT] = card

        out.append(swap_with_deck(k, lambda st: int(st.pi[q, layout.I_KEPT]), put_kept, q))
    for spot in range(s.sp.shape[1]):
        if s.sp[q, spot, layout.S_CARD] >= 0 and s.sp[q, spot, layout.S_FRESH]:

            def put_spot(st: Any, card: int, spot: int = spot) -> None:
                st.sp[q, spot, layout.S_CARD] = card
                st.sp[q, spot, layout.S_UNIT] = k.tb.deck[card]

            get = lambda st, spot=spot: int(st.sp[q, spot, layout.S_CARD])  # noqa: E731
            out.append(swap_with_deck(k, get, put_spot, q))
            break
    for i in range(int(s.g[layout.G_DISC_N])):
        if s.disc_by[i] >= 0 and s.disc_by[i] != seat:

            def put_disc(st: Any, card: int, i: int = i) -> None:
                st.disc[i] = card

            out.append(swap_with_deck(k, lambda st, i=i: int(st.disc[i]), put_disc, -1))
            break
    return out


class KernelGames(NamedTuple):
    """The kernel game helpers above (``kgames`` fixture)."""

    KGame: type[KGame]
    stopped: Callable[..., KGame]
    at_draft: Callable[[KGame], bool]
    at_deploy: Callable[[KGame], bool]
    at_build: Callable[[KGame], bool]
    swap_with_deck: Callable[..., KGame]
    hidden_changes: Callable[[KGame], list[KGame]]


@pytest.fixture(scope="session")
def kgames() -> KernelGames:
    return KernelGames(
        KGame, stopped, at_draft, at_deploy, at_build, swap_with_deck, hidden_changes
    )
