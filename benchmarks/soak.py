"""Soak benchmark: a long run of every game in chunks, for leaks and slow-downs.

    python benchmarks/soak.py                       # 10,000,000 games of each game
    python benchmarks/soak.py --games 2000000 --keep runs/soak
    python benchmarks/soak.py --game drako --policy random --games 1000000

Runs `talesim simulate` in a child process (4 players, greedy, default chunk size) and
prints one JSON object per game: wall time, peak RSS of the child, and games/s of the
first and last chunks (from the manifest's per-chunk kernel seconds) — a leak shows as
growing RSS, a slow-down as a falling last/first ratio.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

from run_all import run_measured, simulating_games  # this directory is on sys.path


def soak(game: str, n_games: int, out: Path, policy: str) -> dict[str, object]:
    cmd = [sys.executable, "-m", "talesim.cli.main", "simulate", game, "--games", str(n_games)]
    cmd += ["--players", "4", "--seed", "1", "--policy", policy, "--out", str(out), "--quiet"]
    wall, peak_mb = run_measured(cmd)
    chunks = json.loads((out / "manifest.json").read_text())["chunks"]
    rate = [c["n_games"] / c["seconds"] for c in chunks]
    return {
        "benchmark": "soak",
        "game": game,
        "games": n_games,
        "policy": policy,
        "chunks": len(chunks),
        "wall_s": round(wall, 1),
        "peak_rss_mb": round(peak_mb),
        "first_chunk_games_per_s": round(rate[0]),
        "last_chunk_games_per_s": round(rate[-1]),
        # single chunks vary by a few % (the Parquet writer shares the cores): compare tens
        "first_10_games_per_s": round(sum(rate[:10]) / len(rate[:10])),
        "last_10_games_per_s": round(sum(rate[-10:]) / len(rate[-10:])),
        "last_over_first": round(
            sum(rate[-10:]) / len(rate[-10:]) / (sum(rate[:10]) / len(rate[:10])), 3
        ),
        "parquet_mb": round(sum(f.stat().st_size for f in out.rglob("*.parquet")) / 2**20),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=10_000_000)
    ap.add_argument("--keep", type=Path, help="keep the runs under this directory")
    ap.add_argument("--game", action="append", help="only these games (repeatable)")
    ap.add_argument("--policy", default="greedy", help="policy of every seat")
    args = ap.parse_args()
    base = args.keep or Path(tempfile.mkdtemp(prefix="talesim-soak-"))
    try:
        for game in args.game or simulating_games(None):
            out = base / game
            if out.exists():
                shutil.rmtree(out)
            print(json.dumps(soak(game, args.games, out, args.policy)), flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
