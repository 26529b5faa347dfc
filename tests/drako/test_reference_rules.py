"""Rules-engine tests on ``reference/``: setup, turns, Legends, reshuffle, end.

Rules (sections of ``docs/rules/drako.md``, as every §N below): §3 (setup), §4 (turn,
placement limits, reshuffle, Legends), §8 (end). Turns are scripted: the test replaces the
player's decisions, so each test plays exactly the action it names.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from talesim.simcore.games.drako.policies import Policy, default_weights
from talesim.simcore.games.drako.reference import Action, DrakoGame, Rules, Slot, Source
from talesim.simcore.games.drako.tables import BORDER, CELLS, CENTRE, KINDS

K = {name: i for i, name in enumerate(KINDS)}


def script(game: DrakoGame, source: Source, cell: int, reveal: bool = False, before=None) -> None:
    """The next turns play ``source`` on ``cell``; Legends: ``before`` (a river slot or None)
    before the action, the first claimable one after it."""
    brain = game.brain
    brain.choose_source = lambda p, sources: (source, None)
    brain.choose_action = lambda p, card, actions: actions.index(Action(source, cell, reveal))
    brain.claim_before = lambda p, slots, src, action: before
    brain.claim_after = lambda p, slots: slots[0]


def fill(game: DrakoGame, p: int, text: str) -> None:
    """Give player ``p`` a kingdom from a 16-letter string (upper: face up, lower: down),
    keeping card conservation: the old cards go back into the deck and the new ones come
    out of it (or, when the deck has none left, from another player's face-down cards,
    which get a deck card of another kind instead)."""
    letters = {"P": "plain", "F": "forest", "M": "mountain", "S": "swamp", "H": "human",
               "E": "elf", "D": "dwarf", "G": "goblin", "R": "dragon", "O": "portal"}  # fmt: skip
    tokens = text.split()
    assert len(tokens) == CELLS
    pl = game.players[p]
    game.deck += [s.kind for s in pl.kingdom]
    pl.kingdom = []
    for t in tokens:
        k = K[letters[t.upper()]]
        if k not in game.deck:
            donor = next(
                s for q in game.players if q is not pl for s in q.kingdom
                if s.kind == k and not s.face_up
            )  # fmt: skip
            other = next(i for i, c in enumerate(game.deck) if c != k)
            donor.kind = game.deck.pop(other)
            game.deck.append(k)
        game.deck.remove(k)
        pl.kingdom.append(Slot(k, t.isupper()))
    assert game.cards_in_play() == game.rules.copies


def with_options(data, players: int = 2, preset: str = "brief", **changes) -> Rules:
    p = data.presets[preset]
    options = dataclasses.replace(p.options, **changes)
    changed = dataclasses.replace(data, presets={preset: dataclasses.replace(p, options=options)})
    return Rules(changed, preset, players)


@pytest.fixture
def big_game(data, new_game):
    """A 2-player game dealt from the 80-card (4-player) deck: room for any test kingdom."""

    def make(**kw):
        preset = kw.pop("preset", "brief")
        return new_game(players=2, rules=kw.pop("rules", None) or Rules(data, preset, 4), **kw)

    return make


def legend_slot(game: DrakoGame, legend_id: str, slot: int = 0) -> None:
    """Put Legend ``legend_id`` in river slot ``slot`` (swapping it with wherever it is)."""
    g = next(i for i, lg in enumerate(game.rules.legends) if lg.id == legend_id)
    where = game.river if g in game.river else game.legend_deck
    i = where.index(g)
    where[i], game.river[slot] = game.river[slot], g


# --- §3 setup --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(2, 40), (3, 60), (4, 80)])
def test_setup_counts(new_game, players: int, size: int) -> None:
    game = new_game(players=players, seed=11, game_id=players)
    assert sum(game.cards_in_play().values()) == size
    for pl in game.players:
        assert len(pl.kingdom) == CELLS
        assert [pl.kingdom[c].face_up for c in CENTRE] == [True] * 4
        assert len({pl.kingdom[c].kind for c in CENTRE}) == 4  # 4 distinct kinds
        assert pl.face_down() == list(BORDER)  # 12 face down around the centre
    assert len(game.discard) == 1
    assert len(game.deck) == size - 16 * players - 1
    assert len(game.river) == 8
    assert len(game.legend_deck) == 7
    assert len(set(game.river) | set(game.legend_deck)) == 15


def test_centre_distinct_over_many_seeds(new_game) -> None:
    """§3: the 4 centre cards are always 4 different kinds (duplicates set aside)."""
    for g in range(200):
        game = new_game(players=4, seed=3, game_id=g)
        for pl in game.players:
            assert len({pl.kingdom[c].kind for c in CENTRE}) == 4
        assert game.cards_in_play() == game.rules.copies


def test_centre_duplicates_allowed_without_the_option(data, new_game) -> None:
    rules = with_options(data, players=4, setup_center_distinct=False)
    dupes = sum(
        len({pl.kingdom[c].kind for c in CENTRE}) < 4
        for g in range(100)
        for pl in new_game(players=4, game_id=g, rules=rules).players
    )
    assert dupes > 0


# --- §4.3 placement limits ------------------------------------------------------------------


def test_face_up_dragon_and_portal_are_locked_face_down_ones_are_not(big_game) -> None:
    game = big_game()
    fill(game, 0, "R O P F  r o p f  M M M M  S S S S")
    cells = {a.cell for a in game.legal_actions(0, Source.DISCARD, K["human"])}
    assert 0 not in cells  # face-up dragon: locked
    assert 1 not in cells  # face-up portal: locked
    assert {2, 3, 4, 5, 6, 7} <= cells  # face-down dragon and portal can be replaced


def test_no_replacing_a_face_up_card_by_the_same_kind(data, big_game) -> None:
    game = big_game()
    fill(game, 0, "F P M S  f p m s  H E D G  h e d g")
    cells = {a.cell for a in game.legal_actions(0, Source.DECK, K["forest"]) if not a.reveal}
    assert 0 not in cells  # Forest on a face-up Forest: refused
    assert {1, 2, 3, 4} <= cells  # Forest on Plain (another land) and on face-down Forest: fine
    loose = big_game(rules=with_options(data, players=4, replace_same_kind_forbidden=False))
    fill(loose, 0, "F P M S  f p m s  H E D G  h e d g")
    assert 0 in {a.cell for a in loose.legal_actions(0, Source.DECK, K["forest"])}


def test_taken_discard_must_be_placed(big_game) -> None:
    """§4.1 A: no reveal option when taking the discard; B lists every face-down cell."""
    game = big_game()
    assert not any(a.reveal for a in game.legal_actions(0, Source.DISCARD, K["plain"]))
    reveals = [a.cell for a in game.legal_actions(0, Source.DECK, K["plain"]) if a.reveal]
    assert reveals == list(BORDER)


def test_take_discard_and_place_sends_the_replaced_card_to_the_discard(big_game) -> None:
    game = big_game()
    top = game.discard[-1]
    old = game.players[0].kingdom[0].kind
    script(game, Source.DISCARD, 0)
    game.take_turn()
    slot = game.players[0].kingdom[0]
    assert (slot.kind, slot.face_up, slot.replaced, slot.turn_placed) == (top, True, True, 1)
    assert game.discard[-1] == old
    assert game.cards_in_play() == game.rules.copies
    assert game.current == 1


def test_draw_discard_and_reveal(big_game) -> None:
    game = big_game()
    drawn = game.deck[-1]
    hidden = game.players[0].kingdom[15].kind
    script(game, Source.DECK, 15, reveal=True)
    game.take_turn()
    slot = game.players[0].kingdom[15]
    assert (slot.kind, slot.face_up, slot.replaced) == (hidden, True, False)
    assert game.discard[-1] == drawn


# --- §4.4 reshuffle ---------------------------------------------------------------------------


def test_reshuffle_keeps_the_top_discard(big_game) -> None:
    game = big_game()
    while len(game.deck) > 1:  # move cards to the discard pile, keeping conservation
        game.discard.insert(0, game.deck.pop(0))
    pile_before = Counter(game.discard)
    replaced = game.players[0].kingdom[0].kind
    script(game, Source.DECK, 0)  # draw the last card, place it on cell 0
    game.take_turn()
    assert game.discard == [replaced]  # the top discard stays
    assert Counter(game.deck) == pile_before  # everything else became the draw pile
    assert game.cards_in_play() == game.rules.copies


def test_reshuffle_of_the_whole_pile_without_keep_top(data, big_game) -> None:
    game = big_game(rules=with_options(data, players=4, reshuffle_discard_keep_top=False))
    while len(game.deck) > 1:
        game.discard.insert(0, game.deck.pop(0))
    script(game, Source.DECK, 0)
    game.take_turn()
    assert game.discard == []
    assert game.sources() == [Source.DECK]
    assert game.cards_in_play() == game.rules.copies


# --- §4.5 Legends -------------------------------------------------------------------------------


def test_at_most_one_legend_per_turn_and_river_refill(big_game) -> None:
    game = big_game()
    fill(game, 0, "H E H D  p p p p  m m m m  s s s s")  # meets human-elf, human-dwarf, human-pair
    for slot, lid in enumerate(("human-elf", "human-dwarf", "human-pair")):
        legend_slot(game, lid, slot)
    next_legend = game.legend_deck[-1]
    script(game, Source.DECK, 4, reveal=True)
    game.take_turn()
    assert [game.rules.legends[c.legend].id for c in game.players[0].claims] == ["human-elf"]
    assert game.river[0] == next_legend  # refilled from the top of the legend deck
    game.current = 0
    script(game, Source.DECK, 5, reveal=True)
    game.take_turn()  # next turn: the next one
    assert len(game.players[0].claims) == 2


def test_legends_per_turn_option(data, big_game) -> None:
    game = big_game(rules=with_options(data, players=4, legends_per_turn=2))
    fill(game, 0, "H E H D  p p p p  m m m m  s s s s")
    for slot, lid in enumerate(("human-elf", "human-dwarf", "human-pair")):
        legend_slot(game, lid, slot)
    script(game, Source.DECK, 4, reveal=True)
    game.take_turn()
    assert len(game.players[0].claims) == 2


def test_legend_checked_on_face_up_cards_only(big_game) -> None:
    game = big_game()
    fill(game, 0, "H e p p  p p p p  m m m m  s s s s")  # the Elf is face down
    legend_slot(game, "human-elf")
    assert 0 not in game.claimable(0)
    game.players[0].kingdom[1].face_up = True
    assert 0 in game.claimable(0)


@pytest.mark.parametrize(("preset", "claimed"), [("brief", False), ("published", True)])
def test_goblins_reached_only_through_a_portal_give_no_battle_in_the_brief(
    big_game, preset, claimed
) -> None:
    """§6 / §5: Human 5 reaches Goblins 0 and 2 only across Portal 1. Brief (goblins use no
    portal): battle-goblin-human is not claimable; published (Game Park): it is, and the
    turn's claim takes it."""
    game = big_game(preset=preset)
    fill(game, 0, "G O G M  M H M M  p p f p  f f s f")
    legend_slot(game, "battle-goblin-human")
    assert (0 in game.claimable(0)) is claimed
    script(game, Source.DECK, 8, reveal=True)
    game.take_turn()
    ids = [game.rules.legends[c.legend].id for c in game.players[0].claims]
    assert ("battle-goblin-human" in ids) is claimed


