"""One test per unit (``docs/rules/paper-tales.md`` §3; bare §N below cites that page),
named after it, driving the real phase code of ``reference/`` on a constructed position,
with hand-computed numbers.

Positions come from the ``table`` fixture (conftest): a 3-player game after setup, turn 1;
seats 1 and 2 are empty unless a test fills them, so seat 0 fights two 0-strength
neighbours and wins both wars (ties win) whatever its strength. Spots 0-1 Front, 2 the
extra Front spot, 3-4 Back.
"""

from __future__ import annotations

from talesim.simcore.games.paper_tales.reference import Move

WAR_LP = 6  # seat 0 wins both wars against empty seats: 2 x 3 LP


def test_adventurer_crystal_per_token_feeds_dragon(table) -> None:
    """Adventurer with 1 A produces 1 C: Dragon 7 (the Back-row Adventurer does not
    fight). Without a token it produces nothing: Dragon 0."""
    assert table().place(0, "dragon", "adventurer+1").wars()["strength"] == 7
    assert table().place(0, "dragon", "adventurer").wars()["strength"] == 0


def test_archer_fights_from_the_back_row(table) -> None:
    """Front Knight 4 + Back Archer 2 = 6; a Back Knight would not count."""
    assert table().place(0, "knight", "archer knight").wars()["strength"] == 4 + 2


def test_blacksmith_adds_one_gold_of_income(table) -> None:
    assert table().place(0, back="blacksmith").income() == 2 + 1


def test_cave_spirit_takes_a_token_when_deployed_and_dies_that_turn(table) -> None:
    """Deployed (cost 1 of 3 G): 1 A on itself; produces 1 C (Dragon 7); dies in Aging."""
    t = table()
    t.put(0, 0, "cave-spirit", fresh=True)
    t.put(0, 1, "dragon")
    t.game.reveal()
    assert t.seat(0).gold == 3 - 1
    assert t.units(0)[0] == ("cave-spirit", 1)
    assert t.wars()["strength"] == 4 + 7
    assert t.aging()["died"] == ["cave-spirit"]


def test_cerberus_is_three_with_food(table) -> None:
    """Cerberus 3 with a Farmer's food (+ Farmer 1) = 4; alone 2."""
    assert table().place(0, "cerberus farmer").wars()["strength"] == 3 + 1
    assert table().place(0, "cerberus").wars()["strength"] == 2


def test_colossus_aged_is_seven_and_scores_per_war_won(table) -> None:
    """Colossus with 1 A: strength 7; 2 wars won: 6 + 1 x 2 = 8 LP."""
    t = table().place(0, "colossus+1")
    e = t.wars()
    assert (e["strength"], e["won"], e["lp"]) == (7, 2, WAR_LP + 2)
    assert t.seat(0).parts["per_war_won"] == 2


def test_commander_scores_per_war_won_from_the_back_row(table) -> None:
    """Commander in the Back (§8: any row), Knight in the Front: 6 + 1 x 2 LP; with one
    war lost (a neighbour of strength 9) only 3 + 1."""
    assert table().place(0, "knight", "commander").wars()["lp"] == WAR_LP + 2
    e = table().place(0, "knight", "commander").place(1, "kraken").wars()
    assert (e["won"], e["lp"]) == (1, 3 + 1)


def test_cook_adds_one_gold_per_food(table) -> None:
    """Farmer + Treefolk = 2 F: income 2 + 2."""
    assert table().place(0, "farmer treefolk", "cook").income() == 2 + 2


def test_demon_dying_with_one_token_costs_three_lp(table) -> None:
    """Demon deployed: 1 A; it dies in Aging with exactly 1 A: 5 LP -> 2."""
    t = table()
    t.seat(0).lp = t.seat(0).parts["wars"] = 5
    t.put(0, 0, "demon", fresh=True)
    t.game.reveal()
    assert t.units(0)[0] == ("demon", 1)
    e = t.aging()
    assert (e["died"], e["lp"]) == (["demon"], -3)
    assert t.seat(0).lp == 2


