"""The asked seats' game (``play_game_search``, run by ``chunk.simulate_chunk_search``): a
game stops at each decision of an mc or learned seat, ``_search`` plays the options out on
copies of it (mc) or the model answers (``learned.learned_choice``), the game goes on with
the choice; and the same driven from Python (``clone``, ``play_on``, ``search``,
``learned_answer``, ``answer``: the tests and the narration checks)."""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot, hot_outline
from talesim.simcore.learned import pack
from talesim.simcore.rng import rng_next, search_state

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import ix
from ..learned import learned_choice, new_scratch, record_search
from ..mc import copy_state, decision_options, determinize, forget_caches, outcome, rank
from .game import _new_game, _play_on
from .state import GameState, new_state, seat_view


@hot
def _asking(s, n_players):
    """The seat whose decision the game stopped at (its turn is counted)."""
    return (s.meta[L.M_TURN] - 1) % n_players


@hot
def _answer_learned(tb, weights, models, s, x, n_players):
    """Answer the learned seat's decision the game in ``s`` stopped at
    (``learned.learned_choice``, its ``model`` row of ``models``): the game plays on with
    it (``meta[M_ANSWER_*]``)."""
    p = _asking(s, n_players)
    i = learned_choice(tb, weights, models, seat_view(s, p), x, n_players, p)
    s.meta[L.M_ANSWER_IDX] = i
    s.meta[L.M_ANSWER_SEAT] = p


@hot_outline
def _search(tb, weights, models, s, w, c, x, n_players, seed, game_id):
    """The mc decision the game in ``s`` stopped at (``meta[M_STEP]``: the source or the
    action): the ``top`` options best by greedy's value (``mc.decision_options``,
    ``mc.rank``), each played out ``rollouts`` times from the same determinized worlds
    (``w``: a copy of the game, ``mc.determinize``, one world a rollout) by copies (``c``)
    in which every seat plays the ``playout`` policy, the option taken first
    (``meta[M_FORCE_*]``; a learned playout's seats are answered as they ask, from the mc
    seat's ``model`` row, with ``x`` the learned player's scratch). Every random number
    comes from the search stream of (seed, game, seat, decision number), none from the
    game's. The index of the option with the best summed outcome (ties: greedy's first
    best)."""
    p = _asking(s, n_players)
    rollouts = s.mc_par[ix(p), 0]
    top = s.mc_par[ix(p), 1]
    playout = s.mc_par[ix(p), 2]
    number = s.mc_dn[ix(p)]
    s.mc_dn[ix(p)] = number + 1
    v = seat_view(s, p)
    card, n_act, draw = decision_options(tb, v, p)
    hand = card if s.meta[L.M_STEP] == L.STEP_ACTION else -1
    bar = weights[ix(s.policy[ix(p)]), L.W_TAKE_BAR]
    m = rank(tb, weights, v, p, card, n_act, top, draw, bar)
    if m == 1:
        return s.mc_rank[0]
    s.mc_po[ix(p)] += m * rollouts
    for j in range(m):
        s.mc_sum[ix(j)] = 0
    stream = search_state(seed, game_id, p, number)
    no_check = n_players < 0  # False, typed like play_game's check (one _play_on compiled)
    for _ in range(rollouts):
        copy_state(w, s)
        w.meta[L.M_END_REC] = 0
        w.rng[0] = stream
        determinize(w, n_players, hand)
        playout_state = rng_next(w.rng)
        stream = w.rng[0]
        for q in range(n_players):
            w.policy[ix(q)] = playout
            w.model[ix(q)] = s.model[ix(p)]
        forget_caches(w, n_players)
        for j in range(m):
            copy_state(c, w)
            c.rng[0] = playout_state
            c.meta[L.M_FORCE_SEAT] = p
            c.meta[L.M_FORCE_IDX] = s.mc_rank[ix(j)]
            while _play_on(tb, weights, c, n_players, no_check, True):
                _answer_learned(tb, weights, models, c, x, n_players)
            s.mc_sum[ix(j)] += outcome(c, n_players, p)
    best = 0
    for j in range(1, m):
        if s.mc_sum[ix(j)] > s.mc_sum[ix(best)]:
            best = j
    return s.mc_rank[ix(best)]


