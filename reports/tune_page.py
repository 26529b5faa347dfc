"""``OUT/index.html`` of ``talesim tune``: the findings first (the weights that moved, the
tuned against the default weights on fresh seeds with the gain's interval, validated or not),
then the weights, then the search history.

Reads only what ``simcore.tune.run_tune`` hands it; self-contained like every report.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from talesim.reports import charts
from talesim.reports.html import (
    Figure,
    Page,
    Section,
    Table,
    findings_section,
    interval,
    number,
    write_page,
)
from talesim.reports.metrics import difference


def weights_frame(o: Any) -> pl.DataFrame:
    """``weight, default, tuned, change``: the weights row before and after tuning, the
    change relative to the default (null where the default is 0)."""
    df = pl.DataFrame(
        {
            "weight": list(o.weight_names),
            "default": list(o.default),
            "tuned": list(o.tuned.weights),
        },
        schema={"weight": pl.String, "default": pl.Float64, "tuned": pl.Float64},
    )
    change = pl.when(pl.col("default") != 0).then(pl.col("tuned") / pl.col("default") - 1)
    return df.with_columns(change=change)


#: How many weights the findings name (the largest relative changes; the rest are counted).
WEIGHTS_NAMED = 6


def findings(o: Any, weights: pl.DataFrame | None = None) -> list[str]:
    """The page's findings (``talesim tune`` prints them too), from its ``weights`` and
    ``validation`` tables: the weights that moved most, the win share of the tuned and the
    default weights on fresh seeds, the gain (tuned − default) with Newcombe's interval from
    the two rows' intervals, and whether the gain is validated (its interval above 0)."""
    req = o.request
    weights = weights_frame(o) if weights is None else weights
    moved = weights.filter(pl.col("tuned") != pl.col("default")).sort(
        pl.col("change").abs(), descending=True, nulls_last=False
    )
    if moved.height:
        named = ", ".join(
            f"{r['weight']} {r['default']:.4g} → {r['tuned']:.4g}"
            + ("" if r["change"] is None else f" ({r['change']:+.0%})".replace("-", "\u2212"))
            for r in moved.head(WEIGHTS_NAMED).iter_rows(named=True)
        )
        more = f" and {moved.height - WEIGHTS_NAMED} more" if moved.height > WEIGHTS_NAMED else ""
        lead = (
            f"Best weights (trial {o.trial}) against the default {req.base}: {moved.height} of "
            f"{weights.height} changed, the most: {named}{more}."
        )
    else:
        lead = f"Best weights (trial {o.trial}): the default {req.base} weights, unchanged."
    tuned, control = o.validation.row(0, named=True), o.validation.row(1, named=True)
    d, lo, hi = difference(
        (tuned["ws"], tuned["ws_lo"], tuned["ws_hi"]),
        (control["ws"], control["ws_lo"], control["ws_hi"]),
    )
    against = req.against or req.base
    games = req.validation_games or req.n_games
    if not moved.height:
        verdict = (
            "Nothing to validate: the search kept the default weights (a larger --budget or "
            "--games may find better ones)."
        )
    elif lo > 0:
        verdict = "Validated: the gain's interval lies above 0, the tuned weights are stronger."
    elif hi < 0:
        verdict = (
            "Not validated: the gain's interval lies below 0, the tuned weights are weaker on "
            "fresh games than on the search's."
        )
    else:
        verdict = (
            "Not validated: the gain's interval includes 0, these games do not tell the tuned "
            "weights from the default (a larger --games, --validation-games or --budget may)."
        )
    if not moved.height:
        return [
            lead,
            f"Win share of the default {req.base} weights on {games:,} fresh games against "
            f"{req.players - 1} {against} seats: {interval(control)}.",
            verdict,
        ]
    return [
        lead,
        f"Win share on {games:,} fresh games against {req.players - 1} {against} seats: "
        f"{o.tuned.name} {interval(tuned)}, default {req.base} {interval(control)} (same seat, "
        f"same deals); gain {number(d, sign=True)} [{number(lo, sign=True)}, "
        f"{number(hi, sign=True)}] (Newcombe 95%).",
        verdict,
    ]


def write_tune_page(o: Any, out: Path) -> Page:
    """Write ``out/index.html`` (+ CSVs, PNG) for tune outcome ``o``."""
    req = o.request
    against = req.against or req.base
    weights = weights_frame(o)
    kept = weights.filter(pl.col("tuned") != pl.col("default")).height == 0
    val = o.validation.tail(1) if kept else o.validation  # kept: the two rows are one run
    found = findings(o, weights)
    history = pl.DataFrame(o.history)
    charts.xy_line(
        history, out / "search-history.png", "Win share of each trial (search seeds)",
        x="trial", y="ws", xlabel="trial", ylabel="win share of the candidate seat",
    )  # fmt: skip
    load = (
        f"policies.toml beside this page defines {o.tuned.name}"
        + (" (the default weights)" if kept else "")
        + ": load it with --policies-file and name it in --policy like any policy."
    )
    newcombe = (
        "The gain's interval is Newcombe's, from the two rows' Wilson intervals (as if "
        "independent: the shared deals make it, if anything, wider than need be). "
    )
    sections = [
        findings_section(
            found,
            (load if kept else newcombe + load,),
            (Table("validation", "Win share on fresh seeds", val),),
        ),
        Section(
            "weights",
            "Weights",
            (f"The float row {req.base} decides with, before and after tuning.",),
            (
                Table(
                    "weights",
                    "Weights",
                    weights,
                    sortable=False,
                    digits=4,
                    note="change: tuned / default − 1 (empty where the default is 0).",
                ),
            ),
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
            f"{len(o.history)} trial{'' if len(o.history) == 1 else 's'} of up to "
            f"{req.n_games:,} games, seed {req.seed}; "
            f"{req.sampling} sampling: {sum(h['games'] for h in o.history):,} games played",
        ),
        ("Validation", f"{req.validation_games or req.n_games:,} games, seed {req.seed + 1}"),
    ]
    return Page(write_page(out, f"talesim tune — {req.game}", summary, sections), tuple(found))
