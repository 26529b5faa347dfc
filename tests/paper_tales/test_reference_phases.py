"""Phase rules of ``reference/`` (``docs/rules/paper-tales.md`` §2, §2.9, §8; bare §N
cites that page) on constructed positions: draft order and direction, the 2-player draft,
deployment options, payment, keep-one, the 5th spot, land cost, direct level 2 under both §8
options, Temple gold, war ties, the 2-player war, the score floor, the tie-break,
reshuffles."""

from __future__ import annotations

import dataclasses

import pytest

from talesim.simcore.games.paper_tales.policies import default_weights
from talesim.simcore.games.paper_tales.reference import (
    STOP,
    Game,
    Move,
    Rules,
    play_reference,
    winners,
)

TOWN = 0


def bidx(t, name: str) -> int:
    return t.rules.cards.building_index[name]


# --- §2.1 Recruitment -------------------------------------------------------------------------


@pytest.mark.parametrize(("turn", "giver"), [(1, -1), (2, +1)])
def test_draft_passes_to_the_next_seat_in_odd_turns(table, monkeypatch, turn, giver) -> None:
    """Everyone takes the first card of the pack it holds. Turn 1 passes to seat+1, so at
    step k seat p picks from the pack dealt to seat p - (k-1); turn 2 the other way."""
    t = table(players=3)
    g = t.game
    g.turn = turn
    top = g.deck[::-1]
    dealt = [top[5 * p : 5 * p + 5] for p in range(3)]  # seat 0 gets the top 5, ...
    monkeypatch.setattr(g.brain, "draft_pick", lambda p, pack: 0)
    g.recruitment()
    for p in range(3):
        expected = [dealt[(p + giver * k) % 3][k] for k in range(5)]
        assert g.players[p].hand == expected


def test_two_player_draft_keeps_one_and_discards_one_per_step(table) -> None:
    """9 cards each: 9 -> 7 -> 5 -> 3 -> 1; 5 drafted, 4 discarded per seat."""
    t = table(players=2, policies="random")
    t.game.recruitment()
    for pl in t.game.players:
        assert len(pl.hand) == 5
    assert len(t.game.discard) == 8
    assert t.game.events[-1]["discarded"].__len__() == 4


def test_kept_card_joins_the_next_hand(table) -> None:
    t = table(players=3)
    t.hand(0, "kraken")
    t.seat(0).gold = 0
    t.game.deployment()
    assert t.seat(0).kept is not None
    kraken = t.seat(0).kept
    t.game.turn = 2
    t.game.recruitment()
    assert t.seat(0).hand[-1] == kraken
    assert len(t.seat(0).hand) == 6


# --- §2.2 Deployment --------------------------------------------------------------------------


def test_deployment_options_in_documented_order(table) -> None:
    """STOP; per affordable hand card: first empty Front, first empty Back, each old unit's
    spot; then moves of old units to each empty spot (either row); then removals."""
    t = table()
    t.put(0, 0, "knight")
    t.put(0, 3, "farmer")
    t.hand(0, "veteran", "kraken", "archer")  # the Kraken (6) is not affordable with 3 G
    g = t.game
    g.extra_open = [g.open_spots(p) for p in range(3)]
    assert g.moves(0) == [
        STOP,
        Move("place", 0, 1), Move("place", 0, 4), Move("place", 0, 0), Move("place", 0, 3),
        Move("place", 2, 1), Move("place", 2, 4), Move("place", 2, 0), Move("place", 2, 3),
        Move("move", 0, 1), Move("move", 0, 4), Move("move", 3, 1), Move("move", 3, 4),
        Move("remove", 0), Move("remove", 3),
    ]  # fmt: skip


def test_a_unit_in_play_moves_to_any_empty_spot_once(table) -> None:
    """§2.2 "move them freely between spots": an old Knight on spot 0, spots 1, 3, 4 empty:
    it may go to 4, the Back row's second empty spot; after the move it has no more MOVE
    options this phase (once a phase) but may still be removed."""
    t = table()
    g = t.game
    t.put(0, 0, "knight")
    g.extra_open = [g.open_spots(p) for p in range(3)]
    options = g.moves(0)
    assert [m for m in options if m.kind == "move"] == [
        Move("move", 0, 1), Move("move", 0, 3), Move("move", 0, 4),
    ]  # fmt: skip
    g.apply_move(0, Move("move", 0, 4))
    assert t.units(0) == [None, None, None, None, ("knight", 0)]
    assert g.moves(0) == [STOP, Move("remove", 4)]


