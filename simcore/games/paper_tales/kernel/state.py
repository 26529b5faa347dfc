"""The kernel's state, both variants: ``State`` (a game's scratch) and ``LState`` (a
Legends game's, beside it; None in a base game), and the small helpers every phase uses
(drawing, scoring, loading a seat's pieces, assessing a kingdom with or without its
artifacts). Their field codes, the result codes and the invariants' names are in the
game's schema module (``layout.py``, read as ``L.G_TURN``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from talesim.simcore.jit import alloc, hot, hot_outline
from talesim.simcore.rng import rng_shuffle

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..evaluate.cache import face_room, fixed_size
from ..evaluate.facts import base_facts, production
from ..evaluate.strength import assess, l_assess
from ..evaluate.value import first_pass, kingdom_totals


class State(NamedTuple):
    """One game's scratch (reused game after game by a block)."""

    g: np.ndarray  # int32[N_G]: turn, draw/discard pile sizes, reshuffles, pending LP, overflow
    deck: np.ndarray  # int32[D]: draw pile, top = deck[g[G_DECK_N] - 1]
    disc: np.ndarray  # int32[D]: discard pile, oldest first
    disc_by: np.ndarray  # int32[D]: the seat that put it there face down, -1: face up
    packs: np.ndarray  # int32[P, MAX_DEAL]: the pack each seat holds, in order
    tmp: np.ndarray  # int32[P, MAX_DEAL]: packs being passed
    tmp_n: np.ndarray  # int32[P]
    drafted: np.ndarray  # int32[P, MAX_HAND]: this turn's picks, in order
    hand: np.ndarray  # int32[P, MAX_HAND]: card ids, hand order
    pi: np.ndarray  # int32[P, N_PI]: per-seat ints (I_*)
    parts: np.ndarray  # int32[P, N_PARTS]: LP breakdown (reference.BREAKDOWN order)
    sp: np.ndarray  # int32[P, S, N_SP]: spots (S_*); S_CARD -1 = empty
    blevel: np.ndarray  # int32[P, B]
    blog: np.ndarray  # int32[P, B, N_BLOG]
    log: np.ndarray  # int32[P, MAX_LOGS, N_LOG]: every card received, in order
    card_log: np.ndarray  # int32[D]: row in its holder's log of a card's latest receipt
    strength: np.ndarray  # int32[P]: kingdom strengths (wars, freezes)
    dvf: np.ndarray  # float64[P, U]: draft values of this Recruitment phase
    dvs: np.ndarray  # int32[P, U]: 1 = dvf computed
    pc: np.ndarray  # int32[MAX_PIECES, N_PC]: a sketch's pieces
    wpc: np.ndarray  # int32[MAX_PIECES, N_PC]: projection scratch
    pc0: np.ndarray  # int32[MAX_PIECES, N_PC]: a decision's base sketch (``_sketch_base``,
    #                  kept from step to step of a seat's deployment: ``_commit_step``)
    wpc0: np.ndarray  # int32[MAX_PIECES, N_PC]: its scratch rows
    acc: np.ndarray  # int64[2, N_AC]: its first-pass totals; an option's
    bl: np.ndarray  # int32[B]: a sketch's building levels
    wbl: np.ndarray  # int32[B]: projection scratch
    bc: np.ndarray  # int32[P, BC_TERMS + N_BS * 3 * face_room(B)]: each seat's building cache
    opt: np.ndarray  # int32[MAX_DEPLOY_OPTIONS, 3]: (kind, a, b) of the deployment options
    bopt: np.ndarray  # int32[MAX_BUILD_OPTIONS, 4]: (building, level, upgrade, gold)
    spots: np.ndarray  # int32[MAX_PIECES]: candidate spots (age target, heal)
    pend: np.ndarray  # int32[MAX_PENDING, 3]: (seat, spot, ability) deployment LP to count
    tally: np.ndarray  # int32[D]: checking mode: copies of each card id found
    rng: np.ndarray  # uint64[1]


