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

from simcore.jit import (
    alloc,
    hot,
    hot_inline,
    hot_outline,
    parallel,
)
from simcore.rng import (
    rng_below,
    rng_shuffle,
    rng_start,
)

from .evaluate import (
    AC_DYN,
    AC_PER_WAR,
    BC_TERMS,
    D_WAR,
    KB_MASK,
    KU_FRONT_FIRST,
    KU_MASK,
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
from .evaluate_legends import (
    K_ART_COST_MODIFIER,
    K_BUILD_FREE,
    K_CONDITIONAL_GAIN,
    K_DEPLOY_ARTIFACT,
    K_REPEAT_DEPLOY,
    LV_BASE,
    LV_FULL,
    LV_GIVEN,
    N_SA,
    N_SX,
    N_Z,
    SA_DONE,
    SA_PENDING,
    SA_X,
    SX_DONE,
    SX_SKIP,
    Z_CARD,
    Z_DONE,
    Z_ENTERED,
    Z_FRESH,
    Z_PAID,
    Z_X,
    fixed_size,
    gain_holds,
    l_assess,
    l_card_value,
    l_end_lp,
    l_option_pass,
    l_per,
    l_production,
    l_project,
    l_sketch,
    l_strength,
    l_value,
    l_war_phase_lp,
    legends_dyn,
)
from .policies import (
    F_GOLD,
    F_MARGIN,
    F_STRENGTH,
    F_STRONG,
    F_WAR_LP,
    W_SAVE_STRENGTH,
    W_UNAFFORDABLE,
    Policy,
    legends_weights,
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
    A_BUILD_LEVEL,
    A_COST,
    A_COUNT,
    A_DISCOUNT,
    A_GOLD,
    A_KIND,
    A_LP,
    A_MAX_COST,
    A_ON_DEPLOY,
    A_PER,
    A_PHASE,
    A_RES_MASK,
    A_TARGET,
    A_TIER,
    A_TIMES,
    A_WHEN,
    B_AB0,
    B_EXTRA_SPOT,
    B_GOLD_INSTEAD,
    B_NAB,
    B_REQ0,
    DEAL,
    DEAL_2P,
    L_ART_COST_BASE,
    L_ART_COST_FLOOR,
    L_ART_COST_STEP,
    L_BUILDING_PAIR,
    L_DISCOUNT_SAME_PHASE,
    L_SIMULTANEITY_MORE_GOLD,
    LEVELS,
    MAX_AGE,
    MAX_ARTIFACTS,
    MAX_BUILD_OPTIONS,
    MAX_CATALOG_BUILDINGS,
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
    X_AB0,
    X_NAB,
    CardSet,
    LegendsTables,
    Target,
    Tier,
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
    the Legends decisions) share one compiled ``l_value`` (``simcore/jit.py``)."""
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
    (``deploy_choice``'s Legends steps, ``l_card_value``'s cards). (pieces, sketch
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
        _freeze(tb, lx, s, ls, n_players)
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
        k = age_target_choice(tb, None, weights, s, None, p, n, amount, n_players)
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


# --- §2.3 Wars, §2.4 Income ---------------------------------------------------------------------


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


# --- many games ---------------------------------------------------------------------------


# --- Legends (``--variant legends``) ---------------------------------------------------------

T_REPLACE, T_ENTER, T_COPY = int(Tier.REPLACE), int(Tier.ENTER), int(Tier.COPY)
T_LEVELS, T_AGE, T_COUNT, T_PENALTY = (
    int(Tier.LEVELS),
    int(Tier.AGE),
    int(Tier.COUNT),
    int(Tier.PENALTY),
)
T_ONE = int(Target.ONE)
M_PLACE_ARTIFACT = M_REMOVE + 1  # deployment option: hand card ``a`` face down into the zone
M_K5 = 1 << K_ART_COST_MODIFIER  # its ``KU_MASK`` / ``KB_MASK`` bit
NONE = np.int64(-1)  # -1 as a run-time int64: passing a literal compiles a copy (jit.py)

# --- the Legends records ---------------------------------------------------------------
LEGENDS_FATES = (
    "hand",
    "not_deployed",
    "kept",
    "unpaid",
    "replaced",
    "shapeshifted",
    "died",
    "in_play",
    "in_zone",
)  # fmt: skip  (FATES + in_zone)
F_IN_ZONE = 8
LEGENDS_ROWS = ("", "front", "back", "zone")  # ROWS + zone
ROW_ZONE = 3
LEGENDS_HOWS = ("", "build", "direct", "golem", "titan")  # HOWS + titan
H_TITAN = 4
HOW_DEPLOYED = ("", "placed", "jester", "shapeshifted")  # CardLog.how_deployed
HD_PLACED, HD_JESTER, HD_SHAPESHIFTED = 1, 2, 3
NO_COST = -100  # deploy_cost of a card never deployed (None in reference records)
LL_COST, LL_HOW = 0, 1  # LState.llog columns
N_LL = 2
LP_WAR_ARTIFACTS, LP_ARTIFACTS = 0, 1  # LState.lparts columns (the two new LP parts)
N_LPARTS = 2
# reference.LEGENDS_BREAKDOWN from the base parts (kernel LP_*, 0..8) and the new ones
# (9 + LState.lparts column): wars, per_war_won, war_units, war_buildings, war_artifacts,
# deployment, aging, buildings, relic, artifacts, floor
BREAKDOWN_COLUMNS = (0, 1, 2, 3, 9, 4, 5, 6, 7, 10, 8)

# --- the artifact zone (LState.zone[P, X, N_Z]), in order of entry ------------------------
# --- per-spot tier bookkeeping (LState.sx[P, S, N_SX]) ---------------------------------------
# (Z_* and SX_*, the zone's and the spots' columns, are in evaluate_legends: the
# policies' sketches read them)
# --- per-game ints (LState.lg) ------------------------------------------------------------------
LG_PAIR, LG_COPIES, LG_SOURCES = 0, 1, 2
N_LG = 3
# a seat's copies in one phase: <= 1 Shadow + 1 Magic Mirror (+ Shapeshifter/Jester chains
# cannot add K2 sources beyond the cards in play): bounded by the sources
MAX_SOURCES = MAX_SPOTS + MAX_ARTIFACTS
SRC_UNIT, SRC_ART = 0, 1


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
    # ``l_value``'s cache of its faces' and artifacts' terms (``evaluate_legends.FX_*``)
    bopt: np.ndarray  # int32[MAX_CATALOG_BUILDINGS]: Titan options
    order: np.ndarray  # int32[MAX_PLAYERS]: simultaneity order (tier 0)
    tied: np.ndarray  # int32[MAX_PLAYERS]
    pdone: np.ndarray  # int32[MAX_PIECES]: a sketch's pieces' last tier done
    hpaid: np.ndarray  # int32[MAX_HAND]: l_moves: gold each hand card's payment takes
    sa: np.ndarray  # int32[MAX_ARTIFACTS + 1, N_SA]: a sketch's artifacts (SA_*)


@alloc
def _new_lstate(P, B):
    return LState(
        np.zeros((P, MAX_ARTIFACTS, N_Z), np.int32),
        np.zeros(P, np.int32),
        np.zeros((P, MAX_SPOTS, N_SX), np.int32),
        np.zeros((P, MAX_LOGS, N_LL), np.int32),
        np.zeros((P, N_LPARTS), np.int32),
        np.zeros(P, np.int32),
        np.zeros(max(B, 1), np.int32),
        np.zeros(N_LG, np.int32),
        np.zeros((MAX_SOURCES, 4), np.int32),
        np.zeros((MAX_SOURCES, 3), np.int32),
        np.full(fixed_size(B), -1, np.int32),
        np.zeros(MAX_CATALOG_BUILDINGS, np.int32),
        np.zeros(MAX_PLAYERS, np.int32),
        np.zeros(MAX_PLAYERS, np.int32),
        np.zeros(MAX_PIECES, np.int32),
        np.zeros(MAX_HAND, np.int32),
        np.zeros((MAX_ARTIFACTS + 1, N_SA), np.int32),
    )


# --- small helpers -----------------------------------------------------------------------------


@hot
def _lscore(s, ls, p, part, lp):
    """``Game.score`` for a Legends-only part (``LP_WAR_ARTIFACTS`` / ``LP_ARTIFACTS``)."""
    ls.lparts[p, part] += lp
    s.pi[p, I_STEP] += lp


@hot
def _lload(s, ls, p):
    """Seat ``p``'s pieces into ``s.pc`` / ``s.bl`` (``kernel._load``) and its paid
    artifacts into ``ls.zx``: (pieces, artifacts)."""
    n = _load(s, p)
    nz = 0
    for i in range(ls.zn[p]):
        if ls.zone[p, i, Z_PAID]:
            ls.zx[nz] = ls.zone[p, i, Z_X]
            nz += 1
    return n, nz


@hot_outline
def _lassess(tb, lx, s, ls, p):
    """``Game.assessment`` of seat ``p`` (artifacts included)."""
    n, nz = _lload(s, ls, p)
    return l_assess(tb[0], tb[1], tb[2], tb[3], lx[0], s.pc, n, s.bl, ls.zx, nz)


@hot
def _find_spot(s, p, card):
    for spot in range(MAX_SPOTS):
        if s.sp[p, spot, S_CARD] == card:
            return spot
    return -1


@hot_outline
def _facts(tb, lx, s, ls, p):
    """(pieces, artifacts, wood, food, crystal, facts) of seat ``p`` now, ``facts`` as
    ``reference.base_facts`` with the Legends counters (no income, no strong units)."""
    ut, bt = tb[0], tb[1]
    n, nz = _lload(s, ls, p)
    wood, food, crystal = l_production(ut, bt, lx[0], s.pc, n, s.bl, ls.zx, nz)
    age_all, n_level2 = base_facts(bt, s.pc, n, s.bl)
    return n, nz, wood, food, crystal, (age_all, n_level2, 0, 0, nz)


@hot
def _piece_at(s, n, spot):
    """Index of the piece on ``spot`` in ``s.pc[:n]``, -1 if none (``spot`` -1: none)."""
    for i in range(n):
        if spot >= 0 and s.pc[i, PC_SPOT] == spot:
            return i
    return -1


# --- §2.4 Deployment: placement and payment -----------------------------------------------------


@hot
def _art_modifier_now(tb, s, ls, p, replace):
    """``Game.art_modifier_now``: Σ ``artifact_cost_modifier`` of the seat's old units (not
    the one on spot ``replace``, leaving) and building faces."""
    ut, bt, ab = tb[0], tb[1], tb[2]
    total = 0
    for spot in range(MAX_SPOTS):
        if spot == replace or s.sp[p, spot, S_CARD] < 0 or s.sp[p, spot, S_FRESH]:
            continue
        total += _k5(ut, ab, s.sp[p, spot, S_UNIT])
    for b in range(bt.shape[0]):
        if not ls.inset[b]:
            continue
        for k in range(s.blevel[p, b]):
            if not bt[b, k, KB_MASK] & M_K5:
                continue
            for j in range(bt[b, k, B_AB0], bt[b, k, B_AB0] + bt[b, k, B_NAB]):
                if ab[j, A_KIND] == K_ART_COST_MODIFIER:
                    total += ab[j, A_AMOUNT]
    return total


@hot
def _k5(ut, ab, u):
    """Σ ``artifact_cost_modifier`` amounts of unit ``u``."""
    total = 0
    if not _has_k5(ut, ab, u):
        return total
    for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
        if ab[j, A_KIND] == K_ART_COST_MODIFIER:
            total += ab[j, A_AMOUNT]
    return total


@hot
def _has_k5(ut, ab, u):
    """Unit ``u`` has an ``artifact_cost_modifier`` (its ``KU_MASK`` bit)."""
    return ut[u, KU_MASK] & M_K5 != 0


@hot
def _group(ut, ab, u):
    """Payment group of a unit: 0 negative cost, 1 with an artifact discount, 2 others."""
    if ut[u, U_COST] < 0:
        return 0
    return 1 if _has_k5(ut, ab, u) else 2


@hot_outline
def _pay_order(tb, lx, s, ls, p, extra, replace, commit, turn):
    """``Game.payment_order`` of the cards placed this phase, plus hand card ``extra``
    (-1: none) as if placed, the old unit on spot ``replace`` (-1: none) gone: (ok, gold
    taken, what ``extra`` costs at its turn or ``NO_COST``); ok False if some card could
    not be paid (callers pass int64 values, ``NONE`` for -1: one compiled copy for the
    policies' calls, one for the payment). ``commit``: pay for real
    (``Game.pay_legends``: unpaid cards discarded, logs, the zone's unpaid cards dropped)."""
    ut, ab, deck = tb[0], tb[2], tb[4]
    lr = lx[1]
    U = ut.shape[0]
    gold = s.pi[p, I_GOLD]
    modifier = _art_modifier_now(tb, s, ls, p, replace)
    in_zone = 0
    for i in range(ls.zn[p]):
        in_zone += ls.zone[p, i, Z_PAID]
    ok = True
    total = 0
    xcost = NO_COST
    extra_unit = extra >= 0 and deck[extra] < U
    for group in range(3):
        for spot in range(MAX_SPOTS + 1):
            if spot < MAX_SPOTS:
                if spot == replace or s.sp[p, spot, S_CARD] < 0 or not s.sp[p, spot, S_FRESH]:
                    continue
                card = s.sp[p, spot, S_CARD]
            elif extra_unit:
                card = extra
            else:
                continue
            u = deck[card]
            if _group(ut, ab, u) != group:
                continue
            cost = ut[u, U_COST]
            if cost > gold:
                ok = False
                if commit:
                    _kill(s, p, spot, F_UNPAID)
                continue
            gold -= cost
            total += cost
            if spot == MAX_SPOTS:
                xcost = cost
            if commit:
                row = ROW_FRONT if spot < MAX_FRONT else ROW_BACK
                _log_paid(s, ls, p, card, turn, cost, row, HD_PLACED)
            if lr[L_DISCOUNT_SAME_PHASE]:
                modifier += _k5(ut, ab, u)
    kept = 0
    for i in range(ls.zn[p] + 1):
        if i < ls.zn[p]:
            if ls.zone[p, i, Z_PAID]:
                if commit:
                    _zone_copy(ls, p, i, kept)
                kept += 1
                continue
            card = ls.zone[p, i, Z_CARD]
        elif extra >= 0 and not extra_unit:
            card = extra
        else:
            continue
        cost = max(
            lr[L_ART_COST_FLOOR], lr[L_ART_COST_BASE] + lr[L_ART_COST_STEP] * in_zone + modifier
        )
        if cost > gold:
            ok = False
            if commit:
                _to_discard(s, card)
                s.log[p, s.card_log[card], L_FATE] = F_UNPAID
            continue
        gold -= cost
        total += cost
        in_zone += 1
        if i == ls.zn[p]:
            xcost = cost
        if commit:
            _log_paid(s, ls, p, card, turn, cost, ROW_ZONE, HD_PLACED)
            ls.art_gold[p] += cost
            ls.zone[p, i, Z_PAID] = 1
            _zone_copy(ls, p, i, kept)
            kept += 1
    if commit:
        ls.zn[p] = kept
        s.pi[p, I_GOLD] = gold
    return ok, total, xcost


@hot
def _zone_copy(ls, p, i, k):
    if i != k:
        for c in range(N_Z):
            ls.zone[p, k, c] = ls.zone[p, i, c]


@hot
def _log_paid(s, ls, p, card, turn, cost, row, how):
    """The log of a card deployed this turn for ``cost`` (``how``: HD_*)."""
    k = s.card_log[card]
    r = s.log[p, k]
    r[L_DEPLOYED] = 1
    r[L_TURN_DEPLOYED] = turn
    r[L_FATE] = F_IN_ZONE if row == ROW_ZONE else F_IN_PLAY
    r[L_ROW] = row
    ls.llog[p, k, LL_COST] = cost
    ls.llog[p, k, LL_HOW] = how


@hot
def l_moves(tb, lx, s, ls, p):
    """``Game.moves`` (Legends): STOP, each hand card's PLACE options when everything placed
    stays payable with it (``places_legends``), then the MOVE options, then the REMOVE
    options (an old unit whose leaving keeps everything placed payable); their count. The
    gold each hand card's payment takes goes to ``ls.hpaid`` (``deploy_l`` reads it)."""
    ut, deck = tb[0], tb[4]
    U = ut.shape[0]
    front = _first_empty(tb, s, p, False)
    back = _first_empty(tb, s, p, True)
    n = _add_opt(s, 0, M_STOP, -1, -1)
    for i in range(s.pi[p, I_HAND_N]):
        card = s.hand[p, i]
        ok, paid, _ = _pay_order(tb, lx, s, ls, p, np.int64(card), NONE, False, NONE)
        ls.hpaid[i] = paid
        if deck[card] >= U:
            if ok:
                n = _add_opt(s, n, M_PLACE_ARTIFACT, i, -1)
            continue
        if ok:
            if front >= 0:
                n = _add_opt(s, n, M_PLACE, i, front)
            if back >= 0:
                n = _add_opt(s, n, M_PLACE, i, back)
        for spot in range(MAX_SPOTS):
            if (
                s.sp[p, spot, S_CARD] >= 0
                and not s.sp[p, spot, S_FRESH]
                and _spot_open(tb, s, p, spot)
                and _replace_ok(tb, lx, s, ls, p, card, spot, ok)
            ):
                n = _add_opt(s, n, M_PLACE, i, spot)
    n = _add_moves(tb, s, p, n)
    for spot in range(MAX_SPOTS):
        if _is_old(tb, s, p, spot) and _replace_ok(tb, lx, s, ls, p, NONE, spot, True):
            n = _add_opt(s, n, M_REMOVE, spot, -1)
    return n


@hot
def _replace_ok(tb, lx, s, ls, p, card, spot, ok):
    """``_pay_order(card, spot)[0]`` given ``ok`` = ``_pay_order(card, -1)[0]`` (``card``
    ``NONE``: a removal; what is placed is payable, so ``ok`` = True): replacing or removing
    an old unit changes the payment only through its ``artifact_cost_modifier`` (old units
    are not paid again), so without one the answer is ``ok``."""
    if not _has_k5(tb[0], tb[2], s.sp[p, spot, S_UNIT]):
        return ok
    return _pay_order(tb, lx, s, ls, p, np.int64(card), np.int64(spot), False, NONE)[0]


@hot
def _l_apply_move(tb, lx, s, ls, p, kind, a, b):
    """``Game.apply_move`` (Legends): an artifact goes face down into the zone; a replaced
    unit's death abilities (``deploy_discard = death``) see the artifacts."""
    if kind == M_PLACE_ARTIFACT:
        card = s.hand[p, a]
        m = s.pi[p, I_HAND_N]
        for i in range(a, m - 1):
            s.hand[p, i] = s.hand[p, i + 1]
        s.pi[p, I_HAND_N] = m - 1
        _zone_add(tb, ls, p, card, 0, -1)
        return
    if kind == M_REMOVE:
        if tb[3][R_DISCARD_IS_DEATH]:
            _l_death_abilities(tb, lx, s, ls, p, 1 << a)
        _kill(s, p, a, F_REPLACED)
        return
    if kind == M_PLACE and s.sp[p, b, S_CARD] >= 0 and tb[3][R_DISCARD_IS_DEATH]:
        _l_death_abilities(tb, lx, s, ls, p, 1 << b)
        _kill(s, p, b, F_REPLACED)
    _apply_move(tb, s, p, kind, a, b)


@hot
def _zone_add(tb, ls, p, card, paid, entered):
    k = ls.zn[p]
    ls.zone[p, k, Z_CARD] = card
    ls.zone[p, k, Z_X] = tb[4][card] - tb[0].shape[0]
    ls.zone[p, k, Z_FRESH] = 1
    ls.zone[p, k, Z_PAID] = paid
    ls.zone[p, k, Z_ENTERED] = entered
    ls.zone[p, k, Z_DONE] = -1
    ls.zn[p] = k + 1


# --- §2.5 the deployment tiers -------------------------------------------------------------------


@hot
def _simultaneity(lx, s, ls, k):
    """``Game.simultaneity_order`` of the seats ``ls.order[:k]`` (seat order): most LP
    first, then gold (more or less first), then one draw ``below(t)`` per pick among t
    tied. The result replaces ``ls.order[:k]``."""
    more = lx[1][L_SIMULTANEITY_MORE_GOLD]
    used = 0
    m = 0
    out = 0  # packed result: 4 bits a seat
    while m < k:
        best_lp = 0
        best_g = 0
        found = False
        for i in range(k):
            p = ls.order[i]
            if (used >> p) & 1:
                continue
            lp = -s.pi[p, I_LP]
            g = -s.pi[p, I_GOLD] if more else s.pi[p, I_GOLD]
            if not found or lp < best_lp or (lp == best_lp and g < best_g):
                best_lp, best_g, found = lp, g, True
        nt = 0
        for i in range(k):
            p = ls.order[i]
            if (used >> p) & 1:
                continue
            g = -s.pi[p, I_GOLD] if more else s.pi[p, I_GOLD]
            if -s.pi[p, I_LP] == best_lp and g == best_g:
                ls.tied[nt] = p
                nt += 1
        while nt > 0:
            pick = rng_below(s.rng, nt) if nt > 1 else 0
            p = ls.tied[pick]
            for i in range(pick, nt - 1):
                ls.tied[i] = ls.tied[i + 1]
            nt -= 1
            out |= p << (4 * m)
            used |= 1 << p
            m += 1
    for i in range(k):
        ls.order[i] = (out >> (4 * i)) & 15


@hot
def _l_shapeshift(tb, s, ls, p, spot, j, turn):
    """``Game.shapeshift_legends`` (tier 0): the revealed unit takes the spot, its own
    on-deploy abilities resolve in tiers 1-5 (``shapeshift_on_deploy``)."""
    k = _shapeshift_reveal(tb, s, p, spot, j, turn)
    if k < 0:
        return
    u = s.log[p, k, L_UNIT]
    ls.llog[p, k, LL_COST] = 0 if tb[3][R_SHAPE_FREE] else tb[0][u, U_COST]
    ls.llog[p, k, LL_HOW] = HD_SHAPESHIFTED
    _put(s, p, spot, s.log[p, k, L_CARD], u, tb[2][j, A_AGE], 0)
    ls.sx[p, spot, SX_DONE] = T_REPLACE
    ls.sx[p, spot, SX_SKIP] = 0 if tb[3][R_SHAPE_ON_DEPLOY] else 1


@hot_outline
def _l_add_age(tb, lx, weights, s, ls, p, spot, j, n_players):
    """``Game.add_age`` / ``add_age_legends``: ability ``j`` of the unit on ``spot`` (-1:
    an artifact, never a target) puts ``amount x per`` tokens on itself, each other unit,
    every unit (``all``, artifacts) or one unit chosen by the policy."""
    ab = tb[2]
    n, _nz, wood, food, crystal, facts = _facts(tb, lx, s, ls, p)
    me = _piece_at(s, n, spot)
    age = s.pc[me, PC_AGE] if me >= 0 else 0
    amount = ab[j, A_AMOUNT] * l_per(
        tb[0], ab, j, ab[j, A_PER], age, spot, s.pc, n, wood, food, crystal, facts
    )
    if amount <= 0 or (spot < 0 and n == 0):
        return
    target = ab[j, A_TARGET]
    cap = MAX_AGE if spot < 0 else 1 << 20  # an artifact's tokens are capped (the reference)
    if spot >= 0 and target == T_SELF:
        s.sp[p, spot, S_AGE] += amount
    elif spot >= 0 and target == T_OTHERS:
        for i in range(n):
            if s.pc[i, PC_SPOT] != spot:
                s.sp[p, s.pc[i, PC_SPOT], S_AGE] += amount
    elif spot < 0 and target != T_ONE:
        for i in range(n):
            t = s.pc[i, PC_SPOT]
            s.sp[p, t, S_AGE] = min(cap, s.sp[p, t, S_AGE] + amount)
    else:
        for i in range(n):
            s.spots[i] = s.pc[i, PC_SPOT]
        t = s.spots[age_target_choice(tb, lx, weights, s, ls, p, n, amount, n_players)]
        s.sp[p, t, S_AGE] = min(cap, s.sp[p, t, S_AGE] + amount)


@hot_outline
def _deploy_gain(tb, lx, s, ls, p, spot, j):
    """``Game.deploy_gain`` (tier 4a): K4 on deploy: gold at once, LP as ``deployment``."""
    n, _nz, wood, food, crystal, facts = _facts(tb, lx, s, ls, p)
    me = _piece_at(s, n, spot)
    age = s.pc[me, PC_AGE] if me >= 0 else 0
    if not gain_holds(
        tb[0], tb[2], j, age, spot if me >= 0 else -1, s.pc, n, wood, food, crystal, facts
    ):
        return
    s.pi[p, I_GOLD] += tb[2][j, A_GOLD]
    _score(s, p, LP_DEPLOYMENT, tb[2][j, A_LP])


@hot_outline
def _l_deployment_lp(tb, lx, s, ls, p, spot, j):
    """``Game.deployment_lp``: a deployment ``lp`` (Kraken) of the source on ``spot``."""
    ab = tb[2]
    n, _nz, wood, food, crystal, facts = _facts(tb, lx, s, ls, p)
    me = _piece_at(s, n, spot)
    age = s.pc[me, PC_AGE] if me >= 0 else 0
    on = spot if me >= 0 else -1
    lp = 0
    if when_holds(ab[j, A_WHEN], age, on, food, crystal):
        lp = ab[j, A_AMOUNT] * l_per(
            tb[0], ab, j, ab[j, A_PER], age, on, s.pc, n, wood, food, crystal, facts
        )
    _score(s, p, LP_DEPLOYMENT, lp)


@hot_outline
def _jester(tb, lx, weights, s, ls, p, j, turn, n_players):
    """``Game.jester`` (K1): up to ``count`` times an artifact from the hand into the zone
    for ``cost`` (decision; none in hand or cost unaffordable: nothing)."""
    ab, deck = tb[2], tb[4]
    U = tb[0].shape[0]
    cost = ab[j, A_COST]
    for _ in range(ab[j, A_COUNT]):
        m = 0
        if cost <= s.pi[p, I_GOLD]:
            for i in range(s.pi[p, I_HAND_N]):
                if deck[s.hand[p, i]] >= U:
                    s.spots[m] = i
                    m += 1
        if m == 0:
            return
        k = jester_l(tb, lx, weights, s, ls, p, m, cost, n_players)
        if k == 0:
            return
        h = s.spots[k - 1]
        card = s.hand[p, h]
        for i in range(h, s.pi[p, I_HAND_N] - 1):
            s.hand[p, i] = s.hand[p, i + 1]
        s.pi[p, I_HAND_N] -= 1
        s.pi[p, I_GOLD] -= cost
        ls.art_gold[p] += cost
        _zone_add(tb, ls, p, card, 1, T_ENTER)
        _log_paid(s, ls, p, card, turn, cost, ROW_ZONE, HD_JESTER)


@hot_outline
def _build_free(tb, lx, weights, s, ls, p, j, turn, n_players):
    """``Game.build_free`` (K3): one unbuilt building of the set (decision, forced when
    one) at ``level``, free."""
    m = 0
    for b in range(tb[1].shape[0]):
        if ls.inset[b] and s.blevel[p, b] == 0:
            ls.bopt[m] = b
            m += 1
    if m == 0:
        return
    level = tb[2][j, A_BUILD_LEVEL]
    b = ls.bopt[titan_l(tb, lx, weights, s, ls, p, m, level, n_players)]
    s.blevel[p, b] = level
    s.blog[p, b, BL_LEVEL] = level
    s.blog[p, b, BL_BUILT] = turn
    s.blog[p, b, BL_HOW] = H_TITAN
    if level == LEVELS:
        s.blog[p, b, BL_UPGRADED] = turn


@hot_outline
def _run_effect(tb, lx, weights, s, ls, p, spot, j, turn, n_players):
    """``Game.run_deploy`` for every kind but K2 (``_copy``): one on-deploy ability of seat
    ``p`` acting as the unit on ``spot`` (-1: an artifact)."""
    kind = tb[2][j, A_KIND]
    if kind == K_DEPLOY_ARTIFACT:
        _jester(tb, lx, weights, s, ls, p, j, turn, n_players)
    elif kind == K_BUILD_FREE:
        _build_free(tb, lx, weights, s, ls, p, j, turn, n_players)
    elif kind == K_UPGRADE_BUILDINGS:
        _upgrade_all(tb, s, p, turn)
    elif kind == K_ADD_AGE:
        _l_add_age(tb, lx, weights, s, ls, p, spot, j, n_players)
    elif kind == K_CONDITIONAL_GAIN:
        _deploy_gain(tb, lx, s, ls, p, spot, j)
    elif kind == K_LP:
        k = s.g[G_PENDING_N]
        if k >= MAX_PENDING:
            s.g[G_OVERFLOW] = 1
        else:
            s.pend[k, 0] = p
            s.pend[k, 1] = spot
            s.pend[k, 2] = j
            s.g[G_PENDING_N] = k + 1


@hot
def _has_k2(ut, ab, u):
    for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
        if ab[j, A_KIND] == K_REPEAT_DEPLOY:
            return True
    return False


@hot
def _run_copy(tb, lx, weights, s, ls, p, target, tier, times, turn, n_players):
    """``Game.run_copy``: the copied unit ``target``'s on-deploy abilities of ``tier``,
    ``times`` more, acting as that unit (still in play)."""
    ut, ab = tb[0], tb[2]
    spot = _find_spot(s, p, target)
    if spot < 0:
        return
    u = tb[4][target]
    for _ in range(times):
        for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
            if ab[j, A_ON_DEPLOY] and ab[j, A_TIER] == tier and ab[j, A_KIND] != K_REPEAT_DEPLOY:
                _run_effect(tb, lx, weights, s, ls, p, spot, j, turn, n_players)


@hot_outline
def _copy(tb, lx, weights, s, ls, p, j, kind, card, turn, n_players):
    """``Game.copy`` (K2): the seat may pick a unit placed or revealed this phase without
    K2 (decision); its tier-1a abilities resolve at once, the later ones at the copier's."""
    ut, ab = tb[0], tb[2]
    m = 0
    for spot in range(MAX_SPOTS):
        if (
            s.sp[p, spot, S_CARD] >= 0
            and s.sp[p, spot, S_FRESH]
            and not _has_k2(ut, ab, s.sp[p, spot, S_UNIT])
        ):
            s.spots[m] = spot
            m += 1
    if m == 0:
        return
    k = copy_l(tb, lx, weights, s, ls, p, m, n_players)
    if k == 0:
        return
    target = s.sp[p, s.spots[k - 1], S_CARD]
    c = ls.lg[LG_COPIES]
    ls.copies[c, 0] = kind
    ls.copies[c, 1] = card
    ls.copies[c, 2] = target
    ls.copies[c, 3] = ab[j, A_TIMES]
    ls.lg[LG_COPIES] = c + 1
    _run_copy(tb, lx, weights, s, ls, p, target, np.int64(T_ENTER), ab[j, A_TIMES], turn, n_players)


@hot_outline
def _resolve_tier(tb, lx, weights, s, ls, p, tier, turn, n_players):
    """``Game.resolve_tier``: each source's on-deploy abilities of ``tier`` (data order),
    then the copies it carries; sources = new units (spot order, not skipped), then new
    paid artifacts (zone order), listed when the tier starts."""
    ut, ab, deck, xt = tb[0], tb[2], tb[4], lx[0]
    m = 0
    for spot in range(MAX_SPOTS):
        if s.sp[p, spot, S_CARD] >= 0 and s.sp[p, spot, S_FRESH] and not ls.sx[p, spot, SX_SKIP]:
            ls.src[m, 0] = SRC_UNIT
            ls.src[m, 1] = s.sp[p, spot, S_CARD]
            ls.src[m, 2] = spot
            m += 1
    for i in range(ls.zn[p]):
        if ls.zone[p, i, Z_FRESH] and ls.zone[p, i, Z_PAID]:
            ls.src[m, 0] = SRC_ART
            ls.src[m, 1] = ls.zone[p, i, Z_CARD]
            ls.src[m, 2] = -1
            m += 1
    for e in range(m):
        kind, card, spot = ls.src[e, 0], ls.src[e, 1], ls.src[e, 2]
        if kind == SRC_UNIT:
            if _find_spot(s, p, card) != spot or ls.sx[p, spot, SX_DONE] >= tier:
                continue
            ls.sx[p, spot, SX_DONE] = tier
            u = deck[card]
            lo, hi = ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]
        else:
            z = 0
            for i in range(ls.zn[p]):
                if ls.zone[p, i, Z_CARD] == card:
                    z = i
            if ls.zone[p, z, Z_DONE] >= tier or ls.zone[p, z, Z_ENTERED] >= tier:
                continue
            ls.zone[p, z, Z_DONE] = tier
            x = ls.zone[p, z, Z_X]
            lo, hi = xt[x, X_AB0], xt[x, X_AB0] + xt[x, X_NAB]
        for j in range(lo, hi):
            if not ab[j, A_ON_DEPLOY] or ab[j, A_TIER] != tier:
                continue
            if ab[j, A_KIND] == K_REPEAT_DEPLOY:
                _copy(tb, lx, weights, s, ls, p, j, kind, card, turn, n_players)
            else:
                _run_effect(tb, lx, weights, s, ls, p, np.int64(spot), j, turn, n_players)
        if tier == T_ENTER:
            continue
        for c in range(ls.lg[LG_COPIES]):
            if ls.copies[c, 0] == kind and ls.copies[c, 1] == card:
                _run_copy(
                    tb, lx, weights, s, ls, p, ls.copies[c, 2], tier, ls.copies[c, 3], turn,
                    n_players,
                )  # fmt: skip


@hot_outline
def _tiers(tb, lx, weights, s, ls, n_players, turn):
    """``Game.tiers``: tier 0 (Shapeshifters, seats in simultaneity order), then seat by
    seat tiers 1a-4b, tier 5 (deployment ``lp``) after every seat, then each seat's LP
    step settled and the phase's flags cleared (``close_deployment``)."""
    ut, ab = tb[0], tb[2]
    k = 0
    for p in range(n_players):
        has = False
        for spot in range(MAX_SPOTS):
            if s.sp[p, spot, S_CARD] >= 0 and s.sp[p, spot, S_FRESH]:
                u = s.sp[p, spot, S_UNIT]
                for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
                    if ab[j, A_TIER] == T_REPLACE:
                        has = True
        if has:
            ls.order[k] = p
            k += 1
    if k > 1:
        _simultaneity(lx, s, ls, k)
    for i in range(k):
        p = ls.order[i]
        for spot in range(MAX_SPOTS):
            if (
                s.sp[p, spot, S_CARD] < 0
                or not s.sp[p, spot, S_FRESH]
                or ls.sx[p, spot, SX_DONE] >= T_REPLACE
            ):
                continue
            ls.sx[p, spot, SX_DONE] = T_REPLACE
            u = s.sp[p, spot, S_UNIT]
            for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
                if ab[j, A_TIER] == T_REPLACE:
                    _l_shapeshift(tb, s, ls, p, spot, j, turn)
                    break
    s.g[G_PENDING_N] = 0
    for p in range(n_players):
        ls.lg[LG_COPIES] = 0
        for tier in range(T_ENTER, T_COUNT + 1):
            _resolve_tier(tb, lx, weights, s, ls, p, tier, turn, n_players)
        for spot in range(MAX_SPOTS):  # Game.every_turn (tier 4b: Master Alchemist)
            if s.sp[p, spot, S_CARD] < 0:
                continue
            u = s.sp[p, spot, S_UNIT]
            for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
                if (
                    ab[j, A_PHASE] == PH_DEPLOYMENT
                    and not ab[j, A_ON_DEPLOY]
                    and ab[j, A_KIND] == K_ADD_AGE
                ):
                    _l_add_age(tb, lx, weights, s, ls, p, spot, j, n_players)
        _resolve_tier(tb, lx, weights, s, ls, p, np.int64(T_PENALTY), turn, n_players)
    for e in range(s.g[G_PENDING_N]):
        _l_deployment_lp(tb, lx, s, ls, s.pend[e, 0], s.pend[e, 1], s.pend[e, 2])
    for p in range(n_players):
        _settle(tb, s, p)
        for spot in range(MAX_SPOTS):
            if s.sp[p, spot, S_CARD] >= 0:
                s.sp[p, spot, S_FRESH] = 0
                s.sp[p, spot, S_MOVED] = 0
                s.sp[p, spot, S_RESOLVED] = 1
            ls.sx[p, spot, SX_DONE] = -1
            ls.sx[p, spot, SX_SKIP] = 0
        for i in range(ls.zn[p]):
            ls.zone[p, i, Z_FRESH] = 0
            ls.zone[p, i, Z_ENTERED] = -1
            ls.zone[p, i, Z_DONE] = -1


# --- the policies' decisions (reference.Brain) ------------------------------------------------


@hot
def _set_art(ls, i, x, done):
    """Sketch artifact ``i``: artifact ``x``, pending, last tier done ``done``."""
    ls.sa[i, SA_X] = x
    ls.sa[i, SA_PENDING] = 1
    ls.sa[i, SA_DONE] = done


@hot
def _project_in_place(tb, lx, s, ls, n, na):
    """``Brain.project`` of the sketch, written back into it (pending flags cleared):
    (gold gained, deployment LP gained)."""
    gold, bonus, projected = l_project(
        tb[0], tb[1], tb[2], lx[0], s.pc, n, ls.pdone, s.bl, ls.sa, na, ls.zx, s.wpc, s.wbl
    )
    for i in range(n):
        if projected:
            for c in range(N_PC):
                s.pc[i, c] = s.wpc[i, c]
        s.pc[i, PC_PENDING] = 0
    for b in range(s.bl.shape[0]):
        s.bl[b] = s.wbl[b]
    for i in range(na):
        ls.sa[i, SA_PENDING] = 0
    return gold, bonus


@hot
def _remove_value(tb, lx, weights, s, ls, p, n0, na, spot, n_players):
    """``deploy_l``'s value of REMOVE ``spot``: the base sketch without that unit's row
    (swapped with the last row, the sketch valued in full on ``n0 - 1`` rows, swapped
    back), with the gold left after paying what is placed without it."""
    k = n0 - 1
    for r in range(n0):
        if s.pc[r, PC_SPOT] == spot:
            k = r
    _swap_lrows(s, ls, k, n0 - 1)
    replace = np.int64(spot) if _has_k5(tb[0], tb[2], s.sp[p, spot, S_UNIT]) else NONE
    paid = _pay_order(tb, lx, s, ls, p, NONE, replace, False, NONE)[1]
    v = _lv(tb, lx, weights, s, ls, p, n0 - 1, na, s.pi[p, I_GOLD] - paid, 0, n_players, LV_FULL)
    _swap_lrows(s, ls, k, n0 - 1)
    return v


@hot
def _swap_lrows(s, ls, i, j):
    """Rows ``i`` and ``j`` of the sketch's pieces and their tiers done swapped."""
    for c in range(N_PC):
        s.pc[i, c], s.pc[j, c] = s.pc[j, c], s.pc[i, c]
    ls.pdone[i], ls.pdone[j] = ls.pdone[j], ls.pdone[i]


@hot
def _restore_lrow(s, ls, p, n0, k):
    """After ``deploy_l``'s step: the base sketch's row ``k`` back (from ``s.pc0``) with its
    tier done (a new row or none needs nothing)."""
    if 0 <= k < n0:
        for c in range(N_PC):
            s.pc[k, c] = s.pc0[k, c]
        ls.pdone[k] = ls.sx[p, s.pc[k, PC_SPOT], SX_DONE]


@hot_outline
def jester_l(tb, lx, weights, s, ls, p, m, cost, n_players):
    """``Brain.jester``: 0 = none, i = the hand card ``s.hand[p, s.spots[i - 1]]`` into the
    zone (pending, its tier 1a done) for ``cost``."""
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, m + 1)
    U = tb[0].shape[0]
    best = -np.inf
    chosen = 0
    for i in range(m + 1):
        n, na = _lsketch(s, ls, p)
        gold = s.pi[p, I_GOLD]
        if i:
            _set_art(ls, na, tb[4][s.hand[p, s.spots[i - 1]]] - U, T_ENTER)
            na += 1
            gold -= cost
        v = _lv(tb, lx, weights, s, ls, p, n, na, gold, 0, n_players, LV_FULL)
        best, chosen = first_best(i, v, best, chosen)
    return chosen


