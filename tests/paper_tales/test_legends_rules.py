"""The Legends rules of ``docs/rules/paper-tales-legends.md`` §2 (bare §N here; "base §N" is
``docs/rules/paper-tales.md``) in ``reference/``: the artifact zone and its cost sequence
(§2.4), artifacts never aging (§2.3), the building pair (§2.2), the resolution tiers (§2.5),
simultaneity (§2.8) and every ruling of §2.9 / §2.7, with hand-computed numbers on
constructed positions (``ltable``: 3 players, turn 1, 3 gold each)."""

from __future__ import annotations

from collections import Counter

from talesim.simcore.games.paper_tales.policies import default_weights
from talesim.simcore.games.paper_tales.reference import Game, Move, Rules, final_state
from talesim.simcore.rng import GameRng

# --- §2.4 the artifact cost sequence ----------------------------------------------------------


def test_artifact_costs_one_plus_the_zone_paid_one_after_another(ltable) -> None:
    """Empty zone, 6 G: three artifacts cost 1 + 2 + 3 = 6 (§2.4: m k + m(m+1)/2)."""
    t = ltable()
    t.seat(0).gold = 6
    for a in ("dragon-egg", "golden-idol", "cornucopia"):
        t.art(0, a, placed=True)
    assert [c for _, _, c in t.game.payment_order(0)] == [1, 2, 3]
    t.reveal()
    assert t.seat(0).gold == 0
    assert t.seat(0).artifact_gold == 6
    assert [t.seat(0).log[z.card].deploy_cost for z in t.seat(0).zone] == [1, 2, 3]


def test_artifact_cost_counts_the_zone_already_there(ltable) -> None:
    """k = 2 in the zone: the next two cost 3 + 4."""
    t = ltable()
    t.seat(0).gold = 7
    t.art(0, "dragon-egg")
    t.art(0, "golden-idol")
    t.art(0, "cornucopia", placed=True)
    t.art(0, "war-horn", placed=True)
    assert [c for _, _, c in t.game.payment_order(0)] == [3, 4]


def test_an_unpaid_artifact_is_discarded(ltable) -> None:
    """2 G: the first costs 1, the second 2 > 1 left: discarded (fate unpaid), never in the
    zone, on the discard pile."""
    t = ltable()
    t.seat(0).gold = 2
    t.art(0, "dragon-egg", placed=True)
    second = t.art(0, "golden-idol", placed=True).card
    t.reveal()
    assert t.zone(0) == ["dragon-egg"]
    assert t.seat(0).gold == 1
    assert t.seat(0).log[second].fate == "unpaid"
    assert t.game.discard[-1] == second


def test_court_jester_artifact_is_free_after_paid_ones(ltable) -> None:
    """A placed artifact is paid (1 G) at step 3, then the Jester (tier 1a) puts the hand's
    Dragon Egg for 0 G: zone in entry order, 3 - 1 (Jester) - 1 = 1 G left."""
    t = ltable()
    t.put(0, 0, "court-jester", fresh=True)
    t.art(0, "golden-idol", placed=True)
    t.hand(0, "dragon-egg")
    t.reveal()
    assert t.zone(0) == ["golden-idol", "dragon-egg"]
    assert t.seat(0).gold == 1


def test_placement_offers_only_payable_artifacts(ltable) -> None:
    """1 G and a Knight already placed: no artifact can be placed (it would cost 1 more);
    with 2 G one can, but not a second (2 more)."""
    t = ltable()
    t.seat(0).gold = 1
    t.put(0, 0, "knight", fresh=True)
    t.hand(0, "dragon-egg", "golden-idol")
    assert all(m.kind != "place_artifact" for m in t.game.moves(0))
    t.seat(0).gold = 2
    moves = t.game.moves(0)
    assert [m for m in moves if m.kind == "place_artifact"] == [
        Move("place_artifact", 0),
        Move("place_artifact", 1),
    ]
    t.game.apply_move(0, Move("place_artifact", 0))
    assert all(m.kind != "place_artifact" for m in t.game.moves(0))


