"""The compile settings of ``simcore/jit.py``: no LLVM loop vectoriser by default.

Checked in a fresh interpreter at numba's default -O3 (the level of the CLI and the
benchmarks): the test suite itself compiles at -O1 (``tests/conftest.py``), where LLVM does
not vectorise loops anyway."""

from __future__ import annotations

import os
import subprocess
import sys

# A reduction loop LLVM's loop vectoriser turns into ``vector.body``.
PROGRAM = """
import numpy as np
from talesim.simcore import jit
from numba import njit

@njit
def total(a):
    t = 0
    for i in range(a.shape[0]):
        t += a[i]
    return t

assert total(np.arange(100, dtype=np.int64)) == 4950
print("vector.body" in next(iter(total.inspect_llvm().values())))
"""


def _vectorised(**env: str) -> bool:
    run_env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    run_env.update(env, NUMBA_OPT="3")
    out = subprocess.run(
        [sys.executable, "-c", PROGRAM], env=run_env, capture_output=True, text=True, check=True
    )
    return out.stdout.strip() == "True"


def test_the_kernels_compile_without_the_loop_vectoriser() -> None:
    assert not _vectorised()


def test_a_user_can_turn_the_loop_vectoriser_back_on() -> None:
    assert _vectorised(NUMBA_LOOP_VECTORIZE="1")  # and so the test above can fail
