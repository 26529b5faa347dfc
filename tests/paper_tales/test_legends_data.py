"""Card-data invariants of the Paper Tales expansion "Ce qui forge les légendes"
(``simcore/games/paper_tales/cards_legends.toml``), checked against the tables this file
holds, against the expansion's rules page (``docs/rules/paper-tales-legends.md``, which
bare ``§N`` here cites: §3.2 units, §4 artifacts, §5 buildings, §6 the engine's kinds; "base
§N" is ``docs/rules/paper-tales.md``) and against the schema documented in the headers of
``cards.toml`` (the base kinds) and ``cards_legends.toml`` (the NEW kinds and parameters).

Plain ``tomllib`` (independent of the loader, which ``test_legends_tables.py`` covers), so
nothing of the engine is imported. The page's tables are parsed too, so a change to the data
or to the page that the other does not follow fails here."""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

GAME_DIR = Path(__file__).resolve().parents[2] / "simcore" / "games" / "paper_tales"
LEGENDS_PATH = GAME_DIR / "cards_legends.toml"
LEGENDS_TEXT = LEGENDS_PATH.read_text(encoding="utf-8")
BASE_TEXT = (GAME_DIR / "cards.toml").read_text(encoding="utf-8")
DOC = tomllib.loads(LEGENDS_TEXT)
BASE = tomllib.loads(BASE_TEXT)
UNITS: list[dict[str, Any]] = DOC["unit"]
ARTIFACTS: list[dict[str, Any]] = DOC["artifact"]
BUILDINGS: list[dict[str, Any]] = DOC["building"]
PAGE = Path(__file__).resolve().parents[2] / "docs" / "rules" / "paper-tales-legends.md"

# §3.2: id -> (name, copies, cost, strength).
RULES_UNITS = {
    "court-jester": ("Court Jester", 2, 1, 2),
    "standard-bearer": ("Standard-Bearer", 2, 1, 2),
    "titan": ("Titan", 1, 4, 5),
    "dryad": ("Dryad", 2, 1, 2),
    "imp": ("Imp", 2, -2, 0),
    "lackey": ("Lackey", 2, -1, 1),
    "relic-of-fertility": ("Relic of Fertility", 1, 2, 0),
    "shadow": ("Shadow", 1, 1, 2),
    "artificer": ("Artificer", 2, 0, 1),
    "antiquarian": ("Antiquarian", 2, 0, 1),
    "royal-guard": ("Royal Guard", 2, 1, 2),
    "mason": ("Mason", 2, 1, 1),
    "mercenary": ("Mercenary", 1, 2, 6),
    "griffin": ("Griffin", 1, 2, 2),
    "crossbowman": ("Crossbowman", 1, 2, 4),
    "lady-of-the-lake": ("Lady of the Lake", 1, 0, 1),
    "paladin": ("Paladin", 1, 3, 5),
}
# §4: id -> (name, copies, printed LP).
RULES_ARTIFACTS = {
    "shield-of-power": ("Shield of Power", 1, 1),
    "legendary-sword": ("Legendary Sword", 1, 0),
    "war-horn": ("War Horn", 1, 1),
    "bottomless-purse": ("Bottomless Purse", 1, 0),
    "golden-idol": ("Golden Idol", 1, 2),
    "stone-of-transmutation": ("Stone of Transmutation", 1, 1),
    "treasure-map": ("Treasure Map", 1, 1),
    "magnificent-grove": ("Magnificent Grove", 1, 1),
    "heart-of-the-mountain": ("Heart of the Mountain", 1, 1),
    "cornucopia": ("Cornucopia", 1, 0),
    "royal-seal": ("Royal Seal", 1, 1),
    "golden-compass": ("Golden Compass", 1, 1),
    "scepter-of-kings": ("Scepter of Kings", 1, 1),
    "dragon-egg": ("Dragon Egg", 1, 3),
    "cursed-crown": ("Cursed Crown", 1, 5),
    "phial-of-life": ("Phial of Life", 1, 1),
    "magic-mirror": ("Magic Mirror", 1, 1),
    "ancient-grimoire": ("Ancient Grimoire", 1, 0),
}
# §5.1 / §5.2: id -> (name, French name, pool, L1 requirement, L2 requirement).
RULES_BUILDINGS = {
    "inn": ("Inn", "Auberge", "legends", {"food": 1}, {"food": 2}),
    "sawmill": ("Sawmill", "Scierie", "legends", {"wood": 1}, {"wood": 1, "food": 1}),
    "royal-palace": (
        "Royal Palace", "Palais royal", "legends", {"crystal": 1}, {"wood": 1, "crystal": 1},
    ),
    "port": ("Port", "Port", "integral", {"wood": 1}, {"wood": 1, "food": 1}),
    "abbey": ("Abbey", "Abbaye", "integral", {"food": 1}, {"wood": 1, "crystal": 1}),
}  # fmt: skip

