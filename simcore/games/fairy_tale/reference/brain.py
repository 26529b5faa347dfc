"""The heuristic players, restated readably (same formulas as ``policies.py``)."""

from __future__ import annotations

import numpy as np

from talesim.simcore.rng import GameRng

from ..policies import N_WEIGHTS, W_DENY, W_EFFECT, W_GAIN, W_HARM, W_SYNERGY, Decision, Policy
from .rules import Rules
from .scoring import Counts, _shift, card_gain, card_loss, gain_of_adding


class Brain:
    """The heuristic players, restated readably. See ``policies.py`` for the formulas."""

    def __init__(self, rules: Rules, weights: np.ndarray, rng: GameRng) -> None:
        self.rules = rules
        self.weights = weights
        self.rng = rng

    def card_gain(self, c: int, own: list[int], own_fc: list[int], counts: Counts, p: int) -> int:
        return card_gain(self.rules, c, own, own_fc, counts, p)

    def least_close_loss(
        self, e: int, own: list[int], own_fc: list[int], counts: Counts, p: int
    ) -> int:
        """The owner closes, one by one, the matching card that costs least (lowest index
        on ties): the points lost (``one_by_one``)."""
        return -self.one_by_one(e, own, own_fc, counts, p)

    def open_gain(
        self, e: int, own: list[int], own_fc: list[int], down: list[int], counts: Counts, p: int
    ) -> int:
        """The owner opens, one by one, the matching face-down card (``down``) that gains
        most (lowest index on ties): the points gained (``one_by_one``)."""
        return self.one_by_one(e, own, own_fc, counts, p, down)

    def one_by_one(
        self,
        e: int,
        own: list[int],
        own_fc: list[int],
        counts: Counts,
        p: int,
        down: list[int] | None = None,
    ) -> int:
        """What effect ``e``'s ``count`` cards are worth to the owner: an Open (``down``
        given) turns face up its face-down cards, a Close face down its face-up ones, one
        by one, each time the matching card best for the owner (the most gained or the
        least lost; lowest index on ties) with the cards as the previous ones left them.
        The points gained (negative: lost); the cards are put back."""
        r = self.rules
        step = 1 if down is not None else -1
        pool = down if down is not None else own
        total = 0
        moved = []
        for _ in range(r.effect(e)["count"]):
            options = [
                (
                    card_gain(r, t, own, own_fc, counts, p)
                    if down is not None
                    else -card_loss(r, t, own, own_fc, counts, p),
                    -t,
                )
                for t in range(len(own))
                if pool[t] > 0 and r.selects(e, t)
            ]
            if not options:
                break
            value, neg_t = max(options)
            total += value
            _shift(r, own, own_fc, -neg_t, step)
            if down is not None:
                down[-neg_t] -= 1
            moved.append(-neg_t)
        for t in moved:
            _shift(r, own, own_fc, t, -step)
            if down is not None:
                down[t] += 1
        return total

    def effect_terms(
        self,
        c: int,
        own: list[int],
        own_fc: list[int],
        down: list[int],
        counts: Counts,
        p: int,
        want_harm: bool,
    ) -> tuple[int, int]:
        r = self.rules
        e = r.effect(c)
        if e["kind"] not in ("open", "close"):
            return 0, 0
        _shift(r, own, own_fc, c, 1)
        eff = harm = 0
        if e["kind"] == "open":
            eff = self.open_gain(c, own, own_fc, down, counts, p)
        else:
            if e["scope"] != "others":
                eff = -self.least_close_loss(c, own, own_fc, counts, p)
            if e["scope"] != "you" and want_harm:
                harm = sum(
                    self.least_close_loss(c, counts.cards[q], counts.factions[q], counts, q)
                    for q in range(len(counts.cards))
                    if q != p
                )
        _shift(r, own, own_fc, c, -1)
        return eff, harm

    def synergy(self, c: int, own: list[int], own_fc: list[int], counts: Counts, p: int) -> int:
        r = self.rules
        v = r.value(c)
        if v["kind"] == "wild":
            return 0
        related = [c]
        if v["kind"] == "count" and r.index[v["of"]] != c:
            related.append(r.index[v["of"]])
        if v["kind"] == "quest_cards":
            related += [r.index[n] for n in v["needs"]]
        related += [int(u) for u in r.tables.deps[c] if u >= 0]

        def interaction(u: int) -> int:
            without = gain_of_adding(r, u, own, own_fc, counts, p)
            _shift(r, own, own_fc, c, 1)
            with_c = gain_of_adding(r, u, own, own_fc, counts, p)
            _shift(r, own, own_fc, c, -1)
            return with_c - without

        return max(interaction(u) for u in related)

    def value(
        self,
        decision: Decision,
        w: np.ndarray,
        c: int,
        own: list[int],
        own_fc: list[int],
        down: list[int],
        counts: Counts,
        p: int,
        neighbour: int,
    ) -> float:
        r = self.rules
        if decision == Decision.OPEN:
            return float(card_gain(r, c, own, own_fc, counts, p))
        if decision == Decision.CLOSE:
            return float(-card_loss(r, c, own, own_fc, counts, p))
        gain = eff = harm = syn = deny = 0
        if w[W_GAIN] != 0.0:
            gain = self.card_gain(c, own, own_fc, counts, p)
        if w[W_EFFECT] != 0.0 or w[W_HARM] != 0.0:
            eff, harm = self.effect_terms(c, own, own_fc, down, counts, p, w[W_HARM] != 0.0)
        if decision == Decision.DRAFT:
            if w[W_SYNERGY] != 0.0:
                syn = self.synergy(c, own, own_fc, counts, p)
            if w[W_DENY] != 0.0 and neighbour != p:
                deny = self.card_gain(
                    c, counts.cards[neighbour], counts.factions[neighbour], counts, neighbour
                )
        return float(
            w[W_GAIN] * gain
            + w[W_EFFECT] * eff
            + w[W_HARM] * harm
            + w[W_SYNERGY] * syn
            + w[W_DENY] * deny
        )

    def choose(
        self,
        policy: int,
        decision: Decision,
        options: list[int],
        own: list[int],
        own_fc: list[int],
        down: list[int],
        counts: Counts,
        p: int,
        neighbour: int,
    ) -> int:
        """Index of the chosen option (first best); ``random`` draws from the stream."""
        if policy == Policy.RANDOM:
            return self.rng.below(len(options))
        w = self.weights[policy]
        assert len(w) == N_WEIGHTS
        values = [
            self.value(decision, w, c, own, own_fc, down, counts, p, neighbour) for c in options
        ]
        return values.index(max(values))
