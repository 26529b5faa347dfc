"""DRAKO rules, compiled: one game per call of ``play_game``, many games per
``simulate_chunk`` (``prange`` over blocks of games, scratch allocated once per block).

Line by line the same game as ``reference.py`` (setup, turns, Legend claims, reshuffles,
end, scoring), drawing the same random numbers in the same order from the game's
SplitMix64 stream (``simcore.rng``), so ``tests/drako/test_reference_vs_kernel.py`` can
require identical games. The policies' decisions (``random``, ``greedy``,
``legend-hunter``) are in ``policies.py``.

All state is fixed-shape integer arrays (``GameState``), allocated once per block; piles
are stacks whose top is the last used entry (``meta[M_DECK_N] - 1``), as the reference's
lists. Card tables arrive as the tuple ``tb`` (``tables.Tables``), never as globals.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange

from simcore.jit import alloc, hot, hot_outline, parallel
from simcore.rng import rng_next, rng_shuffle, rng_start, search_state

from .incremental import N_KFACTS, claims_after_slots
from .mc import copy_state, determinize, forget_caches, outcome, rank
from .policies import (
    M_ALT,
    M_CAP,
    M_CELL,
    M_CLAIMS_LEFT,
    M_CLAIMS_OK,
    M_DECK_N,
    M_DISC_N,
    M_END_REC,
    M_FORCE_IDX,
    M_FORCE_SEAT,
    M_HAND,
    M_LD_N,
    M_LOADED,
    M_MEMO_OK,
    M_MET_OK,
    M_PMAX,
    M_SRC,
    M_STEP,
    M_TURN,
    M_VIOL,
    N_META,
    P_MC,
    P_RANDOM,
    SRC_DECK,
    SRC_DISCARD,
    STEP_ACTION,
    STEP_SOURCE,
    STEP_TURN,
    W_TAKE_BAR,
    after_action,
    choose_action,
    choose_source,
    claim_after,
    claim_before,
    claimable,
    legal_actions,
    portal_pair_max,
)
from .scoring import score_kingdom, tie_key, visible_mask
from .tables import (
    B_LEGENDS,
    BORDER,
    CELLS,
    CENTRE,
    LG_POINTS,
    N_BREAKDOWN,
    N_KINDS,
    N_LEGENDS,
    R_CENTRE_DISTINCT,
    R_CLAIM_AFTER_FINAL,
    R_CLAIM_BEFORE,
    R_KEEP_TOP,
    R_LEGEND_ROW,
    R_LEGENDS_PER_TURN,
    R_SAME_KIND_FORBIDDEN,
    R_TIE_CATEGORIES,
    R_TIE_TRIBES_SUMMED,
    R_TURN_CAP,
    ix,
)

CENTRE_CELLS = np.array(CENTRE, dtype=np.int64)
BORDER_CELLS = np.array(BORDER, dtype=np.int64)
N_CENTRE = len(CENTRE)
N_BORDER = len(BORDER)

# Invariant codes of the checking mode (``check=True``): 0 = all hold.
INVARIANTS = (
    "none",
    "card conservation (deck + discard + kingdoms = the box)",
    "16 valid cards per kingdom",
    "Legend conservation (held + river + legend deck = all)",
    "turn cap exceeded",
    "score != sum of its breakdown",
    "more face-down cards than border cells",
)


class GameState(NamedTuple):
    """Scratch state of one game (reused game after game within a block). P = players."""

    rng: np.ndarray  # uint64[1]: the game's SplitMix64 state
    meta: np.ndarray  # int32[N_META]: pile sizes, turn, claims left (M_*)
    deck: np.ndarray  # int32[D]: draw pile, kind ids, top = deck[meta[M_DECK_N] - 1]
    discard: np.ndarray  # int32[D]: discard pile, top = discard[meta[M_DISC_N] - 1]
    aside: np.ndarray  # int32[D]: centre duplicates set aside at setup
    ldeck: np.ndarray  # int32[N_LEGENDS]: legend deck (legend index), top = last
    river: np.ndarray  # int32[N_LEGENDS]: face-up Legend of each river slot, -1 = empty
    grid: np.ndarray  # int32[P, CELLS]: kind id of each card
    up: np.ndarray  # int32[P, CELLS]: 1 face up
    replaced: np.ndarray  # int32[P, CELLS]: 1 once the cell's card was replaced
    placed: np.ndarray  # int32[P, CELLS]: game turn that placed the card, 0 = dealt
    claim_g: np.ndarray  # int32[P, N_LEGENDS]: claimed Legends in claim order
    claim_t: np.ndarray  # int32[P, N_LEGENDS]: game turn of each claim
    claim_n: np.ndarray  # int32[P]
    turns: np.ndarray  # int32[P]: turns played by each seat
    ended: np.ndarray  # int32[P]: 1 for the seat whose action ended the game
    policy: np.ndarray  # int32[P]: policy code of each seat this game
    score: np.ndarray  # int32[P]: final total
    bd: np.ndarray  # int32[P, N_BREAKDOWN]: final breakdown (tables.BREAKDOWN)
    keys: np.ndarray  # int32[P, N_BREAKDOWN]: §7.5 tie keys
    rank: np.ndarray  # int32[P]: 1 + players strictly ahead (total, then tie key)
    direct: np.ndarray  # int64[CELLS]: link scratch (scoring.link_masks)
    full: np.ndarray  # int64[CELLS]
    sbd: np.ndarray  # int32[N_BREAKDOWN]: breakdown scratch
    slots: np.ndarray  # int32[N_LEGENDS]: claimable river slots
    act_cell: np.ndarray  # int64[2 * CELLS]: legal actions, enumeration order (int64: the cell
    # argument of the incremental scorer has one type for every caller, so one compiled copy)
    act_rev: np.ndarray  # int32[2 * CELLS]: 1 = draw, discard and reveal the cell
    pool: np.ndarray  # int32[N_KINDS]: unseen kinds (policies), conservation counts
    copies: np.ndarray  # int32[N_KINDS]: the deck's copies of each kind (``setup``)
    seen: np.ndarray  # int32[N_KINDS]: face-up kingdom cards + discard pile, per kind
    # (``count_seen`` after setup, then kept by ``_apply``, ``take_turn``, ``_reshuffle``)
    # the kingdom caches of ``incremental.py`` (``reach``, ``kmask``, ``dtame``, ``kfacts``,
    # ``prow``) are views of one seat's rows of the ``seat_*`` arrays (``seat_view``)
    reach: np.ndarray  # int64[CELLS]: cache of the seat's kingdom (incremental.py)
    kmask: np.ndarray  # int64[N_KINDS]: cache: visible cells of each kind
    dtame: np.ndarray  # int32[CELLS, N_KINDS]: cache: each dragon's domesticating links
    kfacts: np.ndarray  # int64[N_KFACTS]: cache: visible cells, blind cells, dragon points
    goal: np.ndarray  # int32[N_KINDS]: cache: river slots a card of each kind could meet
    ready: np.ndarray  # int64[N_LEGENDS, 2]: cache: cells completing each river Legend
    # (``goal`` and ``ready`` are views of the seat's rows too, with the Legends met in
    # ``kfacts``: kept between its turns while the river does not change)
    near_terms: np.ndarray  # float64[N_LEGENDS]: cache: each river Legend's points x progress
    gain: np.ndarray  # int32[N_KINDS, CELLS]: cache: claim gain of each kind on each cell
    prow: np.ndarray  # int32[CELLS, N_KINDS]: cache: pair points of each kind on each cell
    xval: np.ndarray  # float64[CELLS, N_KINDS]: memo: value of each kind on each cell (policies)
    xmask: np.ndarray  # int64[N_KINDS]: memo: cells whose ``xval`` is set, per kind
    kept: np.ndarray  # int32[P]: 1 when the seat's caches hold its kingdom as it is
    kept_claims: np.ndarray  # int32[P]: 1 when its Legend caches hold them for the river too
    dirty: np.ndarray  # int64[P]: river slots refilled since (``_claim``): the seat's kept
    # Legend caches are those of the river before, but for these slots
    seat_reach: np.ndarray  # int64[P, CELLS]: every seat's kingdom caches, kept between its
    seat_kmask: np.ndarray  # int64[P, N_KINDS]: turns (``policies.load_seat``); the fields
    seat_dtame: np.ndarray  # int32[P, CELLS, N_KINDS]: above are views of one seat's rows
    seat_kfacts: np.ndarray  # int64[P, N_KFACTS]
    seat_prow: np.ndarray  # int32[P, CELLS, N_KINDS]
    seat_goal: np.ndarray  # int32[P, N_KINDS]
    seat_ready: np.ndarray  # int64[P, N_LEGENDS, 2]
    # the seats' specs and the mc search (``_search``)
    mc_par: np.ndarray  # int32[P, 3]: an mc seat's rollouts, top, playout policy code
    slot: np.ndarray  # int32[P]: each seat's spec (slot of the run), the ``policy`` column
    mc_dn: np.ndarray  # int32[P]: decisions each mc seat has searched (its search streams)
    mc_po: np.ndarray  # int64[P]: playouts each mc seat has run
    mc_list: np.ndarray  # int64[MAX_OPTIONS]: scratch of ``mc.rank``: the options left
    mc_rank: np.ndarray  # int32[MAX_OPTIONS]: the options searched, greedy's best first
    mc_sum: np.ndarray  # int64[MAX_OPTIONS]: each one's summed outcome (``mc.OUTCOME_UNIT``)
    end_vis: np.ndarray  # int32[P]: visible score of each seat as the game ended (``_record_end``)


#: The most options of one decision: 16 placements and 16 reveals, or 16 placements + draw.
MAX_OPTIONS = 2 * CELLS + 1


@alloc  # keeps NRT
def new_state(n_players, deck_size):
    """Allocate one game's scratch state (once per block, never per game); its kingdom
    caches are seat 0's (``seat_view``)."""
    P = n_players
    z = np.zeros
    seat_reach = z((P, CELLS), np.int64)
    seat_kmask = z((P, N_KINDS), np.int64)
    seat_dtame = z((P, CELLS, N_KINDS), np.int32)
    seat_kfacts = z((P, N_KFACTS), np.int64)
    seat_prow = z((P, CELLS, N_KINDS), np.int32)
    seat_goal = z((P, N_KINDS), np.int32)
    seat_ready = z((P, N_LEGENDS, 2), np.int64)
    return GameState(
        z(1, np.uint64),
        z(N_META, np.int32),
        z(deck_size, np.int32),
        z(deck_size, np.int32),
        z(deck_size, np.int32),
        z(N_LEGENDS, np.int32),
        z(N_LEGENDS, np.int32),
        z((P, CELLS), np.int32),
        z((P, CELLS), np.int32),
        z((P, CELLS), np.int32),
        z((P, CELLS), np.int32),
        z((P, N_LEGENDS), np.int32),
        z((P, N_LEGENDS), np.int32),
        z(P, np.int32),
        z(P, np.int32),
        z(P, np.int32),
        z(P, np.int32),
        z(P, np.int32),
        z((P, N_BREAKDOWN), np.int32),
        z((P, N_BREAKDOWN), np.int32),
        z(P, np.int32),
        z(CELLS, np.int64),
        z(CELLS, np.int64),
        z(N_BREAKDOWN, np.int32),
        z(N_LEGENDS, np.int32),
        z(2 * CELLS, np.int64),
        z(2 * CELLS, np.int32),
        z(N_KINDS, np.int32),
        z(N_KINDS, np.int32),
        z(N_KINDS, np.int32),
        seat_reach[0],
        seat_kmask[0],
        seat_dtame[0],
        seat_kfacts[0],
        seat_goal[0],
        seat_ready[0],
        z(N_LEGENDS, np.float64),
        z((N_KINDS, CELLS), np.int32),
        seat_prow[0],
        z((CELLS, N_KINDS), np.float64),
        z(N_KINDS, np.int64),
        z(P, np.int32),
        z(P, np.int32),
        z(P, np.int64),
        seat_reach,
        seat_kmask,
        seat_dtame,
        seat_kfacts,
        seat_prow,
        seat_goal,
        seat_ready,
        z((P, 3), np.int32),
        z(P, np.int32),
        z(P, np.int32),
        z(P, np.int64),
        z(MAX_OPTIONS, np.int64),
        z(MAX_OPTIONS, np.int32),
        z(MAX_OPTIONS, np.int64),
        z(P, np.int32),
    )


