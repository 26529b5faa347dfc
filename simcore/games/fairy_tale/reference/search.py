"""The ``mc`` search policy (determinized flat Monte-Carlo): the decisions it searches,
their candidates in greedy's order, the step rewind, the determinization, the outcome
and ``clone``.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from talesim.simcore import flat_mc
from talesim.simcore.flat_mc import Search
from talesim.simcore.rng import GameRng

from ..policies import Decision, Policy
from ..tables import (
    DEAL,
)
from .brain import Brain
from .rules import Phase
from .scoring import _shift

if TYPE_CHECKING:
    from .game import FairyTaleGame


def search_decide(
    game: FairyTaleGame,
    search: Search,
    decision: Decision,
    p: int,
    options: list[int],
    neighbour: int,
) -> int:
    """``mc``: determinized flat Monte-Carlo search (see the spec page). The ``top``
    options best by greedy's value each play ``rollouts`` playouts; the best mean
    outcome wins, ties to greedy's first best."""
    ranked = game.ranked_options(decision, p, options, neighbour)[: search.top]
    number, totals, best = game.search_totals(search, p, ranked, lambda w: w.rewind_step(p))
    if game.record:
        rollouts = search.rollouts if len(ranked) > 1 else 0
        game.emit(
            "search",
            seat=p,
            decision=decision.name.lower(),
            number=number,
            candidates=[
                {
                    "card": game.cid(options[i]),
                    "playouts": rollouts,
                    "mean": flat_mc.mean_outcome(totals[j], rollouts),
                }
                for j, i in enumerate(ranked)
            ],
            chosen=game.cid(options[ranked[best]]),
        )
    return ranked[best]


def ranked_options(
    game: FairyTaleGame, decision: Decision, p: int, options: list[int], neighbour: int
) -> list[int]:
    """Indices of the distinct options (an option equal to an earlier one is the same
    play), best first by greedy's value, ties in option order."""
    own, own_fc = game.own_counts(decision, p)
    w = game.weights[Policy.GREEDY]
    first: dict[int, int] = {}
    for i, c in enumerate(options):
        first.setdefault(c, i)
    value = {
        i: game.brain.value(decision, w, c, own, own_fc, game.down[p], game.up, p, neighbour)
        for c, i in first.items()
    }
    return sorted(value, key=lambda i: (-value[i], i))


def outcome(game: FairyTaleGame, p: int) -> int:
    """Seat ``p``'s result of a finished game, in ``OUTCOME_UNIT``s: its share of the win
    plus ``MARGIN_WEIGHT`` x its margin over the best other score (clipped)."""
    scores = [pl.score for pl in game.players]
    top = max(scores)
    margin = scores[p] - max(s for q, s in enumerate(scores) if q != p)
    return flat_mc.outcome(scores[p] == top, scores.count(top), margin)


def clone(game: FairyTaleGame) -> FairyTaleGame:
    """A copy that plays on independently (silent: no events)."""
    g = game.silent_copy()  # the copies' seats play heuristics only
    g.brain = Brain(game.rules, game.weights, g.rng)
    g.up, g.hyp = copy.deepcopy(game.up), copy.deepcopy(game.hyp)
    g.down = [list(row) for row in game.down]
    g.pos = copy.copy(game.pos)
    g.deck = list(game.deck)
    g.rows = [list(row) for row in game.rows]
    g.revealed = list(game.revealed)
    g.slots = list(game.slots)
    g.hunted = list(game.hunted)
    g.aimed = [list(a) for a in game.aimed]
    g.close_chosen = list(game.close_chosen)
    return g


def rewind_step(game: FairyTaleGame, p: int) -> None:
    """Take back the choices the seats before ``p`` made in this draft or play step:
    the step is simultaneous, so ``p`` does not know them, and the playouts make them
    again (``pos`` moves to the step's first seat)."""
    if game.pos.phase == Phase.DRAFT:
        for q in range(p):
            c, _ = game.players[q].kept.pop()
            game.players[q].received.pop()
            _shift(game.rules, game.hyp.cards[q], game.hyp.factions[q], c, -1)
            game.rows[game.row_of(q, game.pos.step)].append(c)
    elif game.pos.phase == Phase.PLAY:
        for q in range(p):
            game.players[q].kept.append(game.revealed[q])  # type: ignore[arg-type]
            game.players[q].kept.sort(key=lambda kept: kept[1])  # back in pick order
            game.revealed[q] = None
    else:
        return
    game.pos.seat = 0


