"""Profile the DRAKO kernel with ``perf``: writes ``/tmp/perf-PID.map`` (the compiled
kernel's symbols, from the object code numba loaded, cached or not) so ``perf report``
names the numba functions.

    perf record -F 2000 -g -o /tmp/drako.perf -- \\
        .venv/bin/python benchmarks/drako_profile.py --policy greedy --games 20000
    perf report -i /tmp/drako.perf --no-children --sort sym

Only the ``hot_outline`` functions (``best_action``, ``take_turn``, ...) keep their own
symbol: everything ``hot`` is inlined into them.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
from typing import Any

import numba

STASH: dict[int, bytes] = {}


def keep_object_code() -> None:
    """numba hands a cached library's object code to LLVM and forgets it: keep a copy."""
    from numba.core.codegen import CPUCodeLibrary

    original = CPUCodeLibrary._set_compiled_object

    def keep(self: Any, value: bytes) -> None:
        STASH[id(self)] = bytes(value)
        original(self, value)

    CPUCodeLibrary._set_compiled_object = keep  # type: ignore[method-assign]


def write_perf_map(dispatcher: Any) -> int:
    """Append every function symbol of ``dispatcher``'s compiled libraries to the perf map."""
    lines = []
    for cres in dispatcher.overloads.values():
        library = cres.library
        obj = STASH.get(id(library)) or library._get_compiled_object()
        with tempfile.NamedTemporaryFile(suffix=".o") as f:
            f.write(obj)
            f.flush()
            nm = subprocess.run(
                ["nm", "-S", "--defined-only", f.name], capture_output=True, text=True
            ).stdout
        base = None  # where LLVM put the object's .text (one section: offsets carry over)
        symbols = []
        for row in nm.splitlines():
            parts = row.split()
            if len(parts) != 4 or parts[2] not in "tTwW":
                continue
            offset, size, name = int(parts[0], 16), int(parts[1], 16), parts[3]
            symbols.append((offset, size, name))
            if base is None and parts[2] == "T":
                base = library.get_pointer_to_function(name) - offset
        if base is not None:
            lines += [f"{base + o:x} {n:x} {name}" for o, n, name in symbols]
    with open(f"/tmp/perf-{os.getpid()}.map", "a") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--policy", default="greedy")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--games", type=int, default=20000)
    args = ap.parse_args()

    keep_object_code()
    from simcore.games.drako import engine, kernel

    numba.set_num_threads(args.threads)
    prepared = engine.prepare(
        engine.load_cards(), "brief", args.players, [args.policy] * args.players, False
    )
    engine.warmup(prepared)
    n = write_perf_map(kernel.simulate_chunk)
    print(f"{n} symbols mapped")
    engine.simulate_arrays(prepared, 1, 0, args.games)


if __name__ == "__main__":
    main()
