"""One test per artifact (``docs/rules/paper-tales-legends.md`` §4; bare §N below cites that
page), named after it, with hand-computed numbers on a constructed Legends position
(``ltable``: 3 players, turn 1, 3 gold, seat 0 wins both wars against empty seats: 6 LP).
End LP of artifacts: part ``artifacts`` (printed LP + end abilities)."""

from __future__ import annotations

from talesim.simcore.games.paper_tales.reference import production

WAR_LP = 6


def test_shield_of_power_two_kingdom_strength_and_one_lp(ltable) -> None:
    t = ltable().place(0, "knight", arts="shield-of-power")
    assert t.wars()["strength"] == 4 + 2
    assert t.end()["artifacts"] == 1


def test_shield_of_power_never_makes_a_strong_unit(ltable) -> None:
    """Barracks L2 counts units of strength >= 3: a Shield lifts the kingdom, not the
    2-strength Lackey (§2.3)."""
    t = ltable().place(0, "lackey", arts="shield-of-power", barracks=2)
    t.wars()
    assert t.seat(0).parts["war_buildings"] == 0


def test_legendary_sword_three_kingdom_strength(ltable) -> None:
    t = ltable().place(0, "knight", arts="legendary-sword")
    assert t.wars()["strength"] == 4 + 3
    assert t.end()["artifacts"] == 0


def test_war_horn_lp_per_war_won(ltable) -> None:
    t = ltable().place(0, arts="war-horn")
    assert t.wars()["lp"] == WAR_LP + 2
    assert t.seat(0).parts["per_war_won"] == 2


def test_bottomless_purse_gold_per_artifact_itself_included(ltable) -> None:
    assert ltable().place(0, arts="bottomless-purse dragon-egg").income() == 2 + 2


def test_golden_idol_one_gold_and_two_lp(ltable) -> None:
    t = ltable().place(0, arts="golden-idol")
    assert t.income() == 2 + 1
    assert t.end()["artifacts"] == 2


def test_stone_of_transmutation_gold_per_crystal(ltable) -> None:
    """Heart of the Mountain's 1 C + a Miner's 1 C: +2 G."""
    t = ltable().place(0, back="miner", arts="stone-of-transmutation heart-of-the-mountain")
    assert t.income() == 2 + 2


def test_treasure_map_three_gold_after_payment(ltable) -> None:
    """Placed and paid (1 G) with a Knight (1 G): 3 - 2 = 1; tier 4: +3 G = 4."""
    t = ltable()
    t.art(0, "treasure-map", placed=True)
    t.put(0, 0, "knight", fresh=True)
    t.reveal()
    assert t.seat(0).gold == 3 - 2 + 3


def test_treasure_map_gold_cannot_pay_this_phase(ltable) -> None:
    """1 G: units are paid before artifacts, so the Knight takes the gold and the Map
    (1 G) is discarded unpaid (its own 3 G would only arrive at tier 4)."""
    t = ltable()
    t.seat(0).gold = 1
    t.art(0, "treasure-map", placed=True)
    t.put(0, 0, "knight", fresh=True)
    order = t.game.payment_order(0)
    assert [c for _, _, c in order] == [1, None]  # knight 1 paid first, map unpaid
    t.reveal()
    assert t.zone(0) == []
    assert t.seat(0).gold == 0


def test_magnificent_grove_produces_wood_and_food(ltable) -> None:
    t = ltable().place(0, arts="magnificent-grove")
    pl = t.seat(0)
    assert production(t.rules, pl.pieces(t.rules), pl.blevel, pl.arts()) == [1, 1, 0]
    t.put(0, 0, "griffin")
    assert t.wars()["strength"] == 2 + 1


def test_heart_of_the_mountain_crystal_feeds_a_dragon(ltable) -> None:
    assert ltable().place(0, "dragon").wars()["strength"] == 0
    assert ltable().place(0, "dragon", arts="heart-of-the-mountain").wars()["strength"] == 7


