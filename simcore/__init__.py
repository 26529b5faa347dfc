"""talesim simulation core: card data, RNG, game kernels and the batch runner.

Importing this package never imports numba, polars or matplotlib (so `talesim --help`
stays instant). It only points numba's on-disk cache at directories keyed by a hash
of the compiled sources, one per game (``cache_dir_for``): numba's ``cache=True`` does
not notice edits to a jitted helper in *another* file, so a change to any file a kernel is
built from must land in a fresh cache directory. Files without compiled code (runner,
registry, card loading, the Dask backend) are left out, so editing them does not cost a
recompile, and editing one game does not recompile the others.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import sys
import time
from pathlib import Path

__version__ = "0.1.0"

_ROOT = Path(__file__).resolve().parent


#: Files every game's compiled code depends on: the decorators and the RNG.
SHARED_KERNEL_SOURCES = ("jit.py", "learned_score.py", "link_late.py", "rng.py")

#: The plain-Python modules of a game package (a file ``NAME.py`` or a package ``NAME/``): the
#: runner glue, the readable rulebook and the position I/O. Compiled code never imports them
#: (``tests/test_kernel_cache.py`` checks), so editing them must not throw the game's compiled
#: kernel away.
PLAIN_PYTHON_MODULES = ("engine", "reference", "state_io")

#: A NUMBA_CACHE_DIR the user set (not one a parent talesim process exported): then it is
#: the base of the per-game cache directories.
_USER_CACHE_BASE = (
    os.environ.get("NUMBA_CACHE_DIR")
    if os.environ.get("NUMBA_CACHE_DIR") != os.environ.get("TALESIM_NUMBA_CACHE_DIR")
    else None
)


def _hash(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in sorted(set(paths)):
        digest.update(str(path.relative_to(_ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def source_hash() -> str:
    """Short sha256 of every simcore .py file (path + content): the code's identity."""
    return _hash(list(_ROOT.rglob("*.py")))


def kernel_hash(game: str | None = None) -> str:
    """Short sha256 of the files one game's compiled code is built from: the shared
    decorators and RNG plus that game's package but its plain-Python modules
    (``game=None``: the shared files only)."""
    paths = [_ROOT / name for name in SHARED_KERNEL_SOURCES]
    if game is not None:
        paths += kernel_sources(game)
    return _hash(paths)


#: Settings that change a kernel's compiled code but not numba's cache index (which keys on
#: the signature and the CPU only), with the value talesim compiles with when the variable
#: is unset: numba's (``simcore/jit.py``) and ``TALESIM_LINK_LATE`` (``simcore/link_late.py``:
#: off, the cache holds another kind of entry). A kernel compiled under another value caches in a
#: directory of its own (``cache_key``): the test suite compiles at ``NUMBA_OPT=1``
#: (``tests/conftest.py``) and must never hand its code to a benchmark, nor take the CLI's.
COMPILE_SETTINGS = {"NUMBA_OPT": "3", "NUMBA_LOOP_VECTORIZE": "0", "TALESIM_LINK_LATE": "1"}


def compile_settings() -> str:
    """This process's compile settings that differ from ``COMPILE_SETTINGS``, e.g.
    ``"NUMBA_OPT=1"`` ("" under talesim's defaults)."""
    return ";".join(
        f"{name}={os.environ[name]}"
        for name, default in COMPILE_SETTINGS.items()
        if os.environ.get(name, default) != default
    )


def cache_key(game: str | None = None) -> str:
    """The name of one game's cache directory after the game: ``kernel_hash`` under the
    default compile settings, else that hash and ``compile_settings`` hashed together."""
    settings = compile_settings()
    if not settings:
        return kernel_hash(game)
    return hashlib.sha256(f"{kernel_hash(game)};{settings}".encode()).hexdigest()[:16]


def kernel_sources(game: str) -> list[Path]:
    """The .py files of a game package that compiled code may be built from."""
    package = _ROOT / "games" / game
    return [
        p
        for p in package.rglob("*.py")
        if p.relative_to(package).parts[0].removesuffix(".py") not in PLAIN_PYTHON_MODULES
    ]


def _cache_base() -> Path:
    if _USER_CACHE_BASE:
        return Path(_USER_CACHE_BASE)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "talesim" / "numba"


def cache_dir_for(source_file: str) -> str:
    """The numba cache directory for a function defined in ``source_file``.

    Each game gets its own directory, keyed by the hash of its own package, the shared files
    and the compile settings (``cache_key``): numba's ``cache=True`` does not notice edits to
    a jitted helper in *another* file, so a change to any file a game's kernel is built from must
    land in a fresh directory, while an edit to one game leaves the other games' compiled
    kernels valid. Functions outside ``games/`` (the RNG) use the shared-files directory.
    """
    path = Path(source_file).resolve()
    try:
        parts = path.relative_to(_ROOT / "games").parts
    except ValueError:
        parts = ()
    return _game_cache_dir(parts[0] if len(parts) > 1 else None)


@functools.cache
def _game_cache_dir(game: str | None) -> str:
    """``cache_dir_for`` of one game (``None``: the shared files): hashed and pruned once
    per process, however many compiled modules the game has."""
    name = f"{game or 'core'}-{cache_key(game)}"
    prune_kernel_caches(_cache_base(), keep=name)
    return str(_cache_base() / name)


#: Cache directories kept per game besides the current one (other checkouts, branches).
CACHES_KEPT = 3
#: A directory touched this recently is never pruned (another process may be filling it).
PRUNE_MIN_AGE_S = 3600.0


def prune_kernel_caches(base: Path, keep: str) -> list[Path]:
    """Delete stale numba cache directories of ``keep``'s game under ``base``: all but the
    ``CACHES_KEPT`` most recently modified, never ``keep`` itself nor one modified in the
    last hour. Directories of the old single-hash layout (16 hex digits) count as one more
    game. Returns what it deleted; errors (another process deleting too) are ignored."""
    prefix = keep.rsplit("-", 1)[0] + "-"
    try:
        siblings = [
            d for d in base.iterdir() if d.is_dir() and d.name != keep and d.name.startswith(prefix)
        ]
        legacy = [d for d in base.iterdir() if d.is_dir() and _LEGACY_NAME.fullmatch(d.name)]
    except OSError:
        return []
    deleted = []
    now = time.time()
    for group in (siblings, legacy):
        # Another process (a test worker) may delete a directory between the listing and here.
        dated = [(mtime, d) for d in group if (mtime := _mtime(d)) is not None]
        dated.sort(key=lambda pair: pair[0], reverse=True)
        for mtime, stale in dated[CACHES_KEPT:]:
            if now - mtime >= PRUNE_MIN_AGE_S:
                shutil.rmtree(stale, ignore_errors=True)
                deleted.append(stale)
    return deleted


def _mtime(path: Path) -> float | None:
    """``path``'s modification time, or ``None`` when it is gone."""
    try:
        return path.stat().st_mtime
    except OSError:
        return None


_LEGACY_NAME = re.compile(r"[0-9a-f]{16}")


def _configure_numba_cache() -> None:
    # The decorators of ``simcore.jit`` pick each function's directory (cache_dir_for);
    # this default only serves code compiled outside them.
    os.environ["NUMBA_CACHE_DIR"] = os.environ["TALESIM_NUMBA_CACHE_DIR"] = cache_dir_for(__file__)
    # numba reads the variable when it is imported; if it already was (a script that
    # imported numba first), set its config directly.
    numba_config = sys.modules.get("numba.core.config")
    if numba_config is not None:
        numba_config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]  # type: ignore[attr-defined]


_configure_numba_cache()
