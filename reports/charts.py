"""Every chart of the balance report, written as PNG files with matplotlib.

Each public function takes a small polars frame with the documented columns and an output
path, writes ONE PNG exactly 1200 px wide (12 in at 100 dpi; the height grows with the
number of rows or panels), closes its figure and returns the path.

Conventions shared by all charts:

* *Win share* is ``win rate × players``: 1.0 is an average seat, drawn as a dashed
  reference line labelled "average". Intervals (``lo``/``hi``) are 95% Wilson intervals
  computed by the caller, on the same scale as the value.
* An empty frame gives a PNG with a centred "no data" message; a null/NaN interval bound
  draws the point without an error bar; labels longer than 28 characters are cut with "…".
  Rows whose plotted value itself is null/NaN are left out, and the axis label says how many.
* Output is deterministic: matplotlib's defaults plus the fixed style below, whatever the
  user's matplotlibrc says; no jitter (overlapping series are shifted by fixed offsets);
  the bundled DejaVu Sans font, nothing fetched.

This module is imported only by the report code, never by the CLI entry point, so importing
matplotlib here does not slow ``talesim --help``. It selects the non-interactive Agg backend.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import polars as pl

matplotlib.use("Agg")  # before pyplot: no display, no GUI toolkit

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator, PercentFormatter

WIDTH_IN = 12.0  # × DPI = 1200 px, the width every report PNG has
DPI = 100
LABEL_CHARS = 28  # longer card/policy/building names are cut to this many characters
ROW_IN = 0.24  # height of one row in bar charts: 17 pt, room for 9-10 pt labels
# Agg refuses images taller than 2**16 px; 300 in (30,000 px) holds ~1,200 bar rows.
MAX_HEIGHT_IN = 300.0
SMALL_PT = 9  # smallest text anywhere (annotations, dense tick labels)

UP = "#2166ac"  # blue: above average / increase
DOWN = "#b2182b"  # red: below average / decrease
NEUTRAL = "0.6"  # grey: interval includes the reference, or not significant
REF = "0.3"  # reference lines (1.0 = average, 0 = no change)
LEVEL_COLOURS = ("#1b9e77", "#d95f02", "#7570b3", "#e7298a")  # building level 1, 2, …
LEVEL_STYLES: tuple[Any, ...] = ("-", ":", "-.", (0, (6, 2)))  # level in the combined chart

_STYLE: dict[str, Any] = {
    "font.size": 11,
    "axes.titlesize": 14,
    "axes.labelsize": 11,
    "xtick.labelsize": 10,
    "ytick.labelsize": 10,
    "legend.fontsize": 10,
    "figure.titlesize": 14,
    "figure.labelsize": 11,
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.color": "0.88",
    "grid.linewidth": 0.6,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "savefig.bbox": "standard",  # "tight" would change the width
    "savefig.dpi": DPI,
    "figure.dpi": DPI,
}


# --- shared helpers --------------------------------------------------------------------------


@contextmanager
def _canvas(height_in: float, width_in: float = WIDTH_IN) -> Iterator[Figure]:
    """A figure in the report style, 12 inches wide unless told (a heatmap sized to its
    matrix), closed on exit even after an error."""
    height = round(min(max(height_in, 2.5), MAX_HEIGHT_IN), 2)
    with plt.style.context(["default", _STYLE]):
        fig = plt.figure(figsize=(width_in, height), dpi=DPI, layout="constrained")
        try:
            yield fig
        finally:
            plt.close(fig)


def _save(fig: Figure, path: Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI, format="png")
    return path


def _title(title: str, chars: int = 90) -> str:
    """Wrap long titles at ``chars`` characters (14 pt on 12 in holds about 100)."""
    return "\n".join(textwrap.wrap(title, chars)) or title


def _no_data(path: Path, title: str) -> Path:
    with _canvas(3.0) as fig:
        ax = fig.add_subplot()
        ax.set_axis_off()
        ax.set_title(_title(title))
        ax.text(
            0.5,
            0.5,
            "no data",
            transform=ax.transAxes,
            ha="center",
            va="center",
            fontsize=16,
            color="0.4",
        )
        return _save(fig, path)


def _require(df: pl.DataFrame, columns: Sequence[str | None], chart: str) -> None:
    missing = [c for c in columns if c is not None and c not in df.columns]
    if missing:
        raise ValueError(f"{chart}: missing column(s) {missing}; the frame has {df.columns}")


def _floats(df: pl.DataFrame, column: str) -> np.ndarray:
    """The column as a float64 array, nulls as NaN."""
    series = df.get_column(column).cast(pl.Float64).fill_null(float("nan"))
    return np.array(series.to_numpy(), dtype=np.float64)


def _strings(df: pl.DataFrame, column: str) -> list[str]:
    return ["(none)" if v is None else str(v) for v in df.get_column(column).to_list()]


def _short(text: str, width: int = LABEL_CHARS) -> str:
    """``text`` cut to ``width`` characters, the last one an ellipsis when cut."""
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def _count(n: float) -> str:
    return f"{round(n):,}" if math.isfinite(n) else "?"


def _with_dropped(label: str, dropped: int, what: str = "row") -> str:
    """Axis label, plus a second line saying how many rows had no value to draw."""
    if dropped == 0:
        return label
    return f"{label}\n({dropped} {what}{'' if dropped == 1 else 's'} without a value not shown)"


def _errors(value: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(2×N error-bar lengths, mask of rows with a complete interval).

    Lengths are clipped at 0, so a bound on the wrong side of the value (rounding) draws
    no whisker on that side instead of raising.
    """
    mask = np.isfinite(value) & np.isfinite(lo) & np.isfinite(hi)
    below = np.where(mask, np.clip(value - lo, 0.0, None), 0.0)
    above = np.where(mask, np.clip(hi - value, 0.0, None), 0.0)
    return np.vstack([below, above]), mask


