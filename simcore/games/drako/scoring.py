"""DRAKO scoring over arrays (rules §6, §7): links, tribe land points, conflicts,
dragons, Legends met, totals and the §7.5 tie-break. Every §N is a section of
``docs/rules/drako.md``, DRAKO's rules as implemented.

Compiled with numba (``simcore.jit.hot``, about 4 s on first use, then cached): plain
loops over numpy arrays and ints, no Python objects, no allocation (callers pass the
output buffers); the part-2 kernel calls these functions. ``reference/`` restates the
same rules readably; ``tests/drako/test_scoring_agreement.py`` checks both agree on
random grids, visibility masks and option sets.

Encoding. A kingdom is ``grid``: the 4x4 grid of kind ids (``tables.Kind``) flattened to
int32[CELLS], cell = row * SIDE + col, row 0 first; ``vis`` is a bitmask of the cells
that count (face up; at the final scoring every cell). A set of cells is an int64
bitmask (bit ``c`` = cell ``c``).

Links are computed ONCE per kingdom by ``link_masks`` and shared by every category:

* ``direct[i]``: the visible cells orthogonally next to visible cell ``i`` (§6);
* ``full[i]``: ``direct[i]`` plus every visible cell next to a face-up portal reachable
  from ``i`` through a chain of adjacent portals (one portal only without chaining),
  ``i`` itself excluded. A set, so a card reached by two routes counts once (§6).

Portal-blind tribes (goblins, ``kind_blind``) see only ``direct``; between a blind and a
non-blind card the link uses portals when the relevant §9 option says so
(``partner_mask``); two blind cards are linked only directly.
"""

from __future__ import annotations

from collections.abc import Callable

from numba import types
from numba.cpython.unsafe.numbers import trailing_zeros as _trailing_zeros
from numba.extending import intrinsic

from talesim.simcore.jit import hot

from . import layout as L  # noqa: N812 (the schema, read as L.NAME)

# Passed as call arguments, so imported by name (numba types an imported name as a literal,
# ``L.NAME`` as an ``int64``: see ``layout.py``).
from .layout import K_DRAGON, K_PORTAL, ix

#: Index of the lowest set bit of a non-zero int (LLVM ``cttz``): walks a cell bitmask.
trailing_zeros: Callable[[int], int] = _trailing_zeros  # type: ignore[assignment]


@intrinsic
def _ctpop(typingctx, x):
    """LLVM ``ctpop``: the number of set bits of an integer (one instruction)."""
    if not isinstance(x, types.Integer):
        return None
    t = types.unliteral(x)

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return t(t), codegen


@hot
def popcount(x):
    """Number of set bits of a non-negative int (LLVM ``ctpop``, one instruction where the
    CPU has ``popcnt``; was a loop over the set bits)."""
    return _ctpop(x)  # type: ignore[call-arg]


@hot
def visible_mask(up):
    """Bitmask of the cells whose flag in ``up`` (int/bool[CELLS]) is set."""
    m = 0
    for c in range(L.CELLS):
        if up[ix(c)]:
            m |= 1 << c
    return m


@hot
def kind_mask(grid, vis, k):
    """Bitmask of the visible cells holding kind ``k``."""
    m = 0
    for c in range(L.CELLS):
        if (vis >> c) & 1 and grid[ix(c)] == k:
            m |= 1 << c
    return m


@hot
def blind_mask(grid, vis, kind_blind):
    """Bitmask of the visible cells holding a portal-blind kind (goblins)."""
    m = 0
    for c in range(L.CELLS):
        if (vis >> c) & 1 and grid[ix(c)] >= 0 and kind_blind[grid[ix(c)]]:
            m |= 1 << c
    return m


@hot
def fill_reach(adj, chaining, portals, reach):
    """Fill ``reach`` (int64[CELLS]): for every cell ``c``, face up or not, the cells it is
    linked to when both are face up (§6): its neighbours plus every cell next to a portal of
    ``portals`` (the face-up ones) chained to a portal next to ``c`` (only the portals next
    to it without ``chaining``); ``c`` itself excluded. It depends on where the face-up
    portals are, nothing else: ``reach[c] & vis`` is the set ``full[c]`` of ``link_masks``.

    Each chain of adjacent portals (a group) links every cell next to it, its ``zone``, to
    every other: a cell's reach is its neighbours plus the zones of the groups next to it."""
    for c in range(L.CELLS):
        reach[ix(c)] = adj[ix(c)]
    rest = portals
    while rest:
        group = rest & -rest  # the lowest portal not yet grouped, then its chain
        if chaining:
            while True:
                grow = group
                m = group
                while m:
                    grow |= adj[trailing_zeros(m)] & portals
                    m &= m - 1
                if grow == group:
                    break
                group = grow
        rest &= ~group
        zone = 0
        m = group
        while m:
            zone |= adj[trailing_zeros(m)]
            m &= m - 1
        m = zone
        while m:
            reach[trailing_zeros(m)] |= zone
            m &= m - 1
    for c in range(L.CELLS):
        reach[ix(c)] &= ~(1 << c)


