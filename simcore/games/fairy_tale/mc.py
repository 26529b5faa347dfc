"""The ``mc`` search policy's parts on the flat state (``kernel._search`` drives them):
candidates ranked by greedy, the step rewound, the hidden cards dealt anew, the outcome.

``reference/`` restates each function (``FairyTaleGame.ranked_options``,
``rewind_step``, ``determinize``, ``outcome``) and makes the same draws in the same order,
so both play the same games (``tests/fairy_tale/test_mc.py``). What a seat knows and how
the hidden cards are dealt: ``reference.FairyTaleGame.determinize``.
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot
from talesim.simcore.rng import rng_below

from . import layout as L  # noqa: N812 (the schema, read as L.NAME)
from .layout import P_GREEDY, bit, data_ptr, ix, places_cap
from .policies import choose, policy_weights

#: A playout's outcome in whole units (``reference.OUTCOME_UNIT`` etc.): a win is worth
#: ``OUTCOME_UNIT // k`` shared k ways, plus ``MARGIN_WEIGHT`` a point of margin over the
#: best other score, clipped to ``±MARGIN_CLIP``: win + 0.001 x margin.
OUTCOME_UNIT = 60_000
MARGIN_WEIGHT = 60
MARGIN_CLIP = 50


@hot
def rank(kt, weights, st, sm, decision, cand, n, n_players, p, use_hyp, neighbour, top):
    """Fill ``MC_RANK`` with the indices (among ``st[cand : cand + n]``) of the ``top`` best
    distinct candidates by greedy's value, best first, ties in candidate order: greedy's
    first best among those not ranked yet, one after the other (``policies.choose``, the
    same values as greedy's decisions). Returns how many."""
    k = 0
    seen = L.ZERO
    for i in range(n):
        c = st[ix(cand + i)]
        if (seen & bit(c)) == L.ZERO:
            seen |= bit(c)
            st[ix(L.MC_LIST + k)] = c
            st[ix(L.MC_LIDX + k)] = i
            k += 1
    own = L.HYP + p * L.MC if use_hyp else L.CNT + p * L.MC
    ownf = L.HFC + p * L.NF if use_hyp else L.FCNT + p * L.NF
    held = sm[ix(L.SM_HYP + p)] if use_hyp else sm[ix(L.SM_CNT + p)]
    w = policy_weights(weights, P_GREEDY)  # a literal, as the kernel's own calls
    m = min(top, k)
    for r in range(m):
        left = k - r
        j = 0
        if left > 1:
            j = choose(  # argument types as kernel._decide's calls: no new specialisation
                np.int32(L.P_GREEDY),
                w,
                np.int64(decision),
                data_ptr(kt),
                data_ptr(st),
                data_ptr(sm),
                np.int64(L.MC_LIST),
                np.int32(left),
                own,
                ownf,
                held,
                n_players,
                np.int64(p),
                np.int64(neighbour),
            )
        st[ix(L.MC_RANK + r)] = st[ix(L.MC_LIDX + j)]
        for i in range(j, left - 1):
            st[ix(L.MC_LIST + i)] = st[ix(L.MC_LIST + i + 1)]
            st[ix(L.MC_LIDX + i)] = st[ix(L.MC_LIDX + i + 1)]
    return m


@hot
def rewind_step(st, n_players, p):
    """Take back the choices of the seats before ``p`` in this draft or play step (the step
    is simultaneous: ``p`` does not know them; the playouts make them again) and move the
    position to the step's first seat."""
    phase = st[ix(L.POS_PHASE)]
    if phase == L.PH_DRAFT:
        shift = st[ix(L.POS_SHIFT)]
        for q in range(p):
            k = st[ix(L.KEPT_N + q)] - 1
            c = st[ix(L.KEPT + q * L.DEAL + k)]
            st[ix(L.KEPT_N + q)] = k
            st[ix(L.PICK_N + q)] -= 1
            h = q + shift
            if h >= n_players:
                h -= n_players
            st[ix(L.HAND + h * L.DEAL + st[ix(L.HAND_N + h)])] = c
            st[ix(L.HAND_N + h)] += 1
    elif phase == L.PH_PLAY:
        for q in range(p):
            c = st[ix(L.REVEALED + q)]
            pick = st[ix(L.REV_SLOT + q)]  # the pick index until the reveal
            i = st[ix(L.KEPT_N + q)]
            while i > 0 and st[ix(L.KEPT_PICK + q * L.DEAL + i - 1)] > pick:
                st[ix(L.KEPT + q * L.DEAL + i)] = st[ix(L.KEPT + q * L.DEAL + i - 1)]
                st[ix(L.KEPT_PICK + q * L.DEAL + i)] = st[ix(L.KEPT_PICK + q * L.DEAL + i - 1)]
                i -= 1
            st[ix(L.KEPT + q * L.DEAL + i)] = c
            st[ix(L.KEPT_PICK + q * L.DEAL + i)] = pick
            st[ix(L.KEPT_N + q)] += 1
    else:
        return
    st[ix(L.POS_SEAT)] = 0


@hot
def _group(n_players, p, back, h, step):
    """0, or 1 + h * DEAL + (k - 1) for a card of row h taken at (or still in it at)
    ``step`` after seat p's k-th look at row h (p reads row ``(p + s * back) % n`` at s)."""
    looks = 0
    for s in range(step):
        if (p + s * back) % n_players == h:
            looks += 1
    return 1 + h * L.DEAL + looks - 1 if looks > 0 else 0


@hot
def _deal_group(kt, st, sm, g, grp, places, pgrp, n_places, cards):
    """Shuffle the cards counted at ``st[grp : grp + MC]`` (listed by card index, into
    ``cards``) and deal them to the places of group ``g`` in order (a kept card's pick
    record follows it); the pool may have more cards than places (the rest: discards)."""
    n = 0
    for c in range(kt[ix(L.K_N_CARDS)]):
        for _ in range(st[ix(grp + c)]):
            st[ix(cards + n)] = c
            n += 1
    for i in range(n - 1, 0, -1):  # GameRng.shuffle
        j = rng_below(sm, i + 1)
        tmp = st[ix(cards + i)]
        st[ix(cards + i)] = st[ix(cards + j)]
        st[ix(cards + j)] = tmp
    k = 0
    for i in range(n_places):
        if st[ix(pgrp + i)] != g:
            continue
        off = st[ix(places + i)]
        c = st[ix(cards + k)]
        k += 1
        st[ix(off)] = c
        if L.KEPT <= off < L.KEPT + L.MAX_PLAYERS * L.DEAL:
            q = (off - L.KEPT) // L.DEAL
            st[ix(L.PICK_CARD + q * L.PICKS + st[ix(off - L.KEPT + L.KEPT_PICK)])] = c


@hot
def determinize(kt, st, sm, n_players, p):
    """Deal the cards seat ``p`` cannot see anew, consistently with what it has seen, from
    the stream at ``sm[SM_RNG]`` (``reference.FairyTaleGame.determinize``, same draws)."""
    deck_size = kt[ix(L.K_DECK_SIZE)]
    n_cards = kt[ix(L.K_N_CARDS)]
    base = L.DECK + deck_size
    grp = base + L.D_GRP
    stepg = base + L.D_STEP
    rowg = base + L.D_ROW
    pool = base + L.D_POOL
    places = base + L.D_PLACE
    cap = places_cap(deck_size)
    pgrp = places + cap
    cards = pgrp + cap
    rnd = st[ix(L.POS_ROUND)]
    drafting = st[ix(L.POS_PHASE)] == L.PH_DRAFT
    beginner = kt[ix(L.K_RULES + L.R_BEGINNER)] == 1
    hand_size = L.DEAL - 1 if beginner and rnd == 0 else L.DEAL
    back = n_players - 1 if rnd % 2 == 0 else 1
    now = st[ix(L.POS_STEP)]
    seen = now if drafting else hand_size
    n_groups = 1 + n_players * L.DEAL
    for i in range(n_groups * L.MC):
        st[ix(grp + i)] = 0
    for q in range(n_players):
        if q == p:
            continue
        first = st[ix(L.PICK_N + q)] - seen
        for s in range(seen):
            g = _group(n_players, p, back, (q + s * back) % n_players, s)
            st[ix(stepg + q * L.DEAL + s)] = g
            if g > 0:
                st[ix(grp + g * L.MC + st[ix(L.PICK_CARD + q * L.PICKS + first + s)])] += 1
    own_row = (p + now * back) % n_players if drafting else -1
    for h in range(n_players):
        g = 0
        if drafting and h != own_row:
            g = _group(n_players, p, back, h, now)
            if g > 0:
                for j in range(st[ix(L.HAND_N + h)]):
                    st[ix(grp + g * L.MC + st[ix(L.HAND + h * L.DEAL + j)])] += 1
        st[ix(rowg + h)] = g
    # The play steps: a group that a card a seat revealed this round could come from (the
    # seat took a card of the group, and the group holds that card) is forgotten, its
    # cards join the pool; then every revealed card came from a pick of no group.
    if not drafting:
        for q in range(n_players):
            if q == p:
                continue
            n_rev = hand_size - st[ix(L.KEPT_N + q)]
            for s in range(seen):
                g = st[ix(stepg + q * L.DEAL + s)]
                if g == 0:
                    continue
                hit = False
                for r in range(n_rev):
                    c = st[ix(L.TAB + q * L.TABLEAU + st[ix(L.TAB_N + q)] - n_rev + r)]
                    if st[ix(grp + g * L.MC + c)] > 0:
                        hit = True
                if hit:
                    for c in range(L.MC):
                        st[ix(grp + g * L.MC + c)] = 0
        for q in range(n_players):
            if q == p:
                continue
            for s in range(seen):
                g = st[ix(stepg + q * L.DEAL + s)]
                if g > 0:
                    empty = True
                    for c in range(n_cards):
                        if st[ix(grp + g * L.MC + c)] > 0:
                            empty = False
                    if empty:
                        st[ix(stepg + q * L.DEAL + s)] = 0
    # the hidden places in order: the other seats' kept cards, the hands, the deck
    n_places = 0
    for q in range(n_players):
        if q == p:
            continue
        free = hand_size - st[ix(L.KEPT_N + q)] if not drafting else 0  # picks revealed
        i = 0
        for s in range(seen):
            g = st[ix(stepg + q * L.DEAL + s)]
            if g == 0 and free > 0:
                free -= 1  # a revealed card came from this pick
                continue
            st[ix(places + n_places)] = L.KEPT + q * L.DEAL + i
            st[ix(pgrp + n_places)] = g
            n_places += 1
            i += 1
    for h in range(n_players):
        if drafting and h != own_row:
            for j in range(st[ix(L.HAND_N + h)]):
                st[ix(places + n_places)] = L.HAND + h * L.DEAL + j
                st[ix(pgrp + n_places)] = st[ix(rowg + h)]
                n_places += 1
    for i in range(st[ix(L.POS_TOP)], deck_size):
        st[ix(places + n_places)] = L.DECK + i
        st[ix(pgrp + n_places)] = 0
        n_places += 1
    # the pool: the deck minus what p sees minus the groups
    for c in range(L.MC):
        st[ix(pool + c)] = 0
    for i in range(deck_size):
        st[ix(pool + kt[ix(L.K_DECK + i)])] += 1
    for q in range(n_players):
        for slot in range(st[ix(L.TAB_N + q)]):
            st[ix(pool + st[ix(L.TAB + q * L.TABLEAU + slot)])] -= 1
    for k in range(st[ix(L.PICK_N + p)]):
        if st[ix(L.PICK_SLOT + p * L.PICKS + k)] < 0:
            st[ix(pool + st[ix(L.PICK_CARD + p * L.PICKS + k)])] -= 1
    if drafting:
        for j in range(st[ix(L.HAND_N + own_row)]):
            st[ix(pool + st[ix(L.HAND + own_row * L.DEAL + j)])] -= 1
    for g in range(1, n_groups):
        for c in range(n_cards):
            st[ix(pool + c)] -= st[ix(grp + g * L.MC + c)]
    for g in range(1, n_groups):
        _deal_group(kt, st, sm, g, grp + g * L.MC, places, pgrp, n_places, cards)
    _deal_group(kt, st, sm, 0, pool, places, pgrp, n_places, cards)
    # what a drafter counts on: the other seats' face-up cards and their new kept cards
    for q in range(n_players):
        if q == p:
            continue
        for c in range(L.MC):
            st[ix(L.HYP + q * L.MC + c)] = st[ix(L.CNT + q * L.MC + c)]
        for f in range(L.NF):
            st[ix(L.HFC + q * L.NF + f)] = st[ix(L.FCNT + q * L.NF + f)]
        for i in range(st[ix(L.KEPT_N + q)]):
            c = st[ix(L.KEPT + q * L.DEAL + i)]
            st[ix(L.HYP + q * L.MC + c)] += 1
            st[ix(L.HFC + q * L.NF + kt[ix(L.K_FACTION + c)])] += 1
        m = L.ZERO
        for c in range(L.MC):
            if st[ix(L.HYP + q * L.MC + c)] > 0:
                m |= bit(c)
        sm[ix(L.SM_HYP + q)] = m


@hot
def outcome(st, n_players, p):
    """Seat ``p``'s result of a finished game in ``OUTCOME_UNIT``s: its share of the win
    plus ``MARGIN_WEIGHT`` x its margin over the best other score, clipped."""
    own = st[ix(L.SCORE + p)]
    top = own
    other = -(1 << 30)
    for q in range(n_players):
        s = st[ix(L.SCORE + q)]
        top = max(top, s)
        if q != p:
            other = max(other, s)
    k = 0
    for q in range(n_players):
        if st[ix(L.SCORE + q)] == top:
            k += 1
    win = OUTCOME_UNIT // k if own == top else 0
    margin = max(-MARGIN_CLIP, min(MARGIN_CLIP, own - other))
    return win + MARGIN_WEIGHT * margin


_ = L.SM_RNG  # the stream a determinization draws from (rng_below reads sm[SM_RNG])