def test_legend_kept_when_the_kingdom_changes(big_game) -> None:
    game = big_game()
    fill(game, 0, "H E p p  p p p p  m m m m  s s s s")
    legend_slot(game, "human-elf")
    script(game, Source.DECK, 4, reveal=True)
    game.take_turn()
    assert len(game.players[0].claims) == 1
    game.current = 0
    script(game, Source.DECK, 1)  # whatever replaces the Elf, the Legend stays
    game.take_turn()
    assert game.rules.legends[game.players[0].claims[0].legend].id == "human-elf"


def test_legend_deck_exhausted_leaves_the_slot_empty(big_game) -> None:
    game = big_game()
    fill(game, 0, "H E p p  p p p p  m m m m  s s s s")
    legend_slot(game, "human-elf")
    game.legend_deck.clear()
    script(game, Source.DECK, 4, reveal=True)
    game.take_turn()
    assert game.river[0] is None


# --- §8 end ----------------------------------------------------------------------------------


def test_end_immediately_after_the_last_reveal_with_final_reveal(big_game) -> None:
    """The action revealing the last face-down card ends the game at once; no claim after it
    (§4.5), though the one made before it in that turn stands; every other face-down card is
    revealed where it lies and scored."""
    game = big_game()
    fill(game, 0, "P P P M  M M M F  F F F S  S S S h")  # one face-down card left
    fill(game, 1, "H E m m  m m p p  p p f f  d d d d")
    legend_slot(game, "three-plains", 0)
    legend_slot(game, "human-elf", 1)
    hidden_1 = [s.kind for s in game.players[1].kingdom]
    script(game, Source.DECK, 15, reveal=True, before=0)
    game.take_turn()
    assert game.over
    assert game.players[0].ended_game
    assert not game.cap_hit
    assert [game.rules.legends[c.legend].id for c in game.players[0].claims] == ["three-plains"]
    assert game.current == 1  # ... but player 1 gets no turn:
    game.final_scoring()
    assert game.players[1].turns == 0
    assert all(s.face_up for pl in game.players for s in pl.kingdom)
    assert [s.kind for s in game.players[1].kingdom] == hidden_1  # revealed where they lie
    assert game.players[1].breakdown["legends"] == 0
    assert game.players[0].breakdown["legends"] == 4


