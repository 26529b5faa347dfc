"""§2.2 Deployment, the reveal (base game): payment, then each unit's deployment
abilities (tokens, Golem's upgrade, Kraken's LP, Shapeshifter). §N: ``docs/rules/paper-tales.md``.
"""

from __future__ import annotations

from talesim.simcore.jit import hot, hot_outline

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..evaluate.facts import base_facts, per_value, production, when_holds
from ..layout import F_SHAPESHIFTED, LP_DEPLOYMENT  # passed as call arguments (see layout.py)
from .brain import age_target_choice
from .place import _pay, _put, _replaces
from .state import _draw, _kill, _load, _receive, _score, _settle, _to_discard


@hot
def _defer_lp(s, p, spot, j):
    """Queue ability ``j`` of ``p``'s unit on ``spot`` (an LP gain) for the end of the
    Deployment phase; a full queue sets ``G_OVERFLOW``."""
    k = s.g[L.G_PENDING_N]
    if k >= L.MAX_PENDING:
        s.g[L.G_OVERFLOW] = 1
    else:
        s.pend[k, 0] = p
        s.pend[k, 1] = spot
        s.pend[k, 2] = j
        s.g[L.G_PENDING_N] = k + 1


@hot
def _deployed(tb, s, p):
    """Seat ``p`` at the end of the Deployment phase: its LP step (``_settle``), and its
    units neither fresh nor moved any more."""
    _settle(tb, s, p)
    for spot in range(L.MAX_SPOTS):
        if s.sp[p, spot, L.S_CARD] >= 0:
            s.sp[p, spot, L.S_FRESH] = 0
            s.sp[p, spot, L.S_MOVED] = 0


@hot
def _every_turn_age(tb, s, p, spot, after):
    """The first ability row after ``after`` of the unit on seat ``p``'s ``spot`` that puts
    age tokens every turn (``Game.every_turn``: an ``add_age`` of the Deployment phase, not
    on deploy; Master Alchemist); -1: none (or no unit there)."""
    if s.sp[p, spot, L.S_CARD] < 0:
        return -1
    ut, ab = tb.ut, tb.ab
    u = s.sp[p, spot, L.S_UNIT]
    for j in range(max(after + 1, ut[u, L.U_AB0]), ut[u, L.U_AB0] + ut[u, L.U_NAB]):
        if (
            ab[j, L.A_PHASE] == L.PH_DEPLOYMENT
            and not ab[j, L.A_ON_DEPLOY]
            and ab[j, L.A_KIND] == L.K_ADD_AGE
        ):
            return j
    return -1


@hot
def _add_age(tb, weights, s, p, spot, j, n_players):
    """``Game.add_age``: ability ``j`` of the unit on ``spot`` puts tokens on itself, on each
    other unit, or on one unit chosen by the policy."""
    ut, bt, ab = tb.ut, tb.bt, tb.ab
    n = _load(s, p)
    me = 0
    for i in range(n):
        if s.pc[i, L.PC_SPOT] == spot:
            me = i
    wood, food, crystal = production(ut, bt, s.pc, n, s.bl)
    age_all, n_level2 = base_facts(bt, s.pc, n, s.bl)
    amount = ab[j, L.A_AMOUNT] * per_value(
        ab[j, L.A_PER], s.pc[me, L.PC_AGE], age_all, wood, food, crystal, 0, n_level2, 0
    )
    if amount <= 0:
        return
    target = ab[j, L.A_TARGET]
    if target == L.T_SELF:
        s.sp[p, spot, L.S_AGE] += amount
    elif target == L.T_OTHERS:
        for i in range(n):
            if s.pc[i, L.PC_SPOT] != spot:
                s.sp[p, s.pc[i, L.PC_SPOT], L.S_AGE] += amount
    else:
        for i in range(n):
            s.spots[i] = s.pc[i, L.PC_SPOT]
        k = age_target_choice(tb, None, weights, s, None, p, n, amount, n_players)
        s.sp[p, s.spots[k], L.S_AGE] += amount


@hot
def _upgrade_all(tb, s, p, turn):
    """Golem: every level-1 building becomes level 2, free."""
    for b in range(tb.bt.shape[0]):
        if s.blevel[p, b] == 1:
            s.blevel[p, b] = 2
            s.blog[p, b, L.BL_LEVEL] = 2
            s.blog[p, b, L.BL_UPGRADED] = turn
            s.blog[p, b, L.BL_HOW] = L.H_GOLEM


@hot
def _deployment_lp(tb, s, p, spot, j):
    """``Game.deployment_lp``: ability ``j`` (deployment ``lp``) of the unit on ``spot``."""
    ut, bt, ab = tb.ut, tb.bt, tb.ab
    n = _load(s, p)
    wood, food, crystal = production(ut, bt, s.pc, n, s.bl)
    age_all, n_level2 = base_facts(bt, s.pc, n, s.bl)
    age = 0
    for i in range(n):
        if s.pc[i, L.PC_SPOT] == spot:
            age = s.pc[i, L.PC_AGE]
    on = spot if s.sp[p, spot, L.S_CARD] >= 0 else -1
    lp = 0
    if when_holds(ab[j, L.A_WHEN], age, on, food, crystal):
        lp = ab[j, L.A_AMOUNT] * per_value(
            ab[j, L.A_PER], age, age_all, wood, food, crystal, 0, n_level2, 0
        )
    _score(s, p, LP_DEPLOYMENT, lp)


