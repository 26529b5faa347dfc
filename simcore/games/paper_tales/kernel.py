"""Paper Tales rules, compiled: one game per ``play_game`` call, many per ``simulate_chunk``
(``prange`` over blocks of games, one scratch ``State`` allocated per block).

It follows ``reference.py`` phase by phase, decision by decision: same option enumeration
order, same random draws in the same order (the reference's module docstring: "RNG draw
order", "Discard pile order", "Decisions and their option order"), same float64 values
(``evaluate.value``). A kingdom is scored with ``evaluate.py``'s functions on a *pieces*
list built from the seat's spots (``_load``), exactly as the reference builds
``Player.pieces``.

State (``State``; P = players, S = ``MAX_SPOTS``, D = deck size, B = buildings, U = units;
-1 marks an empty slot): see the field comments. Card tables come in as arguments
(``tb`` = ``tables.Tables`` as a tuple), never as globals, so ``--cards FILE`` works.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange

from simcore.jit import alloc, hot, hot_inline, hot_outline, parallel
from simcore.rng import rng_below, rng_shuffle, rng_start

from .evaluate import (
    AC_DYN,
    AC_PER_WAR,
    BC_TERMS,
    D_WAR,
    KU_FRONT_FIRST,
    KU_OTHERS_AGE,
    KU_UPGRADE,
    MAX_PIECES,
    N_AC,
    N_BS,
    N_PC,
    PC_AGE,
    PC_FRESH,
    PC_PENDING,
    PC_SPOT,
    PC_UNIT,
    W_DYN,
    assess,
    base_facts,
    death_rewards,
    dies,
    end_lp,
    face_room,
    fight,
    first_pass,
    kingdom_totals,
    per_value,
    piece_terms,
    production,
    project_levels,
    raise_building,
    strong_terms_nonnegative,
    value,
    value_totals,
    war_phase_lp,
    when_holds,
)
from .evaluate_legends import LV_BASE, l_card_value, l_sketch, l_strength, l_value
from .policies import (
    F_GOLD,
    F_MARGIN,
    F_STRENGTH,
    F_STRONG,
    F_WAR_LP,
    W_SAVE_STRENGTH,
    W_UNAFFORDABLE,
    Policy,
)
from .scoring import (
    K_ADD_AGE,
    K_GOLD_FOR_RESOURCE,
    K_HEAL,
    K_LP,
    K_NO_LAND_COST,
    K_SHAPESHIFT,
    K_UPGRADE_BUILDINGS,
    PH_DEPLOYMENT,
    T_OTHERS,
    T_SELF,
)
from .tables import (
    A_AGE,
    A_AMOUNT,
    A_KIND,
    A_MAX_COST,
    A_ON_DEPLOY,
    A_PER,
    A_PHASE,
    A_RES_MASK,
    A_TARGET,
    A_WHEN,
    B_EXTRA_SPOT,
    B_GOLD_INSTEAD,
    B_REQ0,
    DEAL,
    DEAL_2P,
    LEVELS,
    MAX_AGE,
    MAX_BUILD_OPTIONS,
    MAX_COPIES,
    MAX_DEPLOY_OPTIONS,
    MAX_DEPLOY_STEPS,
    MAX_FRONT,
    MAX_HAND,
    MAX_PLAYERS,
    MAX_SPOTS,
    N_RES,
    R2_DEAL,
    R2_DISCARD,
    R2_DOUBLE_LP,
    R2_PWW_TIMES,
    R2_WAR_LP,
    R_BACK_SPOTS,
    R_DEAL,
    R_DIRECT_L2_SUM,
    R_DISCARD_IS_DEATH,
    R_EXTRA_FRONT,
    R_FIRST_DIRECTION,
    R_FRONT_SPOTS,
    R_HEALED_AGE,
    R_KEEP,
    R_KRAKEN_AT_END,
    R_LAND_COST,
    R_LAND_ON_UPGRADE,
    R_RESHUFFLE,
    R_SCORE_FLOOR,
    R_SHAPE_FREE,
    R_SHAPE_ON_DEPLOY,
    R_START_GOLD,
    R_TURNS,
    R_WAR_LP,
    TURNS,
    U_AB0,
    U_COST,
    U_NAB,
    U_STRENGTH,
    ix,
)

P_RANDOM = int(Policy.RANDOM)
EXTRA_SPOT = 2  # the 5th spot (Front), open with a level-2 face (reference.EXTRA_SPOT)
BACK0 = MAX_FRONT  # first Back spot
MAX_DEAL = max(DEAL, DEAL_2P)  # cards in a pack: 9 (2 players)
# Cards one seat receives in a game: <= MAX_HAND drafted a turn (the hand bound), plus the
# units a Shapeshifter reveals for it (one per spot and turn; a chain of Shapeshifters
# revealing each other is cut by the overflow flag, never in the base game).
MAX_LOGS = TURNS * (MAX_HAND + MAX_SPOTS)
# Deployment LP waiting for the end of the phase (kraken_count_at_end): per seat and
# spot, a unit's abilities, times a chain of Shapeshifters on the same spot.
MAX_PENDING = MAX_PLAYERS * MAX_SPOTS * 4 * (MAX_COPIES + 1)

# --- the LP breakdown (reference.BREAKDOWN order) -----------------------------------------
LP_WARS, LP_PER_WAR_WON, LP_WAR_UNITS, LP_WAR_BUILDINGS = 0, 1, 2, 3
LP_DEPLOYMENT, LP_AGING, LP_BUILDINGS, LP_RELIC, LP_FLOOR = 4, 5, 6, 7, 8
N_PARTS = 9

# --- card logs (reference.CardLog; one row per card a seat received, in order) -------------
L_CARD, L_UNIT, L_TURN, L_PICK, L_DEPLOYED, L_TURN_DEPLOYED = 0, 1, 2, 3, 4, 5
L_ROW, L_SURVIVED, L_DIED, L_FATE = 6, 7, 8, 9
N_LOG = 10
ROWS = ("", "front", "back")  # L_ROW codes
ROW_FRONT, ROW_BACK = 1, 2
FATES = ("hand", "not_deployed", "kept", "unpaid", "replaced", "shapeshifted", "died", "in_play")
F_HAND, F_NOT_DEPLOYED, F_KEPT, F_UNPAID, F_REPLACED, F_SHAPESHIFTED, F_DIED, F_IN_PLAY = range(8)

# --- building logs (reference.BuildingLog) ---------------------------------------------------
BL_LEVEL, BL_BUILT, BL_UPGRADED, BL_HOW = 0, 1, 2, 3
N_BLOG = 4
HOWS = ("", "build", "direct", "golem")
H_BUILD, H_DIRECT, H_GOLEM = 1, 2, 3

# --- per-game counters (State.g) -------------------------------------------------------------
G_TURN, G_DECK_N, G_DISC_N, G_RESHUFFLES, G_PENDING_N, G_OVERFLOW = range(6)
N_G = 6

# --- per-seat ints (State.pi) ----------------------------------------------------------------
I_GOLD, I_LP, I_STEP, I_WARS, I_HAND_N, I_KEPT, I_LOG_N, I_EXTRA = range(8)
I_POLICY, I_SEEN0, I_SEEN1, I_PACK_N, I_DRAFT_N, I_WINNER = 8, 9, 10, 11, 12, 13
# I_SEEN0 / I_SEEN1: the frozen strengths of the right (seat-1) and left (seat+1) neighbours
I_TWIN = 14  # Recruitment: the first seat whose draft values this seat's equal (_draft_twin)
N_PI = 15

# --- spot fields (State.sp[P, S, N_SP]) ------------------------------------------------------
S_CARD, S_UNIT, S_AGE, S_FRESH, S_RESOLVED, S_MOVED = range(6)
N_SP = 6

# --- deployment options (State.opt rows) -----------------------------------------------------
M_STOP, M_PLACE, M_MOVE, M_REMOVE = 0, 1, 2, 3  # M_REMOVE: (spot a, -1)

INVARIANTS = (
    "no violation",
    "card conservation: every card id exactly once (piles, packs, hands, kept, spots)",
    "gold >= 0",
    "score marker >= score floor",
    "no unsettled LP between phases",
    "score equals its breakdown",
    "floor part >= 0",
    "age tokens within 0..MAX_AGE",
    "a unit on a spot that is not open",
    "building level within 0..2",
    "a unit on the 5th spot without a level-2 face",
)
V_CARDS, V_GOLD, V_FLOOR, V_STEP, V_BREAKDOWN, V_FLOOR_PART, V_AGE, V_SPOT, V_LEVEL, V_EXTRA = (
    range(1, 11)
)


class State(NamedTuple):
    """One game's scratch (reused game after game by a block)."""

    g: np.ndarray  # int32[N_G]: turn, draw/discard pile sizes, reshuffles, pending LP, overflow
    deck: np.ndarray  # int32[D]: draw pile, top = deck[g[G_DECK_N] - 1]
    disc: np.ndarray  # int32[D]: discard pile, oldest first
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
        np.zeros(N_G, np.int32),
        np.zeros(D, np.int32),
        np.zeros(D, np.int32),
        np.full((P, MAX_DEAL), -1, np.int32),
        np.full((P, MAX_DEAL), -1, np.int32),
        np.zeros(P, np.int32),
        np.full((P, MAX_HAND), -1, np.int32),
        np.full((P, MAX_HAND), -1, np.int32),
        np.zeros((P, N_PI), np.int32),
        np.zeros((P, N_PARTS), np.int32),
        np.full((P, MAX_SPOTS, N_SP), -1, np.int32),
        np.zeros((P, max(B, 1)), np.int32),
        np.zeros((P, max(B, 1), N_BLOG), np.int32),
        np.zeros((P, MAX_LOGS, N_LOG), np.int32),
        np.zeros(D, np.int32),
        np.zeros(P, np.int32),
        np.zeros((P, max(U, 1)), np.float64),
        np.zeros((P, max(U, 1)), np.int32),
        np.zeros((MAX_PIECES, N_PC), np.int32),
        np.zeros((MAX_PIECES, N_PC), np.int32),
        np.zeros((MAX_PIECES, N_PC), np.int32),
        np.zeros((MAX_PIECES, N_PC), np.int32),
        np.zeros((2, N_AC), np.int64),
        np.zeros(max(B, 1), np.int32),
        np.zeros(max(B, 1), np.int32),
        np.full((P, BC_TERMS + N_BS * face_room(B) * 3), -1, np.int32),
        np.zeros((MAX_DEPLOY_OPTIONS, 3), np.int32),
        np.zeros((MAX_BUILD_OPTIONS, 4), np.int32),
        np.zeros(MAX_PIECES, np.int32),
        np.zeros((MAX_PENDING, 3), np.int32),
        np.zeros(D, np.int32),
        np.zeros(1, np.uint64),
    )