RESOURCES = ("wood", "food", "crystal")
PHASES = ("deployment", "war", "income", "construction", "aging", "end")
ORIGINS = ("legends", "legends?", "btg?")
STATUSES = ("confirmed", "inferred", "proposal")
SOURCE_KEYS = {"CARD", "GP", "TP", "DZ", "REV", "RB", "brief", "inferred", "proposal"}
BASE_PER = (
    "one", "age_self", "age_kingdom", "wood", "food", "crystal", "income_gold",
    "level2_buildings", "strong_units",
)  # fmt: skip
NEW_PER = ("artifacts", "units_cost_ge", "units_cost_le")
BASE_WHEN = ("always", "aged", "has_food", "has_crystal", "front_row", "exactly_one_age")
BASE_TARGET = ("self", "others", "one")
NEW_TARGET = ("all",)
UNIT_ONLY_KINDS = {
    "fight_from_back", "set_strength", "cannot_fight", "never_dies", "dies_at_age",
    "death_lp", "death_gold",
}  # fmt: skip
UNIT_ONLY_WHEN = {"aged", "front_row", "exactly_one_age"}

# The NEW kinds of cards_legends.toml's header: phases, parameters (all optional except
# ``amount`` of artifact_cost_modifier), and whether they must / may not be on_deploy.
NEW_KINDS: dict[str, tuple[tuple[str, ...], dict[str, tuple[Any, ...]], bool | None]] = {
    "deploy_artifact_from_hand": (
        ("deployment",),
        {"count": ("int", 1, 9), "cost": ("int", 0, 9), "from": ("choice", ("hand",))},
        True,
    ),
    "repeat_deploy_abilities": (("deployment",), {"times": ("int", 1, 9)}, True),
    "build_free": (
        ("deployment",),
        {"level": ("int", 1, 2), "land_cost": ("bool",), "requirements": ("bool",)},
        True,
    ),
    "conditional_gain": (
        ("deployment", "war", "income"),
        {
            "gold": ("int", -9, 20),
            "lp": ("int", -9, 20),
            "when": ("choice", BASE_WHEN),
            "requires": ("resources_table",),
            "counter": ("choice", BASE_PER + NEW_PER),
            "min": ("int", 0, 20),
            "per_cost": ("int", -9, 9),
            "per_other": ("bool",),
        },
        None,
    ),
    "artifact_cost_modifier": (("deployment",), {"amount": ("int", -9, 9)}, False),
}
# Parameters the expansion adds to base kinds (§6.3): any kind with ``per`` takes
# per_cost / per_other; no_land_cost takes discount.
EXTRA_PARAMS = {"per_cost", "per_other"}


def _id(name: str) -> str:
    """The id rule of the file header: lowercase, spaces -> hyphens, apostrophes dropped."""
    return re.sub(r" +", "-", re.sub(r"['’]", "", name.lower()))