def new_state(n_players: int, deck_size: int, n_buildings: int, n_units: int) -> State:
    """Allocate one scratch state (Python or numba: only ``np.zeros``/``np.full``)."""
    return _new_state(n_players, deck_size, n_buildings, n_units)


@alloc
def _new_state(P, D, B, U):
    return State(
        np.zeros(L.N_G, np.int32),
        np.zeros(D, np.int32),
        np.zeros(D, np.int32),
        np.zeros(D, np.int32),
        np.full((P, L.MAX_DEAL), -1, np.int32),
        np.full((P, L.MAX_DEAL), -1, np.int32),
        np.zeros(P, np.int32),
        np.full((P, L.MAX_HAND), -1, np.int32),
        np.full((P, L.MAX_HAND), -1, np.int32),
        np.zeros((P, L.N_PI), np.int32),
        np.zeros((P, L.N_PARTS), np.int32),
        np.full((P, L.MAX_SPOTS, L.N_SP), -1, np.int32),
        np.zeros((P, max(B, 1)), np.int32),
        np.zeros((P, max(B, 1), L.N_BLOG), np.int32),
        np.zeros((P, L.MAX_LOGS, L.N_LOG), np.int32),
        np.zeros(D, np.int32),
        np.zeros(P, np.int32),
        np.zeros((P, max(U, 1)), np.float64),
        np.zeros((P, max(U, 1)), np.int32),
        np.zeros((L.MAX_PIECES, L.N_PC), np.int32),
        np.zeros((L.MAX_PIECES, L.N_PC), np.int32),
        np.zeros((L.MAX_PIECES, L.N_PC), np.int32),
        np.zeros((L.MAX_PIECES, L.N_PC), np.int32),
        np.zeros((2, L.N_AC), np.int64),
        np.zeros(max(B, 1), np.int32),
        np.zeros(max(B, 1), np.int32),
        np.full((P, L.BC_TERMS + L.N_BS * face_room(B) * 3), -1, np.int32),
        np.zeros((L.MAX_DEPLOY_OPTIONS, 3), np.int32),
        np.zeros((L.MAX_BUILD_OPTIONS, 4), np.int32),
        np.zeros(L.MAX_PIECES, np.int32),
        np.zeros((L.MAX_PENDING, 3), np.int32),
        np.zeros(D, np.int32),
        np.zeros(1, np.uint64),
    )


@hot
def _two(n_players):
    return n_players == 2


@hot
def _draw(tb, s):
    """``Game.draw``: the top card; an empty pile first takes the shuffled discard pile.
    -1 when both are empty."""
    g = s.g
    if g[L.G_DECK_N] == 0 and tb.rules[L.R_RESHUFFLE] and g[L.G_DISC_N] > 0:
        for i in range(g[L.G_DISC_N]):
            s.deck[i] = s.disc[i]
        g[L.G_DECK_N] = g[L.G_DISC_N]
        g[L.G_DISC_N] = 0
        rng_shuffle(s.rng, s.deck, g[L.G_DECK_N])
        g[L.G_RESHUFFLES] += 1
    if g[L.G_DECK_N] == 0:
        return -1
    g[L.G_DECK_N] -= 1
    return s.deck[g[L.G_DECK_N]]


@hot
def _to_discard(s, card):
    """``Game.to_discard``: ``card`` face up on the discard pile."""
    _to_discard_by(s, card, -1)


@hot
def _to_discard_by(s, card, by):
    """``card`` on the discard pile, face down by seat ``by`` (-1: face up)."""
    s.disc[s.g[L.G_DISC_N]] = card
    s.disc_by[s.g[L.G_DISC_N]] = by
    s.g[L.G_DISC_N] += 1