def test_removal_keeps_what_is_placed_payable(ltable) -> None:
    """base §2.2 removal (README "Deployment decomposition"), Legends: an old Knight on spot 0,
    an old Artificer (artifacts cost 1 less) on spot 3, a Dragon Egg placed face down this
    phase, 0 G. The egg costs max(0, 1 + 1 x 0 paid artifacts - 1) = 0 with the Artificer,
    1 without it: the Knight may be removed, the Artificer not; with 1 G both may."""
    t = ltable()
    t.seat(0).gold = 0
    t.put(0, 0, "knight")
    t.put(0, 3, "artificer")
    t.art(0, "dragon-egg", placed=True)
    assert [m for m in t.game.moves(0) if m.kind == "remove"] == [Move("remove", 0)]
    t.seat(0).gold = 1
    assert [m for m in t.game.moves(0) if m.kind == "remove"] == [
        Move("remove", 0),
        Move("remove", 3),
    ]
    t.game.apply_move(0, Move("remove", 3))
    t.reveal()
    assert t.zone(0) == ["dragon-egg"]
    assert t.seat(0).gold == 0
    assert t.units(0)[3] is None


# --- §2.3 artifacts never age or leave ------------------------------------------------------


def test_artifacts_survive_aging(ltable) -> None:
    """A dying Knight leaves; the artifacts stay, take no token, count one more Aging."""
    t = ltable()
    t.put(0, 0, "knight", age=1)
    egg = t.art(0, "dragon-egg").card
    t.art(0, "cursed-crown")
    ev = t.aging()
    assert ev["died"] == ["knight"]
    assert t.zone(0) == ["dragon-egg", "cursed-crown"]
    assert t.seat(0).log[egg].turns_survived == 1


def test_artifacts_are_never_unit_targets(ltable) -> None:
    """A Necromancer's 'each other unit' and a Cursed Crown touch units only (§2.3)."""
    t = ltable()
    t.put(0, 0, "necromancer", fresh=True)
    t.put(0, 1, "knight")
    t.art(0, "dragon-egg")
    t.reveal()
    assert t.units(0)[1] == ("knight", 1)
    assert t.zone(0) == ["dragon-egg"]


# --- §2.2 the building pair --------------------------------------------------------------------


def _setup(legends, seed: int, **options) -> Game:
    import dataclasses

    cards = legends
    if options:
        opts = dict(legends.rules.options, **options)
        cards = dataclasses.replace(legends, rules=dataclasses.replace(legends.rules, options=opts))
    g = Game(Rules(cards, 4), default_weights(), [1] * 4, seed, 0)
    g.setup()
    return g


def test_building_pair_drawn_after_the_shuffle(legends) -> None:
    """One draw below(3) right after the deck shuffle, the same set for every player:
    5 base buildings + the pair; over seeds every pair appears."""
    seen: Counter[int] = Counter()
    for seed in range(30):
        g = _setup(legends, seed)
        rng = GameRng(seed, 0)
        deck = list(range(125))
        rng.shuffle(deck)
        assert g.deck == deck
        assert g.pair == rng.below(3)
        assert g.bset == legends.building_set(g.pair)
        assert len(g.bset) == 7
        seen[g.pair] += 1
    assert set(seen) == {0, 1, 2}


def test_building_pair_fixed_by_config_keeps_the_stream(legends) -> None:
    """``legends_buildings = ["sawmill", "royal-palace"]``: every game gets that pair, and
    the deck and later draws are those of the random-pair game (the draw is still made)."""
    ids = [b.id for b in legends.buildings]
    for seed in range(5):
        fixed = _setup(legends, seed, legends_buildings=("royal-palace", "sawmill"))
        free = _setup(legends, seed)
        assert [ids[b] for b in fixed.bset[5:]] == ["sawmill", "royal-palace"]
        assert fixed.deck == free.deck
        assert fixed.rng.below(1000) == free.rng.below(1000)


def test_building_pair_recorded_and_only_the_set_is_built(legends) -> None:
    g = Game(Rules(legends, 3), default_weights(), [1, 1, 1], 5, 2).run(check=True)
    st = final_state(g)
    pool = st["building_pool"]
    assert pool in ("inn+sawmill", "inn+royal-palace", "sawmill+royal-palace")
    for seat in st["seats"]:
        names = [b[0] for b in seat["buildings"]]
        assert names == ["town", "tavern", "mine", "temple", "barracks", *pool.split("+")]