def test_removing_a_unit_in_deployment_is_not_a_death(table) -> None:
    """§2.2 "discard them to make room" + §8 [P] (``deploy_discard = "not_death"``): an old
    Sculptor (1 A) removed without a card taking its spot scores no +3, its token goes with
    it, the spot is empty, the card is on the discard pile with fate ``replaced``."""
    t = table()
    g = t.game
    sculptor = t.put(0, 3, "sculptor", age=1).card
    g.extra_open = [g.open_spots(p) for p in range(3)]
    assert Move("remove", 3) in g.moves(0)
    g.apply_move(0, Move("remove", 3))
    assert t.units(0)[3] is None
    g.reveal()
    assert t.seat(0).parts["aging"] == 0
    assert g.discard[-1] == sculptor
    assert t.seat(0).log[sculptor].fate == "replaced"
    assert t.event("remove", 0)["unit"] == t.rules.card_id(sculptor)


def test_removing_a_unit_under_deploy_discard_death_is_a_death(table) -> None:
    """``deploy_discard = "death"``: a removed Sculptor scores its +3, as a replaced one."""
    t = table(deploy_discard="death")
    t.put(0, 3, "sculptor", age=1)
    t.game.extra_open = [t.game.open_spots(p) for p in range(3)]
    t.game.apply_move(0, Move("remove", 3))
    t.game.reveal()
    assert t.seat(0).parts["aging"] == 3


def test_deployment_options_reach_their_bound(table, cards) -> None:
    """The most options a step can have: 5 open spots (a level-2 building), 3 old units,
    2 empty spots, 6 payable hand cards: 1 STOP + 6 x (2 + 3) PLACE + 3 x 2 MOVE +
    3 REMOVE = 40 <= MAX_DEPLOY_OPTIONS (54); the kernel lists the same 40 options."""
    from talesim.simcore.games.paper_tales.tables import MAX_DEPLOY_OPTIONS

    t = table()
    g = t.game
    t.build(0, barracks=2)
    for spot in (0, 2, 3):
        t.put(0, spot, "farmer")
    t.hand(0, "knight", "veteran", "archer", "blacksmith", "cook", "woodcutter")
    t.seat(0).gold = 9
    g.extra_open = [g.open_spots(p) for p in range(3)]
    options = g.moves(0)
    assert len(options) == 40 <= MAX_DEPLOY_OPTIONS
    assert [m.kind for m in options].count("remove") == 3
    assert kernel_moves(cards, g) == [(m.kind, m.a, m.b) for m in options]


def kernel_moves(cards, g) -> list[tuple[str, int, int]]:
    """The kernel's ``moves`` for seat 0 of the reference game ``g`` (its spots, hand, gold
    and levels copied): (kind, a, b) per option."""
    import numpy as np

    from talesim.simcore.games.paper_tales import kernel as k
    from talesim.simcore.games.paper_tales.engine import prepare
    from talesim.simcore.games.paper_tales.evaluate.records import kernel_tables

    prepared = prepare(cards, "base", 3, ["greedy"] * 3, False)
    tb = kernel_tables(prepared.tables)
    s = k.new_state(3, tb.deck.shape[0], tb.bt.shape[0], tb.ut.shape[0])
    k._new_game(tb, s, 3, np.uint64(1), 0)
    pl = g.players[0]
    for spot, sl in enumerate(pl.spots):
        if sl is not None:
            s.sp[0, spot] = (sl.card, tb.deck[sl.card], sl.age, int(sl.fresh), 1, int(sl.moved))
    s.hand[0, : len(pl.hand)] = pl.hand
    s.pi[0, k.I_HAND_N] = len(pl.hand)
    s.pi[0, k.I_GOLD] = pl.gold
    s.blevel[0, : len(pl.blevel)] = pl.blevel
    s.pi[0, k.I_EXTRA] = k._opens_extra(tb, s, 0)
    kinds = {k.M_STOP: "stop", k.M_PLACE: "place", k.M_MOVE: "move", k.M_REMOVE: "remove"}
    return [(kinds[int(o[0])], int(o[1]), int(o[2])) for o in s.opt[: k.moves(tb, s, 0)]]


