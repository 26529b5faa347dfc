"""§2.1 Recruitment: the deal, the draft (``draft_choice``) and the hands, both
variants. §N: ``docs/rules/paper-tales.md``.
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot, hot_outline

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..evaluate.strength import l_strength
from ..layout import (
    D_DRAFT,  # passed as call arguments (see layout.py)
    ix,
)
from .sketch import (
    _card_value_from,
    _l_base_pass,
    _l_card_value,
    _sketch_base,
    first_best,
    unvalued_choice,
)
from .state import _draw, _freeze, _load, _receive, _searched, _set_seen, _to_discard_by, _two


@hot
def _draft_twin(s, p):
    """The first seat whose draft values seat ``p``'s are (``card_value`` reads the policy,
    gold, neighbour strengths, the pieces' units, tokens and states, and the levels; all
    stay as they are during Recruitment): such seats share their values of a unit. On the
    first turn every seat of one policy has the same empty kingdom, gold and zero
    strengths, and the packs pass round the table: ~35 of a game's ~200 draft values."""
    for q in range(p):
        if _same_draft_view(s, p, q):
            return q
    return p


@hot
def _same_draft_view(s, p, q):
    """Seats ``p`` and ``q`` value every unit alike (``_draft_twin``)."""
    for c in (L.I_POLICY, L.I_GOLD, L.I_SEEN0, L.I_SEEN1):
        if s.pi[p, c] != s.pi[q, c]:
            return False
    for b in range(s.blevel.shape[1]):
        if s.blevel[p, b] != s.blevel[q, b]:
            return False
    for spot in range(L.MAX_SPOTS):
        if (s.sp[p, spot, L.S_CARD] < 0) != (s.sp[q, spot, L.S_CARD] < 0):
            return False
        if s.sp[p, spot, L.S_CARD] < 0:
            continue
        for c in (L.S_UNIT, L.S_AGE, L.S_FRESH, L.S_RESOLVED):
            if s.sp[p, spot, c] != s.sp[q, spot, c]:
                return False
    return True


@hot
def draft_choice(tb, weights, s, p, pack, m, discard, n_players, lx, ls):
    """Index in ``pack[:m]`` of the card to take (``discard``: to throw away, 2 players).
    ``Brain.draft_value``: ``card_value`` once per (seat, unit) and Recruitment phase; the
    seat's base sketch (``_sketch_base``) once per pick, when a unit is new to it. ``lx`` /
    ``ls`` (Legends tables and state; None in a base game, where numba prunes the Legends
    branch): a card type may be an artifact, valued with its zone; the seat's base
    sketch and first pass (``_l_base_pass``) once per pick, when a card is new to it."""
    k = unvalued_choice(s, p, m)
    if k >= 0:
        return k
    best = -np.inf
    chosen = 0
    n0 = -1
    others = 0
    t = ix(s.pi[p, L.I_TWIN])
    for i in range(m):
        u = tb.deck[ix(pack[i])]
        if not s.dvs[t, ix(u)]:
            if lx is None:
                if n0 < 0:
                    n0, others = _sketch_base(tb, s, p)
                s.dvf[t, ix(u)] = _card_value_from(tb, weights, s, p, u, n0, others, n_players)
            else:
                if n0 < 0:  # here ``others`` holds the sketch's artifacts
                    n0, others = _l_base_pass(tb, lx, weights, s, ls, p, n_players)
                s.dvf[t, ix(u)] = _l_card_value(tb, lx, weights, s, ls, p, u, n0, others, n_players)
            s.dvs[t, ix(u)] = 1
        v = s.dvf[t, ix(u)]
        if discard:
            v = -v
        best, chosen = first_best(i, v, best, chosen)
    return chosen


@hot_outline
def recruitment(tb, weights, s, n_players, turn, lx, ls, search):
    """``Game.recruitment`` (``lx`` / ``ls``: see ``draft_choice``). ``search`` (a
    compile-time constant): the game can stop at an mc seat's pick and resume at its draft
    step ``G_STEP`` and seat ``G_SEAT``; returns True when it stopped."""
    rules = tb.rules
    two = _two(n_players)
    deal = rules[L.R2_DEAL] if two else rules[L.R_DEAL]
    discards = rules[L.R2_DISCARD] if two else 0
    if not search or s.g[L.G_BEGUN] == 0:
        if lx is None:
            _freeze(tb, lx, s, ls, n_players)
        else:
            for q in range(n_players):
                n = _load(s, q)
                s.strength[q] = l_strength(tb, lx, s.pc, n, s.bl, ls, q)
            _set_seen(s, n_players)
        for p in range(n_players):
            for u in range(s.dvs.shape[1]):
                s.dvs[p, u] = 0
            s.pi[p, L.I_TWIN] = p if lx is not None else _draft_twin(s, p)
        for p in range(n_players):
            for i in range(deal):
                card = _draw(tb, s)
                s.packs[p, i] = card  # the reference asserts the piles never run dry
            s.pi[p, L.I_PACK_N] = deal
            s.pi[p, L.I_DRAFT_N] = 0
        s.g[L.G_BEGUN] = 1
        s.g[L.G_STEP] = 1
        s.g[L.G_SEAT] = 0
    first = rules[L.R_FIRST_DIRECTION]
    direction = first if turn % 2 == 1 else -first
    while s.g[L.G_SEAT] > 0 or s.pi[0, L.I_PACK_N] > 0:  # packs are equal at a step's start
        step = s.g[L.G_STEP]
        for p in range(s.g[L.G_SEAT], n_players):
            s.g[L.G_SEAT] = p
            m = s.pi[p, L.I_PACK_N]
            pack = s.packs[p]
            for r in range(1 + discards):  # the pick, then (2 players) the discards
                if r > 0 and m == 0:
                    break
                k = _searched(s, p, D_DRAFT, search and r == 0 and m > 1)
                if k == L.ASK:
                    return True
                if k < 0:
                    # one call site: each inlined copy of a decision is compiled again
                    k = draft_choice(tb, weights, s, p, pack, m, r > 0, n_players, lx, ls)
                card = pack[k]
                for i in range(k, m - 1):
                    pack[i] = pack[i + 1]
                m -= 1
                s.pi[p, L.I_PACK_N] = m
                if r == 0:
                    s.drafted[p, s.pi[p, L.I_DRAFT_N]] = card
                    s.pi[p, L.I_DRAFT_N] += 1
                    _receive(s, p, card, tb.deck[card], turn, step)
                else:
                    _to_discard_by(s, card, p)
        for q in range(n_players):
            src = (q - direction) % n_players
            s.tmp_n[q] = s.pi[src, L.I_PACK_N]
            for i in range(s.tmp_n[q]):
                s.tmp[q, i] = s.packs[src, i]
        for q in range(n_players):
            s.pi[q, L.I_PACK_N] = s.tmp_n[q]
            for i in range(s.tmp_n[q]):
                s.packs[q, i] = s.tmp[q, i]
        s.g[L.G_STEP] = step + 1
        s.g[L.G_SEAT] = 0
    for p in range(n_players):
        m = s.pi[p, L.I_DRAFT_N]
        for i in range(m):
            s.hand[p, i] = s.drafted[p, i]
        if s.pi[p, L.I_KEPT] >= 0:
            s.hand[p, m] = s.pi[p, L.I_KEPT]
            m += 1
        s.pi[p, L.I_KEPT] = -1
        s.pi[p, L.I_HAND_N] = m
        s.pi[p, L.I_DRAFT_N] = 0
    return False
