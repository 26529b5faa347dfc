"""Effect resolution (Hunt -> Open -> Close) and the game flow, played by ``reference/``.

Rules: ``docs/rules/fairy-tale.md`` §0 (brief), §3 (flow), §4 (effects), §7.1-§7.6 (edge
cases); a bare §N below cites that page. Effects are tested on hand-built tableaux: each
player reveals one card, then ``resolve_effects`` runs. Players use the greedy policy, whose
Close choice is "the card whose loss is least" and whose Open choice is "the card worth
most".
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from talesim.simcore.games.fairy_tale.policies import Policy, default_weights
from talesim.simcore.games.fairy_tale.reference import Rules, play_reference
from talesim.simcore.rng import GameRng

# --- Close (you) ------------------------------------------------------------------------------


def test_dragons_cave_alone_closes_itself(table) -> None:
    """§7.1: Dragon's Cave revealed as its owner's only face-up Dragon Valley card must close
    itself (the Homesteader is not Dragon Valley and stays up)."""
    t = table("basic", 2)
    t.lay(0, up=["homesteaders"])
    t.reveal("dragons-cave", "homesteaders")
    assert t.tableau(0) == (["homesteaders"], ["dragons-cave"])
    assert t.up(1) == ["homesteaders"]
    t.check_counts()


def test_dragons_cave_owner_closes_the_cheaper_dragon_valley_card(table) -> None:
    """§0 worked example: Dragon's Cave (6) + Sky Dancer Dragon (3), both Dragon Valley: the
    owner chooses one to close; greedy gives up the Sky Dancer Dragon (loses 3, not 6)."""
    t = table("basic", 2)
    t.lay(0, up=["sky-dancer-dragon"])
    t.reveal("dragons-cave", "homesteaders")
    assert t.tableau(0) == (["dragons-cave"], ["sky-dancer-dragon"])


def test_dragons_cave_closes_itself_when_that_is_cheapest(table) -> None:
    """§4 Close: the owner picks the card to close. A Bronze Dragon with 3 Knights is worth 9,
    so closing the Cave itself (6) is the cheaper choice."""
    t = table("basic", 2)
    t.lay(0, up=["bronze-dragon"] + ["knight-of-the-round-table"] * 3)
    t.reveal("dragons-cave", "homesteaders")
    assert t.down(0) == ["dragons-cave"]
    assert "bronze-dragon" in t.up(0)


# --- Open -------------------------------------------------------------------------------------


def test_open_with_no_eligible_card_does_nothing(table) -> None:
    """§7.2: the Priest opens a face-down Holy Empire card; with only a face-down Dragon Valley
    card nothing happens (and with no face-down card at all, nothing either)."""
    t = table("basic", 2)
    t.lay(0, down=["children-of-the-dragon"])
    t.reveal("priest", "priest")
    assert t.tableau(0) == (["priest"], ["children-of-the-dragon"])
    assert t.tableau(1) == (["priest"], [])
    t.check_counts()


def test_priest_opens_own_face_down_holy_empire_card(table) -> None:
    """§4 Open: the revealer turns one own face-down card of the filter's faction face up.
    With 2 Homesteaders up, a 3rd is worth +5 (4 -> 9), a Knight +3: the Homesteader opens.
    The face-down Dragon Valley card and the opponent's face-down card stay down."""
    t = table("basic", 2)
    t.lay(
        0,
        up=["homesteaders", "homesteaders"],
        down=["knight-of-the-round-table", "homesteaders", "children-of-the-dragon"],
    )
    t.lay(1, down=["homesteaders"])
    t.reveal("priest", "great-oak")
    up = ["homesteaders"] * 3 + ["priest"]
    assert t.tableau(0) == (up, ["knight-of-the-round-table", "children-of-the-dragon"])
    assert t.down(1) == ["homesteaders"]
    t.check_counts()


