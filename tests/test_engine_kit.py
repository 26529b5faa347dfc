"""``engine_kit.bench``: the kernel's rate is the median of its timed runs."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from simcore import engine_kit


def test_bench_reports_the_median_of_the_timed_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    # perf_counter before and after each kernel run (100 games in 0.05 s, 0.2 s, 0.1 s),
    # then around the reference's 2 games (1 s): a slow or a fast run must not move the figure
    clock = iter([0.0, 0.05, 1.0, 1.2, 2.0, 2.1, 3.0, 4.0])
    monkeypatch.setattr(engine_kit, "time", SimpleNamespace(perf_counter=lambda: next(clock)))
    calls: list[int] = []
    result = engine_kit.bench(
        "toy", "v", 4, "greedy", 1, 100, 2, lambda: None, calls.append, lambda g: None
    )
    assert engine_kit.BENCH_RUNS == 3
    assert calls == [100, 100, 100]
    assert result["numba_games_per_s"] == pytest.approx(1000.0)
    assert result["reference_games_per_s"] == pytest.approx(2.0)
    assert result["ratio"] == pytest.approx(500.0)
