"""Profile a game's numba kernel with ``perf``: writes ``/tmp/perf-PID.map`` (the compiled
functions' symbols, from the object code numba loaded, cached or not) so ``perf report``
names the numba functions.

    perf record -F 2000 -g -o /tmp/kernel.perf -- \\
        .venv/bin/python benchmarks/profile_kernel.py drako --policy greedy --games 20000
    perf report -i /tmp/kernel.perf --no-children --sort sym

Every compiled function of the game's modules is mapped. Only the ``hot_outline`` ones
(a decision, a phase, one game) keep their own symbol: everything ``hot`` is inlined into
them, so to split a phase's time make it ``hot_outline`` in a scratch copy of the tree.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from typing import Any

from cpu_rate import kernel_arguments, warm_engine  # this script's folder is on sys.path

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
    args = kernel_arguments().parse_args()
    keep_object_code()
    from numba.core.registry import CPUDispatcher

    game, engine, prepared = warm_engine(args)
    n = 0
    for name, module in list(sys.modules.items()):
        if name.startswith(game.package + "."):
            for value in vars(module).values():
                if isinstance(value, CPUDispatcher) and value.overloads:
                    n += write_perf_map(value)
    print(f"{n} symbols mapped")
    engine.simulate_arrays(prepared, 1, 0, args.games)


if __name__ == "__main__":
    main()