def _base_kinds() -> dict[str, tuple[tuple[str, ...], set[str], set[str]]]:
    """kind -> (phases, all parameters, required parameters), read from cards.toml's header
    table (``per`` and ``when`` have defaults: header line "Defaults: ...")."""
    head = BASE_TEXT.split("# KIND (phase)")[1].split("# Defaults")[0]
    out = {}
    for line in head.splitlines():
        m = re.match(r"^#   (\w+) \(([a-z|]+)\)\s+(\S.*?)(?:\s{2,}\S|$)", line)
        if not m:
            continue
        kind, phases, params = m.groups()
        names = [] if params == "-" else [p.strip() for p in params.split(",")]
        every = {p.rstrip("?") for p in names}
        required = {p for p in names if not p.endswith("?")} - {"per", "when"}
        out[kind] = (tuple(phases.split("|")), every, required)
    return out


BASE_KINDS = _base_kinds()


def _cards() -> list[tuple[str, dict[str, Any]]]:
    return [("unit", u) for u in UNITS] + [("artifact", a) for a in ARTIFACTS]


def _abilities() -> list[tuple[str, str, dict[str, Any]]]:
    """(owner table, owner id, ability) for every unit, artifact and building face."""
    out = [(table, c["id"], a) for table, c in _cards() for a in c.get("abilities", [])]
    for b in BUILDINGS:
        for lv in ("level1", "level2"):
            out += [("building", b["id"], a) for a in b[lv].get("abilities", [])]
    return out


def _users(pred: Any) -> set[str]:
    return {cid for _, cid, a in _abilities() if pred(a)}


# --- counts (§0, §2.1, §3.2, §4, §5) ---------------------------------------------------------


def test_26_unit_cards_of_17_units() -> None:
    assert len(UNITS) == 17
    assert sum(u["copies"] for u in UNITS) == 26


def test_18_artifacts_one_copy_each() -> None:
    assert len(ARTIFACTS) == 18
    assert all(a["copies"] == 1 for a in ARTIFACTS)


def test_21_building_cards_inn_sawmill_royal_palace() -> None:
    """§0: 21 building cards, 7 copies each of Inn, Sawmill and Royal Palace; the optional
    tiles Port and Abbey (§5.2) are not part of that count and carry no copy count."""
    pool = {b["id"]: b for b in BUILDINGS if b["pool"] == "legends"}
    assert set(pool) == {"inn", "sawmill", "royal-palace"}
    assert sum(b["copies"] for b in pool.values()) == 21
    assert all(b["copies"] == 7 for b in pool.values())
    optional = [b for b in BUILDINGS if b["pool"] == "integral"]
    assert [b["id"] for b in optional] == ["port", "abbey"]
    assert all("copies" not in b for b in optional)


def test_deck_size_44_and_125_with_the_base() -> None:
    """§2.1: 81 base unit cards + 26 units + 18 artifacts = 125."""
    assert DOC["deck_size"] == 44 == sum(c["copies"] for _, c in _cards())
    assert BASE["deck_size"] + DOC["deck_size"] == 125
    assert DOC["extends"] == "cards.toml"
    assert (DOC["schema"], DOC["game"], DOC["expansion"]) == (1, "paper-tales", "legends")


def test_units_match_the_rules_table() -> None:
    got = {u["id"]: (u["name"], u["copies"], u["cost"], u["strength"]) for u in UNITS}
    assert got == RULES_UNITS


def test_artifacts_match_the_rules_table() -> None:
    got = {a["id"]: (a["name"], a["copies"], a["lp"]) for a in ARTIFACTS}
    assert got == RULES_ARTIFACTS


def test_buildings_match_the_rules_table() -> None:
    for b in BUILDINGS:
        name, name_fr, pool, req1, req2 = RULES_BUILDINGS[b["id"]]
        assert (b["name"], b["name_fr"], b["pool"]) == (name, name_fr, pool)
        assert b["level1"]["requires"] == req1, b["id"]
        assert b["level2"]["requires"] == req2, b["id"]
        assert (b["level1"]["lp"], b["level2"]["lp"]) == (1, 3)
        assert b["level2"].get("extra_front_spot") is True
        assert not b["level1"].get("extra_front_spot", False)
    assert [b["id"] for b in BUILDINGS] == list(RULES_BUILDINGS)


