"""Card-data invariants for Fairy Tale (100-card edition).

Reads ``cards.toml`` and ``rules.toml`` with ``tomllib`` directly, independent of
the game's loader, and checks them against the rules page (``docs/rules/fairy-tale.md``:
§0 brief + Adjustments, §2, §6b, and the card fields its §8 table lists; a bare §N below
cites that page).
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

GAME_DIR = Path(__file__).resolve().parents[2] / "simcore" / "games" / "fairy_tale"
CARDS_FILE = GAME_DIR / "cards.toml"
RULES_FILE = GAME_DIR / "rules.toml"
RULES_PAGE = GAME_DIR.parents[2] / "docs" / "rules" / "fairy-tale.md"

FACTIONS = ("dragon-valley", "holy-empire", "fairy-forest", "shadow")
COLOURED = ("dragon-valley", "holy-empire", "fairy-forest")
CATEGORIES = {"character", "home", "story"}
TIERS = {"basic", "expert"}
STATUSES = {"confirmed", "inferred", "proposal"}
SOURCE_KEYS = {
    "S-BGG1",
    "S-GA",
    "S-BGG2",
    "S-HG",
    "S-TK",
    "S-WP",
    "S-MG",
    "S-H9",
    "S-BD",
    "S-WIKI",
    "S-ITW",
    "S-WYG",
    "S-YH",
    "S-TM",
    "S-PH",
    "S-UBG",
    "S-TV",
    "S-GB",
    "S-SK",
    "S-KE",
    "S-JP",
    "brief",
    "adjustment",
    "proposal",
}


def _documented_card_fields() -> tuple[set[str], set[str]]:
    """The card fields the rules page's data model (§8) lists: (required, optional), an
    optional one marked ``?`` in the table's first column."""
    page = RULES_PAGE.read_text(encoding="utf-8")
    table = page.split("Each card (`[[card]]`) has:\n\n")[1].split("\n\n")[0]
    required: set[str] = set()
    optional: set[str] = set()
    for row in table.splitlines()[2:]:  # past the header and its rule
        for name, mark in re.findall(r"`(\w+)`(\??)", row.split("|")[1]):
            (optional if mark else required).add(name)
    return required, optional


CARD_REQUIRED, CARD_OPTIONAL = _documented_card_fields()

# kind -> (required keys, optional keys), "kind" itself excluded.
VALUE_KINDS: dict[str, tuple[set[str], set[str]]] = {
    "fixed": ({"points"}, set()),
    "count": ({"of", "per"}, set()),
    "quest_cards": ({"points", "needs"}, set()),
    "quest_majority": ({"points", "faction"}, set()),
    "majority": ({"points"}, set()),
    "wild": ({"points"}, set()),
}
EFFECT_KINDS: dict[str, tuple[set[str], set[str]]] = {
    "none": (set(), set()),
    "hunt": ({"faction"}, set()),
    "open": ({"faction", "count"}, set()),
    "close": ({"scope", "faction", "count"}, {"exclude_faction", "category"}),
}

ID_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def _load(path: Path) -> dict[str, Any]:
    with open(path, "rb") as fh:
        return tomllib.load(fh)


CARD_FILE_DATA = _load(CARDS_FILE)
CARDS: list[dict[str, Any]] = CARD_FILE_DATA["card"]
BY_ID: dict[str, dict[str, Any]] = {c["id"]: c for c in CARDS}


def _copies(**where: str) -> int:
    return sum(c["copies"] for c in CARDS if all(c[k] == v for k, v in where.items()))


def _copies_where(pred: Callable[[dict[str, Any]], bool]) -> int:
    return sum(c["copies"] for c in CARDS if pred(c))


def _id_from_name(name: str) -> str:
    """The naming rule as the §6b ids apply it: lowercase; spaces -> hyphens; dashes dropped.

    An older wording of the rule turned apostrophes into hyphens, but every §6b id with an
    apostrophe drops it (``dragons-cave``, ``shadowkings-tale-chapter-1``), and those ids
    are the ones the project uses (§6b says so).
    """
    text = name.lower().replace("–", "").replace("—", "")
    text = re.sub(r"['’]", "", text)
    text = re.sub(r" +", "-", text)
    return re.sub(r"-+", "-", text).strip("-")


# --- file-level shape -------------------------------------------------------------------


