"""Throughput and memory benchmarks (never timed assertions in tests).

    python benchmarks/run_all.py            # kernel vs reference, every variant, 2-5 players
    python benchmarks/run_all.py --full     # + 1,000,000-game simulate end to end with peak RSS,
                                            #   then `talesim report` of that run
    python benchmarks/run_all.py --report RUN   # only time `talesim report` of an existing run

Prints one JSON object per measurement. Peak memory is the child process's ru_maxrss.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def kernel_vs_reference(n_games: int, reference_games: int) -> None:
    from simcore.games.fairy_tale.engine import bench

    for variant, players in [
        ("expert", 4),
        ("expert", 2),
        ("expert", 5),
        ("basic", 4),
        ("beginner", 4),
    ]:
        for policy in ("greedy", "random", "collector"):
            print(
                json.dumps(bench(players, policy, 2, n_games, reference_games, variant)), flush=True
            )


REPORT_CHILD = """
import resource, sys, time
from pathlib import Path
from reports.report import build_report
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


def end_to_end(n_games: int) -> None:
    """`talesim simulate` of n_games 4-player expert greedy games: wall time and peak RSS."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            sys.executable,
            "-m",
            "cli.main",
            "simulate",
            "fairy-tale",
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
        t = time.perf_counter()
        subprocess.run(cmd, check=True, cwd=ROOT)
        wall = time.perf_counter() - t
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        size = sum(f.stat().st_size for f in (Path(tmp) / "run").rglob("*.parquet"))
        report_of(Path(tmp) / "run")
    print(
        json.dumps(
            {
                "benchmark": "simulate_end_to_end",
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
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--reference-games", type=int, default=200)
    ap.add_argument("--full", action="store_true", help="also run 1,000,000 games end to end")
    ap.add_argument("--report", type=Path, help="only time the report of this run directory")
    args = ap.parse_args()
    if args.report:
        report_of(args.report)
        return
    kernel_vs_reference(args.games, args.reference_games)
    if args.full:
        end_to_end(1_000_000)


if __name__ == "__main__":
    main()
