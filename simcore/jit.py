"""numba decorators shared by the game kernels.

All three compile, cache on disk, and build without numba's reference-counting runtime
(NRT). Per-game helpers never allocate (so they need no NRT; numba refuses to compile an
allocation inside one, which enforces "no allocation in the game loop"), and without NRT
a call that passes arrays skips ~40 ns of atomic reference-count updates (measured 70% of
kernel time before this existed).

Calls between compiled functions pass every array *by value*: 7-9 machine words each, so a
helper taking a dozen arrays pushes ~100 words per call. Measured on Fairy Tale's greedy
player, that marshalling was 45% of the time. Hence:

* ``hot``: the default. LLVM is told to inline it into its callers (``forceinline``), so
  the arguments vanish. Costs compile time (the whole game becomes a few big functions).
* ``hot_outline``: not inlined. For the few big entry points (one game, one policy
  decision) whose copies would multiply compile time for little gain.
* ``hot_inline``: inlined already at numba-IR level, for the tiny leaf helpers of the
  innermost loops (scoring a copy, matching a filter, drawing a random number).
"""

from __future__ import annotations

from numba import njit

# _nrt / forceinline are real njit options, missing from the type stubs.
hot = njit(cache=True, _nrt=False, forceinline=True)  # type: ignore[call-overload]
hot_outline = njit(cache=True, _nrt=False)  # type: ignore[call-overload]
hot_inline = njit(cache=True, _nrt=False, inline="always")  # type: ignore[call-overload]