def test_file_header() -> None:
    assert CARD_FILE_DATA["schema"] == 1
    assert CARD_FILE_DATA["game"] == "fairy-tale"
    assert set(CARD_FILE_DATA) == {"schema", "game", "card"}


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c["id"])
def test_card_fields(card: dict[str, Any]) -> None:
    keys = set(card)
    assert keys >= CARD_REQUIRED, f"missing {CARD_REQUIRED - keys}"
    assert keys <= CARD_REQUIRED | CARD_OPTIONAL, f"unknown {keys - CARD_REQUIRED - CARD_OPTIONAL}"
    assert card["faction"] in FACTIONS
    assert card["category"] in CATEGORIES
    assert card["tier"] in TIERS
    assert card["status"] in STATUSES
    assert isinstance(card["copies"], int)
    assert 1 <= card["copies"] <= 20
    assert card["text"].strip()
    sources = [s.strip() for s in card["source"].split(",")]
    assert sources
    assert set(sources) <= SOURCE_KEYS


def check_kind_and_keys(entry: dict[str, Any], kinds: dict[str, tuple[set, set]]) -> None:
    """``entry`` (a card's value or effect) is of a known kind, with every key that kind
    requires and no key it does not know."""
    assert entry["kind"] in kinds
    required, optional = kinds[entry["kind"]]
    assert required <= set(entry) - {"kind"} <= required | optional


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c["id"])
def test_value_kind_and_keys(card: dict[str, Any]) -> None:
    value = card["value"]
    check_kind_and_keys(value, VALUE_KINDS)
    if "points" in value:
        assert isinstance(value["points"], int)
    if value["kind"] == "count":
        assert isinstance(value["per"], int)
        assert value["per"] >= 1
    if value["kind"] == "quest_cards":
        assert value["needs"]
        assert len(set(value["needs"])) == len(value["needs"])
    if value["kind"] == "quest_majority":
        assert value["faction"] in FACTIONS


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c["id"])
def test_effect_kind_and_keys(card: dict[str, Any]) -> None:
    effect = card["effect"]
    check_kind_and_keys(effect, EFFECT_KINDS)
    if effect["kind"] == "hunt":
        assert effect["faction"] == "shadow"
    if effect["kind"] in ("open", "close"):
        assert effect["faction"] in (*FACTIONS, "any")
        assert effect["count"] == 1
    if effect["kind"] == "close":
        assert effect["scope"] in ("you", "all", "others")
        if "exclude_faction" in effect:
            assert effect["exclude_faction"] in FACTIONS
        if "category" in effect:
            assert effect["category"] in CATEGORIES


# --- ids and references -------------------------------------------------------------------


def test_ids_unique_and_well_formed() -> None:
    ids = [c["id"] for c in CARDS]
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]
    assert len(ids) == 43
    for card in CARDS:
        assert ID_RE.match(card["id"]), card["id"]
        assert card["id"] == _id_from_name(card["name"]), card["name"]


def test_names_unique() -> None:
    names = [c["name"] for c in CARDS]
    assert len(names) == len(set(names))


def test_references_name_existing_cards() -> None:
    for card in CARDS:
        value = card["value"]
        refs = []
        if value["kind"] == "count":
            refs.append(value["of"])
        if value["kind"] == "quest_cards":
            refs.extend(value["needs"])
        if "friend_of" in card:
            refs.append(card["friend_of"])
        for ref in refs:
            assert ref in BY_ID, f"{card['id']} references unknown card {ref!r}"


def test_friend_of_points_at_a_card_that_counts_this_one() -> None:
    for card in CARDS:
        if "friend_of" not in card:
            continue
        target = BY_ID[card["friend_of"]]
        assert target["value"] == {"kind": "count", "of": card["id"], "per": 3}, card["id"]


def test_every_partner_counts_a_fixed_3_card() -> None:
    """×3 partners count a 'worth 3' card (S-HG); self-counting swarms use per = 1."""
    for card in CARDS:
        value = card["value"]
        if value["kind"] != "count":
            continue
        if value["of"] == card["id"]:
            assert value["per"] == 1
        else:
            assert value["per"] == 3
            assert BY_ID[value["of"]]["value"] == {"kind": "fixed", "points": 3}


# --- totals (§2, §6b) -----------------------------------------------------------------------


def test_total_copies() -> None:
    assert _copies() == 100