def determinize(game: FairyTaleGame, p: int, rng: GameRng) -> None:
    """Deal the cards seat ``p`` cannot see anew, consistently with what it has seen.

    What ``p`` knows (besides every tableau, its own cards and every count): of each hand
    it drafted from this round, what it passed on. Row h's picks by other seats after p's
    k-th look at it (and, while drafting, the cards still in it) form *group* (h, k),
    whose cards p knows as a whole but not who holds which. In the play steps a group
    is forgotten (its cards join the pool) as soon as a seat that took one of its cards
    reveals a card the group holds (the revealed card may have been that one): then
    every revealed card came from a pick of no group, taken to be the seat's first such
    picks, and every world dealt is consistent with what is still remembered. Every
    other hidden card — the picks made before p saw the hand, the hands p has
    not seen, the undealt deck and the other seats' discards of earlier rounds (p does
    not remember earlier rounds' passes) — is one pool: the deck minus what p sees minus
    the groups. Each group's cards, then the pool, are listed by card index, shuffled
    from ``rng`` (``GameRng.shuffle``) and dealt to their places in a fixed order (seats,
    then their picks; the hands by row; the deck from the top). So the world depends
    only on what ``p`` has seen and on ``rng``."""
    r, n, pos = game.rules, game.n, game.pos
    drafting = pos.phase == Phase.DRAFT
    hand_size = game.hand_size()
    seen = pos.step if drafting else hand_size  # steps whose hand p has read and passed

    def group(h: int, step: int) -> int:
        """0, or 1 + h * DEAL + (k - 1) for a card of row h taken at ``step`` (or still in
        it at ``step``) after p's k-th look at row h."""
        looks = sum(1 for s in range(step) if game.row_of(p, s) == h)
        return 1 + h * DEAL + looks - 1 if looks else 0

    n_cards = len(r.cards)
    groups: dict[int, list[int]] = {}  # group -> count per card
    picks: dict[int, list[int]] = {}  # seat -> group of each of its picks this round
    for q in range(n):
        if q == p:
            continue
        first = len(game.players[q].received) - seen
        picks[q] = []
        for s in range(seen):
            g = group(game.row_of(q, s), s)
            picks[q].append(g)
            if g:
                c = game.players[q].received[first + s].card
                groups.setdefault(g, [0] * n_cards)[c] += 1
    own_row = game.row_of(p, pos.step) if drafting else -1
    row_group = [0] * n
    if drafting:
        for h in range(n):
            if h != own_row:
                row_group[h] = group(h, pos.step)
                for c in game.rows[h]:
                    if row_group[h]:
                        groups.setdefault(row_group[h], [0] * n_cards)[c] += 1
    # The play steps: a group that a card a seat revealed this round could come from
    # (the seat took a card of the group, and the group holds that card) is forgotten,
    # its cards join the pool; then every revealed card came from a pick of no group.
    revealed = {q: game.revealed_this_round(q) for q in picks} if not drafting else {}
    for q, cs in revealed.items():
        for g in picks[q]:
            if g and g in groups and any(groups[g][c] > 0 for c in cs):
                groups[g] = [0] * n_cards
    forgotten = {g for g, counts in groups.items() if not any(counts)}
    left: dict[int, list[int]] = {}
    for q, gs in picks.items():
        gs = [0 if g in forgotten else g for g in gs]
        free = [s for s, g in enumerate(gs) if not g][: len(revealed.get(q, []))]
        left[q] = [g for s, g in enumerate(gs) if s not in free]
    # the hidden places, in their fixed order, and their group
    places: list[tuple[str, int, int, int]] = []  # (where, seat or row, index, group)
    for q, gs in left.items():
        places += [("kept", q, i, g) for i, g in enumerate(gs)]
    for h in range(n):
        if drafting and h != own_row:
            places += [("row", h, j, row_group[h]) for j in range(len(game.rows[h]))]
    places += [("deck", 0, i, 0) for i in range(pos.top, len(game.deck))]
    # the pool: the deck minus what p sees minus the groups
    pool = [0] * n_cards
    for c in r.deck:
        pool[c] += 1
    for q, player in enumerate(game.players):
        for t in player.tableau:
            pool[t.card] -= 1
        if q == p:
            for x in player.received:
                if x.slot < 0:
                    pool[x.card] -= 1
    if drafting:
        for c in game.rows[own_row]:
            pool[c] -= 1
    for counts in groups.values():
        for c in range(n_cards):
            pool[c] -= counts[c]
    assert min(pool) >= 0
    for g in sorted(groups):
        game.deal_hidden(places, g, groups[g], rng)
    game.deal_hidden(places, 0, pool, rng)
    for q in left:
        game.recount_hyp(q)


def revealed_this_round(game: FairyTaleGame, q: int) -> list[int]:
    """The cards seat ``q`` has revealed in this round's play steps (the last of its
    tableau: one a step)."""
    n = game.hand_size() - len(game.players[q].kept)
    return [t.card for t in game.players[q].tableau[len(game.players[q].tableau) - n :]]


def deal_hidden(
    game: FairyTaleGame,
    places: list[tuple[str, int, int, int]],
    g: int,
    counts: list[int],
    rng: GameRng,
) -> None:
    """Shuffle the cards ``counts`` (listed by card index) and deal them to the places of
    group ``g`` in order (the pool has more cards than places: the rest are discards)."""
    cards = [c for c in range(len(counts)) for _ in range(counts[c])]
    rng.shuffle(cards)
    dealt = iter(cards)
    for where, a, i, group in places:
        if group != g:
            continue
        c = next(dealt)
        if where == "deck":
            game.deck[i] = c
        elif where == "row":
            game.rows[a][i] = c
        else:  # a kept card (card, pick); its received record follows
            pick = game.players[a].kept[i][1]
            game.players[a].kept[i] = (c, pick)
            game.players[a].received[pick].card = c


def recount_hyp(game: FairyTaleGame, q: int) -> None:
    """``hyp`` of seat ``q`` from its face-up counts and kept cards."""
    r = game.rules
    game.hyp.cards[q][:] = game.up.cards[q]
    game.hyp.factions[q][:] = game.up.factions[q]
    for c, _ in game.players[q].kept:
        _shift(r, game.hyp.cards[q], game.hyp.factions[q], c, 1)
