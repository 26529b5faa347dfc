"""Deployment after the placements: the deployment abilities of the revealed cards.

Base (``reveal``): every seat pays, then seat by seat the new units' on-deploy abilities
(Shapeshifters first, then the other new units, spot order), the every-turn deployment
abilities (Master Alchemist), and at the very end every deployment ``lp`` (Kraken).
Legends (``tiers``, paper-tales-legends.md §2.5): tier 0 Shapeshifters in simultaneity
order, then seat by seat tiers 1a-4b (Court Jester, Titan; Shadow / Magic Mirror copies;
Golem; on-deploy tokens; conditional gains; Master Alchemist), then every seat's tier 5
(Kraken).

Each rule is a function of the game (``Game`` binds it as the method of the same name,
so ``game.on_deploy(p, s)`` is ``on_deploy(game, p, s)``). §N: ``docs/rules/paper-tales.md``; the
expansion's rules: ``docs/rules/paper-tales-legends.md``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..tables import (
    MAX_AGE,
    MAX_COPY_OPTIONS,
    MAX_FRONT,
    MAX_JESTER_OPTIONS,
    MAX_SPOTS,
    MAX_TITAN_OPTIONS,
    Ability,
    Tier,
    ability_tier,
)
from .kingdom import (
    CardLog,
    Slot,
    ZoneCard,
    base_facts,
    gain_holds,
    per_value,
    production,
    when_holds,
)
from .rules import BACK, FRONT, ZONE

if TYPE_CHECKING:
    from .game import Game


def _tier(a: Ability) -> Tier:
    """The Legends Deployment tier of ``a`` (``Tier.NONE`` if it is not a deployment
    ability)."""
    return ability_tier(a.kind, a.on_deploy) if a.phase == "deployment" else Tier.NONE


def reveal(game: Game) -> None:
    """§2.2 after the face-down placements: every seat pays its new units, then (seat
    order) their on-deploy abilities resolve: first the new units that replace their
    card (Shapeshifter, spot order; the revealed unit's own at once), then the other
    new units in spot order, so an ability on "your other units" (Necromancer) sees the
    revealed unit whatever the spots; then the seat's every-turn deployment abilities
    (Master Alchemist); deployment LP (Kraken) is counted at the very end of the phase
    (``kraken_count_at_end``)."""
    for p in range(game.n):
        game.pay(p)
    game.pending_lp = []
    for p in range(game.n):
        pl = game.players[p]
        for replacing in (True, False):  # card replacement (Shapeshifter) first
            for s in range(MAX_SPOTS):
                sl = pl.spots[s]
                if sl is not None and not sl.resolved and game.replaces(sl.card) == replacing:
                    game.on_deploy(p, s)
        game.every_turn(p)
    game.close_deployment()


def replaces(game: Game, card: int) -> bool:
    """The unit replaces its own card when deployed (an on-deploy ``shapeshift``)."""
    return any(a.on_deploy and a.kind == "shapeshift" for a in game.rules.unit(card).abilities)


def on_deploy(game: Game, p: int, s: int) -> None:
    """The on-deploy abilities of the new unit on spot ``s``, in ability order."""
    sl = game.slot(p, s)
    sl.resolved = True
    for a in game.rules.unit(sl.card).abilities:
        if not a.on_deploy:
            continue
        if a.kind == "add_age":
            game.add_age(p, s, a)
        elif a.kind == "upgrade_buildings":
            game.upgrade_all(p)
        elif a.kind == "lp":
            if game.rules.o["kraken_count_at_end"]:
                game.pending_lp.append((p, s, a))
            else:
                game.deployment_lp(p, s, a)
        elif a.kind == "shapeshift":
            game.shapeshift(p, s, a)
            return  # the Shapeshifter is gone; its other abilities with it


def add_age(game: Game, p: int, s: int, a: Ability) -> None:
    """``add_age``: ``amount`` x ``per`` tokens on itself, on each other unit of the
    owner, or on one unit of the owner chosen by its policy."""
    pl = game.players[p]
    pieces = pl.pieces(game.rules)
    me = next(pc for pc in pieces if pc.spot == s)
    prod = production(game.rules, pieces, pl.blevel, pl.arts())
    facts = base_facts(pieces, pl.blevel, game.rules, pl.arts())
    amount = a.amount * per_value(a.per, me, prod, facts, a)
    if amount <= 0:
        return
    if a.target == "self":
        targets = [s]
    elif a.target == "others":
        targets = [pc.spot for pc in pieces if pc.spot != s]
    else:
        spots = [pc.spot for pc in pieces]
        targets = [spots[game.brain.age_target(p, spots, amount)]]
    for t in targets:
        sl = game.slot(p, t)
        sl.age += amount
        assert sl.age <= MAX_AGE
    if targets:
        game.emit(
            "age",
            seat=p,
            unit=game.uid(game.slot(p, s).card),
            amount=amount,
            targets=[game.uid(game.slot(p, t).card) for t in targets],
        )


def upgrade_all(game: Game, p: int) -> None:
    """Golem: every level-1 building of the owner becomes level 2, free."""
    pl = game.players[p]
    for b, lv in enumerate(pl.blevel):
        if lv == 1:
            pl.blevel[b] = 2
            log = pl.buildings[b]
            log.level, log.turn_upgraded, log.how = 2, game.turn, "golem"
            game.emit("upgrade", seat=p, building=game.rules.buildings[b].id, how="golem")


def deployment_lp(game: Game, p: int, s: int, a: Ability) -> None:
    pl = game.players[p]
    pieces = pl.pieces(game.rules)
    prod = production(game.rules, pieces, pl.blevel, pl.arts())
    facts = base_facts(pieces, pl.blevel, game.rules, pl.arts())
    me = next((pc for pc in pieces if pc.spot == s), None)
    lp = 0
    if when_holds(a.when, me, prod):
        lp = a.amount * per_value(a.per, me, prod, facts)
    game.score(p, "deployment", lp)
    game.emit("deploy_lp", seat=p, lp=lp)


def shapeshift(game: Game, p: int, s: int, a: Ability) -> None:
    """Reveal cards from the draw pile, discarding them, until a unit of cost <=
    ``max_cost``; it replaces this card (free unless ``shapeshift_free`` is off) with
    ``age`` tokens, and its on-deploy abilities resolve (``shapeshift_on_deploy``). If
    the draw and discard piles hold no such unit, the spot stays empty."""
    found = game.shapeshift_reveal(p, s, a)
    if found is None:
        return
    game.players[p].spots[s] = Slot(found, age=a.age, fresh=True, resolved=True)
    if game.rules.o["shapeshift_on_deploy"]:
        game.on_deploy(p, s)


def shapeshift_reveal(game: Game, p: int, s: int, a: Ability) -> int | None:
    """The Shapeshifter on spot ``s`` leaves; cards are revealed (and discarded) until
    a unit of cost <= ``max_cost`` (Legends artifacts are skipped: "until a unit",
    paper-tales-legends.md §2.3); that card is received and paid (``shapeshift_free``).
    Returns it, or None (none found, or unpaid)."""
    r = game.rules
    pl = game.players[p]
    game.kill(p, s, "shapeshifted")
    revealed = []
    found = None
    for _ in range(len(game.deck) + len(game.discard)):
        card = game.draw()
        if card is None:
            break
        if not r.is_artifact(card) and r.cost(card) <= a.max_cost:
            found = card
            break
        revealed.append(game.uid(card))
        game.to_discard(card)
    game.emit(
        "shapeshift",
        seat=p,
        revealed=revealed,
        becomes=game.uid(found) if found is not None else None,
    )
    if found is None:
        return None
    log = pl.receive(CardLog(found, game.uid(found), game.turn, 0))
    cost = 0 if r.o["shapeshift_free"] else r.cost(found)
    if cost > pl.gold:
        game.to_discard(found)
        log.fate = "unpaid"
        return None
    pl.gold -= cost
    log.deployed, log.turn_deployed, log.fate = True, game.turn, "in_play"
    log.row = FRONT if s < MAX_FRONT else BACK
    log.deploy_cost, log.how_deployed = cost, "shapeshifted"
    return found


def every_turn(game: Game, p: int) -> None:
    """Every unit's deployment abilities that are not on-deploy (Master Alchemist),
    spot order: after the on-deploy abilities (base), tier 4b (Legends)."""
    for s in range(MAX_SPOTS):
        sl = game.players[p].spots[s]
        if sl is None:
            continue
        for a in game.rules.unit(sl.card).abilities:
            if a.phase == "deployment" and not a.on_deploy and a.kind == "add_age":
                game.add_age(p, s, a)


def close_deployment(game: Game) -> None:
    """The end of Deployment: every deployment 'lp' collected (Kraken), each seat's
    LP step settled, the phase's flags on units and artifacts cleared."""
    for p, s, a in game.pending_lp:
        game.deployment_lp(p, s, a)
    for p, pl in enumerate(game.players):
        game.settle(p)
        for sl in pl.spots:
            if sl is not None:
                sl.fresh = sl.moved = sl.skip_deploy = False
                sl.resolved, sl.done = True, -1
        for z in pl.zone:
            z.fresh, z.entered, z.done = False, -1, -1


def tiers(game: Game) -> None:
    """paper-tales-legends.md §2.5: tier 0 (Shapeshifter) for every seat in simultaneity
    order, then seat by seat tiers 1a-4b (``resolve_tier``), then every seat's tier 5
    (deployment 'lp', Kraken), then each seat's LP step is settled and the phase's flags
    cleared."""
    r = game.rules
    shifting = [
        p
        for p, pl in enumerate(game.players)
        if any(
            sl is not None
            and sl.fresh
            and any(_tier(a) == Tier.REPLACE for a in r.unit(sl.card).abilities)
            for sl in pl.spots
        )
    ]
    order = game.simultaneity_order(shifting) if len(shifting) > 1 else shifting
    for p in order:
        for s in range(MAX_SPOTS):
            sl = game.players[p].spots[s]
            if sl is None or not sl.fresh or sl.done >= Tier.REPLACE:
                continue
            sl.done = Tier.REPLACE
            for a in r.unit(sl.card).abilities:
                if _tier(a) == Tier.REPLACE:
                    game.shapeshift_legends(p, s, a)
                    break
    game.pending_lp = []
    for p in range(game.n):
        copies: list[tuple[tuple[str, int], int, int]] = []  # (copier, target spot, times)
        for tier in (Tier.ENTER, Tier.COPY, Tier.LEVELS, Tier.AGE, Tier.COUNT):
            game.resolve_tier(p, tier, copies)
        game.every_turn(p)
        game.resolve_tier(p, Tier.PENALTY, copies)
    game.close_deployment()


def simultaneity_order(game: Game, seats: list[int]) -> list[int]:
    """paper-tales-legends.md §2.8: most LP first, then gold (``simultaneity_gold``: more or
    less first), then random: one draw ``below(k)`` picks the first of the k still tied,
    repeated on the rest (k - 1 draws)."""
    more = game.rules.o["simultaneity_gold"] == "more"

    def key(p: int) -> tuple[int, int]:
        pl = game.players[p]
        return (-pl.lp, -pl.gold if more else pl.gold)

    out: list[int] = []
    for k in sorted({key(p) for p in seats}):
        tied = [p for p in seats if key(p) == k]
        while len(tied) > 1:
            out.append(tied.pop(game.rng.below(len(tied))))
        out += tied
    return out


def sources(game: Game, p: int) -> list[tuple[tuple[str, int], tuple[Ability, ...], int]]:
    """The seat's on-deploy sources in tier order: units on spots 0..4 placed (or
    revealed) this phase, then artifacts entered this phase in zone order, as
    (key, abilities, the spot that "self" means or -1)."""
    r = game.rules
    pl = game.players[p]
    out: list[tuple[tuple[str, int], tuple[Ability, ...], int]] = []
    for s, sl in enumerate(pl.spots):
        if sl is not None and sl.fresh and not sl.skip_deploy:
            out.append((("unit", sl.card), r.unit(sl.card).abilities, s))
    for z in pl.zone:
        if z.fresh and z.paid:
            out.append((("art", z.card), r.artifacts[z.x].abilities, -1))
    return out


def resolve_tier(
    game: Game, p: int, tier: Tier, copies: list[tuple[tuple[str, int], int, int]]
) -> None:
    """One tier for seat ``p``: each source's on-deploy abilities of that tier (data
    order), then the copies it carries (the target's abilities of that tier, acting as
    the target). A card entering during this tier (a Jester's artifact) acts from the
    next tier on."""
    pl = game.players[p]
    for key, abilities, s in game.sources(p):
        if key[0] == "unit":
            if game.find_spot(p, key[1]) != s:
                continue  # gone meanwhile
            sl = game.slot(p, s)
            if sl.done >= tier:
                continue
            sl.done = tier
        else:
            z = next(z for z in pl.zone if z.card == key[1])
            if z.done >= tier or z.entered >= tier:
                continue
            z.done = tier
        for a in abilities:
            if a.on_deploy and _tier(a) == tier:
                game.run_deploy(p, s, a, key, copies)
        for copier, target, times in copies:
            if copier != key or tier == Tier.ENTER:
                continue
            game.run_copy(p, target, tier, times, copies)


def run_deploy(
    game: Game,
    p: int,
    s: int,
    a: Ability,
    key: tuple[str, int],
    copies: list[tuple[tuple[str, int], int, int]],
) -> None:
    """One on-deploy ability of seat ``p`` acting as the unit on spot ``s`` (-1: an
    artifact)."""
    if a.kind == "deploy_artifact_from_hand":
        game.jester(p, a)
    elif a.kind == "build_free":
        game.build_free(p, a)
    elif a.kind == "repeat_deploy_abilities":
        game.copy(p, a, key, copies)
    elif a.kind == "upgrade_buildings":
        game.upgrade_all(p)
    elif a.kind == "add_age":
        game.add_age_legends(p, s, a)
    elif a.kind == "conditional_gain":
        game.deploy_gain(p, s, a)
    elif a.kind == "lp":
        game.pending_lp.append((p, s, a))


def run_copy(
    game: Game,
    p: int,
    target_card: int,
    tier: Tier,
    times: int,
    copies: list[tuple[tuple[str, int], int, int]],
) -> None:
    """The on-deploy abilities of tier ``tier`` of the copied unit ``target_card``,
    ``times`` more, acting as that unit (it must still be in play)."""
    s = game.find_spot(p, target_card)
    if s < 0:
        return
    for _ in range(times):
        for a in game.rules.unit(target_card).abilities:
            if a.on_deploy and _tier(a) == tier and a.kind != "repeat_deploy_abilities":
                game.run_deploy(p, s, a, ("unit", target_card), copies)


def find_spot(game: Game, p: int, card: int) -> int:
    for s, sl in enumerate(game.players[p].spots):
        if sl is not None and sl.card == card:
            return s
    return -1


def jester(game: Game, p: int, a: Ability) -> None:
    """K1: up to ``count`` times, the seat may put an artifact from its hand into the
    zone for ``cost`` gold (decision ``Brain.jester``; none in hand: no decision)."""
    pl = game.players[p]
    for _ in range(a.count):
        cards = [c for c in pl.hand if game.rules.is_artifact(c)] if a.cost <= pl.gold else []
        if not cards:
            return
        assert 1 + len(cards) <= MAX_JESTER_OPTIONS
        k = game.brain.jester(p, cards, a.cost)
        if not k:
            return
        card = cards[k - 1]
        pl.hand.remove(card)
        pl.gold -= a.cost
        pl.artifact_gold += a.cost
        pl.zone.append(ZoneCard(card, game.rules.artifact_of(card), fresh=True, entered=Tier.ENTER))
        log = pl.log[card]
        log.deployed, log.turn_deployed, log.fate, log.row = True, game.turn, "in_zone", ZONE
        log.deploy_cost, log.how_deployed = a.cost, "jester"
        game.emit("jester", seat=p, artifact=game.uid(card), cost=a.cost)


def build_free(game: Game, p: int, a: Ability) -> None:
    """K3: one unbuilt building of the game's set (decision ``Brain.titan``, forced
    when one) is built at ``level``, free; not the Construction action."""
    pl = game.players[p]
    options = [b for b in game.bset if pl.blevel[b] == 0]
    if not options:
        return
    assert len(options) <= MAX_TITAN_OPTIONS
    b = options[game.brain.titan(p, options, a.level)]
    pl.blevel[b] = a.level
    log = pl.buildings[b]
    log.level, log.turn_built, log.how = a.level, game.turn, "titan"
    if a.level == 2:
        log.turn_upgraded = game.turn
    game.emit("titan", seat=p, building=game.rules.buildings[b].id, level=a.level)


def copy(
    game: Game,
    p: int,
    a: Ability,
    key: tuple[str, int],
    copies: list[tuple[tuple[str, int], int, int]],
) -> None:
    """K2: the seat may pick a unit placed or revealed this phase that carries no K2
    (decision ``Brain.copy_target``); its tier-1a abilities resolve again at once, the
    later tiers' at the copier's position (``resolve_tier``)."""
    r = game.rules
    pl = game.players[p]
    spots = [
        s
        for s, sl in enumerate(pl.spots)
        if sl is not None
        and sl.fresh
        and not any(x.kind == "repeat_deploy_abilities" for x in r.unit(sl.card).abilities)
    ]
    if not spots:
        return
    assert 1 + len(spots) <= MAX_COPY_OPTIONS
    k = game.brain.copy_target(p, spots)
    if not k:
        return
    target = game.slot(p, spots[k - 1]).card
    copies.append((key, target, a.times))
    game.emit("copy", seat=p, unit=game.uid(key[1]), target=game.uid(target))
    game.run_copy(p, target, Tier.ENTER, a.times, copies)


def add_age_legends(game: Game, p: int, s: int, a: Ability) -> None:
    """``add_age`` at tier 3: as ``add_age``; an artifact's ``all`` targets every unit
    of the owner (an artifact is never a target)."""
    if s >= 0:
        game.add_age(p, s, a)
        return
    pl = game.players[p]
    pieces = pl.pieces(game.rules)
    prod = production(game.rules, pieces, pl.blevel, pl.arts())
    facts = base_facts(pieces, pl.blevel, game.rules, pl.arts())
    amount = a.amount * per_value(a.per, None, prod, facts, a)
    if amount <= 0 or not pieces:
        return
    if a.target == "one":
        spots = [pc.spot for pc in pieces]
        targets = [spots[game.brain.age_target(p, spots, amount)]]
    else:
        targets = [pc.spot for pc in pieces]
    for t in targets:
        sl = game.slot(p, t)
        sl.age = min(MAX_AGE, sl.age + amount)
    game.emit(
        "age",
        seat=p,
        unit="artifact",
        amount=amount,
        targets=[game.uid(game.slot(p, t).card) for t in targets],
    )


def deploy_gain(game: Game, p: int, s: int, a: Ability) -> None:
    """K4 on deploy (tier 4a): if the conditions hold now, gold at once (too late for
    this phase's payments) and LP booked as ``deployment``."""
    pl = game.players[p]
    pieces = pl.pieces(game.rules)
    me = next((pc for pc in pieces if pc.spot == s), None)
    prod = production(game.rules, pieces, pl.blevel, pl.arts())
    facts = base_facts(pieces, pl.blevel, game.rules, pl.arts())
    if not gain_holds(game.rules, a, me, prod, facts):
        return
    pl.gold += a.gold
    game.score(p, "deployment", a.lp)
    game.emit("gain", seat=p, gold=a.gold, lp=a.lp)


def shapeshift_legends(game: Game, p: int, s: int, a: Ability) -> None:
    """Tier 0: as ``shapeshift``; the revealed unit's on-deploy abilities resolve in
    tiers 1-5 of this phase (``shapeshift_on_deploy``)."""
    found = game.shapeshift_reveal(p, s, a)
    if found is None:
        return
    skip = not game.rules.o["shapeshift_on_deploy"]
    game.players[p].spots[s] = Slot(
        found, age=a.age, fresh=True, resolved=False, done=Tier.REPLACE, skip_deploy=skip
    )