def test_keep_at_most_one_card(table) -> None:
    """Nothing affordable (0 G, costs >= 1): nothing placed, one card kept, 4 discarded."""
    t = table()
    t.seat(0).gold = 0
    t.hand(0, "knight", "knight", "miner", "commander", "kraken")
    t.game.deployment()
    pl = t.seat(0)
    assert all(sl is None for sl in pl.spots)
    assert pl.kept is not None
    assert len(t.game.discard) == 4
    assert sorted(pl.log[c].fate for c in t.game.discard) == ["not_deployed"] * 4


def test_unpaid_unit_is_discarded(table) -> None:
    """2 G: Knight (1, spot 0) is paid first, Commander (2, spot 1) cannot be: discarded."""
    t = table()
    t.seat(0).gold = 2
    t.put(0, 0, "knight", fresh=True)
    commander = t.put(0, 1, "commander", fresh=True).card
    t.game.reveal()
    assert t.units(0)[:2] == [("knight", 0), None]
    assert t.seat(0).gold == 1
    assert t.game.discard == [commander]
    assert t.seat(0).log[commander].fate == "unpaid"


def test_fifth_spot_opens_with_a_level_2_building(table) -> None:
    """Front spots 0 and 1 taken: spot 2 only with a level-2 building."""
    t = table()
    g = t.game
    t.put(0, 0, "farmer")
    t.put(0, 1, "farmer")
    t.hand(0, "knight")
    g.extra_open = [g.open_spots(p) for p in range(3)]
    assert Move("place", 0, 2) not in g.moves(0)
    t.build(0, barracks=2)
    g.extra_open = [g.open_spots(p) for p in range(3)]
    assert g.moves(0)[1] == Move("place", 0, 2)


def test_golem_upgrade_opens_the_fifth_spot_only_next_deployment(table, monkeypatch) -> None:
    """The spots are fixed when the phase starts: a Golem's level 2 comes after placement."""
    t = table()
    t.build(0, temple=1)
    t.hand(0, "golem", "knight")
    g = t.game
    g.deployment()
    assert g.extra_open[0] == ([0, 1], [3, 4])
    assert t.level(0, "temple") == 2
    assert g.open_spots(0) == ([0, 1, 2], [3, 4])


def test_greedy_fills_the_fifth_spot(table) -> None:
    t = table()
    t.build(0, barracks=2)
    t.hand(0, "knight", "knight", "knight")
    t.game.deployment()
    assert [u and u[0] for u in t.units(0)[:3]] == ["knight"] * 3


# --- §2.5 Construction ------------------------------------------------------------------------


@pytest.mark.parametrize("owned", [0, 1, 2, 3])
def test_land_cost_is_two_gold_per_building_owned(table, owned) -> None:
    t = table()
    t.put(0, 3, "forest-spirit")
    t.build(0, **dict(list({"tavern": 1, "mine": 2, "temple": 1}.items())[:owned]))
    assert t.game.payment(0, TOWN, 1, False) == 2 * owned


def test_upgrade_pays_no_land_cost_unless_the_option_says_so(table) -> None:
    t = table()
    t.put(0, 3, "forest-spirit")
    t.build(0, town=1, tavern=1, mine=1)
    assert t.game.payment(0, TOWN, 2, True) == 0
    t = table(land_cost_on_upgrade=True)
    t.put(0, 3, "forest-spirit")
    t.build(0, town=1, tavern=1, mine=1)
    assert t.game.payment(0, TOWN, 2, True) == 6


@pytest.mark.parametrize(("rule", "gold"), [("sum", None), ("max", 0)])
def test_direct_level_2_requirement_options(table, rule, gold) -> None:
    """Town direct L2 with 2 W (2 Woodcutters): sum = 1 W + 2 W = 3 W (missing 1: no way to
    pay it); max = 2 W (met)."""
    t = table(direct_level2_requirement=rule)
    t.put(0, 3, "woodcutter")
    t.put(0, 4, "woodcutter")
    assert t.game.payment(0, TOWN, 2, False) == gold


def test_temple_gold_instead_of_crystals(table) -> None:
    """No crystal: L1 2 G, direct L2 2 + 3 G, upgrade 3 G. One crystal (Miner): L1 free;
    direct L2 (1 C + 2 C) -> level 1 by its crystal, level 2 by 3 G."""
    t = table()
    temple = bidx(t, "temple")
    assert t.game.payment(0, temple, 1, False) == 2
    assert t.game.payment(0, temple, 2, False) == 5
    t.build(0, temple=1)
    assert t.game.payment(0, temple, 2, True) == 3
    t = table()
    t.put(0, 3, "miner")
    assert t.game.payment(0, temple, 1, False) == 0
    assert t.game.payment(0, temple, 2, False) == 3


