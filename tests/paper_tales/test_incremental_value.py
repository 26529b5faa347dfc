"""A decision's options are valued from one first pass over the seat's pieces (the kernel's
``_sketch_base``): each option takes back the share of the piece it changes and adds the
new one (``_changed_pass``). Every option must get the very float ``evaluate.value`` gives
the option's sketch built in full (``_sketch_move``), on random positions: old and fresh
units, pending ones (projection: Time Master-like tokens, Golem), units past the records'
tokens, two cards of one unit in hand, every building configuration, 2 and 4 players,
every valuing policy. The same for ``card_value`` (draft, keep), whose options add a
virtual piece."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from talesim.simcore.games.paper_tales import evaluate as ev
from talesim.simcore.games.paper_tales import kernel as k
from talesim.simcore.games.paper_tales import layout
from talesim.simcore.games.paper_tales.policies import F_STRENGTH, W_UNAFFORDABLE, default_weights
from talesim.simcore.games.paper_tales.tables import (
    MAX_BUILD_OPTIONS,
    MAX_DEPLOY_OPTIONS,
    MAX_FRONT,
    MAX_HAND,
    U_COST,
    CardSet,
    compile_tables,
)


@njit
def _deploy_values(tb, weights, s, n_players, out):
    """(incremental, full) value of every deployment option of seat 0; the option count."""
    n_opt = k.moves(tb, s, 0)
    n0, others = k._sketch_base(tb, s, 0)
    for i in range(n_opt):
        kind, a, b = s.opt[i, 0], s.opt[i, 1], s.opt[i, 2]
        out[i, 0] = k._step_value(tb, weights, s, 0, n0, others, kind, a, b, n_players)
    for i in range(n_opt):
        n, gold = k._sketch_move(s, 0, s.opt[i, 0], s.opt[i, 1], s.opt[i, 2], tb)
        out[i, 1] = k._value(tb, weights, s, 0, n, gold, n_players)
    return n_opt


@njit
def _added_value(tb, weights, s, u, spot, n_players):
    """``value`` of seat 0's kingdom with unit ``u`` added on ``spot``, pending and fresh,
    its cost paid: the whole sketch valued in full."""
    n = k._load(s, 0)
    s.pc[n, layout.PC_SPOT] = spot
    s.pc[n, layout.PC_UNIT] = u
    s.pc[n, layout.PC_AGE] = 0
    s.pc[n, layout.PC_PENDING] = 1
    s.pc[n, layout.PC_FRESH] = 1
    gold = s.pi[0, k.I_GOLD] - tb.ut[u, U_COST]
    return k._value(tb, weights, s, 0, n + 1, gold, n_players)


@njit
def _card_values(tb, weights, s, n_players, out):
    """(``card_value`` of every unit from one base sketch, as a draft pick values its pack,
    the same built in full) for seat 0."""
    ut = tb.ut
    n0, others = k._sketch_base(tb, s, 0)
    for u in range(ut.shape[0]):
        out[u, 0] = k._card_value_from(tb, weights, s, 0, u, n0, others, n_players)
    for u in range(ut.shape[0]):
        best = -np.inf
        for spot in (0, k.BACK0):
            best = max(best, _added_value(tb, weights, s, u, spot, n_players))
        if ut[u, U_COST] > s.pi[0, k.I_GOLD]:
            best -= weights[s.pi[0, k.I_POLICY], W_UNAFFORDABLE]
        out[u, 1] = best


def _position(s: k.State, tb: tuple, rng: np.random.Generator, max_age: int) -> None:
    """Seat 0: random units on random spots (old or placed this phase, pending or not),
    a hand of 1-6 cards, gold, levels, turn, neighbour strengths and policy."""
    deck, ut = tb.deck, tb.ut
    s.sp[0] = -1
    for spot in rng.permutation(5)[: rng.integers(0, 6)]:
        card = int(rng.integers(0, deck.shape[0]))
        fresh = int(rng.random() < 0.4)
        resolved = 0 if fresh and rng.random() < 0.8 else 1
        age = int(rng.integers(0, (max_age if rng.random() < 0.3 else 2) + 1))
        s.sp[0, spot] = (card, deck[card], age, fresh, resolved, int(rng.random() < 0.3))
    # a few Golems / Time Masters pending: projections the options must not share
    if rng.random() < 0.3:
        projecting = np.flatnonzero(
            (ut[:, layout.KU_OTHERS_AGE] != 0) | (ut[:, layout.KU_UPGRADE] != 0)
        )
        cards = np.flatnonzero(np.isin(deck, projecting))
        spot = int(rng.integers(0, 5))
        card = int(rng.choice(cards))
        s.sp[0, spot] = (card, deck[card], 0, 1, 0, 0)
    hand_n = int(rng.integers(1, 7))
    s.hand[0, :hand_n] = rng.integers(0, deck.shape[0], hand_n)
    if hand_n > 1 and rng.random() < 0.5:  # two cards of one unit
        twins = np.flatnonzero(deck == deck[s.hand[0, 0]])
        s.hand[0, hand_n - 1] = rng.choice(twins)
    s.pi[0, k.I_HAND_N] = hand_n
    s.pi[0, k.I_GOLD] = int(rng.integers(0, 12))
    s.pi[0, k.I_POLICY] = int(rng.integers(1, 4))
    s.pi[0, k.I_SEEN0] = int(rng.integers(0, 15))
    s.pi[0, k.I_SEEN1] = int(rng.integers(0, 15))
    s.pi[0, k.I_EXTRA] = int(rng.random() < 0.3)
    s.blevel[0] = rng.integers(0, 3, s.blevel.shape[1])
    s.g[k.G_TURN] = int(rng.integers(1, 5))


def _setup(cards: CardSet, n_players: int, seed: int) -> tuple:
    """The kernel's tables, the default weights, a state and a random generator."""
    tb = ev.records.kernel_tables(compile_tables(cards, cards.variant))
    s = k.new_state(n_players, tb.deck.shape[0], tb.bt.shape[0], tb.ut.shape[0])
    return tb, default_weights(), s, np.random.default_rng(seed)


