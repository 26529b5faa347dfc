"""DRAKO heuristic players: names, tunable weights and the numba policies.

§N: a section of ``docs/rules/drako.md``, DRAKO's rules as implemented.

The policy names and the weight table are shared by ``reference/`` (which restates every
policy readably) and the numba policies below (the same formulas). The policy codes
(``Policy``) and the weight columns (``W_*``) are defined in ``layout.py``, the compiled
code's schema, and re-exported here.

Every policy values an outcome for its own kingdom (face-up cards only: a face-down card
is unknown to everyone, its owner included) as::

    w[W_GAIN]*Δscore + w[W_LEGEND]*Δclaim + w[W_NEAR]*Δnear + w[W_TAME]*Δtame

* Δscore - change of the player's visible score (§7, face-up cards + held Legends)
* Δclaim - points of the best river Legend claimable after the action, minus those of the
           best one claimable already before it (never below 0)
* Δnear  - change of Σ over the river Legends of points × progress (share of the
           requirement on the table, 1.0 once met; see ``KingdomView.legend_progress``)
* Δtame  - change of Σ over face-up dragons of min(best linked same-kind tribes, 2) / 2
A reveal is valued by its expectation over the kinds the player has not seen.
``w[W_TAKE_BAR]``: take the top discard when its best placement is worth at least this
much, else draw. ``random`` ignores its row.
"""

from __future__ import annotations

import numpy as np

from . import layout as L  # noqa: N812 (the schema, read as L.NAME)
from .layout import (  # noqa: F401 (the weight columns, re-exported for ``reference/``)
    N_WEIGHTS,
    W_GAIN,
    W_LEGEND,
    W_NEAR,
    W_TAKE_BAR,
    W_TAME,
    Policy,
)

POLICY_NAMES = ("random", "greedy", "legend-hunter", "mc", "learned")


def default_weights() -> np.ndarray:
    """float64[len(Policy), N_WEIGHTS]: one tunable row per policy (random ignores its row)."""
    w = np.zeros((len(Policy), N_WEIGHTS))
    w[Policy.GREEDY] = (1.0, 1.0, 0.0, 0.0, 1.0)
    w[Policy.LEGEND_HUNTER] = (1.0, 1.0, 1.0, 2.0, 1.0)
    w[Policy.MC] = w[Policy.GREEDY]  # mc ranks its candidates by greedy's values
    w[Policy.LEARNED] = w[Policy.GREEDY]  # and so does learned (its forced choices, claims)
    return w


# --- the numba policies ------------------------------------------------------------------
#
# The decisions of ``reference.Brain`` over the kernel's ``GameState`` (``s``, see
# ``kernel/state.py``) and the card tables ``tb`` (``tables.Tables`` as a tuple: kind_cat,
# kind_blind, kind_tame, kind_locked, land_pts, rival, legend, dragon_values, adj, rules,
# deck, pair_adjacent, pair_portal). Every float is computed in the reference's order of
# operations, so first-best ties break alike; ``random`` draws the reference's numbers in
# the reference's order.

from talesim.simcore.jit import hot  # noqa: E402
from talesim.simcore.rng import rng_below  # noqa: E402

from .incremental import (  # noqa: E402
    best_claim_changed,
    change_kingdom,
    claims_after_card,
    claims_after_slots,
    dragons_after_card,
    evaluate_change,
    gain_of,
    legend_met_after,
    load_claims,
    load_kingdom,
    load_pair_row,
    near_after,
    portal_zone,
    tame_after,
)

# Passed as call arguments, so imported by name (numba types an imported name as a literal,
# ``L.NAME`` as an ``int64``: see ``layout.py``).
from .layout import EVERY_CELL, NO, NO_CELL, NO_CELLS, SRC_DISCARD, ix  # noqa: E402
from .scoring import (  # noqa: E402
    dragon_score,
    popcount,
    score_kingdom,
    trailing_zeros,
    visible_mask,
)


@hot
def pick(s, n):
    """Uniform index in [0, n); forced (no draw) when n == 1 (``Brain.pick``)."""
    if n == 1:
        return 0
    return rng_below(s.rng, n)


@hot
def face_down(s, p):
    n = 0
    for c in range(L.CELLS):
        if s.up[ix(p), ix(c)] == 0:
            n += 1
    return n


