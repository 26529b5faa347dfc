"""Counter-based random streams: one independent stream per (seed, game id).

Game ``g`` of a run with seed ``S`` draws every random number from the SplitMix64
sequence started at ``stream_start(S, g)``. Nothing is shared between games, so a
game is the same whatever the chunk size, thread count, backend or resume point. A
search policy draws from streams of its own, one per (seed, game, seat, decision):
``search_start`` / ``search_state``.

The stream exists twice, pinned equal by ``tests/fairy_tale/test_rng_and_cli.py``:

* ``GameRng`` — plain Python, used by each game's ``reference/``;
* ``rng_start`` / ``rng_next`` / ``rng_below`` — numba, used by the kernels. The
  kernel state is a one-element ``uint64`` array so helpers can advance it in place.

SplitMix64 (Steele, Lea & Flood 2014) passes BigCrush; ``below(n)`` uses Lemire's
multiply-shift on the high 32 bits (bias < n / 2**32, irrelevant for n <= 200).
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot, hot_inline

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15  # SplitMix64 increment (2**64 / golden ratio)
GAME_STRIDE = 0xD1B54A32D192ED03  # odd multiplier spreading consecutive game ids
SEAT_STRIDE = 0xA0761D6478BD642F  # odd multipliers of a search stream's seat and decision
DECISION_STRIDE = 0xE7037ED1A0B428DB
SEARCH_SALT = 0x8EBC6AF09C88C6E3  # keeps every search stream apart from the game streams
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB


def mix64(z: int) -> int:
    """SplitMix64 finaliser on a Python int (64-bit wrap-around)."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def stream_start(seed: int, game_id: int) -> int:
    """Initial SplitMix64 state of game ``game_id`` in a run seeded with ``seed``."""
    return mix64((mix64(seed) + (game_id & MASK64) * GAME_STRIDE) & MASK64)


def search_start(seed: int, game_id: int, seat: int, decision: int) -> int:
    """Initial SplitMix64 state of the search stream of seat ``seat``'s decision number
    ``decision`` (0, 1, ... in the order the seat makes them) in game ``game_id``: a search
    policy (``mc``) draws its determinizations and playouts from it, never from the game's
    own stream, so its budget and choices never change the cards dealt."""
    mixed = (seat & MASK64) * SEAT_STRIDE + (decision & MASK64) * DECISION_STRIDE + SEARCH_SALT
    return mix64((stream_start(seed, game_id) ^ mix64(mixed & MASK64)) & MASK64)


class GameRng:
    """Plain-Python twin of the numba stream (same numbers, same order)."""

    __slots__ = ("state",)

    def __init__(self, seed: int, game_id: int) -> None:
        self.state = stream_start(seed, game_id)

    def next_u64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return mix64(self.state)

    @classmethod
    def at(cls, state: int) -> GameRng:
        """A stream whose state is ``state`` (e.g. ``search_start``'s)."""
        rng = cls.__new__(cls)
        rng.state = state & MASK64
        return rng

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` for ``1 <= n < 2**32``."""
        return ((self.next_u64() >> 32) * n) >> 32

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place, from the last position down (same as ``rng_shuffle``)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


# --- numba twin --------------------------------------------------------------------

_U_MIX1 = np.uint64(MIX1)
_U_MIX2 = np.uint64(MIX2)
_U_GOLDEN = np.uint64(GOLDEN)
_U_STRIDE = np.uint64(GAME_STRIDE)
_U30 = np.uint64(30)
_U27 = np.uint64(27)
_U31 = np.uint64(31)
_U32 = np.uint64(32)


@hot_inline
def _mix64_jit(z):
    z = (z ^ (z >> _U30)) * _U_MIX1
    z = (z ^ (z >> _U27)) * _U_MIX2
    return z ^ (z >> _U31)


@hot
def rng_start(state, seed, game_id):
    """Set ``state[0]`` to the start of game ``game_id``'s stream (both uint64)."""
    state[0] = _mix64_jit(_mix64_jit(np.uint64(seed)) + np.uint64(game_id) * _U_STRIDE)


_U_SEAT = np.uint64(SEAT_STRIDE)
_U_DECISION = np.uint64(DECISION_STRIDE)
_U_SALT = np.uint64(SEARCH_SALT)


@hot
def search_state(seed, game_id, seat, decision):
    """``search_start`` in numba: the uint64 start state of a search stream."""
    game = _mix64_jit(_mix64_jit(np.uint64(seed)) + np.uint64(game_id) * _U_STRIDE)
    mixed = np.uint64(seat) * _U_SEAT + np.uint64(decision) * _U_DECISION + _U_SALT
    return _mix64_jit(game ^ _mix64_jit(mixed))


@hot_inline
def rng_next(state):
    """Next 64-bit output of the stream held in ``state[0]``."""
    state[0] = state[0] + _U_GOLDEN
    return _mix64_jit(state[0])


@hot_inline
def rng_below(state, n):
    """Uniform int64 in ``[0, n)``; same value as ``GameRng.below``."""
    return np.int64(((rng_next(state) >> _U32) * np.uint64(n)) >> _U32)


@hot
def rng_shuffle(state, items, count):
    """Fisher-Yates on ``items[:count]`` in place (same draws as ``GameRng.shuffle``)."""
    for i in range(count - 1, 0, -1):
        j = rng_below(state, i + 1)
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp
