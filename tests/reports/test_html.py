"""``reports.html.write_page``: files written, escaping, offline page, cell rendering."""

from __future__ import annotations

import os
from html.parser import HTMLParser
from pathlib import Path

import polars as pl
import pytest

from talesim.reports.html import MISSING, Data, Figure, Section, Table, write_page

EVIL = "<script>alert('x')</script>"
VOID = {"meta", "link", "img", "br", "hr", "input"}


class _Page(HTMLParser):
    """Collects every start tag with its attributes, cell texts, and checks nesting."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.stack: list[str] = []
        self.cells: list[tuple[dict[str, str | None], str]] = []
        self._cell: dict[str, str | None] | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in VOID:
            self.stack.append(tag)
        if tag == "td":
            self._cell, self._text = dict(attrs), ""

    def handle_endtag(self, tag: str) -> None:
        assert self.stack.pop() == tag, f"</{tag}> closes another element"
        if tag == "td":
            assert self._cell is not None
            self.cells.append((self._cell, self._text))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._text += data


def _parse(index: Path) -> _Page:
    page = _Page()
    page.feed(index.read_text(encoding="utf-8"))
    page.close()
    assert page.stack == []
    return page


def _frame() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "card": ["lich", "bronze-dragon", EVIL],
            "mean": [0.1 + 0.2, 1 / 3, None],
            "games": [40, None, 300],
            "rare": [True, False, None],
            "ratio": [float("nan"), -0.00001, 2.0],
        }
    )


def _sections(frame: pl.DataFrame | None = None) -> list[Section]:
    table = Table("cards", f"Cards {EVIL}", _frame() if frame is None else frame, note=EVIL)
    return [
        Section("overview", "Overview", (f"About {EVIL}", "Second paragraph.")),
        Section("seat-order", "Seat order", items=(Figure("seat order.png", EVIL, EVIL),)),
        Section("cards", "Cards", items=(table,)),
    ]


def test_csv_keeps_full_precision(tmp_path: Path) -> None:
    write_page(tmp_path, "t", [], _sections())
    back = pl.read_csv(tmp_path / "cards.csv")
    assert back["mean"][0] == 0.1 + 0.2  # 0.30000000000000004, not the shown 0.300
    assert back["mean"][1] == 1 / 3
    assert back["card"][2] == EVIL


def test_every_text_is_escaped(tmp_path: Path) -> None:
    index = write_page(tmp_path, f"Report {EVIL}", [(EVIL, EVIL)], _sections())
    text = index.read_text(encoding="utf-8")
    assert "<script>alert" not in text
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in text
    assert text.count("<script>") == 1  # only the page's own sorting script
    page = _parse(index)
    img = next(attrs for tag, attrs in page.tags if tag == "img")
    assert img["alt"] == EVIL
    assert img["src"] == "seat%20order.png"
    assert img["loading"] == "eager"


def test_page_is_offline(tmp_path: Path) -> None:
    index = write_page(tmp_path, "t", [("games", "10")], _sections())
    text = index.read_text(encoding="utf-8").lower()
    assert "http://" not in text
    assert "https://" not in text
    assert "//" not in "".join(
        value or ""
        for _, attrs in _parse(index).tags
        for key, value in attrs.items()
        if key in ("src", "href")
    )


def test_toc_links_every_section(tmp_path: Path) -> None:
    sections = _sections()
    page = _parse(write_page(tmp_path, "t", [("games", "10")], sections))
    hrefs = [
        attrs["href"]
        for tag, attrs in page.tags
        if tag == "a" and "csv" not in (attrs.get("class") or "")
    ]
    ids = [attrs["id"] for tag, attrs in page.tags if tag == "section"]
    assert ids == [s.id for s in sections]
    assert hrefs == [f"#{s.id}" for s in sections]


def test_cells_missing_bool_rounding(tmp_path: Path) -> None:
    page = _parse(write_page(tmp_path, "t", [], _sections()))
    rows = [page.cells[i : i + 5] for i in range(0, len(page.cells), 5)]
    texts = [[text for _, text in row] for row in rows]
    assert texts == [
        ["lich", "0.300", "40", "yes", MISSING],
        ["bronze-dragon", "0.333", MISSING, "no", "0.000"],  # no "-0.000"
        [EVIL, MISSING, "300", MISSING, "2.000"],
    ]


def test_a_negative_number_reads_with_a_minus_sign(tmp_path: Path) -> None:
    frame = pl.DataFrame({"card": ["a"], "delta": [-0.087], "n": [-3]})
    page = _parse(
        write_page(tmp_path, "t", [], [Section("s", "S", items=(Table("d", "D", frame),))])
    )
    assert [text for _, text in page.cells] == ["a", "−0.087", "−3"]


def test_numeric_cells_carry_raw_value(tmp_path: Path) -> None:
    page = _parse(write_page(tmp_path, "t", [], _sections()))
    heads = [attrs for tag, attrs in page.tags if tag == "th"]
    assert [h["data-type"] for h in heads] == ["text", "number", "number", "text", "number"]
    values = [[attrs.get("data-value") for attrs, _ in page.cells[i : i + 5]] for i in (0, 5, 10)]
    assert values == [
        [None, "0.30000000000000004", "40", None, None],
        [None, "0.3333333333333333", None, None, "-1e-05"],
        [None, None, "300", None, "2.0"],
    ]
    missing = [attrs for attrs, text in page.cells if text == MISSING]
    assert all("missing" in (attrs["class"] or "") for attrs in missing)


def test_sortable_markup(tmp_path: Path) -> None:
    sections = [
        Section(
            "a", "A", items=(Table("s", "S", _frame()), Table("n", "N", _frame(), sortable=False))
        )
    ]
    page = _parse(write_page(tmp_path, "t", [], sections))
    tables = [attrs for tag, attrs in page.tags if tag == "table"]
    assert tables == [{"class": "sortable", "data-sortable": None}, {}]
    buttons = [attrs for tag, attrs in page.tags if tag == "button"]
    assert len(buttons) == 5  # one per column of the sortable table only
    assert all(b["type"] == "button" for b in buttons)


def test_digits_and_empty_frame(tmp_path: Path) -> None:
    frame = pl.DataFrame({"x": [1.23456]})
    empty = pl.DataFrame({"x": []}, schema={"x": pl.Float64})
    items = (Table("one", "One", frame, digits=1), Table("none", "None", empty))
    index = write_page(tmp_path, "t", [], [Section("s", "S", items=items)])
    assert [text for _, text in _parse(index).cells] == ["1.2"]
    assert "No rows." in index.read_text(encoding="utf-8")
    assert pl.read_csv(tmp_path / "none.csv").columns == ["x"]


def test_atomic_write_leaves_no_temp_files(tmp_path: Path) -> None:
    write_page(tmp_path, "t", [], _sections())
    write_page(tmp_path, "t", [], _sections())  # overwrite in place
    assert sorted(os.listdir(tmp_path)) == ["cards.csv", "index.html"]


def test_failed_write_keeps_previous_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    index = write_page(tmp_path, "first", [], _sections())
    before = index.read_text(encoding="utf-8")

    def crash(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk full"):
        write_page(tmp_path, "second", [], _sections())
    assert index.read_text(encoding="utf-8") == before
    assert sorted(os.listdir(tmp_path)) == ["cards.csv", "index.html"]


@pytest.mark.parametrize(
    ("sections", "message"),
    [
        ([Section("has space", "x")], "not a slug"),
        ([Section("a", "x"), Section("a", "y")], "used twice"),
        ([Section("a", "x", items=(Table("../evil", "t", _frame()),))], "file stem"),
        (
            [Section("a", "x", items=(Table("t", "t", _frame()), Table("t", "u", _frame())))],
            "used twice",
        ),
        ([Section("a", "x", items=(Table("t", "t", _frame(), digits=-1),))], "digits"),
        ([Section("a", "x", items=(Figure("../x.png", "f"),))], "relative"),
        ([Section("a", "x", items=(Figure("https://cdn.example/x.png", "f"),))], "relative"),
        ([Section("a", "x", items=(Figure("/tmp/x.png", "f"),))], "relative"),
    ],
)
def test_bad_input_writes_nothing(tmp_path: Path, sections: list[Section], message: str) -> None:
    out = tmp_path / "report"
    with pytest.raises(ValueError, match=message):
        write_page(out, "t", [], sections)
    assert not out.exists()


def test_interval_columns_fold_into_one_text_column_but_csv_keeps_them(tmp_path: Path) -> None:
    frame = pl.DataFrame(
        {"card": ["a", "b", "c"], "ws": [1.25, 0.5, -0.3], "ws_lo": [1.0, None, -0.327],
         "ws_hi": [1.5, None, -0.0001]}
    )  # fmt: skip
    index = write_page(
        tmp_path, "t", [], [Section("s", "S", items=(Table("cards", "Cards", frame),))]
    )
    html = index.read_text(encoding="utf-8")
    assert "ws 95%" in html
    assert "[1.000, 1.500]" in html
    assert "[−0.327, 0.000]" in html  # a true minus sign; no "−0.000"
    assert ">ws_lo<" not in html
    assert pl.read_csv(tmp_path / "cards.csv").columns == ["card", "ws", "ws_lo", "ws_hi"]


def test_p_values_and_counts_read_as_people_expect(tmp_path: Path) -> None:
    """A p-value below the last shown digit reads "<0.001" (never "0.000"), one that rounds
    up to it stays a number; a count stored as a float reads as a whole number, a float
    count with a fraction (half a win) keeps its decimals; other columns are untouched."""
    frame = pl.DataFrame(
        {
            "p": [0.0004, 0.0, 0.0006, 0.2],
            "p_bh": [0.00049, None, 0.04, 1.0],
            "n": [12.0, 3.0, 0.0, 2.5],
            "n_played": [1.0, 2.0, 3.0, 4.0],
            "expert_games": [10.0, 20.0, 30.0, 40.0],
            "ws": [1.0, 2.0, 0.0004, 0.5],
        }
    )
    section = Section("s", "S", items=(Table("t", "T", frame),))
    page = _parse(write_page(tmp_path, "t", [], [section]))
    texts = [text for _, text in page.cells]
    rows = [texts[i : i + 6] for i in range(0, len(texts), 6)]
    assert rows == [
        ["<0.001", "<0.001", "12", "1", "10", "1.000"],
        ["<0.001", MISSING, "3", "2", "20", "2.000"],
        ["0.001", "0.040", "0", "3", "30", "0.000"],
        ["0.200", "1.000", "2.500", "4", "40", "0.500"],
    ]
    # the raw number stays for sorting
    assert page.cells[0][0]["data-value"] == "0.0004"


def test_data_is_a_csv_beside_the_page_and_one_link_on_it(tmp_path: Path) -> None:
    """``Data``: the numbers behind a chart go to DIR/<name>.csv, linked in one line (rows
    and columns named), no table; its name shares the tables' namespace."""
    length = pl.DataFrame({"value": [5, 6, 7], "count": [10, 30, 5]})
    items = (Figure("len.png", "Length"), Data("game-length", "Games per length", length))
    index = write_page(tmp_path, "t", [], [Section("s", "S", items=items)])
    assert pl.read_csv(tmp_path / "game-length.csv").equals(length)
    html = index.read_text(encoding="utf-8")
    assert "<table" not in html
    assert (
        '<p class="data">Games per length: <a href="game-length.csv" download>game-length.csv'
        "</a> (3 rows; value, count)</p>"
    ) in html
    clash = [Section("s", "S", items=(Table("x", "X", length), Data("x", "X", length)))]
    with pytest.raises(ValueError, match="used twice"):
        write_page(tmp_path / "clash", "t", [], clash)