def test_dragon_is_seven_with_a_crystal(table) -> None:
    """Dragon + Back-row Miner (1 C): 7; without crystal 0."""
    assert table().place(0, "dragon", "miner").wars()["strength"] == 7


def test_farmer_food_feeds_manticore(table) -> None:
    """Farmer 1 F: Manticore 2 + 2 x 1 = 4, + Farmer 1 = 5."""
    assert table().place(0, "farmer manticore").wars()["strength"] == 5


def test_forest_child_wood_and_food_pay_a_tavern_and_a_town(table) -> None:
    """1 W + 1 F: Town L1 (1 W) and Tavern L1 (1 F) need no gold; Tavern L2 direct
    (1 F + 1 W + 1 F, summed) misses 1 F: impossible."""
    t = table().place(0, "forest-child")
    g, tavern, town = t.game, t.rules.cards.building_index["tavern"], 0
    assert g.payment(0, town, 1, False) == 0
    assert g.payment(0, tavern, 1, False) == 0
    assert g.payment(0, tavern, 2, False) is None


def test_forest_spirit_three_wood_build_town_level_two_directly(table) -> None:
    """3 W = Town L1 (1 W) + L2 (2 W) added (§8 default): direct level 2 for 0 gold."""
    t = table().place(0, back="forest-spirit")
    assert t.game.payment(0, 0, 2, False) == 0


def test_giant_snake_aged_is_zero_strength_and_three_gold(table) -> None:
    t = table().place(0, "giant-snake+1")
    assert t.wars()["strength"] == 0
    assert t.income() == 2 + 3
    t = table().place(0, "giant-snake")
    assert t.wars()["strength"] == 4
    assert t.income() == 2


def test_golem_upgrades_every_level_one_building_for_free(table) -> None:
    """Temple L1 and Mine L1 -> L2 (Tavern unbuilt stays 0); gold only pays the Golem."""
    t = table()
    t.build(0, temple=1, mine=1)
    t.seat(0).gold = 2
    t.put(0, 0, "golem", fresh=True)
    t.game.reveal()
    assert (t.level(0, "temple"), t.level(0, "mine"), t.level(0, "tavern")) == (2, 2, 0)
    assert t.seat(0).gold == 0
    log = t.seat(0).buildings[t.rules.cards.building_index["temple"]]
    assert (log.turn_upgraded, log.how) == (1, "golem")


def test_grand_architect_pays_gold_for_any_missing_resource(table) -> None:
    """Mine L2 upgrade needs 1 W + 1 C; the Mine gives the C, the W is missing: 1 G with
    the Grand Architect, impossible without. Tavern direct L2 (1 F + 1 W + 1 F): 3 G."""
    t = table()
    mine = t.rules.cards.building_index["mine"]
    tavern = t.rules.cards.building_index["tavern"]
    t.build(0, mine=1)
    assert t.game.payment(0, mine, 2, True) is None
    t.put(0, 3, "grand-architect")
    assert t.game.payment(0, mine, 2, True) == 1
    assert t.game.payment(0, tavern, 2, False) == 2 + 3  # land 2 x 1 building owned + 3


def test_hunter_produces_food_only_in_the_front_row(table) -> None:
    """Front Hunter: 1 F -> Manticore 4, + Hunter 2 = 6. Back Hunter: Manticore 2."""
    assert table().place(0, "hunter manticore").wars()["strength"] == 6
    assert table().place(0, ". manticore", "hunter").wars()["strength"] == 2


def test_knight_is_four(table) -> None:
    assert table().place(0, "knight").wars()["strength"] == 4