def test_cards_by_cost_match_the_rules_totals() -> None:
    """§3.2 Totals: -2: 2, -1: 2, 0: 5, 1: 11, 2: 4, 3: 1, 4: 1; with the base (107 units):
    -2: 2, -1: 4, 0: 40, 1: 34, 2: 20, 3: 5, 4: 1, 6: 1; cost >= 2: 27, >= 3: 7, <= 0: 46."""
    mine = Counter(u["cost"] for u in UNITS for _ in range(u["copies"]))
    assert mine == {-2: 2, -1: 2, 0: 5, 1: 11, 2: 4, 3: 1, 4: 1}
    both = mine + Counter(u["cost"] for u in BASE["unit"] for _ in range(u["copies"]))
    assert sum(both.values()) == 107
    assert both == {-2: 2, -1: 4, 0: 40, 1: 34, 2: 20, 3: 5, 4: 1, 6: 1}
    assert sum(n for c, n in both.items() if c >= 2) == 27
    assert sum(n for c, n in both.items() if c >= 3) == 7
    assert sum(n for c, n in both.items() if c <= 0) == 46


def test_artifact_lp_totals_21() -> None:
    """§4 Totals: printed LP 21 in all; every artifact has at most one ability."""
    assert sum(a["lp"] for a in ARTIFACTS) == 21
    assert all(len(a.get("abilities", [])) <= 1 for a in ARTIFACTS)


def test_resource_producers() -> None:
    """§3.2: Legends units producing resources: Dryad, Mason (W); §4: Grove W+F, Heart C,
    Cornucopia 2 F; §5: Sawmill L1 W, Port L1 F."""
    assert {u["id"]: u["produces"] for u in UNITS if "produces" in u} == {
        "dryad": {"wood": 1},
        "mason": {"wood": 1},
    }
    assert {a["id"]: a["produces"] for a in ARTIFACTS if "produces" in a} == {
        "magnificent-grove": {"wood": 1, "food": 1},
        "heart-of-the-mountain": {"crystal": 1},
        "cornucopia": {"food": 2},
    }
    made = {
        (b["id"], lv): b[lv]["produces"]
        for b in BUILDINGS
        for lv in ("level1", "level2")
        if "produces" in b[lv]
    }
    assert made == {("sawmill", "level1"): {"wood": 1}, ("port", "level1"): {"food": 1}}


# --- ids, names, fields ----------------------------------------------------------------------


def test_ids_follow_the_rule_and_are_unique_with_the_base() -> None:
    ids = [c["id"] for _, c in _cards()] + [b["id"] for b in BUILDINGS]
    assert len(ids) == len(set(ids))
    for _, c in _cards():
        assert c["id"] == _id(c["name"])
    for b in BUILDINGS:
        assert b["id"] == _id(b["name"])
    base = {u["id"] for u in BASE["unit"]} | {b["id"] for b in BASE["building"]}
    assert base.isdisjoint(ids)


def test_every_card_has_origin_status_tags_source_text() -> None:
    for table, c in [*_cards(), *(("building", b) for b in BUILDINGS)]:
        where = f"{table} {c['id']}"
        assert c["origin"] in ORIGINS, where
        assert c["status"] in STATUSES, where
        assert c["status"] == "proposal", where  # every card has a [P] fact (§3, §4, §5)
        assert re.search(r"\[[BIP]\]", c["tags"]), where
        keys = {k.strip() for k in c["source"].split(",")}
        assert keys <= SOURCE_KEYS, where
        assert "proposal" in keys, where
        assert c["text"].strip(), where
        assert c.get("notes") is None or c["notes"].startswith("§"), where


