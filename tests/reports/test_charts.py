"""Report charts (``reports/charts.py``): every function writes one valid PNG 1200 px wide
(a heatmap: sized to its matrix, at most 1200).

Each chart is drawn from a small hand-made frame, then again from the edge cases the report
code can hand it: an empty frame, a single row, null/NaN interval bounds, very long names.
An autouse fixture checks that no matplotlib figure is left open after any test.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import matplotlib.image as mpimg
import matplotlib.pyplot as plt
import polars as pl
import pytest

from talesim.reports import charts

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
LONG = "the-dragon-king-of-the-northern-valley-who-never-sleeps-and-never-forgets"

Chart = Callable[[pl.DataFrame, Path], Path]


@pytest.fixture(autouse=True)
def no_open_figures() -> Iterator[None]:
    yield
    assert plt.get_fignums() == []


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) in pixels of the PNG at ``path``; fails if it is not a PNG."""
    assert path.is_file()
    assert path.read_bytes()[:8] == PNG_SIGNATURE
    image = mpimg.imread(path)
    return image.shape[1], image.shape[0]


#: The charts sized to their data (a heatmap to its matrix): at most 1200 px wide.
SIZED = ("matchup_heatmap",)


def assert_report_png(returned: Path, path: Path, sized: bool = False) -> int:
    """The chart returned ``path`` and wrote a PNG 1200 px wide there (``sized``: at most
    1200, as the chart sizes it); returns its height."""
    assert returned == path
    width, height = png_size(path)
    assert width <= 1200 if sized else width == 1200
    assert height > 0
    return height


# --- one small hand-made frame per chart -----------------------------------------------------


def cards() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "card": ["dragon-king", "goblin", "fairy-queen", "old-mill"],
            "ws": [1.32, 0.81, 1.02, 0.97],
            "lo": [1.25, 0.76, 0.95, 0.90],
            "hi": [1.39, 0.86, 1.09, 1.04],
            "n": [12_345, 9_876, 5_000, 4_321],
        }
    )


def picks() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "card": ["dragon-king", "goblin", "fairy-queen", "old-mill"],
            "mean_pick": [1.4, 6.2, 3.0, 8.9],
            "ws": [1.32, 0.81, 1.02, 0.97],
            "n": [12_345, 9_876, 5_000, 40],
        }
    )


def scores() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "group": ["greedy"] * 4 + ["random"] * 3,
            "score": [30, 31, 33, 35, 20, 22, 23],  # gaps: missing scores count as 0
            "count": [5, 10, 4, 1, 3, 6, 2],
        }
    )


def matchups() -> pl.DataFrame:
    policies = ["greedy", "random", "rush"]
    ws = {("greedy", "random"): 1.4, ("random", "greedy"): 0.6, ("rush", "greedy"): 1.1}
    rows = [(p, o, ws.get((p, o)), 1_000) for p in policies for o in policies]
    return pl.DataFrame(rows, schema=["policy", "opponent", "ws", "n"], orient="row")


def buildings() -> pl.DataFrame:
    rows = [
        (b, level, turn, 1.3 - 0.1 * turn + 0.05 * level, 100)
        for b in ("castle", "tower", "mill", "bridge")  # 4 panels: 2 rows, one empty slot
        for level in (1, 2)
        for turn in (1, 2, 3, 4)
    ]
    frame = pl.DataFrame(rows, schema=["building", "level", "turn_built", "ws", "n"], orient="row")
    return frame.with_columns(lo=pl.col("ws") - 0.05, hi=pl.col("ws") + 0.05)


def deltas() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "card": ["dragon-king", "goblin", "fairy-queen", "old-mill"],
            "delta": [0.12, -0.08, 0.01, -0.02],
            "lo": [0.07, -0.12, -0.03, -0.06],
            "hi": [0.17, -0.04, 0.05, 0.02],
            "significant": [True, True, False, False],
        }
    )


def lengths() -> pl.DataFrame:
    return pl.DataFrame({"value": [8, 9, 10, 11, 13], "count": [3, 40, 120, 60, 2]})


def dragons() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "dragons": [0, 1, 2, 3, 4],
            "score": [30.0, 33.5, 36.0, 37.2, 39.0],
            "lo": [29.5, 33.0, 35.2, 36.0, 36.5],
            "hi": [30.5, 34.0, 36.8, 38.4, 41.5],
        }
    )


def deal_shares() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "policy": ["random", "greedy", "mc:rollouts=4", "mc:rollouts=32"],
            "deal_share": [0.41, 0.35, 0.28, 0.22],
            "deal_share_lo": [0.37, 0.31, 0.25, 0.18],
            "deal_share_hi": [0.45, 0.39, 0.31, 0.26],
        }
    )


