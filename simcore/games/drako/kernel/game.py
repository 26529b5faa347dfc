"""One compiled game: ``_new_game``, the resumable ``_play_on``, ``play_game`` (heuristic
seats)."""

from __future__ import annotations

from talesim.simcore.jit import hot, hot_outline
from talesim.simcore.rng import rng_start

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import ix
from ..mc import forget_caches
from .end import _record_end, check_final, check_state, final_scoring
from .setup import setup
from .turn import take_turn

# --- one game ------------------------------------------------------------------------------


@hot
def _new_game(tb, s, n_players, seed, game_id, check):
    """A new game in ``s`` (seats already set: ``policy``, ``slot``, ``mc_par``, ``model``):
    setup done, the position at seat 0's first turn; with ``check``, ``meta[M_VIOL]`` holds
    the first invariant broken by the setup (``INVARIANTS``), else 0."""
    rng_start(s.rng, seed, game_id)
    for p in range(n_players):
        s.claim_n[ix(p)] = 0
        s.turns[ix(p)] = 0
        s.ended[ix(p)] = 0
        s.mc_dn[ix(p)] = 0
        s.mc_po[ix(p)] = 0
    for i in range(L.N_LEGENDS):
        s.river[ix(i)] = -1
    s.meta[L.M_TURN] = 0
    setup(tb, s, n_players)
    forget_caches(s, n_players)
    s.meta[L.M_STEP] = L.STEP_TURN
    s.meta[L.M_FORCE_SEAT] = -1
    s.meta[L.M_ANSWER_SEAT] = -1
    s.meta[L.M_CAP] = 0
    s.meta[L.M_VIOL] = 0
    if check:
        s.meta[L.M_VIOL] = check_state(tb, s, n_players, tb.rules[L.R_TURN_CAP] * n_players)


@hot_outline
def _play_on(tb, weights, s, n_players, check, search):
    """Play the game in ``s`` on from where it is (``meta[M_TURN]``, ``meta[M_STEP]``) to
    the end, final scoring included; with ``check``, verify the invariants after each turn
    and at the end (``meta[M_VIOL]``). Returns True when it stopped at an asked seat's
    decision instead (mc, learned: call again once ``meta[M_FORCE_*]`` or
    ``meta[M_ANSWER_*]`` hold the choice). ``search``, a compile-time constant (a literal
    ``True`` or ``False`` at every call): whether the game can stop and resume within a
    turn (an asked seat, a playout's forced first decision) and records how it ended
    (``_record_end``). The heuristics' kernel passes ``False``, so every stop check, answer
    and resumed position is pruned from it and each turn starts at ``STEP_TURN``."""
    max_turns = tb.rules[L.R_TURN_CAP] * n_players
    while True:
        # the seat of this turn (counted already from STEP_SOURCE on); not a loop-carried
        # ``p = 0``, whose literal type would make numba compile the whole turn twice
        turn = s.meta[L.M_TURN] - (0 if not search or s.meta[L.M_STEP] == L.STEP_TURN else 1)
        p = turn % n_players
        final = take_turn(tb, weights, s, p, search)
        if search and final < 0:
            return True
        if check and s.meta[L.M_VIOL] == 0:
            s.meta[L.M_VIOL] = check_state(tb, s, n_players, max_turns)
        if final:
            s.ended[ix(p)] = 1
            if search and s.meta[L.M_END_REC] != 0:
                _record_end(tb, s, n_players, p)
            break
        if s.meta[L.M_TURN] >= max_turns:
            s.meta[L.M_CAP] = 1
            break
    final_scoring(tb, s, n_players)
    if check and s.meta[L.M_VIOL] == 0:
        s.meta[L.M_VIOL] = check_final(s, n_players)
    return False


@hot_outline
def play_game(tb, weights, s, n_players, seed, game_id, check):
    """Play one complete game of heuristic seats into ``s`` (seats already set): a new game,
    then play on (it never stops: no seat searches). Returns ``(turns, cap_hit,
    violation)``; ``violation`` is the first broken invariant's code when ``check``, else
    0."""
    _new_game(tb, s, n_players, seed, game_id, check)
    _play_on(tb, weights, s, n_players, check, False)
    return s.meta[L.M_TURN], s.meta[L.M_CAP], s.meta[L.M_VIOL]
