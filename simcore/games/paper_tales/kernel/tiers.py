"""The Legends deployment tiers (``docs/rules/paper-tales-legends.md`` §2.5): each tier's
effects in seat order (replace, enter, copy, levels, tokens, count, penalty), the Jester,
the free build and the copies.
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot, hot_outline
from talesim.simcore.rng import rng_below

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..evaluate.facts import gain_holds, l_per, when_holds
from ..layout import (  # passed as call arguments (see layout.py)
    HD_JESTER,
    LP_DEPLOYMENT,
    ROW_ZONE,
    T_ENTER,
)
from .brain import age_target_choice, copy_l, jester_l, titan_l
from .payment import _log_paid, _zone_add
from .place import _put
from .reveal import _defer_lp, _deployed, _every_turn_age, _shapeshift_reveal, _upgrade_all
from .state import _facts, _find_spot, _piece_at, _score


@hot
def _simultaneity(lx, s, ls, k):
    """``Game.simultaneity_order`` of the seats ``ls.order[:k]`` (seat order): most LP
    first, then gold (more or less first), then one draw ``below(t)`` per pick among t
    tied. The result replaces ``ls.order[:k]``."""
    more = lx.lrules[L.L_SIMULTANEITY_MORE_GOLD]
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
            lp = -s.pi[p, L.I_LP]
            g = -s.pi[p, L.I_GOLD] if more else s.pi[p, L.I_GOLD]
            if not found or lp < best_lp or (lp == best_lp and g < best_g):
                best_lp, best_g, found = lp, g, True
        nt = 0
        for i in range(k):
            p = ls.order[i]
            if (used >> p) & 1:
                continue
            g = -s.pi[p, L.I_GOLD] if more else s.pi[p, L.I_GOLD]
            if -s.pi[p, L.I_LP] == best_lp and g == best_g:
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
    u = s.log[p, k, L.L_UNIT]
    ls.llog[p, k, L.LL_COST] = 0 if tb.rules[L.R_SHAPE_FREE] else tb.ut[u, L.U_COST]
    ls.llog[p, k, L.LL_HOW] = L.HD_SHAPESHIFTED
    _put(s, p, spot, s.log[p, k, L.L_CARD], u, tb.ab[j, L.A_AGE], 0)
    ls.sx[p, spot, L.SX_DONE] = L.T_REPLACE
    ls.sx[p, spot, L.SX_SKIP] = 0 if tb.rules[L.R_SHAPE_ON_DEPLOY] else 1


@hot_outline
def _l_add_age(tb, lx, weights, s, ls, p, spot, j, n_players):
    """``Game.add_age`` / ``add_age_legends``: ability ``j`` of the unit on ``spot`` (-1:
    an artifact, never a target) puts ``amount x per`` tokens on itself, each other unit,
    every unit (``all``, artifacts) or one unit chosen by the policy."""
    ab = tb.ab
    n, _nz, wood, food, crystal, facts = _facts(tb, lx, s, ls, p)
    me = _piece_at(s, n, spot)
    age = s.pc[me, L.PC_AGE] if me >= 0 else 0
    amount = ab[j, L.A_AMOUNT] * l_per(
        tb.ut, ab, j, ab[j, L.A_PER], age, spot, s.pc, n, wood, food, crystal, facts
    )
    if amount <= 0 or (spot < 0 and n == 0):
        return
    target = ab[j, L.A_TARGET]
    cap = L.MAX_AGE if spot < 0 else 1 << 20  # an artifact's tokens are capped (the reference)
    if spot >= 0 and target == L.T_SELF:
        s.sp[p, spot, L.S_AGE] += amount
    elif spot >= 0 and target == L.T_OTHERS:
        for i in range(n):
            if s.pc[i, L.PC_SPOT] != spot:
                s.sp[p, s.pc[i, L.PC_SPOT], L.S_AGE] += amount
    elif spot < 0 and target != L.T_ONE:
        for i in range(n):
            t = s.pc[i, L.PC_SPOT]
            s.sp[p, t, L.S_AGE] = min(cap, s.sp[p, t, L.S_AGE] + amount)
    else:
        for i in range(n):
            s.spots[i] = s.pc[i, L.PC_SPOT]
        t = s.spots[age_target_choice(tb, lx, weights, s, ls, p, n, amount, n_players)]
        s.sp[p, t, L.S_AGE] = min(cap, s.sp[p, t, L.S_AGE] + amount)


@hot_outline
def _deploy_gain(tb, lx, s, ls, p, spot, j):
    """``Game.deploy_gain`` (tier 4a): K4 on deploy: gold at once, LP as ``deployment``."""
    n, _nz, wood, food, crystal, facts = _facts(tb, lx, s, ls, p)
    me = _piece_at(s, n, spot)
    age = s.pc[me, L.PC_AGE] if me >= 0 else 0
    if not gain_holds(
        tb.ut, tb.ab, j, age, spot if me >= 0 else -1, s.pc, n, wood, food, crystal, facts
    ):
        return
    s.pi[p, L.I_GOLD] += tb.ab[j, L.A_GOLD]
    _score(s, p, LP_DEPLOYMENT, tb.ab[j, L.A_LP])


@hot_outline
def _l_deployment_lp(tb, lx, s, ls, p, spot, j):
    """``Game.deployment_lp``: a deployment ``lp`` (Kraken) of the source on ``spot``."""
    ab = tb.ab
    n, _nz, wood, food, crystal, facts = _facts(tb, lx, s, ls, p)
    me = _piece_at(s, n, spot)
    age = s.pc[me, L.PC_AGE] if me >= 0 else 0
    on = spot if me >= 0 else -1
    lp = 0
    if when_holds(ab[j, L.A_WHEN], age, on, food, crystal):
        lp = ab[j, L.A_AMOUNT] * l_per(
            tb.ut, ab, j, ab[j, L.A_PER], age, on, s.pc, n, wood, food, crystal, facts
        )
    _score(s, p, LP_DEPLOYMENT, lp)


@hot_outline
def _jester(tb, lx, weights, s, ls, p, j, turn, n_players):
    """``Game.jester`` (K1): up to ``count`` times an artifact from the hand into the zone
    for ``cost`` (decision; none in hand or cost unaffordable: nothing)."""
    ab, deck = tb.ab, tb.deck
    U = tb.ut.shape[0]
    cost = ab[j, L.A_COST]
    for _ in range(ab[j, L.A_COUNT]):
        m = 0
        if cost <= s.pi[p, L.I_GOLD]:
            for i in range(s.pi[p, L.I_HAND_N]):
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
        for i in range(h, s.pi[p, L.I_HAND_N] - 1):
            s.hand[p, i] = s.hand[p, i + 1]
        s.pi[p, L.I_HAND_N] -= 1
        s.pi[p, L.I_GOLD] -= cost
        ls.art_gold[p] += cost
        _zone_add(tb, ls, p, card, 1, T_ENTER)
        _log_paid(s, ls, p, card, turn, cost, ROW_ZONE, HD_JESTER)


@hot_outline
def _build_free(tb, lx, weights, s, ls, p, j, turn, n_players):
    """``Game.build_free`` (K3): one unbuilt building of the set (decision, forced when
    one) at ``level``, free."""
    m = 0
    for b in range(tb.bt.shape[0]):
        if ls.inset[b] and s.blevel[p, b] == 0:
            ls.bopt[m] = b
            m += 1
    if m == 0:
        return
    level = tb.ab[j, L.A_BUILD_LEVEL]
    b = ls.bopt[titan_l(tb, lx, weights, s, ls, p, m, level, n_players)]
    s.blevel[p, b] = level
    s.blog[p, b, L.BL_LEVEL] = level
    s.blog[p, b, L.BL_BUILT] = turn
    s.blog[p, b, L.BL_HOW] = L.H_TITAN
    if level == L.LEVELS:
        s.blog[p, b, L.BL_UPGRADED] = turn


@hot_outline
def _run_effect(tb, lx, weights, s, ls, p, spot, j, turn, n_players):
    """``Game.run_deploy`` for every kind but K2 (``_copy``): one on-deploy ability of seat
    ``p`` acting as the unit on ``spot`` (-1: an artifact)."""
    kind = tb.ab[j, L.A_KIND]
    if kind == L.K_DEPLOY_ARTIFACT:
        _jester(tb, lx, weights, s, ls, p, j, turn, n_players)
    elif kind == L.K_BUILD_FREE:
        _build_free(tb, lx, weights, s, ls, p, j, turn, n_players)
    elif kind == L.K_UPGRADE_BUILDINGS:
        _upgrade_all(tb, s, p, turn)
    elif kind == L.K_ADD_AGE:
        _l_add_age(tb, lx, weights, s, ls, p, spot, j, n_players)
    elif kind == L.K_CONDITIONAL_GAIN:
        _deploy_gain(tb, lx, s, ls, p, spot, j)
    elif kind == L.K_LP:
        _defer_lp(s, p, spot, j)


@hot
def _has_k2(ut, ab, u):
    for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
        if ab[j, L.A_KIND] == L.K_REPEAT_DEPLOY:
            return True
    return False


@hot
def _run_copy(tb, lx, weights, s, ls, p, target, tier, times, turn, n_players):
    """``Game.run_copy``: the copied unit ``target``'s on-deploy abilities of ``tier``,
    ``times`` more, acting as that unit (still in play)."""
    ut, ab = tb.ut, tb.ab
    spot = _find_spot(s, p, target)
    if spot < 0:
        return
    u = tb.deck[target]
    for _ in range(times):
        for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
            if (
                ab[j, L.A_ON_DEPLOY]
                and ab[j, L.A_TIER] == tier
                and ab[j, L.A_KIND] != L.K_REPEAT_DEPLOY
            ):
                _run_effect(tb, lx, weights, s, ls, p, spot, j, turn, n_players)


@hot_outline
def _copy(tb, lx, weights, s, ls, p, j, kind, card, turn, n_players):
    """``Game.copy`` (K2): the seat may pick a unit placed or revealed this phase without
    K2 (decision); its tier-1a abilities resolve at once, the later ones at the copier's."""
    ut, ab = tb.ut, tb.ab
    m = 0
    for spot in range(L.MAX_SPOTS):
        if (
            s.sp[p, spot, L.S_CARD] >= 0
            and s.sp[p, spot, L.S_FRESH]
            and not _has_k2(ut, ab, s.sp[p, spot, L.S_UNIT])
        ):
            s.spots[m] = spot
            m += 1
    if m == 0:
        return
    k = copy_l(tb, lx, weights, s, ls, p, m, n_players)
    if k == 0:
        return
    target = s.sp[p, s.spots[k - 1], L.S_CARD]
    c = ls.lg[L.LG_COPIES]
    ls.copies[c, 0] = kind
    ls.copies[c, 1] = card
    ls.copies[c, 2] = target
    ls.copies[c, 3] = ab[j, L.A_TIMES]
    ls.lg[L.LG_COPIES] = c + 1
    _run_copy(
        tb, lx, weights, s, ls, p, target, np.int64(L.T_ENTER), ab[j, L.A_TIMES], turn, n_players
    )