@hot
def visible_kingdom(tb, s, p):
    """Seat ``p``'s kingdom total over its face-up cards (``scoring.score_kingdom``; the
    breakdown in ``s.sbd``, the links in ``s.direct`` / ``s.full``). The visible cells are
    a run-time value even when every card is up: a literal ``ALL_CELLS`` would compile the
    scorer twice."""
    vis = visible_mask(s.up[ix(p)])
    return score_kingdom(
        s.grid[ix(p)], vis, tb.kind_cat, tb.kind_blind, tb.kind_tame, tb.land_pts, tb.rival,
        tb.dragon_values, tb.adj, tb.rules,
        s.direct, s.full, s.sbd,
    )  # fmt: skip


@hot
def held_points(tb, s, p):
    """§7.4: the points of the Legends seat ``p`` holds."""
    held = 0
    for k in range(s.claim_n[ix(p)]):
        held += tb.legend[s.claim_g[ix(p), ix(k)], L.LG_POINTS]
    return held


@hot
def park(s):
    """Leave the loaded seat's kingdom caches in its rows of the ``seat_*`` arrays (where
    they live: ``kernel.seat_view``), before the shared caches serve another kingdom. A
    random player's are dropped (its own action, taken blind, would drop them anyway)."""
    q = s.meta[L.M_LOADED]
    if q < 0:
        return
    if s.policy[ix(q)] == L.P_RANDOM:
        s.kept[ix(q)] = 0
    s.kept_claims[ix(q)] = s.meta[L.M_CLAIMS_OK]
    s.meta[L.M_LOADED] = -1


@hot
def load_seat(tb, s, p):
    """Load seat ``p``'s visible kingdom into the caches of ``incremental.py`` (``s`` is
    ``kernel.seat_view(state, p)``: they are seat ``p``'s rows), unless they hold it already: a
    kingdom changes only by its owner's action (``after_action`` updates the caches), so one
    load serves both decisions of a turn, the Legend checks before and after the action and
    ``claim_before``, and the seat's next turns."""
    if s.meta[L.M_LOADED] == p:
        return
    park(s)
    claims = 0
    if s.kept[ix(p)] == 0:
        load_kingdom(tb, s, s.grid[ix(p)], visible_mask(s.up[ix(p)]))
        s.kept[ix(p)] = 1
    elif s.kept_claims[ix(p)] != 0:  # its Legend caches too, but gain rows and near terms are
        claims = 1  # shared (another seat's now)
        s.kfacts[L.KF_GAIN_ROWS] = 0
        s.kfacts[L.KF_NEAR_OK] = 0
        if s.dirty[ix(p)] != 0:  # river slots refilled since: only those checked again
            claims_after_slots(tb, s, s.dirty[ix(p)])
    s.dirty[ix(p)] = 0  # else ``load_claims`` will check every slot
    s.meta[L.M_LOADED] = p
    s.meta[L.M_CLAIMS_OK] = claims
    s.meta[L.M_MEMO_OK] = 0
    s.meta[L.M_MET_OK] = claims


@hot
def after_action(tb, s, p, cell, o):
    """Seat ``p``'s kingdom changed by its action on ``cell`` (the visible kind ``o`` before,
    -1: face down): update its caches if they are loaded (``incremental.change_kingdom``),
    else forget the kept ones. The value memo is stale either way; when the Legend caches
    were loaded (``load_claims``) and no portal moved, they follow the card too
    (``incremental.claims_after_card``: only the Legends naming the kinds that came or
    went are checked again), so the Legend check after the action reads them, and the
    seat's next turn too while nobody claims."""
    met_ok = False
    if s.meta[L.M_LOADED] == p:
        k = np.int64(s.grid[ix(p), ix(cell)])
        met_ok = s.meta[L.M_CLAIMS_OK] != 0 and k != L.K_PORTAL and o != L.K_PORTAL
        change_kingdom(tb, s, s.grid[ix(p)], cell, o)
        if met_ok:
            claims_after_card(tb, s, k, o)
    else:
        s.kept[ix(p)] = 0
    s.meta[L.M_CLAIMS_OK] = 1 if met_ok else 0
    s.meta[L.M_MEMO_OK] = 0
    s.meta[L.M_MET_OK] = 1 if met_ok else 0