@hot_outline
def titan_l(tb, lx, weights, s, ls, p, m, level, n_players):
    """``Brain.titan``: index in ``ls.bopt[:m]`` of the building built free (mandatory)."""
    if m == 1:
        return 0
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, m)
    best = -np.inf
    chosen = 0
    for i in range(m):
        n, na = _lsketch(s, ls, p)
        s.bl[ls.bopt[i]] = level
        v = _lv(tb, lx, weights, s, ls, p, n, na, s.pi[p, I_GOLD], 0, n_players, LV_FULL)
        best, chosen = first_best(i, v, best, chosen)
    return chosen


@hot_outline
def copy_l(tb, lx, weights, s, ls, p, m, n_players):
    """``Brain.copy_target``: 0 = none, i = the unit on ``s.spots[i - 1]``. Value: the
    sketch projected; the target's tier-1a abilities as this policy would resolve them
    (``Brain.copy_enter``); the target's later on-deploy effects projected once more."""
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, m + 1)
    ut, ab = tb[0], tb[2]
    best = -np.inf
    chosen = 0
    for i in range(m + 1):
        n, na = _lsketch(s, ls, p)
        gold, bonus = _project_in_place(tb, lx, s, ls, n, na)
        gold += s.pi[p, I_GOLD]
        if i:
            k = _piece_at(s, n, s.spots[i - 1])
            u = s.pc[k, PC_UNIT]
            for j in range(ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB]):
                if not ab[j, A_ON_DEPLOY]:
                    continue
                if ab[j, A_KIND] == K_BUILD_FREE:
                    _enter_titan(tb, lx, weights, s, ls, p, n, na, gold, bonus, j, n_players)
                elif (
                    ab[j, A_KIND] == K_DEPLOY_ARTIFACT
                    and ab[j, A_COST] <= gold
                    and _enter_jester(tb, lx, weights, s, ls, p, n, na, gold, bonus, j, n_players)
                ):
                    na += 1
                    gold -= ab[j, A_COST]
            s.pc[k, PC_PENDING] = 1
            ls.pdone[k] = T_COPY
            more_gold, more_lp = _project_in_place(tb, lx, s, ls, n, na)
            gold += more_gold
            bonus += more_lp
        v = _lv(tb, lx, weights, s, ls, p, n, na, gold, bonus, n_players, LV_FULL)
        best, chosen = first_best(i, v, best, chosen)
    return chosen