def test_construction_one_action_and_records(table) -> None:
    """Greedy with wood and gold builds one building; its log records the turn."""
    t = table()
    t.put(0, 3, "forest-spirit")
    t.seat(0).gold = 20
    t.game.construction()
    built = [b for b, lv in enumerate(t.seat(0).blevel) if lv]
    assert len(built) == 1
    log = t.seat(0).buildings[built[0]]
    assert log.turn_built == 1
    assert log.level == t.seat(0).blevel[built[0]]


# --- §2.3 Wars and §2.9 2 players -------------------------------------------------------------


def test_war_tie_wins_for_both(table) -> None:
    """Knights 4 vs 4 vs 4: everyone wins both wars."""
    t = table()
    for p in range(3):
        t.put(p, 0, "knight")
    t.game.wars()
    assert [pl.parts["wars"] for pl in t.game.players] == [6, 6, 6]


def test_four_players_fight_only_their_neighbours(table) -> None:
    """Seat 0 (4) against seats 3 (9) and 1 (0): one war won; seat 2 (0) ties seat 1 (0)
    and loses to seat 3: one; seat 3 wins both."""
    t = table(players=4)
    t.put(0, 0, "knight")
    t.put(3, 0, "kraken")
    t.game.wars()
    assert [pl.wars_won for pl in t.game.players] == [1, 1, 1, 2]


@pytest.mark.parametrize(
    ("mine", "theirs", "lp"),
    [("knight", "archer", 6), ("knight", "rogue", 3), (None, None, 0), ("archer", "knight", 0)],
)
def test_two_player_single_war(table, mine, theirs, lp) -> None:
    """§2.9: > 0 and >= the opponent's: 3 LP, 6 LP at >= 2x; 0-0 scores nothing."""
    t = table(players=2)
    if mine:
        t.put(0, 0, mine)
    if theirs:
        t.put(1, 0, theirs)
    t.game.wars()
    assert t.seat(0).parts["wars"] == lp


def test_two_player_per_war_won_once(table) -> None:
    """Commander 4 against 0: 4 >= 2 x 0, so 6 LP, and its +1 LP once."""
    t = table(players=2)
    t.put(0, 0, "commander")
    t.game.wars()
    assert (t.seat(0).parts["wars"], t.seat(0).parts["per_war_won"]) == (6, 1)


# --- §2.7 End -------------------------------------------------------------------------------


def test_score_floor_keeps_the_marker_at_zero(table) -> None:
    """1 LP, Demon dies with 1 A: -3 -> marker 0, floor gives back 2; the breakdown (with
    ``floor``) still sums to the marker; later LP count from 0."""
    t = table()
    pl = t.seat(0)
    pl.lp = pl.parts["wars"] = 1
    t.put(0, 0, "demon", age=1)
    t.game.aging()
    assert (pl.lp, pl.parts["aging"], pl.parts["floor"]) == (0, -3, 2)
    assert sum(pl.parts.values()) == pl.lp
    t.game.wars()
    assert pl.lp == 6


def test_tie_break_most_gold_then_shared() -> None:
    assert winners([10, 10, 5], [2, 3, 9]) == [1]
    assert winners([10, 10, 5], [3, 3, 9]) == [0, 1]
    assert winners([0, 4], [9, 0]) == [1]


def test_shared_win_is_split(table) -> None:
    t = table()
    for pl in t.game.players:
        pl.gold = 4
    t.game.end()
    assert [pl.win for pl in t.game.players] == pytest.approx([1 / 3] * 3)


def test_five_players_reshuffle_the_discard_pile(cards) -> None:
    """25 cards a turn: the pile runs out in turn 4 and the discard pile is shuffled in."""
    game = play_reference(Rules(cards, 5), default_weights(), [1] * 5, 3, 0, check=True)
    assert game.reshuffles >= 1
    assert isinstance(game, Game)


# --- §8 options not covered above -------------------------------------------------------------


def test_deploy_discard_as_death_option(table) -> None:
    """``deploy_discard = "death"``: a Sculptor replaced in Deployment scores its +3."""
    t = table(deploy_discard="death")
    t.put(0, 3, "sculptor", age=1)
    t.hand(0, "knight")
    t.game.extra_open = [t.game.open_spots(p) for p in range(3)]
    t.game.apply_move(0, Move("place", 0, 3))
    t.game.reveal()
    assert t.seat(0).parts["aging"] == 3
    assert t.seat(0).lp == 3