# --- small helpers ----------------------------------------------------------------------------


@hot
def _two(n_players):
    return n_players == 2


@hot
def _draw(tb, s):
    """``Game.draw``: the top card; an empty pile first takes the shuffled discard pile.
    -1 when both are empty."""
    g = s.g
    if g[G_DECK_N] == 0 and tb[3][R_RESHUFFLE] and g[G_DISC_N] > 0:
        for i in range(g[G_DISC_N]):
            s.deck[i] = s.disc[i]
        g[G_DECK_N] = g[G_DISC_N]
        g[G_DISC_N] = 0
        rng_shuffle(s.rng, s.deck, g[G_DECK_N])
        g[G_RESHUFFLES] += 1
    if g[G_DECK_N] == 0:
        return -1
    g[G_DECK_N] -= 1
    return s.deck[g[G_DECK_N]]


@hot
def _to_discard(s, card):
    s.disc[s.g[G_DISC_N]] = card
    s.g[G_DISC_N] += 1


@hot
def _receive(s, p, card, unit, turn, pick):
    """``Player.receive``: a new log row for ``card``; returns its index."""
    k = s.pi[p, I_LOG_N]
    if k >= MAX_LOGS:  # cannot happen with base-game data; flagged, never silent
        s.g[G_OVERFLOW] = 1
        k = MAX_LOGS - 1
    else:
        s.pi[p, I_LOG_N] = k + 1
    row = s.log[p, k]
    row[L_CARD] = card
    row[L_UNIT] = unit
    row[L_TURN] = turn
    row[L_PICK] = pick
    for c in range(L_DEPLOYED, N_LOG):
        row[c] = 0
    s.card_log[card] = k
    return k


@hot
def _score(s, p, part, lp):
    s.parts[p, part] += lp
    s.pi[p, I_STEP] += lp


@hot
def _settle(tb, s, p):
    """``Game.settle``: move the marker by the step's LP, never below the floor."""
    floor = tb[3][R_SCORE_FLOOR]
    new = s.pi[p, I_LP] + s.pi[p, I_STEP]
    if new < floor:
        s.parts[p, LP_FLOOR] += floor - new
        new = floor
    s.pi[p, I_LP] = new
    s.pi[p, I_STEP] = 0


@hot
def _kill(s, p, spot, fate):
    """``Game.kill``: the unit on ``spot`` to the discard pile, ``fate`` in its log."""
    card = s.sp[p, spot, S_CARD]
    s.sp[p, spot, S_CARD] = -1
    s.sp[p, spot, S_UNIT] = -1
    _to_discard(s, card)
    s.log[p, s.card_log[card], L_FATE] = fate


@hot
def _load(s, p):
    """Seat ``p``'s pieces (spot order) into ``s.pc`` and its levels into ``s.bl``; the
    count of pieces (``Player.pieces``)."""
    n = 0
    for spot in range(MAX_SPOTS):
        if s.sp[p, spot, S_CARD] < 0:
            continue
        s.pc[n, PC_SPOT] = spot
        s.pc[n, PC_UNIT] = s.sp[p, spot, S_UNIT]
        s.pc[n, PC_AGE] = s.sp[p, spot, S_AGE]
        s.pc[n, PC_PENDING] = 1 - s.sp[p, spot, S_RESOLVED]
        s.pc[n, PC_FRESH] = s.sp[p, spot, S_FRESH]
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
        pending |= s.pc[i, PC_PENDING]
    if pending:
        return n, assess(tb[0], tb[1], tb[2], tb[3], s.pc, n, s.bl)
    first_pass(tb, s.pc, n, s.bl, s.g[G_TURN], s.wpc, s.wbl, s.bc[p], s.acc[1])
    wood, food, crystal, income, strength, age_all, n_level2, n_strong, _ = kingdom_totals(
        tb, s.pc, n, s.wpc, s.bc[p], s.acc[1]
    )
    return n, (wood, food, crystal, income, strength, age_all, n_level2, n_strong)


@hot
def _strength_of(tb, s, p):
    return _assess_seat(tb, s, p)[1][4]


@hot
def _freeze(tb, s, n_players):
    """``Game.freeze_strengths``: each seat's neighbours' strengths, now."""
    for q in range(n_players):
        s.strength[q] = _strength_of(tb, s, q)
    _set_seen(s, n_players)


@hot
def _set_seen(s, n_players):
    """Each seat's neighbours' strengths (``Game.seen``) from ``s.strength``."""
    for p in range(n_players):
        if n_players == 2:
            s.pi[p, I_SEEN0] = s.strength[1 - p]
            s.pi[p, I_SEEN1] = 0
        else:
            s.pi[p, I_SEEN0] = s.strength[(p - 1) % n_players]
            s.pi[p, I_SEEN1] = s.strength[(p + 1) % n_players]


@hot
def _value(tb, weights, s, p, n, gold, n_players):
    """``Brain.value`` of the sketch in ``s.pc[:n]`` / ``s.bl`` with ``gold``."""
    return value(
        tb,
        weights,
        s.pi[p, I_POLICY],
        s.pc,
        n,
        s.bl,
        gold,
        s.pi[p, I_SEEN0],
        s.pi[p, I_SEEN1],
        n_players == 2,
        s.g[G_TURN],
        s.wpc,
        s.wbl,
        s.bc[p],
        s.acc[1],
    )


# A decision's options differ from its base sketch (the seat's pieces as they are) by one
# piece: a unit placed (on an empty spot or replacing an old unit) or moved. Their values
# come from the base's first pass (``_sketch_base``) with that piece's share taken back and
# added again (``_changed_pass``): the same integers, so the same floats as ``value``. A
# piece whose on-deploy projection changes the others' tokens or the levels (Time Master,
# Golem: ``_projects``) is valued in full.


@hot
def _sketch_base(tb, s, p):
    """Seat ``p``'s pieces into ``s.pc`` (``_load``) with their first pass: levels projected
    (``s.wbl``, the seat's building cache ``s.bc[p]``), totals ``s.acc[0]``, scratch rows
    ``s.wpc``; pieces and rows copied to ``s.pc0`` / ``s.wpc0``. Returns (pieces, tokens
    the pending put on others)."""
    n = _load(s, p)
    others = first_pass(tb, s.pc, n, s.bl, s.g[G_TURN], s.wpc, s.wbl, s.bc[p], s.acc[0])
    _copy_rows(s.pc, s.wpc, s.pc0, s.wpc0, n)
    return n, others


@hot
def _copy_rows(pc, wpc, to_pc, to_wpc, n):
    """Rows ``[:n]`` of a sketch's pieces and scratch rows into ``to_pc`` / ``to_wpc``."""
    for i in range(n):
        for c in range(N_PC):
            to_pc[ix(i), c] = pc[ix(i), c]
            to_wpc[ix(i), c] = wpc[ix(i), c]


@hot
def _projects(ut, u):
    """A pending ``u`` changes the projection of the other pieces (tokens, levels)."""
    return ut[ix(u), KU_OTHERS_AGE] != 0 or ut[ix(u), KU_UPGRADE] != 0


@hot
def _totals_value(tb, weights, s, p, n, row, gold, n_players):
    """``value`` of the sketch ``s.pc[:n]`` from its first pass: totals ``s.acc[row]``
    (0: the base sketch's, 1: an option's), scratch rows ``s.wpc``, levels ``s.wbl`` /
    ``s.bc[p]``. ``value_totals`` is most of the kernel's code: each decision calls it once
    (inlined, so once per decision in the compiled code too)."""
    return value_totals(
        tb, weights, s.pi[p, I_POLICY], s.pc, n, s.wpc, s.wbl, s.bc[p], s.acc[row], gold,
        s.pi[p, I_SEEN0], s.pi[p, I_SEEN1], n_players == 2, s.g[G_TURN],
    )  # fmt: skip


@hot
def _full_pass(tb, s, p, n):
    """The first pass of the sketch ``s.pc[:n]`` into ``s.acc[1]``, ``s.wpc``, ``s.wbl``
    and ``s.bc[p]`` (an option valued in full; ``_restore_base`` after)."""
    first_pass(tb, s.pc, n, s.bl, s.g[G_TURN], s.wpc, s.wbl, s.bc[p], s.acc[1])


@hot
def _changed_pass(tb, s, n0, others, k, spot, u, age, new):
    """The first pass of the base sketch with its row ``k`` (``n0``: a new row) replaced by
    the piece ``u`` on ``spot`` with ``age`` tokens (``new``: pending and fresh, else as
    row ``k`` was) into ``s.acc[1]``: the base's totals with row ``k``'s share taken back
    and the new piece's added (``_restore_row`` after). Returns the sketch's piece count."""
    ut, ab, ur = tb[0], tb[2], tb[5]
    acc = s.acc[1]
    for c in range(N_AC):
        acc[c] = s.acc[0, c]
    extra = tb[3][R_TURNS] - s.g[G_TURN] + 1
    if k < n0:
        piece_terms(ut, ab, ur, s.pc, k, others, extra, s.wpc, acc, -1)
    r = ix(k)
    s.pc[r, PC_SPOT] = spot
    s.pc[r, PC_UNIT] = u
    s.pc[r, PC_AGE] = age
    if new:
        s.pc[r, PC_PENDING] = 1
        s.pc[r, PC_FRESH] = 1
    piece_terms(ut, ab, ur, s.pc, k, others, extra, s.wpc, acc, 1)
    return max(n0, k + 1)


@hot
def _removed_pass(tb, s, n0, others, spot):
    """The first pass of the base sketch without the (old) unit on ``spot`` into
    ``s.acc[1]``: the base's totals with its row's share taken back, that row ``k``
    swapped with the last one, so the sketch is ``s.pc[:n0 - 1]`` (its projection is the
    base's: an old unit projects nothing). Returns ``k``; after: ``_swap_rows(s, k,
    n0 - 1)`` and ``_restore_row(s, n0, k)``."""
    ut, ab, ur = tb[0], tb[2], tb[5]
    acc = s.acc[1]
    for c in range(N_AC):
        acc[c] = s.acc[0, c]
    k = n0 - 1
    for i in range(n0):
        if s.pc[ix(i), PC_SPOT] == spot:
            k = i
    extra = tb[3][R_TURNS] - s.g[G_TURN] + 1
    piece_terms(ut, ab, ur, s.pc, k, others, extra, s.wpc, acc, -1)
    _swap_rows(s, k, n0 - 1)
    return k


