"""``OUT/index.html`` of ``talesim ladder``: the findings first (robust strong and weak
cards, then the policy-dependent ones with the levels where they flip), then the ladder
(ratings with intervals), the head-to-head matrix and every card across strength levels.

Reads only what ``simcore.ladder.run_ladder`` hands it; self-contained like every report.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from reports import charts
from reports.html import Figure, Section, Table, write_page


def _names(df: pl.DataFrame, verdict: str) -> list[str]:
    return df.filter(pl.col("verdict") == verdict)["card"].to_list()


def write_ladder_page(o: Any, out: Path) -> Path:
    """Write ``out/index.html`` (+ CSVs, PNGs) for ladder outcome ``o``."""
    req = o.request
    lo, hi = req.band
    v = o.verdicts
    strong, weak, even = _names(v, "strong"), _names(v, "weak"), _names(v, "even")
    dependent = v.filter(pl.col("verdict") == "policy-dependent")
    unclear = _names(v, "unclear")
    levels = ", ".join(o.levels)
    given = list(o.policies)
    measured = list(o.order)
    order_note = (
        "The measured order is the one given."
        if measured == given
        else f"The measured order differs from the one given ({', '.join(given)})."
    )
    findings = [
        f"Verdict levels (measured order, weakest first, random left out): {levels}. A card "
        f"is strong or weak when its win share's 95% interval lies wholly above {hi} or below "
        f"{lo} at every level, even when it lies inside the band at every level, "
        "policy-dependent when two levels disagree, unclear when some level cannot tell "
        "(its interval straddles an edge of the band: more games would).",
        f"Strong at every level ({len(strong)}): {', '.join(strong) or 'none'}.",
        f"Weak at every level ({len(weak)}): {', '.join(weak) or 'none'}.",
        f"Policy-dependent ({dependent.height}): "
        + (
            "; ".join(f"{r['card']} ({r['flips']})" for r in dependent.iter_rows(named=True))
            or "none"
        )
        + ".",
        f"Even at every level ({len(even)}); unclear ({len(unclear)}).",
    ]
    charts.ratings_chart(o.ratings, out / "ratings.png", "Ratings (Bradley–Terry, Elo scale)")
    charts.matchup_heatmap(o.matrix, out / "matchups.png", "Head-to-head win share (row vs column)")
    long = o.cards.filter(pl.col("policy").is_in(list(o.levels))).select(
        pl.col("card").alias("item"), pl.col("policy").alias("series"), "ws", "ws_lo", "ws_hi"
    )
    charts.band_dots(
        long, out / "cards-by-level.png",
        "Win share when taken at each strength level (self-play)", req.band,
        list(reversed(o.levels)),
    )  # fmt: skip
    sections = [
        Section(
            "findings",
            "Findings",
            tuple(findings),
            (Table("verdicts", "Card verdicts across strength, with each level's status", v),),
        ),
        Section(
            "ladder",
            "The ladder",
            (
                "Bradley–Terry ratings from the tournament (every two seats of a game: who "
                "finished ahead, ties half), 95% intervals from a bootstrap over deals. "
                + order_note,
                f"Tournament: {len(o.tables)} table(s) of {req.players} seats, each deal "
                "replayed in every rotation of its seats (the same seed: paired deals).",
            ),
            (
                Figure("ratings.png", "Ratings"),
                Table("ratings", "Ratings", o.ratings),
                Figure("matchups.png", "Head-to-head"),
                Table("matchups", "Head-to-head win share", o.matrix),
            ),
        ),
        Section(
            "cards",
            "Cards across strength levels",
            (
                "Each level is a self-play run of that policy (every seat): its run "
                "directory is under runs/ (talesim report reads it). Rank correlation: "
                "Spearman's rho of the cards' win shares between adjacent levels.",
            ),
            (
                Figure("cards-by-level.png", "Win share per card and level"),
                Table(
                    "rank-correlations", "Rank correlation between adjacent levels", o.correlations
                ),
                Table("cards-by-policy", "Win share per card and policy", o.cards),
            ),
        ),
    ]
    summary = [
        ("Game", req.game + (f" ({req.variant})" if req.variant else "")),
        ("Players", str(req.players)),
        ("Policies (given)", ", ".join(o.policies)),
        ("Measured order", ", ".join(o.order) + " (weakest first)"),
        ("Band", f"{lo} – {hi}"),
        ("Self-play", f"{req.n_games:,} games per policy, seed {req.seed}"),
    ]
    return write_page(out, f"talesim ladder — {req.game}", summary, sections)
