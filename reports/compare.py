"""``talesim compare``: what changed in balance between two runs of the same game.

The usual workflow: copy a card file, change one card, rerun with the same seed and
``--cards``, compare. When both runs share the seed, the players and the seat policies,
game g of A and game g of B start from the same random stream (common random numbers),
so the comparison is paired game by game (``metrics.delta_paired``) and is far more
sensitive than comparing two independent samples (``metrics.delta_independent``).

The page opens with its findings, computed from its own tables: what changed in the card
data (field by field, read from the card files the manifests name) and the largest
changes with their significance. The page runs one test per card, policy and seat; so
many tests at 5% would flag some card by chance alone, so every p-value is adjusted by
Benjamini–Hochberg over all of the page's tests together, and "significant" means an
adjusted p below ``ALPHA`` (the raw 95% interval is still shown).
"""

from __future__ import annotations

import json
import math
import tomllib
from contextlib import suppress
from pathlib import Path
from typing import Any

import polars as pl

from talesim.reports import charts
from talesim.reports import metrics as m
from talesim.reports.html import Figure, Page, Section, Table, findings_section, write_page
from talesim.reports.run import Run, open_run
from talesim.simcore import outdirs
from talesim.simcore.cards import file_sha256
from talesim.simcore.runner import RunDirError

#: Manifest keys that must agree for game g of A and game g of B to share their stream.
PAIRING_KEYS = ("seed", "players", "policies", "rotate_seats", "variant")

ALPHA = 0.05  # false-discovery rate: significant when the BH-adjusted p is below it
INLINE_CHANGES = 3  # card-data changes the findings spell out; more get a table
TOP_CHANGES = 8  # rows of the findings' "largest changes" table
TERMINAL_CHANGES = 10  # significant changes the terminal lists before "... and N more"
#: A card-data value longer than this (a rules text) is named, not quoted, in a line.
LONG_VALUE = 40