def _whiskers(
    ax: Axes,
    x: np.ndarray,
    y: np.ndarray,
    err: np.ndarray,
    mask: np.ndarray,
    colour: str,
    width: float,
    cap: float,
    **style: Any,
) -> None:
    """Horizontal 95% interval whiskers (``err`` from ``_errors``) on the rows ``mask``
    selects, without markers: the rows' points or bars are drawn on their own."""
    ax.errorbar(x[mask], y[mask], xerr=err[:, mask], fmt="none", ecolor=colour,
                elinewidth=width, capsize=cap, **style)  # fmt: skip


def _average_line(ax: Axes, vertical: bool) -> None:
    """Dashed reference line at win share 1.0, labelled for the legend."""
    style: dict[str, Any] = {"color": REF, "linestyle": "--", "linewidth": 1.2, "zorder": 1}
    if vertical:
        ax.axvline(1.0, label="average (1.0)", **style)
    else:
        ax.axhline(1.0, label="average (1.0)", **style)


def _top_legend(fig: Figure, ax: Axes, title: str) -> None:
    """Title, then the legend in one row under it, both above the axes (never on the data)."""
    fig.suptitle(_title(title))
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(
        handles,
        labels,
        loc="lower center",
        bbox_to_anchor=(0.5, 1.0),
        ncols=len(handles),
        frameon=False,
    )


def _colours(k: int) -> list[Any]:
    """``k`` distinct categorical colours: tab10 up to 10, tab20 up to 20, then repeating."""
    cmap = matplotlib.colormaps["tab10" if k <= 10 else "tab20"]
    size = 10 if k <= 10 else 20
    return [cmap(i % size) for i in range(k)]


def _bar_height(rows: int) -> float:
    """Figure height for a chart with one row per item: title, axis and legend + rows."""
    return 2.2 + ROW_IN * max(rows, 3)


# --- 1. win share per card / seat / policy ---------------------------------------------------


def win_share_bars(
    df: pl.DataFrame,
    path: Path,
    title: str,
    value: str = "ws",
    lo: str | None = "lo",
    hi: str | None = "hi",
    label: str = "card",
    n: str | None = "n",
    ranked: bool = True,
) -> Path:
    """Win share per item (card, seat, policy) as points with 95% intervals, best at top.

    One row per item, sorted by win share (ties by name); ``ranked=False`` keeps the rows'
    own order, top to bottom (seats 0, 1, 2, ...). The dashed line at 1.0 is an
    average seat: an item right of it wins more than its share. Each row's label carries
    the sample size (``name (n=12,345)``); wider whiskers mean fewer games. Colour tells
    whether the interval lies wholly above 1.0 (blue), wholly below (red) or includes it /
    is missing (grey). Pass ``lo=None, hi=None`` or ``n=None`` when there are no such columns.
    """
    if df.is_empty():
        return _no_data(path, title)
    _require(df, [value, lo, hi, label, n], "win_share_bars")
    vals = _floats(df, value)
    lows = _floats(df, lo) if lo is not None else np.full(df.height, np.nan)
    highs = _floats(df, hi) if hi is not None else np.full(df.height, np.nan)
    counts = _floats(df, n) if n is not None else np.full(df.height, np.nan)
    names = _strings(df, label)
    keep = [i for i in range(df.height) if math.isfinite(vals[i])]
    if not keep:
        return _no_data(path, title)
    if ranked:
        keep = sorted(keep, key=lambda i: (-vals[i], names[i]))
    order = np.array(keep, dtype=np.intp)
    vals, lows, highs, counts = vals[order], lows[order], highs[order], counts[order]
    rows = len(order)
    y = np.arange(rows)[::-1].astype(np.float64)  # first (best) row at the top
    ticks = [
        _short(names[i]) if n is None else f"{_short(names[i])} (n={_count(counts[k])})"
        for k, i in enumerate(order)
    ]
    err, has_interval = _errors(vals, lows, highs)
    above = has_interval & (lows > 1.0)
    below = has_interval & (highs < 1.0)
    groups = [
        (above, UP, "95% interval above 1.0"),
        (below, DOWN, "95% interval below 1.0"),
        (~above & ~below, NEUTRAL, "95% interval includes 1.0, or none"),
    ]
    with _canvas(_bar_height(rows)) as fig:
        ax = fig.add_subplot()
        for mask, colour, name in groups:
            bars = mask & has_interval
            if bars.any():
                _whiskers(ax, vals, y, err, bars, colour, 1.4, 2.5, zorder=2)
            if mask.any():
                ax.scatter(vals[mask], y[mask], s=28, color=colour, zorder=3, label=name)
        _average_line(ax, vertical=True)
        ax.set_yticks(y, labels=ticks, fontsize=10 if rows <= 40 else SMALL_PT)
        ax.set_ylim(-0.7, rows - 0.3)
        ax.grid(axis="y", linewidth=0.4)
        ax.set_xlabel(_with_dropped("win share (1.0 = average)", df.height - rows))
        _top_legend(fig, ax, title)
        return _save(fig, path)


# --- 2. pick position vs win share -----------------------------------------------------------


