"""``OUT/index.html`` of ``talesim balance``: the proposal first (its edits), then every
card's win share before and after on the validation seeds, then the search history.

Reads only what ``simcore.balance.run_balance`` hands it (the outcome and the files it
wrote); the page is self-contained like every report (``reports/html.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from reports import charts
from reports.html import Figure, Section, Table, write_page
from reports.strength import MIN_TAKEN


def _lead(o: Any) -> str:
    lo, hi = o.request.band
    band = f"[{lo}, {hi}]"
    if not o.out_of_band:
        return f"Every judged card's win share was already inside the band {band}: no edit."
    if not o.sites:
        return (
            f"{len(o.out_of_band)} card(s) lie outside the band {band}, but none has an "
            "editable field (balance.toml, --fields): no edit proposed."
        )
    found = "meets" if o.meets_band else "does NOT meet"
    checked = "every judged card inside" if o.validated_in_band else "some card still outside"
    lead = (
        f"Proposal: {len(o.edits)} edit(s), found in trial {o.trial}. On the search seeds it "
        f"{found} the band {band}; on fresh validation seeds: {checked}."
    )
    if not o.meets_band:
        lead += (
            " No edit within the budget brought every card into the band: this is the best "
            "found (smallest distance from the band). Try a larger --budget, --radius or more "
            "--fields."
        )
    return lead


def write_balance_page(o: Any, out: Path) -> Path:
    """Write ``out/index.html`` (+ its CSVs and PNGs) for balance outcome ``o``."""
    req = o.request
    changes = pl.DataFrame(
        {
            "card": [e.site.entity for e in o.edits],
            "field": [e.site.where for e in o.edits],
            "old": [e.site.value for e in o.edits],
            "new": [e.new for e in o.edits],
        },
        schema={"card": pl.String, "field": pl.String, "old": pl.Int64, "new": pl.Int64},
    )
    ba = o.before_after
    charts.before_after_band(
        ba, out / "before-after.png", "Win share when taken, before and after (validation seeds)",
        req.band,
    )  # fmt: skip
    history = pl.DataFrame(
        o.history, schema=["trial", "distance", "size", "out_of_band", "edits"], orient="row"
    )
    charts.search_history(
        history, out / "search-history.png", "Search history: every trial", o.trial
    )
    validation = (
        "The original and the proposal each played fresh games (seed + 1, never seen by the "
        "search); validation/index.html is their full comparison (paired by game)."
        if o.edits
        else "No edit: the validation run is the original card file on fresh seeds."
    )
    sections = [
        Section(
            "proposal",
            "Proposal",
            (
                _lead(o),
                f"Out of band in the baseline ({len(o.out_of_band)}): "
                + (", ".join(o.out_of_band) or "none")
                + (f". No editable field: {', '.join(o.no_site)}" if o.no_site else "")
                + ".",
                "The proposed card file is cards.toml beside this page (load it with --cards); "
                "changes.csv lists the edits.",
            ),
            (Table("changes", "Edits", changes, sortable=False),),
        ),
        Section(
            "validation",
            "Every card before and after (validation seeds)",
            (
                validation,
                f"Cards taken fewer than {MIN_TAKEN} times are not judged (in_band empty).",
            ),
            (
                Figure("before-after.png", "Win share before and after, with the band"),
                Table("cards-before-after", "Win share per card, before and after", ba),
            ),
        ),
        Section(
            "history",
            "Search history",
            (
                "Two objectives, both minimised: distance = the sum over cards of how far the "
                "win share's 95% interval lies outside the band; size = steps changed over all "
                "edited fields. Every trial plays the baseline's seeds (paired). The first "
                "trials are starting points: the out-of-band cards one step towards the band, "
                "together, then each field alone.",
            ),
            (
                Figure("search-history.png", "Search history"),
                Table("history", "Trials", history, digits=4),
            ),
        ),
    ]
    summary = [
        ("Game", f"{req.game}" + (f" ({req.variant})" if req.variant else "")),
        ("Players / policy", f"{req.players} / {req.policy} (seats rotated)"),
        ("Card file", str(o.card_file)),
        ("Band", f"{req.band[0]} – {req.band[1]} (win share; 1.0 = average)"),
        ("Search", f"{len(o.history)} trials of {req.n_games:,} games, seed {req.seed}"),
        ("Validation", f"{req.validation_games or req.n_games:,} games, seed {req.seed + 1}"),
    ]
    return write_page(out, f"talesim balance — {req.game}", summary, sections)
