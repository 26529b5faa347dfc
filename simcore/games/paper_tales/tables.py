"""Paper Tales card data: TOML -> validated ``CardSet`` -> numpy opcode tables.

``cards.toml`` says *what* each unit and building does (numbers, production, abilities as
phase + effect keyword + parameters); ``rules.toml`` holds the rule constants and every
§8 option of the reference. This module checks both, raising one-line ``CardDataError``s
that name file, card and field, and compiles them into int32 arrays:

* ``ut[U, N_UCOLS]``         one row per distinct unit, columns ``U_*``;
* ``bt[B, LEVELS, N_BCOLS]`` one row per building face, columns ``B_*`` (level 2 = what
  the level-2 face adds);
* ``ab[A, N_ACOLS]``         one row per ability (units first, then building faces),
  columns ``A_*``; a unit's abilities are rows ``ut[u, U_AB0] .. + ut[u, U_NAB]``;
* ``rules[N_RULES]``         the rule switches ``R_*``; ``deck[N]`` one unit index per card.

The ``legends`` variant (``load_cardset(variant="legends")``: ``cards.toml`` +
``cards_legends.toml``, ``[variant.legends]`` of rules.toml) adds the expansion's units,
artifacts and buildings to the same tables and one more table and switch vector
(``compile_legends_tables``): ``xt[X, N_XCOLS]`` one row per artifact, ``lrules[N_LRULES]``
the Legends switches ``L_*``; ``ab`` then has ``N_ACOLS_LEGENDS`` columns (the base
columns first, same meaning). Base card sets compile exactly as before (same arrays, same
constants). The new effect kinds, counters and parameters (LEGENDS.md §A) are accepted only
in a Legends card set.

Scoring (and the part-2 kernel) receive these arrays as arguments, never as globals, so
``--cards FILE`` and A/B runs work. Enums are for people, ints for kernels: every
``IntEnum`` value is the kernel's code.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from enum import IntEnum
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from simcore.cards import CardDataError, Fields, file_sha256, read_toml

HERE = Path(__file__).resolve().parent
DEFAULT_CARDS = HERE / "cards.toml"
DEFAULT_RULES = HERE / "rules.toml"
LEGENDS_CARDS = HERE / "cards_legends.toml"

STATUSES = ("confirmed", "inferred", "proposal")
SOURCE_KEYS = ("CARD", "GP", "TP", "DZ", "REV", "RB", "brief", "inferred", "proposal")

# --- named bounds (the kernel allocates these; the loader keeps the data inside them) --
MIN_PLAYERS = 2  # §1: base game 2-5 players (2 by the GP rules, unconfirmed)
MAX_PLAYERS = 5
TURNS = 4  # §1: 4 turns of 6 phases
DEAL = 5  # §2.1: cards dealt per player and turn (3-5 players)
DEAL_2P = 9  # §2.9: 2 players are dealt 9 (keep 1, discard 1 per step)
KEEP = 1  # §2.2: unplayed cards kept for the next turn
MAX_HAND = DEAL + KEEP  # 6: 5 drafted + the card kept from the previous turn
FRONT_SPOTS = 2  # §2.2: 2 Front + 2 Back
BACK_SPOTS = 2
EXTRA_FRONT_SPOTS = 1  # §2.2: one 5th spot, in the Front row, with any level-2 building
MAX_FRONT = FRONT_SPOTS + EXTRA_FRONT_SPOTS  # 3
MAX_SPOTS = MAX_FRONT + BACK_SPOTS  # 5: spots 0..2 Front (2 = the extra one), 3..4 Back
FRONT_ROW = tuple(range(MAX_FRONT))  # spot indices of the Front row
BACK_ROW = tuple(range(MAX_FRONT, MAX_SPOTS))
MAX_WARS = 2  # one war with each neighbour (2 players: one war)
LEVELS = 2  # building faces: level 1, level 2
MAX_BUILDINGS = 8  # distinct buildings a card file may define (base game: 5)
MAX_CATALOG_BUILDINGS = 10  # all files of a variant: 5 base + Inn, Sawmill, Royal Palace,
#                             Port, Abbey (Legends); a game uses <= 9 of them
MAX_ARTIFACTS = 18  # artifact cards in the Legends data: one zone can hold every one
MAX_AGE = 30  # age tokens on one unit: the box holds 30 (§1)
MAX_ABILITIES = 4  # abilities on one unit or one building face (base game: 3, Kraken)
MAX_COPIES = 9
#: ``a[ix(i)]``: an unsigned index (a free cast in machine code) for the compiled code's hot
#: accesses. numba wraps a *signed* index that is negative around the array's end: a compare
#: and a select at every access, with the array's length kept live; an unsigned one skips
#: that. Only for indices known to be >= 0 (a -1 sentinel is tested first), and never in
#: arithmetic (numba types uint64 with int64 as float64): cast at the access.
ix = np.uint64
MAX_DECK = 200
# Decision spaces of the turn engine (reference.py, "Decisions and their option order"):
# a deployment step is STOP, or PLACE one of <= 6 hand cards on the first empty spot of
# either row or on one of <= 5 old units, or MOVE an old unit to an empty spot (old x
# empty <= 2 x 3 on 5 spots), or REMOVE one of <= 5 old units.
MAX_DEPLOY_OPTIONS = (
    1 + MAX_HAND * (2 + MAX_SPOTS) + (MAX_SPOTS // 2) * (MAX_SPOTS - MAX_SPOTS // 2) + MAX_SPOTS
)  # 54 (the most a position reaches: 40)
MAX_DEPLOY_STEPS = MAX_HAND + 2 * MAX_SPOTS  # 16 placements/moves/removals before STOP
MAX_BUILD_OPTIONS = 1 + 2 * MAX_BUILDINGS  # nothing, or per building: L1 / direct L2, or upgrade
# Legends decision bounds (LEGENDS.md §G; the base ones above are unchanged): a game's
# building set is 5 base + the pair + Port and Abbey when on.
MAX_GAME_BUILDINGS = 9
MAX_BUILD_OPTIONS_LEGENDS = 1 + 2 * MAX_GAME_BUILDINGS  # 19
MAX_JESTER_OPTIONS = 1 + MAX_HAND  # none, or each artifact in hand
MAX_COPY_OPTIONS = 1 + MAX_SPOTS  # none, or each new unit
MAX_TITAN_OPTIONS = MAX_GAME_BUILDINGS  # each unbuilt building of the set


class Resource(IntEnum):
    """The three resources (§1); the value is the column offset in ``*_PROD0``/``B_REQ0``."""

    WOOD = 0
    FOOD = 1
    CRYSTAL = 2


RESOURCES = tuple(r.name.lower() for r in Resource)
N_RES = len(RESOURCES)


class Phase(IntEnum):
    """The six phases of a turn (§2) and the end of the game (§2.7)."""

    RECRUITMENT = 0
    DEPLOYMENT = 1
    WAR = 2
    INCOME = 3
    CONSTRUCTION = 4
    AGING = 5
    END = 6


PHASES = tuple(p.name.lower() for p in Phase)


class Effect(IntEnum):
    """Effect kinds (the ability opcode). Parameters: see ``EFFECTS`` and cards.toml."""

    FIGHT_FROM_BACK = 0
    SET_STRENGTH = 1
    ADD_STRENGTH = 2
    CANNOT_FIGHT = 3
    LP = 4
    LP_PER_WAR_WON = 5
    GOLD_PER_WAR_WON = 6
    GOLD = 7
    ADD_AGE = 8
    UPGRADE_BUILDINGS = 9
    SHAPESHIFT = 10
    NO_LAND_COST = 11
    GOLD_FOR_RESOURCE = 12
    NEVER_DIES = 13
    DIES_AT_AGE = 14
    HEAL = 15
    DEATH_LP = 16
    DEATH_GOLD = 17
    LP_PER_DYING_AGE = 18


class LegendsEffect(IntEnum):
    """The Legends effect kinds (LEGENDS.md §A.1, K1..K5): opcodes after ``Effect``'s,
    accepted only in a Legends card set (``Effect`` stays the base game's list)."""

    DEPLOY_ARTIFACT_FROM_HAND = 19
    REPEAT_DEPLOY_ABILITIES = 20
    BUILD_FREE = 21
    CONDITIONAL_GAIN = 22
    ARTIFACT_COST_MODIFIER = 23


class Per(IntEnum):
    """Multipliers of ``amount`` (``per = ...``)."""

    ONE = 0
    AGE_SELF = 1
    AGE_KINGDOM = 2
    WOOD = 3
    FOOD = 4
    CRYSTAL = 5
    INCOME_GOLD = 6
    LEVEL2_BUILDINGS = 7
    STRONG_UNITS = 8
    # Legends only (LEGENDS.md §A.2, §D)
    ARTIFACTS = 9  # artifacts in the owner's zone
    UNITS_COST_GE = 10  # the owner's units of printed cost >= per_cost (per_other: not the source)
    UNITS_COST_LE = 11  # ... <= per_cost
    RESOURCE_SETS = 12  # min(wood, food, crystal) produced (abbey_mode = "per_set")
    RESOURCES = 13  # wood + food + crystal produced (abbey_mode = "per_resource")


class When(IntEnum):
    """Conditions (``when = ...``)."""

    ALWAYS = 0
    AGED = 1
    HAS_FOOD = 2
    HAS_CRYSTAL = 3
    FRONT_ROW = 4
    EXACTLY_ONE_AGE = 5


class Target(IntEnum):
    """Who receives ``add_age`` tokens."""

    NONE = -1
    SELF = 0
    OTHERS = 1
    ONE = 2
    ALL = 3  # Legends: every unit of the owner (Cursed Crown)


def _names(enum: type[IntEnum]) -> tuple[str, ...]:
    return tuple(e.name.lower() for e in enum if e.value >= 0)


# Per kind: the phases it may act in, then its parameters (name -> spec).
# A spec is ("int", lo, hi, default) | ("per"|"when"|"target", default) | ("resources",);
# default ... = required.
_AMOUNT = ("int", -20, 20, ...)
EFFECTS: dict[str, tuple[tuple[str, ...], dict[str, tuple[Any, ...]]]] = {
    "fight_from_back": (("war",), {}),
    "set_strength": (("war",), {"value": ("int", 0, 30, ...), "when": ("when", ...)}),
    "add_strength": (("war",), {"amount": _AMOUNT, "per": ("per", "one")}),
    "cannot_fight": (("war",), {"when": ("when", ...)}),
    "lp": (
        ("deployment", "war", "end"),
        {"amount": _AMOUNT, "per": ("per", "one"), "when": ("when", "always")},
    ),
    "lp_per_war_won": (("war",), {"amount": _AMOUNT, "per": ("per", "one")}),
    "gold_per_war_won": (("war",), {"amount": _AMOUNT}),
    "gold": (("income",), {"amount": _AMOUNT, "per": ("per", "one"), "when": ("when", "always")}),
    "add_age": (
        ("deployment",),
        {"target": ("target", ...), "amount": ("int", 1, 9, ...), "per": ("per", "one")},
    ),
    "upgrade_buildings": (("deployment",), {}),
    "shapeshift": (
        ("deployment",),
        {"max_cost": ("int", -1, 9, ...), "age": ("int", 0, 9, ...)},
    ),
    "no_land_cost": (("construction",), {}),
    "gold_for_resource": (("construction",), {"resources": ("resources",)}),
    "never_dies": (("aging",), {}),
    "dies_at_age": (("aging",), {"min_age": ("int", 1, 9, ...)}),
    "heal": (("aging",), {"age": ("int", 1, 9, ...)}),
    "death_lp": (
        ("aging",),
        {"amount": _AMOUNT, "per": ("per", "one"), "when": ("when", "always")},
    ),
    "death_gold": (("aging",), {"amount": _AMOUNT, "per": ("per", "one")}),
    "lp_per_dying_age": (("aging",), {"amount": _AMOUNT}),
}
assert set(EFFECTS) == set(_names(Effect))
# Legends kinds (LEGENDS.md §A.1); "bool"/"choice"/"requires" specs are Legends-only.
LEGENDS_EFFECT_SPECS: dict[str, tuple[tuple[str, ...], dict[str, tuple[Any, ...]]]] = {
    "deploy_artifact_from_hand": (
        ("deployment",),
        {
            "count": ("int", 1, 9, 1),
            "cost": ("int", 0, 9, 0),
            "from": ("choice", ("hand",), "hand"),
        },
    ),
    "repeat_deploy_abilities": (("deployment",), {"times": ("int", 1, 9, 1)}),
    "build_free": (
        ("deployment",),
        {
            "level": ("int", 1, 2, 1),
            "land_cost": ("bool", False),
            "requirements": ("bool", False),
        },
    ),
    "conditional_gain": (
        ("deployment", "war", "income"),
        {
            "gold": ("int", -9, 20, 0),
            "lp": ("int", -9, 20, 0),
            "when": ("when", "always"),
            "requires": ("requires",),
            "counter": ("per", "one"),
            "min": ("int", 0, 20, 0),
        },
    ),
    "artifact_cost_modifier": (("deployment",), {"amount": ("int", -9, 9, ...)}),
}
assert set(LEGENDS_EFFECT_SPECS) == set(_names(LegendsEffect))
ALL_EFFECTS = {**EFFECTS, **LEGENDS_EFFECT_SPECS}
EFFECT_CODE = {e.name.lower(): int(e) for enum in (Effect, LegendsEffect) for e in enum}
LEGENDS_PER = ("artifacts", "units_cost_ge", "units_cost_le", "resource_sets", "resources")
UNITS_COST_PER = ("units_cost_ge", "units_cost_le")
# Legends parameters added to base kinds (LEGENDS.md §A.2): a land discount, and the
# printed-cost threshold of the units_cost_* counters on any kind taking `per`/`counter`.
LEGENDS_PARAMS: dict[str, tuple[Any, ...]] = {
    "discount": ("int", 0, 20, 0),  # 0 (absent): no land cost at all
    "per_cost": ("int", -9, 9, 0),
    "per_other": ("bool", False),
}
# Kinds that need a unit as their owner (an artifact or a building has no row/tokens).
UNIT_ONLY_KINDS = (
    "fight_from_back", "set_strength", "cannot_fight", "never_dies", "dies_at_age",
    "death_lp", "death_gold",
)  # fmt: skip
# On-deploy kinds that always act in the Deployment phase the card enters (§6.2).
ON_DEPLOY_KINDS = ("deploy_artifact_from_hand", "repeat_deploy_abilities", "build_free")

# Which effects the static scorer (scoring.py) evaluates, and which act in phases that
# only the part-2 turn engine plays. ``lp`` is scored in the war and end phases; its
# deployment use (Kraken's penalty) is played by the turn engine.
SCORED_PHASES = ("war", "income", "end")
SCORED_EFFECTS = frozenset(
    {
        "fight_from_back",
        "set_strength",
        "add_strength",
        "cannot_fight",
        "lp",
        "lp_per_war_won",
        "gold_per_war_won",
        "gold",
    }
)
LATER_PHASE_EFFECTS = frozenset(EFFECTS) - SCORED_EFFECTS
assert all(set(EFFECTS[k][0]).isdisjoint(SCORED_PHASES) for k in LATER_PHASE_EFFECTS)

# --- table columns ---------------------------------------------------------------------
# ut: one int32 row per distinct unit
U_COPIES = 0
U_COST = 1
U_STRENGTH = 2
U_PROD0 = 3  # U_PROD0 + Resource: resources produced
U_PROD_WHEN = U_PROD0 + N_RES  # When code gating the production
U_PROD_PER = U_PROD_WHEN + 1  # Per code multiplying the production
U_AB0 = U_PROD_PER + 1  # first row of its abilities in ``ab``
U_NAB = U_AB0 + 1  # number of abilities
N_UCOLS = U_NAB + 1

# bt: one int32 row per (building, level index 0/1)
B_REQ0 = 0  # B_REQ0 + Resource: requirement of this level (level 2: the upgrade's)
B_GOLD_INSTEAD = B_REQ0 + N_RES  # gold paid instead of the requirement, -1: no such option
B_LP = B_GOLD_INSTEAD + 1  # LP at game end while the building shows this face
B_PROD0 = B_LP + 1  # B_PROD0 + Resource: production this face adds
B_EXTRA_SPOT = B_PROD0 + N_RES  # 1: opens the extra Front spot
B_AB0 = B_EXTRA_SPOT + 1
B_NAB = B_AB0 + 1
N_BCOLS = B_NAB + 1

# ab: one int32 row per ability
A_OWNER_BUILDING = 0  # 0: a unit's ability, 1: a building face's
A_OWNER = 1  # unit or building index
A_LEVEL = 2  # building level (1, 2) of the face carrying it; 0 for units
A_PHASE = 3  # Phase code
A_KIND = 4  # Effect code
A_ON_DEPLOY = 5  # 1: only in the Deployment phase the unit is put into play
A_AMOUNT = 6
A_VALUE = 7  # set_strength value
A_PER = 8  # Per code
A_WHEN = 9  # When code
A_TARGET = 10  # Target code (add_age), -1 otherwise
A_MAX_COST = 11  # shapeshift
A_AGE = 12  # shapeshift: tokens on the revealed unit; heal: tokens of a savable unit
A_MIN_AGE = 13  # dies_at_age
A_RES_MASK = 14  # gold_for_resource: bit r set = resource r may be paid in gold
N_ACOLS = A_RES_MASK + 1
# Legends columns (LEGENDS.md §A.4), only in a Legends card set's ``ab``. A_OWNER_BUILDING
# is then the owner kind: OWNER_UNIT, OWNER_BUILDING or OWNER_ARTIFACT (A_OWNER = index).
OWNER_UNIT, OWNER_BUILDING, OWNER_ARTIFACT = 0, 1, 2
A_GOLD = N_ACOLS  # conditional_gain
A_LP = A_GOLD + 1  # conditional_gain
A_REQ0 = A_LP + 1  # A_REQ0 + Resource: conditional_gain's `requires`
A_COUNTER = A_REQ0 + N_RES  # conditional_gain: Per code of the counter
A_MIN = A_COUNTER + 1  # conditional_gain: counter >= min
A_PER_COST = A_MIN + 1  # units_cost_* threshold (of `per` or `counter`)
A_PER_OTHER = A_PER_COST + 1  # 1: units_cost_* does not count the source
A_COUNT = A_PER_OTHER + 1  # deploy_artifact_from_hand
A_COST = A_COUNT + 1  # deploy_artifact_from_hand: gold per artifact
A_BUILD_LEVEL = A_COST + 1  # build_free
A_TIMES = A_BUILD_LEVEL + 1  # repeat_deploy_abilities
A_DISCOUNT = A_TIMES + 1  # no_land_cost: -1 = no land cost at all, n = n gold lower
A_TIER = A_DISCOUNT + 1  # Deployment tier (Tier code) of an on-deploy/deployment ability; -1
N_ACOLS_LEGENDS = A_TIER + 1


class Tier(IntEnum):
    """Resolution tiers of the Legends Deployment phase (§2.5, LEGENDS.md §B.2 step 5)."""

    NONE = -1  # not a deployment ability, or static (artifact_cost_modifier)
    REPLACE = 0  # shapeshift (all seats, simultaneity order)
    ENTER = 1  # 1a: deploy_artifact_from_hand, build_free
    COPY = 2  # 1b: repeat_deploy_abilities (copies of tier-1a abilities resolve at once)
    LEVELS = 3  # 2: upgrade_buildings
    AGE = 4  # 3: add_age on deploy
    COUNT = 5  # 4a: conditional_gain on deploy
    EVERY_TURN = 6  # 4b: add_age not on deploy (Master Alchemist)
    PENALTY = 7  # 5: deployment lp (Kraken), after every seat's tiers 1-4


def ability_tier(kind: str, on_deploy: bool) -> Tier:
    """The Legends Deployment tier of a deployment-phase ability (``Tier.NONE`` otherwise)."""
    if kind == "shapeshift":
        return Tier.REPLACE
    if kind in ("deploy_artifact_from_hand", "build_free"):
        return Tier.ENTER
    if kind == "repeat_deploy_abilities":
        return Tier.COPY
    if kind == "upgrade_buildings":
        return Tier.LEVELS
    if kind == "add_age":
        return Tier.AGE if on_deploy else Tier.EVERY_TURN
    if kind == "conditional_gain" and on_deploy:
        return Tier.COUNT
    if kind == "lp" and on_deploy:
        return Tier.PENALTY
    return Tier.NONE


# xt: one int32 row per distinct artifact (Legends)
X_COPIES = 0
X_LP = 1  # printed LP added at the end of the game
X_PROD0 = 2  # X_PROD0 + Resource
X_AB0 = X_PROD0 + N_RES
X_NAB = X_AB0 + 1
N_XCOLS = X_NAB + 1

# rules: int32 switches
R_TURNS = 0
R_START_GOLD = 1
R_DEAL = 2
R_KEEP = 3
R_FRONT_SPOTS = 4
R_BACK_SPOTS = 5
R_EXTRA_FRONT = 6
R_WAR_LP = 7
R_BASE_INCOME = 8
R_LAND_COST = 9
R_SCORE_FLOOR = 10
R_RESHUFFLE = 11
R_FIRST_DIRECTION = 12  # +1: turn 1 passes left (to seat+1); -1: right (to seat-1)
R_DIRECT_L2_SUM = 13  # 1: direct level 2 needs L1 + L2 lists added; 0: the maximum
R_LAND_ON_UPGRADE = 14
R_DISCARD_IS_DEATH = 15
R_HEALED_AGE = 16
R_STRONG_FRONT_ONLY = 17  # 1: strong_units counts the Front row only
R_STRONG_MIN = 18
R_PWW_FRONT_ONLY = 19  # 1: per-war-won abilities only from the Front row
R_SHAPE_ON_DEPLOY = 20
R_SHAPE_FREE = 21
R_KRAKEN_AT_END = 22
R2_DEAL = 23  # two players ...
R2_DISCARD = 24
R2_SINGLE_WAR = 25
R2_WAR_LP = 26
R2_DOUBLE_RATIO = 27
R2_DOUBLE_LP = 28
R2_ZERO_WINS = 29
R2_PWW_TIMES = 30
N_RULES = 31

# lrules: int32 Legends switches (``[variant.legends]``; §8 of the reference)
L_BUILDING_PAIR = 0  # -1: drawn at setup; k: the k-th pair (``building_pairs`` order)
L_SIMULTANEITY_MORE_GOLD = 1  # 1: more gold acts first (Legends [B]); 0: less (base [C])
L_ART_COST_BASE = 2  # artifact cost = max(floor, base + step x zone + modifiers)
L_ART_COST_STEP = 3
L_ART_COST_FLOOR = 4
L_DISCOUNT_SAME_PHASE = 5  # 1: a discount unit paid earlier in this payment counts
L_USE_PORT_ABBEY = 6
L_TITAN_LEVEL = 7  # (already applied to the build_free rows)
L_ABBEY_MODE = 8  # 0 set_flat, 1 per_set, 2 per_resource (already applied to Abbey L2)
N_LRULES = 9


# --- data classes ----------------------------------------------------------------------


@dataclass(frozen=True)
class Ability:
    """One ability: phase + effect kind + parameters (defaults filled in)."""

    phase: str
    kind: str
    on_deploy: bool = False
    amount: int = 0
    value: int = 0
    per: str = "one"
    when: str = "always"
    target: str = "none"
    max_cost: int = 0
    age: int = 0
    min_age: int = 0
    resources: tuple[str, ...] = ()
    # Legends parameters (LEGENDS.md §A)
    count: int = 0
    cost: int = 0
    take_from: str = "hand"  # data key `from`
    times: int = 0
    level: int = 0
    land_cost: bool = False
    requirements: bool = False
    gold: int = 0
    lp: int = 0
    requires: tuple[int, int, int] = (0, 0, 0)
    counter: str = "one"
    minimum: int = 0  # data key `min`
    per_cost: int = 0
    per_other: bool = False
    discount: int = 0  # no_land_cost: 0 = no land cost at all (base), n = n gold lower

    def text(self) -> str:
        """A compact description for the card catalog, e.g. ``war: +1 LP x food``."""
        params = []
        for key in ALL_EFFECTS[self.kind][1]:
            val = getattr(self, PARAM_ATTR.get(key, key))
            if key in ("per", "when", "counter") and val in ("one", "always"):
                continue
            if key == "requires":
                val = "/".join(f"{n} {r}" for r, n in zip(RESOURCES, val, strict=True) if n)
                if not val:
                    continue
            params.append(f"{key}={'/'.join(val) if isinstance(val, tuple) else val}")
        head = f"{self.phase}{' (on deploy)' if self.on_deploy else ''}: {self.kind}"
        return head + (f" {', '.join(params)}" if params else "")


PARAM_ATTR = {"from": "take_from", "min": "minimum"}  # data key -> Ability attribute


@dataclass(frozen=True)
class Production:
    """Resources produced while in play; ``when``/``per`` gate and multiply all of it."""

    amounts: tuple[int, int, int] = (0, 0, 0)
    when: str = "always"
    per: str = "one"

    def text(self) -> str:
        parts = [f"{n} {r}" for r, n in zip(RESOURCES, self.amounts, strict=True) if n]
        if not parts:
            return ""
        out = " + ".join(parts)
        if self.per != "one":
            out += f" x {self.per}"
        if self.when != "always":
            out += f" if {self.when}"
        return out


@dataclass(frozen=True)
class Unit:
    id: str
    name: str
    name_fr: str | None
    copies: int
    cost: int
    strength: int
    produces: Production
    abilities: tuple[Ability, ...]
    status: str
    source: str
    text: str
    notes: str | None = None
    origin: str | None = None  # Legends file: legends | legends? | btg?
    tags: str | None = None  # Legends file: the reference's per-fact tags


@dataclass(frozen=True)
class Artifact:
    """A Legends artifact card (§2.3): no cost, no strength, no row; printed ``lp`` at END."""

    id: str
    name: str
    copies: int
    lp: int
    produces: Production
    abilities: tuple[Ability, ...]
    status: str
    source: str
    text: str
    notes: str | None = None
    origin: str | None = None
    tags: str | None = None
    name_fr: str | None = None


@dataclass(frozen=True)
class BuildingLevel:
    requires: tuple[int, int, int]
    gold_instead: int | None
    lp: int
    produces: Production
    abilities: tuple[Ability, ...]
    extra_front_spot: bool


@dataclass(frozen=True)
class Building:
    id: str
    name: str
    name_fr: str | None
    levels: tuple[BuildingLevel, BuildingLevel]
    status: str
    source: str
    text: str
    notes: str | None = None
    pool: str = "base"  # base | legends (2 of 3 drawn per game) | integral (Port, Abbey)
    copies: int | None = None
    origin: str | None = None
    tags: str | None = None


@dataclass(frozen=True)
class TwoPlayer:
    unconfirmed: bool
    deal: int
    discard_per_step: int
    single_war: bool
    war_lp: int
    double_ratio: int
    double_war_lp: int
    zero_strength_wins: bool
    per_war_won_times: int


@dataclass(frozen=True)
class Rules:
    """rules.toml's ``[rules]`` (every key, validated) plus ``[two_player]`` and variants."""

    options: dict[str, Any]
    two_player: TwoPlayer
    variants: dict[str, dict[str, Any]]

    def __getitem__(self, key: str) -> Any:
        return self.options[key]


@dataclass(frozen=True)
class CardSet:
    units: tuple[Unit, ...]
    buildings: tuple[Building, ...]
    rules: Rules
    deck_size: int
    files: tuple[Path, ...]
    sha256: str = ""
    index: dict[str, int] = field(default_factory=dict)  # unit id -> unit index
    building_index: dict[str, int] = field(default_factory=dict)
    artifacts: tuple[Artifact, ...] = ()  # Legends
    artifact_index: dict[str, int] = field(default_factory=dict)
    variant: str = "base"
    expansions: tuple[str, ...] = ()

    def ids(self) -> list[str]:
        return [u.id for u in self.units]

    @property
    def legends(self) -> bool:
        return "legends" in self.expansions

    def building_pairs(self) -> list[tuple[int, int]]:
        """The possible Legends building pairs (2-subsets of the ``legends`` pool, in file
        order): the setup draw picks one by index (LEGENDS.md §B.1 step 2)."""
        pool = [b for b, bd in enumerate(self.buildings) if bd.pool == "legends"]
        return list(itertools.combinations(pool, 2))

    def building_set(self, pair: int) -> list[int]:
        """Every player's buildings in a game (catalog indices, construction order): the
        base pool, then ``building_pairs()[pair]`` (Legends), then Port and Abbey when
        ``use_port_abbey``."""
        out = [b for b, bd in enumerate(self.buildings) if bd.pool == "base"]
        if self.legends:
            out += list(self.building_pairs()[pair])
            if self.rules.options["use_port_abbey"]:
                out += [b for b, bd in enumerate(self.buildings) if bd.pool == "integral"]
        return out


class Tables(NamedTuple):
    """Everything the scorer and the kernel need about the cards and the rules."""

    ut: np.ndarray  # int32[U, N_UCOLS]: units, columns U_*
    bt: np.ndarray  # int32[B, LEVELS, N_BCOLS]: building faces, columns B_*
    ab: np.ndarray  # int32[A, N_ACOLS]: abilities, columns A_*
    rules: np.ndarray  # int32[N_RULES]: switches R_*
    deck: np.ndarray  # int32[deck_size]: one unit index per physical card


class LegendsTables(NamedTuple):
    """A Legends card set's tables: the base five (``ab`` with ``N_ACOLS_LEGENDS`` columns,
    ``bt`` over the whole building catalog, ``deck`` = card types: ``t < U`` a unit, ``t >=
    U`` the artifact ``t - U``), plus the artifacts and the Legends switches."""

    ut: np.ndarray
    bt: np.ndarray
    ab: np.ndarray
    rules: np.ndarray
    deck: np.ndarray
    xt: np.ndarray  # int32[X, N_XCOLS]: artifacts, columns X_*
    lrules: np.ndarray  # int32[N_LRULES]: switches L_*


# --- loading ---------------------------------------------------------------------------


def load_cardset(
    cards_path: Path | None = None, rules_path: Path | None = None, variant: str | None = None
) -> CardSet:
    """Read and validate the card data and the rules file.

    ``variant`` None or ``"base"``: ``cards_path`` (default cards.toml) alone, the
    ``[rules]`` options. A variant whose ``[variant.NAME]`` table lists ``cards`` (Legends:
    cards.toml + cards_legends.toml, beside the rules file) loads those files in order
    (``cards_path`` replaces the first one) and applies the variant's option overrides."""
    cards_path = Path(cards_path) if cards_path else DEFAULT_CARDS
    rules_path = Path(rules_path) if rules_path else DEFAULT_RULES
    rules = _parse_rules(rules_path)
    name = variant or "base"
    if variant is not None and name not in rules.variants:
        raise CardDataError(rules_path, f"no [variant.{name}] table", field="variant")
    spec: dict[str, Any] = rules.variants.get(name, {})
    expansions = tuple(spec.get("expansions", ()))
    files = [cards_path]
    if spec.get("cards"):
        files = [
            cards_path if i == 0 else rules_path.parent / f for i, f in enumerate(spec["cards"])
        ]
    legends = "legends" in expansions
    units: list[Unit] = []
    buildings: list[Building] = []
    artifacts: list[Artifact] = []
    for i, path in enumerate(files):
        u, b, x = _parse_card_file(path, expansion=i > 0, legends=legends)
        units += u
        buildings += b
        artifacts += x
    _check_unique(files[-1], "unit", units)
    _check_unique(files[-1], "artifact", artifacts)
    _check_unique(files[-1], "building", buildings)
    if len(buildings) > MAX_CATALOG_BUILDINGS:
        raise CardDataError(
            files[-1], f"at most {MAX_CATALOG_BUILDINGS} buildings in all, got {len(buildings)}"
        )
    if sum(x.copies for x in artifacts) > MAX_ARTIFACTS:
        raise CardDataError(files[-1], f"at most {MAX_ARTIFACTS} artifact cards", field="artifact")
    if legends:
        rules = replace(rules, options={**rules.options, **spec["options"]})
        units, buildings = _apply_switches(rules_path, rules.options, units, buildings)
        _check_legends_buildings(rules_path, rules.options, buildings)
    deck_size = sum(u.copies for u in units) + sum(x.copies for x in artifacts)
    return CardSet(
        units=tuple(units),
        buildings=tuple(buildings),
        rules=rules,
        deck_size=deck_size,
        files=(*files, rules_path),
        sha256=file_sha256(*files, rules_path),
        index={u.id: i for i, u in enumerate(units)},
        building_index={b.id: i for i, b in enumerate(buildings)},
        artifacts=tuple(artifacts),
        artifact_index={x.id: i for i, x in enumerate(artifacts)},
        variant=name,
        expansions=expansions,
    )


def _parse_card_file(
    path: Path, expansion: bool, legends: bool
) -> tuple[list[Unit], list[Building], list[Artifact]]:
    """One card file. The base file has units and buildings; an expansion file (Legends)
    also ``expansion``/``extends`` and ``[[artifact]]`` tables. ``deck_size`` = this
    file's unit + artifact copies."""
    doc = read_toml(path)
    top = Fields(path, doc, None)
    allowed = {"schema", "game", "deck_size", "unit", "building"}
    if expansion:
        allowed |= {"expansion", "extends", "artifact"}
    top.reject_unknown(allowed)
    if top.get("schema", 1) != 1:
        raise top.error("schema", f"unsupported schema {doc['schema']!r} (this loader reads 1)")
    if top.get("game", "paper-tales") != "paper-tales":
        raise top.error("game", f"this is a card file for '{doc['game']}', not paper-tales")
    if expansion and top.get("expansion", None) != "legends":
        raise top.error("expansion", "the only expansion this loader reads is 'legends'")
    deck_size = top.integer("deck_size", 1, MAX_DECK)
    units = _parse_units(path, top, expansion, legends)
    artifacts = _parse_artifacts(path, top) if expansion else []
    total = sum(u.copies for u in units) + sum(x.copies for x in artifacts)
    if total != deck_size:
        what = "unit and artifact" if expansion else "unit"
        raise top.error(
            "deck_size", f"the {what} copies sum to {total}, the file declares {deck_size}"
        )
    buildings = _parse_buildings(path, top, expansion, legends)
    return units, buildings, artifacts


def _check_unique(path: Path, key: str, items: list[Any]) -> None:
    seen: set[str] = set()
    for it in items:
        if it.id in seen:
            raise CardDataError(path, f"{key} id used in two card files", card=it.id, field="id")
        seen.add(it.id)


def _apply_switches(
    path: Path, o: dict[str, Any], units: list[Unit], buildings: list[Building]
) -> tuple[list[Unit], list[Building]]:
    """The card-level §8 switches (LEGENDS.md §D): ``titan_level`` (every ``build_free``
    level), ``relic_of_fertility_ages`` (false: a ``never_dies`` ability is appended to
    the Relic of Fertility), ``include_shadow`` (false: the Shadow's copies are 0, not in
    the deck) and ``abbey_mode`` (the Abbey level-2 ability)."""
    out = []
    for u in units:
        abil = tuple(
            replace(a, level=o["titan_level"]) if a.kind == "build_free" else a for a in u.abilities
        )
        if u.id == "relic-of-fertility" and not o["relic_of_fertility_ages"]:
            abil += (Ability(phase="aging", kind="never_dies"),)
        copies = 0 if u.id == "shadow" and not o["include_shadow"] else u.copies
        out.append(replace(u, abilities=abil, copies=copies))
    mode = o["abbey_mode"]
    bout = []
    for b in buildings:
        if b.id == "abbey" and mode != "set_flat":
            lv2 = b.levels[1]
            if mode == "per_set":
                new = Ability(phase="war", kind="lp", amount=4, per="resource_sets")
            else:
                new = Ability(phase="war", kind="lp", amount=1, per="resources")
            b = replace(b, levels=(b.levels[0], replace(lv2, abilities=(new,))))
        bout.append(b)
    return out, bout


def _check_legends_buildings(path: Path, o: dict[str, Any], buildings: list[Building]) -> None:
    pool = [b.id for b in buildings if b.pool == "legends"]
    if len(pool) < 2:
        raise CardDataError(path, "the legends pool needs at least 2 buildings", field="building")
    fixed = o["legends_buildings"]
    if fixed != "random" and (len(set(fixed)) != 2 or not set(fixed) <= set(pool)):
        raise CardDataError(
            path,
            f'must be "random" or two different buildings of the legends pool '
            f"({', '.join(pool)}), got {list(fixed)!r}",
            field="variant.legends.legends_buildings",
        )


def building_pair_index(cards: CardSet) -> int:
    """-1: the pair is drawn at setup; k: ``legends_buildings`` fixes the k-th pair."""
    fixed = cards.rules.options.get("legends_buildings", "random")
    if fixed == "random":
        return -1
    want = sorted(cards.building_index[i] for i in fixed)
    return [list(p) for p in cards.building_pairs()].index(want)


def _entries(path: Path, top: Fields, key: str) -> list[tuple[Fields, str]]:
    raw = top.get(key)
    if not isinstance(raw, list) or not raw:
        raise top.error(key, f"needs at least one [[{key}]] table")
    out = []
    seen: set[str] = set()
    for n, entry in enumerate(raw, start=1):
        if not isinstance(entry, dict):
            raise CardDataError(path, "must be a table", card=f"{key} #{n}")
        raw_id = entry.get("id")
        f = Fields(path, entry, raw_id if isinstance(raw_id, str) else f"{key} #{n}")
        cid = f.string("id")
        if not all(ch.islower() or ch.isdigit() or ch == "-" for ch in cid):
            raise f.error("id", "ids are lowercase letters, digits and hyphens")
        if cid in seen:
            raise f.error("id", f"duplicate {key} id")
        seen.add(cid)
        out.append((f, cid))
    return out


COMMON_KEYS = {"id", "name", "name_fr", "status", "source", "text", "notes"}
EXPANSION_KEYS = {"origin", "tags"}
ORIGINS = ("legends", "legends?", "btg?")


def _common(f: Fields, expansion: bool = False) -> dict[str, Any]:
    status = f.choice("status", STATUSES)
    source = f.string("source")
    for key in (s.strip() for s in source.split(",")):
        if key not in SOURCE_KEYS:
            raise f.error("source", f"unknown source key '{key}' (keys: {', '.join(SOURCE_KEYS)})")
    out = {
        "name": f.string("name"),
        "name_fr": f.optional_string("name_fr"),
        "status": status,
        "source": source,
        "text": f.string("text"),
        "notes": f.optional_string("notes"),
    }
    if expansion:
        out["origin"] = f.choice("origin", ORIGINS)
        out["tags"] = f.string("tags")
    return out


def _parse_units(
    path: Path, top: Fields, expansion: bool = False, legends: bool = False
) -> list[Unit]:
    units = []
    for f, cid in _entries(path, top, "unit"):
        f.reject_unknown(
            {"copies", "cost", "strength", "produces", "abilities"}
            | COMMON_KEYS
            | (EXPANSION_KEYS if expansion else set())
        )
        units.append(
            Unit(
                id=cid,
                copies=f.integer("copies", 1, MAX_COPIES),
                cost=f.integer("cost", -9, 9),
                strength=f.integer("strength", 0, 20),
                produces=_parse_production(f, "produces"),
                abilities=_parse_abilities(f, "abilities", unit=True, legends=legends),
                **_common(f, expansion),
            )
        )
    return units


def _parse_artifacts(path: Path, top: Fields) -> list[Artifact]:
    out = []
    for f, cid in _entries(path, top, "artifact"):
        f.reject_unknown({"copies", "lp", "produces", "abilities"} | COMMON_KEYS | EXPANSION_KEYS)
        produces = _parse_production(f, "produces")
        if (produces.when, produces.per) != ("always", "one"):
            raise f.error(
                "produces", "an artifact's production takes no 'when'/'per' (no tokens, no row)"
            )
        out.append(
            Artifact(
                id=cid,
                copies=f.integer("copies", 1, MAX_COPIES),
                lp=f.integer("lp", 0, 9),
                produces=produces,
                abilities=_parse_abilities(
                    f, "abilities", unit=False, legends=True, owner="artifact"
                ),
                **_common(f, True),
            )
        )
    return out


def _parse_buildings(
    path: Path, top: Fields, expansion: bool = False, legends: bool = False
) -> list[Building]:
    entries = _entries(path, top, "building")
    if len(entries) > MAX_BUILDINGS:
        raise top.error("building", f"at most {MAX_BUILDINGS} buildings, got {len(entries)}")
    out = []
    for f, bid in entries:
        f.reject_unknown(
            {"level1", "level2"}
            | COMMON_KEYS
            | (EXPANSION_KEYS | {"pool", "copies"} if expansion else set())
        )
        levels = tuple(_parse_level(f.sub(f"level{n}"), legends) for n in (1, 2))
        extra: dict[str, Any] = {}
        if expansion:
            extra["pool"] = f.choice("pool", ("legends", "integral"))
            extra["copies"] = f.integer("copies", 1, 9) if f.has("copies") else None
        out.append(Building(id=bid, levels=levels, **_common(f, expansion), **extra))  # type: ignore[arg-type]
    return out


def _parse_level(f: Fields, legends: bool = False) -> BuildingLevel:
    f.reject_unknown(
        {"requires", "gold_instead", "lp", "produces", "abilities", "extra_front_spot"}
    )
    req = f.sub("requires")
    req.reject_unknown(RESOURCES)
    requires = tuple(req.integer(r, 0, 9, 0) for r in RESOURCES)
    gold = f.integer("gold_instead", 0, 20) if f.has("gold_instead") else None
    produces = _parse_production(f, "produces")
    if (produces.when, produces.per) != ("always", "one"):
        raise f.error(
            "produces", "a building's production takes no 'when'/'per' (no tokens, no row)"
        )
    spot = f.get("extra_front_spot", False)
    if not isinstance(spot, bool):
        raise f.error("extra_front_spot", f"must be true or false, got {spot!r}")
    return BuildingLevel(
        requires=requires,  # type: ignore[arg-type]
        gold_instead=gold,
        lp=f.integer("lp", -9, 20),
        produces=produces,
        abilities=_parse_abilities(f, "abilities", unit=False, legends=legends),
        extra_front_spot=spot,
    )


def _parse_production(f: Fields, key: str) -> Production:
    if not f.has(key):
        return Production()
    p = f.sub(key)
    p.reject_unknown((*RESOURCES, "when", "per"))
    amounts = tuple(p.integer(r, 0, 9, 0) for r in RESOURCES)
    if not any(amounts):
        raise f.error(key, "produces nothing (name at least one of wood, food, crystal)")
    # Production is computed before anything else, so it may depend only on the unit
    # itself (its tokens, its row): a kingdom-wide condition would be circular.
    return Production(
        amounts,  # type: ignore[arg-type]
        when=p.choice("when", PRODUCTION_WHEN, "always"),
        per=p.choice("per", PRODUCTION_PER, "one"),
    )


PRODUCTION_WHEN = ("always", "aged", "front_row", "exactly_one_age")
PRODUCTION_PER = ("one", "age_self")


def _parse_abilities(
    f: Fields, key: str, unit: bool, legends: bool = False, owner: str | None = None
) -> tuple[Ability, ...]:
    """A card's ability list. ``owner``: "unit" | "building" | "artifact" (from ``unit``
    when absent). The Legends kinds, counters, targets and parameters need ``legends``."""
    owner = owner or ("unit" if unit else "building")
    raw = f.get(key, [])
    if not isinstance(raw, list):
        raise f.error(key, f"must be a list of ability tables, got {raw!r}")
    if len(raw) > MAX_ABILITIES:
        raise f.error(key, f"at most {MAX_ABILITIES} abilities, got {len(raw)}")
    out = []
    for i, entry in enumerate(raw):
        name = f"{key}[{i}]"
        if not isinstance(entry, dict):
            raise f.error(name, f"must be a table, got {entry!r}")
        a = Fields(f.file, entry, f.card, prefix=f"{f.prefix}{name}.")
        kind = a.choice("kind", ALL_EFFECTS if legends else EFFECTS)
        phases, params = ALL_EFFECTS[kind]
        params = dict(params)
        if legends:
            if "per" in params or "counter" in params:
                params["per_cost"] = LEGENDS_PARAMS["per_cost"]
                params["per_other"] = LEGENDS_PARAMS["per_other"]
            if kind == "no_land_cost":
                params["discount"] = LEGENDS_PARAMS["discount"]
        phase = a.choice("phase", PHASES)
        if phase not in phases:
            raise a.error("phase", f"effect '{kind}' acts in {' or '.join(phases)}, not {phase}")
        a.reject_unknown(("phase", "kind", "on_deploy", *params))
        on_deploy = a.get("on_deploy", False)
        if not isinstance(on_deploy, bool):
            raise a.error("on_deploy", f"must be true or false, got {on_deploy!r}")
        if owner != "artifact" and on_deploy and (phase != "deployment" or not unit):
            raise a.error("on_deploy", "only a unit's deployment-phase ability can be on_deploy")
        if owner == "artifact" and on_deploy and phase != "deployment":
            raise a.error("on_deploy", "only a deployment-phase ability can be on_deploy")
        if kind == "lp" and phase == "deployment" and not on_deploy:
            raise a.error("on_deploy", "a deployment-phase 'lp' must be on_deploy = true")
        if (
            kind in ON_DEPLOY_KINDS or (kind == "conditional_gain" and phase == "deployment")
        ) and not on_deploy:
            raise a.error("on_deploy", f"a deployment-phase '{kind}' must be on_deploy = true")
        if kind == "artifact_cost_modifier" and on_deploy:
            raise a.error("on_deploy", "'artifact_cost_modifier' is static: never on_deploy")
        if owner == "building" and kind in (
            "fight_from_back",
            "set_strength",
            "cannot_fight",
            "add_age",
        ):
            raise a.error("kind", f"'{kind}' acts on a unit; a building cannot carry it")
        if owner == "artifact" and kind in UNIT_ONLY_KINDS:
            raise a.error("kind", f"'{kind}' needs a unit; an artifact cannot carry it")
        if owner == "artifact" and kind == "add_age" and not on_deploy:
            raise a.error(
                "on_deploy", "an artifact's 'add_age' acts when it enters: on_deploy = true"
            )
        if owner == "building" and kind in ON_DEPLOY_KINDS:
            raise a.error(
                "kind", f"'{kind}' acts when a card enters play; a building cannot carry it"
            )
        values: dict[str, Any] = {}
        for pname, spec in params.items():
            attr = PARAM_ATTR.get(pname, pname)
            if spec[0] == "int":
                values[attr] = a.integer(pname, spec[1], spec[2], spec[3])
            elif spec[0] == "bool":
                val = a.get(pname, spec[1])
                if not isinstance(val, bool):
                    raise a.error(pname, f"must be true or false, got {val!r}")
                values[attr] = val
            elif spec[0] == "choice":
                values[attr] = a.choice(pname, spec[1], spec[2])
            elif spec[0] == "requires":
                req = a.sub(pname, {})
                req.reject_unknown(RESOURCES)
                values[attr] = tuple(req.integer(r, 0, 9, 0) for r in RESOURCES)
            elif spec[0] == "resources":
                res = a.str_list(pname)
                for r in res:
                    if r not in RESOURCES:
                        raise a.error(
                            pname, f"unknown resource '{r}' (resources: {', '.join(RESOURCES)})"
                        )
                values[attr] = tuple(res)
            else:
                enum = {"per": Per, "when": When, "target": Target}[spec[0]]
                names = _names(enum)
                if not legends:
                    names = tuple(n for n in names if n not in LEGENDS_PER and n != "all")
                values[attr] = a.choice(pname, names, spec[1])
        for pname in ("land_cost", "requirements"):
            if values.get(pname):
                raise a.error(pname, "only false is implemented (the Titan pays nothing)")
        if kind == "conditional_gain" and not (values["gold"] or values["lp"]):
            raise a.error("gold", "a conditional_gain must give gold or LP (both are 0)")
        if kind == "conditional_gain" and owner != "unit" and values["when"] != "always":
            raise a.error("when", f"'{values['when']}' needs a unit; a {owner} has no row/tokens")
        counters = (values.get("per"), values.get("counter"))
        if values.get("per_other") and owner != "unit":
            raise a.error("per_other", f"a {owner} is no unit: per_other needs a unit")
        if (a.has("per_cost") or a.has("per_other")) and not set(counters) & set(UNITS_COST_PER):
            raise a.error("per_cost", "per_cost / per_other go with a units_cost_* counter")
        if values.get("per") == "age_self" and not unit:
            raise a.error("per", f"'{values['per']}' needs a unit; a building has no tokens")
        if values.get("when") in ("aged", "front_row", "exactly_one_age") and not unit:
            raise a.error("when", f"'{values['when']}' needs a unit; a building has no row/tokens")
        if owner == "artifact" and values.get("target") in ("self", "others"):
            raise a.error("target", "an artifact carries no tokens: its target is 'all' or 'one'")
        if values.get("target") == "all" and owner == "unit":
            raise a.error("target", "'all' is an artifact's target (a unit uses self/others)")
        # Evaluation order of the war phase (scoring.py): production, income, unit strength,
        # kingdom strength, wars, then LP. A multiplier must be known when it is used.
        if "strong_units" in counters and not (kind == "lp" and phase == "war"):
            raise a.error("per", "'strong_units' is known only for a war-phase 'lp'")
        if "income_gold" in counters and phase != "war":
            raise a.error("per", "'income_gold' is known only in the war phase")
        out.append(Ability(phase=phase, kind=kind, on_deploy=on_deploy, **values))
    return tuple(out)


_RULE_INTS = {  # key -> (lo, hi)
    "turns": (1, TURNS),
    "start_gold": (0, 50),
    "deal": (1, DEAL),
    "keep": (0, KEEP),
    "front_spots": (1, FRONT_SPOTS),
    "back_spots": (0, BACK_SPOTS),
    "extra_front_spots": (0, EXTRA_FRONT_SPOTS),
    "war_lp": (0, 20),
    "base_income": (0, 20),
    "land_cost_per_building": (0, 20),
    "score_floor": (0, 0),
    "strong_units_min": (0, 30),
}
_RULE_BOOLS = (
    "reshuffle_discard",
    "land_cost_on_upgrade",
    "healed_units_age",
    "shapeshift_on_deploy",
    "shapeshift_free",
    "kraken_count_at_end",
)
_RULE_CHOICES = {
    "tie_break": ("gold_then_share",),
    "first_draft_direction": ("next", "previous"),
    "direct_level2_requirement": ("sum", "max"),
    "deploy_discard": ("not_death", "death"),
    "strong_units_scope": ("kingdom", "front"),
    "per_war_won_rows": ("any", "front"),
    "simultaneity_gold": ("less", "more"),  # §2.8: who acts first after more LP
    "deployment_order": ("spot", "tiers"),  # base engine | Legends §2.5 tiers
    "keep_timing": ("before_reveal", "end_of_phase"),  # base engine | Legends §2.4 step 5
}
# The Legends engine switches (spot/before_reveal are the base engine's; the Legends
# variant needs the other two, LEGENDS.md §D).
LEGENDS_ENGINE = {"deployment_order": "tiers", "keep_timing": "end_of_phase"}
# [variant.legends] keys besides the [rules] overrides: the reference's §8 switches.
_LEGENDS_INTS = {
    "artifact_cost_base": (0, 9),
    "artifact_cost_step": (0, 9),
    "artifact_cost_floor": (0, 9),
    "titan_level": (1, 2),
}
_LEGENDS_BOOLS = (
    "discount_active_when_paid_same_phase",
    "relic_of_fertility_ages",
    "use_port_abbey",
    "include_shadow",
)
_LEGENDS_CHOICES = {
    "court_jester_source": ("hand",),  # "placed" (§8) is not implemented
    "abbey_mode": ("set_flat", "per_set", "per_resource"),
}
LEGENDS_KEYS = (
    *_LEGENDS_INTS,
    *_LEGENDS_BOOLS,
    *_LEGENDS_CHOICES,
    "legends_buildings",
    "resource_alias",
)
VARIANT_KEYS = ("description", "min_players", "max_players", "cards", "expansions")
AGING_ORDER = ("heal", "death_abilities", "discard", "age_survivors")
OPTION_KEYS = (
    *_RULE_INTS,
    *_RULE_BOOLS,
    *_RULE_CHOICES,
    "aging_order",
    "expansions",
)


def _bool(f: Fields, key: str) -> bool:
    val = f.get(key)
    if not isinstance(val, bool):
        raise f.error(key, f"must be true or false, got {val!r}")
    return val


def _option(f: Fields, key: str) -> Any:
    """One [rules] key overridden in a variant table, validated like in [rules]."""
    if key in _RULE_INTS:
        return f.integer(key, *_RULE_INTS[key])
    if key in _RULE_BOOLS:
        return _bool(f, key)
    if key in _RULE_CHOICES:
        return f.choice(key, _RULE_CHOICES[key])
    raise f.error(key, "cannot be changed by a variant")


def _legends_options(v: Fields) -> dict[str, Any]:
    """The §8 switches of [variant.legends] (every key required) and its engine switches."""
    out: dict[str, Any] = {}
    for key, (lo, hi) in _LEGENDS_INTS.items():
        out[key] = v.integer(key, lo, hi)
    for key in _LEGENDS_BOOLS:
        out[key] = _bool(v, key)
    for key, choices in _LEGENDS_CHOICES.items():
        if v.get(key) == "placed":
            raise v.error(key, "'placed' (§8) is not implemented; use 'hand'")
        out[key] = v.choice(key, choices)
    fixed = v.get("legends_buildings")
    if fixed != "random" and not (
        isinstance(fixed, list) and len(fixed) == 2 and all(isinstance(x, str) for x in fixed)
    ):
        raise v.error("legends_buildings", f'must be "random" or a pair of ids, got {fixed!r}')
    out["legends_buildings"] = fixed if fixed == "random" else tuple(fixed)
    alias = v.sub("resource_alias")
    for word in alias.table:
        alias.choice(word, RESOURCES)
    out["resource_alias"] = dict(alias.table)
    for key, value in LEGENDS_ENGINE.items():
        if v.choice(key, _RULE_CHOICES[key]) != value:
            raise v.error(key, f"the Legends variant plays with {key} = '{value}'")
        out[key] = value
    return out


def _parse_rules(path: Path) -> Rules:
    doc = read_toml(path)
    top = Fields(path, doc, None)
    top.reject_unknown({"schema", "game", "rules", "two_player", "variant"})
    if top.get("game", "paper-tales") != "paper-tales":
        raise top.error("game", f"this is a rules file for '{doc['game']}', not paper-tales")
    r = top.sub("rules")
    r.reject_unknown(OPTION_KEYS)
    opts: dict[str, Any] = {}
    for key, (lo, hi) in _RULE_INTS.items():
        opts[key] = r.integer(key, lo, hi)
    for key in _RULE_BOOLS:
        opts[key] = _bool(r, key)
    for key, choices in _RULE_CHOICES.items():
        opts[key] = r.choice(key, choices)
    for key, value in LEGENDS_ENGINE.items():
        if opts[key] == value:
            raise r.error(key, f"'{value}' is the Legends engine: set it in [variant.legends]")
    order = tuple(r.str_list("aging_order"))
    if order != AGING_ORDER:
        raise r.error("aging_order", f"only the §8 order {', '.join(AGING_ORDER)} is implemented")
    opts["aging_order"] = order
    exp = r.get("expansions")
    if exp != []:
        raise r.error("expansions", f"no expansion data exists yet; must be [], got {exp!r}")
    opts["expansions"] = ()
    t = top.sub("two_player")
    t.reject_unknown({f.name for f in TwoPlayer.__dataclass_fields__.values()})
    two = TwoPlayer(
        unconfirmed=_bool(t, "unconfirmed"),
        deal=t.integer("deal", 1, DEAL_2P),
        discard_per_step=t.integer("discard_per_step", 0, 4),
        single_war=_bool(t, "single_war"),
        war_lp=t.integer("war_lp", 0, 20),
        double_ratio=t.integer("double_ratio", 1, 10),
        double_war_lp=t.integer("double_war_lp", 0, 40),
        zero_strength_wins=_bool(t, "zero_strength_wins"),
        per_war_won_times=t.integer("per_war_won_times", 0, 2),
    )
    if not two.single_war:
        raise t.error("single_war", "only the single-war rule is implemented for 2 players")
    variants: dict[str, dict[str, Any]] = {}
    vt = top.sub("variant")
    for name in vt.table:
        v = vt.sub(name)
        exp = v.get("expansions", [])
        if exp not in ([], ["legends"]):
            raise v.error("expansions", f"the only expansion is 'legends', got {exp!r}")
        legends = exp == ["legends"]
        overrides = [k for k in OPTION_KEYS if k != "expansions"]
        v.reject_unknown((*VARIANT_KEYS, *overrides, *(LEGENDS_KEYS if legends else ())))
        lo = v.integer("min_players", MIN_PLAYERS, MAX_PLAYERS)
        variants[name] = {
            "description": v.string("description"),
            "min_players": lo,
            "max_players": v.integer("max_players", lo, MAX_PLAYERS),
            "expansions": tuple(exp),
            "cards": tuple(v.str_list("cards")) if v.has("cards") else (),
            "options": {k: _option(v, k) for k in overrides if v.has(k)},
        }
        if legends:
            variants[name]["options"].update(_legends_options(v))
    if not variants:
        raise top.error("variant", "needs at least one [variant.NAME] table")
    return Rules(opts, two, variants)


# --- compiling -------------------------------------------------------------------------


def ability_row(
    a: Ability, owner: int, building: int, level: int, legends: bool = False
) -> np.ndarray:
    """The int32 opcode row of one ability (columns ``A_*``; ``legends``: also the Legends
    columns, and ``building`` is the owner kind ``OWNER_*``)."""
    row = np.zeros(N_ACOLS_LEGENDS if legends else N_ACOLS, dtype=np.int32)
    row[A_OWNER_BUILDING] = building
    row[A_OWNER] = owner
    row[A_LEVEL] = level
    row[A_PHASE] = Phase[a.phase.upper()]
    row[A_KIND] = EFFECT_CODE[a.kind]
    row[A_ON_DEPLOY] = a.on_deploy
    row[A_AMOUNT] = a.amount
    row[A_VALUE] = a.value
    row[A_PER] = Per[a.per.upper()]
    row[A_WHEN] = When[a.when.upper()]
    row[A_TARGET] = Target[a.target.upper()]
    row[A_MAX_COST] = a.max_cost
    row[A_AGE] = a.age
    row[A_MIN_AGE] = a.min_age
    row[A_RES_MASK] = sum(1 << Resource[r.upper()] for r in a.resources)
    if legends:
        row[A_GOLD] = a.gold
        row[A_LP] = a.lp
        row[A_REQ0 : A_REQ0 + N_RES] = a.requires
        row[A_COUNTER] = Per[a.counter.upper()]
        row[A_MIN] = a.minimum
        row[A_PER_COST] = a.per_cost
        row[A_PER_OTHER] = a.per_other
        row[A_COUNT] = a.count
        row[A_COST] = a.cost
        row[A_BUILD_LEVEL] = a.level
        row[A_TIMES] = a.times
        row[A_DISCOUNT] = -1 if a.discount == 0 else a.discount
        row[A_TIER] = ability_tier(a.kind, a.on_deploy) if a.phase == "deployment" else Tier.NONE
    return row


def rule_vector(rules: Rules) -> np.ndarray:
    """The int32 rule switches (``R_*``)."""
    o, t = rules.options, rules.two_player
    v = np.zeros(N_RULES, dtype=np.int32)
    v[R_TURNS] = o["turns"]
    v[R_START_GOLD] = o["start_gold"]
    v[R_DEAL] = o["deal"]
    v[R_KEEP] = o["keep"]
    v[R_FRONT_SPOTS] = o["front_spots"]
    v[R_BACK_SPOTS] = o["back_spots"]
    v[R_EXTRA_FRONT] = o["extra_front_spots"]
    v[R_WAR_LP] = o["war_lp"]
    v[R_BASE_INCOME] = o["base_income"]
    v[R_LAND_COST] = o["land_cost_per_building"]
    v[R_SCORE_FLOOR] = o["score_floor"]
    v[R_RESHUFFLE] = o["reshuffle_discard"]
    v[R_FIRST_DIRECTION] = 1 if o["first_draft_direction"] == "next" else -1
    v[R_DIRECT_L2_SUM] = o["direct_level2_requirement"] == "sum"
    v[R_LAND_ON_UPGRADE] = o["land_cost_on_upgrade"]
    v[R_DISCARD_IS_DEATH] = o["deploy_discard"] == "death"
    v[R_HEALED_AGE] = o["healed_units_age"]
    v[R_STRONG_FRONT_ONLY] = o["strong_units_scope"] == "front"
    v[R_STRONG_MIN] = o["strong_units_min"]
    v[R_PWW_FRONT_ONLY] = o["per_war_won_rows"] == "front"
    v[R_SHAPE_ON_DEPLOY] = o["shapeshift_on_deploy"]
    v[R_SHAPE_FREE] = o["shapeshift_free"]
    v[R_KRAKEN_AT_END] = o["kraken_count_at_end"]
    v[R2_DEAL] = t.deal
    v[R2_DISCARD] = t.discard_per_step
    v[R2_SINGLE_WAR] = t.single_war
    v[R2_WAR_LP] = t.war_lp
    v[R2_DOUBLE_RATIO] = t.double_ratio
    v[R2_DOUBLE_LP] = t.double_war_lp
    v[R2_ZERO_WINS] = t.zero_strength_wins
    v[R2_PWW_TIMES] = t.per_war_won_times
    return v


def compile_tables(cards: CardSet) -> Tables:
    """Numpy tables: units, building faces, abilities (units first), rules, deck. A
    Legends card set gives the same five arrays in their Legends form (see
    ``LegendsTables``; ``compile_legends_tables`` adds the artifacts and switches)."""
    leg = cards.legends
    rows: list[np.ndarray] = []
    ut = np.zeros((len(cards.units), N_UCOLS), dtype=np.int32)
    for u, unit in enumerate(cards.units):
        ut[u, U_COPIES] = unit.copies
        ut[u, U_COST] = unit.cost
        ut[u, U_STRENGTH] = unit.strength
        ut[u, U_PROD0 : U_PROD0 + N_RES] = unit.produces.amounts
        ut[u, U_PROD_WHEN] = When[unit.produces.when.upper()]
        ut[u, U_PROD_PER] = Per[unit.produces.per.upper()]
        ut[u, U_AB0] = len(rows)
        ut[u, U_NAB] = len(unit.abilities)
        rows += [ability_row(a, u, OWNER_UNIT, 0, leg) for a in unit.abilities]
    bt = np.zeros((len(cards.buildings), LEVELS, N_BCOLS), dtype=np.int32)
    for b, building in enumerate(cards.buildings):
        for k, lv in enumerate(building.levels):
            bt[b, k, B_REQ0 : B_REQ0 + N_RES] = lv.requires
            bt[b, k, B_GOLD_INSTEAD] = -1 if lv.gold_instead is None else lv.gold_instead
            bt[b, k, B_LP] = lv.lp
            bt[b, k, B_PROD0 : B_PROD0 + N_RES] = lv.produces.amounts
            bt[b, k, B_EXTRA_SPOT] = lv.extra_front_spot
            bt[b, k, B_AB0] = len(rows)
            bt[b, k, B_NAB] = len(lv.abilities)
            rows += [ability_row(a, b, OWNER_BUILDING, k + 1, leg) for a in lv.abilities]
    for x, art in enumerate(cards.artifacts):
        rows += [ability_row(a, x, OWNER_ARTIFACT, 0, leg) for a in art.abilities]
    ncols = N_ACOLS_LEGENDS if leg else N_ACOLS
    ab = np.stack(rows) if rows else np.zeros((0, ncols), dtype=np.int32)
    n_units = len(cards.units)
    deck = np.array(
        [u for u, unit in enumerate(cards.units) for _ in range(unit.copies)]
        + [n_units + x for x, art in enumerate(cards.artifacts) for _ in range(art.copies)],
        dtype=np.int32,
    )
    return Tables(ut=ut, bt=bt, ab=ab, rules=rule_vector(cards.rules), deck=deck)


def compile_legends_tables(cards: CardSet) -> LegendsTables:
    """A Legends card set's tables: ``compile_tables`` + ``xt`` (artifacts, their ability
    rows follow the building faces' in ``ab``) + ``lrules`` (switches ``L_*``)."""
    if not cards.legends:
        raise ValueError("compile_legends_tables needs a Legends card set")
    t = compile_tables(cards)
    xt = np.zeros((len(cards.artifacts), N_XCOLS), dtype=np.int32)
    row = sum(len(u.abilities) for u in cards.units) + sum(
        len(lv.abilities) for b in cards.buildings for lv in b.levels
    )
    for x, art in enumerate(cards.artifacts):
        xt[x, X_COPIES] = art.copies
        xt[x, X_LP] = art.lp
        xt[x, X_PROD0 : X_PROD0 + N_RES] = art.produces.amounts
        xt[x, X_AB0] = row
        xt[x, X_NAB] = len(art.abilities)
        row += len(art.abilities)
    o = cards.rules.options
    lr = np.zeros(N_LRULES, dtype=np.int32)
    lr[L_BUILDING_PAIR] = building_pair_index(cards)
    lr[L_SIMULTANEITY_MORE_GOLD] = o["simultaneity_gold"] == "more"
    lr[L_ART_COST_BASE] = o["artifact_cost_base"]
    lr[L_ART_COST_STEP] = o["artifact_cost_step"]
    lr[L_ART_COST_FLOOR] = o["artifact_cost_floor"]
    lr[L_DISCOUNT_SAME_PHASE] = o["discount_active_when_paid_same_phase"]
    lr[L_USE_PORT_ABBEY] = o["use_port_abbey"]
    lr[L_TITAN_LEVEL] = o["titan_level"]
    lr[L_ABBEY_MODE] = ("set_flat", "per_set", "per_resource").index(o["abbey_mode"])
    return LegendsTables(*t, xt=xt, lrules=lr)