def test_port_and_abbey_join_when_switched_on(legends) -> None:
    g = _setup(legends, 1, use_port_abbey=True)
    ids = [legends.buildings[b].id for b in g.bset]
    assert ids[-2:] == ["port", "abbey"]
    assert len(ids) == 9


# --- §2.5 tiers and §2.9 rulings -------------------------------------------------------------


def test_shapeshifter_skips_artifacts_new_unit_gets_a_token_and_acts(ltable) -> None:
    """Top of the pile: Dragon Egg, then a Cave Spirit. The egg is revealed and discarded
    ("until a unit", §2.3), the Cave Spirit arrives with 1 A and its own on-deploy token
    applies this round (§2.9 [B]): 2 A."""
    t = ltable()
    t.put(0, 0, "shapeshifter", fresh=True)
    spirit, egg = t.take("cave-spirit"), t.take("dragon-egg")
    t.game.deck += [spirit, egg]  # the top is the end of the list
    t.reveal()
    ev = t.event("shapeshift", 0)
    assert (ev["revealed"], ev["becomes"]) == (["dragon-egg"], "cave-spirit")
    assert t.units(0)[0] == ("cave-spirit", 2)
    assert t.game.discard[-2:] == [t.game.discard[-2], egg]


def test_dryad_exchange_any_number_of_times(ltable) -> None:
    """Tavern directly at level 2 (1 F + 1 W 1 F = 2 F, 1 W): the Dryad's W, 2 G for 2 F."""
    t = ltable()
    t.put(0, 0, "dryad")
    tavern = t.rules.cards.building_index["tavern"]
    assert t.game.payment(0, tavern, 2, False) == 2


def test_ogre_counts_the_base_income_and_artifact_income(ltable) -> None:
    """Ogre: printed + 1 per income gold: base 2 + Golden Idol 1 = +3."""
    t = ltable()
    t.put(0, 0, "ogre")
    t.art(0, "golden-idol")
    printed = t.rules.units[t.rules.cards.index["ogre"]].strength
    assert t.wars()["strength"] == printed + 3


def test_monkey_imp_lackey_gold_usable_at_once(ltable) -> None:
    """0 G: Monkey (+1), Imp (+2), Lackey (+1) are paid first; their 4 G pay a Dragon (3)
    and an artifact (1)."""
    t = ltable()
    t.seat(0).gold = 0
    t.put(0, 0, "dragon", fresh=True)
    t.put(0, 1, "monkey", fresh=True)
    t.put(0, 3, "imp", fresh=True)
    t.put(0, 4, "lackey", fresh=True)
    t.art(0, "dragon-egg", placed=True)
    assert [c for _, _, c in t.game.payment_order(0)] == [-1, -2, -1, 3, 1]
    t.reveal()
    assert t.seat(0).gold == 0
    assert t.zone(0) == ["dragon-egg"]


def test_titan_then_golem_same_phase_and_fifth_spot_next_turn(ltable) -> None:
    """Titan (tier 1a) builds the only unbuilt building at level 1, the Golem (tier 2)
    upgrades it: level 2, but the 5th spot opens only from the next Deployment (§2.5)."""
    t = ltable()
    t.seat(0).gold = 6
    t.build(0, town=1, tavern=1, mine=1, temple=1, barracks=1, sawmill=1, royal_palace=1)
    t.put(0, 0, "golem", fresh=True)
    t.put(0, 1, "titan", fresh=True)
    t.reveal()
    assert t.level(0, "inn") == 2
    assert 2 not in t.game.extra_open[0][0]
    assert 2 in t.game.open_spots(0)[0]


def test_kraken_counts_a_level2_built_in_the_same_phase(ltable) -> None:
    """Kraken's -3 per level-2 building at tier 5, after the Golem (tier 2) upgraded two."""
    t = ltable()
    t.seat(0).gold = 8
    t.seat(0).lp = 10
    t.build(0, town=1, tavern=1)
    t.put(0, 0, "kraken", fresh=True)
    t.put(0, 1, "golem", fresh=True)
    t.reveal()
    assert t.seat(0).parts["deployment"] == -6
    assert t.seat(0).lp == 4


