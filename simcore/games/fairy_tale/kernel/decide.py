"""How each seat decides (``_seat_modes``) and every decision's dispatch (``_decide``):
forced, random, searched (an ``mc`` seat is asked), or a policy's.
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot
from talesim.simcore.rng import rng_below

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import D_DRAFT, data_ptr, ix
from ..policies import choose, choose_plain, choose_target, plain, policy_weights


@hot
def _seat_modes(weights, st, n_players):
    """How each seat decides this game (``SEAT_MODE``): ``random``, ``plain`` weights
    (``policies.plain``: draft and play decisions go to ``choose_plain``, with the two
    whole-number weights at ``SEAT_W``), the general ``choose``, or asked (``mc``, a
    search, and ``learned``, a model: the game stops at their decisions,
    ``_play_game_search`` decides). Worked out once a game instead
    of at every decision."""
    for p in range(n_players):
        policy = st[ix(L.POLICY + p)]
        mode = L.M_OTHER
        if policy == L.P_RANDOM:
            mode = L.M_RANDOM
        elif policy == L.P_MC or policy == L.P_LEARNED:
            mode = L.M_SEARCH
        else:
            w = policy_weights(weights, policy)
            if plain(w, D_DRAFT):  # the same answer for D_PLAY
                mode = L.M_PLAIN
                st[ix(L.SEAT_W + p * 2)] = np.int32(w[0])
                st[ix(L.SEAT_W + p * 2 + 1)] = np.int32(w[1])
        st[ix(L.SEAT_MODE + p)] = mode


@hot
def _decide(kt, weights, st, sm, decision, cand, n, n_players, p, use_hyp, neighbour, search):
    """Index chosen among the candidates ``st[cand : cand + n]`` (a hand, kept cards, or
    ``CAND``: read where they are, not copied); a forced choice (n == 1) asks no policy, and
    ``random`` needs no look at the state. A decision made already (``FORCE_SEAT``: by a
    search, or a playout's candidate; ``ANSWER_SEAT``: a learned seat's answered ask) is
    taken as it is. An ``mc`` or ``learned`` seat's decision is asked, not made: the
    decision is stored at ``ASK_*`` and -1 returned, and the caller stores where the game
    is and returns (the game stops; ``_play_game_search`` decides and plays on). Both
    happen only in a game that can search (``search``, a compile-time constant: the
    heuristics' kernel compiles neither check). The outlined decision
    functions get the arrays as data pointers (``data_ptr``: a word each instead of
    seven)."""
    if n == 1:
        return 0
    if search and st[ix(L.FORCE_SEAT)] == p:
        st[ix(L.FORCE_SEAT)] = -1
        return st[ix(L.FORCE_IDX)]
    if search and st[ix(L.ANSWER_SEAT)] == p:
        st[ix(L.ANSWER_SEAT)] = -1
        return st[ix(L.ANSWER_IDX)]
    mode = st[ix(L.SEAT_MODE + p)]
    if mode == L.M_RANDOM:
        return rng_below(sm, n)
    if search and mode == L.M_SEARCH:
        st[ix(L.ASK_DEC)] = decision
        st[ix(L.ASK_CAND)] = cand
        st[ix(L.ASK_N)] = n
        st[ix(L.ASK_SEAT)] = p
        st[ix(L.ASK_HYP)] = 1 if use_hyp else 0
        st[ix(L.ASK_NEIGH)] = neighbour
        return -1
    own = L.HYP + p * L.MC if use_hyp else L.CNT + p * L.MC
    ownf = L.HFC + p * L.NF if use_hyp else L.FCNT + p * L.NF
    held = sm[ix(L.SM_HYP + p)] if use_hyp else sm[ix(L.SM_CNT + p)]
    if decision == L.D_OPEN or decision == L.D_CLOSE:  # the weights do not enter
        return choose_target(
            data_ptr(kt), data_ptr(st), decision, cand, n, own, ownf, held, n_players, p
        )
    if mode == L.M_PLAIN:  # one outlined call less per decision (greedy)
        face_down = sm[ix(L.SM_DCNT + p)]
        return choose_plain(
            np.int64(st[ix(L.SEAT_W + p * 2)]),
            np.int64(st[ix(L.SEAT_W + p * 2 + 1)]),
            data_ptr(kt),
            data_ptr(st),
            cand,
            n,
            own,
            ownf,
            held,
            face_down,
            n_players,
            p,
        )
    policy = st[ix(L.POLICY + p)]
    w = policy_weights(weights, policy)
    return choose(
        policy,
        w,
        decision,
        data_ptr(kt),
        data_ptr(st),
        data_ptr(sm),
        cand,
        n,
        own,
        ownf,
        held,
        n_players,
        p,
        neighbour,
    )
