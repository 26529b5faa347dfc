"""Checking mode of the Legends kernel (`talesim simulate --variant legends --check`): the
base invariants with the artifact zones counted, plus the three Legends ones. It must catch
each corruption it claims to catch (that it passes on real games without changing them:
``tests/test_engine_conformance.py``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from talesim.simcore.games.paper_tales import kernel
from talesim.simcore.games.paper_tales.engine import prepare
from talesim.simcore.games.paper_tales.evaluate.records import kernel_tables
from talesim.simcore.games.paper_tales.kernel import (
    LEGENDS_INVARIANTS,
    V_ART_PLACE,
    V_CARDS_L,
    V_OUT_OF_SET,
    V_ZONE,
    LState,
    check_state,
    legends_lx,
)
from talesim.simcore.games.paper_tales.layout import Z_CARD, Z_FRESH, Z_PAID
from talesim.simcore.games.paper_tales.tables import CardSet
from talesim.simcore.registry import InvariantError, raise_first_violation

Position = tuple[tuple, tuple, kernel.State, LState]


@pytest.fixture(scope="module")
def finished(legends: CardSet) -> Callable[[], Position]:
    """A factory of one played 4-player greedy Legends game whose every seat holds two units,
    an artifact and a building (a fresh copy per call: the tests corrupt it)."""
    prepared = prepare(legends, "legends", 4, ["greedy"] * 4, False)
    tb = kernel_tables(prepared.tables)
    lx = legends_lx(legends, prepared.tables)
    n_types = tb.ut.shape[0] + lx.xt.shape[0]
    s = kernel.new_state(4, tb.deck.shape[0], tb.bt.shape[0], n_types)
    ls = kernel._new_lstate(4, tb.bt.shape[0])
    for g in range(100):
        s.pi[:4, kernel.I_POLICY] = 1
        violation = kernel.play_game(tb, lx, prepared.weights, s, ls, 4, np.uint64(3), g, True)
        assert violation == 0
        units = (s.sp[:4, :, kernel.S_CARD] >= 0).sum(axis=1).min()
        if units >= 2 and ls.zn[:4].min() >= 1 and s.blevel[:4].any(axis=1).all():
            break
    else:
        raise AssertionError("no game in 100 with 2 units, an artifact and a building a seat")
    state, lstate = s, ls

    def copy() -> Position:
        return tb, lx, kernel.State(*(a.copy() for a in state)), LState(*(a.copy() for a in lstate))

    return copy


def spot_of(s: kernel.State, p: int) -> int:
    return int(np.flatnonzero(s.sp[p, :, kernel.S_CARD] >= 0)[0])


def zone_card_twice(tb: tuple, s: kernel.State, ls: LState) -> None:
    ls.zone[1, 0, Z_CARD] = s.deck[0]  # a draw-pile card also in a zone (and one lost)


def zone_card_lost(tb: tuple, s: kernel.State, ls: LState) -> None:
    ls.zn[2] -= 1  # the last artifact of seat 2 vanishes


def artifact_on_a_spot(tb: tuple, s: kernel.State, ls: LState) -> None:
    spot = spot_of(s, 0)
    unit_card = s.sp[0, spot, kernel.S_CARD]
    s.sp[0, spot, kernel.S_CARD] = ls.zone[0, 0, Z_CARD]  # swap: conservation still holds
    ls.zone[0, 0, Z_CARD] = unit_card


def building_outside_the_set(tb: tuple, s: kernel.State, ls: LState) -> None:
    b = int(np.flatnonzero(ls.inset[: tb.bt.shape[0]] == 0)[0])
    s.blevel[3, b] = 1


def unpaid_artifact(tb: tuple, s: kernel.State, ls: LState) -> None:
    ls.zone[1, 0, Z_PAID] = 0


def fresh_artifact(tb: tuple, s: kernel.State, ls: LState) -> None:
    ls.zone[2, 0, Z_FRESH] = 1


def artifact_lp_off(tb: tuple, s: kernel.State, ls: LState) -> None:
    ls.lparts[0, kernel.LP_ARTIFACTS] += 1  # booked but not on the score marker


@pytest.mark.parametrize(
    ("corrupt", "code"),
    [
        (zone_card_twice, V_CARDS_L),
        (zone_card_lost, V_CARDS_L),
        (artifact_on_a_spot, V_ART_PLACE),
        (building_outside_the_set, V_OUT_OF_SET),
        (unpaid_artifact, V_ZONE),
        (fresh_artifact, V_ZONE),
        (artifact_lp_off, kernel.V_BREAKDOWN),
    ],
)
def test_each_corruption_is_reported(
    finished: Callable[[], Position],
    corrupt: Callable[[tuple, kernel.State, LState], None],
    code: int,
) -> None:
    tb, lx, s, ls = finished()
    assert check_state(tb, lx, s, ls, 4) == 0
    corrupt(tb, s, ls)
    assert check_state(tb, lx, s, ls, 4) == code
    assert LEGENDS_INVARIANTS[code]


def test_the_base_invariants_are_checked_too(finished: Callable[[], Position]) -> None:
    tb, lx, s, ls = finished()
    s.pi[2, kernel.I_GOLD] = -1
    assert check_state(tb, lx, s, ls, 4) == kernel.V_GOLD


def test_every_legends_invariant_has_a_corruption_test() -> None:
    new = {V_ART_PLACE, V_OUT_OF_SET, V_ZONE}
    assert new == set(range(len(kernel.INVARIANTS), len(LEGENDS_INVARIANTS)))
    assert "zones" in LEGENDS_INVARIANTS[V_CARDS_L]


def test_a_violation_names_the_game_and_the_legends_rule() -> None:
    violation = np.zeros(10, np.int8)
    violation[3] = V_ZONE
    with pytest.raises(InvariantError, match=r"game 103 \(seed 4\): an unpaid or still fresh"):
        raise_first_violation(violation, LEGENDS_INVARIANTS, "paper-tales", 4, 100)