@pytest.mark.slow  # CI time; the deployment-step and keep oracles below run in make test
@pytest.mark.parametrize("n_players", [2, 4])
def test_options_valued_from_one_first_pass_equal_the_full_value(
    cards: CardSet, n_players: int
) -> None:
    tb, weights, s, rng = _setup(cards, n_players, n_players)
    out = np.zeros((MAX_DEPLOY_OPTIONS, 2))
    cv = np.zeros((tb.ut.shape[0], 2))
    options = 0
    for trial in range(300):
        _position(s, tb, rng, layout.UR_AGES + 2 if trial % 5 == 0 else 4)
        n_opt = _deploy_values(tb, weights, s, n_players, out)
        options += n_opt
        np.testing.assert_array_equal(out[:n_opt, 0], out[:n_opt, 1])
        if trial % 10 == 0:
            _card_values(tb, weights, s, n_players, cv)
            np.testing.assert_array_equal(cv[:, 0], cv[:, 1])
    assert options > 300 * 5  # the positions offer real choices


@njit
def _kept_base_values(tb, weights, s1, s2, n_players, pick, out, keep):
    """Seat 0 of two copies of a position takes the same deployment steps (option
    ``1 + pick[t] % (n_opt - 1)``: never STOP): ``s1`` keeps its base sketch from step to
    step as the kernel does (``_commit_step``), ``s2`` sketches afresh before each. Every
    option's value before each step: ``out[t, i, 0]`` (kept) and ``out[t, i, 1]`` (fresh);
    then each hand card's keep value: ``keep[i, 0]`` / ``keep[i, 1]``. Returns (steps,
    hand cards)."""
    n0, others = -1, 0
    t = 0
    while t < pick.shape[0]:
        n_opt = k.moves(tb, s1, 0)
        k.moves(tb, s2, 0)
        if n_opt == 1:
            break
        n0, others = k._kept_base(tb, s1, 0, n0, others)
        for i in range(n_opt):
            kind, a, b = s1.opt[i, 0], s1.opt[i, 1], s1.opt[i, 2]
            out[t, i, 0] = k._step_value(tb, weights, s1, 0, n0, others, kind, a, b, n_players)
        f0, fo = k._sketch_base(tb, s2, 0)
        for i in range(n_opt):
            kind, a, b = s2.opt[i, 0], s2.opt[i, 1], s2.opt[i, 2]
            out[t, i, 1] = k._step_value(tb, weights, s2, 0, f0, fo, kind, a, b, n_players)
        c = 1 + pick[t] % (n_opt - 1)
        kind, a, b = s1.opt[c, 0], s1.opt[c, 1], s1.opt[c, 2]
        n0 = k._commit_step(tb, s1, 0, n0, others, kind, a, b)
        k._apply_move(tb, s1, 0, kind, a, b)
        k._apply_move(tb, s2, 0, kind, a, b)
        t += 1
    n0, others = k._kept_base(tb, s1, 0, n0, others)
    m = s1.pi[0, k.I_HAND_N]
    for i in range(m):
        u = tb.deck[s1.hand[0, i]]
        keep[i, 0] = k._card_value_from(tb, weights, s1, 0, u, n0, others, n_players)
    f0, fo = k._sketch_base(tb, s2, 0)
    for i in range(m):
        u = tb.deck[s2.hand[0, i]]
        keep[i, 1] = k._card_value_from(tb, weights, s2, 0, u, f0, fo, n_players)
    return t, m


