"""``simulate --until-ci H``: the criterion (``simcore.until_ci``) and runs that stop by it.

The criterion is checked on hand-made frames against hand-computed Wilson half-widths; the
runs are Fairy Tale (four greedy seats, chunks of 500 games, a loose H so that a run stops
after a few thousand games): where they stop (not one chunk late), that the result is an
ordinary run of the games stored (same bytes as a fixed run), the max-games stop, resuming
an interrupted run, extending a complete one, bad input through the CLI, and one run on a
local Dask cluster.
"""

from __future__ import annotations

import functools
import json
import math
import shlex
import shutil
import signal
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from kit import error_line, invoke, part_bytes

from talesim.reports.strength import MIN_TAKEN, card_shares
from talesim.simcore import registry, runner
from talesim.simcore import until_ci as ci
from talesim.simcore.batch import encode_part
from talesim.simcore.runner import RunDirError

H = 0.08  # met after a few thousand games
CHUNK = 500
MAX = 20_000
ARGS: dict[str, Any] = {
    "players": 4,
    "policies": "greedy",
    "seed": 7,
    "chunk_size": CHUNK,
    "progress": False,
}
CLI_ARGS = [
    *("simulate", "fairy-tale", "--players", "4", "--policy", "greedy", "--seed", "7"),
    *("--chunk-size", str(CHUNK), "--quiet"),
]
#: Manifest keys that differ between two runs of the same games (times).
TIMES = ("created", "finished", "simulation_seconds")


def manifest(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "manifest.json").read_text())
    return data


def without_times(m: dict[str, Any]) -> dict[str, Any]:
    """``m`` without its times and ``until_ci`` block: what a fixed run of the games shares."""
    chunks = [{k: v for k, v in c.items() if k != "seconds"} for c in m["chunks"]]
    return {k: v for k, v in m.items() if k not in (*TIMES, "until_ci")} | {"chunks": chunks}


def stored_verdict(out: Path, chunks: int, h: float) -> ci.Verdict:
    """The criterion on the first ``chunks`` stored chunks, from their part files."""
    tracker = ci.Tracker(h, 4, min_chunks=chunks)
    for i in range(chunks):
        parts = {t: runner.part_path(out, t, i) for t in ("seats", "cards")}
        tracker.add(i, ci.chunk_stats(parts, 4))
    assert tracker.verdict is not None
    return tracker.verdict


@pytest.fixture(scope="module")
def stopped(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int]]:
    """A run until ``H``, and the first game of every chunk the kernel computed."""
    out = tmp_path_factory.mktemp("until") / "run"
    engine = registry.engine(registry.get_game("fairy-tale"))
    computed: list[int] = []
    original = engine.simulate_arrays

    @functools.wraps(original)
    def counting(prepared: Any, seed: int, first: int, n: int, check: bool = False) -> Any:
        if n == CHUNK:  # not warmup's two games
            computed.append(first)
        return original(prepared, seed, first, n, check)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(engine, "simulate_arrays", counting)
        runner.simulate("fairy-tale", n_games=MAX, out=out, until_ci=H, **ARGS)
    return out, computed


# --- the criterion ---------------------------------------------------------------------------


def test_chunk_stats_sum_copies_and_their_seats_wins() -> None:
    """Three two-player games (a win, a tie, a win): copies count with their seat's win."""
    seats = pl.DataFrame(
        {"game_id": [0, 0, 1, 1, 2, 2], "seat": [0, 1] * 3, "win": [1, 0, 0.5, 0.5, 0, 1]},
        schema={"game_id": pl.Int64, "seat": pl.Int8, "win": pl.Float64},
    )
    cards = pl.DataFrame(
        {"game_id": [0, 0, 0, 1, 1, 2], "seat": [0, 0, 1, 0, 1, 1], "card": list("aababa")},
        schema={"game_id": pl.Int64, "seat": pl.Int8, "card": pl.Enum(["a", "b"])},
    )
    legends = pl.DataFrame({"game_id": [2], "seat": [1], "legend": ["x"]})
    want = pl.DataFrame(
        {"kind": ["card", "card", "legend"], "entity": ["a", "b", "x"], "n": [4, 2, 1]}
        | {"wins": [3.5, 0.5, 1.0]}
    )
    frames = {"seats": seats, "cards": cards, "legends": legends}
    for parts in (
        frames,
        {t: encode_part(f) for t, f in frames.items()},  # from a Dask worker
        frames | {"seats": seats.reverse()},  # another row order: joined, not gathered
    ):
        got = ci.chunk_stats(parts, 2).sort("kind", "entity")
        assert got.equals(want), got


