"""One test per level of the Legends buildings (``docs/rules/paper-tales-legends.md`` §5.1;
Port and Abbey §5.2, the optional tiles), named after the building, with hand-computed
numbers (``ltable``: seat 0 wins both wars against empty seats, 6 LP; base income 2)."""

from __future__ import annotations

from talesim.simcore.games.paper_tales.reference import production

WAR_LP = 6


def inn_with_cheap_units(ltable, level: int, *cheap: str):
    """Seat 0: the Inn at ``level``, a Knight (cost 1), a Woodcutter (0) and the ``cheap``
    units on the Back spots."""
    t = ltable().place(0, "knight woodcutter", inn=level)
    for spot, unit in enumerate(cheap, start=3):
        t.put(0, spot, unit)
    return t


def test_inn_level1_gold_per_cheap_unit(ltable) -> None:
    """Woodcutter (0), Monkey (-1), Imp (-2) count, the Knight (1) does not: 2 + 3."""
    assert inn_with_cheap_units(ltable, 1, "monkey", "imp").income() == 2 + 3


def test_inn_level2_war_lp_per_cheap_unit(ltable) -> None:
    """Woodcutter and Monkey count, the Knight does not: +2 LP."""
    t = inn_with_cheap_units(ltable, 2, "monkey")
    assert t.wars()["lp"] == WAR_LP + 2
    assert t.seat(0).parts["war_buildings"] == 2


def test_sawmill_level1_wood_and_land_discount(ltable) -> None:
    """Produces 1 W; with the Sawmill and a Temple owned, land 2 x 2 - 2 = 2 (Mine L1 needs
    the Sawmill's W)."""
    t = ltable().place(0, sawmill=1, temple=1)
    pl = t.seat(0)
    assert production(t.rules, pl.pieces(t.rules), pl.blevel, pl.arts()) == [1, 0, 0]
    mine = t.rules.cards.building_index["mine"]
    assert t.game.payment(0, mine, 1, False) == 2


def test_sawmill_discount_not_on_its_own_land(ltable) -> None:
    """Building the Sawmill itself with 1 building owned: full land cost 2 (+ 0 for its W
    from a Woodcutter)."""
    t = ltable().place(0, "woodcutter", temple=1)
    sawmill = t.rules.cards.building_index["sawmill"]
    assert t.game.payment(0, sawmill, 1, False) == 2


def test_sawmill_level2_war_lp_per_wood(ltable) -> None:
    """Its own W + a Woodcutter's: +2 LP."""
    t = ltable().place(0, back="woodcutter", sawmill=2)
    assert t.wars()["lp"] == WAR_LP + 2


def test_royal_palace_level1_artifact_discount(ltable) -> None:
    """Two artifacts paid: max(0, 1 - 1) + (2 - 1) = 1 G."""
    t = ltable().place(0, royal_palace=1)
    t.art(0, "dragon-egg", placed=True)
    t.art(0, "golden-idol", placed=True)
    t.reveal()
    assert t.seat(0).gold == 3 - 1


def test_royal_palace_level1_and_artificer_stack(ltable) -> None:
    """Palace + Artificer: 3 artifacts cost 0 + 0 + 1 = 1 (LEGENDS.md §B.2 example)."""
    t = ltable().place(0, royal_palace=1)
    t.put(0, 3, "artificer", fresh=True)
    for a in ("dragon-egg", "golden-idol", "cornucopia"):
        t.art(0, a, placed=True)
    assert [c for _, _, c in t.game.payment_order(0)] == [0, 0, 0, 1]


def test_royal_palace_level2_war_lp_per_artifact(ltable) -> None:
    t = ltable().place(0, arts="dragon-egg cornucopia", royal_palace=2)
    assert t.wars()["lp"] == WAR_LP + 2


def test_port_level1_food_and_gold(ltable) -> None:
    t = ltable(use_port_abbey=True)
    t.build(0, port=1)
    pl = t.seat(0)
    assert production(t.rules, pl.pieces(t.rules), pl.blevel, pl.arts()) == [0, 1, 0]
    assert t.income() == 2 + 1


def test_port_level2_two_lp_with_any_wood(ltable) -> None:
    t = ltable(use_port_abbey=True)
    t.build(0, port=2)
    assert t.wars()["lp"] == WAR_LP
    t = ltable(use_port_abbey=True)
    t.build(0, port=2)
    t.put(0, 3, "woodcutter")
    t.put(0, 4, "woodcutter")
    assert t.wars()["lp"] == WAR_LP + 2


def test_abbey_level1_saves_a_unit(ltable) -> None:
    t = ltable(use_port_abbey=True)
    t.build(0, abbey=1)
    t.put(0, 0, "knight", age=1)
    assert t.aging()["saved"] == ["knight"]


def test_abbey_level2_four_lp_with_all_three_resources(ltable) -> None:
    """Grove (W, F) + Heart (C): +4 LP (set_flat); without C: nothing."""
    t = ltable(use_port_abbey=True)
    t.build(0, abbey=2)
    t.art(0, "magnificent-grove")
    assert t.wars()["lp"] == WAR_LP
    t = ltable(use_port_abbey=True)
    t.build(0, abbey=2)
    t.art(0, "magnificent-grove")
    t.art(0, "heart-of-the-mountain")
    assert t.wars()["lp"] == WAR_LP + 4
