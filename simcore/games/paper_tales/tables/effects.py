"""The enums of the card data (``Resource``, ``Phase``, ``Effect``, ``LegendsEffect``,
``Per``, ``When``, ``Target``, ``Tier``: every value is the kernel's code) and the effect
kinds' specs: the phases each kind acts in and its parameters, base and Legends. §N:
``docs/rules/paper-tales.md``; the expansion's rules: ``docs/rules/paper-tales-legends.md``."""

from __future__ import annotations

from enum import IntEnum
from typing import Any


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


def enum_names(enum: type[IntEnum]) -> tuple[str, ...]:
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
assert set(EFFECTS) == set(enum_names(Effect))
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
assert set(LEGENDS_EFFECT_SPECS) == set(enum_names(LegendsEffect))
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
# On-deploy kinds that always act in the Deployment phase the card enters
# (paper-tales-legends.md §6.2).
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


class Tier(IntEnum):
    """Resolution tiers of the Legends Deployment phase (paper-tales-legends.md §2.5,
    LEGENDS.md §B.2 step 5)."""

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
