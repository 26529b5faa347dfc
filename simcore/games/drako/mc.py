"""The ``mc`` search policy's parts on the kernel's state (``kernel._search`` drives them):
a decision's options, ranked by greedy, the state copied, the hidden cards dealt anew, the
outcome. The ``learned`` player ranks its options the same way (``learned.py``).

``reference/`` restates each one (``DrakoGame.search``, ``source_values``,
``determinize``, ``outcome``, ``clone``) and makes the same draws in the same order, so
both play the same games (``tests/drako/test_mc.py``).
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot
from talesim.simcore.rng import rng_shuffle

from . import layout as L  # noqa: N812 (the schema, read as L.NAME)

# Passed as a call argument, so imported by name (numba types an imported name as a literal,
# ``L.NAME`` as an ``int64``: see ``layout.py``).
from .layout import SRC_DISCARD, ix
from .policies import best_action, hidden_pool, legal_actions


@hot
def decision_options(tb, s, p):
    """The options of seat ``p``'s asked decision (``meta[M_STEP]``; ``s`` its
    ``kernel.seat_view``): ``s.act_*`` filled with the actions in enumeration order, and
    (the card they place, their number, whether drawing is an option after them). The
    source: each placement of the top discard (none, card -1, without one) and drawing
    when the deck has cards; the action: the card in hand's actions from its source."""
    if s.meta[L.M_STEP] == L.STEP_SOURCE:
        n_act = 0
        card = np.int32(-1)
        if s.meta[L.M_DISC_N] > 0:
            card = s.discard[s.meta[L.M_DISC_N] - 1]
            n_act = legal_actions(tb, s, p, SRC_DISCARD, card)
        return card, n_act, s.meta[L.M_DECK_N] > 0
    card = s.meta[L.M_HAND]
    return card, legal_actions(tb, s, p, s.meta[L.M_SRC], card), False


@hot
def rank(tb, weights, s, p, card, n_act, top, draw, bar):
    """Fill ``s.mc_rank`` with the ``top`` best options, best first by greedy's value, ties
    in option order: the actions of ``s.act_*`` (indices 0 .. n_act - 1; ``card`` in hand)
    and, when ``draw``, drawing (index ``n_act``, valued ``bar``: greedy draws when no
    placement is worth that much). Greedy's first best among the options not ranked yet,
    one after the other (``policies.best_action``: the values greedy decides by; its memo
    makes the later calls cheap). ``s.act_*`` is left shuffled. Returns how many."""
    for i in range(n_act):
        s.mc_list[ix(i)] = i
    left = n_act
    m = min(top, n_act + (1 if draw else 0))
    pending = draw
    for r in range(m):
        if left == 0:
            s.mc_rank[ix(r)] = n_act
            pending = False
            continue
        j, v = best_action(tb, weights, s, p, card, left)
        if pending and v < bar:
            s.mc_rank[ix(r)] = n_act
            pending = False
            continue
        s.mc_rank[ix(r)] = s.mc_list[ix(j)]
        for i in range(j, left - 1):
            s.act_cell[ix(i)] = s.act_cell[ix(i + 1)]
            s.act_rev[ix(i)] = s.act_rev[ix(i + 1)]
            s.mc_list[ix(i)] = s.mc_list[ix(i + 1)]
        left -= 1
    return m


@hot
def _cp1(dst, src):
    for i in range(src.shape[0]):
        dst[ix(i)] = src[ix(i)]


@hot
def _cp2(dst, src):
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[ix(i), ix(j)] = src[ix(i), ix(j)]


@hot
def _cp3(dst, src):
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            for k in range(src.shape[2]):
                dst[ix(i), ix(j), ix(k)] = src[ix(i), ix(j), ix(k)]