@hot_outline
def _resolve_tier(tb, lx, weights, s, ls, p, tier, turn, n_players):
    """``Game.resolve_tier``: each source's on-deploy abilities of ``tier`` (data order),
    then the copies it carries; sources = new units (spot order, not skipped), then new
    paid artifacts (zone order), listed when the tier starts."""
    ut, ab, deck, xt = tb.ut, tb.ab, tb.deck, lx.xt
    m = 0
    for spot in range(L.MAX_SPOTS):
        if (
            s.sp[p, spot, L.S_CARD] >= 0
            and s.sp[p, spot, L.S_FRESH]
            and not ls.sx[p, spot, L.SX_SKIP]
        ):
            ls.src[m, 0] = L.SRC_UNIT
            ls.src[m, 1] = s.sp[p, spot, L.S_CARD]
            ls.src[m, 2] = spot
            m += 1
    for i in range(ls.zn[p]):
        if ls.zone[p, i, L.Z_FRESH] and ls.zone[p, i, L.Z_PAID]:
            ls.src[m, 0] = L.SRC_ART
            ls.src[m, 1] = ls.zone[p, i, L.Z_CARD]
            ls.src[m, 2] = -1
            m += 1
    for e in range(m):
        kind, card, spot = ls.src[e, 0], ls.src[e, 1], ls.src[e, 2]
        if kind == L.SRC_UNIT:
            if _find_spot(s, p, card) != spot or ls.sx[p, spot, L.SX_DONE] >= tier:
                continue
            ls.sx[p, spot, L.SX_DONE] = tier
            u = deck[card]
            lo, hi = ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]
        else:
            z = 0
            for i in range(ls.zn[p]):
                if ls.zone[p, i, L.Z_CARD] == card:
                    z = i
            if ls.zone[p, z, L.Z_DONE] >= tier or ls.zone[p, z, L.Z_ENTERED] >= tier:
                continue
            ls.zone[p, z, L.Z_DONE] = tier
            x = ls.zone[p, z, L.Z_X]
            lo, hi = xt[x, L.X_AB0], xt[x, L.X_AB0] + xt[x, L.X_NAB]
        for j in range(lo, hi):
            if not ab[j, L.A_ON_DEPLOY] or ab[j, L.A_TIER] != tier:
                continue
            if ab[j, L.A_KIND] == L.K_REPEAT_DEPLOY:
                _copy(tb, lx, weights, s, ls, p, j, kind, card, turn, n_players)
            else:
                _run_effect(tb, lx, weights, s, ls, p, np.int64(spot), j, turn, n_players)
        if tier == L.T_ENTER:
            continue
        for c in range(ls.lg[L.LG_COPIES]):
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
    ut, ab = tb.ut, tb.ab
    k = 0
    for p in range(n_players):
        has = False
        for spot in range(L.MAX_SPOTS):
            if s.sp[p, spot, L.S_CARD] >= 0 and s.sp[p, spot, L.S_FRESH]:
                u = s.sp[p, spot, L.S_UNIT]
                for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
                    if ab[j, L.A_TIER] == L.T_REPLACE:
                        has = True
        if has:
            ls.order[k] = p
            k += 1
    if k > 1:
        _simultaneity(lx, s, ls, k)
    for i in range(k):
        p = ls.order[i]
        for spot in range(L.MAX_SPOTS):
            if (
                s.sp[p, spot, L.S_CARD] < 0
                or not s.sp[p, spot, L.S_FRESH]
                or ls.sx[p, spot, L.SX_DONE] >= L.T_REPLACE
            ):
                continue
            ls.sx[p, spot, L.SX_DONE] = L.T_REPLACE
            u = s.sp[p, spot, L.S_UNIT]
            for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
                if ab[j, L.A_TIER] == L.T_REPLACE:
                    _l_shapeshift(tb, s, ls, p, spot, j, turn)
                    break
    s.g[L.G_PENDING_N] = 0
    for p in range(n_players):
        ls.lg[L.LG_COPIES] = 0
        for tier in range(L.T_ENTER, L.T_COUNT + 1):
            _resolve_tier(tb, lx, weights, s, ls, p, tier, turn, n_players)
        for spot in range(L.MAX_SPOTS):  # tier 4b
            j = _every_turn_age(tb, s, p, spot, -1)
            while j >= 0:
                _l_add_age(tb, lx, weights, s, ls, p, spot, j, n_players)
                j = _every_turn_age(tb, s, p, spot, j)
        _resolve_tier(tb, lx, weights, s, ls, p, np.int64(L.T_PENALTY), turn, n_players)
    for e in range(s.g[L.G_PENDING_N]):
        _l_deployment_lp(tb, lx, s, ls, s.pend[e, 0], s.pend[e, 1], s.pend[e, 2])
    for p in range(n_players):
        _deployed(tb, s, p)
        for spot in range(L.MAX_SPOTS):
            if s.sp[p, spot, L.S_CARD] >= 0:
                s.sp[p, spot, L.S_RESOLVED] = 1
            ls.sx[p, spot, L.SX_DONE] = -1
            ls.sx[p, spot, L.SX_SKIP] = 0
        for i in range(ls.zn[p]):
            ls.zone[p, i, L.Z_FRESH] = 0
            ls.zone[p, i, L.Z_ENTERED] = -1
            ls.zone[p, i, L.Z_DONE] = -1