def test_origins_follow_section_0() -> None:
    """§0: Court Jester legends; Dryad, Titan, Imp, Lackey, Standard-Bearer and Relic of
    Fertility of unknown origin; Shadow probably BtG; artifacts only exist here; Port and
    Abbey probably BtG (§2.2)."""
    origin = {c["id"]: c["origin"] for _, c in _cards()} | {b["id"]: b["origin"] for b in BUILDINGS}
    unknown = {"dryad", "titan", "imp", "lackey", "standard-bearer", "relic-of-fertility"}
    assert {k for k, v in origin.items() if v == "legends?"} == unknown
    assert {k for k, v in origin.items() if v == "btg?"} == {"shadow", "port", "abbey"}
    assert origin["court-jester"] == "legends"
    assert all(origin[a["id"]] == "legends" for a in ARTIFACTS)


def test_brief_names_are_tagged_brief() -> None:
    """§0: the names the brief gives carry a [B] tag and the "brief" source key."""
    named = {
        "court-jester", "standard-bearer", "titan", "dryad", "imp", "lackey",
        "relic-of-fertility", "shadow", "bottomless-purse", "magnificent-grove",
        "cursed-crown", "shield-of-power", "inn", "sawmill", "royal-palace", "port", "abbey",
    }  # fmt: skip
    every = {c["id"]: c for _, c in _cards()} | {b["id"]: b for b in BUILDINGS}
    for cid, c in every.items():
        assert ("[B]" in c["tags"]) == (cid in named), cid
        assert ("brief" in c["source"]) == (cid in named), cid


def test_french_names_only_for_the_buildings() -> None:
    assert all("name_fr" not in c for _, c in _cards())
    assert all(b["name_fr"] for b in BUILDINGS)


def test_unit_fields() -> None:
    allowed = {"id", "name", "name_fr", "copies", "cost", "strength", "produces", "abilities"}
    allowed |= {"status", "source", "text", "notes", "origin", "tags"}
    for u in UNITS:
        assert set(u) <= allowed, u["id"]
        assert 1 <= u["copies"] <= 9
        assert -9 <= u["cost"] <= 9
        assert 0 <= u["strength"] <= 20
        assert len(u["abilities"]) <= 4


def test_artifacts_have_no_cost_strength_or_spot() -> None:
    """§2.3: no printed cost, no strength, no row, no age tokens: the table has none of the
    unit-only fields, kinds or conditions."""
    allowed = {"id", "name", "copies", "lp", "produces", "abilities"}
    allowed |= {"status", "source", "text", "notes", "origin", "tags"}
    for a in ARTIFACTS:
        assert set(a) <= allowed, a["id"]
        assert 0 <= a["lp"] <= 9
        assert set(a.get("produces", {})) <= set(RESOURCES), a["id"]
        for ab in a.get("abilities", []):
            assert ab["kind"] not in UNIT_ONLY_KINDS, a["id"]
            assert ab.get("when", "always") not in UNIT_ONLY_WHEN, a["id"]
            assert ab.get("per", "one") != "age_self", a["id"]


def test_building_fields() -> None:
    allowed = {"id", "name", "name_fr", "level1", "level2", "status", "source", "text", "notes"}
    allowed |= {"origin", "tags", "pool", "copies"}
    level_keys = {"requires", "gold_instead", "lp", "produces", "abilities", "extra_front_spot"}
    for b in BUILDINGS:
        assert set(b) <= allowed, b["id"]
        for lv in ("level1", "level2"):
            assert set(b[lv]) <= level_keys, (b["id"], lv)
            assert set(b[lv]["requires"]) <= set(RESOURCES)
            assert all(0 <= n <= 9 for n in b[lv]["requires"].values())
            assert len(b[lv].get("abilities", [])) <= 4
            for ab in b[lv].get("abilities", []):
                assert ab["kind"] not in UNIT_ONLY_KINDS | {"add_age"}, b["id"]
                assert not ab.get("on_deploy", False), b["id"]