@hot
def seat_view(s, p):
    """The state with seat ``p``'s kingdom caches as ``reach``, ``kmask``, ``dtame``,
    ``kfacts`` and ``prow``: views, so keeping a seat's caches between its turns copies
    nothing (everything else is shared with ``s``)."""
    return GameState(
        s.rng,
        s.meta,
        s.deck,
        s.discard,
        s.aside,
        s.ldeck,
        s.river,
        s.grid,
        s.up,
        s.replaced,
        s.placed,
        s.claim_g,
        s.claim_t,
        s.claim_n,
        s.turns,
        s.ended,
        s.policy,
        s.score,
        s.bd,
        s.keys,
        s.rank,
        s.direct,
        s.full,
        s.sbd,
        s.slots,
        s.act_cell,
        s.act_rev,
        s.pool,
        s.copies,
        s.seen,
        s.seat_reach[ix(p)],
        s.seat_kmask[ix(p)],
        s.seat_dtame[ix(p)],
        s.seat_kfacts[ix(p)],
        s.seat_goal[ix(p)],
        s.seat_ready[ix(p)],
        s.near_terms,
        s.gain,
        s.seat_prow[ix(p)],
        s.xval,
        s.xmask,
        s.kept,
        s.kept_claims,
        s.dirty,
        s.seat_reach,
        s.seat_kmask,
        s.seat_dtame,
        s.seat_kfacts,
        s.seat_prow,
        s.seat_goal,
        s.seat_ready,
        s.mc_par,
        s.slot,
        s.mc_dn,
        s.mc_po,
        s.mc_list,
        s.mc_rank,
        s.mc_sum,
        s.end_vis,
    )


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
    deck0 = tb[10]
    rules = tb[9]
    n_legends = tb[6].shape[0]
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


