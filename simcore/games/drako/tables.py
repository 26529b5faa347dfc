"""DRAKO data: ``rules.toml`` -> validated ``CardSet`` -> numpy tables for scoring/kernel.

The rules file says *what* the game is (kinds and copies, land points, rivalries, dragon
values, the 15 Legends as requirement data, every §9 option and the two presets; every §N
is a section of ``docs/rules/drako.md``, DRAKO's rules as implemented). This module checks
it, with one-line ``CardDataError``s naming file, entry and field, and compiles one preset
at one player count into the int32 arrays of ``Tables``. Scoring and the kernel
receive these arrays as arguments, never as globals, so ``--cards FILE`` and A/B runs
work.

Enums are for people, ints for kernels: every ``IntEnum`` value is the kernel's code.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import IntEnum
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from talesim.simcore.cards import CardDataError, Fields, entries, file_sha256, read_toml

HERE = Path(__file__).resolve().parent
DEFAULT_RULES = HERE / "rules.toml"


class Kind(IntEnum):
    """The 10 kingdom kinds (§2.1); the value is the kind id in grids and tables."""

    PLAIN = 0
    FOREST = 1
    MOUNTAIN = 2
    SWAMP = 3
    HUMAN = 4
    ELF = 5
    DWARF = 6
    GOBLIN = 7
    DRAGON = 8
    PORTAL = 9


KINDS = tuple(k.name.lower() for k in Kind)  # card ids, in kind-id order
N_KINDS = len(KINDS)


class Category(IntEnum):
    LAND = 0
    TRIBE = 1
    DRAGON = 2
    PORTAL = 3


CATEGORIES = tuple(c.name.lower() for c in Category)
KIND_CATEGORY = {  # the category each fixed kind id must have (§2.1)
    Kind.PLAIN: Category.LAND,
    Kind.FOREST: Category.LAND,
    Kind.MOUNTAIN: Category.LAND,
    Kind.SWAMP: Category.LAND,
    Kind.HUMAN: Category.TRIBE,
    Kind.ELF: Category.TRIBE,
    Kind.DWARF: Category.TRIBE,
    Kind.GOBLIN: Category.TRIBE,
    Kind.DRAGON: Category.DRAGON,
    Kind.PORTAL: Category.PORTAL,
}

# The Legend ids of the issue, in data order (data, dataset and JSON use these).
LEGEND_IDS = (
    "human-elf",
    "human-dwarf",
    "goblin-pair",
    "human-pair",
    "elf-pair",
    "dwarf-pair",
    "four-tribes",
    "battle-goblin-human",
    "battle-goblin-elf",
    "battle-goblin-dwarf",
    "battle-elf-dwarf",
    "three-plains",
    "three-swamps",
    "three-mountains",
    "three-forests",
)
STATUSES = ("confirmed", "inferred", "proposal")

# The score breakdown, in the order of the dataset and of the tie-break key (§7.5).
BREAKDOWN = ("elf", "dwarf", "human", "goblin", "dragon", "conflicts", "legends")
N_BREAKDOWN = len(BREAKDOWN)
B_DRAGON, B_CONFLICTS, B_LEGENDS = 4, 5, 6
N_TRIBE_COLUMNS = 4  # the tribes' columns come first: elf, dwarf, human, goblin
# §7.5 tie-break categories (option ``tie_break_tribes``): "each" tribe its own category
# (the seven columns above, Game Park), or the four tribes "summed" into one (the brief's
# four: tribe Harmony points, dragons, Legends, conflicts).
TIE_BREAK_TRIBES = ("each", "summed")
TRIBE_COLUMN = {Kind.ELF: 0, Kind.DWARF: 1, Kind.HUMAN: 2, Kind.GOBLIN: 3}

# Fixed sizes (named bounds; reference/ asserts they are never exceeded).
SIDE = 4  # a kingdom is SIDE x SIDE cards (§3)
CELLS = SIDE * SIDE  # 16 cards per kingdom; cell = row * SIDE + col, row 0 first
CENTRE = (5, 6, 9, 10)  # the central 2x2, dealt face up (§3), in row-major order
BORDER = tuple(c for c in range(CELLS) if c not in CENTRE)  # the 12 face-down cells
MIN_PLAYERS = 2
MAX_PLAYERS = 4
MARKS = (2, 3, 4)  # player-count back marks (§2.2): a card marked m is used by >= m players
N_LEGENDS = len(LEGEND_IDS)
MAX_LEGEND_ROW = N_LEGENDS

# Turn cap. Each turn reveals at most one card (§4.2) and a player needs 12 reveals, so
# the shortest game is 12 turns of the player who ends it; but a turn may also replace a
# face-up card and reveal nothing, so nothing bounds a game. Measured with reference/
# (seed 7; README "Turn cap"): random players, 3,000 games per player count, at most 62
# turns per player (mean 24.5 at 2 players), the tail falling ~5x every 8 turns; greedy and
# legend-hunter at most 23. A cap of 200 turns per player (16x the 12-turn minimum, 3x the
# longest game seen, odds below 1e-15 for random play by that tail) is never reached by the
# shipped policies; a game that reaches it ends there, is scored after the final reveal
# like any other, and is recorded with cap_hit = True. It is the default of the rules option
# ``turns_per_player_cap`` (a test sets it tiny to check capped games are recorded).
TURNS_PER_PLAYER_CAP = 200
MAX_TURNS_PER_PLAYER_CAP = 1000  # option bound: 4 x 1000 turns fit the int16 turn columns
MAX_TURNS = MAX_TURNS_PER_PLAYER_CAP * MAX_PLAYERS  # turns of the longest possible game


class Shape(IntEnum):
    """Legend requirement shapes (§5)."""

    LINKED = 0  # a `centre` card with >= `count` linked `around` cards (either_way: or reverse)
    PRESENT = 1  # at least one face-up card of each kind in `kinds`


class Adjacency(IntEnum):
    LINKED = 0  # orthogonal + portal chains, with the portal-blind (goblin) rules of §6
    ORTHOGONAL = 1  # direct neighbours only


SHAPES = tuple(s.name.lower() for s in Shape)
ADJACENCIES = tuple(a.name.lower() for a in Adjacency)

# Columns of the legend table ``legend`` (one int32 row per Legend).
LG_SHAPE = 0
LG_CENTRE = 1  # kind id (LINKED)
LG_AROUND = 2  # kind id (LINKED)
LG_COUNT = 3  # linked `around` cards needed (LINKED)
LG_EITHER = 4  # 1: also met the other way round (LINKED)
LG_ADJ = 5  # Adjacency code (LINKED)
LG_KINDS = 6  # bitmask of kind ids that must be present (PRESENT)
LG_POINTS = 7
N_LG_COLS = 8

# Rule switches (``rules`` int32 vector), one per §9 key that changes play or scoring.
R_PORTAL_CHAINING = 0
R_GOBLIN_LAND_VIA_PORTAL = 1
R_GOBLIN_CONFLICT_VIA_PORTAL = 2
R_DRAGON_VIA_PORTAL = 3
R_LEGEND_GOBLIN_VIA_PORTAL = 4
R_DRAGON_MAX_POSITIVE = 5
R_CONFLICT_POINTS = 6
R_LEGEND_ROW = 7
R_LEGENDS_PER_TURN = 8
R_FACE_UP_ONLY = 9  # legends checked on face-up cards only
R_CLAIM_AFTER_FINAL = 10
R_CLAIM_BEFORE = 11  # 1: a claim may also be made before the action
R_SAME_KIND_FORBIDDEN = 12
R_CENTRE_DISTINCT = 13
R_KEEP_TOP = 14  # reshuffle keeps the top discard
R_TIE_CATEGORIES = 15  # 1: §7.5 category tie-break; 0: tied players share
R_TURN_CAP = 16  # turns per player after which a game ends (cap_hit)
R_TIE_TRIBES_SUMMED = 17  # 1: the four tribes' points are one §7.5 category (their sum)
N_RULES = 18


# --- the data ----------------------------------------------------------------------------


@dataclass(frozen=True)
class KindCard:
    """One kingdom kind as written in the rules file."""

    id: str
    name: str
    category: str
    copies_by_mark: tuple[int, int, int]  # cards marked 2, 3, 4
    land_points: dict[str, int]  # tribes: points per distinct linked land, by land id
    portal_blind: bool
    domesticates: bool
    status: str
    text: str

    def copies(self, players: int) -> int:
        """Cards of this kind in the deck of a ``players``-player game (§2.2)."""
        return sum(n for mark, n in zip(MARKS, self.copies_by_mark, strict=True) if mark <= players)


@dataclass(frozen=True)
class Requirement:
    shape: str  # linked | present
    centre: str = ""
    around: str = ""
    count: int = 0
    either_way: bool = False
    adjacency: str = "linked"
    kinds: tuple[str, ...] = ()

    def text(self) -> str:
        if self.shape == "present":
            return "face up: " + " + ".join(self.kinds)
        how = " (orthogonal)" if self.adjacency == "orthogonal" else ""
        out = f"{self.centre} linked to {self.count} {self.around}{how}"
        if self.either_way:
            out += f", or {self.around} linked to {self.count} {self.centre}"
        return out


@dataclass(frozen=True)
class Legend:
    id: str
    name: str
    family: str
    points: int
    requirement: Requirement
    status: str
    text: str


@dataclass(frozen=True)
class Options:
    """Every §9 key, after a preset's overrides."""

    legend_row_size: int
    orthogonal_only: bool
    portal_chaining: bool
    dedupe_links: bool
    goblin_land_via_portal: bool
    goblin_conflict_via_portal: bool
    goblin_goblin_conflict: bool
    conflict_points: int
    rivals: tuple[tuple[str, str], ...]
    dragon_values: tuple[int, ...]
    dragon_max_positive: int
    dragon_via_portal: bool
    legend_goblin_via_portal: bool
    legends_per_turn: int
    legend_check_face_up_only: bool
    legend_claim_after_final_reveal: bool
    legend_claim_timing: str
    legend_kept_if_broken: bool
    discard_take_must_place: bool
    replace_locked: tuple[str, ...]
    replace_same_kind_forbidden: bool
    setup_center_distinct: bool
    reshuffle_discard_keep_top: bool
    end_immediately: bool
    tie_break: str
    tie_break_tribes: str  # "each": a category per tribe (7 in all); "summed": one (4)
    turns_per_player_cap: int = TURNS_PER_PLAYER_CAP  # simulator safety, not a game rule

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly (the manifest's rule options)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = (
                [list(v) if isinstance(v, tuple) else v for v in value]
                if isinstance(value, tuple)
                else value
            )
        return out


