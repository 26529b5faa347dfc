"""Static scoring of a position (``docs/rules/paper-tales.md``: §2.3 wars, §2.4 income, §2.7
end; bare §N below cites that page), one test per rule or card, with hand-computed numbers
in the docstrings.

Helpers (conftest): ``seat("front units", "back units", building=level, gold=n)``, a unit
``name+n`` carries n age tokens; ``score(seat0, seat1, ...)`` -> the ``score_state`` JSON.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from talesim.simcore.games.paper_tales.engine import score_state

EMPTY: dict[str, Any] = {"front": [], "back": []}


def solo(score, seat_json) -> dict[str, Any]:
    """Seat 0 of a 3-seat table whose other seats are empty (it wins both wars)."""
    return score(seat_json, EMPTY, EMPTY)["players"][0]


def strength_of(score, seat, front: str, back: str = "", **kw: int) -> int:
    return solo(score, seat(front, back, **kw))["strength"]


def unit_strengths(player: dict[str, Any]) -> dict[str, int]:
    return {s["where"]: s["strength"] for s in player["sources"] if s["type"] == "unit"}


# --- strength (§2.3) --------------------------------------------------------------------


def test_front_row_counts_back_row_does_not(score, seat) -> None:
    """Front: Knight 4 + Militiaman 2+2 A = 8; Back: Veteran 3 does not fight, Archer 2 does."""
    p = solo(score, seat("knight militiaman+2", "veteran archer"))
    assert p["strength"] == 4 + 4 + 2
    assert unit_strengths(p) == {"front 0": 4, "front 1": 4, "back 0": 3, "back 1": 2}


def test_strategist_fights_from_back_with_all_tokens(score, seat) -> None:
    """Strategist 1 + 3 A in the kingdom (Knight 1, itself 2) = 4, from the Back row; + Knight 4."""
    assert strength_of(score, seat, "knight+1", "strategist+2") == 8


def test_cerberus_needs_food(score, seat) -> None:
    assert strength_of(score, seat, "cerberus") == 2
    assert strength_of(score, seat, "cerberus", "farmer") == 3  # Farmer feeds from the Back
    assert strength_of(score, seat, "cerberus", town=1) == 3  # Town L1 produces 1 F


def test_hunter_produces_food_only_in_front(score, seat) -> None:
    assert strength_of(score, seat, "cerberus hunter") == 3 + 2
    assert strength_of(score, seat, "cerberus", "hunter") == 2


def test_dragon_needs_crystal(score, seat) -> None:
    assert strength_of(score, seat, "dragon") == 0
    assert strength_of(score, seat, "dragon", "miner") == 7
    assert strength_of(score, seat, "dragon", mine=1) == 7
    assert strength_of(score, seat, "dragon", town=2) == 7  # Town L2 adds 1 C


def test_adventurer_crystal_per_token(score, seat) -> None:
    """Adventurer with 0 A produces nothing; with 1 A, 1 C (§3 rulings)."""
    assert strength_of(score, seat, "dragon", "adventurer") == 0
    p = solo(score, seat("dragon", "adventurer+2"))
    assert p["strength"] == 7
    assert p["production"] == {"wood": 0, "food": 0, "crystal": 2}


def test_colossus_and_giant_snake_with_tokens(score, seat) -> None:
    assert strength_of(score, seat, "colossus") == 1
    assert strength_of(score, seat, "colossus+1") == 7
    assert strength_of(score, seat, "giant-snake") == 4
    assert strength_of(score, seat, "giant-snake+1") == 0


def test_leviathan(score, seat) -> None:
    """Fresh: 4 + 2 x food. Aged: contributes 0 but produces 2 F for the others:
    Manticore 2 + 2 x 2 F = 6."""
    assert strength_of(score, seat, "leviathan") == 4
    assert strength_of(score, seat, "leviathan", "farmer") == 6
    p = solo(score, seat("leviathan+1 manticore"))
    assert unit_strengths(p) == {"front 0": 0, "front 1": 6}
    assert p["strength"] == 6
    assert p["production"]["food"] == 2


def test_manticore_and_salamander(score, seat) -> None:
    """Manticore 2 + 2 x (Town 1 F + Forest Child 1 F) = 6; Salamander 4 + 2 A = 6."""
    assert strength_of(score, seat, "manticore", "forest-child", town=1) == 6
    assert strength_of(score, seat, "salamander+2") == 6


def test_ogre_counts_this_turns_income(score, seat) -> None:
    """Income = 2 base + Blacksmith 1 + Peddler 1 + Temple L1 2 = 6 -> Ogre 2 + 6 = 8."""
    p = solo(score, seat("ogre", "blacksmith peddler", temple=1))
    assert p["income"] == 6
    assert p["strength"] == 8


def test_barracks_level1_adds_to_the_kingdom(score, seat) -> None:
    """Barracks L1: +1 per W (Woodcutter 1 + Peddler 1) = +2 on the total, not on a unit."""
    p = solo(score, seat("knight", "woodcutter peddler", barracks=1))
    assert p["strength"] == 4 + 2
    barracks = next(s for s in p["sources"] if s["source"] == "barracks")
    assert barracks["strength"] == 2


def test_extra_front_spot_needs_a_level2_building(score, seat) -> None:
    p = solo(score, seat("knight knight knight", mine=2))
    assert p["strength"] == 12
    with pytest.raises(ValueError, match=r"'front' holds at most 2 units \(a 3rd needs"):
        solo(score, seat("knight knight knight", mine=1))


# --- wars (§2.3, §2.9) ------------------------------------------------------------------


def test_wars_three_players_ties_win(score, seat) -> None:
    """Strengths 5, 5, 3: seats 0 and 1 win both wars (>=, the tie wins for both), seat 2 none."""
    out = score(seat("knight farmer"), seat("knight farmer"), seat("rogue"))["players"]
    assert [p["strength"] for p in out] == [5, 5, 3]
    assert [p["wars_won"] for p in out] == [2, 2, 0]
    assert [p["breakdown"]["wars"] for p in out] == [6, 6, 0]


def test_wars_four_players_compare_with_both_neighbours(score, seat) -> None:
    """Strengths 4, 9, 1, 4 around the table: seat 0 beats seat 3 (tie) but not seat 1 -> 1;
    seat 1 -> 2; seat 2 -> 0; seat 3 beats seat 2 and ties seat 0 -> 2."""
    out = score(seat("knight"), seat("kraken"), seat("farmer"), seat("knight"))["players"]
    assert [p["strength"] for p in out] == [4, 9, 1, 4]
    assert [p["wars_won"] for p in out] == [1, 2, 0, 2]
    assert [p["war_lp"] for p in out] == [3, 6, 0, 6]
    assert [w["against"] for w in out[0]["wars"]] == [1, 3]


def test_wars_five_players(score, seat) -> None:
    out = score(*(seat(u) for u in ("farmer", "knight", "farmer", "knight", "knight")))
    # strengths 1, 4, 1, 4, 4: seat 4 ties seat 3 and beats seat 0 (cyclic)
    assert [p["wars_won"] for p in out["players"]] == [0, 2, 0, 2, 2]


@pytest.mark.parametrize(
    ("front0", "front1", "lp0", "lp1"),
    [
        ("knight farmer", "rogue", 3, 0),  # 5 vs 3: win, 5 < 2 x 3 -> 3 LP
        ("knight knight", "rogue", 6, 0),  # 8 vs 3: 8 >= 6 -> 6 LP
        ("rogue", "rogue", 3, 3),  # 3 vs 3: both win, not double
        ("farmer", "", 6, 0),  # 1 vs 0: >= 2 x 0 -> 6 LP; 0 strength never wins
        ("", "", 0, 0),  # 0-0 scores nothing
    ],
)
def test_two_player_single_war(score, seat, front0, front1, lp0, lp1) -> None:
    out = score(seat(front0), seat(front1))["players"]
    assert [p["breakdown"]["wars"] for p in out] == [lp0, lp1]
    assert [p["wars_won"] for p in out] == [int(lp0 > 0), int(lp1 > 0)]
    assert len(out[0]["wars"]) == 1


def test_two_player_per_war_won_triggers_once(score, seat) -> None:
    """Commander 4 + Knight 4 = 8 vs 3: 6 LP, and the Commander's +1 once."""
    p = score(seat("commander knight"), seat("rogue"))["players"][0]
    assert p["breakdown"]["wars"] == 6
    assert p["breakdown"]["per_war_won"] == 1
    assert p["war_lp"] == 7


