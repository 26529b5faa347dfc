"""Final scoring of hand-made end states through ``engine.score_state``.

Rules: ``docs/rules/fairy-tale.md`` §0 (brief + Adjustments), §5, §7.7-§7.9; a bare §N
below cites that page.
Every expected number is computed by hand in the test's docstring or comments.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from talesim.simcore.games.fairy_tale.tables import DEFAULT_CARDS, DEFAULT_RULES, load_cardset


def solo(up: list[str], down: list[str] | None = None) -> list[tuple[list[str], list[str]]]:
    """A state with one real player and an empty opponent (the reference needs >= 2 seats)."""
    return [(up, down or []), ([], [])]


def pts(result: dict, seat: int) -> list[int]:
    """Per-card points of ``seat`` in tableau order (face-up cards first, as given)."""
    return [c["points"] for c in result["players"][seat]["cards"]]


def total(result: dict, seat: int) -> int:
    return result["players"][seat]["total"]


# --- variable (*) values -------------------------------------------------------------------


def test_four_homesteaders_score_16(score) -> None:
    """§0 example 1: 4 Homesteaders face up, * = 4, each scores 4, total 16."""
    r = score(solo(["homesteaders"] * 4))
    assert pts(r, 0) == [4, 4, 4, 4]
    assert total(r, 0) == 16
    assert r["players"][0]["breakdown"]["variable"] == 16


def test_seven_mischievous_fairies_score_49(score) -> None:
    """§7.9: a full self-counting set of 7 scores 7 x 7 = 49."""
    r = score(solo(["mischievous-fairy"] * 7, []), variant="basic")
    assert pts(r, 0) == [7] * 7
    assert total(r, 0) == 49


def test_bronze_dragon_with_two_knights_scores_12(score) -> None:
    """§0 example 2: Bronze Dragon = 3 x #Knights = 6; each Knight is a fixed 3 -> 12."""
    r = score(solo(["bronze-dragon", "knight-of-the-round-table", "knight-of-the-round-table"]))
    assert pts(r, 0) == [6, 3, 3]
    assert total(r, 0) == 12
    assert r["players"][0]["breakdown"] == {
        "fixed": 6,
        "variable": 6,
        "conditional": 0,
        "majority": 0,
        "trickster": 0,
    }


def test_bronze_dragon_without_knights_scores_0(score) -> None:
    """§5 multiplied *: no Knight of the Round Table face up -> 3 x 0 = 0."""
    r = score(solo(["bronze-dragon", "bronze-dragon"]))
    assert total(r, 0) == 0


def test_warhorses_count_knights(score) -> None:
    """Adjustments: Warhorse = 3 x #Knights. 2 Warhorses + 1 Knight = 3 + 3 + 3 = 9."""
    r = score(solo(["warhorse", "warhorse", "knight-of-the-round-table"]))
    assert pts(r, 0) == [3, 3, 3]
    assert total(r, 0) == 9


# --- quests (§5 conditional, §0 quest points) ----------------------------------------------


def test_dragon_king_needs_dragons_nest(score) -> None:
    """§5 named-card quest: Dragon King is 9 with Dragon's Nest (2) face up, else 0."""
    with_nest = score(solo(["dragon-king", "dragons-nest"]))
    assert pts(with_nest, 0) == [9, 2]
    assert with_nest["players"][0]["breakdown"]["conditional"] == 9
    without = score(solo(["dragon-king", "homesteaders"]))
    assert pts(without, 0) == [0, 1]


def test_oath_of_chivalry_needs_both_named_cards(score) -> None:
    """§5 several named cards: Oath (7) needs Warhorse AND Knight face up.
    Both: 7 + Warhorse 3x1 + Knight 3 = 13; Knight only: 0 + 3; Warhorse only: 0 + 0."""
    both = score(solo(["oath-of-chivalry", "warhorse", "knight-of-the-round-table"]))
    assert pts(both, 0) == [7, 3, 3]
    assert total(both, 0) == 13
    knight_only = score(solo(["oath-of-chivalry", "knight-of-the-round-table"]))
    assert pts(knight_only, 0) == [0, 3]
    warhorse_only = score(solo(["oath-of-chivalry", "warhorse"]))
    assert pts(warhorse_only, 0) == [0, 0]


DV_TALE = "dragons-tale-chapter-1"


def test_dragons_tale_majority_tie_is_inclusive(score) -> None:
    """§5 majority condition / §7.7: ties satisfy by default. Seat 0 has 2 Dragon Valley cards
    (the tale counts itself), seat 1 also 2 -> tale scores 6. Seat 2 has 1 -> irrelevant."""
    r = score(
        [
            ([DV_TALE, "dragons-nest"], []),
            (["sky-dancer-dragon", "dragon-priestess"], []),
            (["children-of-the-dragon"], []),
        ]
    )
    assert pts(r, 0) == [6, 2]


