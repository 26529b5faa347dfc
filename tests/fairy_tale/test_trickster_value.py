"""The policies value a face-up Trickster the same way in every decision.

Rules (``docs/rules/fairy-tale.md``; a bare §N below cites it) §0 Adjustments and §5: a
face-up Trickster scores at the end as a copy of the card that maximises its owner's score,
with its -1 on top. The draft values it so (its -1 plus the best gain of a card it can
copy); the Open and Close decisions and the look-aheads of an Open or a Close (own effect,
collector's harm) must too, not at its printed -1. Each position is hand-built, resolved by
``reference/``, and the kernel's decision and look-ahead functions are run on the same
counts and must agree.
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.games.fairy_tale import kernel
from talesim.simcore.games.fairy_tale.engine import prepare, simulate_arrays
from talesim.simcore.games.fairy_tale.layout import (
    CAND,
    CNT,
    D_CLOSE,
    D_OPEN,
    DCNT,
    FCNT,
    MC,
    NF,
    SM_CNT,
    SM_DCNT,
)
from talesim.simcore.games.fairy_tale.policies import (
    Decision,
    Policy,
    choose_target,
    least_close_loss,
    open_gain,
)
from talesim.simcore.games.fairy_tale.reference import Rules, _shift, play_reference

GREEDY = int(Policy.GREEDY)


def _kernel_state(t) -> tuple[np.ndarray, kernel.GameState]:
    """The kernel's tables and a state holding the face-up and face-down counts (and their
    masks) of the reference game of ``t``."""
    g, r = t.game, t.rules
    kt = kernel.kernel_tables(r.tables)
    s = kernel.new_state(len(r.cards), len(r.deck))
    for p in range(g.n):
        s.cnt[p, : len(r.cards)] = g.up.cards[p]
        s.dcnt[p, : len(r.cards)] = g.down[p]
        s.fcnt[p] = g.up.factions[p]
        s.sm[SM_CNT + p] = sum(1 << c for c, k in enumerate(g.up.cards[p]) if k > 0)
        s.sm[SM_DCNT + p] = sum(1 << c for c, k in enumerate(g.down[p]) if k > 0)
    return kt, s


def _kernel_target(t, decision: int, p: int, options: list[str]) -> int:
    """``policies.choose_target``'s pick among ``options`` (card ids) for seat ``p``."""
    kt, s = _kernel_state(t)
    for i, cid in enumerate(options):
        s.flat[CAND + i] = t.ids[cid]
    own, ownf = CNT + p * MC, FCNT + p * NF
    held = s.sm[SM_CNT + p]
    n = t.game.n
    return int(choose_target(kt, s.flat, decision, CAND, len(options), own, ownf, held, n, p))


def _reference_target(t, decision: Decision, p: int, options: list[str]) -> int:
    g = t.game
    cs = [t.ids[cid] for cid in options]
    own, own_fc = g.up.cards[p], g.up.factions[p]
    return g.brain.choose(GREEDY, decision, cs, own, own_fc, g.down[p], g.up, p, p)


# --- Close: the Shadowking makes the Trickster's owner close one card -------------------------


def _shadowking_position(table):
    """Seat 0: the Trickster, a Priest (2) and an Imperial Castle (6) face up, reveals a Sky
    Dancer Dragon (3); seat 1 reveals the Shadowking: seat 0 closes one face-up card."""
    t = table("expert", 2)
    t.lay(0, up=["the-trickster", "priest", "imperial-castle"])
    return t


def test_shadowking_close_keeps_the_trickster_worth_its_best_copy(table) -> None:
    """§0 Trickster + §4 Close: closing the Priest loses 2, the Sky Dancer Dragon 3, the
    Castle 6, the Trickster its -1 plus its best copy (+6: a second Castle, or a Holy Empire
    or Dragon Valley chapter with the majority it makes) = 5. Greedy closes the Priest (at
    -1 it closed the Trickster). End: Castle 6 + Sky Dancer 3 + Trickster 6 - 1 = 14 (11 with
    the Trickster closed and the Priest up)."""
    t = _shadowking_position(table)
    t.reveal("sky-dancer-dragon", "shadowking")
    assert t.down(0) == ["priest"]
    assert t.up(0) == ["the-trickster", "imperial-castle", "sky-dancer-dragon"]
    t.check_counts()
    t.game.final_scoring()
    assert t.game.players[0].score == 14


def test_kernel_and_reference_close_the_same_card_next_to_a_trickster(table) -> None:
    """The kernel's Close decision (``choose_target``) picks the Priest too."""
    t = _shadowking_position(table)
    t.lay(0, up=["sky-dancer-dragon"])
    options = ["the-trickster", "priest", "imperial-castle", "sky-dancer-dragon"]
    assert _reference_target(t, Decision.CLOSE, 0, options) == 1
    assert _kernel_target(t, D_CLOSE, 0, options) == 1


