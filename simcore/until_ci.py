"""``simulate --until-ci H``: stop a run once every judged card's win share is known to ±H.

The *entities* are those ``reports.strength.card_shares`` rates: each card (the ``cards``
table: one row a copy taken) and, in DRAKO, each Legend (the ``legends`` table: one row a
claim). Over the games stored so far, for entity ``e``::

    n_e  = copies taken (claims)        wins_e = sum of the taking seat's ``win``
    p_e  = wins_e / n_e                 (lo_e, hi_e) = 95% Wilson interval of p_e on n_e
    h_e  = (hi_e - lo_e) x players / 2  (the half-width of its win share when taken)

which are ``n``, ``ws_lo`` and ``ws_hi`` of ``reports.metrics.card_table`` /
``legend_table`` (``metrics.with_win_share`` computes both). ``e`` is *judged* once
``n_e >= MIN_TAKEN`` (100, as ``balance`` judges); the criterion is met when at least one
entity is judged and every judged ``h_e <= H``. An entity taken fewer times does not count
(yet): its share is noise to every reader of the run (``balance`` leaves it out of the
band).

``n_e`` and ``wins_e`` are sums over games, so each chunk's are computed once, from its
frames (local backend) or its Parquet parts (dask, and chunks stored before a resume), and
a prefix of chunks sums its chunks': deciding after a chunk costs O(entities), not a scan
of the run. ``Tracker`` keeps those sums for the contiguous prefix of stored chunks
(chunks may be stored out of order) and evaluates every prefix in turn, so the stopping
point is the first prefix that meets the criterion whatever the completion order: the same
run on every backend.

Nothing here imports polars or ``reports`` at import time (``talesim --help``).
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from talesim.simcore.batch import EncodedPart, RunError

if TYPE_CHECKING:
    import polars as pl

#: Default games per chunk in until-ci mode: the run stops only at a chunk boundary, so a
#: chunk is the most it can overshoot. Fairy Tale (the fastest kernel: the per-chunk work
#: weighs most there) on two cores: 0.1-0.2 s a chunk, a fixed run as fast in chunks of
#: 5,000 as in chunks of 50,000, ~15% slower in chunks of 2,000 and ~60% in chunks of 1,000.
DEFAULT_CHUNK_SIZE = 5_000

#: Copies an entity needs to be judged: fewer and its win share is noise. The one
#: definition: ``reports.strength`` (ladder levels), ``balance`` (the band) and this stop
#: rule all judge by it.
MIN_TAKEN = 100

#: Where each kind of entity comes from: (kind, table, column).
SOURCES = (("card", "cards", "card"), ("legend", "legends", "legend"))


def check_half_width(value: object) -> float:
    """``value`` as a half-width: a finite number above 0, else ``RunError``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RunError(f"--until-ci must be a number above 0, got {value!r}")
    h = float(value)
    if not math.isfinite(h) or h <= 0:
        raise RunError(f"--until-ci must be a number above 0 (a win-share half-width), got {h:g}")
    return h


def needs_tables(tables: tuple[str, ...] | list[str]) -> None:
    """``RunError`` unless a game with these tables can be judged (``cards`` and ``seats``)."""
    missing = [t for t in ("seats", "cards") if t not in tables]
    if missing:
        raise RunError(f"--until-ci needs the {' and '.join(missing)} table, which this game lacks")


def _read(part: Any, columns: list[str]) -> pl.DataFrame:
    """The ``columns`` of one part: a frame, Parquet bytes from a Dask worker, or a file."""
    import polars as pl

    if isinstance(part, EncodedPart):
        return pl.read_parquet(io.BytesIO(part.data), columns=columns)
    if isinstance(part, Path):
        return pl.read_parquet(part, columns=columns)
    return part.select(columns)


def chunk_stats(parts: Mapping[str, Any], players: int) -> pl.DataFrame:
    """One chunk's sufficient statistics: ``kind, entity, n, wins`` (module docstring).

    ``parts`` maps table names to the chunk's frames, ``EncodedPart``s or part files; a
    table in ``SOURCES`` that is missing from it (no ``legends`` outside DRAKO) adds no
    rows. Each copy counts with its seat's ``win``, as ``metrics.card_table`` joins them
    on ``game_id, seat``.
    """
    import polars as pl

    seats = _read(parts["seats"], ["game_id", "seat", "win"])
    out = []
    for kind, table, column in SOURCES:
        if table not in parts:
            continue
        rows = _with_win(_read(parts[table], ["game_id", "seat", column]), seats, players)
        sums = _sums(rows, column)
        out.append(sums.select(pl.lit(kind).alias("kind"), "entity", "n", "wins"))
    return pl.concat(out)


def _sums(rows: pl.DataFrame, column: str) -> pl.DataFrame:
    """``entity, n, wins``: the rows and their ``win`` summed per value of ``column``. An
    Enum column (every engine's card ids) is counted on its codes with ``np.bincount``,
    four times faster than polars' ``group_by``, which is kept for any other dtype."""
    import numpy as np
    import polars as pl

    values = rows[column]
    if isinstance(values.dtype, pl.Enum) and values.null_count() == 0:
        names = values.dtype.categories
        codes = values.to_physical().to_numpy()
        n = np.bincount(codes, minlength=len(names))
        wins = np.bincount(codes, weights=rows["win"].to_numpy(), minlength=len(names))
        taken = n > 0
        return pl.DataFrame(
            {"entity": names.filter(taken), "n": n[taken].astype(np.int64), "wins": wins[taken]}
        )
    return rows.group_by(pl.col(column).cast(pl.String).alias("entity")).agg(
        n=pl.len().cast(pl.Int64), wins=pl.col("win").sum()
    )