@pytest.mark.slow  # CI time (make test-all runs it)
def test_a_base_sketch_kept_from_step_to_step_values_as_a_new_one(cards: CardSet) -> None:
    """The kernel keeps a seat's base sketch through its deployment steps (rows no longer
    in spot order, a replaced or moved piece's row changed in place): every later option
    and keep value equals the one from a new ``_sketch_base``."""
    tb = ev.records.kernel_tables(compile_tables(cards, cards.variant))
    weights = default_weights()
    states = [k.new_state(4, tb.deck.shape[0], tb.bt.shape[0], tb.ut.shape[0]) for _ in range(2)]
    rng = np.random.default_rng(11)
    out = np.zeros((4, MAX_DEPLOY_OPTIONS, 2))
    keep = np.zeros((MAX_HAND, 2))
    steps = 0
    for _ in range(250):
        _position(states[0], tb, rng, 4)
        states[0].g[k.G_DISC_N] = 0  # replaced units go to the discard pile
        for field, value in zip(states[1], states[0], strict=True):
            field[...] = value
        pick = rng.integers(0, 1000, 4)
        t, m = _kept_base_values(tb, weights, states[0], states[1], 4, pick, out, keep)
        steps += t
        np.testing.assert_array_equal(out[:t, :, 0], out[:t, :, 1])
        np.testing.assert_array_equal(keep[:m, 0], keep[:m, 1])
    assert steps > 250  # positions take several steps


@njit
def _build_values(tb, weights, s, n_players, out):
    """(from the base sketch, in full) value of every construction option of seat 0 (all
    buildings at each higher level, at a made-up price; from the seat's building cache with
    one building raised unless a Golem is pending); the option count."""
    n_opt = 0
    for b in range(s.blevel.shape[1]):
        for level in range(s.blevel[0, b] + 1, 3):  # the next level, or level 2 directly
            s.bopt[n_opt, 0] = b
            s.bopt[n_opt, 1] = level
            s.bopt[n_opt, 2] = s.blevel[0, b]
            s.bopt[n_opt, 3] = n_opt
            n_opt += 1
    n0, _ = k._sketch_base(tb, s, 0)
    raised = not k._upgrade_pending(tb.ut, s.pc, n0)  # else each option projected anew
    for i in range(n_opt, -1, -1):  # any order
        out[i, 0] = k._build_value(tb, weights, s, 0, n0, i, n_players, raised)
    for i in range(n_opt + 1):
        n = k._load(s, 0)
        gold = s.pi[0, k.I_GOLD]
        if i:
            s.bl[s.bopt[i - 1, 0]] = s.bopt[i - 1, 1]
            gold -= s.bopt[i - 1, 3]
        out[i, 1] = k._value(tb, weights, s, 0, n, gold, n_players)
    return n_opt + 1


