"""Paper Tales in plain Python: the executable rulebook (reference §1-§4, §2.9, §8).

Readable, object-based and slow. It is the oracle the numba kernel must match game for
game: same card data (``cards.toml``), same options (``rules.toml``), same random stream,
same decisions. Cards are physical card ids ``0..N-1`` (``tables.compile_tables().deck``
order: one id per copy, units in file order); ``Rules.unit_of[card]`` is the unit index.

A game: setup (shuffle, 3 gold each), then ``turns`` x [Recruitment, Deployment, Wars,
Income, Construction, Aging], then End. Seats act "simultaneously"; the engine resolves
them in seat order 0, 1, ... wherever an order could matter (§2.8: the only shared object
is the draw pile, used by the deal and by the Shapeshifter; a base deck has one
Shapeshifter, so no two seats ever reveal in the same phase).

Phases as implemented (each a ``Game`` method of the same name)
------------------------------------------------------------------------------
  recruitment   deal, draft steps until the packs are empty (pass to seat + direction:
                ``Rules.direction``), then hand = drafted cards (pick order) + last turn's
                kept card.
  deployment    seat by seat, the policy's placement steps then its keep choice (the rest
                of the hand is discarded); then ``reveal``: every seat pays (``pay``:
                negative costs first, then spot order; an unpaid unit is discarded), then
                seat by seat the new units' on-deploy abilities in spot order (``on_deploy``;
                a Shapeshifter's revealed unit resolves its own at once), then the seat's
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
               6. seat 0 first, spots 0..4: each new unit's on-deploy abilities in
                  ability order: ``add_age`` on ``one`` unit (Time Master) draws
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
them: 2-player draft discards (step by step, seat order); in Deployment, a replaced unit at
its PLACE step, then the seat's unkept hand cards in hand order (seat by seat), then
unpaid units (seat order, payment order), then a Shapeshifter and the cards it reveals
and rejects (in reveal order); in Aging, dead units (seat order, spot order).

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
                      MOVE it to the first empty spot of the other row
                  Front spots in order: 0, 1, then the extra spot 2 when the seat owns a
                  building showing an ``extra_front_spot`` face at the start of the phase
                  (a Golem's upgrade opens it next turn); Back: 3, 4. Units placed this
                  phase are never moved or replaced; an old unit moves at most once per
                  phase. So a seat takes at most 6 + 5 steps besides STOP
                  (``MAX_DEPLOY_STEPS``), and a step has at most 1 + 6 x (2 + 5) + 5 = 48
                  options (``MAX_DEPLOY_OPTIONS``).
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
game makes about 1,270 evaluations (draft ~400, deployment ~700, keep ~90, construction
~70, age targets ~10).

LP and the score floor
----------------------
LP arrive in steps: a seat's deployment LP (Kraken), its wars, its aging, the end. After
each step the marker is ``max(score_floor, marker + step total)`` (§2.7: a score never
goes below 0); what the floor gives back is booked as the ``floor`` part, so the LP
breakdown (``BREAKDOWN``) always sums to the marker.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simcore.rng import GameRng

from .policies import (
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
    MARGIN_CAP,
    N_FEATURES,
    N_WEIGHTS,
    W_SAVE_STRENGTH,
    W_UNAFFORDABLE,
    Policy,
)
from .tables import (
    BACK_ROW,
    FRONT_ROW,
    MAX_AGE,
    MAX_BUILD_OPTIONS,
    MAX_DEPLOY_OPTIONS,
    MAX_DEPLOY_STEPS,
    MAX_FRONT,
    MAX_HAND,
    MAX_PLAYERS,
    MAX_SPOTS,
    MIN_PLAYERS,
    N_RES,
    Ability,
    CardSet,
    Unit,
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
        self.unit_of = [u for u, unit in enumerate(cards.units) for _ in range(unit.copies)]
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

    def direction(self, turn: int) -> int:
        """+1: pass to seat+1. Turn 1 goes ``first_draft_direction``, then it alternates."""
        first = 1 if self.o["first_draft_direction"] == "next" else -1
        return first if turn % 2 == 1 else -first

    def neighbours(self, p: int) -> list[int]:
        """Seats seat ``p`` fights: both neighbours; 2 players: the opponent once."""
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


def per_value(per: str, piece: Piece | None, prod: list[int], facts: dict[str, int]) -> int:
    """Multiplier ``per``; ``facts`` holds what the phase knows (age_all, income, ...)."""
    if per == "one":
        return 1
    if per == "age_self":
        return piece.age if piece else 0
    if per in ("wood", "food", "crystal"):
        return prod[("wood", "food", "crystal").index(per)]
    return facts[per]  # age_kingdom, income_gold, level2_buildings, strong_units


def base_facts(pieces: list[Piece], blevel: list[int]) -> dict[str, int]:
    """The kingdom-wide multipliers known in every phase: tokens on all units, level-2
    buildings (``income_gold`` and ``strong_units`` are added in the war phase)."""
    return {
        "age_kingdom": sum(pc.age for pc in pieces),
        "level2_buildings": sum(1 for lv in blevel if lv == 2),
    }


def production(rules: Rules, pieces: list[Piece], blevel: list[int]) -> list[int]:
    """Resources produced: units (gated by their own tokens/row) + building faces."""
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
    return prod


def assess(rules: Rules, pieces: list[Piece], blevel: list[int]) -> Assessment:
    """§2.2-§2.4 for one kingdom: production -> income -> unit strengths -> kingdom strength.

    Unit strength: printed; then ``set_strength``; then ``add_strength``; then
    ``cannot_fight`` -> 0. Back-row units fight only with ``fight_from_back``. Building
    ``add_strength`` (Barracks L1) adds to the total only."""
    prod = production(rules, pieces, blevel)
    facts = base_facts(pieces, blevel)
    inc_u = 0
    for pc in pieces:
        for a in rules.units[pc.unit].abilities:
            if a.phase == "income" and a.kind == "gold" and when_holds(a.when, pc, prod):
                inc_u += a.amount * per_value(a.per, pc, prod, facts)
    inc_b = 0
    for b, lv in enumerate(blevel):
        for a in rules.face_abilities(b, lv):
            if a.phase == "income" and a.kind == "gold" and when_holds(a.when, None, prod):
                inc_b += a.amount * per_value(a.per, None, prod, facts)
    income = rules.o["base_income"] + inc_u + inc_b
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
                value += a.amount * per_value(a.per, pc, prod, facts)
        for a in abil:
            if a.kind == "cannot_fight" and when_holds(a.when, pc, prod):
                value = 0
        strengths.append(value)
        if pc.front or any(a.kind == "fight_from_back" for a in abil):
            total += value
    for b, lv in enumerate(blevel):
        for a in rules.face_abilities(b, lv):
            if a.kind == "add_strength":
                total += a.amount * per_value(a.per, None, prod, facts)
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
    rules: Rules, pieces: list[Piece], blevel: list[int], a: Assessment, won: int
) -> tuple[dict[str, int], int]:
    """LP parts (``per_war_won``, ``war_units``, ``war_buildings``) and war gold (Rogue).

    Per-war-won abilities count the wars won (2 players: ``per_war_won_times`` on a win)
    from either row (``per_war_won_rows``); war-phase ``lp`` scores whether or not a war
    was won."""
    pww = won
    if rules.two_player and won:
        pww = rules.two.per_war_won_times
    facts = {
        "age_kingdom": a.age_all,
        "income_gold": a.income,
        "level2_buildings": a.n_level2,
        "strong_units": a.n_strong,
    }
    parts = {"per_war_won": 0, "war_units": 0, "war_buildings": 0}
    gold = 0
    front_only = rules.o["per_war_won_rows"] == "front"
    for pc in pieces:
        counts = pc.front or not front_only
        for ab in rules.units[pc.unit].abilities:
            mult = per_value(ab.per, pc, a.prod, facts)
            if ab.kind == "lp_per_war_won" and counts:
                parts["per_war_won"] += ab.amount * mult * pww
            elif ab.kind == "gold_per_war_won" and counts:
                gold += ab.amount * pww
            elif ab.kind == "lp" and ab.phase == "war" and when_holds(ab.when, pc, a.prod):
                parts["war_units"] += ab.amount * mult
    for b, lv in enumerate(blevel):
        for ab in rules.face_abilities(b, lv):
            if ab.kind == "lp" and ab.phase == "war" and when_holds(ab.when, None, a.prod):
                parts["war_buildings"] += ab.amount * per_value(ab.per, None, a.prod, facts)
    return parts, gold


def end_lp(rules: Rules, pieces: list[Piece], blevel: list[int], a: Assessment) -> dict[str, int]:
    """§2.7: each building's current face LP (+ end-phase building 'lp') and the end-phase
    'lp' of units (Relic of Wisdom: 2 per token)."""
    facts = {"age_kingdom": a.age_all, "level2_buildings": a.n_level2}
    out = {"buildings": 0, "relic": 0}
    for b, lv in enumerate(blevel):
        if lv:
            out["buildings"] += rules.buildings[b].levels[lv - 1].lp
        for ab in rules.face_abilities(b, lv):
            if ab.kind == "lp" and ab.phase == "end" and when_holds(ab.when, None, a.prod):
                out["buildings"] += ab.amount * per_value(ab.per, None, a.prod, facts)
    for pc in pieces:
        for ab in rules.units[pc.unit].abilities:
            if ab.kind == "lp" and ab.phase == "end" and when_holds(ab.when, pc, a.prod):
                out["relic"] += ab.amount * per_value(ab.per, pc, a.prod, facts)
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


# --- game objects --------------------------------------------------------------------------


@dataclass
class Slot:
    """A unit card on a kingdom spot."""

    card: int
    age: int = 0
    fresh: bool = False  # placed in this Deployment phase
    resolved: bool = True  # its on-deploy abilities are done (False: placed, not revealed)
    moved: bool = False  # an old unit moved this phase (at most once)


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
    fate: str = "hand"  # not_deployed | kept | unpaid | replaced | shapeshifted | died | in_play


@dataclass
class BuildingLog:
    level: int = 0
    turn_built: int = 0  # 0: never
    turn_upgraded: int = 0  # turn it reached level 2 (direct build: = turn_built)
    how: str = ""  # build | direct | golem (how it reached its level)


@dataclass
class Player:
    seat: int
    policy: int
    gold: int
    lp: int = 0  # the score marker (never below the floor)
    step_lp: int = 0  # LP of the current scoring step, not settled yet
    parts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(BREAKDOWN, 0))
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
            Piece(s, rules.unit_of[sl.card], sl.age, not sl.resolved, sl.fresh)
            for s, sl in enumerate(self.spots)
            if sl is not None
        ]


@dataclass(frozen=True)
class Move:
    """A deployment step: STOP, PLACE hand card ``a`` on spot ``b``, MOVE spot ``a`` -> ``b``."""

    kind: str  # "stop" | "place" | "move"
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


class Sketch:
    """A seat's kingdom as an option would leave it (policies only): pieces, building
    levels and gold."""

    __slots__ = ("blevel", "gold", "pieces")

    def __init__(self, pieces: list[Piece], blevel: list[int], gold: int) -> None:
        self.pieces = pieces
        self.blevel = blevel
        self.gold = gold

    def copy(self) -> Sketch:
        return Sketch([Piece(**vars(pc)) for pc in self.pieces], list(self.blevel), self.gold)


class Brain:
    """The players. ``random`` draws from the game's stream; the others value each option by
    ``features`` x their weight row and take the first best."""

    def __init__(self, game: Game, weights: np.ndarray) -> None:
        assert weights.shape[1] == N_WEIGHTS
        self.game = game
        self.rules = game.rules
        self.weights = weights
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
        return Sketch(pl.pieces(self.rules), list(pl.blevel), pl.gold)

    def project(self, sk: Sketch) -> Sketch:
        """The sketch with the predictable on-deploy effects of its pending units applied
        (spot order): ``add_age`` on self / others (per one), ``upgrade_buildings``. Chosen
        targets (Time Master, Master Alchemist) and Shapeshifter reveals are not guessed."""
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

    def features(self, p: int, sketch: Sketch) -> list[int]:
        """The ``F_*`` features of a sketch (see policies.py)."""
        r = self.rules
        sk = self.project(sketch)
        pieces, blevel = sk.pieces, sk.blevel
        a = assess(r, pieces, blevel)
        theirs = self.game.seen[p]
        won, war_lp = fight(r, a.strength, theirs)
        parts, _ = war_phase_lp(r, pieces, blevel, a, won)
        agings_left = r.turns - self.game.turn + 1  # features are used before this Aging
        at_end = [
            Piece(pc.spot, pc.unit, pc.age + agings_left) if never_dies(r, pc.unit) else pc
            for pc in pieces
        ]
        end = end_lp(r, at_end, blevel, a)
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
        return f

    def buildable(self, blevel: list[int], prod: list[int]) -> int:
        """Buildings whose next level's printed requirement is produced (gold ignored)."""
        n = 0
        for b, lv in enumerate(blevel):
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
        return v

    def card_value(self, p: int, card: int) -> float:
        """Draft/keep value of ``card``: the kingdom with it added (its cost paid) in the
        better of the Front (virtual spot 0) and the Back row (virtual spot 3); minus
        ``W_UNAFFORDABLE`` if it costs more than the seat's gold."""
        base = self.sketch(p)
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
        prod = production(r, pieces, pl.blevel)
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
                blevel=[0] * nb,
                buildings=[BuildingLog() for _ in range(nb)],
            )
            for p, pol in enumerate(seat_policies)
        ]
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
        return self.rules.unit(card).id

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
        return assess(self.rules, pl.pieces(self.rules), pl.blevel)

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
                self.players[p].receive(CardLog(card, self.uid(card), self.turn, step))
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
        old = [s for s in sorted(front + back) if (sl := pl.spots[s]) is not None and not sl.fresh]
        budget = self.budget(p)
        out = [STOP]
        for i, card in enumerate(pl.hand):
            if self.rules.cost(card) > budget:
                continue
            out += [Move("place", i, s) for s in first_empty if s >= 0]
            out += [Move("place", i, s) for s in old]
        for s in old:
            sl = self.slot(p, s)
            if sl.moved:
                continue
            target = first_empty[1] if s < MAX_FRONT else first_empty[0]
            if target >= 0:
                out.append(Move("move", s, target))
        return out

    def after_move(self, p: int, m: Move) -> Sketch:
        """The seat's sketch after deployment step ``m`` (policies)."""
        sk = self.brain.sketch(p)
        if m.kind == "stop":
            return sk
        if m.kind == "move":
            for pc in sk.pieces:
                if pc.spot == m.a:
                    pc.spot = m.b
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
        card = pl.hand.pop(m.a)
        old = pl.spots[m.b]
        replaced = None
        if old is not None:
            replaced = self.uid(old.card)
            if self.rules.o["deploy_discard"] == "death":
                self.death_abilities(p, [m.b])
            self.kill(p, m.b, "replaced")
        pl.spots[m.b] = Slot(card, fresh=True, resolved=False)
        self.emit("place", seat=p, unit=self.uid(card), spot=m.b, replaced=replaced)

    def deployment(self) -> None:
        self.phase = "deployment"
        self.freeze_strengths()
        self.extra_open = [self.open_spots(p) for p in range(self.n)]
        for p, pl in enumerate(self.players):
            for _ in range(MAX_DEPLOY_STEPS + 1):
                options = self.moves(p)
                assert len(options) <= MAX_DEPLOY_OPTIONS
                m = options[self.brain.deploy_step(p, options)]
                if m.kind == "stop":
                    break
                self.apply_move(p, m)
            else:
                raise AssertionError("more deployment steps than MAX_DEPLOY_STEPS")
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
        self.reveal()

    def reveal(self) -> None:
        """§2.2 after the face-down placements: every seat pays its new units, then (seat
        order) their on-deploy abilities resolve in spot order, then the seat's every-turn
        deployment abilities (Master Alchemist); deployment LP (Kraken) is counted at the
        very end of the phase (``kraken_count_at_end``)."""
        r = self.rules
        for p in range(self.n):
            self.pay(p)
        self.pending_lp = []
        for p in range(self.n):
            pl = self.players[p]
            for s in range(MAX_SPOTS):
                sl = pl.spots[s]
                if sl is not None and not sl.resolved:
                    self.on_deploy(p, s)
            for s in range(MAX_SPOTS):
                sl = pl.spots[s]
                if sl is None:
                    continue
                for a in r.unit(sl.card).abilities:
                    if a.phase == "deployment" and not a.on_deploy and a.kind == "add_age":
                        self.add_age(p, s, a)
        for p, s, a in self.pending_lp:
            self.deployment_lp(p, s, a)
        for p, pl in enumerate(self.players):
            self.settle(p)
            for sl in pl.spots:
                if sl is not None:
                    sl.fresh = sl.moved = False

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
        prod = production(self.rules, pieces, pl.blevel)
        amount = a.amount * per_value(a.per, me, prod, base_facts(pieces, pl.blevel))
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
        prod = production(self.rules, pieces, pl.blevel)
        facts = base_facts(pieces, pl.blevel)
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
        pl = self.players[p]
        self.kill(p, s, "shapeshifted")
        revealed = []
        found = None
        budget = len(self.deck) + len(self.discard)
        for _ in range(budget):
            card = self.draw()
            if card is None:
                break
            if self.rules.cost(card) <= a.max_cost:
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
            return
        log = pl.receive(CardLog(found, self.uid(found), self.turn, 0))
        cost = 0 if self.rules.o["shapeshift_free"] else self.rules.cost(found)
        if cost > pl.gold:
            self.to_discard(found)
            log.fate = "unpaid"
            return
        pl.gold -= cost
        log.deployed, log.turn_deployed, log.fate = True, self.turn, "in_play"
        log.row = FRONT if s < MAX_FRONT else BACK
        pl.spots[s] = Slot(found, age=a.age, fresh=True, resolved=True)
        if self.rules.o["shapeshift_on_deploy"]:
            self.on_deploy(p, s)

    # -- §2.3 Wars
    def wars(self) -> None:
        self.phase = "wars"
        a = [self.assessment(p) for p in range(self.n)]
        for p, pl in enumerate(self.players):
            theirs = [a[q].strength for q in self.rules.neighbours(p)]
            won, lp = fight(self.rules, a[p].strength, theirs)
            parts, gold = war_phase_lp(self.rules, pl.pieces(self.rules), pl.blevel, a[p], won)
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
        prod = production(r, pieces, pl.blevel)
        abilities = [a for pc in pieces for a in r.units[pc.unit].abilities]
        free_land = any(a.kind == "no_land_cost" for a in abilities)
        subst = {res for a in abilities if a.kind == "gold_for_resource" for res in a.resources}
        owned = sum(1 for lv in pl.blevel if lv)
        land = 0
        if not free_land and (not upgrade or r.o["land_cost_on_upgrade"]):
            land = r.o["land_cost_per_building"] * owned
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
        for b, lv in enumerate(pl.blevel):
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
            assert 1 + len(options) <= MAX_BUILD_OPTIONS
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
            for pc in pieces:
                for a in r.units[pc.unit].abilities:
                    if a.kind != "heal":
                        continue
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
        prod = production(self.rules, pieces, pl.blevel)
        lp, gold = death_rewards(self.rules, pieces, pl.blevel, dead, prod)
        self.score(p, "aging", lp)
        pl.gold += gold
        return lp, gold

    # -- §2.7 End
    def end(self) -> None:
        self.phase = "end"
        for p, pl in enumerate(self.players):
            pieces = pl.pieces(self.rules)
            a = assess(self.rules, pieces, pl.blevel)
            for k, v in end_lp(self.rules, pieces, pl.blevel, a).items():
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
        self.deck = list(range(len(self.rules.unit_of)))
        self.rng.shuffle(self.deck)
        self.emit("setup", players=self.n, gold=self.rules.o["start_gold"])

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