def test_close_look_ahead_values_the_trickster_at_its_best_copy(table) -> None:
    """The Shadowking's look-ahead (collector's harm to the other players): seat 0 above would
    close its least-bad card, the Priest, losing 2 (at -1 the Trickster 'lost' -1). Kernel
    ``least_close_loss`` and reference agree."""
    t = _shadowking_position(table)
    t.lay(0, up=["sky-dancer-dragon"])
    g, e = t.game, t.ids["shadowking"]
    assert g.brain.least_close_loss(e, g.up.cards[0], g.up.factions[0], g.up, 0) == 2
    kt, s = _kernel_state(t)
    held = s.sm[SM_CNT]
    assert least_close_loss(kt, s.flat, e, CNT, FCNT, held, 2, 0, False, -1, 0) == 2


# --- Open: Dark Pact opens one own face-down card of any faction ------------------------------


def _dark_pact_position(table):
    """Seat 0: an Imperial Castle face up; the Trickster and a Priest face down."""
    t = table("expert", 2)
    t.lay(0, up=["imperial-castle"], down=["the-trickster", "priest"])
    return t


def test_dark_pact_opens_the_trickster_worth_its_best_copy(table) -> None:
    """§0 Trickster + §4 Open: opening the Priest gains 2, the Trickster its -1 plus its best
    copy (+6: a second Castle, or a chapter whose majority it makes) = 5. Greedy opens the
    Trickster (at -1 it opened the Priest). End: Castle 6 + Dark Pact -2 + Trickster 6 - 1 =
    9 (6 with the Priest opened instead)."""
    t = _dark_pact_position(table)
    t.reveal("dark-pact", "sky-dancer-dragon")
    assert t.up(0) == ["imperial-castle", "the-trickster", "dark-pact"]
    assert t.down(0) == ["priest"]
    t.check_counts()
    t.game.final_scoring()
    assert t.game.players[0].score == 9


def test_kernel_and_reference_open_the_same_card(table) -> None:
    """The kernel's Open decision (``choose_target``) opens the Trickster too."""
    t = _dark_pact_position(table)
    t.lay(0, up=["dark-pact"])
    options = ["the-trickster", "priest"]
    assert _reference_target(t, Decision.OPEN, 0, options) == 0
    assert _kernel_target(t, D_OPEN, 0, options) == 0


def test_open_look_ahead_values_the_trickster_at_its_best_copy(table) -> None:
    """Playing the Dark Pact is looked ahead as opening the Trickster: +5 (at -1 the Priest's
    +2). Kernel ``open_gain`` and reference agree."""
    t = _dark_pact_position(table)
    g, r, e = t.game, t.rules, t.ids["dark-pact"]
    own, own_fc = g.up.cards[0], g.up.factions[0]
    _shift(r, own, own_fc, e, 1)  # the Open card is counted, as when it is revealed
    assert g.brain.open_gain(e, own, own_fc, g.down[0], g.up, 0) == 5
    kt, s = _kernel_state(t)
    held, face_down = s.sm[SM_CNT], s.sm[SM_DCNT]
    assert open_gain(kt, s.flat, e, CNT, FCNT, held, DCNT, face_down, 2, 0, False) == 5


# --- the narrated game ------------------------------------------------------------------------


def test_narrated_game_closes_the_priest_not_the_trickster(cards) -> None:
    """``talesim play fairy-tale --seed 1 --game 2 --players 4 --policy
    greedy,collector,random,greedy --variant expert``: in round 3, step 2, the Shadowking
    makes seat 0 close a card; it closes the Priest and keeps the Trickster, which ends as a
    Knight of the Round Table (3 - 1, and +3 to each of the Bronze Dragon and the Warhorse):
    seat 0 scores 50 (49 when it closed the Trickster). The kernel plays the same game."""
    names = ["greedy", "collector", "random", "greedy"]
    prep = prepare(cards, "expert", 4, names, False)
    game = play_reference(
        Rules(cards, "expert"), prep.weights, [int(x) for x in prep.seat_policy], 1, 2, True
    )
    closes = [e for e in game.events if e["event"] == "close" and e["by"] == ["shadowking"]]
    assert [(e["seat"], e["card"]) for e in closes] == [
        (0, "priest"),
        (1, "lich"),
        (3, "flower-spirit"),
    ]
    assert cards.cards[game.players[0].trickster_as].id == "knight-of-the-round-table"
    scores = [pl.score for pl in game.players]
    assert scores[0] == 50
    a = simulate_arrays(prep, 1, 2, 1)
    assert a["score"][0].tolist() == scores
