"""A self-contained, offline HTML page for ``talesim report`` and ``talesim compare``.

One page is ``DIR/index.html`` plus one CSV per table (``DIR/<name>.csv``, full precision)
beside the PNG figures the caller has already written there. The page needs nothing but a
browser: the stylesheet and the table-sorting script are inline, images and CSV links are
relative file names, and no URL points outside the directory, so a report can be zipped,
mailed or opened from a USB stick.

Every piece of caller text (titles, notes, card ids, cell values) is HTML-escaped. Files are
written atomically (a temporary file in ``DIR``, then ``os.replace``), the CSVs before the
page, so an interrupted run leaves either the previous ``index.html`` or the new one, never
half of one.

Tables sort in the browser: each column header is a ``<button>`` (so it is reachable with
Tab and pressed with Enter or Space); the first press sorts ascending, the next descending,
and the active header carries ``aria-sort``. Numeric cells carry their raw number in
``data-value`` (the shown text is rounded), so sorting is by value, not by text; missing
values (null, NaN) sort last in both directions.
"""

from __future__ import annotations

import html
import math
import os
import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import polars as pl

MISSING = "–"  # shown for null and NaN cells
INDEX = "index.html"

_SLUG = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_STEM = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


@dataclass(frozen=True)
class Table:
    """A data frame shown as a sortable table and also written to ``DIR/<name>.csv``."""

    name: str  # file stem: the table is also written as DIR/<name>.csv
    title: str
    frame: pl.DataFrame
    note: str = ""  # plain text shown under the table (escaped)
    sortable: bool = True
    digits: int = 3  # floats shown rounded to this many decimals (the CSV keeps full precision)
    #: Show each column triple ``X, X_lo, X_hi`` as ``X`` plus one "X 95%" column
    #: reading "[lo, hi]" (the CSV keeps the three numeric columns).
    fold_intervals: bool = True


@dataclass(frozen=True)
class Figure:
    """A PNG the caller has already written into the page directory."""

    file: str  # PNG file name relative to the page directory (already written by the caller)
    title: str
    caption: str = ""


@dataclass(frozen=True)
class Data:
    """A data frame written to ``DIR/<name>.csv`` and linked from the page, not shown: the
    numbers behind a chart that already shows them (a histogram's counts), one line on the
    page instead of a long table."""

    name: str  # file stem, as a Table's (the two share one namespace)
    title: str
    frame: pl.DataFrame


Item = Table | Figure | Data


@dataclass(frozen=True)
class Section:
    """A titled part of the page, listed in the table of contents."""

    id: str  # anchor id (slug)
    title: str
    paragraphs: tuple[str, ...] = ()  # plain text, escaped; each its own <p>
    items: tuple[Item, ...] = ()
    notes: tuple[str, ...] = ()  # how to read the paragraphs: muted, after them


@dataclass(frozen=True)
class Page:
    """A written page: its ``index.html`` and the findings it opens with (the command that
    wrote it prints them too)."""

    index: Path
    findings: tuple[str, ...]


def findings_section(
    lines: Sequence[str], notes: Sequence[str] = (), items: Sequence[Item] = ()
) -> Section:
    """The block every page opens with: its findings (one paragraph each, computed from the
    page's own tables), then ``notes`` on how to read them (muted), then ``items``."""
    return Section("findings", "Findings", tuple(lines), tuple(items), tuple(notes))


def write_page(
    out_dir: Path, title: str, summary: list[tuple[str, str]], sections: list[Section]
) -> Path:
    """Write ``out_dir/index.html`` (+ one CSV per Table); return the index path.

    ``summary`` is the "run summary" shown under the title as key/value pairs, in order.
    Raises ``ValueError`` before writing anything when a section id is not a slug or is
    repeated, a table name is not a plain file stem or is repeated, a figure file is not a
    relative path inside ``out_dir``, or a table's ``digits`` is negative.
    """
    out_dir = Path(out_dir)
    _validate(sections)
    out_dir.mkdir(parents=True, exist_ok=True)
    for section in sections:
        for item in section.items:
            if isinstance(item, Table | Data):
                _write_atomic(out_dir / f"{item.name}.csv", item.frame.write_csv)
    page = _render_page(title, summary, sections)
    index = out_dir / INDEX
    _write_atomic(index, lambda path: Path(path).write_text(page, encoding="utf-8"))
    return index


