"""The ``mc`` policy: determinized flat Monte-Carlo search over a seat's draft picks,
deployment steps and construction choice (``simcore.flat_mc`` plays the worlds out).

At each of those decisions with more than one option, an mc seat ranks the distinct
options by greedy's value (``candidates``: best first, ties in option order), keeps the
``top`` best, and plays each out ``rollouts`` times from the same worlds: a copy of the
game (``clone``) in which the seats before it in a draft step take their pick back
(``rewind_draft``: the step is simultaneous), what the seat cannot see is dealt anew
(``determinize``), every seat plays the ``playout`` policy (a learned one with the
search's model) and the candidate is taken first. It plays the candidate of best summed
outcome (``outcome``: its share of the win, plus a small bonus per point of margin); ties
go to greedy's first best. Its other decisions (the 2-player draft discards, the keep,
token targets, heals, the Legends Jester / Titan / copies) are greedy's: its weight row is
greedy's. A learned seat scores the same candidates (``learned.py``).

Every random number of a search comes from the search stream of (seed, game, seat,
decision number) (``simcore.rng.search_start``), never from the game's stream, so the
cards dealt do not depend on any mc seat's parameters. The kernel's search
(``kernel/search.py``) makes the same draws in the same order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from talesim.simcore import flat_mc
from talesim.simcore.flat_mc import Search
from talesim.simcore.rng import GameRng

from ..tables import MAX_FRONT
from .brain import Brain

if TYPE_CHECKING:
    from .game import Game

#: The decisions an mc seat searches (and a learned seat scores), in the order of the
#: kernel's codes (``layout.D_*``).
DECISIONS = ("draft", "deploy", "build")


def searched(game: Game, decision: str, p: int, n: int) -> int | None:
    """The option taken at seat ``p``'s ``decision`` of ``n`` options when it is decided
    already (``game.force``: a search's choice in a copy) or searched (an mc seat); None:
    the seat's policy decides (``Game.searched``: a learned seat scores it). A decision of
    one option is never searched."""
    if n == 1:
        return None
    if game.force is not None and game.force[0] == p:
        i = game.force[1]
        game.force = None
        return i
    search = game.searches[p]
    if search is not None:
        return game.search_decide(search, decision, p)
    return None


def search_decide(game: Game, search: Search, decision: str, p: int) -> int:
    """The option seat ``p`` plays at ``decision`` (the module docstring); narrated as a
    ``search`` event: every candidate with greedy's value, its playouts and mean outcome."""
    ranked = game.candidates(decision, p)[: search.top]
    prepare = (lambda world: world.rewind_draft(p)) if decision == "draft" else None
    number, totals, best = game.search_totals(search, p, [i for i, _, _ in ranked], prepare)
    if game.record:
        rollouts = search.rollouts if len(ranked) > 1 else 0
        game.emit(
            "search",
            seat=p,
            decision=decision,
            number=number,
            candidates=[
                {
                    "option": label,
                    "value": round(value, 4),
                    "playouts": rollouts,
                    "mean": flat_mc.mean_outcome(totals[j], rollouts),
                }
                for j, (_, value, label) in enumerate(ranked)
            ],
            chosen=ranked[best][2],
        )
    return ranked[best][0]


def candidates(game: Game, decision: str, p: int) -> list[tuple[int, float, str]]:
    """Seat ``p``'s distinct options at ``decision`` as (option index, greedy's value,
    label), best first, ties in option order (``ranked``)."""
    return [(i, value, _label(game, decision, p, o)) for i, value, o in ranked(game, decision, p)]


def ranked(game: Game, decision: str, p: int) -> list[tuple[int, float, Any]]:
    """Seat ``p``'s distinct options at ``decision`` (``options``) as (option index, greedy's
    value, the option), best first, ties in option order. The values are the ones greedy
    decides by (the seat's weight row is greedy's)."""
    out = [
        (i, option_value(game, game.brain, decision, p, o), o)
        for i, o in options(game, decision, p)
    ]
    return sorted(out, key=lambda c: (-c[1], c[0]))


def options(game: Game, decision: str, p: int) -> list[tuple[int, Any]]:
    """Seat ``p``'s distinct options at ``decision`` as (option index, the option), in option
    order. Draft: one card of each unit of the pack (the first); deployment: a ``Move``,
    but a placement of a hand card whose unit an earlier hand card has is that card's
    placement again (same spots, same value) and is left out; construction: 0 = nothing
    (None), i = ``build_options()[i - 1]``."""
    r = game.rules
    if decision == "draft":
        seen: set[int] = set()
        out: list[tuple[int, Any]] = []
        for i, card in enumerate(game.packs[p]):
            if r.unit_of[card] not in seen:
                seen.add(r.unit_of[card])
                out.append((i, card))
        return out
    if decision == "deploy":
        types = [r.unit_of[c] for c in game.players[p].hand]
        return [
            (i, m)
            for i, m in enumerate(game.moves(p))
            if m.kind not in ("place", "place_artifact") or types[m.a] not in types[: m.a]
        ]
    return [(0, None), *((i + 1, o) for i, o in enumerate(game.build_options(p)))]


def option_value(game: Game, brain: Brain, decision: str, p: int, option: Any) -> float:
    """``brain``'s value of seat ``p``'s ``option`` (``options``) as greedy values it: a
    draft card's ``draft_value``, the kingdom after a deployment step, the kingdom with the
    building raised and its price paid."""
    if decision == "draft":
        return brain.draft_value(p, option)
    if decision == "deploy":
        return brain.value(p, game.after_move(p, option))
    sk = brain.sketch(p)
    if option is not None:
        sk.blevel[option.b] = option.level
        sk.gold -= option.gold
    return brain.value(p, sk)


def _label(game: Game, decision: str, p: int, option: Any) -> str:
    """An option as text (narration)."""
    if decision == "draft":
        return game.uid(option)
    if decision == "deploy":
        return _move_label(game, p, option)
    if option is None:
        return "build nothing"
    building = game.rules.buildings[option.b].id
    verb = "upgrade" if option.upgrade else "build"
    return f"{verb} {building} to level {option.level} for {option.gold} gold"


def _move_label(game: Game, p: int, m: Any) -> str:
    """A deployment step as text (narration)."""

    def spot(s: int) -> str:
        return f"front {s}" if s < MAX_FRONT else f"back {s - MAX_FRONT}"

    if m.kind == "stop":
        return "stop"
    if m.kind == "move":
        return f"move {game.uid(game.slot(p, m.a).card)} from {spot(m.a)} to {spot(m.b)}"
    if m.kind == "remove":
        return f"discard {game.uid(game.slot(p, m.a).card)} from {spot(m.a)}"
    card = game.uid(game.players[p].hand[m.a])
    if m.kind == "place_artifact":
        return f"place artifact {card}"
    return f"place {card} on {spot(m.b)}"


def rewind_draft(game: Game, p: int) -> None:
    """Take back the picks (and 2-player discards) the seats before ``p`` made in this
    draft step: the step is simultaneous, so ``p`` does not know them, and the playouts
    make them again (the position moves to the step's first seat). A card taken back goes
    to the end of its pack; discards come back from the top of the discard pile, the last
    seat's first."""
    thrown = min(game.rules.discard_per_step, len(game.packs[p]) - 1)  # each seat's, this step
    for q in range(p - 1, -1, -1):
        pack, pl = game.packs[q], game.players[q]
        for _ in range(thrown):
            game.discard.pop()
            game.discard_by.pop()
            pack.append(game.thrown[q].pop())
        card = game.drafted[q].pop()
        pl.logs.pop()
        del pl.log[card]
        for lg in pl.logs:  # a copy of the card the seat received before (after a reshuffle)
            if lg.card == card:
                pl.log[card] = lg
        pack.append(card)
    game.seat = 0


def determinize(game: Game, p: int, rng: GameRng) -> None:
    """Deal the cards seat ``p`` cannot see anew, consistently with what it has seen.

    Hidden from ``p`` (slots listed in this order): for every other seat q in seat order,
    its pack (draft; except the pack ``p`` passed last step, which the next seat holds
    untouched after ``rewind_draft``: ``p`` knows it, listed by card id), its picks of
    this draft, its hand, its kept card, and in the Deployment phase the cards it placed
    face down this phase (its fresh spots in spot order, then Legends: its unpaid zone
    cards in zone order); then the draw pile (bottom first); then the discard pile's
    face-down cards of other seats (pile order). ``p`` remembers nothing older: which
    cards an earlier pack held, which cards a reshuffle put into the pile. The cards of
    those slots, listed by card id, are shuffled from ``rng`` (``GameRng.shuffle``); the
    face-down spots then take the first units of the shuffled list and the face-down zone
    cards its first artifacts (slot order), and every other slot the next unused card, in
    slot order. A card's log row stays with its slot (the seat's story of that card)."""
    r, n = game.rules, game.n
    drafting = game.ph == 0 and game.begun
    deploying = game.ph == 1 and game.begun
    known = -1  # the seat holding the pack p passed last (it knows that pack)
    if drafting and game.step > 1:
        known = (p + r.direction(game.turn)) % n
    slots: list[tuple[str, int, int]] = []
    for q in range(n):
        if q == p:
            continue
        pl = game.players[q]
        if drafting:
            if q == known:
                game.packs[q].sort()
            else:
                slots += [("pack", q, i) for i in range(len(game.packs[q]))]
            slots += [("drafted", q, i) for i in range(len(game.drafted[q]))]
        slots += [("hand", q, i) for i in range(len(pl.hand))]
        if pl.kept is not None:
            slots.append(("kept", q, 0))
        if deploying:
            slots += [("spot", q, s) for s, sl in enumerate(pl.spots) if sl and sl.fresh]
            slots += [("zone", q, i) for i, z in enumerate(pl.zone) if not z.paid]
    slots += [("deck", -1, i) for i in range(len(game.deck))]
    slots += [("discard", -1, i) for i, by in enumerate(game.discard_by) if by not in (-1, p)]
    old = [_card_at(game, slot) for slot in slots]
    pool = sorted(old)
    rng.shuffle(pool)
    used = [False] * len(pool)
    new: list[int] = [-1] * len(slots)
    for k, (where, _, _) in enumerate(slots):
        if where in ("spot", "zone"):
            j = next(
                j
                for j, c in enumerate(pool)
                if not used[j] and r.is_artifact(c) == (where == "zone")
            )
            used[j] = True
            new[k] = pool[j]
    j = 0
    for k in range(len(slots)):
        if new[k] < 0:
            while used[j]:
                j += 1
            used[j] = True
            new[k] = pool[j]
    moved: list[dict[int, int]] = [{} for _ in range(n)]  # per seat: old card -> new card
    for (where, q, i), was, card in zip(slots, old, new, strict=True):
        _put(game, where, q, i, card)
        if where not in ("pack", "deck", "discard"):
            moved[q][was] = card
    for q, m in enumerate(moved):
        if m:
            _relog(game, q, m)


def _card_at(game: Game, slot: tuple[str, int, int]) -> int:
    where, q, i = slot
    if where == "deck":
        return game.deck[i]
    if where == "discard":
        return game.discard[i]
    if where == "pack":
        return game.packs[q][i]
    if where == "drafted":
        return game.drafted[q][i]
    pl = game.players[q]
    if where == "hand":
        return pl.hand[i]
    if where == "kept":
        assert pl.kept is not None
        return pl.kept
    if where == "spot":
        return game.slot(q, i).card
    return pl.zone[i].card


def _put(game: Game, where: str, q: int, i: int, card: int) -> None:
    if where == "deck":
        game.deck[i] = card
    elif where == "discard":
        game.discard[i] = card
    elif where == "pack":
        game.packs[q][i] = card
    elif where == "drafted":
        game.drafted[q][i] = card
    elif where == "hand":
        game.players[q].hand[i] = card
    elif where == "kept":
        game.players[q].kept = card
    elif where == "spot":
        game.slot(q, i).card = card
    else:
        z = game.players[q].zone[i]
        z.card, z.x = card, game.rules.artifact_of(card)


def _relog(game: Game, q: int, moved: dict[int, int]) -> None:
    """Seat ``q``'s log after its hidden cards were dealt anew: each log row follows its
    slot (``moved``: old card -> new card); an older row keyed by a new card is dropped."""
    pl = game.players[q]
    new_cards = set(moved.values())
    log = {c: lg for c, lg in pl.log.items() if c not in moved and c not in new_cards}
    for was, card in moved.items():
        lg = pl.log[was]
        lg.card, lg.unit = card, game.uid(card)
        lg.kind = "artifact" if game.rules.is_artifact(card) else "unit"
        log[card] = lg
    pl.log = log


def outcome(game: Game, p: int) -> int:
    """Seat ``p``'s result of a finished game, in ``OUTCOME_UNIT``s: its share of the win
    (the winners after the tie-break) plus ``MARGIN_WEIGHT`` x its LP margin over the best
    other seat (clipped)."""
    won = game.winners()
    other = max(pl.lp for q, pl in enumerate(game.players) if q != p)
    return flat_mc.outcome(p in won, len(won), game.players[p].lp - other)


def clone(game: Game) -> Game:
    """A copy that plays on independently from where ``game`` is (silent: no events, no
    trace; its seats search nothing). Its draft values start empty: a world switches every
    seat to the playout heuristic, whose values differ."""
    g = game.silent_copy()
    g.trace = None
    g.deck, g.discard, g.discard_by = list(game.deck), list(game.discard), list(game.discard_by)
    g.packs = [list(x) for x in game.packs]
    g.drafted = [list(x) for x in game.drafted]
    g.thrown = [list(x) for x in game.thrown]
    g.seen = [list(x) for x in game.seen]
    g.extra_open = [(list(f), list(b)) for f, b in game.extra_open]
    g.pending_lp = list(game.pending_lp)
    g.bset = list(game.bset)
    g.brain = Brain(g, game.brain.weights)
    return g
