"""A finished run directory, opened for reading by ``report`` and ``compare``.

Reports read only ``RUN/manifest.json`` and the Parquet parts; they never import a game
engine, so they work on any game whose dataset follows design.md. Anything wrong with
the directory is a ``RunDirError`` with one line naming the problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from talesim.simcore.runner import RunDirError, RunResult, read_manifest

#: Columns every game's ``seats`` table has (design.md); the reports rely on them.
SEAT_COLUMNS = ("game_id", "seat", "policy", "score", "rank", "win")
CARD_COLUMNS = ("game_id", "seat", "card")


@dataclass(frozen=True)
class Run:
    """A complete run directory: its manifest and lazy scans of its tables.

    Each table is also an attribute: ``run.seats``, ``run.games``, ``run.cards`` (and a
    game's own, e.g. ``run.draws``) are ``run.scan(name)``. ``simulation`` is what the
    ``simulate`` call that returned this run did (games, seconds, why it stopped), None
    for a run opened from disk."""

    path: Path
    manifest: dict[str, Any]
    simulation: RunResult | None = None

    @property
    def game(self) -> str:
        return str(self.manifest["game"])

    @property
    def players(self) -> int:
        return int(self.manifest["players"])

    @property
    def n_games(self) -> int:
        return int(self.manifest["n_games"])

    @property
    def tables(self) -> tuple[str, ...]:
        return tuple(self.manifest.get("tables", ()))

    def has(self, table: str) -> bool:
        return table in self.tables

    def scan(self, table: str) -> pl.LazyFrame:
        """Lazy scan of every finished part of ``table`` (temp files excluded)."""
        return pl.scan_parquet(self.path / table / "part-*.parquet")

    def columns(self, table: str) -> list[str]:
        return self.scan(table).collect_schema().names()

    def __getattr__(self, name: str) -> pl.LazyFrame:
        """``run.<table>``: the lazy scan of that table (``AttributeError`` for any other name)."""
        if name.startswith("_") or name not in self.manifest.get("tables", ()):
            raise AttributeError(f"run {self.path} has no table {name!r} (tables: "
                                 f"{', '.join(self.manifest.get('tables', ()))})")  # fmt: skip
        return self.scan(name)


def open_run(path: Path, simulation: RunResult | None = None) -> Run:
    """Open run directory ``path`` for reading; ``RunDirError`` unless it is a complete run
    whose tables are all present and readable. ``simulation``: what the call that just
    wrote it did, kept on the run."""
    path = Path(path)
    if not path.is_dir():
        raise RunDirError(f"{path} is not a directory")
    manifest = read_manifest(path)
    for key in ("game", "players", "n_games", "tables"):
        if key not in manifest:
            raise RunDirError(f"{path / 'manifest.json'} has no '{key}'")
    if manifest.get("status") != "complete":
        done = sum(1 for c in manifest["chunks"] if c.get("done"))
        raise RunDirError(
            f"{path} is an unfinished run ({done} of {len(manifest['chunks'])} chunks); "
            "finish it with `talesim simulate ... --resume` first"
        )
    run = Run(path, manifest, simulation)
    if not run.has("seats"):
        raise RunDirError(f"{path} has no seats table")
    for table in run.tables:
        if not any((path / table).glob("part-*.parquet")):
            raise RunDirError(f"{path} is missing the Parquet parts of table '{table}'")
        try:
            names = run.columns(table)
        except (pl.exceptions.PolarsError, OSError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise RunDirError(f"{path / table} is not readable Parquet ({first})") from None
        required = {"seats": SEAT_COLUMNS, "cards": CARD_COLUMNS}.get(table, ())
        missing = [c for c in required if c not in names]
        if missing:
            raise RunDirError(f"{path / table} lacks column(s) {', '.join(missing)}")
    return run