def test_open_resolves_before_close(table) -> None:
    """§7.4: Open before Close in one step. Dark Pact (open any) and Lich (close one Dragon
    Valley card of every player): the Children opened by the Pact is then closed by the Lich.
    (Close-then-Open would leave it face up.)"""
    t = table("basic", 2)
    t.lay(0, down=["children-of-the-dragon"])
    t.reveal("dark-pact", "lich")
    assert t.tableau(0) == (["dark-pact"], ["children-of-the-dragon"])
    t.check_counts()


def test_card_closed_this_step_is_not_reopened(table) -> None:
    """§7.4: a card closed in this step cannot be reopened by an Open of the same step: it
    stays closed until a later Open."""
    t = table("basic", 2)
    t.lay(0, up=["children-of-the-dragon"])
    t.reveal("dark-pact", "lich")
    assert t.down(0) == ["children-of-the-dragon"]
    t.reveal("dark-pact", "homesteaders")  # a later Open reopens it
    assert t.down(0) == []
    t.check_counts()


# --- Close (all / others) and filters --------------------------------------------------------


def test_lich_closes_one_dragon_valley_card_of_every_player(table) -> None:
    """§7.6 / Lich 'Close (all)': every player, the revealer included, closes one Dragon Valley
    card; a player without one is unaffected; a player with two closes only one (the cheaper
    Sky Dancer Dragon 3, keeping the Cave 6)."""
    t = table("basic", 3)
    t.lay(0, up=["children-of-the-dragon"])
    t.lay(1, up=["dragons-cave", "sky-dancer-dragon"])
    t.lay(2, up=["homesteaders"])
    t.reveal("lich", "homesteaders", "homesteaders")
    assert t.tableau(0) == (["lich"], ["children-of-the-dragon"])
    assert t.tableau(1) == (["dragons-cave", "homesteaders"], ["sky-dancer-dragon"])
    assert t.down(2) == []
    t.check_counts()


def test_shadowking_hits_only_the_other_players(table) -> None:
    """§6b Shadowking 'Close (others)': each other player closes one card (any faction); the
    revealer keeps everything."""
    t = table("expert", 3)
    t.lay(0, up=["homesteaders"])
    t.lay(1, up=["homesteaders"])
    t.lay(2, up=["children-of-the-dragon"])
    t.reveal("shadowking", "town-guard", "great-oak")
    assert t.tableau(0) == (["homesteaders", "shadowking"], [])
    assert t.down(1) == ["homesteaders"]  # loses 1 rather than the Town Guard's 4
    assert t.down(2) == ["children-of-the-dragon"]  # loses 1 rather than the Great Oak's 4
    t.check_counts()


def test_demon_cannot_close_shadow_cards(table) -> None:
    """§6b Demon: close one non-Shadow card of every player. Seat 1 has only Shadow cards face
    up (Lich, Dark Pact) and keeps them; the revealer's Demon is Shadow too; seat 2's
    Homesteader is closed."""
    t = table("basic", 3)
    t.lay(1, up=["lich"])
    t.lay(2, up=["homesteaders"])
    t.reveal("demon", "dark-pact", "werewolf")
    assert t.down(0) == []
    assert t.down(1) == []
    assert t.down(2) == ["homesteaders"]
    t.check_counts()


def test_vampire_closes_only_non_shadow_characters(table) -> None:
    """§6b Vampire: close one non-Shadow Character of every player. Seat 1 would rather lose the
    Dragon's Nest (2, a Home) or the Lich (1, Shadow), but must close a Children of the Dragon
    (3 -> 2 copies: loses 5). The revealer closes its Homesteader."""
    t = table("expert", 2)
    t.lay(0, up=["homesteaders"])
    t.lay(1, up=["dragons-nest", "lich"] + ["children-of-the-dragon"] * 2)
    t.reveal("vampire", "children-of-the-dragon")
    assert t.tableau(0) == (["vampire"], ["homesteaders"])
    assert t.down(1) == ["children-of-the-dragon"]
    assert t.up(1).count("children-of-the-dragon") == 2
    assert {"dragons-nest", "lich"} <= set(t.up(1))
    t.check_counts()


