"""numba decorators shared by the game kernels.

``hot`` is for the per-game helpers: compiled, cached on disk, and built without numba's
reference-counting runtime (NRT). They never allocate (so they need no NRT; numba refuses
to compile an allocation inside one, which enforces "no allocation in the game loop"),
and without NRT a call that passes arrays costs ~1 ns instead of ~40 ns of atomic
reference-count updates — measured 70% of kernel time before this decorator existed.
Only the chunk driver and the one-per-block scratch allocation use plain ``njit``.
"""

from __future__ import annotations

from numba import njit

hot = njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # _nrt: not in the stubs

#: ``hot`` and inlined into the caller at numba-IR level: for the tiny helpers called in the
#: innermost loops (scoring a copy, matching a filter, drawing a random number), where
#: passing the array arguments would cost more than the work itself.
hot_inline = njit(cache=True, _nrt=False, inline="always")  # type: ignore[call-overload]
