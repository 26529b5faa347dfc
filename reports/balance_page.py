"""``OUT/index.html`` of ``talesim balance``: the findings first (the proposal, the cards in
band before and after at each level, what a designer must check: cards pushed out of band,
stale rules text, skill-dependent verdicts),
then every card's verdict and win share before and after at every level on the validation
seeds, the policies' own win shares, then the search history.

Reads only what ``simcore.balance.run_balance`` hands it (the outcome and the files it
wrote); the page is self-contained like every report (``reports/html.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from talesim.reports import charts
from talesim.reports.html import Figure, Page, Section, Table, findings_section, write_page
from talesim.reports.strength import MIN_TAKEN


def _lead(o: Any) -> str:
    lo, hi = o.request.band
    band = f"[{lo}, {hi}]"
    where = "at every level" if len(o.levels) > 1 else "at its level"
    if not o.out_of_band:
        return f"Every judged card's win share was already inside the band {band} {where}: no edit."
    if not o.sites:
        return (
            f"{len(o.out_of_band)} card(s) lie outside the band {band}, but none has an "
            "editable field (balance.toml, --fields): no edit proposed."
        )
    found = "meets" if o.meets_band else "does NOT meet"
    checked = "every judged card inside" if o.validated_in_band else "some card still outside"
    lead = (
        f"Proposal: {len(o.edits)} edit(s), found in trial {o.trial}. On the search seeds it "
        f"{found} the band {band} {where}; on fresh validation seeds: {checked}."
    )
    if not o.meets_band:
        lead += (
            " No edit within the budget and the guard rails brought every card into the band: "
            "this is the smallest edit among the trials that met as many levels as the best "
            f"one, with a band distance within {o.request.tolerance:g} of its (the trade-off "
            "section lists the others). Try a larger --budget, --radius, --max-steps-per-card "
            "or more --fields."
        )
    return lead


def band_counts(before_after: pl.DataFrame) -> pl.DataFrame:
    """``level, judged, in_band, judged_after, in_band_after`` from the ``cards-before-after``
    table (cards only): per level, the cards some policy judged, and of those the ones in
    band for every policy that judged them, before and after the proposal."""
    cards = before_after.filter(pl.col("kind") == "card")
    aggs = []
    for col, suffix in (("in_band", ""), ("in_band_after", "_after")):
        judged = pl.col(col).is_not_null().any()
        aggs += [
            judged.alias(f"judged{suffix}"),
            (judged & pl.col(col).fill_null(True).all()).alias(f"in_band{suffix}"),
        ]
    per_card = cards.group_by("level", "entity").agg(aggs)
    return (
        per_card.group_by("level")
        .agg(pl.col("judged", "in_band", "judged_after", "in_band_after").sum())
        .sort("level")
    )


def findings(o: Any) -> list[str]:
    """The page's findings (``talesim balance`` prints them too): the proposal, the cards in
    band before and after at each level (``band_counts``), then what a designer must look
    at besides the edits, one sentence each."""
    out = [_lead(o)]
    if o.before_after is not None and o.before_after.height:
        seats = {lv.number: lv.seats for lv in o.levels}
        rows = band_counts(o.before_after).iter_rows(named=True)
        if o.edits:
            counts = "; ".join(
                f"level {r['level']} ({seats.get(r['level'], '')}): {r['in_band']} of "
                f"{r['judged']} → {r['in_band_after']} of {r['judged_after']}"
                for r in rows
            )
            out.append(f"Cards in band on the validation seeds, before → after: {counts}.")
        else:
            counts = "; ".join(
                f"level {r['level']} ({seats.get(r['level'], '')}): {r['in_band']} of {r['judged']}"
                for r in rows
            )
            out.append(f"Cards in band on the validation seeds (no edit): {counts}.")
    if o.pushed_out:
        out.append(
            "Pushed out of band by the proposal (in band before, out after, on the "
            f"validation seeds): {', '.join(o.pushed_out)}."
        )
    if o.stale_text:
        out.append(
            "Rules text NOT rewritten (the old number could not be placed with certainty; "
            f"cards.toml marks it STALE TEXT): {', '.join(o.stale_text)}."
        )
    if o.verdicts is not None:
        skill = [
            f"{r['entity']} {r['after'].removeprefix('skill-dependent ')}"
            for r in o.verdicts.iter_rows(named=True)
            if r["after"].startswith("skill-dependent")
        ]
        if skill:
            out.append("Skill-dependent after the proposal: " + "; ".join(skill) + ".")
    out.append(
        f"Out of band in the baseline, at some level or policy ({len(o.out_of_band)}): "
        + (", ".join(o.out_of_band) or "none")
        + (f". No editable field: {', '.join(o.no_site)}" if o.no_site else "")
        + "."
    )
    return out


def _changes(o: Any) -> pl.DataFrame:
    stale = set(o.stale_text)
    return pl.DataFrame(
        {
            "card": [e.site.entity for e in o.edits],
            "field": [e.site.label for e in o.edits],
            "old": [e.site.value for e in o.edits],
            "new": [e.new for e in o.edits],
            "where": [e.site.where for e in o.edits],
            "text": [
                "stale" if e.site.entity in stale else "rewritten" for e in o.edits
            ],
        },
        schema={"card": pl.String, "field": pl.String, "old": pl.Int64, "new": pl.Int64,
                "where": pl.String, "text": pl.String},
    )  # fmt: skip


def _level_items(o: Any, out: Path) -> list[Figure]:
    """One before/after chart per level (a mixed level labels each card by policy)."""
    figures = []
    for lv in o.levels:
        rows = o.before_after.filter(pl.col("level") == lv.number)
        mixed = rows["policy"].n_unique() > 1
        rows = rows.with_columns(
            label=pl.col("entity") + (" (" + pl.col("policy") + ")" if mixed else pl.lit(""))
        )
        name = f"before-after-{lv.name}.png"
        charts.before_after_band(
            rows, out / name, f"Win share when taken, {lv.name} ({lv.seats}): before and after",
            o.request.band, label="label",
        )  # fmt: skip
        figures.append(Figure(name, f"{lv.name}: {lv.seats}, {lv.validation_games:,} games"))
    return figures


def write_balance_page(o: Any, out: Path) -> Page:
    """Write ``out/index.html`` (+ its CSVs and PNGs) for balance outcome ``o``."""
    req = o.request
    history = pl.DataFrame(
        o.history,
        schema={"trial": pl.Int64, "distance": pl.Float64, "size": pl.Float64,
                "levels_met": pl.Int64, "gap": pl.Float64, "out_of_band": pl.Int64,
                "games": pl.Int64, "edits": pl.String, "repaired": pl.String},
        orient="row",
    )  # fmt: skip
    found = findings(o)
    sections = [
        _proposal_section(o, found),
        _validation_section(o, out),
        _policies_section(o),
        _tradeoff_section(o),
        _history_section(o, out, history),
    ]
    seats = req.policy if req.policy is not None else ", ".join(req.levels) + " (self-play)"
    summary = [
        ("Game", f"{req.game}" + (f" ({req.variant})" if req.variant else "")),
        ("Players / levels", f"{req.players} / {seats} (seats rotated)"),
        ("Card file", str(o.card_file)),
        ("Band", f"{req.band[0]} – {req.band[1]} (win share; 1.0 = average)"),
        ("Search", f"{len(o.history)} trials, seed {req.seed}; games per level: "
                   + ", ".join(f"{lv.games:,}" for lv in o.levels)
                   + f"; {req.sampling} sampling: {history['games'].sum():,} games played"),
        ("Validation", "seed " + str(req.seed + 1) + "; games per level: "
                       + ", ".join(f"{lv.validation_games:,}" for lv in o.levels)),
        ("Guard rails", f"radius {req.radius}, at most {req.max_steps_per_card} steps a card, "
                        "signs kept, no card's last ability number zeroed"),
    ]  # fmt: skip
    return Page(write_page(out, f"talesim balance — {req.game}", summary, sections), tuple(found))


def _proposal_section(o: Any, found: list[str]) -> Section:
    verdicts = "Verdict per card, before and after (validation seeds)"
    return findings_section(
        found,
        (
            "The proposed card file is cards.toml beside this page (load it with --cards); "
            "changes.csv lists the edits by the field names --fields takes. A card is in band "
            "at a level when every policy that judged it there has it inside the band.",
        ),
        (
            Table("changes", "Edits", _changes(o), sortable=False),
            Table("verdicts", verdicts, o.verdicts),
        ),
    )


def _validation_section(o: Any, out: Path) -> Section:
    validation = (
        "At every level the original and the proposal each played fresh games (seed + 1, "
        "never seen by the search); validation/level-K/index.html is their full comparison "
        "(paired by game)."
        if o.edits
        else "No edit: the validation runs are the original card file on fresh seeds."
    )
    return Section(
        "validation",
        "Every card before and after, per level and policy (validation seeds)",
        (
            validation,
            "Each card is judged within each policy of a level (the seats that policy "
            "plays), never pooled over policies of different strength. A verdict is 'in "
            "band' when the card is inside at every level that judged it, "
            "'skill-dependent' when it is out at some levels only (named), 'out' when out "
            f"at every level. Cards taken fewer than {MIN_TAKEN} times at a level and "
            "policy are not judged there (in_band empty).",
        ),
        (
            *_level_items(o, out),
            Table(
                "cards-before-after",
                "Win share per card, level and policy, before and after",
                o.before_after,
            ),
        ),
    )


def _policies_section(o: Any) -> Section:
    levels = pl.DataFrame(
        {
            "level": [lv.number for lv in o.levels],
            "seats": [lv.seats for lv in o.levels],
            "games": [lv.games for lv in o.levels],
            "validation_games": [lv.validation_games for lv in o.levels],
        }
    )
    return Section(
        "policies",
        "The policies' own win shares (reported, never a target)",
        (
            "In a mixed level the policies differ in strength; the search balances the "
            "cards within each policy, not the gap between the policies.",
        ),
        (
            Table("levels", "Levels", levels, sortable=False),
            Table("policies", "Win share per policy, before and after", o.policy_shares),
        ),
    )


def _tradeoff_section(o: Any) -> Section:
    rule = (
        "The proposal is the smallest edit that meets the band at every level, each of its "
        "steps checked as needed."
        if o.meets_band
        else "No trial met the band: the proposal is the smallest edit whose gap is within "
        f"{o.request.tolerance:g} of the best trial's (as many levels met)."
    )
    return Section(
        "tradeoff",
        "Trade-off: edit size against band distance",
        (
            "Every played trial that no other beats on both objectives, smallest edit first: "
            "each is a card file (the cards column) you can simulate with --cards. " + rule,
        ),
        (Table("tradeoff", "Trade-off front", o.tradeoff, digits=4, sortable=False),),
    )


def _history_section(o: Any, out: Path, history: pl.DataFrame) -> Section:
    req = o.request
    charts.search_history(
        history, out / "search-history.png", "Search history: every trial played", o.trial
    )
    sampling = (
        "Adaptive sampling: a candidate plays 1/8, 1/4, 1/2, then all of a level's games, "
        "each round extending the last, and stops at the first round where it is out of band "
        "(games: what it played). "
        if req.sampling == "adaptive"
        else "Fixed sampling: every candidate plays every game of a level. "
    )
    return Section(
        "history",
        "Search history",
        (
            "Two objectives, both minimised: distance = the number of levels a candidate did "
            "not reach + d/(1+d), d being the sum over cards and policies of how far the win "
            "share's 95% interval lies outside the band at the first level it failed (0 = in "
            "band at every level); size = steps changed over all edited fields. A candidate "
            "plays the first level on the baseline's seeds (paired) and is promoted to the "
            "next level only when it meets the band there. The first trials are starting "
            "points: the out-of-band cards one step towards the band, together, then each "
            "field alone. " + sampling + "A candidate beyond a guard rail (more than "
            f"{req.max_steps_per_card} steps on a card, a card's last ability number zeroed) "
            "is brought inside it before it plays (the largest edits cut back, the blanking "
            "edit undone): 'repaired' names the rail, 'edits' what was played.",
        ),
        (
            Figure("search-history.png", "Search history"),
            Table("history", "Trials", history, digits=4),
        ),
    )