# --- §4 one turn ---------------------------------------------------------------------------


@hot
def _claim(tb, s, p, slot):
    """Player ``p`` takes the Legend of river ``slot``; the slot is refilled while the
    legend deck lasts. Every seat's kept Legend caches miss that slot (``s.dirty``); the
    loaded ones (``p``'s, ``s`` being its ``seat_view``) follow it at once
    (``incremental.claims_after_slots``)."""
    k = s.claim_n[ix(p)]
    s.claim_g[ix(p), ix(k)] = s.river[ix(slot)]
    s.claim_t[ix(p), ix(k)] = s.meta[M_TURN]
    s.claim_n[ix(p)] = k + 1
    s.meta[M_CLAIMS_LEFT] -= 1
    for q in range(s.dirty.shape[0]):
        s.dirty[ix(q)] |= 1 << slot
    s.meta[M_MEMO_OK] = 0
    n = s.meta[M_LD_N]
    if n > 0:
        s.river[ix(slot)] = s.ldeck[n - 1]
        s.meta[M_LD_N] = n - 1
    else:
        s.river[ix(slot)] = -1
    if s.meta[M_CLAIMS_OK] != 0 and s.meta[M_LOADED] == p:
        claims_after_slots(tb, s, s.dirty[ix(p)])
        s.dirty[ix(p)] = 0
        s.meta[M_MET_OK] = 1
    else:
        s.meta[M_CLAIMS_OK] = 0
        s.meta[M_MET_OK] = 0


@hot
def _apply(s, p, card, cell, reveal):
    """Carry out an action with ``card`` in hand (reference ``DrakoGame.apply``)."""
    n = s.meta[M_DISC_N]
    s.seen[ix(card)] += 1  # face up: on the discard pile, or placed
    if reveal:
        s.discard[ix(n)] = card
        s.up[ix(p), ix(cell)] = 1
        s.seen[ix(s.grid[ix(p), ix(cell)])] += 1
    else:
        if s.up[ix(p), ix(cell)] == 0:  # a face-up card stays seen on the discard pile
            s.seen[ix(s.grid[ix(p), ix(cell)])] += 1
        s.discard[ix(n)] = s.grid[ix(p), ix(cell)]  # the replaced card: face up on the discard
        s.grid[ix(p), ix(cell)] = card
        s.up[ix(p), ix(cell)] = 1
        s.replaced[ix(p), ix(cell)] = 1
        s.placed[ix(p), ix(cell)] = s.meta[M_TURN]
    s.meta[M_DISC_N] = n + 1


@hot
def _reshuffle(s, keep_top):
    """§4.4: the discard pile but its top card becomes the draw pile, shuffled once."""
    keep = 1 if keep_top else 0
    n = s.meta[M_DISC_N]
    if n <= keep:
        return
    m = n - keep
    for i in range(m):
        s.deck[ix(i)] = s.discard[ix(i)]
        s.seen[ix(s.discard[ix(i)])] -= 1
    for i in range(keep):
        s.discard[ix(i)] = s.discard[m + i]
    s.meta[M_DECK_N] = m
    s.meta[M_DISC_N] = keep
    rng_shuffle(s.rng, s.deck, m)


