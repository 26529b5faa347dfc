"""§2.2 Deployment, the phase: each seat's steps (``deploy_choice``) and keep; the
base game reveals (``reveal.py``), a Legends game pays in order and runs its tiers
(``payment.py``, ``tiers.py``). §N: ``docs/rules/paper-tales.md``.
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot, hot_outline

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import D_DEPLOY, NONE  # passed as call arguments (see layout.py)
from .brain import deploy_choice, keep_choice
from .payment import _l_apply_move, _pay_order, l_moves
from .place import _apply_move, _keep, _opens_extra, moves
from .reveal import _reveal
from .sketch import _commit_step
from .state import _freeze, _searched
from .tiers import _tiers


@hot_outline
def deployment(tb, lx, weights, s, ls, n_players, turn, search):
    """``Game.deployment``: placements seat by seat. Base game: each seat keeps right after
    its placements, then every seat reveals and pays (``_reveal``). Legends
    (``Game.deployment_legends``): payment in the canonical order (``_pay_order``), the
    deployment tiers (``_tiers``), then the keep. ``search`` (a compile-time constant):
    the game can stop at an mc seat's step and resume at seat ``G_SEAT``'s step
    ``G_STEP``; returns True when it stopped."""
    if not search or s.g[L.G_BEGUN] == 0:
        _freeze(tb, lx, s, ls, n_players)
        for p in range(n_players):
            s.pi[p, L.I_EXTRA] = _opens_extra(tb, s, p)
        s.g[L.G_BEGUN] = 1
        s.g[L.G_STEP] = 0
        s.g[L.G_SEAT] = 0
    for p in range(s.g[L.G_SEAT] if search else 0, n_players):
        s.g[L.G_SEAT] = p
        n0, others = -1, 0  # the seat's base sketch, kept from step to step (base game)
        for _ in range(s.g[L.G_STEP] if search else 0, L.MAX_DEPLOY_STEPS + 1):
            if lx is None:  # noqa: SIM108 (statements: numba prunes the dead branch)
                n_opt = moves(tb, s, p)
            else:
                n_opt = l_moves(tb, lx, s, ls, p)
            k = _searched(s, p, D_DEPLOY, search and n_opt > 1)
            if k == L.ASK:
                return True
            if k < 0:
                k, n0, others = deploy_choice(
                    tb, lx, weights, s, ls, p, n_opt, n_players, n0, others
                )
            kind, a, b = s.opt[k, 0], s.opt[k, 1], s.opt[k, 2]
            if kind == L.M_STOP:
                break
            if lx is None:
                n0 = _commit_step(tb, s, p, n0, others, kind, a, b)
                _apply_move(tb, s, p, kind, a, b)
            else:
                _l_apply_move(tb, lx, s, ls, p, kind, a, b)
            if search:
                s.g[L.G_STEP] += 1
        if search:
            s.g[L.G_STEP] = 0
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
    return False


@hot
def _keep_step(tb, lx, weights, s, ls, p, n_players, n0, others):
    """Seat ``p`` keeps a card of its hand (``keep_choice``) when the rules keep one."""
    if tb.rules[L.R_KEEP]:
        _keep(s, p, keep_choice(tb, lx, weights, s, ls, p, n_players, n0, others))
    else:
        _keep(s, p, 0)
