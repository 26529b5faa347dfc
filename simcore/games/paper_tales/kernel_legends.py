"""Paper Tales, *Ce qui forge les légendes* (``--variant legends``), compiled.

The Legends phases of ``reference.py`` (module docstring, "Legends variant"; LEGENDS.md
§B), game for game: same decisions, options in the same order, same random draws. The
base kernel (``kernel.py``) is not changed in behaviour: this module imports its state,
its helpers and its phases and only re-implements what a Legends game does differently
(the artifact zone, the placement/payment of §2.4, the deployment tiers of §2.5, the
scoring with artifacts: ``evaluate_legends.py``, the game's building set, the new
records). Recruitment is the base phase.

Legends state beside the base ``State`` (``LState``; P seats, S spots, X =
``MAX_ARTIFACTS``): the artifact zone in order of entry, the per-spot tier bookkeeping,
the two new LP parts, the new card-log columns and the game's building set. Tables: the
base kernel tuple ``tb`` (``evaluate.kernel_tables`` of a ``LegendsTables``: ``deck`` holds
card types, ``t >= U`` the artifact ``t - U``) and ``lx`` (``legends_lx``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange

from simcore.jit import alloc, hot, hot_outline, parallel
from simcore.rng import rng_below

from .evaluate import (
    KB_MASK,
    KU_MASK,
    MAX_PIECES,
    N_PC,
    PC_AGE,
    PC_PENDING,
    PC_SPOT,
    PC_UNIT,
    base_facts,
    death_rewards,
    when_holds,
)
from .evaluate_legends import (
    K_ART_COST_MODIFIER,
    K_BUILD_FREE,
    K_CONDITIONAL_GAIN,
    K_DEPLOY_ARTIFACT,
    K_REPEAT_DEPLOY,
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
    l_end_lp,
    l_option_pass,
    l_per,
    l_production,
    l_project,
    l_war_phase_lp,
    legends_dyn,
)
from .kernel import (
    BL_BUILT,
    BL_HOW,
    BL_LEVEL,
    BL_UPGRADED,
    F_IN_PLAY,
    F_REPLACED,
    F_UNPAID,
    G_OVERFLOW,
    G_PENDING_N,
    G_TURN,
    I_EXTRA,
    I_GOLD,
    I_HAND_N,
    I_LOG_N,
    I_LP,
    I_POLICY,
    I_STEP,
    INVARIANTS,
    L_CARD,
    L_DEPLOYED,
    L_FATE,
    L_ROW,
    L_SURVIVED,
    L_TURN_DEPLOYED,
    L_UNIT,
    LP_AGING,
    LP_BUILDINGS,
    LP_DEPLOYMENT,
    LP_RELIC,
    M_MOVE,
    M_PLACE,
    M_REMOVE,
    M_STOP,
    MAX_HAND,
    MAX_LOGS,
    MAX_PENDING,
    P_RANDOM,
    ROW_BACK,
    ROW_FRONT,
    S_AGE,
    S_CARD,
    S_FRESH,
    S_MOVED,
    S_RESOLVED,
    S_UNIT,
    _add_moves,
    _add_opt,
    _apply_move,
    _build,
    _die_and_age,
    _dying,
    _fight_seat,
    _first_empty,
    _is_old,
    _keep,
    _kill,
    _l_base_pass,
    _l_card_value,
    _load,
    _lsketch,
    _lv,
    _new_game,
    _new_state,
    _opens_extra,
    _put,
    _score,
    _score_wars,
    _set_seen,
    _settle,
    _shapeshift_reveal,
    _spot_open,
    _to_discard,
    _upgrade_all,
    _winners,
    _write_out,
    best_save,
    first_best,
    offer,
    payment,
    recruitment,
    seat_violation,
    tally_broken,
    tally_places,
)
from .policies import legends_weights
from .scoring import (
    K_ADD_AGE,
    K_GOLD_FOR_RESOURCE,
    K_HEAL,
    K_LP,
    K_NO_LAND_COST,
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
    A_ON_DEPLOY,
    A_PER,
    A_PHASE,
    A_RES_MASK,
    A_TARGET,
    A_TIER,
    A_TIMES,
    A_WHEN,
    B_AB0,
    B_NAB,
    L_ART_COST_BASE,
    L_ART_COST_FLOOR,
    L_ART_COST_STEP,
    L_BUILDING_PAIR,
    L_DISCOUNT_SAME_PHASE,
    L_SIMULTANEITY_MORE_GOLD,
    LEVELS,
    MAX_AGE,
    MAX_ARTIFACTS,
    MAX_CATALOG_BUILDINGS,
    MAX_DEPLOY_STEPS,
    MAX_FRONT,
    MAX_PLAYERS,
    MAX_SPOTS,
    R_DISCARD_IS_DEATH,
    R_KEEP,
    R_LAND_COST,
    R_SHAPE_FREE,
    R_SHAPE_ON_DEPLOY,
    R_TURNS,
    U_AB0,
    U_COST,
    U_NAB,
    X_AB0,
    X_NAB,
    CardSet,
    LegendsTables,
    Target,
    Tier,
)

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
FATES = (
    "hand",
    "not_deployed",
    "kept",
    "unpaid",
    "replaced",
    "shapeshifted",
    "died",
    "in_play",
    "in_zone",
)  # fmt: skip  (kernel.FATES + in_zone)
F_IN_ZONE = 8
ROWS = ("", "front", "back", "zone")  # kernel.ROWS + zone
ROW_ZONE = 3
HOWS = ("", "build", "direct", "golem", "titan")  # kernel.HOWS + titan
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
def _lfreeze(tb, lx, s, ls, n_players):
    """``Game.freeze_strengths`` with the artifacts."""
    for q in range(n_players):
        s.strength[q] = _lassess(tb, lx, s, ls, q)[4]
    _set_seen(s, n_players)


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
        t = s.spots[age_target_l(tb, lx, weights, s, ls, p, n, amount, n_players)]
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


@hot_outline
def deployment_l(tb, lx, weights, s, ls, n_players, turn):
    """``Game.deployment_legends``: placements seat by seat, payment, tiers, then the keep."""
    _lfreeze(tb, lx, s, ls, n_players)
    for p in range(n_players):
        s.pi[p, I_EXTRA] = _opens_extra(tb, s, p)
    for p in range(n_players):
        for _ in range(MAX_DEPLOY_STEPS + 1):
            n_opt = l_moves(tb, lx, s, ls, p)
            k = deploy_l(tb, lx, weights, s, ls, p, n_opt, n_players)
            if s.opt[k, 0] == M_STOP:
                break
            _l_apply_move(tb, lx, s, ls, p, s.opt[k, 0], s.opt[k, 1], s.opt[k, 2])
    for p in range(n_players):
        _pay_order(tb, lx, s, ls, p, NONE, NONE, True, np.int64(turn))
    _tiers(tb, lx, weights, s, ls, n_players, turn)
    for p in range(n_players):
        _keep(s, p, keep_l(tb, lx, weights, s, ls, p, n_players) if tb[3][R_KEEP] else 0)


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


@hot_outline
def deploy_l(tb, lx, weights, s, ls, p, n_opt, n_players):
    """``Brain.deploy_step`` (Legends): each step's sketch (``Game.after_move_legends``) with
    the gold left after the canonical payment of everything placed (right after
    ``l_moves``, whose per-card payments it reuses). The seat's sketch is loaded and its
    first pass made once (``l_value``'s ``LV_BASE``); a step changes one row of it (a unit
    moved or placed; none for STOP or an artifact) and is valued from that pass with the
    row's share replaced (``l_option_pass``, ``LV_GIVEN``: in full when the sketch
    projects), the row restored after (``_restore_lrow``)."""
    if n_opt == 1:
        return 0
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, n_opt)
    U = tb[0].shape[0]
    best = -np.inf
    chosen = 0
    paid_none = -1  # the gold the payment of what is placed takes (computed once)
    n0, na0 = _l_base_pass(tb, lx, weights, s, ls, p, n_players)
    for i in range(n_opt):
        kind, a, b = s.opt[i, 0], s.opt[i, 1], s.opt[i, 2]
        if kind == M_REMOVE:
            v = _remove_value(tb, lx, weights, s, ls, p, n0, na0, a, n_players)
            best, chosen = first_best(i, v, best, chosen)
            continue
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
        best, chosen = first_best(i, v, best, chosen)
    return chosen


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
def keep_l(tb, lx, weights, s, ls, p, n_players):
    """``Brain.keep`` (Legends): 0 = nothing (-inf), i = ``hand[i - 1]``; every card valued
    from one base sketch and first pass (``_l_base_pass``)."""
    m = s.pi[p, I_HAND_N]
    if m == 0:
        return 0
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, m + 1)
    best = -np.inf
    chosen = 0
    n, na = _l_base_pass(tb, lx, weights, s, ls, p, n_players)
    for i in range(1, m + 1):
        v = _l_card_value(tb, lx, weights, s, ls, p, tb[4][s.hand[p, i - 1]], n, na, n_players)
        if v > best:
            best = v
            chosen = i
    return chosen


@hot_outline
def age_target_l(tb, lx, weights, s, ls, p, n_spots, amount, n_players):
    """``Brain.age_target``: index in ``s.spots[:n_spots]`` of the unit given ``amount``."""
    if n_spots == 1:
        return 0
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, n_spots)
    best = -np.inf
    chosen = 0
    for i in range(n_spots):
        n, na = _lsketch(s, ls, p)
        for k in range(n):
            if s.pc[k, PC_SPOT] == s.spots[i]:
                s.pc[k, PC_AGE] += amount
        v = _lv(tb, lx, weights, s, ls, p, n, na, s.pi[p, I_GOLD], 0, n_players, LV_FULL)
        best, chosen = first_best(i, v, best, chosen)
    return chosen


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


@hot_outline
def _heal_l(tb, lx, weights, s, ls, p, n_save):
    """``Brain.heal`` (``kernel.heal_choice``; the production counts the artifacts)."""
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, n_save + 1)
    n, nz = _lload(s, ls, p)
    wood, food, crystal = l_production(tb[0], tb[1], lx[0], s.pc, n, s.bl, ls.zx, nz)
    return best_save(tb, weights, s, p, n_save, n, wood, food, crystal)


# --- §2.3 Wars, §2.4 Income, §2.5 Construction, §2.6 Aging, §2.7 End ------------------------------


@hot_outline
def wars_l(tb, lx, s, ls, n_players):
    ut, bt, ab, rules = tb[0], tb[1], tb[2], tb[3]
    two = n_players == 2
    for q in range(n_players):
        s.strength[q] = _lassess(tb, lx, s, ls, q)[4]
    for p in range(n_players):
        n, nz = _lload(s, ls, p)
        wood, food, crystal, income, strength, age_all, n_level2, n_strong = l_assess(
            ut, bt, ab, rules, lx[0], s.pc, n, s.bl, ls.zx, nz
        )
        won, lp = _fight_seat(rules, s, p, n_players, strength)
        per_war, war_units, war_buildings, war_arts, gold = l_war_phase_lp(
            ut, bt, ab, rules, lx[0], s.pc, n, s.bl, ls.zx, nz, two, won, wood, food, crystal,
            income, age_all, n_level2, n_strong,
        )  # fmt: skip
        _score_wars(s, p, won, lp, per_war, war_units, war_buildings)
        _lscore(s, ls, p, LP_WAR_ARTIFACTS, war_arts)
        s.pi[p, I_GOLD] += gold
        _settle(tb, s, p)


@hot_outline
def income_l(tb, lx, s, ls, n_players):
    for p in range(n_players):
        s.pi[p, I_GOLD] += _lassess(tb, lx, s, ls, p)[3]


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
def construction_l(tb, lx, weights, s, ls, n_players, turn):
    """``Game.construction`` over the game's building set."""
    bt = tb[1]
    _lfreeze(tb, lx, s, ls, n_players)
    for p in range(n_players):
        n_opt = 0
        facts = payment_facts_l(tb, lx, s, ls, p)
        for b in range(bt.shape[0]):
            lv = s.blevel[p, b]
            if not ls.inset[b] or lv == LEVELS:
                continue
            for level in (1, 2):
                if lv == 1 and level == 1:
                    continue
                upgrade = lv == 1
                gold = payment(tb, facts, b, level, upgrade)
                n_opt = offer(s, p, n_opt, b, level, upgrade, gold)
        k = build_l(tb, lx, weights, s, ls, p, n_opt, n_players)
        if k:
            o = s.bopt[k - 1]
            _build(s, p, o[0], o[1], o[2], o[3], turn)


