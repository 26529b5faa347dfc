"""Setup and draft (``docs/rules/fairy-tale.md`` §3): a new game (``_new_game``: the
shuffle, the beginner start), the deal and the draft.
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot
from talesim.simcore.rng import _U32, _U_GOLDEN, _mix64_jit, rng_below, rng_start

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)

# The codes and offsets passed as call arguments are imported by name: numba types an
# imported name as a literal, so each decision's ``_decide`` / ``policies.choose*`` and each
# matching's ``_augment`` compile specialised to their value, as a module attribute (an
# ``int64``) would not (one general copy of each, a slower compile: see ``layout.py``).
from ..layout import D_DRAFT, ix
from .decide import _decide, _seat_modes
from .state import _count_up, _receive, _to_tableau


@hot
def _shuffle_deck(st, sm, deck_size):
    """``simcore.rng.rng_shuffle`` of the deck at ``DECK``, the same draws, with the stream's
    state in a local variable: ``rng_shuffle`` writes it back to ``sm`` and reloads it after
    every swap (the arrays may alias), a store-to-load wait on the stream's dependency chain."""
    s = sm[ix(L.SM_RNG)]
    for i in range(deck_size - 1, 0, -1):
        s = s + _U_GOLDEN  # rng_next
        j = np.int64(((_mix64_jit(s) >> _U32) * np.uint64(i + 1)) >> _U32)  # rng_below(i + 1)
        tmp = st[ix(L.DECK + i)]
        st[ix(L.DECK + i)] = st[ix(L.DECK + j)]
        st[ix(L.DECK + j)] = tmp
    sm[ix(L.SM_RNG)] = s


@hot
def _beginner_start(kt, st, sm, n_players, deck_size, top):
    """Beginner rules: each player gets one face-up card without Open/Close. A card with one
    goes back to a random place in the undealt deck and the player draws again."""
    for p in range(n_players):
        while True:
            e = kt[ix(L.K_EFFECT + st[ix(L.DECK + top)])]
            if e != L.E_OPEN and e != L.E_CLOSE:
                break
            j = top + 1 + rng_below(sm, deck_size - top - 1)
            tmp = st[ix(L.DECK + top)]
            st[ix(L.DECK + top)] = st[ix(L.DECK + j)]
            st[ix(L.DECK + j)] = tmp
        c = st[ix(L.DECK + top)]
        top += 1
        k = _receive(st, p, c, 0, 0)
        _to_tableau(kt, st, sm, p, c, k)
        _count_up(st, sm, L.HYP + p * L.MC, L.SM_HYP + p, c)
        st[ix(L.HFC + p * L.NF + kt[ix(L.K_FACTION + c)])] += 1
    return top


@hot
def _deal(st, n_players, hand_size):
    """Deal ``hand_size`` cards to each seat (row p of ``HAND``) from ``POS_TOP``; the
    draft starts (step 0, seat 0)."""
    top = st[ix(L.POS_TOP)]
    for p in range(n_players):
        for k in range(hand_size):
            st[ix(L.HAND + p * L.DEAL + k)] = st[ix(L.DECK + top)]
            top += 1
        st[ix(L.HAND_N + p)] = hand_size
        st[ix(L.KEPT_N + p)] = 0
    st[ix(L.POS_TOP)] = top
    st[ix(L.POS_PHASE)] = L.PH_DRAFT
    st[ix(L.POS_STEP)] = 0
    st[ix(L.POS_SEAT)] = 0
    st[ix(L.POS_SHIFT)] = 0


