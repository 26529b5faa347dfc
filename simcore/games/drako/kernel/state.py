"""The compiled game's state: ``GameState`` (fixed-shape integer arrays, one per field,
allocated once per block of games by ``new_state``), ``seat_view`` (the state with one
seat's kingdom caches in front), the fixed sizes and the checking mode's invariant
names. §N: a section of ``docs/rules/drako.md``, DRAKO's rules."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from talesim.simcore.jit import alloc, hot

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import ix

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
    model: np.ndarray  # int32[P]: the model row a learned seat (an mc seat's playouts) plays
    draws: np.ndarray  # int16[MAX_TURNS]: the draw log, record t - 1 of game turn t (DW_*)


@alloc  # keeps NRT
def new_state(n_players, deck_size):
    """Allocate one game's scratch state (once per block, never per game); its kingdom
    caches are seat 0's (``seat_view``)."""
    P = n_players
    z = np.zeros
    seat_reach = z((P, L.CELLS), np.int64)
    seat_kmask = z((P, L.N_KINDS), np.int64)
    seat_dtame = z((P, L.CELLS, L.N_KINDS), np.int32)
    seat_kfacts = z((P, L.N_KFACTS), np.int64)
    seat_prow = z((P, L.CELLS, L.N_KINDS), np.int32)
    seat_goal = z((P, L.N_KINDS), np.int32)
    seat_ready = z((P, L.N_LEGENDS, 2), np.int64)
    return GameState(
        z(1, np.uint64),
        z(L.N_META, np.int32),
        z(deck_size, np.int32),
        z(deck_size, np.int32),
        z(deck_size, np.int32),
        z(L.N_LEGENDS, np.int32),
        z(L.N_LEGENDS, np.int32),
        z((P, L.CELLS), np.int32),
        z((P, L.CELLS), np.int32),
        z((P, L.CELLS), np.int32),
        z((P, L.CELLS), np.int32),
        z((P, L.N_LEGENDS), np.int32),
        z((P, L.N_LEGENDS), np.int32),
        z(P, np.int32),
        z(P, np.int32),
        z(P, np.int32),
        z(P, np.int32),
        z(P, np.int32),
        z((P, L.N_BREAKDOWN), np.int32),
        z((P, L.N_BREAKDOWN), np.int32),
        z(P, np.int32),
        z(L.CELLS, np.int64),
        z(L.CELLS, np.int64),
        z(L.N_BREAKDOWN, np.int32),
        z(L.N_LEGENDS, np.int32),
        z(2 * L.CELLS, np.int64),
        z(2 * L.CELLS, np.int32),
        z(L.N_KINDS, np.int32),
        z(L.N_KINDS, np.int32),
        z(L.N_KINDS, np.int32),
        seat_reach[0],
        seat_kmask[0],
        seat_dtame[0],
        seat_kfacts[0],
        seat_goal[0],
        seat_ready[0],
        z(L.N_LEGENDS, np.float64),
        z((L.N_KINDS, L.CELLS), np.int32),
        seat_prow[0],
        z((L.CELLS, L.N_KINDS), np.float64),
        z(L.N_KINDS, np.int64),
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
        z(L.MAX_OPTIONS, np.int64),
        z(L.MAX_OPTIONS, np.int32),
        z(L.MAX_OPTIONS, np.int64),
        z(P, np.int32),
        z(P, np.int32),
        z(L.MAX_TURNS, np.int16),
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
        s.model,
        s.draws,
    )