@hot
def _face_down(s, p):
    n = 0
    for c in range(CELLS):
        if s.up[ix(p), ix(c)] == 0:
            n += 1
    return n


@hot
def _source_options(tb, s, p):
    """How many options an mc seat's source decision has: each placement of the top
    discard (``s.act_*`` filled), and drawing when the deck has cards."""
    n = 0
    if s.meta[M_DISC_N] > 0:
        n = legal_actions(tb, s, p, SRC_DISCARD, s.discard[s.meta[M_DISC_N] - 1])
    return n + (1 if s.meta[M_DECK_N] > 0 else 0)


@hot
def take_turn(tb, weights, s, p, search):
    """Seat ``p``'s turn from where it is (``meta[M_STEP]``; reference
    ``DrakoGame.take_turn``): source, claim before?, action, claims after (not after the
    final reveal), reshuffle. Returns 1 when this action revealed ``p``'s last face-down
    card (the game ends), 0 when the game goes on, -1 when an mc seat's decision stopped
    the turn (``M_STEP`` says which: the search answers at ``M_FORCE_*``, then the turn
    goes on from there). The stops, the answers and the resumed positions happen only in
    a game that can search (``search``, a compile-time constant, ``_play_on``'s): without
    it the turn starts at ``STEP_TURN`` and asks every decision of the seat's heuristic.

    Inlined into ``_play_on``, its one caller: an outlined call marshals every array of
    the state and the tables (~430 words) each turn (measured +4% games per CPU-second)."""
    rules = tb[9]
    s = seat_view(s, p)  # p's kingdom caches
    step = s.meta[M_STEP] if search else STEP_TURN
    if step == STEP_TURN:
        s.meta[M_TURN] += 1
        s.turns[ix(p)] += 1
        s.meta[M_CLAIMS_LEFT] = rules[R_LEGENDS_PER_TURN]
    p_cell = -1
    if step != STEP_ACTION:
        if search and s.meta[M_FORCE_SEAT] == p:  # decided already: option i of ``_source_options``
            s.meta[M_FORCE_SEAT] = -1
            i = s.meta[M_FORCE_IDX]
            source = SRC_DECK
            if i < _source_options(tb, s, p) - (1 if s.meta[M_DECK_N] > 0 else 0):
                source = SRC_DISCARD
                p_cell = s.act_cell[ix(i)]
        elif search and s.policy[ix(p)] == P_MC and _source_options(tb, s, p) > 1:
            s.meta[M_STEP] = STEP_SOURCE
            return -1
        else:
            source, planned = choose_source(tb, weights, s, p)  # planned: greedy's action
            if planned >= 0:
                p_cell = s.act_cell[ix(planned)]
        # ``random`` never claims before its action: skip the (side-effect free) Legend check
        if rules[R_CLAIM_BEFORE] != 0 and s.meta[M_CLAIMS_LEFT] > 0 and s.policy[ix(p)] != P_RANDOM:
            n_slots = claimable(tb, s, p)
            slot = claim_before(tb, s, p, n_slots, source, p_cell)
            if slot >= 0:
                _claim(tb, s, p, slot)
        if source == SRC_DISCARD:
            s.meta[M_DISC_N] -= 1
            card = s.discard[s.meta[M_DISC_N]]
            s.seen[ix(card)] -= 1  # in hand: unseen by the others until placed (``_apply``)
        else:
            card = _pop_deck(s)
        s.meta[M_HAND] = card
        s.meta[M_SRC] = source
    else:
        card = s.meta[M_HAND]
        source = s.meta[M_SRC]
    if p_cell < 0:
        n_act = legal_actions(tb, s, p, source, card)
        if search and n_act > 1 and s.meta[M_FORCE_SEAT] == p:
            s.meta[M_FORCE_SEAT] = -1
            a = s.meta[M_FORCE_IDX]
        elif search and n_act > 1 and s.policy[ix(p)] == P_MC:
            s.meta[M_STEP] = STEP_ACTION
            return -1
        else:
            a = choose_action(tb, weights, s, p, card, n_act)
        cell = s.act_cell[ix(a)]
        reveal = s.act_rev[ix(a)]
    else:
        cell = p_cell
        reveal = 0
    s.meta[M_STEP] = STEP_TURN
    s.meta[M_CELL] = cell
    before = s.grid[ix(p), ix(cell)] if s.up[ix(p), ix(cell)] != 0 else -1
    _apply(s, p, card, cell, reveal)
    after_action(tb, s, p, cell, before)  # p's kingdom changed: its caches follow
    final = _face_down(s, p) == 0
    if not final or rules[R_CLAIM_AFTER_FINAL] != 0:
        while s.meta[M_CLAIMS_LEFT] > 0:
            n_slots = claimable(tb, s, p)
            if n_slots == 0:
                break
            _claim(tb, s, p, claim_after(tb, s, p, n_slots))
    if s.meta[M_DECK_N] == 0:
        _reshuffle(s, rules[R_KEEP_TOP] != 0)
    return 1 if final else 0


# --- §7 final scoring ------------------------------------------------------------------------