def test_kraken_penalty_counts_golem_upgrade_at_end_of_phase(table) -> None:
    """Temple L1 + Mine L2; Kraken and Golem deployed together (8 G): the Golem makes the
    Temple L2, so the Kraken counts 2 level-2 buildings: 10 LP - 6 = 4. Kraken's +1 A goes
    to every other unit, the Golem deployed with it and an old Knight included."""
    t = table()
    t.build(0, temple=1, mine=2)
    t.seat(0).gold = 8
    t.seat(0).lp = t.seat(0).parts["wars"] = 10
    t.put(0, 0, "kraken", fresh=True)
    t.put(0, 1, "golem", fresh=True)
    t.put(0, 3, "knight")
    t.game.reveal()
    assert t.seat(0).parts["deployment"] == -6
    assert t.seat(0).lp == 4
    assert t.units(0)[:4] == [("kraken", 0), ("golem", 1), None, ("knight", 1)]


def test_kraken_scores_tokens_of_dying_units(table) -> None:
    """Kraken 1 A + Veteran 1 A die, Knight 0 A survives: +1 LP per token = 2 (the Kraken's
    own tokens count, like the Palm Reader's)."""
    e = table().place(0, "kraken+1 veteran+1", "knight").aging()
    assert (sorted(e["died"]), e["lp"]) == (["kraken", "veteran"], 2)


def test_landlord_removes_the_land_cost(table) -> None:
    """2 buildings owned: a third costs 4 G of land; with the Landlord (1 W) Town L1 is 0."""
    t = table().place(0, back="woodcutter", temple=1, tavern=1)
    t.seat(0).gold = 9
    assert t.game.payment(0, 0, 1, False) == 4
    t = table().place(0, back="landlord", temple=1, tavern=1)
    assert t.game.payment(0, 0, 1, False) == 0


def test_leviathan_aged_feeds_manticore(table) -> None:
    """Aged Leviathan: produces 2 F, fights 0; Manticore 2 + 2 x 2 = 6."""
    assert table().place(0, "leviathan+1 manticore").wars()["strength"] == 0 + 6


def test_leviathan_fresh_grows_with_food(table) -> None:
    """No token: 4 + 2 x 1 F (Farmer) = 6, + Farmer 1 = 7."""
    assert table().place(0, "leviathan farmer").wars()["strength"] == 7


def test_manticore_two_per_food(table) -> None:
    """Treefolk 1 F in the Back + Town L1 1 F: Manticore 2 + 2 x 2 = 6."""
    assert table().place(0, "manticore", "treefolk", town=1).wars()["strength"] == 6


def test_master_alchemist_ages_one_unit_per_food_every_turn(table, monkeypatch) -> None:
    """Old Alchemist (not deployed this turn) + 2 F (Farmer, Treefolk): 2 A on the unit its
    policy picks (here the Militiaman): Militiaman 2 + 2 = 4."""
    t = table().place(0, "militiaman farmer", "master-alchemist treefolk")
    monkeypatch.setattr(t.game.brain, "age_target", lambda p, spots, n: spots.index(0))
    t.game.reveal()
    assert t.units(0)[0] == ("militiaman", 2)
    assert t.wars()["strength"] == 4 + 1


def test_master_alchemist_scores_crystals_per_war_won_and_gold_per_wood(table) -> None:
    """Miner 1 C, 2 wars won: +1 x 1 x 2 LP; Woodcutter 1 W: income 2 + 1."""
    t = table().place(0, "miner woodcutter", "master-alchemist")
    assert t.wars()["lp"] == WAR_LP + 2
    assert t.income() == 3


def test_militiaman_one_per_token(table) -> None:
    assert table().place(0, "militiaman+3").wars()["strength"] == 5


def test_miner_crystal_counts_for_mine_level_two(table) -> None:
    """Mine L2 (its own 1 C) + Miner 1 C: +2 x 2 = 4 LP whether or not a war is won."""
    assert table().place(0, back="miner", mine=2).wars()["lp"] == WAR_LP + 4


