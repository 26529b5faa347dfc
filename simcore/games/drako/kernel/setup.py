"""§3 setup, compiled: the Legend river, the shuffled deck, distinct centres, face-down
borders, the first discard; ``count_seen`` (the cards every player sees)."""

from __future__ import annotations

from simcore.jit import hot, hot_outline
from simcore.rng import rng_shuffle

from ..policies import M_DECK_N, M_DISC_N, M_LD_N, M_PMAX, portal_pair_max
from ..tables import CELLS, N_KINDS, R_CENTRE_DISTINCT, R_LEGEND_ROW, ix
from .state import BORDER_CELLS, CENTRE_CELLS, N_BORDER, N_CENTRE

# --- §3 setup ------------------------------------------------------------------------------


@hot
def _pop_deck(s):
    n = s.meta[M_DECK_N] - 1
    s.meta[M_DECK_N] = n
    return s.deck[ix(n)]


@hot_outline
def setup(tb, s, n_players):
    """Legend river, deck shuffle, distinct centres (one reshuffle if duplicates were set
    aside), face-down borders, first discard (reference ``DrakoGame.setup``)."""
    deck0 = tb.deck
    rules = tb.rules
    n_legends = tb.legend.shape[0]
    for g in range(n_legends):
        s.ldeck[ix(g)] = g
    rng_shuffle(s.rng, s.ldeck, n_legends)
    row = rules[R_LEGEND_ROW]
    for slot in range(row):
        s.river[ix(slot)] = s.ldeck[n_legends - 1 - slot]
    s.meta[M_LD_N] = n_legends - row
    D = deck0.shape[0]
    for k in range(N_KINDS):
        s.copies[ix(k)] = 0
    for i in range(D):
        s.deck[ix(i)] = deck0[ix(i)]
        s.copies[deck0[ix(i)]] += 1
    s.meta[M_DECK_N] = D
    rng_shuffle(s.rng, s.deck, D)
    distinct = rules[R_CENTRE_DISTINCT] != 0
    for p in range(n_players):
        for c in range(CELLS):
            s.grid[ix(p), ix(c)] = -1
            s.up[ix(p), ix(c)] = 0
            s.replaced[ix(p), ix(c)] = 0
            s.placed[ix(p), ix(c)] = 0
        n_drawn = 0
        n_aside = 0
        while n_drawn < N_CENTRE:
            c = _pop_deck(s)
            dup = False
            if distinct:
                for k in range(n_drawn):
                    if s.grid[p, CENTRE_CELLS[ix(k)]] == c:
                        dup = True
            if dup:
                s.aside[ix(n_aside)] = c
                n_aside += 1
            else:
                s.grid[p, CENTRE_CELLS[ix(n_drawn)]] = c
                s.up[p, CENTRE_CELLS[ix(n_drawn)]] = 1
                n_drawn += 1
        if n_aside > 0:
            n = s.meta[M_DECK_N]
            for k in range(n_aside):
                s.deck[n + k] = s.aside[ix(k)]
            s.meta[M_DECK_N] = n + n_aside
            rng_shuffle(s.rng, s.deck, n + n_aside)
    for p in range(n_players):
        for k in range(N_BORDER):
            s.grid[p, BORDER_CELLS[ix(k)]] = _pop_deck(s)
    s.discard[0] = _pop_deck(s)
    s.meta[M_DISC_N] = 1
    count_seen(s, n_players)
    s.meta[M_PMAX] = portal_pair_max(tb)  # a table fact, read by every reveal bound


@hot
def count_seen(s, n_players):
    """``s.seen[k]``: the face-up kingdom cards and the discard pile's cards of kind ``k``
    (what every player sees; ``policies.unseen`` subtracts it from the copies)."""
    for k in range(N_KINDS):
        s.seen[ix(k)] = 0
    for i in range(s.meta[M_DISC_N]):
        s.seen[s.discard[ix(i)]] += 1
    for p in range(n_players):
        for c in range(CELLS):
            if s.up[ix(p), ix(c)]:
                s.seen[s.grid[ix(p), ix(c)]] += 1
