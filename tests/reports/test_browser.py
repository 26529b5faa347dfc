"""The report page in a real (headless) browser: no console errors, images load, tables sort.

Also proves the checks can fail: a missing PNG and a page without its script are caught.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib
import polars as pl
import pytest

from talesim.reports.html import Figure, Section, Table, write_page

matplotlib.use("Agg")

Check = Callable[[Path], dict[str, Any]]


def _png(path: Path) -> None:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3), dpi=80)
    ax.bar(["seat 0", "seat 1", "seat 2"], [1.1, 0.95, 0.9])
    fig.savefig(path)
    plt.close(fig)


def _page(out: Path, image: str = "win_share.png") -> Path:
    frame = pl.DataFrame(
        {
            "card": ["lich", "bronze-dragon", "<script>alert(1)</script>", "homesteaders", "elf"],
            "mean_points": [2.5, -1.25, None, 10.0, 0.333333],
            "games": [40, 7, 300, 12, 5],
            "unconfirmed": [False, True, None, False, True],
        }
    )
    wide = pl.DataFrame({f"column_with_a_long_name_{i}": [i * 1.5, None] for i in range(20)})
    sections = [
        Section(
            "seats",
            "Seats",
            ("Win share by seat.",),
            (Figure(image, "Win share by seat", "1.0 is an average seat"),),
        ),
        Section(
            "cards",
            "Cards",
            items=(
                Table("cards", "Card points", frame, note="mean over holders"),
                Table("wide", "A wide table", wide, sortable=False),
            ),
        ),
    ]
    return write_page(out, "Fairy Tale <report>", [("games", "1000"), ("seed", "7")], sections)


def test_report_page_loads_clean_and_sorts(tmp_path: Path, check_report: Check) -> None:
    _png(tmp_path / "win_share.png")
    result = check_report(_page(tmp_path))
    assert result["console_errors"] == []
    assert result["broken_images"] == []
    assert result["external_requests"] == []
    assert result["horizontal_overflow"] is False
    assert (result["n_images"], result["n_tables"]) == (1, 2)
    assert result["sort_column"] == "mean_points"  # the first numeric column not yet sorted
    assert result["sort_errors"] == []
    assert result["sorted_ok"] is True
    assert result["ok"] is True


def test_broken_image_is_detected(tmp_path: Path, check_report: Check) -> None:
    result = check_report(_page(tmp_path, image="missing.png"))
    assert result["broken_images"] == ["missing.png"]
    assert result["console_errors"]  # Chromium logs the failed load
    assert result["ok"] is False


def test_sorting_without_script_is_detected(tmp_path: Path, check_report: Check) -> None:
    _png(tmp_path / "win_share.png")
    index = _page(tmp_path)
    text = index.read_text(encoding="utf-8")
    index.write_text(re.sub(r"<script>.*?</script>", "", text, flags=re.S), encoding="utf-8")
    result = check_report(index)
    assert result["sorted_ok"] is False
    assert any("aria-sort" in error for error in result["sort_errors"])
    assert result["ok"] is False


@pytest.mark.parametrize("sortable", [True, False])
def test_nothing_to_sort_is_not_a_failure(
    tmp_path: Path, check_report: Check, sortable: bool
) -> None:
    frame = pl.DataFrame({"card": ["b", "a"]})
    index = write_page(
        tmp_path, "t", [], [Section("s", "S", items=(Table("t", "T", frame, sortable=sortable),))]
    )
    result = check_report(index)
    assert result["sorted_ok"] is None
    assert result["ok"] is True


def test_script_error_is_detected(tmp_path: Path, check_report: Check) -> None:
    _png(tmp_path / "win_share.png")
    index = _page(tmp_path)
    text = index.read_text(encoding="utf-8")
    index.write_text(
        text.replace("</body>", "<script>noSuchFunction();</script></body>"), encoding="utf-8"
    )
    result = check_report(index)
    assert any("noSuchFunction" in error for error in result["console_errors"])
    assert result["ok"] is False
