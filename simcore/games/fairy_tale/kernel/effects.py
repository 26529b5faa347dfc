"""The play steps (``docs/rules/fairy-tale.md`` §4): reveal, Hunt, Open, Close (a
maximum matching of closed cards to Close effects), and a round of them (``_play_round``).
"""

from __future__ import annotations

from talesim.simcore.jit import hot

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)

# The codes and offsets passed as call arguments are imported by name: numba types an
# imported name as a literal, so each decision's ``_decide`` / ``policies.choose*`` and each
# matching's ``_augment`` compile specialised to their value, as a module attribute (an
# ``int64``) would not (one general copy of each, a slower compile: see ``layout.py``).
from ..layout import (
    CAND,
    D_CLOSE,
    D_OPEN,
    D_PLAY,
    EFF_MATCH,
    SLOT_MATCH,
    TMP_EFF,
    TMP_SLOT,
    bit,
    ix,
    kmask,
    selects,
)
from .check import _check_state
from .decide import _decide
from .state import _count_down, _to_tableau, _turn


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
    allow (a maximum matching, §4.4), choosing the cards one at a time; ``begun``:
    the matching at ``SLOT_MATCH``/``EFF_MATCH`` holds the cards closed so far (a resumed
    game). Returns True when an ``mc`` seat was asked (``POS_SUB`` = 1: matching begun)."""
    n_eff = st[ix(L.CE_N + p)]
    if n_eff == 1:  # the usual case: one effect, close one matching card (no matching needed)
        n = _candidates(kt, st, p, st[ix(L.CE + p * L.MAX_CLOSES)], 1)
        if n > 0:
            i = _decide(kt, weights, st, sm, D_CLOSE, CAND, n, n_players, p, False, p, search)
            if search and i < 0:
                return True
            _turn(kt, st, sm, p, st[ix(L.CAND_SLOT + i)], 0)
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
        _turn(kt, st, sm, p, slot, 0)


@hot
def _hunt(kt, st, sm, n_players):
    """§4.2: each Hunt card turns face down every card of its faction revealed in
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
                _turn(kt, st, sm, q, st[ix(L.REV_SLOT + q)], 0)


@hot
def _resolve_step(kt, weights, st, sm, n_players, search):
    """The Open, then the Close effects of one play step (§4.3, §4.4), from the position
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
                _turn(kt, st, sm, p, st[ix(L.CAND_SLOT + i)], 1)
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