@hot
def _enter_titan(tb, lx, weights, s, ls, p, n, na, gold, bonus, j, n_players):
    """``Brain.copy_enter`` of a ``build_free``: the sketch gets its best unbuilt building
    of the set (first best, set order; none: unchanged)."""
    level = tb[2][j, A_BUILD_LEVEL]
    top = -np.inf
    pick = -1
    for b in range(s.bl.shape[0]):
        if ls.inset[b] and s.bl[b] == 0:
            s.bl[b] = level
            v = _lv(tb, lx, weights, s, ls, p, n, na, gold, bonus, n_players, LV_FULL)
            s.bl[b] = 0
            if v > top:
                top = v
                pick = b
    if pick >= 0:
        s.bl[pick] = level


@hot
def _enter_jester(tb, lx, weights, s, ls, p, n, na, gold, bonus, j, n_players):
    """``Brain.copy_enter`` of a ``deploy_artifact_from_hand``: the sketch gets the hand's
    best artifact (pending, tier 1a done) if that beats none; True if it did."""
    U = tb[0].shape[0]
    cost = tb[2][j, A_COST]
    top = _lv(tb, lx, weights, s, ls, p, n, na, gold, bonus, n_players, LV_FULL)
    pick = -1
    for h in range(s.pi[p, I_HAND_N]):
        t = tb[4][s.hand[p, h]]
        if t >= U:
            _set_art(ls, na, t - U, T_ENTER)
            v = _lv(tb, lx, weights, s, ls, p, n, na + 1, gold - cost, bonus, n_players, LV_FULL)
            if v > top:
                top = v
                pick = t - U
    if pick >= 0:
        _set_art(ls, na, pick, T_ENTER)
    return pick >= 0


