"""Open a report page in headless Chromium and check what a reader would see.

``check_report(index_html)`` loads ``file://.../index.html`` in the system Chromium through
Playwright (never a browser Playwright downloads: ``playwright install`` is not run
anywhere) and reports console errors and uncaught page errors, images that did not load,
requests for anything outside the page's directory (blocked: a report must work offline),
horizontal overflow at 1200 px, and whether the first sortable table really sorts: a
mouse click on a numeric column header must sort its rows ascending, and pressing Enter on
the same (focused) header must sort them descending, with ``aria-sort`` set accordingly.

Chromium is ``$TALESIM_CHROMIUM`` or the first of ``/usr/bin/chromium``, ``chromium`` and
``chromium-browser`` on the PATH. Tests get ``check_report`` through the ``check_report``
fixture (``tests/reports/conftest.py``), which skips when the browser or Playwright is
missing, unless ``TALESIM_REQUIRE_BROWSER=1`` (set by CI), when it fails instead.

Also runnable by hand on a real report: ``python tests/reports/browser.py DIR/index.html``
prints the result as JSON and exits 1 when ``ok`` is false.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WIDTH = 1200  # px: the width reports must be legible at (no horizontal scrolling)
TIMEOUT_MS = 15_000

# Per numeric column: [header index, header text, data-value of each body cell (null if none)]
_NUMERIC_COLUMNS_JS = """
table => Array.from(table.tHead.rows[0].cells)
  .map((th, col) => [col, th, th.dataset.type])
  .filter(([, th, kind]) => kind === "number" && th.querySelector("button"))
  .map(([col, th]) => [col, th.textContent.trim(), Array.from(table.tBodies[0].rows,
    row => row.cells[col] ? row.cells[col].getAttribute("data-value") : null)])
"""
_COLUMN_JS = """
(table, col) => Array.from(table.tBodies[0].rows,
  row => row.cells[col] ? row.cells[col].getAttribute("data-value") : null)
"""
_IMAGES_JS = """
imgs => imgs.map(img => ({src: img.getAttribute("src"),
                          ok: img.complete && img.naturalWidth > 0}))
"""


def chromium_path() -> str | None:
    """The Chromium executable to drive, or None when there is none."""
    configured = os.environ.get("TALESIM_CHROMIUM")
    if configured:
        return configured if os.access(configured, os.X_OK) else None
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


def unavailable_reason() -> str | None:
    """Why the browser checks cannot run here (None when they can)."""
    if importlib.util.find_spec("playwright") is None:
        return "the playwright package is not installed (pip install -e '.[test]')"
    if chromium_path() is None:
        where = os.environ.get("TALESIM_CHROMIUM") or "/usr/bin/chromium or chromium on PATH"
        return f"no Chromium executable ({where}); apt-get install chromium"
    return None


def browser_available() -> bool:
    """True when Playwright is importable and a Chromium executable was found."""
    return unavailable_reason() is None


def _numbers(values: list[str | None]) -> tuple[list[float], bool]:
    """The column's numbers in row order, and whether every missing value comes last."""
    parsed = [None if v in (None, "") else float(v) for v in values]
    present = [x for x in parsed if x is not None and x == x]  # NaN counts as missing
    n = len(present)
    missing_last = all(x is not None and x == x for x in parsed[:n])
    return present, missing_last


def check_report(index_html: Path) -> dict[str, Any]:
    """Load the page in headless Chromium and return what was found.

    Keys: ``console_errors`` (console messages of type error, then uncaught page errors),
    ``broken_images`` (src of each <img> not loaded), ``external_requests`` (URLs other than
    ``file:`` and ``data:`` the page asked for; all blocked), ``horizontal_overflow`` (the
    page is wider than ``WIDTH``), ``n_images``, ``n_tables``, ``sort_column`` (header text of
    the column tried, or None), ``sort_errors`` (what went wrong while sorting),
    ``sorted_ok`` (True/False; None when the page has no sortable numeric column) and
    ``ok`` (no problem at all, and ``sorted_ok`` not False).
    """
    from playwright.sync_api import Route, sync_playwright

    executable = chromium_path()
    if executable is None:
        raise RuntimeError(unavailable_reason())
    url = Path(index_html).resolve().as_uri()
    console_errors: list[str] = []
    page_errors: list[str] = []
    external: list[str] = []

    def block_external(route: Route) -> None:
        if route.request.url.startswith(("file:", "data:")):
            route.continue_()
        else:
            external.append(route.request.url)
            route.abort()

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": WIDTH, "height": 900})
            page.set_default_timeout(TIMEOUT_MS)
            page.on(
                "console", lambda m: console_errors.append(m.text) if m.type == "error" else None
            )
            page.on("pageerror", lambda e: page_errors.append(str(e)))
            page.route("**/*", block_external)
            page.goto(url, wait_until="load")
            images = page.eval_on_selector_all("img", _IMAGES_JS)
            overflow = page.evaluate(
                "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"
            )
            n_tables = page.locator("table").count()
            sort_column, sort_errors, sorted_ok = _check_sorting(page)
        finally:
            browser.close()

    result: dict[str, Any] = {
        "console_errors": console_errors + page_errors,
        "broken_images": [img["src"] for img in images if not img["ok"]],
        "external_requests": external,
        "horizontal_overflow": bool(overflow),
        "n_images": len(images),
        "n_tables": n_tables,
        "sort_column": sort_column,
        "sort_errors": sort_errors,
        "sorted_ok": sorted_ok,
    }
    result["ok"] = not (
        result["console_errors"]
        or result["broken_images"]
        or external
        or overflow
        or sorted_ok is False
    )
    return result


def _check_sorting(page: Any) -> tuple[str | None, list[str], bool | None]:
    """Sort the first sortable table by a numeric column, up then down; report the outcome.

    The column is the first numeric one not already in ascending order (so the click must
    move rows), else the first numeric one.
    """
    tables = page.locator("table[data-sortable]")
    if tables.count() == 0:
        return None, [], None
    table = tables.first
    columns = table.evaluate(_NUMERIC_COLUMNS_JS)
    if not columns:
        return None, [], None
    unsorted = [c for c in columns if _numbers(c[2])[0] != sorted(_numbers(c[2])[0])]
    col, name, values = (unsorted or columns)[0]
    before = _numbers(values)[0]
    header = table.locator("thead th").nth(col)
    errors: list[str] = []

    header.locator("button").click()
    _expect(table, header, col, "ascending", before, errors)
    header.locator("button").focus()
    page.keyboard.press("Enter")
    _expect(table, header, col, "descending", before, errors)
    return name, errors, not errors


def _expect(
    table: Any, header: Any, col: int, order: str, before: list[float], errors: list[str]
) -> None:
    """Append to ``errors`` unless the column is now sorted in ``order``, missing last."""
    how = "click" if order == "ascending" else "Enter key"
    values, missing_last = _numbers(table.evaluate(_COLUMN_JS, col))
    wanted = sorted(before, reverse=order == "descending")
    if values != wanted:
        errors.append(f"after {how}: column not {order}: {values[:10]}")
    if not missing_last:
        errors.append(f"after {how}: missing values not last")
    aria = header.get_attribute("aria-sort")
    if aria != order:
        errors.append(f"after {how}: aria-sort is {aria!r}, expected {order!r}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tests/reports/browser.py DIR/index.html")
    reason = unavailable_reason()
    if reason:
        sys.exit(f"error: {reason}")
    found = check_report(Path(sys.argv[1]))
    print(json.dumps(found, indent=2))
    sys.exit(0 if found["ok"] else 1)