def test_tier_totals() -> None:
    assert _copies(tier="basic") == 80
    assert _copies(tier="expert") == 20


@pytest.mark.parametrize(
    ("faction", "total", "basic", "expert"),
    [
        ("dragon-valley", 28, 23, 5),
        ("fairy-forest", 28, 23, 5),
        ("holy-empire", 28, 23, 5),
        ("shadow", 16, 11, 5),
    ],
)
def test_faction_totals(faction: str, total: int, basic: int, expert: int) -> None:
    assert _copies(faction=faction) == total
    assert _copies(faction=faction, tier="basic") == basic
    assert _copies(faction=faction, tier="expert") == expert


def test_distinct_names_per_faction() -> None:
    assert Counter(c["faction"] for c in CARDS) == {
        "dragon-valley": 11,
        "fairy-forest": 11,
        "holy-empire": 11,
        "shadow": 10,
    }


# --- the three coloured factions share one structure (§2, §6b) ----------------------------


@pytest.mark.parametrize("faction", COLOURED)
def test_coloured_faction_structure(faction: str) -> None:
    cards = [c for c in CARDS if c["faction"] == faction]

    swarms = [c for c in cards if c["value"] == {"kind": "count", "of": c["id"], "per": 1}]
    assert len(swarms) == 1
    assert swarms[0]["copies"] == 7
    assert swarms[0]["tier"] == "basic"

    legends = [
        c for c in cards if c["value"]["kind"] == "quest_cards" and c["value"]["points"] == 9
    ]
    assert len(legends) == 1
    (key_id,) = legends[0]["value"]["needs"]
    key = BY_ID[key_id]
    assert key["faction"] == faction
    assert key["copies"] == 1
    assert key["tier"] == "expert"
    assert legends[0]["copies"] == 1

    chapters = [c for c in cards if c["value"]["kind"] == "quest_majority"]
    assert len(chapters) == 1
    assert chapters[0]["value"] == {"kind": "quest_majority", "points": 6, "faction": faction}
    assert chapters[0]["category"] == "story"

    oaths = [c for c in cards if c["value"]["kind"] == "quest_cards" and c["value"]["points"] == 7]
    assert len(oaths) == 1
    assert len(oaths[0]["value"]["needs"]) == 2
    assert all(BY_ID[n]["faction"] == faction for n in oaths[0]["value"]["needs"])

    hunters = [c for c in cards if c["effect"]["kind"] == "hunt"]
    assert len(hunters) == 1
    assert hunters[0]["tier"] == "expert"
    assert hunters[0]["copies"] == 1

    strongholds = [c for c in cards if c["effect"]["kind"] == "close"]
    assert len(strongholds) == 1
    assert strongholds[0]["effect"] == {
        "kind": "close",
        "scope": "you",
        "faction": faction,
        "count": 1,
    }
    assert strongholds[0]["value"] == {"kind": "fixed", "points": 6}
    assert strongholds[0]["category"] == "home"

    healers = [c for c in cards if c["effect"]["kind"] == "open"]
    assert len(healers) == 1
    assert healers[0]["effect"] == {"kind": "open", "faction": faction, "count": 1}

    # every expert card of a coloured faction is a single copy (the 5 expert slots)
    assert all(c["copies"] == 1 for c in cards if c["tier"] == "expert")
    # all quest cards are expert (S-MG, S-UBG)
    quests = [c for c in cards if c["value"]["kind"].startswith("quest_")]
    assert all(c["tier"] == "expert" for c in quests)


def test_quest_and_hunt_cards_are_expert_only() -> None:
    for card in CARDS:
        if card["value"]["kind"].startswith("quest_") or card["effect"]["kind"] == "hunt":
            assert card["tier"] == "expert", card["id"]
        if card["value"]["kind"] == "wild":
            assert card["tier"] == "expert", card["id"]


def test_shadow_cards_are_not_hunters() -> None:
    """A Hunt card is never Shadow, so it cannot hunt itself (§4.2)."""
    assert all(c["faction"] != "shadow" for c in CARDS if c["effect"]["kind"] == "hunt")


def test_only_the_trickster_is_wild() -> None:
    assert [c["id"] for c in CARDS if c["value"]["kind"] == "wild"] == ["the-trickster"]


# --- specific facts from the rules page (§0, §6a, §6b) -----------------------------------