@hot
def build_l(tb, lx, weights, s, ls, p, n_opt, n_players):
    """``Brain.build`` (Legends): 0 = nothing, i = ``s.bopt[i - 1]``."""
    if n_opt == 0:
        return 0
    if s.pi[p, I_POLICY] == P_RANDOM:
        return rng_below(s.rng, n_opt + 1)
    best = -np.inf
    chosen = 0
    for i in range(n_opt + 1):
        n, na = _lsketch(s, ls, p)
        gold = s.pi[p, I_GOLD]
        if i:
            s.bl[s.bopt[i - 1, 0]] = s.bopt[i - 1, 1]
            gold -= s.bopt[i - 1, 3]
        v = _lv(tb, lx, weights, s, ls, p, n, na, gold, 0, n_players, LV_FULL)
        best, chosen = first_best(i, v, best, chosen)
    return chosen


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
            k = _heal_l(tb, lx, weights, s, ls, p, n_save)
            if k:
                saved |= 1 << s.spots[k - 1]
    return saved


@hot_outline
def aging_l(tb, lx, weights, s, ls, n_players):
    """``Game.aging`` (Legends): savers are units (spot order), building faces of the set,
    then artifacts (zone order); artifacts never age, they count an Aging survived."""
    ut, bt, xt = tb[0], tb[1], lx[0]
    for p in range(n_players):
        dying = _dying(tb, s, p)
        saved = 0
        for spot in range(MAX_SPOTS):
            if s.sp[p, spot, S_CARD] >= 0:
                u = s.sp[p, spot, S_UNIT]
                lo = ut[u, U_AB0]
                saved = _heal_source(tb, lx, weights, s, ls, p, lo, lo + ut[u, U_NAB], dying, saved)
        for b in range(bt.shape[0]):
            if ls.inset[b]:
                for k in range(s.blevel[p, b]):
                    lo = bt[b, k, B_AB0]
                    hi = lo + bt[b, k, B_NAB]
                    saved = _heal_source(tb, lx, weights, s, ls, p, lo, hi, dying, saved)
        for i in range(ls.zn[p]):
            x = ls.zone[p, i, Z_X]
            lo = xt[x, X_AB0]
            saved = _heal_source(tb, lx, weights, s, ls, p, lo, lo + xt[x, X_NAB], dying, saved)
        dead = dying & ~saved
        _l_death_abilities(tb, lx, s, ls, p, dead)
        _die_and_age(tb, s, p, dead, saved)
        for i in range(ls.zn[p]):
            s.log[p, s.card_log[ls.zone[p, i, Z_CARD]], L_SURVIVED] += 1
        _settle(tb, s, p)


