"""numba decorators shared by the game kernels.

Every decorator here caches on disk in the directory of the function's game (see
``simcore.cache_dir_for``). The three ``hot*`` ones build without numba's reference-counting runtime
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
  decision) whose copies would multiply compile time for little gain. It says
  ``forceinline=False`` explicitly: left unset, numba lets a function compiled for a
  ``hot`` caller inherit ``forceinline`` and inlines it after all (measured on Fairy Tale's
  policy decision: half its speed inside the big game function, from register pressure).
* ``hot_inline``: inlined already at numba-IR level, for the tiny leaf helpers of the
  innermost loops (scoring a copy, matching a filter, drawing a random number).

Compile time: numba types a constant argument as a *literal* (``Literal[int](0)``), and a
call with a literal compiles its own copy of the callee and of everything inlined into it.
A loop variable that starts at a constant (``p = 0`` then ``p = (p + 1) % n``) does the same
to the loop body. Pass such values as run-time values (read them from a state array, or
take them as arguments).

Compile time, 2: numba optimises each compiled function's LLVM module together with every
function it links and emits it as machine code. The ``hot*`` helpers and ``alloc_callee``
are compiled without numba's Python and C entry points (``CalleeDispatcher``), so
``simcore.link_late`` only links them and leaves optimising and emitting to the entry point
that calls them: the game is optimised once per entry point (the ``prange`` chunk and its
loop body), not once per outlined level (decision, phase, game, block, chunk). Every
inlined copy of a big helper is still typed, lowered and optimised on its own: call a big
inlined helper from one site per decision (``benchmarks/compile_time.py --copies`` lists
the functions compiled more than once, and the CPU seconds of each).

Compile time, 3: LLVM's loop vectoriser is off (``NUMBA_LOOP_VECTORIZE``: the default of
``simcore.COMPILE_SETTINGS`` unless the user set the variable). The kernels' loops are
short and branchy (a seat's spots, a hand, a card's abilities): the vectoriser costs
compile time for no measurable speed (``docs/perf-log/``). numba re-reads its ``NUMBA_*``
variables before each compile, so the variable is what says it; setting it around one
game's ``Dispatcher.compile`` does not reach that game's optimisation.

Compile time, 4: numba prunes a branch before typing only on an argument's *type*: ``if x
is None`` / ``is not None`` of an argument that is None in one specialisation (the Legends
tables of a base Paper Tales game, the search scratch of a heuristics' block). It prunes
no branch on a bool argument, literal or not: a function called only under ``if search:``
is typed and compiled even where every caller passes ``False`` (LLVM drops the dead code
afterwards, once the compile is paid). A flag is fine for small inline differences; gate
a call to a big function with None.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from talesim import simcore

# before numba reads it ("Compile time, 3"); simcore itself never imports numba
os.environ.setdefault("NUMBA_LOOP_VECTORIZE", simcore.COMPILE_SETTINGS["NUMBA_LOOP_VECTORIZE"])

import numpy as np
from numba import njit
from numba.core import config, sigutils
from numba.core.compiler_lock import global_compiler_lock
from numba.core.registry import CPUDispatcher

from talesim.simcore import link_late

link_late.install()

#: ``a[ix(i)]``: an unsigned index (a free cast in machine code) for the compiled code's hot
#: accesses, in every game (each game's ``layout`` re-exports it). numba wraps a *signed*
#: index that is negative around the array's end: a compare and a select at every access,
#: with the array's length kept live (or reloaded from the stack); an unsigned one skips
#: that. Only for indices known to be >= 0 (a -1 sentinel is tested first), and never in
#: arithmetic (numba types uint64 with int64 as float64): cast at the access.
ix = np.uint64


#: The file in a game's cache directory whose lock a process holds while it compiles one of
#: that game's functions or loads it from the cache (``_CompileLocks``).
COMPILE_LOCK = ".compile.lock"


class _CompileLocks:
    """A process holds an exclusive ``flock`` on a game's ``COMPILE_LOCK`` while it compiles
    a function cached in that game's directory or loads one from it. numba's cache is not
    safe for two processes filling it at once (numba issues #4807, #10128): each names its
    compiled functions by the order it compiled them in, so entries written by two
    processes that compiled in different orders can point into each other's code, and a
    process that loads the mix crashes (two Dask workers, or two ``talesim`` commands,
    started on a cold cache). With the lock the second process waits, then loads what the
    first wrote; two processes compiling different games do not wait for each other.

    Taken inside numba's own compiler lock (one compiling thread per process), once per
    process and directory however deeply compiles nest (an entry point types its helpers:
    a game's, then the shared files' directory, always in that order, so two processes
    never wait for each other's lock). Where ``flock`` is missing or refused, compiling goes
    on without it."""

    def __init__(self) -> None:
        self.held: dict[str, tuple[int, int | None]] = {}  # directory -> (depth, descriptor)

    @contextlib.contextmanager
    def __call__(self, directory: str) -> Iterator[None]:
        depth, fd = self.held.get(directory, (0, None))
        if depth == 0:
            fd = _lock_file(Path(directory) / COMPILE_LOCK)
        self.held[directory] = (depth + 1, fd)
        try:
            yield
        finally:
            depth, fd = self.held.pop(directory)
            if depth > 1:
                self.held[directory] = (depth - 1, fd)
            elif fd is not None:
                os.close(fd)  # closing the descriptor releases the lock


def _lock_file(path: Path) -> int | None:
    """An open descriptor of ``path`` holding its exclusive lock (blocking until another
    process releases it), or None where the platform or the directory refuses."""
    try:
        import fcntl
    except ImportError:  # no flock (Windows): compile unlocked
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except OSError:
        os.close(fd)
        return None
    return fd


_compile_locks = _CompileLocks()


class CachedDispatcher(CPUDispatcher):
    """A dispatcher caching in its game's directory that compiles (or loads from the cache)
    a new signature only under that directory's compile lock (``_CompileLocks``); a
    signature it has already is returned as numba would. As is, a kernel Python calls
    (``njit(cache=True, ...)``)."""

    _cache_dir: str = ""  # set by ``_in_game_cache``

    def compile(self, sig: Any) -> Any:
        args, _ = sigutils.normalize_signature(sig)
        if tuple(args) in self.overloads or not self._cache_dir:
            return super().compile(sig)
        with global_compiler_lock, _compile_locks(self._cache_dir):
            return super().compile(sig)


def _in_game_cache(func: Any, build: Callable[[], Any]) -> Any:
    """``build()`` (a dispatcher with caching on) caching in the directory of ``func``'s game
    (``simcore.cache_dir_for``): numba reads the directory when the function is decorated."""
    saved = config.CACHE_DIR  # type: ignore[attr-defined]
    directory = simcore.cache_dir_for(func.__code__.co_filename)
    config.CACHE_DIR = directory  # type: ignore[attr-defined]
    try:
        dispatcher = build()
    finally:
        config.CACHE_DIR = saved  # type: ignore[attr-defined]
    dispatcher._cache_dir = directory
    return dispatcher


def _decorator(kind: type[CachedDispatcher], **targetoptions: Any) -> Callable[[Any], Any]:
    """A decorator making a ``kind`` dispatcher with ``targetoptions``, caching on, in the
    directory of the function's game."""

    def build(func: Any) -> Any:
        dispatcher = kind(py_func=func, locals={}, targetoptions=targetoptions)
        dispatcher.enable_caching()
        return dispatcher

    return lambda func: _in_game_cache(func, lambda: build(func))


def _cached(**options: Any) -> Callable[[Any], Any]:
    """``njit(cache=True, **options)``, cached in the game's directory, compiled under the
    compile lock."""
    return _decorator(CachedDispatcher, nopython=True, **options)


class CalleeDispatcher(CachedDispatcher):
    """A helper only compiled functions call: compiled without numba's Python and C entry
    points (``no_cpython_wrapper``, ``no_cfunc_wrapper``), so ``simcore.link_late`` leaves
    its optimisation and machine code to the entry point that links it. A call from Python
    (a test of one helper) runs a twin compiled with an entry point, uncached (numba's
    cache does not tell the two builds apart)."""

    _python_twin: Any = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._python_twin is None:
            skip = ("nopython", "no_cpython_wrapper", "no_cfunc_wrapper")
            options = {k: v for k, v in self.targetoptions.items() if k not in skip}
            self._python_twin = njit(**options)(self.py_func)
        return self._python_twin(*args, **kwargs)


def _callee(**options: Any) -> Callable[[Any], Any]:
    """A ``hot*`` decorator: no NRT, no entry points, cached in the game's directory."""
    targetoptions = {
        "nopython": True,
        "_nrt": False,
        "no_cpython_wrapper": True,
        "no_cfunc_wrapper": True,
        **options,
    }
    return _decorator(CalleeDispatcher, **targetoptions)


# _nrt / forceinline are real njit options, missing from the type stubs.
hot = _callee(forceinline=True)
hot_outline = _callee(forceinline=False)
hot_inline = _callee(inline="always")
#: Allocating functions (keep NRT) called from Python: table builders, a game's state.
alloc = _cached()
#: Allocating functions only compiled code calls: the block runner (its scratch, its games).
alloc_callee = _callee(_nrt=True)
#: The chunk entry point: ``prange`` over blocks of games, the GIL released.
parallel = _cached(parallel=True, nogil=True)
#: The ``prange`` over blocks of games as a helper, for a game whose two chunk entry points
#: (heuristic seats, asked seats) share one loop: compiled without entry points like the
#: ``hot*`` helpers, so each entry point that calls it optimises the game once.
parallel_callee = _callee(_nrt=True, parallel=True)
#: A chunk entry point whose loop is a ``parallel_callee`` (no ``prange`` of its own: a
#: ``parallel`` one would only be told so by numba), the GIL released.
chunk_entry = _cached(nogil=True)


@hot_inline
def block_bounds(b, n_games, n_blocks):
    """(first, end) game offset of block ``b`` of a chunk's ``n_games`` games split into
    ``n_blocks`` blocks whose sizes differ by one at most (the ``prange`` body computes
    them: a block taking the loop index compiles twice, ``int64`` and ``uint64``)."""
    return b * n_games // n_blocks, (b + 1) * n_games // n_blocks
