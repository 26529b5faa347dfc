"""Incremental scoring: the exact change of a kingdom's score when ONE card changes.

§N: a section of ``docs/rules/drako.md``, DRAKO's rules as implemented.

A greedy decision values every legal placement, and every reveal over each kind still
unseen: about 50 hypothetical kingdoms a turn, each the player's visible kingdom with one
cell changed. Rescoring each in full (``scoring.score_kingdom``: links, then every
category, then every river Legend) was nearly all of the greedy players' time. Instead,
the visible kingdom is read once per decision (``load_kingdom``) into the caches below,
and a candidate costs a walk over the few cells linked to the changed one.

Caches (``GameState`` scratch, see ``kernel/state.py``). Invariant: after ``load_kingdom(tb, s,
grid, vis)`` they describe exactly that kingdom (kind ids ``grid``, visible cells ``vis``);
``change_kingdom`` keeps them so when its owner's action changes one card (the kernel keeps
each seat's caches between its turns: ``policies.park`` / ``policies.load_seat``); nothing
else writes them.

* ``s.reach[c]`` - ``scoring.fill_reach``: the cells ``c`` is linked to, or would be once
  face up, when they are face up. It depends only on where the face-up portals are, so
  putting a non-portal card on ``c`` changes no link but ``c``'s own, which is
  ``reach[c] & vis`` (``full``) and ``adj[c] & vis`` (``direct``).
* ``s.kmask[k]`` - the visible cells of kind ``k`` (int64 bitmask).
* ``s.dtame[d, k]`` - for each visible dragon ``d`` and each domesticating kind ``k``: its
  linked visible cards of kind ``k`` (§7.3, ``dragon_via_portal`` and portal-blindness
  as in ``scoring.dragon_is_tame``); other rows are stale.
* ``s.kfacts[KF_*]`` - the kingdom's visible cells, portal-blind cells, dragon points and
  domesticated dragons.

Per decision, on top (``load_claims``, for the river as it is; valid with the kingdom):

* ``s.goal[k]``, ``s.ready[slot, way]`` - the river Legends a card could newly meet, and
  where (``load_claims``);
* ``s.gain[k, c]`` - the claim gain of kind ``k`` on each cell, filled lazily one kind at a
  time (``load_gain_row``; ``kfacts[KF_GAIN_ROWS]`` says which rows are filled);
* ``s.near_terms[slot]`` - each river Legend's points x progress (``near_after``'s terms),
  filled lazily (``load_near_terms``, ``kfacts[KF_NEAR_OK]``) for legend-hunter's
  ``near_after_card``.

Per candidate cell ``c``, filled once per loaded kingdom: ``s.prow[c, k]`` - the pair
points of kind ``k`` on that cell (``load_pair_row``; ``kfacts[KF_PROW_ROWS]`` says which
rows are filled).

The score of a kingdom's land points and conflicts is a sum over its linked pairs of cards
(``tables.pair_points``): a non-portal kind ``k`` put on ``c`` in place of ``o`` changes
it by the pairs of ``k`` with ``c``'s links minus those of ``o``. A portal put on ``c`` can
merge portal groups: every cell next to the new group (``portal_zone``) becomes linked to
every other, so it adds exactly the pairs of that zone not linked before. Dragons are
re-evaluated from ``dtame`` (only those the change can touch); Legends from ``kmask`` and
``reach``. Replacing a face-up portal (only possible when a rules file unlocks portals)
splits groups; that rare case rescores in full (``rescored_change``).

``tests/drako/test_incremental.py`` checks on random kingdoms and changes, both presets
and random options, that every function here equals full rescoring.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from talesim.simcore.jit import hot, hot_outline

from . import layout as L  # noqa: N812 (the schema, read as L.NAME)

# Passed as call arguments, so imported by name (numba types an imported name as a literal,
# ``L.NAME`` as an ``int64``: see ``layout.py``).
from .layout import NO, NO_CELL, NO_CELLS, YES, ix
from .scoring import (
    dragon_score,
    fill_reach,
    popcount,
    score_kingdom,
    trailing_zeros,
)


@hot
def dragon_links(adj_d, reach_d, vis, blinds, via_portal):
    """Cells a dragon links to for domestication: its visible neighbours, plus (``via_portal``)
    the non-blind visible cells it reaches through portals."""
    m = adj_d & vis
    if via_portal:
        m |= reach_d & vis & ~blinds
    return m


@hot
def tame_by_masks(links, kmask, kind_tame, drop):
    """Do ``links`` hold >= 2 cards of one domesticating kind (``drop``: cells not counted)?"""
    for k in range(L.N_KINDS):  # a loop, not any(): numba compiles no generators
        if kind_tame[ix(k)] and popcount(links & kmask[ix(k)] & ~drop) >= 2:
            return True
    return False


@hot
def load_dragons(tb, s, vis, blinds):
    """Fill ``s.dtame`` (rows of the visible dragons), ``kfacts[KF_TAME]`` and
    ``kfacts[KF_DRAGON_PTS]`` from ``s.kmask`` and ``s.reach`` (the part of ``load_kingdom``
    that a non-portal card can change anywhere: the dragons linked to it)."""
    kind_tame, dragon_values, adj, rules = tb.kind_tame, tb.dragon_values, tb.adj, tb.rules
    via = rules[L.R_DRAGON_VIA_PORTAL] != 0
    n = 0
    tame = 0
    tame_cells = 0
    m = s.kmask[L.K_DRAGON]
    while m:
        d = trailing_zeros(m)
        m &= m - 1
        links = dragon_links(adj[ix(d)], s.reach[ix(d)], vis, blinds, via)
        n += 1
        is_tame = False
        for k in range(L.N_KINDS):
            if kind_tame[ix(k)]:
                s.dtame[ix(d), ix(k)] = popcount(links & s.kmask[ix(k)])
                if s.dtame[ix(d), ix(k)] >= 2:
                    is_tame = True
        if is_tame:
            tame += 1
            tame_cells |= 1 << d
    s.kfacts[L.KF_TAME] = tame_cells
    s.kfacts[L.KF_DRAGON_PTS] = dragon_score(n, tame, dragon_values, rules)


@hot
def load_kingdom(tb, s, grid, vis):
    """Fill the caches (``s.kmask``, ``s.reach``, ``s.dtame``, ``s.kfacts``) for the kingdom
    ``grid`` seen through ``vis``."""
    kind_blind, adj, rules = tb.kind_blind, tb.adj, tb.rules
    for k in range(L.N_KINDS):
        s.kmask[ix(k)] = 0
    blinds = 0
    for c in range(L.CELLS):
        if (vis >> c) & 1:
            s.kmask[ix(grid[ix(c)])] |= 1 << c
            if kind_blind[ix(grid[ix(c)])]:
                blinds |= 1 << c
    fill_reach(adj, rules[L.R_PORTAL_CHAINING] != 0, s.kmask[L.K_PORTAL], s.reach)
    load_dragons(tb, s, vis, blinds)
    s.kfacts[L.KF_VIS] = vis
    s.kfacts[L.KF_PROW_ROWS] = 0
    s.kfacts[L.KF_BLINDS] = blinds


@hot
def change_kingdom(tb, s, grid, c, o):
    """The loaded kingdom's caches once its owner's action put ``grid[c]`` face up on ``c``
    (``grid`` already changed) in place of the visible kind ``o`` (-1: ``c`` was face down):
    the same caches as ``load_kingdom`` of the new kingdom, pair rows included.

    A non-portal card in place of a non-portal one changes no link (``reach`` depends only on
    the face-up portals): two ``kmask`` bits, the pair rows of the cells linked to ``c`` (by
    the pair of the new kind minus that of the old one; ``c``'s own row counts only the
    others), and the dragons. A portal put or replaced changes links: a full reload."""
    kind_blind, adj = tb.kind_blind, tb.adj
    pair_adjacent, pair_portal = tb.pair_adjacent, tb.pair_portal
    k = grid[ix(c)]
    bit = 1 << c
    vis = s.kfacts[L.KF_VIS] | bit
    if k == L.K_PORTAL or o == L.K_PORTAL:
        load_kingdom(tb, s, grid, vis)
        return
    if o >= 0:
        s.kmask[ix(o)] &= ~bit
    s.kmask[ix(k)] |= bit
    blinds = s.kfacts[L.KF_BLINDS] & ~bit
    if kind_blind[ix(k)]:
        blinds |= bit
    m = s.reach[ix(c)] & s.kfacts[L.KF_PROW_ROWS]
    while m:
        j = trailing_zeros(m)
        m &= m - 1
        table = pair_adjacent if (adj[ix(j)] >> c) & 1 else pair_portal
        for q in range(L.N_KINDS):
            d = table[ix(k), ix(q)]
            if o >= 0:
                d -= table[ix(o), ix(q)]
            s.prow[ix(j), ix(q)] += d
    if s.kmask[L.K_DRAGON] != 0 or o == L.K_DRAGON:
        load_dragons(tb, s, vis, blinds)
    s.kfacts[L.KF_VIS] = vis
    s.kfacts[L.KF_BLINDS] = blinds


@hot
def portal_zone(tb, s, c):
    """The cells next to the portal group a portal put on ``c`` would belong to (its own
    neighbours, plus those of the groups next to it when portals chain): once it is there,
    each of them is linked to every other."""
    adj, rules = tb.adj, tb.rules
    portals = s.kmask[L.K_PORTAL] | (1 << c)
    group = 1 << c
    if rules[L.R_PORTAL_CHAINING] != 0:
        while True:
            grow = group
            m = group
            while m:
                grow |= adj[ix(trailing_zeros(m))] & portals
                m &= m - 1
            if grow == group:
                break
            group = grow
    zone = 0
    m = group
    while m:
        zone |= adj[ix(trailing_zeros(m))]
        m &= m - 1
    return zone


@hot
def load_pair_row(tb, s, grid, c):
    """Fill ``s.prow[c, k]`` for every kind ``k`` (once per loaded kingdom): the §7.1 + §7.2
    points of the pairs a card of kind ``k`` on ``c`` forms with the visible cards linked to
    ``c`` (``tables.pair_points``; the tables are symmetric, so a linked card of kind ``q``
    adds row ``q``). A card ``o`` replaced by ``k`` on ``c`` changes these points by
    ``prow[c, k] - prow[c, o]``. The row depends only on the kingdom, so it serves every
    candidate on ``c`` until the next ``load_kingdom``."""
    if (s.kfacts[L.KF_PROW_ROWS] >> c) & 1:
        return
    adj, pair_adjacent, pair_portal = tb.adj, tb.pair_adjacent, tb.pair_portal
    for k in range(L.N_KINDS):
        s.prow[ix(c), ix(k)] = 0
    m = s.reach[ix(c)] & s.kfacts[L.KF_VIS]
    while m:
        j = trailing_zeros(m)
        m &= m - 1
        q = grid[ix(j)]
        if (adj[ix(c)] >> j) & 1:
            for k in range(L.N_KINDS):
                s.prow[ix(c), ix(k)] += pair_adjacent[ix(q), ix(k)]
        else:
            for k in range(L.N_KINDS):
                s.prow[ix(c), ix(k)] += pair_portal[ix(q), ix(k)]
    s.kfacts[L.KF_PROW_ROWS] |= 1 << c


@hot
def dragons_after_card(tb, s, c, o, k):
    """§7.3 dragon points once the non-portal kind ``k`` is face up on ``c`` in place of the
    visible kind ``o`` (-1: ``c`` was face down). Only the dragons linked to ``c`` and a
    dragon on ``c`` can change; the others keep their ``dtame`` counts."""
    kind_blind, kind_tame, dragon_values = tb.kind_blind, tb.kind_tame, tb.dragon_values
    adj, rules = tb.adj, tb.rules
    vis = s.kfacts[L.KF_VIS]
    via = rules[L.R_DRAGON_VIA_PORTAL] != 0
    n = 0
    tame = 0
    m = s.kmask[L.K_DRAGON] & ~(1 << c)
    while m:
        d = trailing_zeros(m)
        m &= m - 1
        n += 1
        near = (adj[ix(d)] >> c) & 1 != 0
        far = via and (s.reach[ix(d)] >> c) & 1 != 0
        lost = o >= 0 and kind_tame[ix(o)] != 0 and (near or (far and kind_blind[ix(o)] == 0))
        won = kind_tame[ix(k)] != 0 and (near or (far and kind_blind[ix(k)] == 0))
        was = (s.kfacts[L.KF_TAME] >> d) & 1
        if not lost and not won:
            tame += was
            continue
        if not lost:  # one more card of kind k: tame if it was, or with a second k card
            if was or s.dtame[ix(d), ix(k)] >= 1:
                tame += 1
            continue
        if not won and not was:  # one card fewer: an untamed dragon stays so
            continue
        for b in range(L.N_KINDS):
            if kind_tame[ix(b)]:
                x = s.dtame[ix(d), ix(b)]
                if lost and b == o:
                    x -= 1
                if won and b == k:
                    x += 1
                if x >= 2:
                    tame += 1
                    break
    if k == L.K_DRAGON:
        n += 1
        links = dragon_links(adj[ix(c)], s.reach[ix(c)], vis, s.kfacts[L.KF_BLINDS], via)
        if tame_by_masks(links, s.kmask, kind_tame, NO_CELLS):
            tame += 1
    return dragon_score(n, tame, dragon_values, rules)


@hot
def dragons_after_portal(tb, s, c, zone):
    """§7.3 dragon points once a portal is face up on ``c`` (in place of a visible
    non-portal card or a face-down one): every dragon of the ``zone`` reaches the zone."""
    kind_tame, dragon_values, adj, rules = tb.kind_tame, tb.dragon_values, tb.adj, tb.rules
    drop = 1 << c
    vis = s.kfacts[L.KF_VIS] & ~drop
    blinds = s.kfacts[L.KF_BLINDS] & ~drop
    via = rules[L.R_DRAGON_VIA_PORTAL] != 0
    n = 0
    tame = 0
    m = s.kmask[L.K_DRAGON] & ~drop
    while m:
        d = trailing_zeros(m)
        m &= m - 1
        n += 1
        reach = s.reach[ix(d)]
        if (zone >> d) & 1:
            reach |= zone & ~(1 << d)
        if tame_by_masks(
            dragon_links(adj[ix(d)], reach, vis, blinds, via), s.kmask, kind_tame, drop
        ):
            tame += 1
    return dragon_score(n, tame, dragon_values, rules)


@hot
def portal_pairs(tb, s, grid, c, zone):
    """The pair points (§7.1 + §7.2) a portal put on ``c`` adds: the visible cards of its
    ``zone`` (``portal_zone``) not linked yet become linked, through portals only."""
    pair_portal = tb.pair_portal
    d = 0
    rest = zone & s.kfacts[L.KF_VIS] & ~(1 << c)
    while rest:
        i = trailing_zeros(rest)
        rest &= rest - 1
        new = rest & ~s.reach[ix(i)]  # later zone cells not yet linked to i
        while new:
            j = trailing_zeros(new)
            new &= new - 1
            d += pair_portal[ix(grid[ix(i)]), ix(grid[ix(j)])]
    return d


@hot
def delta_score(tb, s, grid, c, k, zone):
    """The change of the kingdom total (``scoring.score_kingdom``: land points, conflicts,
    dragons) when kind ``k`` is put face up on cell ``c`` of the loaded kingdom ``grid``.
    Needs ``load_pair_row(tb, s, grid, c)``. ``zone``: ``portal_zone(tb, s, c)`` when ``k``
    is a portal (else unused). The cell may not hold a face-up portal
    (``rescored_change``)."""
    vis = s.kfacts[L.KF_VIS]
    o = grid[ix(c)] if (vis >> c) & 1 else -1
    if o == k:
        return 0
    d = 0
    if o >= 0:
        d -= s.prow[ix(c), ix(o)]
    if k != L.K_PORTAL:
        d += s.prow[ix(c), ix(k)]
        kind_tame = tb.kind_tame
        touches = k == L.K_DRAGON or kind_tame[ix(k)] != 0
        if o >= 0:
            touches = touches or o == L.K_DRAGON or kind_tame[ix(o)] != 0
        if touches and (s.kmask[L.K_DRAGON] != 0 or k == L.K_DRAGON):
            d += dragons_after_card(tb, s, c, o, k) - s.kfacts[L.KF_DRAGON_PTS]
        return d
    d += portal_pairs(tb, s, grid, c, zone)
    if s.kmask[L.K_DRAGON] & ~(1 << c):
        d += dragons_after_portal(tb, s, c, zone) - s.kfacts[L.KF_DRAGON_PTS]
    elif o == L.K_DRAGON:
        d -= s.kfacts[L.KF_DRAGON_PTS]
    return d


@hot
def legend_links(tb, s, i, a, b, orth, zone):
    """Cells a Legend centre of kind ``a`` on ``i`` counts its ``b`` cards on, face up or not
    (``scoring.legend_mask`` over ``reach``): a portal-blind centre, or an orthogonal
    Legend, counts only neighbours; a blind ``b`` is reached through portals only with
    ``legend_goblin_via_portal``. ``zone``: a new portal's zone (``portal_zone``), or 0."""
    kind_blind, adj, rules = tb.kind_blind, tb.adj, tb.rules
    if (
        orth
        or kind_blind[ix(a)]
        or (kind_blind[ix(b)] and rules[L.R_LEGEND_GOBLIN_VIA_PORTAL] == 0)
    ):
        return adj[ix(i)]
    if (zone >> i) & 1:
        return s.reach[ix(i)] | (zone & ~(1 << i))
    return s.reach[ix(i)]