# --- Hunt (expert) ----------------------------------------------------------------------------


def test_fairy_queen_hunts_demon_and_cancels_its_close(table) -> None:
    """§0 Hunt example: A plays the Demon, B the Fairy Queen -> the Demon lands face down and
    its Close does not apply. Every Shadow card revealed that step is hunted (seat 2's Lich);
    Shadow cards already in a tableau (seat 1's Werewolf) are not."""
    t = table("expert", 3)
    t.lay(0, up=["homesteaders"])
    t.lay(1, up=["homesteaders", "werewolf"])
    t.lay(2, up=["sky-dancer-dragon"])
    t.reveal("fairy-queen", "demon", "lich")
    assert t.down(0) == []
    assert t.tableau(1) == (["homesteaders", "werewolf"], ["demon"])
    assert t.tableau(2) == (["sky-dancer-dragon"], ["lich"])
    t.check_counts()


def test_demon_close_applies_without_a_hunter(table) -> None:
    """§4: without a Hunt card in the step the Demon's Close applies (control for the Hunt test
    above): the Flower Spirit (Fairy Forest, Open) is no hunter."""
    t = table("expert", 2)
    t.lay(0, up=["homesteaders"])
    t.reveal("flower-spirit", "demon")
    assert t.down(0) == ["homesteaders"]


def test_hunted_dark_pact_scores_zero_not_minus_two(table) -> None:
    """§7.3: a hunted Dark Pact is face down (its Open cancelled: the face-down Homesteader
    stays down) and scores 0, not -2."""
    t = table("expert", 2)
    t.lay(1, down=["homesteaders"])
    t.reveal("paladin", "dark-pact")
    assert t.down(1) == ["homesteaders", "dark-pact"]
    t.game.final_scoring()
    assert t.game.players[1].points == [0, 0]
    assert t.game.players[1].score == 0
    assert t.game.players[0].score == 2  # the Paladin


# --- several Close effects on one player (§4.4, §7.5) ----------------------------------------


def test_two_closes_close_two_distinct_cards(table) -> None:
    """§7.5: two Close effects aimed at one player close two distinct cards (Black Knight and
    Demon both hit seat 2's two Holy Empire cards)."""
    t = table("basic", 3)
    t.lay(2, up=["homesteaders", "knight-of-the-round-table"])
    t.reveal("black-knight", "demon", "great-oak")
    assert sorted(t.down(2)) == ["homesteaders", "knight-of-the-round-table"]
    assert t.up(2) == ["great-oak"]


def test_two_closes_with_one_eligible_card_close_one(table) -> None:
    """§0 'as many as possible': two Close effects, one eligible card -> exactly one closed."""
    t = table("basic", 3)
    t.lay(2, up=["homesteaders"])
    t.reveal("black-knight", "black-knight", "lich")
    assert t.tableau(2) == (["lich"], ["homesteaders"])


def test_maximal_matching_closes_both_cards(table) -> None:
    """§4.4 maximal matching: effects B = Demon (any non-Shadow; seat 0, resolved first in
    seat order) and A = Lich (Dragon Valley only) hit seat 2, who has one Dragon Valley card
    X (Sky Dancer Dragon, 3) and one other card Y (Town Guard, 4). The owner would rather
    spend the Demon on the cheaper X, which would leave the Lich nothing to take; as many
    effects as possible apply, so both X and Y are closed."""
    t = table("basic", 3)
    t.lay(2, up=["sky-dancer-dragon", "town-guard"])
    t.reveal("demon", "lich", "dark-pact")
    assert sorted(t.down(2)) == ["sky-dancer-dragon", "town-guard"]
    assert t.up(2) == ["dark-pact"]
    t.check_counts()