def test_monkey_negative_cost_pays_at_once_and_gold_per_token_on_death(table) -> None:
    """0 G: Monkey (-1) gives 1 G that pays the Knight (1) deployed with it. Dying with 2 A:
    +2 G."""
    t = table()
    t.seat(0).gold = 0
    t.put(0, 0, "knight", fresh=True)
    t.put(0, 1, "monkey", fresh=True)
    t.game.reveal()
    assert t.units(0)[:2] == [("knight", 0), ("monkey", 0)]
    assert t.seat(0).gold == 0
    t = table().place(0, "monkey+2")
    t.seat(0).gold = 0
    assert t.aging()["gold"] == 2
    assert t.seat(0).gold == 2


def test_mystical_healer_saves_a_unit_with_one_token(table) -> None:
    """Knight 1 A is saved (greedy: 0.5 x 4 x 3 turns left > 0) and then ages to 2 A;
    Veteran 2 A dies; the Healer itself ages to 1."""
    t = table().place(0, "knight+1 veteran+2", "mystical-healer")
    e = t.aging()
    assert (e["saved"], e["died"]) == (["knight"], ["veteran"])
    assert t.units(0)[0] == ("knight", 2)
    assert t.units(0)[3] == ("mystical-healer", 1)


def test_necromancer_ages_every_other_unit(table) -> None:
    """Necromancer + Veteran deployed, old Knight: Veteran 1 + 1 = 2, Knight 1,
    Necromancer 0."""
    t = table()
    t.seat(0).gold = 1
    t.put(0, 0, "necromancer", fresh=True)
    t.put(0, 1, "veteran", fresh=True)
    t.put(0, 3, "knight")
    t.game.reveal()
    assert t.units(0)[:4] == [("necromancer", 0), ("veteran", 2), None, ("knight", 1)]


def test_ogre_one_per_income_gold(table) -> None:
    """Income 2 + Blacksmith 1 + Temple L1 2 = 5: Ogre 2 + 5 = 7."""
    assert table().place(0, "ogre", "blacksmith", temple=1).wars()["strength"] == 7


def test_palm_reader_scores_tokens_of_dying_units_itself_included(table) -> None:
    """Palm Reader 1 A + Knight 2 A die: +3 LP; Veteran 0 A survives."""
    t = table().place(0, "knight+2 veteran", "palm-reader+1")
    e = t.aging()
    assert e["lp"] == 3
    assert t.seat(0).parts["aging"] == 3


def test_peddler_wood_and_gold(table) -> None:
    """Peddler: 1 W (Barracks L1 +1 strength) and +1 G income."""
    t = table().place(0, "peddler", barracks=1)
    assert t.wars()["strength"] == 1 + 1
    assert t.income() == 3


def test_relic_of_wisdom_never_dies_and_scores_two_per_token(table) -> None:
    """Relic 3 A survives Aging (-> 4 A); end: 2 x 4 = 8 LP."""
    t = table().place(0, back="relic-of-wisdom+3")
    assert t.aging()["died"] == []
    t.game.end()
    assert t.seat(0).parts["relic"] == 8


def test_rogue_one_gold_per_war_won(table) -> None:
    t = table().place(0, "rogue")
    e = t.wars()
    assert (e["won"], e["gold"]) == (2, 2)
    assert t.seat(0).gold == 3 + 2


def test_salamander_grows_with_tokens_and_dies_only_at_two(table) -> None:
    """Salamander 1 A: 4 + 1 = 5, survives Aging (-> 2 A), dies at the next one."""
    t = table().place(0, "salamander+1")
    assert t.wars()["strength"] == 5
    assert t.aging()["died"] == []
    assert t.units(0)[0] == ("salamander", 2)
    assert t.aging()["died"] == ["salamander"]


def test_sculptor_scores_three_when_it_dies(table) -> None:
    assert table().place(0, back="sculptor+1").aging()["lp"] == 3