OPTION_KEYS = tuple(f.name for f in fields(Options))


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    options: Options


@dataclass(frozen=True)
class CardSet:
    """The validated rules file: kinds (in kind-id order), Legends (file order), presets."""

    kinds: tuple[KindCard, ...]
    legends: tuple[Legend, ...]
    presets: dict[str, Preset]
    files: tuple[Path, ...]
    sha256: str = ""

    def preset(self, name: str) -> Preset:
        try:
            return self.presets[name]
        except KeyError:
            known = ", ".join(self.presets)
            raise ValueError(f"unknown rules preset '{name}' (presets: {known})") from None

    def legend_index(self) -> dict[str, int]:
        return {lg.id: i for i, lg in enumerate(self.legends)}

    def deck(self, players: int) -> list[int]:
        """The unshuffled deck: kind ids in kind order, ``copies(players)`` of each (§2.2)."""
        return [k for k, kind in enumerate(self.kinds) for _ in range(kind.copies(players))]


class Tables(NamedTuple):
    """Everything scoring and the kernel need about one preset at one player count."""

    kind_cat: np.ndarray  # int32[N_KINDS]: Category code
    kind_blind: np.ndarray  # int32[N_KINDS]: 1 = portal-blind tribe (goblin)
    kind_tame: np.ndarray  # int32[N_KINDS]: 1 = two linked cards domesticate a dragon
    kind_locked: np.ndarray  # int32[N_KINDS]: 1 = a face-up card of it can't be replaced
    land_pts: np.ndarray  # int32[N_KINDS, N_KINDS]: [tribe, land] points per linked land
    rival: np.ndarray  # int32[N_KINDS, N_KINDS]: 1 = a linked pair is a conflict (symmetric)
    legend: np.ndarray  # int32[N_LEGENDS, N_LG_COLS]: requirement rows, columns LG_*
    dragon_values: np.ndarray  # int32[V]: value of each dragon when the kingdom has n (index n-1)
    adj: np.ndarray  # int64[CELLS]: bitmask of each cell's neighbours (orthogonal or 8)
    rules: np.ndarray  # int32[N_RULES]: switches R_*
    deck: np.ndarray  # int32[D]: the unshuffled deck for this player count (kind ids)
    pair_adjacent: np.ndarray  # int32[N_KINDS, N_KINDS]: §7.1 + §7.2 points of two adjacent cards
    pair_portal: np.ndarray  # int32[N_KINDS, N_KINDS]: the same, linked only through portals


