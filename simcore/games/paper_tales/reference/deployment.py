"""Deployment (§2.2; Legends: ``paper-tales-legends.md`` §2.4): the placement steps, the
keep and the payment, base and Legends (the abilities of the revealed cards are in
``reveal.py``). §N: ``docs/rules/paper-tales.md``; the expansion's page is
``docs/rules/paper-tales-legends.md``.

Base (``deployment_order = "spot"``): seat by seat the placement steps (``placement``,
``moves``) then the keep (``keep_and_discard``); then ``reveal``, which pays (``pay``).
Legends (``"tiers"``, ``deployment_legends``): seat by seat the placement steps (a card is
offered only if everything placed stays payable); every seat pays in the canonical order
(``payment_order``, ``pay_legends``); the tiers (``reveal.tiers``); then the keep.

Each rule is a function of the game (``Game`` binds it as the method of the same name,
so ``game.pay(p)`` is ``pay(game, p)``). The option order of a deployment step: the package
docstring, "Decisions and their option order"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..tables import MAX_DEPLOY_OPTIONS, MAX_DEPLOY_STEPS, MAX_FRONT, MAX_SPOTS, Ability
from .brain import Art, Sketch
from .kingdom import Piece, Slot, ZoneCard
from .rules import BACK, EXTRA_SPOT, FRONT, ZONE

if TYPE_CHECKING:
    from .game import Game


def _is_k5(a: Ability) -> bool:
    return a.kind == "artifact_cost_modifier"


@dataclass(frozen=True)
class Move:
    """A deployment step: STOP, PLACE hand card ``a`` on spot ``b``, MOVE spot ``a`` -> ``b``,
    REMOVE the old unit on spot ``a`` (discarded), Legends PLACE_ARTIFACT hand card ``a``."""

    kind: str  # "stop" | "place" | "move" | "remove" (spot a, b = -1) | "place_artifact"
    a: int = -1
    b: int = -1


STOP = Move("stop")


def deployment(game: Game) -> None:
    """Resumable: a game copied at a placement step (``search.py``) plays on from seat
    ``game.seat``'s step ``game.step``."""
    if not game.begun:
        game.phase = "deployment"
        game.freeze_strengths()
        game.extra_open = [game.open_spots(p) for p in range(game.n)]
        game.begun, game.step, game.seat = True, 0, 0
    if game.rules.tiers:
        game.deployment_legends()
    else:
        for p in range(game.seat, game.n):
            game.seat = p
            game.placement(p)
            game.keep_and_discard(p)
        game.reveal()
    game.begun, game.step, game.seat = False, 0, 0  # over (a phase may be called alone)


def deployment_legends(game: Game) -> None:
    """Seat by seat the placement steps (units and face-down artifacts); then every
    seat pays in the canonical order (``pay_legends``); then the tiers (``tiers``);
    then seat by seat the keep (after the abilities: a Court Jester takes from the
    hand, paper-tales-legends.md §2.4 step 5) and the rest of the hand is discarded."""
    for p in range(game.seat, game.n):
        game.seat = p
        game.placement(p)
    for p in range(game.n):
        game.pay_legends(p)
    game.tiers()
    for p in range(game.n):
        game.keep_and_discard(p)


def open_spots(game: Game, p: int) -> tuple[list[int], list[int]]:
    """(Front spots, Back spots) open to seat ``p`` now."""
    pl = game.players[p]
    front = list(game.rules.front_spots)
    if game.rules.opens_extra_spot(pl.blevel):
        front.append(EXTRA_SPOT)
    return front, list(game.rules.back_spots)


def budget(game: Game, p: int) -> int:
    pl = game.players[p]
    return pl.gold - sum(game.rules.cost(sl.card) for sl in pl.spots if sl and sl.fresh)


def placement(game: Game, p: int) -> None:
    """Seat ``p``'s deployment steps (``moves``), each its policy's choice, until STOP
    (``game.step``: the steps taken, so a copy plays on from the next one)."""
    while game.step <= MAX_DEPLOY_STEPS:
        options = game.moves(p)
        assert len(options) <= MAX_DEPLOY_OPTIONS
        m = options[game.brain.deploy_step(p, options)]
        if m.kind == "stop":
            game.step = 0
            return
        game.apply_move(p, m)
        game.step += 1
    raise AssertionError("more deployment steps than MAX_DEPLOY_STEPS")