@hot
def _searched(s, p, decision, asked):
    """Seat ``p``'s searched ``decision`` (``D_*``), if ``asked`` (the game can search and
    the decision has more than one option): the option decided already (``G_FORCE_*``: a
    search's choice, a playout's candidate; ``G_ANSWER_*``: a learned seat's answered ask;
    each taken once), ``ASK`` for an mc or learned seat (the decision is stored at
    ``G_ASK_*``: the game stops there), else -1 (its policy decides)."""
    if not asked:
        return -1
    if s.g[L.G_FORCE_SEAT] == p:
        s.g[L.G_FORCE_SEAT] = -1
        return s.g[L.G_FORCE_IDX]
    if s.g[L.G_ANSWER_SEAT] == p:
        s.g[L.G_ANSWER_SEAT] = -1
        return s.g[L.G_ANSWER_IDX]
    if s.pi[p, L.I_POLICY] == L.P_MC or s.pi[p, L.I_POLICY] == L.P_LEARNED:
        s.g[L.G_ASK_SEAT] = p
        s.g[L.G_ASK_DEC] = decision
        return L.ASK
    return -1


@hot
def _receive(s, p, card, unit, turn, pick):
    """``Player.receive``: a new log row for ``card``; returns its index."""
    k = s.pi[p, L.I_LOG_N]
    if k >= L.MAX_LOGS:  # cannot happen with base-game data; flagged, never silent
        s.g[L.G_OVERFLOW] = 1
        k = L.MAX_LOGS - 1
    else:
        s.pi[p, L.I_LOG_N] = k + 1
    row = s.log[p, k]
    row[L.L_CARD] = card
    row[L.L_UNIT] = unit
    row[L.L_TURN] = turn
    row[L.L_PICK] = pick
    for c in range(L.L_DEPLOYED, L.N_LOG):
        row[c] = 0
    s.card_log[card] = k
    return k


@hot
def _score(s, p, part, lp):
    s.parts[p, part] += lp
    s.pi[p, L.I_STEP] += lp


@hot
def _settle(tb, s, p):
    """``Game.settle``: move the marker by the step's LP, never below the floor."""
    floor = tb.rules[L.R_SCORE_FLOOR]
    new = s.pi[p, L.I_LP] + s.pi[p, L.I_STEP]
    if new < floor:
        s.parts[p, L.LP_FLOOR] += floor - new
        new = floor
    s.pi[p, L.I_LP] = new
    s.pi[p, L.I_STEP] = 0


@hot
def _kill(s, p, spot, fate):
    """``Game.kill``: the unit on ``spot`` to the discard pile, ``fate`` in its log."""
    card = s.sp[p, spot, L.S_CARD]
    s.sp[p, spot, L.S_CARD] = -1
    s.sp[p, spot, L.S_UNIT] = -1
    _to_discard(s, card)
    s.log[p, s.card_log[card], L.L_FATE] = fate


@hot
def _load(s, p):
    """Seat ``p``'s pieces (spot order) into ``s.pc`` and its levels into ``s.bl``; the
    count of pieces (``Player.pieces``)."""
    n = 0
    for spot in range(L.MAX_SPOTS):
        if s.sp[p, spot, L.S_CARD] < 0:
            continue
        s.pc[n, L.PC_SPOT] = spot
        s.pc[n, L.PC_UNIT] = s.sp[p, spot, L.S_UNIT]
        s.pc[n, L.PC_AGE] = s.sp[p, spot, L.S_AGE]
        s.pc[n, L.PC_PENDING] = 1 - s.sp[p, spot, L.S_RESOLVED]
        s.pc[n, L.PC_FRESH] = s.sp[p, spot, L.S_FRESH]
        n += 1
    for b in range(s.bl.shape[0]):
        s.bl[b] = s.blevel[p, b]
    return n