def test_verdict_on_hand_computed_wilson_half_widths() -> None:
    """Four players; p and n give these 95% Wilson half-widths of the win rate (z = 1.96...),
    times 4: p 0.25 on 100 -> 0.3351850437, 0.3 on 400 -> 0.1789391476, 0.5 on 120 ->
    0.3522451784; a card taken 99 times is not judged."""
    stats = pl.DataFrame(
        {
            "kind": ["card", "card", "card", "legend"],
            "entity": ["a", "b", "rare", "x"],
            "n": [100, 400, MIN_TAKEN - 1, 120],
            "wins": [25.0, 120.0, 99.0, 60.0],
        }
    )
    widths = ci.half_widths(stats, 4)
    assert widths["entity"].to_list() == ["x", "a", "b"]
    assert widths["half_width"].to_list() == pytest.approx(
        [0.35224517835566455, 0.3351850437154786, 0.17893914764264898], abs=1e-12
    )
    assert ci.verdict(stats, 4, 0.36) == ci.Verdict(True, 3, widths["half_width"][0], "x")
    assert ci.verdict(stats, 4, 0.35).met is False
    assert ci.verdict(stats.filter(pl.col("entity") == "rare"), 4, 1.0) == ci.Verdict(
        False, 0, None, None
    )


def test_tracker_judges_each_prefix_in_order_whatever_the_arrival_order() -> None:
    def chunk(n: int, wins: float) -> pl.DataFrame:
        return pl.DataFrame({"kind": ["card"], "entity": ["a"], "n": [n], "wins": [wins]})

    # p 0.25, 2 players: half-width 0.0846 on 400 copies, 0.0599155 on 800
    tracker = ci.Tracker(0.07, 2)
    tracker.add(2, chunk(400, 100.0))
    tracker.add(1, chunk(400, 100.0))
    assert (tracker.prefix, tracker.stop_at, tracker.verdict) == (0, None, None)
    tracker.add(0, chunk(400, 100.0))  # prefix 1 does not meet it, prefix 2 does
    assert (tracker.prefix, tracker.stop_at) == (2, 2)
    assert tracker.verdict is not None
    assert tracker.verdict.largest == pytest.approx(0.0599155, abs=1e-7)
    assert ci.Tracker(0.07, 2, min_chunks=3).min_chunks == 3
    late = ci.Tracker(0.07, 2, min_chunks=3)
    for i in range(3):
        late.add(i, chunk(400, 100.0))
    assert late.stop_at == 3  # never before min_chunks


def test_check_half_width() -> None:
    assert ci.check_half_width(0.02) == 0.02
    for bad in (0, -0.1, math.nan, math.inf, True, "0.1"):
        with pytest.raises(runner.RunError, match="--until-ci must be a number above 0"):
            ci.check_half_width(bad)


# --- runs ---------------------------------------------------------------------------------


def test_stops_after_the_first_chunk_that_meets_it(stopped: tuple[Path, list[int]]) -> None:
    out, computed = stopped
    m = manifest(out)
    n = m["n_games"]
    k = len(m["chunks"])
    assert m["status"] == "complete"
    assert n == k * CHUNK < MAX
    block = m["until_ci"]
    assert block["stopped"] == "half-width"
    assert (block["half_width"], block["max_games"], block["extended_from"]) == (H, MAX, 0)
    assert block["largest_half_width"] <= H
    assert stored_verdict(out, k, H).largest == pytest.approx(block["largest_half_width"], 1e-12)
    assert stored_verdict(out, k - 1, H).met is False  # not one chunk late
    # the local backend computed at most the next chunk, and dropped it
    assert computed in ([c * CHUNK for c in range(k)], [c * CHUNK for c in range(k + 1)])
    assert sorted(p.name for p in (out / "cards").iterdir()) == [
        f"part-{i:05d}.parquet" for i in range(k)
    ]


def test_manifest_numbers_are_card_shares_of_the_finished_run(
    stopped: tuple[Path, list[int]],
) -> None:
    out, _ = stopped
    block = manifest(out)["until_ci"]
    shares = card_shares(out).filter(pl.col("n") >= MIN_TAKEN)
    widths = shares.with_columns(h=(pl.col("ws_hi") - pl.col("ws_lo")) / 2).sort("h")
    assert abs(block["largest_half_width"] - widths["h"][-1]) < 1e-9
    assert block["widest"] == widths["entity"][-1]
    assert block["judged"] == shares.height