@hot
def link_masks(grid, vis, adj, chaining, direct, full):
    """Fill ``direct`` and ``full`` (int64[CELLS]) for the visible cells (0 elsewhere).

    The single implementation of §6 connection (``fill_reach``), shared by every scoring
    category."""
    fill_reach(adj, chaining, kind_mask(grid, vis, K_PORTAL), full)
    for i in range(L.CELLS):
        if (vis >> i) & 1:
            direct[ix(i)] = adj[ix(i)] & vis
            full[ix(i)] &= vis
        else:
            direct[ix(i)] = 0
            full[ix(i)] = 0


@hot
def partner_mask(i, blind_i, blinds, direct, full, blind_via_portal):
    """Cells linked to cell ``i`` for a symmetric relation (land points, conflicts):
    non-blind pairs use ``full``; a blind/non-blind pair uses ``full`` only if
    ``blind_via_portal``; two blind cards only ``direct``."""
    if blind_i:
        other = full[ix(i)] if blind_via_portal else direct[ix(i)]
        return (other & ~blinds) | (direct[ix(i)] & blinds)
    with_blind = full[ix(i)] if blind_via_portal else direct[ix(i)]
    return (full[ix(i)] & ~blinds) | (with_blind & blinds)


@hot
def legend_mask(i, blind_i, blinds, direct, full, via_portal):
    """Cells a Legend's centre card ``i`` counts (§5, GP): a blind (goblin) centre counts
    direct neighbours only; a non-blind centre reaches blind cards through portals when
    ``via_portal`` (the §9 switch ``legend_goblin_via_portal``)."""
    if blind_i:
        return direct[ix(i)]
    with_blind = full[ix(i)] if via_portal else direct[ix(i)]
    return (full[ix(i)] & ~blinds) | (with_blind & blinds)


@hot
def land_mask(grid, vis, kind_cat):
    """Bitmask of the visible land cards."""
    lands = 0
    for c in range(L.CELLS):
        if (vis >> c) & 1 and kind_cat[grid[ix(c)]] == L.CAT_LAND:
            lands |= 1 << c
    return lands


@hot
def tribe_column(t, kind_cat):
    """The breakdown column of a tribe kind ``t`` (``TRIBE_COLUMNS``), -1 for any other."""
    col = -1
    if kind_cat[ix(t)] == L.CAT_TRIBE:
        for k, b in L.TRIBE_COLUMNS:
            if k == t:
                col = b
    return col


@hot
def tribe_points(i, grid, kind_blind, land_pts, blinds, lands, via, direct, full):
    """§7.1: the land points of the tribe card in cell ``i``, each distinct linked land
    (of ``lands``) once; ``blinds``: the blind cards, ``via``: the §9 goblin option."""
    t = grid[ix(i)]
    m = partner_mask(i, kind_blind[ix(t)] != 0, blinds, direct, full, via) & lands
    pts = 0
    while m:
        pts += land_pts[t, grid[trailing_zeros(m)]]
        m &= m - 1
    return pts


@hot
def tribe_land_points(grid, vis, kind_cat, kind_blind, land_pts, rules, direct, full, out):
    """§7.1: add each tribe's points for its distinct linked lands to ``out[0:4]``
    (elf, dwarf, human, goblin)."""
    blinds = blind_mask(grid, vis, kind_blind)
    lands = land_mask(grid, vis, kind_cat)
    via = rules[L.R_GOBLIN_LAND_VIA_PORTAL] != 0
    for i in range(L.CELLS):
        if not (vis >> i) & 1:
            continue
        col = tribe_column(grid[ix(i)], kind_cat)
        if col < 0:
            continue
        out[ix(col)] += tribe_points(
            i, grid, kind_blind, land_pts, blinds, lands, via, direct, full
        )


@hot
def conflicts(grid, vis, kind_blind, rival, rules, direct, full):
    """§7.2: ``conflict_points`` (−2) per unordered linked pair of rival tribe cards."""
    blinds = blind_mask(grid, vis, kind_blind)
    via = rules[L.R_GOBLIN_CONFLICT_VIA_PORTAL] != 0
    pairs = 0
    for i in range(L.CELLS):
        if not (vis >> i) & 1:
            continue
        m = partner_mask(i, kind_blind[grid[ix(i)]] != 0, blinds, direct, full, via)
        m &= ~((2 << i) - 1)  # each pair once: j > i
        while m:
            if rival[grid[ix(i)], grid[trailing_zeros(m)]]:
                pairs += 1
            m &= m - 1
    return pairs * rules[L.R_CONFLICT_POINTS]