@hot_outline
def end_l(tb, lx, s, ls, n_players):
    ut, bt, ab, rules = tb[0], tb[1], tb[2], tb[3]
    for p in range(n_players):
        n, nz = _lload(s, ls, p)
        wood, food, crystal, _, _, age_all, n_level2, _ = l_assess(
            ut, bt, ab, rules, lx[0], s.pc, n, s.bl, ls.zx, nz
        )
        buildings, relic, arts = l_end_lp(
            ut, bt, ab, lx[0], s.pc, n, s.bl, ls.zx, nz, 0, wood, food, crystal, age_all, n_level2
        )
        _score(s, p, LP_BUILDINGS, buildings)
        _score(s, p, LP_RELIC, relic)
        _lscore(s, ls, p, LP_ARTIFACTS, arts)
        _settle(tb, s, p)
    _winners(s, n_players)


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


@hot_outline
def check_state_l(tb, lx, s, ls, n_players):
    """``kernel.check_state`` of a Legends game: the base invariants with the zones in the
    card count and the Legends LP parts in the breakdown, then ``V_ART_PLACE``,
    ``V_OUT_OF_SET`` and ``V_ZONE``. Called between phases, where every artifact in a
    zone has been paid and its deployment is over (unpaid ones were discarded)."""
    U, deck = tb[0].shape[0], tb[4]
    tally_places(tb, s, n_players)
    for p in range(n_players):
        for i in range(ls.zn[p]):
            s.tally[ls.zone[p, i, Z_CARD]] += 1
    if tally_broken(tb, s):
        return V_CARDS_L
    for p in range(n_players):
        extra = 0
        for c in range(N_LPARTS):
            extra += ls.lparts[p, c]
        violation = seat_violation(tb, s, p, extra)
        if violation:
            return violation
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