def moves(game: Game, p: int) -> list[Move]:
    """The legal deployment steps, in the documented order (package docstring,
    "Decisions and their option order")."""
    pl = game.players[p]
    front, back = game.extra_open[p]
    first_empty = [next((s for s in row if pl.spots[s] is None), -1) for row in (front, back)]
    open_spots = sorted(front + back)
    old = [s for s in open_spots if (sl := pl.spots[s]) is not None and not sl.fresh]
    empty = [s for s in open_spots if pl.spots[s] is None]
    out = [STOP]
    for i, card in enumerate(pl.hand):
        if game.rules.tiers:
            out += game.places_legends(p, i, card, first_empty, old)
            continue
        if game.rules.cost(card) > game.budget(p):
            continue
        out += [Move("place", i, s) for s in first_empty if s >= 0]
        out += [Move("place", i, s) for s in old]
    for s in old:
        if not game.slot(p, s).moved:
            out += [Move("move", s, t) for t in empty]
    for s in old:
        if not game.rules.tiers or game.paid_total(p, None, s) is not None:
            out.append(Move("remove", s))
    return out


def places_legends(
    game: Game, p: int, i: int, card: int, first_empty: list[int], old: list[int]
) -> list[Move]:
    """Legends PLACE options of hand card ``i`` (in ``moves``): offered only if
    everything placed stays payable with it in the canonical order (``payment_order``;
    placed on an old unit, without that unit); an artifact gives one option
    ``place_artifact`` (it has no spot)."""
    if game.rules.is_artifact(card):
        return [Move("place_artifact", i)] if game.paid_total(p, card) is not None else []
    out = []
    if game.paid_total(p, card) is not None:
        out += [Move("place", i, s) for s in first_empty if s >= 0]
    return out + [Move("place", i, s) for s in old if game.paid_total(p, card, s) is not None]


def after_move(game: Game, p: int, m: Move) -> Sketch:
    """The seat's sketch after deployment step ``m`` (policies)."""
    if game.rules.tiers:
        return game.after_move_legends(p, m)
    sk = game.brain.sketch(p)
    if m.kind == "stop":
        return sk
    if m.kind == "move":
        for pc in sk.pieces:
            if pc.spot == m.a:
                pc.spot = m.b
        return sk
    if m.kind == "remove":
        sk.pieces = [pc for pc in sk.pieces if pc.spot != m.a]
        return sk
    card = game.players[p].hand[m.a]
    sk.pieces = [pc for pc in sk.pieces if pc.spot != m.b]
    sk.pieces.append(Piece(m.b, game.rules.unit_of[card], 0, pending=True, fresh=True))
    sk.pieces.sort(key=lambda pc: pc.spot)
    sk.gold -= game.rules.cost(card)
    return sk


def after_move_legends(game: Game, p: int, m: Move) -> Sketch:
    """Legends ``after_move``: the sketch with the step applied and the gold left after
    the canonical payment of everything placed (the artifact in the zone, pending)."""
    pl = game.players[p]
    sk = game.brain.sketch(p)
    extra = None
    if m.kind == "move":
        for pc in sk.pieces:
            if pc.spot == m.a:
                pc.spot = m.b
    elif m.kind == "remove":
        sk.pieces = [pc for pc in sk.pieces if pc.spot != m.a]
    elif m.kind == "place":
        extra = pl.hand[m.a]
        sk.pieces = [pc for pc in sk.pieces if pc.spot != m.b]
        sk.pieces.append(Piece(m.b, game.rules.unit_of[extra], 0, pending=True, fresh=True))
        sk.pieces.sort(key=lambda pc: pc.spot)
    elif m.kind == "place_artifact":
        extra = pl.hand[m.a]
        sk.arts.append(Art(game.rules.artifact_of(extra), pending=True, fresh=True))
    # a replaced or removed old unit leaves before payment: its discount goes with it
    replace = m.b if m.kind == "place" and pl.spots[m.b] is not None else -1
    if m.kind == "remove":
        replace = m.a
    paid = game.paid_total(p, extra, replace)
    assert paid is not None
    sk.gold -= paid
    return sk