@pytest.mark.parametrize(
    ("card_id", "faction"),
    [
        ("children-of-the-dragon", "dragon-valley"),
        ("mischievous-fairy", "fairy-forest"),
        ("homesteaders", "holy-empire"),
    ],
)
def test_confirmed_swarm_cards(card_id: str, faction: str) -> None:
    card = BY_ID[card_id]
    assert card["faction"] == faction
    assert card["copies"] == 7
    assert card["value"] == {"kind": "count", "of": card_id, "per": 1}
    assert card["status"] == "confirmed"


def test_dragons_cave_closes_own_dragon_valley() -> None:
    card = BY_ID["dragons-cave"]
    assert card["faction"] == "dragon-valley"
    assert card["category"] == "home"
    assert card["effect"] == {
        "kind": "close",
        "scope": "you",
        "faction": "dragon-valley",
        "count": 1,
    }
    assert card["value"] == {"kind": "fixed", "points": 6}


def test_sky_dancer_dragon_and_dwarven_warrior_pair() -> None:
    assert BY_ID["sky-dancer-dragon"]["faction"] == "dragon-valley"
    assert BY_ID["sky-dancer-dragon"]["value"] == {"kind": "fixed", "points": 3}
    assert BY_ID["sky-dancer-dragon"]["friend_of"] == "dwarven-warrior"
    assert BY_ID["dwarven-warrior"]["value"] == {
        "kind": "count",
        "of": "sky-dancer-dragon",
        "per": 3,
    }


def test_shadowkings_tale_chapter_1() -> None:
    card = BY_ID["shadowkings-tale-chapter-1"]
    assert card["faction"] == "shadow"
    assert card["category"] == "story"
    assert card["tier"] == "expert"
    assert card["value"] == {"kind": "quest_majority", "points": 6, "faction": "shadow"}


def test_fairy_queen_hunts() -> None:
    card = BY_ID["fairy-queen"]
    assert card["faction"] == "fairy-forest"
    assert card["tier"] == "expert"
    assert card["effect"] == {"kind": "hunt", "faction": "shadow"}


def test_demon_closes() -> None:
    card = BY_ID["demon"]
    assert card["faction"] == "shadow"
    assert card["effect"]["kind"] == "close"


def test_the_trickster() -> None:
    card = BY_ID["the-trickster"]
    assert card["value"] == {"kind": "wild", "points": -1}
    assert card["effect"] == {"kind": "none"}
    assert card["faction"] == "shadow"
    assert card["category"] == "character"
    assert card["tier"] == "expert"
    assert card["copies"] == 1


def test_bronze_dragon_counts_knights_times_three() -> None:
    """§0 example 2: 1 Bronze Dragon + 2 Knights of the Round Table -> the dragon scores 6."""
    card = BY_ID["bronze-dragon"]
    assert card["faction"] == "dragon-valley"
    assert card["tier"] == "basic"
    assert card["copies"] == 4
    assert card["value"] == {"kind": "count", "of": "knight-of-the-round-table", "per": 3}
    assert card["value"]["per"] * 2 == 6


def test_knight_of_the_round_table_and_warhorse() -> None:
    knight = BY_ID["knight-of-the-round-table"]
    assert knight["faction"] == "holy-empire"
    assert knight["copies"] == 3
    assert knight["value"] == {"kind": "fixed", "points": 3}
    assert knight["friend_of"] == "bronze-dragon"
    warhorse = BY_ID["warhorse"]
    assert warhorse["faction"] == "holy-empire"
    assert warhorse["copies"] == 3
    assert warhorse["value"] == {"kind": "count", "of": "knight-of-the-round-table", "per": 3}
    assert BY_ID["oath-of-chivalry"]["value"] == {
        "kind": "quest_cards",
        "points": 7,
        "needs": ["warhorse", "knight-of-the-round-table"],
    }


@pytest.mark.parametrize(
    ("card_id", "faction"), [("great-oak", "fairy-forest"), ("town-guard", "holy-empire")]
)
def test_majority_cards(card_id: str, faction: str) -> None:
    card = BY_ID[card_id]
    assert card["faction"] == faction
    assert card["copies"] == 4
    assert card["tier"] == "basic"
    assert card["value"] == {"kind": "majority", "points": 4}
    assert card["effect"] == {"kind": "none"}