@hot
def _assess_seat(tb, s, p):
    """``assess`` of seat ``p``'s kingdom as it stands (its pieces loaded into ``s.pc``):
    (pieces, (wood, food, crystal, income, strength, tokens on all units, level-2
    buildings, strong units)). From the kingdom's first pass (unit records, the seat's
    building cache ``s.bc[p]``; scratch ``s.wpc`` / ``s.acc[1]``): the same integers as
    ``assess``, without interpreting the abilities. Between phases no piece is pending; if
    one is (a projection would move the tokens), ``assess`` itself."""
    n = _load(s, p)
    pending = 0
    for i in range(n):
        pending |= s.pc[i, L.PC_PENDING]
    if pending:
        return n, assess(tb.ut, tb.bt, tb.ab, tb.rules, s.pc, n, s.bl)
    first_pass(tb, s.pc, n, s.bl, s.g[L.G_TURN], s.wpc, s.wbl, s.bc[p], s.acc[1])
    wood, food, crystal, income, strength, age_all, n_level2, n_strong, _ = kingdom_totals(
        tb, s.pc, n, s.wpc, s.bc[p], s.acc[1]
    )
    return n, (wood, food, crystal, income, strength, age_all, n_level2, n_strong)


@hot
def _strength_of(tb, s, p):
    return _assess_seat(tb, s, p)[1][4]


@hot
def _set_seen(s, n_players):
    """Each seat's neighbours' strengths (``Game.seen``) from ``s.strength``."""
    for p in range(n_players):
        if n_players == 2:
            s.pi[p, L.I_SEEN0] = s.strength[1 - p]
            s.pi[p, L.I_SEEN1] = 0
        else:
            s.pi[p, L.I_SEEN0] = s.strength[(p - 1) % n_players]
            s.pi[p, L.I_SEEN1] = s.strength[(p + 1) % n_players]


class LState(NamedTuple):
    """A Legends game's scratch beside the base ``State``."""

    zone: np.ndarray  # int32[P, X, N_Z]: artifacts in the zone, entry order (Z_*)
    zn: np.ndarray  # int32[P]: artifacts in the zone (placed face down included)
    sx: np.ndarray  # int32[P, S, N_SX]: tier bookkeeping per spot (SX_*)
    llog: np.ndarray  # int32[P, MAX_LOGS, N_LL]: deploy cost, how deployed, per log row
    lparts: np.ndarray  # int32[P, N_LPARTS]: war_artifacts, artifacts LP
    art_gold: np.ndarray  # int32[P]: gold spent on artifacts
    inset: np.ndarray  # int32[B]: 1 = building in this game's set
    lg: np.ndarray  # int32[N_LG]: the pair drawn, copies and sources counts
    copies: np.ndarray  # int32[MAX_SOURCES, 4]: (copier kind, copier card, target card, times)
    src: np.ndarray  # int32[MAX_SOURCES, 3]: a tier's sources (kind, card, spot)
    zx: np.ndarray  # int32[fixed_size(B)]: scratch: a kingdom's artifact indices, then
    # ``l_value``'s cache of its faces' and artifacts' terms (``layout.FX_*``)
    bopt: np.ndarray  # int32[MAX_CATALOG_BUILDINGS]: Titan options
    order: np.ndarray  # int32[MAX_PLAYERS]: simultaneity order (tier 0)
    tied: np.ndarray  # int32[MAX_PLAYERS]
    pdone: np.ndarray  # int32[MAX_PIECES]: a sketch's pieces' last tier done
    hpaid: np.ndarray  # int32[MAX_HAND]: l_moves: gold each hand card's payment takes
    sa: np.ndarray  # int32[MAX_ARTIFACTS + 1, N_SA]: a sketch's artifacts (SA_*)


