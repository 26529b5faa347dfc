"""Fairy Tale rules, compiled: one game per call of ``play_game``, many games per
``simulate_chunk`` (``prange`` over blocks of games, scratch allocated once per block).

The phase structure follows the reference (§3-§5) and ``reference.py`` line by line:
setup -> 4 x (draft, 3 play steps [reveal, Hunt, Open, Close], discard) -> final scoring.

All state of a game lives in one int32 array ``st`` plus one uint64 array ``sm`` (the random
stream and the masks of the count rows), all card data in ``kt`` (int32, its card masks
read as uint64 by ``kmask``), at the named offsets of ``layout.py`` (why: see there); -1
marks an empty slot. Every change of a CNT/DCNT/HYP count goes through ``_count_up`` /
``_count_down``, which keep its mask in step. ``GameState`` gives tests and tools named 2-D
views of ``st``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange

from simcore.buffers import zeroed_buffers
from simcore.jit import alloc, hot, hot_inline, hot_outline, parallel
from simcore.rng import _U32, _U_GOLDEN, _mix64_jit, rng_below, rng_next, rng_start, search_state

from . import layout as L  # noqa: N812 (the schema, read as L.NAME)

# The codes and offsets passed as call arguments are imported by name: numba types an
# imported name as a literal, so each decision's ``_decide`` / ``policies.choose*`` and each
# matching's ``_augment`` compile specialised to their value, as a module attribute (an
# ``int64``) would not (one general copy of each, a slower compile: see ``layout.py``).
from .layout import (
    CAND,
    D_CLOSE,
    D_DRAFT,
    D_OPEN,
    D_PLAY,
    EFF_MATCH,
    SLOT_MATCH,
    TMP_EFF,
    TMP_SLOT,
    bit,
    build_tables,
    data_ptr,
    ix,
    kmask,
    selects,
    state_size,
)
from .mc import determinize, outcome, rank, rewind_step
from .policies import choose, choose_plain, choose_target, plain, policy_weights
from .scoring import closed_gain, closed_gain_cards, copy_value, gain_if_added


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
    )


def kernel_tables(tb: tuple) -> np.ndarray:
    """The card tables ``kt`` of a ``tables.Tables`` (or its arrays as a plain tuple)."""
    return build_tables(*tb)


# --- small state transitions -----------------------------------------------------------


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
def _close(kt, st, sm, p, slot):
    c = st[ix(L.TAB + p * L.TABLEAU + slot)]
    f = kt[ix(L.K_FACTION + c)]
    st[ix(L.TAB_UP + p * L.TABLEAU + slot)] = 0
    _count_down(st, sm, L.CNT + p * L.MC, L.SM_CNT + p, c)
    st[ix(L.FCNT + p * L.NF + f)] -= 1
    _count_up(st, sm, L.DCNT + p * L.MC, L.SM_DCNT + p, c)
    _count_down(st, sm, L.HYP + p * L.MC, L.SM_HYP + p, c)
    st[ix(L.HFC + p * L.NF + f)] -= 1


@hot
def _open(kt, st, sm, p, slot):
    c = st[ix(L.TAB + p * L.TABLEAU + slot)]
    f = kt[ix(L.K_FACTION + c)]
    st[ix(L.TAB_UP + p * L.TABLEAU + slot)] = 1
    _count_up(st, sm, L.CNT + p * L.MC, L.SM_CNT + p, c)
    st[ix(L.FCNT + p * L.NF + f)] += 1
    _count_down(st, sm, L.DCNT + p * L.MC, L.SM_DCNT + p, c)
    _count_up(st, sm, L.HYP + p * L.MC, L.SM_HYP + p, c)
    st[ix(L.HFC + p * L.NF + f)] += 1


@hot
def _seat_modes(weights, st, n_players):
    """How each seat decides this game (``SEAT_MODE``): ``random``, ``plain`` weights
    (``policies.plain``: draft and play decisions go to ``choose_plain``, with the two
    whole-number weights at ``SEAT_W``), the general ``choose``, or ``mc`` (a search: the
    game stops at its decisions, ``_play_game`` searches). Worked out once a game instead
    of at every decision."""
    for p in range(n_players):
        policy = st[ix(L.POLICY + p)]
        mode = L.M_OTHER
        if policy == L.P_RANDOM:
            mode = L.M_RANDOM
        elif policy == L.P_MC:
            mode = L.M_SEARCH
        else:
            w = policy_weights(weights, policy)
            if plain(w, D_DRAFT):  # the same answer for D_PLAY
                mode = L.M_PLAIN
                st[ix(L.SEAT_W + p * 2)] = np.int32(w[0])
                st[ix(L.SEAT_W + p * 2 + 1)] = np.int32(w[1])
        st[ix(L.SEAT_MODE + p)] = mode


@hot
def _decide(kt, weights, st, sm, decision, cand, n, n_players, p, use_hyp, neighbour, search):
    """Index chosen among the candidates ``st[cand : cand + n]`` (a hand, kept cards, or
    ``CAND``: read where they are, not copied); a forced choice (n == 1) asks no policy, and
    ``random`` needs no look at the state. A decision made already (``FORCE_SEAT``: by a
    search, or a playout's candidate) is taken as it is. An ``mc`` seat's decision is
    asked, not made: the decision is stored at ``ASK_*`` and -1 returned, and the caller
    stores where the game is and returns (the game stops; ``_play_game_search`` searches
    and plays on). Both happen only in a game that can search (``search``, a compile-time
    constant: the heuristics' kernel compiles neither check). The outlined decision
    functions get the arrays as data pointers (``data_ptr``: a word each instead of
    seven)."""
    if n == 1:
        return 0
    if search and st[ix(L.FORCE_SEAT)] == p:
        st[ix(L.FORCE_SEAT)] = -1
        return st[ix(L.FORCE_IDX)]
    mode = st[ix(L.SEAT_MODE + p)]
    if mode == L.M_RANDOM:
        return rng_below(sm, n)
    if search and mode == L.M_SEARCH:
        st[ix(L.ASK_DEC)] = decision
        st[ix(L.ASK_CAND)] = cand
        st[ix(L.ASK_N)] = n
        st[ix(L.ASK_SEAT)] = p
        st[ix(L.ASK_HYP)] = 1 if use_hyp else 0
        st[ix(L.ASK_NEIGH)] = neighbour
        return -1
    own = L.HYP + p * L.MC if use_hyp else L.CNT + p * L.MC
    ownf = L.HFC + p * L.NF if use_hyp else L.FCNT + p * L.NF
    held = sm[ix(L.SM_HYP + p)] if use_hyp else sm[ix(L.SM_CNT + p)]
    if decision == L.D_OPEN or decision == L.D_CLOSE:  # the weights do not enter
        return choose_target(
            data_ptr(kt), data_ptr(st), decision, cand, n, own, ownf, held, n_players, p
        )
    if mode == L.M_PLAIN:  # one outlined call less per decision (greedy)
        face_down = sm[ix(L.SM_DCNT + p)]
        return choose_plain(
            np.int64(st[ix(L.SEAT_W + p * 2)]),
            np.int64(st[ix(L.SEAT_W + p * 2 + 1)]),
            data_ptr(kt),
            data_ptr(st),
            cand,
            n,
            own,
            ownf,
            held,
            face_down,
            n_players,
            p,
        )
    policy = st[ix(L.POLICY + p)]
    w = policy_weights(weights, policy)
    return choose(
        policy,
        w,
        decision,
        data_ptr(kt),
        data_ptr(st),
        data_ptr(sm),
        cand,
        n,
        own,
        ownf,
        held,
        n_players,
        p,
        neighbour,
    )


# --- setup and draft ---------------------------------------------------------------------


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


# --- play steps --------------------------------------------------------------------------


@hot
def _candidates(kt, st, p, e, face_up):
    """Fill ``CAND`` / ``CAND_SLOT`` with ``p``'s tableau cards that are face up
    (``face_up`` = 1) or face down (0) and that effect card ``e`` can select; return count."""
    n = 0
    for slot in range(st[ix(L.TAB_N + p)]):
        t = st[ix(L.TAB + p * L.TABLEAU + slot)]
        if st[ix(L.TAB_UP + p * L.TABLEAU + slot)] == face_up and selects(kt, e, t):
            st[ix(L.CAND + n)] = t
            st[ix(L.CAND_SLOT + n)] = slot
            n += 1
    return n


@hot
def _augment(kt, st, p, start, n_eff, slot_match, eff_match):
    """Try to add tableau slot ``start`` to the matching of closed cards to Close effects
    (one BFS for an augmenting path). ``slot_match`` / ``eff_match`` are the offsets of the
    matching being grown (``SLOT_MATCH``/``EFF_MATCH`` or the ``TMP_*`` copies); updated in
    place on success."""
    for e in range(n_eff):
        st[ix(L.BFS_PREV + e)] = -2  # unvisited
    st[ix(L.BFS_QUEUE)] = start
    head = 0
    tail = 1
    while head < tail:
        slot = st[ix(L.BFS_QUEUE + head)]
        head += 1
        c = st[ix(L.TAB + p * L.TABLEAU + slot)]
        for e in range(n_eff):
            if st[ix(L.BFS_PREV + e)] != -2 or not selects(
                kt, st[ix(L.CE + p * L.MAX_CLOSES + e)], c
            ):
                continue
            st[ix(L.BFS_PREV + e)] = slot
            if st[ix(eff_match + e)] == -1:
                cur_e = e
                cur_s = slot
                while True:
                    prev_e = st[ix(slot_match + cur_s)]
                    st[ix(slot_match + cur_s)] = cur_e
                    st[ix(eff_match + cur_e)] = cur_s
                    if prev_e == -1:
                        return True
                    cur_e = prev_e
                    cur_s = st[ix(L.BFS_PREV + cur_e)]
            st[ix(L.BFS_QUEUE + tail)] = st[ix(eff_match + e)]
            tail += 1
    return False


@hot
def _resolve_closes(kt, weights, st, sm, n_players, p, begun, search):
    """Player ``p`` closes as many distinct face-up cards as the Close effects aimed at them
    allow (a maximum matching, reference §4.4), choosing the cards one at a time; ``begun``:
    the matching at ``SLOT_MATCH``/``EFF_MATCH`` holds the cards closed so far (a resumed
    game). Returns True when an ``mc`` seat was asked (``POS_SUB`` = 1: matching begun)."""
    n_eff = st[ix(L.CE_N + p)]
    if n_eff == 1:  # the usual case: one effect, close one matching card (no matching needed)
        n = _candidates(kt, st, p, st[ix(L.CE + p * L.MAX_CLOSES)], 1)
        if n > 0:
            i = _decide(kt, weights, st, sm, D_CLOSE, CAND, n, n_players, p, False, p, search)
            if search and i < 0:
                return True
            _close(kt, st, sm, p, st[ix(L.CAND_SLOT + i)])
        return False
    if not (search and begun):
        for i in range(L.TABLEAU):
            st[ix(L.SLOT_MATCH + i)] = -1
        for e in range(n_eff):
            st[ix(L.EFF_MATCH + e)] = -1
    while True:
        # Whether a face-up slot can join the matching depends only on its card: each
        # distinct card is tried once (``tried``), ``closable`` holds the answers. A card
        # an unmatched effect selects joins at once (a path of one edge); a card no effect
        # selects never does; only the rest need the search for an augmenting path.
        free = L.ZERO
        any_sel = L.ZERO
        for e in range(n_eff):
            sel = kmask(kt, L.KM_SEL + st[ix(L.CE + p * L.MAX_CLOSES + e)])
            any_sel |= sel
            if st[ix(L.EFF_MATCH + e)] == -1:
                free |= sel
        n = 0
        tried = ~any_sel | free
        closable = free
        for slot in range(st[ix(L.TAB_N + p)]):
            if st[ix(L.TAB_UP + p * L.TABLEAU + slot)] == 0:
                continue
            c = st[ix(L.TAB + p * L.TABLEAU + slot)]
            b = bit(c)
            if (tried & b) == L.ZERO:
                tried |= b
                for i in range(L.TABLEAU):
                    st[ix(L.TMP_SLOT + i)] = st[ix(L.SLOT_MATCH + i)]
                for e in range(n_eff):
                    st[ix(L.TMP_EFF + e)] = st[ix(L.EFF_MATCH + e)]
                if _augment(kt, st, p, slot, n_eff, TMP_SLOT, TMP_EFF):
                    closable |= b
            if (closable & b) != L.ZERO:
                st[ix(L.CAND + n)] = c
                st[ix(L.CAND_SLOT + n)] = slot
                n += 1
        if n == 0:
            return False
        i = _decide(kt, weights, st, sm, D_CLOSE, CAND, n, n_players, p, False, p, search)
        if search and i < 0:
            st[ix(L.POS_SUB)] = 1
            return True
        slot = st[ix(L.CAND_SLOT + i)]
        _augment(kt, st, p, slot, n_eff, SLOT_MATCH, EFF_MATCH)
        _close(kt, st, sm, p, slot)


@hot
def _hunt(kt, st, sm, n_players):
    """Reference §4: each Hunt card turns face down every card of its faction revealed in
    this step by another player (``HUNTED``: their effects are cancelled)."""
    for p in range(n_players):
        st[ix(L.HUNTED + p)] = 0
    if kt[ix(L.K_RULES + L.R_HUNT)] == 1:
        for h in range(n_players):
            e = st[ix(L.REVEALED + h)]
            if kt[ix(L.K_EFFECT + e)] != L.E_HUNT:
                continue
            for q in range(n_players):
                if (
                    q != h
                    and kt[ix(L.K_FACTION + st[ix(L.REVEALED + q)])] == kt[ix(L.K_EFF_FACTION + e)]
                ):
                    st[ix(L.HUNTED + q)] = 1
        for q in range(n_players):
            if (
                st[ix(L.HUNTED + q)] == 1
                and st[ix(L.TAB_UP + q * L.TABLEAU + st[ix(L.REV_SLOT + q)])] == 1
            ):
                _close(kt, st, sm, q, st[ix(L.REV_SLOT + q)])


@hot
def _resolve_step(kt, weights, st, sm, n_players, search):
    """The Open, then the Close effects of one play step (reference §4), from the position
    at ``POS_*`` (``PH_OPEN``: seat and Open effects applied; ``PH_CLOSE``: seat, matching
    begun). Returns True when an ``mc`` seat was asked (the position is stored). Without
    ``search`` (a compile-time constant) the step starts at its Open effects and never
    stops."""
    if kt[ix(L.K_RULES + L.R_EFFECTS)] == 0:
        return False
    if not search or st[ix(L.POS_PHASE)] == L.PH_OPEN:
        first = 0
        done = 0
        if search:
            first = st[ix(L.POS_SEAT)]
            done = st[ix(L.POS_SUB)]
        for p in range(first, n_players):
            e = st[ix(L.REVEALED + p)]
            if st[ix(L.HUNTED + p)] == 1 or kt[ix(L.K_EFFECT + e)] != L.E_OPEN:
                continue
            for k in range(done if p == first else 0, kt[ix(L.K_EFF_COUNT + e)]):
                n = _candidates(kt, st, p, e, 0)
                if n == 0:
                    break
                i = _decide(kt, weights, st, sm, D_OPEN, CAND, n, n_players, p, False, p, search)
                if search and i < 0:
                    st[ix(L.POS_SEAT)] = p
                    st[ix(L.POS_SUB)] = k
                    return True
                _open(kt, st, sm, p, st[ix(L.CAND_SLOT + i)])
        for q in range(n_players):
            st[ix(L.CE_N + q)] = 0
        for p in range(n_players):
            e = st[ix(L.REVEALED + p)]
            if st[ix(L.HUNTED + p)] == 1 or kt[ix(L.K_EFFECT + e)] != L.E_CLOSE:
                continue
            scope = kt[ix(L.K_SCOPE + e)]
            for q in range(n_players):
                if (scope == L.S_YOU and q != p) or (scope == L.S_OTHERS and q == p):
                    continue
                for _ in range(kt[ix(L.K_EFF_COUNT + e)]):
                    st[ix(L.CE + q * L.MAX_CLOSES + st[ix(L.CE_N + q)])] = e
                    st[ix(L.CE_N + q)] += 1
        st[ix(L.POS_PHASE)] = L.PH_CLOSE
        st[ix(L.POS_SEAT)] = 0
        st[ix(L.POS_SUB)] = 0
    for q in range(st[ix(L.POS_SEAT)] if search else 0, n_players):
        if st[ix(L.CE_N + q)] == 0:
            continue
        begun = st[ix(L.POS_SUB)] == 1
        if _resolve_closes(kt, weights, st, sm, n_players, q, begun, search) and search:
            st[ix(L.POS_SEAT)] = q
            return True
        st[ix(L.POS_SUB)] = 0
    return False


@hot
def _play_round(kt, weights, st, sm, n_players, plays, check, search):
    """``plays`` steps from the position at ``POS_*``: everyone picks a kept card, all
    reveal, effects apply; then the unplayed kept cards are discarded face down and the
    next round is dealt. In checking mode, ``POS_VIOL`` records the first invariant broken
    after a step (``check_state``). Returns True when an ``mc`` seat was asked (the
    position is stored). Without ``search`` (a compile-time constant) the round starts at
    its first step and never stops."""
    for step in range(st[ix(L.POS_STEP)] if search else 0, plays):
        if not search or st[ix(L.POS_PHASE)] == L.PH_PLAY:
            for p in range(st[ix(L.POS_SEAT)] if search else 0, n_players):
                kept = L.KEPT + p * L.DEAL
                kept_pick = L.KEPT_PICK + p * L.DEAL
                n = st[ix(L.KEPT_N + p)]
                i = _decide(kt, weights, st, sm, D_PLAY, kept, n, n_players, p, False, p, search)
                if search and i < 0:
                    st[ix(L.POS_STEP)] = step
                    st[ix(L.POS_SEAT)] = p
                    return True
                st[ix(L.REVEALED + p)] = st[ix(kept + i)]
                st[ix(L.REV_SLOT + p)] = st[
                    ix(kept_pick + i)
                ]  # pick index for now; slot after the reveal
                for j in range(i, n - 1):
                    st[ix(kept + j)] = st[ix(kept + j + 1)]
                    st[ix(kept_pick + j)] = st[ix(kept_pick + j + 1)]
                st[ix(L.KEPT_N + p)] = n - 1
            for p in range(n_players):
                st[ix(L.REV_SLOT + p)] = _to_tableau(
                    kt, st, sm, p, st[ix(L.REVEALED + p)], st[ix(L.REV_SLOT + p)]
                )
            _hunt(kt, st, sm, n_players)
            st[ix(L.POS_PHASE)] = L.PH_OPEN
            st[ix(L.POS_SEAT)] = 0
            st[ix(L.POS_SUB)] = 0
        if _resolve_step(kt, weights, st, sm, n_players, search) and search:
            st[ix(L.POS_STEP)] = step
            return True
        if check and st[ix(L.POS_VIOL)] == 0:
            st[ix(L.POS_VIOL)] = _check_state(kt, st, sm, n_players, st[ix(L.POS_TOP)])
        st[ix(L.POS_PHASE)] = L.PH_PLAY
        st[ix(L.POS_SEAT)] = 0
    for p in range(n_players):
        for i in range(st[ix(L.KEPT_N + p)]):
            c = st[ix(L.KEPT + p * L.DEAL + i)]
            _count_down(st, sm, L.HYP + p * L.MC, L.SM_HYP + p, c)
            st[ix(L.HFC + p * L.NF + kt[ix(L.K_FACTION + c)])] -= 1
        st[ix(L.KEPT_N + p)] = 0
    st[ix(L.POS_ROUND)] += 1
    st[ix(L.POS_PHASE)] = L.PH_DEAL
    st[ix(L.POS_STEP)] = 0
    st[ix(L.POS_SEAT)] = 0
    return False


# --- checking mode (talesim simulate --check) ----------------------------------------------

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


# --- final scoring -----------------------------------------------------------------------


@hot
def _choose_trickster(kt, st, sm, n_players, p, wild):
    """A face-up Trickster becomes the copy of one other card that maximises its owner's
    score (ties: the lowest card id); it then counts as that card everywhere. One copy of a
    card of ``closed_gain_cards`` gains its closed form, the others are scored in full."""
    strict = kt[ix(L.K_RULES + L.R_MAJ_STRICT)] == 1
    own = L.CNT + p * L.MC
    ownf = L.FCNT + p * L.NF
    k = st[ix(own + wild)]
    fw = kt[ix(L.K_FACTION + wild)]
    st[ix(own + wild)] = 0
    st[ix(ownf + fw)] -= k
    closed = closed_gain_cards(kt, sm[ix(L.SM_CNT + p)]) if k == 1 else L.ZERO
    # The owner's score with the k wild copies as u is (score without them) + the gain of
    # adding k copies of u one by one; the first term is the same for every u.
    best = 0
    best_u = -1
    for i in range(kt[ix(L.K_N_CARDS)]):
        u = kt[ix(L.K_ID_ORDER + i)]
        if u == wild or kt[ix(L.K_IN_DECK + u)] == 0:
            continue
        if (closed & bit(u)) != L.ZERO:
            gain = closed_gain(kt, st, u, own)
        else:
            fu = kt[ix(L.K_FACTION + u)]
            gain = 0
            for _ in range(k):
                gain += gain_if_added(kt, st, u, own, ownf, n_players, p, strict)
                st[ix(own + u)] += 1
                st[ix(ownf + fu)] += 1
            st[ix(own + u)] -= k
            st[ix(ownf + fu)] -= k
        if best_u < 0 or gain > best:
            best = gain
            best_u = u
    st[ix(own + best_u)] += k
    st[ix(ownf + kt[ix(L.K_FACTION + best_u)])] += k
    return best_u


@hot
def _final_scores(kt, st, sm, n_players):
    """Reference §5: face-down cards score 0; Tricksters take their identity (seat order);
    then every face-up card scores with the final counts."""
    strict = kt[ix(L.K_RULES + L.R_MAJ_STRICT)] == 1
    for p in range(n_players):
        st[ix(L.TRICK_AS + p)] = -1
        for slot in range(st[ix(L.TAB_N + p)]):
            c = st[ix(L.TAB + p * L.TABLEAU + slot)]
            if (
                st[ix(L.TAB_UP + p * L.TABLEAU + slot)] == 1
                and kt[ix(L.K_VALUE + c)] == L.V_WILD
                and st[ix(L.TRICK_AS + p)] < 0
            ):
                st[ix(L.TRICK_AS + p)] = _choose_trickster(kt, st, sm, n_players, p, c)
    for p in range(n_players):
        own = L.CNT + p * L.MC
        ownf = L.FCNT + p * L.NF
        score = 0
        for b in range(L.N_BREAKDOWN):
            st[ix(L.BREAKDOWN + p * L.N_BREAKDOWN + b)] = 0
        for slot in range(st[ix(L.TAB_N + p)]):
            st[ix(L.POINTS + p * L.TABLEAU + slot)] = 0
            if st[ix(L.TAB_UP + p * L.TABLEAU + slot)] == 0:
                continue
            c = st[ix(L.TAB + p * L.TABLEAU + slot)]
            kind = kt[ix(L.K_VALUE + c)]
            if kind == L.V_WILD:
                u = st[ix(L.TRICK_AS + p)]
                v = kt[ix(L.K_POINTS + c)] + copy_value(kt, st, u, own, ownf, n_players, p, strict)
                b = L.B_TRICKSTER
            else:
                v = copy_value(kt, st, c, own, ownf, n_players, p, strict)
                if kind == L.V_FIXED:
                    b = L.B_FIXED
                elif kind == L.V_COUNT:
                    b = L.B_VARIABLE
                elif kind == L.V_MAJORITY:
                    b = L.B_MAJORITY
                else:
                    b = L.B_CONDITIONAL
            st[ix(L.POINTS + p * L.TABLEAU + slot)] = v
            st[ix(L.BREAKDOWN + p * L.N_BREAKDOWN + b)] += v
            score += v
        st[ix(L.SCORE + p)] = score


@hot_outline
def _score_end(kt, st, sm, n_players):
    """``_final_scores`` of an end state laid out by ``score_end_state``: the entry of
    ``talesim score`` (a small compile of its own; the simulation kernels inline the same
    function)."""
    _final_scores(kt, st, sm, n_players)


def score_end_state(tb: tuple, tableaux: list[tuple[list[int], list[int]]]) -> GameState:
    """The kernel's final scoring (``_final_scores``) of the given tableaux, one (face-up,
    face-down) pair of card-index lists per seat, laid out face-up cards first: the
    returned state holds each slot's points, the totals, breakdowns and Trickster
    identities (``points``, ``score``, ``breakdown``, ``trick_as``)."""
    ct = tb[0]
    s = new_state(ct.shape[0], tb[2].shape[0])
    for p, (up, down) in enumerate(tableaux):
        for slot, (c, face_up) in enumerate([(c, 1) for c in up] + [(c, 0) for c in down]):
            s.tab[p, slot] = c
            s.tab_up[p, slot] = face_up
            if face_up:
                s.cnt[p, c] += 1
                s.fcnt[p, ct[c, L.C_FACTION]] += 1
            else:
                s.dcnt[p, c] += 1
        s.tab_n[p] = len(up) + len(down)
        s.sm[L.SM_CNT + p] = _mask(s.cnt[p])
        s.sm[L.SM_DCNT + p] = _mask(s.dcnt[p])
    _score_end(kernel_tables(tb), s.flat, s.sm, len(tableaux))
    return s


def _mask(row: np.ndarray) -> np.uint64:
    """The card mask (bit t = card t) of the cards with a count above 0 in ``row``."""
    return np.uint64(sum(1 << int(t) for t in np.flatnonzero(row > 0)))


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


@hot_outline
def _play_on(kt, weights, st, sm, n_players, check, search):
    """Play the game in ``st`` on from where it is (``POS_*``) to the end, final scoring
    included; with ``check``, verify every invariant after each step and at the end
    (``POS_VIOL``: the code of the first one broken, ``INVARIANTS``). Returns True when it
    stopped at an ``mc`` seat's decision instead (``ASK_*``; call again once
    ``FORCE_SEAT`` / ``FORCE_IDX`` hold the choice). ``search``, a compile-time constant
    (a literal ``True`` or ``False`` at every call): whether the game can stop or resume
    within a round (an ``mc`` seat, a playout's forced first decision). The heuristics'
    kernel passes ``False``, so every stop check and resumed position is pruned from it
    and it plays a game from its start to its end."""
    beginner = kt[ix(L.K_RULES + L.R_BEGINNER)] == 1
    while st[ix(L.POS_ROUND)] < L.ROUNDS:
        rnd = st[ix(L.POS_ROUND)]
        first = beginner and rnd == 0
        if not search or st[ix(L.POS_PHASE)] == L.PH_DEAL:
            _deal(st, n_players, L.DEAL - 1 if first else L.DEAL)
        if not search or st[ix(L.POS_PHASE)] == L.PH_DRAFT:
            hand_size = L.DEAL - 1 if first else L.DEAL
            pick_offset = 1 if beginner else 0
            if _draft(kt, weights, st, sm, n_players, rnd, hand_size, pick_offset, search):
                return True
            if check and st[ix(L.POS_VIOL)] == 0:
                st[ix(L.POS_VIOL)] = _check_state(kt, st, sm, n_players, st[ix(L.POS_TOP)])
        plays = L.PLAYS - 1 if first else L.PLAYS
        if _play_round(kt, weights, st, sm, n_players, plays, check, search):
            return True
    _final_scores(kt, st, sm, n_players)
    st[ix(L.POS_PHASE)] = L.PH_END
    if check and st[ix(L.POS_VIOL)] == 0:
        st[ix(L.POS_VIOL)] = _check_final(st, n_players)
    return False


@hot_outline
def _search(kt, weights, st, sm, stw, smw, stp, smp, n_players, seed, game_id):
    """The ``mc`` decision asked at ``ASK_*`` (``mc.py``): the ``top`` distinct candidates
    best by greedy's value (``mc.rank``), each played out ``rollouts`` times from the same
    determinized worlds (``stw``/``smw``: ``mc.rewind_step`` and ``mc.determinize`` on a
    copy of the game, one world a rollout) by copies (``stp``/``smp``) in which every seat
    plays the ``playout`` heuristic, the candidate taken first (``FORCE_*``). Every random
    number comes from the search stream of (seed, game, seat, decision number), none from
    the game's. The index of the candidate with the best summed outcome (ties: greedy's
    first best)."""
    p = np.int64(st[ix(L.ASK_SEAT)])  # int64, as the decisions' own seat: no new specialisation
    rollouts = st[ix(L.MC_PAR + p * 3)]
    playout = st[ix(L.MC_PAR + p * 3 + 2)]
    number = st[ix(L.MC_DN + p)]
    st[ix(L.MC_DN + p)] = number + 1
    m = rank(
        kt,
        weights,
        st,
        sm,
        st[ix(L.ASK_DEC)],
        st[ix(L.ASK_CAND)],
        st[ix(L.ASK_N)],
        n_players,
        p,
        st[ix(L.ASK_HYP)] == 1,
        st[ix(L.ASK_NEIGH)],
        st[ix(L.MC_PAR + p * 3 + 1)],
    )
    if m == 1:
        return st[ix(L.MC_RANK)]
    st[ix(L.MC_PO + p)] += m * rollouts
    size = L.STATE_FIXED + kt[ix(L.K_DECK_SIZE)]
    for j in range(m):
        st[ix(L.MC_SUM + j)] = 0
    stream = search_state(seed, game_id, p, number)
    no_check = n_players < 0  # False, typed like _play_game's check (one _play_on compiled)
    for _ in range(rollouts):
        for i in range(size):
            stw[ix(i)] = st[ix(i)]
        for i in range(L.SM_SIZE):
            smw[ix(i)] = sm[ix(i)]
        smw[ix(L.SM_RNG)] = stream
        rewind_step(stw, n_players, p)
        determinize(kt, stw, smw, n_players, p)
        playout_state = rng_next(smw)
        stream = smw[ix(L.SM_RNG)]
        for q in range(n_players):
            stw[ix(L.POLICY + q)] = playout
        _seat_modes(weights, stw, n_players)
        for j in range(m):
            for i in range(size):
                stp[ix(i)] = stw[ix(i)]
            for i in range(L.SM_SIZE):
                smp[ix(i)] = smw[ix(i)]
            smp[ix(L.SM_RNG)] = playout_state
            stp[ix(L.FORCE_SEAT)] = p
            stp[ix(L.FORCE_IDX)] = st[ix(L.MC_RANK + j)]
            _play_on(kt, weights, stp, smp, n_players, no_check, True)
            st[ix(L.MC_SUM + j)] += outcome(stp, n_players, p)
    best = 0
    for j in range(1, m):
        if st[ix(L.MC_SUM + j)] > st[ix(L.MC_SUM + best)]:
            best = j
    return st[ix(L.MC_RANK + best)]


@hot_outline
def _play_game(kt, weights, st, sm, n_players, seed, game_id, check):
    """Play one complete game of heuristic seats into ``st`` (policies already set at
    ``POLICY``): a new game, then play on (it never stops: no seat searches). With
    ``check``, returns the code of the first invariant broken (``INVARIANTS``), else 0."""
    _new_game(kt, weights, st, sm, n_players, seed, game_id)
    _play_on(kt, weights, st, sm, n_players, check, False)
    return st[ix(L.POS_VIOL)]


@hot_outline
def _play_game_search(kt, weights, st, sm, stw, smw, stp, smp, n_players, seed, game_id, check):
    """``_play_game`` with ``mc`` seats: at each of their decisions the game stops,
    ``_search`` decides on copies (``stw``/``smw``, ``stp``/``smp``: scratch of the same
    sizes), and the game plays on with that choice. A kernel of its own
    (``simulate_chunk_search``), so runs of heuristics alone never compile the search."""
    _new_game(kt, weights, st, sm, n_players, seed, game_id)
    while _play_on(kt, weights, st, sm, n_players, check, True):
        i = _search(kt, weights, st, sm, stw, smw, stp, smp, n_players, seed, game_id)
        st[ix(L.FORCE_SEAT)] = st[ix(L.ASK_SEAT)]
        st[ix(L.FORCE_IDX)] = i
    return st[ix(L.POS_VIOL)]


@hot_outline
def _resume(kt, weights, st, sm, n_players):
    """``_play_on`` of a game that can stop and resume (``search``), as ``_search`` and
    ``_play_game_search`` compile it, without checking: the entry of ``play_on``."""
    return _play_on(kt, weights, st, sm, n_players, n_players < 0, True)


def play_game(
    tb: tuple,
    weights: np.ndarray,
    s: GameState,
    n_players: int,
    seed: np.uint64,
    game_id: int,
    check: bool,
) -> int:
    """``_play_game_search`` on a ``GameState`` (tables as the ``Tables`` tuple; policies at
    ``s.policy``, an mc seat's parameters at ``s.mc_par``)."""
    stw, smw = np.zeros_like(s.flat), np.zeros_like(s.sm)
    stp, smp = np.zeros_like(s.flat), np.zeros_like(s.sm)
    return int(
        _play_game_search(
            kernel_tables(tb), weights, s.flat, s.sm, stw, smw, stp, smp, n_players, seed,
            game_id, check,
        )
    )  # fmt: skip


def new_game(
    tb: tuple, weights: np.ndarray, s: GameState, n_players: int, seed: np.uint64, game_id: int
) -> None:
    """``_new_game`` on a ``GameState`` (policies at ``s.policy``)."""
    _new_game(kernel_tables(tb), weights, s.flat, s.sm, n_players, seed, game_id)


def play_on(tb: tuple, weights: np.ndarray, s: GameState, n_players: int) -> bool:
    """``_play_on`` on a ``GameState``: True if it stopped at an mc seat's decision."""
    return bool(_resume(kernel_tables(tb), weights, s.flat, s.sm, n_players))


def search(
    tb: tuple, weights: np.ndarray, s: GameState, n_players: int, seed: np.uint64, game_id: int
) -> tuple[int, list[int]]:
    """``_search`` of the decision ``s`` stopped at: (the candidate chosen, each searched
    candidate's summed outcome in ``mc.OUTCOME_UNIT``s, in greedy's order)."""
    stw, smw = np.zeros_like(s.flat), np.zeros_like(s.sm)
    stp, smp = np.zeros_like(s.flat), np.zeros_like(s.sm)
    i = _search(
        kernel_tables(tb), weights, s.flat, s.sm, stw, smw, stp, smp, n_players, seed, game_id
    )
    cand, n, top = (
        int(s.flat[L.ASK_CAND]),
        int(s.flat[L.ASK_N]),
        int(s.mc_par[s.flat[L.ASK_SEAT], 1]),
    )
    m = min(top, len(set(s.flat[cand : cand + n].tolist())))
    return int(i), [int(x) for x in s.flat[L.MC_SUM : L.MC_SUM + m]]


def answer(s: GameState, i: int) -> None:
    """Give the decision ``s`` stopped at the answer ``i`` (then ``play_on`` again)."""
    s.flat[L.FORCE_SEAT] = s.flat[L.ASK_SEAT]
    s.flat[L.FORCE_IDX] = i


# --- many games --------------------------------------------------------------------------


class ChunkOut(NamedTuple):
    """Result buffers of a chunk, indexed by game offset ``i`` (then seat, then pick)."""

    score: np.ndarray  # int16[n, P]
    breakdown: np.ndarray  # int16[n, P, N_BREAKDOWN]
    face_down: np.ndarray  # int8[n, P]: face-down tableau cards at the end
    policy: np.ndarray  # int8[n, P]: policy id of each seat
    trick: np.ndarray  # int16[n]: identity taken by a face-up Trickster, -1
    card: np.ndarray  # int16[n, P, PICKS]: cards received, in order
    round: np.ndarray  # int8[n, P, PICKS]
    pick: np.ndarray  # int8[n, P, PICKS]
    played: np.ndarray  # bool[n, P, PICKS]
    face_up: np.ndarray  # bool[n, P, PICKS]: played and face up at the end
    points: np.ndarray  # int16[n, P, PICKS]: final points (0 unless face up)
    violation: np.ndarray  # int8[n]: checking mode: first broken invariant (INVARIANTS), 0


def new_chunk_out(n_games: int, n_players: int) -> ChunkOut:
    """Allocate the result buffers of a chunk (in Python, before the kernel runs), zeroed
    and already backed by memory (``zeroed_buffers``)."""
    n, P = n_games, n_players
    return ChunkOut(
        *zeroed_buffers(
            [
                ((n, P), np.int16),
                ((n, P, L.N_BREAKDOWN), np.int16),
                ((n, P), np.int8),
                ((n, P), np.int8),
                ((n,), np.int16),
                ((n, P, L.PICKS), np.int16),
                ((n, P, L.PICKS), np.int8),
                ((n, P, L.PICKS), np.int8),
                ((n, P, L.PICKS), np.bool_),
                ((n, P, L.PICKS), np.bool_),
                ((n, P, L.PICKS), np.int16),
                ((n,), np.int8),
            ]
        )
    )


@hot
def _seat_up(st, slot_table, seat_slot, rotate, n_players, g):
    """Game ``g``'s seats: each seat's slot, policy and mc parameters (``slot_table``)."""
    for p in range(n_players):
        slot = seat_slot[(p + g) % n_players] if rotate else seat_slot[p]
        st[ix(L.SLOT + p)] = slot
        st[ix(L.POLICY + p)] = slot_table[slot, 0]
        for k in range(3):
            st[ix(L.MC_PAR + p * 3 + k)] = slot_table[slot, 1 + k]


@hot
def _store(out, st, u, n_players):
    """Game offset ``u``'s results from ``st`` into ``out`` (indexed through ``ix`` too: no
    wrap-around code for negative indices)."""
    out.trick[u] = -1
    for p in range(n_players):
        q = ix(p)
        out.score[u, q] = st[ix(L.SCORE + p)]
        out.policy[u, q] = st[ix(L.SLOT + p)]
        for b in range(L.N_BREAKDOWN):
            out.breakdown[u, q, ix(b)] = st[ix(L.BREAKDOWN + p * L.N_BREAKDOWN + b)]
        down = 0
        for slot in range(st[ix(L.TAB_N + p)]):
            down += 1 - st[ix(L.TAB_UP + p * L.TABLEAU + slot)]
        out.face_down[u, q] = down
        if st[ix(L.TRICK_AS + p)] >= 0:
            out.trick[u] = st[ix(L.TRICK_AS + p)]
        for k in range(L.PICKS):
            v = ix(k)
            slot = st[ix(L.PICK_SLOT + p * L.PICKS + k)]
            out.card[u, q, v] = st[ix(L.PICK_CARD + p * L.PICKS + k)]
            out.round[u, q, v] = st[ix(L.PICK_ROUND + p * L.PICKS + k)]
            out.pick[u, q, v] = st[ix(L.PICK_NO + p * L.PICKS + k)]
            out.played[u, q, v] = slot >= 0
            out.face_up[u, q, v] = slot >= 0 and st[ix(L.TAB_UP + p * L.TABLEAU + slot)] == 1
            out.points[u, q, v] = st[ix(L.POINTS + p * L.TABLEAU + slot)] if slot >= 0 else 0


@alloc  # the block scratch
def _run_block(
    kt, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, lo, hi, out, check
):
    """Play game offsets ``lo .. hi-1`` of a chunk of heuristic seats with one scratch
    state."""
    st = np.zeros(state_size(kt[ix(L.K_DECK_SIZE)]), np.int32)
    sm = np.zeros(L.SM_SIZE, np.uint64)
    for i in range(lo, hi):
        g = first_game + i
        _seat_up(st, slot_table, seat_slot, rotate, n_players, g)
        u = ix(i)
        out.violation[u] = _play_game(kt, weights, st, sm, n_players, seed, g, check)
        _store(out, st, u, n_players)


@alloc  # the block scratch
def _run_block_search(
    kt, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, lo, hi, out, check
):
    """``_run_block`` with ``mc`` seats: one scratch state and, for the searches, two
    copies of it (allocated once per block)."""
    size = state_size(kt[ix(L.K_DECK_SIZE)])
    st = np.zeros(size, np.int32)
    sm = np.zeros(L.SM_SIZE, np.uint64)
    stw = np.zeros(size, np.int32)
    smw = np.zeros(L.SM_SIZE, np.uint64)
    stp = np.zeros(size, np.int32)
    smp = np.zeros(L.SM_SIZE, np.uint64)
    for i in range(lo, hi):
        g = first_game + i
        _seat_up(st, slot_table, seat_slot, rotate, n_players, g)
        u = ix(i)
        out.violation[u] = _play_game_search(
            kt, weights, st, sm, stw, smw, stp, smp, n_players, seed, g, check
        )
        _store(out, st, u, n_players)


@parallel
def simulate_chunk(
    tb,
    weights,
    slot_table,
    seat_slot,
    rotate,
    n_players,
    seed,
    first_game,
    n_games,
    n_blocks,
    out,
    check,
):
    """Play games ``first_game .. first_game + n_games - 1`` of heuristic seats into ``out``
    (a ``ChunkOut``); ``tb`` is the ``tables.Tables`` (a NamedTuple of arrays, read by
    name). Blocks of games run in parallel; each block allocates its scratch once. Seat s
    of game g plays the spec of
    slot ``seat_slot[(s + g) % n]`` if ``rotate`` (else ``seat_slot[s]``): row
    ``slot_table[slot]`` = (policy, mc rollouts, mc top, mc playout policy). ``check``:
    checking mode (``out.violation``). A run with ``mc`` seats: ``simulate_chunk_search``."""
    kt = build_tables(tb.ct, tb.deps, tb.deck, tb.id_order, tb.in_deck, tb.rules, tb.sel)
    for b in prange(n_blocks):
        lo = b * n_games // n_blocks
        hi = (b + 1) * n_games // n_blocks
        _run_block(
            kt,
            weights,
            slot_table,
            seat_slot,
            rotate,
            n_players,
            seed,
            first_game,
            lo,
            hi,
            out,
            check,
        )


@parallel
def simulate_chunk_search(
    tb,
    weights,
    slot_table,
    seat_slot,
    rotate,
    n_players,
    seed,
    first_game,
    n_games,
    n_blocks,
    out,
    check,
):
    """``simulate_chunk`` for runs with ``mc`` seats (a kernel of its own: a run of
    heuristics never compiles the search)."""
    kt = build_tables(tb.ct, tb.deps, tb.deck, tb.id_order, tb.in_deck, tb.rules, tb.sel)
    for b in prange(n_blocks):
        lo = b * n_games // n_blocks
        hi = (b + 1) * n_games // n_blocks
        _run_block_search(
            kt,
            weights,
            slot_table,
            seat_slot,
            rotate,
            n_players,
            seed,
            first_game,
            lo,
            hi,
            out,
            check,
        )
