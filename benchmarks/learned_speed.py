"""The ``learned`` player's price: games per CPU-second of a table of learned seats (the
game's shipped model) against a table of the heuristic's, alternating, on the same seeds.

    python benchmarks/learned_speed.py fairy-tale --players 4 --games 4000 --reps 3

Three tables run in turn ``--reps`` times each: every seat ``--against`` (default greedy),
every seat ``learned`` at the model's ``top``, and every seat ``learned`` scoring only
greedy's first candidate (``top`` 1: the price of the features and the decision path
without the model's work). Prints each table's median games per CPU-second and its ratio
to the heuristic's (CPU time: a loaded machine moves wall-clock rates by 2x, CPU rates by a
few percent).
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace
from typing import Any

import numba


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("--variant", default=None)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--against", default="greedy")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    from talesim.simcore import runner

    numba.set_num_threads(args.threads)

    def table(policy: str) -> Any:
        return runner.setup(
            args.game, variant=args.variant, players=args.players, policies=[policy] * args.players
        )

    heuristic, learned = table(args.against), table("learned")
    model = learned.prepared.models[0]
    first = replace(learned, prepared=replace(learned.prepared, models=(replace(model, top=1),)))
    tables = {
        args.against: heuristic,
        f"learned (top {model.top})": learned,
        "learned (top 1)": first,
    }
    for s in tables.values():
        s.engine.simulate_arrays(s.prepared, 1, 0, 50)  # compile or load from the cache
    rates: dict[str, list[float]] = {name: [] for name in tables}
    for rep in range(args.reps):
        for name, s in tables.items():
            started = time.process_time()
            s.engine.simulate_arrays(s.prepared, 100 + rep, 0, args.games)
            rates[name].append(args.games / (time.process_time() - started))
    base = statistics.median(rates[args.against])
    print(
        f"{args.game} {learned.variant}, {args.players} players, {args.games} games x {args.reps}"
    )
    for name, r in rates.items():
        rate = statistics.median(r)
        print(f"  {name:18s} {rate:10,.0f} games per CPU-second   {rate / base:6.3f}x")


if __name__ == "__main__":
    main()