def ratings() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "policy": ["mc:rollouts=32", "mc:rollouts=4", "greedy", "random"],
            "rating": [160.0, 75.0, 45.0, -280.0],
            "rating_lo": [140.0, 58.0, 30.0, -300.0],
            "rating_hi": [180.0, 92.0, 60.0, -260.0],
        }
    )


CHARTS: dict[str, tuple[Chart, Callable[[], pl.DataFrame]]] = {
    "win_share_bars": (lambda df, p: charts.win_share_bars(df, p, "Win share by card"), cards),
    "pick_vs_win_scatter": (
        lambda df, p: charts.pick_vs_win_scatter(df, p, "Pick vs win"),
        picks,
    ),
    "score_distributions": (
        lambda df, p: charts.score_distributions(df, p, "Final scores"),
        scores,
    ),
    "matchup_heatmap": (lambda df, p: charts.matchup_heatmap(df, p, "Matchups"), matchups),
    "building_curves": (
        lambda df, p: charts.building_curves(df, p, "Turn built"),
        buildings,
    ),
    "building_curves_combined": (
        lambda df, p: charts.building_curves_combined(df, p, "Turn built, all"),
        buildings,
    ),
    "compare_bars": (lambda df, p: charts.compare_bars(df, p, "B − A"), deltas),
    "histogram": (
        lambda df, p: charts.histogram(df, p, "Game length", "value", "game length (turns)"),
        lengths,
    ),
    "xy_line": (
        lambda df, p: charts.xy_line(
            df, p, "Dragons vs score", "dragons", "score", "lo", "hi", "dragons", "points"
        ),
        dragons,
    ),
    "luck_chart": (
        lambda df, p: charts.luck_chart(df, ratings(), p, "How much the deal decides"),
        deal_shares,
    ),
}


# --- every chart, then its edge cases --------------------------------------------------------


@pytest.mark.parametrize("name", CHARTS)
def test_chart_writes_a_1200px_png(name: str, tmp_path: Path) -> None:
    draw, frame = CHARTS[name]
    path = tmp_path / "sub" / f"{name}.png"  # missing parent directories are created
    assert_report_png(draw(frame(), path), path, sized=name in SIZED)


@pytest.mark.parametrize(("k", "most_wide", "most_high"), [(2, 560, 420), (4, 700, 620)])
def test_a_small_heatmap_is_a_small_picture(
    k: int, most_wide: int, most_high: int, tmp_path: Path
) -> None:
    """A k x k matrix gets cells of at most 0.9 in (90 px), not 1200 px of k cells; a large
    one fills 1200 px at most."""
    names = ["greedy", "random", "collector", "mc"][:k]
    rows = [(a, b, 1.1 if a < b else 0.9) for a in names for b in names if a != b]
    frame = pl.DataFrame(rows, schema=["policy", "opponent", "ws"], orient="row")
    width, height = png_size(charts.matchup_heatmap(frame, tmp_path / "h.png", "Matchups"))
    assert width <= most_wide
    assert height <= most_high
    assert charts.heatmap_size(40, 28)[1] == pytest.approx(charts.WIDTH_IN)
    grid_k = [charts.heatmap_size(n, 6)[0] for n in (2, 4, 8)]
    assert grid_k[1] - grid_k[0] == pytest.approx(2 * charts.CELL_MAX_IN)  # 0.9 in a cell


@pytest.mark.parametrize("name", CHARTS)
def test_empty_frame_gives_a_no_data_png(name: str, tmp_path: Path) -> None:
    draw, frame = CHARTS[name]
    typed = tmp_path / "typed.png"
    assert_report_png(draw(frame().clear(), typed), typed)
    bare = tmp_path / "bare.png"  # no columns at all
    assert_report_png(draw(pl.DataFrame(), bare), bare)


@pytest.mark.parametrize("name", CHARTS)
def test_one_row(name: str, tmp_path: Path) -> None:
    draw, frame = CHARTS[name]
    path = tmp_path / f"{name}.png"
    assert_report_png(draw(frame().head(1), path), path, sized=name in SIZED)