# --- LP of the wars phase -----------------------------------------------------------------


def test_three_lp_per_war_won_and_commander_from_the_back(score, seat) -> None:
    """Two wars won: 6 LP; Commander in the Back row still scores +1 per war (§8) = 2."""
    p = solo(score, seat("knight", "commander"))
    assert p["wars_won"] == 2
    assert p["breakdown"]["wars"] == 6
    assert p["breakdown"]["per_war_won"] == 2
    assert p["war_lp"] == 8


def test_colossus_per_war_won(score, seat) -> None:
    """One war won (vs the empty seat 2), lost to seat 1 (8 > 7): 3 + 1."""
    out = score(seat("colossus+1"), seat("knight knight"), EMPTY)["players"]
    assert out[0]["wars_won"] == 1
    assert out[0]["war_lp"] == 4


def test_master_alchemist_per_crystal_per_war(score, seat) -> None:
    """Crystals: Miner 1 + Mine L1 1 = 2; 2 wars: 2 x 2 = 4 LP; + 6 for the wars."""
    p = solo(score, seat("master-alchemist", "miner", mine=1))
    assert p["breakdown"]["per_war_won"] == 4
    assert p["war_lp"] == 10


def test_rogue_gold_per_war_is_war_gold_not_income(score, seat) -> None:
    p = solo(score, seat("rogue", gold=1))
    assert p["war_gold"] == 2
    assert p["income"] == 2
    assert p["gold"] == 1 + 2 + 2