# --- one game, many games -------------------------------------------------------------------


@hot_outline
def play_game_l(tb, lx, weights, s, ls, n_players, seed, game_id, check):
    """Play one Legends game into ``s`` / ``ls`` (policies already in ``s.pi``). Returns the
    first broken invariant's code (``LEGENDS_INVARIANTS``) when ``check``, else 0."""
    rules, lr = tb[3], lx[1]
    _new_game(tb, s, n_players, seed, game_id)
    drawn = rng_below(s.rng, lx[2].shape[0])  # LEGENDS.md §B.1 step 2: always drawn
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
    violation = 0
    if check:
        violation = check_state_l(tb, lx, s, ls, n_players)
    for turn in range(1, rules[R_TURNS] + 1):
        s.g[G_TURN] = turn
        for phase in range(6):
            if phase == 0:
                recruitment(tb, weights, s, n_players, turn, lx, ls)
            elif phase == 1:
                deployment_l(tb, lx, weights, s, ls, n_players, turn)
            elif phase == 2:
                wars_l(tb, lx, s, ls, n_players)
            elif phase == 3:
                income_l(tb, lx, s, ls, n_players)
            elif phase == 4:
                construction_l(tb, lx, weights, s, ls, n_players, turn)
            else:
                aging_l(tb, lx, weights, s, ls, n_players)
            if check and violation == 0:
                violation = check_state_l(tb, lx, s, ls, n_players)
    end_l(tb, lx, s, ls, n_players)
    if check and violation == 0:
        violation = check_state_l(tb, lx, s, ls, n_players)
    return violation


