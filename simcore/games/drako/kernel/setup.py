"""§3 setup (``docs/rules/drako.md``), compiled: the Legend river, the shuffled deck, distinct
centres, face-down borders, the first discard; ``count_seen`` (the cards every player
sees)."""

from __future__ import annotations

from talesim.simcore.jit import hot, hot_outline
from talesim.simcore.rng import rng_shuffle

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import ix
from ..policies import portal_pair_max

# --- §3 setup ------------------------------------------------------------------------------


@hot
def _pop_deck(s):
    n = s.meta[L.M_DECK_N] - 1
    s.meta[L.M_DECK_N] = n
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
    row = rules[L.R_LEGEND_ROW]
    for slot in range(row):
        s.river[ix(slot)] = s.ldeck[n_legends - 1 - slot]
    s.meta[L.M_LD_N] = n_legends - row
    D = deck0.shape[0]
    for k in range(L.N_KINDS):
        s.copies[ix(k)] = 0
    for i in range(D):
        s.deck[ix(i)] = deck0[ix(i)]
        s.copies[deck0[ix(i)]] += 1
    s.meta[L.M_DECK_N] = D
    rng_shuffle(s.rng, s.deck, D)
    distinct = rules[L.R_CENTRE_DISTINCT] != 0
    for p in range(n_players):
        for c in range(L.CELLS):
            s.grid[ix(p), ix(c)] = -1
            s.up[ix(p), ix(c)] = 0
            s.replaced[ix(p), ix(c)] = 0
            s.placed[ix(p), ix(c)] = 0
        n_drawn = 0
        n_aside = 0
        while n_drawn < L.N_CENTRE:
            c = _pop_deck(s)
            dup = False
            if distinct:
                for k in range(n_drawn):
                    if s.grid[p, L.CENTRE_CELLS[ix(k)]] == c:
                        dup = True
            if dup:
                s.aside[ix(n_aside)] = c
                n_aside += 1
            else:
                s.grid[p, L.CENTRE_CELLS[ix(n_drawn)]] = c
                s.up[p, L.CENTRE_CELLS[ix(n_drawn)]] = 1
                n_drawn += 1
        if n_aside > 0:
            n = s.meta[L.M_DECK_N]
            for k in range(n_aside):
                s.deck[n + k] = s.aside[ix(k)]
            s.meta[L.M_DECK_N] = n + n_aside
            rng_shuffle(s.rng, s.deck, n + n_aside)
    for p in range(n_players):
        for k in range(L.N_BORDER):
            s.grid[p, L.BORDER_CELLS[ix(k)]] = _pop_deck(s)
    s.discard[0] = _pop_deck(s)
    s.meta[L.M_DISC_N] = 1
    count_seen(s, n_players)
    s.meta[L.M_PMAX] = portal_pair_max(tb)  # a table fact, read by every reveal bound


@hot
def count_seen(s, n_players):
    """``s.seen[k]``: the face-up kingdom cards and the discard pile's cards of kind ``k``
    (what every player sees; ``policies.unseen`` subtracts it from the copies)."""
    for k in range(L.N_KINDS):
        s.seen[ix(k)] = 0
    for i in range(s.meta[L.M_DISC_N]):
        s.seen[s.discard[ix(i)]] += 1
    for p in range(n_players):
        for c in range(L.CELLS):
            if s.up[ix(p), ix(c)]:
                s.seen[s.grid[ix(p), ix(c)]] += 1
