"""``simcore/link_late.py``: a helper only compiled code calls is optimised and emitted in its
entry point, never on its own; its cache entry is its LLVM bitcode; a test may still call it
from Python (``simcore.jit.CalleeDispatcher``).

Each check runs in a fresh interpreter with an empty cache directory, so the first run
compiles cold and the next ones load what it cached."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

MODULE = """
import numpy as np
from numba import prange
from talesim.simcore.jit import alloc, alloc_callee, hot, hot_outline, parallel


@hot
def double(a, i):
    if i < 0:
        raise ValueError("negative index")
    return a[i] * 2


@hot_outline
def step(a, i):
    return double(a, i) + 1


@alloc_callee
def block(a, lo, hi, out):
    scratch = np.zeros(hi - lo, np.int64)
    for i in range(lo, hi):
        scratch[i - lo] = step(a, i)
    out[lo:hi] = scratch


@parallel
def chunk(a, out):
    for b in prange(2):
        block(a, b * (a.size // 2), (b + 1) * (a.size // 2), out)


@alloc
def other(a, i):
    return double(a, i) * 10
"""

PROGRAM = """
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[1])
import linked

a = np.arange(6, dtype=np.int64)
out = np.zeros(6, np.int64)
linked.chunk(a, out)
report = {
    "chunk": out.tolist(),
    "from_python": [linked.double(a, 4), linked.step(a, 5), linked.other(a, 3)],
    "chunk_from_cache": linked.chunk.stats.cache_hits.total() > 0,
    "double_from_cache": linked.double.stats.cache_hits.total() > 0,
    "link_only": {
        name: [getattr(c.library, "_link_only", False) for c in f.overloads.values()]
        for name, f in [("double", linked.double), ("step", linked.step),
                        ("block", linked.block), ("chunk", linked.chunk),
                        ("other", linked.other)]
    },
}
try:
    linked.other(a, -1)
except ValueError as e:
    report["raised"] = str(e)
print(json.dumps(report))
"""


def _run(tmp_path: Path, **env: str) -> dict:
    run_env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    run_env.update(env, XDG_CACHE_HOME=str(tmp_path / "cache"), NUMBA_OPT="1")
    out = subprocess.run(
        [sys.executable, "-c", PROGRAM, str(tmp_path)],
        env=run_env,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture
def module_dir(tmp_path: Path) -> Path:
    (tmp_path / "linked.py").write_text(MODULE)
    return tmp_path


def test_callees_are_link_only_and_the_entry_points_run_their_code(module_dir: Path) -> None:
    cold = _run(module_dir)
    assert cold["chunk"] == [1, 3, 5, 7, 9, 11]  # 2 * a[i] + 1
    assert cold["from_python"] == [8, 11, 60]
    assert cold["raised"] == "negative index"
    assert cold["chunk_from_cache"] is False
    # Compiled for its callers only: no machine code of their own.
    assert cold["link_only"]["double"] == [True]
    assert cold["link_only"]["step"] == [True]
    assert cold["link_only"]["block"] == [True]
    # The entry points (called from Python) are optimised and emitted.
    assert cold["link_only"]["chunk"] == [False]
    assert cold["link_only"]["other"] == [False]


def test_a_warm_cache_gives_the_same_results(module_dir: Path) -> None:
    cold = _run(module_dir)
    warm = _run(module_dir)
    assert warm["chunk_from_cache"] is True
    for key in ("chunk", "from_python", "raised"):
        assert warm[key] == cold[key]


def test_a_new_entry_point_links_a_callee_loaded_from_the_cache(module_dir: Path) -> None:
    # the first run caches ``chunk`` and its callees; ``other`` then compiles against the
    # cached ``double`` (kind "linkonly"), since the first run's ``other`` cache is removed
    _run(module_dir)
    for index in (module_dir / "cache").rglob("*other*"):
        index.unlink()
    warm = _run(module_dir)
    assert warm["double_from_cache"] is True
    assert warm["from_python"][2] == 60
    assert warm["raised"] == "negative index"
    assert warm["link_only"]["double"] == [True]


def test_link_late_can_be_turned_off_and_caches_apart(module_dir: Path) -> None:
    off = _run(module_dir, TALESIM_LINK_LATE="0")
    assert off["chunk"] == [1, 3, 5, 7, 9, 11]
    assert off["link_only"]["double"] == [False]
    on = _run(module_dir)
    assert on["chunk_from_cache"] is False  # another cache directory
    assert on["link_only"]["double"] == [True]