# --- loading -------------------------------------------------------------------------------


def load_cardset(
    cards_path: Path | None = None, rules_path: Path | None = None, variant: str | None = None
) -> CardSet:
    """Read and validate the rules file (default: the built-in ``rules.toml``). DRAKO's cards
    and rules are one file, named by ``cards_path`` or ``rules_path`` (two different files
    are refused). The card set serves every preset (``compile_tables`` takes one);
    ``variant``, if given, must be one of its presets."""
    if cards_path and rules_path and Path(cards_path) != Path(rules_path):
        raise CardDataError(rules_path, "DRAKO's cards and rules are one file, not two")
    path = Path(cards_path or rules_path or DEFAULT_RULES)
    doc = read_toml(path)
    top = Fields(path, doc, None)
    top.for_game("drako")
    top.reject_unknown({"schema", "game", "deck", "kind", "legend", "rules", "preset"})
    deck = top.sub("deck", {})
    deck.reject_unknown({"copies_by_mark"})
    default_copies = _marks(deck, "copies_by_mark", (4, 2, 2))
    kinds = _parse_kinds(path, top.get("kind", None), default_copies)
    legends = _parse_legends(path, top.get("legend", None))
    base = Fields(path, top.sub("rules").table, "rules")
    _parse_options(base)  # the shared defaults must be valid on their own
    presets: dict[str, Preset] = {}
    pt = top.sub("preset")
    if not pt.table:
        raise pt.error("preset", "needs at least one [preset.NAME] table")
    for name in pt.table:
        p = pt.sub(name)
        p.reject_unknown({"description", *OPTION_KEYS})
        description = p.string("description", name)
        merged = {**base.table, **{k: v for k, v in p.table.items() if k != "description"}}
        pf = Fields(path, merged, f"preset.{name}")
        options = _parse_options(pf)
        if options.legend_row_size > len(legends):
            raise pf.error("legend_row_size", f"larger than the {len(legends)} legends")
        presets[name] = Preset(name, description, options)
    if variant is not None and variant not in presets:
        raise CardDataError(path, f"no [preset.{variant}] table", field="preset")
    return CardSet(tuple(kinds), tuple(legends), presets, (path,), file_sha256(path))


