"""Strength and speed of the ``mc`` search policy (not a test).

    python benchmarks/mc_strength.py fairy-tale --variant expert --threads 2
    python benchmarks/mc_strength.py fairy-tale --curve --curve-games 1000
    python benchmarks/mc_strength.py drako --variant brief --heuristics 4000 --blunders 300
    python benchmarks/mc_strength.py paper-tales --variant legends --heuristics 4000

* ``--heuristics``: which heuristic is strongest: 4-player games of two of the game's
  heuristics (``HEURISTICS``: Fairy Tale greedy and collector, DRAKO greedy and
  legend-hunter, Paper Tales greedy, warlord and builder, each pair in turn; two seats
  each, rotated), win share of each (1.0 = an average seat);
* strength: one ``mc`` seat (``--spec``, default its defaults) against three copies of
  ``--opponent`` (default greedy), seats rotated (``--rotate-seats``: every seat equally
  often), ``--games`` games (default 4,000): the mc seat's win share with its 95% interval
  (normal, from the per-game wins), and the games/s of the run (``--threads`` numba threads);
* ``--curve``: the win share against ``rollouts`` (1, 4, 16, 64) at the default ``top``,
  and against ``top`` (1..5) at the default ``rollouts``, ``--curve-games`` games a point:
  a table (Markdown, ``benchmarks/mc_strength_GAME.md``) and a PNG beside it;
* ``--self-play N``: N games of four ``mc`` seats: games/s and playouts per second;
* DRAKO, the blunder of issue 24 (``--blunders N``: also the issue's example runs): the
  share of a seat's games that it ends while behind on the visible score (face-up cards +
  held Legends, before the final reveal) although it could have placed its card on another
  cell, face up before its action: a move that would not have ended the game
  (``kernel._record_end``, recorded by the search kernel); for the mc seat and for its
  opponents in the strength runs.

Paired games: every run uses the same seed, so game g deals the same cards whatever the
mc seat's parameters (its randomness is its own stream).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import time
from pathlib import Path
from typing import Any

import numba
import numpy as np

HERE = Path(__file__).resolve().parent
#: The heuristics each game's strongest one is chosen from (``--heuristics``).
HEURISTICS = {
    "fairy-tale": ("greedy", "collector"),
    "drako": ("greedy", "legend-hunter"),
    "paper-tales": ("greedy", "warlord", "builder"),
}
#: The ``top`` values of the curve.
TOPS = {"fairy-tale": (1, 2, 3, 4, 5), "drako": (1, 2, 4, 8), "paper-tales": (1, 2, 3, 4, 6)}
#: The ``rollouts`` values of the curve.
ROLLOUTS = {"paper-tales": (1, 4, 8, 16)}


def label(game: str, variant: str | None) -> str:
    """The name of a game's curve files: Paper Tales has one per variant."""
    return f"{game}-{variant or 'base'}" if game == "paper-tales" else game


def wins(a: dict[str, Any]) -> np.ndarray:
    """Each seat's share of the win (1/k for k winners): the game's winners when it records
    them (Paper Tales' gold tie-break), rank 1 when it ranks (DRAKO's), else the top score."""
    if "winner" in a:
        won = a["winner"]
    elif "rank" in a:
        won = a["rank"] == 1
    else:
        won = a["score"] == a["score"].max(axis=1, keepdims=True)
    return won / won.sum(axis=1, keepdims=True)


def win_share(
    prepared: Any, engine: Any, seed: int, n: int, slot: int, opponent: int | None = None
) -> dict[str, Any]:
    """Win share (x players) of the seats of ``slot``, with its 95% interval, over ``n``
    games, and the wall time of the kernel; DRAKO runs with an mc seat: the blunders of
    ``slot`` and of ``opponent``."""
    t = time.perf_counter()
    a = engine.simulate_arrays(prepared, seed, 0, n)
    seconds = time.perf_counter() - t
    win = wins(a)
    players = win.shape[1]
    mine = (a["policy"] == slot).astype(float)
    per_game = (win * mine).sum(axis=1) / mine.sum(axis=1) * players
    mean = float(per_game.mean())
    half = 1.96 * float(per_game.std(ddof=1)) / math.sqrt(n)
    out: dict[str, Any] = {
        "games": n,
        "win_share": round(mean, 3),
        "lo": round(mean - half, 3),
        "hi": round(mean + half, 3),
        "seconds": round(seconds, 2),
        "games_per_s": round(n / seconds, 1),
    }
    if "end_alt" in a:
        out.update(blunders(a, slot))
        if opponent is not None:
            out["opponent"] = blunders(a, opponent)
    return out