@hot
def portal_counts(tb, a, b, orth):
    """Does a Legend centre of kind ``a`` count ``b`` cards through portals
    (``legend_links`` not limited to the neighbours)?"""
    kind_blind, rules = tb.kind_blind, tb.rules
    return not (
        orth
        or kind_blind[ix(a)]
        or (kind_blind[ix(b)] and rules[L.R_LEGEND_GOBLIN_VIA_PORTAL] == 0)
    )


@hot
def best_claim_after(tb, s, c, k, zone):
    """``policies.best_claim`` of the loaded kingdom once kind ``k`` is face up on ``c``
    (``c`` = -1: as it is): points of the best river Legend it meets, 0 if none."""
    legend, rules = tb.legend, tb.rules
    found = False
    best = 0
    for slot in range(rules[L.R_LEGEND_ROW]):
        g = s.river[ix(slot)]
        if g >= 0:
            pts = legend[ix(g), L.LG_POINTS]
            if (not found or pts > best) and legend_met_after(tb, s, g, c, k, zone):
                best = pts
                found = True
    return best


@hot
def claim_gain(tb, s, c, k, zone, b_claim):
    """Points of the best river Legend worth more than ``b_claim`` that the loaded kingdom
    meets once kind ``k`` is face up on ``c``, or 0 if none: with ``b_claim >= 0`` the
    kingdom's best claim now, ``max(0, this - b_claim)`` equals ``max(0, best_claim_after -
    b_claim)``, the greedy players' claim term.

    Only Legends worth more than ``b_claim`` can raise the claim, and none of them is met now
    (else ``b_claim`` would be at least their points). A non-portal card changes no link and
    only adds its own kind: it can newly meet only a Legend that names that kind. A portal
    links only cards of its zone to each other: a linked Legend needs both its kinds there."""
    legend, rules = tb.legend, tb.rules
    best = 0
    for slot in range(rules[L.R_LEGEND_ROW]):
        g = s.river[ix(slot)]
        if g < 0:
            continue
        pts = legend[ix(g), L.LG_POINTS]
        if pts <= b_claim or pts <= best:
            continue
        if legend[ix(g), L.LG_SHAPE] == L.SHAPE_PRESENT:
            useful = (legend[ix(g), L.LG_KINDS] >> k) & 1 != 0
        elif k != L.K_PORTAL:
            useful = legend[ix(g), L.LG_CENTRE] == k or legend[ix(g), L.LG_AROUND] == k
        else:  # new links join only zone cards: the zone must hold both kinds (two cards of
            zs = zone & ~(1 << c)  # one kind for a Legend of that kind), and the Legend
            a, b = legend[ix(g), L.LG_CENTRE], legend[ix(g), L.LG_AROUND]  # must count portal links
            if a == b:
                useful = popcount(zs & s.kmask[ix(a)]) >= 2
            else:
                useful = (zs & s.kmask[ix(a)]) != 0 and (zs & s.kmask[ix(b)]) != 0
            if useful:
                orth = legend[ix(g), L.LG_ADJ] == L.ADJ_ORTHOGONAL
                useful = portal_counts(tb, a, b, orth) or (
                    legend[ix(g), L.LG_EITHER] != 0 and portal_counts(tb, b, a, orth)
                )
        if useful and legend_met_after(tb, s, g, c, k, zone):
            best = pts
    return best


