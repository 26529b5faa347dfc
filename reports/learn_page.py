"""``OUT/index.html`` of ``talesim learn``: the findings first (the best apprentice against
the heuristic and the previous apprentice with intervals, its agreement with the expert that
taught it, its cost against the expert's), then each iteration (win share against the
heuristic and the previous apprentice, agreement with the expert, speed), then what the
model weighs most.

Reads only the summary ``simcore.learn.run`` writes (``learn.json``) and the best model;
self-contained like every report.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from talesim.reports import charts
from talesim.reports.html import (
    Figure,
    Page,
    Section,
    Table,
    findings_section,
    interval,
    write_page,
)
from talesim.simcore.learned import Model

#: Features shown per decision kind in the weights table (the largest).
TOP_FEATURES = 6


def iterations_frame(summary: dict[str, Any]) -> pl.DataFrame:
    """One row an iteration: expert, games so far, decisions, agreement, win shares with
    intervals, speeds."""
    rows = []
    games = 0
    for r in summary["iterations"]:
        games += r["games"]
        vs_h, vs_p = r["vs_heuristic"], r.get("vs_previous")
        speed = r.get("games_per_s", {})
        rows.append(
            {
                "iteration": r["iteration"],
                "expert": r["expert"],
                "expert_games": games,
                "decisions": r["decisions"],
                "agreement": r["agreement"],
                "ws": vs_h["ws"],
                "ws_lo": vs_h["lo"],
                "ws_hi": vs_h["hi"],
                "vs_previous": vs_p["ws"] if vs_p else None,
                "vs_previous_lo": vs_p["lo"] if vs_p else None,
                "vs_previous_hi": vs_p["hi"] if vs_p else None,
                "expert_games_per_s": speed.get("expert"),
                "apprentice_games_per_s": speed.get("apprentice_table"),
                "heuristic_games_per_s": speed.get("heuristic_table"),
            }
        )
    return pl.DataFrame(rows)


def weights_frame(model: Model) -> pl.DataFrame:
    """The features each head weighs most: its linear weight and its weight through the
    hidden units (the sum of |hidden weight x output|), on standardised features."""
    rows = []
    for kind, head in zip(model.kinds, model.heads, strict=True):
        through = np.abs(head.hidden_weights * head.output[None, :]).sum(axis=1)
        size = np.abs(head.linear) + through
        for i in np.argsort(-size, kind="stable")[:TOP_FEATURES]:
            rows.append(
                {
                    "decision": kind,
                    "feature": model.features[i],
                    "linear": float(head.linear[i]),
                    "through_hidden": float(through[i]),
                }
            )
    return pl.DataFrame(rows)


def _against_even(lo: float, hi: float, what: str) -> str:
    if lo > 1.0:
        return f"stronger than {what} (the interval lies above 1.0)"
    if hi < 1.0:
        return f"weaker than {what} (the interval lies below 1.0)"
    return f"not told apart from {what} (the interval includes 1.0)"


def findings(summary: dict[str, Any], frame: pl.DataFrame | None = None) -> list[str]:
    """The page's findings (``talesim learn`` prints them too), from the ``iterations``
    table's best row: the apprentice against the heuristic (its baseline), against the
    previous apprentice, how often it agrees with its teacher (the expert), and what a game
    costs with it against the expert (games per second, where measured)."""
    req = summary["request"]
    frame = iterations_frame(summary) if frame is None else frame
    best = frame.row(summary["best"], named=True)
    against, others = req["against"] or "greedy", req["players"] - 1
    out = [
        f"The learned policy (iteration {best['iteration']}, model.toml) against {others} "
        f"{against} seats, {req['eval_games']:,} games: win share {interval(best)}, "
        + _against_even(best["ws_lo"], best["ws_hi"], f"the {against} seats")
        + ".",
        f"Against its teacher ({best['expert']}): it makes the expert's choice at "
        f"{best['agreement']:.1%} of the held-out searched decisions.",
    ]
    if best["vs_previous"] is not None:
        out.append(
            f"Against the previous iteration's apprentice: win share "
            f"{interval(best, 'vs_previous')}, "
            + _against_even(best["vs_previous_lo"], best["vs_previous_hi"], "it")
            + "."
        )
    fast, slow = best["apprentice_games_per_s"], best["expert_games_per_s"]
    if fast and slow:
        heuristic = best["heuristic_games_per_s"]
        out.append(
            f"Cost, as measured during the run: a table with the apprentice plays "
            f"{fast:,.0f} games/s against {slow:,.1f} games/s for the expert's self-play "
            f"({fast / slow:,.0f}× faster)"
            + (f"; a table of {against} alone {heuristic:,.0f} games/s." if heuristic else ".")
        )
    return out


def write_learn_page(summary: dict[str, Any], model: Model, out: Path) -> Page:
    """Write ``out/index.html`` (+ CSVs, PNG) for a finished ``talesim learn``."""
    req = summary["request"]
    frame = iterations_frame(summary)
    against = req["against"] or "greedy"
    others = req["players"] - 1
    found = findings(summary, frame)
    charts.xy_line(
        frame, out / "win-share.png", f"Apprentice against {others} {against} seats",
        x="iteration", y="ws", lo="ws_lo", hi="ws_hi",
        xlabel="iteration", ylabel="win share of the apprentice",
    )  # fmt: skip
    sections = [
        findings_section(
            found,
            (
                "1.0 is an average seat. policies.toml beside this page names the learned "
                "policy apprentice: --policies-file OUT/policies.toml --policy apprentice, in "
                "simulate, play, ladder, balance, tune, or as mc's playouts.",
            ),
            (Figure("win-share.png", "Win share per iteration"),),
        ),
        Section(
            "iterations",
            "Iterations",
            (
                "Each iteration records the expert's searched decisions (the candidates' "
                "features and mean playout outcomes: iteration-K/decisions.parquet), fits a "
                "model on 90% of the games and measures agreement on the rest; the expert of "
                "the next iteration plays the apprentice in its playouts. It stops when an "
                "apprentice does not beat the previous one (win share above 1.0); the result "
                "is the apprentice with the highest win share against the heuristic.",
            ),
            (Table("iterations", "Iterations", frame, digits=3),),
        ),
        Section(
            "weights",
            "What the model weighs",
            (
                f"For each kind of decision, the {TOP_FEATURES} features with the largest "
                "weights on standardised features: linear, and through the hidden units.",
            ),
            (Table("weights", "Largest weights", weights_frame(model), digits=3),),
        ),
    ]
    summary_rows = [
        ("Game", f"{req['game']} ({req['variant']})"),
        ("Players", str(req["players"])),
        ("Expert", req["expert"]),
        ("Iterations", f"{len(frame)} of at most {req['iterations']}, {req['games']:,} games each"),
        ("Model", f"{model.hidden} hidden units, top {model.top} candidates"),
        ("Seed", str(req["seed"])),
    ]
    index = write_page(out, f"talesim learn — {req['game']}", summary_rows, sections)
    return Page(index, tuple(found))