# --- §2.3 Wars, §2.4 Income, §2.5 Construction, §2.6 Aging, §2.7 End ------------------------------


@hot_outline
def payment_facts_l(tb, lx, s, ls, p):
    """``kernel.payment_facts`` of a Legends seat (what ``Game.payment`` reads, the same for
    every building): its production with the artifacts', and the land cost and gold
    substitutions with the land discounts of units, building faces of the set and
    artifacts. ``kernel.payment`` prices each building from it."""
    ut, bt, ab, rules, xt = tb[0], tb[1], tb[2], tb[3], lx[0]
    n, nz, wood, food, crystal, _ = _facts(tb, lx, s, ls, p)
    land = (False, 0, 0)  # (no land cost, discount, substitutable resources)
    for i in range(n):
        u = s.pc[i, PC_UNIT]
        land = _land_terms(ab, ut[u, U_AB0], ut[u, U_AB0] + ut[u, U_NAB], land)
    for c in range(bt.shape[0]):
        if ls.inset[c]:
            for k in range(s.blevel[p, c]):
                land = _land_terms(ab, bt[c, k, B_AB0], bt[c, k, B_AB0] + bt[c, k, B_NAB], land)
    for i in range(nz):
        x = ls.zx[i]
        land = _land_terms(ab, xt[x, X_AB0], xt[x, X_AB0] + xt[x, X_NAB], land)
    free_land, discount, subst = land
    owned = 0
    for c in range(bt.shape[0]):
        if s.blevel[p, c]:
            owned += 1
    gold = 0 if free_land else max(0, rules[R_LAND_COST] * owned - discount)
    return wood, food, crystal, gold, subst