@hot_outline
def rescored_change(tb, s, grid, c, k, claim, near, tame):
    """(score change, best claim after, near after, tame after) of kind ``k`` face up on ``c``
    of the loaded kingdom, by rescoring both kingdoms in full; each of the last three only
    when asked (``claim``, ``near``, ``tame``), else 0. For the one case the caches do not
    cover: replacing a face-up portal (possible only when a rules file unlocks portals),
    which can split a portal group. Leaves ``grid`` and the caches as they were (the
    kingdom's are reloaded; ``load_claims``' are not touched)."""
    kind_cat, kind_blind, kind_tame = tb.kind_cat, tb.kind_blind, tb.kind_tame
    land_pts, rival = tb.land_pts, tb.rival
    dragon_values, adj, rules = tb.dragon_values, tb.adj, tb.rules
    vis0 = s.kfacts[L.KF_VIS]
    vis = vis0
    o = grid[c]
    change = 0
    for step in range(2):  # before, then after (one inlined copy of the scorer)
        if step == 1:
            grid[c] = k
            vis |= 1 << c
        total = score_kingdom(
            grid, vis, kind_cat, kind_blind, kind_tame, land_pts, rival, dragon_values, adj,
            rules, s.direct, s.full, s.sbd,
        )  # fmt: skip
        change += total if step == 1 else -total
    best = 0
    n = 0.0
    t = 0.0
    if claim or near or tame:
        load_kingdom(tb, s, grid, vis)
        if claim:
            best = best_claim_after(tb, s, NO_CELL, NO_CELL, NO_CELLS)
        if near:
            n = near_after(tb, s, NO_CELL, NO_CELL, NO_CELLS)
        if tame:
            t = tame_after(tb, s, NO_CELL, NO_CELL, NO_CELLS)
    grid[c] = o
    if claim or near or tame:
        load_kingdom(tb, s, grid, vis0)
    return change, best, n, t