def _with_win(rows: pl.DataFrame, seats: pl.DataFrame, players: int) -> pl.DataFrame:
    """``rows`` with the ``win`` of each row's seat (rows without one dropped, as by the
    inner join of ``metrics.card_table``). Engines write ``seats`` as every seat of
    consecutive games in order, so the seat of ``(game_id, seat)`` is row ``(game_id -
    first) * players + seat``: a gather, three times faster than the join, which is kept
    for any other layout."""
    import numpy as np
    import polars as pl

    game = seats["game_id"].to_numpy()
    if len(game):
        first = int(game[0])
        key = (game - first) * players + seats["seat"].to_numpy()
        if np.array_equal(key, np.arange(len(key))):
            at = (rows["game_id"].to_numpy() - first) * players + rows["seat"].to_numpy()
            if len(at) == 0 or (at.min() >= 0 and at.max() < len(key)):
                return rows.with_columns(win=pl.Series(seats["win"].to_numpy()[at]))
    return rows.join(seats, on=["game_id", "seat"])


@dataclass(frozen=True)
class Verdict:
    """The criterion on one prefix of chunks: whether it is met, how many entities are
    judged, the largest judged half-width and whose it is (None: nothing judged)."""

    met: bool
    judged: int
    largest: float | None
    widest: str | None


def half_widths(stats: pl.DataFrame, players: int) -> pl.DataFrame:
    """``kind, entity, n, wins, ws, ws_lo, ws_hi, half_width`` of summed statistics, the
    judged entities only (``n >= MIN_TAKEN``), widest first (ties by kind, entity)."""
    import polars as pl

    from talesim.reports.metrics import with_win_share

    judged = stats.filter(pl.col("n") >= MIN_TAKEN)
    df = with_win_share(judged, "wins", "n", players, "ws")
    df = df.with_columns(half_width=(pl.col("ws_hi") - pl.col("ws_lo")) / 2)
    return df.sort(["half_width", "kind", "entity"], descending=[True, False, False])


def verdict(stats: pl.DataFrame, players: int, half_width: float) -> Verdict:
    """The criterion (module docstring) on the statistics of a prefix of chunks."""
    df = half_widths(stats, players)
    if df.height == 0:
        return Verdict(False, 0, None, None)
    largest = float(df["half_width"][0])
    return Verdict(largest <= half_width, df.height, largest, str(df["entity"][0]))


class Tracker:
    """The criterion over the contiguous prefix of a run's stored chunks.

    ``add(index, stats)`` records chunk ``index``'s statistics (``chunk_stats``), in any
    order; each time the prefix of chunks ``0 .. k-1`` grows, every new prefix with
    ``k >= min_chunks`` is judged in turn, until one meets the criterion: ``stop_at`` is
    then its length ``k`` (None until then) and ``verdict`` its ``Verdict``, which before
    that is the verdict of the longest prefix judged so far. ``min_chunks`` keeps a run
    from stopping before the chunks a resumed complete run already had.
    """

    def __init__(self, half_width: float, players: int, min_chunks: int = 1) -> None:
        self.half_width = half_width
        self.players = players
        self.min_chunks = max(1, min_chunks)
        self.prefix = 0  # chunks 0 .. prefix-1 are summed into _totals
        self.stop_at: int | None = None
        self.verdict: Verdict | None = None
        self._pending: dict[int, pl.DataFrame] = {}
        self._totals: dict[tuple[str, str], list[float]] = {}

    def add(self, index: int, stats: pl.DataFrame) -> None:
        """Record chunk ``index``'s statistics and judge the prefixes they complete."""
        if self.stop_at is not None or index < self.prefix:
            return
        self._pending[index] = stats
        while self.stop_at is None and self.prefix in self._pending:
            for kind, entity, n, wins in self._pending.pop(self.prefix).iter_rows():
                total = self._totals.setdefault((kind, entity), [0, 0.0])
                total[0] += n
                total[1] += wins
            self.prefix += 1
            if self.prefix >= self.min_chunks:
                self.verdict = verdict(self.totals(), self.players, self.half_width)
                if self.verdict.met:
                    self.stop_at = self.prefix
                    self._pending.clear()

    def totals(self) -> pl.DataFrame:
        """``kind, entity, n, wins`` summed over the prefix."""
        import polars as pl

        keys = sorted(self._totals)
        return pl.DataFrame(
            {
                "kind": [k for k, _ in keys],
                "entity": [e for _, e in keys],
                "n": [int(self._totals[k][0]) for k in keys],
                "wins": [float(self._totals[k][1]) for k in keys],
            },
            schema={"kind": pl.String, "entity": pl.String, "n": pl.Int64, "wins": pl.Float64},
        )
