"""The compile settings of ``simcore/jit.py``: LLVM's loop vectoriser per game."""

from __future__ import annotations

import os

import numpy as np
import pytest
from numba import njit
from numba.core import config

from simcore import jit


def _sum(a: np.ndarray) -> int:
    total = 0
    for i in range(a.shape[0]):
        total += a[i]
    return total


@pytest.mark.parametrize("on", [False, True])
def test_the_vectoriser_setting_reaches_llvm(monkeypatch: pytest.MonkeyPatch, on: bool) -> None:
    """A reduction loop is vectorised (LLVM's ``vector.body``) exactly when the wrapper
    says so, whatever the variable said before; the setting is put back after."""
    monkeypatch.setenv("NUMBA_LOOP_VECTORIZE", str(int(not on)))
    before = config.LOOP_VECTORIZE
    f = jit._vectoriser(njit(_sum), on)
    assert f(np.arange(100, dtype=np.int64)) == 4950
    llvm = next(iter(f.inspect_llvm().values()))
    assert ("vector.body" in llvm) == on
    assert os.environ["NUMBA_LOOP_VECTORIZE"] == str(int(not on))
    assert before == config.LOOP_VECTORIZE


def test_each_games_functions_compile_with_its_setting() -> None:
    from simcore.games.drako import kernel as drako
    from simcore.games.fairy_tale import kernel as fairy_tale
    from simcore.games.paper_tales import kernel as paper_tales

    assert {"drako"} == jit.VECTORISED_GAMES
    assert drako.play_game.compile.vectorise is True
    assert fairy_tale._play_game.compile.vectorise is False
    assert paper_tales.play_game.compile.vectorise is False