@hot
def _land_terms(ab, lo, hi, land):
    """``land`` = (no land cost, Σ discounts, resource mask) with ability rows ``lo..hi-1``
    added (``no_land_cost``: ``A_DISCOUNT`` -1 waives, n lowers; ``gold_for_resource``)."""
    free_land, discount, subst = land
    for j in range(lo, hi):
        if ab[j, A_KIND] == K_NO_LAND_COST:
            if ab[j, A_DISCOUNT] < 0:
                free_land = True
            else:
                discount += ab[j, A_DISCOUNT]
        elif ab[j, A_KIND] == K_GOLD_FOR_RESOURCE:
            subst |= ab[j, A_RES_MASK]
    return free_land, discount, subst


@hot_outline
def _l_death_abilities(tb, lx, s, ls, p, mask_spots):
    """``Game.death_abilities`` (the production counts the artifacts)."""
    n, _nz, wood, food, crystal, facts = _facts(tb, lx, s, ls, p)
    mask = 0
    for i in range(n):
        if (mask_spots >> s.pc[i, PC_SPOT]) & 1:
            mask |= 1 << i
    lp, gold = death_rewards(tb[0], tb[2], s.pc, n, mask, wood, food, crystal, facts[0], facts[1])
    _score(s, p, LP_AGING, lp)
    s.pi[p, I_GOLD] += gold


# --- checking mode ------------------------------------------------------------------------

