"""Where a game's cold numba compile spends its time: every compiled specialisation with
its exclusive compile CPU seconds (``time.process_time``, steady on a shared machine: its
own typing, lowering and LLVM work, nested compiles excluded), largest first, and the
number of specialisations per function (a function compiled more than once is usually
called with literal or differently typed arguments: see ``simcore/jit.py``). A helper only
compiled code calls is typed and lowered on its own, but LLVM optimises and emits it inside
the entry point that links it (``simcore/link_late.py``): the ``prange`` chunk carries most
of the time.

    .venv/bin/python benchmarks/compile_time.py paper-tales --variant legends [--top 30]

The numba cache is sent to a fresh temporary directory, so the compile is always cold.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter, defaultdict


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("--variant", default=None)
    ap.add_argument("--policy", default="greedy")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument(
        "--copies",
        action="store_true",
        help="for each function compiled more than once, the arguments whose types differ",
    )
    args = ap.parse_args()
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="talesim-cold-")

    from numba.core import event

    stack: list[list] = []  # [name, start, child seconds]
    own: dict[str, float] = defaultdict(float)
    copies: Counter[str] = Counter()
    signatures: dict[str, list[tuple]] = defaultdict(list)

    class Recorder(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            d = ev.data["dispatcher"]
            name = f"{d.py_func.__module__.split('.')[-1]}.{d.py_func.__name__}"
            signatures[name].append(tuple(str(a) for a in ev.data["args"]))
            stack.append(
                [
                    name,
                    time.process_time(),
                    0.0,
                ]
            )

        def on_end(self, ev: event.Event) -> None:
            name, start, children = stack.pop()
            took = time.process_time() - start
            own[name] += took - children
            copies[name] += 1
            if stack:
                stack[-1][2] += took

    event.register("numba:compile", Recorder())
    sys.path.insert(0, os.path.dirname(__file__))
    from cpu_rate import kernel_arguments, warm_engine

    t0 = time.process_time()
    warm_engine(
        kernel_arguments().parse_args(
            [
                args.game,
                *(["--variant", args.variant] if args.variant else []),
                "--policy",
                args.policy,
                "--games",
                "2",
            ]
        )
    )
    total = time.process_time() - t0
    print(f"cold compile and warm-up: {total:.1f} CPU s, {sum(copies.values())} specialisations")
    for name, sec in sorted(own.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"{sec:8.1f} s  x{copies[name]:<3d} {name}")
    if args.copies:
        print("functions compiled more than once (argument position: its types):")
        for name, sigs in sorted(signatures.items()):
            if len(sigs) > 1:
                arity = min(len(sig) for sig in sigs)  # optional arguments: shorter calls
                differ = [i for i in range(arity) if len({sig[i] for sig in sigs}) > 1]
                kinds = "; ".join(
                    f"{i}: {' | '.join(sorted({sig[i] for sig in sigs}))}" for i in differ
                )
                if any(len(sig) != arity for sig in sigs):
                    counts = sorted({len(sig) for sig in sigs})
                    kinds = "; ".join(filter(None, [kinds, f"arguments: {counts}"]))
                print(f"  {name} x{len(sigs)}: {kinds or 'the same types'}")


if __name__ == "__main__":
    main()
