"""talesim simulation core: card data, RNG, game kernels and the batch runner.

Importing this package never imports numba, polars or matplotlib (so `talesim --help`
stays instant). It only points numba's on-disk cache at a directory keyed by a hash
of the compiled sources: numba's ``cache=True`` does not notice edits to a jitted
helper in *another* file, so a change to any file holding compiled code must land in a
fresh cache directory. Files without compiled code (runner, registry, card loading, the
Dask backend) are left out, so editing them does not cost a recompile.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

__version__ = "0.1.0"

_ROOT = Path(__file__).resolve().parent


#: The files whose code numba compiles (or that compiled code imports): the decorators,
#: the RNG and every game package.
KERNEL_SOURCES = ("jit.py", "rng.py", "games/**/*.py")


def _hash(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in sorted(set(paths)):
        digest.update(str(path.relative_to(_ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def source_hash() -> str:
    """Short sha256 of every simcore .py file (path + content): the code's identity."""
    return _hash(list(_ROOT.rglob("*.py")))


def kernel_hash() -> str:
    """Short sha256 of the files holding compiled code (``KERNEL_SOURCES``)."""
    return _hash([p for pattern in KERNEL_SOURCES for p in _ROOT.glob(pattern)])


def _configure_numba_cache() -> None:
    if "NUMBA_CACHE_DIR" in os.environ:
        return
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "talesim" / "numba"
    os.environ["NUMBA_CACHE_DIR"] = str(base / kernel_hash())
    # numba reads the variable when it is imported; if it already was (a script that
    # imported numba first), set its config directly: the kernels are decorated later.
    numba_config = sys.modules.get("numba.core.config")
    if numba_config is not None:
        numba_config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]  # type: ignore[attr-defined]


_configure_numba_cache()
