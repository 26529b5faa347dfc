"""Adaptive against fixed sampling in ``talesim balance`` (not a test): the same search run
with ``--sampling adaptive`` and ``--sampling fixed``, its games and what it proposes.

    python benchmarks/balance_sampling.py -- fairy-tale --players 4 \\
        --levels greedy,learned@5000 --games 20000 --budget 60 --band 0.8:1.25 --seed 7
    python benchmarks/balance_sampling.py --repeat 3 -- paper-tales --players 4 \\
        --policy greedy,warlord,greedy,warlord --games 20000 --budget 30 --band 0.85:1.15

Everything after ``--`` is ``talesim balance``'s arguments but ``--out`` and ``--sampling``.
``--repeat N`` runs each sampling with seeds ``S, S+1, ...`` (a search's path depends on its
seed: one search says little). One JSON object per run: the sampling, the seed, the
trials, the games the trials played and every game played (baselines, trials,
validation, all levels), the child's CPU seconds, the number of edits, whether the proposal
met the band on the search seeds, and the validated band distance: the sum over the
judged (card, level, policy) rows of how far the proposal's 95% interval lies outside the
band on the fresh validation seeds (0 = every card inside). The games are the measure;
the CPU seconds of the first run include compiling any kernel not yet in the cache.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import polars as pl

from talesim.reports.strength import MIN_TAKEN


def measure(out: Path) -> dict[str, object]:
    """Games and the validated band distance of the finished search in ``out``."""
    request = json.loads((out / "request.json").read_text())
    lo, hi = request["band"]
    levels = request["levels"]  # [seats, games, validation games] per level
    history = pl.read_csv(out / "history.csv")
    edits = pl.read_csv(out / "changes.csv").height
    trial_games = int(history["games"].sum()) if history.height else 0
    validation = sum(v for _, _, v in levels) * (2 if edits else 1)
    after = pl.read_csv(out / "cards-before-after.csv").filter(pl.col("n_after") >= MIN_TAKEN)
    gap = pl.max_horizontal(pl.lit(0.0), lo - pl.col("ws_after_hi"), pl.col("ws_after_lo") - hi)
    return {
        "trials": history.height,
        "trial_games": trial_games,
        "all_games": sum(g for _, g, _ in levels) + trial_games + validation,
        "edits": edits,
        "validated_distance": round(float(after.select(gap.sum()).item()), 4),
    }


def run(args: list[str], sampling: str, seed: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "balance"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        cmd = [sys.executable, "-m", "talesim.cli.main", "balance", *args, "--seed", str(seed),
               "--sampling", sampling, "--out", str(out), "--quiet"]  # fmt: skip
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (used.ru_utime - before.ru_utime) + (used.ru_stime - before.ru_stime)
        return {
            "sampling": sampling,
            "seed": seed,
            **measure(out),
            "meets_band": "meets the band" in done.stdout,
            "cpu_seconds": round(cpu, 1),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("balance", nargs=argparse.REMAINDER)
    ns = parser.parse_args()
    args = [a for a in ns.balance if a != "--"]
    seed = 1
    if "--seed" in args:
        i = args.index("--seed")
        seed = int(args[i + 1])
        del args[i : i + 2]
    for k in range(ns.repeat):
        for sampling in ("adaptive", "fixed"):  # alternating: the machine's drift hits both
            print(json.dumps(run(args, sampling, seed + k)), flush=True)


if __name__ == "__main__":
    main()