def test_keep_zero_keeps_nothing(table) -> None:
    t = table(keep=0)
    t.seat(0).gold = 0
    t.hand(0, "knight", "kraken")
    t.game.deployment()
    assert t.seat(0).kept is None
    assert len(t.game.discard) == 2


def test_five_players_need_the_reshuffle(cards) -> None:
    opts = dict(cards.rules.options, reshuffle_discard=False)
    no_shuffle = dataclasses.replace(cards, rules=dataclasses.replace(cards.rules, options=opts))
    Rules(no_shuffle, 4)
    with pytest.raises(ValueError, match="reshuffle_discard must be true"):
        Rules(no_shuffle, 5)


# --- §2.2 Deployment: card replacement before "your other units" ------------------------------


@pytest.mark.parametrize(("necromancer", "shapeshifter"), [(0, 1), (1, 0)])
def test_other_units_tokens_reach_the_shapeshifters_unit_whatever_the_spots(
    table, cards, necromancer, shapeshifter
) -> None:
    """Legends rulebook restating §2.2: "your other units" = every unit in the kingdom at
    the end of the phase, those deployed this round included. Necromancer and Shapeshifter
    deployed the same turn, old Knight on spot 3; the draw pile's top is a Blacksmith (cost
    0): the Shapeshifter resolves first and becomes the Blacksmith with 1 A, then the
    Necromancer puts 1 A on each other unit: Blacksmith 1 + 1 = 2, Knight 1, Necromancer 0
    -- in both spot orders. The reference, then the kernel on the same position."""
    t = table()
    g = t.game
    t.seat(0).gold = 1  # the Necromancer's cost
    t.put(0, necromancer, "necromancer", fresh=True)
    t.put(0, shapeshifter, "shapeshifter", fresh=True)
    t.put(0, 3, "knight")
    blacksmith = t.take("blacksmith")
    g.deck.append(blacksmith)  # top = end
    g.reveal()
    want: list[tuple[str, int] | None] = [None] * 5
    want[necromancer] = ("necromancer", 0)
    want[shapeshifter] = ("blacksmith", 2)
    want[3] = ("knight", 1)
    assert t.units(0) == want
    assert kernel_reveal(cards, necromancer, shapeshifter) == [
        (u, a) for u, a in (w or (None, 0) for w in want)
    ]


def kernel_reveal(cards, necromancer: int, shapeshifter: int) -> list[tuple[str | None, int]]:
    """The kernel's ``_reveal`` on the test's position (seat 0 of 3, turn 1): (unit, tokens)
    per spot, (None, 0) for an empty one."""
    import numpy as np

    from talesim.simcore.games.paper_tales import kernel as k
    from talesim.simcore.games.paper_tales.engine import prepare
    from talesim.simcore.games.paper_tales.evaluate.records import kernel_tables

    prepared = prepare(cards, "base", 3, ["greedy"] * 3, False)
    tb = kernel_tables(prepared.tables)
    deck, ids = tb.deck, cards.ids()
    s = k.new_state(3, deck.shape[0], tb.bt.shape[0], tb.ut.shape[0])
    s.pi[:3, k.I_POLICY] = 1
    k._new_game(tb, s, 3, np.uint64(1), 0)

    def card_of(unit: str) -> int:
        return int(np.flatnonzero(deck == ids.index(unit))[0])

    placed = {necromancer: "necromancer", shapeshifter: "shapeshifter", 3: "knight"}
    taken = [card_of(u) for u in placed.values()]
    top = card_of("blacksmith")
    rest = [c for c in s.deck[: s.g[k.G_DECK_N]] if c not in taken and c != top]
    s.deck[: len(rest) + 1] = [*rest, top]
    s.g[k.G_DECK_N] = len(rest) + 1
    s.pi[0, k.I_GOLD] = 1
    for (spot, unit), card in zip(placed.items(), taken, strict=True):
        k._receive(s, 0, card, deck[card], 1, 1)
        fresh = int(unit != "knight")
        s.sp[0, spot] = (card, deck[card], 0, fresh, 1 - fresh, 0)
    k._reveal(tb, prepared.weights, s, 3, 1)
    return [
        (ids[s.sp[0, spot, k.S_UNIT]], int(s.sp[0, spot, k.S_AGE]))
        if s.sp[0, spot, k.S_CARD] >= 0
        else (None, 0)
        for spot in range(5)
    ]
