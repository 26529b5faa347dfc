"""One game (``play_game``) and many (``simulate_chunk``: ``prange`` over blocks
of games), both variants: a base game passes ``lx`` = None and gets ``ls`` = None, and
numba prunes every Legends branch at compile time. The result buffers' layout
(``ChunkOut``, ``LChunkOut``; built by ``engine.result_buffers``) and ``legends_lx``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange

from talesim.simcore.jit import alloc_callee, block_bounds, hot, hot_outline, parallel
from talesim.simcore.rng import rng_below, rng_shuffle, rng_start

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..evaluate.records import legends_dyn
from ..policies import legends_weights
from ..tables import CardSet, LegendsTables
from .aging import aging
from .construction import construction
from .deployment import deployment
from .end import check_state, end
from .recruitment import recruitment
from .state import _new_lstate, _new_state
from .wars import income, wars


@hot
def _new_game(tb, s, n_players, seed, game_id):
    """Setup (``Game.setup`` step 1): the game's stream, every seat's start, the draw pile
    shuffled (policies already in ``s.pi[:, I_POLICY]``, a learned seat's model row in
    ``s.pi[:, I_MODEL]``)."""
    rules, deck = tb.rules, tb.deck
    rng_start(s.rng, seed, game_id)
    D = deck.shape[0]
    for k in range(L.N_G):
        s.g[k] = 0
    for p in range(n_players):
        for k in range(L.N_PI):
            if k != L.I_POLICY and k != L.I_MODEL:
                s.pi[p, k] = 0
        s.pi[p, L.I_GOLD] = rules[L.R_START_GOLD]
        s.pi[p, L.I_KEPT] = -1
        for k in range(L.N_PARTS):
            s.parts[p, k] = 0
        for spot in range(L.MAX_SPOTS):
            for c in range(L.N_SP):
                s.sp[p, spot, c] = -1 if c <= L.S_UNIT else 0
        for b in range(s.blevel.shape[1]):
            s.blevel[p, b] = 0
            for c in range(L.N_BLOG):
                s.blog[p, b, c] = 0
    for c in range(D):
        s.deck[c] = c
    s.g[L.G_DECK_N] = D
    rng_shuffle(s.rng, s.deck, D)


class LegendsArgs(NamedTuple):
    """The kernel's Legends tables ``lx`` (None in a base game), read by name."""

    xt: np.ndarray  # int32[X, N_XCOLS]: artifacts, columns X_*
    lrules: np.ndarray  # int32[N_LRULES]: the Legends switches L_*
    pair_sets: np.ndarray  # int32[pairs, B]: 1 when building b is in pair k's sets
    lweights: np.ndarray  # float64[policies, N_LF]: the LF_* weights, a row per policy code
    ldyn: np.ndarray  # int32: ``evaluate.records.legends_dyn``, per unit


def legends_lx(cards: CardSet, tables: LegendsTables) -> LegendsArgs:
    """``lx``: ``pair_sets[k, b]`` = 1 when building ``b`` is in every player's set of a
    game that drew pair ``k`` (``CardSet.building_set``); ``lweights`` =
    ``policies.legends_weights()`` (the ``LF_*`` weights); ``ldyn`` =
    ``evaluate.records.legends_dyn`` (the steps ``l_value`` computes from the kingdom, per
    unit)."""
    n_pairs = len(cards.building_pairs())
    sets = np.zeros((n_pairs, max(tables.bt.shape[0], 1)), np.int32)
    for k in range(n_pairs):
        for b in cards.building_set(k):
            sets[k, b] = 1
    return LegendsArgs(
        np.ascontiguousarray(tables.xt, np.int32),
        np.ascontiguousarray(tables.lrules, np.int32),
        sets,
        np.ascontiguousarray(legends_weights(), np.float64),
        legends_dyn(tables.ut, tables.ab),
    )


@hot
def _new_legends_game(tb, lx, s, ls, n_players):
    """Legends setup (LEGENDS.md §B.1 step 2): the building pair (always drawn, after the
    shuffle), every seat's empty zone, LP parts, tier bookkeeping and card-log columns."""
    lr = lx.lrules
    drawn = rng_below(s.rng, lx.pair_sets.shape[0])
    pair = drawn if lr[L.L_BUILDING_PAIR] < 0 else lr[L.L_BUILDING_PAIR]
    ls.lg[L.LG_PAIR] = pair
    for b in range(ls.inset.shape[0]):
        ls.inset[b] = lx.pair_sets[pair, b]
    for p in range(n_players):
        ls.zn[p] = 0
        ls.art_gold[p] = 0
        for c in range(L.N_LPARTS):
            ls.lparts[p, c] = 0
        for spot in range(L.MAX_SPOTS):
            ls.sx[p, spot, L.SX_DONE] = -1
            ls.sx[p, spot, L.SX_SKIP] = 0
        for r in range(L.MAX_LOGS):
            ls.llog[p, r, L.LL_COST] = L.NO_COST
            ls.llog[p, r, L.LL_HOW] = 0


