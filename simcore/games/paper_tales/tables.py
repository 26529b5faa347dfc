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

Scoring (and the part-2 kernel) receive these arrays as arguments, never as globals, so
``--cards FILE`` and A/B runs work. Enums are for people, ints for kernels: every
``IntEnum`` value is the kernel's code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from simcore.cards import CardDataError, Fields, file_sha256, read_toml

HERE = Path(__file__).resolve().parent
DEFAULT_CARDS = HERE / "cards.toml"
DEFAULT_RULES = HERE / "rules.toml"

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
MAX_AGE = 30  # age tokens on one unit: the box holds 30 (§1)
MAX_ABILITIES = 4  # abilities on one unit or one building face (base game: 3, Kraken)
MAX_COPIES = 9
MAX_DECK = 200
# Decision spaces of the turn engine (reference.py, "Decisions and their option order"):
# a deployment step is STOP, or PLACE one of <= 6 hand cards on the first empty spot of
# either row or on one of <= 5 old units, or MOVE one of <= 5 old units.
MAX_DEPLOY_OPTIONS = 1 + MAX_HAND * (2 + MAX_SPOTS) + MAX_SPOTS  # 48
MAX_DEPLOY_STEPS = MAX_HAND + MAX_SPOTS  # 11 placements/moves before STOP
MAX_BUILD_OPTIONS = 1 + 2 * MAX_BUILDINGS  # nothing, or per building: L1 / direct L2, or upgrade


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
R_FIRST_DIRECTION = 12  # +1: turn 1 passes to seat+1; -1: to seat-1
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

    def text(self) -> str:
        """A compact description for the card catalog, e.g. ``war: +1 LP x food``."""
        params = []
        for key in EFFECTS[self.kind][1]:
            val = getattr(self, key)
            if key in ("per", "when") and val in ("one", "always"):
                continue
            params.append(f"{key}={'/'.join(val) if isinstance(val, tuple) else val}")
        head = f"{self.phase}{' (on deploy)' if self.on_deploy else ''}: {self.kind}"
        return head + (f" {', '.join(params)}" if params else "")


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

    def ids(self) -> list[str]:
        return [u.id for u in self.units]


class Tables(NamedTuple):
    """Everything the scorer and the kernel need about the cards and the rules."""

    ut: np.ndarray  # int32[U, N_UCOLS]: units, columns U_*
    bt: np.ndarray  # int32[B, LEVELS, N_BCOLS]: building faces, columns B_*
    ab: np.ndarray  # int32[A, N_ACOLS]: abilities, columns A_*
    rules: np.ndarray  # int32[N_RULES]: switches R_*
    deck: np.ndarray  # int32[deck_size]: one unit index per physical card


# --- loading ---------------------------------------------------------------------------


def load_cardset(cards_path: Path | None = None, rules_path: Path | None = None) -> CardSet:
    """Read and validate a card file (default: the base game) and the rules file."""
    cards_path = Path(cards_path) if cards_path else DEFAULT_CARDS
    rules_path = Path(rules_path) if rules_path else DEFAULT_RULES
    doc = read_toml(cards_path)
    top = Fields(cards_path, doc, None)
    top.reject_unknown({"schema", "game", "deck_size", "unit", "building"})
    if top.get("schema", 1) != 1:
        raise top.error("schema", f"unsupported schema {doc['schema']!r} (this loader reads 1)")
    if top.get("game", "paper-tales") != "paper-tales":
        raise top.error("game", f"this is a card file for '{doc['game']}', not paper-tales")
    deck_size = top.integer("deck_size", 1, MAX_DECK)
    units = _parse_units(cards_path, top)
    total = sum(u.copies for u in units)
    if total != deck_size:
        raise top.error(
            "deck_size", f"the unit copies sum to {total}, the file declares {deck_size}"
        )
    buildings = _parse_buildings(cards_path, top)
    rules = _parse_rules(rules_path)
    return CardSet(
        units=tuple(units),
        buildings=tuple(buildings),
        rules=rules,
        deck_size=deck_size,
        files=(cards_path, rules_path),
        sha256=file_sha256(cards_path, rules_path),
        index={u.id: i for i, u in enumerate(units)},
        building_index={b.id: i for i, b in enumerate(buildings)},
    )


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


def _common(f: Fields) -> dict[str, Any]:
    status = f.choice("status", STATUSES)
    source = f.string("source")
    for key in (s.strip() for s in source.split(",")):
        if key not in SOURCE_KEYS:
            raise f.error("source", f"unknown source key '{key}' (keys: {', '.join(SOURCE_KEYS)})")
    return {
        "name": f.string("name"),
        "name_fr": f.optional_string("name_fr"),
        "status": status,
        "source": source,
        "text": f.string("text"),
        "notes": f.optional_string("notes"),
    }