#: ``kernel.INVARIANTS`` with the zones counted, then the Legends ones (codes 11..13).
LEGENDS_INVARIANTS = (
    INVARIANTS[0],
    "card conservation: every card id exactly once (piles, packs, hands, kept, spots, zones)",
    *INVARIANTS[2:],
    "an artifact on a spot or a unit in the artifact zone",
    "a building built outside the game's set (5 base + the pair drawn)",
    "an unpaid or still fresh artifact in the zone after the deployment phase",
)
V_CARDS_L = 1
V_ART_PLACE, V_OUT_OF_SET, V_ZONE = 11, 12, 13


# --- one game, many games -------------------------------------------------------------------


def legends_lx(cards: CardSet, tables: LegendsTables) -> tuple:
    """``lx = (xt, lrules, pair_sets, lweights, ldyn)``: ``pair_sets[k, b]`` = 1 when
    building ``b`` is in every player's set of a game that drew pair ``k``
    (``CardSet.building_set``); ``lweights`` = ``policies.legends_weights()`` (the ``LF_*``
    weights); ``ldyn`` = ``evaluate_legends.legends_dyn`` (the steps ``l_value`` computes
    from the kingdom, per unit)."""
    n_pairs = len(cards.building_pairs())
    sets = np.zeros((n_pairs, max(tables.bt.shape[0], 1)), np.int32)
    for k in range(n_pairs):
        for b in cards.building_set(k):
            sets[k, b] = 1
    return (
        np.ascontiguousarray(tables.xt, np.int32),
        np.ascontiguousarray(tables.lrules, np.int32),
        sets,
        np.ascontiguousarray(legends_weights(), np.float64),
        legends_dyn(tables.ut, tables.ab),
    )


# --- the phases and decisions, both variants --------------------------------------------------


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


@hot
def deploy_choice(tb, lx, weights, s, ls, p, n_opt, n_players, n0, others):
    """``Brain.deploy_step``: (index of the deployment step taken, the seat's base sketch).
    Base game: the base sketch (``n0`` pieces, ``others``) is the one the seat's previous
    step left (``_commit_step``); ``n0`` < 0: none yet, sketched here (``_sketch_base``).
    Legends: each step's sketch (``Game.after_move_legends``) with the gold left after the
    canonical payment of everything placed (``_l_step_value``); the seat's sketch is loaded
    and its first pass made once per decision (``l_value``'s ``LV_BASE``)."""
    if n_opt == 1:
        return 0, n0, others
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, n_opt), n0, others
    if lx is None:
        n0, others = _kept_base(tb, s, p, n0, others)
        again = _repeated_units(tb, s, p)
    else:  # here ``others`` holds the sketch's artifacts
        n0, others = _l_base_pass(tb, lx, weights, s, ls, p, n_players)
        again = 0
    best = -np.inf
    chosen = 0
    front_of = -1  # hand card whose placement on the first empty Front spot dominates
    paid_none = -1  # Legends: the gold the payment of what is placed takes (computed once)
    for i in range(n_opt):
        kind, a, b = s.opt[ix(i), 0], s.opt[ix(i), 1], s.opt[ix(i), 2]
        if lx is None:
            if kind == M_PLACE and (again >> a) & 1:
                continue  # an earlier hand card of its unit was offered the same spots first
            empty = kind == M_PLACE and s.sp[p, b, S_CARD] < 0
            if empty and a == front_of and b >= MAX_FRONT:
                continue  # its Back-row twin: not worth more, listed after it (first best)
            v = _step_value(tb, weights, s, p, n0, others, kind, a, b, n_players)
        else:
            v, paid_none = _l_step_value(
                tb, lx, weights, s, ls, p, n0, others, kind, a, b, n_players, paid_none
            )
        best, chosen = first_best(i, v, best, chosen)
        if lx is None:
            front_of = -1
            if empty and b < MAX_FRONT:
                u = tb[4][ix(s.hand[p, ix(a)])]
                if front_first_holds(tb, weights, s, p, u, n0 + 1, n_players):
                    front_of = a
    return chosen, n0, others


@hot
def keep_choice(tb, lx, weights, s, ls, p, n_players, n0, others):
    """``Brain.keep``: 0 = nothing, i = ``hand[i - 1]`` (nothing is valued -inf). Base game:
    from the base sketch the seat's deployment steps left (``deploy_choice``), a repeated
    unit valued once; Legends: every card valued from one base sketch and first pass
    (``_l_base_pass``)."""
    m = s.pi[p, I_HAND_N]
    if m == 0:
        return 0
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, m + 1)  # m + 1 >= 2
    if lx is None:
        n0, others = _kept_base(tb, s, p, n0, others)
        again = _repeated_units(tb, s, p)
    else:  # here ``others`` holds the sketch's artifacts
        n0, others = _l_base_pass(tb, lx, weights, s, ls, p, n_players)
        again = 0
    best = -np.inf
    chosen = 0
    for i in range(1, m + 1):
        if (again >> (i - 1)) & 1:
            continue  # valued as the earlier card of its unit; ties keep the first
        u = tb[4][s.hand[p, i - 1]]
        if lx is None:
            v = _card_value_from(tb, weights, s, p, u, n0, others, n_players)
        else:
            v = _l_card_value(tb, lx, weights, s, ls, p, u, n0, others, n_players)
        if v > best:
            best = v
            chosen = i
    return chosen


@hot_outline  # rare (an ability adding tokens): one compiled copy, not one per call site
def age_target_choice(tb, lx, weights, s, ls, p, n_spots, amount, n_players):
    """``Brain.age_target``: index in ``s.spots[:n_spots]`` of the unit given ``amount``."""
    if n_spots == 1:
        return 0
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, n_spots)
    best = -np.inf
    chosen = 0
    for i in range(n_spots):
        if lx is None:
            n = _load(s, p)
        else:
            n, na = _lsketch(s, ls, p)
        for k in range(n):
            if s.pc[k, PC_SPOT] == s.spots[i]:
                s.pc[k, PC_AGE] += amount
        if lx is None:
            v = _value(tb, weights, s, p, n, s.pi[p, I_GOLD], n_players)
        else:
            v = _lv(tb, lx, weights, s, ls, p, n, na, s.pi[p, I_GOLD], 0, n_players, LV_FULL)
        best, chosen = first_best(i, v, best, chosen)
    return chosen


@hot
def build_choice(tb, lx, weights, s, ls, p, n_opt, n_players):
    """``Brain.build``: 0 = nothing, i = ``s.bopt[i - 1]``. Base game: every option valued
    from one base sketch (``_build_value``); Legends: each option's sketch in full."""
    if n_opt == 0:
        return 0
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, n_opt + 1)
    if lx is None:
        n0, _ = _sketch_base(tb, s, p)
        raised = not _upgrade_pending(tb[0], s.pc, n0)
    best = -np.inf
    chosen = 0
    for i in range(n_opt + 1):
        if lx is None:
            v = _build_value(tb, weights, s, p, n0, i, n_players, raised)
        else:
            n, na = _lsketch(s, ls, p)
            gold = s.pi[p, I_GOLD]
            if i:
                s.bl[s.bopt[i - 1, 0]] = s.bopt[i - 1, 1]
                gold -= s.bopt[i - 1, 3]
            v = _lv(tb, lx, weights, s, ls, p, n, na, gold, 0, n_players, LV_FULL)
        best, chosen = first_best(i, v, best, chosen)
    return chosen


@hot
def heal_choice(tb, lx, weights, s, ls, p, n_save):
    """``Brain.heal``: 0 = nobody, i = the unit on ``s.spots[i - 1]``. A save is worth
    W_SAVE_STRENGTH x (printed strength x turns left) - its death LP - W_GOLD x its gold
    (Legends: the production counts the artifacts)."""
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, n_save + 1)
    if lx is None:
        n = _load(s, p)
        wood, food, crystal = production(tb[0], tb[1], s.pc, n, s.bl)
    else:
        n, nz = _lload(s, ls, p)
        wood, food, crystal = l_production(tb[0], tb[1], lx[0], s.pc, n, s.bl, ls.zx, nz)
    return best_save(tb, weights, s, p, n_save, n, wood, food, crystal)


@hot_outline
def deployment(tb, lx, weights, s, ls, n_players, turn):
    """``Game.deployment``: placements seat by seat. Base game: each seat keeps right after
    its placements, then every seat reveals and pays (``_reveal``). Legends
    (``Game.deployment_legends``): payment in the canonical order (``_pay_order``), the
    deployment tiers (``_tiers``), then the keep."""
    _freeze(tb, lx, s, ls, n_players)
    for p in range(n_players):
        s.pi[p, I_EXTRA] = _opens_extra(tb, s, p)
    for p in range(n_players):
        n0, others = -1, 0  # the seat's base sketch, kept from step to step (base game)
        for _ in range(MAX_DEPLOY_STEPS + 1):
            if lx is None:  # noqa: SIM108 (statements: numba prunes the dead branch)
                n_opt = moves(tb, s, p)
            else:
                n_opt = l_moves(tb, lx, s, ls, p)
            k, n0, others = deploy_choice(tb, lx, weights, s, ls, p, n_opt, n_players, n0, others)
            kind, a, b = s.opt[k, 0], s.opt[k, 1], s.opt[k, 2]
            if kind == M_STOP:
                break
            if lx is None:
                n0 = _commit_step(tb, s, p, n0, others, kind, a, b)
                _apply_move(tb, s, p, kind, a, b)
            else:
                _l_apply_move(tb, lx, s, ls, p, kind, a, b)
        if lx is None:
            _keep_step(tb, lx, weights, s, ls, p, n_players, n0, others)
    if lx is None:
        _reveal(tb, weights, s, n_players, turn)
    else:
        for p in range(n_players):
            _pay_order(tb, lx, s, ls, p, NONE, NONE, True, np.int64(turn))
        _tiers(tb, lx, weights, s, ls, n_players, turn)
        for p in range(n_players):
            _keep_step(tb, lx, weights, s, ls, p, n_players, NONE, NONE)


