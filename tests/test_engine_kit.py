"""``engine_kit``: ``bench`` reports the median of its timed runs, ``run_chunk`` is the two
halves of a chunk in a row, ``check_request`` names what is wrong with a request,
``narrate_event`` fills an event kind's template or calls its function."""

from __future__ import annotations

from types import ModuleType, SimpleNamespace

import pytest

from talesim.simcore import engine_kit, registry
from talesim.simcore.registry import GameError


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


def test_games_table_counts_winners_and_shares_the_win() -> None:
    import numpy as np

    score = np.array([[5, 7, 7], [9, 1, 2]], dtype=np.int16)
    games, win = engine_kit.games_table(
        np.array([4, 5]), score, score == score.max(axis=1)[:, None], turns=np.array([3, 8])
    )
    assert games.columns == ["game_id", "turns", "n_winners", "top_score"]
    assert games.rows() == [(4, 3, 2, 7), (5, 8, 1, 9)]
    assert win.tolist() == [[0.0, 0.5, 0.5], [1.0, 0.0, 0.0]]


def test_narrate_final_lists_each_seat_then_the_winners() -> None:
    event = {"breakdown": [{"a": 2, "b": 0}, {"a": 0, "b": -1}], "winners": [0]}
    text = engine_kit.narrate_final("Final:", event, lambda p, parts: f"  seat {p} ({parts})")
    assert text == "Final:\n  seat 0 (a +2)\n  seat 1 (b -1)\nWinner: seat 0"
    event = {"breakdown": [{"a": 0}, {"a": 0}], "winners": [0, 1]}
    text = engine_kit.narrate_final("F", event, lambda p, parts: parts, points="")
    assert text == "F\nnothing\nnothing\nWinners: seat 0, seat 1"


def test_state_key_problems_name_the_keys() -> None:
    assert engine_kit.state_keys_problem({"players": []}, ("variant", "players")) is None
    assert engine_kit.state_keys_problem([], ("players",)) == (
        "the state must be a JSON object with 'players'"
    )
    assert engine_kit.state_keys_problem({"y": 1, "x": 2, "a": 3}, ("a", "b")) == (
        "unknown key(s) x, y (a state has 'a' and 'b')"
    )
    assert engine_kit.player_keys_problem(0, {"g": []}, ("g", "l")) is None
    assert engine_kit.player_keys_problem(2, "grid", ("g", "l")) == (
        "player 2: must be an object with 'g' and 'l'"
    )
    assert engine_kit.player_keys_problem(0, {"g": [], "z": 0}, ("g", "l")) == (
        "player 0: unknown key(s) z"
    )
    assert engine_kit.short_json("x" * 50) == '"' + "x" * 36 + "..."


def test_narrate_event_fills_a_template_or_calls_a_function() -> None:
    lines: dict[str, engine_kit.Line] = {
        "pick": "  pick {pick:>2}: seat {seat} keeps {cards}",
        "final": lambda event: f"winners {event['winners']}",
    }
    pick = {"event": "pick", "pick": 3, "seat": 1, "cards": ["elf", "imp"]}
    assert (
        engine_kit.narrate_event(pick, lines, engine_kit.joined)
        == "  pick  3: seat 1 keeps elf, imp"
    )
    assert engine_kit.narrate_event({"event": "final", "winners": [0]}, lines) == "winners [0]"
    assert engine_kit.narrate_event({"event": "deal"}, lines) == "{'event': 'deal'}"  # not narrated
    assert engine_kit.joined({"cards": [], "seat": 2}, "nothing") == {"cards": "nothing", "seat": 2}