@hot
def _swap_rows(s, i, j):
    """Rows ``i`` and ``j`` of the sketch's pieces and scratch rows swapped."""
    for c in range(N_PC):
        s.pc[ix(i), c], s.pc[ix(j), c] = s.pc[ix(j), c], s.pc[ix(i), c]
        s.wpc[ix(i), c], s.wpc[ix(j), c] = s.wpc[ix(j), c], s.wpc[ix(i), c]


@hot
def _restore_row(s, n0, k):
    """After ``_changed_pass``: the base sketch's row ``k`` back (a new row needs none)."""
    if k < n0:
        r = ix(k)
        for c in range(N_PC):
            s.pc[r, c] = s.pc0[r, c]
            s.wpc[r, c] = s.wpc0[r, c]


@hot
def _restore_base(tb, s, p, n0):
    """After ``_full_pass``: the base sketch back in ``s.pc`` / ``s.wpc`` and its
    projected levels in ``s.wbl`` / ``s.bc[p]``."""
    _copy_rows(s.pc0, s.wpc0, s.pc, s.wpc, n0)
    project_levels(tb[0], tb[1], tb[2], s.pc, n0, s.bl, s.wbl, s.bc[p])


@hot
def first_best(i, v, best, chosen):
    """(best value, chosen option) after option ``i`` valued ``v``: the first best wins."""
    if i == 0 or v > best:
        return v, i
    return best, chosen


@hot
def _random_pick(s, n):
    """``Brain.pick``: uniform in [0, n), no draw when forced."""
    if n == 1:
        return 0
    return rng_below(s.rng, n)


# --- policy decisions (reference.Brain) ----------------------------------------------------------


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
    for c in (I_POLICY, I_GOLD, I_SEEN0, I_SEEN1):
        if s.pi[p, c] != s.pi[q, c]:
            return False
    for b in range(s.blevel.shape[1]):
        if s.blevel[p, b] != s.blevel[q, b]:
            return False
    for spot in range(MAX_SPOTS):
        if (s.sp[p, spot, S_CARD] < 0) != (s.sp[q, spot, S_CARD] < 0):
            return False
        if s.sp[p, spot, S_CARD] < 0:
            continue
        for c in (S_UNIT, S_AGE, S_FRESH, S_RESOLVED):
            if s.sp[p, spot, c] != s.sp[q, spot, c]:
                return False
    return True


@hot
def _card_value_from(tb, weights, s, p, unit, n0, others, n_players):
    """``Brain.card_value``: the kingdom with ``unit`` added pending and fresh on virtual
    spot 0, then 3 (cost paid), the better one; minus ``W_UNAFFORDABLE`` if unaffordable.
    From the seat's base sketch (``_sketch_base``), which it keeps."""
    ut = tb[0]
    cost = ut[ix(unit), U_COST]
    gold = s.pi[p, I_GOLD]
    full = _projects(ut, unit)
    best = -np.inf
    for spot in (0, BACK0):
        if full:
            r = ix(n0)
            s.pc[r, PC_SPOT] = spot
            s.pc[r, PC_UNIT] = unit
            s.pc[r, PC_AGE] = 0
            s.pc[r, PC_PENDING] = 1
            s.pc[r, PC_FRESH] = 1
            _full_pass(tb, s, p, n0 + 1)
        else:
            _changed_pass(tb, s, n0, others, n0, spot, unit, 0, 1)
        v = _totals_value(tb, weights, s, p, n0 + 1, 1, gold - cost, n_players)
        if full:
            _restore_base(tb, s, p, n0)
        best = max(best, v)
        if spot == 0 and front_first_holds(tb, weights, s, p, unit, n0 + 1, n_players):
            break
    if cost > gold:
        best -= weights[s.pi[p, I_POLICY], W_UNAFFORDABLE]
    return best


@hot
def front_first_holds(tb, weights, s, p, unit, n, n_players):
    """After ``card_value``'s Front-row option (its first pass in ``s.acc[1]``): the
    Back-row one cannot be worth more (``n``: the option's pieces). ``unit``'s Front-row
    records dominate its Back-row ones (``evaluate.front_first``): the two kingdoms have
    the same totals except strength and strong units, at least as high in the Front. Every
    feature is then at least as high in the Front, given: no piece computes its war-phase
    step from the kingdom's totals (the only step that reads strong units; no step reads
    the kingdom's strength), the per-war-won LP is >= 0, no building
    face loses LP per strong unit, the rules give >= 0 LP for a war won (2 players: a
    double win >= a win), and the policy's weights of war LP, strength, margin and strong
    units are >= 0. Each product with a weight >= 0 and each float sum in the same order
    keep the order (rounding is monotone), so the maximum is the Front-row value."""
    ut, rules, acc = tb[0], tb[3], s.acc[1]
    if not ut[ix(unit), KU_FRONT_FIRST] or acc[AC_PER_WAR] < 0:
        return False
    for i in range(n if acc[AC_DYN] else 0):
        if s.wpc[ix(i), W_DYN] & D_WAR:
            return False
    w = weights[ix(s.pi[p, I_POLICY])]
    if w[F_WAR_LP] < 0 or w[F_STRENGTH] < 0 or w[F_MARGIN] < 0 or w[F_STRONG] < 0:
        return False
    if n_players == 2:
        if not 0 <= rules[R2_WAR_LP] <= rules[R2_DOUBLE_LP] or rules[R2_PWW_TIMES] < 0:
            return False
    elif rules[R_WAR_LP] < 0:
        return False
    return strong_terms_nonnegative(tb[1], s.bc[p])


@hot
def _lsketch(s, ls, p):
    """``Brain.sketch`` (Legends): seat ``p``'s pieces into ``s.pc`` / ``s.bl``, their tiers
    done into ``ls.pdone``, the zone into ``ls.sa``: (pieces, sketch artifacts)."""
    n = _load(s, p)
    return n, l_sketch(s, ls, p, n)


@hot_inline
def _lv(tb, lx, weights, s, ls, p, n, na, gold, bonus, n_players, mode):
    """``Brain.value`` of the sketch in ``s.pc[:n]``, ``ls.pdone``, ``s.bl``, ``ls.sa[:na]``
    (``mode``: ``l_value``'s ``LV_*``). Inlined in numba's IR (no compiled copy of its own)
    and the counts and mode passed as int64, so that its callers (``_l_base_pass`` and
    ``kernel_legends``' decisions) share one compiled ``l_value`` (``simcore/jit.py``)."""
    return l_value(
        tb, lx, weights, s.pi[p, I_POLICY], s.pc, np.int64(n), ls.pdone, s.bl, ls.sa,
        np.int64(na), np.int64(gold), np.int64(bonus),
        s.pi[p, I_SEEN0], s.pi[p, I_SEEN1], n_players == 2, s.g[G_TURN], s.wpc, s.wbl, ls.zx,
        ls.inset, np.int64(mode),
    )  # fmt: skip


@hot
def _l_base_pass(tb, lx, weights, s, ls, p, n_players):
    """Seat ``p``'s Legends sketch loaded (``_lsketch``) and its first pass made
    (``l_value``'s ``LV_BASE``): the base a decision values every option from
    (``kernel_legends.deploy_l``'s steps, ``l_card_value``'s cards). (pieces, sketch
    artifacts)."""
    n, na = _lsketch(s, ls, p)
    _lv(tb, lx, weights, s, ls, p, n, na, 0, 0, n_players, LV_BASE)
    return n, na


@hot
def _l_card_value(tb, lx, weights, s, ls, p, u, n, na, n_players):
    """``Brain.card_value`` of card type ``u`` in a Legends game (``evaluate_legends``), from
    the base ``_l_base_pass`` made (``n`` pieces, ``na`` sketch artifacts)."""
    return l_card_value(
        tb, lx, weights, s.pi[p, I_POLICY], s.pc, n, ls.pdone, s.bl, ls.sa, na, s.pi[p, I_GOLD],
        u, s.pi[p, I_SEEN0], s.pi[p, I_SEEN1], n_players == 2, s.g[G_TURN], s.wpc, s.wbl,
        ls.zx, ls.inset,
    )  # fmt: skip


@hot
def draft_choice(tb, weights, s, p, pack, m, discard, n_players, lx, ls):
    """Index in ``pack[:m]`` of the card to take (``discard``: to throw away, 2 players).
    ``Brain.draft_value``: ``card_value`` once per (seat, unit) and Recruitment phase; the
    seat's base sketch (``_sketch_base``) once per pick, when a unit is new to it. ``lx`` /
    ``ls`` (Legends tables and state; None in a base game, where numba prunes the Legends
    branch): a card type may be an artifact, valued with its zone; the seat's base
    sketch and first pass (``_l_base_pass``) once per pick, when a card is new to it."""
    if m == 1:
        return 0
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, m)
    best = -np.inf
    chosen = 0
    n0 = -1
    others = 0
    t = ix(s.pi[p, I_TWIN])
    for i in range(m):
        u = tb[4][ix(pack[i])]
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


@hot
def _sketch_move(s, p, kind, a, b, tb):
    """``Game.after_move``: the seat's pieces after the step into ``s.pc``; returns
    (count, gold)."""
    n = _load(s, p)
    gold = s.pi[p, I_GOLD]
    if kind == M_MOVE:
        for i in range(n):
            if s.pc[i, PC_SPOT] == a:
                s.pc[i, PC_SPOT] = b
    elif kind == M_REMOVE:  # its row out, the later ones shifted up (spot order kept)
        gone = n
        for i in range(n):
            if s.pc[i, PC_SPOT] == a:
                gone = i
        for i in range(gone, n - 1):
            for c in range(N_PC):
                s.pc[i, c] = s.pc[i + 1, c]
        if gone < n:
            n -= 1
    elif kind == M_PLACE:
        card = s.hand[p, a]
        u = tb[4][card]
        slot = n
        for i in range(n):
            if s.pc[i, PC_SPOT] == b:
                slot = i
        if slot == n:
            n += 1
        s.pc[slot, PC_SPOT] = b
        s.pc[slot, PC_UNIT] = u
        s.pc[slot, PC_AGE] = 0
        s.pc[slot, PC_PENDING] = 1
        s.pc[slot, PC_FRESH] = 1
        gold -= tb[0][u, U_COST]
    return n, gold