def test_dragons_tale_fails_when_someone_has_more(score) -> None:
    """§5 majority: seat 1 has 3 Dragon Valley cards against seat 0's 2 -> tale scores 0."""
    r = score(
        [
            ([DV_TALE, "dragons-nest"], []),
            (["sky-dancer-dragon", "dragon-priestess", "children-of-the-dragon"], []),
        ]
    )
    assert pts(r, 0) == [0, 2]


@pytest.fixture
def strict_cards(tmp_path: Path):
    """The default cards with ``majority_ties = "strict"`` in a copy of rules.toml."""
    text = DEFAULT_RULES.read_text(encoding="utf-8")
    assert 'majority_ties = "inclusive"' in text
    rules = tmp_path / "rules.toml"
    rules.write_text(text.replace('majority_ties = "inclusive"', 'majority_ties = "strict"'))
    return load_cardset(DEFAULT_CARDS, rules)


def test_dragons_tale_tie_fails_with_strict_majorities(score, strict_cards) -> None:
    """§7.7 config flag: with strict majorities the 2-2 tie scores nothing; a 2-1 lead does."""
    tie = [([DV_TALE, "dragons-nest"], []), (["sky-dancer-dragon", "dragon-priestess"], [])]
    assert pts(score(tie, cardset=strict_cards), 0) == [0, 2]
    lead = [([DV_TALE, "dragons-nest"], []), (["sky-dancer-dragon"], [])]
    assert pts(score(lead, cardset=strict_cards), 0) == [6, 2]


# --- majority cards (Adjustments: great-oak, town-guard) -----------------------------------


def test_great_oak_scores_only_for_the_most_copies(score) -> None:
    """Adjustments: 4 per face-up Great Oak, only for the player(s) with the most copies.
    Seat 0: 2 oaks -> 8; seat 1: 1 oak -> 0."""
    r = score([(["great-oak", "great-oak"], []), (["great-oak"], [])])
    assert pts(r, 0) == [4, 4]
    assert pts(r, 1) == [0]
    assert r["players"][0]["breakdown"]["majority"] == 8


def test_great_oak_tie_both_score(score, strict_cards) -> None:
    """§7.7: a 2-2 tie scores 8 for both players (inclusive); strict: 0 for both."""
    state = [(["great-oak", "great-oak"], []), (["great-oak", "great-oak"], [])]
    r = score(state)
    assert (total(r, 0), total(r, 1)) == (8, 8)
    strict = score(state, cardset=strict_cards)
    assert (total(strict, 0), total(strict, 1)) == (0, 0)


# --- fixed values -----------------------------------------------------------------------------


def test_dark_pact_is_minus_two(score) -> None:
    """§6b / §5: fixed values may be negative; Dark Pact scores -2 (with a Homesteader: -1)."""
    r = score(solo(["dark-pact", "homesteaders"], []), variant="basic")
    assert pts(r, 0) == [-2, 1]
    assert total(r, 0) == -1
    assert r["players"][0]["breakdown"]["fixed"] == -2


# --- face-down cards (§0 End, §5) -------------------------------------------------------------


def test_face_down_cards_score_zero_and_do_not_count_for_sets(score) -> None:
    """§0/§5: face-down cards score 0 and have no name: 3 up + 1 down Homesteaders = 3 x 3."""
    r = score(solo(["homesteaders"] * 3, ["homesteaders", "dark-pact"]))
    assert pts(r, 0) == [3, 3, 3, 0, 0]
    assert [c["face_up"] for c in r["players"][0]["cards"]] == [True, True, True, False, False]
    assert total(r, 0) == 9
    assert r["players"][0]["face_down"] == 2


def test_face_down_card_does_not_satisfy_quests(score) -> None:
    """§5: a face-down Dragon's Nest does not count for the Dragon King."""
    r = score(solo(["dragon-king"], ["dragons-nest"]))
    assert total(r, 0) == 0


def test_face_down_cards_do_not_count_for_majorities(score) -> None:
    """§7.7: majorities count face-up cards only. Seat 1 has 2 oaks, 1 face down -> 1 up,
    so seat 0's 2 face-up oaks lead (8). For the tale, seat 1's 2 face-down Dragon Valley
    cards don't count: seat 0 leads 1-0 -> 6."""
    r = score(
        [
            (["great-oak", "great-oak", DV_TALE], []),
            (["great-oak"], ["great-oak", "sky-dancer-dragon", "dragons-cave"]),
        ]
    )
    assert pts(r, 0) == [4, 4, 6]
    assert pts(r, 1) == [0, 0, 0, 0]


# --- the Trickster (§0 Expert, Adjustments) ---------------------------------------------------