# --- game flow ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n_players", [2, 3, 4])
@pytest.mark.parametrize("policy", [Policy.RANDOM, Policy.GREEDY])
def test_beginner_start_and_first_round(cards, n_players, policy) -> None:
    """§0 Beginner rules: each player starts with one face-up card without Open/Close (pick 0,
    round 1); draft 1 deals 4 cards and play round 1 has 2 plays; picks are numbered 1..19;
    every player ends with 12 tableau cards."""
    rules = Rules(cards, "beginner")
    for game_id in range(6):
        game = play_reference(
            rules, default_weights(), [int(policy)] * n_players, 3, game_id, record=True
        )
        events = game.events
        starts = [e for e in events if e["event"] == "start_card"]
        assert [e["seat"] for e in starts] == list(range(n_players))
        for e in starts:
            assert cards.cards[cards.index[e["card"]]].effect["kind"] not in ("open", "close")
        deals = [e for e in events if e["event"] == "deal"]
        assert [len(e["cards"]) for e in deals if e["round"] == 1] == [4] * n_players
        assert [len(e["cards"]) for e in deals if e["round"] > 1] == [5] * (3 * n_players)
        reveals = defaultdict(int)
        for e in events:
            if e["event"] == "reveal":
                reveals[e["round"]] += 1
        assert dict(reveals) == {
            1: 2 * n_players,
            2: 3 * n_players,
            3: 3 * n_players,
            4: 3 * n_players,
        }
        for pl in game.players:
            assert [x.pick_no for x in pl.received] == list(range(20))
            assert [x.round for x in pl.received] == [1] * 5 + [2] * 5 + [3] * 5 + [4] * 5
            assert pl.received[0].slot == 0  # the starting card is the first tableau card
            assert pl.tableau[0].card == pl.received[0].card
            assert len(pl.tableau) == 12


def test_beginner_redraw_happens_and_still_gives_plain_cards(cards) -> None:
    """§0 Beginner rules: a starting card with Open/Close goes back and the player draws
    again. Find games whose shuffled deck has such a card among the first cards and check the
    start cards are still plain."""
    rules = Rules(cards, "beginner")
    redrawn = 0
    for game_id in range(40):
        deck = list(rules.deck)
        GameRng(9, game_id).shuffle(deck)
        if any(rules.effect(c)["kind"] in ("open", "close") for c in deck[:3]):
            redrawn += 1
            game = play_reference(rules, default_weights(), [0, 0, 0], 9, game_id)
            for pl in game.players:
                assert rules.effect(pl.received[0].card)["kind"] not in ("open", "close")
    assert redrawn >= 5


def _hands_consistent(events, n_players, rnd, direction) -> bool:
    """Replay the draft of round ``rnd`` from the deal and pick events, passing hands to
    seat + ``direction``; True if every pick comes from the hand the seat holds."""
    hands = {
        e["seat"]: list(e["cards"]) for e in events if e["event"] == "deal" and e["round"] == rnd
    }
    picks = [e for e in events if e["event"] == "pick" and e["round"] == rnd]
    hand_size = len(hands[0])
    for step in range(hand_size):
        for e in picks[step * n_players : (step + 1) * n_players]:
            if e["card"] not in hands[e["seat"]]:
                return False
            hands[e["seat"]].remove(e["card"])
        hands = {(p + direction) % n_players: h for p, h in hands.items()}
    return all(not h for h in hands.values())


@pytest.mark.parametrize("n_players", [3, 4])
def test_pass_directions(cards, n_players) -> None:
    """§0 / §3 draft: hands pass left (to seat + 1) in rounds 1 and 3 and right (seat - 1) in
    rounds 2 and 4. With random picks, the hand a seat drafts from at pick k+1 is the hand of
    its neighbour at pick k minus that neighbour's pick; the other direction contradicts the
    recorded picks."""
    rules = Rules(cards, "basic")
    for game_id in range(5):
        game = play_reference(rules, default_weights(), [0] * n_players, 11, game_id, record=True)
        for rnd in (1, 2, 3, 4):
            left = rnd in (1, 3)
            right_dir, wrong_dir = (1, -1) if left else (-1, 1)
            assert _hands_consistent(game.events, n_players, rnd, right_dir)
            assert not _hands_consistent(game.events, n_players, rnd, wrong_dir)
