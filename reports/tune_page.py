"""``OUT/index.html`` of ``talesim tune``: the validated result first (tuned against default
on fresh seeds), then the weights, then the search history.

Reads only what ``simcore.tune.run_tune`` hands it; self-contained like every report.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
from talesim.reports import charts
from talesim.reports.html import Figure, Section, Table, write_page


def write_tune_page(o: Any, out: Path) -> Path:
    """Write ``out/index.html`` (+ CSVs, PNG) for tune outcome ``o``."""
    req = o.request
    against = req.against or req.base
    val = o.validation
    tuned, control = val.row(0, named=True), val.row(1, named=True)
    better = tuned["ws_lo"] > control["ws_hi"]
    lead = (
        f"{o.tuned.name} (the weights of trial {o.trial}) against {req.players - 1} "
        f"{against} seats on {req.validation_games or req.n_games:,} fresh games: win share "
        f"{tuned['ws']:.3f} (95% {tuned['ws_lo']:.3f}–{tuned['ws_hi']:.3f}); the default "
        f"weights in the same seat, same deals: {control['ws']:.3f} ({control['ws_lo']:.3f}–"
        f"{control['ws_hi']:.3f}). "
        + (
            "The tuned policy is stronger (the intervals do not overlap)."
            if better
            else "The intervals overlap: on these games the tuned policy is not shown to be "
            "stronger than the default (a larger --games or --budget may tell them apart)."
        )
    )
    weights = pl.DataFrame(
        {
            "weight": list(o.weight_names),
            "default": list(o.default),
            "tuned": list(o.tuned.weights),
        }
    )
    history = pl.DataFrame(o.history)
    charts.xy_line(
        history, out / "search-history.png", "Win share of each trial (search seeds)",
        x="trial", y="ws", xlabel="trial", ylabel="win share of the candidate seat",
    )  # fmt: skip
    sections = [
        Section(
            "result",
            "Validated result",
            (
                lead,
                f"policies.toml beside this page defines {o.tuned.name}: load it with "
                f"--policies-file and name it in --policy like any policy.",
            ),
            (Table("validation", "Win share on fresh seeds", val),),
        ),
        Section(
            "weights",
            "Weights",
            (f"The float row {req.base} decides with, before and after tuning.",),
            (Table("weights", "Weights", weights, sortable=False, digits=4),),
        ),
        Section(
            "history",
            "Search history",
            (
                "Every trial plays the same seeds (paired): one candidate seat against "
                f"{against}, seats rotated. Trial 0 is the default weights. "
                + (
                    "Adaptive sampling: a candidate plays 1/8, 1/4, 1/2, then all of the "
                    "games, and stops once its 95% interval lies below the best share a "
                    "candidate reached on every game (games: what it played; the share is "
                    "then over those games)."
                    if req.sampling == "adaptive"
                    else "Fixed sampling: every candidate plays every game."
                ),
            ),
            (
                Figure("search-history.png", "Search history"),
                Table("history", "Trials", history, digits=4),
            ),
        ),
    ]
    summary = [
        ("Game", req.game + (f" ({req.variant})" if req.variant else "")),
        ("Policy", f"{req.base} → {o.tuned.name}, against {against}"),
        ("Players", str(req.players)),
        (
            "Search",
            f"{len(o.history)} trials of up to {req.n_games:,} games, seed {req.seed}; "
            f"{req.sampling} sampling: {sum(h['games'] for h in o.history):,} games played",
        ),
        ("Validation", f"{req.validation_games or req.n_games:,} games, seed {req.seed + 1}"),
    ]
    return write_page(out, f"talesim tune — {req.game}", summary, sections)
