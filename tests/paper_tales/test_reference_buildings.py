"""One test per building face (``docs/rules/paper-tales.md`` §4; bare §N below cites that
page), driving the phase code of ``reference/``: production, income, war LP and strength,
end LP (1 per level-1 face, 3 per level-2 face).

Seat 0 of a 3-player table (``table`` fixture) with empty neighbours wins both wars: 6 LP.
"""

from __future__ import annotations

WAR_LP = 6


def test_town_level_1_wood_and_food(table) -> None:
    """Town L1: 1 W + 1 F -> Cerberus 3, Barracks L1 +1; end 1 + 1 LP."""
    t = table().place(0, "cerberus", town=1, barracks=1)
    assert t.wars()["strength"] == 3 + 1
    assert t.end_buildings() == 1 + 1


def test_town_level_2_adds_a_crystal(table) -> None:
    """Town L2: W + F + C -> Dragon 7; end 3 LP."""
    t = table().place(0, "dragon", town=2)
    assert t.wars()["strength"] == 7
    assert t.end_buildings() == 3


def tavern_with_two_food(table, level: int):
    """Seat 0: the Tavern at ``level``, a Farmer and a Treefolk (2 F)."""
    t = table().place(0, "farmer treefolk", tavern=level)
    return t


def test_tavern_level_1_gold_per_food(table) -> None:
    """Tavern L1 with 2 F: income 2 + 2."""
    t = tavern_with_two_food(table, 1)
    assert t.income() == 4
    assert t.end_buildings() == 1


def test_tavern_level_2_lp_per_food(table) -> None:
    """Tavern L2 with 2 F: wars +2 LP (and its level-1 income stays: 2 + 2)."""
    t = tavern_with_two_food(table, 2)
    assert t.wars()["lp"] == WAR_LP + 2
    assert t.income() == 4
    assert t.end_buildings() == 3


def test_mine_level_1_crystal(table) -> None:
    """Mine L1: 1 C -> Dragon 7."""
    t = table().place(0, "dragon", mine=1)
    assert t.wars()["strength"] == 7


def test_mine_level_2_two_lp_per_crystal_even_without_a_war_won(table) -> None:
    """Mine L2 (1 C of its own): +2 LP; seat 0 loses both wars (neighbours 4): still 2."""
    t = table().place(0, mine=2)
    t.put(1, 0, "knight")
    t.put(2, 0, "knight")
    e = t.wars()
    assert (e["won"], e["lp"]) == (0, 2)


def test_temple_level_1_two_gold(table) -> None:
    t = table().place(0, temple=1)
    assert t.income() == 2 + 2


def test_temple_level_2_two_lp_in_wars(table) -> None:
    t = table().place(0, temple=2)
    assert t.wars()["lp"] == WAR_LP + 2
    assert t.income() == 4


def test_barracks_level_1_strength_per_wood_on_the_total_only(table) -> None:
    """Barracks L1 + Town L1 (1 W) + Woodcutter (1 W): +2 to the total; Knight 4 + Woodcutter
    2 + 2 = 8. With Barracks L2 the +2 never makes the Woodcutter (2) a strong unit: +1 LP
    (Knight only)."""
    t = table().place(0, "knight woodcutter", barracks=1, town=1)
    assert t.wars()["strength"] == 8


def test_barracks_level_2_lp_per_strong_unit_in_both_rows(table) -> None:
    """Barracks L2: units of war strength >= 3 in the kingdom (§8: Front and Back): Knight 4
    (Front), Veteran 3 (Back), Woodcutter 2 not: +2 LP."""
    t = table().place(0, "knight woodcutter", "veteran", barracks=2)
    assert t.wars()["lp"] == WAR_LP + 2
    assert t.end_buildings() == 3


def test_every_building_level_has_a_test(cards) -> None:
    """Meta-test: ``test_<building>_level_<1|2>_...`` exists for each face."""
    names = [n for n in globals() if n.startswith("test_")]
    faces = [f"test_{b.id}_level_{k}_" for b in cards.buildings for k in (1, 2)]
    assert [f for f in faces if not any(n.startswith(f) for n in names)] == []
