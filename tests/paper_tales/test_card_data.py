"""Card-data invariants for Paper Tales (base game), checked against the tables this file
holds and the rules page ``docs/rules/paper-tales.md`` (which bare ``§N`` here cites: §3
units, §4 buildings, §2.9 and §8 options), whose tables are parsed too.

Counts are read from the TOML with ``tomllib`` directly, independent of the loader; the
loader and the compiled tables are checked after."""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from talesim.simcore.games.paper_tales import tables as T  # noqa: N812
from talesim.simcore.games.paper_tales.tables import (
    EFFECTS,
    LATER_PHASE_EFFECTS,
    SCORED_EFFECTS,
    SCORED_PHASES,
    CardSet,
    Effect,
    compile_tables,
)

GAME_DIR = Path(__file__).resolve().parents[2] / "simcore" / "games" / "paper_tales"
PAGE = Path(__file__).resolve().parents[2] / "docs" / "rules" / "paper-tales.md"
DOC = tomllib.loads((GAME_DIR / "cards.toml").read_text(encoding="utf-8"))
RULES = tomllib.loads((GAME_DIR / "rules.toml").read_text(encoding="utf-8"))
UNITS: list[dict[str, Any]] = DOC["unit"]
BUILDINGS: list[dict[str, Any]] = DOC["building"]
BY_ID = {u["id"]: u for u in UNITS}

# §3 table: (copies, cost, strength) per unit (the page's table is parsed below).
RULES_UNITS = {
    "adventurer": (2, 0, 2), "archer": (2, 1, 2), "blacksmith": (3, 0, 1),
    "cave-spirit": (2, 1, 4), "cerberus": (3, 0, 2), "colossus": (1, 2, 1),
    "commander": (2, 2, 4), "cook": (2, 0, 1), "demon": (1, 2, 7), "dragon": (1, 3, 0),
    "farmer": (3, 0, 1), "forest-child": (3, 1, 1), "forest-spirit": (1, 3, 3),
    "giant-snake": (1, 1, 4), "golem": (2, 2, 3), "grand-architect": (1, 1, 1),
    "hunter": (2, 0, 2), "knight": (3, 1, 4), "kraken": (1, 6, 9), "landlord": (1, 2, 1),
    "leviathan": (1, 3, 4), "manticore": (3, 2, 2), "master-alchemist": (1, 2, 1),
    "militiaman": (3, 0, 2), "miner": (3, 1, 2), "monkey": (2, -1, 1),
    "mystical-healer": (3, 0, 1), "necromancer": (1, 1, 4), "ogre": (1, 2, 2),
    "palm-reader": (2, 2, 1), "peddler": (3, 1, 1), "relic-of-wisdom": (1, 2, 0),
    "rogue": (2, 1, 3), "salamander": (1, 2, 4), "sculptor": (2, 0, 1),
    "shapeshifter": (1, 0, 0), "strategist": (1, 3, 1), "time-master": (3, 0, 1),
    "treefolk": (2, 1, 3), "veteran": (3, 0, 3), "wood-merchant": (2, 0, 1),
    "woodcutter": (3, 0, 2),
}  # fmt: skip

# §4 table: (L1 requirement, L2 requirement, gold alternative L1/L2).
RULES_BUILDINGS = {
    "town": ({"wood": 1}, {"wood": 2}, (None, None)),
    "tavern": ({"food": 1}, {"wood": 1, "food": 1}, (None, None)),
    "mine": ({"wood": 1}, {"wood": 1, "crystal": 1}, (None, None)),
    "temple": ({"crystal": 1}, {"crystal": 2}, (2, 3)),
    "barracks": ({"wood": 1}, {"wood": 1, "food": 1}, (None, None)),
}
SOURCE_KEYS = set(T.SOURCE_KEYS)


def _id(name: str) -> str:
    return re.sub(r"[ ]+", "-", re.sub(r"['’]", "", name.lower()))


def test_42_units_81_cards() -> None:
    assert len(UNITS) == 42
    assert sum(u["copies"] for u in UNITS) == 81 == DOC["deck_size"]


def test_units_match_the_rules_table() -> None:
    assert {u["id"]: (u["copies"], u["cost"], u["strength"]) for u in UNITS} == RULES_UNITS