@hot_outline
def final_scoring(tb, s, n_players):
    """Reveal every card where it lies, score each kingdom, rank by total then (``categories``)
    the §7.5 key (the tribes one category under ``tie_break_tribes = "summed"``); the rank-1
    players are the winners."""
    kind_cat, kind_blind, kind_tame, land_pts, rival = tb[0], tb[1], tb[2], tb[4], tb[5]
    legend = tb[6]
    dragon_values, adj, rules = tb[7], tb[8], tb[9]
    for p in range(n_players):
        for c in range(CELLS):
            s.up[ix(p), ix(c)] = 1
        # every cell, as a run-time value: a literal ALL_CELLS would compile the scorer twice
        vis = visible_mask(s.up[ix(p)])
        total = score_kingdom(
            s.grid[ix(p)], vis, kind_cat, kind_blind, kind_tame, land_pts, rival,
            dragon_values, adj, rules, s.direct, s.full, s.sbd,
        )  # fmt: skip
        held = 0
        for k in range(s.claim_n[ix(p)]):
            held += legend[s.claim_g[ix(p), ix(k)], LG_POINTS]
        for b in range(N_BREAKDOWN):
            s.bd[ix(p), ix(b)] = s.sbd[ix(b)]
        s.bd[ix(p), B_LEGENDS] = held
        s.score[ix(p)] = total + held
        tie_key(s.bd[ix(p)], s.keys[ix(p)], rules[R_TIE_TRIBES_SUMMED] != 0)
    categories = rules[R_TIE_CATEGORIES] != 0
    for p in range(n_players):
        ahead = 0
        for q in range(n_players):
            if s.score[ix(q)] > s.score[ix(p)]:
                ahead += 1
            elif s.score[ix(q)] == s.score[ix(p)] and categories:
                for b in range(N_BREAKDOWN):
                    if s.keys[ix(q), ix(b)] != s.keys[ix(p), ix(b)]:
                        if s.keys[ix(q), ix(b)] > s.keys[ix(p), ix(b)]:
                            ahead += 1
                        break
        s.rank[ix(p)] = 1 + ahead


# --- checking mode ---------------------------------------------------------------------------


@hot_outline  # checking mode only: one compiled copy, not one per call site
def check_state(tb, s, n_players, max_turns):
    """Code of the first broken rule invariant (``INVARIANTS``), 0 when all hold."""
    deck0 = tb[10]
    for k in range(N_KINDS):
        s.pool[ix(k)] = 0
    for i in range(deck0.shape[0]):
        s.pool[deck0[ix(i)]] += 1
    for i in range(s.meta[M_DECK_N]):
        s.pool[s.deck[ix(i)]] -= 1
    for i in range(s.meta[M_DISC_N]):
        s.pool[s.discard[ix(i)]] -= 1
    for p in range(n_players):
        for c in range(CELLS):
            k = s.grid[ix(p), ix(c)]
            if k < 0 or k >= N_KINDS:
                return 2
            s.pool[ix(k)] -= 1
        if _face_down(s, p) > N_BORDER:
            return 6
    for k in range(N_KINDS):
        if s.pool[ix(k)] != 0:
            return 1
    n_legends = tb[6].shape[0]
    seen = 0
    count = 0
    for p in range(n_players):
        for k in range(s.claim_n[ix(p)]):
            seen |= 1 << s.claim_g[ix(p), ix(k)]
            count += 1
    for slot in range(tb[9][R_LEGEND_ROW]):
        if s.river[ix(slot)] >= 0:
            seen |= 1 << s.river[ix(slot)]
            count += 1
    for k in range(s.meta[M_LD_N]):
        seen |= 1 << s.ldeck[ix(k)]
        count += 1
    if count != n_legends or seen != (1 << n_legends) - 1:
        return 3
    if s.meta[M_TURN] > max_turns:
        return 4
    return 0


@hot
def check_final(s, n_players):
    for p in range(n_players):
        t = 0
        for b in range(N_BREAKDOWN):
            t += s.bd[ix(p), ix(b)]
        if t != s.score[ix(p)]:
            return 5
    return 0


# --- one game ------------------------------------------------------------------------------


@hot
def _new_game(tb, s, n_players, seed, game_id, check):
    """A new game in ``s`` (seats already set: ``policy``, ``slot``, ``mc_par``): setup done,
    the position at seat 0's first turn; with ``check``, ``meta[M_VIOL]`` holds the first
    invariant broken by the setup (``INVARIANTS``), else 0."""
    rng_start(s.rng, seed, game_id)
    for p in range(n_players):
        s.claim_n[ix(p)] = 0
        s.turns[ix(p)] = 0
        s.ended[ix(p)] = 0
        s.mc_dn[ix(p)] = 0
        s.mc_po[ix(p)] = 0
    for i in range(N_LEGENDS):
        s.river[ix(i)] = -1
    s.meta[M_TURN] = 0
    setup(tb, s, n_players)
    s.meta[M_LOADED] = -1
    s.meta[M_CLAIMS_OK] = 0
    s.meta[M_MEMO_OK] = 0
    s.meta[M_MET_OK] = 0
    s.meta[M_STEP] = STEP_TURN
    s.meta[M_FORCE_SEAT] = -1
    s.meta[M_CAP] = 0
    s.meta[M_VIOL] = 0
    for p in range(n_players):
        s.kept[ix(p)] = 0
        s.kept_claims[ix(p)] = 0
        s.dirty[ix(p)] = 0
    if check:
        s.meta[M_VIOL] = check_state(tb, s, n_players, tb[9][R_TURN_CAP] * n_players)