def blunders(a: dict[str, Any], slot: int) -> dict[str, Any]:
    """DRAKO: of the games the seats of ``slot`` played, the share each ended while behind
    on the visible score with a non-ending placement available; and how many games they
    ended and lost."""
    mine = a["policy"] == slot
    ended = a["ended"] & mine
    vis = a["end_visible"].astype(int)
    players = vis.shape[1]
    best_other = np.stack([np.delete(vis, p, axis=1).max(axis=1) for p in range(players)], axis=1)
    behind = ended & (vis < best_other) & a["end_alt"][:, None]
    lost = ended & (a["rank"] != 1)
    return {
        "seat_games": int(mine.sum()),
        "ended": int(ended.sum()),
        "ended_lost": int(lost.sum()),
        "blunders": int(behind.sum()),
        "blunder_share": round(float(behind.sum() / mine.sum()), 4),
    }


def blunder_examples(variant: str | None, n: int) -> None:
    """The issue's example: ``n`` three-player games (seed 3, seats rotated) of greedy,
    legend-hunter and random, greedy's blunders; then mc in greedy's seat. The heuristics'
    run goes through the search kernel, which records how games end."""
    from talesim.simcore import engine_kit
    from talesim.simcore.games.drako import kernel

    for first in ("greedy", "mc"):
        engine, prepared = prepare("drako", variant, [first, "legend-hunter", "random"])
        table, seat_slot = prepared.slot_table()
        out = engine.result_buffers(n, 3)
        kernel.simulate_chunk_search(
            prepared.tables, prepared.weights, table, seat_slot, True, 3,
            np.uint64(3), 0, n, engine_kit.blocks(n), out, False,
        )  # fmt: skip
        a = out._asdict()
        share = float((wins(a) * (a["policy"] == seat_slot[0])).sum() / n * 3)
        row = {"example": prepared.policies[0], "games": n, "win_share": round(share, 3)}
        print(json.dumps({**row, **blunders(a, int(seat_slot[0]))}), flush=True)


def prepare(game: str, variant: str | None, specs: list[str]) -> tuple[Any, Any]:
    from talesim.simcore import runner

    s = runner.setup(game, variant=variant, players=len(specs), policies=specs, rotate_seats=True)
    return s.engine, s.prepared


def speed_row(spec: str, n: int, seconds: float, playouts: int) -> dict[str, Any]:
    """The row ``self_play`` prints: ``n`` games of ``spec`` on one thread in ``seconds``,
    with ``playouts`` playouts in all."""
    return {
        "spec": spec,
        "games": n,
        "threads": 1,
        "games_per_s": round(n / seconds, 2),
        "playouts_per_s": round(playouts / seconds),
        "playouts_per_game": round(playouts / n),
    }


def self_play(game: str, variant: str | None, spec: str, n: int) -> dict[str, Any]:
    """Four mc seats, ``n`` games on one thread through ``kernel.play_game``: games/s and
    playouts per second (the kernel counts each seat's playouts, ``MC_PO``)."""
    if game in ("drako", "paper-tales"):  # the chunk's ``playouts`` column
        engine, prepared = prepare(game, variant, [spec] * 4)
        numba.set_num_threads(1)
        engine.warmup(prepared)
        t = time.perf_counter()
        a = engine.simulate_arrays(prepared, 1, 0, n)
        seconds = time.perf_counter() - t
        playouts = int(a["playouts"].sum())
        return speed_row(prepared.policies[0], n, seconds, playouts)
    from talesim.simcore.games.fairy_tale import kernel
    from talesim.simcore.games.fairy_tale.reference import Search

    _, prepared = prepare(game, variant, [spec] * 4)
    tb = prepared.tables
    s = kernel.new_state(tb.ct.shape[0], tb.deck.shape[0])
    table, _ = prepared.slot_table()
    codes, _ = prepared.reference_seats(0, Search)
    for p in range(4):
        s.policy[p] = codes[p]
        s.mc_par[p] = table[0, 1:]
    playouts = 0
    t = time.perf_counter()
    for g in range(n):
        kernel.play_game(tb, prepared.weights, s, 4, np.uint64(1), g, False)
        playouts += int(s.mc_playouts[:4].sum())
    seconds = time.perf_counter() - t
    return speed_row(prepared.policies[0], n, seconds, playouts)