def test_majority_cards_are_exactly_great_oak_and_town_guard() -> None:
    assert sorted(c["id"] for c in CARDS if c["value"]["kind"] == "majority") == [
        "great-oak",
        "town-guard",
    ]


def test_dark_pact_is_minus_two_open_any() -> None:
    card = BY_ID["dark-pact"]
    assert card["faction"] == "shadow"
    assert card["copies"] == 3
    assert card["value"] == {"kind": "fixed", "points": -2}
    assert card["effect"] == {"kind": "open", "faction": "any", "count": 1}


@pytest.mark.parametrize(
    ("card_id", "effect"),
    [
        ("lich", {"kind": "close", "scope": "all", "faction": "dragon-valley", "count": 1}),
        ("werewolf", {"kind": "close", "scope": "all", "faction": "fairy-forest", "count": 1}),
        ("black-knight", {"kind": "close", "scope": "all", "faction": "holy-empire", "count": 1}),
        (
            "demon",
            {
                "kind": "close",
                "scope": "all",
                "faction": "any",
                "exclude_faction": "shadow",
                "count": 1,
            },
        ),
        (
            "vampire",
            {
                "kind": "close",
                "scope": "all",
                "faction": "any",
                "exclude_faction": "shadow",
                "category": "character",
                "count": 1,
            },
        ),
        ("shadowking", {"kind": "close", "scope": "others", "faction": "any", "count": 1}),
    ],
)
def test_shadow_closers(card_id: str, effect: dict[str, Any]) -> None:
    assert BY_ID[card_id]["faction"] == "shadow"
    assert BY_ID[card_id]["effect"] == effect


def test_shadowkings_tale_chapter_2_needs_chapter_1() -> None:
    assert BY_ID["shadowkings-tale-chapter-2"]["value"] == {
        "kind": "quest_cards",
        "points": 8,
        "needs": ["shadowkings-tale-chapter-1"],
    }


def test_status_matches_the_reference() -> None:
    """Only the three swarm cards are fully confirmed; [P] copy counts make a proposal."""
    confirmed = sorted(c["id"] for c in CARDS if c["status"] == "confirmed")
    assert confirmed == ["children-of-the-dragon", "homesteaders", "mischievous-fairy"]
    for card_id in (
        "sky-dancer-dragon",
        "dwarven-warrior",
        "dragons-cave",
        "bronze-dragon",
        "knight-of-the-round-table",
        "demon",
        "the-trickster",
    ):
        assert BY_ID[card_id]["status"] == "proposal", card_id


def test_beginner_deck_has_cards_without_open_or_close() -> None:
    """Beginner setup redraws Open/Close cards, so the basic deck must hold others."""
    plain = _copies_where(
        lambda c: c["tier"] == "basic" and c["effect"]["kind"] not in ("open", "close")
    )
    assert plain >= 4  # one starting card for each of up to 4 basic-deck players


# --- rules.toml -----------------------------------------------------------------------------


def test_rules_file() -> None:
    data = _load(RULES_FILE)
    assert data["schema"] == 1
    assert data["game"] == "fairy-tale"
    assert data["rules"] == {
        "majority_ties": "inclusive",
        "multi_close": "maximal",
        "tie_break": "share",
    }
    variants = data["variant"]
    assert set(variants) == {"basic", "beginner", "expert"}
    for name, variant in variants.items():
        assert set(variant) == {"tiers", "hunt", "effects", "beginner_setup"}, name
        assert set(variant["tiers"]) <= TIERS
    assert variants["basic"]["tiers"] == ["basic"]
    assert variants["beginner"]["tiers"] == ["basic"]
    assert sorted(variants["expert"]["tiers"]) == ["basic", "expert"]
    assert variants["beginner"]["beginner_setup"] is True
    assert variants["basic"]["beginner_setup"] is False
    assert variants["expert"]["beginner_setup"] is False
    # §0, §3 Rule levels: beginner keeps Open/Close
    assert all(v["effects"] is True for v in variants.values())


def test_variant_deck_sizes() -> None:
    variants = _load(RULES_FILE)["variant"]
    sizes = {
        name: sum(c["copies"] for c in CARDS if c["tier"] in variant["tiers"])
        for name, variant in variants.items()
    }
    assert sizes == {"basic": 80, "beginner": 80, "expert": 100}
