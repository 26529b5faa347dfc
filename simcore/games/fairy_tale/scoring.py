"""Fairy Tale scoring, compiled (reference §5). Used by the kernel, the policies and
``talesim score``; ``reference.py`` restates it in plain Python.

Counts are per player: ``own[t]`` face-up copies of card t, ``own_fc[f]`` face-up cards of
faction f. Majorities compare with the other players' rows of ``cnt`` / ``fcnt`` (row
``p`` itself is skipped, so ``own`` may be a hypothetical row such as face-up + kept).
A face-down card has no name, faction or value: it is simply not counted.
"""

from __future__ import annotations

from simcore.jit import hot, hot_inline

from .tables import (
    C_CATEGORY,
    C_EFF_CATEGORY,
    C_EFF_EXCLUDE,
    C_EFF_FACTION,
    C_FACTION,
    C_MAJ_FACTION,
    C_NEED0,
    C_OF,
    C_PER,
    C_POINTS,
    C_VALUE,
    MAX_NEEDS,
    Value,
)

V_FIXED = int(Value.FIXED)
V_COUNT = int(Value.COUNT)
V_QUEST_CARDS = int(Value.QUEST_CARDS)
V_QUEST_MAJORITY = int(Value.QUEST_MAJORITY)
V_MAJORITY = int(Value.MAJORITY)
V_WILD = int(Value.WILD)


@hot_inline
def copy_value(ct, u, own, own_fc, cnt, fcnt, n_players, p, strict):
    """Points of one face-up copy of card ``u`` for player ``p`` (WILD: its own points only)."""
    kind = ct[u, C_VALUE]
    if kind == V_FIXED or kind == V_WILD:
        return ct[u, C_POINTS]
    if kind == V_COUNT:
        return ct[u, C_PER] * own[ct[u, C_OF]]
    if kind == V_QUEST_CARDS:
        for k in range(MAX_NEEDS):
            need = ct[u, C_NEED0 + k]
            if need >= 0 and own[need] == 0:
                return 0
        return ct[u, C_POINTS]
    if kind == V_QUEST_MAJORITY:
        f = ct[u, C_MAJ_FACTION]
        mine = own_fc[f]
        if mine == 0:
            return 0
        for q in range(n_players):
            if q != p and (fcnt[q, f] > mine or (strict and fcnt[q, f] == mine)):
                return 0
        return ct[u, C_POINTS]
    # V_MAJORITY: points per copy, only for the player(s) with the most face-up copies
    mine = own[u]
    if mine == 0:
        return 0
    for q in range(n_players):
        if q != p and (cnt[q, u] > mine or (strict and cnt[q, u] == mine)):
            return 0
    return ct[u, C_POINTS]


@hot
def player_total(ct, own, own_fc, cnt, fcnt, n_players, p, strict):
    """Score of the face-up cards counted in ``own`` (a WILD card counts as its own points)."""
    total = 0
    for u in range(ct.shape[0]):
        if own[u] != 0:
            total += own[u] * copy_value(ct, u, own, own_fc, cnt, fcnt, n_players, p, strict)
    return total


@hot
def delta_add(ct, deps, c, own, own_fc, cnt, fcnt, n_players, p, strict):
    """``player_total`` after one more face-up ``c`` minus before. Only ``c``'s own copies
    and its dependents ``deps[c]`` can change value; the common kinds have closed forms (a
    fixed card adds its points, a card counting another card adds per × that count, a
    counter of ``c`` gains ``per`` per copy), the rest are scored before and after.
    ``own``/``own_fc`` are restored. Pinned to full rescoring by the scoring tests."""
    kind = ct[c, C_VALUE]
    f = ct[c, C_FACTION]
    n = own[c]
    if kind == V_FIXED or kind == V_WILD:
        d = ct[c, C_POINTS]
    elif kind == V_COUNT and ct[c, C_OF] != c:
        d = ct[c, C_PER] * own[ct[c, C_OF]]
    else:
        before = n * copy_value(ct, c, own, own_fc, cnt, fcnt, n_players, p, strict) if n else 0
        own[c] += 1
        own_fc[f] += 1
        d = (n + 1) * copy_value(ct, c, own, own_fc, cnt, fcnt, n_players, p, strict) - before
        own[c] -= 1
        own_fc[f] -= 1
    for k in range(deps.shape[1]):
        u = deps[c, k]
        if u < 0:
            break
        m = own[u]
        if m == 0:
            continue
        if ct[u, C_VALUE] == V_COUNT:  # u counts c (deps never lists c itself)
            d += m * ct[u, C_PER]
        else:
            b = copy_value(ct, u, own, own_fc, cnt, fcnt, n_players, p, strict)
            own[c] += 1
            own_fc[f] += 1
            a = copy_value(ct, u, own, own_fc, cnt, fcnt, n_players, p, strict)
            own[c] -= 1
            own_fc[f] -= 1
            d += m * (a - b)
    return d


@hot
def loss_remove(ct, deps, c, own, own_fc, cnt, fcnt, n_players, p, strict):
    """Points lost if one face-up ``c`` (present in ``own``) were turned face down."""
    f = ct[c, C_FACTION]
    own[c] -= 1
    own_fc[f] -= 1
    d = delta_add(ct, deps, c, own, own_fc, cnt, fcnt, n_players, p, strict)
    own[c] += 1
    own_fc[f] += 1
    return d


@hot_inline
def matches(ct, t, e):
    """Can the Open/Close effect of card ``e`` select card ``t``? (faction, exclusion, category)"""
    ff = ct[e, C_EFF_FACTION]
    if ff >= 0 and ct[t, C_FACTION] != ff:
        return False
    fx = ct[e, C_EFF_EXCLUDE]
    if fx >= 0 and ct[t, C_FACTION] == fx:
        return False
    fc = ct[e, C_EFF_CATEGORY]
    return not (fc >= 0 and ct[t, C_CATEGORY] != fc)