@alloc
def _new_lstate(P, B):
    return LState(
        np.zeros((P, L.MAX_ARTIFACTS, L.N_Z), np.int32),
        np.zeros(P, np.int32),
        np.zeros((P, L.MAX_SPOTS, L.N_SX), np.int32),
        np.zeros((P, L.MAX_LOGS, L.N_LL), np.int32),
        np.zeros((P, L.N_LPARTS), np.int32),
        np.zeros(P, np.int32),
        np.zeros(max(B, 1), np.int32),
        np.zeros(L.N_LG, np.int32),
        np.zeros((L.MAX_SOURCES, 4), np.int32),
        np.zeros((L.MAX_SOURCES, 3), np.int32),
        np.full(fixed_size(B), -1, np.int32),
        np.zeros(L.MAX_CATALOG_BUILDINGS, np.int32),
        np.zeros(L.MAX_PLAYERS, np.int32),
        np.zeros(L.MAX_PLAYERS, np.int32),
        np.zeros(L.MAX_PIECES, np.int32),
        np.zeros(L.MAX_HAND, np.int32),
        np.zeros((L.MAX_ARTIFACTS + 1, L.N_SA), np.int32),
    )


@hot
def _lscore(s, ls, p, part, lp):
    """``Game.score`` for a Legends-only part (``LP_WAR_ARTIFACTS`` / ``LP_ARTIFACTS``)."""
    ls.lparts[p, part] += lp
    s.pi[p, L.I_STEP] += lp


@hot
def _lload(s, ls, p):
    """Seat ``p``'s pieces into ``s.pc`` / ``s.bl`` (``kernel._load``) and its paid
    artifacts into ``ls.zx``: (pieces, artifacts)."""
    n = _load(s, p)
    nz = 0
    for i in range(ls.zn[p]):
        if ls.zone[p, i, L.Z_PAID]:
            ls.zx[nz] = ls.zone[p, i, L.Z_X]
            nz += 1
    return n, nz


@hot
def _seat_assess(tb, lx, s, ls, p):
    """Seat ``p``'s kingdom as it stands, both variants: (pieces, paid artifacts, ``assess``
    facts). Base game: ``_assess_seat``, no artifact; Legends: its pieces and paid
    artifacts loaded (``_lload``) and ``l_assess``ed."""
    if lx is None:
        n, facts = _assess_seat(tb, s, p)
        return n, 0, facts
    n, nz = _lload(s, ls, p)
    return n, nz, l_assess(tb.ut, tb.bt, tb.ab, tb.rules, lx.xt, s.pc, n, s.bl, ls.zx, nz)


@hot_outline
def _lassess(tb, lx, s, ls, p):
    """``Game.assessment`` of seat ``p`` (artifacts included)."""
    return _seat_assess(tb, lx, s, ls, p)[2]


@hot
def _find_spot(s, p, card):
    for spot in range(L.MAX_SPOTS):
        if s.sp[p, spot, L.S_CARD] == card:
            return spot
    return -1


@hot_outline
def _facts(tb, lx, s, ls, p):
    """(pieces, artifacts, wood, food, crystal, facts) of seat ``p`` now, ``facts`` as
    ``reference.base_facts`` with the Legends counters (no income, no strong units)."""
    ut, bt = tb.ut, tb.bt
    n, nz = _lload(s, ls, p)
    wood, food, crystal = production(ut, bt, s.pc, n, s.bl, lx.xt, ls.zx, nz)
    age_all, n_level2 = base_facts(bt, s.pc, n, s.bl)
    return n, nz, wood, food, crystal, (age_all, n_level2, 0, 0, nz)


@hot
def _piece_at(s, n, spot):
    """Index of the piece on ``spot`` in ``s.pc[:n]``, -1 if none (``spot`` -1: none)."""
    for i in range(n):
        if spot >= 0 and s.pc[i, L.PC_SPOT] == spot:
            return i
    return -1


@hot
def _freeze(tb, lx, s, ls, n_players):
    """``Game.freeze_strengths``: each seat's neighbours' strengths, now (Legends: with the
    artifacts)."""
    for q in range(n_players):
        if lx is None:
            s.strength[q] = _strength_of(tb, s, q)
        else:
            s.strength[q] = _lassess(tb, lx, s, ls, q)[4]
    _set_seen(s, n_players)