@hot
def deploy_choice(tb, weights, s, p, n_opt, n_players, n0, others):
    """``Brain.deploy_step``: (index of the deployment step taken, the seat's base sketch).
    The base sketch (``n0`` pieces, ``others``) is the one the seat's previous step left
    (``_commit_step``); ``n0`` < 0: none yet, sketched here (``_sketch_base``)."""
    if n_opt == 1:
        return 0, n0, others
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, n_opt), n0, others
    n0, others = _kept_base(tb, s, p, n0, others)
    best = -np.inf
    chosen = 0
    front_of = -1  # hand card whose placement on the first empty Front spot dominates
    again = _repeated_units(tb, s, p)
    for i in range(n_opt):
        kind, a, b = s.opt[ix(i), 0], s.opt[ix(i), 1], s.opt[ix(i), 2]
        if kind == M_PLACE and (again >> a) & 1:
            continue  # an earlier hand card of its unit was offered the same spots first
        empty = kind == M_PLACE and s.sp[p, b, S_CARD] < 0
        if empty and a == front_of and b >= MAX_FRONT:
            continue  # its Back-row twin: not worth more, listed after it (first best)
        v = _step_value(tb, weights, s, p, n0, others, kind, a, b, n_players)
        best, chosen = first_best(i, v, best, chosen)
        front_of = -1
        if empty and b < MAX_FRONT:
            u = tb[4][ix(s.hand[p, ix(a)])]
            if front_first_holds(tb, weights, s, p, u, n0 + 1, n_players):
                front_of = a
    return chosen, n0, others


@hot
def _repeated_units(tb, s, p):
    """Bit ``i`` set when hand card ``i``'s unit is an earlier hand card's. A step or a
    keep values a hand card by its unit only (its cost, strength, abilities), and
    ``moves`` lists the earlier card's placements on the same spots first: the repeat's
    values equal them, so the first best never changes when it is skipped."""
    deck = tb[4]
    again = 0
    for i in range(1, s.pi[p, I_HAND_N]):
        u = deck[ix(s.hand[p, ix(i)])]
        for j in range(i):
            if deck[ix(s.hand[p, ix(j)])] == u:
                again |= 1 << i
                break
    return again


@hot
def _kept_base(tb, s, p, n0, others):
    """The seat's base sketch in ``s.pc`` / ``s.wpc``: a new one (``_sketch_base``) when
    ``n0`` < 0, else the kept one (``s.pc0`` / ``s.wpc0``, ``s.acc[0]``) copied back (the
    steps in between may have reloaded ``s.pc``: a replaced unit's death abilities)."""
    if n0 < 0:
        return _sketch_base(tb, s, p)
    _copy_rows(s.pc0, s.wpc0, s.pc, s.wpc, n0)
    return n0, others


@hot
def _step_piece(tb, s, p, n0, kind, a, b):
    """The piece a deployment step (not STOP) changes in the base sketch: (its row ``k``,
    ``n0`` for a new row; its unit, tokens, 1 if placed now (pending and fresh); whether
    the step changes the projection of the other pieces, so it must be valued in full)."""
    ut = tb[0]
    k = n0
    target = a if kind == M_MOVE else b
    for i in range(n0):
        if s.pc0[ix(i), PC_SPOT] == target:
            k = i
    r = ix(k)
    old = k < n0 and s.pc0[r, PC_PENDING] != 0 and _projects(ut, s.pc0[r, PC_UNIT])
    if kind == M_MOVE:  # the piece of row k moves to b, as it is
        u, age, new = s.pc0[r, PC_UNIT], s.pc0[r, PC_AGE], 0
    else:  # a hand card placed on b, pending and fresh
        u, age, new = tb[4][ix(s.hand[p, ix(a)])], 0, 1
    return k, u, age, new, old or (new == 1 and _projects(ut, u))


@hot
def _step_value(tb, weights, s, p, n0, others, kind, a, b, n_players):
    """``value`` of the sketch after the deployment step (kind, a, b) (``Game.after_move``),
    from the base sketch of ``_sketch_base``; in full (``_sketch_move``) when the step
    changes the projection of the other pieces."""
    gold = s.pi[p, I_GOLD]
    if kind == M_REMOVE:  # the removed (old, so not pending) unit's share taken back
        k = _removed_pass(tb, s, n0, others, a)
        v = _totals_value(tb, weights, s, p, n0 - 1, 1, gold, n_players)
        _swap_rows(s, k, n0 - 1)
        _restore_row(s, n0, k)
        return v
    n, row, k, full = n0, 0, n0, False
    if kind != M_STOP:
        row = 1
        k, u, age, new, full = _step_piece(tb, s, p, n0, kind, a, b)
        if full:
            n, gold = _sketch_move(s, p, kind, a, b, tb)
            _full_pass(tb, s, p, n)
        else:
            n = _changed_pass(tb, s, n0, others, k, b, u, age, new)
            gold -= new * tb[0][u, U_COST]
    v = _totals_value(tb, weights, s, p, n, row, gold, n_players)
    if full:
        _restore_base(tb, s, p, n0)
    elif row:
        _restore_row(s, n0, k)
    return v


@hot
def _commit_step(tb, s, p, n0, others, kind, a, b):
    """Before the chosen step (not STOP) is applied: the base sketch as the step leaves it
    (its changed piece's row and totals, ``_changed_pass``), so the seat's next decision
    needs no new first pass; the new piece count, or -1 (no base kept: nothing sketched
    yet, or the step changes the projection). The rows are no longer in spot order: the
    totals are sums of integers and every row is found by its spot, so the values are
    the same as a new ``_sketch_base``'s (``test_incremental_value``)."""
    if n0 < 0 or kind == M_REMOVE:
        return -1
    k, u, age, new, full = _step_piece(tb, s, p, n0, kind, a, b)
    if full:
        return -1
    n = _changed_pass(tb, s, n0, others, k, b, u, age, new)
    for c in range(N_AC):
        s.acc[0, c] = s.acc[1, c]
    for c in range(N_PC):
        s.pc0[ix(k), c] = s.pc[ix(k), c]
        s.wpc0[ix(k), c] = s.wpc[ix(k), c]
    return n


@hot
def keep_choice(tb, weights, s, p, n_players, n0, others):
    """``Brain.keep``: 0 = nothing, i = ``hand[i - 1]`` (nothing is valued -inf); from the
    base sketch the seat's deployment steps left (``deploy_choice``)."""
    m = s.pi[p, I_HAND_N]
    if m == 0:
        return 0
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, m + 1)  # m + 1 >= 2
    n0, others = _kept_base(tb, s, p, n0, others)
    best = -np.inf
    chosen = 0
    again = _repeated_units(tb, s, p)
    for i in range(1, m + 1):
        if (again >> (i - 1)) & 1:
            continue  # valued as the earlier card of its unit; ties keep the first
        u = tb[4][s.hand[p, i - 1]]
        v = _card_value_from(tb, weights, s, p, u, n0, others, n_players)
        if v > best:
            best = v
            chosen = i
    return chosen


@hot_outline  # rare (an ability adding tokens): one compiled copy, not one per call site
def age_target_choice(tb, weights, s, p, n_spots, amount, n_players):
    """``Brain.age_target``: index in ``s.spots[:n_spots]`` of the unit given ``amount``."""
    if n_spots == 1:
        return 0
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, n_spots)
    best = -np.inf
    chosen = 0
    for i in range(n_spots):
        n = _load(s, p)
        for k in range(n):
            if s.pc[k, PC_SPOT] == s.spots[i]:
                s.pc[k, PC_AGE] += amount
        v = _value(tb, weights, s, p, n, s.pi[p, I_GOLD], n_players)
        best, chosen = first_best(i, v, best, chosen)
    return chosen


@hot
def build_choice(tb, weights, s, p, n_opt, n_players):
    """``Brain.build``: 0 = nothing, i = ``s.bopt[i - 1]``."""
    if n_opt == 0:
        return 0
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, n_opt + 1)
    n0, _ = _sketch_base(tb, s, p)
    raised = not _upgrade_pending(tb[0], s.pc, n0)
    best = -np.inf
    chosen = 0
    for i in range(n_opt + 1):
        v = _build_value(tb, weights, s, p, n0, i, n_players, raised)
        best, chosen = first_best(i, v, best, chosen)
    return chosen


@hot
def _upgrade_pending(ut, pc, n):
    """A pending piece of ``pc[:n]`` upgrades the buildings (Golem): the projected levels
    are not the levels."""
    for i in range(n):  # noqa: SIM110 (a loop: compiled code, no generator)
        if pc[i, PC_PENDING] and ut[pc[i, PC_UNIT], KU_UPGRADE]:
            return True
    return False


@hot
def _build_value(tb, weights, s, p, n0, i, n_players, raised):
    """``value`` of construction option ``i`` (0: nothing, else ``s.bopt[i - 1]``) from the
    base sketch (``_sketch_base``): the pieces' totals do not depend on the levels.
    ``raised``: no pending upgrade, so the option's levels are the base's with one building
    raised, valued from the seat's building cache (``raise_building``, undone after);
    else projected and cached anew (``project_levels``)."""
    gold = s.pi[p, I_GOLD]
    b = s.bopt[i - 1, 0] if i else 0
    lv = s.blevel[p, b]
    level = s.bopt[i - 1, 1] if i else lv
    if i:
        gold -= s.bopt[i - 1, 3]
    if raised:
        if i:
            raise_building(tb[1], tb[2], s.bc[p], b, lv, level, 1)
            s.wbl[b] = level
    else:
        s.bl[b] = level
        project_levels(tb[0], tb[1], tb[2], s.pc, n0, s.bl, s.wbl, s.bc[p])
        s.bl[b] = lv
    v = _totals_value(tb, weights, s, p, n0, 0, gold, n_players)
    if raised and i:
        raise_building(tb[1], tb[2], s.bc[p], b, lv, level, -1)
        s.wbl[b] = lv
    return v


@hot
def heal_choice(tb, weights, s, p, n_save):
    """``Brain.heal``: 0 = nobody, i = the unit on ``s.spots[i - 1]``. A save is worth
    W_SAVE_STRENGTH x (printed strength x turns left) - its death LP - W_GOLD x its gold."""
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, n_save + 1)
    n = _load(s, p)
    wood, food, crystal = production(tb[0], tb[1], s.pc, n, s.bl)
    return best_save(tb, weights, s, p, n_save, n, wood, food, crystal)


