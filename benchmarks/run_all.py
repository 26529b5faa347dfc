"""Throughput and memory benchmarks (never timed assertions in tests).

    python benchmarks/run_all.py            # kernel vs reference: every simulating game,
                                            #   variant and policy (4 players; also 2 and 5
                                            #   for the default variant where allowed)
    python benchmarks/run_all.py --game drako   # one game only
    python benchmarks/run_all.py --full     # + 1,000,000 four-player greedy games end to end
                                            #   per game (peak RSS), then `talesim report`
    python benchmarks/run_all.py --report RUN   # only time `talesim report` of an existing run

Prints one JSON object per measurement. Peak memory is the child process's ru_maxrss.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def simulating_games(only: str | None) -> list[str]:
    from talesim.simcore import registry

    return [name for name, g in registry.GAMES.items() if g.simulates and only in (None, name)]


def kernel_vs_reference(game: str, n_games: int, reference_games: int) -> None:
    """``talesim bench`` of every variant x policy with 4 players, and of the default
    variant with the fewest and most players it allows."""
    from talesim.simcore import engine_kit, registry

    g = registry.get_game(game)
    engine = registry.engine(g)
    default = g.variant(None)
    cases = [(v.name, 4) for v in g.variants if v.kernel and v.min_players <= 4 <= v.max_players]
    cases += [(default.name, n) for n in (default.min_players, default.max_players) if n != 4]
    for variant, players in cases:
        for policy in g.policies:
            result = engine_kit.bench(
                engine, g, players, policy, 2, n_games, reference_games, variant
            )
            print(json.dumps(result), flush=True)


REPORT_CHILD = """
import resource, sys, time
from pathlib import Path
from talesim.reports.report import build_report
t = time.perf_counter()
build_report(Path(sys.argv[1]), Path(sys.argv[2]))
wall = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{wall} {peak}")
"""


def report_of(run: Path) -> None:
    """`talesim report` of ``run`` in a fresh process: wall time and that process's peak RSS."""
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", REPORT_CHILD, str(run), str(Path(tmp) / "report")],
            check=True, cwd=ROOT, capture_output=True, text=True,
        )  # fmt: skip
        total = time.perf_counter() - t
    wall, peak = map(float, out.stdout.split())
    print(
        json.dumps(
            {
                "benchmark": "report",
                "run": str(run),
                "build_s": round(wall, 2),
                "process_s": round(total, 2),
                "peak_rss_mb": round(peak),
            }
        )
    )


def run_measured(cmd: list[str]) -> tuple[float, float]:
    """Run ``cmd`` (must succeed): its wall time and the peak RSS of that one child (MB)."""
    t = time.perf_counter()
    child = subprocess.Popen(cmd, cwd=ROOT)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - t
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}")
    return wall, usage.ru_maxrss / 1024


def end_to_end(game: str, n_games: int) -> None:
    """`talesim simulate` of n_games 4-player greedy games (default variant): wall time and
    peak RSS of that child process."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            sys.executable,
            "-m",
            "talesim.cli.main",
            "simulate",
            game,
            "--games",
            str(n_games),
            "--players",
            "4",
            "--seed",
            "1",
            "--policy",
            "greedy",
            "--out",
            str(Path(tmp) / "run"),
            "--quiet",
        ]
        wall, peak_mb = run_measured(cmd)
        size = sum(f.stat().st_size for f in (Path(tmp) / "run").rglob("*.parquet"))
        report_of(Path(tmp) / "run")
    print(
        json.dumps(
            {
                "benchmark": "simulate_end_to_end",
                "game": game,
                "games": n_games,
                "wall_s": round(wall, 2),
                "games_per_s": round(n_games / wall),
                "peak_rss_mb": round(peak_mb),
                "parquet_mb": round(size / 2**20, 1),
            }
        )
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", help="only this game (default: every game that simulates)")
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--reference-games", type=int, default=200)
    ap.add_argument("--full", action="store_true", help="also run 1,000,000 games end to end")
    ap.add_argument("--report", type=Path, help="only time the report of this run directory")
    args = ap.parse_args()
    if args.report:
        report_of(args.report)
        return
    for game in simulating_games(args.game):
        kernel_vs_reference(game, args.games, args.reference_games)
        if args.full:
            end_to_end(game, 1_000_000)


if __name__ == "__main__":
    main()