@hot
def _keep_step(tb, lx, weights, s, ls, p, n_players, n0, others):
    """Seat ``p`` keeps a card of its hand (``keep_choice``) when the rules keep one."""
    if tb[3][R_KEEP]:
        _keep(s, p, keep_choice(tb, lx, weights, s, ls, p, n_players, n0, others))
    else:
        _keep(s, p, 0)


# --- §2.3 Wars, §2.4 Income ---------------------------------------------------------------------


@hot_outline
def wars(tb, lx, s, ls, n_players):
    """``Game.wars``: each seat against its neighbours' strengths, then the war-phase LP and
    gold (Legends: the artifacts count, and their war-phase LP is its own part)."""
    ut, bt, ab, rules = tb[0], tb[1], tb[2], tb[3]
    two = _two(n_players)
    for q in range(n_players):
        if lx is None:
            s.strength[q] = _strength_of(tb, s, q)
        else:
            s.strength[q] = _lassess(tb, lx, s, ls, q)[4]
    for p in range(n_players):
        if lx is None:
            n, facts = _assess_seat(tb, s, p)
        else:
            n, nz = _lload(s, ls, p)
            facts = l_assess(ut, bt, ab, rules, lx[0], s.pc, n, s.bl, ls.zx, nz)
        wood, food, crystal, income, strength, age_all, n_level2, n_strong = facts
        won, lp = _fight_seat(rules, s, p, n_players, strength)
        if lx is None:
            per_war, war_units, war_buildings, gold = war_phase_lp(
                ut, bt, ab, rules, s.pc, n, s.bl, two, won, wood, food, crystal, income,
                age_all, n_level2, n_strong,
            )  # fmt: skip
            _score_wars(s, p, won, lp, per_war, war_units, war_buildings)
        else:
            per_war, war_units, war_buildings, war_arts, gold = l_war_phase_lp(
                ut, bt, ab, rules, lx[0], s.pc, n, s.bl, ls.zx, nz, two, won, wood, food,
                crystal, income, age_all, n_level2, n_strong,
            )  # fmt: skip
            _score_wars(s, p, won, lp, per_war, war_units, war_buildings)
            _lscore(s, ls, p, LP_WAR_ARTIFACTS, war_arts)
        s.pi[p, I_GOLD] += gold
        _settle(tb, s, p)


@hot_outline
def income(tb, lx, s, ls, n_players):
    """``Game.income``: every seat's income (Legends: with the artifacts')."""
    for p in range(n_players):
        if lx is None:
            s.pi[p, I_GOLD] += _assess_seat(tb, s, p)[1][3]
        else:
            s.pi[p, I_GOLD] += _lassess(tb, lx, s, ls, p)[3]


# --- §2.5 Construction ----------------------------------------------------------------------------


@hot_outline
def construction(tb, lx, weights, s, ls, n_players, turn):
    """``Game.construction`` (Legends: over the game's building set, with the Legends land
    terms: ``payment_facts_l``)."""
    bt = tb[1]
    _freeze(tb, lx, s, ls, n_players)
    for p in range(n_players):
        n_opt = 0
        if lx is None:  # noqa: SIM108 (statements: numba prunes the dead branch)
            facts = payment_facts(tb, s, p)
        else:
            facts = payment_facts_l(tb, lx, s, ls, p)
        for b in range(bt.shape[0]):
            if lx is not None:  # noqa: SIM102 (``lx is not None`` alone: pruned in a base game)
                if not ls.inset[b]:
                    continue
            lv = s.blevel[p, b]
            if lv == LEVELS:
                continue
            for level in (1, 2):
                if lv == 1 and level == 1:
                    continue
                upgrade = lv == 1
                n_opt = offer(s, p, n_opt, b, level, upgrade, payment(tb, facts, b, level, upgrade))
        k = build_choice(tb, lx, weights, s, ls, p, n_opt, n_players)
        if not k:
            continue
        b, level, upgrade, gold = (
            s.bopt[k - 1, 0],
            s.bopt[k - 1, 1],
            s.bopt[k - 1, 2],
            s.bopt[k - 1, 3],
        )
        _build(s, p, b, level, upgrade, gold, turn)


# --- §2.6 Aging -------------------------------------------------------------------------------


@hot_outline
def aging(tb, lx, weights, s, ls, n_players):
    """§8 order: Healer choices -> death abilities -> discard -> +1 token to survivors.
    Savers: units (spot order); Legends: then building faces of the set, then artifacts
    (zone order); artifacts never age, they count an Aging survived."""
    ut, bt = tb[0], tb[1]
    for p in range(n_players):
        dying = _dying(tb, s, p)
        saved = 0
        for spot in range(MAX_SPOTS):
            if s.sp[p, spot, S_CARD] >= 0:
                u = s.sp[p, spot, S_UNIT]
                lo = ut[u, U_AB0]
                saved = _heal_source(tb, lx, weights, s, ls, p, lo, lo + ut[u, U_NAB], dying, saved)
        if lx is not None:
            xt = lx[0]
            for b in range(bt.shape[0]):
                if ls.inset[b]:
                    for k in range(s.blevel[p, b]):
                        lo = bt[b, k, B_AB0]
                        hi = lo + bt[b, k, B_NAB]
                        saved = _heal_source(tb, lx, weights, s, ls, p, lo, hi, dying, saved)
            for i in range(ls.zn[p]):
                x = ls.zone[p, i, Z_X]
                lo = xt[x, X_AB0]
                hi = lo + xt[x, X_NAB]
                saved = _heal_source(tb, lx, weights, s, ls, p, lo, hi, dying, saved)
        dead = dying & ~saved
        if lx is None:
            death_abilities(tb, s, p, dead)
        else:
            _l_death_abilities(tb, lx, s, ls, p, dead)
        _die_and_age(tb, s, p, dead, saved)
        if lx is not None:
            for i in range(ls.zn[p]):
                s.log[p, s.card_log[ls.zone[p, i, Z_CARD]], L_SURVIVED] += 1
        _settle(tb, s, p)


@hot
def _heal_source(tb, lx, weights, s, ls, p, lo, hi, dying, saved):
    """The ``heal`` abilities in rows ``lo..hi-1`` of one saver; the new ``saved`` mask."""
    ab = tb[2]
    for j in range(lo, hi):
        if ab[j, A_KIND] != K_HEAL:
            continue
        n_save = 0
        for x in range(MAX_SPOTS):
            if (dying >> x) & 1 and not (saved >> x) & 1 and s.sp[p, x, S_AGE] == ab[j, A_AGE]:
                s.spots[n_save] = x
                n_save += 1
        if n_save:
            k = heal_choice(tb, lx, weights, s, ls, p, n_save)
            if k:
                saved |= 1 << s.spots[k - 1]
    return saved


# --- §2.7 End -------------------------------------------------------------------------------------


@hot_outline
def end(tb, lx, s, ls, n_players):
    """``Game.end``: building LP and the Relic of Wisdom (Legends: the artifacts' end LP, its
    own part), then the winners."""
    ut, bt, ab, rules = tb[0], tb[1], tb[2], tb[3]
    for p in range(n_players):
        if lx is None:
            n, facts = _assess_seat(tb, s, p)
        else:
            n, nz = _lload(s, ls, p)
            facts = l_assess(ut, bt, ab, rules, lx[0], s.pc, n, s.bl, ls.zx, nz)
        wood, food, crystal, _, _, age_all, n_level2, _ = facts
        if lx is None:
            buildings, relic = end_lp(
                ut, bt, ab, s.pc, n, s.bl, 0, wood, food, crystal, age_all, n_level2
            )
            _score(s, p, LP_BUILDINGS, buildings)
            _score(s, p, LP_RELIC, relic)
        else:
            buildings, relic, arts = l_end_lp(
                ut, bt, ab, lx[0], s.pc, n, s.bl, ls.zx, nz, 0, wood, food, crystal, age_all,
                n_level2,
            )  # fmt: skip
            _score(s, p, LP_BUILDINGS, buildings)
            _score(s, p, LP_RELIC, relic)
            _lscore(s, ls, p, LP_ARTIFACTS, arts)
        _settle(tb, s, p)
    _winners(s, n_players)


@hot
def _l_step_value(tb, lx, weights, s, ls, p, n0, na0, kind, a, b, n_players, paid_none):
    """``deploy_choice``'s value of one Legends deployment step (``Brain.deploy_step``):
    its sketch with the gold left after the canonical payment of everything placed (right
    after ``l_moves``, whose per-card payments it reuses). A step changes one row of the
    seat's first pass (a unit moved or placed; none for STOP or an artifact) and is valued
    from that pass with the row's share replaced (``l_option_pass``, ``LV_GIVEN``: in full
    when the sketch projects), the row restored after (``_restore_lrow``). (value, the
    payment of what is placed, once computed)."""
    if kind == M_REMOVE:
        return _remove_value(tb, lx, weights, s, ls, p, n0, na0, a, n_players), paid_none
    U = tb[0].shape[0]
    na = na0
    k = -1  # the row the step changes (n0: a new one)
    u = age = new = 0
    extra = -1
    replace = -1
    if kind == M_MOVE:
        for r in range(n0):
            if s.pc[r, PC_SPOT] == a:
                k = r
        if k >= 0:
            u, age = s.pc[k, PC_UNIT], s.pc[k, PC_AGE]
    elif kind == M_PLACE:
        extra = s.hand[p, a]
        k = n0
        for r in range(n0):
            if s.pc[r, PC_SPOT] == b:
                k = r
        u, new = tb[4][extra], 1
        if s.sp[p, b, S_CARD] >= 0:
            replace = b
    elif kind == M_PLACE_ARTIFACT:
        extra = s.hand[p, a]
        _set_art(ls, na, tb[4][extra] - U, -1)
        na += 1
    if replace >= 0 and not _has_k5(tb[0], tb[2], s.sp[p, replace, S_UNIT]):
        replace = -1  # the same payment (``_replace_ok``)
    if replace >= 0:
        paid = _pay_order(tb, lx, s, ls, p, np.int64(extra), np.int64(replace), False, NONE)[1]
    elif extra >= 0:
        paid = ls.hpaid[a]  # l_moves' payment with hand card ``a``
    else:
        if paid_none < 0:
            paid_none = _pay_order(tb, lx, s, ls, p, NONE, NONE, False, NONE)[1]
        paid = paid_none
    if 0 <= k < n0:
        for c in range(N_PC):
            s.pc0[k, c] = s.pc[k, c]
    n = l_option_pass(tb, lx, s.pc, n0, k, b, u, age, new, s.g[G_TURN], ls.zx)
    if new:
        ls.pdone[k] = -1
    v = _lv(tb, lx, weights, s, ls, p, n, na, s.pi[p, I_GOLD] - paid, 0, n_players, LV_GIVEN)
    _restore_lrow(s, ls, p, n0, k)
    return v, paid_none