@hot
def best_save(tb, weights, s, p, n_save, n, wood, food, crystal):
    """``heal_choice`` of a valuing policy, the pieces loaded and the production known."""
    ut, bt, ab, rules = tb[0], tb[1], tb[2], tb[3]
    pol = s.pi[p, I_POLICY]
    age_all, n_level2 = base_facts(bt, s.pc, n, s.bl)
    left = rules[R_TURNS] - s.g[G_TURN]
    best = 0.0
    chosen = 0
    for i in range(1, n_save + 1):
        k = 0
        for j in range(n):
            if s.pc[j, PC_SPOT] == s.spots[i - 1]:
                k = j
        lp, gold = death_rewards(ut, ab, s.pc, n, 1 << k, wood, food, crystal, age_all, n_level2)
        v = weights[pol, W_SAVE_STRENGTH] * (ut[s.pc[k, PC_UNIT], U_STRENGTH] * left)
        v -= lp
        v -= weights[pol, F_GOLD] * gold
        if v > best:
            best = v
            chosen = i
    return chosen


# --- §2.1 Recruitment --------------------------------------------------------------------------


@hot_outline
def recruitment(tb, weights, s, n_players, turn, lx, ls):
    """``Game.recruitment`` (``lx`` / ``ls``: see ``draft_choice``)."""
    rules = tb[3]
    two = _two(n_players)
    deal = rules[R2_DEAL] if two else rules[R_DEAL]
    discards = rules[R2_DISCARD] if two else 0
    if lx is None:
        _freeze(tb, s, n_players)
    else:
        for q in range(n_players):
            n = _load(s, q)
            s.strength[q] = l_strength(tb, lx, s.pc, n, s.bl, ls, q)
        _set_seen(s, n_players)
    for p in range(n_players):
        for u in range(s.dvs.shape[1]):
            s.dvs[p, u] = 0
        s.pi[p, I_TWIN] = p if lx is not None else _draft_twin(s, p)
    for p in range(n_players):
        for i in range(deal):
            card = _draw(tb, s)
            s.packs[p, i] = card  # the reference asserts the piles never run dry
        s.pi[p, I_PACK_N] = deal
        s.pi[p, I_DRAFT_N] = 0
    first = rules[R_FIRST_DIRECTION]
    direction = first if turn % 2 == 1 else -first
    step = 0
    while s.pi[0, I_PACK_N] > 0:
        step += 1
        for p in range(n_players):
            m = s.pi[p, I_PACK_N]
            pack = s.packs[p]
            for r in range(1 + discards):  # the pick, then (2 players) the discards
                if r > 0 and m == 0:
                    break
                # one call site: each inlined copy of a decision is compiled again
                k = draft_choice(tb, weights, s, p, pack, m, r > 0, n_players, lx, ls)
                card = pack[k]
                for i in range(k, m - 1):
                    pack[i] = pack[i + 1]
                m -= 1
                if r == 0:
                    s.drafted[p, s.pi[p, I_DRAFT_N]] = card
                    s.pi[p, I_DRAFT_N] += 1
                    _receive(s, p, card, tb[4][card], turn, step)
                else:
                    _to_discard(s, card)
            s.pi[p, I_PACK_N] = m
        for q in range(n_players):
            src = (q - direction) % n_players
            s.tmp_n[q] = s.pi[src, I_PACK_N]
            for i in range(s.tmp_n[q]):
                s.tmp[q, i] = s.packs[src, i]
        for q in range(n_players):
            s.pi[q, I_PACK_N] = s.tmp_n[q]
            for i in range(s.tmp_n[q]):
                s.packs[q, i] = s.tmp[q, i]
    for p in range(n_players):
        m = s.pi[p, I_DRAFT_N]
        for i in range(m):
            s.hand[p, i] = s.drafted[p, i]
        if s.pi[p, I_KEPT] >= 0:
            s.hand[p, m] = s.pi[p, I_KEPT]
            m += 1
        s.pi[p, I_KEPT] = -1
        s.pi[p, I_HAND_N] = m


# --- §2.2 Deployment ---------------------------------------------------------------------------


@hot
def _opens_extra(tb, s, p):
    """``Rules.opens_extra_spot``: a building face of seat ``p`` opens the 5th spot."""
    if tb[3][R_EXTRA_FRONT] <= 0:
        return 0
    bt = tb[1]
    for b in range(bt.shape[0]):
        for k in range(s.blevel[p, b]):
            if bt[b, k, B_EXTRA_SPOT]:
                return 1
    return 0


@hot
def _spot_open(tb, s, p, spot):
    rules = tb[3]
    if spot < MAX_FRONT:
        if spot == EXTRA_SPOT:
            return s.pi[p, I_EXTRA] == 1
        return spot < rules[R_FRONT_SPOTS]
    return spot - BACK0 < rules[R_BACK_SPOTS]


@hot
def _first_empty(tb, s, p, back):
    """First empty open spot of a row (Front: 0, 1, then the 5th spot 2), -1 if none."""
    rules = tb[3]
    if back:
        for spot in range(BACK0, BACK0 + rules[R_BACK_SPOTS]):
            if s.sp[p, spot, S_CARD] < 0:
                return spot
        return -1
    for spot in range(rules[R_FRONT_SPOTS]):
        if s.sp[p, spot, S_CARD] < 0:
            return spot
    if s.pi[p, I_EXTRA] and s.sp[p, EXTRA_SPOT, S_CARD] < 0:
        return EXTRA_SPOT
    return -1


@hot
def _add_opt(s, n, kind, a, b):
    s.opt[n, 0] = kind
    s.opt[n, 1] = a
    s.opt[n, 2] = b
    return n + 1


@hot
def moves(tb, s, p):
    """``Game.moves``: the legal deployment steps into ``s.opt``, in the documented order
    (STOP, PLACE, MOVE, REMOVE); returns their count."""
    ut, deck = tb[0], tb[4]
    front = _first_empty(tb, s, p, False)
    back = _first_empty(tb, s, p, True)
    budget = s.pi[p, I_GOLD]
    for spot in range(MAX_SPOTS):
        if s.sp[p, spot, S_CARD] >= 0 and s.sp[p, spot, S_FRESH]:
            budget -= ut[s.sp[p, spot, S_UNIT], U_COST]
    n = _add_opt(s, 0, M_STOP, -1, -1)
    for i in range(s.pi[p, I_HAND_N]):
        if ut[deck[s.hand[p, i]], U_COST] > budget:
            continue
        if front >= 0:
            n = _add_opt(s, n, M_PLACE, i, front)
        if back >= 0:
            n = _add_opt(s, n, M_PLACE, i, back)
        for spot in range(MAX_SPOTS):
            if (
                s.sp[p, spot, S_CARD] >= 0
                and not s.sp[p, spot, S_FRESH]
                and _spot_open(tb, s, p, spot)
            ):
                n = _add_opt(s, n, M_PLACE, i, spot)
    n = _add_moves(tb, s, p, n)
    for spot in range(MAX_SPOTS):
        if _is_old(tb, s, p, spot):
            n = _add_opt(s, n, M_REMOVE, spot, -1)
    return n


@hot
def _is_old(tb, s, p, spot):
    """An open spot of seat ``p`` holding a unit in play from an earlier turn."""
    return s.sp[p, spot, S_CARD] >= 0 and not s.sp[p, spot, S_FRESH] and _spot_open(tb, s, p, spot)


@hot
def _add_moves(tb, s, p, n):
    """``Game.moves``' MOVE options after ``n`` others: each old unit not moved yet this
    phase, spot order, to each empty open spot, spot order (either row)."""
    for spot in range(MAX_SPOTS):
        if _is_old(tb, s, p, spot) and not s.sp[p, spot, S_MOVED]:
            for to in range(MAX_SPOTS):
                if s.sp[p, to, S_CARD] < 0 and _spot_open(tb, s, p, to):
                    n = _add_opt(s, n, M_MOVE, spot, to)
    return n


@hot
def death_abilities(tb, s, p, mask_spots):
    """``Game.death_abilities``: the death abilities of seat ``p``'s units on the spots of
    bitmask ``mask_spots``: LP booked as ``aging``, gold gained at once. (LP, gold)."""
    ut, bt, ab = tb[0], tb[1], tb[2]
    n = _load(s, p)
    mask = 0
    for i in range(n):
        if (mask_spots >> s.pc[i, PC_SPOT]) & 1:
            mask |= 1 << i
    wood, food, crystal = production(ut, bt, s.pc, n, s.bl)
    age_all, n_level2 = base_facts(bt, s.pc, n, s.bl)
    lp, gold = death_rewards(ut, ab, s.pc, n, mask, wood, food, crystal, age_all, n_level2)
    _score(s, p, LP_AGING, lp)
    s.pi[p, I_GOLD] += gold
    return lp, gold


@hot
def _apply_move(tb, s, p, kind, a, b):
    """``Game.apply_move``."""
    if kind == M_MOVE:
        for c in range(N_SP):
            s.sp[p, b, c] = s.sp[p, a, c]
            s.sp[p, a, c] = -1
        s.sp[p, b, S_MOVED] = 1
        return
    if kind == M_REMOVE:  # ``Game.discard_old``
        if tb[3][R_DISCARD_IS_DEATH]:
            death_abilities(tb, s, p, 1 << a)
        _kill(s, p, a, F_REPLACED)
        return
    card = s.hand[p, a]
    m = s.pi[p, I_HAND_N]
    for i in range(a, m - 1):
        s.hand[p, i] = s.hand[p, i + 1]
    s.pi[p, I_HAND_N] = m - 1
    if s.sp[p, b, S_CARD] >= 0:
        if tb[3][R_DISCARD_IS_DEATH]:
            death_abilities(tb, s, p, 1 << b)
        _kill(s, p, b, F_REPLACED)
    s.sp[p, b, S_CARD] = card
    s.sp[p, b, S_UNIT] = tb[4][card]
    s.sp[p, b, S_AGE] = 0
    s.sp[p, b, S_FRESH] = 1
    s.sp[p, b, S_RESOLVED] = 0
    s.sp[p, b, S_MOVED] = 0


@hot
def _pay(tb, s, p, turn):
    """``Game.pay``: negative costs first, then spot order; unpaid units are discarded."""
    ut = tb[0]
    for negative in (True, False):
        for spot in range(MAX_SPOTS):
            if s.sp[p, spot, S_CARD] < 0 or not s.sp[p, spot, S_FRESH]:
                continue
            cost = ut[s.sp[p, spot, S_UNIT], U_COST]
            if (cost < 0) != negative:
                continue
            if cost > s.pi[p, I_GOLD]:
                _kill(s, p, spot, F_UNPAID)
                continue
            s.pi[p, I_GOLD] -= cost
            row = s.log[p, s.card_log[s.sp[p, spot, S_CARD]]]
            row[L_DEPLOYED] = 1
            row[L_TURN_DEPLOYED] = turn
            row[L_FATE] = F_IN_PLAY
            row[L_ROW] = ROW_FRONT if spot < MAX_FRONT else ROW_BACK