@hot
def _draft(kt, weights, st, sm, n_players, rnd, hand_size, pick_offset, search):
    """Pick one card at a time, passing left (seat+1) in rounds 1 and 3 and right (seat-1)
    in rounds 2 and 4, until every card is kept, from the step and seat at ``POS_*``.
    Picks are numbered 1..20 (``pick_offset`` = 1 when a beginner starting card came
    first). A hand stays where it was dealt (row h of ``HAND``/``HAND_N``): passing it
    moves which seat reads it, seat p reading row ``p + shift`` (mod n), the shift moving
    by ``-direction`` a step. Returns True when an ``mc`` seat was asked (the position
    is stored), False when the draft is over. Without ``search`` (a compile-time
    constant) the draft always starts at its beginning and never stops."""
    direction = 1 if rnd % 2 == 0 else n_players - 1  # q = p + direction - (n if >= n)
    back = n_players - direction  # the row a seat reads moves by -direction a step
    shift = 0  # seat p reads row p + shift (mod n)
    first = 0
    start = 0
    if search:
        shift = st[ix(L.POS_SHIFT)]
        first = st[ix(L.POS_SEAT)]
        start = st[ix(L.POS_STEP)]
    for step in range(start, hand_size):
        for p in range(first, n_players):
            h = p + shift
            if h >= n_players:
                h -= n_players
            hand = L.HAND + h * L.DEAL
            n = st[ix(L.HAND_N + h)]
            neighbour = p + direction
            if neighbour >= n_players:
                neighbour -= n_players
            i = _decide(
                kt, weights, st, sm, D_DRAFT, hand, n, n_players, p, True, neighbour, search
            )
            if search and i < 0:
                st[ix(L.POS_STEP)] = step
                st[ix(L.POS_SEAT)] = p
                st[ix(L.POS_SHIFT)] = shift
                return True
            c = st[ix(hand + i)]
            for j in range(i, n - 1):
                st[ix(hand + j)] = st[ix(hand + j + 1)]
            st[ix(L.HAND_N + h)] = n - 1
            pick = _receive(st, p, c, rnd, st[ix(L.PICK_N + p)] + 1 - pick_offset)
            k = st[ix(L.KEPT_N + p)]
            st[ix(L.KEPT + p * L.DEAL + k)] = c
            st[ix(L.KEPT_PICK + p * L.DEAL + k)] = pick
            st[ix(L.KEPT_N + p)] = k + 1
            _count_up(st, sm, L.HYP + p * L.MC, L.SM_HYP + p, c)
            st[ix(L.HFC + p * L.NF + kt[ix(L.K_FACTION + c)])] += 1
        first = 0
        shift += back
        if shift >= n_players:
            shift -= n_players
    st[ix(L.POS_PHASE)] = L.PH_PLAY
    st[ix(L.POS_STEP)] = 0
    st[ix(L.POS_SEAT)] = 0
    return False


@hot
def _new_game(kt, weights, st, sm, n_players, seed, game_id):
    """A new game in ``st`` (policies already set at ``POLICY``, an mc seat's parameters at
    ``MC_PAR``): the deck shuffled, the beginner start done, the position at the first deal."""
    deck_size = kt[ix(L.K_DECK_SIZE)]
    rng_start(sm, seed, game_id)
    for i in range(deck_size):
        st[ix(L.DECK + i)] = kt[ix(L.K_DECK + i)]
    _shuffle_deck(st, sm, deck_size)
    _seat_modes(weights, st, n_players)
    for p in range(L.MAX_PLAYERS):
        sm[ix(L.SM_CNT + p)] = 0
        sm[ix(L.SM_DCNT + p)] = 0
        sm[ix(L.SM_HYP + p)] = 0
        st[ix(L.HAND_N + p)] = 0
        st[ix(L.KEPT_N + p)] = 0
        st[ix(L.TAB_N + p)] = 0
        st[ix(L.PICK_N + p)] = 0
        st[ix(L.MC_DN + p)] = 0
        st[ix(L.MC_PO + p)] = 0
    for i in range(
        L.HFC + L.MAX_PLAYERS * L.NF - L.CNT
    ):  # the count rows CNT, DCNT, HYP, FCNT, HFC
        st[ix(L.CNT + i)] = 0
    top = 0
    if kt[ix(L.K_RULES + L.R_BEGINNER)] == 1:
        top = _beginner_start(kt, st, sm, n_players, deck_size, top)
    st[ix(L.POS_ROUND)] = 0
    st[ix(L.POS_PHASE)] = L.PH_DEAL
    st[ix(L.POS_STEP)] = 0
    st[ix(L.POS_SEAT)] = 0
    st[ix(L.POS_SUB)] = 0
    st[ix(L.POS_SHIFT)] = 0
    st[ix(L.POS_TOP)] = top
    st[ix(L.POS_VIOL)] = 0
    st[ix(L.FORCE_SEAT)] = -1
    st[ix(L.ANSWER_SEAT)] = -1
