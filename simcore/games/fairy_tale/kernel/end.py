"""Final scoring (``docs/rules/fairy-tale.md`` §5): Tricksters take their identity,
every face-up card scores; ``score_end_state``, the entry of ``talesim score``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from talesim.simcore.jit import hot, hot_outline

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import bit, ix
from ..scoring import closed_gain, closed_gain_cards, copy_value, gain_if_added
from .state import GameState, kernel_tables, new_state

if TYPE_CHECKING:
    from ..tables import Tables


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
    """§5: face-down cards score 0; Tricksters take their identity (seat order);
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


def score_end_state(tb: Tables, tableaux: list[tuple[list[int], list[int]]]) -> GameState:
    """The kernel's final scoring (``_final_scores``) of the given tableaux, one (face-up,
    face-down) pair of card-index lists per seat, laid out face-up cards first: the
    returned state holds each slot's points, the totals, breakdowns and Trickster
    identities (``points``, ``score``, ``breakdown``, ``trick_as``)."""
    ct = tb.ct
    s = new_state(ct.shape[0], tb.deck.shape[0])
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