#: The tests of the page: (table name, what a row is, key column, source table).
KINDS = (
    ("card-changes", "card", "card", "cards"),
    ("policy-changes", "policy", "policy", "seats"),
    ("seat-changes", "seat", "seat", "seats"),
)


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
    game when the runs share their games. Counts are integers; seats are numbers, in
    seat order (the other keys by the size of the change)."""
    oa, ob = _observations(a, table, key), _observations(b, table, key)
    if paired:
        df = m.delta_paired(oa, ob, key, a.players)
    else:
        df = m.delta_independent(_totals(oa, key), _totals(ob, key), key, a.players)
    # delta_paired sums observation counts as floats: they are whole numbers.
    df = df.with_columns(pl.col("n_a", "n_b").round(0).cast(pl.Int64))
    if key == "seat":
        df = df.with_columns(pl.col("seat").cast(pl.Int64)).sort("seat")
    return df


# --- significance ------------------------------------------------------------------------------


def p_value(delta: float | None, lo: float | None, hi: float | None) -> float | None:
    """Two-sided p-value of "no change" read off the change's 95% interval: the standard
    error is the interval's half-width on the side of 0 divided by 1.96, and
    p = erfc(|z| / √2) with z = delta / se. For the paired (symmetric normal) interval this
    is the usual z-test; for Newcombe's asymmetric interval it agrees with it at the
    boundary (p < 0.05 exactly when the interval excludes 0). Null without an interval or
    with one of no width (no test: it is left out of the correction's count)."""
    if delta is None or lo is None or hi is None or any(map(math.isnan, (delta, lo, hi))):
        return None
    if lo == hi:  # a value that cannot vary (one policy's share is 1): nothing to test
        return None
    half = (delta - lo) if delta >= 0 else (hi - delta)
    if half <= 0:
        return 1.0 if delta == 0 else 0.0
    return math.erfc(abs(delta) / (half / m.Z95) / math.sqrt(2))


def bh_adjust(p: list[float | None]) -> list[float | None]:
    """Benjamini–Hochberg adjusted p-values (step-up, false-discovery rate) of the tests
    ``p`` (None: no test, left out of the count m). With the k-th smallest p-value p_(k)::

        q_(k) = min over j ≥ k of  min(1, m · p_(j) / j)

    so q is monotone in p and "q < α" picks the BH set at false-discovery rate α."""
    order = sorted((v, i) for i, v in enumerate(p) if v is not None)
    count = len(order)
    out: list[float | None] = [None] * len(p)
    running = 1.0
    for rank in range(count, 0, -1):
        value, i = order[rank - 1]
        running = min(running, count * value / rank)
        out[i] = running
    return out


def with_significance(tables: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
    """Add ``p`` (raw) and ``p_bh`` (Benjamini–Hochberg over the rows of *all* ``tables``:
    one family, the page's tests) to each table; ``significant`` becomes p_bh < ALPHA."""
    raw = {
        name: [
            p_value(d, lo, hi)
            for d, lo, hi in df.select("delta", "delta_lo", "delta_hi").iter_rows()
        ]
        for name, df in tables.items()
    }
    flat = [v for name in tables for v in raw[name]]
    adjusted = bh_adjust(flat)
    out, start = {}, 0
    for name, df in tables.items():
        q = adjusted[start : start + df.height]
        start += df.height
        df = df.with_columns(
            p=pl.Series(raw[name], dtype=pl.Float64), p_bh=pl.Series(q, dtype=pl.Float64)
        ).with_columns(significant=(pl.col("p_bh") < ALPHA).fill_null(False))
        out[name] = df
    return out


def readable_order(df: pl.DataFrame) -> pl.DataFrame:
    """The columns a reader needs first (key, win shares, change, interval, adjusted p,
    verdict), then any others (pick and play rates), then the counts, raw p and method:
    on a narrow screen the table scrolls, and what scrolls away matters least."""
    front = [df.columns[0], "ws_a", "ws_b", "delta", "delta_lo", "delta_hi", "p_bh"]
    front.append("significant")
    back = ["n_a", "n_b", "p", "method"]
    middle = [c for c in df.columns if c not in front and c not in back]
    return df.select(*front, *middle, *back)


# --- pick and play rates -----------------------------------------------------------------------


def card_rates(a: Run, b: Run) -> pl.DataFrame:
    """Per card, before (``_a``) and after (``_b``): ``played`` = play rate (copies played
    / copies taken) and ``pick`` = mean draft pick (1 = first pick), where the game's cards
    table records them (``metrics.card_table``'s ``play_rate`` and ``mean_pick``); only
    ``card`` when it records neither. Short names: the compare's card table is wide."""
    names = {"play_rate": "played", "mean_pick": "pick"}
    frames = []
    for run, suffix in ((a, "_a"), (b, "_b")):
        t = m.card_table(run.scan("cards"), run.scan("seats"), run.players)
        frames.append(
            t.select("card", *[pl.col(c).alias(n + suffix) for c, n in names.items() if c in t])
        )
    rates = frames[0].join(frames[1], on="card", how="full", coalesce=True)
    order = [f"{n}{s}" for n in names.values() for s in ("_a", "_b")]
    return rates.select("card", *[c for c in order if c in rates.columns])


# --- card data ---------------------------------------------------------------------------------


def _flatten(value: Any, prefix: str, out: dict[str, str]) -> None:
    """Nested tables as dotted fields (``value.points``); every leaf as JSON-ish text."""
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(v, f"{prefix}.{k}" if prefix else k, out)
    else:
        out[prefix] = value if isinstance(value, str) else json.dumps(value)


def card_fields(files: list[Path]) -> dict[str, dict[str, str]]:
    """Every entry with an ``id`` of every array of tables in ``files`` (cards, buildings,
    Legends...), as id -> {field: text}; the files' other top-level keys under "(file)"."""
    entries: dict[str, dict[str, str]] = {}
    for path in files:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        for key, value in data.items():
            if isinstance(value, list) and value and all(isinstance(e, dict) for e in value):
                for e in value:
                    fields: dict[str, str] = {}
                    _flatten(e, "", fields)
                    entries[str(e.get("id", f"{key} #{value.index(e) + 1}"))] = fields
            else:
                _flatten(value, key, entries.setdefault("(file)", {}))
    return entries


def _readable_card_files(run: Run, label: str) -> tuple[list[Path] | None, str]:
    """The card data the run used: its own copy (``RUN/card-data/``), else the card files
    it names if they still have the bytes the run used, else (None, why not)."""
    files = [Path(f) for f in run.manifest.get("card_files") or []]
    sha = run.manifest.get("card_sha256")
    copies = [run.path / c for c in run.manifest.get("card_copies") or []]
    if sha and copies and all(c.is_file() for c in copies):
        with suppress(OSError):
            if file_sha256(*copies) == sha:
                return copies, ""
    if not files or not sha:
        return None, f"run {label}'s manifest does not name its card files"
    gone = [str(f) for f in files if not f.is_file()]
    if gone:
        return None, f"run {label}'s card file {gone[0]} is gone"
    try:
        same = file_sha256(*files) == sha
    except OSError as exc:
        return None, f"run {label}'s card file cannot be read ({exc.strerror or exc})"
    if not same:
        return None, f"run {label}'s card file {files[0]} has changed since the run"
    return files, ""


def card_data_changes(a: Run, b: Run) -> tuple[pl.DataFrame, str]:
    """What changed in the card data from A to B, field by field (``card``, ``field``,
    ``before``, ``after``; "absent" for a card or field one side lacks), and one sentence
    saying so, or why it cannot be listed (a card file gone or edited since its run)."""
    schema = {"card": pl.String, "field": pl.String, "before": pl.String, "after": pl.String}
    empty = pl.DataFrame(schema=schema)
    sha_a, sha_b = a.manifest.get("card_sha256"), b.manifest.get("card_sha256")
    if sha_a is None or sha_b is None:
        return empty, "The manifests do not record the card data: card changes unknown."
    if sha_a == sha_b:
        return empty, f"Same card data in both runs (sha256 {str(sha_a)[:12]}…)."
    files_a, why_a = _readable_card_files(a, "A")
    files_b, why_b = _readable_card_files(b, "B")
    if files_a is None or files_b is None:
        return empty, (
            f"The card data differ (sha256 {str(sha_a)[:12]}… vs {str(sha_b)[:12]}…), but "
            f"{why_a or why_b}: the changed fields cannot be listed."
        )
    before, after = card_fields(files_a), card_fields(files_b)
    rows = []
    for card in sorted(set(before) | set(after)):
        fa, fb = before.get(card), after.get(card)
        if fa is None or fb is None:
            rows.append(
                (card, "(card)", "present" if fa else "absent", "present" if fb else "absent")
            )
            continue
        for field in sorted(set(fa) | set(fb)):
            va, vb = fa.get(field, "absent"), fb.get(field, "absent")
            if va != vb:
                rows.append((card, field, va, vb))
    frame = pl.DataFrame(rows, schema=schema, orient="row")
    cards = frame["card"].n_unique()
    what = f"{frame.height} field{'s' * (frame.height != 1)} of {cards} card{'s' * (cards != 1)}"
    if not rows:
        return frame, "The card files differ, but in no card field (comments or layout only)."
    long = pl.max_horizontal(pl.col("before").str.len_chars(), pl.col("after").str.len_chars())
    frame = frame.sort(long > LONG_VALUE, "card", "field")  # the numbers first, texts after
    listed = "; ".join(_change(r) for r in frame.head(INLINE_CHANGES).iter_rows(named=True))
    more = " (all in the table below)" if frame.height > INLINE_CHANGES else ""
    return frame, f"Card data changed from A to B in {what}: {listed}{more}."


# --- findings ----------------------------------------------------------------------------------


def largest_changes(tables: dict[str, pl.DataFrame], top: int = TOP_CHANGES) -> pl.DataFrame:
    """The ``top`` largest changes over every test of the page: significant ones first,
    each group by the size of the change. Columns: ``what`` (card/policy/seat), ``name``,
    ``ws_a``, ``ws_b``, ``delta`` (interval), ``p`` (raw), ``p_bh``, ``significant``."""
    cols = ("ws_a", "ws_b", "delta", "delta_lo", "delta_hi", "p", "p_bh", "significant")
    frames = [
        tables[name].select(
            pl.lit(what).alias("what"), pl.col(key).cast(pl.String).alias("name"), *cols
        )
        for name, what, key, _ in KINDS
        if name in tables
    ]
    every = pl.concat(frames)
    return every.sort(
        [pl.col("significant"), pl.col("delta").abs()], descending=True, nulls_last=True
    ).head(top)


def _fmt_p(p: float | None) -> str:
    return "–" if p is None else "< 0.001" if p < 0.001 else f"= {p:.3f}"


def _signed(x: float) -> str:
    return f"{x:+.3f}".replace("-", "−")


def _change(r: dict[str, Any]) -> str:
    """One card-data change in a line: ``card field before → after``, a long value (a
    rules text) only named as rewritten (the table holds it whole)."""
    if max(len(r["before"]), len(r["after"])) > LONG_VALUE:
        return f"{r['card']} {r['field']} rewritten"
    return f"{r['card']} {r['field']} {r['before']} → {r['after']}"


def finding_lines(changes: pl.DataFrame, largest: pl.DataFrame, n_tests: int) -> list[str]:
    """The findings in a few plain lines (the terminal's): the card-data fields changed,
    then one line per significant change: what, by how much, its interval, adjusted p."""
    lines = [
        f"card data: {_change(r)}" for r in changes.head(TERMINAL_CHANGES).iter_rows(named=True)
    ]
    if changes.height > TERMINAL_CHANGES:
        lines.append(f"card data: ... and {changes.height - TERMINAL_CHANGES} more fields")
    significant = largest.filter(pl.col("significant"))
    for r in significant.head(TERMINAL_CHANGES).iter_rows(named=True):
        lines.append(
            f"{r['what']} {r['name']}: win share {r['ws_a']:.3f} → {r['ws_b']:.3f} "
            f"({_signed(r['delta'])}, 95% [{_signed(r['delta_lo'])}, {_signed(r['delta_hi'])}], "
            f"BH-adjusted p {_fmt_p(r['p_bh'])})"
        )
    if significant.is_empty():
        lines.append(
            f"no significant change: no Benjamini–Hochberg adjusted p below {ALPHA} "
            f"among {n_tests} tests"
        )
    return lines


#: A written comparison page: its ``index.html`` and its findings as plain lines.
Comparison = Page


def build_compare(run_a: Path, run_b: Path, out: Path) -> Comparison:
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
    has_cards = a.has("cards") and b.has("cards")
    tables = {
        name: compare_table(a, b, source, key, paired)
        for name, _, key, source in KINDS
        if source != "cards" or has_cards
    }
    tables = {k: readable_order(df) for k, df in with_significance(tables).items()}
    n_tests = sum(int(df["p"].is_not_null().sum()) for df in tables.values())
    changes, changed_text = card_data_changes(a, b)
    largest = largest_changes(tables)
    sections = [_findings_section(tables, changes, changed_text, largest, n_tests, paired)]
    if "card-changes" in tables:
        sections.append(_cards_section(a, b, tables["card-changes"], out, method, n_tests))
    sections.append(
        Section(
            "policies",
            "Policies and seats",
            (method,),
            (
                Table("policy-changes", "Change in win share per policy", tables["policy-changes"]),
                Table("seat-changes", "Change in win share per seat", tables["seat-changes"]),
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
        ("Significance", f"Benjamini–Hochberg adjusted p < {ALPHA} over {n_tests} tests"),
    ]
    index = write_page(out, f"talesim compare — {a.game}", summary, sections)
    return Comparison(index, tuple(finding_lines(changes, largest, n_tests)))


def _significance_note(n_tests: int) -> str:
    return (
        f"p: two-sided p-value of no change (from the 95% interval). p_bh: p adjusted by "
        f"Benjamini–Hochberg over all {n_tests} tests of this page (every card, policy and "
        f"seat), which keeps the expected share of false discoveries below {ALPHA:.0%}; "
        f"significant: p_bh < {ALPHA}. The 95% interval is the raw one, not adjusted."
    )


def _findings_section(
    tables: dict[str, pl.DataFrame],
    changes: pl.DataFrame,
    changed_text: str,
    largest: pl.DataFrame,
    n_tests: int,
    paired: bool,
) -> Section:
    """The page's first section: what changed in the card data, then the largest changes
    with their adjusted significance."""
    n_significant = sum(int(df["significant"].sum()) for df in tables.values())
    headline = (
        f"{n_significant} of {n_tests} tests show a significant change in win share "
        f"(Benjamini–Hochberg adjusted p < {ALPHA})"
    )
    if n_significant:
        top = largest.row(0, named=True)
        headline += (
            f"; the largest: {top['what']} {top['name']}, {top['ws_a']:.3f} → "
            f"{top['ws_b']:.3f} ({_signed(top['delta'])}, 95% [{_signed(top['delta_lo'])}, "
            f"{_signed(top['delta_hi'])}])"
        )
    if paired and n_significant > 1:
        headline += (
            ". Paired games detect small knock-on changes too: a card whose value changes "
            "shifts the other cards' holders"
        )
    headline += "."
    items: list[Table | Figure] = []
    if changes.height > INLINE_CHANGES:
        long = pl.max_horizontal(pl.col("before").str.len_chars(), pl.col("after").str.len_chars())
        numbers, texts = changes.filter(long <= LONG_VALUE), changes.filter(long > LONG_VALUE)
        items.append(Table("card-data-changes", "Card data changed (A → B)", numbers))
        if texts.height:  # rules texts: a table of their own, the new text only
            items.append(
                Table("card-texts-changed", "Rules text rewritten (B's text)",
                      texts.select("card", "field", "after"), sortable=False)
            )  # fmt: skip
    items.append(
        Table(
            "largest-changes",
            "Largest changes in win share (B − A), significant first",
            largest,
            note=_significance_note(n_tests),
        )
    )
    return findings_section((changed_text, headline), items=items)


def _cards_section(
    a: Any, b: Any, changes: pl.DataFrame, out: Path, method: str, n_tests: int
) -> Section:
    """Every card's change in win share, with its play rate and mean pick before and after,
    and their chart."""
    cards = readable_order(changes.join(card_rates(a, b), on="card", how="left"))
    charts.compare_bars(
        cards.select("card", "delta", "significant", lo="delta_lo", hi="delta_hi"),
        out / "card-changes.png",
        "Change in win share when taken, by card (B − A)",
    )
    return Section(
        "cards",
        "Cards",
        (
            method,
            "played: share of the copies taken that were played; pick: mean draft "
            "pick of a copy (1 = first pick); _a before (run A), _b after (run B).",
        ),
        (
            Table(
                "card-changes", "Change in win share per card", cards,
                note=_significance_note(n_tests),
            ),
            Figure(
                "card-changes.png",
                "Card changes",
                "Colour: significant after the Benjamini–Hochberg adjustment; whiskers: "
                "the raw 95% interval, so a grey bar's whisker may stop short of 0.",
            ),
        ),
    )  # fmt: skip