@hot
def legend_progress_after(tb, s, g, c, k, zone):
    """How far the loaded kingdom, once kind ``k`` is face up on ``c`` (``c`` = -1: as it
    is), is towards Legend row ``g``, as ``(done, needed)``: ``present``: the named kinds
    present, of those named; linked: 1 + the best centre's min(linked ``around`` cards,
    count), of count + 1 (0 without a centre). ``done / needed`` is
    ``KingdomView.legend_progress``; the Legend is met when ``done == needed`` (§5,
    ``scoring.legend_met``). ``zone``: ``portal_zone`` when ``k`` is a portal, else 0; the
    cell may not hold a face-up portal."""
    legend = tb.legend
    vis = s.kfacts[L.KF_VIS]
    cell = 0
    if c >= 0:
        cell = 1 << c
        vis |= cell
    if legend[ix(g), L.LG_SHAPE] == L.SHAPE_PRESENT:
        need = legend[ix(g), L.LG_KINDS]
        have = 0
        named = 0
        for q in range(L.N_KINDS):
            if (need >> q) & 1:
                named += 1
                if (s.kmask[ix(q)] & ~cell) != 0 or (q == k and cell != 0):
                    have += 1
        return have, named
    orth = legend[ix(g), L.LG_ADJ] == L.ADJ_ORTHOGONAL
    count = legend[ix(g), L.LG_COUNT]
    done = 0
    for way in range(2 if legend[ix(g), L.LG_EITHER] else 1):
        a = legend[ix(g), L.LG_CENTRE] if way == 0 else legend[ix(g), L.LG_AROUND]
        b = legend[ix(g), L.LG_AROUND] if way == 0 else legend[ix(g), L.LG_CENTRE]
        centres = s.kmask[ix(a)] & ~cell
        arounds = s.kmask[ix(b)] & ~cell
        if a == k:
            centres |= cell
        if b == k:
            arounds |= cell
        while centres and done <= count:
            i = trailing_zeros(centres)
            centres &= centres - 1
            n = popcount(legend_links(tb, s, i, a, b, orth, zone) & vis & arounds)
            done = max(done, 1 + min(n, count))
    return done, count + 1


