"""``OUT/index.html`` of ``talesim ladder``: the findings first (the ratings with their
intervals, the pairs clearly apart, robust strong and weak cards, the policy-dependent ones
with the levels where they flip, how much the deal decides), then the ladder (ratings with
intervals), the head-to-head matrix, luck and skill, and every card across strength levels
(one column per level, the card's stats beside it).

Reads only what ``simcore.ladder.run_ladder`` hands it; self-contained like every report.
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
    write_page,
)
from talesim.reports.strength import CHECKED_RULE


def _names(df: pl.DataFrame, verdict: str) -> list[str]:
    return df.filter(pl.col("verdict") == verdict)["card"].to_list()


def _pct(x: float | None) -> str:
    return "–" if x is None or x != x else f"{x:.1%}"


def cards_by_level(o: Any) -> pl.DataFrame:
    """One row per card: its stats, verdict, then per level (measured order, weakest
    first) its win share when taken with the 95% interval (``P``, ``P_lo``, ``P_hi``)."""
    wide = o.verdicts.select("card", "verdict").join(o.stats, on="card", how="left")
    for policy in o.levels:
        level = o.cards.filter(pl.col("policy") == policy).select(
            "card",
            pl.col("ws").alias(policy),
            pl.col("ws_lo").alias(f"{policy}_lo"),
            pl.col("ws_hi").alias(f"{policy}_hi"),
        )
        wide = wide.join(level, on="card", how="left")
    return wide.select("card", "stats", "verdict", *wide.columns[3:]).sort(card_order(o))


def card_order(o: Any) -> pl.Expr:
    """A sort key putting a ``card`` column in the card data's order (``o.stats`` lists the
    cards in that order); a card it does not list goes last."""
    order = {card: i for i, card in enumerate(o.stats["card"].to_list())}
    return pl.col("card").replace_strict(order, default=len(order), return_dtype=pl.Int64)


def luck_findings(o: Any) -> list[str]:
    """The deal's share of the outcome at each level and the tournament's split into deal,
    skill and the rest (``luck`` and ``luck-split`` tables)."""
    shares = {r["policy"]: r for r in o.luck.iter_rows(named=True)}
    per_level = "; ".join(
        f"{p} {_pct(shares[p]['deal_share'])} ({_pct(shares[p]['deal_share_lo'])} to "
        f"{_pct(shares[p]['deal_share_hi'])})"
        for p in o.order
        if p in shares
    )
    parts = {r["part"]: r for r in o.decomposition.iter_rows(named=True)}
    split = ", ".join(
        f"{name} {_pct(parts[name]['share'])} ({_pct(parts[name]['share_lo'])} to "
        f"{_pct(parts[name]['share_hi'])})"
        for name in ("deal", "skill", "rest")
        if name in parts
    )
    return [
        f"How much the deal decides a player's outcome, per level (weakest first): {per_level}.",
        f"The tournament's outcome variance: {split}.",
    ]


#: How to read the luck findings (a note under them, not a finding).
LUCK_NOTE = (
    "The deal's share: the part of a player's outcome variance in the tournament that the "
    "deal it gets (its cards and its seat) decides, whatever the others' seating; a share "
    "that grows with the rating means stronger players turn a good deal into a win more "
    "reliably. The rest of the tournament's variance is what neither the deal nor a "
    "policy's average strength explains: the other players' seating and a policy doing "
    "better on some deals or against some opponents than others."
)


def _elo(x: float) -> str:
    """A rating on the Elo scale, signed, a negative one with a true minus: "+52", "−17"."""
    text = f"{x:+.0f}"
    return text.replace("-", "\u2212") if text not in ("+0", "-0") else "0"


def rating_findings(o: Any) -> list[str]:
    """The ladder in a few lines, from the ``ratings`` and ``matchups`` tables: every
    policy's rating with its interval (best first) and its level's games, the strongest and
    the weakest (whether the interval of each clears its neighbour's), and every pair whose
    head-to-head interval excludes even (1.0)."""
    rated = o.ratings.filter(pl.col("rating").is_not_nan()).to_dicts()
    if not rated:
        return ["No policy played another one: no ratings."]
    listed = ", ".join(
        f"{r['policy']} {_elo(r['rating'])} [{_elo(r['rating_lo'])}, {_elo(r['rating_hi'])}]"
        + (
            f" (level of {o.level_sizes[r['policy']]:,} games)"
            if r["policy"] in o.level_sizes
            else ""
        )
        for r in rated
    )
    out = [f"Ratings (Bradley–Terry, Elo scale, 0 = average; 95% interval), best first: {listed}."]
    if len(rated) > 1:
        top, second, last, before = rated[0], rated[1], rated[-1], rated[-2]
        clear_top = top["rating_lo"] > second["rating_hi"]
        clear_last = last["rating_hi"] < before["rating_lo"]
        out.append(
            f"Strongest: {top['policy']}"
            + (" (its interval lies above the next one's)" if clear_top else
               f" (its interval overlaps {second['policy']}'s: the top is not settled)")
            + f"; weakest: {last['policy']}"
            + (" (its interval lies below the next one's)." if clear_last else
               f" (its interval overlaps {before['policy']}'s: the bottom is not settled).")
        )  # fmt: skip
    ahead = o.matrix.filter(pl.col("ws_lo") > 1.0).sort("ws", descending=True)
    pairs = "; ".join(
        f"{r['policy']} ahead of {r['opponent']} {interval(r)}" for r in ahead.iter_rows(named=True)
    )
    out.append(
        "Head to head, pairs whose 95% interval excludes even (1.0): " + pairs + "."
        if pairs
        else "Head to head: every pair's 95% interval includes even (1.0)."
    )
    return out


def findings(o: Any) -> list[str]:
    """The page's findings (``talesim ladder`` prints them too): the ratings, the card
    verdicts across strength, how much the deal decides."""
    return [*rating_findings(o), *verdict_findings(o, verdict_table(o)), *luck_findings(o)]


def verdict_table(o: Any) -> pl.DataFrame:
    """``card, stats, verdict, flips, not_checked``: the findings' verdict table, in card
    order."""
    return (
        o.verdicts.join(o.stats, on="card", how="left")
        .select("card", "stats", "verdict", "flips", "not_checked")
        .sort(card_order(o))
    )


def write_ladder_page(o: Any, out: Path) -> Page:
    """Write ``out/index.html`` (+ CSVs, PNGs) for ladder outcome ``o``."""
    req = o.request
    lo, hi = req.band
    sizes = ", ".join(f"{p} {o.level_sizes[p]:,}" for p in o.order)
    _charts(o, out)
    found = findings(o)
    sections = [
        findings_section(
            found,
            (verdict_note(o, sizes), LUCK_NOTE),
            (Table("verdicts", "Card verdicts across strength", verdict_table(o)),),
        ),
        *_sections(o),
    ]
    summary = [
        ("Game", req.game + (f" ({req.variant})" if req.variant else "")),
        ("Players", str(req.players)),
        ("Policies (given)", ", ".join(o.policies)),
        ("Measured order", ", ".join(o.order) + " (weakest first)"),
        ("Band", f"{lo} – {hi}"),
        ("Levels", f"{sizes} games (self-play), seed {req.seed}"),
    ]
    if req.until_ci is not None:
        summary.append(("Stop rule", f"each level until every judged card's ±{req.until_ci}"))
    return Page(write_page(out, f"talesim ladder — {req.game}", summary, sections), tuple(found))


def verdict_note(o: Any, sizes: str) -> str:
    """What a verdict means at these levels (a note under the findings)."""
    lo, hi = o.request.band
    return (
        f"Verdict levels (measured order, weakest first, random left out): "
        f"{', '.join(o.levels)}; games per level: {sizes}. A card is strong or weak when its "
        f"win share's 95% interval lies wholly above {hi} or below {lo} at every level that "
        "checked it, even when it lies inside the band there, policy-dependent when two "
        "levels disagree, unclear when a level cannot yet tell (its interval straddles an "
        "edge of the band: more games would). " + CHECKED_RULE
    )


def verdict_findings(o: Any, v: pl.DataFrame) -> list[str]:
    """The card verdicts from the ``verdicts`` table: the robust strong and weak cards
    (with their stats), the policy-dependent ones with the levels where they flip, and the
    verdicts some levels did not check."""
    stats = dict(zip(o.stats["card"].to_list(), o.stats["stats"].to_list(), strict=True))

    def named(cards: list[str]) -> str:
        return ", ".join(f"{c} ({stats[c]})" if stats.get(c) else c for c in cards) or "none"

    strong, weak, even = _names(v, "strong"), _names(v, "weak"), _names(v, "even")
    dependent = v.filter(pl.col("verdict") == "policy-dependent")
    unclear = _names(v, "unclear")
    partial = v.filter((pl.col("not_checked") != "") & (pl.col("verdict") != "unclear"))
    return [
        f"Strong at every level ({len(strong)}): {named(strong)}.",
        f"Weak at every level ({len(weak)}): {named(weak)}.",
        f"Policy-dependent ({dependent.height}): "
        + (
            "; ".join(f"{r['card']} ({r['flips']})" for r in dependent.iter_rows(named=True))
            or "none"
        )
        + ".",
        f"Even at every level ({len(even)}); unclear ({len(unclear)}).",
        f"Verdicts from some levels only ({partial.height}): "
        + (
            "; ".join(
                f"{r['card']} {r['verdict']}, not checked at {r['not_checked']}"
                for r in partial.iter_rows(named=True)
            )
            or "none"
        )
        + ".",
    ]


def _charts(o: Any, out: Path) -> None:
    """The page's PNGs: ratings, head-to-head, luck, and the cards across levels."""
    charts.ratings_chart(o.ratings, out / "ratings.png", "Ratings (Bradley–Terry, Elo scale)")
    charts.matchup_heatmap(
        o.matrix, out / "matchups.png", "Head-to-head win share (row vs column)",
        order=o.ratings["policy"].to_list(),
    )  # fmt: skip
    charts.luck_chart(
        o.luck, o.ratings, out / "luck.png", "How much the deal decides a player's outcome"
    )
    charts.level_dots(
        o.cards, o.levels, out / "cards-by-level.png",
        "Win share when taken at each strength level (self-play)", o.request.band,
    )  # fmt: skip


def _sections(o: Any) -> list[Section]:
    """The sections after the findings: the ladder, luck and skill, the cards across
    levels."""
    given, measured = list(o.policies), list(o.order)
    order_note = (
        "The measured order is the one given."
        if measured == given
        else f"The measured order differs from the one given ({', '.join(given)})."
    )
    comps = "; ".join(",".join(c) for c in o.compositions)
    return [
        Section(
            "ladder",
            "The ladder",
            (
                "Bradley–Terry ratings from the tournament (every two seats of a game: who "
                "finished ahead, ties half), 95% intervals from a bootstrap over the "
                "tournament's units (a deal, with every table it was played at). " + order_note,
                f"Tournament: {len(o.compositions)} table composition(s) ({comps}), each "
                f"played in every seating of its {o.request.players} seats ({o.tournament_runs} "
                f"runs of {o.deals:,} deals, the same deals in every run: paired). Every "
                "policy sits in every seat and beside every other equally often, so the "
                "order the policies are listed in changes nothing.",
            ),
            (
                Figure("ratings.png", "Ratings"),
                Table("ratings", "Ratings", o.ratings),
                Figure("matchups.png", "Head-to-head"),
                Table("matchups", "Head-to-head win share", o.matrix),
            ),
        ),
        Section(
            "luck",
            "Luck and skill",
            (
                "The chart and tables behind the last two findings: each policy's deal share "
                "with its 95% interval (a bootstrap over deals), its rating beside it.",
            ),
            (
                Figure("luck.png", "Deal share per policy"),
                Table("luck", "How much the deal decides, per policy", o.luck),
                Table("luck-split", "The tournament's outcome variance", o.decomposition),
            ),
        ),
        Section(
            "cards",
            "Cards across strength levels",
            (
                "Each level is a self-play run of that policy (every seat); the runs this "
                "ladder played are under runs/ (talesim report reads them). One column per "
                "level, weakest first: the card's win share when taken and its 95% "
                "interval (every policy, random included, in cards-by-policy.csv). Rank "
                "correlation: Spearman's rho of the cards' win shares between adjacent "
                "levels.",
            ),
            (
                Table("cards-by-level", "Win share per card and level", cards_by_level(o)),
                Figure("cards-by-level.png", "Win share per card and level"),
                Table(
                    "rank-correlations", "Rank correlation between adjacent levels", o.correlations
                ),
            ),
        ),
    ]
