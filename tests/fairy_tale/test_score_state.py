"""``talesim score fairy-tale``: answered by the kernel's compiled final scoring
(``kernel.score_end_state``, the ``_final_scores`` every simulated game ends with), pinned
to ``reference/``'s scoring (``engine.score_state_reference``) on random end states of
every variant: the same JSON, byte for byte. A bare §N cites ``docs/rules/fairy-tale.md``.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from talesim.simcore.games.fairy_tale import engine
from talesim.simcore.games.fairy_tale.tables import TABLEAU, load_cardset

CARDS = load_cardset()


def _random_state(rnd: random.Random, variant: str, players: int) -> dict:
    """An end state of ``players`` tableaux of 0-12 cards each, drawn from the variant's
    deck (at most its copies of a card), each card face up or down."""
    tiers = CARDS.rules.variants[variant].tiers
    pool = [c.id for c in CARDS.cards if c.tier in tiers for _ in range(c.copies)]
    rnd.shuffle(pool)
    seats = []
    for _ in range(players):
        cards = [pool.pop() for _ in range(rnd.randint(0, TABLEAU))]
        up = [c for c in cards if rnd.random() < 0.8]
        down = [c for c in cards if c not in up]
        seats.append({"face_up": up, "face_down": down})
    return {"variant": variant, "players": seats}


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(sorted(CARDS.rules.variants)),
    st.integers(1, 5),
    st.integers(0, 2**32 - 1),
)
def test_score_state_compiled_equals_reference(variant: str, players: int, seed: int) -> None:
    """Random end states (1-5 players, tableaux of 0-12 cards, face up or down, Tricksters
    and majorities included): the compiled scoring gives the reference's JSON exactly."""
    state = _random_state(random.Random(seed), variant, players)
    got = engine.score_state(state, CARDS)
    want = engine.score_state_reference(state, CARDS)
    assert json.dumps(got) == json.dumps(want), state


def test_score_state_trickster_copies_the_best_card() -> None:
    """§5 Trickster: face up beside 3 Homesteaders (each worth 1 x the face-up
    Homesteaders), its best copy is a fourth Homesteaders (3 -> 4 copies: 9 -> 16, +7, more
    than any fixed card's 6): 4 points for each real one, 4 - 1 = 3 on the Trickster's
    slot, 15 in all."""
    trickster = next(c.id for c in CARDS.cards if c.value["kind"] == "wild")
    state = {
        "variant": "expert",
        "players": [{"face_up": ["homesteaders"] * 3 + [trickster]}, {"face_up": []}],
    }
    got = engine.score_state(state, CARDS)
    assert got == engine.score_state_reference(state, CARDS)
    seat = got["players"][0]
    assert seat["trickster_as"] == "homesteaders"
    assert [c["points"] for c in seat["cards"]] == [4, 4, 4, 3]
    assert seat["total"] == 15
    assert seat["breakdown"]["variable"] == 12
    assert seat["breakdown"]["trickster"] == 3