@pytest.mark.parametrize("name", CHARTS)
def test_missing_column_is_a_clear_error(name: str, tmp_path: Path) -> None:
    draw, frame = CHARTS[name]
    data = frame()
    broken = data.drop(data.columns[1])
    with pytest.raises(ValueError, match="missing column"):
        draw(broken, tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()


def test_null_and_nan_interval_bounds_draw_points_without_bars(tmp_path: Path) -> None:
    bars = cards().with_columns(
        lo=pl.Series([None, 0.76, float("nan"), None], dtype=pl.Float64),
        hi=pl.Series([1.39, None, float("nan"), None], dtype=pl.Float64),
    )
    path = tmp_path / "bars.png"
    assert_report_png(charts.win_share_bars(bars, path, "NaN bounds"), path)

    compare = deltas().with_columns(lo=pl.Series([None, float("nan"), -0.03, None]))
    path = tmp_path / "compare.png"
    assert_report_png(charts.compare_bars(compare, path, "NaN bounds"), path)

    built = buildings().with_columns(
        lo=pl.when(pl.col("turn_built") == 2).then(None).otherwise(pl.col("lo")),
        hi=pl.when(pl.col("level") == 2).then(float("nan")).otherwise(pl.col("hi")),
    )
    for draw in (charts.building_curves, charts.building_curves_combined):
        path = tmp_path / f"{draw.__name__}.png"
        assert_report_png(draw(built, path, "NaN bounds"), path)

    # every bound missing but one (an isolated interval: drawn as an error bar, not a band)
    line = dragons().with_columns(lo=pl.Series([None, None, 35.2, None, float("nan")]))
    path = tmp_path / "line.png"
    assert_report_png(
        charts.xy_line(line, path, "NaN bounds", "dragons", "score", "lo", "hi"), path
    )


def test_luck_chart_edge_cases(tmp_path: Path) -> None:
    """Shares near 0 and 1, an interval wider than the room right of the bar, a missing
    interval, a policy without a share (left out) or a rating ("no rating"), long names;
    a row per policy with a share, so more policies make a taller chart."""
    shares = pl.DataFrame(
        {
            "policy": ["random", "greedy", LONG, "mc:rollouts=32", "never-wins", "unrated"],
            "deal_share": [0.97, 0.62, 0.40, 0.08, None, 0.03],
            "deal_share_lo": [0.93, 0.55, None, 0.0, None, 0.0],
            "deal_share_hi": [1.0, float("nan"), None, 0.97, None, 0.05],
        }
    )
    path = tmp_path / "edges.png"
    edges = assert_report_png(charts.luck_chart(shares, ratings(), path, "Edges"), path)
    path = tmp_path / "four.png"
    four = assert_report_png(charts.luck_chart(deal_shares(), ratings(), path, "Four"), path)
    assert edges > four
    path = tmp_path / "none.png"  # no share at all: "no data"
    assert_report_png(charts.luck_chart(shares.tail(2).head(1), ratings(), path, "None"), path)
    with pytest.raises(ValueError, match="missing column"):
        charts.luck_chart(deal_shares(), ratings().drop("rating"), tmp_path / "x.png", "x")


def test_rows_without_a_value_are_left_out(tmp_path: Path) -> None:
    some = cards().with_columns(ws=pl.Series([None, 0.81, float("nan"), 0.97]))
    path = tmp_path / "some.png"
    assert_report_png(charts.win_share_bars(some, path, "Two rows shown"), path)
    none = cards().with_columns(ws=pl.lit(None, dtype=pl.Float64))
    path = tmp_path / "none.png"
    assert_report_png(charts.win_share_bars(none, path, "No row shown"), path)


def test_null_matchup_cells_and_one_sided_values(tmp_path: Path) -> None:
    """All values on one side of 1.0 still give a colour scale centred at 1.0."""
    frame = matchups().with_columns(ws=pl.when(pl.col("ws").is_not_null()).then(1.2))
    path = tmp_path / "heat.png"
    assert_report_png(charts.matchup_heatmap(frame, path, "All above 1"), path, sized=True)


def test_repeated_matchup_pair_is_refused(tmp_path: Path) -> None:
    frame = pl.concat([matchups(), matchups().head(1)])
    with pytest.raises(ValueError, match="repeated"):
        charts.matchup_heatmap(frame, tmp_path / "heat.png", "Duplicates")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("goblin", "goblin"),
        ("x" * 28, "x" * 28),
        ("x" * 29, "x" * 27 + "…"),
        (LONG, "the-dragon-king-of-the-nort…"),
    ],
)
def test_labels_are_cut_to_28_characters(text: str, expected: str) -> None:
    assert charts._short(text) == expected
    assert len(charts._short(text)) <= charts.LABEL_CHARS


def test_very_long_names(tmp_path: Path) -> None:
    names = pl.Series("card", [f"{LONG}-{i}" for i in range(4)])
    frames: list[tuple[Chart, pl.DataFrame]] = [
        (CHARTS["win_share_bars"][0], cards().with_columns(names)),
        (CHARTS["pick_vs_win_scatter"][0], picks().with_columns(names)),
        (CHARTS["compare_bars"][0], deltas().with_columns(names)),
        (CHARTS["score_distributions"][0], scores().with_columns(group=pl.lit(LONG))),
        (CHARTS["matchup_heatmap"][0], matchups().with_columns(pl.col("policy") + LONG)),
        (CHARTS["building_curves"][0], buildings().with_columns(pl.col("building") + LONG)),
    ]
    for i, (draw, frame) in enumerate(frames):
        path = tmp_path / f"{i}.png"
        assert_report_png(draw(frame, path), path, sized=draw is CHARTS["matchup_heatmap"][0])