@hot
def legend_met_after(tb, s, g, c, k, zone):
    """§5: does the loaded kingdom meet Legend row ``g`` once kind ``k`` is face up on ``c``?
    (``legend_progress_after`` complete.)"""
    done, needed = legend_progress_after(tb, s, g, c, k, zone)
    return done == needed


@hot
def near_after(tb, s, c, k, zone):
    """``W_NEAR``'s feature of the changed kingdom (``Brain.near``): Σ over the river
    Legends (slot order) of points × progress (``legend_progress_after``)."""
    legend, rules = tb.legend, tb.rules
    near = 0.0
    for slot in range(rules[L.R_LEGEND_ROW]):
        g = s.river[ix(slot)]
        if g >= 0:
            done, needed = legend_progress_after(tb, s, g, c, k, zone)
            near += legend[ix(g), L.LG_POINTS] * (done / needed)
    return near


@hot
def tame_after(tb, s, c, k, zone):
    """``W_TAME``'s feature of the changed kingdom (``policies.tame_progress``): Σ over its
    visible dragons, in cell order, of min(best linked count of one domesticating kind, 2)
    / 2."""
    kind_blind, kind_tame, adj, rules = tb.kind_blind, tb.kind_tame, tb.adj, tb.rules
    via = rules[L.R_DRAGON_VIA_PORTAL] != 0
    vis = s.kfacts[L.KF_VIS]
    blinds = s.kfacts[L.KF_BLINDS]
    dragons = s.kmask[L.K_DRAGON]
    cell = 0
    if c >= 0:
        cell = 1 << c
        vis |= cell
        blinds &= ~cell
        dragons &= ~cell
        if kind_blind[ix(k)]:
            blinds |= cell
        if k == L.K_DRAGON:
            dragons |= cell
    total = 0.0
    while dragons:
        d = trailing_zeros(dragons)
        dragons &= dragons - 1
        reach = s.reach[ix(d)]
        if (zone >> d) & 1:
            reach |= zone & ~(1 << d)
        links = dragon_links(adj[ix(d)], reach, vis, blinds, via)
        best = 0
        for q in range(L.N_KINDS):
            if kind_tame[ix(q)]:
                have = s.kmask[ix(q)] & ~cell
                if q == k:
                    have |= cell
                best = max(best, popcount(links & have))
        total += min(best, 2) / 2
    return total


