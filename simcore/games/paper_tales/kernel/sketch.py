"""The policies' valuation helpers (``reference.Brain.value`` and its sketches): a
seat's pieces sketched, a first pass made once per decision, one changed row valued from
it (base game: ``value``'s unit records; Legends: ``l_value``; both ``evaluate.value``).
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot, hot_inline
from talesim.simcore.rng import rng_below

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..evaluate.cache import project_levels, raise_building, strong_terms_nonnegative
from ..evaluate.end import death_rewards
from ..evaluate.facts import base_facts
from ..evaluate.project import l_project, l_sketch
from ..evaluate.value import first_pass, l_card_value, l_value, piece_terms, value, value_totals
from ..layout import LV_BASE, LV_FULL, NONE, T_ENTER, ix  # passed as call arguments (see layout.py)
from .payment import _has_k5, _pay_order
from .state import _load


@hot
def _value(tb, weights, s, p, n, gold, n_players):
    """``Brain.value`` of the sketch in ``s.pc[:n]`` / ``s.bl`` with ``gold``."""
    return value(
        tb,
        weights,
        s.pi[p, L.I_POLICY],
        s.pc,
        n,
        s.bl,
        gold,
        s.pi[p, L.I_SEEN0],
        s.pi[p, L.I_SEEN1],
        n_players == 2,
        s.g[L.G_TURN],
        s.wpc,
        s.wbl,
        s.bc[p],
        s.acc[1],
    )


# A decision's options differ from its base sketch (the seat's pieces as they are) by one
# piece: a unit placed (on an empty spot or replacing an old unit) or moved. Their values
# come from the base's first pass (``_sketch_base``) with that piece's share taken back and
# added again (``_changed_pass``): the same integers, so the same floats as ``value``. A
# piece whose on-deploy projection changes the others' tokens or the levels (Time Master,
# Golem: ``_projects``) is valued in full.


@hot
def _sketch_base(tb, s, p):
    """Seat ``p``'s pieces into ``s.pc`` (``_load``) with their first pass: levels projected
    (``s.wbl``, the seat's building cache ``s.bc[p]``), totals ``s.acc[0]``, scratch rows
    ``s.wpc``; pieces and rows copied to ``s.pc0`` / ``s.wpc0``. Returns (pieces, tokens
    the pending put on others)."""
    n = _load(s, p)
    others = first_pass(tb, s.pc, n, s.bl, s.g[L.G_TURN], s.wpc, s.wbl, s.bc[p], s.acc[0])
    _copy_rows(s.pc, s.wpc, s.pc0, s.wpc0, n)
    return n, others


@hot
def _copy_rows(pc, wpc, to_pc, to_wpc, n):
    """Rows ``[:n]`` of a sketch's pieces and scratch rows into ``to_pc`` / ``to_wpc``."""
    for i in range(n):
        for c in range(L.N_PC):
            to_pc[ix(i), c] = pc[ix(i), c]
            to_wpc[ix(i), c] = wpc[ix(i), c]


@hot
def _projects(ut, u):
    """A pending ``u`` changes the projection of the other pieces (tokens, levels)."""
    return ut[ix(u), L.KU_OTHERS_AGE] != 0 or ut[ix(u), L.KU_UPGRADE] != 0


@hot
def _totals_value(tb, weights, s, p, n, row, gold, n_players):
    """``value`` of the sketch ``s.pc[:n]`` from its first pass: totals ``s.acc[row]``
    (0: the base sketch's, 1: an option's), scratch rows ``s.wpc``, levels ``s.wbl`` /
    ``s.bc[p]``. ``value_totals`` is most of the kernel's code: each decision calls it once
    (inlined, so once per decision in the compiled code too)."""
    return value_totals(
        tb, weights, s.pi[p, L.I_POLICY], s.pc, n, s.wpc, s.wbl, s.bc[p], s.acc[row], gold,
        s.pi[p, L.I_SEEN0], s.pi[p, L.I_SEEN1], n_players == 2, s.g[L.G_TURN],
    )  # fmt: skip


@hot
def _full_pass(tb, s, p, n):
    """The first pass of the sketch ``s.pc[:n]`` into ``s.acc[1]``, ``s.wpc``, ``s.wbl``
    and ``s.bc[p]`` (an option valued in full; ``_restore_base`` after)."""
    first_pass(tb, s.pc, n, s.bl, s.g[L.G_TURN], s.wpc, s.wbl, s.bc[p], s.acc[1])


@hot
def _changed_pass(tb, s, n0, others, k, spot, u, age, new):
    """The first pass of the base sketch with its row ``k`` (``n0``: a new row) replaced by
    the piece ``u`` on ``spot`` with ``age`` tokens (``new``: pending and fresh, else as
    row ``k`` was) into ``s.acc[1]``: the base's totals with row ``k``'s share taken back
    and the new piece's added (``_restore_row`` after). Returns the sketch's piece count."""
    ut, ab, ur = tb.ut, tb.ab, tb.ur
    acc = s.acc[1]
    for c in range(L.N_AC):
        acc[c] = s.acc[0, c]
    extra = tb.rules[L.R_TURNS] - s.g[L.G_TURN] + 1
    if k < n0:
        piece_terms(ut, ab, ur, s.pc, k, others, extra, s.wpc, acc, -1)
    r = ix(k)
    s.pc[r, L.PC_SPOT] = spot
    s.pc[r, L.PC_UNIT] = u
    s.pc[r, L.PC_AGE] = age
    if new:
        s.pc[r, L.PC_PENDING] = 1
        s.pc[r, L.PC_FRESH] = 1
    piece_terms(ut, ab, ur, s.pc, k, others, extra, s.wpc, acc, 1)
    return max(n0, k + 1)


@hot
def _removed_pass(tb, s, n0, others, spot):
    """The first pass of the base sketch without the (old) unit on ``spot`` into
    ``s.acc[1]``: the base's totals with its row's share taken back, that row ``k``
    swapped with the last one, so the sketch is ``s.pc[:n0 - 1]`` (its projection is the
    base's: an old unit projects nothing). Returns ``k``; after: ``_swap_rows(s, k,
    n0 - 1)`` and ``_restore_row(s, n0, k)``."""
    ut, ab, ur = tb.ut, tb.ab, tb.ur
    acc = s.acc[1]
    for c in range(L.N_AC):
        acc[c] = s.acc[0, c]
    k = n0 - 1
    for i in range(n0):
        if s.pc[ix(i), L.PC_SPOT] == spot:
            k = i
    extra = tb.rules[L.R_TURNS] - s.g[L.G_TURN] + 1
    piece_terms(ut, ab, ur, s.pc, k, others, extra, s.wpc, acc, -1)
    _swap_rows(s, k, n0 - 1)
    return k


@hot
def _swap_rows(s, i, j):
    """Rows ``i`` and ``j`` of the sketch's pieces and scratch rows swapped."""
    for c in range(L.N_PC):
        s.pc[ix(i), c], s.pc[ix(j), c] = s.pc[ix(j), c], s.pc[ix(i), c]
        s.wpc[ix(i), c], s.wpc[ix(j), c] = s.wpc[ix(j), c], s.wpc[ix(i), c]


@hot
def _restore_row(s, n0, k):
    """After ``_changed_pass``: the base sketch's row ``k`` back (a new row needs none)."""
    if k < n0:
        r = ix(k)
        for c in range(L.N_PC):
            s.pc[r, c] = s.pc0[r, c]
            s.wpc[r, c] = s.wpc0[r, c]


@hot
def _restore_base(tb, s, p, n0):
    """After ``_full_pass``: the base sketch back in ``s.pc`` / ``s.wpc`` and its
    projected levels in ``s.wbl`` / ``s.bc[p]``."""
    _copy_rows(s.pc0, s.wpc0, s.pc, s.wpc, n0)
    project_levels(tb.ut, tb.bt, tb.ab, s.pc, n0, s.bl, s.wbl, s.bc[p])


@hot
def first_best(i, v, best, chosen):
    """(best value, chosen option) after option ``i`` valued ``v``: the first best wins."""
    if i == 0 or v > best:
        return v, i
    return best, chosen


@hot
def unvalued_choice(s, p, n):
    """Seat ``p``'s choice among ``n`` options where no valuing is needed: 0 when ``n`` is
    1, a uniform draw for a random seat; -1 when its policy values the options."""
    if n == 1:
        return 0
    if s.pi[p, L.I_POLICY] == L.P_RANDOM:
        return rng_below(s.rng, n)
    return -1


@hot
def _card_value_from(tb, weights, s, p, unit, n0, others, n_players):
    """``Brain.card_value``: the kingdom with ``unit`` added pending and fresh on virtual
    spot 0, then 3 (cost paid), the better one; minus ``W_UNAFFORDABLE`` if unaffordable.
    From the seat's base sketch (``_sketch_base``), which it keeps."""
    ut = tb.ut
    cost = ut[ix(unit), L.U_COST]
    gold = s.pi[p, L.I_GOLD]
    full = _projects(ut, unit)
    best = -np.inf
    for spot in (0, L.BACK0):
        if full:
            r = ix(n0)
            s.pc[r, L.PC_SPOT] = spot
            s.pc[r, L.PC_UNIT] = unit
            s.pc[r, L.PC_AGE] = 0
            s.pc[r, L.PC_PENDING] = 1
            s.pc[r, L.PC_FRESH] = 1
            _full_pass(tb, s, p, n0 + 1)
        else:
            _changed_pass(tb, s, n0, others, n0, spot, unit, 0, 1)
        v = _totals_value(tb, weights, s, p, n0 + 1, 1, gold - cost, n_players)
        if full:
            _restore_base(tb, s, p, n0)
        best = max(best, v)
        if spot == 0 and front_first_holds(tb, weights, s, p, unit, n0 + 1, n_players):
            break
    if cost > gold:
        best -= weights[s.pi[p, L.I_POLICY], L.W_UNAFFORDABLE]
    return best


@hot
def front_first_holds(tb, weights, s, p, unit, n, n_players):
    """After ``card_value``'s Front-row option (its first pass in ``s.acc[1]``): the
    Back-row one cannot be worth more (``n``: the option's pieces). ``unit``'s Front-row
    records dominate its Back-row ones (``evaluate.records.front_first``): the two kingdoms have
    the same totals except strength and strong units, at least as high in the Front. Every
    feature is then at least as high in the Front, given: no piece computes its war-phase
    step from the kingdom's totals (the only step that reads strong units; no step reads
    the kingdom's strength), the per-war-won LP is >= 0, no building
    face loses LP per strong unit, the rules give >= 0 LP for a war won (2 players: a
    double win >= a win), and the policy's weights of war LP, strength, margin and strong
    units are >= 0. Each product with a weight >= 0 and each float sum in the same order
    keep the order (rounding is monotone), so the maximum is the Front-row value."""
    ut, rules, acc = tb.ut, tb.rules, s.acc[1]
    if not ut[ix(unit), L.KU_FRONT_FIRST] or acc[L.AC_PER_WAR] < 0:
        return False
    for i in range(n if acc[L.AC_DYN] else 0):
        if s.wpc[ix(i), L.W_DYN] & L.STEP_WAR:
            return False
    w = weights[ix(s.pi[p, L.I_POLICY])]
    if w[L.F_WAR_LP] < 0 or w[L.F_STRENGTH] < 0 or w[L.F_MARGIN] < 0 or w[L.F_STRONG] < 0:
        return False
    if n_players == 2:
        if not 0 <= rules[L.R2_WAR_LP] <= rules[L.R2_DOUBLE_LP] or rules[L.R2_PWW_TIMES] < 0:
            return False
    elif rules[L.R_WAR_LP] < 0:
        return False
    return strong_terms_nonnegative(tb.bt, s.bc[p])


@hot
def _lsketch(s, ls, p):
    """``Brain.sketch`` (Legends): seat ``p``'s pieces into ``s.pc`` / ``s.bl``, their tiers
    done into ``ls.pdone``, the zone into ``ls.sa``: (pieces, sketch artifacts)."""
    n = _load(s, p)
    return n, l_sketch(s, ls, p, n)


@hot_inline
def _lv(tb, lx, weights, s, ls, p, n, na, gold, bonus, n_players, mode):
    """``Brain.value`` of the sketch in ``s.pc[:n]``, ``ls.pdone``, ``s.bl``, ``ls.sa[:na]``
    (``mode``: ``l_value``'s ``LV_*``). Inlined in numba's IR (no compiled copy of its own)
    and the counts and mode passed as int64, so that its callers (``_l_base_pass`` and
    the Legends decisions) share one compiled ``l_value`` (``simcore/jit.py``)."""
    return l_value(
        tb, lx, weights, s.pi[p, L.I_POLICY], s.pc, np.int64(n), ls.pdone, s.bl, ls.sa,
        np.int64(na), np.int64(gold), np.int64(bonus),
        s.pi[p, L.I_SEEN0], s.pi[p, L.I_SEEN1], n_players == 2, s.g[L.G_TURN], s.wpc, s.wbl, ls.zx,
        ls.inset, np.int64(mode),
    )  # fmt: skip


@hot
def _l_base_pass(tb, lx, weights, s, ls, p, n_players):
    """Seat ``p``'s Legends sketch loaded (``_lsketch``) and its first pass made
    (``l_value``'s ``LV_BASE``): the base a decision values every option from
    (``deploy_choice``'s Legends steps, ``l_card_value``'s cards). (pieces, sketch
    artifacts)."""
    n, na = _lsketch(s, ls, p)
    _lv(tb, lx, weights, s, ls, p, n, na, 0, 0, n_players, LV_BASE)
    return n, na


@hot
def _l_card_value(tb, lx, weights, s, ls, p, u, n, na, n_players):
    """``Brain.card_value`` of card type ``u`` in a Legends game (``l_card_value``), from
    the base ``_l_base_pass`` made (``n`` pieces, ``na`` sketch artifacts)."""
    return l_card_value(
        tb, lx, weights, s.pi[p, L.I_POLICY], s.pc, n, ls.pdone, s.bl, ls.sa, na, s.pi[p, L.I_GOLD],
        u, s.pi[p, L.I_SEEN0], s.pi[p, L.I_SEEN1], n_players == 2, s.g[L.G_TURN], s.wpc, s.wbl,
        ls.zx, ls.inset,
    )  # fmt: skip


@hot
def _sketch_move(s, p, kind, a, b, tb):
    """``Game.after_move``: the seat's pieces after the step into ``s.pc``; returns
    (count, gold)."""
    n = _load(s, p)
    gold = s.pi[p, L.I_GOLD]
    if kind == L.M_MOVE:
        for i in range(n):
            if s.pc[i, L.PC_SPOT] == a:
                s.pc[i, L.PC_SPOT] = b
    elif kind == L.M_REMOVE:  # its row out, the later ones shifted up (spot order kept)
        gone = n
        for i in range(n):
            if s.pc[i, L.PC_SPOT] == a:
                gone = i
        for i in range(gone, n - 1):
            for c in range(L.N_PC):
                s.pc[i, c] = s.pc[i + 1, c]
        if gone < n:
            n -= 1
    elif kind == L.M_PLACE:
        card = s.hand[p, a]
        u = tb.deck[card]
        slot = n
        for i in range(n):
            if s.pc[i, L.PC_SPOT] == b:
                slot = i
        if slot == n:
            n += 1
        s.pc[slot, L.PC_SPOT] = b
        s.pc[slot, L.PC_UNIT] = u
        s.pc[slot, L.PC_AGE] = 0
        s.pc[slot, L.PC_PENDING] = 1
        s.pc[slot, L.PC_FRESH] = 1
        gold -= tb.ut[u, L.U_COST]
    return n, gold


@hot
def _repeated_units(tb, s, p):
    """Bit ``i`` set when hand card ``i``'s unit is an earlier hand card's. A step or a
    keep values a hand card by its unit only (its cost, strength, abilities), and
    ``moves`` lists the earlier card's placements on the same spots first: the repeat's
    values equal them, so the first best never changes when it is skipped."""
    deck = tb.deck
    again = 0
    for i in range(1, s.pi[p, L.I_HAND_N]):
        u = deck[ix(s.hand[p, ix(i)])]
        for j in range(i):
            if deck[ix(s.hand[p, ix(j)])] == u:
                again |= 1 << i
                break
    return again


@hot
def _kept_base(tb, s, p, n0, others):
    """The seat's base sketch in ``s.pc`` / ``s.wpc``: a new one (``_sketch_base``) when
    ``n0`` < 0, else the kept one (``s.pc0`` / ``s.wpc0``, ``s.acc[0]``) copied back (the
    steps in between may have reloaded ``s.pc``: a replaced unit's death abilities)."""
    if n0 < 0:
        return _sketch_base(tb, s, p)
    _copy_rows(s.pc0, s.wpc0, s.pc, s.wpc, n0)
    return n0, others


@hot
def _step_piece(tb, s, p, n0, kind, a, b):
    """The piece a deployment step (not STOP) changes in the base sketch: (its row ``k``,
    ``n0`` for a new row; its unit, tokens, 1 if placed now (pending and fresh); whether
    the step changes the projection of the other pieces, so it must be valued in full)."""
    ut = tb.ut
    k = n0
    target = a if kind == L.M_MOVE else b
    for i in range(n0):
        if s.pc0[ix(i), L.PC_SPOT] == target:
            k = i
    r = ix(k)
    old = k < n0 and s.pc0[r, L.PC_PENDING] != 0 and _projects(ut, s.pc0[r, L.PC_UNIT])
    if kind == L.M_MOVE:  # the piece of row k moves to b, as it is
        u, age, new = s.pc0[r, L.PC_UNIT], s.pc0[r, L.PC_AGE], 0
    else:  # a hand card placed on b, pending and fresh
        u, age, new = tb.deck[ix(s.hand[p, ix(a)])], 0, 1
    return k, u, age, new, old or (new == 1 and _projects(ut, u))


@hot
def _step_value(tb, weights, s, p, n0, others, kind, a, b, n_players):
    """``value`` of the sketch after the deployment step (kind, a, b) (``Game.after_move``),
    from the base sketch of ``_sketch_base``; in full (``_sketch_move``) when the step
    changes the projection of the other pieces."""
    gold = s.pi[p, L.I_GOLD]
    if kind == L.M_REMOVE:  # the removed (old, so not pending) unit's share taken back
        k = _removed_pass(tb, s, n0, others, a)
        v = _totals_value(tb, weights, s, p, n0 - 1, 1, gold, n_players)
        _swap_rows(s, k, n0 - 1)
        _restore_row(s, n0, k)
        return v
    n, row, k, full = n0, 0, n0, False
    if kind != L.M_STOP:
        row = 1
        k, u, age, new, full = _step_piece(tb, s, p, n0, kind, a, b)
        if full:
            n, gold = _sketch_move(s, p, kind, a, b, tb)
            _full_pass(tb, s, p, n)
        else:
            n = _changed_pass(tb, s, n0, others, k, b, u, age, new)
            gold -= new * tb.ut[u, L.U_COST]
    v = _totals_value(tb, weights, s, p, n, row, gold, n_players)
    if full:
        _restore_base(tb, s, p, n0)
    elif row:
        _restore_row(s, n0, k)
    return v


@hot
def _commit_step(tb, s, p, n0, others, kind, a, b):
    """Before the chosen step (not STOP) is applied: the base sketch as the step leaves it
    (its changed piece's row and totals, ``_changed_pass``), so the seat's next decision
    needs no new first pass; the new piece count, or -1 (no base kept: nothing sketched
    yet, or the step changes the projection). The rows are no longer in spot order: the
    totals are sums of integers and every row is found by its spot, so the values are
    the same as a new ``_sketch_base``'s (``test_incremental_value``)."""
    if n0 < 0 or kind == L.M_REMOVE:
        return -1
    k, u, age, new, full = _step_piece(tb, s, p, n0, kind, a, b)
    if full:
        return -1
    n = _changed_pass(tb, s, n0, others, k, b, u, age, new)
    for c in range(L.N_AC):
        s.acc[0, c] = s.acc[1, c]
    for c in range(L.N_PC):
        s.pc0[ix(k), c] = s.pc[ix(k), c]
        s.wpc0[ix(k), c] = s.wpc[ix(k), c]
    return n


@hot
def _upgrade_pending(ut, pc, n):
    """A pending piece of ``pc[:n]`` upgrades the buildings (Golem): the projected levels
    are not the levels."""
    for i in range(n):  # noqa: SIM110 (a loop: compiled code, no generator)
        if pc[i, L.PC_PENDING] and ut[pc[i, L.PC_UNIT], L.KU_UPGRADE]:
            return True
    return False


@hot
def _build_value(tb, weights, s, p, n0, i, n_players, raised):
    """``value`` of construction option ``i`` (0: nothing, else ``s.bopt[i - 1]``) from the
    base sketch (``_sketch_base``): the pieces' totals do not depend on the levels.
    ``raised``: no pending upgrade, so the option's levels are the base's with one building
    raised, valued from the seat's building cache (``raise_building``, undone after);
    else projected and cached anew (``project_levels``)."""
    gold = s.pi[p, L.I_GOLD]
    b = s.bopt[i - 1, 0] if i else 0
    lv = s.blevel[p, b]
    level = s.bopt[i - 1, 1] if i else lv
    if i:
        gold -= s.bopt[i - 1, 3]
    if raised:
        if i:
            raise_building(tb.bt, tb.ab, s.bc[p], b, lv, level, 1)
            s.wbl[b] = level
    else:
        s.bl[b] = level
        project_levels(tb.ut, tb.bt, tb.ab, s.pc, n0, s.bl, s.wbl, s.bc[p])
        s.bl[b] = lv
    v = _totals_value(tb, weights, s, p, n0, 0, gold, n_players)
    if raised and i:
        raise_building(tb.bt, tb.ab, s.bc[p], b, lv, level, -1)
        s.wbl[b] = lv
    return v


@hot
def _l_build_value(tb, lx, weights, s, ls, p, i, n_players):
    """``_build_value`` in a Legends game: the seat's sketch (``_lsketch``) with the
    building of option ``i`` raised and its price paid, valued in full."""
    n, na = _lsketch(s, ls, p)
    gold = s.pi[p, L.I_GOLD]
    if i:
        s.bl[s.bopt[i - 1, 0]] = s.bopt[i - 1, 1]
        gold -= s.bopt[i - 1, 3]
    return _lv(tb, lx, weights, s, ls, p, n, na, gold, 0, n_players, LV_FULL)


@hot
def best_save(tb, weights, s, p, n_save, n, wood, food, crystal):
    """``heal_choice`` of a valuing policy, the pieces loaded and the production known."""
    ut, bt, ab, rules = tb.ut, tb.bt, tb.ab, tb.rules
    pol = s.pi[p, L.I_POLICY]
    age_all, n_level2 = base_facts(bt, s.pc, n, s.bl)
    left = rules[L.R_TURNS] - s.g[L.G_TURN]
    best = 0.0
    chosen = 0
    for i in range(1, n_save + 1):
        k = 0
        for j in range(n):
            if s.pc[j, L.PC_SPOT] == s.spots[i - 1]:
                k = j
        lp, gold = death_rewards(ut, ab, s.pc, n, 1 << k, wood, food, crystal, age_all, n_level2)
        v = weights[pol, L.W_SAVE_STRENGTH] * (ut[s.pc[k, L.PC_UNIT], L.U_STRENGTH] * left)
        v -= lp
        v -= weights[pol, L.F_GOLD] * gold
        if v > best:
            best = v
            chosen = i
    return chosen


@hot
def _set_art(ls, i, x, done):
    """Sketch artifact ``i``: artifact ``x``, pending, last tier done ``done``."""
    ls.sa[i, L.SA_X] = x
    ls.sa[i, L.SA_PENDING] = 1
    ls.sa[i, L.SA_DONE] = done


@hot
def _project_in_place(tb, lx, s, ls, n, na):
    """``Brain.project`` of the sketch, written back into it (pending flags cleared):
    (gold gained, deployment LP gained)."""
    gold, bonus, projected = l_project(
        tb.ut, tb.bt, tb.ab, lx.xt, s.pc, n, ls.pdone, s.bl, ls.sa, na, ls.zx, s.wpc, s.wbl
    )
    for i in range(n):
        if projected:
            for c in range(L.N_PC):
                s.pc[i, c] = s.wpc[i, c]
        s.pc[i, L.PC_PENDING] = 0
    for b in range(s.bl.shape[0]):
        s.bl[b] = s.wbl[b]
    for i in range(na):
        ls.sa[i, L.SA_PENDING] = 0
    return gold, bonus


@hot
def _remove_value(tb, lx, weights, s, ls, p, n0, na, spot, n_players):
    """``deploy_l``'s value of REMOVE ``spot``: the base sketch without that unit's row
    (swapped with the last row, the sketch valued in full on ``n0 - 1`` rows, swapped
    back), with the gold left after paying what is placed without it."""
    k = n0 - 1
    for r in range(n0):
        if s.pc[r, L.PC_SPOT] == spot:
            k = r
    _swap_lrows(s, ls, k, n0 - 1)
    replace = np.int64(spot) if _has_k5(tb.ut, tb.ab, s.sp[p, spot, L.S_UNIT]) else NONE
    paid = _pay_order(tb, lx, s, ls, p, NONE, replace, False, NONE)[1]
    v = _lv(tb, lx, weights, s, ls, p, n0 - 1, na, s.pi[p, L.I_GOLD] - paid, 0, n_players, LV_FULL)
    _swap_lrows(s, ls, k, n0 - 1)
    return v


@hot
def _swap_lrows(s, ls, i, j):
    """Rows ``i`` and ``j`` of the sketch's pieces and their tiers done swapped."""
    for c in range(L.N_PC):
        s.pc[i, c], s.pc[j, c] = s.pc[j, c], s.pc[i, c]
    ls.pdone[i], ls.pdone[j] = ls.pdone[j], ls.pdone[i]


@hot
def _restore_lrow(s, ls, p, n0, k):
    """After ``deploy_l``'s step: the base sketch's row ``k`` back (from ``s.pc0``) with its
    tier done (a new row or none needs nothing)."""
    if 0 <= k < n0:
        for c in range(L.N_PC):
            s.pc[k, c] = s.pc0[k, c]
        ls.pdone[k] = ls.sx[p, s.pc[k, L.PC_SPOT], L.SX_DONE]


@hot
def _enter_titan(tb, lx, weights, s, ls, p, n, na, gold, bonus, j, n_players):
    """``Brain.copy_enter`` of a ``build_free``: the sketch gets its best unbuilt building
    of the set (first best, set order; none: unchanged)."""
    level = tb.ab[j, L.A_BUILD_LEVEL]
    top = -np.inf
    pick = -1
    for b in range(s.bl.shape[0]):
        if ls.inset[b] and s.bl[b] == 0:
            s.bl[b] = level
            v = _lv(tb, lx, weights, s, ls, p, n, na, gold, bonus, n_players, LV_FULL)
            s.bl[b] = 0
            if v > top:
                top = v
                pick = b
    if pick >= 0:
        s.bl[pick] = level


@hot
def _enter_jester(tb, lx, weights, s, ls, p, n, na, gold, bonus, j, n_players):
    """``Brain.copy_enter`` of a ``deploy_artifact_from_hand``: the sketch gets the hand's
    best artifact (pending, tier 1a done) if that beats none; True if it did."""
    U = tb.ut.shape[0]
    cost = tb.ab[j, L.A_COST]
    top = _lv(tb, lx, weights, s, ls, p, n, na, gold, bonus, n_players, LV_FULL)
    pick = -1
    for h in range(s.pi[p, L.I_HAND_N]):
        t = tb.deck[s.hand[p, h]]
        if t >= U:
            _set_art(ls, na, t - U, T_ENTER)
            v = _lv(tb, lx, weights, s, ls, p, n, na + 1, gold - cost, bonus, n_players, LV_FULL)
            if v > top:
                top = v
                pick = t - U
    if pick >= 0:
        _set_art(ls, na, pick, T_ENTER)
    return pick >= 0