def curve(game: str, variant: str | None, opponent: str, n: int, seed: int) -> list[dict]:
    rows = []
    for key, values in (("rollouts", ROLLOUTS.get(game, (1, 4, 16, 64))), ("top", TOPS[game])):
        for v in values:
            spec = f"mc:{key}={v}"
            engine, prepared = prepare(game, variant, [spec, opponent, opponent, opponent])
            r = win_share(prepared, engine, seed, n, int(prepared.slot_table()[1][0]))
            rows.append({"vary": key, "value": v, "spec": prepared.policies[0], **r})
            print(json.dumps(rows[-1]), flush=True)
    return rows


def write_curve(game: str, variant: str | None, rows: list[dict], opponent: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    blunder = "blunder_share" in rows[0]
    lines = [
        f"# mc win share against three {opponent} seats ({label(game, variant)}, 4 players,"
        " seats rotated)",
        "",
        "| vary | value | spec | games | win share | 95% interval | games/s |"
        + (" mc blunders |" if blunder else ""),
        "|---|---|---|---|---|---|---|" + ("---|" if blunder else ""),
    ]
    for r in rows:
        lines.append(
            f"| {r['vary']} | {r['value']} | `{r['spec']}` | {r['games']} | {r['win_share']:.3f} "
            f"| {r['lo']:.3f}-{r['hi']:.3f} | {r['games_per_s']:.1f} |"
            + (f" {r['blunder_share']:.4f} |" if blunder else "")
        )
    (HERE / f"mc_strength_{label(game, variant)}.md").write_text("\n".join(lines) + "\n")
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
    for ax, key in zip(axes, ("rollouts", "top"), strict=True):
        pts = [r for r in rows if r["vary"] == key]
        x = [r["value"] for r in pts]
        y = [r["win_share"] for r in pts]
        err = [[r["win_share"] - r["lo"] for r in pts], [r["hi"] - r["win_share"] for r in pts]]
        ax.errorbar(x, y, yerr=err, marker="o", capsize=3)
        ax.axhline(1.0, color="grey", lw=0.8, ls="--")
        ax.set_xlabel(key + (" (log scale)" if key == "rollouts" else ""))
        if key == "rollouts":
            ax.set_xscale("log", base=2)
        ax.set_title(f"mc win share vs {key}")
    axes[0].set_ylabel(f"win share vs 3 x {opponent} (1.0 = average)")
    fig.tight_layout()
    fig.savefig(HERE / f"mc_strength_{label(game, variant)}.png", dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("--variant", default=None)
    ap.add_argument("--spec", default="mc")
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--heuristics", type=int, default=0, metavar="N")
    ap.add_argument("--curve", action="store_true")
    ap.add_argument("--curve-games", type=int, default=1000)
    ap.add_argument("--self-play", type=int, default=0, metavar="N")
    ap.add_argument("--no-strength", action="store_true")
    ap.add_argument("--blunders", type=int, default=0, metavar="N", help="DRAKO: the example")
    args = ap.parse_args()
    numba.set_num_threads(args.threads)
    if args.heuristics:
        for pair in itertools.combinations(HEURISTICS[args.game], 2):
            specs = list(pair) * 2
            engine, prepared = prepare(args.game, args.variant, specs)
            slots = [int(x) for x in prepared.slot_table()[1]]
            for name in pair:
                r = win_share(
                    prepared, engine, args.seed, args.heuristics, slots[specs.index(name)]
                )
                print(json.dumps({"pair": pair, "heuristic": name, **r}), flush=True)
    if args.blunders:
        blunder_examples(args.variant, args.blunders)
    if not args.no_strength:
        specs = [args.spec] + [args.opponent] * 3
        engine, prepared = prepare(args.game, args.variant, specs)
        engine.warmup(prepared)
        slots = [int(x) for x in prepared.slot_table()[1]]
        r = win_share(prepared, engine, args.seed, args.games, slots[0], slots[1])
        print(json.dumps({"spec": prepared.policies[0], "threads": args.threads, **r}), flush=True)
    if args.curve:
        rows = curve(args.game, args.variant, args.opponent, args.curve_games, args.seed)
        write_curve(args.game, args.variant, rows, args.opponent)
    if args.self_play:
        print(json.dumps(self_play(args.game, args.variant, args.spec, args.self_play)), flush=True)


if __name__ == "__main__":
    main()