@hot_outline  # once a game, and in the search kernel only (``search``): kept out of the turn loop
def _record_end(tb, s, n_players, p):
    """How the game ended, before its face-down cards are revealed: every seat's visible
    score (face-up cards + held Legends, ``s.end_vis``), and whether the ender ``p`` could
    have placed its card on another cell, one face up before its action (``meta[M_ALT]``):
    a move that would not have ended the game (the blunder measure of
    ``benchmarks/mc_strength.py``)."""
    kind_cat, kind_blind, kind_tame, kind_locked = tb[0], tb[1], tb[2], tb[3]
    land_pts, rival, legend = tb[4], tb[5], tb[6]
    dragon_values, adj, rules = tb[7], tb[8], tb[9]
    for q in range(n_players):
        vis = visible_mask(s.up[ix(q)])
        total = score_kingdom(
            s.grid[ix(q)], vis, kind_cat, kind_blind, kind_tame, land_pts, rival,
            dragon_values, adj, rules, s.direct, s.full, s.sbd,
        )  # fmt: skip
        for k in range(s.claim_n[ix(q)]):
            total += legend[s.claim_g[ix(q), ix(k)], LG_POINTS]
        s.end_vis[ix(q)] = total
    card = s.meta[M_HAND]
    same = rules[R_SAME_KIND_FORBIDDEN] != 0
    alt = 0
    for c in range(CELLS):
        k = s.grid[ix(p), ix(c)]
        if c != s.meta[M_CELL] and kind_locked[ix(k)] == 0 and not (same and k == card):
            alt = 1
    s.meta[M_ALT] = alt


@hot_outline
def _play_on(tb, weights, s, n_players, check, search):
    """Play the game in ``s`` on from where it is (``meta[M_TURN]``, ``meta[M_STEP]``) to
    the end, final scoring included; with ``check``, verify the invariants after each turn
    and at the end (``meta[M_VIOL]``). Returns True when it stopped at an mc seat's
    decision instead (call again once ``meta[M_FORCE_*]`` hold the choice). ``search``, a
    compile-time constant (a literal ``True`` or ``False`` at every call): whether the
    game can stop and resume within a turn (an mc seat, a playout's forced first
    decision) and records how it ended (``_record_end``). The heuristics' kernel passes
    ``False``, so every stop check, answer and resumed position is pruned from it and
    each turn starts at ``STEP_TURN``."""
    max_turns = tb[9][R_TURN_CAP] * n_players
    while True:
        # the seat of this turn (counted already from STEP_SOURCE on); not a loop-carried
        # ``p = 0``, whose literal type would make numba compile the whole turn twice
        turn = s.meta[M_TURN] - (0 if not search or s.meta[M_STEP] == STEP_TURN else 1)
        p = turn % n_players
        final = take_turn(tb, weights, s, p, search)
        if search and final < 0:
            return True
        if check and s.meta[M_VIOL] == 0:
            s.meta[M_VIOL] = check_state(tb, s, n_players, max_turns)
        if final:
            s.ended[ix(p)] = 1
            if search and s.meta[M_END_REC] != 0:
                _record_end(tb, s, n_players, p)
            break
        if s.meta[M_TURN] >= max_turns:
            s.meta[M_CAP] = 1
            break
    final_scoring(tb, s, n_players)
    if check and s.meta[M_VIOL] == 0:
        s.meta[M_VIOL] = check_final(s, n_players)
    return False


@hot_outline
def play_game(tb, weights, s, n_players, seed, game_id, check):
    """Play one complete game of heuristic seats into ``s`` (seats already set): a new game,
    then play on (it never stops: no seat searches). Returns ``(turns, cap_hit,
    violation)``; ``violation`` is the first broken invariant's code when ``check``, else
    0."""
    _new_game(tb, s, n_players, seed, game_id, check)
    _play_on(tb, weights, s, n_players, check, False)
    return s.meta[M_TURN], s.meta[M_CAP], s.meta[M_VIOL]


@hot
def _asking(s, n_players):
    """The seat whose decision the game stopped at (its turn is counted)."""
    return (s.meta[M_TURN] - 1) % n_players


@hot_outline
def _search(tb, weights, s, w, c, n_players, seed, game_id):
    """The mc decision the game in ``s`` stopped at (``meta[M_STEP]``: the source or the
    action): the ``top`` options best by greedy's value (``mc.rank``), each played out
    ``rollouts`` times from the same determinized worlds (``w``: a copy of the game,
    ``mc.determinize``, one world a rollout) by copies (``c``) in which every seat plays
    the ``playout`` heuristic, the option taken first (``meta[M_FORCE_*]``). Every random
    number comes from the search stream of (seed, game, seat, decision number), none from
    the game's. The index of the option with the best summed outcome (ties: greedy's
    first best)."""
    p = _asking(s, n_players)
    rollouts = s.mc_par[ix(p), 0]
    top = s.mc_par[ix(p), 1]
    playout = s.mc_par[ix(p), 2]
    number = s.mc_dn[ix(p)]
    s.mc_dn[ix(p)] = number + 1
    v = seat_view(s, p)
    hand = -1
    if s.meta[M_STEP] == STEP_SOURCE:
        n_act = 0
        card = np.int32(-1)
        if s.meta[M_DISC_N] > 0:
            card = s.discard[s.meta[M_DISC_N] - 1]
            n_act = legal_actions(tb, v, p, SRC_DISCARD, card)
        bar = weights[ix(s.policy[ix(p)]), W_TAKE_BAR]
        m = rank(tb, weights, v, p, card, n_act, top, s.meta[M_DECK_N] > 0, bar)
    else:
        card = s.meta[M_HAND]
        hand = card
        n_act = legal_actions(tb, v, p, s.meta[M_SRC], card)
        m = rank(tb, weights, v, p, card, n_act, top, False, 0.0)
    if m == 1:
        return s.mc_rank[0]
    s.mc_po[ix(p)] += m * rollouts
    for j in range(m):
        s.mc_sum[ix(j)] = 0
    stream = search_state(seed, game_id, p, number)
    no_check = n_players < 0  # False, typed like play_game's check (one _play_on compiled)
    for _ in range(rollouts):
        copy_state(w, s)
        w.meta[M_END_REC] = 0
        w.rng[0] = stream
        determinize(w, n_players, hand)
        playout_state = rng_next(w.rng)
        stream = w.rng[0]
        for q in range(n_players):
            w.policy[ix(q)] = playout
        forget_caches(w, n_players)
        for j in range(m):
            copy_state(c, w)
            c.rng[0] = playout_state
            c.meta[M_FORCE_SEAT] = p
            c.meta[M_FORCE_IDX] = s.mc_rank[ix(j)]
            _play_on(tb, weights, c, n_players, no_check, True)
            s.mc_sum[ix(j)] += outcome(c, n_players, p)
    best = 0
    for j in range(1, m):
        if s.mc_sum[ix(j)] > s.mc_sum[ix(best)]:
            best = j
    return s.mc_rank[ix(best)]


