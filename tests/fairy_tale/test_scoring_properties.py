"""Property tests: the kernel's incremental scoring equals the reference's full rescoring.

The policies and the Trickster choice rely on ``delta_add`` / ``loss_remove`` (only the
cards whose value can change are rescored); the reference recomputes whole totals. Random
count vectors of every variant and rule set must give the same numbers.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from talesim.simcore.games.fairy_tale.kernel import kernel_tables
from talesim.simcore.games.fairy_tale.layout import K_EFF_BOUND
from talesim.simcore.games.fairy_tale.policies import default_weights
from talesim.simcore.games.fairy_tale.reference import (
    Brain,
    Counts,
    Rules,
    _shift,
    gain_of_adding,
    total,
)
from talesim.simcore.games.fairy_tale.scoring import delta_add, loss_remove, player_total
from talesim.simcore.games.fairy_tale.tables import FACTIONS, load_cardset

CARDS = load_cardset()
T = len(CARDS.cards)


def _counts(rows: list[list[int]]) -> tuple[np.ndarray, np.ndarray, Counts]:
    cnt = np.array(rows, dtype=np.int32)
    fcnt = np.zeros((len(rows), len(FACTIONS)), dtype=np.int32)
    for t, card in enumerate(CARDS.cards):
        fcnt[:, FACTIONS.index(card.faction)] += cnt[:, t]
    ref = Counts(len(rows), T)
    ref.cards = [list(map(int, r)) for r in cnt]
    ref.factions = [list(map(int, r)) for r in fcnt]
    return cnt, fcnt, ref


tableaux = st.lists(st.lists(st.integers(0, 3), min_size=T, max_size=T), min_size=2, max_size=5)


@settings(max_examples=150, deadline=None)
@given(
    rows=tableaux,
    variant=st.sampled_from(["basic", "expert"]),
    c=st.integers(0, T - 1),
    strict=st.booleans(),
)
def test_delta_add_equals_difference_of_totals(rows, variant, c, strict) -> None:
    rules = Rules(CARDS, variant)
    rules.strict = strict  # the switch under test, for both implementations
    tb = rules.tables
    cnt, fcnt, ref = _counts(rows)
    n = len(rows)
    for p in range(n):
        expected = gain_of_adding(rules, c, ref.cards[p], ref.factions[p], ref, p)
        got = delta_add(tb.ct, tb.deps, c, cnt[p], fcnt[p], cnt, fcnt, n, p, strict)
        assert got == expected
        assert player_total(tb.ct, cnt[p], fcnt[p], cnt, fcnt, n, p, strict) == total(
            rules, ref.cards[p], ref.factions[p], ref, p
        )
        if cnt[p, c] > 0:
            loss = loss_remove(tb.ct, tb.deps, c, cnt[p], fcnt[p], cnt, fcnt, n, p, strict)
            before = total(rules, ref.cards[p], ref.factions[p], ref, p)
            ref.cards[p][c] -= 1
            ref.factions[p][FACTIONS.index(CARDS.cards[c].faction)] -= 1
            after = total(rules, ref.cards[p], ref.factions[p], ref, p)
            ref.cards[p][c] += 1
            ref.factions[p][FACTIONS.index(CARDS.cards[c].faction)] += 1
            assert loss == before - after


@settings(max_examples=100, deadline=None)
@given(rows=tableaux, variant=st.sampled_from(["basic", "expert"]), strict=st.booleans())
def test_no_close_effect_is_worth_more_than_its_bound(rows, variant, strict) -> None:
    """``choose_plain`` skips a candidate whose gain plus ``K_EFF_BOUND`` cannot beat the best
    so far: a Close's own effect (its owner closing their least-bad cards, the Close card
    counted) is never worth more than that bound."""
    rules = Rules(CARDS, variant)
    rules.strict = strict
    kt = kernel_tables(rules.tables)
    brain = Brain(rules, default_weights(), None)  # type: ignore[arg-type]  # no draws
    _, _, ref = _counts(rows)
    for e in range(T):
        effect = rules.effect(e)
        if effect["kind"] != "close" or effect["scope"] == "others":
            continue
        for p in range(len(rows)):
            own, own_fc = ref.cards[p], ref.factions[p]
            _shift(rules, own, own_fc, e, 1)
            assert -brain.least_close_loss(e, own, own_fc, ref, p) <= kt[K_EFF_BOUND + e]
            _shift(rules, own, own_fc, e, -1)