def pick_vs_win_scatter(df: pl.DataFrame, path: Path, title: str) -> Path:
    """Average pick position against win share when drafted, one point per card.

    Columns ``card``, ``mean_pick`` (1 = first pick), ``ws``, ``n``. Points left of the
    crowd are picked early; points above the dashed line at 1.0 win more than an average
    seat when drafted. A card high up and far right is underrated by the drafting policies;
    low and far left, overrated. Marker area grows with √n (the precision of a mean grows
    with √n), so large points are the reliable ones.
    """
    if df.is_empty():
        return _no_data(path, title)
    _require(df, ["card", "mean_pick", "ws", "n"], "pick_vs_win_scatter")
    picks, ws, counts = _floats(df, "mean_pick"), _floats(df, "ws"), _floats(df, "n")
    names = _strings(df, "card")
    keep = np.isfinite(picks) & np.isfinite(ws)
    if not keep.any():
        return _no_data(path, title)
    idx = np.flatnonzero(keep)
    finite_n = counts[idx][np.isfinite(counts[idx])]
    n_max = float(finite_n.max()) if finite_n.size and finite_n.max() > 0 else 1.0

    def area(n: float) -> float:
        return 20.0 + 280.0 * math.sqrt(max(n, 0.0) / n_max) if math.isfinite(n) else 20.0

    with _canvas(8.0) as fig:
        ax = fig.add_subplot()
        ax.scatter(
            picks[idx],
            ws[idx],
            s=[area(counts[i]) for i in idx],
            color=UP,
            alpha=0.55,
            edgecolors="white",
            linewidths=0.6,
            zorder=3,
        )
        for i in idx:
            ax.annotate(
                _short(names[i]),
                (picks[i], ws[i]),
                xytext=(4, 3),
                textcoords="offset points",
                fontsize=SMALL_PT,
                color="0.2",
            )
        _average_line(ax, vertical=False)
        handles: list[Any] = [Line2D([], [], color=REF, linestyle="--", label="average (1.0)")]
        if finite_n.size:
            for n in sorted({float(finite_n.min()), n_max}):
                handles.append(
                    ax.scatter([], [], s=area(n), color=UP, alpha=0.55, label=f"n = {_count(n)}")
                )
        ax.legend(handles=handles, loc="best", framealpha=0.9)
        ax.set_xlabel(
            _with_dropped("average pick position (1 = first pick)", df.height - idx.size, "card")
        )
        ax.set_ylabel("win share when drafted")
        ax.set_title(_title(title))
        return _save(fig, path)


# --- 3. score distributions ------------------------------------------------------------------


def score_distributions(df: pl.DataFrame, path: Path, title: str, group: str = "group") -> Path:
    """Final-score distribution per group (policy, seat…), as share of that group's seats.

    Input is an aggregated histogram: one row per (group, score) with a ``count``. Each
    group is one step line normalised to its own total, so groups with different sample
    sizes compare directly; scores missing from a group count as 0. The legend gives each
    group's mean score. A line shifted right scores more; a wider line is less consistent.
    """
    if df.is_empty():
        return _no_data(path, title)
    _require(df, [group, "score", "count"], "score_distributions")
    data = df.select(
        pl.col(group).cast(pl.String).fill_null("(none)").alias("group"),
        pl.col("score").cast(pl.Int64),
        pl.col("count").cast(pl.Float64),
    ).drop_nulls()
    data = data.filter(pl.col("count") > 0)
    if data.is_empty():
        return _no_data(path, title)
    all_scores = data["score"].to_numpy()
    low = int(all_scores.min()) - 1  # one empty score each side: every line starts and ends at 0
    scores = np.arange(low, int(all_scores.max()) + 2)
    names = sorted(data["group"].unique().to_list())
    with _canvas(7.0) as fig:
        ax = fig.add_subplot()
        for name, colour in zip(names, _colours(len(names)), strict=True):
            part = data.filter(pl.col("group") == name)
            at = part["score"].to_numpy() - low
            weight = part["count"].to_numpy()
            share = np.zeros(scores.size)
            np.add.at(share, at, weight)
            total = float(weight.sum())
            mean = float((part["score"].to_numpy() * weight).sum()) / total
            label = f"{_short(name)} (mean {mean:.1f} points)"
            ax.step(scores, share / total, where="mid", color=colour, linewidth=1.8, label=label)
        ax.yaxis.set_major_formatter(PercentFormatter(xmax=1.0))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylim(bottom=0)
        ax.set_xlabel("final score (points)")
        ax.set_ylabel("share of seats (%)")
        ax.set_title(_title(title))
        ax.legend(loc="best", framealpha=0.9)
        return _save(fig, path)


# --- 4. policy matchups ----------------------------------------------------------------------


#: A heatmap cell's largest side (inches; x DPI = 90 px): a 2 x 2 matrix stays small.
CELL_MAX_IN = 0.9
#: The grid's largest side (inches): beyond 10 policies the cells shrink to fit it.
GRID_MAX_IN = 9.0


def heatmap_size(k: int, label_chars: int) -> tuple[float, float]:
    """``(height, width)`` in inches of a ``k`` x ``k`` heatmap whose longest label has
    ``label_chars`` characters: cells of at most ``CELL_MAX_IN``, the grid at most
    ``GRID_MAX_IN``, room for the labels (about 0.08 in a character at 10 pt; the column
    labels at 45 degrees), the colour bar and the title; never wider than ``WIDTH_IN``."""
    grid = min(k * CELL_MAX_IN, GRID_MAX_IN)
    label = 0.08 * label_chars + 0.3
    width = min(max(grid + label + 1.6, 5.0), WIDTH_IN)
    height = grid + 0.75 * label + 1.3
    return height, width


def axis_order(names: set[str], order: Sequence[str] | None) -> list[str]:
    """``names`` in ``order`` where it lists them, the rest after it by name."""
    first = [n for n in dict.fromkeys(order or ()) if n in names]
    return first + sorted(names.difference(first))