@hot
def _add_age(tb, weights, s, p, spot, j, n_players):
    """``Game.add_age``: ability ``j`` of the unit on ``spot`` puts tokens on itself, on each
    other unit, or on one unit chosen by the policy."""
    ut, bt, ab = tb[0], tb[1], tb[2]
    n = _load(s, p)
    me = 0
    for i in range(n):
        if s.pc[i, PC_SPOT] == spot:
            me = i
    wood, food, crystal = production(ut, bt, s.pc, n, s.bl)
    age_all, n_level2 = base_facts(bt, s.pc, n, s.bl)
    amount = ab[j, A_AMOUNT] * per_value(
        ab[j, A_PER], s.pc[me, PC_AGE], age_all, wood, food, crystal, 0, n_level2, 0
    )
    if amount <= 0:
        return
    target = ab[j, A_TARGET]
    if target == T_SELF:
        s.sp[p, spot, S_AGE] += amount
    elif target == T_OTHERS:
        for i in range(n):
            if s.pc[i, PC_SPOT] != spot:
                s.sp[p, s.pc[i, PC_SPOT], S_AGE] += amount
    else:
        for i in range(n):
            s.spots[i] = s.pc[i, PC_SPOT]
        k = age_target_choice(tb, weights, s, p, n, amount, n_players)
        s.sp[p, s.spots[k], S_AGE] += amount


@hot
def _upgrade_all(tb, s, p, turn):
    """Golem: every level-1 building becomes level 2, free."""
    for b in range(tb[1].shape[0]):
        if s.blevel[p, b] == 1:
            s.blevel[p, b] = 2
            s.blog[p, b, BL_LEVEL] = 2
            s.blog[p, b, BL_UPGRADED] = turn
            s.blog[p, b, BL_HOW] = H_GOLEM


@hot
def _deployment_lp(tb, s, p, spot, j):
    """``Game.deployment_lp``: ability ``j`` (deployment ``lp``) of the unit on ``spot``."""
    ut, bt, ab = tb[0], tb[1], tb[2]
    n = _load(s, p)
    wood, food, crystal = production(ut, bt, s.pc, n, s.bl)
    age_all, n_level2 = base_facts(bt, s.pc, n, s.bl)
    age = 0
    for i in range(n):
        if s.pc[i, PC_SPOT] == spot:
            age = s.pc[i, PC_AGE]
    on = spot if s.sp[p, spot, S_CARD] >= 0 else -1
    lp = 0
    if when_holds(ab[j, A_WHEN], age, on, food, crystal):
        lp = ab[j, A_AMOUNT] * per_value(
            ab[j, A_PER], age, age_all, wood, food, crystal, 0, n_level2, 0
        )
    _score(s, p, LP_DEPLOYMENT, lp)


@hot
def _shapeshift(tb, s, p, spot, j, turn):
    """``Game.shapeshift``: reveal until a unit of cost <= max_cost; it takes the spot with
    ``age`` tokens. Returns 1 when the revealed unit is on the spot and its on-deploy
    abilities must resolve (``shapeshift_on_deploy``), else 0."""
    rules = tb[3]
    k = _shapeshift_reveal(tb, s, p, spot, j, turn)
    if k < 0:
        return 0
    _put(s, p, spot, s.log[p, k, L_CARD], s.log[p, k, L_UNIT], tb[2][j, A_AGE], 1)
    return 1 if rules[R_SHAPE_ON_DEPLOY] else 0


@hot
def _shapeshift_reveal(tb, s, p, spot, j, turn):
    """``Game.shapeshift_reveal``: the Shapeshifter on ``spot`` leaves; cards are revealed
    (and discarded) until a unit (not a Legends artifact: card type < U) of cost <=
    ``max_cost``, which is received and paid (``shapeshift_free``). Returns its log row,
    or -1 (none found, or unpaid)."""
    ut, ab, rules, deck = tb[0], tb[2], tb[3], tb[4]
    _kill(s, p, spot, F_SHAPESHIFTED)
    found = -1
    budget = s.g[G_DECK_N] + s.g[G_DISC_N]
    for _ in range(budget):
        card = _draw(tb, s)
        if card < 0:
            break
        if deck[card] < ut.shape[0] and ut[deck[card], U_COST] <= ab[j, A_MAX_COST]:
            found = card
            break
        _to_discard(s, card)
    if found < 0:
        return -1
    u = deck[found]
    k = _receive(s, p, found, u, turn, 0)
    cost = 0 if rules[R_SHAPE_FREE] else ut[u, U_COST]
    row = s.log[p, k]
    if cost > s.pi[p, I_GOLD]:
        _to_discard(s, found)
        row[L_FATE] = F_UNPAID
        return -1
    s.pi[p, I_GOLD] -= cost
    row[L_DEPLOYED] = 1
    row[L_TURN_DEPLOYED] = turn
    row[L_FATE] = F_IN_PLAY
    row[L_ROW] = ROW_FRONT if spot < MAX_FRONT else ROW_BACK
    return k


@hot
def _put(s, p, spot, card, u, age, resolved):
    """A new unit card on ``spot`` (fresh, not moved)."""
    s.sp[p, spot, S_CARD] = card
    s.sp[p, spot, S_UNIT] = u
    s.sp[p, spot, S_AGE] = age
    s.sp[p, spot, S_FRESH] = 1
    s.sp[p, spot, S_RESOLVED] = resolved
    s.sp[p, spot, S_MOVED] = 0


@hot
def _on_deploy(tb, weights, s, p, spot, turn, n_players):
    """``Game.on_deploy``: the new unit's on-deploy abilities in ability order; a
    Shapeshifter's revealed unit resolves its own at once (the reference's tail call,
    as a loop)."""
    ut, ab, rules = tb[0], tb[2], tb[3]
    again = True
    while again:
        again = False
        s.sp[p, spot, S_RESOLVED] = 1
        u = s.sp[p, spot, S_UNIT]
        for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
            if not ab[j, A_ON_DEPLOY]:
                continue
            kind = ab[j, A_KIND]
            if kind == K_ADD_AGE:
                _add_age(tb, weights, s, p, spot, j, n_players)
            elif kind == K_UPGRADE_BUILDINGS:
                _upgrade_all(tb, s, p, turn)
            elif kind == K_LP:
                if rules[R_KRAKEN_AT_END]:
                    k = s.g[G_PENDING_N]
                    if k >= MAX_PENDING:
                        s.g[G_OVERFLOW] = 1
                    else:
                        s.pend[k, 0] = p
                        s.pend[k, 1] = spot
                        s.pend[k, 2] = j
                        s.g[G_PENDING_N] = k + 1
                else:
                    _deployment_lp(tb, s, p, spot, j)
            elif kind == K_SHAPESHIFT:
                again = _shapeshift(tb, s, p, spot, j, turn) == 1
                break


@hot
def _replaces(ut, ab, u):
    """``Game.replaces``: unit ``u`` replaces its own card when deployed (Shapeshifter)."""
    for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
        if ab[j, A_ON_DEPLOY] and ab[j, A_KIND] == K_SHAPESHIFT:
            return True
    return False


@hot_outline
def _reveal(tb, weights, s, n_players, turn):
    """``Game.reveal``: pay, on-deploy abilities seat by seat (the Shapeshifters first,
    then the other new units, each in spot order), every-turn deployment abilities, then
    the deployment LP and each seat's LP step."""
    ut, ab = tb[0], tb[2]
    for p in range(n_players):
        _pay(tb, s, p, turn)
    s.g[G_PENDING_N] = 0
    for p in range(n_players):
        for replacing in (True, False):  # card replacement (Shapeshifter) first
            for spot in range(MAX_SPOTS):
                if (
                    s.sp[p, spot, S_CARD] >= 0
                    and not s.sp[p, spot, S_RESOLVED]
                    and _replaces(ut, ab, s.sp[p, spot, S_UNIT]) == replacing
                ):
                    _on_deploy(tb, weights, s, p, spot, turn, n_players)
        for spot in range(MAX_SPOTS):
            if s.sp[p, spot, S_CARD] < 0:
                continue
            u = s.sp[p, spot, S_UNIT]
            for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
                if (
                    ab[j, A_PHASE] == PH_DEPLOYMENT
                    and not ab[j, A_ON_DEPLOY]
                    and ab[j, A_KIND] == K_ADD_AGE
                ):
                    _add_age(tb, weights, s, p, spot, j, n_players)
    for k in range(s.g[G_PENDING_N]):
        _deployment_lp(tb, s, s.pend[k, 0], s.pend[k, 1], s.pend[k, 2])
    for p in range(n_players):
        _settle(tb, s, p)
        for spot in range(MAX_SPOTS):
            if s.sp[p, spot, S_CARD] >= 0:
                s.sp[p, spot, S_FRESH] = 0
                s.sp[p, spot, S_MOVED] = 0


@hot
def _keep(s, p, k):
    """``Game.keep_and_discard`` after the choice ``k`` (0: nothing, i: ``hand[i - 1]``):
    the rest of the hand goes to the discard pile, hand order."""
    if k:
        card = s.hand[p, k - 1]
        for i in range(k - 1, s.pi[p, I_HAND_N] - 1):
            s.hand[p, i] = s.hand[p, i + 1]
        s.pi[p, I_HAND_N] -= 1
        s.pi[p, I_KEPT] = card
        s.log[p, s.card_log[card], L_FATE] = F_KEPT
    for i in range(s.pi[p, I_HAND_N]):
        card = s.hand[p, i]
        _to_discard(s, card)
        s.log[p, s.card_log[card], L_FATE] = F_NOT_DEPLOYED
    s.pi[p, I_HAND_N] = 0


@hot_outline
def deployment(tb, weights, s, n_players, turn):
    _freeze(tb, s, n_players)
    for p in range(n_players):
        s.pi[p, I_EXTRA] = _opens_extra(tb, s, p)
    for p in range(n_players):
        n0, others = -1, 0  # the seat's base sketch, kept from step to step
        for _ in range(MAX_DEPLOY_STEPS + 1):
            n_opt = moves(tb, s, p)
            k, n0, others = deploy_choice(tb, weights, s, p, n_opt, n_players, n0, others)
            kind, a, b = s.opt[k, 0], s.opt[k, 1], s.opt[k, 2]
            if kind == M_STOP:
                break
            n0 = _commit_step(tb, s, p, n0, others, kind, a, b)
            _apply_move(tb, s, p, kind, a, b)
        if tb[3][R_KEEP]:
            _keep(s, p, keep_choice(tb, weights, s, p, n_players, n0, others))
        else:
            _keep(s, p, 0)
    _reveal(tb, weights, s, n_players, turn)


