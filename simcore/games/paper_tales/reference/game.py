"""Paper Tales in plain Python: the executable rulebook (reference §1-§4, §2.9, §8).

Readable, object-based and slow. It is the oracle the numba kernel must match game for
game: same card data (``cards.toml``), same options (``rules.toml``), same random stream,
same decisions. Cards are physical card ids ``0..N-1`` (``tables.compile_tables().deck``
order: one id per copy, units in file order); ``Rules.unit_of[card]`` is the unit index.

A game: setup (shuffle, 3 gold each), then ``turns`` x [Recruitment, Deployment, Wars,
Income, Construction, Aging], then End. Seats are numbered clockwise: seat p's left
neighbour is seat p+1, its right neighbour seat p-1 (cyclic); passing left = to seat+1.
Seats act "simultaneously"; the engine resolves
them in seat order 0, 1, ... wherever an order could matter (§2.8: the only shared object
is the draw pile, used by the deal and by the Shapeshifter; a base deck has one
Shapeshifter, so no two seats ever reveal in the same phase).

Phases as implemented (each a ``Game`` method of the same name)
------------------------------------------------------------------------------
  recruitment   deal, draft steps until the packs are empty (pass to seat + direction,
                +1 = left:
                ``Rules.direction``), then hand = drafted cards (pick order) + last turn's
                kept card.
  deployment    seat by seat, the policy's placement steps then its keep choice (the rest
                of the hand is discarded); then ``reveal``: every seat pays (``pay``:
                negative costs first, then spot order; an unpaid unit is discarded), then
                seat by seat the new units' on-deploy abilities (``on_deploy``): first the
                Shapeshifters (card replacement, spot order; the revealed unit resolves its
                own at once), then the other new units in spot order; then the seat's
                every-turn deployment abilities in spot order (Master Alchemist); at the
                very end every deployment ``lp`` (Kraken, ``kraken_count_at_end``), then
                each seat's LP step is settled.
  wars          every kingdom's strength first, then per seat: wars, per-war-won and
                war-phase LP, war gold (``fight``, ``war_phase_lp``).
  income        base + income abilities (``assess``).
  construction  seat by seat: one option (``build_options``, ``payment``).
  aging         seat by seat: Healer choices (Healers in spot order), death abilities of
                the dying units, discard, +1 token to every survivor.
  end           building faces + end-phase 'lp'; winners (``winners``).

RNG draw order (all from ``GameRng(seed, game_id)``; nothing else is random)
------------------------------------------------------------------------------
  setup        1. shuffle the draw pile: card ids 0..N-1 in order, ``GameRng.shuffle``;
                  the top card is the END of the list (``pop()``).
  draw         whenever a card is drawn from an empty pile: the discard pile (in the order
               its cards were discarded, oldest first; see below) becomes the draw pile
               and is shuffled once (one ``shuffle``); then the draw goes on.
  Recruitment  2. deal: seat 0 gets its ``deal`` cards (5; 2 players: 9) one after the
                  other, then seat 1, ... (draws only; a shuffle only on a reshuffle)
               3. each draft step, seat 0 first: the seat's pick (``random``: one draw
                  ``below(len(pack))``); 2 players: then its discard from the rest (one
                  draw ``below(len(rest))``); a pack of one card is taken without a draw.
  Deployment   4. seat 0 first: each placement step (``random``: one draw
                  ``below(len(options))``, STOP included, no draw when STOP is the only
                  option), then the keep choice (one draw ``below(1 + len(hand))``, option
                  0 = keep nothing; no draw when the hand is empty or ``keep`` = 0).
               5. payment: no random numbers.
               6. seat 0 first, its Shapeshifters (spots 0..4) then its other new units
                  (spots 0..4): each new unit's on-deploy abilities in ability order:
                  ``add_age`` on ``one`` unit (Time Master) draws
                  ``below(len(units))`` over the seat's units in spot order, itself
                  included (no draw when the amount is 0 or the seat has one unit); a
                  Shapeshifter draws cards (a reshuffle when the pile runs out). Then the
                  seat's every-turn deployment abilities in spot order (Master Alchemist:
                  the same draw as Time Master when its amount, 1 x food, is > 0).
  Construction 7. seat 0 first: one draw ``below(1 + len(builds))`` (0 = build nothing)
                  when at least one build is affordable.
  Aging        8. seat 0 first, each Healer in spot order: one draw
                  ``below(1 + len(saveable))`` (0 = save nobody) when someone is saveable.
  Wars, Income, End: no random numbers.
A decision with a single option is forced: no random number is drawn. ``greedy``,
``warlord`` and ``builder`` draw nothing. (Pinned by ``test_random_numbers_are_the_
documented_ones``; ``play_reference(..., trace=True)`` logs every decision.)

Discard pile order (it matters for reshuffles): cards are appended when the code discards
them: 2-player draft discards (step by step, seat order); in Deployment, a replaced or
removed unit at its PLACE / REMOVE step, then the seat's unkept hand cards in hand order
(seat by seat), then unpaid units (seat order, payment order), then a Shapeshifter and
the cards it reveals and rejects (in reveal order); in Aging, dead units (seat order, spot
order).

Decisions and their option order (the tie order: the first best option wins)
------------------------------------------------------------------------------
  draft pick      the pack in its order (the pack as dealt, minus the cards taken).
  2-player discard  the rest of the pack, same order; greedy discards its first
                  lowest-valued card.
  deployment      decomposed into steps, repeated until STOP; each step is one option
                  (``Game.moves``):
                    0. STOP
                    then for each hand card h in hand order (drafted in pick order, then
                    the card kept from last turn) that the seat can still pay
                    (cost <= gold - costs of the cards already placed this phase; a
                    Monkey's -1 raises it):
                      PLACE h on the first empty Front spot, PLACE h on the first empty
                      Back spot, then PLACE h on each spot 0..4 holding an *old* unit
                      (in play from an earlier turn: it is discarded, ``deploy_discard``)
                    then for each old unit not moved yet this phase, in spot order:
                      MOVE it to each empty open spot, spots 0..4 (either row)
                    then for each old unit, in spot order:
                      REMOVE it (discarded without a card taking its spot; as a replaced
                      unit: ``deploy_discard``, fate ``replaced``; Legends: only if
                      everything placed stays payable without it)
                  Front spots in order: 0, 1, then the extra spot 2 when the seat owns a
                  building showing an ``extra_front_spot`` face at the start of the phase
                  (a Golem's upgrade opens it next turn); Back: 3, 4. Units placed this
                  phase are never moved, replaced or removed; an old unit moves at most
                  once per phase. A placement goes to the first empty spot of a row only:
                  within a row the spots differ only in the order the reveal resolves
                  them (payment, on-deploy abilities, Healers: spot order), which the
                  policies do not value; a MOVE may still reorder a row. So a seat takes
                  at most 6 places + 5 moves + 5 removals = 16 steps besides STOP
                  (``MAX_DEPLOY_STEPS``); with o old units and e empty spots (o + e <= 5)
                  a step has at most 1 + 6 x (2 + o) + o x e + o options: 40 (o = 3,
                  e = 2), bounded by 1 + 6 x (2 + 5) + 6 + 5 = 54 (``MAX_DEPLOY_OPTIONS``).
  keep            0 = nothing, then the cards left in hand, in hand order.
  age target      the seat's units in spot order (Time Master: itself included).
  heal            0 = nobody, then the seat's dying units carrying exactly ``age`` tokens
                  and not saved yet, in spot order.
  construction    0 = nothing, then for each building in file order: not built -> build
                  level 1, build level 2 directly; level 1 -> upgrade. Only options the
                  seat can pay; each with its cheapest payment (``Game.payment``).

Values (``policies.py``, ``Brain``): greedy-style players value an option by the features of
the kingdom it leaves (``Brain.features``), against the neighbours' strengths frozen at the
start of the phase (``Game.seen``). A card's draft value (``Brain.card_value``) depends
only on (seat, unit) within a Recruitment phase (the kingdom and gold do not change), so it
is computed once per (seat, unit) and phase (``Brain.draft_value``). With 4 greedy seats a
game makes about 1,420 evaluations (draft ~400, deployment ~850, keep ~90, construction
~70, age targets ~10).

Legends variant (``deployment_order = "tiers"``; LEGENDS.md is the spec)
------------------------------------------------------------------------------
Card ids: base units, Legends units, then artifacts (file order, one id per copy), so a
base game's ids are unchanged; ``Rules.unit_of[card] >= Rules.n_unit_types`` marks an
artifact. A seat has an artifact zone (``Player.zone``, entry order); artifacts never take
tokens or leave, their abilities and production count everywhere "the kingdom" is read
(``production``, ``assess``, ``war_phase_lp``, ``end_lp``, savers, land discounts and
gold substitutions), their printed LP are the END part ``artifacts``.

  setup        1. the deck shuffle (as above), then 1b. one draw ``below(3)``: the pair
                  of Legends buildings (2-subsets of the ``legends`` pool in file order),
                  drawn even when ``legends_buildings`` fixes the pair (then ignored).
                  Every player's buildings (``Game.bset``): the 5 base ones, the pair,
                  then Port and Abbey when ``use_port_abbey``.
  Recruitment  as the base; artifacts are drafted like units.
  Deployment   4. seat 0 first: the placement steps (``moves``, ``places_legends``: a card is
                  offered only if everything placed stays payable with it; an artifact
                  gives one option ``place_artifact``, face down into the zone). No keep
                  here.
               5. payment, seat by seat (``payment_order``, no random numbers): negative-
                  cost units, units with ``artifact_cost_modifier``, other units (each
                  spot order), then artifacts in placement order at max(floor, base + step
                  x zone + active modifiers). Unpaid cards are discarded.
               6. tiers (``tiers``): tier 0 Shapeshifters, seats in simultaneity order
                  (§2.8: most LP, then gold more/less, then one ``below(k)`` per pick
                  among k tied: only with two shapeshifting seats); then seat by seat
                  tiers 1a (Jester, Titan), 1b (Shadow / Mirror picks; copies of tier-1a
                  abilities at once), 2 (Golem), 3 (on-deploy tokens), 4a (on-deploy
                  ``conditional_gain``), 4b (Master Alchemist); within a tier: new units in
                  spot order then new artifacts in zone order, each followed by the copies
                  it carries; tier 5 (Kraken) after every seat. Decisions in tier order:
                  Jester (``below(1 + artifacts in hand)``, 0 = none), Titan
                  (``below(unbuilt)``, mandatory, forced when one), copy target
                  (``below(1 + new units without K2)``, 0 = none), age targets as the base.
               7. seat 0 first: the keep (one draw ``below(1 + len(hand))``), the rest of
                  the hand discarded.
  Construction, Aging, End: as the base over ``Game.bset``; savers: units, then building
               faces (Abbey L1), then artifacts (Phial of Life).
Discard pile order in Legends Deployment: replaced units at their PLACE step, unpaid cards
(seat order, payment order), Shapeshifter reveals (tier 0), then each seat's unkept hand.
Policies: an artifact's draft/keep value is V(kingdom + it in the zone, pending) with its
cost if placed now (``Game.placement_cost``); a deployment step is valued with the gold
left after the canonical payment of everything placed; Jester, Titan and copy options are
valued by V(the sketch they leave); Legends features (``policies.LF_*``) follow the base
ones in the weighted sum.

LP and the score floor
----------------------
LP arrive in steps: a seat's deployment LP (Kraken), its wars, its aging, the end. After
each step the marker is ``max(score_floor, marker + step total)`` (§2.7: a score never
goes below 0); what the floor gives back is booked as the ``floor`` part, so the LP
breakdown (``BREAKDOWN``) always sums to the marker.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simcore.rng import GameRng

from ..policies import (
    F_AGING_LP,
    F_BUILDABLE,
    F_DEPLOY_LP,
    F_END_LP,
    F_GOLD,
    F_INCOME,
    F_KEEP,
    F_LEVEL2,
    F_MARGIN,
    F_PROD,
    F_STRENGTH,
    F_STRONG,
    F_UNITS,
    F_WAR_LP,
    LF_ARTIFACTS,
    MARGIN_CAP,
    N_FEATURES,
    N_LEGENDS_FEATURES,
    N_WEIGHTS,
    W_SAVE_STRENGTH,
    W_UNAFFORDABLE,
    Policy,
    legends_weights,
)
from ..tables import (
    BACK_ROW,
    FRONT_ROW,
    MAX_AGE,
    MAX_BUILD_OPTIONS,
    MAX_BUILD_OPTIONS_LEGENDS,
    MAX_COPY_OPTIONS,
    MAX_DEPLOY_OPTIONS,
    MAX_DEPLOY_STEPS,
    MAX_FRONT,
    MAX_GAME_BUILDINGS,
    MAX_HAND,
    MAX_JESTER_OPTIONS,
    MAX_PLAYERS,
    MAX_SPOTS,
    MAX_TITAN_OPTIONS,
    MIN_PLAYERS,
    N_RES,
    Ability,
    Artifact,
    CardSet,
    Tier,
    Unit,
    ability_tier,
    building_pair_index,
)

Event = dict[str, Any]
EXTRA_SPOT = 2  # the 5th spot (Front), open with a level-2 building
FRONT, BACK = "front", "back"
BREAKDOWN = (
    "wars",  # war LP: 3 per war won (2 players: 3 or 6)
    "per_war_won",  # lp_per_war_won abilities (Commander, Colossus, Master Alchemist)
    "war_units",  # war-phase 'lp' of units (none in the base game)
    "war_buildings",  # war-phase 'lp' of building faces (Tavern/Mine/Temple/Barracks L2)
    "deployment",  # deployment 'lp' (Kraken's -3 per level-2 building)
    "aging",  # death LP and LP per dying token (Sculptor, Demon, Palm Reader, Kraken)
    "buildings",  # end: each building's face (1 / 3)
    "relic",  # end-phase 'lp' of units (Relic of Wisdom)
    "floor",  # LP given back by the score floor (>= 0)
)
ABILITY_PARTS = ("per_war_won", "war_units", "deployment", "aging")
# Legends games (LEGENDS.md §F): two more parts; base games keep BREAKDOWN exactly.
LEGENDS_BREAKDOWN = (
    *BREAKDOWN[:4],
    "war_artifacts",  # war-phase 'lp' / conditional_gain of artifacts (Scepter of Kings)
    *BREAKDOWN[4:8],
    "artifacts",  # end: printed LP of every artifact in the zone + end 'lp' (Grimoire)
    "floor",
)
ZONE = "zone"  # the row of an artifact in the dataset


# --- rules ---------------------------------------------------------------------------------


class Rules:
    """The card set and rules.toml at one player count, in readable form."""

    def __init__(self, cards: CardSet, players: int) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(
                f"paper-tales plays {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}"
            )
        self.cards = cards
        self.players = players
        self.o = cards.rules.options
        self.two = cards.rules.two_player
        self.two_player = players == 2
        self.units = cards.units
        self.buildings = cards.buildings
        self.artifacts: tuple[Artifact, ...] = cards.artifacts
        self.legends = cards.legends
        n_types = len(cards.units)
        # card id -> card type: a unit index, or n_types + x for the artifact x (Legends)
        self.unit_of = [u for u, unit in enumerate(cards.units) for _ in range(unit.copies)] + [
            n_types + x for x, art in enumerate(cards.artifacts) for _ in range(art.copies)
        ]
        self.n_unit_types = n_types
        self.tiers = self.o["deployment_order"] == "tiers"
        self.keep_late = self.o["keep_timing"] == "end_of_phase"
        self.breakdown = LEGENDS_BREAKDOWN if self.legends else BREAKDOWN
        self.card_fields = LEGENDS_CARD_FIELDS if self.legends else CARD_FIELDS
        self.pairs = cards.building_pairs() if self.legends else []
        self.fixed_pair = building_pair_index(cards) if self.legends else -1
        self.deal = self.two.deal if self.two_player else self.o["deal"]
        self.discard_per_step = self.two.discard_per_step if self.two_player else 0
        self.turns = self.o["turns"]
        self.front_spots = tuple(range(self.o["front_spots"]))
        self.back_spots = tuple(BACK_ROW[: self.o["back_spots"]])
        self.floor = self.o["score_floor"]
        if self.deal * players > len(self.unit_of):
            raise ValueError(f"{players} players need {self.deal * players} cards in the deck")
        if not self.o["reshuffle_discard"] and self.deal * players * self.turns > len(self.unit_of):
            raise ValueError(
                f"{players} players draw {self.deal * players * self.turns} cards: the deck"
                f" has {len(self.unit_of)}, so reshuffle_discard must be true"
            )

    def unit(self, card: int) -> Unit:
        return self.units[self.unit_of[card]]

    def cost(self, card: int) -> int:
        return self.unit(card).cost

    def is_artifact(self, card: int) -> bool:
        return self.unit_of[card] >= self.n_unit_types

    def artifact_of(self, card: int) -> int:
        """The artifact index of an artifact card."""
        return self.unit_of[card] - self.n_unit_types

    def card_id(self, card: int) -> str:
        if self.is_artifact(card):
            return self.artifacts[self.artifact_of(card)].id
        return self.unit(card).id

    def art_cost(self, in_zone: int, modifier: int) -> int:
        """§2.4: an artifact paid with ``in_zone`` artifacts already in the zone and the sum
        ``modifier`` of active ``artifact_cost_modifier``s costs max(floor, base + step x
        in_zone + modifier)."""
        o = self.o
        raw = o["artifact_cost_base"] + o["artifact_cost_step"] * in_zone + modifier
        return max(o["artifact_cost_floor"], raw)

    def direction(self, turn: int) -> int:
        """+1: pass left (to seat+1), -1: right (to seat-1). Turn 1 goes
        ``first_draft_direction``, then it alternates."""
        first = 1 if self.o["first_draft_direction"] == "next" else -1
        return first if turn % 2 == 1 else -first

    def neighbours(self, p: int) -> list[int]:
        """Seats seat ``p`` fights: the right neighbour (p-1), then the left (p+1);
        2 players: the opponent once."""
        n = self.players
        return [1 - p] if n == 2 else [(p - 1) % n, (p + 1) % n]

    def face_abilities(self, b: int, level: int) -> list[Ability]:
        """Abilities of building ``b`` at ``level`` (a level-2 face keeps level 1's)."""
        return [a for k in range(level) for a in self.buildings[b].levels[k].abilities]

    def opens_extra_spot(self, blevel: list[int]) -> bool:
        return self.o["extra_front_spots"] > 0 and any(
            self.buildings[b].levels[k].extra_front_spot
            for b, lv in enumerate(blevel)
            for k in range(lv)
        )


# --- the readable scoring of a kingdom (scoring.py is the array twin) ---------------------------


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


def _war_gain(
    rules: Rules, a: Ability, piece: Piece | None, prod: list[int], facts: dict[str, Any]
) -> bool:
    return a.phase == "war" and gain_holds(rules, a, piece, prod, facts)


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


def fight(rules: Rules, mine: int, theirs: list[int]) -> tuple[int, int]:
    """(wars won, war LP) of a kingdom of strength ``mine`` against its neighbours'.

    3-5 players: each neighbour separately, ``>=`` wins (ties: both win), ``war_lp`` each.
    2 players (§2.9): one war, won with strength > 0 (unless ``zero_strength_wins``) and
    >= the opponent's; ``double_war_lp`` when >= ``double_ratio`` x the opponent's."""
    if rules.two_player:
        t = rules.two
        (opp,) = theirs
        if mine >= opp and (mine > 0 or t.zero_strength_wins):
            return 1, t.double_war_lp if mine >= t.double_ratio * opp else t.war_lp
        return 0, 0
    won = sum(1 for s in theirs if mine >= s)
    return won, won * rules.o["war_lp"]


def war_phase_lp(
    rules: Rules,
    pieces: list[Piece],
    blevel: list[int],
    a: Assessment,
    won: int,
    arts: Sequence[int] = (),
) -> tuple[dict[str, int], int]:
    """LP parts (``per_war_won``, ``war_units``, ``war_buildings``; Legends also
    ``war_artifacts``) and war gold (Rogue).

    Per-war-won abilities count the wars won (2 players: ``per_war_won_times`` on a win)
    from either row (``per_war_won_rows``; an artifact has no row: always); war-phase
    ``lp`` and ``conditional_gain`` score whether or not a war was won."""
    pww = won
    if rules.two_player and won:
        pww = rules.two.per_war_won_times
    facts: dict[str, Any] = {
        "age_kingdom": a.age_all,
        "income_gold": a.income,
        "level2_buildings": a.n_level2,
        "strong_units": a.n_strong,
    }
    if rules.legends:
        facts["artifacts"] = a.facts["artifacts"]
        facts["unit_costs"] = a.facts["unit_costs"]
    parts = {"per_war_won": 0, "war_units": 0, "war_buildings": 0}
    if rules.legends:
        parts["war_artifacts"] = 0
    gold = 0
    front_only = rules.o["per_war_won_rows"] == "front"
    for pc in pieces:
        counts = pc.front or not front_only
        for ab in rules.units[pc.unit].abilities:
            mult = per_value(ab.per, pc, a.prod, facts, ab)
            if ab.kind == "lp_per_war_won" and counts:
                parts["per_war_won"] += ab.amount * mult * pww
            elif ab.kind == "gold_per_war_won" and counts:
                gold += ab.amount * pww
            elif ab.kind == "lp" and ab.phase == "war" and when_holds(ab.when, pc, a.prod):
                parts["war_units"] += ab.amount * mult
            elif ab.kind == "conditional_gain" and _war_gain(rules, ab, pc, a.prod, facts):
                parts["war_units"] += ab.lp
                gold += ab.gold
    for b, lv in enumerate(blevel):
        for ab in rules.face_abilities(b, lv):
            if ab.kind == "lp" and ab.phase == "war" and when_holds(ab.when, None, a.prod):
                parts["war_buildings"] += ab.amount * per_value(ab.per, None, a.prod, facts, ab)
            elif ab.kind == "conditional_gain" and _war_gain(rules, ab, None, a.prod, facts):
                parts["war_buildings"] += ab.lp
                gold += ab.gold
    for x in arts:
        for ab in rules.artifacts[x].abilities:
            mult = per_value(ab.per, None, a.prod, facts, ab)
            if ab.kind == "lp_per_war_won":
                parts["per_war_won"] += ab.amount * mult * pww
            elif ab.kind == "gold_per_war_won":
                gold += ab.amount * pww
            elif ab.kind == "lp" and ab.phase == "war":
                parts["war_artifacts"] += ab.amount * mult
            elif ab.kind == "conditional_gain" and _war_gain(rules, ab, None, a.prod, facts):
                parts["war_artifacts"] += ab.lp
                gold += ab.gold
    return parts, gold


def end_lp(
    rules: Rules,
    pieces: list[Piece],
    blevel: list[int],
    a: Assessment,
    arts: Sequence[int] = (),
) -> dict[str, int]:
    """§2.7: each building's current face LP (+ end-phase building 'lp') and the end-phase
    'lp' of units (Relic of Wisdom: 2 per token); Legends: ``artifacts`` = every
    artifact's printed LP + end-phase artifact 'lp' (Ancient Grimoire)."""
    facts: dict[str, Any] = {"age_kingdom": a.age_all, "level2_buildings": a.n_level2}
    out = {"buildings": 0, "relic": 0}
    if rules.legends:
        facts["artifacts"] = len(arts)
        facts["unit_costs"] = a.facts["unit_costs"]
        out["artifacts"] = 0
        for x in arts:
            out["artifacts"] += rules.artifacts[x].lp
            for ab in rules.artifacts[x].abilities:
                if ab.kind == "lp" and ab.phase == "end":
                    out["artifacts"] += ab.amount * per_value(ab.per, None, a.prod, facts, ab)
    for b, lv in enumerate(blevel):
        if lv:
            out["buildings"] += rules.buildings[b].levels[lv - 1].lp
        for ab in rules.face_abilities(b, lv):
            if ab.kind == "lp" and ab.phase == "end" and when_holds(ab.when, None, a.prod):
                out["buildings"] += ab.amount * per_value(ab.per, None, a.prod, facts, ab)
    for pc in pieces:
        for ab in rules.units[pc.unit].abilities:
            if ab.kind == "lp" and ab.phase == "end" and when_holds(ab.when, pc, a.prod):
                out["relic"] += ab.amount * per_value(ab.per, pc, a.prod, facts, ab)
    return out


def never_dies(rules: Rules, unit: int) -> bool:
    return any(a.kind == "never_dies" for a in rules.units[unit].abilities)


def dies(rules: Rules, pc: Piece) -> bool:
    """§2.6: a unit with >= 1 token dies, unless ``never_dies``; ``dies_at_age`` raises the
    threshold (Salamander: 2)."""
    need = 1
    for a in rules.units[pc.unit].abilities:
        if a.kind == "never_dies":
            return False
        if a.kind == "dies_at_age":
            need = a.min_age
    return pc.age >= need


def death_rewards(
    rules: Rules, pieces: list[Piece], blevel: list[int], dying: list[Piece], prod: list[int]
) -> tuple[int, int]:
    """(LP, gold) of the Aging phase's death abilities: each dying unit's ``death_lp`` /
    ``death_gold``, then every unit's ``lp_per_dying_age`` (dying ones included) times
    the tokens on the dying units."""
    lp = gold = 0
    facts = base_facts(pieces, blevel)
    for pc in dying:
        for a in rules.units[pc.unit].abilities:
            if a.kind == "death_lp" and when_holds(a.when, pc, prod):
                lp += a.amount * per_value(a.per, pc, prod, facts)
            elif a.kind == "death_gold":
                gold += a.amount * per_value(a.per, pc, prod, facts)
    tokens = sum(pc.age for pc in dying)
    for pc in pieces:
        for a in rules.units[pc.unit].abilities:
            if a.kind == "lp_per_dying_age":
                lp += a.amount * tokens
    return lp, gold


def winners(totals: list[int], gold: list[int]) -> list[int]:
    """§2.7: highest LP; tie -> most gold; still tied -> all of them share the win."""
    best = max(totals)
    tied = [p for p, t in enumerate(totals) if t == best]
    rich = max(gold[p] for p in tied)
    return [p for p in tied if gold[p] == rich]


def _is_k5(a: Ability) -> bool:
    return a.kind == "artifact_cost_modifier"


def _tier(a: Ability) -> Tier:
    """The Legends Deployment tier of ``a`` (``Tier.NONE`` if it is not a deployment
    ability)."""
    return ability_tier(a.kind, a.on_deploy) if a.phase == "deployment" else Tier.NONE


# --- game objects --------------------------------------------------------------------------


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
    """An artifact card in a seat's artifact zone (Legends, §2.3)."""

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


@dataclass(frozen=True)
class Move:
    """A deployment step: STOP, PLACE hand card ``a`` on spot ``b``, MOVE spot ``a`` -> ``b``,
    REMOVE the old unit on spot ``a`` (discarded), Legends PLACE_ARTIFACT hand card ``a``."""

    kind: str  # "stop" | "place" | "move" | "remove" (spot a, b = -1) | "place_artifact"
    a: int = -1
    b: int = -1


STOP = Move("stop")


@dataclass(frozen=True)
class Build:
    """A construction option: building ``b`` to ``level`` (``upgrade``: from level 1)."""

    b: int
    level: int
    upgrade: bool
    gold: int  # cheapest payment, land cost included


# --- policies (weights and features in policies.py) ------------------------------------------


@dataclass
class Art:
    """An artifact in a sketch's zone: its index, and whether its on-deploy abilities are
    still to come (``pending``) / it entered this phase (``fresh``)."""

    x: int
    pending: bool = False
    fresh: bool = False
    done: int = -1


class Sketch:
    """A seat's kingdom as an option would leave it (policies only): pieces, building
    levels and gold; Legends: the artifact zone, and the deployment LP that projecting
    pending on-deploy gains adds (``bonus_lp``)."""

    __slots__ = ("arts", "blevel", "bonus_lp", "gold", "pieces")

    def __init__(
        self,
        pieces: list[Piece],
        blevel: list[int],
        gold: int,
        arts: list[Art] | None = None,
        bonus_lp: int = 0,
    ) -> None:
        self.pieces = pieces
        self.blevel = blevel
        self.gold = gold
        self.arts = arts if arts is not None else []
        self.bonus_lp = bonus_lp

    def copy(self) -> Sketch:
        return Sketch(
            [Piece(**vars(pc)) for pc in self.pieces],
            list(self.blevel),
            self.gold,
            [Art(**vars(a)) for a in self.arts],
            self.bonus_lp,
        )

    def xs(self) -> list[int]:
        return [a.x for a in self.arts]


class Brain:
    """The players. ``random`` draws from the game's stream; the others value each option by
    ``features`` x their weight row and take the first best."""

    def __init__(self, game: Game, weights: np.ndarray) -> None:
        assert weights.shape[1] == N_WEIGHTS
        self.game = game
        self.rules = game.rules
        self.weights = weights
        self.lweights = game.lweights  # Legends feature weights (policies.legends_weights)
        self.draft_values: dict[tuple[int, int], float] = {}  # (seat, unit) -> card_value

    def pick(self, n: int) -> int:
        """Uniform index in [0, n); forced (no draw) when n == 1."""
        return 0 if n == 1 else self.game.rng.below(n)

    def is_random(self, p: int) -> bool:
        return self.game.players[p].policy == Policy.RANDOM

    def w(self, p: int) -> np.ndarray:
        return self.weights[self.game.players[p].policy]

    # -- evaluation
    def sketch(self, p: int) -> Sketch:
        pl = self.game.players[p]
        if not self.rules.legends:
            return Sketch(pl.pieces(self.rules), list(pl.blevel), pl.gold)
        arts = [
            Art(z.x, pending=z.fresh and z.done < Tier.PENALTY, fresh=z.fresh, done=z.done)
            for z in pl.zone
        ]
        return Sketch(pl.pieces(self.rules), list(pl.blevel), pl.gold, arts)

    def project(self, sk: Sketch) -> Sketch:
        """The sketch with the predictable on-deploy effects of its pending units applied
        (spot order): ``add_age`` on self / others (per one), ``upgrade_buildings``. Chosen
        targets (Time Master, Master Alchemist) and Shapeshifter reveals are not guessed."""
        if self.rules.legends:
            return self.project_legends(sk)
        if not any(pc.pending for pc in sk.pieces):
            return sk
        out = sk.copy()
        for pc in out.pieces:
            if not pc.pending:
                continue
            for a in self.rules.units[pc.unit].abilities:
                if not a.on_deploy:
                    continue
                if a.kind == "add_age" and a.per == "one" and a.target == "self":
                    pc.age += a.amount
                elif a.kind == "add_age" and a.per == "one" and a.target == "others":
                    for other in out.pieces:
                        if other is not pc:
                            other.age += a.amount
                elif a.kind == "upgrade_buildings":
                    out.blevel = [2 if lv == 1 else lv for lv in out.blevel]
            pc.pending = False
        return out

    def project_legends(self, sk: Sketch) -> Sketch:
        """Legends ``project``: the pending units' and artifacts' on-deploy effects of the
        tiers still to come, in tier order: ``upgrade_buildings`` (tier 2), ``add_age`` on
        self / others / all (per one, tier 3), then flat on-deploy ``conditional_gain``s
        (tier 4: gold to ``gold``, LP to ``bonus_lp``). Chosen targets (Lackey, Time
        Master, Master Alchemist), Jester artifacts, Titan buildings, copies and
        Shapeshifter reveals are not guessed."""
        if not any(pc.pending for pc in sk.pieces) and not any(a.pending for a in sk.arts):
            return sk
        r = self.rules
        out = sk.copy()
        sources: list[tuple[Piece | None, tuple[Ability, ...], int]] = [
            (pc, r.units[pc.unit].abilities, pc.done) for pc in out.pieces if pc.pending
        ]
        sources += [(None, r.artifacts[a.x].abilities, a.done) for a in out.arts if a.pending]
        for tier in (Tier.LEVELS, Tier.AGE, Tier.COUNT):
            for pc, abilities, done in sources:
                for a in abilities:
                    if not a.on_deploy or ability_tier(a.kind, True) != tier or tier <= done:
                        continue
                    if a.kind == "upgrade_buildings":
                        out.blevel = [2 if lv == 1 else lv for lv in out.blevel]
                    elif a.kind == "add_age" and a.per == "one" and a.target != "one":
                        for other in out.pieces:
                            hit = {"self": other is pc, "others": other is not pc, "all": True}
                            if hit[a.target]:
                                other.age += a.amount
                    elif a.kind == "conditional_gain":
                        prod = production(r, out.pieces, out.blevel, out.xs())
                        facts = base_facts(out.pieces, out.blevel, r, out.xs())
                        if gain_holds(r, a, pc, prod, facts):
                            out.gold += a.gold
                            out.bonus_lp += a.lp
        for pc in out.pieces:
            pc.pending = False
        for art in out.arts:
            art.pending = False
        return out

    def features(self, p: int, sketch: Sketch) -> list[int]:
        """The ``F_*`` features of a sketch (see policies.py); Legends games append the
        ``LF_*`` features (``legends_features``) after them."""
        r = self.rules
        sk = self.project(sketch)
        pieces, blevel = sk.pieces, sk.blevel
        xs = sk.xs()
        a = assess(r, pieces, blevel, xs)
        theirs = self.game.seen[p]
        won, war_lp = fight(r, a.strength, theirs)
        parts, _ = war_phase_lp(r, pieces, blevel, a, won, xs)
        agings_left = r.turns - self.game.turn + 1  # features are used before this Aging
        at_end = [
            Piece(pc.spot, pc.unit, pc.age + agings_left) if never_dies(r, pc.unit) else pc
            for pc in pieces
        ]
        end = end_lp(r, at_end, blevel, a, xs)
        facts = base_facts(pieces, blevel)
        deploy_lp = 0
        for pc in pieces:
            if pc.fresh:
                for ab in r.units[pc.unit].abilities:
                    if (
                        ab.kind == "lp"
                        and ab.phase == "deployment"
                        and when_holds(ab.when, pc, a.prod)
                    ):
                        deploy_lp += ab.amount * per_value(ab.per, pc, a.prod, facts)
        dying = [pc for pc in pieces if dies(r, pc)]
        aging_lp, _ = death_rewards(r, pieces, blevel, dying, a.prod)
        left = r.turns - self.game.turn
        f = [0] * N_FEATURES
        f[F_WAR_LP] = war_lp + parts["per_war_won"] + parts["war_units"] + parts["war_buildings"]
        f[F_END_LP] = end["buildings"] + end["relic"]
        f[F_DEPLOY_LP] = deploy_lp
        f[F_AGING_LP] = aging_lp
        f[F_INCOME] = a.income
        f[F_GOLD] = sk.gold
        f[F_STRENGTH] = a.strength
        f[F_MARGIN] = sum(max(-MARGIN_CAP, min(MARGIN_CAP, a.strength - s)) for s in theirs)
        f[F_PROD] = sum(a.prod) * left
        f[F_BUILDABLE] = self.buildable(blevel, a.prod) * left
        keep = sum(r.units[pc.unit].strength for pc in pieces if not dies(r, pc))
        f[F_KEEP] = keep * left
        f[F_UNITS] = len(pieces)
        f[F_LEVEL2] = a.n_level2 * left
        f[F_STRONG] = a.n_strong
        if r.legends:
            f[F_WAR_LP] += parts["war_artifacts"]
            f[F_END_LP] += end["artifacts"]
            f[F_DEPLOY_LP] += sk.bonus_lp
            f += [0] * N_LEGENDS_FEATURES
            f[N_FEATURES + LF_ARTIFACTS] = len(xs) * left
        return f

    def buildable(self, blevel: list[int], prod: list[int]) -> int:
        """Buildings of the game's set whose next level's printed requirement is produced
        (gold ignored)."""
        n = 0
        for b in self.game.bset:
            lv = blevel[b]
            if lv < 2:
                req = self.rules.buildings[b].levels[lv].requires
                n += all(prod[r] >= req[r] for r in range(N_RES))
        return n

    def value(self, p: int, sketch: Sketch) -> float:
        f = self.features(p, sketch)
        w = self.w(p)
        v = 0.0
        for i in range(N_FEATURES):
            v += float(w[i]) * f[i]
        if self.rules.legends:
            lw = self.lweights[self.game.players[p].policy]
            for i in range(N_LEGENDS_FEATURES):
                v += float(lw[i]) * f[N_FEATURES + i]
        return v

    def card_value(self, p: int, card: int) -> float:
        """Draft/keep value of ``card``: the kingdom with it added (its cost paid) in the
        better of the Front (virtual spot 0) and the Back row (virtual spot 3); minus
        ``W_UNAFFORDABLE`` if it costs more than the seat's gold."""
        base = self.sketch(p)
        if self.rules.is_artifact(card):
            return self.artifact_value(p, card, base)
        unit = self.rules.unit_of[card]
        cost = self.rules.cost(card)
        best = -np.inf
        for spot in (FRONT_ROW[0], BACK_ROW[0]):
            sk = base.copy()
            sk.pieces.append(Piece(spot, unit, 0, pending=True, fresh=True))
            sk.gold -= cost
            best = max(best, self.value(p, sk))
        if cost > base.gold:
            best -= float(self.w(p)[W_UNAFFORDABLE])
        return float(best)

    def artifact_value(self, p: int, card: int, base: Sketch) -> float:
        """Legends draft/keep value of an artifact card: V(kingdom + it in the zone,
        pending, its cost paid) with the cost it would have if placed now (``Game.
        placement_cost``); minus ``W_UNAFFORDABLE`` if that cost is more than the gold."""
        cost = self.game.placement_cost(p, card)
        sk = base.copy()
        sk.arts.append(Art(self.rules.artifact_of(card), pending=True, fresh=True))
        sk.gold -= cost
        value = self.value(p, sk)
        if cost > base.gold:
            value -= float(self.w(p)[W_UNAFFORDABLE])
        return float(value)

    def decide(self, p: int, n: int, value: Callable[[int], float]) -> int:
        """Option index in [0, n): forced (no draw) when n == 1; ``random``: one uniform
        draw; otherwise the first option of highest ``value(i)``. With ``Game.trace`` on,
        every decision is logged as (phase, seat, n, chosen, best value or None)."""
        best: float | None = None
        if n == 1:
            chosen = 0
        elif self.is_random(p):
            chosen = self.pick(n)
        else:
            values = [value(i) for i in range(n)]
            best = max(values)
            chosen = values.index(best)
        if self.game.trace is not None:
            self.game.trace.append((self.game.phase, p, n, chosen, best))
        return chosen

    # -- the decisions
    def draft_value(self, p: int, card: int) -> float:
        """``card_value`` during Recruitment, where it depends only on (seat, unit): the
        kingdom and gold do not change, so it is computed once per unit and phase."""
        key = (p, self.rules.unit_of[card])
        if key not in self.draft_values:
            self.draft_values[key] = self.card_value(p, card)
        return self.draft_values[key]

    def draft_pick(self, p: int, pack: list[int]) -> int:
        return self.decide(p, len(pack), lambda i: self.draft_value(p, pack[i]))

    def draft_discard(self, p: int, pack: list[int]) -> int:
        """2 players: the card to discard (greedy: its first lowest-valued one)."""
        return self.decide(p, len(pack), lambda i: -self.draft_value(p, pack[i]))

    def deploy_step(self, p: int, options: list[Move]) -> int:
        return self.decide(
            p, len(options), lambda i: self.value(p, self.game.after_move(p, options[i]))
        )

    def keep(self, p: int, hand: list[int]) -> int:
        """0: keep nothing; i: keep ``hand[i - 1]``. Greedy keeps its best card (nothing is
        valued -inf: keeping is free)."""
        if not hand:
            return 0
        return self.decide(
            p, 1 + len(hand), lambda i: self.card_value(p, hand[i - 1]) if i else -np.inf
        )

    def age_target(self, p: int, spots: list[int], amount: int) -> int:
        """Index in ``spots`` of the unit receiving ``amount`` tokens."""

        def value(i: int) -> float:
            sk = self.sketch(p)
            for pc in sk.pieces:
                if pc.spot == spots[i]:
                    pc.age += amount
            return self.value(p, sk)

        return self.decide(p, len(spots), value)

    def heal(self, p: int, saveable: list[int]) -> int:
        """0: save nobody; i: save the unit on ``saveable[i - 1]``. Greedy: value of a save
        = W_SAVE_STRENGTH x (printed strength x turns left) - the LP its death would bring
        (its death LP + LP per dying token) - W_GOLD x its death gold; nobody = 0."""
        r = self.rules
        w = self.w(p)
        pl = self.game.players[p]
        pieces = pl.pieces(r)
        prod = production(r, pieces, pl.blevel, pl.arts())
        left = r.turns - self.game.turn

        def value(i: int) -> float:
            if i == 0:
                return 0.0
            pc = next(x for x in pieces if x.spot == saveable[i - 1])
            lp, gold = death_rewards(r, pieces, pl.blevel, [pc], prod)
            v = float(w[W_SAVE_STRENGTH]) * (r.units[pc.unit].strength * left)
            v -= lp
            v -= float(w[F_GOLD]) * gold
            return v

        return self.decide(p, 1 + len(saveable), value)

    def jester(self, p: int, cards: list[int], cost: int) -> int:
        """Court Jester (K1): 0 = none, i = put ``cards[i - 1]`` (an artifact in hand) into
        the zone for ``cost``. Greedy: V(now) against V(with it, pending, cost paid)."""

        def value(i: int) -> float:
            sk = self.sketch(p)
            if i:
                sk.arts.append(Art(self.rules.artifact_of(cards[i - 1]), True, True, Tier.ENTER))
                sk.gold -= cost
            return self.value(p, sk)

        return self.decide(p, 1 + len(cards), value)

    def copy_target(self, p: int, spots: list[int]) -> int:
        """Shadow / Magic Mirror (K2): 0 = none, i = repeat the on-deploy abilities of the
        unit on ``spots[i - 1]``. Greedy: V(sketch projected, then that unit's predictable
        on-deploy effects projected once more)."""

        def value(i: int) -> float:
            sk = self.project(self.sketch(p))
            if i:
                target = next(pc for pc in sk.pieces if pc.spot == spots[i - 1])
                for a in self.rules.units[target.unit].abilities:
                    if a.on_deploy:
                        sk = self.copy_enter(p, sk, a)
                target.pending, target.done = True, Tier.COPY
                sk = self.project(sk)
            return self.value(p, sk)

        return self.decide(p, 1 + len(spots), value)

    def copy_enter(self, p: int, sk: Sketch, a: Ability) -> Sketch:
        """A copied tier-1a ability in a copy option's sketch, as this policy would resolve
        it: ``build_free`` builds its best unbuilt building (first best, set order),
        ``deploy_artifact_from_hand`` adds its best artifact from the hand if that beats
        none; other kinds: unchanged."""
        pl = self.game.players[p]
        best = sk
        if a.kind == "build_free":
            top = -np.inf
            for b in self.game.bset:
                if sk.blevel[b] == 0:
                    trial = sk.copy()
                    trial.blevel[b] = a.level
                    v = self.value(p, trial)
                    if v > top:
                        top, best = v, trial
        elif a.kind == "deploy_artifact_from_hand" and a.cost <= sk.gold:
            top = self.value(p, sk)
            for card in pl.hand:
                if self.rules.is_artifact(card):
                    trial = sk.copy()
                    trial.arts.append(Art(self.rules.artifact_of(card), True, True, Tier.ENTER))
                    trial.gold -= a.cost
                    v = self.value(p, trial)
                    if v > top:
                        top, best = v, trial
        return best

    def titan(self, p: int, buildings: list[int], level: int) -> int:
        """Titan (K3): index in ``buildings`` (mandatory) of the one built free at
        ``level``. Greedy: V(sketch with it built)."""

        def value(i: int) -> float:
            sk = self.sketch(p)
            sk.blevel[buildings[i]] = level
            return self.value(p, sk)

        return self.decide(p, len(buildings), value)

    def build(self, p: int, options: list[Build]) -> int:
        """0: build nothing; i: ``options[i - 1]``."""

        def value(i: int) -> float:
            sk = self.sketch(p)
            if i:
                o = options[i - 1]
                sk.blevel[o.b] = o.level
                sk.gold -= o.gold
            return self.value(p, sk)

        return self.decide(p, 1 + len(options), value)


# --- the game ---------------------------------------------------------------------------------


class Game:
    """One game. ``run()`` plays it; ``events`` narrates it when ``record``."""

    def __init__(
        self,
        rules: Rules,
        weights: np.ndarray,
        seat_policies: list[int],
        seed: int,
        game_id: int,
        record: bool = False,
        trace: bool = False,
        lweights: np.ndarray | None = None,
    ) -> None:
        assert len(seat_policies) == rules.players
        self.rules = rules
        self.n = rules.players
        self.rng = GameRng(seed, game_id)
        nb = len(rules.buildings)
        self.players = [
            Player(
                seat=p,
                policy=pol,
                gold=rules.o["start_gold"],
                parts=dict.fromkeys(rules.breakdown, 0),
                blevel=[0] * nb,
                buildings=[BuildingLog() for _ in range(nb)],
            )
            for p, pol in enumerate(seat_policies)
        ]
        # every player's buildings (catalog indices, construction order): base = all;
        # Legends: the base pool + the pair drawn at setup (+ Port, Abbey)
        self.bset = list(range(nb))
        self.pair = -1  # Legends: index of the building pair in Rules.pairs
        self.lweights = legends_weights() if lweights is None else lweights
        assert self.lweights.shape[1] == N_LEGENDS_FEATURES
        self.brain = Brain(self, weights)
        self.deck: list[int] = []  # draw pile, top = end
        self.discard: list[int] = []  # oldest first
        self.packs: list[list[int]] = [[] for _ in range(self.n)]  # draft in progress
        self.turn = 0
        self.phase = "setup"
        self.reshuffles = 0
        self.seen: list[list[int]] = [[0] for _ in range(self.n)]  # neighbours' strengths
        self.pending_lp: list[tuple[int, int, Ability]] = []  # (seat, spot, ability)
        self.extra_open = [self.open_spots(p) for p in range(self.n)]  # (Front, Back) spots
        self.record = record
        self.events: list[Event] = []
        # (phase, seat, options, chosen, best value): every decision, for kernel debugging
        self.trace: list[tuple[str, int, int, int, float | None]] | None = [] if trace else None
        self.over = False

    # -- helpers
    def emit(self, event: str, **data: Any) -> None:
        if self.record:
            self.events.append({"event": event, "turn": self.turn, **data})

    def uid(self, card: int) -> str:
        return self.rules.card_id(card)

    def draw(self) -> int | None:
        """Top card of the draw pile; an empty pile first takes the shuffled discard pile."""
        if not self.deck and self.rules.o["reshuffle_discard"] and self.discard:
            self.deck = self.discard
            self.discard = []
            self.rng.shuffle(self.deck)
            self.reshuffles += 1
            self.emit("reshuffle", phase=self.phase, cards=len(self.deck))
        return self.deck.pop() if self.deck else None

    def slot(self, p: int, s: int) -> Slot:
        """The unit on seat ``p``'s spot ``s`` (which must hold one)."""
        sl = self.players[p].spots[s]
        assert sl is not None
        return sl

    def to_discard(self, card: int) -> None:
        self.discard.append(card)

    def assessment(self, p: int) -> Assessment:
        pl = self.players[p]
        return assess(self.rules, pl.pieces(self.rules), pl.blevel, pl.arts())

    def freeze_strengths(self) -> None:
        """``seen[p]``: the neighbours' strengths now (what seat ``p``'s policy plays against
        during this phase)."""
        strength = [self.assessment(q).strength for q in range(self.n)]
        self.seen = [[strength[q] for q in self.rules.neighbours(p)] for p in range(self.n)]

    def score(self, p: int, part: str, lp: int) -> None:
        pl = self.players[p]
        pl.parts[part] += lp
        pl.step_lp += lp

    def settle(self, p: int) -> None:
        """End of a scoring step: move the marker, never below the floor (§2.7)."""
        pl = self.players[p]
        new = pl.lp + pl.step_lp
        if new < self.rules.floor:
            pl.parts["floor"] += self.rules.floor - new
            new = self.rules.floor
        pl.lp = new
        pl.step_lp = 0

    def kill(self, p: int, s: int, fate: str) -> None:
        """Remove the unit on spot ``s`` to the discard pile (``fate`` in its log)."""
        pl = self.players[p]
        sl = self.slot(p, s)
        pl.spots[s] = None
        self.to_discard(sl.card)
        pl.log[sl.card].fate = fate

    # -- §2.1 Recruitment
    def recruitment(self) -> None:
        r = self.rules
        self.phase = "recruitment"
        self.freeze_strengths()
        self.brain.draft_values = {}
        for p in range(self.n):
            pack = []
            for _ in range(r.deal):
                card = self.draw()
                assert card is not None, "the deck and the discard pile ran out"
                pack.append(card)
            self.packs[p] = pack
        direction = r.direction(self.turn)
        drafted: list[list[int]] = [[] for _ in range(self.n)]
        thrown: list[list[int]] = [[] for _ in range(self.n)]
        step = 0
        while any(self.packs):
            step += 1
            for p in range(self.n):
                pack = self.packs[p]
                card = pack.pop(self.brain.draft_pick(p, pack))
                drafted[p].append(card)
                kind = "artifact" if r.is_artifact(card) else "unit"
                self.players[p].receive(CardLog(card, self.uid(card), self.turn, step, kind=kind))
                for _ in range(r.discard_per_step):
                    if pack:
                        out = pack.pop(self.brain.draft_discard(p, pack))
                        thrown[p].append(out)
                        self.to_discard(out)
            self.packs = [self.packs[(q - direction) % self.n] for q in range(self.n)]
        for p, pl in enumerate(self.players):
            pl.hand = drafted[p] + ([pl.kept] if pl.kept is not None else [])
            pl.kept = None
            assert len(pl.hand) <= MAX_HAND
            self.emit(
                "draft",
                seat=p,
                direction=direction,
                cards=[self.uid(c) for c in drafted[p]],
                discarded=[self.uid(c) for c in thrown[p]],
                hand=[self.uid(c) for c in pl.hand],
            )

    # -- §2.2 Deployment
    def open_spots(self, p: int) -> tuple[list[int], list[int]]:
        """(Front spots, Back spots) open to seat ``p`` now."""
        pl = self.players[p]
        front = list(self.rules.front_spots)
        if self.rules.opens_extra_spot(pl.blevel):
            front.append(EXTRA_SPOT)
        return front, list(self.rules.back_spots)

    def budget(self, p: int) -> int:
        pl = self.players[p]
        return pl.gold - sum(self.rules.cost(sl.card) for sl in pl.spots if sl and sl.fresh)

    def moves(self, p: int) -> list[Move]:
        """The legal deployment steps, in the documented order (module docstring)."""
        pl = self.players[p]
        front, back = self.extra_open[p]
        first_empty = [next((s for s in row if pl.spots[s] is None), -1) for row in (front, back)]
        open_spots = sorted(front + back)
        old = [s for s in open_spots if (sl := pl.spots[s]) is not None and not sl.fresh]
        empty = [s for s in open_spots if pl.spots[s] is None]
        out = [STOP]
        for i, card in enumerate(pl.hand):
            if self.rules.tiers:
                out += self.places_legends(p, i, card, first_empty, old)
                continue
            if self.rules.cost(card) > self.budget(p):
                continue
            out += [Move("place", i, s) for s in first_empty if s >= 0]
            out += [Move("place", i, s) for s in old]
        for s in old:
            if not self.slot(p, s).moved:
                out += [Move("move", s, t) for t in empty]
        for s in old:
            if not self.rules.tiers or self.paid_total(p, None, s) is not None:
                out.append(Move("remove", s))
        return out

    def after_move(self, p: int, m: Move) -> Sketch:
        """The seat's sketch after deployment step ``m`` (policies)."""
        if self.rules.tiers:
            return self.after_move_legends(p, m)
        sk = self.brain.sketch(p)
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
        card = self.players[p].hand[m.a]
        sk.pieces = [pc for pc in sk.pieces if pc.spot != m.b]
        sk.pieces.append(Piece(m.b, self.rules.unit_of[card], 0, pending=True, fresh=True))
        sk.pieces.sort(key=lambda pc: pc.spot)
        sk.gold -= self.rules.cost(card)
        return sk

    def apply_move(self, p: int, m: Move) -> None:
        pl = self.players[p]
        if m.kind == "move":
            sl = self.slot(p, m.a)
            assert pl.spots[m.b] is None
            sl.moved = True
            pl.spots[m.b], pl.spots[m.a] = sl, None
            self.emit("move", seat=p, unit=self.uid(sl.card), spot=m.a, to=m.b)
            return
        if m.kind == "remove":
            self.emit("remove", seat=p, unit=self.uid(self.slot(p, m.a).card), spot=m.a)
            self.discard_old(p, m.a)
            return
        card = pl.hand.pop(m.a)
        if m.kind == "place_artifact":
            pl.zone.append(ZoneCard(card, self.rules.artifact_of(card), fresh=True, paid=False))
            self.emit("place_artifact", seat=p, artifact=self.uid(card))
            return
        old = pl.spots[m.b]
        replaced = None
        if old is not None:
            replaced = self.uid(old.card)
            self.discard_old(p, m.b)
        pl.spots[m.b] = Slot(card, fresh=True, resolved=False)
        self.emit("place", seat=p, unit=self.uid(card), spot=m.b, replaced=replaced)

    def discard_old(self, p: int, s: int) -> None:
        """An old unit leaves play in Deployment (replaced by a placed card, or removed):
        ``deploy_discard`` = not_death: no death ability, its tokens go with it (fate
        ``replaced``); = death: its death abilities score first."""
        if self.rules.o["deploy_discard"] == "death":
            self.death_abilities(p, [s])
        self.kill(p, s, "replaced")

    def deployment(self) -> None:
        self.phase = "deployment"
        self.freeze_strengths()
        self.extra_open = [self.open_spots(p) for p in range(self.n)]
        if self.rules.tiers:
            self.deployment_legends()
            return
        for p in range(self.n):
            self.placement(p)
            self.keep_and_discard(p)
        self.reveal()

    def reveal(self) -> None:
        """§2.2 after the face-down placements: every seat pays its new units, then (seat
        order) their on-deploy abilities resolve: first the new units that replace their
        card (Shapeshifter, spot order; the revealed unit's own at once), then the other
        new units in spot order, so an ability on "your other units" (Necromancer) sees the
        revealed unit whatever the spots; then the seat's every-turn deployment abilities
        (Master Alchemist); deployment LP (Kraken) is counted at the very end of the phase
        (``kraken_count_at_end``)."""
        for p in range(self.n):
            self.pay(p)
        self.pending_lp = []
        for p in range(self.n):
            pl = self.players[p]
            for replacing in (True, False):  # card replacement (Shapeshifter) first
                for s in range(MAX_SPOTS):
                    sl = pl.spots[s]
                    if sl is not None and not sl.resolved and self.replaces(sl.card) == replacing:
                        self.on_deploy(p, s)
            self.every_turn(p)
        self.close_deployment()

    def replaces(self, card: int) -> bool:
        """The unit replaces its own card when deployed (an on-deploy ``shapeshift``)."""
        return any(a.on_deploy and a.kind == "shapeshift" for a in self.rules.unit(card).abilities)

    def close_deployment(self) -> None:
        """The end of Deployment: every deployment 'lp' collected (Kraken), each seat's
        LP step settled, the phase's flags on units and artifacts cleared."""
        for p, s, a in self.pending_lp:
            self.deployment_lp(p, s, a)
        for p, pl in enumerate(self.players):
            self.settle(p)
            for sl in pl.spots:
                if sl is not None:
                    sl.fresh = sl.moved = sl.skip_deploy = False
                    sl.resolved, sl.done = True, -1
            for z in pl.zone:
                z.fresh, z.entered, z.done = False, -1, -1

    def pay(self, p: int) -> None:
        """Reveal: pay each new unit, negative costs first (that gold is usable at once),
        then spot order; a unit its owner cannot pay is discarded."""
        pl = self.players[p]
        new = [s for s in range(MAX_SPOTS) if (sl := pl.spots[s]) is not None and sl.fresh]
        new.sort(key=lambda s: (self.rules.cost(self.slot(p, s).card) >= 0, s))
        for s in new:
            sl = self.slot(p, s)
            cost = self.rules.cost(sl.card)
            if cost > pl.gold:
                self.emit("unpaid", seat=p, unit=self.uid(sl.card), cost=cost)
                self.kill(p, s, "unpaid")
                continue
            pl.gold -= cost
            log = pl.log[sl.card]
            log.deployed, log.turn_deployed, log.fate = True, self.turn, "in_play"
            log.row = FRONT if s < MAX_FRONT else BACK
            self.emit("pay", seat=p, unit=self.uid(sl.card), spot=s, cost=cost, gold=pl.gold)

    def on_deploy(self, p: int, s: int) -> None:
        """The on-deploy abilities of the new unit on spot ``s``, in ability order."""
        sl = self.slot(p, s)
        sl.resolved = True
        for a in self.rules.unit(sl.card).abilities:
            if not a.on_deploy:
                continue
            if a.kind == "add_age":
                self.add_age(p, s, a)
            elif a.kind == "upgrade_buildings":
                self.upgrade_all(p)
            elif a.kind == "lp":
                if self.rules.o["kraken_count_at_end"]:
                    self.pending_lp.append((p, s, a))
                else:
                    self.deployment_lp(p, s, a)
            elif a.kind == "shapeshift":
                self.shapeshift(p, s, a)
                return  # the Shapeshifter is gone; its other abilities with it

    def add_age(self, p: int, s: int, a: Ability) -> None:
        """``add_age``: ``amount`` x ``per`` tokens on itself, on each other unit of the
        owner, or on one unit of the owner chosen by its policy."""
        pl = self.players[p]
        pieces = pl.pieces(self.rules)
        me = next(pc for pc in pieces if pc.spot == s)
        prod = production(self.rules, pieces, pl.blevel, pl.arts())
        facts = base_facts(pieces, pl.blevel, self.rules, pl.arts())
        amount = a.amount * per_value(a.per, me, prod, facts, a)
        if amount <= 0:
            return
        if a.target == "self":
            targets = [s]
        elif a.target == "others":
            targets = [pc.spot for pc in pieces if pc.spot != s]
        else:
            spots = [pc.spot for pc in pieces]
            targets = [spots[self.brain.age_target(p, spots, amount)]]
        for t in targets:
            sl = self.slot(p, t)
            sl.age += amount
            assert sl.age <= MAX_AGE
        if targets:
            self.emit(
                "age",
                seat=p,
                unit=self.uid(self.slot(p, s).card),
                amount=amount,
                targets=[self.uid(self.slot(p, t).card) for t in targets],
            )

    def upgrade_all(self, p: int) -> None:
        """Golem: every level-1 building of the owner becomes level 2, free."""
        pl = self.players[p]
        for b, lv in enumerate(pl.blevel):
            if lv == 1:
                pl.blevel[b] = 2
                log = pl.buildings[b]
                log.level, log.turn_upgraded, log.how = 2, self.turn, "golem"
                self.emit("upgrade", seat=p, building=self.rules.buildings[b].id, how="golem")

    def deployment_lp(self, p: int, s: int, a: Ability) -> None:
        pl = self.players[p]
        pieces = pl.pieces(self.rules)
        prod = production(self.rules, pieces, pl.blevel, pl.arts())
        facts = base_facts(pieces, pl.blevel, self.rules, pl.arts())
        me = next((pc for pc in pieces if pc.spot == s), None)
        lp = 0
        if when_holds(a.when, me, prod):
            lp = a.amount * per_value(a.per, me, prod, facts)
        self.score(p, "deployment", lp)
        self.emit("deploy_lp", seat=p, lp=lp)

    def shapeshift(self, p: int, s: int, a: Ability) -> None:
        """Reveal cards from the draw pile, discarding them, until a unit of cost <=
        ``max_cost``; it replaces this card (free unless ``shapeshift_free`` is off) with
        ``age`` tokens, and its on-deploy abilities resolve (``shapeshift_on_deploy``). If
        the draw and discard piles hold no such unit, the spot stays empty."""
        found = self.shapeshift_reveal(p, s, a)
        if found is None:
            return
        self.players[p].spots[s] = Slot(found, age=a.age, fresh=True, resolved=True)
        if self.rules.o["shapeshift_on_deploy"]:
            self.on_deploy(p, s)

    def shapeshift_reveal(self, p: int, s: int, a: Ability) -> int | None:
        """The Shapeshifter on spot ``s`` leaves; cards are revealed (and discarded) until
        a unit of cost <= ``max_cost`` (Legends artifacts are skipped: "until a unit",
        §2.3); that card is received and paid (``shapeshift_free``). Returns it, or None
        (none found, or unpaid)."""
        r = self.rules
        pl = self.players[p]
        self.kill(p, s, "shapeshifted")
        revealed = []
        found = None
        for _ in range(len(self.deck) + len(self.discard)):
            card = self.draw()
            if card is None:
                break
            if not r.is_artifact(card) and r.cost(card) <= a.max_cost:
                found = card
                break
            revealed.append(self.uid(card))
            self.to_discard(card)
        self.emit(
            "shapeshift",
            seat=p,
            revealed=revealed,
            becomes=self.uid(found) if found is not None else None,
        )
        if found is None:
            return None
        log = pl.receive(CardLog(found, self.uid(found), self.turn, 0))
        cost = 0 if r.o["shapeshift_free"] else r.cost(found)
        if cost > pl.gold:
            self.to_discard(found)
            log.fate = "unpaid"
            return None
        pl.gold -= cost
        log.deployed, log.turn_deployed, log.fate = True, self.turn, "in_play"
        log.row = FRONT if s < MAX_FRONT else BACK
        log.deploy_cost, log.how_deployed = cost, "shapeshifted"
        return found

    # -- §2.4-§2.5 Deployment, Legends (deployment_order = "tiers", LEGENDS.md §B.2)
    def deployment_legends(self) -> None:
        """Seat by seat the placement steps (units and face-down artifacts); then every
        seat pays in the canonical order (``pay_legends``); then the tiers (``tiers``);
        then seat by seat the keep (after the abilities: a Court Jester takes from the
        hand, §2.4 step 5) and the rest of the hand is discarded."""
        for p in range(self.n):
            self.placement(p)
        for p in range(self.n):
            self.pay_legends(p)
        self.tiers()
        for p in range(self.n):
            self.keep_and_discard(p)

    def placement(self, p: int) -> None:
        """Seat ``p``'s deployment steps (``moves``), each its policy's choice, until STOP."""
        for _ in range(MAX_DEPLOY_STEPS + 1):
            options = self.moves(p)
            assert len(options) <= MAX_DEPLOY_OPTIONS
            m = options[self.brain.deploy_step(p, options)]
            if m.kind == "stop":
                return
            self.apply_move(p, m)
        raise AssertionError("more deployment steps than MAX_DEPLOY_STEPS")

    def keep_and_discard(self, p: int) -> None:
        """The keep decision; the rest of the hand goes to the discard pile (hand order)."""
        pl = self.players[p]
        k = self.brain.keep(p, pl.hand) if self.rules.o["keep"] else 0
        if k:
            pl.kept = pl.hand.pop(k - 1)
            pl.log[pl.kept].fate = "kept"
        for card in pl.hand:
            self.to_discard(card)
            pl.log[card].fate = "not_deployed"
        self.emit(
            "keep",
            seat=p,
            kept=self.uid(pl.kept) if pl.kept is not None else None,
            discarded=[self.uid(c) for c in pl.hand],
        )
        pl.hand = []

    def art_modifier_now(self, p: int) -> int:
        """Σ ``artifact_cost_modifier`` of the seat's sources active when the phase began:
        old units (not placed this phase) and building faces (§2.4, K5)."""
        r = self.rules
        pl = self.players[p]
        total = 0
        for sl in pl.spots:
            if sl is not None and not sl.fresh:
                total += sum(a.amount for a in r.unit(sl.card).abilities if _is_k5(a))
        for b in self.bset:
            total += sum(a.amount for a in r.face_abilities(b, pl.blevel[b]) if _is_k5(a))
        return total

    def payment_order(self, p: int, extra: int | None = None) -> list[tuple[int, int, int | None]]:
        """The canonical payment of the cards placed this phase (+ ``extra``, a hand card
        as if placed): (card, spot or -1 for an artifact, cost), paid one after another:
        (a) negative-cost units, (b) units with an artifact discount, (c) the other units,
        each group in spot order, (d) artifacts in placement order, costing max(floor, base
        + step x zone + discounts) at their turn; cost None = cannot be paid (discarded)."""
        r = self.rules
        pl = self.players[p]
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
        modifier = self.art_modifier_now(p)
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

    def placement_cost(self, p: int, card: int) -> int:
        """What placing hand card ``card`` now adds to this phase's payment (its printed
        cost for a unit; for an artifact its cost at its turn, discounts included)."""
        if not self.rules.is_artifact(card):
            return self.rules.cost(card)
        cost = next(c for cd, _, c in self.payment_order(p, card) if cd == card)
        if cost is None:  # unaffordable now: what it would cost with enough gold
            pl = self.players[p]
            in_zone = sum(1 for z in pl.zone if z.paid)
            return self.rules.art_cost(in_zone, self.art_modifier_now(p))
        return cost

    def paid_total(self, p: int, extra: int | None = None, replace: int = -1) -> int | None:
        """Gold the canonical payment takes (None: some card could not be paid), with
        ``extra`` placed, replacing the old unit on spot ``replace`` (>= 0)."""
        pl = self.players[p]
        if replace >= 0:
            old = pl.spots[replace]
            pl.spots[replace] = None
            try:
                return self.paid_total(p, extra)
            finally:
                pl.spots[replace] = old
        total = 0
        for _, _, cost in self.payment_order(p, extra):
            if cost is None:
                return None
            total += cost
        return total

    def places_legends(
        self, p: int, i: int, card: int, first_empty: list[int], old: list[int]
    ) -> list[Move]:
        """Legends PLACE options of hand card ``i`` (in ``moves``): offered only if
        everything placed stays payable with it in the canonical order (``payment_order``;
        placed on an old unit, without that unit); an artifact gives one option
        ``place_artifact`` (it has no spot)."""
        if self.rules.is_artifact(card):
            return [Move("place_artifact", i)] if self.paid_total(p, card) is not None else []
        out = []
        if self.paid_total(p, card) is not None:
            out += [Move("place", i, s) for s in first_empty if s >= 0]
        return out + [Move("place", i, s) for s in old if self.paid_total(p, card, s) is not None]

    def after_move_legends(self, p: int, m: Move) -> Sketch:
        """Legends ``after_move``: the sketch with the step applied and the gold left after
        the canonical payment of everything placed (the artifact in the zone, pending)."""
        pl = self.players[p]
        sk = self.brain.sketch(p)
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
            sk.pieces.append(Piece(m.b, self.rules.unit_of[extra], 0, pending=True, fresh=True))
            sk.pieces.sort(key=lambda pc: pc.spot)
        elif m.kind == "place_artifact":
            extra = pl.hand[m.a]
            sk.arts.append(Art(self.rules.artifact_of(extra), pending=True, fresh=True))
        # a replaced or removed old unit leaves before payment: its discount goes with it
        replace = m.b if m.kind == "place" and pl.spots[m.b] is not None else -1
        if m.kind == "remove":
            replace = m.a
        paid = self.paid_total(p, extra, replace)
        assert paid is not None
        sk.gold -= paid
        return sk

    def pay_legends(self, p: int) -> None:
        """§2.4 step 3: pay the placed cards in the canonical order (``payment_order``);
        a card that cannot be paid is discarded (fate ``unpaid``; an artifact leaves the
        zone). Negative costs give their gold at once."""
        r = self.rules
        pl = self.players[p]
        for card, s, cost in self.payment_order(p):
            log = pl.log[card]
            if cost is None:
                self.emit("unpaid", seat=p, unit=self.uid(card))
                if s >= 0:
                    self.kill(p, s, "unpaid")
                else:
                    pl.zone = [z for z in pl.zone if z.card != card]
                    self.to_discard(card)
                    log.fate = "unpaid"
                continue
            pl.gold -= cost
            log.deployed, log.turn_deployed = True, self.turn
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
            self.emit("pay", seat=p, unit=self.uid(card), spot=s, cost=cost, gold=pl.gold)
        assert r.legends

    def simultaneity_order(self, seats: list[int]) -> list[int]:
        """§2.8: most LP first, then gold (``simultaneity_gold``: more or less first), then
        random: one draw ``below(k)`` picks the first of the k still tied, repeated on the
        rest (k - 1 draws)."""
        more = self.rules.o["simultaneity_gold"] == "more"

        def key(p: int) -> tuple[int, int]:
            pl = self.players[p]
            return (-pl.lp, -pl.gold if more else pl.gold)

        out: list[int] = []
        for k in sorted({key(p) for p in seats}):
            tied = [p for p in seats if key(p) == k]
            while len(tied) > 1:
                out.append(tied.pop(self.rng.below(len(tied))))
            out += tied
        return out

    def tiers(self) -> None:
        """§2.5: tier 0 (Shapeshifter) for every seat in simultaneity order, then seat by
        seat tiers 1a-4b (``resolve_tier``), then every seat's tier 5 (deployment 'lp',
        Kraken), then each seat's LP step is settled and the phase's flags cleared."""
        r = self.rules
        shifting = [
            p
            for p, pl in enumerate(self.players)
            if any(
                sl is not None
                and sl.fresh
                and any(_tier(a) == Tier.REPLACE for a in r.unit(sl.card).abilities)
                for sl in pl.spots
            )
        ]
        order = self.simultaneity_order(shifting) if len(shifting) > 1 else shifting
        for p in order:
            for s in range(MAX_SPOTS):
                sl = self.players[p].spots[s]
                if sl is None or not sl.fresh or sl.done >= Tier.REPLACE:
                    continue
                sl.done = Tier.REPLACE
                for a in r.unit(sl.card).abilities:
                    if _tier(a) == Tier.REPLACE:
                        self.shapeshift_legends(p, s, a)
                        break
        self.pending_lp = []
        for p in range(self.n):
            copies: list[tuple[tuple[str, int], int, int]] = []  # (copier, target spot, times)
            for tier in (Tier.ENTER, Tier.COPY, Tier.LEVELS, Tier.AGE, Tier.COUNT):
                self.resolve_tier(p, tier, copies)
            self.every_turn(p)
            self.resolve_tier(p, Tier.PENALTY, copies)
        self.close_deployment()

    def sources(self, p: int) -> list[tuple[tuple[str, int], tuple[Ability, ...], int]]:
        """The seat's on-deploy sources in tier order: units on spots 0..4 placed (or
        revealed) this phase, then artifacts entered this phase in zone order, as
        (key, abilities, the spot that "self" means or -1)."""
        r = self.rules
        pl = self.players[p]
        out: list[tuple[tuple[str, int], tuple[Ability, ...], int]] = []
        for s, sl in enumerate(pl.spots):
            if sl is not None and sl.fresh and not sl.skip_deploy:
                out.append((("unit", sl.card), r.unit(sl.card).abilities, s))
        for z in pl.zone:
            if z.fresh and z.paid:
                out.append((("art", z.card), r.artifacts[z.x].abilities, -1))
        return out

    def resolve_tier(
        self, p: int, tier: Tier, copies: list[tuple[tuple[str, int], int, int]]
    ) -> None:
        """One tier for seat ``p``: each source's on-deploy abilities of that tier (data
        order), then the copies it carries (the target's abilities of that tier, acting as
        the target). A card entering during this tier (a Jester's artifact) acts from the
        next tier on."""
        pl = self.players[p]
        for key, abilities, s in self.sources(p):
            if key[0] == "unit":
                if self.find_spot(p, key[1]) != s:
                    continue  # gone meanwhile
                sl = self.slot(p, s)
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
                    self.run_deploy(p, s, a, key, copies)
            for copier, target, times in copies:
                if copier != key or tier == Tier.ENTER:
                    continue
                self.run_copy(p, target, tier, times, copies)

    def run_copy(
        self,
        p: int,
        target_card: int,
        tier: Tier,
        times: int,
        copies: list[tuple[tuple[str, int], int, int]],
    ) -> None:
        """The on-deploy abilities of tier ``tier`` of the copied unit ``target_card``,
        ``times`` more, acting as that unit (it must still be in play)."""
        s = self.find_spot(p, target_card)
        if s < 0:
            return
        for _ in range(times):
            for a in self.rules.unit(target_card).abilities:
                if a.on_deploy and _tier(a) == tier and a.kind != "repeat_deploy_abilities":
                    self.run_deploy(p, s, a, ("unit", target_card), copies)

    def find_spot(self, p: int, card: int) -> int:
        for s, sl in enumerate(self.players[p].spots):
            if sl is not None and sl.card == card:
                return s
        return -1

    def run_deploy(
        self,
        p: int,
        s: int,
        a: Ability,
        key: tuple[str, int],
        copies: list[tuple[tuple[str, int], int, int]],
    ) -> None:
        """One on-deploy ability of seat ``p`` acting as the unit on spot ``s`` (-1: an
        artifact)."""
        if a.kind == "deploy_artifact_from_hand":
            self.jester(p, a)
        elif a.kind == "build_free":
            self.build_free(p, a)
        elif a.kind == "repeat_deploy_abilities":
            self.copy(p, a, key, copies)
        elif a.kind == "upgrade_buildings":
            self.upgrade_all(p)
        elif a.kind == "add_age":
            self.add_age_legends(p, s, a)
        elif a.kind == "conditional_gain":
            self.deploy_gain(p, s, a)
        elif a.kind == "lp":
            self.pending_lp.append((p, s, a))

    def every_turn(self, p: int) -> None:
        """Every unit's deployment abilities that are not on-deploy (Master Alchemist),
        spot order: after the on-deploy abilities (base), tier 4b (Legends)."""
        for s in range(MAX_SPOTS):
            sl = self.players[p].spots[s]
            if sl is None:
                continue
            for a in self.rules.unit(sl.card).abilities:
                if a.phase == "deployment" and not a.on_deploy and a.kind == "add_age":
                    self.add_age(p, s, a)

    def jester(self, p: int, a: Ability) -> None:
        """K1: up to ``count`` times, the seat may put an artifact from its hand into the
        zone for ``cost`` gold (decision ``Brain.jester``; none in hand: no decision)."""
        pl = self.players[p]
        for _ in range(a.count):
            cards = [c for c in pl.hand if self.rules.is_artifact(c)] if a.cost <= pl.gold else []
            if not cards:
                return
            assert 1 + len(cards) <= MAX_JESTER_OPTIONS
            k = self.brain.jester(p, cards, a.cost)
            if not k:
                return
            card = cards[k - 1]
            pl.hand.remove(card)
            pl.gold -= a.cost
            pl.artifact_gold += a.cost
            pl.zone.append(
                ZoneCard(card, self.rules.artifact_of(card), fresh=True, entered=Tier.ENTER)
            )
            log = pl.log[card]
            log.deployed, log.turn_deployed, log.fate, log.row = True, self.turn, "in_zone", ZONE
            log.deploy_cost, log.how_deployed = a.cost, "jester"
            self.emit("jester", seat=p, artifact=self.uid(card), cost=a.cost)

    def build_free(self, p: int, a: Ability) -> None:
        """K3: one unbuilt building of the game's set (decision ``Brain.titan``, forced
        when one) is built at ``level``, free; not the Construction action."""
        pl = self.players[p]
        options = [b for b in self.bset if pl.blevel[b] == 0]
        if not options:
            return
        assert len(options) <= MAX_TITAN_OPTIONS
        b = options[self.brain.titan(p, options, a.level)]
        pl.blevel[b] = a.level
        log = pl.buildings[b]
        log.level, log.turn_built, log.how = a.level, self.turn, "titan"
        if a.level == 2:
            log.turn_upgraded = self.turn
        self.emit("titan", seat=p, building=self.rules.buildings[b].id, level=a.level)

    def copy(
        self,
        p: int,
        a: Ability,
        key: tuple[str, int],
        copies: list[tuple[tuple[str, int], int, int]],
    ) -> None:
        """K2: the seat may pick a unit placed or revealed this phase that carries no K2
        (decision ``Brain.copy_target``); its tier-1a abilities resolve again at once, the
        later tiers' at the copier's position (``resolve_tier``)."""
        r = self.rules
        pl = self.players[p]
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
        k = self.brain.copy_target(p, spots)
        if not k:
            return
        target = self.slot(p, spots[k - 1]).card
        copies.append((key, target, a.times))
        self.emit("copy", seat=p, unit=self.uid(key[1]), target=self.uid(target))
        self.run_copy(p, target, Tier.ENTER, a.times, copies)

    def add_age_legends(self, p: int, s: int, a: Ability) -> None:
        """``add_age`` at tier 3: as ``add_age``; an artifact's ``all`` targets every unit
        of the owner (an artifact is never a target)."""
        if s >= 0:
            self.add_age(p, s, a)
            return
        pl = self.players[p]
        pieces = pl.pieces(self.rules)
        prod = production(self.rules, pieces, pl.blevel, pl.arts())
        facts = base_facts(pieces, pl.blevel, self.rules, pl.arts())
        amount = a.amount * per_value(a.per, None, prod, facts, a)
        if amount <= 0 or not pieces:
            return
        if a.target == "one":
            spots = [pc.spot for pc in pieces]
            targets = [spots[self.brain.age_target(p, spots, amount)]]
        else:
            targets = [pc.spot for pc in pieces]
        for t in targets:
            sl = self.slot(p, t)
            sl.age = min(MAX_AGE, sl.age + amount)
        self.emit(
            "age",
            seat=p,
            unit="artifact",
            amount=amount,
            targets=[self.uid(self.slot(p, t).card) for t in targets],
        )

    def deploy_gain(self, p: int, s: int, a: Ability) -> None:
        """K4 on deploy (tier 4a): if the conditions hold now, gold at once (too late for
        this phase's payments) and LP booked as ``deployment``."""
        pl = self.players[p]
        pieces = pl.pieces(self.rules)
        me = next((pc for pc in pieces if pc.spot == s), None)
        prod = production(self.rules, pieces, pl.blevel, pl.arts())
        facts = base_facts(pieces, pl.blevel, self.rules, pl.arts())
        if not gain_holds(self.rules, a, me, prod, facts):
            return
        pl.gold += a.gold
        self.score(p, "deployment", a.lp)
        self.emit("gain", seat=p, gold=a.gold, lp=a.lp)

    def shapeshift_legends(self, p: int, s: int, a: Ability) -> None:
        """Tier 0: as ``shapeshift``; the revealed unit's on-deploy abilities resolve in
        tiers 1-5 of this phase (``shapeshift_on_deploy``)."""
        found = self.shapeshift_reveal(p, s, a)
        if found is None:
            return
        skip = not self.rules.o["shapeshift_on_deploy"]
        self.players[p].spots[s] = Slot(
            found, age=a.age, fresh=True, resolved=False, done=Tier.REPLACE, skip_deploy=skip
        )

    # -- §2.3 Wars
    def wars(self) -> None:
        self.phase = "wars"
        a = [self.assessment(p) for p in range(self.n)]
        for p, pl in enumerate(self.players):
            theirs = [a[q].strength for q in self.rules.neighbours(p)]
            won, lp = fight(self.rules, a[p].strength, theirs)
            pieces = pl.pieces(self.rules)
            parts, gold = war_phase_lp(self.rules, pieces, pl.blevel, a[p], won, pl.arts())
            pl.wars_won += won
            self.score(p, "wars", lp)
            for k, v in parts.items():
                self.score(p, k, v)
            pl.gold += gold
            self.settle(p)
            self.emit(
                "wars",
                seat=p,
                strength=a[p].strength,
                against=theirs,
                won=won,
                lp=lp + sum(parts.values()),
                gold=gold,
            )

    # -- §2.4 Income
    def income(self) -> None:
        self.phase = "income"
        for p, pl in enumerate(self.players):
            gain = self.assessment(p).income
            pl.gold += gain
            self.emit("income", seat=p, gold=gain, total=pl.gold)

    # -- §2.5 Construction
    def payment(self, p: int, b: int, level: int, upgrade: bool) -> int | None:
        """Cheapest gold payment for building ``b`` to ``level`` (None: impossible).

        Gold = land cost (new buildings: ``land_cost_per_building`` x buildings owned;
        none with ``no_land_cost``; upgrades only with ``land_cost_on_upgrade``) + for each
        level paid, either its resources (never consumed) or its ``gold_instead`` (Temple),
        + 1 G per missing resource when a ``gold_for_resource`` ability covers it (Wood
        Merchant: wood; Grand Architect: any). Levels paid: upgrade -> 2; new -> 1, or 1
        and 2 (direct level 2: resources summed, or their maximum, ``direct_level2_
        requirement``). Choices tried: bit k of c (c = 0, 1, ...) = level k pays gold; the
        first cheapest wins. Whether the seat holds that much gold is not checked here."""
        r = self.rules
        pl = self.players[p]
        pieces = pl.pieces(r)
        prod = production(r, pieces, pl.blevel, pl.arts())
        abilities = [a for pc in pieces for a in r.units[pc.unit].abilities]
        if r.legends:  # land discounts and substitutions of building faces and artifacts
            abilities += [a for b in self.bset for a in r.face_abilities(b, pl.blevel[b])]
            abilities += [a for x in pl.arts() for a in r.artifacts[x].abilities]
        land_abilities = [a for a in abilities if a.kind == "no_land_cost"]
        free_land = any(a.discount == 0 for a in land_abilities)
        discount = sum(a.discount for a in land_abilities)
        subst = {res for a in abilities if a.kind == "gold_for_resource" for res in a.resources}
        owned = sum(1 for lv in pl.blevel if lv)
        land = 0
        if not free_land and (not upgrade or r.o["land_cost_on_upgrade"]):
            land = max(0, r.o["land_cost_per_building"] * owned - discount)
        levels = [r.buildings[b].levels[k] for k in ((1,) if upgrade else range(level))]
        best = None
        for c in range(1 << len(levels)):
            gold = land
            need = [0] * N_RES
            ok = True
            for k, face in enumerate(levels):
                if c >> k & 1:
                    if face.gold_instead is None:
                        ok = False
                    else:
                        gold += face.gold_instead
                    continue
                for res in range(N_RES):
                    if r.o["direct_level2_requirement"] == "sum":
                        need[res] += face.requires[res]
                    else:
                        need[res] = max(need[res], face.requires[res])
            if not ok:
                continue
            for res, name in enumerate(("wood", "food", "crystal")):
                missing = max(0, need[res] - prod[res])
                if missing and name not in subst:
                    ok = False
                gold += missing
            if ok and (best is None or gold < best):
                best = gold
        return best

    def build_options(self, p: int) -> list[Build]:
        pl = self.players[p]
        out = []
        for b in self.bset:
            lv = pl.blevel[b]
            for level, upgrade in ((1, False), (2, False)) if lv == 0 else ((2, True),):
                if lv == 2:
                    continue
                gold = self.payment(p, b, level, upgrade)
                if gold is not None and gold <= pl.gold:
                    out.append(Build(b, level, upgrade, gold))
        return out

    def construction(self) -> None:
        self.phase = "construction"
        self.freeze_strengths()
        for p, pl in enumerate(self.players):
            options = self.build_options(p)
            bound = MAX_BUILD_OPTIONS_LEGENDS if self.rules.legends else MAX_BUILD_OPTIONS
            assert 1 + len(options) <= bound
            k = self.brain.build(p, options)
            if not k:
                continue
            o = options[k - 1]
            pl.gold -= o.gold
            assert pl.gold >= 0
            pl.blevel[o.b] = o.level
            log = pl.buildings[o.b]
            log.level = o.level
            if not o.upgrade:
                log.turn_built = self.turn
            if o.level == 2:
                log.turn_upgraded = self.turn
            log.how = "build" if o.level == 1 or o.upgrade else "direct"
            self.emit(
                "build",
                seat=p,
                building=self.rules.buildings[o.b].id,
                level=o.level,
                upgrade=o.upgrade,
                gold=o.gold,
            )

    # -- §2.6 Aging
    def aging(self) -> None:
        """§8 order: Healer choices -> death abilities -> discard -> +1 token to survivors
        (saved units included when ``healed_units_age``)."""
        r = self.rules
        self.phase = "aging"
        self.freeze_strengths()
        for p, pl in enumerate(self.players):
            pieces = pl.pieces(r)
            dying = {pc.spot for pc in pieces if dies(r, pc)}
            saved: list[int] = []
            savers = [a for pc in pieces for a in r.units[pc.unit].abilities]
            if r.legends:  # then building faces (Abbey L1), then artifacts (Phial of Life)
                savers += [a for b in self.bset for a in r.face_abilities(b, pl.blevel[b])]
                savers += [a for x in pl.arts() for a in r.artifacts[x].abilities]
            for a in savers:
                if a.kind == "heal":
                    saveable = [
                        x.spot
                        for x in pieces
                        if x.spot in dying and x.spot not in saved and x.age == a.age
                    ]
                    if saveable:
                        k = self.brain.heal(p, saveable)
                        if k:
                            saved.append(saveable[k - 1])
            dead = [pc for pc in pieces if pc.spot in dying and pc.spot not in saved]
            lp, gold = self.death_abilities(p, [pc.spot for pc in dead])
            for pc in dead:
                pl.log[self.slot(p, pc.spot).card].died_in_aging = True
                self.kill(p, pc.spot, "died")
            for s, sl in enumerate(pl.spots):
                if sl is None or (s in saved and not r.o["healed_units_age"]):
                    continue
                sl.age += 1
                assert sl.age <= MAX_AGE
                pl.log[sl.card].turns_survived += 1
            for z in pl.zone:  # artifacts never age and never leave (§2.3)
                pl.log[z.card].turns_survived += 1
            self.settle(p)
            self.emit(
                "aging",
                seat=p,
                saved=[self.uid(self.slot(p, s).card) for s in saved],
                died=[r.units[pc.unit].id for pc in dead],
                lp=lp,
                gold=gold,
            )

    def death_abilities(self, p: int, spots: list[int]) -> tuple[int, int]:
        """The death abilities of seat ``p``'s units on ``spots`` (about to be discarded):
        LP booked as ``aging``, gold gained at once. Returns (LP, gold)."""
        pl = self.players[p]
        pieces = pl.pieces(self.rules)
        dead = [pc for pc in pieces if pc.spot in spots]
        prod = production(self.rules, pieces, pl.blevel, pl.arts())
        lp, gold = death_rewards(self.rules, pieces, pl.blevel, dead, prod)
        self.score(p, "aging", lp)
        pl.gold += gold
        return lp, gold

    # -- §2.7 End
    def end(self) -> None:
        self.phase = "end"
        for p, pl in enumerate(self.players):
            pieces = pl.pieces(self.rules)
            a = assess(self.rules, pieces, pl.blevel, pl.arts())
            for k, v in end_lp(self.rules, pieces, pl.blevel, a, pl.arts()).items():
                self.score(p, k, v)
            self.settle(p)
        win = self.winners()
        for p in win:
            self.players[p].win = 1.0 / len(win)
        self.over = True
        self.emit(
            "final",
            scores=[pl.lp for pl in self.players],
            gold=[pl.gold for pl in self.players],
            breakdown=[dict(pl.parts) for pl in self.players],
            winners=win,
        )

    def winners(self) -> list[int]:
        return winners([pl.lp for pl in self.players], [pl.gold for pl in self.players])

    # -- the whole game
    def setup(self) -> None:
        r = self.rules
        self.deck = list(range(len(r.unit_of)))
        self.rng.shuffle(self.deck)
        if r.legends:
            # LEGENDS.md §B.1 step 2: always drawn (a fixed pair ignores it), after the deck
            drawn = self.rng.below(len(r.pairs))
            self.pair = drawn if r.fixed_pair < 0 else r.fixed_pair
            self.bset = r.cards.building_set(self.pair)
            assert len(self.bset) <= MAX_GAME_BUILDINGS
        self.emit(
            "setup",
            players=self.n,
            gold=r.o["start_gold"],
            **({"buildings": [r.buildings[b].id for b in self.bset]} if r.legends else {}),
        )

    PHASES = ("recruitment", "deployment", "wars", "income", "construction", "aging")

    def run(self, check: bool = False) -> Game:
        self.setup()
        if check:
            self.check_invariants()
        for turn in range(1, self.rules.turns + 1):
            self.turn = turn
            for phase in self.PHASES:
                getattr(self, phase)()
                if check:
                    self.check_invariants()
        self.end()
        if check:
            self.check_invariants()
        return self

    # -- invariants (tests)
    def card_places(self) -> list[int]:
        """Every card id wherever it is (draw pile, discard, packs, hands, kept, spots)."""
        out = list(self.deck) + list(self.discard)
        for p, pl in enumerate(self.players):
            out += self.packs[p] + pl.hand + ([pl.kept] if pl.kept is not None else [])
            out += [sl.card for sl in pl.spots if sl is not None]
            out += [z.card for z in pl.zone]
        return out

    def check_invariants(self) -> None:
        r = self.rules
        assert sorted(self.card_places()) == list(range(len(r.unit_of))), "card conservation"
        for p, pl in enumerate(self.players):
            assert pl.gold >= 0, f"seat {p} gold {pl.gold}"
            assert pl.lp >= r.floor
            assert pl.step_lp == 0
            assert sum(pl.parts.values()) == pl.lp, "score equals its breakdown"
            assert pl.parts["floor"] >= 0
            for s, sl in enumerate(pl.spots):
                if sl is None:
                    continue
                assert 0 <= sl.age <= MAX_AGE
                assert s in r.front_spots or s in r.back_spots or s == EXTRA_SPOT
            assert all(0 <= lv <= 2 for lv in pl.blevel)
            if pl.spots[EXTRA_SPOT] is not None:
                assert r.opens_extra_spot(pl.blevel)
            assert all(pl.blevel[b] == 0 for b in range(len(pl.blevel)) if b not in self.bset)
            for z in pl.zone:
                assert r.is_artifact(z.card)
                if self.phase != "deployment":
                    assert z.paid
                    assert not z.fresh
            for sl in pl.spots:
                assert sl is None or not r.is_artifact(sl.card)


CARD_FIELDS = (
    "unit", "turn", "pick", "deployed", "turn_deployed", "row", "turns_survived",
    "died_in_aging", "fate",
)  # fmt: skip
# Legends records (LEGENDS.md §F): "unit" is the card id (a unit or an artifact), then
LEGENDS_CARD_FIELDS = (*CARD_FIELDS, "kind", "deploy_cost", "how_deployed")
BUILDING_FIELDS = ("building", "level", "turn_built", "turn_upgraded", "how")


def play_reference(
    rules: Rules,
    weights: np.ndarray,
    seat_policies: list[int],
    seed: int,
    game_id: int,
    record: bool = False,
    check: bool = False,
    trace: bool = False,
    lweights: np.ndarray | None = None,
) -> Game:
    """Play one game with the readable rules (``record``: events; ``check``: invariants at
    every phase boundary; ``trace``: every decision in ``Game.trace``; ``lweights``: the
    Legends feature weights, default ``policies.legends_weights()``)."""
    return Game(rules, weights, seat_policies, seed, game_id, record, trace, lweights).run(check)


def final_state(game: Game) -> dict[str, Any]:
    """What the dataset needs from a finished game (golden files, kernel comparison).

    Per seat: ``score`` (the marker), ``breakdown`` (``BREAKDOWN`` order, sums to
    ``score``; ``floor`` = LP given back by the score floor), the summary ``war_lp`` /
    ``ability_lp`` / ``building_lp`` / ``relic_lp``, ``gold`` left, ``wars_won``, ``win``
    (1/k for k tied winners). Per card a seat received (in the order received): unit,
    turn, pick (0: Shapeshifter), deployed, turn deployed, row, turns survived, died in
    aging, fate. Per (seat, building): level, turn built, turn upgraded, how."""
    r = game.rules
    seats = []
    for pl in game.players:
        seats.append(
            {
                "policy": pl.policy,
                "score": pl.lp,
                "breakdown": [pl.parts[k] for k in r.breakdown],
                "war_lp": pl.parts["wars"] + pl.parts["war_buildings"],
                "ability_lp": sum(pl.parts[k] for k in ABILITY_PARTS),
                "building_lp": pl.parts["buildings"],
                "relic_lp": pl.parts["relic"],
                "floor_lp": pl.parts["floor"],
                "gold": pl.gold,
                "wars_won": pl.wars_won,
                "win": pl.win,
                "cards": [[getattr(c, f) for f in r.card_fields] for c in pl.logs],
                "buildings": [
                    [r.buildings[b].id, bl.level, bl.turn_built, bl.turn_upgraded, bl.how]
                    for b, bl in ((b, pl.buildings[b]) for b in game.bset)
                ],
                "kingdom": [
                    [game.uid(sl.card), sl.age] if sl is not None else None for sl in pl.spots
                ],
            }
        )
        if r.legends:
            seats[-1]["artifacts"] = [game.uid(z.card) for z in pl.zone]
            seats[-1]["artifacts_in_zone"] = len(pl.zone)
            seats[-1]["artifact_gold"] = pl.artifact_gold
            seats[-1]["artifact_lp"] = pl.parts["artifacts"] + pl.parts["war_artifacts"]
    out: dict[str, Any] = {
        "turns": game.turn,
        "reshuffles": game.reshuffles,
        "scores": [pl.lp for pl in game.players],
        "winners": game.winners(),
        "seats": seats,
    }
    if r.legends:
        out["building_pool"] = "+".join(r.buildings[b].id for b in r.pairs[game.pair])
    return out
