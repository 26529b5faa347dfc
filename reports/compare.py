"""``talesim compare``: what changed in balance between two runs of the same game.

The usual workflow: copy a card file, change one card, rerun with the same seed and
``--cards``, compare. When both runs share the seed, the players and the seat policies,
game g of A and game g of B start from the same random stream (common random numbers),
so the comparison is paired game by game (``metrics.delta_paired``) and is far more
sensitive than comparing two independent samples (``metrics.delta_independent``).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from reports import charts
from reports import metrics as m
from reports.html import Figure, Section, Table, write_page
from reports.run import Run, open_run
from simcore import outdirs
from simcore.runner import RunDirError

#: Manifest keys that must agree for game g of A and game g of B to share their stream.
PAIRING_KEYS = ("seed", "players", "policies", "rotate_seats", "variant")


def is_paired(a: Run, b: Run) -> bool:
    """Same seed, players, variant and seat policies: the games are paired by game id."""
    return all(a.manifest.get(k) == b.manifest.get(k) for k in PAIRING_KEYS)


def check_comparable(a: Run, b: Run) -> None:
    """Refuse runs that cannot be compared, with one line saying why."""
    if a.game != b.game:
        raise RunDirError(f"cannot compare runs of different games: {a.game} vs {b.game}")
    if a.players != b.players:
        raise RunDirError(
            f"cannot compare runs with different player counts: {a.players} vs {b.players}"
        )


def _observations(run: Run, table: str, key: str) -> pl.LazyFrame:
    """One row per observation of ``key`` with its seat's win: game_id, key, win."""
    seats = run.scan("seats").select("game_id", "seat", "win")
    if table == "seats":
        return run.scan("seats").select("game_id", pl.col(key).cast(pl.String), "win")
    return (
        run.scan(table)
        .select("game_id", "seat", pl.col(key).cast(pl.String))
        .join(seats, on=["game_id", "seat"])
        .select("game_id", key, "win")
    )


def _totals(obs: pl.LazyFrame, key: str) -> pl.DataFrame:
    return obs.group_by(key).agg(n=pl.len(), wins=pl.col("win").sum()).collect(engine="streaming")


def compare_table(a: Run, b: Run, table: str, key: str, paired: bool) -> pl.DataFrame:
    """Per value of ``key`` in ``table``: win share in A and B and the change, paired by
    game when the runs share their games."""
    oa, ob = _observations(a, table, key), _observations(b, table, key)
    if paired:
        return m.delta_paired(oa, ob, key, a.players)
    return m.delta_independent(_totals(oa, key), _totals(ob, key), key, a.players)


def build_compare(run_a: Path, run_b: Path, out: Path) -> Path:
    """Write the comparison of ``run_a`` (before) and ``run_b`` (after) into ``out``."""
    a, b = open_run(run_a), open_run(run_b)
    check_comparable(a, b)
    out = Path(out)
    outdirs.check_apart(out, [a.path, b.path], "comparison")
    outdirs.mark_page(out, "compare")
    paired = is_paired(a, b)
    method = (
        "Both runs use the same seed, players, variant and seat policies, so game g of A and "
        "game g of B start from the same random stream: changes are measured game by game "
        "(paired difference, common random numbers) with a normal 95% interval."
        if paired
        else "The runs do not share their games (seed, players, variant or policies differ), "
        "so they are compared as independent samples (Newcombe 95% intervals)."
    )
    sections = []
    if a.has("cards") and b.has("cards"):
        cards = compare_table(a, b, "cards", "card", paired)
        charts.compare_bars(
            cards.select("card", "delta", "significant", lo="delta_lo", hi="delta_hi"),
            out / "card-changes.png",
            "Change in win share when taken, by card (B − A)",
        )
        sections.append(
            Section(
                "cards",
                "Cards",
                (method, "significant: the 95% interval of the change excludes 0."),
                (
                    Table("card-changes", "Change in win share per card", cards),
                    Figure("card-changes.png", "Card changes"),
                ),
            )
        )
    policies = compare_table(a, b, "seats", "policy", paired)
    seats = compare_table(a, b, "seats", "seat", paired)
    sections.append(
        Section(
            "policies",
            "Policies and seats",
            (method,),
            (
                Table("policy-changes", "Change in win share per policy", policies),
                Table("seat-changes", "Change in win share per seat", seats),
            ),
        )
    )
    summary = [
        ("Game", a.game),
        ("Run A", f"{a.path} ({a.n_games:,} games, seed {a.manifest.get('seed')})"),
        ("Run B", f"{b.path} ({b.n_games:,} games, seed {b.manifest.get('seed')})"),
        ("Card data A", str(a.manifest.get("card_sha256", ""))[:16] + "…"),
        ("Card data B", str(b.manifest.get("card_sha256", ""))[:16] + "…"),
        ("Method", "paired by game (common random numbers)" if paired else "independent samples"),
    ]
    return write_page(out, f"talesim compare — {a.game}", summary, sections)