# --- effect kinds and parameters -------------------------------------------------------------


def test_base_header_parsed() -> None:
    """The 19 base kinds of cards.toml's header (the parser above reads them all)."""
    assert len(BASE_KINDS) == 19
    assert BASE_KINDS["lp"] == (("deployment", "war", "end"), {"amount", "per", "when"}, {"amount"})


def test_new_kinds_are_documented_in_the_header() -> None:
    header = LEGENDS_TEXT.split("\nschema = 1")[0]
    for kind in NEW_KINDS:
        assert re.search(rf"^#   NEW {kind} \(", header, re.M), kind
        assert kind not in BASE_KINDS
    for per in NEW_PER:
        assert re.search(rf"^#           {per} ", header, re.M), per
    for param in ("per_cost", "per_other", "discount"):
        assert param in header
    assert "all       every unit of the owner" in header


def test_every_kind_is_a_base_or_a_documented_new_kind() -> None:
    used = {a["kind"] for _, _, a in _abilities()}
    assert used <= set(BASE_KINDS) | set(NEW_KINDS)
    assert set(NEW_KINDS) <= used  # every new kind has a user


def _check_value(spec: tuple[Any, ...], value: Any) -> bool:
    if spec[0] == "int":
        return (
            isinstance(value, int) and not isinstance(value, bool) and spec[1] <= value <= spec[2]
        )
    if spec[0] == "bool":
        return isinstance(value, bool)
    if spec[0] == "choice":
        return value in spec[1]
    assert spec[0] == "resources_table"
    return set(value) <= set(RESOURCES) and all(0 <= n <= 9 for n in value.values())


def test_every_ability_has_a_valid_phase_and_parameters() -> None:
    for table, cid, a in _abilities():
        where = f"{table} {cid}: {a['kind']}"
        kind, phase, on_deploy = a["kind"], a["phase"], a.get("on_deploy", False)
        assert phase in PHASES, where
        assert isinstance(on_deploy, bool), where
        assert not on_deploy or phase == "deployment", where
        params = set(a) - {"phase", "kind", "on_deploy"}
        if kind in NEW_KINDS:
            phases, spec, must_deploy = NEW_KINDS[kind]
            assert phase in phases, where
            assert params <= set(spec), where
            for p in params:
                assert _check_value(spec[p], a[p]), f"{where}.{p}"
            if must_deploy is not None:
                assert on_deploy is must_deploy, where
            if kind == "artifact_cost_modifier":
                assert "amount" in a, where
            if kind == "conditional_gain":
                assert a.get("gold", 0) or a.get("lp", 0), where
                assert phase != "deployment" or on_deploy, where
            continue
        phases, every, required = BASE_KINDS[kind]
        extra = {"discount"} if kind == "no_land_cost" else set()
        if "per" in every:
            extra |= EXTRA_PARAMS
        assert phase in phases, where
        assert required <= params <= every | extra, where
        if "amount" in a:
            assert -20 <= a["amount"] <= 20, where
        if "discount" in a:
            assert 1 <= a["discount"] <= 20, where
        if "per" in a:
            assert a["per"] in BASE_PER + NEW_PER, where
        if "when" in a:
            assert a["when"] in BASE_WHEN, where
        if "target" in a:
            assert a["target"] in BASE_TARGET + NEW_TARGET, where
        if "resources" in a:
            assert set(a["resources"]) <= set(RESOURCES), where
        if "age" in a:
            assert 1 <= a["age"] <= 9, where


def test_cost_counters_take_their_threshold() -> None:
    """per_cost / per_other go with the units_cost_* counters only (either as ``per`` or
    as a conditional_gain ``counter``)."""
    for _, cid, a in _abilities():
        counter = a.get("per", a.get("counter", "one"))
        has = "per_cost" in a
        assert has == counter.startswith("units_cost_"), cid
        assert "per_other" not in a or has, cid