@hot_outline
def play_game_search(tb, weights, s, w, c, n_players, seed, game_id, check):
    """``play_game`` with mc seats: at each of their decisions the game stops, ``_search``
    decides on copies (``w``, ``c``: states allocated alike), and the game plays on with
    that choice. A kernel of its own (``simulate_chunk_search``), so runs of heuristics
    alone never compile the search."""
    _new_game(tb, s, n_players, seed, game_id, check)
    s.meta[M_END_REC] = 1
    s.meta[M_ALT] = 0
    for p in range(n_players):
        s.end_vis[ix(p)] = 0
    while _play_on(tb, weights, s, n_players, check, True):
        i = _search(tb, weights, s, w, c, n_players, seed, game_id)
        s.meta[M_FORCE_SEAT] = _asking(s, n_players)
        s.meta[M_FORCE_IDX] = i
    return s.meta[M_TURN], s.meta[M_CAP], s.meta[M_VIOL]


# --- many games ------------------------------------------------------------------------------


class ChunkOut(NamedTuple):
    """Result buffers of a chunk, indexed by game offset ``i`` (then seat, then cell)."""

    turns: np.ndarray  # int16[n]: game turns played (all seats)
    cap_hit: np.ndarray  # bool[n]: the turn cap ended the game
    policy: np.ndarray  # int8[n, P]
    score: np.ndarray  # int16[n, P]
    breakdown: np.ndarray  # int16[n, P, N_BREAKDOWN]
    rank: np.ndarray  # int8[n, P]: 1 = winner (total, then §7.5 key if the preset says so)
    seat_turns: np.ndarray  # int16[n, P]
    ended: np.ndarray  # bool[n, P]: this seat's action ended the game
    grid: np.ndarray  # int8[n, P, CELLS]: final kind of each cell
    replaced: np.ndarray  # bool[n, P, CELLS]
    turn_placed: np.ndarray  # int16[n, P, CELLS]: 0 = dealt at setup
    claim_n: np.ndarray  # int8[n, P]
    claim_legend: np.ndarray  # int8[n, P, N_LEGENDS]: legend index, claim order; -1 pad
    claim_turn: np.ndarray  # int16[n, P, N_LEGENDS]
    violation: np.ndarray  # int8[n]: checking mode: first broken invariant, 0
    playouts: np.ndarray  # int64[n]: playouts the mc seats ran (0 without one)
    # search kernel only (``_record_end``): how the game ended
    end_visible: np.ndarray  # int16[n, P]: each seat's visible score before the final reveal
    end_alt: np.ndarray  # bool[n]: the ender had a placement that would not have ended it


def new_chunk_out(n_games: int, n_players: int) -> ChunkOut:
    """Allocate the result buffers of a chunk (in Python, before the kernel runs)."""
    n, P = n_games, n_players
    return ChunkOut(
        np.zeros(n, np.int16),
        np.zeros(n, np.bool_),
        np.zeros((n, P), np.int8),
        np.zeros((n, P), np.int16),
        np.zeros((n, P, N_BREAKDOWN), np.int16),
        np.zeros((n, P), np.int8),
        np.zeros((n, P), np.int16),
        np.zeros((n, P), np.bool_),
        np.zeros((n, P, CELLS), np.int8),
        np.zeros((n, P, CELLS), np.bool_),
        np.zeros((n, P, CELLS), np.int16),
        np.zeros((n, P), np.int8),
        np.full((n, P, N_LEGENDS), -1, np.int8),
        np.zeros((n, P, N_LEGENDS), np.int16),
        np.zeros(n, np.int8),
        np.zeros(n, np.int64),
        np.zeros((n, P), np.int16),
        np.zeros(n, np.bool_),
    )


@hot
def _seat_up(s, slot_table, seat_slot, rotate, n_players, g):
    """Game ``g``'s seats: each seat's slot, policy code and mc parameters (``slot_table``
    rows: policy, rollouts, top, playout)."""
    for p in range(n_players):
        slot = seat_slot[(p + g) % n_players] if rotate else seat_slot[ix(p)]
        s.slot[ix(p)] = slot
        s.policy[ix(p)] = slot_table[ix(slot), 0]
        for k in range(3):
            s.mc_par[ix(p), ix(k)] = slot_table[ix(slot), ix(k + 1)]


@hot
def _store(out, s, i, n_players, turns, cap_hit, violation):
    """Game offset ``i``'s results from ``s`` into ``out``."""
    out.turns[ix(i)] = turns
    out.cap_hit[ix(i)] = cap_hit != 0
    out.violation[ix(i)] = violation
    playouts = 0
    for p in range(n_players):
        playouts += s.mc_po[ix(p)]
        out.end_visible[ix(i), ix(p)] = s.end_vis[ix(p)]
        out.policy[ix(i), ix(p)] = s.slot[ix(p)]
        out.score[ix(i), ix(p)] = s.score[ix(p)]
        out.rank[ix(i), ix(p)] = s.rank[ix(p)]
        out.seat_turns[ix(i), ix(p)] = s.turns[ix(p)]
        out.ended[ix(i), ix(p)] = s.ended[ix(p)] != 0
        for b in range(N_BREAKDOWN):
            out.breakdown[i, p, b] = s.bd[ix(p), ix(b)]
        for c in range(CELLS):
            out.grid[i, p, c] = s.grid[ix(p), ix(c)]
            out.replaced[i, p, c] = s.replaced[ix(p), ix(c)] != 0
            out.turn_placed[i, p, c] = s.placed[ix(p), ix(c)]
        out.claim_n[ix(i), ix(p)] = s.claim_n[ix(p)]
        for k in range(s.claim_n[ix(p)]):
            out.claim_legend[i, p, k] = s.claim_g[ix(p), ix(k)]
            out.claim_turn[i, p, k] = s.claim_t[ix(p), ix(k)]
    out.playouts[ix(i)] = playouts
    out.end_alt[ix(i)] = s.meta[M_ALT] != 0


