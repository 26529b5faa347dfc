"""A kingdom and how it scores (§2.2-§2.4): the pieces on its spots, production, income
and strength (``assess``; the ``evaluate`` package is the kernel's twin),
the conditions and multipliers of abilities (``when_holds``, ``per_value``), and the game
objects a seat holds (``Slot``, ``ZoneCard``, ``CardLog``, ``BuildingLog``, ``Player``).
§N: ``docs/rules/paper-tales.md``; the expansion's rules: ``docs/rules/paper-tales-legends.md``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..tables import MAX_FRONT, MAX_SPOTS, N_RES, Ability
from .rules import BREAKDOWN, Rules


@dataclass
class Piece:
    """A unit on a kingdom spot, as the scoring sees it."""

    spot: int
    unit: int
    age: int = 0
    pending: bool = False  # placed, its on-deploy abilities not resolved yet (policy sketches)
    fresh: bool = False  # placed in this Deployment phase
    done: int = -1  # Legends tiers: its on-deploy abilities of tiers <= done have resolved

    @property
    def front(self) -> bool:
        return self.spot < MAX_FRONT


@dataclass
class Assessment:
    """Production, income and strength of one kingdom (§2.3, §2.4), in evaluation order."""

    prod: list[int]
    income_units: int
    income_buildings: int
    income: int  # base + units + buildings: this turn's Income gold
    strengths: list[int]  # war-phase strength of each piece (whether it fights or not)
    strength: int  # kingdom strength: Front + Back fighters + building bonuses
    age_all: int
    n_level2: int
    n_strong: int
    income_artifacts: int = 0  # Legends: income abilities of artifacts (in ``income``)
    facts: dict[str, Any] = field(default_factory=dict)  # the multipliers known here


def when_holds(when: str, piece: Piece | None, prod: list[int]) -> bool:
    """Condition ``when`` for ``piece`` (None: a building, which has no tokens or row)."""
    age = piece.age if piece else 0
    if when == "always":
        return True
    if when == "aged":
        return age >= 1
    if when == "exactly_one_age":
        return age == 1
    if when == "front_row":
        return piece is not None and piece.front
    if when == "has_food":
        return prod[1] >= 1
    assert when == "has_crystal"
    return prod[2] >= 1


def per_value(
    per: str,
    piece: Piece | None,
    prod: list[int],
    facts: dict[str, Any],
    ab: Ability | None = None,
) -> int:
    """Multiplier ``per``; ``facts`` holds what the phase knows (age_all, income, ...).
    Legends counters: ``artifacts`` (zone size), ``units_cost_ge`` / ``units_cost_le``
    (units by printed cost vs ``ab.per_cost``; ``ab.per_other``: not ``piece``),
    ``resource_sets`` / ``resources`` (Abbey modes)."""
    if per == "one":
        return 1
    if per == "age_self":
        return piece.age if piece else 0
    if per in ("wood", "food", "crystal"):
        return prod[("wood", "food", "crystal").index(per)]
    if per in ("units_cost_ge", "units_cost_le"):
        assert ab is not None
        n = 0
        for spot, cost in facts["unit_costs"]:
            if ab.per_other and piece is not None and spot == piece.spot:
                continue
            n += cost >= ab.per_cost if per == "units_cost_ge" else cost <= ab.per_cost
        return n
    if per == "resource_sets":
        return min(prod)
    if per == "resources":
        return sum(prod)
    return facts[per]  # age_kingdom, income_gold, level2_buildings, strong_units, artifacts


def base_facts(
    pieces: list[Piece],
    blevel: list[int],
    rules: Rules | None = None,
    arts: Sequence[int] = (),
) -> dict[str, Any]:
    """The kingdom-wide multipliers known in every phase: tokens on all units, level-2
    buildings (``income_gold`` and ``strong_units`` are added in the war phase); with
    ``rules`` of a Legends game also the zone size and the units' printed costs."""
    facts: dict[str, Any] = {
        "age_kingdom": sum(pc.age for pc in pieces),
        "level2_buildings": sum(1 for lv in blevel if lv == 2),
    }
    if rules is not None and rules.legends:
        facts["artifacts"] = len(arts)
        facts["unit_costs"] = [(pc.spot, rules.units[pc.unit].cost) for pc in pieces]
    return facts


