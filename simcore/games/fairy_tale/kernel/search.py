"""The asked seats' game (``_play_game_search``, run by ``chunk.simulate_chunk_search``): a
game stops at each decision of an ``mc`` or learned seat, ``_search`` plays the options out
on copies of it (mc) or the model answers (``learned.learned_choice``), the game goes on
with the choice; and the same driven from Python (``play_game``, ``new_game``,
``play_on``, ``search``, ``learned_answer``, ``answer``: the tests and tools).
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot, hot_outline
from talesim.simcore.learned import Record, no_record, pack
from talesim.simcore.rng import rng_next, search_state

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import ix
from ..learned import learned_choice, new_scratch, record_search
from ..mc import OUTCOME_UNIT, determinize, outcome, rank, rewind_step
from .decide import _seat_modes
from .draft import _new_game
from .game import _play_on
from .state import GameState, kernel_tables


@hot
def _copy_game(st, sm, st_to, sm_to, size):
    """Copy the game in ``st[:size]`` / ``sm`` into ``st_to`` / ``sm_to`` (a search's world or
    playout: ``size`` = ``STATE_FIXED`` + the deck size)."""
    for i in range(size):
        st_to[ix(i)] = st[ix(i)]
    for i in range(L.SM_SIZE):
        sm_to[ix(i)] = sm[ix(i)]


@hot
def _answer_learned(kt, models, st, sm, x, n_players):
    """Answer the learned seat's decision asked at ``ASK_*`` (``learned.learned_choice``):
    the game plays on with it (``ANSWER_*``)."""
    st[ix(L.ANSWER_IDX)] = learned_choice(kt, models, st, sm, x, n_players)
    st[ix(L.ANSWER_SEAT)] = st[ix(L.ASK_SEAT)]


@hot_outline
def _search(kt, weights, models, st, sm, stw, smw, stp, smp, x, n_players, seed, game_id):
    """The ``mc`` decision asked at ``ASK_*`` (``mc.py``): the ``top`` distinct candidates
    best by greedy's value (``mc.rank``), each played out ``rollouts`` times from the same
    determinized worlds (``stw``/``smw``: ``mc.rewind_step`` and ``mc.determinize`` on a
    copy of the game, one world a rollout) by copies (``stp``/``smp``) in which every seat
    plays the ``playout`` policy, the candidate taken first (``FORCE_*``; a learned
    playout's seats are answered as they ask, from the mc seat's ``MODEL`` row). Every
    random number comes from the search stream of (seed, game, seat, decision number),
    none from the game's. The index of the candidate with the best summed outcome (ties:
    greedy's first best)."""
    p = np.int64(st[ix(L.ASK_SEAT)])  # int64, as the decisions' own seat: no new specialisation
    rollouts = st[ix(L.MC_PAR + p * 3)]
    playout = st[ix(L.MC_PAR + p * 3 + 2)]
    number = st[ix(L.MC_DN + p)]
    st[ix(L.MC_DN + p)] = number + 1
    m = rank(
        kt,
        weights,
        st,
        sm,
        st[ix(L.ASK_DEC)],
        st[ix(L.ASK_CAND)],
        st[ix(L.ASK_N)],
        n_players,
        p,
        st[ix(L.ASK_HYP)] == 1,
        st[ix(L.ASK_NEIGH)],
        st[ix(L.MC_PAR + p * 3 + 1)],
    )
    if m == 1:
        return st[ix(L.MC_RANK)]
    st[ix(L.MC_PO + p)] += m * rollouts
    size = L.STATE_FIXED + kt[ix(L.K_DECK_SIZE)]
    for j in range(m):
        st[ix(L.MC_SUM + j)] = 0
    stream = search_state(seed, game_id, p, number)
    no_check = n_players < 0  # False, typed like _play_game's check (one _play_on compiled)
    for _ in range(rollouts):
        _copy_game(st, sm, stw, smw, size)
        smw[ix(L.SM_RNG)] = stream
        rewind_step(stw, n_players, p)
        determinize(kt, stw, smw, n_players, p)
        playout_state = rng_next(smw)
        stream = smw[ix(L.SM_RNG)]
        for q in range(n_players):
            stw[ix(L.POLICY + q)] = playout
            stw[ix(L.MODEL + q)] = st[ix(L.MODEL + p)]
        _seat_modes(weights, stw, n_players)
        for j in range(m):
            _copy_game(stw, smw, stp, smp, size)
            smp[ix(L.SM_RNG)] = playout_state
            stp[ix(L.FORCE_SEAT)] = p
            stp[ix(L.FORCE_IDX)] = st[ix(L.MC_RANK + j)]
            while _play_on(kt, weights, stp, smp, n_players, no_check, True):
                _answer_learned(kt, models, stp, smp, x, n_players)
            st[ix(L.MC_SUM + j)] += outcome(stp, n_players, p)
    best = 0
    for j in range(1, m):
        if st[ix(L.MC_SUM + j)] > st[ix(L.MC_SUM + best)]:
            best = j
    return st[ix(L.MC_RANK + best)]


