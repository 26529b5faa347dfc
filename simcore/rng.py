"""Counter-based random streams: one independent stream per (seed, game id).

Game ``g`` of a run with seed ``S`` draws every random number from the SplitMix64
sequence started at ``stream_start(S, g)``. Nothing is shared between games, so a
game is the same whatever the chunk size, thread count, backend or resume point.

The stream exists twice, pinned equal by ``tests/test_rng.py``:

* ``GameRng`` — plain Python, used by each game's ``reference.py``;
* ``rng_start`` / ``rng_next`` / ``rng_below`` — numba, used by the kernels. The
  kernel state is a one-element ``uint64`` array so helpers can advance it in place.

SplitMix64 (Steele, Lea & Flood 2014) passes BigCrush; ``below(n)`` uses Lemire's
multiply-shift on the high 32 bits (bias < n / 2**32, irrelevant for n <= 200).
"""

from __future__ import annotations

import numpy as np

from simcore.jit import hot, hot_inline

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15  # SplitMix64 increment (2**64 / golden ratio)
GAME_STRIDE = 0xD1B54A32D192ED03  # odd multiplier spreading consecutive game ids
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


class GameRng:
    """Plain-Python twin of the numba stream (same numbers, same order)."""

    __slots__ = ("state",)

    def __init__(self, seed: int, game_id: int) -> None:
        self.state = stream_start(seed, game_id)

    def next_u64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return mix64(self.state)

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
