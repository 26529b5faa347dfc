"""One test per Legends unit (``docs/rules/paper-tales-legends.md`` §3.2; bare §N below
cites that page), named after it, driving the real phase code of ``reference/`` (Legends
variant) on a constructed position, with hand-computed numbers.

Positions come from the ``ltable`` fixture: a 3-player Legends game after setup, turn 1,
3 gold each; seats 1 and 2 are empty unless a test fills them, so seat 0 wins both wars
(2 x 3 LP). Spots 0-1 Front, 2 the extra Front spot, 3-4 Back. ``reveal()`` = payment in
the canonical order then the resolution tiers (§2.4-§2.5)."""

from __future__ import annotations

WAR_LP = 6


def test_court_jester_puts_an_artifact_from_hand_into_the_zone_for_free(ltable) -> None:
    """Jester paid 1 of 3 G; tier 1a: greedy takes the Dragon Egg (3 end LP) from its hand
    for 0 G; the hand loses it, the zone has it, deployed by "jester" at cost 0."""
    t = ltable()
    t.put(0, 0, "court-jester", fresh=True)
    (egg,) = t.hand(0, "dragon-egg")
    t.reveal()
    assert t.zone(0) == ["dragon-egg"]
    assert t.seat(0).hand == []
    assert t.seat(0).gold == 3 - 1
    log = t.seat(0).log[egg]
    assert (log.how_deployed, log.deploy_cost, log.row, log.fate) == (
        "jester",
        0,
        "zone",
        "in_zone",
    )
    # the free artifact counts for later costs: the next one costs 1 + 1 = 2
    t.art(0, "golden-idol", placed=True)
    assert t.game.payment_order(0)[-1][2] == 2


def test_court_jester_without_an_artifact_in_hand_does_nothing(ltable) -> None:
    t = ltable()
    t.put(0, 0, "court-jester", fresh=True)
    t.hand(0, "knight")
    t.reveal()
    assert t.zone(0) == []
    assert len(t.seat(0).hand) == 1


def test_standard_bearer_gains_with_expensive_units(ltable) -> None:
    """Another unit of cost >= 3 (Dragon) gives both checks: +2 G and +2 LP; a cost-2 unit
    (Mercenary) only the gold; alone: nothing. Its gold comes after payment (tier 4)."""
    t = ltable()
    t.seat(0).gold = 5
    t.put(0, 0, "standard-bearer", fresh=True)
    t.put(0, 1, "dragon", fresh=True)
    t.reveal()
    assert t.seat(0).gold == 5 - 1 - 3 + 2
    assert t.seat(0).parts["deployment"] == 2
    assert t.seat(0).lp == 2
    t = ltable()
    t.put(0, 0, "standard-bearer", fresh=True)
    t.put(0, 1, "mercenary", fresh=True)
    t.reveal()
    assert t.seat(0).gold == 3 - 1 - 2 + 2
    assert t.seat(0).lp == 0
    t = ltable()
    t.put(0, 0, "standard-bearer", fresh=True)
    t.reveal()
    assert (t.seat(0).gold, t.seat(0).lp) == (2, 0)


def test_titan_builds_a_free_level_1_building(ltable) -> None:
    """Titan (4 G) with every building but the Inn built: tier 1a builds the Inn at level 1
    (forced: one option), no land cost (6 buildings would cost 12 G), no requirement."""
    t = ltable()
    t.seat(0).gold = 4
    t.build(0, town=1, tavern=1, mine=1, temple=1, barracks=1, sawmill=1, royal_palace=1)
    t.put(0, 0, "titan", fresh=True)
    t.reveal()
    assert t.level(0, "inn") == 1
    assert t.seat(0).gold == 0
    b = t.seat(0).buildings[t.rules.cards.building_index["inn"]]
    assert (b.turn_built, b.how) == (1, "titan")


def test_titan_with_every_building_built_does_nothing(ltable) -> None:
    t = ltable()
    t.seat(0).gold = 4
    t.build(0, town=2, tavern=2, mine=2, temple=2, barracks=2, sawmill=2, royal_palace=2, inn=2)
    t.put(0, 0, "titan", fresh=True)
    t.reveal()
    assert all(e["event"] != "titan" for e in t.game.events)


def test_dryad_produces_wood_and_pays_gold_for_food(ltable) -> None:
    """Tavern L1 needs 1 F: with a Dryad it costs 1 G (no land: nothing built); the Dryad's
    W pays a Mine L1 outright. Without the Dryad the Tavern cannot be paid."""
    t = ltable().place(0, "dryad")
    tavern = t.rules.cards.building_index["tavern"]
    mine = t.rules.cards.building_index["mine"]
    assert t.game.payment(0, tavern, 1, False) == 1
    assert t.game.payment(0, mine, 1, False) == 0
    t = ltable().place(0, "knight")
    assert t.game.payment(0, tavern, 1, False) is None


def test_imp_gives_two_gold_at_once_and_ages_itself(ltable) -> None:
    """0 G: the Imp (-2) is paid first and its 2 G pay a Mercenary (2) in the same step
    (§2.4 [B]); tier 3: 1 A on itself; it dies in Aging."""
    t = ltable()
    t.seat(0).gold = 0
    t.put(0, 0, "mercenary", fresh=True)
    t.put(0, 1, "imp", fresh=True)
    t.reveal()
    assert t.seat(0).gold == 0
    assert t.units(0)[1] == ("imp", 1)
    assert "imp" in t.aging()["died"]


def test_lackey_gives_one_gold_and_a_token_to_one_unit(ltable) -> None:
    """Alone: its 1 G is gained at payment and its token goes on itself (forced)."""
    t = ltable()
    t.seat(0).gold = 0
    t.put(0, 3, "lackey", fresh=True)
    t.reveal()
    assert t.seat(0).gold == 1
    assert t.units(0)[3] == ("lackey", 1)


def test_relic_of_fertility_scores_five_in_front_with_2_food_3_wood(ltable) -> None:
    """Front Relic; Grove (1 W 1 F) + Cornucopia (2 F) + Mason (1 W) + Dryad (1 W) = 3 W,
    3 F: +5 LP in Wars (war_units). In the Back row: nothing."""
    for spot, lp in ((0, 5), (3, 0)):
        t = ltable()
        t.put(0, spot, "relic-of-fertility")
        t.put(0, 1, "mason")
        t.put(0, 4, "dryad")
        t.art(0, "magnificent-grove")
        t.art(0, "cornucopia")
        ev = t.wars()
        assert ev["lp"] == WAR_LP + lp
        assert t.seat(0).parts["war_units"] == lp


def test_relic_of_fertility_needs_enough_wood(ltable) -> None:
    t = ltable().place(0, "relic-of-fertility mason", arts="magnificent-grove cornucopia")
    assert t.wars()["lp"] == WAR_LP


def test_shadow_repeats_a_standard_bearer(ltable) -> None:
    """Shadow + Standard-Bearer + Dragon (8 G - 5 = 3): the Shadow copies the Standard-
    Bearer (greedy: the Dragon has no on-deploy ability), so tier 4 gives +2 G +2 LP twice."""
    t = ltable()
    t.seat(0).gold = 8
    t.put(0, 0, "shadow", fresh=True)
    t.put(0, 1, "standard-bearer", fresh=True)
    t.put(0, 3, "dragon", fresh=True)
    t.reveal()
    assert t.event("copy", 0)["target"] == "standard-bearer"
    assert t.seat(0).gold == 3 + 4
    assert t.seat(0).parts["deployment"] == 4


def test_shadow_repeats_a_mercenary_token_when_random_picks_it(ltable) -> None:
    """'Itself' still means the target: a copied Mercenary gets a 2nd token."""
    for seed in range(40):
        t = ltable(policies="random", seed=seed)
        t.seat(0).gold = 3
        t.put(0, 0, "shadow", fresh=True)
        t.put(0, 1, "mercenary", fresh=True)
        t.reveal()
        if any(e["event"] == "copy" for e in t.game.events):
            assert t.units(0)[1] == ("mercenary", 2)
            return
    raise AssertionError("random never copied in 40 seeds")


