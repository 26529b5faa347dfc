"""A quick summary of a run directory: throughput, win share by seat and policy, card points.

Reads only ``RUN/manifest.json`` and the Parquet parts (lazy scans), never a game engine.
*Win share* is ``mean(win) × players``: 1.0 is an average seat, 2.0 wins twice its share.
Used by ``talesim simulate --summary`` (and so ``make demo``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
from rich.console import Console
from rich.table import Table


def scan_table(run: Path, table: str) -> pl.LazyFrame:
    """Lazy scan of every finished part of ``table`` (temp files of atomic writes excluded)."""
    return pl.scan_parquet(Path(run) / table / "part-*.parquet")


def seat_win_share(seats: pl.LazyFrame, players: int) -> pl.DataFrame:
    """Per seat: rows, mean score and win share = mean(win) × players."""
    return _win_share(seats, "seat", "games", players)


def policy_win_share(seats: pl.LazyFrame, players: int) -> pl.DataFrame:
    """Per policy (over every seat it played): seats played, mean score, win share."""
    return _win_share(seats, "policy", "seats", players)


def _win_share(seats: pl.LazyFrame, key: str, count: str, players: int) -> pl.DataFrame:
    """Per ``key``: its rows (column ``count``), mean score and win share, by ``key``."""
    return (
        seats.group_by(key)
        .agg(
            pl.len().alias(count),
            mean_score=pl.col("score").mean(),
            win_share=pl.col("win").mean() * players,
        )
        .sort(key)
        .collect()
    )


def card_points(cards: pl.LazyFrame, n: int = 10) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The ``n`` cards with the highest and the ``n`` with the lowest mean ``points``.

    The mean is over the card's rows in the cards table (every (game, seat) holding it);
    ties are broken by card id so the output is stable.
    """
    per_card = (
        cards.group_by("card")
        .agg(rows=pl.len(), mean_points=pl.col("points").cast(pl.Float64).mean())
        .collect()
    )
    top = per_card.sort(["mean_points", "card"], descending=[True, False]).head(n)
    bottom = per_card.sort(["mean_points", "card"]).head(n)
    return top, bottom


@dataclass(frozen=True)
class RunSummary:
    """The numbers ``render_summary`` prints; all frames are small."""

    run: Path
    manifest: dict[str, Any]
    games_per_s: float | None  # n_games / simulation seconds (kernel time, all chunks)
    seats: pl.DataFrame
    policies: pl.DataFrame
    top_cards: pl.DataFrame | None  # None when the run has no cards table with points
    bottom_cards: pl.DataFrame | None


def summarize(run: Path, n_cards: int = 10) -> RunSummary:
    """Summarise run directory ``run`` (manifest + seats and cards tables)."""
    run = Path(run)
    manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
    players = int(manifest["players"])
    seconds = float(manifest.get("simulation_seconds") or 0.0)
    games_per_s = int(manifest["n_games"]) / seconds if seconds > 0 else None
    seats = scan_table(run, "seats")
    top = bottom = None
    if "cards" in manifest.get("tables", []):
        cards = scan_table(run, "cards")
        if "points" in cards.collect_schema().names():
            top, bottom = card_points(cards, n_cards)
    return RunSummary(
        run=run,
        manifest=manifest,
        games_per_s=games_per_s,
        seats=seat_win_share(seats, players),
        policies=policy_win_share(seats, players),
        top_cards=top,
        bottom_cards=bottom,
    )


def _table(frame: pl.DataFrame) -> Table:
    table = Table()
    for name, dtype in frame.schema.items():
        table.add_column(name, justify="right" if dtype.is_numeric() else "left")
    for row in frame.iter_rows():
        table.add_row(*(f"{v:.3f}" if isinstance(v, float) else str(v) for v in row))
    return table


def render_summary(summary: RunSummary, console: Console) -> None:
    """Print the summary as rich tables."""
    m = summary.manifest
    speed = f"{summary.games_per_s:,.0f} games/s" if summary.games_per_s else "n/a"
    console.print(
        f"{m['game']} ({m['variant']}), {m['players']} players, {m['n_games']:,} games, "
        f"seed {m['seed']}: {speed} (kernel time)"
    )
    sections = [
        ("Win share by seat (1.0 = average)", summary.seats),
        ("Win share by policy", summary.policies),
    ]
    if summary.top_cards is not None and summary.bottom_cards is not None:
        n = summary.top_cards.height
        sections += [
            (f"{n} highest-scoring cards (mean points)", summary.top_cards),
            (f"{n} lowest-scoring cards (mean points)", summary.bottom_cards),
        ]
    for title, frame in sections:
        console.print(f"[bold]{title}[/bold]")
        console.print(_table(frame))