# --- checking mode, one game, many games ------------------------------------------------


@hot_outline
def check_state(tb, lx, s, ls, n_players):
    """Code of the first broken rule invariant (``INVARIANTS``; Legends:
    ``LEGENDS_INVARIANTS``), 0 when all hold. Legends: the zones count in the card tally
    and their LP parts in the breakdown, then ``_legends_violation``. Called between
    phases, where every artifact in a zone has been paid and its deployment is over."""
    tally_places(tb, s, n_players)
    if lx is not None:
        for p in range(n_players):
            for i in range(ls.zn[p]):
                s.tally[ls.zone[p, i, Z_CARD]] += 1
    if tally_broken(tb, s):
        return V_CARDS
    for p in range(n_players):
        extra = 0
        if lx is not None:
            for c in range(N_LPARTS):
                extra += ls.lparts[p, c]
        violation = seat_violation(tb, s, p, extra)
        if violation:
            return violation
        if lx is not None:
            violation = _legends_violation(tb, s, ls, p)
            if violation:
                return violation
    return 0


@hot
def _legends_violation(tb, s, ls, p):
    """``V_ART_PLACE``, ``V_OUT_OF_SET`` or ``V_ZONE`` for seat ``p`` (0: none)."""
    U, deck = tb[0].shape[0], tb[4]
    for spot in range(MAX_SPOTS):
        if s.sp[p, spot, S_CARD] >= 0 and deck[s.sp[p, spot, S_CARD]] >= U:
            return V_ART_PLACE
    for i in range(ls.zn[p]):
        if deck[ls.zone[p, i, Z_CARD]] < U:
            return V_ART_PLACE
    for b in range(tb[1].shape[0]):
        if s.blevel[p, b] > 0 and not ls.inset[b]:
            return V_OUT_OF_SET
    for i in range(ls.zn[p]):
        if not ls.zone[p, i, Z_PAID] or ls.zone[p, i, Z_FRESH]:
            return V_ZONE
    return 0


# --- one game ---------------------------------------------------------------------------------


@hot
def _new_legends_game(tb, lx, s, ls, n_players):
    """Legends setup (LEGENDS.md §B.1 step 2): the building pair (always drawn, after the
    shuffle), every seat's empty zone, LP parts, tier bookkeeping and card-log columns."""
    lr = lx[1]
    drawn = rng_below(s.rng, lx[2].shape[0])
    pair = drawn if lr[L_BUILDING_PAIR] < 0 else lr[L_BUILDING_PAIR]
    ls.lg[LG_PAIR] = pair
    for b in range(ls.inset.shape[0]):
        ls.inset[b] = lx[2][pair, b]
    for p in range(n_players):
        ls.zn[p] = 0
        ls.art_gold[p] = 0
        for c in range(N_LPARTS):
            ls.lparts[p, c] = 0
        for spot in range(MAX_SPOTS):
            ls.sx[p, spot, SX_DONE] = -1
            ls.sx[p, spot, SX_SKIP] = 0
        for r in range(MAX_LOGS):
            ls.llog[p, r, LL_COST] = NO_COST
            ls.llog[p, r, LL_HOW] = 0


@hot_outline
def play_game(tb, lx, weights, s, ls, n_players, seed, game_id, check):
    """Play one complete game into ``s`` (Legends: and ``ls``; ``lx`` / ``ls`` are None in a
    base game, where numba prunes every Legends branch), policies already in
    ``s.pi[:, I_POLICY]``. Returns the first broken invariant's code when ``check``, else 0."""
    rules = tb[3]
    _new_game(tb, s, n_players, seed, game_id)
    if lx is not None:
        _new_legends_game(tb, lx, s, ls, n_players)
    violation = 0
    if check:
        violation = check_state(tb, lx, s, ls, n_players)
    for turn in range(1, rules[R_TURNS] + 1):
        s.g[G_TURN] = turn
        for phase in range(6):
            if phase == 0:
                recruitment(tb, weights, s, n_players, turn, lx, ls)
            elif phase == 1:
                deployment(tb, lx, weights, s, ls, n_players, turn)
            elif phase == 2:
                wars(tb, lx, s, ls, n_players)
            elif phase == 3:
                income(tb, lx, s, ls, n_players)
            elif phase == 4:
                construction(tb, lx, weights, s, ls, n_players, turn)
            else:
                aging(tb, lx, weights, s, ls, n_players)
            if check and violation == 0:
                violation = check_state(tb, lx, s, ls, n_players)
    end(tb, lx, s, ls, n_players)
    if check and violation == 0:
        violation = check_state(tb, lx, s, ls, n_players)
    return violation


# --- many games ---------------------------------------------------------------------------


class ChunkOut(NamedTuple):
    """Result buffers of a chunk, indexed by game offset ``i`` (then seat, then row); built
    by ``engine.result_buffers``."""

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


class LChunkOut(NamedTuple):
    """``ChunkOut``'s buffers (``parts`` in the base order) plus the Legends ones."""

    turns: np.ndarray
    reshuffles: np.ndarray
    policy: np.ndarray
    score: np.ndarray
    parts: np.ndarray
    wars_won: np.ndarray
    gold: np.ndarray
    winner: np.ndarray
    n_logs: np.ndarray
    log: np.ndarray
    blog: np.ndarray
    violation: np.ndarray
    overflow: np.ndarray
    lparts: np.ndarray  # int16[n, P, N_LPARTS]: war_artifacts, artifacts
    llog: np.ndarray  # int16[n, P, MAX_LOGS, N_LL]: deploy cost (NO_COST: none), how deployed
    zone_n: np.ndarray  # int8[n, P]: artifacts in the zone at the end
    art_gold: np.ndarray  # int16[n, P]: gold spent on artifacts
    pair: np.ndarray  # int8[n]: the building pair (``CardSet.building_pairs`` index)
    zone: np.ndarray  # int16[n, P, X]: the zone's card ids (entry order; -1: empty)


@alloc  # the block scratch
def _run_block(
    tb, lx, weights, seat_policy, rotate, n_players, seed, first_game, lo, hi, out, check
):
    """Play game offsets ``lo .. hi-1`` of a chunk with one scratch state (Legends: and one
    ``LState``; its card types are the units, then the artifacts)."""
    n_types = tb[0].shape[0]
    if lx is not None:
        n_types += lx[0].shape[0]
    s = _new_state(n_players, tb[4].shape[0], tb[1].shape[0], n_types)
    if lx is None:  # noqa: SIM108 (statements: numba prunes the dead branch)
        ls = None
    else:
        ls = _new_lstate(n_players, tb[1].shape[0])
    nb = tb[1].shape[0]
    for i in range(lo, hi):
        g = first_game + i
        for p in range(n_players):
            s.pi[p, I_POLICY] = seat_policy[(p + g) % n_players] if rotate else seat_policy[p]
        out.violation[i] = play_game(tb, lx, weights, s, ls, n_players, seed, g, check)
        _write_out(s, out, i, n_players, nb)
        if lx is not None:
            _write_legends_out(s, ls, out, i, n_players)


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


@hot
def _write_legends_out(s, ls, out, i, n_players):
    """Game offset ``i``'s Legends results (``LChunkOut``'s own buffers) from ``ls``."""
    out.pair[i] = ls.lg[LG_PAIR]
    for p in range(n_players):
        for c in range(N_LPARTS):
            out.lparts[i, p, c] = ls.lparts[p, c]
        for r in range(s.pi[p, I_LOG_N]):
            for c in range(N_LL):
                out.llog[i, p, r, c] = ls.llog[p, r, c]
        out.zone_n[i, p] = ls.zn[p]
        out.art_gold[i, p] = ls.art_gold[p]
        for z in range(ls.zn[p]):
            out.zone[i, p, z] = ls.zone[p, z, Z_CARD]


@parallel
def simulate_chunk(
    tb, lx, weights, seat_policy, rotate, n_players, seed, first_game, n_games, n_blocks, out,
    check,
):  # fmt: skip
    """Play games ``first_game .. first_game + n_games - 1`` into ``out`` (a ``ChunkOut``;
    Legends: ``lx`` = ``legends_lx``, ``out`` an ``LChunkOut``; ``lx`` None: a base game).
    Blocks of games run in parallel; each block allocates its scratch once. Seat s of
    game g plays ``seat_policy[(s + g) % n]`` if ``rotate``."""
    for b in prange(n_blocks):
        lo = b * n_games // n_blocks
        hi = (b + 1) * n_games // n_blocks
        _run_block(
            tb, lx, weights, seat_policy, rotate, n_players, seed, first_game, lo, hi, out, check
        )
