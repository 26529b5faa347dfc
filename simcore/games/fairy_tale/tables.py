"""Fairy Tale card data: TOML -> validated ``CardSet`` -> numpy tables for the kernel.

The card file says *what* each card does (value kind + effect keyword + parameters);
this module checks it and compiles it into one int32 row per distinct card (``ct``,
columns named ``C_*``) plus the variant's deck and rule switches. The kernel receives
these arrays as arguments, never as globals, so ``--cards FILE`` and A/B runs work.

Enums are for people, ints for kernels: every ``IntEnum`` value is the kernel's code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from talesim.simcore.cards import CardDataError, Fields, entries, file_sha256, new_id, read_toml
from talesim.simcore.names import did_you_mean

HERE = Path(__file__).resolve().parent
DEFAULT_CARDS = HERE / "cards.toml"
DEFAULT_RULES = HERE / "rules.toml"

FACTIONS = ("dragon-valley", "holy-empire", "fairy-forest", "shadow")
CATEGORIES = ("character", "home", "story")
TIERS = ("basic", "expert")
STATUSES = ("confirmed", "inferred", "proposal")
ANY = -1  # filter code: no restriction

# Fixed sizes (named bounds; the reference asserts they are never exceeded).
MAX_PLAYERS = 5  # expert rules allow 2-5 players
DEAL = 5  # cards dealt per player per draft
ROUNDS = 4
PLAYS = 3  # cards played per round
PICKS = ROUNDS * DEAL  # 20 cards received per player and game (beginner: 1 start + 4 + 5 + 5 + 5)
TABLEAU = ROUNDS * PLAYS  # 12 tableau cards per player at the end (beginner: 1 + 2 + 3 + 3 + 3)
MAX_EFFECT_COUNT = 3  # an effect opens/closes at most 3 cards (the default cards all say 1)
MAX_NEEDS = 4  # a quest names at most 4 cards
MAX_CLOSES = MAX_PLAYERS * MAX_EFFECT_COUNT  # Close effects aimed at one player in one step
MAX_CARDS = 63  # distinct cards in a card file: the kernel's card rows have 64 entries, the
# last one a card nobody ever holds (layout.py: MC, NO_CARD)


class Value(IntEnum):
    """How a face-up copy scores (``docs/rules/fairy-tale.md`` §5)."""

    FIXED = 0  # points
    COUNT = 1  # per x (face-up copies of `of`)
    QUEST_CARDS = 2  # points if every card in `needs` is face up
    QUEST_MAJORITY = 3  # points if the owner has the most face-up cards of `faction`
    MAJORITY = 4  # points per copy, only for the player(s) with most face-up copies
    WILD = 5  # the Trickster: points, plus a copy of one other card at final scoring


class Effect(IntEnum):
    """What happens when the card is revealed (``docs/rules/fairy-tale.md`` §4)."""

    NONE = 0
    HUNT = 1
    OPEN = 2
    CLOSE = 3


class Scope(IntEnum):
    YOU = 0
    ALL = 1
    OTHERS = 2


VALUE_KEYS = {
    "fixed": ("points",),
    "count": ("of", "per"),
    "quest_cards": ("points", "needs"),
    "quest_majority": ("points", "faction"),
    "majority": ("points",),
    "wild": ("points",),
}
EFFECT_KEYS = {
    "none": (),
    "hunt": ("faction",),
    "open": ("faction", "count", "category", "exclude_faction"),
    "close": ("scope", "faction", "count", "category", "exclude_faction"),
}

# Columns of the card table ``ct`` (one int32 row per distinct card).
C_FACTION = 0
C_CATEGORY = 1
C_VALUE = 2  # Value code
C_POINTS = 3
C_OF = 4  # COUNT: card index counted
C_PER = 5
C_MAJ_FACTION = 6  # QUEST_MAJORITY: faction index
C_EFFECT = 7  # Effect code
C_SCOPE = 8
C_EFF_FACTION = 9  # ANY or faction index
C_EFF_EXCLUDE = 10  # ANY (none) or faction index
C_EFF_CATEGORY = 11  # ANY or category index
C_EFF_COUNT = 12
C_NEED0 = 13  # C_NEED0 .. C_NEED0 + MAX_NEEDS - 1: card indices, -1 padded
N_COLS = C_NEED0 + MAX_NEEDS

# Rule switches (``rules`` int32 vector).
R_EFFECTS = 0  # 1: Open/Close effects apply
R_HUNT = 1  # 1: Hunt applies
R_BEGINNER = 2  # 1: beginner setup (starting card, 4-card first draft, 2 plays in round 1)
R_MAJ_STRICT = 3  # 1: majorities need a strict lead; 0: ties satisfy (inclusive)
N_RULES = 4


@dataclass(frozen=True)
class Card:
    """One distinct card, as written in the card file."""

    id: str
    name: str
    faction: str
    category: str
    copies: int
    tier: str
    status: str
    source: str
    text: str
    value: dict[str, Any]
    effect: dict[str, Any]
    friend_of: str | None = None
    name_ja: str | None = None
    name_de: str | None = None
    notes: str | None = None

    def value_text(self) -> str:
        v = self.value
        kind = v["kind"]
        if kind == "fixed":
            return str(v["points"])
        if kind == "count":
            return f"{v['per']} x #{v['of']}" if v["per"] != 1 else f"#{v['of']}"
        if kind == "quest_cards":
            return f"*{v['points']} if " + " + ".join(v["needs"])
        if kind == "quest_majority":
            return f"*{v['points']} if most {v['faction']}"
        if kind == "majority":
            return f"{v['points']} each, majority only"
        return f"{v['points']} + copy of any card"

    def effect_text(self) -> str:
        e = self.effect
        kind = e["kind"]
        if kind == "none":
            return ""
        if kind == "hunt":
            return f"hunt {e.get('faction', 'shadow')}"
        what = e.get("faction", "any")
        if e.get("exclude_faction"):
            what += f" non-{e['exclude_faction']}"
        if e.get("category", "any") != "any":
            what += f" {e['category']}"
        scope = "you" if kind == "open" else e["scope"]
        return f"{kind} ({scope}) {e.get('count', 1)} {what}"


@dataclass(frozen=True)
class VariantRules:
    tiers: tuple[str, ...]
    effects: bool
    hunt: bool
    beginner_setup: bool


@dataclass(frozen=True)
class Rules:
    majority_ties: str
    multi_close: str
    tie_break: str
    variants: dict[str, VariantRules]


@dataclass(frozen=True)
class CardSet:
    cards: tuple[Card, ...]
    rules: Rules
    files: tuple[Path, ...]
    sha256: str = ""
    index: dict[str, int] = field(default_factory=dict)

    def ids(self) -> list[str]:
        return [c.id for c in self.cards]


class Tables(NamedTuple):
    """Everything the kernel needs to know about the cards and the variant."""

    ct: np.ndarray  # int32[T, N_COLS]: per-card parameters, columns C_*
    deps: (
        np.ndarray
    )  # int32[T, D]: cards whose per-copy value changes with this card's count, -1 padded
    deck: np.ndarray  # int32[N]: the variant's deck, one entry per physical card (card index)
    id_order: np.ndarray  # int32[T]: card indices sorted by id (Trickster tie-break order)
    in_deck: np.ndarray  # int32[T]: 1 if the card is in this variant's deck
    rules: np.ndarray  # int32[N_RULES]
    sel: np.ndarray  # int32[T, W]: cards an Open/Close of card e can select, ascending, -1 padded


# --- loading ---------------------------------------------------------------------------


def load_cardset(
    cards_path: Path | None = None, rules_path: Path | None = None, variant: str | None = None
) -> CardSet:
    """Read and validate a card file (default: the package's ``cards.toml``) and the rules
    file. The card set serves every variant (``compile_tables`` takes one); ``variant``, if
    given, must be one of the rules file's."""
    cards_path = Path(cards_path) if cards_path else DEFAULT_CARDS
    rules_path = Path(rules_path) if rules_path else DEFAULT_RULES
    cards = _parse_cards(cards_path)
    rules = _parse_rules(rules_path)
    if variant is not None and variant not in rules.variants:
        raise CardDataError(rules_path, f"no [variant.{variant}] table", field="variant")
    index = {c.id: i for i, c in enumerate(cards)}
    return CardSet(
        tuple(cards), rules, (cards_path, rules_path), file_sha256(cards_path, rules_path), index
    )


def _parse_cards(path: Path) -> list[Card]:
    doc = read_toml(path)
    top = Fields(path, doc, None)
    top.for_game("fairy-tale")
    top.reject_unknown({"schema", "game", "card"})
    raw = top.get("card")
    if not isinstance(raw, list) or not raw:
        raise top.error("card", "needs at least one [[card]] table")
    if len(raw) > MAX_CARDS:
        raise top.error(
            "card", f"at most {MAX_CARDS} distinct cards are supported, found {len(raw)}"
        )
    cards: list[Card] = []
    seen: set[str] = set()
    for f in entries(path, raw, ""):
        f.reject_unknown(
            {
                "id",
                "name",
                "name_ja",
                "name_de",
                "faction",
                "category",
                "copies",
                "tier",
                "status",
                "source",
                "text",
                "value",
                "effect",
                "friend_of",
                "notes",
            }
        )
        cid = new_id(f, seen, "card")
        value = _parse_value(f.sub("value"))
        effect = _parse_effect(f.sub("effect", {"kind": "none"}))
        cards.append(
            Card(
                id=cid,
                name=f.string("name"),
                faction=f.choice("faction", FACTIONS),
                category=f.choice("category", CATEGORIES),
                copies=f.integer("copies", 1, 20),
                tier=f.choice("tier", TIERS),
                status=f.choice("status", STATUSES),
                source=f.string("source", "unknown"),
                text=f.string("text"),
                value=value,
                effect=effect,
                friend_of=f.optional_string("friend_of"),
                name_ja=f.optional_string("name_ja"),
                name_de=f.optional_string("name_de"),
                notes=f.optional_string("notes"),
            )
        )
    # Cross references: every named card must exist.
    for c in cards:
        f = Fields(path, {}, c.id)
        refs = [("value.of", c.value.get("of"))] + [
            ("value.needs", x) for x in c.value.get("needs", [])
        ]
        refs.append(("friend_of", c.friend_of))
        for fld, ref in refs:
            if ref is not None and ref not in seen:
                raise f.error(fld, f"unknown card id '{ref}'{did_you_mean(ref, seen)}")
    wild = [c.id for c in cards if c.value["kind"] == "wild"]
    if len(wild) > 1:
        raise CardDataError(path, f"at most one wild card is supported, found {', '.join(wild)}")
    return cards


def _parse_value(f: Fields) -> dict[str, Any]:
    kind = f.choice("kind", VALUE_KEYS)
    f.reject_unknown(("kind", *VALUE_KEYS[kind]))
    out: dict[str, Any] = {"kind": kind}
    if "points" in VALUE_KEYS[kind]:
        out["points"] = f.integer("points", -50, 50)
    if kind == "count":
        out["of"] = f.string("of")
        out["per"] = f.integer("per", -10, 10)
    elif kind == "quest_cards":
        needs = f.str_list("needs")
        if not 1 <= len(needs) <= MAX_NEEDS:
            raise f.error("needs", f"names 1 to {MAX_NEEDS} cards")
        out["needs"] = needs
    elif kind == "quest_majority":
        out["faction"] = f.choice("faction", FACTIONS)
    return out


def _parse_effect(f: Fields) -> dict[str, Any]:
    kind = f.choice("kind", EFFECT_KEYS)
    f.reject_unknown(("kind", *EFFECT_KEYS[kind]))
    out: dict[str, Any] = {"kind": kind}
    if kind == "hunt":
        out["faction"] = f.choice("faction", FACTIONS, "shadow")
    elif kind in ("open", "close"):
        out["faction"] = f.choice("faction", (*FACTIONS, "any"), "any")
        out["count"] = f.integer("count", 1, MAX_EFFECT_COUNT, 1)
        out["category"] = f.choice("category", (*CATEGORIES, "any"), "any")
        if f.has("exclude_faction"):
            out["exclude_faction"] = f.choice("exclude_faction", FACTIONS)
        out["scope"] = (
            "you" if kind == "open" else f.choice("scope", [s.name.lower() for s in Scope])
        )
    return out


def _parse_rules(path: Path) -> Rules:
    doc = read_toml(path)
    top = Fields(path, doc, None)
    top.reject_unknown({"schema", "game", "rules", "variant"})
    r = top.sub("rules")
    r.reject_unknown({"majority_ties", "multi_close", "tie_break"})
    variants: dict[str, VariantRules] = {}
    vt = top.sub("variant")
    for name in vt.table:
        v = vt.sub(name)
        v.reject_unknown({"tiers", "effects", "hunt", "beginner_setup"})
        tiers = v.str_list("tiers")
        for t in tiers:
            if t not in TIERS:
                raise v.error("tiers", f"unknown tier '{t}' (tiers: {', '.join(TIERS)})")
        flags = {}
        for key in ("effects", "hunt", "beginner_setup"):
            val = v.get(key)
            if not isinstance(val, bool):
                raise v.error(key, f"must be true or false, got {val!r}")
            flags[key] = val
        variants[name] = VariantRules(tuple(tiers), **flags)
    return Rules(
        majority_ties=r.choice("majority_ties", ("inclusive", "strict")),
        multi_close=r.choice("multi_close", ("maximal",)),
        tie_break=r.choice("tie_break", ("share",)),
        variants=variants,
    )


# --- compiling -------------------------------------------------------------------------


def card_row(card: Card, index: dict[str, int]) -> np.ndarray:
    """The kernel's int32 parameter row for one card."""
    row = np.full(N_COLS, ANY, dtype=np.int32)
    v, e = card.value, card.effect
    row[C_FACTION] = FACTIONS.index(card.faction)
    row[C_CATEGORY] = CATEGORIES.index(card.category)
    row[C_VALUE] = Value[v["kind"].upper()]
    row[C_POINTS] = v.get("points", 0)
    row[C_OF] = index[v["of"]] if "of" in v else ANY
    row[C_PER] = v.get("per", 0)
    row[C_MAJ_FACTION] = FACTIONS.index(v["faction"]) if "faction" in v else ANY
    for k, need in enumerate(v.get("needs", [])):
        row[C_NEED0 + k] = index[need]
    row[C_EFFECT] = Effect[e["kind"].upper()]
    row[C_SCOPE] = Scope[e.get("scope", "you").upper()]
    row[C_EFF_FACTION] = FACTIONS.index(e["faction"]) if e.get("faction", "any") != "any" else ANY
    row[C_EFF_EXCLUDE] = FACTIONS.index(e["exclude_faction"]) if "exclude_faction" in e else ANY
    cat = e.get("category", "any")
    row[C_EFF_CATEGORY] = CATEGORIES.index(cat) if cat != "any" else ANY
    row[C_EFF_COUNT] = e.get("count", 1 if e["kind"] in ("open", "close") else 0)
    return row


def dependents(ct: np.ndarray) -> np.ndarray:
    """For each card t, the cards u != t whose per-copy value can change when t's count does.

    u depends on t when u counts t, when u's quest names t, or when u's quest is a majority
    of t's faction. (u's own count is handled separately by the kernel.)
    """
    n = ct.shape[0]
    lists: list[list[int]] = [[] for _ in range(n)]
    for u in range(n):
        for t in range(n):
            if t == u:
                continue
            needs = ct[u, C_NEED0 : C_NEED0 + MAX_NEEDS]
            if (
                (ct[u, C_VALUE] == Value.COUNT and ct[u, C_OF] == t)
                or (ct[u, C_VALUE] == Value.QUEST_CARDS and t in needs)
                or (
                    ct[u, C_VALUE] == Value.QUEST_MAJORITY
                    and ct[u, C_MAJ_FACTION] == ct[t, C_FACTION]
                )
            ):
                lists[t].append(u)
    return _padded(lists)


def selectable(ct: np.ndarray) -> np.ndarray:
    """For each Open/Close card e, the cards its filter accepts (faction, exclusion, category),
    in ascending order, so the policies scan only those."""
    n = ct.shape[0]
    lists: list[list[int]] = [[] for _ in range(n)]
    for e in range(n):
        if ct[e, C_EFFECT] not in (Effect.OPEN, Effect.CLOSE):
            continue
        for t in range(n):
            if ct[e, C_EFF_FACTION] not in (ANY, ct[t, C_FACTION]):
                continue
            if ct[e, C_EFF_EXCLUDE] != ANY and ct[t, C_FACTION] == ct[e, C_EFF_EXCLUDE]:
                continue
            if ct[e, C_EFF_CATEGORY] not in (ANY, ct[t, C_CATEGORY]):
                continue
            lists[e].append(t)
    return _padded(lists)


def _padded(lists: list[list[int]]) -> np.ndarray:
    """The lists as the rows of one int32 table, padded with -1 to the longest (width >= 1)."""
    width = max(1, max(len(x) for x in lists))
    out = np.full((len(lists), width), -1, dtype=np.int32)
    for i, row in enumerate(lists):
        out[i, : len(row)] = row
    return out


def compile_tables(cards: CardSet, variant: str, players: int = MAX_PLAYERS) -> Tables:
    """Numpy tables for one variant: card rows, dependents, the deck, rule switches. They
    are the same at every player count (``players``: the call every game's tables take;
    DRAKO's deck depends on it)."""
    vr = cards.rules.variants[variant]
    ct = np.stack([card_row(c, cards.index) for c in cards.cards])
    deck = [i for i, c in enumerate(cards.cards) if c.tier in vr.tiers for _ in range(c.copies)]
    in_deck = np.zeros(len(cards.cards), dtype=np.int32)
    in_deck[sorted(set(deck))] = 1
    rules = np.zeros(N_RULES, dtype=np.int32)
    rules[R_EFFECTS] = vr.effects
    rules[R_HUNT] = vr.hunt
    rules[R_BEGINNER] = vr.beginner_setup
    rules[R_MAJ_STRICT] = cards.rules.majority_ties == "strict"
    id_order = np.array(
        sorted(range(len(cards.cards)), key=lambda i: cards.cards[i].id), dtype=np.int32
    )
    return Tables(
        ct=ct,
        deps=dependents(ct),
        deck=np.array(deck, dtype=np.int32),
        id_order=id_order,
        in_deck=in_deck,
        rules=rules,
        sel=selectable(ct),
    )