def _marks(f: Fields, key: str, default: Any = ...) -> tuple[int, int, int]:
    value = f.get(key, default)
    if (
        not isinstance(value, list | tuple)
        or len(value) != len(MARKS)
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 20 for v in value)
    ):
        raise f.error(key, f"must be 3 integers 0..20 (cards marked 2, 3, 4), got {value!r}")
    return (int(value[0]), int(value[1]), int(value[2]))


def _flag(f: Fields, key: str, only: bool | None = None) -> bool:
    value = f.get(key)
    if not isinstance(value, bool):
        raise f.error(key, f"must be true or false, got {value!r}")
    if only is not None and value is not only:
        raise f.error(key, f"only {str(only).lower()} is implemented (docs/rules/drako.md §9)")
    return value


def _kind_id(f: Fields, key: str, value: Any, allowed: tuple[str, ...] = KINDS) -> str:
    if value not in allowed:
        raise f.error(key, f"unknown kind {value!r} (kinds: {', '.join(allowed)})")
    return str(value)


def _parse_kinds(path: Path, raw: Any, default_copies: tuple[int, int, int]) -> list[KindCard]:
    if not isinstance(raw, list) or not raw:
        raise CardDataError(path, "needs the [[kind]] tables", field="kind")
    by_id: dict[str, KindCard] = {}
    for f in entries(path, raw, "kind"):
        f.reject_unknown(
            {
                "id",
                "name",
                "category",
                "copies_by_mark",
                "land_points",
                "portal_blind",
                "domesticates",
                "status",
                "text",
            }
        )
        kid = _kind_id(f, "id", f.string("id"))
        if kid in by_id:
            raise f.error("id", "duplicate kind id")
        category = f.choice("category", CATEGORIES)
        expected = KIND_CATEGORY[Kind[kid.upper()]].name.lower()
        if category != expected:
            raise f.error("category", f"{kid} is a {expected} (§2.1), not a {category}")
        tribe = category == "tribe"
        if not tribe:
            for key in ("land_points", "portal_blind", "domesticates"):
                if f.has(key):
                    raise f.error(key, "only tribes have this field")
        land_points: dict[str, int] = {}
        if tribe:
            lp = f.sub("land_points", {})
            lands = tuple(k for k in KINDS if KIND_CATEGORY[Kind[k.upper()]] == Category.LAND)
            lp.reject_unknown(lands)
            land_points = {land: lp.integer(land, -10, 10) for land in lands if lp.has(land)}
        by_id[kid] = KindCard(
            id=kid,
            name=f.string("name"),
            category=category,
            copies_by_mark=_marks(f, "copies_by_mark", list(default_copies)),
            land_points=land_points,
            portal_blind=_flag(f, "portal_blind") if f.has("portal_blind") else False,
            domesticates=_flag(f, "domesticates") if f.has("domesticates") else False,
            status=f.choice("status", STATUSES),
            text=f.string("text"),
        )
    missing = [k for k in KINDS if k not in by_id]
    if missing:
        raise CardDataError(path, f"missing kind(s): {', '.join(missing)}", field="kind")
    return [by_id[k] for k in KINDS]