def _validate(sections: Sequence[Section]) -> None:
    """Reject ids, names and paths that would break anchors, links or escape ``out_dir``."""
    ids: set[str] = set()
    names: set[str] = set()
    for section in sections:
        if not _SLUG.fullmatch(section.id):
            raise ValueError(f"section id {section.id!r} is not a slug ([A-Za-z][A-Za-z0-9_-]*)")
        if section.id in ids:
            raise ValueError(f"section id {section.id!r} is used twice")
        ids.add(section.id)
        for item in section.items:
            if isinstance(item, Table | Data):
                if not _STEM.fullmatch(item.name):
                    raise ValueError(f"table name {item.name!r} is not a plain file stem")
                if item.name in names:
                    raise ValueError(f"table name {item.name!r} is used twice")
                if isinstance(item, Table) and item.digits < 0:
                    raise ValueError(f"table {item.name!r}: digits must be >= 0")
                names.add(item.name)
            else:
                parts = Path(item.file).parts
                if (
                    not parts
                    or Path(item.file).is_absolute()
                    or ".." in parts
                    or "://" in item.file
                    or "\\" in item.file
                ):
                    raise ValueError(f"figure file {item.file!r} is not a relative path")


def _write_atomic(path: Path, write: Callable[[str], Any]) -> None:
    """Let ``write`` fill a temporary file beside ``path``, then move it into place."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _e(text: object) -> str:
    """HTML-escape any value's text (quotes included, so it is safe in attributes too)."""
    return html.escape(str(text), quote=True)


def _render_page(title: str, summary: list[tuple[str, str]], sections: list[Section]) -> str:
    rows = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in summary)
    run_summary = f'<h2>Run summary</h2>\n<dl class="summary">{rows}</dl>' if summary else ""
    toc = "".join(f'<li><a href="#{_e(s.id)}">{_e(s.title)}</a></li>' for s in sections)
    # the findings open the page, above the summary of how it was made
    lead = sections[:1] if sections and sections[0].id == "findings" else []
    first = "\n".join(_render_section(s) for s in lead)
    body = "\n".join(_render_section(s) for s in sections[len(lead) :])
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{_e(title)}</title>
<style>{_CSS}</style>
</head>
<body>
<header>
<h1>{_e(title)}</h1>
{first}
{run_summary}
<nav aria-label="Contents"><h2>Contents</h2><ol>{toc}</ol></nav>
</header>
<main>
{body}
</main>
<script>{_JS}</script>
</body>
</html>
"""


def _render_section(section: Section) -> str:
    parts = [f'<section id="{_e(section.id)}">', f"<h2>{_e(section.title)}</h2>"]
    parts += [f"<p>{_e(p)}</p>" for p in section.paragraphs]
    parts += [f'<p class="note">{_e(p)}</p>' for p in section.notes]
    for item in section.items:
        if isinstance(item, Table):
            parts.append(_render_table(item))
        elif isinstance(item, Data):
            parts.append(_render_data(item))
        else:
            parts.append(_render_figure(item))
    parts.append("</section>")
    return "\n".join(parts)


def _render_figure(figure: Figure) -> str:
    caption = f"<p>{_e(figure.caption)}</p>" if figure.caption else ""
    return (
        f'<figure><h3>{_e(figure.title)}</h3><img src="{_e(quote(figure.file))}" '
        f'alt="{_e(figure.title)}" loading="eager">'
        f"<figcaption>{caption}</figcaption></figure>"
    )


def _render_data(data: Data) -> str:
    """One line: the CSV's link, its rows and columns."""
    link = f'<a href="{_e(quote(data.name + ".csv"))}" download>{_e(data.name)}.csv</a>'
    rows = f"{data.frame.height:,} row{'s' if data.frame.height != 1 else ''}"
    return (
        f'<p class="data">{_e(data.title)}: {link} ({rows}; '
        f"{_e(', '.join(data.frame.columns))})</p>"
    )


def _fold_intervals(frame: pl.DataFrame, digits: int) -> pl.DataFrame:
    """``X, X_lo, X_hi`` -> ``X`` and a text column ``X 95%`` = "[lo, hi]" right after it
    (a negative bound with a true minus sign: "[−0.327, −0.304]")."""
    folded = []
    for name in frame.columns:
        if name.endswith(("_lo", "_hi")) and name[:-3] in frame.columns:
            lo, hi = f"{name[:-3]}_lo", f"{name[:-3]}_hi"
            if lo in frame.columns and hi in frame.columns:
                continue
        folded.append(frame[name])
        lo, hi = f"{name}_lo", f"{name}_hi"
        if lo in frame.columns and hi in frame.columns:
            text = [
                None if a is None or b is None else f"[{_signed(a, digits)}, {_signed(b, digits)}]"
                for a, b in zip(frame[lo].to_list(), frame[hi].to_list(), strict=True)
            ]
            folded.append(pl.Series(f"{name} 95%", text, pl.String))
    return pl.DataFrame(folded)