def gain_holds(
    rules: Rules, a: Ability, piece: Piece | None, prod: list[int], facts: dict[str, Any]
) -> bool:
    """K4 ``conditional_gain``: ``when`` holds for its source, the kingdom produces at least
    ``requires`` of each resource, and ``counter`` >= ``min``."""
    return (
        when_holds(a.when, piece, prod)
        and all(prod[r] >= a.requires[r] for r in range(N_RES))
        and per_value(a.counter, piece, prod, facts, a) >= a.minimum
    )


def production(
    rules: Rules, pieces: list[Piece], blevel: list[int], arts: Sequence[int] = ()
) -> list[int]:
    """Resources produced: units (gated by their own tokens/row) + building faces +
    artifacts (Legends)."""
    prod = [0] * N_RES
    for pc in pieces:
        made = rules.units[pc.unit].produces
        if not when_holds(made.when, pc, prod):
            continue
        mult = pc.age if made.per == "age_self" else 1
        for r in range(N_RES):
            prod[r] += made.amounts[r] * mult
    for b, lv in enumerate(blevel):
        for k in range(lv):
            for r in range(N_RES):
                prod[r] += rules.buildings[b].levels[k].produces.amounts[r]
    for x in arts:
        for r in range(N_RES):
            prod[r] += rules.artifacts[x].produces.amounts[r]
    return prod


def income_gain(
    rules: Rules, a: Ability, piece: Piece | None, prod: list[int], facts: dict[str, Any]
) -> int:
    """Gold of one income-phase ability: ``gold`` (x per, if when), or a Legends
    ``conditional_gain``'s flat gold."""
    if a.phase != "income":
        return 0
    if a.kind == "gold" and when_holds(a.when, piece, prod):
        return a.amount * per_value(a.per, piece, prod, facts, a)
    if a.kind == "conditional_gain" and gain_holds(rules, a, piece, prod, facts):
        return a.gold
    return 0


def assess(
    rules: Rules, pieces: list[Piece], blevel: list[int], arts: Sequence[int] = ()
) -> Assessment:
    """§2.2-§2.4 for one kingdom: production -> income -> unit strengths -> kingdom strength.

    Unit strength: printed; then ``set_strength``; then ``add_strength``; then
    ``cannot_fight`` -> 0. Back-row units fight only with ``fight_from_back``. Building
    and artifact ``add_strength`` (Barracks L1, Shield of Power) adds to the total only."""
    prod = production(rules, pieces, blevel, arts)
    facts = base_facts(pieces, blevel, rules, arts)
    inc_u = 0
    for pc in pieces:
        for a in rules.units[pc.unit].abilities:
            inc_u += income_gain(rules, a, pc, prod, facts)
    inc_b = 0
    for b, lv in enumerate(blevel):
        for a in rules.face_abilities(b, lv):
            inc_b += income_gain(rules, a, None, prod, facts)
    inc_x = 0
    for x in arts:
        for a in rules.artifacts[x].abilities:
            inc_x += income_gain(rules, a, None, prod, facts)
    income = rules.o["base_income"] + inc_u + inc_b + inc_x
    facts["income_gold"] = income
    strengths = []
    total = 0
    for pc in pieces:
        abil = rules.units[pc.unit].abilities
        value = rules.units[pc.unit].strength
        for a in abil:
            if a.kind == "set_strength" and when_holds(a.when, pc, prod):
                value = a.value
        for a in abil:
            if a.kind == "add_strength":
                value += a.amount * per_value(a.per, pc, prod, facts, a)
        for a in abil:
            if a.kind == "cannot_fight" and when_holds(a.when, pc, prod):
                value = 0
        strengths.append(value)
        if pc.front or any(a.kind == "fight_from_back" for a in abil):
            total += value
    for b, lv in enumerate(blevel):
        for a in rules.face_abilities(b, lv):
            if a.kind == "add_strength":
                total += a.amount * per_value(a.per, None, prod, facts, a)
    for x in arts:
        for a in rules.artifacts[x].abilities:
            if a.kind == "add_strength":
                total += a.amount * per_value(a.per, None, prod, facts, a)
    strong_front_only = rules.o["strong_units_scope"] == "front"
    n_strong = sum(
        1
        for pc, s in zip(pieces, strengths, strict=True)
        if s >= rules.o["strong_units_min"] and (pc.front or not strong_front_only)
    )
    return Assessment(
        prod=prod,
        income_units=inc_u,
        income_buildings=inc_b,
        income=income,
        strengths=strengths,
        strength=total,
        age_all=facts["age_kingdom"],
        n_level2=facts["level2_buildings"],
        n_strong=n_strong,
        income_artifacts=inc_x,
        facts=facts,
    )