def test_sculptor_replaced_in_deployment_is_not_a_death(table) -> None:
    """§8: discarding a unit in Deployment is not a death: no +3."""
    t = table().place(0, back="sculptor+1")
    t.hand(0, "knight")
    t.game.extra_open = [t.game.open_spots(p) for p in range(3)]
    place = Move("place", 0, 3)  # PLACE hand card 0 (the Knight) on the Sculptor's spot
    assert place in t.game.moves(0)
    t.game.apply_move(0, place)
    assert t.units(0)[3] == ("knight", 0)
    t.game.reveal()
    assert t.seat(0).parts["aging"] == 0
    assert t.seat(0).log[t.game.discard[-1]].fate == "replaced"


def test_shapeshifter_becomes_the_first_unit_costing_three_or_less(table) -> None:
    """Draw pile top: Kraken (6, discarded), then Veteran (0): the Veteran takes the spot
    for free with 1 A + its own on-deploy 1 A = 2 A; the Shapeshifter is discarded."""
    t = table()
    g = t.game
    kraken, veteran = t.take("kraken"), t.take("veteran")
    g.deck += [veteran, kraken]  # top = end: Kraken first
    t.seat(0).gold = 0
    t.put(0, 1, "shapeshifter", fresh=True)
    g.reveal()
    assert t.units(0)[1] == ("veteran", 2)
    assert g.discard[-2:] == [g.discard[-2], kraken]
    assert t.rules.unit(g.discard[-2]).id == "shapeshifter"
    assert t.seat(0).gold == 0
    assert t.seat(0).log[veteran].pick == 0


def test_strategist_counts_all_tokens_and_fights_from_the_back(table) -> None:
    """Tokens 2 (Knight) + 1 (Veteran): Strategist 1 + 3 = 4 from the Back, + Knight 4."""
    assert table().place(0, "knight+2", "strategist veteran+1").wars()["strength"] == 4 + 4


def test_time_master_puts_two_tokens_on_the_chosen_unit(table, monkeypatch) -> None:
    """Greedy puts 2 A on the Militiaman (2 + 2 = 4 strength); she may pick herself."""
    t = table()
    t.put(0, 0, "militiaman")
    t.put(0, 3, "time-master", fresh=True)
    t.game.reveal()
    assert t.units(0)[0] == ("militiaman", 2)
    t = table()
    t.put(0, 3, "time-master", fresh=True)
    t.put(0, 0, "knight")
    monkeypatch.setattr(t.game.brain, "age_target", lambda p, spots, n: spots.index(3))
    t.game.reveal()
    assert t.units(0)[3] == ("time-master", 2)


def test_treefolk_three_strength_and_one_food(table) -> None:
    """Treefolk 3 + Cerberus 3 (food) = 6."""
    assert table().place(0, "treefolk cerberus").wars()["strength"] == 6


def test_veteran_takes_a_token_when_deployed(table) -> None:
    t = table()
    t.put(0, 0, "veteran", fresh=True)
    t.game.reveal()
    assert t.units(0)[0] == ("veteran", 1)
    assert t.wars()["strength"] == 3


def test_wood_merchant_pays_gold_for_missing_wood_only(table) -> None:
    """Town L1 (1 W): 1 G with the Wood Merchant; Tavern L1 (1 F): still impossible."""
    t = table().place(0, back="wood-merchant")
    tavern = t.rules.cards.building_index["tavern"]
    assert t.game.payment(0, 0, 1, False) == 1
    assert t.game.payment(0, tavern, 1, False) is None


def test_woodcutter_wood_feeds_barracks(table) -> None:
    """2 Woodcutters 2 W: Barracks L1 +2; 2 + 2 + 2 = 6."""
    assert table().place(0, "woodcutter woodcutter", barracks=1).wars()["strength"] == 6


def test_every_unit_has_a_test_named_after_it(cards) -> None:
    """Meta-test: ``test_<unit id with underscores>_...`` exists for each of the 42 units."""
    names = [n for n in globals() if n.startswith("test_")]
    missing = [
        u.id
        for u in cards.units
        if not any(n.startswith(f"test_{u.id.replace('-', '_')}_") for n in names)
    ]
    assert missing == []
