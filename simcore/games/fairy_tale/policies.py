"""Fairy Tale heuristic players, compiled. ``reference.py`` restates each one in plain Python.

Every decision is "pick one of ``n`` candidates" (``n >= 2``; a forced choice never reaches
a policy and draws no random number). A policy scores each candidate and takes the first
best; ``random`` draws uniformly from the game's stream instead.

Value of a candidate card ``c`` (weights ``w``, a float64 row per policy)::

    w[W_GAIN]*gain + w[W_EFFECT]*effect + w[W_HARM]*harm + w[W_SYNERGY]*synergy + w[W_DENY]*deny

* gain    - own score change if ``c`` were face up now (draft: counting kept cards as face up;
            the Trickster: its -1 plus the best card it could copy)
* effect  - own score change from ``c``'s Open/Close once revealed (best Open, least-bad Close)
* harm    - points the other players lose to ``c``'s Close (each closes their least-bad card)
* synergy - draft only: the largest extra value ``c`` adds to one more copy of a related card
* deny    - draft only: ``c``'s gain for the neighbour who receives the hand next
Open/Close targets: open the card worth most, close the card whose loss is least.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from simcore.jit import hot, hot_outline
from simcore.rng import rng_below

from .scoring import delta_add, loss_remove
from .tables import (
    C_EFF_COUNT,
    C_EFFECT,
    C_FACTION,
    C_NEED0,
    C_OF,
    C_POINTS,
    C_SCOPE,
    C_VALUE,
    MAX_NEEDS,
    R_MAJ_STRICT,
    Effect,
    Scope,
    Value,
)


class Policy(IntEnum):
    RANDOM = 0
    GREEDY = 1
    COLLECTOR = 2


class Decision(IntEnum):
    DRAFT = 0  # keep one card of the hand being drafted
    PLAY = 1  # reveal one kept card
    OPEN = 2  # which own face-down card to turn face up
    CLOSE = 3  # which own face-up card to turn face down


W_GAIN, W_EFFECT, W_HARM, W_SYNERGY, W_DENY = range(5)
N_WEIGHTS = 5

POLICY_NAMES = tuple(p.name.lower() for p in Policy)


def default_weights() -> np.ndarray:
    """float64[len(Policy), N_WEIGHTS]: one tunable row per policy (random ignores its row)."""
    w = np.zeros((len(Policy), N_WEIGHTS))
    w[Policy.GREEDY] = (1.0, 1.0, 0.0, 0.0, 0.0)
    w[Policy.COLLECTOR] = (1.0, 1.0, 0.5, 1.0, 0.5)
    return w


D_DRAFT = int(Decision.DRAFT)
D_PLAY = int(Decision.PLAY)
D_OPEN = int(Decision.OPEN)
D_CLOSE = int(Decision.CLOSE)
P_RANDOM = int(Policy.RANDOM)
E_OPEN = int(Effect.OPEN)
E_CLOSE = int(Effect.CLOSE)
S_YOU = int(Scope.YOU)
S_OTHERS = int(Scope.OTHERS)
V_WILD = int(Value.WILD)
V_COUNT = int(Value.COUNT)
V_QUEST_CARDS = int(Value.QUEST_CARDS)


@hot
def card_gain(ct, deps, in_deck, c, own, own_fc, cnt, fcnt, n_players, p, strict):
    """Own score change if ``c`` joined ``own`` face up (a Trickster: its best copy)."""
    if ct[c, C_VALUE] != V_WILD:
        return delta_add(ct, deps, c, own, own_fc, cnt, fcnt, n_players, p, strict)
    best = 0
    first = True
    for u in range(ct.shape[0]):
        if in_deck[u] == 1 and ct[u, C_VALUE] != V_WILD:
            d = delta_add(ct, deps, u, own, own_fc, cnt, fcnt, n_players, p, strict)
            if first or d > best:
                best = d
                first = False
    return ct[c, C_POINTS] + best


@hot
def least_close_loss(ct, deps, sel, e, own, own_fc, cnt, fcnt, n_players, p, strict):
    """Points ``p`` loses when ``e``'s Close hits them and they pick least-bad cards."""
    total = 0
    removed0 = -1
    removed1 = -1
    count = ct[e, C_EFF_COUNT]
    for k in range(count):
        best = 0
        bt = -1
        for i in range(sel.shape[1]):
            t = sel[e, i]
            if t < 0:
                break
            if own[t] > 0:
                loss = loss_remove(ct, deps, t, own, own_fc, cnt, fcnt, n_players, p, strict)
                if bt < 0 or loss < best:
                    best = loss
                    bt = t
        if bt < 0:
            break
        total += best
        own[bt] -= 1
        own_fc[ct[bt, C_FACTION]] -= 1
        if k == 0:
            removed0 = bt
        elif k == 1:
            removed1 = bt
        else:
            own[bt] += 1  # last one: restore at once
            own_fc[ct[bt, C_FACTION]] += 1
    if removed1 >= 0:
        own[removed1] += 1
        own_fc[ct[removed1, C_FACTION]] += 1
    if removed0 >= 0:
        own[removed0] += 1
        own_fc[ct[removed0, C_FACTION]] += 1
    return total


