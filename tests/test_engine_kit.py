"""``engine_kit.bench``: the kernel's rate is the median of its timed runs."""

from __future__ import annotations

import time

from simcore import engine_kit


def test_bench_reports_the_median_of_the_timed_runs() -> None:
    seconds = iter([0.05, 0.20, 0.10])  # a slow run must not move the figure
    calls: list[int] = []

    def simulate(n: int) -> None:
        calls.append(n)
        time.sleep(next(seconds))

    result = engine_kit.bench(
        "toy", "v", 4, "greedy", 1, 100, 2, lambda: None, simulate, lambda g: None
    )
    assert engine_kit.BENCH_RUNS == 3
    assert calls == [100, 100, 100]
    assert 600 < result["numba_games_per_s"] < 1000  # 100 games in ~0.10 s, not 0.05 or 0.20