# --- §2.3 Wars, §2.4 Income ---------------------------------------------------------------------


@hot_outline
def wars(tb, s, n_players):
    ut, bt, ab, rules = tb[0], tb[1], tb[2], tb[3]
    two = _two(n_players)
    for q in range(n_players):
        s.strength[q] = _strength_of(tb, s, q)
    for p in range(n_players):
        n, facts = _assess_seat(tb, s, p)
        wood, food, crystal, income, strength, age_all, n_level2, n_strong = facts
        won, lp = _fight_seat(rules, s, p, n_players, strength)
        per_war, war_units, war_buildings, gold = war_phase_lp(
            ut, bt, ab, rules, s.pc, n, s.bl, two, won, wood, food, crystal, income, age_all,
            n_level2, n_strong,
        )  # fmt: skip
        _score_wars(s, p, won, lp, per_war, war_units, war_buildings)
        s.pi[p, I_GOLD] += gold
        _settle(tb, s, p)


@hot
def _fight_seat(rules, s, p, n_players, strength):
    """(wars won, war LP) of seat ``p``'s ``strength`` against its neighbours' in
    ``s.strength`` (2 players: the single war)."""
    if n_players == 2:
        return fight(rules, True, strength, s.strength[1 - p], 0)
    right = s.strength[(p - 1) % n_players]  # seat p-1: the right neighbour
    left = s.strength[(p + 1) % n_players]  # seat p+1: the left neighbour
    return fight(rules, False, strength, right, left)


@hot
def _score_wars(s, p, won, lp, per_war, war_units, war_buildings):
    """The wars phase's results of seat ``p`` (wars won and the four base LP parts)."""
    s.pi[p, I_WARS] += won
    _score(s, p, LP_WARS, lp)
    _score(s, p, LP_PER_WAR_WON, per_war)
    _score(s, p, LP_WAR_UNITS, war_units)
    _score(s, p, LP_WAR_BUILDINGS, war_buildings)


@hot_outline
def income(tb, s, n_players):
    for p in range(n_players):
        s.pi[p, I_GOLD] += _assess_seat(tb, s, p)[1][3]


# --- §2.5 Construction ----------------------------------------------------------------------------


@hot
def payment_facts(tb, s, p):
    """What ``Game.payment`` reads of seat ``p`` (the same for every building it may build):
    (production of wood, food, crystal, the land cost of a new building, the resources
    (bit mask) that may be paid in gold). The land cost is 0 with a ``no_land_cost`` unit."""
    ut, bt, ab, rules = tb[0], tb[1], tb[2], tb[3]
    n = _load(s, p)
    prod0, prod1, prod2 = production(ut, bt, s.pc, n, s.bl)
    free_land = False
    subst = 0
    for i in range(n):
        u = s.pc[i, PC_UNIT]
        for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
            if ab[j, A_KIND] == K_NO_LAND_COST:
                free_land = True
            elif ab[j, A_KIND] == K_GOLD_FOR_RESOURCE:
                subst |= ab[j, A_RES_MASK]
    owned = 0
    for c in range(bt.shape[0]):
        if s.blevel[p, c]:
            owned += 1
    land = 0 if free_land else rules[R_LAND_COST] * owned
    return prod0, prod1, prod2, land, subst


@hot
def payment(tb, facts, b, level, upgrade):
    """``Game.payment``: the cheapest gold payment for building ``b`` to ``level``, -1 if
    impossible (the first cheapest of the gold/resource choices; gold held not checked),
    with the seat's ``payment_facts``."""
    prod0, prod1, prod2, land, subst = facts
    if upgrade and not tb[3][R_LAND_ON_UPGRADE]:
        land = 0
    return _cheapest(tb[1], tb[3], b, level, upgrade, land, subst, prod0, prod1, prod2)


@hot
def _cheapest(bt, rules, b, level, upgrade, land, subst, prod0, prod1, prod2):
    """The cheapest gold payment of building ``b`` to ``level`` given the land cost, the
    resources ``subst`` (bit mask) that may be paid in gold and the production; -1 if
    impossible (``Game.payment``'s choice loop: bit k of c = level k pays gold)."""
    first = 1 if upgrade else 0
    n_levels = 1 if upgrade else level
    use_sum = rules[R_DIRECT_L2_SUM]
    best = -1
    for c in range(1 << n_levels):
        gold = land
        need0 = need1 = need2 = 0
        ok = True
        for k in range(n_levels):
            face = first + k
            if (c >> k) & 1:
                if bt[b, face, B_GOLD_INSTEAD] < 0:
                    ok = False
                else:
                    gold += bt[b, face, B_GOLD_INSTEAD]
                continue
            r0 = bt[b, face, B_REQ0]
            r1 = bt[b, face, B_REQ0 + 1]
            r2 = bt[b, face, B_REQ0 + 2]
            if use_sum:
                need0 += r0
                need1 += r1
                need2 += r2
            else:
                need0 = max(need0, r0)
                need1 = max(need1, r1)
                need2 = max(need2, r2)
        if not ok:
            continue
        for r in range(N_RES):
            need = need0 if r == 0 else (need1 if r == 1 else need2)
            have = prod0 if r == 0 else (prod1 if r == 1 else prod2)
            missing = max(0, need - have)
            if missing and not (subst >> r) & 1:
                ok = False
            gold += missing
        if ok and (best < 0 or gold < best):
            best = gold
    return best


@hot_outline
def construction(tb, weights, s, n_players, turn):
    bt = tb[1]
    _freeze(tb, s, n_players)
    for p in range(n_players):
        n_opt = 0
        facts = payment_facts(tb, s, p)
        for b in range(bt.shape[0]):
            lv = s.blevel[p, b]
            if lv == LEVELS:
                continue
            for level in (1, 2):
                if lv == 1 and level == 1:
                    continue
                upgrade = lv == 1
                n_opt = offer(s, p, n_opt, b, level, upgrade, payment(tb, facts, b, level, upgrade))
        k = build_choice(tb, weights, s, p, n_opt, n_players)
        if not k:
            continue
        b, level, upgrade, gold = (
            s.bopt[k - 1, 0],
            s.bopt[k - 1, 1],
            s.bopt[k - 1, 2],
            s.bopt[k - 1, 3],
        )
        _build(s, p, b, level, upgrade, gold, turn)


@hot
def offer(s, p, n_opt, b, level, upgrade, gold):
    """A construction option into ``s.bopt`` when its payment ``gold`` is possible (>= 0)
    and held; the new count of options."""
    if gold < 0 or gold > s.pi[p, I_GOLD]:
        return n_opt
    s.bopt[n_opt, 0] = b
    s.bopt[n_opt, 1] = level
    s.bopt[n_opt, 2] = upgrade
    s.bopt[n_opt, 3] = gold
    return n_opt + 1


@hot
def _build(s, p, b, level, upgrade, gold, turn):
    """Seat ``p`` builds ``b`` to ``level`` for ``gold`` in Construction (its log)."""
    s.pi[p, I_GOLD] -= gold
    s.blevel[p, b] = level
    s.blog[p, b, BL_LEVEL] = level
    if not upgrade:
        s.blog[p, b, BL_BUILT] = turn
    if level == 2:
        s.blog[p, b, BL_UPGRADED] = turn
    s.blog[p, b, BL_HOW] = H_BUILD if level == 1 or upgrade else H_DIRECT


# --- §2.6 Aging -------------------------------------------------------------------------------


@hot_outline
def aging(tb, weights, s, n_players):
    """§8 order: Healer choices -> death abilities -> discard -> +1 token to survivors."""
    ut, ab = tb[0], tb[2]
    for p in range(n_players):
        dying = _dying(tb, s, p)
        saved = 0
        for spot in range(MAX_SPOTS):
            if s.sp[p, spot, S_CARD] < 0:
                continue
            u = s.sp[p, spot, S_UNIT]
            for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
                if ab[j, A_KIND] != K_HEAL:
                    continue
                n_save = 0
                for x in range(MAX_SPOTS):
                    if (
                        (dying >> x) & 1
                        and not (saved >> x) & 1
                        and s.sp[p, x, S_AGE] == ab[j, A_AGE]
                    ):
                        s.spots[n_save] = x
                        n_save += 1
                if n_save:
                    k = heal_choice(tb, weights, s, p, n_save)
                    if k:
                        saved |= 1 << s.spots[k - 1]
        dead = dying & ~saved
        death_abilities(tb, s, p, dead)
        _die_and_age(tb, s, p, dead, saved)
        _settle(tb, s, p)


@hot
def _dying(tb, s, p):
    """Bitmask of seat ``p``'s spots whose unit dies in this Aging (§2.6, ``dies``)."""
    dying = 0
    for spot in range(MAX_SPOTS):
        if s.sp[p, spot, S_CARD] >= 0 and dies(
            tb[0], tb[2], s.sp[p, spot, S_UNIT], s.sp[p, spot, S_AGE]
        ):
            dying |= 1 << spot
    return dying


@hot
def _die_and_age(tb, s, p, dead, saved):
    """Aging after the death abilities: the units on the spots of bitmask ``dead`` are
    discarded, every survivor takes a token (a saved one only with ``healed_units_age``)."""
    for spot in range(MAX_SPOTS):
        if (dead >> spot) & 1:
            s.log[p, s.card_log[s.sp[p, spot, S_CARD]], L_DIED] = 1
            _kill(s, p, spot, F_DIED)
    for spot in range(MAX_SPOTS):
        if s.sp[p, spot, S_CARD] < 0:
            continue
        if (saved >> spot) & 1 and not tb[3][R_HEALED_AGE]:
            continue
        s.sp[p, spot, S_AGE] += 1
        s.log[p, s.card_log[s.sp[p, spot, S_CARD]], L_SURVIVED] += 1


# --- §2.7 End -------------------------------------------------------------------------------------


@hot_outline
def end(tb, s, n_players):
    ut, bt, ab = tb[0], tb[1], tb[2]
    for p in range(n_players):
        n, facts = _assess_seat(tb, s, p)
        wood, food, crystal, _, _, age_all, n_level2, _ = facts
        buildings, relic = end_lp(
            ut, bt, ab, s.pc, n, s.bl, 0, wood, food, crystal, age_all, n_level2
        )
        _score(s, p, LP_BUILDINGS, buildings)
        _score(s, p, LP_RELIC, relic)
        _settle(tb, s, p)
    _winners(s, n_players)