def matchup_heatmap(
    df: pl.DataFrame, path: Path, title: str, order: Sequence[str] | None = None
) -> Path:
    """Win share of each row policy against each column policy, as a coloured grid.

    Columns ``policy``, ``opponent``, ``ws`` (null = not measured: blank grey cell), and
    optionally ``n`` (its range is given under the chart). Both axes list every policy in
    the same order: ``order`` (e.g. the ladder's ratings, strongest first), then any other
    policy by name. Blue cells: the row policy wins more than an average seat against
    that opponent; red: less; white: about 1.0. The colour scale is symmetric around 1.0.
    Each (policy, opponent) pair must appear at most once. The figure is sized to the
    matrix (``heatmap_size``): a 2 x 2 matrix is a small picture, not 1200 px of two cells.
    """
    if df.is_empty():
        return _no_data(path, title)
    _require(df, ["policy", "opponent", "ws"], "matchup_heatmap")
    rows, cols = _strings(df, "policy"), _strings(df, "opponent")
    pairs = list(zip(rows, cols, strict=True))
    if len(set(pairs)) != len(pairs):
        dupes = sorted({p for p in pairs if pairs.count(p) > 1})
        raise ValueError(f"matchup_heatmap: repeated (policy, opponent) pairs {dupes[:5]}")
    policies = axis_order(set(rows) | set(cols), order)
    pos = {p: i for i, p in enumerate(policies)}
    k = len(policies)
    grid = np.full((k, k), np.nan)
    for (r, c), v in zip(pairs, _floats(df, "ws"), strict=True):
        grid[pos[r], pos[c]] = v
    finite = grid[np.isfinite(grid)]
    spread = max(float(np.abs(finite - 1.0).max()) if finite.size else 0.0, 0.05)
    norm = TwoSlopeNorm(vcenter=1.0, vmin=max(1.0 - spread, 0.0), vmax=1.0 + spread)
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="0.93")
    xlabel = "opponent (column policy)"
    if "n" in df.columns:
        counts = _floats(df, "n")
        counts = counts[np.isfinite(counts)]
        if counts.size:
            xlabel += f"\ngames per cell: {_count(counts.min())} to {_count(counts.max())}"
    cell_pt = 12 if k <= 8 else 10 if k <= 16 else SMALL_PT if k <= 30 else 0
    height_in, width_in = heatmap_size(k, max(len(_short(p)) for p in policies))
    with _canvas(height_in, width_in) as fig:
        ax = fig.add_subplot()
        image = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, norm=norm, aspect="equal")
        ax.grid(False)
        for spine in ax.spines.values():
            spine.set_visible(False)
        if cell_pt:  # beyond 30 policies the cells are too small for text
            for r, c in zip(*np.nonzero(np.isfinite(grid)), strict=True):
                v = float(grid[r, c])
                dark = abs(float(norm(v)) - 0.5) > 0.3
                ax.text(
                    c,
                    r,
                    f"{v:.2f}",
                    ha="center",
                    va="center",
                    fontsize=cell_pt,
                    color="white" if dark else "black",
                )
        labels = [_short(p) for p in policies]
        ax.set_xticks(range(k), labels=labels, rotation=45, ha="right", rotation_mode="anchor")
        ax.set_yticks(range(k), labels=labels)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("policy (row)")
        ax.set_title(_title(title, int(width_in * 7)))
        bar = fig.colorbar(image, ax=ax, shrink=0.8)
        bar.set_label("win share, row vs column")
        return _save(fig, path)


# --- 5. buildings: when to build, which level ------------------------------------------------


def _building_frame(df: pl.DataFrame, chart: str) -> tuple[pl.DataFrame, list[str], list[int]]:
    """What the building charts draw: the rows of ``df`` with a level and a turn, typed,
    and their buildings and levels, sorted (an empty frame: nothing to draw, whatever its
    columns)."""
    if df.is_empty():
        return df, [], []
    _require(df, ["building", "level", "turn_built", "ws", "lo", "hi"], chart)
    data = df.select(
        pl.col("building").cast(pl.String).fill_null("(none)"),
        pl.col("level").cast(pl.Int64),
        pl.col("turn_built").cast(pl.Int64),
        *(pl.col(c).cast(pl.Float64).fill_null(float("nan")) for c in ("ws", "lo", "hi")),
    ).filter(pl.col("level").is_not_null() & pl.col("turn_built").is_not_null())
    buildings = sorted(data["building"].unique().to_list())
    return data, buildings, sorted(data["level"].unique().to_list())


def _turn_axis(ax: Axes, data: pl.DataFrame) -> None:
    """Ticks at turns 1..4 (and any other turn in the data), half a turn of margin."""
    turns = sorted({1, 2, 3, 4} | set(data["turn_built"].to_list()))
    ax.set_xticks(turns)
    ax.set_xlim(turns[0] - 0.5, turns[-1] + 0.5)


def _series(ax: Axes, part: pl.DataFrame, shift: float, **style: Any) -> None:
    """One line of win share by turn built, with error bars where the interval is known."""
    part = part.sort("turn_built")
    x = part["turn_built"].to_numpy().astype(np.float64) + shift
    ws, lo, hi = (part[c].to_numpy() for c in ("ws", "lo", "hi"))
    err, mask = _errors(ws, lo, hi)
    ax.plot(x, ws, marker="o", markersize=5, **style)
    if mask.any():
        bar_style = {k: v for k, v in style.items() if k in ("color", "alpha")}
        ax.errorbar(
            x[mask], ws[mask], yerr=err[:, mask], fmt="none", capsize=3, linewidth=1, **bar_style
        )