def apply_move(game: Game, p: int, m: Move) -> None:
    pl = game.players[p]
    if m.kind == "move":
        sl = game.slot(p, m.a)
        assert pl.spots[m.b] is None
        sl.moved = True
        pl.spots[m.b], pl.spots[m.a] = sl, None
        game.emit("move", seat=p, unit=game.uid(sl.card), spot=m.a, to=m.b)
        return
    if m.kind == "remove":
        game.emit("remove", seat=p, unit=game.uid(game.slot(p, m.a).card), spot=m.a)
        game.discard_old(p, m.a)
        return
    card = pl.hand.pop(m.a)
    if m.kind == "place_artifact":
        pl.zone.append(ZoneCard(card, game.rules.artifact_of(card), fresh=True, paid=False))
        game.emit("place_artifact", seat=p, artifact=game.uid(card))
        return
    old = pl.spots[m.b]
    replaced = None
    if old is not None:
        replaced = game.uid(old.card)
        game.discard_old(p, m.b)
    pl.spots[m.b] = Slot(card, fresh=True, resolved=False)
    game.emit("place", seat=p, unit=game.uid(card), spot=m.b, replaced=replaced)


def discard_old(game: Game, p: int, s: int) -> None:
    """An old unit leaves play in Deployment (replaced by a placed card, or removed):
    ``deploy_discard`` = not_death: no death ability, its tokens go with it (fate
    ``replaced``); = death: its death abilities score first."""
    if game.rules.o["deploy_discard"] == "death":
        game.death_abilities(p, [s])
    game.kill(p, s, "replaced")


def keep_and_discard(game: Game, p: int) -> None:
    """The keep decision; the rest of the hand goes to the discard pile (hand order)."""
    pl = game.players[p]
    k = game.brain.keep(p, pl.hand) if game.rules.o["keep"] else 0
    if k:
        pl.kept = pl.hand.pop(k - 1)
        pl.log[pl.kept].fate = "kept"
    for card in pl.hand:
        game.to_discard(card, by=p)
        pl.log[card].fate = "not_deployed"
    game.emit(
        "keep",
        seat=p,
        kept=game.uid(pl.kept) if pl.kept is not None else None,
        discarded=[game.uid(c) for c in pl.hand],
    )
    pl.hand = []


def pay(game: Game, p: int) -> None:
    """Reveal: pay each new unit, negative costs first (that gold is usable at once),
    then spot order; a unit its owner cannot pay is discarded."""
    pl = game.players[p]
    new = [s for s in range(MAX_SPOTS) if (sl := pl.spots[s]) is not None and sl.fresh]
    new.sort(key=lambda s: (game.rules.cost(game.slot(p, s).card) >= 0, s))
    for s in new:
        sl = game.slot(p, s)
        cost = game.rules.cost(sl.card)
        if cost > pl.gold:
            game.emit("unpaid", seat=p, unit=game.uid(sl.card), cost=cost)
            game.kill(p, s, "unpaid")
            continue
        pl.gold -= cost
        log = pl.log[sl.card]
        log.deployed, log.turn_deployed, log.fate = True, game.turn, "in_play"
        log.row = FRONT if s < MAX_FRONT else BACK
        game.emit("pay", seat=p, unit=game.uid(sl.card), spot=s, cost=cost, gold=pl.gold)


def art_modifier_now(game: Game, p: int) -> int:
    """Σ ``artifact_cost_modifier`` of the seat's sources active when the phase began:
    old units (not placed this phase) and building faces (paper-tales-legends.md §2.4, K5)."""
    r = game.rules
    pl = game.players[p]
    total = 0
    for sl in pl.spots:
        if sl is not None and not sl.fresh:
            total += sum(a.amount for a in r.unit(sl.card).abilities if _is_k5(a))
    for b in game.bset:
        total += sum(a.amount for a in r.face_abilities(b, pl.blevel[b]) if _is_k5(a))
    return total