def test_construction_options_from_one_first_pass_equal_the_full_value(cards: CardSet) -> None:
    tb = ev.records.kernel_tables(compile_tables(cards, cards.variant))
    weights = default_weights()
    s = k.new_state(4, tb.deck.shape[0], tb.bt.shape[0], tb.ut.shape[0])
    rng = np.random.default_rng(7)
    out = np.zeros((MAX_BUILD_OPTIONS, 2))
    for _ in range(400):
        _position(s, tb, rng, 4)
        n = _build_values(tb, weights, s, 4, out)
        np.testing.assert_array_equal(out[:n, 0], out[:n, 1])


@njit
def _assessments(tb, s, out):
    """Seat 0's ``assess`` from its first pass (``_assess_seat``, row 0) and in full (row 1)."""
    _, facts = k._assess_seat(tb, s, 0)
    for c in range(8):
        out[0, c] = facts[c]
    n = k._load(s, 0)
    full = ev.strength.assess(tb.ut, tb.bt, tb.ab, tb.rules, s.pc, n, s.bl)
    for c in range(8):
        out[1, c] = full[c]


def test_a_seat_assessed_from_its_first_pass_as_in_full(cards: CardSet) -> None:
    """Wars, Income, the End and the frozen strengths read ``_assess_seat`` (unit records,
    the building cache): on random kingdoms, old units up to past the records' tokens,
    every building configuration, its 8 totals equal ``assess``'s, pending pieces or not."""
    tb = ev.records.kernel_tables(compile_tables(cards, cards.variant))
    s = k.new_state(4, tb.deck.shape[0], tb.bt.shape[0], tb.ut.shape[0])
    rng = np.random.default_rng(5)
    out = np.zeros((2, 8), np.int64)
    strengths = set()
    for trial in range(1500):
        _position(s, tb, rng, layout.UR_AGES + 2 if trial % 4 == 0 else 4)
        if trial % 3:  # between phases every piece is resolved
            s.sp[0, :, k.S_RESOLVED] = 1
        _assessments(tb, s, out)
        np.testing.assert_array_equal(out[0], out[1])
        strengths.add(int(out[0, 4]))
    assert len(strengths) > 10  # the kingdoms differ


@njit
def _twins(s, n_players, out):
    for p in range(n_players):
        out[p] = k._draft_twin(s, p)


def test_seats_that_value_every_unit_alike_share_their_draft_values(cards: CardSet) -> None:
    """Recruitment's draft values are shared by seats with the same policy, gold, neighbour
    strengths, pieces (unit, tokens, states; not the physical card) and levels, and by no
    others: each of those differences makes a seat its own twin."""
    tb = ev.records.kernel_tables(compile_tables(cards, cards.variant))
    deck = tb.deck
    s = k.new_state(4, deck.shape[0], tb.bt.shape[0], tb.ut.shape[0])
    twins = np.zeros(4, np.int64)
    s.pi[:, k.I_GOLD] = 3
    s.pi[:, k.I_POLICY] = 1
    _twins(s, 4, twins)
    assert list(twins) == [0, 0, 0, 0]  # the first turn: empty kingdoms
    copies = np.flatnonzero(deck == deck[0])  # two physical cards of one unit
    assert len(copies) >= 2
    for p in range(4):
        s.sp[p, 3] = (copies[p % 2], deck[0], 1, 0, 1, 0)
    _twins(s, 4, twins)
    assert list(twins) == [0, 0, 0, 0]
    changes = [
        lambda: s.pi.__setitem__((1, k.I_GOLD), 4),
        lambda: s.pi.__setitem__((1, k.I_POLICY), 2),
        lambda: s.pi.__setitem__((1, k.I_SEEN1), 5),
        lambda: s.blevel.__setitem__((1, 2), 1),
        lambda: s.sp.__setitem__((1, 3, k.S_AGE), 2),
        lambda: s.sp.__setitem__((1, 3, k.S_UNIT), deck[0] + 1),
        lambda: s.sp.__setitem__((1, 0, k.S_CARD), 5),
    ]
    for change in changes:
        saved = (s.pi.copy(), s.blevel.copy(), s.sp.copy())
        change()
        _twins(s, 4, twins)
        assert list(twins) == [0, 1, 0, 0]
        s.pi[...], s.blevel[...], s.sp[...] = saved