@hot_outline
def play_game_search(
    tb, weights, models, s, w, c, x, n_players, seed, game_id, check, rec, u
):  # fmt: skip
    """``play_game`` with asked seats: at each of their decisions the game stops; a learned
    seat's is answered by its model (``learned.learned_choice``), an mc seat's searched by
    ``_search`` on copies (``w``, ``c``: states allocated alike; ``x``: the learned
    player's float scratch) and recorded as game offset ``u`` of ``rec``
    (``learned.record_search``: nothing unless the run records); the game plays on with
    that choice. A kernel of its own (``simulate_chunk_search``), so runs of heuristics
    alone never compile the search nor the model."""
    _new_game(tb, s, n_players, seed, game_id, check)
    s.meta[L.M_END_REC] = 1
    s.meta[L.M_ALT] = 0
    for p in range(n_players):
        s.end_vis[ix(p)] = 0
    while _play_on(tb, weights, s, n_players, check, True):
        p = _asking(s, n_players)
        if s.policy[ix(p)] == L.P_LEARNED:
            _answer_learned(tb, weights, models, s, x, n_players)
            continue
        i = _search(tb, weights, models, s, w, c, x, n_players, seed, game_id)
        record_search(tb, seat_view(s, p), x, n_players, p, rec, u)
        s.meta[L.M_FORCE_SEAT] = p
        s.meta[L.M_FORCE_IDX] = i
    return s.meta[L.M_TURN], s.meta[L.M_CAP], s.meta[L.M_VIOL]


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
    """``_play_on`` of the search kernel: True if it stopped at an asked seat's decision
    (mc, learned)."""
    return bool(_resume(tb, weights, s, n_players))


def search(
    tb: tuple,
    weights: np.ndarray,
    s: GameState,
    n_players: int,
    seed: np.uint64,
    game_id: int,
    models: np.ndarray | None = None,
) -> tuple[int, list[int]]:
    """``_search`` of the decision ``s`` stopped at: (the option chosen, the summed outcome
    of each searched option in ``mc.OUTCOME_UNIT``s, greedy's best first, and zeros up to
    ``top`` when fewer were searched; ``s`` as ``clone`` made it: ``mc_sum`` zeroed).
    ``models``: the packed models of learned playouts (``simcore.learned.pack``)."""
    w, c = new_state(n_players, s.deck.shape[0]), new_state(n_players, s.deck.shape[0])
    i = int(_search(tb, weights, _models(models), s, w, c, new_scratch(), n_players, seed, game_id))
    p = (int(s.meta[L.M_TURN]) - 1) % n_players
    top = min(int(s.mc_par[p, 1]), L.MAX_OPTIONS)
    return i, [int(x) for x in s.mc_sum[:top]]


def _models(models: np.ndarray | None) -> np.ndarray:
    return pack(()) if models is None else models


def learned_answer(
    tb: tuple, weights: np.ndarray, models: np.ndarray, s: GameState, n_players: int
) -> int:
    """Answer the learned seat's decision ``s`` stopped at (``_answer_learned``: its model
    row at ``s.model`` of the packed ``models``; then ``play_on`` again); returns the
    option chosen."""
    _answer_learned(tb, weights, models, s, new_scratch(), n_players)
    return int(s.meta[L.M_ANSWER_IDX])


def answer(s: GameState, n_players: int, i: int) -> None:
    """Give the decision ``s`` stopped at the answer ``i`` (then ``play_on`` again)."""
    s.meta[L.M_FORCE_SEAT] = (int(s.meta[L.M_TURN]) - 1) % n_players
    s.meta[L.M_FORCE_IDX] = i