class LChunkOut(NamedTuple):
    """``kernel.ChunkOut``'s buffers (``parts`` in the base order) plus the Legends ones."""

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
    zone: np.ndarray  # int16[n, P, X]: the zone's card ids (entry order)


def new_chunk_out(n_games: int, n_players: int, n_buildings: int) -> LChunkOut:
    from .kernel import new_chunk_out as base_out

    n, P = n_games, n_players
    return LChunkOut(
        *base_out(n_games, n_players, n_buildings),
        np.zeros((n, P, N_LPARTS), np.int16),
        np.zeros((n, P, MAX_LOGS, N_LL), np.int16),
        np.zeros((n, P), np.int8),
        np.zeros((n, P), np.int16),
        np.zeros(n, np.int8),
        np.full((n, P, MAX_ARTIFACTS), -1, np.int16),
    )


@alloc
def _run_block_l(
    tb, lx, weights, seat_policy, rotate, n_players, seed, first_game, lo, hi, out, check
):
    """Play game offsets ``lo .. hi-1`` of a chunk with one scratch state."""
    n_types = tb[0].shape[0] + lx[0].shape[0]
    s = _new_state(n_players, tb[4].shape[0], tb[1].shape[0], n_types)
    ls = _new_lstate(n_players, tb[1].shape[0])
    nb = tb[1].shape[0]
    for i in range(lo, hi):
        g = first_game + i
        for p in range(n_players):
            s.pi[p, I_POLICY] = seat_policy[(p + g) % n_players] if rotate else seat_policy[p]
        out.violation[i] = play_game_l(tb, lx, weights, s, ls, n_players, seed, g, check)
        _write_out(s, out, i, n_players, nb)
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
def simulate_chunk_l(
    tb, lx, weights, seat_policy, rotate, n_players, seed, first_game, n_games, n_blocks, out,
    check,
):  # fmt: skip
    """``kernel.simulate_chunk`` for Legends games (``check``: checking mode)."""
    for b in prange(n_blocks):
        lo = b * n_games // n_blocks
        hi = (b + 1) * n_games // n_blocks
        _run_block_l(
            tb, lx, weights, seat_policy, rotate, n_players, seed, first_game, lo, hi, out, check
        )


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