@njit
def _front_and_back(tb, weights, s, n_players, out):
    """Per unit added to seat 0's kingdom, pending and fresh: its value on Front spot 0 and
    on Back spot 3 (each sketch valued in full), and whether ``front_first_holds`` after
    its Front-row option's first pass (as ``card_value`` asks it)."""
    ut = tb.ut
    n0, others = k._sketch_base(tb, s, 0)
    for u in range(ut.shape[0]):
        out[u, 0] = _added_value(tb, weights, s, u, 0, n_players)
        out[u, 1] = _added_value(tb, weights, s, u, k.BACK0, n_players)
        n0, others = k._sketch_base(tb, s, 0)
        out[u, 2] = 0.0
        if not k._projects(ut, u):
            k._changed_pass(tb, s, n0, others, n0, 0, u, 0, 1)
            out[u, 2] = 1.0 if k.front_first_holds(tb, weights, s, 0, u, n0 + 1, n_players) else 0.0


@pytest.mark.parametrize("n_players", [2, 4])
def test_card_value_skips_the_back_row_only_when_it_cannot_be_worth_more(
    cards: CardSet, n_players: int
) -> None:
    """``front_first_holds`` claims the Back-row value of a card is at most its Front-row
    one: on random positions (every valuing policy, units past the records, pending
    projections), each time it holds, it is so; and it holds often enough to matter."""
    tb, weights, s, rng = _setup(cards, n_players, 10 + n_players)
    out = np.zeros((tb.ut.shape[0], 3))
    held = cases = 0
    for trial in range(400):
        _position(s, tb, rng, layout.UR_AGES + 2 if trial % 5 == 0 else 4)
        _front_and_back(tb, weights, s, n_players, out)
        holds = out[:, 2] == 1.0
        assert (out[holds, 0] >= out[holds, 1]).all()
        held += int(holds.sum())
        cases += len(holds)
    assert held > cases // 4


def test_front_first_units_and_what_turns_the_skip_off(cards: CardSet) -> None:
    """The units whose Front row dominates (``KU_FRONT_FIRST``): not the Hunter (produces in
    the Front only), the Archer (fights from the Back: the same strength in both rows, so
    it dominates), none whose on-deploy tokens or upgrade are projected (Golem). A negative
    weight of strength, or a face losing LP per strong unit, turns the skip off."""
    tb = ev.records.kernel_tables(compile_tables(cards, cards.variant))
    ut = tb.ut
    index = {u.id: i for i, u in enumerate(cards.units)}
    flag = {uid: int(ut[i, layout.KU_FRONT_FIRST]) for uid, i in index.items()}
    assert flag["hunter"] == 0
    assert flag["archer"] == 1
    assert flag["golem"] == 0
    projecting = (ut[:, layout.KU_OTHERS_AGE] != 0) | (ut[:, layout.KU_UPGRADE] != 0)
    assert not ut[projecting, layout.KU_FRONT_FIRST].any()
    assert sum(flag.values()) >= len(flag) // 2
    s = k.new_state(4, tb.deck.shape[0], tb.bt.shape[0], ut.shape[0])
    s.sp[0] = -1
    s.blevel[0] = 0
    s.pi[0, k.I_POLICY] = 1
    s.g[k.G_TURN] = 1
    u = index["archer"]
    weights = default_weights()
    assert _holds(tb, weights, s, u)
    weights[1, F_STRENGTH] = -0.1
    assert not _holds(tb, weights, s, u)
    weights = default_weights()
    assert _strong_ok(tb.bt, s.bc[0])  # no building: no face term
    s.bc[0, layout.BC_N0 + layout.BS_WAR] = 1  # a cached war-phase face term: -1 LP per strong unit
    t = layout.BC_TERMS + layout.BS_WAR * ev.cache.face_room(tb.bt.shape[0]) * 3
    s.bc[0, t : t + 3] = (layout.W_ALWAYS, layout.P_STRONG_UNITS, -1)
    assert not _strong_ok(tb.bt, s.bc[0])
    assert not _holds(tb, weights, s, u)  # the same levels: the cache is kept