def building_curves(df: pl.DataFrame, path: Path, title: str) -> Path:
    """Win share by the turn a building was built, one panel per building, one line per level.

    Columns ``building``, ``level`` (1|2), ``turn_built`` (1..4), ``ws``, ``lo``, ``hi``
    (``n`` may be present; it is not drawn). Panels share both axes, so heights compare
    across buildings. A falling line means building it late is worth less; a gap between
    the level lines is what the upgrade is worth at that turn. Levels are shifted
    sideways by a fixed small offset so their whiskers do not overlap.
    """
    data, buildings, levels = _building_frame(df, "building_curves")
    if data.is_empty():
        return _no_data(path, title)
    ncols = min(3, len(buildings))
    nrows = math.ceil(len(buildings) / ncols)
    with _canvas(1.6 + 3.2 * nrows) as fig:
        axes = fig.subplots(nrows, ncols, squeeze=False, sharex=True, sharey=True)
        colours = [LEVEL_COLOURS[j % len(LEVEL_COLOURS)] for j in range(len(levels))]
        for slot, ax in enumerate(axes.flat):
            if slot >= len(buildings):
                ax.set_axis_off()
                continue
            part = data.filter(pl.col("building") == buildings[slot])
            for j, level in enumerate(levels):
                _series(
                    ax,
                    part.filter(pl.col("level") == level),
                    shift=(j - (len(levels) - 1) / 2) * 0.08,
                    color=colours[j],
                    linewidth=1.8,
                )
            _average_line(ax, vertical=False)
            ax.set_title(_short(buildings[slot]), fontsize=12)
            if slot + ncols >= len(buildings):  # lowest panel of its column
                ax.xaxis.set_tick_params(labelbottom=True)
                ax.set_xlabel("turn the level was reached")
            if slot % ncols == 0:
                ax.set_ylabel("win share (1.0 = average)")
        _turn_axis(axes[0, 0], data)
        handles = [
            Line2D([], [], color=colours[j], marker="o", label=f"level {lv}")
            for j, lv in enumerate(levels)
        ]
        handles.append(Line2D([], [], color=REF, linestyle="--", label="average (1.0)"))
        fig.legend(handles=handles, loc="outside lower center", ncols=len(handles))
        fig.suptitle(_title(title))
        return _save(fig, path)


def building_curves_combined(df: pl.DataFrame, path: Path, title: str) -> Path:
    """Every building on one axis: colour = building, line style = level.

    Same columns and reading as :func:`building_curves` (win share against the turn the
    building was built, dashed grey line at 1.0), for comparing buildings directly. Series
    are shifted sideways by fixed small offsets so their whiskers stay apart.
    """
    data, buildings, levels = _building_frame(df, "building_curves_combined")
    if data.is_empty():
        return _no_data(path, title)
    colours = _colours(len(buildings))
    series = [(b, lv) for lv in levels for b in buildings]  # level 1 left, level 2 right
    step = min(0.04, 0.36 / max(len(series) - 1, 1))
    with _canvas(7.5) as fig:
        ax = fig.add_subplot()
        for s, (building, level) in enumerate(series):
            part = data.filter((pl.col("building") == building) & (pl.col("level") == level))
            if part.is_empty():
                continue
            _series(
                ax,
                part,
                shift=(s - (len(series) - 1) / 2) * step,
                color=colours[buildings.index(building)],
                linestyle=LEVEL_STYLES[levels.index(level) % len(LEVEL_STYLES)],
                linewidth=1.8,
                alpha=0.9,
            )
        _average_line(ax, vertical=False)
        _turn_axis(ax, data)
        by_building = ax.legend(
            handles=[
                Line2D([], [], color=c, marker="o", label=_short(b))
                for b, c in zip(buildings, colours, strict=True)
            ],
            title="building",
            loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
        )
        ax.add_artist(by_building)
        level_handles = [
            Line2D(
                [],
                [],
                color="0.2",
                linestyle=LEVEL_STYLES[j % len(LEVEL_STYLES)],
                label=f"level {lv}",
            )
            for j, lv in enumerate(levels)
        ]
        level_handles.append(Line2D([], [], color=REF, linestyle="--", label="average (1.0)"))
        ax.legend(
            handles=level_handles, title="level", loc="lower left", bbox_to_anchor=(1.01, 0.0)
        )
        ax.set_xlabel("turn the level was reached")
        ax.set_ylabel("win share (1.0 = average)")
        ax.set_title(_title(title))
        return _save(fig, path)


# --- 6. A/B comparison -----------------------------------------------------------------------


def compare_bars(df: pl.DataFrame, path: Path, title: str) -> Path:
    """Change in each card's win share between two runs (B − A), largest gain at top.

    Columns ``card``, ``delta``, ``lo``, ``hi`` (95% interval of the change), ``significant``
    (bool; null counts as false). Bars right of the line at 0 gained win share in B.
    Significant changes are blue (gain) or red (loss); grey ones are within noise, however
    long the bar.
    """
    if df.is_empty():
        return _no_data(path, title)
    _require(df, ["card", "delta", "lo", "hi", "significant"], "compare_bars")
    delta, lows, highs = _floats(df, "delta"), _floats(df, "lo"), _floats(df, "hi")
    names = _strings(df, "card")
    sig_list = df.get_column("significant").cast(pl.Boolean).fill_null(False).to_list()
    keep = [i for i in range(df.height) if math.isfinite(delta[i])]
    if not keep:
        return _no_data(path, title)
    order = np.array(sorted(keep, key=lambda i: (-delta[i], names[i])), dtype=np.intp)
    delta, lows, highs = delta[order], lows[order], highs[order]
    significant = np.array([bool(sig_list[i]) for i in order], dtype=bool)
    rows = len(order)
    y = np.arange(rows)[::-1].astype(np.float64)
    groups = [
        (significant & (delta > 0), UP, "significant gain"),
        (significant & (delta <= 0), DOWN, "significant loss"),
        (~significant, NEUTRAL, "not significant"),
    ]
    err, has_interval = _errors(delta, lows, highs)
    with _canvas(_bar_height(rows)) as fig:
        ax = fig.add_subplot()
        for mask, colour, name in groups:
            if mask.any():
                ax.barh(y[mask], delta[mask], height=0.7, color=colour, label=name, zorder=2)
        if has_interval.any():
            _whiskers(ax, delta, y, err, has_interval, "0.15", 1, 2, zorder=3)
        ax.axvline(0.0, color=REF, linewidth=1.2, zorder=1)
        ax.set_yticks(
            y, labels=[_short(names[i]) for i in order], fontsize=10 if rows <= 40 else SMALL_PT
        )
        ax.set_ylim(-0.7, rows - 0.3)
        ax.grid(axis="y", visible=False)
        ax.set_xlabel(_with_dropped("change in win share (B − A)", df.height - rows))
        _top_legend(fig, ax, title)
        return _save(fig, path)


