"""The random streams (``simcore.rng``) and the ``talesim`` CLI with the real Fairy Tale engine.

RNG: ``GameRng`` (plain Python, used by reference/) and the numba twin (used by the
kernel) must give the same numbers for every (seed, game id). CLI: seat rotation changes
the game ``play`` tells (that it replays what ``simulate`` stores, and resume, are
``tests/test_engine_conformance.py``'s); ``score``; bad input is one ``error:`` line with
exit code 2. A bare §N cites ``docs/rules/fairy-tale.md``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
from kit import assert_error, invoke, ok
from numba import njit

from talesim.simcore.games.fairy_tale.tables import DEFAULT_CARDS
from talesim.simcore.rng import (
    GameRng,
    rng_below,
    rng_next,
    rng_shuffle,
    rng_start,
    search_start,
    search_state,
    stream_start,
)

# --- rng ---------------------------------------------------------------------------------------


@njit
def _numba_draws(seed, game_id, bounds, out_u64, out_below):
    state = np.zeros(1, np.uint64)
    rng_start(state, seed, game_id)
    start = state[0]
    for i in range(out_u64.shape[0]):
        out_u64[i] = rng_next(state)
    for i in range(bounds.shape[0]):
        out_below[i] = rng_below(state, bounds[i])
    return start


@njit
def _numba_shuffle(seed, game_id, items):
    state = np.zeros(1, np.uint64)
    rng_start(state, seed, game_id)
    rng_shuffle(state, items, items.shape[0])


def _pairs() -> list[tuple[int, int]]:
    top = 2**63 - 1
    fixed = [(0, 0), (0, 1), (1, 0), (top, 0), (0, top), (top, top), (top - 1, 10**12)]
    rnd = random.Random(1234)
    return fixed + [(rnd.randrange(top + 1), rnd.randrange(top + 1)) for _ in range(193)]


def test_game_rng_equals_numba_stream() -> None:
    """rng.py: GameRng and rng_start/rng_next/rng_below produce the same start state, 64-bit
    outputs and bounded draws for 200 (seed, game id) pairs, including 0 and 2**63 - 1."""
    bounds = np.array([1, 2, 3, 5, 7, 20, 100, 2**31 - 1, 2**32 - 1], dtype=np.int64)
    for seed, game_id in _pairs():
        u64 = np.zeros(8, np.uint64)
        below = np.zeros(bounds.shape[0], np.int64)
        start = _numba_draws(seed, game_id, bounds, u64, below)
        rng = GameRng(seed, game_id)
        assert int(start) == rng.state == stream_start(seed, game_id)
        assert [int(x) for x in u64] == [rng.next_u64() for _ in range(8)], (seed, game_id)
        expected = [rng.below(int(n)) for n in bounds]
        assert [int(x) for x in below] == expected, (seed, game_id)
        assert all(0 <= b < n for b, n in zip(expected, bounds, strict=True))


def test_shuffles_agree() -> None:
    """rng.py: GameRng.shuffle and rng_shuffle permute a 100-card deck identically."""
    for seed, game_id in _pairs()[:50]:
        items = list(range(100))
        GameRng(seed, game_id).shuffle(items)
        arr = np.arange(100, dtype=np.int32)
        _numba_shuffle(seed, game_id, arr)
        assert arr.tolist() == items
        assert sorted(items) == list(range(100))


def test_search_streams_equal_in_python_and_numba() -> None:
    """rng.py: search_start (Python) and search_state (numba) give the same start state for
    (seed, game, seat, decision), and the streams differ from each other and from the
    game streams."""
    starts = set()
    for seed, game_id in _pairs()[:40]:
        for seat in range(5):
            for decision in (0, 1, 37):
                s = search_start(seed, game_id, seat, decision)
                assert int(search_state(np.uint64(seed), game_id, seat, decision)) == s
                starts.add(s)
        assert stream_start(seed, game_id) not in starts
    assert len(starts) == 40 * 5 * 3


def test_streams_differ_between_games_and_seeds() -> None:
    """rng.py: neighbouring game ids and seeds start different streams."""
    starts = {stream_start(s, g) for s in range(20) for g in range(50)}
    assert len(starts) == 1000


def test_splitmix64_known_value() -> None:
    """SplitMix64 (Steele et al. 2014) from state 0: first output 0xE220A8397B1DCDAF."""
    rng = GameRng(0, 0)
    rng.state = 0
    assert rng.next_u64() == 0xE220A8397B1DCDAF


# --- CLI ----------------------------------------------------------------------------------------

POLICIES = "greedy,random,collector"


def final_event(*extra: object) -> dict:
    args = ("--seed", 5, "--game", 17, "--players", 3, "--policy", POLICIES, "--json")
    result = ok("play", "fairy-tale", *args, *extra)
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert events[0]["event"] == "setup"
    assert events[-1]["event"] == "final"
    return events[-1]


def test_rotate_seats_changes_the_game(tmp_path: Path) -> None:
    """Game 17 with rotated seats is a different seating (the control of the replay test in
    ``tests/test_engine_conformance.py``, which replays rotated and fixed seats alike)."""
    assert final_event() != final_event("--rotate-seats")


def test_score_command_json(tmp_path: Path) -> None:
    """talesim score --json: §0 examples (4 Homesteaders = 16; Bronze Dragon + 2 Knights = 12)
    and a face-down card worth 0; the 16 wins."""
    state = {
        "variant": "expert",
        "players": [
            {"face_up": ["homesteaders"] * 4, "face_down": ["dark-pact"]},
            {"face_up": ["bronze-dragon"] + ["knight-of-the-round-table"] * 2},
        ],
    }
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    result = invoke("score", "fairy-tale", path, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [p["total"] for p in data["players"]] == [16, 12]
    assert data["players"][0]["cards"][-1] == {"card": "dark-pact", "points": 0, "face_up": False}
    assert data["players"][0]["face_down"] == 1
    assert [c["points"] for c in data["players"][1]["cards"]] == [6, 3, 3]
    assert data["winners"] == [0]


def test_score_command_bad_state_is_one_error_line(tmp_path: Path) -> None:
    """talesim score: an invalid state is reported as one line naming the file and problem."""
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"players": [{"face_up": ["nope"]}, {}]}))
    assert_error(invoke("score", "fairy-tale", path, "--json"), "state.json", "unknown card 'nope'")


def simulate_random(out: Path, players: int) -> list:
    """``talesim simulate fairy-tale`` of 10 random games into ``out``."""
    return ["simulate", "fairy-tale", "--games", 10, "--players", players, "--seed", 1,
            "--policy", "random", "--out", out, "--quiet"]  # fmt: skip


def test_five_players_basic_is_refused(tmp_path: Path) -> None:
    """§3: basic rules allow 2-4 players."""
    result = invoke(*simulate_random(tmp_path / "x", 5), "--variant", "basic")
    assert_error(result, "2-4 players", "5")
    assert not (tmp_path / "x").exists()


def test_unknown_policy_is_refused(tmp_path: Path) -> None:
    """Only the registered policies (random, greedy, collector) are accepted."""
    result = invoke(
        "play", "fairy-tale", "--seed", 1, "--players", 3, "--policy", "greedy,cheater,random"
    )
    assert_error(result, "cheater")


def test_bad_card_file_names_file_card_and_field(tmp_path: Path) -> None:
    """Card data validation: copies = 0 is refused with the file, card and field named."""
    text = DEFAULT_CARDS.read_text(encoding="utf-8")
    marker = 'id = "warhorse"'
    head, tail = text.split(marker)
    bad = head + marker + tail.replace("copies = 3", "copies = 0", 1)
    path = tmp_path / "bad_cards.toml"
    path.write_text(bad, encoding="utf-8")
    result = invoke(*simulate_random(tmp_path / "x", 3), "--cards", path)
    assert_error(result, "bad_cards.toml", "warhorse", "copies")
    play = invoke(
        "play", "fairy-tale", "--seed", 1, "--players", 3, "--policy", "random", "--cards", path
    )
    assert_error(play, "bad_cards.toml", "warhorse", "copies")
