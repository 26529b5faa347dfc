"""Checking mode (``talesim simulate --check``): the invariants (``INVARIANTS``), checked
after each play step (``_check_state``) and at the end (``_check_final``).
"""

from __future__ import annotations

from talesim.simcore.jit import hot, hot_inline

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import bit, ix
from .state import GameState, kernel_tables

#: Invariant codes of ``check_state``; 0 means every invariant holds.
INVARIANTS = (
    "ok",
    "card conservation: the dealt cards are not exactly the cards in hands and received",
    "face-up counts (cnt/fcnt) disagree with the face-up tableau cards",
    "face-down counts (dcnt) disagree with the face-down tableau cards",
    "drafting counts (hyp/hfc) disagree with face-up + kept cards",
    "a tableau slot is not the slot recorded for exactly one received card",
    "a size is out of bounds (hand, kept, tableau, picks or deck position)",
    "final score differs from the sum of its breakdown or of its cards' points",
    "a face-down card scored points",
    "wrong number of tableau cards at the end of the game",
)


@hot_inline
def _mask_has(sm, mask, c):
    """Is card ``c`` in the mask ``sm[mask]``?"""
    return (sm[ix(mask)] & bit(c)) != 0


@hot
def _check_state(kt, st, sm, n_players, top):
    """Code of the first broken invariant of state ``st`` during play (0: all hold; a count
    mask that disagrees with its count row counts as that row's invariant). Cheap enough to
    run after every play step in checking mode."""
    n_cards = kt[ix(L.K_N_CARDS)]
    deck_size = kt[ix(L.K_DECK_SIZE)]
    if top < 0 or top > deck_size:
        return 6
    for p in range(n_players):
        if not (0 <= st[ix(L.HAND_N + p)] <= L.DEAL and 0 <= st[ix(L.KEPT_N + p)] <= L.DEAL):
            return 6
        if not (0 <= st[ix(L.TAB_N + p)] <= L.TABLEAU and 0 <= st[ix(L.PICK_N + p)] <= L.PICKS):
            return 6
    # 1: every dealt card is in a hand or was received (and nothing else was)
    for c in range(n_cards):
        st[ix(L.TALLY + c)] = 0
    for i in range(top):
        st[ix(L.TALLY + st[ix(L.DECK + i)])] += 1
    for p in range(n_players):
        for i in range(st[ix(L.HAND_N + p)]):
            st[ix(L.TALLY + st[ix(L.HAND + p * L.DEAL + i)])] -= 1
        for k in range(st[ix(L.PICK_N + p)]):
            st[ix(L.TALLY + st[ix(L.PICK_CARD + p * L.PICKS + k)])] -= 1
    for c in range(n_cards):
        if st[ix(L.TALLY + c)] != 0:
            return 1
    for p in range(n_players):
        tab = L.TAB + p * L.TABLEAU
        up = L.TAB_UP + p * L.TABLEAU
        n_tab = st[ix(L.TAB_N + p)]
        # 2, 3: the count arrays are exactly the tableau's face-up / face-down cards
        for c in range(n_cards):
            st[ix(L.TALLY + c)] = 0
        for f in range(L.NF):
            up_f = 0
            for slot in range(n_tab):
                if st[ix(up + slot)] == 1 and kt[ix(L.K_FACTION + st[ix(tab + slot)])] == f:
                    up_f += 1
            if st[ix(L.FCNT + p * L.NF + f)] != up_f:
                return 2
        for slot in range(n_tab):
            if st[ix(up + slot)] == 1:
                st[ix(L.TALLY + st[ix(tab + slot)])] += 1
        for c in range(n_cards):
            if (
                st[ix(L.CNT + p * L.MC + c)] != st[ix(L.TALLY + c)]
                or st[ix(L.CNT + p * L.MC + c)] < 0
            ):
                return 2
            if _mask_has(sm, L.SM_CNT + p, c) != (st[ix(L.TALLY + c)] > 0):
                return 2
        for c in range(n_cards):
            st[ix(L.TALLY + c)] = 0
        for slot in range(n_tab):
            if st[ix(up + slot)] == 0:
                st[ix(L.TALLY + st[ix(tab + slot)])] += 1
        for c in range(n_cards):
            if st[ix(L.DCNT + p * L.MC + c)] != st[ix(L.TALLY + c)]:
                return 3
            if _mask_has(sm, L.SM_DCNT + p, c) != (st[ix(L.TALLY + c)] > 0):
                return 3
        # 4: what a drafter counts on = face up + kept
        for c in range(n_cards):
            st[ix(L.TALLY + c)] = st[ix(L.CNT + p * L.MC + c)]
        for i in range(st[ix(L.KEPT_N + p)]):
            st[ix(L.TALLY + st[ix(L.KEPT + p * L.DEAL + i)])] += 1
        for c in range(n_cards):
            if st[ix(L.HYP + p * L.MC + c)] != st[ix(L.TALLY + c)]:
                return 4
            if _mask_has(sm, L.SM_HYP + p, c) != (st[ix(L.TALLY + c)] > 0):
                return 4
        for f in range(L.NF):
            kept_f = 0
            for i in range(st[ix(L.KEPT_N + p)]):
                if kt[ix(L.K_FACTION + st[ix(L.KEPT + p * L.DEAL + i)])] == f:
                    kept_f += 1
            if st[ix(L.HFC + p * L.NF + f)] != st[ix(L.FCNT + p * L.NF + f)] + kept_f:
                return 4
        # 5: tableau slots and received cards correspond one to one
        for slot in range(n_tab):
            owners = 0
            for k in range(st[ix(L.PICK_N + p)]):
                if st[ix(L.PICK_SLOT + p * L.PICKS + k)] == slot:
                    owners += 1
                    if st[ix(L.PICK_CARD + p * L.PICKS + k)] != st[ix(tab + slot)]:
                        return 5
            if owners != 1:
                return 5
        for k in range(st[ix(L.PICK_N + p)]):
            if st[ix(L.PICK_SLOT + p * L.PICKS + k)] >= n_tab:
                return 5
    return 0


@hot
def _check_final(st, n_players):
    """Code of the first broken end-of-game invariant (0: all hold). Runs after final
    scoring, when a face-up Trickster already counts as the card it copies."""
    for p in range(n_players):
        total = 0
        by_card = 0
        for b in range(L.N_BREAKDOWN):
            total += st[ix(L.BREAKDOWN + p * L.N_BREAKDOWN + b)]
        for slot in range(st[ix(L.TAB_N + p)]):
            points = st[ix(L.POINTS + p * L.TABLEAU + slot)]
            by_card += points
            if st[ix(L.TAB_UP + p * L.TABLEAU + slot)] == 0 and points != 0:
                return 8
        if total != st[ix(L.SCORE + p)] or by_card != st[ix(L.SCORE + p)]:
            return 7
        if st[ix(L.TAB_N + p)] != L.TABLEAU:
            return 9
    return 0


def check_state(tb: tuple, s: GameState, n_players: int, top: int) -> int:
    """``_check_state`` on a ``GameState`` (tables as the ``Tables`` tuple)."""
    kt = kernel_tables(tb)
    return int(_check_state(kt, s.flat, s.sm, n_players, top))


def check_final(s: GameState, n_players: int) -> int:
    """``_check_final`` on a ``GameState``."""
    return int(_check_final(s.flat, n_players))