def _parse_legends(path: Path, raw: Any) -> list[Legend]:
    if not isinstance(raw, list) or not raw:
        raise CardDataError(path, "needs the [[legend]] tables", field="legend")
    legends: list[Legend] = []
    seen: set[str] = set()
    for f in entries(path, raw, "legend"):
        f.reject_unknown({"id", "name", "family", "points", "requirement", "status", "text"})
        lid = f.string("id")
        if lid not in LEGEND_IDS:
            raise f.error("id", f"unknown legend id (legends: {', '.join(LEGEND_IDS)})")
        if lid in seen:
            raise f.error("id", "duplicate legend id")
        seen.add(lid)
        legends.append(
            Legend(
                id=lid,
                name=f.string("name"),
                family=f.string("family"),
                points=f.integer("points", -20, 20),
                requirement=_parse_requirement(f.sub("requirement")),
                status=f.choice("status", STATUSES),
                text=f.string("text"),
            )
        )
    if len(legends) < 8:
        raise CardDataError(path, f"needs at least 8 legends, found {len(legends)}", field="legend")
    return legends


def _parse_requirement(f: Fields) -> Requirement:
    shape = f.choice("shape", SHAPES)
    if shape == "present":
        f.reject_unknown({"shape", "kinds"})
        kinds = f.str_list("kinds")
        if not kinds:
            raise f.error("kinds", "names at least one kind")
        return Requirement("present", kinds=tuple(_kind_id(f, "kinds", k) for k in kinds))
    f.reject_unknown({"shape", "centre", "around", "count", "either_way", "adjacency"})
    return Requirement(
        "linked",
        centre=_kind_id(f, "centre", f.string("centre")),
        around=_kind_id(f, "around", f.string("around")),
        count=f.integer("count", 1, 8),
        either_way=_flag(f, "either_way") if f.has("either_way") else False,
        adjacency=f.choice("adjacency", ADJACENCIES, "linked"),
    )


