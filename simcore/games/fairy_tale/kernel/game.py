"""One game: the resumable ``_play_on`` and ``_play_game`` (heuristic seats). The asked
seats' game (``mc`` and ``learned`` seats) is ``search.py``.
"""

from __future__ import annotations

from talesim.simcore.jit import hot_outline

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import ix
from .check import _check_final, _check_state
from .draft import _deal, _draft, _new_game
from .effects import _play_round
from .end import _final_scores


@hot_outline
def _play_on(kt, weights, st, sm, n_players, check, search):
    """Play the game in ``st`` on from where it is (``POS_*``) to the end, final scoring
    included; with ``check``, verify every invariant after each step and at the end
    (``POS_VIOL``: the code of the first one broken, ``INVARIANTS``). Returns True when it
    stopped at an ``mc`` seat's decision instead (``ASK_*``; call again once
    ``FORCE_SEAT`` / ``FORCE_IDX`` hold the choice). ``search``, a compile-time constant
    (a literal ``True`` or ``False`` at every call): whether the game can stop or resume
    within a round (an ``mc`` seat, a playout's forced first decision). The heuristics'
    kernel passes ``False``, so every stop check and resumed position is pruned from it
    and it plays a game from its start to its end."""
    beginner = kt[ix(L.K_RULES + L.R_BEGINNER)] == 1
    while st[ix(L.POS_ROUND)] < L.ROUNDS:
        rnd = st[ix(L.POS_ROUND)]
        first = beginner and rnd == 0
        if not search or st[ix(L.POS_PHASE)] == L.PH_DEAL:
            _deal(st, n_players, L.DEAL - 1 if first else L.DEAL)
        if not search or st[ix(L.POS_PHASE)] == L.PH_DRAFT:
            hand_size = L.DEAL - 1 if first else L.DEAL
            pick_offset = 1 if beginner else 0
            if _draft(kt, weights, st, sm, n_players, rnd, hand_size, pick_offset, search):
                return True
            if check and st[ix(L.POS_VIOL)] == 0:
                st[ix(L.POS_VIOL)] = _check_state(kt, st, sm, n_players, st[ix(L.POS_TOP)])
        plays = L.PLAYS - 1 if first else L.PLAYS
        if _play_round(kt, weights, st, sm, n_players, plays, check, search):
            return True
    _final_scores(kt, st, sm, n_players)
    st[ix(L.POS_PHASE)] = L.PH_END
    if check and st[ix(L.POS_VIOL)] == 0:
        st[ix(L.POS_VIOL)] = _check_final(st, n_players)
    return False


@hot_outline
def _play_game(kt, weights, st, sm, n_players, seed, game_id, check):
    """Play one complete game of heuristic seats into ``st`` (policies already set at
    ``POLICY``): a new game, then play on (it never stops: no seat searches). With
    ``check``, returns the code of the first invariant broken (``INVARIANTS``), else 0."""
    _new_game(kt, weights, st, sm, n_players, seed, game_id)
    _play_on(kt, weights, st, sm, n_players, check, False)
    return st[ix(L.POS_VIOL)]