@hot
def seat_claims(tb, s):
    """The loaded kingdom's best claim, with the Legend caches of ``load_claims`` filled for
    the river as it is: once per kingdom and river (``kernel._claim`` resets
    ``meta[M_CLAIMS_OK]``), so the second decision of a turn reuses the first one's gain
    rows."""
    if s.meta[L.M_CLAIMS_OK] == 0:
        load_claims(tb, s)
        s.meta[L.M_CLAIMS_OK] = 1
        p = s.meta[L.M_LOADED]
        if p >= 0:
            s.dirty[ix(p)] = 0  # every slot checked
    return s.kfacts[L.KF_BCLAIM]


@hot
def legal_actions(tb, s, p, source, card):
    """Fill ``s.act_cell``/``s.act_rev`` with the legal actions in enumeration order
    (placements on cells 0..15, then (DECK) reveals of face-down cells); returns the count.
    A greedy or legend-hunter seat reads its visible kingdom from the caches (``load_seat``,
    which its decision needs anyway): the cells it may not place on are the visible ones of
    a locked kind, or of the card's kind; a random seat (no kept caches) scans its cells."""
    kind_locked = tb.kind_locked
    same = tb.rules[L.R_SAME_KIND_FORBIDDEN] != 0
    if s.policy[ix(p)] == L.P_RANDOM:
        up = visible_mask(s.up[ix(p)])
        blocked = 0
        for c in range(L.CELLS):
            if (up >> c) & 1:
                k = s.grid[ix(p), ix(c)]
                if kind_locked[ix(k)] != 0 or (same and k == card):
                    blocked |= 1 << c
    else:
        load_seat(tb, s, p)
        up = s.kfacts[L.KF_VIS]
        blocked = s.kmask[ix(card)] if same else 0
        for k in range(L.N_KINDS):
            if kind_locked[ix(k)] != 0:
                blocked |= s.kmask[ix(k)]
    n = add_actions(s, 0, L.ALL_CELLS & ~blocked, 0)
    if source == L.SRC_DECK:
        n = add_actions(s, n, L.ALL_CELLS & ~up, 1)
    return n


@hot
def add_actions(s, n, cells, rev):
    """Append an action on each cell of the bitmask ``cells`` (in cell order) to ``s.act_*``
    from index ``n`` (``rev``: 1 a reveal, 0 a placement); returns the new count."""
    while cells:
        s.act_cell[ix(n)] = trailing_zeros(cells)
        s.act_rev[ix(n)] = rev
        cells &= cells - 1
        n += 1
    return n


@hot
def claimable(tb, s, p):
    """Fill ``s.slots`` with the river slots whose Legend seat ``p`` meets (face-up cards
    only by default); returns the count (``DrakoGame.claimable``). Loads ``p``'s kingdom
    into the caches of ``incremental.py`` (``load_seat``), and reads the Legends met from
    ``load_claims`` when a decision of this turn filled it already."""
    rules = tb.rules
    if rules[L.R_FACE_UP_ONLY] != 0:
        load_seat(tb, s, p)
    else:  # Legends count face-down cards too: not the kingdom the decisions see
        park(s)
        load_kingdom(tb, s, s.grid[ix(p)], EVERY_CELL)
        s.kept[ix(p)] = 0
        s.meta[L.M_LOADED] = -1
        s.meta[L.M_CLAIMS_OK] = 0
        s.meta[L.M_MET_OK] = 0
    cached = s.meta[L.M_CLAIMS_OK] != 0 or s.meta[L.M_MET_OK] != 0
    n = 0
    for slot in range(rules[L.R_LEGEND_ROW]):
        g = s.river[ix(slot)]
        if g >= 0:
            if cached:
                met = (s.kfacts[L.KF_MET] >> slot) & 1 != 0
            else:
                met = legend_met_after(tb, s, g, NO_CELL, NO_CELL, NO_CELLS)
            if met:
                s.slots[ix(n)] = slot
                n += 1
    return n


@hot
def best_slot(tb, s, n_slots):
    """The claimable slot of the Legend worth most (first slot on ties)."""
    legend = tb.legend
    best = s.slots[0]
    top = legend[ix(s.river[ix(best)]), L.LG_POINTS]
    for i in range(1, n_slots):
        pts = legend[ix(s.river[ix(s.slots[ix(i)])]), L.LG_POINTS]
        if pts > top:
            top = pts
            best = s.slots[ix(i)]
    return best


