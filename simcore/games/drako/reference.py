"""DRAKO: Aetherya in plain Python: the executable rulebook (rules §3-§8).

Every §N is a section of ``docs/rules/drako.md``, the rules this module restates.

Readable, object-based and slow. It is the oracle the part-2 numba kernel must match game
for game, so every random number comes from ``GameRng(seed, game_id)`` in this fixed
order (no other source of randomness exists):

  setup   1. shuffle the Legend deck (Legend indices in file order); the river's slot
             s = 0, 1, ... takes the top card (the END of the list; ``pop()``)
          2. shuffle the kingdom deck (kind ids in kind order, ``copies(players)`` each);
             the top card is the END of the list
          3. centres, seat 0 first: draw until 4 distinct kinds; the duplicates drawn are
             set aside, then put back on top of the deck and the deck is shuffled once
             (no shuffle when none was set aside); the 4 cards go to the centre cells
             5, 6, 9, 10 in the order drawn
          4. borders, seat 0 first: 12 face-down cards, cells in row-major order
          5. the next card starts the discard pile (its top = the END of the list)
  turn    (seat 0 first, then 1, 2, ...) for a ``random`` player: the source (one draw
          from 2, only when both the discard and the deck can be used), then the action
          (one draw from the legal actions of that source, in enumeration order), then
          the Legend claimed after the action (one draw, only when 2+ are claimable).
          ``greedy`` and ``legend-hunter`` draw nothing.
          Then, if the draw pile is empty: the discard pile except its top card (bottom
          first) becomes the draw pile and is shuffled once.
A choice with a single candidate is forced: no random number is drawn.

Actions are enumerated in this order (the tie order of every policy: first best wins):
take the top discard and place it on cell 0..15; draw and place on cell 0..15; draw,
discard it and reveal face-down cell 0..15 (illegal cells skipped).

Scoring (``KingdomView``) is restated here with sets; ``scoring.py`` is the array version
(pinned equal by ``tests/drako/test_scoring_agreement.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

import numpy as np

from simcore import flat_mc
from simcore.flat_mc import Search
from simcore.rng import GameRng

from .learned import (
    F_DRAGON,
    F_DRAW,
    F_ENDS,
    F_FACE_DOWN,
    F_GAIN,
    F_NEIGHBOURS,
    F_PORTAL,
    F_RANK,
    F_REVEAL,
    F_TAME,
    F_TURN,
    N_MARGINS,
)
from .learned import KINDS as LEARNED_KINDS
from .policies import N_WEIGHTS, W_GAIN, W_LEGEND, W_NEAR, W_TAKE_BAR, W_TAME, Policy
from .tables import (
    BORDER,
    BREAKDOWN,
    CELLS,
    CENTRE,
    KINDS,
    MAX_PLAYERS,
    N_TRIBE_COLUMNS,
    Category,
    DrakoData,
    Kind,
    Legend,
    neighbour_masks,
)

Event = dict[str, Any]
TRIBE_BREAKDOWN = {Kind.ELF: "elf", Kind.DWARF: "dwarf", Kind.HUMAN: "human", Kind.GOBLIN: "goblin"}


class Source(IntEnum):
    DISCARD = 0  # take the top discard; it must be placed (§4.1 A)
    DECK = 1  # draw the top card; place it, or discard it and reveal a face-down card (§4.1 B)


@dataclass(frozen=True)
class Action:
    source: Source
    cell: int  # where the card is placed, or (reveal) the face-down cell revealed
    reveal: bool = False  # DECK only: the drawn card goes to the discard pile


@dataclass
class Slot:
    """One card of a kingdom."""

    kind: int
    face_up: bool
    replaced: bool = False  # this cell's card was replaced at least once
    turn_placed: int = 0  # 0: dealt at setup; else the game turn that placed it


@dataclass(frozen=True)
class Claim:
    legend: int  # index in DrakoData.legends
    turn: int
    when: str  # "before" or "after" the action


@dataclass
class Player:
    seat: int
    policy: int
    kingdom: list[Slot] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    turns: int = 0
    ended_game: bool = False
    breakdown: dict[str, int] = field(default_factory=dict)
    score: int = 0
    legends_met: list[int] = field(default_factory=list)  # at the end, all cards face up

    def face_down(self) -> list[int]:
        return [c for c, s in enumerate(self.kingdom) if not s.face_up]


class Rules:
    """One preset at one player count, in readable form."""

    def __init__(self, data: DrakoData, preset: str, players: int) -> None:
        self.data = data
        self.preset = preset
        self.players = players
        self.o = data.preset(preset).options
        self.kinds = data.kinds
        self.legends = data.legends
        masks = neighbour_masks(self.o.orthogonal_only)
        self.neighbours = tuple(
            tuple(j for j in range(CELLS) if (int(masks[i]) >> j) & 1) for i in range(CELLS)
        )
        self.deck = data.deck(players)
        self.copies = Counter(self.deck)
        self.category = [Category[k.category.upper()] for k in self.kinds]
        self.blind = {i for i, k in enumerate(self.kinds) if k.portal_blind}
        self.tame = [i for i, k in enumerate(self.kinds) if k.domesticates]
        self.locked = {KINDS.index(k) for k in self.o.replace_locked}
        self.land_points = {
            (t, KINDS.index(land)): pts
            for t, k in enumerate(self.kinds)
            for land, pts in k.land_points.items()
        }
        pairs = [*self.o.rivals] + ([("goblin", "goblin")] if self.o.goblin_goblin_conflict else [])
        self.rivals = {frozenset((KINDS.index(a), KINDS.index(b))) for a, b in pairs}
        self.max_turns = self.o.turns_per_player_cap * players
        if len(self.deck) < CELLS * players + 1:
            raise ValueError(
                f"{players} players need {CELLS * players + 1} kingdom cards; the deck has "
                f"{len(self.deck)}"
            )
        if self.o.setup_center_distinct and len(self.copies) < len(CENTRE):
            raise ValueError(f"a distinct centre needs {len(CENTRE)} kinds in the deck")

    def is_land(self, k: int) -> bool:
        return self.category[k] == Category.LAND

    def is_tribe(self, k: int) -> bool:
        return self.category[k] == Category.TRIBE

    def dragon_value(self, n: int) -> int:
        values = self.o.dragon_values
        return values[min(n, len(values)) - 1]


# --- scoring (§6, §7) -------------------------------------------------------------------


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


# --- policies (formulas in policies.py) ---------------------------------------------------


class Brain:
    """The heuristic players. ``random`` draws from the game's stream; the others value each
    legal action for their own visible kingdom and take the first best."""

    def __init__(self, game: DrakoGame, weights: np.ndarray) -> None:
        assert weights.shape[1] == N_WEIGHTS
        self.game = game
        self.rules = game.rules
        self.weights = weights
        self.rng = game.rng

    def pick(self, n: int) -> int:
        """Uniform index in [0, n); forced (no draw) when n == 1."""
        return 0 if n == 1 else self.rng.below(n)

    # -- what a player can see and count on
    def visible(self, p: int) -> list[int | None]:
        return [s.kind if s.face_up else None for s in self.game.players[p].kingdom]

    def unseen(self, p: int, in_hand: int | None) -> Counter[int]:
        """Kinds not visible to anyone: the deck's copies minus every face-up kingdom card,
        the discard pile and the card in hand."""
        seen: Counter[int] = Counter(self.game.discard)
        for pl in self.game.players:
            seen.update(s.kind for s in pl.kingdom if s.face_up)
        if in_hand is not None:
            seen[in_hand] += 1
        return Counter({k: n - seen[k] for k, n in self.rules.copies.items() if n > seen[k]})

    def near(self, view: KingdomView) -> float:
        """Σ over the river Legends of points × progress (1.0 once met)."""
        return sum(
            self.rules.legends[g].points * view.legend_progress(self.rules.legends[g])
            for g in self.game.river
            if g is not None
        )

    def tame_progress(self, view: KingdomView) -> float:
        """Σ over face-up dragons of min(best linked count of one domesticating kind, 2)/2."""
        return sum(
            min(max((view.tame_links(d, k) for k in self.rules.tame), default=0), 2) / 2
            for d in view.cells(Kind.DRAGON)
        )

    def best_claim(self, view: KingdomView) -> int:
        """Points of the best river Legend ``view`` meets (0: none)."""
        pts = [
            self.rules.legends[g].points
            for g in self.game.river
            if g is not None and view.legend_met(self.rules.legends[g])
        ]
        return max(pts, default=0)

    def features(self, kinds: list[int | None], w: np.ndarray, claim_ok: bool) -> tuple:
        """(score, best claim, near, tame) of a visible kingdom; the costly terms only when
        their weight is not 0."""
        view = KingdomView(self.rules, kinds)
        score = sum(view.breakdown().values())
        claim = self.best_claim(view) if claim_ok and w[W_LEGEND] != 0.0 else 0
        near = self.near(view) if w[W_NEAR] != 0.0 else 0.0
        tame = self.tame_progress(view) if w[W_TAME] != 0.0 else 0.0
        return score, claim, near, tame

    def value(self, f: tuple, base: tuple, w: np.ndarray) -> float:
        return float(
            w[W_GAIN] * (f[0] - base[0])
            + w[W_LEGEND] * max(0, f[1] - base[1])
            + w[W_NEAR] * (f[2] - base[2])
            + w[W_TAME] * (f[3] - base[3])
        )

    def action_value(self, p: int, action: Action, card: int, base: tuple, w: np.ndarray) -> float:
        """Value of an action for player ``p`` (a reveal: expectation over unseen kinds)."""
        kinds = self.visible(p)
        final = len(self.game.players[p].face_down()) == 1 and kinds[action.cell] is None
        claim_ok = self.game.claims_left > 0 and (
            not final or self.rules.o.legend_claim_after_final_reveal
        )
        if not action.reveal:
            kinds[action.cell] = card
            return self.value(self.features(kinds, w, claim_ok), base, w)
        pool = self.unseen(p, card)
        n = sum(pool.values())
        if n == 0:
            return 0.0
        total = 0.0
        for k in sorted(pool):
            kinds[action.cell] = k
            total += pool[k] * self.value(self.features(kinds, w, claim_ok), base, w)
        return total / n

    def baseline(self, p: int, w: np.ndarray) -> tuple:
        return self.features(self.visible(p), w, True)

    def action_values(self, p: int, card: int, actions: list[Action]) -> list[float]:
        """The value of each action (``best_action``'s numbers, none skipped)."""
        w = self.weights[self.game.players[p].policy]
        base = self.baseline(p, w)
        return [self.action_value(p, a, card, base, w) for a in actions]

    def best_action(self, p: int, card: int, actions: list[Action]) -> tuple[int, float]:
        w = self.weights[self.game.players[p].policy]
        base = self.baseline(p, w)
        values = [self.action_value(p, a, card, base, w) for a in actions]
        best = max(values)
        return values.index(best), best

    # -- the decisions
    def choose_source(self, p: int, sources: list[Source]) -> tuple[Source, Action | None]:
        """The source, and (greedy players taking the discard) the action already chosen."""
        policy = self.game.players[p].policy
        if len(sources) == 1 and sources[0] == Source.DECK:
            return Source.DECK, None
        if policy == Policy.RANDOM:
            return sources[self.pick(len(sources))], None
        card = self.game.discard[-1]
        actions = self.game.legal_actions(p, Source.DISCARD, card)
        i, v = self.best_action(p, card, actions)
        if Source.DECK not in sources or v >= self.weights[policy][W_TAKE_BAR]:
            return Source.DISCARD, actions[i]
        return Source.DECK, None

    def choose_action(self, p: int, card: int, actions: list[Action]) -> int:
        if len(actions) == 1:
            return 0
        if self.game.players[p].policy == Policy.RANDOM:
            return self.pick(len(actions))
        return self.best_action(p, card, actions)[0]

    def claim_before(
        self, p: int, slots: list[int], source: Source, action: Action | None
    ) -> int | None:
        """Greedy players claim before the action when the Legend might not be claimable
        after it: always when drawing (the card is unknown), else when the chosen action
        leaves no Legend worth as much claimable. ``random`` never claims before."""
        if not slots or self.game.players[p].policy == Policy.RANDOM:
            return None
        best = self.best_slot(slots)
        if source == Source.DECK or action is None:
            return best
        kinds = self.visible(p)
        final = len(self.game.players[p].face_down()) == 1 and kinds[action.cell] is None
        if final and not self.rules.o.legend_claim_after_final_reveal:
            return best
        kinds[action.cell] = self.game.discard[-1]
        after = self.best_claim(KingdomView(self.rules, kinds))
        river = self.game.river[best]
        assert river is not None
        return best if after < self.rules.legends[river].points else None

    def best_slot(self, slots: list[int]) -> int:
        """The river slot of the Legend worth most (first slot on ties)."""
        pts = [self.rules.legends[g].points for s in slots if (g := self.game.river[s]) is not None]
        return slots[pts.index(max(pts))]

    def claim_after(self, p: int, slots: list[int]) -> int:
        if self.game.players[p].policy == Policy.RANDOM:
            return slots[self.pick(len(slots))]
        return self.best_slot(slots)


# --- the game ------------------------------------------------------------------------------


class Step(IntEnum):
    """How far the current seat's turn has got (``DrakoGame.step``): where ``play_on``
    continues (kernel ``policies.STEP_*``)."""

    TURN = 0  # the turn begins: nothing of it done yet
    SOURCE = 1  # the turn is counted; the seat chooses its source next
    ACTION = 2  # the card is in hand (``DrakoGame.hand``), the claim before made; the action next


#: An option of the source decision: a placement of the top discard, or None: draw.
SourceOption = Action | None


def greedy_order(values: list[float], top: int) -> list[int]:
    """The indices of the ``top`` best ``values``, best first, ties in index order: the
    options an asked seat weighs (``mc.rank``)."""
    return sorted(range(len(values)), key=lambda i: (-values[i], i))[:top]


class DrakoGame(flat_mc.RulebookGame):
    """One game (``DrakoGame(rules, weights, seat_policies, seed, game_id, record,
    searches)``, see ``flat_mc.RulebookGame``). ``run()`` plays it to the end; ``events``
    narrates it if ``record``."""

    rules: Rules

    def init_state(self, seat_policies: list[int], **options: Any) -> None:
        """The players, the piles and the Legends, before setup."""
        assert 1 <= len(seat_policies) <= MAX_PLAYERS
        # typed as flat_mc.SearchGame declares it (mypy matches a settable member exactly)
        self.players: Sequence[Player] = [
            Player(seat, pol) for seat, pol in enumerate(seat_policies)
        ]
        self.brain = Brain(self, self.weights)
        self.deck: list[int] = []  # draw pile, top = end
        self.discard: list[int] = []  # discard pile, top = end
        self.legend_deck: list[int] = []  # top = end
        self.river: list[int | None] = []  # face-up Legends; None = empty slot
        self.turn = 0  # turns played so far (all players)
        self.current = 0  # seat to play
        self.claims_left = 0  # Legend claims the current player may still make this turn
        self.over = False
        self.cap_hit = False
        # resumable: where the current turn is, and the card in hand from STEP ACTION on
        self.step = Step.TURN
        self.hand: tuple[Source, int] | None = None

    # -- helpers
    def cards_in_play(self) -> Counter[int]:
        """Every kingdom card wherever it is (conservation: always equals the deck)."""
        c = Counter(self.deck) + Counter(self.discard)
        for pl in self.players:
            c.update(s.kind for s in pl.kingdom)
        return c

    # -- §3 setup
    def setup(self) -> None:
        r = self.rules
        self.legend_deck = list(range(len(r.legends)))
        self.rng.shuffle(self.legend_deck)
        self.river = [self.legend_deck.pop() for _ in range(r.o.legend_row_size)]
        self.deck = list(r.deck)
        self.rng.shuffle(self.deck)
        for pl in self.players:
            pl.kingdom = [Slot(-1, False) for _ in range(CELLS)]
            drawn: list[int] = []
            aside: list[int] = []
            while len(drawn) < len(CENTRE):
                c = self.deck.pop()
                (aside if r.o.setup_center_distinct and c in drawn else drawn).append(c)
            if aside:
                self.deck.extend(aside)
                self.rng.shuffle(self.deck)
            for cell, c in zip(CENTRE, drawn, strict=True):
                pl.kingdom[cell] = Slot(c, True)
        for pl in self.players:
            for cell in BORDER:
                pl.kingdom[cell] = Slot(self.deck.pop(), False)
        self.discard = [self.deck.pop()]
        self.emit(
            "setup",
            river=[r.legends[g].id for g in self.river if g is not None],
            centres=[[KINDS[pl.kingdom[c].kind] for c in CENTRE] for pl in self.players],
            discard=KINDS[self.discard[-1]],
        )

    # -- §4.3 legality
    def can_replace(self, p: int, cell: int, card: int) -> bool:
        s = self.players[p].kingdom[cell]
        if not s.face_up:
            return True  # a face-down card can always be replaced, whatever it is
        if s.kind in self.rules.locked:
            return False  # face-up dragons and portals are locked
        return not (self.rules.o.replace_same_kind_forbidden and s.kind == card)

    def legal_actions(self, p: int, source: Source, card: int) -> list[Action]:
        """In enumeration order: placements on cells 0..15, then (DECK) reveals."""
        actions = [Action(source, c) for c in range(CELLS) if self.can_replace(p, c, card)]
        if source == Source.DECK:
            actions += [Action(source, c, True) for c in self.players[p].face_down()]
        return actions

    def sources(self) -> list[Source]:
        out = []
        if self.discard:
            out.append(Source.DISCARD)
        if self.deck:
            out.append(Source.DECK)
        return out

    # -- §4.5 Legends
    def claimable(self, p: int) -> list[int]:
        """River slots whose Legend player ``p`` meets (face-up cards only by default)."""
        face_up_only = self.rules.o.legend_check_face_up_only
        kinds = [s.kind if s.face_up or not face_up_only else None for s in self.players[p].kingdom]
        view = KingdomView(self.rules, kinds)
        return [
            s
            for s, g in enumerate(self.river)
            if g is not None and view.legend_met(self.rules.legends[g])
        ]

    def claim(self, p: int, slot: int, when: str) -> None:
        g = self.river[slot]
        assert g is not None
        self.players[p].claims.append(Claim(g, self.turn, when))
        self.claims_left -= 1
        self.river[slot] = self.legend_deck.pop() if self.legend_deck else None
        self.emit("claim", seat=p, turn=self.turn, legend=self.rules.legends[g].id, when=when)

    # -- §4 one turn
    def take_turn(self) -> None:
        """The current player's turn from where it is (``step``): source, claim before?,
        action, claims after (not after the final reveal), reshuffle, end of game or turn
        cap."""
        p = self.current
        player = self.players[p]
        if self.step == Step.TURN:
            self.turn += 1
            player.turns += 1
            self.claims_left = self.rules.o.legends_per_turn
            self.step = Step.SOURCE
        planned: Action | None = None
        if self.step == Step.SOURCE:
            source, planned = self.decide_source(p)
            if self.rules.o.legend_claim_timing == "before-or-after" and self.claims_left:
                slot = self.brain.claim_before(p, self.claimable(p), source, planned)
                if slot is not None:
                    self.claim(p, slot, "before")
            card = self.discard.pop() if source == Source.DISCARD else self.deck.pop()
            self.hand = (source, card)
            self.step = Step.ACTION
        assert self.hand is not None
        source, card = self.hand
        actions = self.legal_actions(p, source, card)
        if planned is None:
            planned = actions[self.decide_action(p, card, actions)]
        assert planned in actions
        self.apply(p, source, card, planned)
        self.step, self.hand = Step.TURN, None
        final = not player.face_down()
        if not final or self.rules.o.legend_claim_after_final_reveal:
            while self.claims_left and (slots := self.claimable(p)):
                self.claim(p, self.brain.claim_after(p, slots), "after")
        if not self.deck:
            self.reshuffle()
        if final:  # §8: the game ends at once
            self.over = True
            player.ended_game = True
        elif self.turn >= self.rules.max_turns:
            self.over = True
            self.cap_hit = True
        self.current = (p + 1) % self.n

    def forced(self, p: int) -> int | None:
        """The option of a decision made already for seat ``p`` (by a search; a playout's
        candidate), consumed; else None."""
        if self.force is not None and self.force[0] == p:
            i = self.force[1]
            self.force = None
            return i
        return None

    def source_options(self, p: int) -> list[SourceOption]:
        """The mc source decision's options: each placement of the top discard (in
        enumeration order), then (when the deck has cards) None: draw."""
        options: list[SourceOption] = []
        if self.discard:
            options += self.legal_actions(p, Source.DISCARD, self.discard[-1])
        if self.deck:
            options.append(None)
        return options

    def decide_source(self, p: int) -> tuple[Source, Action | None]:
        sources = self.sources()
        if len(sources) == 1 and sources[0] == Source.DECK:
            return Source.DECK, None
        i = self.forced(p)
        if i is None and self.asked(p) and len(options := self.source_options(p)) > 1:
            i = self.ask("source", p, options, self.source_values(p, options))
        if i is None:
            return self.brain.choose_source(p, sources)
        option = self.source_options(p)[i]
        return (Source.DECK, None) if option is None else (Source.DISCARD, option)

    def source_values(self, p: int, options: list[SourceOption]) -> list[float]:
        """Greedy's value of each source option: a placement's own value, drawing the
        take bar (greedy draws when no placement is worth that much)."""
        card = self.discard[-1] if self.discard else -1
        placements = [a for a in options if a is not None]
        values = self.brain.action_values(p, card, placements) if placements else []
        bar = float(self.weights[self.players[p].policy][W_TAKE_BAR])
        return values + [bar] * (len(options) - len(placements))

    def decide_action(self, p: int, card: int, actions: list[Action]) -> int:
        if len(actions) == 1:
            return 0
        i = self.forced(p)
        if i is not None:
            return i
        if self.asked(p):
            return self.ask("action", p, actions, self.brain.action_values(p, card, actions))
        return self.brain.choose_action(p, card, actions)

    def asked(self, p: int) -> bool:
        """Does seat ``p`` decide by a search (``mc``) or a model (``learned``)?"""
        return self.searches[p] is not None or self.players[p].policy == Policy.LEARNED

    def ask(
        self, decision: str, p: int, options: Sequence[SourceOption], values: list[float]
    ) -> int:
        """The asked seat ``p``'s choice among ``options`` (greedy's ``values``): its
        search's, else its model's."""
        search = self.searches[p]
        if search is not None:
            return self.search(search, decision, p, options, values)
        return self.learned_decide(decision, p, options, values)

    # -- the learned player (``learned.py`` compiles the same)
    def learned_decide(
        self, decision: str, p: int, options: Sequence[SourceOption], values: list[float]
    ) -> int:
        """``learned``: among greedy's best ``model.top`` options (ranked as ``search``
        ranks them), the one its model scores best (``learned_features``), ties to greedy's
        first best. Returns the option's index."""
        model = self.models[p]
        ranked = greedy_order(values, model.top)
        kind = LEARNED_KINDS.index(decision)
        best, choice = -float("inf"), ranked[0]
        scores = []
        for x, i in zip(self.learned_features(decision, p, options, ranked), ranked, strict=True):
            score = model.score(kind, x)
            scores.append(score)
            if score > best:
                best, choice = score, i
        if self.record and len(ranked) > 1:
            self.emit(
                "learned",
                seat=p,
                turn=self.turn,
                decision=decision,
                candidates=[
                    {
                        "option": self.describe(p, decision, options[i]),
                        "value": round(values[i], 4),
                        "score": round(score, 3),
                    }
                    for i, score in zip(ranked, scores, strict=True)
                ],
                chosen=self.describe(p, decision, options[choice]),
            )
        return choice

    def learned_features(
        self, decision: str, p: int, options: Sequence[SourceOption], ranked: list[int]
    ) -> list[list[float]]:
        """``learned.FEATURES`` of the ``ranked`` options (greedy's order) of seat ``p``'s
        ``decision``, from what it sees: each term the change legend-hunter's
        ``Brain.features`` measure, against the visible kingdom (a reveal: over the unseen
        kinds, in kind order, weighted by their copies), then the context."""
        r, brain = self.rules, self.brain
        kinds = brain.visible(p)
        base = self.learned_terms(kinds, True)
        down = len(self.players[p].face_down())
        if decision == "action":
            assert self.hand is not None
            card = self.hand[1]
        else:
            card = self.discard[-1] if self.discard else -1
        context = self.learned_context(p, down, len(options))
        rows = []
        for rank, i in enumerate(ranked):
            own = [0.0] * F_TURN
            option = options[i]
            if option is None:
                own[F_DRAW] = 1.0
            else:
                cell = option.cell
                opens = kinds[cell] is None
                final = opens and down == 1
                claim_ok = self.claims_left > 0 and (
                    not final or r.o.legend_claim_after_final_reveal
                )
                pool = brain.unseen(p, card) if option.reveal else Counter({card: 1})
                n = sum(pool.values())
                sums: list[float] = [0, 0, 0.0, 0.0]
                for k in sorted(pool):
                    changed = list(kinds)
                    changed[cell] = k
                    terms = self.learned_terms(changed, claim_ok)
                    sums[0] += pool[k] * (terms[0] - base[0])
                    sums[1] += pool[k] * max(0, terms[1] - base[1])
                    sums[2] += pool[k] * (terms[2] - base[2])
                    sums[3] += pool[k] * (terms[3] - base[3])
                if n:
                    own[F_GAIN : F_TAME + 1] = [v / n for v in sums]
                own[F_REVEAL] = option.reveal
                own[F_FACE_DOWN] = opens
                own[F_ENDS] = final
                own[F_DRAGON] = not option.reveal and card == Kind.DRAGON
                own[F_PORTAL] = not option.reveal and card == Kind.PORTAL
                own[F_NEIGHBOURS] = len(r.neighbours[cell])
            own[F_RANK] = rank
            rows.append([float(v) for v in own] + context)
        return rows

    def learned_terms(self, kinds: list[int | None], claim_ok: bool) -> tuple:
        """(score, best claim (0 unless ``claim_ok``), near, tame) of a visible kingdom:
        ``Brain.features`` with every term."""
        view = KingdomView(self.rules, kinds)
        claim = self.brain.best_claim(view) if claim_ok else 0
        score = sum(view.breakdown().values())
        return score, claim, self.brain.near(view), self.brain.tame_progress(view)

    def learned_context(self, p: int, down: int, n_options: int) -> list[float]:
        """The context features of seat ``p``'s decision (``learned.FEATURES`` from
        ``turn``): its turns, its and its rivals' face-down cards, the margins of the
        visible scores (face-up cards and held Legends), the players, the options."""
        totals = []
        for q, pl in enumerate(self.players):
            held = sum(self.rules.legends[c.legend].points for c in pl.claims)
            view = KingdomView(self.rules, self.brain.visible(q))
            totals.append(sum(view.breakdown(held).values()))
        rivals = [(p + j) % self.n for j in range(1, self.n)]
        margins = [totals[p] - totals[q] for q in rivals]
        context = [
            self.players[p].turns,
            down,
            min(len(self.players[q].face_down()) for q in rivals),
            totals[p] - max(totals[q] for q in rivals),
            *margins,
            *[0] * (N_MARGINS - len(margins)),
            self.n,
            n_options,
        ]
        return [float(v) for v in context]

    # -- the mc search policy
    def search(
        self,
        search: Search,
        decision: str,
        p: int,
        options: Sequence[SourceOption],
        values: list[float],
    ) -> int:
        """``mc``: determinized flat Monte-Carlo search (see the spec page). The ``top``
        options best by greedy's value (ties in option order) each play ``rollouts``
        playouts from the same worlds; the best summed outcome wins, ties to greedy's first
        best. Returns the option's index."""
        ranked = greedy_order(values, search.top)
        number, totals, best = self.search_totals(search, p, ranked)
        if self.record:
            rollouts = search.rollouts if len(ranked) > 1 else 0
            self.emit(
                "search",
                seat=p,
                turn=self.turn,
                decision=decision,
                number=number,
                candidates=[
                    {
                        "option": self.describe(p, decision, options[i]),
                        "value": round(values[i], 4),
                        "playouts": rollouts,
                        "mean": flat_mc.mean_outcome(totals[j], rollouts),
                    }
                    for j, i in enumerate(ranked)
                ],
                chosen=self.describe(p, decision, options[ranked[best]]),
            )
        return ranked[best]

    def describe(self, p: int, decision: str, option: SourceOption) -> str:
        """An option as text, for the narration."""
        if option is None:
            return "draw"
        if decision == "source":
            return f"take {KINDS[self.discard[-1]]} -> cell {option.cell}"
        assert self.hand is not None
        card = KINDS[self.hand[1]]
        if option.reveal:
            return f"discard {card}, reveal cell {option.cell}"
        return f"place {card} -> cell {option.cell}"

    def outcome(self, p: int) -> int:
        """Seat ``p``'s result of a finished game, in ``OUTCOME_UNIT``s: its share of the win
        (the §7.5 winners) plus ``MARGIN_WEIGHT`` x its margin over the best other score
        (clipped)."""
        won = self.winners()
        scores = [pl.score for pl in self.players]
        margin = scores[p] - max(s for q, s in enumerate(scores) if q != p)
        return flat_mc.outcome(p in won, len(won), margin)

    def clone(self) -> DrakoGame:
        """A copy that plays on independently (silent: no events; heuristic seats only)."""
        g = self.silent_copy()
        g.brain = Brain(g, self.weights)
        g.deck, g.discard = list(self.deck), list(self.discard)
        g.legend_deck, g.river = list(self.legend_deck), list(self.river)
        return g

    def determinize(self, p: int, rng: GameRng) -> None:
        """Deal what seat ``p`` cannot see anew, consistently with what it sees, from
        ``rng``. It sees every face-up kingdom card, the discard pile, the river, the claims
        and the card in hand; hidden are the face-down cards (its own too), the draw pile's
        order and the legend deck's order. It does not remember which cards a reshuffle put
        into the draw pile (as ``Brain.unseen``). So the pool is the box minus what it sees;
        listed by kind, shuffled, it is dealt to every face-down cell (seat 0 first, cells
        in order), then to the draw pile from the bottom up; the legend deck's cards, listed
        by index, are shuffled (after the pool)."""
        seen: Counter[int] = Counter(self.discard)
        for pl in self.players:
            seen.update(s.kind for s in pl.kingdom if s.face_up)
        if self.hand is not None:
            seen[self.hand[1]] += 1
        pool = [k for k in sorted(self.rules.copies) for _ in range(self.rules.copies[k] - seen[k])]
        rng.shuffle(pool)
        cards = iter(pool)
        for pl in self.players:
            for s in pl.kingdom:
                if not s.face_up:
                    s.kind = next(cards)
        self.deck = list(cards)
        self.legend_deck = sorted(self.legend_deck)
        rng.shuffle(self.legend_deck)

    def apply(self, p: int, source: Source, card: int, action: Action) -> bool:
        """Carry out ``action`` with ``card`` in hand; True when it revealed a card."""
        slot = self.players[p].kingdom[action.cell]
        was_down = not slot.face_up
        if action.reveal:
            assert was_down
            self.discard.append(card)
            slot.face_up = True
            self.emit(
                "turn", seat=p, turn=self.turn, source="deck", card=KINDS[card], action="reveal",
                cell=action.cell, revealed=KINDS[slot.kind],
            )  # fmt: skip
            return True
        self.discard.append(slot.kind)  # the replaced card goes face up on the discard pile
        self.emit(
            "turn", seat=p, turn=self.turn, source=source.name.lower(), card=KINDS[card],
            action="place", cell=action.cell, replaced=KINDS[slot.kind], was_face_down=was_down,
        )  # fmt: skip
        self.players[p].kingdom[action.cell] = Slot(card, True, True, self.turn)
        return was_down

    def reshuffle(self) -> None:
        """§4.4: the discard pile (but its top card) becomes the shuffled draw pile."""
        keep = 1 if self.rules.o.reshuffle_discard_keep_top else 0
        if len(self.discard) <= keep:
            return
        self.deck = self.discard[: len(self.discard) - keep]
        self.discard = self.discard[len(self.discard) - keep :]
        self.rng.shuffle(self.deck)
        self.emit("reshuffle", turn=self.turn, cards=len(self.deck))

    # -- §8 end and §7 scoring
    def run(self, check: bool = False) -> DrakoGame:
        """A new game (``setup``), then play on to the end."""
        self.setup()
        if check:
            self.check_invariants()
        return self.play_on(check)

    def play_on(self, check: bool = False) -> DrakoGame:
        """Play from where the game is (``current``, ``step``) to the end, scoring included."""
        while not self.over:
            self.take_turn()
            if check:
                self.check_invariants()
        self.final_scoring()
        return self

    def final_scoring(self) -> None:
        """Reveal every face-down card where it lies, then score (§7, §8)."""
        for pl in self.players:
            for s in pl.kingdom:
                s.face_up = True
        for pl in self.players:
            view = KingdomView(self.rules, [s.kind for s in pl.kingdom])
            held = sum(self.rules.legends[c.legend].points for c in pl.claims)
            pl.breakdown = view.breakdown(held)
            pl.score = sum(pl.breakdown.values())
            pl.legends_met = [g for g, lg in enumerate(self.rules.legends) if view.legend_met(lg)]
        self.emit(
            "final",
            turns=self.turn,
            cap_hit=self.cap_hit,
            scores=[pl.score for pl in self.players],
            breakdown=[pl.breakdown for pl in self.players],
            winners=self.winners(),
        )

    def winners(self) -> list[int]:
        return winners(
            [pl.score for pl in self.players],
            [pl.breakdown for pl in self.players],
            self.rules.o.tie_break == "categories",
            self.rules.o.tie_break_tribes == "summed",
        )

    def check_invariants(self) -> None:
        """Rule invariants after every step (used by the tests' harness)."""
        assert self.cards_in_play() == self.rules.copies, "card conservation"
        for pl in self.players:
            assert len(pl.kingdom) == CELLS, "16 cards per kingdom"
            assert all(s.kind >= 0 for s in pl.kingdom)
            assert len(pl.face_down()) <= len(BORDER)
        assert self.turn <= self.rules.max_turns
        held = [c.legend for pl in self.players for c in pl.claims]
        in_river = [g for g in self.river if g is not None]
        assert sorted(held + in_river + self.legend_deck) == list(range(len(self.rules.legends)))


#: Play one game with the readable rules (``flat_mc.RulebookGame.play``; ``searches``: the mc
#: seats' parameters).
play_reference = DrakoGame.play


def final_state(game: DrakoGame) -> dict[str, Any]:
    """Comparable summary of a finished game (golden files and the part-2 differential test)."""
    return {
        "turns": game.turn,
        "cap_hit": game.cap_hit,
        "scores": [pl.score for pl in game.players],
        "breakdown": [[pl.breakdown[b] for b in BREAKDOWN] for pl in game.players],
        "kingdoms": [[KINDS[s.kind] for s in pl.kingdom] for pl in game.players],
        "turn_placed": [[s.turn_placed for s in pl.kingdom] for pl in game.players],
        "claims": [
            [[game.rules.legends[c.legend].id, c.turn] for c in pl.claims] for pl in game.players
        ],
        "player_turns": [pl.turns for pl in game.players],
        "ended_by": [pl.seat for pl in game.players if pl.ended_game],
        "winners": game.winners(),
    }