def _parse_options(f: Fields) -> Options:
    f.reject_unknown(OPTION_KEYS)
    rivals_raw = f.get("rivals")
    if not isinstance(rivals_raw, list) or not all(
        isinstance(p, list) and len(p) == 2 for p in rivals_raw
    ):
        raise f.error("rivals", f"must be a list of [kind, kind] pairs, got {rivals_raw!r}")
    tribes = tuple(k for k in KINDS if KIND_CATEGORY[Kind[k.upper()]] == Category.TRIBE)
    rivals = tuple(
        (_kind_id(f, "rivals", a, tribes), _kind_id(f, "rivals", b, tribes)) for a, b in rivals_raw
    )
    values = f.get("dragon_values")
    if (
        not isinstance(values, list)
        or not values
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 50 for v in values)
    ):
        raise f.error("dragon_values", f"must be a list of integers 0..50, got {values!r}")
    locked = tuple(_kind_id(f, "replace_locked", k) for k in f.str_list("replace_locked", []))
    return Options(
        legend_row_size=f.integer("legend_row_size", 1, MAX_LEGEND_ROW),
        orthogonal_only=_flag(f, "orthogonal_only"),
        portal_chaining=_flag(f, "portal_chaining"),
        dedupe_links=_flag(f, "dedupe_links", only=True),
        goblin_land_via_portal=_flag(f, "goblin_land_via_portal"),
        goblin_conflict_via_portal=_flag(f, "goblin_conflict_via_portal"),
        goblin_goblin_conflict=_flag(f, "goblin_goblin_conflict"),
        conflict_points=f.integer("conflict_points", -20, 20),
        rivals=rivals,
        dragon_values=tuple(int(v) for v in values),
        dragon_max_positive=f.integer("dragon_max_positive", 0, 16),
        dragon_via_portal=_flag(f, "dragon_via_portal"),
        legend_goblin_via_portal=_flag(f, "legend_goblin_via_portal"),
        legends_per_turn=f.integer("legends_per_turn", 0, MAX_LEGEND_ROW),
        legend_check_face_up_only=_flag(f, "legend_check_face_up_only"),
        legend_claim_after_final_reveal=_flag(f, "legend_claim_after_final_reveal"),
        legend_claim_timing=f.choice("legend_claim_timing", ("before-or-after", "after")),
        legend_kept_if_broken=_flag(f, "legend_kept_if_broken", only=True),
        discard_take_must_place=_flag(f, "discard_take_must_place", only=True),
        replace_locked=locked,
        replace_same_kind_forbidden=_flag(f, "replace_same_kind_forbidden"),
        setup_center_distinct=_flag(f, "setup_center_distinct"),
        reshuffle_discard_keep_top=_flag(f, "reshuffle_discard_keep_top"),
        end_immediately=_flag(f, "end_immediately", only=True),
        tie_break=f.choice("tie_break", ("categories", "share")),
        tie_break_tribes=f.choice("tie_break_tribes", TIE_BREAK_TRIBES),
        turns_per_player_cap=f.integer(
            "turns_per_player_cap", 1, MAX_TURNS_PER_PLAYER_CAP, TURNS_PER_PLAYER_CAP
        ),
    )


# --- compiling -----------------------------------------------------------------------------


def neighbour_masks(orthogonal_only: bool) -> np.ndarray:
    """int64[CELLS]: bit ``j`` of entry ``i`` is set when cell ``j`` is next to cell ``i``
    (orthogonally, or also diagonally when ``orthogonal_only`` is false)."""
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    if not orthogonal_only:
        steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    out = np.zeros(CELLS, dtype=np.int64)
    for r in range(SIDE):
        for c in range(SIDE):
            for dr, dc in steps:
                if 0 <= r + dr < SIDE and 0 <= c + dc < SIDE:
                    out[r * SIDE + c] |= 1 << ((r + dr) * SIDE + c + dc)
    return out


def legend_row(legend: Legend) -> np.ndarray:
    """The int32 requirement row of one Legend (columns LG_*)."""
    row = np.zeros(N_LG_COLS, dtype=np.int32)
    req = legend.requirement
    row[LG_SHAPE] = Shape[req.shape.upper()]
    row[LG_POINTS] = legend.points
    if req.shape == "present":
        row[LG_KINDS] = sum(1 << KINDS.index(k) for k in set(req.kinds))
    else:
        row[LG_CENTRE] = KINDS.index(req.centre)
        row[LG_AROUND] = KINDS.index(req.around)
        row[LG_COUNT] = req.count
        row[LG_EITHER] = req.either_way
        row[LG_ADJ] = Adjacency[req.adjacency.upper()]
    return row


def rule_switches(o: Options) -> np.ndarray:
    r = np.zeros(N_RULES, dtype=np.int32)
    r[R_PORTAL_CHAINING] = o.portal_chaining
    r[R_GOBLIN_LAND_VIA_PORTAL] = o.goblin_land_via_portal
    r[R_GOBLIN_CONFLICT_VIA_PORTAL] = o.goblin_conflict_via_portal
    r[R_DRAGON_VIA_PORTAL] = o.dragon_via_portal
    r[R_LEGEND_GOBLIN_VIA_PORTAL] = o.legend_goblin_via_portal
    r[R_DRAGON_MAX_POSITIVE] = o.dragon_max_positive
    r[R_CONFLICT_POINTS] = o.conflict_points
    r[R_LEGEND_ROW] = o.legend_row_size
    r[R_LEGENDS_PER_TURN] = o.legends_per_turn
    r[R_FACE_UP_ONLY] = o.legend_check_face_up_only
    r[R_CLAIM_AFTER_FINAL] = o.legend_claim_after_final_reveal
    r[R_CLAIM_BEFORE] = o.legend_claim_timing == "before-or-after"
    r[R_SAME_KIND_FORBIDDEN] = o.replace_same_kind_forbidden
    r[R_CENTRE_DISTINCT] = o.setup_center_distinct
    r[R_KEEP_TOP] = o.reshuffle_discard_keep_top
    r[R_TIE_CATEGORIES] = o.tie_break == "categories"
    r[R_TURN_CAP] = o.turns_per_player_cap
    r[R_TIE_TRIBES_SUMMED] = o.tie_break_tribes == "summed"
    return r


