"""DRAKO's compiled end of game: §7 final scoring and ranking (§N: a section of
``docs/rules/drako.md``), how a searched game ended (``_record_end``), the checking mode's
invariants, and ``score_end_state`` (the final scoring of given kingdoms, ``talesim score
drako``)."""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot, hot_outline

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import ix
from ..policies import face_down, held_points, visible_kingdom
from ..scoring import cell_points, legends_met, link_masks, tie_key, visible_mask
from ..tables import Tables
from .state import GameState, new_state

# --- §7 final scoring ------------------------------------------------------------------------


@hot_outline
def final_scoring(tb, s, n_players):
    """Reveal every card where it lies, score each kingdom, rank by total then (``categories``)
    the §7.5 key (the tribes one category under ``tie_break_tribes = "summed"``); the rank-1
    players are the winners."""
    rules = tb.rules
    for p in range(n_players):
        for c in range(L.CELLS):
            s.up[ix(p), ix(c)] = 1
        total = visible_kingdom(tb, s, p)
        held = held_points(tb, s, p)
        for b in range(L.N_BREAKDOWN):
            s.bd[ix(p), ix(b)] = s.sbd[ix(b)]
        s.bd[ix(p), L.B_LEGENDS] = held
        s.score[ix(p)] = total + held
        tie_key(s.bd[ix(p)], s.keys[ix(p)], rules[L.R_TIE_TRIBES_SUMMED] != 0)
    categories = rules[L.R_TIE_CATEGORIES] != 0
    for p in range(n_players):
        ahead = 0
        for q in range(n_players):
            if s.score[ix(q)] > s.score[ix(p)]:
                ahead += 1
            elif s.score[ix(q)] == s.score[ix(p)] and categories:
                for b in range(L.N_BREAKDOWN):
                    if s.keys[ix(q), ix(b)] != s.keys[ix(p), ix(b)]:
                        if s.keys[ix(q), ix(b)] > s.keys[ix(p), ix(b)]:
                            ahead += 1
                        break
        s.rank[ix(p)] = 1 + ahead


@hot_outline  # once a game, and in the search kernel only (``search``): kept out of the turn loop
def _record_end(tb, s, n_players, p):
    """How the game ended, before its face-down cards are revealed: every seat's visible
    score (face-up cards + held Legends, ``s.end_vis``), and whether the ender ``p`` could
    have placed its card on another cell, one face up before its action (``meta[M_ALT]``):
    a move that would not have ended the game (the blunder measure of
    ``benchmarks/mc_strength.py``)."""
    kind_locked, rules = tb.kind_locked, tb.rules
    for q in range(n_players):
        s.end_vis[ix(q)] = visible_kingdom(tb, s, q) + held_points(tb, s, q)
    card = s.meta[L.M_HAND]
    same = rules[L.R_SAME_KIND_FORBIDDEN] != 0
    alt = 0
    for c in range(L.CELLS):
        k = s.grid[ix(p), ix(c)]
        if c != s.meta[L.M_CELL] and kind_locked[ix(k)] == 0 and not (same and k == card):
            alt = 1
    s.meta[L.M_ALT] = alt


# --- checking mode ---------------------------------------------------------------------------


@hot_outline  # checking mode only: one compiled copy, not one per call site
def check_state(tb, s, n_players, max_turns):
    """Code of the first broken rule invariant (``INVARIANTS``), 0 when all hold."""
    deck0 = tb.deck
    for k in range(L.N_KINDS):
        s.pool[ix(k)] = 0
    for i in range(deck0.shape[0]):
        s.pool[deck0[ix(i)]] += 1
    for i in range(s.meta[L.M_DECK_N]):
        s.pool[s.deck[ix(i)]] -= 1
    for i in range(s.meta[L.M_DISC_N]):
        s.pool[s.discard[ix(i)]] -= 1
    for p in range(n_players):
        for c in range(L.CELLS):
            k = s.grid[ix(p), ix(c)]
            if k < 0 or k >= L.N_KINDS:
                return 2
            s.pool[ix(k)] -= 1
        if face_down(s, p) > L.N_BORDER:
            return 6
    for k in range(L.N_KINDS):
        if s.pool[ix(k)] != 0:
            return 1
    n_legends = tb.legend.shape[0]
    seen = 0
    count = 0
    for p in range(n_players):
        for k in range(s.claim_n[ix(p)]):
            seen |= 1 << s.claim_g[ix(p), ix(k)]
            count += 1
    for slot in range(tb.rules[L.R_LEGEND_ROW]):
        if s.river[ix(slot)] >= 0:
            seen |= 1 << s.river[ix(slot)]
            count += 1
    for k in range(s.meta[L.M_LD_N]):
        seen |= 1 << s.ldeck[ix(k)]
        count += 1
    if count != n_legends or seen != (1 << n_legends) - 1:
        return 3
    if s.meta[L.M_TURN] > max_turns:
        return 4
    return 0


@hot
def check_final(s, n_players):
    for p in range(n_players):
        t = 0
        for b in range(L.N_BREAKDOWN):
            t += s.bd[ix(p), ix(b)]
        if t != s.score[ix(p)]:
            return 5
    return 0


# --- the final scoring of given kingdoms (``talesim score drako``) ----------------------------


@hot_outline
def _seat_cells(tb, s, p, points, met):
    """Seat ``p``'s per-card points (``scoring.cell_points``) into ``points`` and the
    Legends its kingdom meets (``scoring.legends_met``) into ``met``, over its face-up
    cards."""
    kind_cat, kind_blind, kind_tame = tb.kind_cat, tb.kind_blind, tb.kind_tame
    land_pts = tb.land_pts
    legend, dragon_values, adj, rules = tb.legend, tb.dragon_values, tb.adj, tb.rules
    grid = s.grid[ix(p)]
    vis = visible_mask(s.up[ix(p)])
    link_masks(grid, vis, adj, rules[L.R_PORTAL_CHAINING] != 0, s.direct, s.full)
    cell_points(
        grid, vis, kind_cat, kind_blind, kind_tame, land_pts, dragon_values, rules,
        s.direct, s.full, points,
    )  # fmt: skip
    legends_met(legend, grid, vis, kind_blind, rules, s.direct, s.full, met)


def score_end_state(
    tb: Tables, grids: list[list[int]], held: list[list[int]]
) -> tuple[GameState, np.ndarray, np.ndarray]:
    """The kernel's final scoring (``final_scoring``) of the given kingdoms, one grid of
    ``CELLS`` kind ids and one list of held Legend indices per seat, every card face up.
    Returns the state (``score``, ``bd``, ``rank``: totals, breakdowns, 1 = winner), each
    card's points (int32[P, CELLS]) and each seat's Legends met (int32[P, Legends], 1 =
    met)."""
    n = len(grids)
    s = new_state.py_func(n, tb.deck.shape[0])  # the same arrays, without compiling new_state
    for p in range(n):
        s.grid[p] = grids[p]
        s.claim_n[p] = len(held[p])
        s.claim_g[p, : len(held[p])] = held[p]
    final_scoring(tb, s, n)
    points = np.zeros((n, L.CELLS), np.int32)
    met = np.zeros((n, tb.legend.shape[0]), np.int32)
    for p in range(n):
        _seat_cells(tb, s, p, points[p], met[p])
    return s, points, met
