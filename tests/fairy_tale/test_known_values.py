"""Known-value checks: closed-form expectations against Monte-Carlo estimates.

With random players nothing favours a card or a seat, so the shuffle and the deal alone
decide these numbers. Each check allows 4.5 standard errors (a false alarm about once
in 150,000 runs; the games are seeded, so a run is reproducible anyway).
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.games.fairy_tale.engine import frames, load_cards, prepare, simulate_arrays

N = 20_000
Z = 4.5


def _run(variant: str, players: int) -> tuple[object, dict[str, np.ndarray]]:
    prep = prepare(load_cards(), variant, players, ["random"] * players, False)
    return prep, simulate_arrays(prep, 12345, 0, N)


def test_cards_received_match_the_deal_probability() -> None:
    """4 players x 20 of the 100 expert cards are dealt: each copy is received with
    probability 0.8, so 7 Homesteaders give 5.6 per game and the lone Trickster is
    received in 80% of games."""
    prep, a = _run("expert", 4)
    idx = prep.cards.index
    homesteaders = (a["card"] == idx["homesteaders"]).sum(axis=(1, 2))
    se = homesteaders.std(ddof=1) / np.sqrt(N)
    assert abs(homesteaders.mean() - 7 * 0.8) < Z * se
    trick = (a["card"] == idx["the-trickster"]).any(axis=(1, 2)).mean()
    assert abs(trick - 0.8) < Z * np.sqrt(0.8 * 0.2 / N)


def test_basic_four_players_deal_every_card() -> None:
    """80 basic cards, 4 players x 20: every copy is dealt in every game."""
    prep, a = _run("basic", 4)
    for card in prep.cards.cards:
        if card.tier == "basic":
            got = (a["card"] == prep.cards.index[card.id]).sum(axis=(1, 2))
            assert (got == card.copies).all(), card.id


def test_random_players_have_no_seat_advantage() -> None:
    """Symmetric random players: every seat's win share is 1 within its interval."""
    prep, a = _run("expert", 3)
    seats = frames(prep, a, 0)["seats"]
    for seat in range(3):
        win = seats.filter(seats["seat"] == seat)["win"].to_numpy()
        se = win.std(ddof=1) / np.sqrt(N)
        assert abs(win.mean() - 1 / 3) < Z * se, seat