@hot
def load_claims(tb, s):
    """Fill the Legend caches of the loaded kingdom for the river as it is, and return its
    best claim ``b_claim`` (``best_claim_after(tb, s, -1, -1, 0)``, also kept in
    ``kfacts[KF_BCLAIM]``). Invariant, until the kingdom changes (``claims_after_card``
    follows a card that is no portal) or a Legend is claimed:

    * ``s.kfacts[KF_MET]``: the river slots whose Legend the kingdom meets
      (``legend_met_after(tb, s, g, -1, -1, 0)``);

    * ``s.goal[k]``: bitmask of the river slots whose Legend is worth more than ``b_claim``
      (so unmet) and that a card of kind ``k`` could newly meet: a linked Legend naming
      ``k``; a ``present`` Legend whose one missing kind is ``k``;
    * ``s.ready[slot, way]``: a linked Legend's cells where its ``around`` kind (``way`` 1:
      the other way round, ``LG_EITHER``) would complete a centre that lacks one card;
      a ``present`` Legend's missing kinds (``way`` 0);
    * the gain rows and ``s.near_terms``: not filled yet (``kfacts[KF_GAIN_ROWS]``,
      ``kfacts[KF_NEAR_OK]`` cleared; ``load_gain_row``, ``load_near_terms``)."""
    every = (np.int64(1) << tb.rules[L.R_LEGEND_ROW]) - 1
    return refresh_slots(tb, legend_view(s), every, NO_CELLS)  # int64 (no literal copy)


@hot
def claims_after_card(tb, s, k, o):
    """``load_claims`` once ``change_kingdom`` put the non-portal kind ``k`` where the
    non-portal kind ``o`` was (-1: a face-down card), its caches holding the kingdom before:
    a card that is no portal changes no link, so only the slots of the Legends naming ``k``
    or ``o`` (``names_card``) can change (``claims_after_slots``); when no Legend names
    them, the Legends met, the goals and the best claim stay as they are."""
    legend = tb.legend
    slots = 0
    for slot in range(tb.rules[L.R_LEGEND_ROW]):
        g = s.river[ix(slot)]
        if g >= 0 and names_card(legend, g, k, o):
            slots |= 1 << slot
    if slots:
        claims_after_slots(tb, s, slots)
    else:
        s.kfacts[L.KF_GAIN_ROWS] = 0
        s.kfacts[L.KF_NEAR_OK] = 0


@hot
def claims_after_slots(tb, s, slots):
    """``load_claims`` once only the river ``slots`` (bitmask) may be met differently (the
    kingdom changed by a card that names their Legends, or a claim refilled them), the
    caches holding the others: those slots' ``ready`` rows and met bits, then the goals and
    the best claim."""
    refresh_slots(tb, legend_view(s), np.int64(slots), s.kfacts[L.KF_MET])


class LegendView(NamedTuple):
    """The arrays of a state (``kernel.GameState``, the seat's views) that the Legend
    caches are computed from and kept in: all ``refresh_slots`` reads or writes."""

    river: np.ndarray
    kfacts: np.ndarray
    kmask: np.ndarray
    reach: np.ndarray
    ready: np.ndarray
    goal: np.ndarray


@hot
def legend_view(s):
    """``s``'s Legend cache arrays (``LegendView``: views, nothing copied)."""
    return LegendView(s.river, s.kfacts, s.kmask, s.reach, s.ready, s.goal)


@hot_outline
def refresh_slots(tb, lv, slots, met):
    """The body of ``load_claims`` and ``claims_after_slots``: the ``ready`` rows and met
    bits of the river ``slots`` (bitmask; ``met``: the met bits of the other slots), then the
    goals and the best claim (returned). Outlined, with only the Legend arrays
    (``legend_view``): one compiled copy for its ~35 calls a game from six call sites,
    instead of one inlined copy per site, each typed, lowered and optimised on its own."""
    present = present_kinds(lv)
    m = slots
    while m:
        slot = trailing_zeros(m)
        m &= m - 1
        met &= ~(1 << slot)
        if load_slot(tb, lv, slot, present):
            met |= 1 << slot
    return load_goals(tb, lv, met)


@hot
def present_kinds(s):
    """Bitmask of the kinds the loaded kingdom shows."""
    present = 0
    for k in range(L.N_KINDS):
        if s.kmask[ix(k)]:
            present |= 1 << k
    return present