@hot
def dragon_is_tame(i, grid, vis, kind_blind, kind_tame, rules, direct, full):
    """§7.3: a dragon is domesticated when linked to >= 2 cards of one domesticating kind."""
    blinds = blind_mask(grid, vis, kind_blind)
    if rules[L.R_DRAGON_VIA_PORTAL]:
        m = partner_mask(i, False, blinds, direct, full, False)
    else:
        m = direct[ix(i)]
    for k in range(L.N_KINDS):  # a loop, not any(): numba compiles no generators
        if kind_tame[ix(k)] and popcount(m & kind_mask(grid, vis, k)) >= 2:
            return True
    return False


@hot
def dragon_value(n, dragon_values):
    """The value of each dragon of a kingdom holding ``n >= 1`` dragons (§7.3 table)."""
    return dragon_values[min(n, dragon_values.shape[0]) - 1]


@hot
def dragon_points(grid, vis, kind_blind, kind_tame, dragon_values, rules, direct, full):
    """§7.3: v·pos − v·(n − pos), v = value for n dragons, pos = min(tame, max_positive)."""
    n = 0
    tame = 0
    for i in range(L.CELLS):
        if (vis >> i) & 1 and grid[ix(i)] == L.K_DRAGON:
            n += 1
            if dragon_is_tame(i, grid, vis, kind_blind, kind_tame, rules, direct, full):
                tame += 1
    return dragon_score(n, tame, dragon_values, rules)


@hot
def dragon_score(n, tame, dragon_values, rules):
    """§7.3 for ``n`` dragons of which ``tame`` are domesticated: ``dragon_points`` once the
    dragons are counted, and the incremental scorer from its caches."""
    if n == 0:
        return 0
    v = dragon_value(n, dragon_values)
    pos = min(tame, rules[L.R_DRAGON_MAX_POSITIVE])
    return v * pos - v * (n - pos)


@hot
def cell_points(
    grid, vis, kind_cat, kind_blind, kind_tame, land_pts, dragon_values, rules, direct, full, out
):  # fmt: skip
    """Each visible card's points into ``out`` (int32[CELLS], 0 elsewhere): a tribe its land
    points (§7.1), a dragon its signed value (§7.3: the first ``dragon_max_positive`` tame
    dragons in cell order +v, every other −v), any other card 0 (conflicts and Legends
    belong to no single card). Links from ``link_masks`` on the same ``vis``."""
    blinds = blind_mask(grid, vis, kind_blind)
    lands = land_mask(grid, vis, kind_cat)
    via = rules[L.R_GOBLIN_LAND_VIA_PORTAL] != 0
    n = popcount(kind_mask(grid, vis, K_DRAGON))
    v = dragon_value(n, dragon_values) if n > 0 else 0
    plus = rules[L.R_DRAGON_MAX_POSITIVE]
    for i in range(L.CELLS):
        out[ix(i)] = 0
        if not (vis >> i) & 1:
            continue
        t = grid[ix(i)]
        if tribe_column(t, kind_cat) >= 0:
            out[ix(i)] = tribe_points(
                i, grid, kind_blind, land_pts, blinds, lands, via, direct, full
            )
        elif t == L.K_DRAGON:
            if plus > 0 and dragon_is_tame(
                i, grid, vis, kind_blind, kind_tame, rules, direct, full
            ):
                out[ix(i)] = v
                plus -= 1
            else:
                out[ix(i)] = -v


@hot
def _linked_met(grid, vis, kind_blind, rules, direct, full, centre, around, count, orth):
    blinds = blind_mask(grid, vis, kind_blind)
    arounds = kind_mask(grid, vis, around)
    via = rules[L.R_LEGEND_GOBLIN_VIA_PORTAL] != 0
    for i in range(L.CELLS):
        if (vis >> i) & 1 and grid[ix(i)] == centre:
            if orth:
                m = direct[ix(i)]
            else:
                m = legend_mask(i, kind_blind[ix(centre)] != 0, blinds, direct, full, via)
            if popcount(m & arounds) >= count:
                return True
    return False


