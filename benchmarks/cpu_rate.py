"""Kernel throughput in games per CPU-second, for A/B comparisons on a shared machine.

    python benchmarks/cpu_rate.py fairy-tale --variant expert --policy greedy --threads 1

Runs the game's ``engine.simulate_arrays`` (seed 1) after a warm-up and prints one JSON line
per run: games per CPU-second of the process (``time.process_time``: every thread counts),
games per wall second, and a digest of the result arrays (equal digests: the same games;
``RECORDS`` left out, ``digest_all`` with them).
A loaded machine moves wall-clock rates by 2x but CPU rates by a few percent. To compare
with an older tree, run this file with ``PYTHONPATH=OLD_TREE`` and a separate
``NUMBA_CACHE_DIR``, alternating with the current tree, and keep the best run of each.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from typing import Any

import numba

#: Result arrays that log how a game went (DRAKO's draw log) rather than decide what it is:
#: left out of ``digest``, so a tree that logs them compares with one that does not;
#: ``digest_all`` covers every array.
RECORDS = ("draws",)


def kernel_arguments() -> argparse.ArgumentParser:
    """GAME, --variant, --policy (every seat), --players, --threads, --games."""
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("--variant", default=None)
    ap.add_argument("--policy", default="greedy")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--games", type=int, default=20000)
    return ap


def warm_engine(args: argparse.Namespace) -> tuple[Any, Any, Any]:
    """(game, engine module, prepared configuration) of ``kernel_arguments``' namespace,
    the kernel compiled or loaded from the cache and ``args.threads`` numba threads set."""
    from talesim.simcore import registry

    game = registry.get_game(args.game)
    engine = registry.engine(game)
    variant = game.variant(args.variant).name
    numba.set_num_threads(args.threads)
    policies = [args.policy] * args.players
    prepared = engine.prepare(engine.load_cards(), variant, args.players, policies, False)
    engine.warmup(prepared)
    return game, engine, prepared


def main() -> None:
    ap = kernel_arguments()
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    _, engine, prepared = warm_engine(args)
    for run in range(args.runs):
        c0, w0 = time.process_time(), time.perf_counter()
        out = engine.simulate_arrays(prepared, 1, 0, args.games)
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        digest, digest_all = hashlib.sha256(), hashlib.sha256()
        for key in sorted(out):
            if key not in RECORDS:
                digest.update(out[key].tobytes())
            digest_all.update(out[key].tobytes())
        row = {
            "tree": engine.__file__.rsplit("/simcore/", 1)[0],
            "game": args.game,
            "variant": prepared.variant,
            "policy": args.policy,
            "threads": args.threads,
            "run": run,
            "games_per_cpu_s": float(f"{args.games / cpu:.4g}"),
            "games_per_s": round(args.games / wall),
            "digest": digest.hexdigest()[:12],
            "digest_all": digest_all.hexdigest()[:12],
        }
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