@hot
def open_gain(ct, deps, sel, e, own, own_fc, down, cnt, fcnt, n_players, p, strict):
    """Best own gain from ``e``'s Open: the matching face-down card worth most (count times)."""
    total = 0
    count = ct[e, C_EFF_COUNT]
    opened0 = -1
    opened1 = -1
    for k in range(count):
        best = 0
        bt = -1
        for i in range(sel.shape[1]):
            t = sel[e, i]
            if t < 0:
                break
            if down[t] > 0:
                g = delta_add(ct, deps, t, own, own_fc, cnt, fcnt, n_players, p, strict)
                if bt < 0 or g > best:
                    best = g
                    bt = t
        if bt < 0:
            break
        total += best
        own[bt] += 1
        own_fc[ct[bt, C_FACTION]] += 1
        down[bt] -= 1
        if k == 0:
            opened0 = bt
        elif k == 1:
            opened1 = bt
        else:
            own[bt] -= 1
            own_fc[ct[bt, C_FACTION]] -= 1
            down[bt] += 1
    for bt in (opened1, opened0):
        if bt >= 0:
            own[bt] -= 1
            own_fc[ct[bt, C_FACTION]] -= 1
            down[bt] += 1
    return total


@hot
def effect_terms(ct, deps, sel, c, own, own_fc, down, cnt, fcnt, n_players, p, strict, want_harm):
    """(own effect value, harm to others) of revealing ``c`` with ``own`` as p's face-up row."""
    kind = ct[c, C_EFFECT]
    if kind != E_OPEN and kind != E_CLOSE:
        return 0, 0
    f = ct[c, C_FACTION]
    own[c] += 1
    own_fc[f] += 1
    eff = 0
    harm = 0
    if kind == E_OPEN:
        eff = open_gain(ct, deps, sel, c, own, own_fc, down, cnt, fcnt, n_players, p, strict)
    else:
        scope = ct[c, C_SCOPE]
        if scope != S_OTHERS:
            eff = -least_close_loss(ct, deps, sel, c, own, own_fc, cnt, fcnt, n_players, p, strict)
        if scope != S_YOU and want_harm:
            for q in range(n_players):
                if q != p:
                    harm += least_close_loss(
                        ct, deps, sel, c, cnt[q], fcnt[q], cnt, fcnt, n_players, q, strict
                    )
    own[c] -= 1
    own_fc[f] -= 1
    return eff, harm


@hot
def _interaction(ct, deps, c, u, own, own_fc, cnt, fcnt, n_players, p, strict):
    """How much more one extra ``u`` is worth once ``c`` is held: Δ(u | own+c) − Δ(u | own)."""
    without = delta_add(ct, deps, u, own, own_fc, cnt, fcnt, n_players, p, strict)
    f = ct[c, C_FACTION]
    own[c] += 1
    own_fc[f] += 1
    with_c = delta_add(ct, deps, u, own, own_fc, cnt, fcnt, n_players, p, strict)
    own[c] -= 1
    own_fc[f] -= 1
    return with_c - without