@hot
def _winners(s, n_players):
    """§2.7: highest LP; tie -> most gold; still tied -> all of them (``I_WINNER``)."""
    best = s.pi[0, I_LP]
    for p in range(n_players):
        best = max(best, s.pi[p, I_LP])
    rich = -1
    for p in range(n_players):
        if s.pi[p, I_LP] == best:
            rich = max(rich, s.pi[p, I_GOLD])
    for p in range(n_players):
        s.pi[p, I_WINNER] = 1 if s.pi[p, I_LP] == best and s.pi[p, I_GOLD] == rich else 0


# --- checking mode ------------------------------------------------------------------------


@hot
def tally_places(tb, s, n_players):
    """``s.tally[c]``: how many times card ``c`` lies in the piles, packs, hands, kept cards
    and spots (``Game.card_places``; conservation: exactly once)."""
    for c in range(tb[4].shape[0]):
        s.tally[c] = 0
    for i in range(s.g[G_DECK_N]):
        s.tally[s.deck[i]] += 1
    for i in range(s.g[G_DISC_N]):
        s.tally[s.disc[i]] += 1
    for p in range(n_players):
        for i in range(s.pi[p, I_PACK_N]):
            s.tally[s.packs[p, i]] += 1
        for i in range(s.pi[p, I_HAND_N]):
            s.tally[s.hand[p, i]] += 1
        if s.pi[p, I_KEPT] >= 0:
            s.tally[s.pi[p, I_KEPT]] += 1
        for spot in range(MAX_SPOTS):
            if s.sp[p, spot, S_CARD] >= 0:
                s.tally[s.sp[p, spot, S_CARD]] += 1


@hot
def tally_broken(tb, s):
    """True when some card is not exactly once in ``s.tally``."""
    wrong = 0
    for c in range(tb[4].shape[0]):
        wrong += s.tally[c] != 1
    return wrong > 0


@hot
def seat_violation(tb, s, p, extra_lp):
    """Code of the first broken per-seat invariant of seat ``p`` (0: none); ``extra_lp``:
    LP booked outside ``s.parts`` (the Legends parts)."""
    rules = tb[3]
    if s.pi[p, I_GOLD] < 0:
        return V_GOLD
    if s.pi[p, I_LP] < rules[R_SCORE_FLOOR]:
        return V_FLOOR
    if s.pi[p, I_STEP] != 0:
        return V_STEP
    total = extra_lp
    for k in range(N_PARTS):
        total += s.parts[p, k]
    if total != s.pi[p, I_LP]:
        return V_BREAKDOWN
    if s.parts[p, LP_FLOOR] < 0:
        return V_FLOOR_PART
    for spot in range(MAX_SPOTS):
        if s.sp[p, spot, S_CARD] < 0:
            continue
        if not 0 <= s.sp[p, spot, S_AGE] <= MAX_AGE:
            return V_AGE
        if spot != EXTRA_SPOT and not _spot_open(tb, s, p, spot):
            return V_SPOT
    for b in range(tb[1].shape[0]):
        if not 0 <= s.blevel[p, b] <= LEVELS:
            return V_LEVEL
    if s.sp[p, EXTRA_SPOT, S_CARD] >= 0 and not _opens_extra(tb, s, p):
        return V_EXTRA
    return 0


@hot_outline
def check_state(tb, s, n_players):
    """Code of the first broken rule invariant (``INVARIANTS``), 0 when all hold."""
    tally_places(tb, s, n_players)
    if tally_broken(tb, s):
        return V_CARDS
    for p in range(n_players):
        violation = seat_violation(tb, s, p, 0)
        if violation:
            return violation
    return 0


# --- one game ---------------------------------------------------------------------------------


@hot
def _new_game(tb, s, n_players, seed, game_id):
    """Setup (``Game.setup`` step 1): the game's stream, every seat's start, the draw pile
    shuffled (policies already in ``s.pi[:, I_POLICY]``)."""
    rules, deck = tb[3], tb[4]
    rng_start(s.rng, seed, game_id)
    D = deck.shape[0]
    for k in range(N_G):
        s.g[k] = 0
    for p in range(n_players):
        for k in range(N_PI):
            if k != I_POLICY:
                s.pi[p, k] = 0
        s.pi[p, I_GOLD] = rules[R_START_GOLD]
        s.pi[p, I_KEPT] = -1
        for k in range(N_PARTS):
            s.parts[p, k] = 0
        for spot in range(MAX_SPOTS):
            for c in range(N_SP):
                s.sp[p, spot, c] = -1 if c <= S_UNIT else 0
        for b in range(s.blevel.shape[1]):
            s.blevel[p, b] = 0
            for c in range(N_BLOG):
                s.blog[p, b, c] = 0
    for c in range(D):
        s.deck[c] = c
    s.g[G_DECK_N] = D
    rng_shuffle(s.rng, s.deck, D)


@hot_outline
def play_game(tb, weights, s, n_players, seed, game_id, check):
    """Play one complete game into ``s`` (policies already in ``s.pi[:, I_POLICY]``).
    Returns the first broken invariant's code when ``check``, else 0."""
    rules = tb[3]
    _new_game(tb, s, n_players, seed, game_id)
    violation = 0
    if check:
        violation = check_state(tb, s, n_players)
    for turn in range(1, rules[R_TURNS] + 1):
        s.g[G_TURN] = turn
        for phase in range(6):
            if phase == 0:
                recruitment(tb, weights, s, n_players, turn, None, None)
            elif phase == 1:
                deployment(tb, weights, s, n_players, turn)
            elif phase == 2:
                wars(tb, s, n_players)
            elif phase == 3:
                income(tb, s, n_players)
            elif phase == 4:
                construction(tb, weights, s, n_players, turn)
            else:
                aging(tb, weights, s, n_players)
            if check and violation == 0:
                violation = check_state(tb, s, n_players)
    end(tb, s, n_players)
    if check and violation == 0:
        violation = check_state(tb, s, n_players)
    return violation


# --- many games ---------------------------------------------------------------------------


class ChunkOut(NamedTuple):
    """Result buffers of a chunk, indexed by game offset ``i`` (then seat, then row)."""

    turns: np.ndarray  # int8[n]
    reshuffles: np.ndarray  # int8[n]
    policy: np.ndarray  # int8[n, P]
    score: np.ndarray  # int16[n, P]
    parts: np.ndarray  # int16[n, P, N_PARTS]: reference.BREAKDOWN order
    wars_won: np.ndarray  # int8[n, P]
    gold: np.ndarray  # int16[n, P]
    winner: np.ndarray  # bool[n, P]
    n_logs: np.ndarray  # int8[n, P]
    log: np.ndarray  # int16[n, P, MAX_LOGS, N_LOG - 1]: card logs without the card id
    blog: np.ndarray  # int8[n, P, B, N_BLOG]
    violation: np.ndarray  # int8[n]: checking mode: first broken invariant, 0
    overflow: np.ndarray  # bool[n]: a fixed bound was too small (never with base data)


def new_chunk_out(n_games: int, n_players: int, n_buildings: int) -> ChunkOut:
    """Allocate the result buffers of a chunk (in Python, before the kernel runs)."""
    n, P = n_games, n_players
    return ChunkOut(
        np.zeros(n, np.int8),
        np.zeros(n, np.int8),
        np.zeros((n, P), np.int8),
        np.zeros((n, P), np.int16),
        np.zeros((n, P, N_PARTS), np.int16),
        np.zeros((n, P), np.int8),
        np.zeros((n, P), np.int16),
        np.zeros((n, P), np.bool_),
        np.zeros((n, P), np.int8),
        np.zeros((n, P, MAX_LOGS, N_LOG - 1), np.int16),
        np.zeros((n, P, max(n_buildings, 1), N_BLOG), np.int8),
        np.zeros(n, np.int8),
        np.zeros(n, np.bool_),
    )


@alloc  # the block scratch
def _run_block(tb, weights, seat_policy, rotate, n_players, seed, first_game, lo, hi, out, check):
    """Play game offsets ``lo .. hi-1`` of a chunk with one scratch state."""
    s = _new_state(n_players, tb[4].shape[0], tb[1].shape[0], tb[0].shape[0])
    nb = tb[1].shape[0]
    for i in range(lo, hi):
        g = first_game + i
        for p in range(n_players):
            s.pi[p, I_POLICY] = seat_policy[(p + g) % n_players] if rotate else seat_policy[p]
        out.violation[i] = play_game(tb, weights, s, n_players, seed, g, check)
        _write_out(s, out, i, n_players, nb)


@hot
def _write_out(s, out, i, n_players, nb):
    """Game offset ``i``'s results from the finished state ``s`` into ``out``."""
    out.turns[i] = s.g[G_TURN]
    out.reshuffles[i] = s.g[G_RESHUFFLES]
    out.overflow[i] = s.g[G_OVERFLOW] != 0
    for p in range(n_players):
        out.policy[i, p] = s.pi[p, I_POLICY]
        out.score[i, p] = s.pi[p, I_LP]
        out.wars_won[i, p] = s.pi[p, I_WARS]
        out.gold[i, p] = s.pi[p, I_GOLD]
        out.winner[i, p] = s.pi[p, I_WINNER] != 0
        for k in range(N_PARTS):
            out.parts[i, p, k] = s.parts[p, k]
        m = s.pi[p, I_LOG_N]
        out.n_logs[i, p] = m
        for r in range(m):
            for c in range(1, N_LOG):
                out.log[i, p, r, c - 1] = s.log[p, r, c]
        for b in range(nb):
            for c in range(N_BLOG):
                out.blog[i, p, b, c] = s.blog[p, b, c]


@parallel
def simulate_chunk(
    tb, weights, seat_policy, rotate, n_players, seed, first_game, n_games, n_blocks, out, check
):
    """Play games ``first_game .. first_game + n_games - 1`` into ``out`` (a ``ChunkOut``).
    Blocks of games run in parallel; each block allocates its scratch once. Seat s of
    game g plays ``seat_policy[(s + g) % n]`` if ``rotate``."""
    for b in prange(n_blocks):
        lo = b * n_games // n_blocks
        hi = (b + 1) * n_games // n_blocks
        _run_block(
            tb, weights, seat_policy, rotate, n_players, seed, first_game, lo, hi, out, check
        )