def test_page_keeps_its_section_numbers() -> None:
    """Code, data and tests cite the page by these numbers: none may go missing or move."""
    got = re.findall(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", PAGE.read_text(encoding="utf-8"), re.M)
    assert tuple(got) == (
        "0", "1", "2", "2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8", "2.9",
        "3", "4", "5", "5.1", "5.2", "6", "7", "8",
    )  # fmt: skip


def test_page_tables_are_the_data() -> None:
    """The page's §3 unit table (copies, cost, strength, status) and §4 building table
    (requirements, Temple gold) say what cards.toml says."""
    page = PAGE.read_text(encoding="utf-8")
    units = page.split("## 3. Units")[1].split("## 4. ")[0]
    rows = re.findall(
        r"^\| \d+ \| `([a-z-]+)` \| [^|]+ \| (\d+) \| (-?\d+) \| (\d+)(?:\\\*)? \| .+ \| (\w+) \|$",
        units,
        re.M,
    )
    assert [r[0] for r in rows] == [u["id"] for u in UNITS]
    assert {u: (int(n), int(c), int(st)) for u, n, c, st, _ in rows} == RULES_UNITS
    assert {u: status for u, *_, status in rows} == {u["id"]: u["status"] for u in UNITS}
    name = {"W": "wood", "F": "food", "C": "crystal"}

    def req(text: str) -> dict[str, int]:
        return {name[r]: int(n) for n, r in (p.split() for p in text.split("+"))}

    buildings = page.split("## 4. Buildings")[1].split("## 5. ")[0]
    rows = re.findall(
        r"^\| `([a-z-]+)` \| [^|]+ \| ([^|]+?) \| [^|]+ \| ([^|]+?) \| [^|]+ \| "
        r"(?:— \| |(\d+) G / (\d+) G \| )1 / 3 \|$",
        buildings,
        re.M,
    )
    assert [r[0] for r in rows] == [b["id"] for b in BUILDINGS]
    for bid, r1, r2, g1, g2 in rows:
        gold = (int(g1), int(g2)) if g1 else (None, None)
        assert (req(r1), req(r2), gold) == RULES_BUILDINGS[bid], bid


def test_cards_by_cost_match_the_rules_totals() -> None:
    """§3 Totals: cost -1: 2, 0: 35, 1: 23, 2: 16, 3: 4, 6: 1."""
    by_cost = Counter(u["cost"] for u in UNITS for _ in range(u["copies"]))
    assert by_cost == {-1: 2, 0: 35, 1: 23, 2: 16, 3: 4, 6: 1}


def test_producers_match_the_rules_totals() -> None:
    """§3 Totals: 26 producing cards: W-only 7, F-only 5, W+F 3, 3W 1, C 5, conditional 5."""
    kinds: Counter[str] = Counter()
    for u in UNITS:
        p = u.get("produces")
        if not p:
            continue
        if "when" in p or "per" in p:
            key = "conditional"
        else:
            key = "+".join(f"{p[r]}{r[0].upper()}" for r in ("wood", "food", "crystal") if r in p)
        kinds[key] += u["copies"]
    assert kinds == {"1W": 7, "1F": 5, "1W+1F": 3, "3W": 1, "1C": 5, "conditional": 5}


@pytest.mark.parametrize("card", UNITS + BUILDINGS, ids=lambda c: c["id"])
def test_every_card_has_text_status_source(card: dict[str, Any]) -> None:
    assert card["text"].strip()
    assert card["status"] in ("confirmed", "inferred", "proposal")
    assert {s.strip() for s in card["source"].split(",")} <= SOURCE_KEYS
    assert card["id"] == _id(card["name"])
    assert card.get("name_fr")
    # the weakest fact decides: a [P] source means status proposal, [I] at least inferred
    if "proposal" in card["source"]:
        assert card["status"] == "proposal"
    elif "inferred" in card["source"]:
        assert card["status"] == "inferred"


def _abilities() -> list[tuple[str, dict[str, Any]]]:
    out = [(u["id"], a) for u in UNITS for a in u["abilities"]]
    for b in BUILDINGS:
        for lv in ("level1", "level2"):
            out += [(f"{b['id']}.{lv}", a) for a in b[lv].get("abilities", [])]
    return out


def test_every_effect_kind_is_used_and_known() -> None:
    used = {a["kind"] for _, a in _abilities()}
    assert used == set(EFFECTS) == {e.name.lower() for e in Effect}


def test_later_phase_list_is_exactly_the_non_scoring_kinds() -> None:
    """Every kind acting in a scored phase (war, income, end) is implemented by the static scoring;
    the later-phase list is exactly the kinds that never act there."""
    in_scored_phases = {a["kind"] for _, a in _abilities() if a["phase"] in SCORED_PHASES}
    assert in_scored_phases == SCORED_EFFECTS
    never_scored = {a["kind"] for _, a in _abilities()} - in_scored_phases
    assert never_scored == LATER_PHASE_EFFECTS
    assert SCORED_EFFECTS.isdisjoint(LATER_PHASE_EFFECTS)


def test_ability_counts() -> None:
    """44 unit abilities + 7 building abilities = 51 opcode rows."""
    unit_abs = sum(len(u["abilities"]) for u in UNITS)
    assert unit_abs == 44
    assert len(_abilities()) == 51


def test_buildings_match_the_rules() -> None:
    assert [b["id"] for b in BUILDINGS] == ["town", "tavern", "mine", "temple", "barracks"]
    for b in BUILDINGS:
        l1, l2, gold = RULES_BUILDINGS[b["id"]]
        assert b["level1"]["requires"] == l1
        assert b["level2"]["requires"] == l2
        assert (b["level1"].get("gold_instead"), b["level2"].get("gold_instead")) == gold
        assert (b["level1"]["lp"], b["level2"]["lp"]) == (1, 3)
        assert b["level2"]["extra_front_spot"] is True
        assert not b["level1"].get("extra_front_spot", False)


def test_section_8_options_have_their_defaults() -> None:
    r = RULES["rules"]
    assert r["first_draft_direction"] == "next"
    assert r["direct_level2_requirement"] == "sum"
    assert r["land_cost_on_upgrade"] is False
    assert r["deploy_discard"] == "not_death"
    assert r["aging_order"] == ["heal", "death_abilities", "discard", "age_survivors"]
    assert r["healed_units_age"] is True
    assert r["strong_units_scope"] == "kingdom"
    assert r["per_war_won_rows"] == "any"
    assert r["shapeshift_on_deploy"] is True
    assert r["expansions"] == []
    assert (r["start_gold"], r["base_income"], r["war_lp"], r["land_cost_per_building"]) == (
        3, 2, 3, 2,
    )  # fmt: skip


def test_two_player_defaults() -> None:
    """§2.9 (GP): 9 cards, keep 1 + discard 1; one war, 3 LP or 6 at 2x, 0-0 scores nothing."""
    t = RULES["two_player"]
    assert t == {
        "unconfirmed": True, "deal": 9, "discard_per_step": 1, "single_war": True,
        "war_lp": 3, "double_ratio": 2, "double_war_lp": 6, "zero_strength_wins": False,
        "per_war_won_times": 1,
    }  # fmt: skip


def test_loader_and_compiled_tables(cards: CardSet) -> None:
    t = compile_tables(cards, cards.variant)
    assert t.ut.shape == (42, T.N_UCOLS)
    assert t.bt.shape == (5, T.LEVELS, T.N_BCOLS)
    assert t.ab.shape == (51, T.N_ACOLS)
    assert t.rules.shape == (T.N_RULES,)
    assert t.deck.shape == (81,)
    assert all(a.dtype == np.int32 for a in t)
    assert np.bincount(t.deck).tolist() == [u.copies for u in cards.units]
    # each unit's ability rows point back to it, in file order
    for u, unit in enumerate(cards.units):
        rows = t.ab[t.ut[u, T.U_AB0] : t.ut[u, T.U_AB0] + t.ut[u, T.U_NAB]]
        assert rows[:, T.A_OWNER].tolist() == [u] * len(unit.abilities)
        assert [Effect(k).name.lower() for k in rows[:, T.A_KIND]] == [
            a.kind for a in unit.abilities
        ]
    kraken = t.ab[t.ut[cards.index["kraken"], T.U_AB0]]
    assert (kraken[T.A_KIND], kraken[T.A_AMOUNT], kraken[T.A_PER]) == (
        Effect.LP, -3, T.Per.LEVEL2_BUILDINGS,
    )  # fmt: skip
    ga = t.ab[t.ut[cards.index["grand-architect"], T.U_AB0]]
    assert ga[T.A_RES_MASK] == 0b111
    assert t.rules[T.R_FIRST_DIRECTION] == 1
    assert t.rules[T.R2_DOUBLE_LP] == 6


def test_named_bounds() -> None:
    assert T.MAX_HAND == 6
    assert T.MAX_SPOTS == 5
    assert T.MAX_FRONT == 3
    assert T.FRONT_ROW == (0, 1, 2)
    assert T.BACK_ROW == (3, 4)
    assert max(len(u["abilities"]) for u in UNITS) <= T.MAX_ABILITIES