@hot
def synergy(ct, deps, c, own, own_fc, cnt, fcnt, n_players, p, strict):
    """Largest interaction of ``c`` with a related card: itself, what it counts or needs,
    and the cards that count or need it (``deps[c]``). Wild cards relate to nothing."""
    if ct[c, C_VALUE] == V_WILD:
        return 0
    best = _interaction(ct, deps, c, c, own, own_fc, cnt, fcnt, n_players, p, strict)
    if ct[c, C_VALUE] == V_COUNT and ct[c, C_OF] != c:
        v = _interaction(ct, deps, c, ct[c, C_OF], own, own_fc, cnt, fcnt, n_players, p, strict)
        best = max(best, v)
    if ct[c, C_VALUE] == V_QUEST_CARDS:
        for k in range(MAX_NEEDS):
            u = ct[c, C_NEED0 + k]
            if u >= 0:
                v = _interaction(ct, deps, c, u, own, own_fc, cnt, fcnt, n_players, p, strict)
                best = max(best, v)
    for k in range(deps.shape[1]):
        u = deps[c, k]
        if u < 0:
            break
        v = _interaction(ct, deps, c, u, own, own_fc, cnt, fcnt, n_players, p, strict)
        best = max(best, v)
    return best


@hot
def evaluate(
    decision,
    w,
    ct,
    deps,
    sel,
    in_deck,
    rules,
    c,
    own,
    own_fc,
    down,
    cnt,
    fcnt,
    n_players,
    p,
    neighbour,
):
    """Policy value of candidate card ``c`` for player ``p`` (see module docstring)."""
    strict = rules[R_MAJ_STRICT] == 1
    if decision == D_OPEN:
        return float(delta_add(ct, deps, c, own, own_fc, cnt, fcnt, n_players, p, strict))
    if decision == D_CLOSE:
        return float(-loss_remove(ct, deps, c, own, own_fc, cnt, fcnt, n_players, p, strict))
    gain = 0
    eff = 0
    harm = 0
    syn = 0
    deny = 0
    if w[W_GAIN] != 0.0:
        gain = card_gain(ct, deps, in_deck, c, own, own_fc, cnt, fcnt, n_players, p, strict)
    if w[W_EFFECT] != 0.0 or w[W_HARM] != 0.0:
        eff, harm = effect_terms(
            ct, deps, sel, c, own, own_fc, down, cnt, fcnt, n_players, p, strict, w[W_HARM] != 0.0
        )
    if decision == D_DRAFT:
        if w[W_SYNERGY] != 0.0:
            syn = synergy(ct, deps, c, own, own_fc, cnt, fcnt, n_players, p, strict)
        if w[W_DENY] != 0.0 and neighbour != p:
            deny = card_gain(
                ct,
                deps,
                in_deck,
                c,
                cnt[neighbour],
                fcnt[neighbour],
                cnt,
                fcnt,
                n_players,
                neighbour,
                strict,
            )
    return (
        w[W_GAIN] * gain
        + w[W_EFFECT] * eff
        + w[W_HARM] * harm
        + w[W_SYNERGY] * syn
        + w[W_DENY] * deny
    )


@hot_outline
def choose(
    policy,
    weights,
    rng,
    decision,
    cand,
    n,
    ct,
    deps,
    sel,
    in_deck,
    rules,
    own,
    own_fc,
    down,
    cnt,
    fcnt,
    n_players,
    p,
    neighbour,
):
    """Index in ``cand[:n]`` chosen by ``policy`` (``n >= 2``): the first best. A candidate
    equal to an earlier one has the same value and can never be the first best: skipped."""
    if policy == P_RANDOM:
        return rng_below(rng, n)
    w = weights[policy]
    best = 0.0
    bi = 0
    for i in range(n):
        seen = False
        for j in range(i):
            if cand[j] == cand[i]:
                seen = True
                break
        if seen:
            continue
        v = evaluate(
            decision,
            w,
            ct,
            deps,
            sel,
            in_deck,
            rules,
            cand[i],
            own,
            own_fc,
            down,
            cnt,
            fcnt,
            n_players,
            p,
            neighbour,
        )
        if i == 0 or v > best:
            best = v
            bi = i
    return bi