@hot
def legend_met(g, legend, grid, vis, kind_blind, rules, direct, full):
    """§5: does the kingdom (its ``vis`` cells) meet Legend row ``g``?"""
    if legend[ix(g), L.LG_SHAPE] == L.SHAPE_PRESENT:
        need = legend[ix(g), L.LG_KINDS]
        for k in range(L.N_KINDS):  # noqa: SIM110 (numba: no generators)
            if (need >> k) & 1 and kind_mask(grid, vis, k) == 0:
                return False
        return True
    centre = legend[ix(g), L.LG_CENTRE]
    around = legend[ix(g), L.LG_AROUND]
    count = legend[ix(g), L.LG_COUNT]
    orth = legend[ix(g), L.LG_ADJ] == L.ADJ_ORTHOGONAL
    if _linked_met(grid, vis, kind_blind, rules, direct, full, centre, around, count, orth):
        return True
    if legend[ix(g), L.LG_EITHER]:
        return _linked_met(grid, vis, kind_blind, rules, direct, full, around, centre, count, orth)
    return False


@hot
def legends_met(legend, grid, vis, kind_blind, rules, direct, full, out):
    """Set ``out[g]`` to 1 for every Legend row the kingdom meets, else 0; returns the count.
    Links must come from ``link_masks`` on the same ``vis``."""
    n = 0
    for g in range(legend.shape[0]):
        met = legend_met(g, legend, grid, vis, kind_blind, rules, direct, full)
        out[ix(g)] = 1 if met else 0
        n += out[ix(g)]
    return n


@hot
def score_kingdom(
    grid, vis, kind_cat, kind_blind, kind_tame, land_pts, rival, dragon_values, adj, rules,
    direct, full, out,
):  # fmt: skip
    """The kingdom part of the §7 breakdown into ``out`` (int32[N_BREAKDOWN]: elf, dwarf,
    human, goblin, dragon, conflicts; the legends column is set to 0). Fills the link
    buffers ``direct``/``full`` as a side effect. Returns the kingdom total."""
    for b in range(L.N_BREAKDOWN):
        out[ix(b)] = 0
    link_masks(grid, vis, adj, rules[L.R_PORTAL_CHAINING] != 0, direct, full)
    tribe_land_points(grid, vis, kind_cat, kind_blind, land_pts, rules, direct, full, out)
    out[L.B_DRAGON] = dragon_points(
        grid, vis, kind_blind, kind_tame, dragon_values, rules, direct, full
    )
    out[L.B_CONFLICTS] = conflicts(grid, vis, kind_blind, rival, rules, direct, full)
    total = 0
    for b in range(L.N_BREAKDOWN):
        total += out[ix(b)]
    return total


@hot
def tie_key(breakdown, key, tribes_summed):
    """§7.5: ``key`` = the category subtotals of ``breakdown`` sorted high to low. The
    categories are the breakdown's columns (each tribe its own, Game Park), or with
    ``tribes_summed`` the four tribes' sum, then dragons, conflicts and Legends (the brief's
    four), the rest of ``key`` ``TIE_PAD``."""
    n = breakdown.shape[0]
    if tribes_summed:
        tribes = 0
        for b in range(L.N_TRIBE_COLUMNS):
            tribes += breakdown[ix(b)]
        key[0] = tribes
        m = 1
        for b in range(L.N_TRIBE_COLUMNS, n):
            key[ix(m)] = breakdown[ix(b)]
            m += 1
        for b in range(m, n):
            key[ix(b)] = L.TIE_PAD
    else:
        for b in range(n):
            key[ix(b)] = breakdown[ix(b)]
    for a in range(1, n):  # insertion sort, descending
        x = key[ix(a)]
        j = a - 1
        while j >= 0 and key[ix(j)] < x:
            key[j + 1] = key[ix(j)]
            j -= 1
        key[j + 1] = x


@hot
def winners(totals, breakdowns, tie_categories, tribes_summed, keys, out):
    """Set ``out[p]`` = 1 for each winner: highest total, then (``tie_categories``) the
    highest §7.5 key (``tie_key``, the tribes one category when ``tribes_summed``), compared
    lexicographically; still tied players all win (share). ``keys``: int32[P, N_BREAKDOWN]
    scratch. Returns the number of winners."""
    P = totals.shape[0]
    best = totals[0]
    for p in range(P):
        best = max(best, totals[ix(p)])
        tie_key(breakdowns[ix(p)], keys[ix(p)], tribes_summed)
    for p in range(P):
        out[ix(p)] = 1 if totals[ix(p)] == best else 0
    if tie_categories:
        for b in range(keys.shape[1]):  # keep the tied players with the highest b-th value
            top = -(1 << 31)
            for p in range(P):
                if out[ix(p)] and keys[ix(p), ix(b)] > top:
                    top = keys[ix(p), ix(b)]
            for p in range(P):
                if out[ix(p)] and keys[ix(p), ix(b)] < top:
                    out[ix(p)] = 0
    n = 0
    for p in range(P):
        n += out[ix(p)]
    return n