def test_per_war_won_nothing_when_no_war_won(score, seat) -> None:
    out = score(seat("commander", "rogue"), seat("kraken"), seat("demon"))["players"]
    assert out[0]["wars_won"] == 0
    assert out[0]["war_lp"] == 0
    assert out[0]["war_gold"] == 0


def test_building_war_lp_scores_without_a_win(score, seat) -> None:
    """Seat 0 loses both wars. Tavern L2: +1 per F (Town 1 + Farmer 1) = 2; Mine L2: +2 per C
    (its own 1) = 2; Temple L2: +2. War LP 6, no war LP from wars."""
    out = score(seat("farmer", tavern=2, mine=2, temple=2, town=1), seat("kraken"), seat("demon"))[
        "players"
    ]
    p = out[0]
    assert p["wars_won"] == 0
    assert p["breakdown"]["war_buildings"] == 2 + 2 + 2
    assert p["war_lp"] == 6


def test_barracks_level2_counts_units_with_strength_3(score, seat) -> None:
    """Front: Knight 4 (yes), Cerberus 3 with food (yes), Farmer 1 (no); Back: Veteran 3
    (yes, the whole kingdom counts, §8), aged Leviathan 0 (no). Barracks L1's +1 per wood
    goes to the total, never to a unit. -> 3 LP."""
    p = solo(score, seat("knight cerberus farmer", "veteran leviathan+1", barracks=2))
    assert p["breakdown"]["war_buildings"] == 3


# --- income (§2.4) ------------------------------------------------------------------------


def test_income_two_plus_abilities(score, seat) -> None:
    """Food: Farmer 1 + Town L1 1 = 2; wood: Town 1. Base 2 + Blacksmith 1 + Cook 1 x 2 F
    + Master Alchemist 1 x 1 W + Tavern L1 1 x 2 F + Temple L1 2 = 10."""
    p = solo(
        score,
        seat("blacksmith cook", "master-alchemist farmer", town=1, tavern=1, temple=1),
    )
    assert p["income_breakdown"] == {"base": 2, "units": 1 + 2 + 1, "buildings": 2 + 2}
    assert p["income"] == 10


def test_giant_snake_income_when_aged(score, seat) -> None:
    assert solo(score, seat("giant-snake"))["income"] == 2
    assert solo(score, seat("giant-snake+1"))["income"] == 5


# --- end of game (§2.7) ---------------------------------------------------------------------


def test_building_lp_one_and_three(score, seat) -> None:
    """Town L1 1 + Mine L2 3 + Temple L2 3 = 7 (a level-2 face replaces the 1)."""
    p = score(seat("", town=1, mine=2, temple=2), EMPTY, EMPTY)["players"][0]
    assert p["breakdown"]["buildings"] == 7
    assert p["end_lp"] == 7