# --- 7-8. generic charts ---------------------------------------------------------------------


def histogram(df: pl.DataFrame, path: Path, title: str, x: str, xlabel: str) -> Path:
    """Bar chart of an aggregated count table: one bar per value of column ``x``.

    Columns ``x`` (the value, e.g. ``"value"`` or ``"turns"``) and ``count`` (games with
    that value; repeated values are summed). Used e.g. for game length in turns. The box
    at the top right gives the total number of games and the mean value.
    """
    if df.is_empty():
        return _no_data(path, title)
    _require(df, [x, "count"], "histogram")
    data = (
        df.select(pl.col(x).cast(pl.Float64).alias("value"), pl.col("count").cast(pl.Float64))
        .drop_nulls()
        .filter(pl.col("value").is_finite())
        .group_by("value")
        .agg(pl.col("count").sum())
        .sort("value")
    )
    if data.is_empty():
        return _no_data(path, title)
    values, counts = data["value"].to_numpy(), data["count"].to_numpy()
    width = 0.8 * float(np.diff(values).min()) if values.size > 1 else 0.8
    total = float(counts.sum())
    integral = bool(np.all(values == np.round(values)))
    with _canvas(6.0) as fig:
        ax = fig.add_subplot()
        ax.bar(values, counts, width=width, color=UP, zorder=2)
        if integral and values.size <= 40 and values.max() - values.min() <= 40:
            ax.set_xticks(np.arange(values.min(), values.max() + 1))
        else:
            ax.xaxis.set_major_locator(MaxNLocator(integer=integral))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylim(0, max(float(counts.max()), 1.0) * 1.15)  # headroom for the box
        if total > 0:
            mean = float((values * counts).sum()) / total
            ax.text(
                0.99,
                0.97,
                f"{_count(total)} games, mean {mean:.2f}",
                transform=ax.transAxes,
                ha="right",
                va="top",
                bbox={"facecolor": "white", "edgecolor": "0.8", "boxstyle": "round"},
            )
        ax.grid(axis="x", visible=False)
        ax.set_xlabel(xlabel or x)
        ax.set_ylabel("games")
        ax.set_title(_title(title))
        return _save(fig, path)


def xy_line(
    df: pl.DataFrame,
    path: Path,
    title: str,
    x: str,
    y: str,
    lo: str | None = None,
    hi: str | None = None,
    xlabel: str = "",
    ylabel: str = "",
) -> Path:
    """Column ``y`` against column ``x`` as a line with markers, sorted by ``x``.

    With ``lo`` and ``hi`` (given together), a shaded band shows the interval; a point
    whose interval has no neighbour to form a band gets an error bar instead. A null ``y``
    breaks the line; a null bound leaves that point without band. Used e.g. for "dragon
    count vs mean score". An integer ``x`` gets whole-number ticks only. Axis labels
    default to the column names.
    """
    if (lo is None) != (hi is None):
        raise ValueError("xy_line: give both lo and hi, or neither")
    if df.is_empty():
        return _no_data(path, title)
    _require(df, [x, y, lo, hi], "xy_line")
    data = df.filter(pl.col(x).is_not_null()).sort(x)
    if data.is_empty():
        return _no_data(path, title)
    xs, ys = _floats(data, x), _floats(data, y)
    with _canvas(6.0) as fig:
        ax = fig.add_subplot()
        if lo is not None and hi is not None:
            lows, highs = _floats(data, lo), _floats(data, hi)
            _, band = _errors(ys, lows, highs)
            ax.fill_between(
                xs,
                np.where(band, lows, ys),
                np.where(band, highs, ys),
                where=band,
                color=UP,
                alpha=0.2,
                linewidth=0,
                label="interval",
            )
            padded = np.concatenate([[False], band, [False]])
            alone = band & ~padded[:-2] & ~padded[2:]  # no neighbour to draw a band with
            if alone.any():
                err, _ = _errors(ys, lows, highs)
                ax.errorbar(
                    xs[alone], ys[alone], yerr=err[:, alone], fmt="none", ecolor=UP, capsize=3
                )
        ax.plot(xs, ys, marker="o", markersize=4, color=UP, linewidth=1.8, label=ylabel or y)
        if lo is not None:
            ax.legend(loc="best", framealpha=0.9)
        if data.schema[x].is_integer():  # trials, iterations, counts: no tick at 0.5
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(xlabel or x)
        ax.set_ylabel(ylabel or y)
        ax.set_title(_title(title))
        return _save(fig, path)


# --- balance search --------------------------------------------------------------------------


