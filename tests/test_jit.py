"""The compile settings of ``simcore/jit.py``: no LLVM loop vectoriser by default."""

from __future__ import annotations

import os

import numpy as np
from numba import njit

from simcore import jit


def _sum(a: np.ndarray) -> int:
    total = 0
    for i in range(a.shape[0]):
        total += a[i]
    return total


def test_the_kernels_compile_without_the_loop_vectoriser() -> None:
    """A reduction loop LLVM would vectorise (``vector.body``) is compiled scalar."""
    assert jit.njit is njit
    assert os.environ["NUMBA_LOOP_VECTORIZE"] == "0"
    f = njit(_sum)
    assert f(np.arange(100, dtype=np.int64)) == 4950
    assert "vector.body" not in next(iter(f.inspect_llvm().values()))
