"""Scoring (``docs/rules/fairy-tale.md`` §5), recomputed from scratch: a card's value
(``copy_value``), a player's ``total``, and the gain or loss of one copy more or less.
"""

from __future__ import annotations

from ..tables import (
    FACTIONS,
)
from .rules import Rules


class Counts:
    """Face-up counts of every player, by card and by faction. Rows are plain lists so a
    policy can add a hypothetical card to a row and take it back."""

    def __init__(self, n_players: int, n_cards: int) -> None:
        self.cards = [[0] * n_cards for _ in range(n_players)]
        self.factions = [[0] * len(FACTIONS) for _ in range(n_players)]


def copy_value(
    rules: Rules, u: int, own: list[int], own_fc: list[int], counts: Counts, p: int
) -> int:
    """Points of one face-up copy of ``u`` for player ``p`` whose counts are ``own``."""
    v = rules.value(u)
    others = [q for q in range(len(counts.cards)) if q != p]

    def leads(mine: int, theirs: list[int]) -> bool:
        if mine == 0:
            return False
        return all(t < mine or (t == mine and not rules.strict) for t in theirs)

    kind = v["kind"]
    if kind in ("fixed", "wild"):
        return v["points"]
    if kind == "count":
        return v["per"] * own[rules.index[v["of"]]]
    if kind == "quest_cards":
        return v["points"] if all(own[rules.index[n]] > 0 for n in v["needs"]) else 0
    if kind == "quest_majority":
        f = FACTIONS.index(v["faction"])
        return v["points"] if leads(own_fc[f], [counts.factions[q][f] for q in others]) else 0
    assert kind == "majority"
    return v["points"] if leads(own[u], [counts.cards[q][u] for q in others]) else 0


def total(rules: Rules, own: list[int], own_fc: list[int], counts: Counts, p: int) -> int:
    """Score of the face-up cards counted in ``own`` (a Trickster counts only its -1)."""
    return sum(
        own[u] * copy_value(rules, u, own, own_fc, counts, p) for u in range(len(own)) if own[u]
    )


def _shift(rules: Rules, own: list[int], own_fc: list[int], c: int, k: int) -> None:
    own[c] += k
    own_fc[rules.faction(c)] += k


def gain_of_adding(
    rules: Rules, c: int, own: list[int], own_fc: list[int], counts: Counts, p: int
) -> int:
    before = total(rules, own, own_fc, counts, p)
    _shift(rules, own, own_fc, c, 1)
    after = total(rules, own, own_fc, counts, p)
    _shift(rules, own, own_fc, c, -1)
    return after - before


def card_gain(
    rules: Rules, c: int, own: list[int], own_fc: list[int], counts: Counts, p: int
) -> int:
    """What one more face-up ``c`` is worth to ``p``, as every decision values it: its
    ``gain_of_adding``; a Trickster its own points plus the best gain of a card it can copy
    (what it scores at the end if nothing else changes)."""
    if rules.value(c)["kind"] != "wild":
        return gain_of_adding(rules, c, own, own_fc, counts, p)
    best = max(
        (
            gain_of_adding(rules, u, own, own_fc, counts, p)
            for u in range(len(rules.cards))
            if u in rules.in_deck and rules.value(u)["kind"] != "wild"
        ),
        default=0,
    )
    return rules.value(c)["points"] + best


def card_loss(
    rules: Rules, c: int, own: list[int], own_fc: list[int], counts: Counts, p: int
) -> int:
    """What turning one face-up ``c`` face down costs ``p``: ``card_gain`` of ``c`` without
    it (a Trickster loses its points and its best copy, not just its points)."""
    _shift(rules, own, own_fc, c, -1)
    d = card_gain(rules, c, own, own_fc, counts, p)
    _shift(rules, own, own_fc, c, 1)
    return d