@dataclass
class Slot:
    """A unit card on a kingdom spot."""

    card: int
    age: int = 0
    fresh: bool = False  # placed in this Deployment phase
    resolved: bool = True  # its on-deploy abilities are done (False: placed, not revealed)
    moved: bool = False  # an old unit moved this phase (at most once)
    done: int = -1  # Legends: the last deployment tier resolved for it this phase
    skip_deploy: bool = False  # Legends: a revealed unit without shapeshift_on_deploy


@dataclass
class ZoneCard:
    """An artifact card in a seat's artifact zone (paper-tales-legends.md §2.3)."""

    card: int
    x: int  # artifact index
    fresh: bool = False  # entered (or placed) in this Deployment phase
    paid: bool = True  # False: placed face down, not paid yet
    entered: int = -1  # the tier it entered at (a Jester's: Tier.ENTER); -1: before tiers
    done: int = -1  # the last tier resolved for it this phase


@dataclass
class CardLog:
    """What happened to one unit card a seat received (drafted, or by a Shapeshifter)."""

    card: int
    unit: str
    turn: int  # turn it was drafted (or revealed)
    pick: int  # draft step 1..5 of that turn; 0: revealed by a Shapeshifter
    deployed: bool = False
    turn_deployed: int = 0
    row: str = ""  # row it was deployed in ("front"/"back")
    turns_survived: int = 0  # Aging phases it lived through in play
    died_in_aging: bool = False
    fate: str = "hand"  # not_deployed | kept | unpaid | replaced (left in Deployment: a card
    # placed on it, or removed) | shapeshifted | died | in_play
    #                     Legends: in_zone (an artifact's end fate)
    kind: str = "unit"  # Legends: unit | artifact
    deploy_cost: int | None = None  # Legends: gold paid to deploy it (None: never deployed)
    how_deployed: str = ""  # Legends: placed | jester | shapeshifted


@dataclass
class BuildingLog:
    level: int = 0
    turn_built: int = 0  # 0: never
    turn_upgraded: int = 0  # turn it reached level 2 (direct build: = turn_built)
    how: str = ""  # build | direct | golem | titan (how it reached its level)


@dataclass
class Player:
    seat: int
    policy: int
    gold: int
    lp: int = 0  # the score marker (never below the floor)
    step_lp: int = 0  # LP of the current scoring step, not settled yet
    parts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(BREAKDOWN, 0))
    zone: list[ZoneCard] = field(default_factory=list)  # Legends: artifacts, entry order
    artifact_gold: int = 0  # Legends: gold spent on artifacts
    hand: list[int] = field(default_factory=list)
    kept: int | None = None
    spots: list[Slot | None] = field(default_factory=lambda: [None] * MAX_SPOTS)
    blevel: list[int] = field(default_factory=list)
    buildings: list[BuildingLog] = field(default_factory=list)
    logs: list[CardLog] = field(default_factory=list)  # every card received, in order
    log: dict[int, CardLog] = field(default_factory=dict)  # card id -> its latest story
    wars_won: int = 0  # in total
    win: float = 0.0

    def receive(self, log: CardLog) -> CardLog:
        self.logs.append(log)
        self.log[log.card] = log
        return log

    def pieces(self, rules: Rules) -> list[Piece]:
        return [
            Piece(s, rules.unit_of[sl.card], sl.age, not sl.resolved, sl.fresh, sl.done)
            for s, sl in enumerate(self.spots)
            if sl is not None
        ]

    def arts(self, paid_only: bool = True) -> list[int]:
        """Artifact indices in the zone (``paid_only``: not the ones placed face down)."""
        return [z.x for z in self.zone if z.paid or not paid_only]
