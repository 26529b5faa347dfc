"""Properties every simulated game must have, checked with hypothesis on the kernel.

Rules: ``docs/rules/fairy-tale.md`` §3 (flow: 20 cards received, 12 played, 8
discarded per player), §5 (face-down cards score 0; score = sum of card points), §3 Score
(tied winners share the win); ``simcore/rng.py`` (one stream per game: chunk
independence; thread independence: ``tests/test_engine_conformance.py``).
"""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np
import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from talesim.simcore import engine_kit
from talesim.simcore.games.fairy_tale import engine
from talesim.simcore.games.fairy_tale.engine import GAME, prepare, simulate_arrays
from talesim.simcore.games.fairy_tale.policies import POLICY_NAMES
from talesim.simcore.games.fairy_tale.tables import compile_tables
from talesim.simcore.rng import GameRng

run_chunk = functools.partial(engine_kit.run_chunk, engine)


MAX_PLAYERS = {"basic": 4, "beginner": 4, "expert": 5}
#: Every heuristic, and mc at a small budget (its games keep every invariant too).
SPECS = (*(p for p in POLICY_NAMES if p != "mc"), "mc:rollouts=2:top=2")


@st.composite
def setups(draw: st.DrawFn) -> tuple[str, int, list[str], int, int]:
    """(variant, players, one policy per seat, seed, first game id)."""
    variant = draw(st.sampled_from(sorted(MAX_PLAYERS)))
    players = draw(st.integers(2, MAX_PLAYERS[variant]))
    policies = draw(st.lists(st.sampled_from(SPECS), min_size=players, max_size=players))
    seed = draw(st.integers(0, 2**63 - 1))
    first = draw(st.integers(0, 10**9))
    return variant, players, policies, seed, first


N_GAMES = 6


@settings(max_examples=30, deadline=None)
@given(setups())
def test_game_invariants(cards, setup) -> None:
    """§3 flow and §5 scoring hold in every game of every variant and seating."""
    variant, players, policies, seed, first = setup
    prep = prepare(cards, variant, players, GAME.canonical_policies(policies), False)
    a = simulate_arrays(prep, seed, first, N_GAMES)
    deck = [int(c) for c in compile_tables(cards, variant).deck]
    copies = Counter(deck)
    for i in range(N_GAMES):
        received = Counter(a["card"][i].reshape(-1).tolist())
        # Every dealt card reaches exactly one player: no card twice, none invented.
        assert sum(received.values()) == 20 * players
        assert all(received[c] <= copies[c] for c in received)
        if variant != "beginner":  # no redraws: the dealt cards are the shuffled deck's top
            shuffled = list(deck)
            GameRng(seed, first + i).shuffle(shuffled)
            assert received == Counter(shuffled[: 20 * players])
        played = a["played"][i]
        face_up = a["face_up"][i]
        points = a["points"][i].astype(int)
        assert (played.sum(axis=1) == 12).all()  # 12 tableau cards per player
        assert not (face_up & ~played).any()  # discarded cards are never face up
        assert (a["face_down"][i] + face_up.sum(axis=1) == 12).all()
        assert (points[~face_up] == 0).all()  # face-down and discarded cards score 0
        score = a["score"][i].astype(int)
        assert (score == a["breakdown"][i].astype(int).sum(axis=1)).all()
        assert (score == points.sum(axis=1)).all()
        assert a["policy"][i].tolist() == prep.seat_slot.tolist()
        pick = a["pick"][i]
        rnd = a["round"][i]
        start = 0 if variant == "beginner" else 1
        assert (pick == np.arange(start, start + 20)).all()
        assert (rnd == np.repeat(np.arange(1, 5), 5)).all()
        trick = int(a["trick"][i])
        assert trick == -1 or variant == "expert"


@settings(max_examples=15, deadline=None)
@given(setups())
def test_rank_and_win_columns(cards, setup) -> None:
    """§3 Score: wins are shared by tied top scores and sum to 1 per game; rank 1 = winners."""
    variant, players, policies, seed, first = setup
    prep = prepare(cards, variant, players, policies, False)
    frames = run_chunk(prep, seed, first, N_GAMES)
    seats = frames["seats"]
    assert seats.height == N_GAMES * players
    for gid, rows in seats.group_by("game_id"):
        score = rows["score"].to_list()
        win = rows["win"].to_list()
        top = max(score)
        k = score.count(top)
        assert abs(sum(win) - 1.0) < 1e-12, gid
        assert win == [1.0 / k if s == top else 0.0 for s in score]
        assert rows["rank"].to_list() == [1 + sum(t > s for t in score) for s in score]
    games = frames["games"]
    assert games["game_id"].to_list() == list(range(first, first + N_GAMES))
    tops = seats.group_by("game_id", maintain_order=True).agg(pl.col("score").max())
    assert games["top_score"].to_list() == tops["score"].to_list()
    winners = seats.filter(pl.col("rank") == 1).group_by("game_id", maintain_order=True).len()
    assert games["n_winners"].to_list() == winners["len"].to_list()


@settings(max_examples=10, deadline=None)
@given(setups())
def test_chunks_are_independent(cards, setup) -> None:
    """rng.py: game g is the same whatever chunk it is played in: games 10..14 of a 20-game
    chunk equal a 5-game chunk starting at 10."""
    variant, players, policies, seed, _ = setup
    prep = prepare(cards, variant, players, policies, False)
    whole = simulate_arrays(prep, seed, 0, 20)
    part = simulate_arrays(prep, seed, 10, 5)
    for key in whole:
        np.testing.assert_array_equal(whole[key][10:15], part[key], err_msg=key)