def test_cornucopia_produces_two_food(ltable) -> None:
    """2 F: a Tavern L1 pays 1 G per F in Income: 2 + 2 = 4."""
    assert ltable().place(0, arts="cornucopia", tavern=1).income() == 2 + 2


def test_royal_seal_pays_gold_for_any_resource(ltable) -> None:
    """Temple L1 needs 1 C (or 2 G): 1 G with the Seal; Mine L2 directly (1 W + 1 W 1 C,
    summed): 3 G."""
    t = ltable().place(0, arts="royal-seal")
    temple = t.rules.cards.building_index["temple"]
    mine = t.rules.cards.building_index["mine"]
    assert t.game.payment(0, temple, 1, False) == 1
    assert t.game.payment(0, mine, 2, False) == 3


def test_golden_compass_lowers_land_cost(ltable) -> None:
    """One building owned: land 2 - 2 = 0; two: 4 - 2 = 2 (Tavern: the Cornucopia's F)."""
    t = ltable().place(0, arts="golden-compass cornucopia")
    tavern = t.rules.cards.building_index["tavern"]
    t.build(0, temple=1)
    assert t.game.payment(0, tavern, 1, False) == 0
    t.build(0, barracks=1)
    assert t.game.payment(0, tavern, 1, False) == 2


def test_scepter_of_kings_lp_per_level2_building(ltable) -> None:
    """Town L2 and Inn L2 (no cheap unit: its own LP is 0): +2 war LP (war_artifacts)."""
    t = ltable().place(0, arts="scepter-of-kings", town=2, inn=2)
    assert t.wars()["lp"] == WAR_LP + 2
    assert t.seat(0).parts["war_artifacts"] == 2


def test_dragon_egg_three_end_lp(ltable) -> None:
    t = ltable().place(0, arts="dragon-egg")
    assert t.end()["artifacts"] == 3
    assert t.seat(0).lp == 3


def test_cursed_crown_ages_every_unit_and_scores_five(ltable) -> None:
    """Paid (3 - 1 Knight - 1 Crown = 1 G); tier 3: +1 A on the old Knight and on the new
    one; both die in Aging; 5 end LP."""
    t = ltable()
    t.put(0, 0, "knight")
    t.put(0, 1, "knight", fresh=True)
    t.art(0, "cursed-crown", placed=True)
    t.reveal()
    assert t.seat(0).gold == 1
    assert t.units(0)[:2] == [("knight", 1), ("knight", 1)]
    assert t.aging()["died"] == ["knight", "knight"]
    assert t.zone(0) == ["cursed-crown"]
    assert t.end()["artifacts"] == 5


def test_phial_of_life_saves_a_unit_with_one_token(ltable) -> None:
    """A Knight with 1 A would die; the Phial saves it (greedy: 0.5 x 4 str x 3 turns > 0)
    and it still gets +1 A."""
    t = ltable().place(0, "knight+1", arts="phial-of-life")
    ev = t.aging()
    assert (ev["saved"], ev["died"]) == (["knight"], [])
    assert t.units(0)[0] == ("knight", 2)


def test_magic_mirror_repeats_a_standard_bearer(ltable) -> None:
    """Mirror (1 G) + Standard-Bearer (1) + Dragon (3), 5 G -> 0; the Mirror copies the
    Standard-Bearer: +2 G +2 LP twice at tier 4."""
    t = ltable()
    t.seat(0).gold = 5
    t.put(0, 0, "standard-bearer", fresh=True)
    t.put(0, 1, "dragon", fresh=True)
    t.art(0, "magic-mirror", placed=True)
    t.reveal()
    assert t.event("copy", 0)["target"] == "standard-bearer"
    assert t.seat(0).gold == 4
    assert t.seat(0).parts["deployment"] == 4


def test_ancient_grimoire_lp_per_artifact(ltable) -> None:
    """Grimoire (0 LP) + Dragon Egg (3): 3 + 2 x 1 = 5."""
    assert ltable().place(0, arts="ancient-grimoire dragon-egg").end()["artifacts"] == 5