def test_trickster_completes_a_set(score) -> None:
    """Adjustments: with 3 Homesteaders the Trickster becomes a 4th: 4 x 4 = 16, and the
    Trickster scores 4 - 1 = 3 of it -> total 15 (best: a fixed 6 would give 9 + 5 = 14)."""
    r = score(solo(["homesteaders"] * 3 + ["the-trickster"]))
    p = r["players"][0]
    assert p["trickster_as"] == "homesteaders"
    assert pts(r, 0) == [4, 4, 4, 3]
    assert p["total"] == 15
    assert p["breakdown"]["variable"] == 12
    assert p["breakdown"]["trickster"] == 3


def test_trickster_satisfies_a_quest(score) -> None:
    """Adjustments: the Trickster counts for quests. As Dragon's Nest it makes the Dragon
    King worth 9 and scores 2 - 1 = 1 itself -> 10 (as a fixed 6 it would be 0 + 5)."""
    r = score(solo(["dragon-king", "the-trickster"]))
    assert r["players"][0]["trickster_as"] == "dragons-nest"
    assert pts(r, 0) == [9, 1]


def test_trickster_counts_for_majorities(score) -> None:
    """Adjustments: the Trickster counts for majorities. Seat 0: 1 oak + Trickster-as-oak
    ties seat 1's 2 oaks: seat 0 scores 4 + (4 - 1) = 7, seat 1 keeps 8 (tie inclusive)."""
    r = score([(["great-oak", "the-trickster"], []), (["great-oak", "great-oak"], [])])
    assert r["players"][0]["trickster_as"] == "great-oak"
    assert pts(r, 0) == [4, 3]
    assert total(r, 1) == 8


def test_trickster_ties_go_to_the_lowest_card_id(score) -> None:
    """§5 Trickster: ties are broken by card id. Alone, the best copies are worth 6
    (dragons-cave, dragons-tale-chapter-1, fairy-ring, ...): lowest id 'dragons-cave'; 6 - 1."""
    r = score(solo(["the-trickster"]))
    assert r["players"][0]["trickster_as"] == "dragons-cave"
    assert total(r, 0) == 5


def test_trickster_tie_break_is_by_id_not_file_order(score, tmp_path: Path) -> None:
    """§5 Trickster tie-break by card id holds when the card file lists cards in reverse
    (so 'imperial-castle' comes before 'dragons-cave' in index order)."""
    text = DEFAULT_CARDS.read_text(encoding="utf-8")
    head, *blocks = text.split("\n[[card]]\n")
    reversed_file = tmp_path / "cards.toml"
    reversed_file.write_text(head + "".join("\n[[card]]\n" + b for b in reversed(blocks)))
    cardset = load_cardset(reversed_file)
    assert cardset.index["imperial-castle"] < cardset.index["dragons-cave"]
    r = score(solo(["the-trickster"], []), cardset=cardset)
    assert r["players"][0]["trickster_as"] == "dragons-cave"


def test_face_down_trickster_scores_zero_and_takes_no_identity(score) -> None:
    """§7.8: only a face-up Trickster copies a card; face down it scores 0 (not -1)."""
    r = score(solo(["homesteaders"] * 3, ["the-trickster"]))
    assert r["players"][0]["trickster_as"] is None
    assert pts(r, 0) == [3, 3, 3, 0]
    assert total(r, 0) == 9


# --- winners and validation -------------------------------------------------------------------


def test_tied_winners_share(score) -> None:
    """§3 Score / rules.toml tie_break = share: both 16-point players win; 9 does not."""
    r = score(
        [
            (["homesteaders"] * 4, []),
            (["mischievous-fairy"] * 4, []),
            (["children-of-the-dragon"] * 3, []),
        ]
    )
    assert [total(r, p) for p in range(3)] == [16, 16, 9]
    assert r["winners"] == [0, 1]


@pytest.mark.parametrize(
    ("variant", "players", "message"),
    [
        ("expert", [(["no-such-card"], [])], "unknown card 'no-such-card'"),
        ("expert", [(["homesteaders"] * 4, []), (["homesteaders"] * 4, [])], "appears 8 times"),
        ("expert", [([], ["lich"] * 3)], "appears 3 times"),
        ("basic", [(["dragon-king"], [])], "not in the basic deck"),
        ("expert", [(["homesteaders"] * 7, ["mischievous-fairy"] * 6)], "more than 12"),
    ],
    ids=[
        "unknown-card",
        "too-many-copies",
        "too-many-face-down",
        "expert-card-in-basic",
        "over-12-cards",
    ],
)
def test_bad_states_raise_value_error(score, variant, players, message) -> None:
    """state_io validation: unknown ids, more copies than the deck has, cards outside the
    variant's deck and more than 12 tableau cards are refused with ValueError."""
    with pytest.raises(ValueError, match=message):
        score(players, variant=variant)


def test_one_player_state_is_scored(score) -> None:
    """state_io accepts 1 to 5 players: a lone tableau is scored (4 Homesteaders = 16)."""
    r = score([(["homesteaders"] * 4, [])])
    assert r["players"][0]["total"] == 16
    assert r["winners"] == [0]