@hot
def value(w, score, claim, near, tame, b_score, b_claim, b_near, b_tame):
    """``Brain.value``: the weighted change of the features against the baseline."""
    return (
        w[L.W_GAIN] * (score - b_score)
        + w[L.W_LEGEND] * max(0, claim - b_claim)
        + w[L.W_NEAR] * (near - b_near)
        + w[L.W_TAME] * (tame - b_tame)
    )


@hot
def greedy_value(w_gain, w_legend, score, claim, b_claim):
    """``value`` without the plan terms (``w[W_NEAR]``, ``w[W_TAME]`` zero): the same
    number, up to the sign of a zero (comparisons, the only use, do not see it)."""
    return w_gain * score + w_legend * max(0, claim - b_claim)


@hot
def hidden_pool(s, in_hand):
    """Fill ``s.pool`` with the copies of each kind nobody sees: the deck's copies − the
    face-up kingdom cards and the discard pile (``s.seen``, kept by the kernel as cards
    move) − the card in hand ``in_hand`` (-1: none)."""
    for k in range(L.N_KINDS):
        s.pool[ix(k)] = s.copies[ix(k)] - s.seen[ix(k)]
    if in_hand >= 0:
        s.pool[ix(in_hand)] -= 1


@hot
def unseen(tb, s, p, in_hand):
    """``hidden_pool`` floored at 0; returns its total (``Brain.unseen``)."""
    hidden_pool(s, in_hand)
    n = 0
    for k in range(L.N_KINDS):
        if s.pool[ix(k)] < 0:
            s.pool[ix(k)] = 0
        n += s.pool[ix(k)]
    return n


@hot
def best_action(tb, weights, s, p, card, n_act):
    """Index of the first best of the ``n_act`` actions in ``s.act_*`` and its value
    (``Brain.best_action``; a reveal is valued by its expectation over the unseen kinds).

    The player's visible kingdom is loaded once a turn into the caches of ``incremental.py``
    (``load_seat``, ``seat_claims``; pair rows once per cell); each candidate's features
    (score change, claim, and the plan terms only when weighted) come from
    ``incremental.evaluate_change``: the same numbers as ``Brain.features`` on the changed
    kingdom, combined in the same order of floating-point operations.

    The value of kind ``k`` face up on cell ``c`` is kept in ``s.xval[c, k]`` (``s.xmask[k]``
    bit ``c``) until the kingdom or the river changes (``meta[M_MEMO_OK]``): a placement of
    the card on a face-down cell is the same change as revealing that kind there, and the
    second decision of a turn meets many changes the first one valued. Within a turn the
    claim allowance and the baselines do not change either (a claim resets the memo).

    Inlined into both decisions of ``kernel.take_turn`` (two copies): an outlined call
    marshalled the ~430 words of the state and the tables twice a turn, ~7% of the greedy
    kernel's time (measured +6% games per CPU-second; cold compile ~+40 s CPU)."""
    w = weights[s.policy[ix(p)]]
    rules = tb.rules
    w_gain = w[L.W_GAIN]
    wl = w[L.W_LEGEND]
    near = w[L.W_NEAR] != 0.0
    tame = w[L.W_TAME] != 0.0
    load_seat(tb, s, p)
    grid = s.grid[ix(p)]  # the rare full rescoring (``rescored_change``) changes one cell and back
    b_claim = 0
    if wl != 0.0 or near:  # ``near``: ``incremental.near_after_card`` reads these caches
        best_claim = seat_claims(tb, s)
        if wl != 0.0:
            b_claim = best_claim
    b_near = near_after(tb, s, NO_CELL, NO_CELL, NO_CELLS) if near else 0.0
    b_tame = tame_after(tb, s, NO_CELL, NO_CELL, NO_CELLS) if tame else 0.0
    n_down = L.CELLS - popcount(s.kfacts[L.KF_VIS])  # the seat's face-down cells
    n = -1  # unseen kinds, counted at the first reveal (the same for every reveal)
    best = 0.0
    best_i = -1
    # skip reveals whose bound cannot beat the best so far: greedy weights only
    prune = not near and not tame and w_gain >= 0.0 and wl >= 0.0
    pmax = -1  # the reveal bound's portal terms, at the first bound
    river_top = 0
    claims_left = s.meta[L.M_CLAIMS_LEFT] > 0  # the same for every action (read once)
    after_final = rules[L.R_CLAIM_AFTER_FINAL] != 0
    if s.meta[L.M_MEMO_OK] == 0:
        for k in range(L.N_KINDS):
            s.xmask[ix(k)] = 0
        s.meta[L.M_MEMO_OK] = 1
    for a in range(n_act):
        cell = s.act_cell[ix(a)]
        final = n_down == 1 and s.up[ix(p), ix(cell)] == 0
        claim_ok = claims_left and (not final or after_final)
        claim = claim_ok and wl != 0.0
        reveal = s.act_rev[ix(a)] != 0
        if reveal and n < 0:
            n = unseen(tb, s, p, card)
        load_pair_row(tb, s, grid, cell)
        # a reveal that cannot beat the best so far (the first best wins ties)
        if reveal and prune and best_i >= 0 and n > 0:
            if pmax < 0:
                pmax, river_top = s.meta[L.M_PMAX], river_best(tb, s)
            if reveal_bound(tb, w, s, cell, claim, b_claim, pmax, river_top) / n <= best:
                continue
        total = 0.0  # a reveal: sum over the unseen kinds of copies x value
        v = 0.0
        lo = 0 if reveal else card  # a placement: the card in hand only
        hi = L.N_KINDS if reveal else card + 1
        for k in range(lo, hi):
            if reveal and s.pool[ix(k)] == 0:
                continue
            if (s.xmask[ix(k)] >> cell) & 1:
                x = s.xval[ix(cell), ix(k)]
            else:
                if near or tame:
                    f0, f1, f2, f3 = evaluate_change(
                        tb, s, grid, cell, k, claim, b_claim, near, tame
                    )
                    x = value(w, f0, f1, f2, f3, 0, b_claim, b_near, b_tame)
                else:  # greedy: a copy without the plan terms (``NO``: typed constants)
                    f0, f1, _, _ = evaluate_change(tb, s, grid, cell, k, claim, b_claim, NO, NO)
                    x = greedy_value(w_gain, wl, f0, f1, b_claim)
                s.xval[ix(cell), ix(k)] = x
                s.xmask[ix(k)] |= 1 << cell
            if reveal:
                total += s.pool[ix(k)] * x
            else:
                v = x
        if reveal and n > 0:
            v = total / n
        if best_i < 0 or v > best:
            best = v
            best_i = a
    return best_i, best