@hot_outline
def _play_game_search(
    kt, weights, models, st, sm, stw, smw, stp, smp, x, n_players, seed, game_id, check, rec, u
):  # fmt: skip
    """``_play_game`` with asked seats: at each of their decisions the game stops; a
    learned seat's is answered by its model (``learned.learned_choice``), an ``mc`` seat's
    searched by ``_search`` on copies (``stw``/``smw``, ``stp``/``smp``: scratch of the
    same sizes; ``x``: the learned player's float scratch) and recorded as game offset
    ``u`` of ``rec`` (``learned.record_search``: nothing unless the run records); the game
    plays on with that choice. A kernel of its own (``simulate_chunk_search``), so runs of
    heuristics alone never compile the search nor the model."""
    _new_game(kt, weights, st, sm, n_players, seed, game_id)
    while _play_on(kt, weights, st, sm, n_players, check, True):
        p = st[ix(L.ASK_SEAT)]
        if st[ix(L.POLICY + p)] == L.P_LEARNED:
            _answer_learned(kt, models, st, sm, x, n_players)
            continue
        i = _search(kt, weights, models, st, sm, stw, smw, stp, smp, x, n_players, seed, game_id)
        m = st[ix(L.MC_PAR + p * 3 + 1)]
        rollouts = st[ix(L.MC_PAR + p * 3)]
        record_search(kt, st, sm, x, n_players, m, rollouts, OUTCOME_UNIT, rec, u)
        st[ix(L.FORCE_SEAT)] = p
        st[ix(L.FORCE_IDX)] = i
    return st[ix(L.POS_VIOL)]


@hot_outline
def _resume(kt, weights, st, sm, n_players):
    """``_play_on`` of a game that can stop and resume (``search``), as ``_search`` and
    ``_play_game_search`` compile it, without checking: the entry of ``play_on``."""
    return _play_on(kt, weights, st, sm, n_players, n_players < 0, True)


def play_game(
    tb: tuple,
    weights: np.ndarray,
    s: GameState,
    n_players: int,
    seed: np.uint64,
    game_id: int,
    check: bool,
    models: np.ndarray | None = None,
    rec: Record | None = None,
) -> int:
    """``_play_game_search`` on a ``GameState`` (tables as the ``Tables`` tuple; policies at
    ``s.policy``, an mc seat's parameters at ``s.mc_par``, a learned seat's model row of
    ``models`` (``simcore.learned.pack``) at ``s.model``; ``rec``: record the searches as
    game offset 0)."""
    stw, smw = np.zeros_like(s.flat), np.zeros_like(s.sm)
    stp, smp = np.zeros_like(s.flat), np.zeros_like(s.sm)
    return int(
        _play_game_search(
            kernel_tables(tb), weights, _models(models), s.flat, s.sm, stw, smw, stp, smp,
            new_scratch(), n_players, seed, game_id, check, rec or no_record(), 0,
        )
    )  # fmt: skip


def _models(models: np.ndarray | None) -> np.ndarray:
    return pack(()) if models is None else models


def new_game(
    tb: tuple, weights: np.ndarray, s: GameState, n_players: int, seed: np.uint64, game_id: int
) -> None:
    """``_new_game`` on a ``GameState`` (policies at ``s.policy``)."""
    _new_game(kernel_tables(tb), weights, s.flat, s.sm, n_players, seed, game_id)


def play_on(tb: tuple, weights: np.ndarray, s: GameState, n_players: int) -> bool:
    """``_play_on`` on a ``GameState``: True if it stopped at an mc seat's decision."""
    return bool(_resume(kernel_tables(tb), weights, s.flat, s.sm, n_players))


def search(
    tb: tuple,
    weights: np.ndarray,
    s: GameState,
    n_players: int,
    seed: np.uint64,
    game_id: int,
    models: np.ndarray | None = None,
) -> tuple[int, list[int]]:
    """``_search`` of the decision ``s`` stopped at: (the candidate chosen, each searched
    candidate's summed outcome in ``mc.OUTCOME_UNIT``s, in greedy's order)."""
    stw, smw = np.zeros_like(s.flat), np.zeros_like(s.sm)
    stp, smp = np.zeros_like(s.flat), np.zeros_like(s.sm)
    i = _search(
        kernel_tables(tb), weights, _models(models), s.flat, s.sm, stw, smw, stp, smp,
        new_scratch(), n_players, seed, game_id,
    )  # fmt: skip
    cand, n, top = (
        int(s.flat[L.ASK_CAND]),
        int(s.flat[L.ASK_N]),
        int(s.mc_par[s.flat[L.ASK_SEAT], 1]),
    )
    m = min(top, len(set(s.flat[cand : cand + n].tolist())))
    return int(i), [int(x) for x in s.flat[L.MC_SUM : L.MC_SUM + m]]


def learned_answer(tb: tuple, models: np.ndarray, s: GameState, n_players: int) -> int:
    """The learned seat's choice at the decision ``s`` stopped at (``learned_choice``; its
    model row at ``s.model`` of the packed ``models``)."""
    return int(learned_choice(kernel_tables(tb), models, s.flat, s.sm, new_scratch(), n_players))


def answer(s: GameState, i: int) -> None:
    """Give the decision ``s`` stopped at the answer ``i`` (then ``play_on`` again)."""
    s.flat[L.FORCE_SEAT] = s.flat[L.ASK_SEAT]
    s.flat[L.FORCE_IDX] = i