def _signed(value: float, digits: int) -> str:
    """``value`` rounded to ``digits`` decimals, a negative one with a minus sign (−), never
    "−0.000"."""
    text = f"{value:.{digits}f}"
    return text.lstrip("-") if float(text) == 0 else text.replace("-", "−")


def number(value: float, digits: int = 3, sign: bool = False) -> str:
    """``value`` as findings write it: ``digits`` decimals, a negative one with a true minus
    (−), with ``sign`` a positive one with "+" too; zero bare ("0.000", never "−0.000")."""
    if not sign:
        return _signed(value, digits)
    text = f"{value:+.{digits}f}"
    return text.lstrip("+-") if float(text) == 0 else text.replace("-", "−")


def interval(row: dict[str, Any], key: str = "ws", digits: int = 3) -> str:
    """A table row's ``key`` and its 95% interval (``key_lo``, ``key_hi``) as findings write
    them: "1.173 [1.148, 1.198]"."""
    lo, hi = row[f"{key}_lo"], row[f"{key}_hi"]
    return f"{number(row[key], digits)} [{number(lo, digits)}, {number(hi, digits)}]"


def _render_table(table: Table) -> str:
    frame = _fold_intervals(table.frame, table.digits) if table.fold_intervals else table.frame
    numeric = [dtype.is_numeric() for dtype in frame.schema.values()]
    kinds = [_column_kind(name) for name in frame.columns]
    head = "".join(
        _render_header(name, is_num, table.sortable)
        for name, is_num in zip(frame.columns, numeric, strict=True)
    )
    rows = []
    for row in frame.iter_rows():
        cells = "".join(
            _render_cell(value, is_num, table.digits, kind)
            for value, is_num, kind in zip(row, numeric, kinds, strict=True)
        )
        rows.append(f"<tr>{cells}</tr>")
    attrs = ' class="sortable" data-sortable' if table.sortable else ""
    empty = '<p class="note">No rows.</p>' if frame.height == 0 else ""
    note = f'<p class="note">{_e(table.note)}</p>' if table.note else ""
    csv = f'<a class="csv" href="{_e(quote(table.name + ".csv"))}" download>CSV</a>'
    return (
        f'<div class="table-item"><h3>{_e(table.title)} {csv}</h3>'
        f'<div class="table-wrap"><table{attrs}><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>{empty}{note}</div>"
    )


def _render_header(name: str, numeric: bool, sortable: bool) -> str:
    kind = "number" if numeric else "text"
    cls = ' class="num"' if numeric else ""
    label = f'<button type="button">{_e(name)}</button>' if sortable else _e(name)
    return f'<th scope="col" data-type="{kind}"{cls}>{label}</th>'


#: Columns that hold counts (``size``: a balance trial's steps changed): shown as whole
#: numbers even when stored as floats.
COUNT_COLUMNS = frozenset(
    {"n", "count", "games", "wins", "claims", "rows", "decisions", "seats", "judged", "size"}
)


def _column_kind(name: str) -> str:
    """How a column's numbers are shown: ``count`` (a whole number: ``n``, ``n_played``,
    ``expert_games``, ...), ``p`` (a p-value: ``p``, ``p_bh``; below the last shown digit
    it reads "<0.001", never "0.000") or ``plain``."""
    if name in COUNT_COLUMNS or name.startswith("n_") or name.endswith(("_n", "_games")):
        return "count"
    if name == "p" or name.startswith("p_"):
        return "p"
    return "plain"


def _render_cell(value: Any, numeric: bool, digits: int, kind: str = "plain") -> str:
    """One ``<td>``: rounded text for people, the raw number in ``data-value`` for sorting
    (a count as a whole number, a p-value too small to show as "<0.001")."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        cls = "num missing" if numeric else "missing"
        return f'<td class="{cls}">{MISSING}</td>'
    if isinstance(value, bool):
        return f"<td>{'yes' if value else 'no'}</td>"
    if numeric:
        if isinstance(value, float) and math.isinf(value):
            raw, text = ("Infinity", "∞") if value > 0 else ("-Infinity", "−∞")
        elif isinstance(value, int):
            raw, text = str(value), str(value).replace("-", "−")
        elif kind == "count" and float(value) == round(float(value)):
            raw, text = repr(float(value)), str(round(float(value))).replace("-", "−")
        elif kind == "p" and 0 <= float(value) < 0.5 * 10**-digits:
            raw, text = repr(float(value)), f"<{10**-digits:.{digits}f}"
        else:  # float or Decimal: no "-0.000" for tiny negatives, a true minus sign
            raw, text = repr(float(value)), _signed(float(value), digits)
        return f'<td class="num" data-value="{_e(raw)}">{_e(text)}</td>'
    if isinstance(value, list | tuple):
        return f"<td>{_e(', '.join(MISSING if v is None else str(v) for v in value))}</td>"
    return f"<td>{_e(value)}</td>"


_CSS = """
:root { color-scheme: light; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0;
  --zebra: #f6f8fa; --accent: #0b5cad; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: #fff;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
  sans-serif; }