def _parse_units(path: Path, top: Fields) -> list[Unit]:
    units = []
    for f, cid in _entries(path, top, "unit"):
        f.reject_unknown(
            {"id", "name", "name_fr", "copies", "cost", "strength", "produces", "abilities"}
            | {"status", "source", "text", "notes"}
        )
        units.append(
            Unit(
                id=cid,
                copies=f.integer("copies", 1, MAX_COPIES),
                cost=f.integer("cost", -9, 9),
                strength=f.integer("strength", 0, 20),
                produces=_parse_production(f, "produces"),
                abilities=_parse_abilities(f, "abilities", unit=True),
                **_common(f),
            )
        )
    return units


def _parse_buildings(path: Path, top: Fields) -> list[Building]:
    entries = _entries(path, top, "building")
    if len(entries) > MAX_BUILDINGS:
        raise top.error("building", f"at most {MAX_BUILDINGS} buildings, got {len(entries)}")
    out = []
    for f, bid in entries:
        f.reject_unknown(
            {"id", "name", "name_fr", "level1", "level2", "status", "source", "text", "notes"}
        )
        levels = tuple(_parse_level(f.sub(f"level{n}")) for n in (1, 2))
        out.append(Building(id=bid, levels=levels, **_common(f)))  # type: ignore[arg-type]
    return out


def _parse_level(f: Fields) -> BuildingLevel:
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
        abilities=_parse_abilities(f, "abilities", unit=False),
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


def _parse_abilities(f: Fields, key: str, unit: bool) -> tuple[Ability, ...]:
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
        kind = a.choice("kind", EFFECTS)
        phases, params = EFFECTS[kind]
        phase = a.choice("phase", PHASES)
        if phase not in phases:
            raise a.error("phase", f"effect '{kind}' acts in {' or '.join(phases)}, not {phase}")
        a.reject_unknown(("phase", "kind", "on_deploy", *params))
        on_deploy = a.get("on_deploy", False)
        if not isinstance(on_deploy, bool):
            raise a.error("on_deploy", f"must be true or false, got {on_deploy!r}")
        if on_deploy and (phase != "deployment" or not unit):
            raise a.error("on_deploy", "only a unit's deployment-phase ability can be on_deploy")
        if kind == "lp" and phase == "deployment" and not on_deploy:
            raise a.error("on_deploy", "a deployment-phase 'lp' must be on_deploy = true")
        if not unit and kind in ("fight_from_back", "set_strength", "cannot_fight", "add_age"):
            raise a.error("kind", f"'{kind}' acts on a unit; a building cannot carry it")
        values: dict[str, Any] = {}
        for pname, spec in params.items():
            if spec[0] == "int":
                values[pname] = a.integer(pname, spec[1], spec[2], spec[3])
            elif spec[0] == "resources":
                res = a.str_list(pname)
                for r in res:
                    if r not in RESOURCES:
                        raise a.error(
                            pname, f"unknown resource '{r}' (resources: {', '.join(RESOURCES)})"
                        )
                values[pname] = tuple(res)
            else:
                enum = {"per": Per, "when": When, "target": Target}[spec[0]]
                values[pname] = a.choice(pname, _names(enum), spec[1])
        if values.get("per") == "age_self" and not unit:
            raise a.error("per", f"'{values['per']}' needs a unit; a building has no tokens")
        if values.get("when") in ("aged", "front_row", "exactly_one_age") and not unit:
            raise a.error("when", f"'{values['when']}' needs a unit; a building has no row/tokens")
        # Evaluation order of the war phase (scoring.py): production, income, unit strength,
        # kingdom strength, wars, then LP. A multiplier must be known when it is used.
        if values.get("per") == "strong_units" and not (kind == "lp" and phase == "war"):
            raise a.error("per", "'strong_units' is known only for a war-phase 'lp'")
        if values.get("per") == "income_gold" and phase != "war":
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
}
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
        v.reject_unknown({"description", "min_players", "max_players"})
        lo = v.integer("min_players", MIN_PLAYERS, MAX_PLAYERS)
        variants[name] = {
            "description": v.string("description"),
            "min_players": lo,
            "max_players": v.integer("max_players", lo, MAX_PLAYERS),
        }
    if not variants:
        raise top.error("variant", "needs at least one [variant.NAME] table")
    return Rules(opts, two, variants)


# --- compiling -------------------------------------------------------------------------


def ability_row(a: Ability, owner: int, building: bool, level: int) -> np.ndarray:
    """The int32 opcode row of one ability (columns ``A_*``)."""
    row = np.zeros(N_ACOLS, dtype=np.int32)
    row[A_OWNER_BUILDING] = building
    row[A_OWNER] = owner
    row[A_LEVEL] = level
    row[A_PHASE] = Phase[a.phase.upper()]
    row[A_KIND] = Effect[a.kind.upper()]
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
    """Numpy tables: units, building faces, abilities (units first), rules, deck."""
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
        rows += [ability_row(a, u, False, 0) for a in unit.abilities]
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
            rows += [ability_row(a, b, True, k + 1) for a in lv.abilities]
    ab = np.stack(rows) if rows else np.zeros((0, N_ACOLS), dtype=np.int32)
    deck = np.array(
        [u for u, unit in enumerate(cards.units) for _ in range(unit.copies)], dtype=np.int32
    )
    return Tables(ut=ut, bt=bt, ab=ab, rules=rule_vector(cards.rules), deck=deck)
