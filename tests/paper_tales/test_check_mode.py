"""Checking mode (`talesim simulate --check`): the kernel verifies the rule invariants after
every phase. It must catch each kind of corruption it claims to catch (a checker that cannot
fail proves nothing; the Legends corruptions: ``tests/paper_tales/test_legends_check_mode.py``);
that it passes on real games of both variants without changing them is
``tests/test_engine_conformance.py``'s."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from talesim.simcore.games.paper_tales import kernel
from talesim.simcore.games.paper_tales.engine import prepare
from talesim.simcore.games.paper_tales.evaluate.records import kernel_tables
from talesim.simcore.games.paper_tales.tables import MAX_AGE, CardSet
from talesim.simcore.registry import InvariantError, raise_first_violation


def finished_game(cards: CardSet) -> tuple[tuple, kernel.State]:
    """A played 4-player greedy game whose seats hold units and buildings."""
    prepared = prepare(cards, "base", 4, ["greedy"] * 4, False)
    tb = kernel_tables(prepared.tables)
    s = kernel.new_state(4, tb.deck.shape[0], tb.bt.shape[0], tb.ut.shape[0])
    for g in range(50):
        s.pi[:4, kernel.I_POLICY] = 1
        assert kernel.play_game(tb, None, prepared.weights, s, None, 4, np.uint64(3), g, True) == 0
        if (s.sp[:4, :, kernel.S_CARD] >= 0).sum(axis=1).min() >= 2 and s.blevel[:4].any():
            return tb, s
    raise AssertionError("no game with 2 units a seat and a building in 50")


def spot_of(s: kernel.State, p: int) -> int:
    return int(np.flatnonzero(s.sp[p, :, kernel.S_CARD] >= 0)[0])


def card_lost(s: kernel.State) -> None:
    s.sp[1, spot_of(s, 1), kernel.S_CARD] = s.deck[0]  # a draw-pile card appears twice


def gold_negative(s: kernel.State) -> None:
    s.pi[2, kernel.I_GOLD] = -1


def below_floor(s: kernel.State) -> None:
    s.pi[0, kernel.I_LP] = -2
    s.parts[0, kernel.LP_WARS] -= s.parts[0].sum() + 2


def unsettled(s: kernel.State) -> None:
    s.pi[3, kernel.I_STEP] = 4


def breakdown_off(s: kernel.State) -> None:
    s.parts[1, kernel.LP_RELIC] += 1


def floor_negative(s: kernel.State) -> None:
    s.parts[2, kernel.LP_FLOOR] -= 1
    s.parts[2, kernel.LP_WARS] += 1


def too_old(s: kernel.State) -> None:
    s.sp[0, spot_of(s, 0), kernel.S_AGE] = MAX_AGE + 1


def level_three(s: kernel.State) -> None:
    s.blevel[3, 0] = 3


def fifth_spot_without_building(s: kernel.State) -> None:
    s.blevel[1, :] = 0
    spot = spot_of(s, 1)
    s.sp[1, kernel.EXTRA_SPOT] = s.sp[1, spot]
    if spot != kernel.EXTRA_SPOT:
        s.sp[1, spot, kernel.S_CARD] = -1


@pytest.mark.parametrize(
    ("corrupt", "code"),
    [
        (card_lost, kernel.V_CARDS),
        (gold_negative, kernel.V_GOLD),
        (below_floor, kernel.V_FLOOR),
        (unsettled, kernel.V_STEP),
        (breakdown_off, kernel.V_BREAKDOWN),
        (floor_negative, kernel.V_FLOOR_PART),
        (too_old, kernel.V_AGE),
        (level_three, kernel.V_LEVEL),
        (fifth_spot_without_building, kernel.V_EXTRA),
    ],
)
def test_each_corruption_is_reported(
    cards: CardSet, corrupt: Callable[[kernel.State], None], code: int
) -> None:
    tb, s = finished_game(cards)
    assert kernel.check_state(tb, None, s, None, 4) == 0
    corrupt(s)
    assert kernel.check_state(tb, None, s, None, 4) == code
    assert kernel.INVARIANTS[code]


def test_every_invariant_has_a_corruption_test() -> None:
    codes = {kernel.V_CARDS, kernel.V_GOLD, kernel.V_FLOOR, kernel.V_STEP, kernel.V_BREAKDOWN}
    codes |= {kernel.V_FLOOR_PART, kernel.V_AGE, kernel.V_LEVEL, kernel.V_EXTRA, kernel.V_SPOT}
    assert codes == set(range(1, len(kernel.INVARIANTS)))


def test_a_unit_on_a_closed_spot_is_reported(cards: CardSet) -> None:
    """With one Back spot open (``back_spots = 1``) a unit on spot 4 breaks the layout."""
    import dataclasses

    narrow = dataclasses.replace(
        cards,
        rules=dataclasses.replace(cards.rules, options=dict(cards.rules.options, back_spots=1)),
    )
    prepared = prepare(narrow, "base", 4, ["greedy"] * 4, False)
    tb = kernel_tables(prepared.tables)
    s = kernel.new_state(4, tb.deck.shape[0], tb.bt.shape[0], tb.ut.shape[0])
    s.pi[:4, kernel.I_POLICY] = 1
    assert kernel.play_game(tb, None, prepared.weights, s, None, 4, np.uint64(3), 0, True) == 0
    spot = spot_of(s, 0)
    s.sp[0, 4] = s.sp[0, spot]
    s.sp[0, spot, kernel.S_CARD] = -1
    assert kernel.check_state(tb, None, s, None, 4) == kernel.V_SPOT


def test_a_violation_names_the_game_and_how_to_replay_it() -> None:
    violation = np.zeros(10, np.int8)
    violation[5] = kernel.V_GOLD
    with pytest.raises(InvariantError, match=r"game 105 \(seed 4\): gold >= 0.*--game 105"):
        raise_first_violation(violation, kernel.INVARIANTS, "paper-tales", 4, 100)