header, main { max-width: 1240px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 16px; border-bottom: 1px solid var(--line); }
h1 { font-size: 1.8rem; margin: 0.4em 0; }
h2 { font-size: 1.35rem; margin: 1.2em 0 0.5em; }
h3 { font-size: 1.05rem; margin: 1.2em 0 0.4em; }
section { padding-bottom: 8px; border-bottom: 1px solid var(--line); }
a { color: var(--accent); }
dl.summary { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px;
  margin: 0 0 8px; }
dl.summary dt { font-weight: 600; }
dl.summary dd { margin: 0; overflow-wrap: anywhere; }
nav ol { margin: 0 0 16px; padding-left: 1.4em; }
figure { margin: 0 0 16px; }
/* a chart at its own size (most are 1200 px wide; a small heatmap is smaller), never wider
   than the page */
figure img { display: block; width: auto; max-width: 100%; height: auto;
  border: 1px solid var(--line); }
p.data { margin: 0.4em 0 16px; }
figcaption p, p.note { color: var(--muted); font-size: 0.9rem; margin: 0.4em 0; }
a.csv { font-size: 0.8rem; font-weight: normal; margin-left: 8px; }
.table-wrap { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: 0.9rem;
  font-variant-numeric: tabular-nums; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: left;
  white-space: nowrap; }
thead th { background: #eaeef2; vertical-align: bottom; }
tbody tr { background: #fff; }
tbody tr:nth-child(even) { background: var(--zebra); }
tbody tr:hover { background: #fff8c5; }
/* a wide table scrolls inside its box; its first column (the card's name) stays in view */
.table-wrap th:first-child, .table-wrap td:first-child { position: sticky; left: 0;
  background: inherit; box-shadow: inset -1px 0 0 var(--line); }
thead th:first-child { z-index: 1; }
.num { text-align: right; }
th button { all: unset; cursor: pointer; display: block; width: 100%; font-weight: 600;
  text-align: inherit; }
th button:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
th button::after { content: " \\2195"; color: var(--muted); opacity: 0.5; }
th[aria-sort="ascending"] button::after { content: " \\25B2"; opacity: 1; }
th[aria-sort="descending"] button::after { content: " \\25BC"; opacity: 1; }
"""

_JS = """
"use strict";
(() => {
  // Sort a table's rows by one column: numbers by data-value, text by natural order;
  // missing values (class "missing", or no usable data-value) always last; ties keep
  // their order.
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
  const key = (cell, numeric) => {
    if (!cell) return null;
    if (cell.classList.contains("missing")) return null;
    if (!numeric) return cell.textContent.trim();
    const raw = cell.getAttribute("data-value");
    const x = raw === null || raw === "" ? NaN : Number(raw);
    return Number.isNaN(x) ? null : x;
  };
  const sortBy = (table, th, col) => {
    const ascending = th.getAttribute("aria-sort") !== "ascending";
    for (const other of table.tHead.rows[0].cells) other.removeAttribute("aria-sort");
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    const numeric = th.dataset.type === "number";
    const body = table.tBodies[0];
    const rows = Array.from(body.rows, (row, i) => ({ row, i, k: key(row.cells[col], numeric) }));
    rows.sort((a, b) => {
      if (a.k === null || b.k === null) {
        return a.k === b.k ? a.i - b.i : a.k === null ? 1 : -1;
      }
      const c = numeric ? (a.k < b.k ? -1 : a.k > b.k ? 1 : 0) : collator.compare(a.k, b.k);
      return (ascending ? c : -c) || a.i - b.i;
    });
    for (const r of rows) body.appendChild(r.row);
  };
  for (const table of document.querySelectorAll("table[data-sortable]")) {
    if (!table.tHead || !table.tBodies.length) continue;
    Array.from(table.tHead.rows[0].cells).forEach((th, col) => {
      const button = th.querySelector("button");
      if (button) button.addEventListener("click", () => sortBy(table, th, col));
    });
  }
})();
"""