@hot
def load_slot(tb, s, slot, present):
    """Fill ``s.ready[slot]`` (``load_claims``) for the loaded kingdom; does it meet the
    Legend of river ``slot``? ``present``: ``present_kinds(s)``."""
    legend = tb.legend
    vis = s.kfacts[L.KF_VIS]
    s.ready[slot, 0] = 0
    s.ready[slot, 1] = 0
    g = s.river[ix(slot)]
    if g < 0:
        return False
    if legend[ix(g), L.LG_SHAPE] == L.SHAPE_PRESENT:
        s.ready[slot, 0] = legend[ix(g), L.LG_KINDS] & ~present
        return s.ready[slot, 0] == 0
    ok = False
    orth = legend[ix(g), L.LG_ADJ] == L.ADJ_ORTHOGONAL
    count = legend[ix(g), L.LG_COUNT]
    for way in range(2 if legend[ix(g), L.LG_EITHER] else 1):
        a = legend[ix(g), L.LG_CENTRE] if way == 0 else legend[ix(g), L.LG_AROUND]
        b = legend[ix(g), L.LG_AROUND] if way == 0 else legend[ix(g), L.LG_CENTRE]
        centres = s.kmask[ix(a)]
        while centres:
            i = trailing_zeros(centres)
            centres &= centres - 1
            links = legend_links(tb, s, i, a, b, orth, 0)
            n = popcount(links & vis & s.kmask[ix(b)])
            if n >= count:
                ok = True
            elif n == count - 1:
                s.ready[ix(slot), ix(way)] |= links
    return ok


@hot
def load_goals(tb, s, met):
    """From the river slots met (``met``) and ``s.ready``: ``kfacts[KF_MET]``, the best claim
    (``kfacts[KF_BCLAIM]``, returned) and ``s.goal`` (``load_claims``); the gain rows and
    near terms are cleared."""
    legend, rules = tb.legend, tb.rules
    s.kfacts[L.KF_GAIN_ROWS] = 0
    s.kfacts[L.KF_NEAR_OK] = 0
    found = False
    b_claim = 0
    for slot in range(rules[L.R_LEGEND_ROW]):
        g = s.river[ix(slot)]
        if (met >> slot) & 1 and (not found or legend[ix(g), L.LG_POINTS] > b_claim):
            b_claim = legend[ix(g), L.LG_POINTS]
            found = True
    for k in range(L.N_KINDS):
        s.goal[ix(k)] = 0
    for slot in range(rules[L.R_LEGEND_ROW]):
        g = s.river[ix(slot)]
        if g < 0 or (met >> slot) & 1 or legend[ix(g), L.LG_POINTS] <= b_claim:
            continue
        if legend[ix(g), L.LG_SHAPE] == L.SHAPE_PRESENT:
            missing = s.ready[slot, 0]
            if popcount(missing) == 1:
                s.goal[ix(trailing_zeros(missing))] |= 1 << slot
        else:
            s.goal[ix(legend[ix(g), L.LG_CENTRE])] |= 1 << slot
            s.goal[ix(legend[ix(g), L.LG_AROUND])] |= 1 << slot
    s.kfacts[L.KF_MET] = met
    s.kfacts[L.KF_BCLAIM] = b_claim
    return b_claim


@hot
def names_card(legend, g, k, o):
    """Does Legend row ``g`` name the kind ``k`` or the kind ``o`` (-1: none)? Only such
    Legends can change when a card that is no portal (it changes no link) puts ``k`` where
    ``o`` was."""
    if legend[ix(g), L.LG_SHAPE] == L.SHAPE_PRESENT:
        kinds = legend[ix(g), L.LG_KINDS]
    else:
        kinds = (1 << legend[ix(g), L.LG_CENTRE]) | (1 << legend[ix(g), L.LG_AROUND])
    return (kinds >> k) & 1 != 0 or (o >= 0 and (kinds >> o) & 1 != 0)


@hot
def load_near_terms(tb, s):
    """Fill ``s.near_terms[slot]``: each river Legend's term of ``near_after(tb, s, -1, -1,
    0)`` (points x progress) for the loaded kingdom, once per ``load_claims``."""
    legend, rules = tb.legend, tb.rules
    for slot in range(rules[L.R_LEGEND_ROW]):
        g = s.river[ix(slot)]
        if g >= 0:
            done, needed = legend_progress_after(tb, s, g, NO_CELL, NO_CELL, NO_CELLS)
            s.near_terms[ix(slot)] = legend[ix(g), L.LG_POINTS] * (done / needed)
    s.kfacts[L.KF_NEAR_OK] = 1


@hot
def near_after_card(tb, s, c, k, o):
    """``near_after`` once the non-portal kind ``k`` is face up on ``c`` in place of the
    visible kind ``o`` (-1: face down), from the kingdom's terms (``load_near_terms``, after
    ``load_claims``): only the Legends naming ``k`` or ``o`` are measured again; the sum is
    formed in the same slot order from the same floats, so it is the same number."""
    legend, rules = tb.legend, tb.rules
    if s.kfacts[L.KF_NEAR_OK] == 0:
        load_near_terms(tb, s)
    near = 0.0
    for slot in range(rules[L.R_LEGEND_ROW]):
        g = s.river[ix(slot)]
        if g < 0:
            continue
        if names_card(legend, g, k, o):
            done, needed = legend_progress_after(tb, s, g, c, k, NO_CELLS)
            near += legend[ix(g), L.LG_POINTS] * (done / needed)
        else:
            near += s.near_terms[ix(slot)]
    return near