@hot
def _play_on(tb, lx, weights, s, ls, n_players, check, search):
    """Play from where the game is (``G_PHASE`` of turn ``G_TURN``; a begun phase resumes at
    its ``G_STEP`` / ``G_SEAT``) to the end: the turn's six phases, then End.
    ``reference.Game.play_on``. Checking mode: the first broken invariant after each phase
    into ``G_VIOL``. ``search`` (a compile-time constant): a game that can stop at an mc
    seat's decision (``state._searched``); returns True when it stopped there (call again
    once ``G_FORCE_*`` holds the choice), False at the end. Without ``search`` the
    phases compile without their resume and stop code."""
    rules = tb.rules
    while s.g[L.G_PHASE] <= L.N_PHASES:
        phase = s.g[L.G_PHASE]
        turn = s.g[L.G_TURN]
        if phase == 0:
            if recruitment(tb, weights, s, n_players, turn, lx, ls, search) and search:
                return True
        elif phase == 1:
            if deployment(tb, lx, weights, s, ls, n_players, turn, search) and search:
                return True
        elif phase == 2:
            wars(tb, lx, s, ls, n_players)
        elif phase == 3:
            income(tb, lx, s, ls, n_players)
        elif phase == 4:
            if construction(tb, lx, weights, s, ls, n_players, turn, search) and search:
                return True
        elif phase == 5:
            aging(tb, lx, weights, s, ls, n_players)
        else:
            end(tb, lx, s, ls, n_players)
        if check and s.g[L.G_VIOL] == 0:
            s.g[L.G_VIOL] = check_state(tb, lx, s, ls, n_players)
        s.g[L.G_BEGUN] = 0
        s.g[L.G_STEP] = 0
        s.g[L.G_SEAT] = 0
        s.g[L.G_PHASE] = phase + 1
        if phase + 1 == L.N_PHASES and turn < rules[L.R_TURNS]:
            s.g[L.G_TURN] = turn + 1
            s.g[L.G_PHASE] = 0
    return False


@hot_outline
def play_game(tb, lx, weights, s, ls, n_players, seed, game_id, check):
    """Play one complete game into ``s`` (Legends: and ``ls``; ``lx`` / ``ls`` are None in a
    base game, where numba prunes every Legends branch), policies already in
    ``s.pi[:, I_POLICY]``; no seat searches. Returns the first broken invariant's code when
    ``check``, else 0."""
    new_game(tb, lx, s, ls, n_players, seed, game_id, check)
    _play_on(tb, lx, weights, s, ls, n_players, check, False)
    return s.g[L.G_VIOL]


@hot
def new_game(tb, lx, s, ls, n_players, seed, game_id, check):
    """Setup (``Game.setup``; Legends: and its pair and zones), turn 1 next, nothing
    forced; checking mode: the setup checked."""
    _new_game(tb, s, n_players, seed, game_id)
    if lx is not None:
        _new_legends_game(tb, lx, s, ls, n_players)
    if check:
        s.g[L.G_VIOL] = check_state(tb, lx, s, ls, n_players)
    s.g[L.G_TURN] = 1
    s.g[L.G_FORCE_SEAT] = -1
    s.g[L.G_ANSWER_SEAT] = -1


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


@alloc_callee  # the block scratch
def _run_block(
    tb, lx, weights, seat_policy, rotate, n_players, seed, first_game, lo, hi, out, check
):
    """Play game offsets ``lo .. hi-1`` of a chunk with one scratch state (Legends: and one
    ``LState``; its card types are the units, then the artifacts)."""
    n_types = tb.ut.shape[0]
    if lx is not None:
        n_types += lx.xt.shape[0]
    s = _new_state(n_players, tb.deck.shape[0], tb.bt.shape[0], n_types)
    if lx is None:  # noqa: SIM108 (statements: numba prunes the dead branch)
        ls = None
    else:
        ls = _new_lstate(n_players, tb.bt.shape[0])
    nb = tb.bt.shape[0]
    for i in range(lo, hi):
        g = first_game + i
        for p in range(n_players):
            s.pi[p, L.I_POLICY] = seat_policy[(p + g) % n_players] if rotate else seat_policy[p]
        out.violation[i] = play_game(tb, lx, weights, s, ls, n_players, seed, g, check)
        _write_out(s, out, i, n_players, nb)
        if lx is not None:
            _write_legends_out(s, ls, out, i, n_players)


@hot
def _write_out(s, out, i, n_players, nb):
    """Game offset ``i``'s results from the finished state ``s`` into ``out``."""
    out.turns[i] = s.g[L.G_TURN]
    out.reshuffles[i] = s.g[L.G_RESHUFFLES]
    out.overflow[i] = s.g[L.G_OVERFLOW] != 0
    for p in range(n_players):
        out.policy[i, p] = s.pi[p, L.I_POLICY]
        out.score[i, p] = s.pi[p, L.I_LP]
        out.wars_won[i, p] = s.pi[p, L.I_WARS]
        out.gold[i, p] = s.pi[p, L.I_GOLD]
        out.winner[i, p] = s.pi[p, L.I_WINNER] != 0
        for k in range(L.N_PARTS):
            out.parts[i, p, k] = s.parts[p, k]
        m = s.pi[p, L.I_LOG_N]
        out.n_logs[i, p] = m
        for r in range(m):
            for c in range(1, L.N_LOG):
                out.log[i, p, r, c - 1] = s.log[p, r, c]
        for b in range(nb):
            for c in range(L.N_BLOG):
                out.blog[i, p, b, c] = s.blog[p, b, c]


@hot
def _write_legends_out(s, ls, out, i, n_players):
    """Game offset ``i``'s Legends results (``LChunkOut``'s own buffers) from ``ls``."""
    out.pair[i] = ls.lg[L.LG_PAIR]
    for p in range(n_players):
        for c in range(L.N_LPARTS):
            out.lparts[i, p, c] = ls.lparts[p, c]
        for r in range(s.pi[p, L.I_LOG_N]):
            for c in range(L.N_LL):
                out.llog[i, p, r, c] = ls.llog[p, r, c]
        out.zone_n[i, p] = ls.zn[p]
        out.art_gold[i, p] = ls.art_gold[p]
        for z in range(ls.zn[p]):
            out.zone[i, p, z] = ls.zone[p, z, L.Z_CARD]


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
        lo, hi = block_bounds(b, n_games, n_blocks)
        _run_block(
            tb, lx, weights, seat_policy, rotate, n_players, seed, first_game, lo, hi, out, check
        )