def test_height_grows_with_the_number_of_rows(tmp_path: Path) -> None:
    many = pl.DataFrame(
        {
            "card": [f"card-{i:02d}" for i in range(40)],
            "ws": [0.6 + 0.02 * i for i in range(40)],
            "lo": [0.55 + 0.02 * i for i in range(40)],
            "hi": [0.65 + 0.02 * i for i in range(40)],
            "n": [1_000] * 40,
        }
    )
    few_h = assert_report_png(
        charts.win_share_bars(cards(), tmp_path / "a.png", "4"), tmp_path / "a.png"
    )
    many_h = assert_report_png(
        charts.win_share_bars(many, tmp_path / "b.png", "40"), tmp_path / "b.png"
    )
    assert many_h > few_h + 36 * charts.ROW_IN * charts.DPI * 0.9


def test_output_is_deterministic(tmp_path: Path) -> None:
    draw, frame = CHARTS["building_curves_combined"]  # the one with fixed sideways offsets
    first = draw(frame(), tmp_path / "1.png").read_bytes()
    second = draw(frame(), tmp_path / "2.png").read_bytes()
    assert first == second


def test_global_matplotlib_settings_are_untouched(tmp_path: Path) -> None:
    before = dict(plt.rcParams)
    charts.win_share_bars(cards(), tmp_path / "a.png", "rc")
    after = dict(plt.rcParams)
    changed = {k for k in before if before[k] != after[k] and not _both_nan(before[k], after[k])}
    assert changed == set()


def _both_nan(a: object, b: object) -> bool:
    return isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)


def test_no_figure_left_open_when_drawing_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Figures are closed even when saving raises (the autouse fixture covers success)."""

    def fail(*_: object) -> Path:
        raise OSError("disk full")

    monkeypatch.setattr(charts, "_save", fail)
    for name, (draw, frame) in CHARTS.items():
        with pytest.raises(OSError, match="disk full"):
            draw(frame(), tmp_path / f"{name}.png")
        with pytest.raises(OSError, match="disk full"):
            draw(pl.DataFrame(), tmp_path / f"{name}-empty.png")
    assert plt.get_fignums() == []


@pytest.mark.parametrize(("dtype", "whole"), [(pl.Int64, True), (pl.Float64, False)])
def test_an_integer_x_gets_whole_number_ticks(
    dtype: pl.DataType, whole: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two iterations (0 and 1) tick at 0 and 1, not 0.2, 0.4, ...; a float x is left to
    matplotlib (which ticks between)."""
    seen: dict[str, list[float]] = {}
    save = charts._save

    def spy(fig: Any, path: Path) -> Path:
        seen["ticks"] = list(fig.axes[0].get_xticks())
        return save(fig, path)

    monkeypatch.setattr(charts, "_save", spy)
    frame = pl.DataFrame({"iteration": [0, 1], "ws": [1.2, 1.1]}).with_columns(
        pl.col("iteration").cast(dtype)
    )
    charts.xy_line(frame, tmp_path / "xy.png", "Two iterations", "iteration", "ws")
    assert all(t == round(t) for t in seen["ticks"]) is whole


def test_unranked_bars_keep_the_rows_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seats read 0, 1, 2 top to bottom whatever their shares; cards are ranked, best first."""
    seen: dict[str, list[str]] = {}
    save = charts._save

    def spy(fig: Any, path: Path) -> Path:
        seen[path.stem] = [t.get_text() for t in fig.axes[0].get_yticklabels()]
        return save(fig, path)

    monkeypatch.setattr(charts, "_save", spy)
    seats = pl.DataFrame({"seat": ["seat 0", "seat 1", "seat 2"], "ws": [0.9, 1.2, 1.0]})
    for name, ranked in (("seats", False), ("ranked", True)):
        charts.win_share_bars(
            seats, tmp_path / f"{name}.png", name, lo=None, hi=None, label="seat", n=None,
            ranked=ranked,
        )  # fmt: skip
    assert seen["seats"] == ["seat 0", "seat 1", "seat 2"]
    assert seen["ranked"] == ["seat 1", "seat 2", "seat 0"]


def test_heatmap_axes_follow_the_order_given_then_names() -> None:
    names = {"random", "greedy", "mc", "collector"}
    assert charts.axis_order(names, ["mc", "greedy", "nobody", "mc"]) == [
        "mc", "greedy", "collector", "random"
    ]  # fmt: skip
    assert charts.axis_order(names, None) == ["collector", "greedy", "mc", "random"]
