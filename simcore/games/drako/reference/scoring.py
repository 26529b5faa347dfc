"""§6, §7 scoring restated with sets: ``KingdomView`` (a visible kingdom: links, tribes,
conflicts, dragons, Legends, the breakdown), ``tie_key`` and ``winners`` (§7.5). The
package's compiled ``scoring.py`` is the array version (pinned equal by
``tests/drako/test_scoring_agreement.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..tables import (
    BREAKDOWN,
    CELLS,
    KINDS,
    N_TRIBE_COLUMNS,
    Kind,
    Legend,
)
from .rules import (
    TRIBE_BREAKDOWN,
    Rules,
)


class KingdomView:
    """A kingdom as far as it is visible: ``kinds[c]`` is the kind of cell ``c`` or None
    (face down / unknown: counts as empty). Links are computed once, here (§6)."""

    def __init__(self, rules: Rules, kinds: Sequence[int | None]) -> None:
        self.rules = rules
        self.kinds = list(kinds)
        self.direct: list[set[int]] = []
        self.full: list[set[int]] = []
        portals = {c for c, k in enumerate(kinds) if k == Kind.PORTAL}
        nb = rules.neighbours
        for i in range(CELLS):
            if kinds[i] is None:
                self.direct.append(set())
                self.full.append(set())
                continue
            direct = {j for j in nb[i] if kinds[j] is not None}
            chain = {p for p in nb[i] if p in portals}  # portals next to i ...
            todo = list(chain)
            while todo and rules.o.portal_chaining:  # ... and the portals chained to them
                p = todo.pop()
                for q in nb[p]:
                    if q in portals and q not in chain:
                        chain.add(q)
                        todo.append(q)
            full = set(direct)
            for p in chain:
                full |= {j for j in nb[p] if kinds[j] is not None}
            full.discard(i)
            self.direct.append(direct)
            self.full.append(full)

    def cells(self, kind: int | None = None) -> list[int]:
        """Visible cells (of ``kind``)."""
        return [
            c for c, k in enumerate(self.kinds) if k is not None and (kind is None or k == kind)
        ]

    def blind(self, c: int) -> bool:
        return self.kinds[c] in self.rules.blind

    def linked(self, i: int, j: int, blind_via_portal: bool) -> bool:
        """§6 for a symmetric relation: two blind (goblin) cards only directly; a blind and
        a non-blind card through portals only if ``blind_via_portal``; others through
        portals."""
        if self.blind(i) and self.blind(j):
            return j in self.direct[i]
        if self.blind(i) or self.blind(j):
            return j in (self.full[i] if blind_via_portal else self.direct[i])
        return j in self.full[i]

    # §7.1
    def tribe_points(self, i: int) -> int:
        """Land points of the tribe card in cell ``i``: each distinct linked land once."""
        t = self.kinds[i]
        assert t is not None
        via = self.rules.o.goblin_land_via_portal
        return sum(
            self.rules.land_points.get((t, k), 0)
            for j in self.cells()
            if (k := self.kinds[j]) is not None and self.rules.is_land(k) and self.linked(i, j, via)
        )

    # §7.2
    def conflict_pairs(self) -> list[tuple[int, int]]:
        via = self.rules.o.goblin_conflict_via_portal
        cells = self.cells()
        return [
            (i, j)
            for i in cells
            for j in cells
            if i < j
            and frozenset((self.kinds[i], self.kinds[j])) in self.rules.rivals
            and self.linked(i, j, via)
        ]

    # §7.3
    def tame_links(self, d: int, k: int) -> int:
        """Cards of kind ``k`` the dragon in cell ``d`` is linked to (through portals when
        ``dragon_via_portal``; a portal-blind kind only directly)."""
        if self.rules.o.dragon_via_portal:
            return sum(self.linked(d, j, False) for j in self.cells(k))
        return sum(j in self.direct[d] for j in self.cells(k))

    def is_tame(self, d: int) -> bool:
        """Linked to >= 2 cards of one domesticating kind (humans, elves or dwarves)."""
        return any(self.tame_links(d, k) >= 2 for k in self.rules.tame)

    def dragon_cell_points(self) -> dict[int, int]:
        """Points of each dragon: the first ``dragon_max_positive`` tame ones (cell order)
        +v, every other dragon −v; v = value for the kingdom's number of dragons."""
        dragons = self.cells(Kind.DRAGON)
        if not dragons:
            return {}
        v = self.rules.dragon_value(len(dragons))
        plus = [d for d in dragons if self.is_tame(d)][: self.rules.o.dragon_max_positive]
        return {d: v if d in plus else -v for d in dragons}

    # §5
    def sees_for_legend(self, c: int, j: int, orthogonal: bool) -> bool:
        """Does the Legend centre ``c`` count card ``j``? A goblin centre: direct only; a
        non-goblin centre reaches goblins through portals if ``legend_goblin_via_portal``."""
        if orthogonal or self.blind(c):
            return j in self.direct[c]
        if self.blind(j):
            return j in (self.full[c] if self.rules.o.legend_goblin_via_portal else self.direct[c])
        return j in self.full[c]

    def legend_met(self, legend: Legend) -> bool:
        req = legend.requirement
        if req.shape == "present":
            return all(self.cells(KINDS.index(k)) for k in req.kinds)
        orth = req.adjacency == "orthogonal"
        ways = [(req.centre, req.around)] + ([(req.around, req.centre)] if req.either_way else [])
        for centre, around in ways:
            arounds = self.cells(KINDS.index(around))
            for c in self.cells(KINDS.index(centre)):
                if sum(self.sees_for_legend(c, j, orth) for j in arounds) >= req.count:
                    return True
        return False

    def legend_progress(self, legend: Legend) -> float:
        """Share of the requirement on the table (1.0 = met): PRESENT: kinds present / kinds
        named; LINKED: the best centre card's (1 + min(linked, count)) / (count + 1)."""
        req = legend.requirement
        if req.shape == "present":
            return sum(bool(self.cells(KINDS.index(k))) for k in req.kinds) / len(req.kinds)
        orth = req.adjacency == "orthogonal"
        ways = [(req.centre, req.around)] + ([(req.around, req.centre)] if req.either_way else [])
        best = 0.0
        for centre, around in ways:
            arounds = self.cells(KINDS.index(around))
            for c in self.cells(KINDS.index(centre)):
                n = sum(self.sees_for_legend(c, j, orth) for j in arounds)
                best = max(best, (1 + min(n, req.count)) / (req.count + 1))
        return best

    # §7
    def breakdown(self, legend_points: int = 0) -> dict[str, int]:
        """The seven §7 categories (``legend_points``: the held Legends' points)."""
        out = dict.fromkeys(BREAKDOWN, 0)
        for i in self.cells():
            k = self.kinds[i]
            if k in TRIBE_BREAKDOWN:
                out[TRIBE_BREAKDOWN[Kind(k)]] += self.tribe_points(i)
        out["dragon"] = sum(self.dragon_cell_points().values())
        out["conflicts"] = self.rules.o.conflict_points * len(self.conflict_pairs())
        out["legends"] = legend_points
        return out

    def cell_points(self) -> list[int]:
        """Per-card points: a tribe its land points, a dragon its signed value, others 0
        (conflicts and Legends belong to no single card)."""
        dragons = self.dragon_cell_points()
        return [
            self.tribe_points(c) if self.kinds[c] in TRIBE_BREAKDOWN else dragons.get(c, 0)
            for c in range(CELLS)
        ]


def tie_key(breakdown: dict[str, int], tribes_summed: bool = False) -> list[int]:
    """§7.5: the category subtotals sorted high to low. The categories: each column of the
    breakdown (each tribe its own, Game Park's seven), or with ``tribes_summed`` the brief's
    four: the tribes' land points together, dragons, conflicts, Legends."""
    if tribes_summed:
        tribes = sum(breakdown[b] for b in BREAKDOWN[:N_TRIBE_COLUMNS])
        values = [tribes] + [breakdown[b] for b in BREAKDOWN[N_TRIBE_COLUMNS:]]
    else:
        values = list(breakdown.values())
    return sorted(values, reverse=True)


def winners(
    totals: list[int],
    breakdowns: list[dict[str, int]],
    categories: bool,
    tribes_summed: bool = False,
) -> list[int]:
    """Highest total; then (``categories``) the highest §7.5 key (``tie_key``); still tied:
    all win."""
    best = max(totals)
    tied = [p for p, t in enumerate(totals) if t == best]
    if categories and len(tied) > 1:
        top = max(tie_key(breakdowns[p], tribes_summed) for p in tied)
        tied = [p for p in tied if tie_key(breakdowns[p], tribes_summed) == top]
    return tied