@hot
def portal_pair_max(tb):
    """The most points one pair linked through a portal can score (0 at least)."""
    pair_portal = tb.pair_portal
    top = 0
    for a in range(L.N_KINDS):
        for b in range(L.N_KINDS):
            top = max(top, pair_portal[a, b])
    return top


@hot
def river_best(tb, s):
    """The points of the best river Legend (0 without one)."""
    legend = tb.legend
    top = 0
    for slot in range(tb.rules[L.R_LEGEND_ROW]):
        g = s.river[ix(slot)]
        if g >= 0:
            top = max(top, legend[ix(g), L.LG_POINTS])
    return top


@hot
def dragon_bound(tb, s, n, lo, hi):
    """The most §7.3 dragon points can rise for ``n`` dragons when the tame ones number
    between ``lo`` and ``hi``, from the loaded kingdom's points (0 at least)."""
    dragon_values, rules = tb.dragon_values, tb.rules
    top = 0
    for t in range(lo, min(hi, n) + 1):
        top = max(top, dragon_score(n, t, dragon_values, rules) - s.kfacts[L.KF_DRAGON_PTS])
    return top


@hot
def reveal_bound(tb, w, s, cell, claim, b_claim, pmax, river_top):
    """An upper bound of ``Σ pool[k] × value`` of a reveal of the face-down ``cell``, summed
    in the same order as ``best_action`` (floating-point sums and products are monotone, so
    the bound over ``n`` is at least the computed expectation): each kind's value bounded by
    its pair points and claim (exact, from the pair and gain rows) and its dragon points
    (exact, ``dragons_after_card``: only untamed dragons linked to the cell can become tame,
    so a kind that tames none changes none); a portal's by ``pmax`` (``portal_pair_max``)
    per pair of visible zone cards, the best river Legend (``river_top``) and the most the
    dragon points can rise (``dragon_bound``). Greedy weights only (``w[W_GAIN]``,
    ``w[W_LEGEND]`` >= 0, no plan terms); memo values are taken as they are.

    A kind's bound is its exact value unless it is a portal: exact values go into the memo,
    so ``best_action`` does not evaluate them again."""
    kind_tame, adj = tb.kind_tame, tb.adj
    w_gain, w_legend = w[L.W_GAIN], w[L.W_LEGEND]
    dragons = s.kmask[L.K_DRAGON]
    n_dragons = popcount(dragons)
    tame = popcount(s.kfacts[L.KF_TAME])
    total = 0.0
    for k in range(L.N_KINDS):
        if s.pool[ix(k)] == 0:
            continue
        if (s.xmask[ix(k)] >> cell) & 1:
            u = s.xval[ix(cell), ix(k)]
        else:
            legend_top = 0  # the claim
            if k == L.K_PORTAL:  # bounded: every visible zone pair, the best river Legend
                legend_top = river_top if claim else 0
                vis = popcount(portal_zone(tb, s, cell) & s.kfacts[L.KF_VIS])
                gain = pmax * (vis * (vis - 1) // 2)
                if dragons != 0:
                    gain += dragon_bound(tb, s, n_dragons, tame, n_dragons)
            else:  # exact: ``delta_score`` on a face-down cell
                if claim:
                    legend_top = gain_of(tb, s, k, cell)
                gain = s.prow[ix(cell), ix(k)]
                if k == L.K_DRAGON or (
                    kind_tame[ix(k)] != 0
                    and dragons & ~s.kfacts[L.KF_TAME] & (s.reach[ix(cell)] | adj[ix(cell)]) != 0
                ):  # else no dragon can change (tame ones stay tame)
                    gain += dragons_after_card(tb, s, cell, NO_CELL, k) - s.kfacts[L.KF_DRAGON_PTS]
            u = greedy_value(w_gain, w_legend, gain, legend_top, b_claim)
            if k != L.K_PORTAL:  # exact: into the memo
                s.xval[ix(cell), ix(k)] = u
                s.xmask[ix(k)] |= 1 << cell
        total += s.pool[ix(k)] * u
    return total


@hot
def choose_source(tb, weights, s, p):
    """``Brain.choose_source``: (source, planned action index in ``s.act_*`` or -1)."""
    has_disc = s.meta[L.M_DISC_N] > 0
    has_deck = s.meta[L.M_DECK_N] > 0
    if has_deck and not has_disc:
        return L.SRC_DECK, -1
    policy = s.policy[ix(p)]
    if policy == L.P_RANDOM:
        i = pick(s, 2 if has_deck else 1)
        return (L.SRC_DISCARD if i == 0 else L.SRC_DECK), -1
    card = s.discard[s.meta[L.M_DISC_N] - 1]
    n_act = legal_actions(tb, s, p, SRC_DISCARD, card)
    i, v = best_action(tb, weights, s, p, card, n_act)
    if not has_deck or v >= weights[ix(policy), L.W_TAKE_BAR]:
        return L.SRC_DISCARD, i
    return L.SRC_DECK, -1


@hot
def choose_action(tb, weights, s, p, card, n_act):
    """``Brain.choose_action``: forced, uniform (``random``) or the first best."""
    if n_act == 1:
        return 0
    if s.policy[ix(p)] == L.P_RANDOM:
        return pick(s, n_act)
    i, _ = best_action(tb, weights, s, p, card, n_act)
    return i


@hot
def claim_before(tb, s, p, n_slots, source, cell):
    """``Brain.claim_before``: the slot to claim before the action, or -1. Greedy players
    claim first when drawing, or when their planned placement on ``cell`` (of the top
    discard) leaves no Legend worth as much; ``random`` never does."""
    if n_slots == 0 or s.policy[ix(p)] == L.P_RANDOM:
        return -1
    best = best_slot(tb, s, n_slots)
    if source == L.SRC_DECK or cell < 0:
        return best
    rules = tb.rules
    final = face_down(s, p) == 1 and s.up[ix(p), ix(cell)] == 0
    if final and rules[L.R_CLAIM_AFTER_FINAL] == 0:
        return best
    load_seat(tb, s, p)
    card = np.int64(s.discard[s.meta[L.M_DISC_N] - 1])  # int64 like every other caller's kind
    after = best_claim_changed(tb, s, s.grid[ix(p)], cell, card)
    return best if after < tb.legend[s.river[ix(best)], L.LG_POINTS] else -1


@hot
def claim_after(tb, s, p, n_slots):
    """``Brain.claim_after``: uniform (``random``) or the best Legend."""
    if s.policy[ix(p)] == L.P_RANDOM:
        return s.slots[pick(s, n_slots)]
    return best_slot(tb, s, n_slots)
