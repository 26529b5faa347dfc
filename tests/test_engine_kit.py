"""``engine_kit``: ``bench`` reports the median of its timed runs, ``run_chunk`` is the two
halves of a chunk in a row, ``check_request`` names what is wrong with a request."""

from __future__ import annotations

from types import ModuleType, SimpleNamespace

import pytest

from simcore import engine_kit, registry
from simcore.registry import GameError


def test_bench_reports_the_median_of_the_timed_runs(
    fake: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # perf_counter before and after each kernel run (100 games in 0.05 s, 0.2 s, 0.1 s),
    # then around the reference's 2 games (1 s): a slow or a fast run must not move the figure
    clock = iter([0.0, 0.05, 1.0, 1.2, 2.0, 2.1, 3.0, 4.0])
    monkeypatch.setattr(engine_kit, "time", SimpleNamespace(perf_counter=lambda: next(clock)))
    result = engine_kit.bench(fake, registry.GAMES["toy"], 4, "greedy", 1, 100, 2)
    assert engine_kit.BENCH_RUNS == 3
    assert fake.warmups == 1
    assert fake.calls == [(0, 100)] * 3  # the kernel's games 0..99 of seed 1, three times
    assert (result["game"], result["variant"], result["players"]) == ("toy", "expert", 4)
    assert result["numba_games_per_s"] == pytest.approx(1000.0)
    assert result["reference_games_per_s"] == pytest.approx(2.0)
    assert result["ratio"] == pytest.approx(500.0)


def test_run_chunk_is_simulate_arrays_then_frames(fake: ModuleType) -> None:
    prepared = fake.prepare(fake.load_cards(), "expert", 3, ["greedy"] * 3, True)
    tables = engine_kit.run_chunk(fake, prepared, 7, 10, 5)
    assert fake.calls == [(10, 5)]
    assert tables["games"]["game_id"].to_list() == list(range(10, 15))
    assert tables["seats"].equals(
        fake.frames(prepared, fake.simulate_arrays(prepared, 7, 10, 5), 10)["seats"]
    )


def test_check_request_names_what_is_wrong() -> None:
    game = registry.GAMES["fairy-tale"]
    engine_kit.check_request(game, "expert", 3, ["greedy", "random", "mc"])
    with pytest.raises(GameError, match="2 policies given for 3 players"):
        engine_kit.check_request(game, "expert", 3, ["greedy", "random"])
    with pytest.raises(GameError, match="no-such-policy"):
        engine_kit.check_request(game, "expert", 3, ["greedy", "random", "no-such-policy"])
    with pytest.raises(GameError):
        engine_kit.check_request(game, "basic", 5, ["greedy"] * 5)