def test_new_kinds_only_where_the_base_cannot_say_it() -> None:
    """§6.3: base kinds are reused for the same meaning (a sample of the mapping)."""
    kinds = {(c["id"], a["kind"]) for _, c in _cards() for a in c.get("abilities", [])}
    for pair in [
        ("dryad", "gold_for_resource"),
        ("royal-seal", "gold_for_resource"),
        ("imp", "add_age"),
        ("lackey", "add_age"),
        ("mercenary", "add_age"),
        ("cursed-crown", "add_age"),
        ("shield-of-power", "add_strength"),
        ("legendary-sword", "add_strength"),
        ("war-horn", "lp_per_war_won"),
        ("paladin", "lp_per_war_won"),
        ("griffin", "add_strength"),
        ("crossbowman", "fight_from_back"),
        ("scepter-of-kings", "lp"),
        ("ancient-grimoire", "lp"),
        ("phial-of-life", "heal"),
        ("golden-idol", "gold"),
        ("stone-of-transmutation", "gold"),
        ("mason", "no_land_cost"),
        ("golden-compass", "no_land_cost"),
    ]:
        assert pair in kinds, pair


# --- one test per new effect kind / new parameter value: who uses it -----------------------


def test_kind_deploy_artifact_from_hand() -> None:
    assert _users(lambda a: a["kind"] == "deploy_artifact_from_hand") == {"court-jester"}
    (a,) = next(u for u in UNITS if u["id"] == "court-jester")["abilities"]
    assert (a["count"], a["cost"], a["from"]) == (1, 0, "hand")


def test_kind_repeat_deploy_abilities() -> None:
    assert _users(lambda a: a["kind"] == "repeat_deploy_abilities") == {"shadow", "magic-mirror"}


def test_kind_build_free() -> None:
    assert _users(lambda a: a["kind"] == "build_free") == {"titan"}
    (a,) = next(u for u in UNITS if u["id"] == "titan")["abilities"]
    assert (a["level"], a["land_cost"], a["requirements"]) == (1, False, False)


def test_kind_conditional_gain() -> None:
    users = _users(lambda a: a["kind"] == "conditional_gain")
    assert users == {
        "standard-bearer", "lady-of-the-lake", "relic-of-fertility", "treasure-map", "port",
        "abbey",
    }  # fmt: skip
    got = sorted(
        (cid, a["phase"], a.get("gold", 0), a.get("lp", 0))
        for _, cid, a in _abilities()
        if a["kind"] == "conditional_gain"
    )
    assert got == [
        ("abbey", "war", 0, 4),
        ("lady-of-the-lake", "deployment", 0, 3),
        ("port", "war", 0, 2),
        ("relic-of-fertility", "war", 0, 5),
        ("standard-bearer", "deployment", 0, 2),
        ("standard-bearer", "deployment", 2, 0),
        ("treasure-map", "deployment", 3, 0),
    ]


def test_kind_artifact_cost_modifier() -> None:
    users = _users(lambda a: a["kind"] == "artifact_cost_modifier")
    assert users == {"artificer", "royal-palace"}
    amounts = {a["amount"] for _, _, a in _abilities() if a["kind"] == "artifact_cost_modifier"}
    assert amounts == {-1}


def test_per_artifacts() -> None:
    per = _users(lambda a: a.get("per") == "artifacts" or a.get("counter") == "artifacts")
    assert per == {
        "antiquarian", "royal-guard", "bottomless-purse", "ancient-grimoire", "royal-palace",
        "lady-of-the-lake",
    }  # fmt: skip


def test_per_units_cost() -> None:
    ge = _users(lambda a: "units_cost_ge" in (a.get("per"), a.get("counter")))
    le = _users(lambda a: "units_cost_le" in (a.get("per"), a.get("counter")))
    assert (ge, le) == ({"standard-bearer"}, {"inn"})