def before_after_band(
    df: pl.DataFrame, path: Path, title: str, band: tuple[float, float], label: str = "entity"
) -> Path:
    """Each item's win share before (grey) and after (blue) a change, with 95% intervals,
    against the shaded target band (``band_dots``). Columns ``label``, ``ws``, ``ws_lo``,
    ``ws_hi`` (before) and ``ws_after``, ``ws_after_lo``, ``ws_after_hi``."""
    _require(
        df,
        [label, "ws", "ws_lo", "ws_hi", "ws_after", "ws_after_lo", "ws_after_hi"],
        "before_after_band",
    )
    long = pl.concat(
        [
            df.select(pl.col(label).alias("item"), pl.lit(name).alias("series"),
                      *(pl.col(f"ws{sfx}{end}").alias(f"ws{end}") for end in ("", "_lo", "_hi")))
            for name, sfx in (("before", ""), ("after", "_after"))
        ]
    )  # fmt: skip
    return band_dots(long, path, title, band, ["before", "after"], [NEUTRAL, UP])


def level_dots(
    cards: pl.DataFrame,
    levels: Sequence[str],
    path: Path,
    title: str,
    band: tuple[float, float],
) -> Path:
    """``band_dots`` of each card's win share when taken at each strength level: ``cards``
    has ``card, policy, ws, ws_lo, ws_hi`` (``reports.strength.shares_by_policy``),
    ``levels`` are the policies drawn, weakest first; rows sorted by the strongest."""
    long = cards.filter(pl.col("policy").is_in(list(levels))).select(
        pl.col("card").alias("item"), pl.col("policy").alias("series"), "ws", "ws_lo", "ws_hi"
    )
    return band_dots(long, path, title, band, list(reversed(levels)))


def band_dots(
    df: pl.DataFrame,
    path: Path,
    title: str,
    band: tuple[float, float],
    series: Sequence[str],
    colours: Sequence[Any] | None = None,
) -> Path:
    """One row per item, one point per series (with its 95% interval), against the shaded
    target band: e.g. a card's win share before and after an edit, or under each policy of
    a strength ladder. Columns ``item``, ``series``, ``ws``, ``ws_lo``, ``ws_hi`` (long
    format). Rows are sorted by the first series' share, highest at top; series are
    shifted vertically within a row, in the order given."""
    if df.is_empty():
        return _no_data(path, title)
    _require(df, ["item", "series", "ws", "ws_lo", "ws_hi"], "band_dots")
    first = df.filter(pl.col("series") == series[0]).select("item", key=pl.col("ws"))
    items = (
        df.select("item").unique().join(first, on="item", how="left")
        .sort(["key", "item"], descending=[True, False], nulls_last=True)["item"].to_list()
    )  # fmt: skip
    if not items:
        return _no_data(path, title)
    rows = len(items)
    y_of = {item: float(rows - 1 - k) for k, item in enumerate(items)}
    colours = list(colours or _colours(len(series)))
    spread = 0.6 / max(len(series), 1)
    with _canvas(_bar_height(rows) + 0.1 * len(series)) as fig:
        ax = fig.add_subplot()
        ax.axvspan(band[0], band[1], color=UP, alpha=0.08, label=f"band {band[0]}–{band[1]}")
        for k, name in enumerate(series):
            part = df.filter(pl.col("series") == name)
            if part.is_empty():
                continue
            shift = (len(series) - 1) / 2 * spread - k * spread
            y = np.array([y_of[i] for i in part["item"].to_list()]) + shift
            ws = _floats(part, "ws")
            err, mask = _errors(ws, _floats(part, "ws_lo"), _floats(part, "ws_hi"))
            if mask.any():
                _whiskers(ax, ws, y, err, mask, colours[k], 1.2, 2, zorder=2)
            ok = np.isfinite(ws)
            ax.scatter(ws[ok], y[ok], s=22, color=colours[k], zorder=3, label=_short(name, 40))
        _average_line(ax, vertical=True)
        ticks = [y_of[i] for i in items]
        ax.set_yticks(
            ticks, labels=[_short(i) for i in items], fontsize=10 if rows <= 40 else SMALL_PT
        )
        ax.set_ylim(-0.7, rows - 0.3)
        ax.grid(axis="y", linewidth=0.4)
        ax.set_xlabel("win share when taken (1.0 = average)")
        _top_legend(fig, ax, title)
        return _save(fig, path)


def ratings_chart(df: pl.DataFrame, path: Path, title: str) -> Path:
    """Each policy's rating (Elo scale, 0 = the average policy) with its 95% interval, best
    at top. Columns ``policy``, ``rating``, ``rating_lo``, ``rating_hi``."""
    if df.is_empty():
        return _no_data(path, title)
    _require(df, ["policy", "rating", "rating_lo", "rating_hi"], "ratings_chart")
    data = df.filter(pl.col("rating").is_not_nan()).sort("rating", descending=True)
    rows = data.height
    y = np.arange(rows)[::-1].astype(np.float64)
    r = _floats(data, "rating")
    err, mask = _errors(r, _floats(data, "rating_lo"), _floats(data, "rating_hi"))
    with _canvas(_bar_height(rows) + 0.6) as fig:
        ax = fig.add_subplot()
        _whiskers(ax, r, y, err, mask, UP, 1.6, 3, zorder=2)
        ax.scatter(r, y, s=36, color=UP, zorder=3, label="rating, 95% interval")
        ax.axvline(0.0, color=REF, linestyle="--", linewidth=1.2, label="average policy (0)")
        ax.set_yticks(y, labels=[_short(p, 40) for p in _strings(data, "policy")])
        ax.set_ylim(-0.7, rows - 0.3)
        ax.set_xlabel("rating (Elo scale: +400 = ten times the odds of finishing ahead)")
        _top_legend(fig, ax, title)
        return _save(fig, path)


