"""Line-level profile of DRAKO's compiled game (``play_game`` is one big function, so a
symbol profile says nothing): run it under ``perf`` with a debug-info build, then map each
sample through ``addr2line -i`` of the object code numba loaded onto the source lines and
the (inlined) functions they belong to.

    NUMBA_DEBUGINFO=1 NUMBA_CACHE_DIR=/tmp/drako-dbg perf record -F 4000 -o /tmp/d.perf -- \\
        .venv/bin/python benchmarks/drako_lines.py run --policy greedy --games 20000
    .venv/bin/python benchmarks/drako_lines.py report /tmp/d.perf [--top 60]

``run`` writes ``/tmp/drako-lines/`` (each compiled library's object code and where it was
loaded) and ``/tmp/perf-PID.map``; ``report`` reads ``perf script`` of the recording.
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
from pathlib import Path

OUT = Path("/tmp/drako-lines")


def run(argv: list[str]) -> None:
    sys.path.insert(0, os.path.dirname(__file__))
    from cpu_rate import kernel_arguments, warm_engine
    from profile_kernel import STASH, keep_object_code, write_perf_map

    args = kernel_arguments().parse_args(["drako", *argv])
    keep_object_code()
    from numba.core.registry import CPUDispatcher

    game, engine, prepared = warm_engine(args)
    OUT.mkdir(exist_ok=True)
    index = []
    for name, module in list(sys.modules.items()):
        if not name.startswith(game.package + "."):
            continue
        for value in vars(module).values():
            if not (isinstance(value, CPUDispatcher) and value.overloads):
                continue
            write_perf_map(value)
            for cres in value.overloads.values():
                lib = cres.library
                obj = STASH.get(id(lib)) or lib._get_compiled_object()
                path = OUT / f"{len(list(OUT.glob('*.o')))}.o"
                path.write_bytes(obj)
                nm = subprocess.run(
                    ["nm", "-S", "--defined-only", str(path)], capture_output=True, text=True
                ).stdout
                syms, base = [], None
                for row in nm.splitlines():
                    parts = row.split()
                    if len(parts) == 4 and parts[2] in "tTwW":
                        off, size, sym = int(parts[0], 16), int(parts[1], 16), parts[3]
                        syms.append((off, size, sym))
                        if base is None and parts[2] == "T":
                            base = lib.get_pointer_to_function(sym) - off
                if base is not None:
                    index += [{"obj": str(path), "sym": sym, "addr": base + off, "off": off,
                               "size": size} for off, size, sym in syms]  # fmt: skip
    (OUT / "index.json").write_text(json.dumps(index))
    engine.simulate_arrays(prepared, 1, 0, args.games)


def report(argv: list[str]) -> None:
    perf_file = argv[0]
    top = int(argv[argv.index("--top") + 1]) if "--top" in argv else 60
    index = json.loads((OUT / "index.json").read_text())
    ips = subprocess.run(
        ["perf", "script", "-i", perf_file, "-F", "ip"], capture_output=True, text=True
    ).stdout.split()
    per_obj: dict[str, list[int]] = collections.defaultdict(list)
    total = len(ips)
    inside = 0
    for h in ips:
        ip = int(h, 16)
        for e in index:
            if e["addr"] <= ip < e["addr"] + e["size"]:
                per_obj[e["obj"]].append(ip - e["addr"] + e["off"])
                inside += 1
                break
    lines: collections.Counter[str] = collections.Counter()
    funcs: collections.Counter[str] = collections.Counter()  # innermost function
    chains: collections.Counter[str] = collections.Counter()  # every function on the chain
    for obj, offs in per_obj.items():
        uniq = sorted(set(offs))
        out = subprocess.run(
            ["addr2line", "-f", "-i", "-a", "-e", obj, *[hex(o) for o in uniq]],
            capture_output=True, text=True,
        ).stdout.splitlines()  # fmt: skip
        where: dict[int, list[tuple[str, str]]] = {}
        cur = None
        i = 0
        while i < len(out):
            if out[i].startswith("0x"):
                cur = int(out[i], 16)
                where[cur] = []
                i += 1
                continue
            fn, loc = out[i], out[i + 1] if i + 1 < len(out) else "?"
            fn = fn.split("::")[-1] if "::" in fn else fn
            where[cur].append((short(fn), loc.rsplit("/", 1)[-1].split(" ")[0]))
            i += 2
        counts = collections.Counter(offs)
        for off, n in counts.items():
            chain = where.get(off, [("?", "?")])
            lines[f"{chain[0][1]:28s} {chain[0][0]}"] += n
            funcs[chain[0][0]] += n
            for fn in {f for f, _ in chain}:
                chains[fn] += n
    print(f"{total} samples, {inside} in DRAKO code")
    print("\n== innermost function (self) ==")
    for k, n in funcs.most_common(top):
        print(f"{100 * n / inside:6.2f}% {k}")
    print("\n== function incl. inlined callees ==")
    for k, n in chains.most_common(top):
        print(f"{100 * n / inside:6.2f}% {k}")
    print("\n== lines ==")
    pick = argv[argv.index("--fn") + 1] if "--fn" in argv else None
    for k, n in lines.most_common(top if pick is None else 100000):
        if pick is not None and not k.endswith(pick):
            continue
        print(f"{100 * n / inside:6.2f}% {k}")


def short(fn: str) -> str:
    import re

    m = re.search(r"_ZN(.*)", fn)
    if not m:
        return fn
    t = m.group(1)
    out = []
    while t and t[0].isdigit():
        n = re.match(r"\d+", t).group(0)  # type: ignore[union-attr]
        t = t[len(n) :]
        out.append(t[: int(n)])
        t = t[int(n) :]
    return ".".join(out[-2:])


if __name__ == "__main__":
    {"run": run, "report": report}[sys.argv[1]](sys.argv[2:])
