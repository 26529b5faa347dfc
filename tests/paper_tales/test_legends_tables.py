"""The Legends loader and tables (``load_cardset(variant="legends")``,
``compile_legends_tables``): the expansion's cards in the base opcode tables, the switches
of ``docs/rules/paper-tales-legends.md`` §8 as options with their defaults, one-line loader
errors, and the base variant's tables unchanged."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from kit import data_error

import talesim.simcore.games.paper_tales.tables as T  # noqa: N812
from talesim.simcore.cards import CardDataError
from talesim.simcore.games.paper_tales.tables import (
    DEFAULT_RULES,
    LEGENDS_CARDS,
    compile_legends_tables,
    compile_tables,
    load_cardset,
)


@pytest.fixture(scope="module")
def leg() -> T.CardSet:
    return load_cardset(variant="legends")


def test_legends_card_set_counts(leg: T.CardSet) -> None:
    assert leg.variant == "legends"
    assert leg.legends
    assert len(leg.units) == 42 + 17
    assert len(leg.artifacts) == 18
    assert leg.deck_size == 125
    assert [b.id for b in leg.buildings][5:] == ["inn", "sawmill", "royal-palace", "port", "abbey"]
    assert [b.pool for b in leg.buildings] == ["base"] * 5 + ["legends"] * 3 + ["integral"] * 2


def test_legends_tables_shapes_and_order(leg: T.CardSet) -> None:
    t = compile_legends_tables(leg)
    assert t.ut.shape == (59, T.N_UCOLS)
    assert t.bt.shape == (10, T.LEVELS, T.N_BCOLS)
    assert t.ab.shape[1] == T.N_ACOLS_LEGENDS
    assert t.xt.shape == (18, T.N_XCOLS)
    assert t.lrules.shape == (T.N_LRULES,)
    assert all(a.dtype == np.int32 for a in t)
    # card types: units (base first, ids 0..80 unchanged), then Legends units, then artifacts
    assert t.deck[:81].tolist() == compile_tables(load_cardset(), "base").deck.tolist()
    assert t.deck.tolist().count(59) == 1  # shield-of-power, the first artifact
    assert int(t.deck.max()) == 59 + 17
    # every artifact's ability rows point back to it
    for x, art in enumerate(leg.artifacts):
        rows = t.ab[t.xt[x, T.X_AB0] : t.xt[x, T.X_AB0] + t.xt[x, T.X_NAB]]
        assert rows[:, T.A_OWNER_BUILDING].tolist() == [T.OWNER_ARTIFACT] * len(art.abilities)
        assert rows[:, T.A_OWNER].tolist() == [x] * len(art.abilities)
        assert t.xt[x, T.X_LP] == art.lp


def test_new_kinds_compile_into_opcode_rows(leg: T.CardSet) -> None:
    t = compile_legends_tables(leg)

    def row(uid: str, k: int = 0) -> np.ndarray:
        return t.ab[t.ut[leg.index[uid], T.U_AB0] + k]

    jester = row("court-jester")
    assert jester[T.A_KIND] == T.LegendsEffect.DEPLOY_ARTIFACT_FROM_HAND
    assert (jester[T.A_COUNT], jester[T.A_COST], jester[T.A_TIER]) == (1, 0, T.Tier.ENTER)
    sb = row("standard-bearer", 1)
    assert (sb[T.A_KIND], sb[T.A_COUNTER], sb[T.A_PER_COST], sb[T.A_PER_OTHER]) == (
        T.LegendsEffect.CONDITIONAL_GAIN, T.Per.UNITS_COST_GE, 3, 1,
    )  # fmt: skip
    assert (sb[T.A_LP], sb[T.A_MIN], sb[T.A_TIER]) == (2, 1, T.Tier.COUNT)
    assert row("titan")[T.A_BUILD_LEVEL] == 1
    assert row("shadow")[T.A_TIER] == T.Tier.COPY
    assert row("mason")[T.A_DISCOUNT] == 2
    assert row("landlord")[T.A_DISCOUNT] == -1  # base Landlord: no land cost at all
    relic = row("relic-of-fertility")
    assert relic[T.A_REQ0 : T.A_REQ0 + 3].tolist() == [3, 2, 0]
    assert relic[T.A_WHEN] == T.When.FRONT_ROW
    assert row("artificer")[T.A_TIER] == T.Tier.NONE  # static
    assert row("kraken")[T.A_TIER] == T.Tier.PENALTY
    assert row("master-alchemist")[T.A_TIER] == T.Tier.EVERY_TURN


def test_switch_defaults_are_the_reference_s(leg: T.CardSet) -> None:
    o = leg.rules.options
    assert o["legends_buildings"] == "random"
    assert o["simultaneity_gold"] == "more"
    assert (o["artifact_cost_base"], o["artifact_cost_step"], o["artifact_cost_floor"]) == (1, 1, 0)
    assert o["discount_active_when_paid_same_phase"] is True
    assert o["court_jester_source"] == "hand"
    assert o["titan_level"] == 1
    assert o["relic_of_fertility_ages"] is True
    assert o["abbey_mode"] == "set_flat"
    assert o["use_port_abbey"] is False
    assert o["include_shadow"] is True
    assert o["resource_alias"] == {"jar": "wood", "meat": "food", "gem": "crystal"}
    assert (o["deployment_order"], o["keep_timing"]) == ("tiers", "end_of_phase")
    lr = compile_legends_tables(leg).lrules
    assert lr[T.L_BUILDING_PAIR] == -1
    assert lr[T.L_SIMULTANEITY_MORE_GOLD] == 1
    base = load_cardset().rules.options
    assert (base["simultaneity_gold"], base["deployment_order"], base["keep_timing"]) == (
        "less", "spot", "before_reveal",
    )  # fmt: skip


def test_building_pairs_and_sets(leg: T.CardSet) -> None:
    ids = [b.id for b in leg.buildings]
    pairs = [(ids[a], ids[b]) for a, b in leg.building_pairs()]
    assert pairs == [("inn", "sawmill"), ("inn", "royal-palace"), ("sawmill", "royal-palace")]
    assert [ids[b] for b in leg.building_set(2)] == [
        "town", "tavern", "mine", "temple", "barracks", "sawmill", "royal-palace",
    ]  # fmt: skip
    assert load_cardset().building_set(0) == [0, 1, 2, 3, 4]


def _variant_edit(tmp_path: Path, old: str, new: str) -> Path:
    text = DEFAULT_RULES.read_text(encoding="utf-8")
    start = text.index("[variant.legends]")
    assert old in text[start:], old
    out = tmp_path / "rules.toml"
    out.write_text(text[:start] + text[start:].replace(old, new, 1), encoding="utf-8")
    for name in ("cards.toml", "cards_legends.toml"):
        (tmp_path / name).write_bytes((DEFAULT_RULES.parent / name).read_bytes())
    return out


def test_card_level_switches(tmp_path: Path) -> None:
    rules = _variant_edit(tmp_path, "titan_level = 1", "titan_level = 2")
    rules.write_text(
        rules.read_text()
        .replace("include_shadow = true", "include_shadow = false")
        .replace("relic_of_fertility_ages = true", "relic_of_fertility_ages = false")
        .replace('abbey_mode = "set_flat"', 'abbey_mode = "per_set"')
        .replace('legends_buildings = "random"', 'legends_buildings = ["royal-palace", "inn"]')
    )
    cs = load_cardset(None, rules, "legends")
    assert cs.units[cs.index["titan"]].abilities[0].level == 2
    assert cs.units[cs.index["shadow"]].copies == 0
    assert cs.deck_size == 124
    assert cs.units[cs.index["relic-of-fertility"]].abilities[-1].kind == "never_dies"
    abbey = cs.buildings[cs.building_index["abbey"]].levels[1].abilities[0]
    assert (abbey.kind, abbey.amount, abbey.per) == ("lp", 4, "resource_sets")
    t = compile_legends_tables(cs)
    assert t.lrules[T.L_BUILDING_PAIR] == 1  # (inn, royal-palace)
    assert t.deck.shape == (124,)


LEGENDS_RULE_CASES = [
    ("titan_level = 1", "titan_level = 3", "variant.legends.titan_level", "between 1 and 2"),
    ('court_jester_source = "hand"', 'court_jester_source = "placed"', "court_jester_source",
     "not implemented"),
    ('legends_buildings = "random"', 'legends_buildings = ["inn", "port"]', "legends_buildings",
     "two different buildings of the legends pool"),
    ('deployment_order = "tiers"', 'deployment_order = "spot"', "deployment_order",
     "plays with deployment_order = 'tiers'"),
    ('abbey_mode = "set_flat"', 'abbey_mode = "flat"', "abbey_mode", "must be one of"),
    ("include_shadow = true", "include_shadow = 1", "include_shadow", "true or false"),
    ('expansions = ["legends"]', 'expansions = ["forge"]', "expansions", "only expansion"),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new", "field", "fragment"), LEGENDS_RULE_CASES)
def test_bad_legends_switch_is_one_line(tmp_path: Path, old, new, field, fragment) -> None:
    rules = _variant_edit(tmp_path, old, new)
    data_error(lambda: load_cardset(None, rules, "legends"), None, field, fragment)


def test_legends_engine_switch_refused_in_base_rules(tmp_path: Path) -> None:
    text = DEFAULT_RULES.read_text(encoding="utf-8")
    path = tmp_path / "rules.toml"
    path.write_text(text.replace('deployment_order = "spot"', 'deployment_order = "tiers"', 1))
    with pytest.raises(CardDataError, match=r"rules\.deployment_order.*variant\.legends"):
        load_cardset(None, path)


CARD_CASES = [
    ('id = "dragon-egg"\nname = "Dragon Egg"\ncopies = 1\nlp = 3',
     'id = "dragon-egg"\nname = "Dragon Egg"\ncopies = 1\nlp = 3\nstrength = 2',
     "card 'dragon-egg'", "field 'strength'", "unknown field"),
    ('kind = "conditional_gain", on_deploy = true, gold = 3',
     'kind = "conditional_gain", on_deploy = true, gold = 0',
     "card 'treasure-map'", "abilities[0].gold", "must give gold or LP"),
    ('kind = "build_free", on_deploy = true, level = 1, land_cost = false',
     'kind = "build_free", on_deploy = true, level = 1, land_cost = true',
     "card 'titan'", "abilities[0].land_cost", "only false"),
    ('kind = "repeat_deploy_abilities", on_deploy = true, times = 1 }]\norigin = "btg?"',
     'kind = "repeat_deploy_abilities", times = 1 }]\norigin = "btg?"',
     "card 'shadow'", "abilities[0].on_deploy", "must be on_deploy"),
    ('kind = "add_strength", amount = 1, per = "artifacts"',
     'kind = "add_strength", amount = 1, per = "relics"',
     "card 'royal-guard'", "abilities[0].per", "must be one of"),
    ("\ndeck_size = 44", "\ndeck_size = 45",
     "cards_legends.toml", "field 'deck_size'", "sum to 44"),
    ('id = "mason"', 'id = "miner"', "card 'miner'", "field 'id'", "two card files"),
    ('on_deploy = true, target = "all", amount = 1',
     'on_deploy = true, target = "self", amount = 1',
     "card 'cursed-crown'", "abilities[0].target", "carries no tokens"),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new", "card", "field", "fragment"), CARD_CASES)
def test_bad_legends_card_is_one_line(tmp_path: Path, old, new, card, field, fragment) -> None:
    text = LEGENDS_CARDS.read_text(encoding="utf-8")
    assert old in text, old
    (tmp_path / "cards_legends.toml").write_text(text.replace(old, new, 1), encoding="utf-8")
    (tmp_path / "cards.toml").write_bytes(T.DEFAULT_CARDS.read_bytes())
    (tmp_path / "rules.toml").write_bytes(DEFAULT_RULES.read_bytes())
    rules = tmp_path / "rules.toml"
    data_error(lambda: load_cardset(None, rules, "legends"), None, card, field, fragment)


def test_legends_kinds_are_refused_in_a_base_card_file(tmp_path: Path) -> None:
    text = T.DEFAULT_CARDS.read_text(encoding="utf-8")
    bad = text.replace('kind = "no_land_cost"', 'kind = "no_land_cost", discount = 2', 1)
    path = tmp_path / "cards.toml"
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(CardDataError, match=r"card 'landlord'.*discount.*unknown field"):
        load_cardset(path)
    bad = text.replace('kind = "no_land_cost"', 'kind = "conditional_gain"', 1)
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(CardDataError, match=r"card 'landlord'.*kind.*must be one of"):
        load_cardset(path)


def test_base_tables_are_unchanged_by_the_expansion_code() -> None:
    """The base variant compiles to the base game's shapes and constants (no Legends
    column or row added to its tables)."""
    t = compile_tables(load_cardset(), "base")
    assert t.ab.shape == (51, T.N_ACOLS)
    assert T.N_ACOLS == 15
    assert t.bt.shape == (5, T.LEVELS, T.N_BCOLS)
    assert t.deck.shape == (81,)
    assert t.rules.shape == (T.N_RULES,)
    assert T.N_RULES == 31
    assert T.MAX_BUILDINGS == 8
    assert T.MAX_BUILD_OPTIONS == 17
    assert len(T.Effect) == 19
    assert set(T.EFFECTS) == {e.name.lower() for e in T.Effect}