def pair_points(
    o: Options,
    kind_cat: np.ndarray,
    kind_blind: np.ndarray,
    land_pts: np.ndarray,
    rival: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The kingdom's land points and conflicts as a sum over its linked pairs of cards (§7.1,
    §7.2): ``(adjacent, portal)``, int32[N_KINDS, N_KINDS] each, symmetric. ``adjacent[a, b]``
    is what two orthogonally adjacent cards of kinds a and b add to the total (a tribe's
    points for the land, plus ``conflict_points`` for rivals); ``portal[a, b]`` what they add
    when linked only through portals, where a portal-blind card (goblin) uses the portal
    only if the option of that category says so and two blind cards never do (§6). The
    incremental scorer (``incremental.py``) sums these over the links of one cell."""

    def via_portal(a: int, b: int, blind_option: bool) -> bool:
        blind = int(kind_blind[a] != 0) + int(kind_blind[b] != 0)
        return blind == 0 or (blind == 1 and blind_option)

    def land(t: int, k: int) -> int:
        tribe = kind_cat[t] == Category.TRIBE and Kind(t) in TRIBE_COLUMN
        return int(land_pts[t, k]) if tribe and kind_cat[k] == Category.LAND else 0

    adjacent = np.zeros((N_KINDS, N_KINDS), dtype=np.int32)
    portal = np.zeros((N_KINDS, N_KINDS), dtype=np.int32)
    for a in range(N_KINDS):
        for b in range(N_KINDS):
            lands = land(a, b) + land(b, a)
            conflict = o.conflict_points if rival[a, b] else 0
            adjacent[a, b] = lands + conflict
            portal[a, b] = lands * via_portal(a, b, o.goblin_land_via_portal)
            portal[a, b] += conflict * via_portal(a, b, o.goblin_conflict_via_portal)
    return adjacent, portal


def compile_tables(data: CardSet, variant: str, players: int = MAX_PLAYERS) -> Tables:
    """Numpy tables for one preset (the game's variant) at one player count."""
    o = data.preset(variant).options
    kind_cat = np.array([CATEGORIES.index(k.category) for k in data.kinds], dtype=np.int32)
    land_pts = np.zeros((N_KINDS, N_KINDS), dtype=np.int32)
    for t, kind in enumerate(data.kinds):
        for land, pts in kind.land_points.items():
            land_pts[t, KINDS.index(land)] = pts
    rival = np.zeros((N_KINDS, N_KINDS), dtype=np.int32)
    pairs = list(o.rivals)
    if o.goblin_goblin_conflict:
        pairs.append(("goblin", "goblin"))
    for a, b in pairs:
        rival[KINDS.index(a), KINDS.index(b)] = rival[KINDS.index(b), KINDS.index(a)] = 1
    kind_blind = np.array([k.portal_blind for k in data.kinds], dtype=np.int32)
    pair_adjacent, pair_portal = pair_points(o, kind_cat, kind_blind, land_pts, rival)
    return Tables(
        kind_cat=kind_cat,
        kind_blind=kind_blind,
        kind_tame=np.array([k.domesticates for k in data.kinds], dtype=np.int32),
        kind_locked=np.array([k.id in o.replace_locked for k in data.kinds], dtype=np.int32),
        land_pts=land_pts,
        rival=rival,
        legend=np.stack([legend_row(lg) for lg in data.legends]),
        dragon_values=np.array(o.dragon_values, dtype=np.int32),
        adj=neighbour_masks(o.orthogonal_only),
        rules=rule_switches(o),
        deck=np.array(data.deck(players), dtype=np.int32),
        pair_adjacent=pair_adjacent,
        pair_portal=pair_portal,
    )