_RATING = ("rating", "rating_lo", "rating_hi")


def _rating_label(row: dict[str, Any] | None) -> str:
    """``+45 Elo [+30, +60]``, without the interval when a bound is missing."""
    r, lo, hi = (math.nan if row is None or row[c] is None else float(row[c]) for c in _RATING)
    if not math.isfinite(r):
        return "no rating"
    bounds = f" [{lo:+.0f}, {hi:+.0f}]" if math.isfinite(lo) and math.isfinite(hi) else ""
    return f"{r:+.0f} Elo{bounds}"


def luck_chart(shares: pl.DataFrame, ratings: pl.DataFrame, path: Path, title: str) -> Path:
    """How much of each policy's outcome its deal decides (``reports.luck.deal_shares``):
    one bar per policy, in the order of ``shares`` (first at top), its deal share from 0
    (skill and table decide) to 1 (the cards and seat dealt decide alone) with the 95%
    interval, and the policy's rating written at the right (from ``ratings``: ``policy,
    rating, rating_lo, rating_hi``; "no rating" when absent). Columns of ``shares``:
    ``policy``, ``deal_share``, ``deal_share_lo``, ``deal_share_hi``. A policy without a
    share (its outcome never varies, or no deal-seat group seated it twice) is left out."""
    if shares.is_empty():
        return _no_data(path, title)
    _require(shares, ["policy", "deal_share", "deal_share_lo", "deal_share_hi"], "luck_chart")
    _require(ratings, ["policy", *_RATING], "luck_chart")
    value = _floats(shares, "deal_share")
    keep = np.flatnonzero(np.isfinite(value))
    if not keep.size:
        return _no_data(path, title)
    names = [_strings(shares, "policy")[i] for i in keep]
    value = value[keep]
    err, mask = _errors(
        value, _floats(shares, "deal_share_lo")[keep], _floats(shares, "deal_share_hi")[keep]
    )
    top = value + err[1]
    by_policy = {str(r["policy"]): r for r in ratings.iter_rows(named=True)}
    rows = len(keep)
    y = np.arange(rows)[::-1].astype(np.float64)
    with _canvas(_bar_height(rows) + 0.6) as fig:
        ax = fig.add_subplot()
        ax.barh(y, value, height=0.6, color=UP, alpha=0.85, zorder=2, label="deal share")
        if mask.any():
            _whiskers(ax, value, y, err, mask, "0.15", 1.2, 3, zorder=3, label="95% interval")
        for k in range(rows):  # the share past the whisker; else inside the bar; else on it
            room, inside = top[k] <= 0.9, value[k] > 0.12
            ax.text(
                top[k] + 0.01 if room else value[k] - 0.01 if inside else value[k] + 0.01,
                y[k],
                f"{value[k]:.0%}",
                ha="right" if inside and not room else "left",
                va="center",
                fontsize=10,
                color="white" if inside and not room else "0.15",
                bbox=None
                if room or inside
                else {"facecolor": "white", "edgecolor": "none", "pad": 1},
                zorder=4,
            )
        ax.set_xlim(0.0, 1.0)
        ax.xaxis.set_major_formatter(PercentFormatter(xmax=1.0))
        ax.set_yticks(y, labels=[_short(p, 40) for p in names])
        ax.set_ylim(-0.7, rows - 0.3)
        ax.grid(axis="y", visible=False)
        ax.set_xlabel(
            _with_dropped(
                "deal share: the part of a policy's win-share variance its deal (cards and seat)"
                " decides,\nwhatever the other players' seating",
                shares.height - rows,
                "policy",
            )
        )
        right = ax.twinx()  # the ratings, one per bar, as tick labels on the right
        right.set_ylim(ax.get_ylim())
        right.set_yticks(y, labels=[_rating_label(by_policy.get(p)) for p in names])
        right.tick_params(axis="y", length=0, pad=14)
        right.grid(False)
        _top_legend(fig, ax, title)
        return _save(fig, path)


def search_history(df: pl.DataFrame, path: Path, title: str, chosen: int | None) -> Path:
    """Every trial of a search: its distance from the band (left, by trial number) and
    the two objectives against each other (right: edit size against distance; the
    proposal ringed). Columns ``trial``, ``distance``, ``size``."""
    if df.is_empty():
        return _no_data(path, title)
    _require(df, ["trial", "distance", "size"], "search_history")
    trial, dist, size = (_floats(df, c) for c in ("trial", "distance", "size"))
    with _canvas(5.0) as fig:
        left, right = fig.subplots(1, 2)
        left.scatter(trial, dist, s=16, color=UP, zorder=3)
        left.plot(trial, np.minimum.accumulate(dist), color=NEUTRAL, linewidth=1.2,
                  label="best so far")  # fmt: skip
        left.set_xlabel("trial")
        left.set_ylabel("distance from the band (0 = every card inside)")
        left.legend(loc="upper right", framealpha=0.9)
        right.scatter(size, dist, s=16, color=UP, zorder=3)
        if chosen is not None and chosen in set(trial.astype(int).tolist()):
            k = int(np.flatnonzero(trial.astype(int) == chosen)[0])
            right.scatter([size[k]], [dist[k]], s=140, facecolors="none", edgecolors=DOWN,
                          linewidths=2, zorder=4, label=f"proposal (trial {chosen})")  # fmt: skip
            right.legend(loc="upper right", framealpha=0.9)
        right.set_xlabel("edit size (steps changed)")
        right.set_ylabel("distance from the band")
        fig.suptitle(_title(title))
        return _save(fig, path)