@hot
def _shapeshift(tb, s, p, spot, j, turn):
    """``Game.shapeshift``: reveal until a unit of cost <= max_cost; it takes the spot with
    ``age`` tokens. Returns 1 when the revealed unit is on the spot and its on-deploy
    abilities must resolve (``shapeshift_on_deploy``), else 0."""
    rules = tb.rules
    k = _shapeshift_reveal(tb, s, p, spot, j, turn)
    if k < 0:
        return 0
    _put(s, p, spot, s.log[p, k, L.L_CARD], s.log[p, k, L.L_UNIT], tb.ab[j, L.A_AGE], 1)
    return 1 if rules[L.R_SHAPE_ON_DEPLOY] else 0


@hot
def _shapeshift_reveal(tb, s, p, spot, j, turn):
    """``Game.shapeshift_reveal``: the Shapeshifter on ``spot`` leaves; cards are revealed
    (and discarded) until a unit (not a Legends artifact: card type < U) of cost <=
    ``max_cost``, which is received and paid (``shapeshift_free``). Returns its log row,
    or -1 (none found, or unpaid)."""
    ut, ab, rules, deck = tb.ut, tb.ab, tb.rules, tb.deck
    _kill(s, p, spot, F_SHAPESHIFTED)
    found = -1
    budget = s.g[L.G_DECK_N] + s.g[L.G_DISC_N]
    for _ in range(budget):
        card = _draw(tb, s)
        if card < 0:
            break
        if deck[card] < ut.shape[0] and ut[deck[card], L.U_COST] <= ab[j, L.A_MAX_COST]:
            found = card
            break
        _to_discard(s, card)
    if found < 0:
        return -1
    u = deck[found]
    k = _receive(s, p, found, u, turn, 0)
    cost = 0 if rules[L.R_SHAPE_FREE] else ut[u, L.U_COST]
    row = s.log[p, k]
    if cost > s.pi[p, L.I_GOLD]:
        _to_discard(s, found)
        row[L.L_FATE] = L.F_UNPAID
        return -1
    s.pi[p, L.I_GOLD] -= cost
    row[L.L_DEPLOYED] = 1
    row[L.L_TURN_DEPLOYED] = turn
    row[L.L_FATE] = L.F_IN_PLAY
    row[L.L_ROW] = L.ROW_FRONT if spot < L.MAX_FRONT else L.ROW_BACK
    return k


@hot
def _on_deploy(tb, weights, s, p, spot, turn, n_players):
    """``Game.on_deploy``: the new unit's on-deploy abilities in ability order; a
    Shapeshifter's revealed unit resolves its own at once (the reference's tail call,
    as a loop)."""
    ut, ab, rules = tb.ut, tb.ab, tb.rules
    again = True
    while again:
        again = False
        s.sp[p, spot, L.S_RESOLVED] = 1
        u = s.sp[p, spot, L.S_UNIT]
        for j in range(ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]):
            if not ab[j, L.A_ON_DEPLOY]:
                continue
            kind = ab[j, L.A_KIND]
            if kind == L.K_ADD_AGE:
                _add_age(tb, weights, s, p, spot, j, n_players)
            elif kind == L.K_UPGRADE_BUILDINGS:
                _upgrade_all(tb, s, p, turn)
            elif kind == L.K_LP:
                if rules[L.R_KRAKEN_AT_END]:
                    _defer_lp(s, p, spot, j)
                else:
                    _deployment_lp(tb, s, p, spot, j)
            elif kind == L.K_SHAPESHIFT:
                again = _shapeshift(tb, s, p, spot, j, turn) == 1
                break


@hot_outline
def _reveal(tb, weights, s, n_players, turn):
    """``Game.reveal``: pay, on-deploy abilities seat by seat (the Shapeshifters first,
    then the other new units, each in spot order), every-turn deployment abilities, then
    the deployment LP and each seat's LP step."""
    ut, ab = tb.ut, tb.ab
    for p in range(n_players):
        _pay(tb, s, p, turn)
    s.g[L.G_PENDING_N] = 0
    for p in range(n_players):
        for replacing in (True, False):  # card replacement (Shapeshifter) first
            for spot in range(L.MAX_SPOTS):
                if (
                    s.sp[p, spot, L.S_CARD] >= 0
                    and not s.sp[p, spot, L.S_RESOLVED]
                    and _replaces(ut, ab, s.sp[p, spot, L.S_UNIT]) == replacing
                ):
                    _on_deploy(tb, weights, s, p, spot, turn, n_players)
        for spot in range(L.MAX_SPOTS):
            j = _every_turn_age(tb, s, p, spot, -1)
            while j >= 0:
                _add_age(tb, weights, s, p, spot, j, n_players)
                j = _every_turn_age(tb, s, p, spot, j)
    for k in range(s.g[L.G_PENDING_N]):
        _deployment_lp(tb, s, s.pend[k, 0], s.pend[k, 1], s.pend[k, 2])
    for p in range(n_players):
        _deployed(tb, s, p)