def test_temple_gold_or_crystal_per_level_also_direct_level2(ltable) -> None:
    """Direct level 2: both levels in gold 2 + 3 = 5; with 1 C, level 1 by crystal and level
    2 by gold: 3."""
    t = ltable()
    temple = t.rules.cards.building_index["temple"]
    assert t.game.payment(0, temple, 2, False) == 5
    t.art(0, "heart-of-the-mountain")
    assert t.game.payment(0, temple, 2, False) == 3


def test_healer_saves_itself_and_still_ages(ltable) -> None:
    t = ltable()
    t.put(0, 3, "mystical-healer", age=1)
    ev = t.aging()
    assert ev["saved"] == ["mystical-healer"]
    assert t.units(0)[3] == ("mystical-healer", 2)


def test_palm_reader_and_kraken_count_every_leaving_unit_themselves_included(ltable) -> None:
    """Palm Reader (1 A) and a Knight (1 A) die: 1 LP per token = 2."""
    t = ltable()
    t.put(0, 3, "palm-reader", age=1)
    t.put(0, 0, "knight", age=1)
    ev = t.aging()
    assert sorted(ev["died"]) == ["knight", "palm-reader"]
    assert ev["lp"] == 2


def test_standard_bearer_counts_a_titan_deployed_the_same_phase(ltable) -> None:
    """End-of-phase principle: the Titan (cost 4) placed with it counts: +2 G +2 LP."""
    t = ltable()
    t.seat(0).gold = 5
    t.put(0, 0, "titan", fresh=True)
    t.put(0, 1, "standard-bearer", fresh=True)
    t.reveal()
    assert t.seat(0).parts["deployment"] == 2
    assert t.seat(0).gold == 2


def test_copies_never_target_a_shadow(ltable) -> None:
    """Shadow + Magic Mirror with no other new unit: the Shadow has no target (itself
    carries K2), the Mirror may not pick the Shadow: no copy at all."""
    t = ltable()
    t.put(0, 0, "shadow", fresh=True)
    t.art(0, "magic-mirror", placed=True)
    t.reveal()
    assert not any(e["event"] == "copy" for e in t.game.events)


def test_simultaneity_most_lp_then_more_gold_then_random(ltable) -> None:
    t = ltable(players=4)
    for p, (lp, gold) in enumerate(((5, 1), (7, 0), (5, 3), (5, 3))):
        t.seat(p).lp, t.seat(p).gold = lp, gold
    order = t.game.simultaneity_order([0, 1, 2, 3])
    assert order[0] == 1
    assert sorted(order[1:3]) == [2, 3]
    assert order[3] == 0
    t = ltable(players=4, simultaneity_gold="less")
    for p, (lp, gold) in enumerate(((5, 1), (7, 0), (5, 3), (5, 2))):
        t.seat(p).lp, t.seat(p).gold = lp, gold
    assert t.game.simultaneity_order([0, 1, 2, 3]) == [1, 0, 3, 2]


def test_keep_comes_after_the_abilities(ltable) -> None:
    """§2.4 step 5: the keep follows the tiers. 1 G, a Jester already placed: nothing else
    is payable (STOP); the Jester takes the Dragon Egg from the hand at tier 1a, then the
    keep sees only the Knight (greedy keeps it)."""
    t = ltable()
    t.seat(0).gold = 1
    t.put(0, 0, "court-jester", fresh=True)
    egg, knight = t.hand(0, "dragon-egg", "knight")
    t.game.deployment_legends()
    assert t.zone(0) == ["dragon-egg"]
    assert t.seat(0).kept == knight
    assert t.seat(0).log[egg].fate == "in_zone"


def test_artifact_resources_count_for_every_per_resource_ability(ltable) -> None:
    """§2.3 [B] "all symbols": a Master Alchemist (tier 4b, 1 A per F on one unit) with a
    Cornucopia (2 F) and no other food puts 2 A (on itself: the only unit)."""
    t = ltable()
    t.put(0, 3, "master-alchemist")
    t.art(0, "cornucopia")
    t.reveal()
    assert t.units(0)[3] == ("master-alchemist", 2)