@alloc  # the block scratch
def _run_block(
    tb, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, lo, hi, out, check
):
    """Play game offsets ``lo .. hi-1`` of a chunk of heuristic seats with one scratch
    state."""
    s = new_state(n_players, tb[10].shape[0])
    for i in range(lo, hi):
        g = first_game + i
        _seat_up(s, slot_table, seat_slot, rotate, n_players, g)
        turns, cap_hit, violation = play_game(tb, weights, s, n_players, seed, g, check)
        _store(out, s, i, n_players, turns, cap_hit, violation)


@alloc  # the block scratch
def _run_block_search(
    tb, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, lo, hi, out, check
):
    """``_run_block`` with mc seats: one scratch state and, for the searches, two copies of
    it (allocated once per block)."""
    s = new_state(n_players, tb[10].shape[0])
    w = new_state(n_players, tb[10].shape[0])
    c = new_state(n_players, tb[10].shape[0])
    for i in range(lo, hi):
        g = first_game + i
        _seat_up(s, slot_table, seat_slot, rotate, n_players, g)
        turns, cap_hit, violation = play_game_search(
            tb, weights, s, w, c, n_players, seed, g, check
        )
        _store(out, s, i, n_players, turns, cap_hit, violation)


@parallel
def simulate_chunk(
    tb, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, n_games, n_blocks,
    out, check,
):  # fmt: skip
    """Play games ``first_game .. first_game + n_games - 1`` of heuristic seats into ``out``
    (a ``ChunkOut``). Blocks of games run in parallel; each block allocates its scratch
    once. Seat s of game g plays the spec of slot ``seat_slot[(s + g) % n]`` if ``rotate``
    (else ``seat_slot[s]``): row ``slot_table[slot]`` = (policy code, mc rollouts, mc top,
    mc playout policy). A run with mc seats: ``simulate_chunk_search``."""
    for b in prange(n_blocks):
        lo = b * n_games // n_blocks
        hi = (b + 1) * n_games // n_blocks
        _run_block(
            tb, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, lo, hi,
            out, check,
        )  # fmt: skip


@parallel
def simulate_chunk_search(
    tb, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, n_games, n_blocks,
    out, check,
):  # fmt: skip
    """``simulate_chunk`` for runs with mc seats (a kernel of its own: a run of heuristics
    never compiles the search)."""
    for b in prange(n_blocks):
        lo = b * n_games // n_blocks
        hi = (b + 1) * n_games // n_blocks
        _run_block_search(
            tb, weights, slot_table, seat_slot, rotate, n_players, seed, first_game, lo, hi,
            out, check,
        )  # fmt: skip


# --- the search from Python (tests, narration checks) ---------------------------------------


def clone(s: GameState) -> GameState:
    """A copy of ``s`` (its own arrays, the seat-row views rebuilt; ``mc.copy_state``)."""
    d = new_state(s.grid.shape[0], s.deck.shape[0])
    copy_state(d, s)
    d.mc_po[:] = s.mc_po
    return d


def new_game(tb: tuple, s: GameState, n_players: int, seed: np.uint64, game_id: int) -> None:
    """``_new_game`` (seats already set in ``s``)."""
    _new_game(tb, s, n_players, seed, game_id, False)


@hot_outline
def _resume(tb, weights, s, n_players):
    """``_play_on`` of a game that can stop and resume (``search``), as ``_search`` and
    ``play_game_search`` compile it, without checking: the entry of ``play_on``."""
    return _play_on(tb, weights, s, n_players, n_players < 0, True)


def play_on(tb: tuple, weights: np.ndarray, s: GameState, n_players: int) -> bool:
    """``_play_on`` of the search kernel: True if it stopped at an mc seat's decision."""
    return bool(_resume(tb, weights, s, n_players))


def search(
    tb: tuple, weights: np.ndarray, s: GameState, n_players: int, seed: np.uint64, game_id: int
) -> tuple[int, list[int]]:
    """``_search`` of the decision ``s`` stopped at: (the option chosen, the summed outcome
    of each searched option in ``mc.OUTCOME_UNIT``s, greedy's best first, and zeros up to
    ``top`` when fewer were searched; ``s`` as ``clone`` made it: ``mc_sum`` zeroed)."""
    w, c = new_state(n_players, s.deck.shape[0]), new_state(n_players, s.deck.shape[0])
    i = int(_search(tb, weights, s, w, c, n_players, seed, game_id))
    p = (int(s.meta[M_TURN]) - 1) % n_players
    top = min(int(s.mc_par[p, 1]), MAX_OPTIONS)
    return i, [int(x) for x in s.mc_sum[:top]]


def answer(s: GameState, n_players: int, i: int) -> None:
    """Give the decision ``s`` stopped at the answer ``i`` (then ``play_on`` again)."""
    s.meta[M_FORCE_SEAT] = (int(s.meta[M_TURN]) - 1) % n_players
    s.meta[M_FORCE_IDX] = i