CARD_FIELDS = (
    "unit", "turn", "pick", "deployed", "turn_deployed", "row", "turns_survived",
    "died_in_aging", "fate",
)  # fmt: skip
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
) -> Game:
    """Play one game with the readable rules (``record``: events; ``check``: invariants at
    every phase boundary; ``trace``: every decision in ``Game.trace``)."""
    return Game(rules, weights, seat_policies, seed, game_id, record, trace).run(check)


def final_state(game: Game) -> dict[str, Any]:
    """What the dataset needs from a finished game (golden files, kernel comparison).

    Per seat: ``score`` (the marker), ``breakdown`` (``BREAKDOWN`` order, sums to
    ``score``; ``floor`` = LP given back by the score floor), the summary ``war_lp`` /
    ``ability_lp`` / ``building_lp`` / ``relic_lp``, ``gold`` left, ``wars_won``, ``win``
    (1/k for k tied winners). Per card a seat received (in the order received): unit,
    turn, pick (0: Shapeshifter), deployed, turn deployed, row, turns survived, died in
    aging, fate. Per (seat, building): level, turn built, turn upgraded, how."""
    seats = []
    for pl in game.players:
        seats.append(
            {
                "policy": pl.policy,
                "score": pl.lp,
                "breakdown": [pl.parts[k] for k in BREAKDOWN],
                "war_lp": pl.parts["wars"] + pl.parts["war_buildings"],
                "ability_lp": sum(pl.parts[k] for k in ABILITY_PARTS),
                "building_lp": pl.parts["buildings"],
                "relic_lp": pl.parts["relic"],
                "floor_lp": pl.parts["floor"],
                "gold": pl.gold,
                "wars_won": pl.wars_won,
                "win": pl.win,
                "cards": [[getattr(c, f) for f in CARD_FIELDS] for c in pl.logs],
                "buildings": [
                    [game.rules.buildings[b].id, bl.level, bl.turn_built, bl.turn_upgraded, bl.how]
                    for b, bl in enumerate(pl.buildings)
                ],
                "kingdom": [
                    [game.uid(sl.card), sl.age] if sl is not None else None for sl in pl.spots
                ],
            }
        )
    return {
        "turns": game.turn,
        "reshuffles": game.reshuffles,
        "scores": [pl.lp for pl in game.players],
        "winners": game.winners(),
        "seats": seats,
    }