def test_the_run_is_a_fixed_run_of_the_games_stored(
    stopped: tuple[Path, list[int]], tmp_path: Path
) -> None:
    out, _ = stopped
    n = manifest(out)["n_games"]
    fixed = tmp_path / "fixed"
    runner.simulate("fairy-tale", n_games=n, out=fixed, **ARGS)
    assert part_bytes(out) == part_bytes(fixed)
    assert without_times(manifest(out)) == without_times(manifest(fixed))
    for table in ("games", "seats", "cards"):
        a = pl.read_parquet(out / table / "part-*.parquet")
        assert a.equals(pl.read_parquet(fixed / table / "part-*.parquet"))


def test_a_run_that_never_meets_it_stops_at_the_maximum(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = runner.simulate("fairy-tale", n_games=1200, out=out, until_ci=0.001, **ARGS)
    assert (result.stopped, result.n_games, result.games) == ("max-games", 1200, 1200)
    assert result.largest_half_width is not None
    assert result.largest_half_width > 0.001
    m = manifest(out)
    assert [c["n_games"] for c in m["chunks"]] == [500, 500, 200]
    assert m["until_ci"]["stopped"] == "max-games"
    assert m["until_ci"]["largest_half_width"] == result.largest_half_width
    fixed = tmp_path / "fixed"
    runner.simulate("fairy-tale", n_games=1200, out=fixed, **ARGS)
    assert part_bytes(out) == part_bytes(fixed)
    assert without_times(m) == without_times(manifest(fixed))


def test_an_interrupted_run_resumes_and_keeps_checking(
    stopped: tuple[Path, list[int]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C during the second chunk (the CLI stops after it and prints how to finish);
    a fixed-size resume is refused; the printed command finishes it, with the data of the
    uninterrupted run."""
    whole, _ = stopped
    engine = registry.engine(registry.get_game("fairy-tale"))
    original = engine.simulate_arrays

    def ctrl_c(prepared: Any, seed: int, first: int, n: int, check: bool = False) -> Any:
        if first == CHUNK:
            signal.raise_signal(signal.SIGINT)
        return original(prepared, seed, first, n, check)

    monkeypatch.setattr(engine, "simulate_arrays", ctrl_c)
    out = tmp_path / "run"
    result = invoke(*CLI_ARGS, "--games", MAX, "--until-ci", H, "--out", out)
    assert result.exit_code == 130, result.output
    again = result.stderr.strip().splitlines()[-1].partition("finish with: ")[2]
    assert f" --until-ci {H} " in again
    m = manifest(out)
    assert m["status"] == "running"
    assert m["until_ci"]["stopped"] is None
    assert [c["done"] for c in m["chunks"][:3]] == [True, True, False]
    monkeypatch.setattr(engine, "simulate_arrays", original)

    with pytest.raises(RunDirError, match=r"unfinished --until-ci run .* with --until-ci$"):
        runner.simulate("fairy-tale", n_games=MAX, out=out, resume=True, **ARGS)
    assert manifest(out) == m

    result = invoke(*shlex.split(again)[1:])
    assert result.exit_code == 0, result.output
    n = manifest(whole)["n_games"]
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith(f"stopped at {n:,} games: every judged card's 95% win-share half")
    assert f"half-width is at most {H} (largest " in last
    assert part_bytes(out) == part_bytes(whole)
    assert without_times(manifest(out)) == without_times(manifest(whole))


def test_a_complete_run_extends_to_a_smaller_half_width(
    stopped: tuple[Path, list[int]], tmp_path: Path
) -> None:
    """The stored games are kept and more chunks played until the smaller H: the same run
    as one started with that H (whose first meeting prefix cannot be shorter)."""
    out = tmp_path / "run"
    shutil.copytree(stopped[0], out)
    before = manifest(out)["n_games"]
    result = runner.simulate("fairy-tale", n_games=MAX, out=out, until_ci=0.06, resume=True, **ARGS)
    assert result.stopped == "half-width"
    assert result.resumed_games == before < result.n_games
    assert manifest(out)["until_ci"]["extended_from"] == before
    fresh = tmp_path / "fresh"
    runner.simulate("fairy-tale", n_games=MAX, out=fresh, until_ci=0.06, **ARGS)
    assert part_bytes(out) == part_bytes(fresh)
    assert manifest(out)["n_games"] == manifest(fresh)["n_games"]

    # more than the games stored, as a maximum: refused, nothing changed
    with pytest.raises(RunDirError, match=r"holds games up to .*, more than the maximum"):
        runner.simulate("fairy-tale", n_games=1000, out=out, until_ci=0.06, resume=True, **ARGS)


def test_a_fixed_run_with_a_short_last_chunk_is_extended_whole(tmp_path: Path) -> None:
    """A 1,200-game run (chunks 500, 500, 200) extended by --until-ci plays its last chunk
    again as a whole one and never stops below 1,200 games."""
    out = tmp_path / "run"
    runner.simulate("fairy-tale", n_games=1200, out=out, **ARGS)
    result = runner.simulate("fairy-tale", n_games=MAX, out=out, until_ci=H, resume=True, **ARGS)
    assert result.resumed_games == 1000
    assert result.n_games >= 1500
    assert manifest(out)["until_ci"]["extended_from"] == 1200
    fixed = tmp_path / "fixed"
    runner.simulate("fairy-tale", n_games=result.n_games, out=fixed, **ARGS)
    assert part_bytes(out) == part_bytes(fixed)


def test_progress_bar_shows_the_half_width_and_the_games_it_predicts(
    stopped: tuple[Path, list[int]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(runner, "_stderr_is_tty", lambda: True)
    monkeypatch.setenv("COLUMNS", "200")  # rich's width: the whole bar on one line
    kwargs = ARGS | {"progress": True}
    runner.simulate("fairy-tale", n_games=MAX, out=tmp_path / "run", until_ci=H, **kwargs)
    err = capsys.readouterr().err
    n = manifest(stopped[0])["n_games"]
    assert f"target ±{H})" in err
    assert f"{n}/{n}" in err  # the total ends at the games stored, not at the maximum


@pytest.mark.parametrize("value", ["0", "-0.5", "abc", "nan", "inf"])
def test_bad_half_width_is_one_error_line(tmp_path: Path, value: str) -> None:
    out = tmp_path / "run"
    result = invoke(*CLI_ARGS, "--games", 1000, "--until-ci", value, "--out", out)
    assert result.exit_code == 2
    assert error_line(result).startswith(
        "error: Invalid value for '--until-ci'" if value == "abc" else "error: --until-ci must be"
    )
    assert not out.exists()


def test_until_ci_with_overwrite_replaces_a_run(
    stopped: tuple[Path, list[int]], tmp_path: Path
) -> None:
    out = tmp_path / "run"
    runner.simulate("fairy-tale", n_games=700, out=out, **ARGS)
    result = invoke(*CLI_ARGS, "--games", MAX, "--until-ci", H, "--out", out, "--overwrite")
    assert result.exit_code == 0, result.output
    assert part_bytes(out) == part_bytes(stopped[0])


def test_on_a_local_dask_cluster(stopped: tuple[Path, list[int]], tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "dask"
    result = runner.simulate(
        "fairy-tale", n_games=MAX, out=out, until_ci=H, backend="dask", threads=2, **ARGS
    )
    assert result.stopped == "half-width"
    assert part_bytes(out) == part_bytes(stopped[0])
    assert without_times(manifest(out)) == without_times(manifest(stopped[0]))


def test_help_says_games_becomes_the_maximum() -> None:
    result = invoke("simulate", "--help")
    assert result.exit_code == 0
    assert "--until-ci" in result.stdout
    assert "the maximum" in result.stdout


def test_a_complete_run_resumed_with_more_games_is_extended_to_exactly_them(
    tmp_path: Path,
) -> None:
    """A fixed-size resume with a larger --games keeps the stored chunks (the short last
    one is played again whole) and stops at exactly that many games: the same run as one
    of that size; a smaller --games is refused."""
    out = tmp_path / "run"
    runner.simulate("fairy-tale", n_games=1200, out=out, **ARGS)
    result = runner.simulate("fairy-tale", n_games=2600, out=out, resume=True, **ARGS)
    assert (result.resumed_games, result.n_games) == (1000, 2600)
    assert manifest(out).get("until_ci") is None
    fixed = tmp_path / "fixed"
    runner.simulate("fairy-tale", n_games=2600, out=fixed, **ARGS)
    assert part_bytes(out) == part_bytes(fixed)
    assert without_times(manifest(out))["chunks"] == without_times(manifest(fixed))["chunks"]
    with pytest.raises(RunDirError, match="n_games is 2600 in the manifest but 2000"):
        runner.simulate("fairy-tale", n_games=2000, out=out, resume=True, **ARGS)