def payment_order(
    game: Game, p: int, extra: int | None = None
) -> list[tuple[int, int, int | None]]:
    """The canonical payment of the cards placed this phase (+ ``extra``, a hand card
    as if placed): (card, spot or -1 for an artifact, cost), paid one after another:
    (a) negative-cost units, (b) units with an artifact discount, (c) the other units,
    each group in spot order, (d) artifacts in placement order, costing max(floor, base
    + step x zone + discounts) at their turn; cost None = cannot be paid (discarded)."""
    r = game.rules
    pl = game.players[p]
    units = [(sl.card, s) for s, sl in enumerate(pl.spots) if sl is not None and sl.fresh]
    arts = [z.card for z in pl.zone if not z.paid]
    if extra is not None:
        if r.is_artifact(extra):
            arts.append(extra)
        else:
            units.append((extra, MAX_SPOTS))  # spot order: after the placed ones

    def group(card: int) -> int:
        unit = r.unit(card)
        if unit.cost < 0:
            return 0
        return 1 if any(_is_k5(a) for a in unit.abilities) else 2

    units.sort(key=lambda cs: (group(cs[0]), cs[1]))
    gold = pl.gold
    modifier = game.art_modifier_now(p)
    in_zone = sum(1 for z in pl.zone if z.paid)
    out: list[tuple[int, int, int | None]] = []
    for card, s in units:
        cost = r.cost(card)
        if cost > gold:
            out.append((card, s, None))
            continue
        gold -= cost
        out.append((card, s, cost))
        if r.o["discount_active_when_paid_same_phase"]:
            modifier += sum(a.amount for a in r.unit(card).abilities if _is_k5(a))
    for card in arts:
        cost = r.art_cost(in_zone, modifier)
        if cost > gold:
            out.append((card, -1, None))
            continue
        gold -= cost
        in_zone += 1
        out.append((card, -1, cost))
    return out


def placement_cost(game: Game, p: int, card: int) -> int:
    """What placing hand card ``card`` now adds to this phase's payment (its printed
    cost for a unit; for an artifact its cost at its turn, discounts included)."""
    if not game.rules.is_artifact(card):
        return game.rules.cost(card)
    cost = next(c for cd, _, c in game.payment_order(p, card) if cd == card)
    if cost is None:  # unaffordable now: what it would cost with enough gold
        pl = game.players[p]
        in_zone = sum(1 for z in pl.zone if z.paid)
        return game.rules.art_cost(in_zone, game.art_modifier_now(p))
    return cost


def paid_total(game: Game, p: int, extra: int | None = None, replace: int = -1) -> int | None:
    """Gold the canonical payment takes (None: some card could not be paid), with
    ``extra`` placed, replacing the old unit on spot ``replace`` (>= 0)."""
    pl = game.players[p]
    if replace >= 0:
        old = pl.spots[replace]
        pl.spots[replace] = None
        try:
            return game.paid_total(p, extra)
        finally:
            pl.spots[replace] = old
    total = 0
    for _, _, cost in game.payment_order(p, extra):
        if cost is None:
            return None
        total += cost
    return total


def pay_legends(game: Game, p: int) -> None:
    """paper-tales-legends.md §2.4 step 3: pay the placed cards in the canonical order
    (``payment_order``); a card that cannot be paid is discarded (fate ``unpaid``; an
    artifact leaves the zone). Negative costs give their gold at once."""
    r = game.rules
    pl = game.players[p]
    for card, s, cost in game.payment_order(p):
        log = pl.log[card]
        if cost is None:
            game.emit("unpaid", seat=p, unit=game.uid(card))
            if s >= 0:
                game.kill(p, s, "unpaid")
            else:
                pl.zone = [z for z in pl.zone if z.card != card]
                game.to_discard(card)
                log.fate = "unpaid"
            continue
        pl.gold -= cost
        log.deployed, log.turn_deployed = True, game.turn
        log.deploy_cost, log.how_deployed = cost, "placed"
        if s >= 0:
            log.fate, log.row = "in_play", FRONT if s < MAX_FRONT else BACK
        else:
            log.fate, log.row = "in_zone", ZONE
            pl.artifact_gold += cost
            z = next(z for z in pl.zone if z.card == card)
            z.paid = True
            pl.zone.remove(z)  # the zone keeps the order of entry (= payment)
            pl.zone.append(z)
        game.emit("pay", seat=p, unit=game.uid(card), spot=s, cost=cost, gold=pl.gold)
    assert r.legends
