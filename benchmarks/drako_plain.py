"""DRAKO's kernel run as plain Python (``NUMBA_DISABLE_JIT=1``): call counts a game and a
digest of the games, without compiling anything (a cold compile takes minutes).

    NUMBA_DISABLE_JIT=1 .venv/bin/python benchmarks/drako_plain.py --games 20 \\
        --count evaluate_change,reveal_bound,gain_of,dragons_after_card

The LLVM intrinsics the kernel uses (``trailing_zeros``, ``ctpop``) have no Python body, so
they are replaced by Python ones first. ``--count`` wraps the named functions of
``policies.py`` and ``incremental.py`` as the decisions call them (a function inlined into
another one is counted only where that module calls it by its own name). The digest is
``cpu_rate.py``'s (sha256 of the result arrays): two trees play the same games when their
digests agree, which takes ~0.1-0.3 s a greedy game in plain Python; it is not the compiled
digest of the same games (``cpu_rate.py`` runs 20,000), compare plain with plain.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import time
from collections.abc import Callable
from typing import Any


def plain_intrinsics() -> None:
    """Python bodies for the compiled-only helpers of the DRAKO modules."""
    from talesim.simcore.games.drako import incremental, kernel, policies, scoring

    def trailing_zeros(x: int) -> int:
        x = int(x)
        return (x & -x).bit_length() - 1

    for module in (scoring, incremental, policies, kernel):
        if hasattr(module, "trailing_zeros"):
            module.trailing_zeros = trailing_zeros  # type: ignore[attr-defined]
    scoring._ctpop = lambda x: bin(int(x) & ((1 << 64) - 1)).count("1")  # type: ignore[assignment]


def counted(names: list[str]) -> collections.Counter[str]:
    """Count the calls of ``names`` from the policies and the incremental scorer."""
    from talesim.simcore.games.drako import incremental, policies

    calls: collections.Counter[str] = collections.Counter()

    def wrap(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            calls[name] += 1
            return func(*args)

        return call

    for name in names:
        for module in (policies, incremental):
            if hasattr(module, name):
                setattr(module, name, wrap(name, getattr(module, name)))
    return calls


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--policy", default="greedy")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rules", default="brief")
    ap.add_argument("--count", default="", help="comma-separated function names")
    args = ap.parse_args()
    from talesim.simcore.games.drako import engine

    plain_intrinsics()
    calls = counted([n for n in args.count.split(",") if n])
    prepared = engine.prepare(
        engine.load_cards(), args.rules, args.players, [args.policy] * args.players, False
    )
    t = time.perf_counter()
    out = engine.simulate_arrays(prepared, 1, 0, args.games)
    seconds = time.perf_counter() - t
    digest = hashlib.sha256()
    for key in sorted(out):
        if key != "draws":  # the draw log: left out as ``cpu_rate.RECORDS`` leaves it out
            digest.update(out[key].tobytes())
    print(f"tree {engine.__file__.rsplit('/simcore/', 1)[0]}  digest {digest.hexdigest()[:12]}")
    print(f"{args.games} {args.policy} games in {seconds:.1f} s")
    for name, n in sorted(calls.items()):
        print(f"{name:24s} {n / args.games:10.1f} a game")


if __name__ == "__main__":
    main()