@njit
def _holds(tb, weights, s, u):
    n0, others = k._sketch_base(tb, s, 0)
    k._changed_pass(tb, s, n0, others, n0, 0, u, 0, 1)
    return k.front_first_holds(tb, weights, s, 0, u, n0 + 1, 4)


@njit
def _strong_ok(bt, bc):
    return ev.cache.strong_terms_nonnegative(bt, bc)


@njit
def _deploy_chosen(tb, weights, s, n_players):
    """(``deploy_choice``'s step, the first best of every option valued in full, options)
    for seat 0: the kernel skips the Back-row twin of a dominating Front-row placement."""
    n_opt = k.moves(tb, s, 0)
    chosen, _, _ = k.deploy_choice(tb, None, weights, s, None, 0, n_opt, n_players, -1, 0)
    best = -np.inf
    want = 0
    for i in range(n_opt):
        n, gold = k._sketch_move(s, 0, s.opt[i, 0], s.opt[i, 1], s.opt[i, 2], tb)
        best, want = k.first_best(i, k._value(tb, weights, s, 0, n, gold, n_players), best, want)
    return chosen, want, n_opt


@pytest.mark.parametrize("n_players", [2, 4])
def test_a_deployment_step_skipping_back_row_twins_chooses_the_first_best(
    cards: CardSet, n_players: int
) -> None:
    tb, weights, s, rng = _setup(cards, n_players, 20 + n_players)
    back_chosen = options = 0
    for trial in range(800):
        _position(s, tb, rng, layout.UR_AGES + 2 if trial % 5 == 0 else 4)
        chosen, want, n_opt = _deploy_chosen(tb, weights, s, n_players)
        assert chosen == want, trial
        options += n_opt
        back_chosen += int(s.opt[want, 0] == k.M_PLACE and s.opt[want, 2] >= MAX_FRONT)
    assert options > 800 * 5
    assert back_chosen > 20  # Back-row placements do win where the Front does not dominate


@njit
def _keep_chosen(tb, weights, s, n_players):
    """(``keep_choice``'s pick for seat 0, the first strictly best card value of every hand
    card, each valued from a new base sketch): the kernel skips a repeated unit."""
    chosen = k.keep_choice(tb, None, weights, s, None, 0, n_players, -1, 0)
    best = -np.inf
    want = 0
    for i in range(1, s.pi[0, k.I_HAND_N] + 1):
        n0, others = k._sketch_base(tb, s, 0)
        v = k._card_value_from(tb, weights, s, 0, tb.deck[s.hand[0, i - 1]], n0, others, n_players)
        if v > best:
            best, want = v, i
    return chosen, want, k._repeated_units(tb, s, 0)


@pytest.mark.parametrize("n_players", [2, 4])
def test_a_keep_skipping_repeated_units_chooses_the_first_best(
    cards: CardSet, n_players: int
) -> None:
    tb, weights, s, rng = _setup(cards, n_players, 40 + n_players)
    repeats = 0
    for trial in range(400):
        _position(s, tb, rng, layout.UR_AGES + 2 if trial % 5 == 0 else 4)
        chosen, want, again = _keep_chosen(tb, weights, s, n_players)
        assert chosen == want, trial
        repeats += again != 0
    assert repeats > 50  # the positions hold two cards of one unit often


def test_repeated_units_marks_every_later_card_of_a_unit(cards: CardSet) -> None:
    tb, _, s, _ = _setup(cards, 4, 0)
    deck = tb.deck
    unit = int(np.flatnonzero(np.bincount(deck) >= 2)[0])
    a, b = (int(c) for c in np.flatnonzero(deck == unit)[:2])  # two cards of one unit
    other = int(np.flatnonzero(deck != unit)[0])
    s.hand[0, :4] = (other, a, b, a)
    s.pi[0, k.I_HAND_N] = 4
    assert k._repeated_units(tb, s, 0) == 0b1100
    s.pi[0, k.I_HAND_N] = 2
    assert k._repeated_units(tb, s, 0) == 0