def test_no_claim_after_the_final_reveal(big_game) -> None:
    game = big_game()
    fill(game, 0, "P P P M  M M M F  F F F S  S S H e")  # the last face-down card: cell 15
    legend_slot(game, "three-plains", 0)  # met before and after the action
    legend_slot(game, "human-elf", 1)  # met once the Elf next to the Human is revealed
    assert 0 in game.claimable(0)
    assert 1 not in game.claimable(0)
    script(game, Source.DECK, 15, reveal=True, before=None)
    game.take_turn()
    assert game.over
    assert game.players[0].claims == []  # neither is claimed after the final reveal
    game.final_scoring()
    met = {game.rules.legends[g].id for g in game.players[0].legends_met}
    assert {"human-elf", "three-plains"} <= met


def test_claim_after_final_reveal_option(data, big_game) -> None:
    game = big_game(rules=with_options(data, players=4, legend_claim_after_final_reveal=True))
    fill(game, 0, "H P P M  M M M F  F F F S  S S S e")
    legend_slot(game, "three-plains", 0)
    script(game, Source.DECK, 15, reveal=True)
    game.take_turn()
    assert len(game.players[0].claims) == 1


def test_placing_on_the_last_face_down_card_also_ends(big_game) -> None:
    game = big_game()
    fill(game, 0, "P P P M  M M M F  F F F S  S S S h")
    script(game, Source.DISCARD, 15)
    game.take_turn()
    assert game.over
    assert game.players[0].ended_game


def test_turn_cap_is_recorded(data) -> None:
    rules = Rules(data, "brief", 2)
    rules.max_turns = 5
    game = DrakoGame(rules, default_weights(), [Policy.RANDOM] * 2, 1, 0).run(check=True)
    assert game.cap_hit
    assert game.turn == 5
    assert not any(pl.ended_game for pl in game.players)
    assert all(s.face_up for pl in game.players for s in pl.kingdom)  # final reveal
    assert all(pl.score == sum(pl.breakdown.values()) for pl in game.players)


def test_random_player_claims_after_and_greedy_before_when_drawing(big_game) -> None:
    """Policy timing (README): random claims after its action; greedy, when it draws,
    claims before (the drawn card is unknown), else after unless its action breaks it."""
    for policy, when in ((Policy.RANDOM, "after"), (Policy.GREEDY, "before")):
        game = big_game(policies=[policy, policy], seed=5)
        fill(game, 0, "H E P F  p p p p  m m m m  s s s s")
        legend_slot(game, "human-elf")
        game.brain.choose_source = lambda p, s: (Source.DECK, None)
        game.take_turn()
        claims = game.players[0].claims
        assert claims, policy
        assert claims[0].when == when