def test_artificer_lowers_every_artifact_cost(ltable) -> None:
    """Artificer (0 G) paid first, then 2 artifacts: max(0, 1 - 1) + (1 + 1 - 1) = 1 G."""
    t = ltable()
    t.put(0, 0, "artificer", fresh=True)
    t.art(0, "dragon-egg", placed=True)
    t.art(0, "golden-idol", placed=True)
    t.reveal()
    assert t.seat(0).gold == 3 - 1
    assert t.zone(0) == ["dragon-egg", "golden-idol"]


def test_antiquarian_gold_per_artifact(ltable) -> None:
    t = ltable().place(0, back="antiquarian", arts="dragon-egg cornucopia")
    assert t.income() == 2 + 2


def test_royal_guard_strength_per_artifact(ltable) -> None:
    t = ltable().place(0, "royal-guard", arts="dragon-egg cornucopia")
    assert t.wars()["strength"] == 2 + 2


def test_mason_produces_wood_and_lowers_land_cost(ltable) -> None:
    """2 buildings owned: land 2 x 2 - 2 = 2; the Sawmill's 1 W is the Mason's."""
    t = ltable().place(0, "mason", temple=1, tavern=1)
    sawmill = t.rules.cards.building_index["sawmill"]
    assert t.game.payment(0, sawmill, 1, False) == 2


def test_mercenary_six_strength_one_turn(ltable) -> None:
    t = ltable()
    t.put(0, 0, "mercenary", fresh=True)
    t.reveal()
    assert t.units(0)[0] == ("mercenary", 1)
    assert t.wars()["strength"] == 6
    assert t.aging()["died"] == ["mercenary"]


def test_griffin_strength_per_wood(ltable) -> None:
    """Griffin 2 + the Mason's 1 W = 3, + Mason 1 = 4."""
    t = ltable().place(0, "griffin mason")
    assert t.wars()["strength"] == 3 + 1


def test_crossbowman_fights_from_the_back(ltable) -> None:
    t = ltable().place(0, back="crossbowman")
    assert t.wars()["strength"] == 4


def test_lady_of_the_lake_counts_artifacts_entered_this_phase(ltable) -> None:
    """1 artifact in the zone + 1 paid this phase (cost 1 + 1 = 2) = 2 at tier 4: +3 LP.
    With only the one already there: nothing."""
    t = ltable().place(0, arts="dragon-egg")
    t.art(0, "cornucopia", placed=True)
    t.put(0, 3, "lady-of-the-lake", fresh=True)
    t.reveal()
    assert t.seat(0).gold == 3 - 2
    assert t.seat(0).lp == 3
    t = ltable().place(0, arts="dragon-egg")
    t.put(0, 3, "lady-of-the-lake", fresh=True)
    t.reveal()
    assert t.seat(0).lp == 0


def test_paladin_lp_per_war_won(ltable) -> None:
    t = ltable().place(0, "paladin")
    assert t.wars()["lp"] == WAR_LP + 2


def test_shadow_copying_a_titan_builds_a_second_building(ltable) -> None:
    """§3.3: the Titan's tier-1a ability, copied, resolves at once: both unbuilt buildings
    (Inn, Sawmill) end at level 1, free (5 G - 4 - 1 = 0 left). Random seats: the first
    seed whose copy decision picks the Titan."""
    for seed in range(40):
        t = ltable(policies="random", seed=seed)
        t.seat(0).gold = 5
        t.build(0, town=1, tavern=1, mine=1, temple=1, barracks=1, royal_palace=1)
        t.put(0, 0, "titan", fresh=True)
        t.put(0, 1, "shadow", fresh=True)
        t.reveal()
        if any(e["event"] == "copy" for e in t.game.events):
            assert (t.level(0, "inn"), t.level(0, "sawmill")) == (1, 1)
            assert [e["event"] for e in t.game.events].count("titan") == 2
            assert t.seat(0).gold == 0
            return
    raise AssertionError("random never copied the Titan in 40 seeds")
