"""The kernel's state and constants, both variants: ``State`` (a game's scratch) and
``LState`` (a Legends game's, beside it; None in a base game), their field codes, the
result codes, the invariants' names, and the small helpers every phase uses (drawing,
scoring, loading a seat's pieces, assessing a kingdom with or without its artifacts).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simcore.jit import alloc, hot, hot_outline
from simcore.rng import rng_shuffle

from ..evaluate.cache import face_room, fixed_size
from ..evaluate.facts import base_facts, production
from ..evaluate.layout import (
    BC_TERMS,
    MAX_PIECES,
    N_AC,
    N_BS,
    N_PC,
    N_SA,
    N_SX,
    N_Z,
    PC_AGE,
    PC_FRESH,
    PC_PENDING,
    PC_SPOT,
    PC_UNIT,
    Z_PAID,
    Z_X,
)
from ..evaluate.strength import assess, l_assess
from ..evaluate.value import first_pass, kingdom_totals
from ..policies import Policy
from ..schema import K_ART_COST_MODIFIER
from ..tables import (
    DEAL,
    DEAL_2P,
    MAX_ARTIFACTS,
    MAX_BUILD_OPTIONS,
    MAX_CATALOG_BUILDINGS,
    MAX_COPIES,
    MAX_DEPLOY_OPTIONS,
    MAX_FRONT,
    MAX_HAND,
    MAX_PLAYERS,
    MAX_SPOTS,
    R_RESHUFFLE,
    R_SCORE_FLOOR,
    TURNS,
    Target,
    Tier,
)

P_RANDOM = int(Policy.RANDOM)
P_MC = int(Policy.MC)
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
# where the game is (``game._play_on`` resumes there; ``reference.Game.ph`` etc.): the phase
# (0..5 the turn's phases, 6 End, 7 over), whether it has begun, its draft step or the
# deployment steps taken, its seat; the first broken invariant (checking mode)
G_PHASE, G_BEGUN, G_STEP, G_SEAT, G_VIOL = 6, 7, 8, 9, 10
# a game that can search (``search.py``): the option a seat's next searched decision takes
# (a search's choice, a playout's candidate; seat -1: none), and the decision asked
G_FORCE_SEAT, G_FORCE_IDX, G_ASK_SEAT, G_ASK_DEC = 11, 12, 13, 14
N_G = 15
N_PHASES = 6  # G_PHASE of End
# the decisions an mc seat searches (G_ASK_DEC; ``reference.search.DECISIONS``)
D_DRAFT, D_DEPLOY, D_BUILD = 0, 1, 2
ASK = -2  # ``_searched``: the game stops at an mc seat's decision

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
        np.zeros(N_G, np.int32),
        np.zeros(D, np.int32),
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


@hot
def _two(n_players):
    return n_players == 2


@hot
def _draw(tb, s):
    """``Game.draw``: the top card; an empty pile first takes the shuffled discard pile.
    -1 when both are empty."""
    g = s.g
    if g[G_DECK_N] == 0 and tb.rules[R_RESHUFFLE] and g[G_DISC_N] > 0:
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
    """``Game.to_discard``: ``card`` face up on the discard pile."""
    _to_discard_by(s, card, -1)


@hot
def _to_discard_by(s, card, by):
    """``card`` on the discard pile, face down by seat ``by`` (-1: face up)."""
    s.disc[s.g[G_DISC_N]] = card
    s.disc_by[s.g[G_DISC_N]] = by
    s.g[G_DISC_N] += 1


@hot
def _searched(s, p, decision):
    """In a game that can search, seat ``p``'s searched ``decision`` (``D_*``, more than
    one option): the option decided already (``G_FORCE_*``: a search's choice, a playout's
    candidate; taken once), ``ASK`` for an mc seat (the decision is stored at
    ``G_ASK_*``: the game stops there), else -1 (its policy decides)."""
    if s.g[G_FORCE_SEAT] == p:
        s.g[G_FORCE_SEAT] = -1
        return s.g[G_FORCE_IDX]
    if s.pi[p, I_POLICY] == P_MC:
        s.g[G_ASK_SEAT] = p
        s.g[G_ASK_DEC] = decision
        return ASK
    return -1


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
    floor = tb.rules[R_SCORE_FLOOR]
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
        return n, assess(tb.ut, tb.bt, tb.ab, tb.rules, s.pc, n, s.bl)
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
# (Z_* and SX_*, the zone's and the spots' columns, are in evaluate.layout: the
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
    # ``l_value``'s cache of its faces' and artifacts' terms (``evaluate.layout.FX_*``)
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
    return l_assess(tb.ut, tb.bt, tb.ab, tb.rules, lx.xt, s.pc, n, s.bl, ls.zx, nz)


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
    ut, bt = tb.ut, tb.bt
    n, nz = _lload(s, ls, p)
    wood, food, crystal = production(ut, bt, s.pc, n, s.bl, lx.xt, ls.zx, nz)
    age_all, n_level2 = base_facts(bt, s.pc, n, s.bl)
    return n, nz, wood, food, crystal, (age_all, n_level2, 0, 0, nz)


@hot
def _piece_at(s, n, spot):
    """Index of the piece on ``spot`` in ``s.pc[:n]``, -1 if none (``spot`` -1: none)."""
    for i in range(n):
        if spot >= 0 and s.pc[i, PC_SPOT] == spot:
            return i
    return -1


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