def test_target_all() -> None:
    assert _users(lambda a: a.get("target") == "all") == {"cursed-crown"}


def test_no_land_cost_discount() -> None:
    users = _users(lambda a: a["kind"] == "no_land_cost" and "discount" in a)
    assert users == {"mason", "golden-compass", "sawmill"}
    assert {a["discount"] for _, _, a in _abilities() if "discount" in a} == {2}


def test_on_deploy_artifacts() -> None:
    """§6.3: artifacts may carry on_deploy abilities (they enter in a Deployment phase)."""
    users = {a["id"] for a in ARTIFACTS for ab in a["abilities"] if ab.get("on_deploy")}
    assert users == {"treasure-map", "cursed-crown", "magic-mirror"}


# --- the rules page: its tables are the data's -------------------------------------------


@pytest.fixture(scope="module")
def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def _section(page: str, start: str, end: str) -> str:
    assert start in page, start
    assert end in page, end
    return page.split(start)[1].split(end)[0]


def _num(text: str) -> int:
    return int(text.replace("−", "-").replace("\\*", "").strip())


def _requires(text: str) -> dict[str, int]:
    """'1 W + 1 C' -> {"wood": 1, "crystal": 1}."""
    name = {"W": "wood", "F": "food", "C": "crystal"}
    out = {}
    for part in text.split("+"):
        n, r = part.split()
        out[name[r]] = int(n)
    return out


SECTIONS = (
    "0", "1", "2", "2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8", "2.9", "2.10",
    "3", "3.1", "3.2", "3.3", "3.4", "4", "5", "5.1", "5.2", "6", "6.1", "6.2", "6.3", "6.4",
    "7", "8",
)  # fmt: skip


def test_page_keeps_its_section_numbers(page: str) -> None:
    """Code, data and tests cite the page by these numbers: none may go missing or move."""
    got = re.findall(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", page, re.M)
    assert tuple(got) == SECTIONS


def test_page_unit_table_matches(page: str) -> None:
    rows = re.findall(
        r"^\| (\d+) \| `([a-z-]+)` \| ([^|]+?) \| (\d+) \| (-?\d+) \| (\d+(?:\\\*)?) \|",
        _section(page, "### 3.2", "### 3.3"),
        re.M,
    )
    got = {cid: (name, int(n), _num(cost), _num(s)) for _, cid, name, n, cost, s in rows}
    assert got == RULES_UNITS
    assert [cid for _, cid, *_ in rows] == [u["id"] for u in UNITS]


def test_page_artifact_table_matches(page: str) -> None:
    rows = re.findall(
        r"^\| (\d+) \| `([a-z-]+)` \| ([^|]+?) \| (\d+) \| (\d+) \|",
        _section(page, "## 4. Artifacts", "## 5. "),
        re.M,
    )
    assert {cid: (name, int(n), int(lp)) for _, cid, name, n, lp in rows} == RULES_ARTIFACTS
    assert [cid for _, cid, *_ in rows] == [a["id"] for a in ARTIFACTS]


def test_page_building_tables_match(page: str) -> None:
    rows = re.findall(
        r"^\| `([a-z-]+)` \| ([^|(]+?) \(([^)]+)\) \| (\d+|—) \| ([^|]+?) \| [^|]+ \| "
        r"([^|]+?) \| [^|]+ \| 1 / 3 \|$",
        _section(page, "## 5. Buildings", "## 6. "),
        re.M,
    )
    assert [r[0] for r in rows] == list(RULES_BUILDINGS)
    for bid, name, name_fr, copies, req1, req2 in rows:
        want = RULES_BUILDINGS[bid]
        assert (name, name_fr, _requires(req1), _requires(req2)) == (
            want[0], want[1], want[3], want[4],
        ), bid  # fmt: skip
        b = next(b for b in BUILDINGS if b["id"] == bid)
        assert b.get("copies") == (None if copies == "—" else int(copies)), bid
