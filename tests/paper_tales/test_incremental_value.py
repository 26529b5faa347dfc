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

from simcore.games.paper_tales import evaluate as ev
from simcore.games.paper_tales import kernel as k
from simcore.games.paper_tales.policies import default_weights
from simcore.games.paper_tales.tables import CardSet, compile_tables


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
def _card_values(tb, weights, s, n_players, out):
    """(``card_value``, the same built in full) of every unit for seat 0."""
    ut = tb[0]
    for u in range(ut.shape[0]):
        out[u, 0] = k.card_value(tb, weights, s, 0, u, n_players)
        best = -np.inf
        for spot in (0, k.BACK0):
            n = k._load(s, 0)
            s.pc[n, ev.PC_SPOT] = spot
            s.pc[n, ev.PC_UNIT] = u
            s.pc[n, ev.PC_AGE] = 0
            s.pc[n, ev.PC_PENDING] = 1
            s.pc[n, ev.PC_FRESH] = 1
            gold = s.pi[0, k.I_GOLD] - ut[u, k.U_COST]
            best = max(best, k._value(tb, weights, s, 0, n + 1, gold, n_players))
        if ut[u, k.U_COST] > s.pi[0, k.I_GOLD]:
            best -= weights[s.pi[0, k.I_POLICY], k.W_UNAFFORDABLE]
        out[u, 1] = best


def _position(s: k.State, tb: tuple, rng: np.random.Generator, max_age: int) -> None:
    """Seat 0: random units on random spots (old or placed this phase, pending or not),
    a hand of 1-6 cards, gold, levels, turn, neighbour strengths and policy."""
    deck, ut = tb[4], tb[0]
    s.sp[0] = -1
    for spot in rng.permutation(5)[: rng.integers(0, 6)]:
        card = int(rng.integers(0, deck.shape[0]))
        fresh = int(rng.random() < 0.4)
        resolved = 0 if fresh and rng.random() < 0.8 else 1
        age = int(rng.integers(0, (max_age if rng.random() < 0.3 else 2) + 1))
        s.sp[0, spot] = (card, deck[card], age, fresh, resolved, int(rng.random() < 0.3))
    # a few Golems / Time Masters pending: projections the options must not share
    if rng.random() < 0.3:
        projecting = np.flatnonzero((ut[:, ev.KU_OTHERS_AGE] != 0) | (ut[:, ev.KU_UPGRADE] != 0))
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


@pytest.mark.parametrize("n_players", [2, 4])
def test_options_valued_from_one_first_pass_equal_the_full_value(
    cards: CardSet, n_players: int
) -> None:
    tb = ev.kernel_tables(compile_tables(cards))
    weights = default_weights()
    s = k.new_state(n_players, tb[4].shape[0], tb[1].shape[0], tb[0].shape[0])
    rng = np.random.default_rng(n_players)
    out = np.zeros((k.MAX_DEPLOY_OPTIONS, 2))
    cv = np.zeros((tb[0].shape[0], 2))
    options = 0
    for trial in range(600):
        _position(s, tb, rng, ev.UR_AGES + 2 if trial % 5 == 0 else 4)
        n_opt = _deploy_values(tb, weights, s, n_players, out)
        options += n_opt
        np.testing.assert_array_equal(out[:n_opt, 0], out[:n_opt, 1])
        if trial % 10 == 0:
            _card_values(tb, weights, s, n_players, cv)
            np.testing.assert_array_equal(cv[:, 0], cv[:, 1])
    assert options > 600 * 5  # the positions offer real choices


@njit
def _build_values(tb, weights, s, n_players, out):
    """(from the base sketch, in full) value of every construction option of seat 0 (all
    buildings at their next level, at a made-up price); the option count."""
    n_opt = 0
    for b in range(s.blevel.shape[1]):
        if s.blevel[0, b] < 2:
            s.bopt[n_opt, 0] = b
            s.bopt[n_opt, 1] = s.blevel[0, b] + 1
            s.bopt[n_opt, 2] = s.blevel[0, b]
            s.bopt[n_opt, 3] = n_opt
            n_opt += 1
    n0, _ = k._sketch_base(tb, s, 0)
    for i in range(n_opt, -1, -1):  # any order
        out[i, 0] = k._build_value(tb, weights, s, 0, n0, i, n_players)
    for i in range(n_opt + 1):
        n = k._load(s, 0)
        gold = s.pi[0, k.I_GOLD]
        if i:
            s.bl[s.bopt[i - 1, 0]] = s.bopt[i - 1, 1]
            gold -= s.bopt[i - 1, 3]
        out[i, 1] = k._value(tb, weights, s, 0, n, gold, n_players)
    return n_opt + 1


def test_construction_options_from_one_first_pass_equal_the_full_value(cards: CardSet) -> None:
    tb = ev.kernel_tables(compile_tables(cards))
    weights = default_weights()
    s = k.new_state(4, tb[4].shape[0], tb[1].shape[0], tb[0].shape[0])
    rng = np.random.default_rng(7)
    out = np.zeros((k.MAX_BUILD_OPTIONS, 2))
    for _ in range(400):
        _position(s, tb, rng, 4)
        n = _build_values(tb, weights, s, 4, out)
        np.testing.assert_array_equal(out[:n, 0], out[:n, 1])
