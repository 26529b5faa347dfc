"""A game's state: ``GameState`` (named views of ``st`` for tests and tools), the card
tables ``kt``, and the small transitions every phase uses (counts and their masks, a
card received, played, turned).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from talesim.simcore.jit import hot, hot_inline

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import bit, build_tables, ix, state_size


class GameState(NamedTuple):
    """One game's scratch state: the flat ``st`` array, the random stream, and named views of
    ``st`` (for tests and tools; the kernel indexes ``flat`` at ``layout.py``'s offsets)."""

    flat: np.ndarray  # int32[STATE_FIXED + deck size]
    sm: np.ndarray  # uint64[SM_SIZE]: the game's SplitMix64 state and the count masks
    hand: np.ndarray  # int32[MAX_PLAYERS, DEAL]
    hand_n: np.ndarray  # int32[MAX_PLAYERS]
    kept: np.ndarray  # int32[MAX_PLAYERS, DEAL]
    kept_n: np.ndarray  # int32[MAX_PLAYERS]
    tab: np.ndarray  # int32[MAX_PLAYERS, TABLEAU]: tableau cards in the order played
    tab_up: np.ndarray  # int32[MAX_PLAYERS, TABLEAU]: 1 face up, 0 face down
    tab_n: np.ndarray  # int32[MAX_PLAYERS]
    cnt: np.ndarray  # int32[MAX_PLAYERS, MC]: face-up copies per card
    dcnt: np.ndarray  # int32[MAX_PLAYERS, MC]: face-down copies per card
    hyp: np.ndarray  # int32[MAX_PLAYERS, MC]: face-up + kept
    fcnt: np.ndarray  # int32[MAX_PLAYERS, NF]
    hfc: np.ndarray  # int32[MAX_PLAYERS, NF]
    pick_card: np.ndarray  # int32[MAX_PLAYERS, PICKS]
    pick_round: np.ndarray  # int32[MAX_PLAYERS, PICKS]
    pick_no: np.ndarray  # int32[MAX_PLAYERS, PICKS]
    pick_slot: np.ndarray  # int32[MAX_PLAYERS, PICKS]
    pick_n: np.ndarray  # int32[MAX_PLAYERS]
    policy: np.ndarray  # int32[MAX_PLAYERS]
    trick_as: np.ndarray  # int32[MAX_PLAYERS]
    points: np.ndarray  # int32[MAX_PLAYERS, TABLEAU]
    score: np.ndarray  # int32[MAX_PLAYERS]
    breakdown: np.ndarray  # int32[MAX_PLAYERS, N_BREAKDOWN]
    mc_par: np.ndarray  # int32[MAX_PLAYERS, 3]: an mc seat's rollouts, top, playout policy
    mc_playouts: np.ndarray  # int32[MAX_PLAYERS]: playouts each mc seat ran this game
    model: np.ndarray  # int32[MAX_PLAYERS]: a learned seat's (mc playouts') model row


def new_state(n_cards: int, deck_size: int) -> GameState:
    """A zeroed game state (``n_cards`` distinct cards, fewer than ``MC``) with its views."""
    assert n_cards < L.MC
    return state_views(np.zeros(state_size(deck_size), np.int32), np.zeros(L.SM_SIZE, np.uint64))


def copy_state(s: GameState) -> GameState:
    """An independent copy of a game state (it plays on from where ``s`` is)."""
    return state_views(s.flat.copy(), s.sm.copy())


def state_views(flat: np.ndarray, sm: np.ndarray) -> GameState:
    """The ``GameState`` of the arrays ``flat`` (``st``) and ``sm``."""
    P = L.MAX_PLAYERS

    def rows(off: int, width: int) -> np.ndarray:
        return flat[off : off + P * width].reshape(P, width)

    return GameState(
        flat,
        sm,
        rows(L.HAND, L.DEAL),
        flat[L.HAND_N : L.HAND_N + P],
        rows(L.KEPT, L.DEAL),
        flat[L.KEPT_N : L.KEPT_N + P],
        rows(L.TAB, L.TABLEAU),
        rows(L.TAB_UP, L.TABLEAU),
        flat[L.TAB_N : L.TAB_N + P],
        rows(L.CNT, L.MC),
        rows(L.DCNT, L.MC),
        rows(L.HYP, L.MC),
        rows(L.FCNT, L.NF),
        rows(L.HFC, L.NF),
        rows(L.PICK_CARD, L.PICKS),
        rows(L.PICK_ROUND, L.PICKS),
        rows(L.PICK_NO, L.PICKS),
        rows(L.PICK_SLOT, L.PICKS),
        flat[L.PICK_N : L.PICK_N + P],
        flat[L.POLICY : L.POLICY + P],
        flat[L.TRICK_AS : L.TRICK_AS + P],
        rows(L.POINTS, L.TABLEAU),
        flat[L.SCORE : L.SCORE + P],
        rows(L.BREAKDOWN, L.N_BREAKDOWN),
        rows(L.MC_PAR, 3),
        flat[L.MC_PO : L.MC_PO + P],
        flat[L.MODEL : L.MODEL + P],
    )


def kernel_tables(tb: tuple) -> np.ndarray:
    """The card tables ``kt`` of a ``tables.Tables`` (or its arrays as a plain tuple)."""
    return build_tables(*tb)


@hot_inline
def _count_up(st, sm, row, mask, c):
    """One more copy of card ``c`` in the count row at ``st[row]``, whose mask is ``sm[mask]``."""
    st[ix(row + c)] += 1
    sm[ix(mask)] |= bit(c)


@hot_inline
def _count_down(st, sm, row, mask, c):
    """One copy less of card ``c`` in the count row at ``st[row]`` (mask ``sm[mask]``)."""
    n = st[ix(row + c)] - 1
    st[ix(row + c)] = n
    if n == 0:
        sm[ix(mask)] &= ~bit(c)


@hot
def _receive(st, p, c, rnd, pick_no):
    """Player ``p`` receives card ``c`` (drafted, or the beginner starting card)."""
    k = st[ix(L.PICK_N + p)]
    i = p * L.PICKS + k
    st[ix(L.PICK_CARD + i)] = c
    st[ix(L.PICK_ROUND + i)] = rnd + 1
    st[ix(L.PICK_NO + i)] = pick_no
    st[ix(L.PICK_SLOT + i)] = -1
    st[ix(L.PICK_N + p)] = k + 1
    return k


@hot
def _to_tableau(kt, st, sm, p, c, pick):
    """Put ``c`` face up at the end of ``p``'s tableau; returns its slot."""
    slot = st[ix(L.TAB_N + p)]
    st[ix(L.TAB + p * L.TABLEAU + slot)] = c
    st[ix(L.TAB_UP + p * L.TABLEAU + slot)] = 1
    st[ix(L.TAB_N + p)] = slot + 1
    st[ix(L.PICK_SLOT + p * L.PICKS + pick)] = slot
    _count_up(st, sm, L.CNT + p * L.MC, L.SM_CNT + p, c)
    st[ix(L.FCNT + p * L.NF + kt[ix(L.K_FACTION + c)])] += 1
    return slot


@hot
def _turn(kt, st, sm, p, slot, up):
    """Turn ``p``'s tableau card at ``slot`` face up (``up`` = 1: an Open) or face down (0: a
    Close or a Hunt); its face-up, face-down and drafting counts follow (a face-down card is
    not counted on by its drafter). ``up`` is a literal at every call: one copy each."""
    c = st[ix(L.TAB + p * L.TABLEAU + slot)]
    f = kt[ix(L.K_FACTION + c)]
    st[ix(L.TAB_UP + p * L.TABLEAU + slot)] = up
    if up == 1:
        _count_up(st, sm, L.CNT + p * L.MC, L.SM_CNT + p, c)
        _count_down(st, sm, L.DCNT + p * L.MC, L.SM_DCNT + p, c)
        _count_up(st, sm, L.HYP + p * L.MC, L.SM_HYP + p, c)
    else:
        _count_down(st, sm, L.CNT + p * L.MC, L.SM_CNT + p, c)
        _count_up(st, sm, L.DCNT + p * L.MC, L.SM_DCNT + p, c)
        _count_down(st, sm, L.HYP + p * L.MC, L.SM_HYP + p, c)
    d = 2 * up - 1
    st[ix(L.FCNT + p * L.NF + f)] += d
    st[ix(L.HFC + p * L.NF + f)] += d