@hot
def load_gain_row(tb, s, k):
    """Fill ``s.gain[k, c]`` for every cell ``c``: ``claim_gain`` of the non-portal kind ``k``
    on ``c`` (``c`` not already showing ``k``), from the caches of ``load_claims`` (same
    ``b_claim``). A Legend of ``s.goal[k]`` is met once ``k`` is on ``c`` if ``c``, as a
    centre, counts enough cards; or ``c`` completes a centre that lacks one card
    (``s.ready``); or (``present``, ``k`` its one missing kind) ``c`` does not hold the last
    card of a named kind."""
    legend = tb.legend
    vis = s.kfacts[L.KF_VIS]
    for c in range(L.CELLS):
        s.gain[ix(k), ix(c)] = 0
    m = s.goal[ix(k)]
    while m:
        slot = trailing_zeros(m)
        m &= m - 1
        g = s.river[ix(slot)]
        cells = 0
        if legend[ix(g), L.LG_SHAPE] == L.SHAPE_PRESENT:
            cells = L.ALL_CELLS
            for q in range(L.N_KINDS):
                if (legend[ix(g), L.LG_KINDS] >> q) & 1 and popcount(s.kmask[ix(q)]) == 1:
                    cells &= ~s.kmask[ix(q)]
        else:
            orth = legend[ix(g), L.LG_ADJ] == L.ADJ_ORTHOGONAL
            for way in range(2 if legend[ix(g), L.LG_EITHER] else 1):
                a = legend[ix(g), L.LG_CENTRE] if way == 0 else legend[ix(g), L.LG_AROUND]
                b = legend[ix(g), L.LG_AROUND] if way == 0 else legend[ix(g), L.LG_CENTRE]
                if k == b:
                    cells |= s.ready[ix(slot), ix(way)]
                if k == a:
                    cells |= centre_cells(tb, s, a, b, orth, legend[ix(g), L.LG_COUNT], vis)
        pts = legend[ix(g), L.LG_POINTS]
        while cells:
            c = trailing_zeros(cells)
            cells &= cells - 1
            s.gain[ix(k), ix(c)] = max(s.gain[ix(k), ix(c)], pts)
    s.kfacts[L.KF_GAIN_ROWS] |= 1 << k


@hot
def centre_cells(tb, s, a, b, orth, count, vis):
    """The cells where a centre of kind ``a`` would count at least ``count`` visible cards
    of kind ``b`` (``legend_links``), whatever the cell holds now. The links of one Legend are
    symmetric (neighbours, or ``reach``: the same choice for every cell), so for ``count``
    1 or 2 they are the cells linked to at least that many ``b`` cards: one pass over the
    ``b`` cards instead of one over the 16 cells."""
    if count == 1 or count == 2:
        once = 0
        twice = 0
        m = s.kmask[ix(b)]
        while m:
            j = trailing_zeros(m)
            m &= m - 1
            links = legend_links(tb, s, j, a, b, orth, 0)
            twice |= once & links
            once |= links
        return once if count == 1 else twice
    cells = 0
    for c in range(L.CELLS):
        links = legend_links(tb, s, c, a, b, orth, 0)
        if popcount(links & vis & s.kmask[ix(b)]) >= count:
            cells |= 1 << c
    return cells


@hot
def gain_of(tb, s, k, c):
    """``s.gain[k, c]``, its row filled first if it is not yet (``load_gain_row``); 0 without
    a goal for ``k`` (``s.goal[k]``: the row would be all zeros)."""
    if s.goal[ix(k)] == 0:
        return 0
    if not (s.kfacts[L.KF_GAIN_ROWS] >> k) & 1:
        load_gain_row(tb, s, k)
    return s.gain[ix(k), ix(c)]


@hot
def evaluate_change(tb, s, grid, c, k, claim, b_claim, near, tame):
    """The features (``Brain.features``) of kind ``k`` face up on cell ``c`` of the loaded
    kingdom ``grid`` (``load_pair_row`` done for ``c``), as (score change, claim, near,
    tame); each of the last three only when asked, else 0. ``claim``: a value with ``max(0,
    value - b_claim) == max(0, best claim after - b_claim)``, where ``b_claim`` is the
    kingdom's best claim from ``load_claims`` (its caches loaded), or -1 for the best claim
    after itself. ``near`` needs ``load_claims``' caches too."""
    vis = s.kfacts[L.KF_VIS]
    if (vis >> c) & 1 and grid[ix(c)] == L.K_PORTAL and k != L.K_PORTAL:
        return rescored_change(tb, s, grid, c, k, claim, near, tame)
    zone = 0
    if k == L.K_PORTAL:
        zone = portal_zone(tb, s, c)
    d = delta_score(tb, s, grid, c, k, zone)
    best = 0
    if claim:
        if b_claim < 0:
            best = best_claim_after(tb, s, c, k, zone)
        elif k == L.K_PORTAL:
            best = claim_gain(tb, s, c, k, zone, b_claim)
        elif grid[ix(c)] != k or not (vis >> c) & 1:
            best = gain_of(tb, s, k, c)
    n = 0.0
    if near and k == L.K_PORTAL:
        n = near_after(tb, s, c, k, zone)
    elif near:
        n = near_after_card(tb, s, c, k, grid[ix(c)] if (vis >> c) & 1 else L.NO_CELL)
    t = 0.0
    if tame:
        t = tame_after(tb, s, c, k, zone)
    return d, best, n, t


@hot
def best_claim_changed(tb, s, grid, c, k):
    """``best_claim_after`` of kind ``k`` face up on ``c`` of the loaded kingdom ``grid``,
    whatever ``c`` holds (a face-up portal: ``rescored_change``)."""
    if (s.kfacts[L.KF_VIS] >> c) & 1 and grid[ix(c)] == L.K_PORTAL and k != L.K_PORTAL:
        return rescored_change(tb, s, grid, c, k, YES, NO, NO)[1]
    zone = 0
    if k == L.K_PORTAL:
        zone = portal_zone(tb, s, c)
    return best_claim_after(tb, s, c, k, zone)
