"""The heuristic players (``Brain``: the formulas of ``policies.py``): the value of an
action, the source and action chosen, the Legend claimed.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import numpy as np

from ..policies import N_WEIGHTS, W_GAIN, W_LEGEND, W_NEAR, W_TAKE_BAR, W_TAME, Policy
from ..tables import (
    Kind,
)
from .rules import (
    Action,
    Source,
)
from .scoring import KingdomView

if TYPE_CHECKING:
    from .game import DrakoGame


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
