"""Checking mode (`talesim simulate --check`): the kernel verifies every rule invariant after
each step. It must catch each kind of corruption it claims to catch (a checker that cannot
fail proves nothing); that it passes on real games without changing them is
``tests/test_engine_conformance.py``'s."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from talesim.simcore.games.fairy_tale import kernel
from talesim.simcore.games.fairy_tale.engine import Prepared, prepare, simulate_arrays
from talesim.simcore.games.fairy_tale.tables import PICKS, TABLEAU, CardSet
from talesim.simcore.registry import InvariantError


def finished_game(cards: CardSet) -> tuple[Prepared, tuple, kernel.GameState]:
    """A played 4-player expert game in which no Trickster ended face up (so the face-up
    counts still match the tableau card for card)."""
    prepared = prepare(cards, "expert", 4, ["greedy"] * 4, False)
    tb = prepared.tables
    s = kernel.new_state(tb.ct.shape[0], tb.deck.shape[0])
    for g in range(100):
        for p in range(4):
            s.policy[p] = 1
        assert kernel.play_game(tb, prepared.weights, s, 4, np.uint64(3), g, True) == 0
        if (s.trick_as[:4] < 0).all():
            return prepared, tb, s
    raise AssertionError("no game without a face-up Trickster in 100")


TOP = 4 * PICKS  # cards dealt in a 4-player expert game


def first_up_slot(s: kernel.GameState, p: int) -> int:
    return int(np.flatnonzero(s.tab_up[p, : s.tab_n[p]] == 1)[0])


Corruption = Callable[[kernel.GameState, np.ndarray], None]


def more_face_up(s: kernel.GameState, ct: np.ndarray) -> None:
    s.cnt[1, s.tab[1, first_up_slot(s, 1)]] += 1


def face_down_lost(s: kernel.GameState, ct: np.ndarray) -> None:
    s.dcnt[2, 0] += 1


def hyp_out_of_step(s: kernel.GameState, ct: np.ndarray) -> None:
    s.hyp[0, s.tab[0, first_up_slot(s, 0)]] -= 1


def slot_claimed_twice(s: kernel.GameState, ct: np.ndarray) -> None:
    played = np.flatnonzero(s.pick_slot[3] >= 0)
    s.pick_slot[3, played[1]] = s.pick_slot[3, played[0]]


def card_vanished(s: kernel.GameState, ct: np.ndarray) -> None:
    s.pick_card[0, 0] = (s.pick_card[0, 0] + 1) % ct.shape[0]


def tableau_overflow(s: kernel.GameState, ct: np.ndarray) -> None:
    s.tab_n[0] = TABLEAU + 1


@pytest.mark.parametrize(
    ("corrupt", "code"),
    [
        (card_vanished, 1),
        (more_face_up, 2),
        (face_down_lost, 3),
        (hyp_out_of_step, 4),
        (slot_claimed_twice, 5),
        (tableau_overflow, 6),
    ],
)
def test_check_state_catches_each_corruption(
    cards: CardSet, corrupt: Corruption, code: int
) -> None:
    _, tb, s = finished_game(cards)
    assert kernel.check_state(tb, s, 4, TOP) == 0
    corrupt(s, tb.ct)
    assert kernel.check_state(tb, s, 4, TOP) == code
    assert kernel.INVARIANTS[code] != "ok"


def test_check_final_catches_score_errors(cards: CardSet) -> None:
    _, _, s = finished_game(cards)
    assert kernel.check_final(s, 4) == 0
    s.score[2] += 1
    assert kernel.check_final(s, 4) == 7
    s.score[2] -= 1
    down = np.flatnonzero(s.tab_up[0, : s.tab_n[0]] == 0)
    if down.size:  # a face-down card that scores
        s.points[0, down[0]] = 1
        s.score[0] += 1
        s.breakdown[0, 0] += 1
        assert kernel.check_final(s, 4) == 8
        s.points[0, down[0]] = 0
        s.score[0] -= 1
        s.breakdown[0, 0] -= 1
    s.tab_n[1] -= 1
    s.score[1] -= s.points[1, s.tab_n[1]]
    s.breakdown[1, 0] -= s.points[1, s.tab_n[1]]
    assert kernel.check_final(s, 4) in (7, 9)


def test_engine_names_seed_and_game_of_a_violation(
    cards: CardSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A violation reported by the kernel becomes an InvariantError naming seed and game."""
    real = kernel.simulate_chunk

    def broken(*args: object) -> None:
        real(*args)
        out = args[10]  # simulate_chunk's out (after tb, weights, slot table, seat slots, ...)
        out.violation[3] = 2  # type: ignore[attr-defined]

    monkeypatch.setattr(kernel, "simulate_chunk", broken)
    prepared = prepare(cards, "expert", 4, ["random"] * 4, False)
    with pytest.raises(InvariantError, match=r"game 103 \(seed 5\): face-up counts"):
        simulate_arrays(prepared, 5, 100, 10, check=True)