def test_relic_of_wisdom_two_lp_per_token(score, seat) -> None:
    p = solo(score, seat("", "relic-of-wisdom+4"))
    assert p["breakdown"]["relic"] == 8
    assert p["end_lp"] == 8


def test_deploy_phase_effects_are_not_scored(score, seat) -> None:
    """Kraken's on-deploy -3 per level-2 building belongs to Deployment (part 2): a position
    scores its strength 9 only."""
    p = solo(score, seat("kraken", mine=2))
    assert p["strength"] == 9
    assert p["war_lp"] == 6 + 2  # two wars + Mine L2 (1 C x 2)
    assert p["end_lp"] == 3


def test_total_and_winners_tie_break_on_gold(score, seat) -> None:
    """Both seats win their single war 3-3 (3 LP each) and own nothing else: tie on LP; seat 1
    has more gold (4 + 2 income vs 0 + 2) and wins. Equal gold: shared."""
    out = score(seat("rogue"), seat("rogue", gold=4))
    assert [p["total"] for p in out["players"]] == [3, 3]
    assert out["winners"] == [1]
    assert score(seat("rogue"), seat("rogue"))["winners"] == [0, 1]


def test_total_is_the_breakdown_sum_with_earlier_lp(score, seat) -> None:
    p = solo(score, seat("knight", "relic-of-wisdom+1", mine=1, lp=10))
    assert p["breakdown"]["earlier"] == 10
    assert p["total"] == sum(p["breakdown"].values()) == 10 + 6 + 2 + 1
    assert p["total"] == 10 + p["war_lp"] + p["end_lp"]


# --- bad positions ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "fragment"),
    [
        ({"players": [EMPTY]}, "'players' must be a list of 2 to 5 seats"),
        ({"players": [EMPTY] * 6}, "'players' must be a list of 2 to 5 seats"),
        ({"players": [EMPTY, EMPTY], "turn": 1}, "unknown key(s) turn"),
        ({"players": [{"front": [{"unit": "wizard"}]}, EMPTY]}, 'front 0: unknown unit "wizard"'),
        ({"players": [{"back": [{"unit": "knight", "age": -1}]}, EMPTY]}, "'age' must be"),
        ({"players": [{"back": [{"unit": "knight"}] * 3}, EMPTY]}, "'back' holds at most 2"),
        ({"players": [{"buildings": {"castle": 1}}, EMPTY]}, "unknown building 'castle'"),
        ({"players": [{"buildings": {"mine": 3}}, EMPTY]}, "level of 'mine' must be"),
        ({"players": [{"gold": "lots"}, EMPTY]}, "player 0: 'gold' must be"),
        ({"players": [{"hand": []}, EMPTY]}, "player 0: unknown key(s) hand"),
        (
            {"players": [{"front": [{"unit": "kraken"}]}, {"front": [{"unit": "kraken"}]}]},
            "'kraken' appears 2 times; the deck has 1",
        ),
    ],
)
def test_bad_positions(cards, state, fragment) -> None:
    with pytest.raises(ValueError, match=re.escape(fragment)):
        score_state(state, cards)


def test_scores_follow_the_card_file(tmp_path, seat) -> None:
    """Rules as data: a card file where the Knight has strength 5 and the Commander scores 2
    LP per war changes the score, nothing else does (``--cards FILE`` / A/B runs)."""
    from talesim.simcore.games.paper_tales.tables import DEFAULT_CARDS, load_cardset

    text = DEFAULT_CARDS.read_text(encoding="utf-8")
    knight = text.index('id = "knight"')
    text = text[:knight] + text[knight:].replace("strength = 4", "strength = 5", 1)
    text = text.replace(
        'kind = "lp_per_war_won", amount = 1 }]', 'kind = "lp_per_war_won", amount = 2 }]'
    )
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    state = {"players": [seat("knight", "commander"), EMPTY, EMPTY]}
    p = score_state(state, load_cardset(path))["players"][0]
    assert p["strength"] == 5
    assert p["breakdown"]["per_war_won"] == 2 * 2