@hot
def copy_state(d, s):
    """Copy game state ``s`` into ``d`` (allocated alike, once per block): every array but
    the views of seat rows (``reach`` ... ``prow``: the ``seat_*`` rows are copied)."""
    _cp1(d.rng, s.rng)
    _cp1(d.meta, s.meta)
    _cp1(d.deck, s.deck)
    _cp1(d.discard, s.discard)
    _cp1(d.ldeck, s.ldeck)
    _cp1(d.river, s.river)
    _cp2(d.grid, s.grid)
    _cp2(d.up, s.up)
    _cp2(d.replaced, s.replaced)
    _cp2(d.placed, s.placed)
    _cp2(d.claim_g, s.claim_g)
    _cp2(d.claim_t, s.claim_t)
    _cp1(d.claim_n, s.claim_n)
    _cp1(d.turns, s.turns)
    _cp1(d.ended, s.ended)
    _cp1(d.policy, s.policy)
    _cp1(d.copies, s.copies)
    _cp1(d.seen, s.seen)
    _cp1(d.kept, s.kept)
    _cp1(d.kept_claims, s.kept_claims)
    _cp1(d.dirty, s.dirty)
    _cp1(d.near_terms, s.near_terms)
    _cp2(d.gain, s.gain)
    _cp2(d.xval, s.xval)
    _cp1(d.xmask, s.xmask)
    _cp2(d.seat_reach, s.seat_reach)
    _cp2(d.seat_kmask, s.seat_kmask)
    _cp3(d.seat_dtame, s.seat_dtame)
    _cp2(d.seat_kfacts, s.seat_kfacts)
    _cp3(d.seat_prow, s.seat_prow)
    _cp2(d.seat_goal, s.seat_goal)
    _cp3(d.seat_ready, s.seat_ready)
    _cp2(d.mc_par, s.mc_par)
    _cp1(d.model, s.model)
    _cp1(d.slot, s.slot)
    _cp1(d.mc_dn, s.mc_dn)
    for t in range(s.meta[L.M_TURN]):  # the draw log's records so far
        d.draws[ix(t)] = s.draws[ix(t)]


@hot
def forget_caches(s, n_players):
    """Drop every kept cache and the value memo: a new game, or a world whose seats change
    policy."""
    s.meta[L.M_LOADED] = -1
    s.meta[L.M_CLAIMS_OK] = 0
    s.meta[L.M_MEMO_OK] = 0
    s.meta[L.M_MET_OK] = 0
    for q in range(n_players):
        s.kept[ix(q)] = 0
        s.kept_claims[ix(q)] = 0
        s.dirty[ix(q)] = 0


@hot
def determinize(s, n_players, hand):
    """Deal what the searching seat cannot see anew from the stream at ``s.rng``
    (``reference.DrakoGame.determinize``, same draws): the pool (the box minus the face-up
    kingdom cards, the discard pile and the card in hand ``hand``, -1: none), listed by
    kind and shuffled, goes to every face-down cell (seat 0 first, cells in order), then to
    the draw pile from the bottom up; then the legend deck, listed by index, is
    shuffled."""
    hidden_pool(s, hand)
    n = 0
    for k in range(L.N_KINDS):
        for _ in range(s.pool[ix(k)]):
            s.aside[ix(n)] = k
            n += 1
    rng_shuffle(s.rng, s.aside, n)
    i = 0
    for q in range(n_players):
        for c in range(L.CELLS):
            if s.up[ix(q), ix(c)] == 0:
                s.grid[ix(q), ix(c)] = s.aside[ix(i)]
                i += 1
    for d in range(s.meta[L.M_DECK_N]):
        s.deck[ix(d)] = s.aside[ix(i)]
        i += 1
    n_ld = s.meta[L.M_LD_N]
    for a in range(1, n_ld):  # insertion sort: the legend deck by index
        g = s.ldeck[ix(a)]
        b = a
        while b > 0 and s.ldeck[ix(b - 1)] > g:
            s.ldeck[ix(b)] = s.ldeck[ix(b - 1)]
            b -= 1
        s.ldeck[ix(b)] = g
    rng_shuffle(s.rng, s.ldeck, n_ld)


@hot
def outcome(s, n_players, p):
    """Seat ``p``'s result of a finished game in ``OUTCOME_UNIT``s: its share of the win
    (rank 1 after the tie-break) plus ``MARGIN_WEIGHT`` x its margin over the best other
    score, clipped."""
    k = 0
    other = -(1 << 30)
    for q in range(n_players):
        if s.rank[ix(q)] == 1:
            k += 1
        if q != p:
            other = max(other, s.score[ix(q)])
    win = L.OUTCOME_UNIT // k if s.rank[ix(p)] == 1 else 0
    margin = max(-L.MARGIN_CLIP, min(L.MARGIN_CLIP, s.score[ix(p)] - other))
    return win + L.MARGIN_WEIGHT * margin
