"""Fairy Tale scoring, compiled (``docs/rules/fairy-tale.md`` §5). Used by the kernel
and the policies; ``reference/`` restates it in plain Python.

The compiled functions work on the flat arrays of ``layout.py``: card tables ``kt`` and game
state ``st``. A player's counts are two row offsets into ``st``: ``own`` (``st[own + t]`` =
face-up copies of card t) and ``ownf`` (``st[ownf + f]`` = face-up cards of faction f).
``own`` may be a hypothetical row (face-up + kept: ``HYP``); majorities compare with the
other players' face-up rows ``CNT`` / ``FCNT`` (row ``p`` itself is skipped). A face-down
card has no name, faction or value: it is simply not counted.

``delta_add`` / ``loss_remove`` / ``player_total`` keep the array signature of the first
version for the scoring property tests; they copy the counts into a state and call the
compiled functions.
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot, hot_inline

from . import layout as L  # noqa: N812 (the schema, read as L.NAME)
from .layout import build_tables, ix, kmask, lowest

assert L.DEP_W == 2  # gain_if_added visits the first two dependents unrolled


@hot_inline
def _leads(st, mine, row, width, n_players, p, strict):
    """A majority: does ``p``'s count ``mine`` beat every other seat's count
    ``st[row + q * width]`` (a face-up row: ``CNT + u`` by card, ``FCNT + f`` by faction)?
    A tie beats nobody under ``strict`` ties, else it shares the majority."""
    for q in range(n_players):
        if q != p:
            theirs = st[ix(row + q * width)]
            if theirs > mine or (strict and theirs == mine):
                return False
    return True


@hot_inline
def copy_value(kt, st, u, own, ownf, n_players, p, strict):
    """Points of one face-up copy of card ``u`` for player ``p`` (WILD: its own points only)."""
    kind = kt[ix(L.K_VALUE + u)]
    if kind == L.V_FIXED or kind == L.V_WILD:
        return kt[ix(L.K_POINTS + u)]
    if kind == L.V_COUNT:
        return kt[ix(L.K_PER + u)] * st[ix(own + kt[ix(L.K_OF + u)])]
    if kind == L.V_QUEST_CARDS:
        for k in range(L.MAX_NEEDS):
            need = kt[ix(L.K_NEED0 + k * L.MC + u)]
            if need >= 0 and st[ix(own + need)] == 0:
                return 0
        return kt[ix(L.K_POINTS + u)]
    if kind == L.V_QUEST_MAJORITY:
        f = kt[ix(L.K_MAJ_FACTION + u)]
        mine = st[ix(ownf + f)]
        if mine == 0 or not _leads(st, mine, L.FCNT + f, L.NF, n_players, p, strict):
            return 0
        return kt[ix(L.K_POINTS + u)]
    # V_MAJORITY: points per copy, only for the player(s) with the most face-up copies
    mine = st[ix(own + u)]
    if mine == 0 or not _leads(st, mine, L.CNT + u, L.MC, n_players, p, strict):
        return 0
    return kt[ix(L.K_POINTS + u)]


@hot
def row_total(kt, st, n_cards, own, ownf, n_players, p, strict):
    """Score of the face-up cards counted in row ``own`` (a WILD card: its own points)."""
    total = 0
    for u in range(n_cards):
        m = st[ix(own + u)]
        if m != 0:
            total += m * copy_value(kt, st, u, own, ownf, n_players, p, strict)
    return total


@hot
def gain_if_added(kt, st, c, own, ownf, n_players, p, strict):
    """``row_total`` after one more face-up ``c`` minus before. Only ``c``'s own copies
    and its dependents ``deps[c]`` can change value; the common kinds have closed forms
    (``K_GAIN_*``: a fixed card adds its points, a card counting another card adds per ×
    that count, a card counting itself adds per × (2n + 1), and each card counting ``c``
    gains its per), the rest are scored before and after. The counts are restored. Pinned
    to full rescoring by the scoring tests."""
    f = kt[ix(L.K_FACTION + c)]
    n = st[ix(own + c)]
    if kt[ix(L.K_GAIN_SLOW + c)] == 0:
        d = (
            kt[ix(L.K_GAIN_A + c)]
            + kt[ix(L.K_GAIN_B + c)] * st[ix(own + kt[ix(L.K_GAIN_OF + c)])]
            + kt[ix(L.K_GAIN_C + c)] * n
        )
    else:
        before, after = _values_around(kt, st, c, c, f, own, ownf, n_players, p, strict)
        d = (n + 1) * after - n * before
    # Each copy of a card u counting c gains per(u). The first DEP_W entries are cards or
    # NO_CARD (count 0): no test, no loop exit to mispredict.
    deps = L.K_COUNT_DEPS + c * L.MC
    u0 = kt[ix(deps)]
    u1 = kt[ix(deps + 1)]
    d += st[ix(own + u0)] * kt[ix(L.K_PER + u0)] + st[ix(own + u1)] * kt[ix(L.K_PER + u1)]
    for k in range(L.DEP_W, L.MC):
        u = kt[ix(deps + k)]
        if u < 0:
            break
        d += st[ix(own + u)] * kt[ix(L.K_PER + u)]
    # Quests that need c, majority quests of its faction: only held ones can change.
    deps = L.K_OTHER_DEPS + c * L.MC
    d += _dep_change(kt, st, c, f, kt[ix(deps)], own, ownf, n_players, p, strict)
    d += _dep_change(kt, st, c, f, kt[ix(deps + 1)], own, ownf, n_players, p, strict)
    for k in range(L.DEP_W, L.MC):
        u = kt[ix(deps + k)]
        if u < 0:
            break
        d += _dep_change(kt, st, c, f, u, own, ownf, n_players, p, strict)
    return d


@hot_inline
def _dep_change(kt, st, c, f, u, own, ownf, n_players, p, strict):
    """Change of the held copies of ``u`` (a quest or majority quest depending on card ``c``
    of faction ``f``) when one more ``c`` is face up; 0 when ``u`` is not held."""
    m = st[ix(own + u)]
    if m == 0:
        return 0
    before, after = _values_around(kt, st, u, c, f, own, ownf, n_players, p, strict)
    return m * (after - before)


@hot_inline
def _values_around(kt, st, u, c, f, own, ownf, n_players, p, strict):
    """(``copy_value(u)``, ``copy_value(u)`` with one more face-up ``c`` of faction ``f``),
    for a card ``u`` without a closed-form gain (``K_GAIN_SLOW``: quest, majority quest,
    majority; only those read other cards' counts), computed from the counts as they are: no
    count is changed, and the other players are read once."""
    kind = kt[ix(L.K_VALUE + u)]
    points = kt[ix(L.K_POINTS + u)]
    if kind == L.V_QUEST_CARDS:
        ok_before = True
        ok_after = True
        for k in range(L.MAX_NEEDS):
            need = kt[ix(L.K_NEED0 + k * L.MC + u)]
            if need >= 0:
                held = st[ix(own + need)]
                ok_before = ok_before and held > 0
                ok_after = ok_after and (held > 0 or need == c)
        return (points if ok_before else 0), (points if ok_after else 0)
    if kind == L.V_QUEST_MAJORITY:  # the most face-up cards of faction g
        g = kt[ix(L.K_MAJ_FACTION + u)]
        mine = st[ix(ownf + g)]
        after = mine + 1 if f == g else mine
        others = L.FCNT + g
        stride = L.NF
    else:  # V_MAJORITY: the most face-up copies of u
        mine = st[ix(own + u)]
        after = mine + 1 if u == c else mine
        others = L.CNT + u
        stride = L.MC
    most = 0  # the others' largest count; a majority needs more (or as many, if not strict)
    for q in range(n_players):
        if q != p:
            most = max(most, st[ix(others + q * stride)])
    least = most + 1 if strict else most
    return (points if mine > 0 and mine >= least else 0), (
        points if after > 0 and after >= least else 0
    )


@hot
def closed_gain_cards(kt, held):
    """Cards whose ``gain_if_added`` is exactly their closed form (``closed_gain``) while
    only cards of ``held`` (a mask of at least the cards counted) are counted: those with a
    closed form (not ``KM_SLOW``) none of whose dependents is held. The complement mask."""
    slow = kmask(kt, L.KM_SLOW)
    m = held
    while m != 0:
        v = lowest(m)
        m &= m - L.ONE
        slow |= kmask(kt, L.KM_READERS + v)
    return ~slow


@hot
def closed_gain(kt, st, c, own):
    """``gain_if_added(c)`` of a card of ``closed_gain_cards``: its ``K_GAIN_*`` terms."""
    return (
        kt[ix(L.K_GAIN_A + c)]
        + kt[ix(L.K_GAIN_B + c)] * st[ix(own + kt[ix(L.K_GAIN_OF + c)])]
        + kt[ix(L.K_GAIN_C + c)] * st[ix(own + c)]
    )


@hot
def loss_if_removed(kt, st, c, own, ownf, n_players, p, strict):
    """Points lost if one face-up ``c`` (counted in ``own``) were turned face down."""
    f = kt[ix(L.K_FACTION + c)]
    st[ix(own + c)] -= 1
    st[ix(ownf + f)] -= 1
    d = gain_if_added(kt, st, c, own, ownf, n_players, p, strict)
    st[ix(own + c)] += 1
    st[ix(ownf + f)] += 1
    return d


# --- the array interface of the property tests ------------------------------------------------


def _flat(ct, deps, own, own_fc, cnt, fcnt):
    """(kt, st) holding these counts: the others' rows in CNT/FCNT, ``own`` in HYP/HFC row 0."""
    empty = np.zeros(0, np.int32)
    kt = build_tables(
        np.ascontiguousarray(ct, np.int32),
        np.ascontiguousarray(deps, np.int32),
        empty,
        np.arange(ct.shape[0], dtype=np.int32),
        np.ones(ct.shape[0], np.int32),
        np.zeros(L.N_RULES, np.int32),
        np.full((ct.shape[0], 1), -1, np.int32),
    )
    st = np.zeros(L.STATE_FIXED, np.int32)
    for q in range(cnt.shape[0]):
        st[L.CNT + q * L.MC : L.CNT + q * L.MC + cnt.shape[1]] = cnt[q]
        st[L.FCNT + q * L.NF : L.FCNT + (q + 1) * L.NF] = fcnt[q]
    st[L.HYP : L.HYP + own.shape[0]] = own
    st[L.HFC : L.HFC + L.NF] = own_fc
    return kt, st


def delta_add(ct, deps, c, own, own_fc, cnt, fcnt, n_players, p, strict):
    """``gain_if_added`` on plain count arrays (``own``/``own_fc``: p's row)."""
    kt, st = _flat(ct, deps, own, own_fc, cnt, fcnt)
    return gain_if_added(kt, st, c, L.HYP, L.HFC, n_players, p, strict)


def loss_remove(ct, deps, c, own, own_fc, cnt, fcnt, n_players, p, strict):
    """``loss_if_removed`` on plain count arrays."""
    kt, st = _flat(ct, deps, own, own_fc, cnt, fcnt)
    return loss_if_removed(kt, st, c, L.HYP, L.HFC, n_players, p, strict)


def player_total(ct, own, own_fc, cnt, fcnt, n_players, p, strict):
    """``row_total`` on plain count arrays."""
    kt, st = _flat(ct, np.full((ct.shape[0], 1), -1, np.int32), own, own_fc, cnt, fcnt)
    return row_total(kt, st, ct.shape[0], L.HYP, L.HFC, n_players, p, strict)
