"""``talesim report``: the balance report of one run, as DIR/index.html + PNGs + CSVs.

Each section is built from the tables the run has, so a game's sections appear as soon
as its dataset carries them: the card table for every game with a ``cards`` table,
building value curves when there is a ``buildings`` table (Paper Tales), Legends, game
length and dragons when there is a ``legends`` table (DRAKO). Numbers come from
``reports.metrics`` (formulas in its docstrings); pictures from ``reports.charts``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl
from matplotlib.ticker import MaxNLocator

from talesim.reports import charts, strength
from talesim.reports import metrics as m
from talesim.reports.html import (
    Data,
    Figure,
    Item,
    Page,
    Section,
    Table,
    findings_section,
    number,
    write_page,
)
from talesim.reports.run import Run, open_run
from talesim.simcore import outdirs
from talesim.simcore.runner import RunDirError
from talesim.simcore.until_ci import MIN_TAKEN

BIASES = (
    "How to read these numbers: win share is win rate × players, so 1.0 is an average seat. "
    "Intervals are 95% Wilson intervals; cards with few copies have wide ones. "
    "They describe these policies playing these rules, not human play.",
    "Known biases: a card's win share mixes its own strength with its holders' situation "
    "(coattails: strong players and strong positions take more cards of every kind), and "
    "'played' versus 'not played' compares seats that chose differently, so improvement "
    "is a correlation, not a controlled effect. Copies held together are counted "
    "separately and are not independent. Use `talesim compare` on two runs with the same "
    "seed to measure the effect of a change.",
    "This table says how the cards do for this run's policies only. Whether a card is "
    "strong or weak as play gets stronger is `talesim ladder`'s verdict (the same cards "
    "under several policies, each level with its interval); `talesim balance` proposes "
    "the smallest card edit that brings every card into a band.",
)


def run_summary(run: Run) -> list[tuple[str, str]]:
    """Key facts of the run, in the order a reader checks them."""
    mf = run.manifest
    seconds = float(mf.get("simulation_seconds") or 0.0)
    speed = f"{run.n_games / seconds:,.0f} games/s" if seconds > 0 else "n/a"
    policies = mf.get("policies", [])
    rotate = " (rotated across seats)" if mf.get("rotate_seats") else ""
    return [
        ("Game", run.game),
        ("Variant / preset", str(mf.get("variant", ""))),
        ("Players", str(run.players)),
        ("Policies by seat", ", ".join(map(str, policies)) + rotate),
        ("Seed", str(mf.get("seed", ""))),
        ("Games", f"{run.n_games:,}"),
        ("Card data sha256", str(mf.get("card_sha256", ""))[:16] + "…"),
        ("Tool version", f"{mf.get('tool', 'talesim')} {mf.get('version', '')}"),
        ("Simulation time", f"{seconds:,.1f} s ({speed}, kernel time)"),
        ("Simulated", str(mf.get("finished", mf.get("created", "")))),
    ]


#: The card table's first columns: the card, its share and its status (not in a mixed run),
#: before what scrolls.
FIRST = ("card", "n", "ws", "ws_lo", "ws_hi", "status")


#: What each optional group of card-table columns means, by the column that marks it.
CARD_NOTES = (
    ("ws_played", "_played / _not_played: copies played or not; improvement = ws_played − "
                  "ws_not_played"),
    ("ws_final", "_final: copies in the final tableau"),
    ("play_rate", "play_rate: share of the copies taken that were played"),
    ("mean_pick", "mean_pick: 1 = the first pick"),
    ("mean_points", "mean_points: points per copy taken"),
    ("n_given", "_given: copies that came without a choice (pick 0: a starting card, a card "
                "an effect revealed), left out of every other column"),
)  # fmt: skip


def card_table_note(columns: Sequence[str], band: tuple[float, float]) -> str:
    """The card table's note: what its columns mean, only those the game's table has (no
    ``status`` column: a mixed run's, judged per policy instead)."""
    lo, hi = band
    parts = ["n: copies taken", "ws: win share when taken"]
    if "status" in columns:
        parts.append(
            f"status: against the band {lo}–{hi}, as the findings judge (strong or weak: the "
            "95% interval wholly above or below it; even: wholly inside; unclear: across an "
            f"edge; not checked: taken fewer than {strength.MIN_TAKEN} times, or an interval "
            "wider than the band)"
        )
    else:
        parts.append(
            "no status here: pooled over policies of different strength, a card's share "
            "mixes the card with who took it; Cards by policy judges each card per policy"
        )
    parts += [text for column, text in CARD_NOTES if column in columns]
    return "; ".join(parts) + "."


def _card_section(
    run: Run, out: Path, table: pl.DataFrame, band: tuple[float, float], mixed: bool
) -> Section:
    """The card table (with each card's status against ``band``, but in a ``mixed`` run)
    and its charts."""
    shown = table if mixed else with_status(table, band)
    first = [c for c in FIRST if c in shown.columns]
    items: list[Table | Figure] = [
        Table(
            "cards",
            "Card table",
            shown.select(*first, pl.exclude(first)),
            note=card_table_note(shown.columns, band),
        )
    ]
    charts.win_share_bars(
        table.select("card", "n", ws="ws", lo="ws_lo", hi="ws_hi"),
        out / "card-win-share.png",
        "Win share when taken, by card (95% Wilson intervals)",
    )
    items.append(Figure("card-win-share.png", "Win share when taken"))
    if "ws_played" in table.columns:
        charts.win_share_bars(
            table.select(
                "card", n="n_played", ws="ws_played", lo="ws_played_lo", hi="ws_played_hi"
            ),
            out / "card-win-share-played.png",
            "Win share when played, by card (95% Wilson intervals)",
        )
        items.append(Figure("card-win-share-played.png", "Win share when played"))
    if "mean_pick" in table.columns:
        charts.pick_vs_win_scatter(
            table.select("card", "mean_pick", "ws", "n"),
            out / "pick-vs-win-share.png",
            "Average pick position vs win share when drafted",
        )
        items.append(
            Figure(
                "pick-vs-win-share.png",
                "Pick position vs win share",
                "Cards far above the line that are picked late are undervalued by the "
                "policies; cards picked early with low win share are overvalued.",
            )
        )
    return Section("cards", "Cards", BIASES, tuple(items))


def _seat_section(run: Run, out: Path, by_seat: pl.DataFrame, by_policy: pl.DataFrame) -> Section:
    seats = run.scan("seats")
    items: list[Table | Figure] = [
        Table("seats", "Win share by seat", by_seat, note="Seat 0 plays first where it matters."),
    ]
    charts.win_share_bars(
        by_seat.with_columns(pl.format("seat {}", "seat").alias("seat")),
        out / "seat-win-share.png",
        "Win share by seat (seat advantage)",
        lo="ws_lo",
        hi="ws_hi",
        label="seat",
        ranked=False,
    )
    items.append(Figure("seat-win-share.png", "Seat advantage"))
    items.append(Table("policies", "Win share by policy", by_policy))
    pairs = m.pairwise_results(seats)
    if by_policy.height > 1:
        matrix = m.matchup_matrix(pairs)
        items.append(
            Table(
                "matchups",
                "Policy matchups (head to head)",
                matrix,
                note="ws = 2 × share of comparisons in which the policy finished ahead of the "
                "opponent (ties half) over every pair of seats in the same game; 1.0 = even.",
            )
        )
        charts.matchup_heatmap(
            matrix.select("policy", "opponent", "ws", "n"),
            out / "policy-matchups.png",
            "Head-to-head win share of row policy vs column policy",
        )
        items.append(Figure("policy-matchups.png", "Policy matchup matrix"))
        items.append(
            Table(
                "bradley-terry",
                "Bradley–Terry rating per policy (95% bootstrap intervals)",
                strength.run_ratings(seats),
                note="P(i ahead of j) = s_i / (s_i + s_j) for each pair of seats of a game; "
                "rating = 400·log10(s) (the Elo scale), 0 = the average policy. Intervals: "
                "bootstrap over blocks of games.",
            )
        )
    for key in ("seat", "policy"):
        charts.score_distributions(
            m.score_histogram(seats, key),
            out / f"scores-by-{key}.png",
            f"Final score distribution by {key}",
        )
        items.append(Figure(f"scores-by-{key}.png", f"Score distribution by {key}"))
    return Section("seats", "Seats and policies", (), tuple(items))


def _building_section(run: Run, out: Path) -> Section:
    curves = m.building_curves(run.scan("buildings"), run.scan("seats"), run.players)
    chart = curves.rename({"turn": "turn_built", "ws_lo": "lo", "ws_hi": "hi"})
    charts.building_curves(
        chart, out / "building-curves.png", "Win share by the turn each level was reached"
    )
    charts.building_curves_combined(
        chart,
        out / "building-curves-combined.png",
        "All buildings: win share by the turn each level was reached",
    )
    return Section(
        "buildings",
        "Building value curves",
        (
            "For each building and level: the seats that reached it on each turn, their win "
            "share and mean final score, and the marginal score of having it by that turn "
            "(mean score of seats that had it minus all others).",
        ),
        (
            Table("building-curves", "Building × level × turn reached", curves),
            Figure("building-curves.png", "Value curve per building"),
            Figure("building-curves-combined.png", "All buildings"),
        ),
    )


def _legend_section(run: Run, out: Path) -> Section:
    seats = run.scan("seats")
    items: list[Item] = []
    legends = m.legend_table(run.scan("legends"), seats, run.players, run.n_games)
    items.append(Table("legends", "Legends: claim rate and win share when claimed", legends))
    charts.win_share_bars(
        legends.select(pl.col("legend").alias("card"), n="claims", ws="ws", lo="ws_lo", hi="ws_hi"),
        out / "legend-win-share.png",
        "Win share of the seat that claimed each Legend",
    )
    items.append(Figure("legend-win-share.png", "Win share when claimed"))
    if "turns" in run.columns("games"):
        length = m.value_counts(run.scan("games"), "turns")
        charts.histogram(length, out / "game-length.png", "Game length", "value", "turns")
        items += [  # the chart shows every count: the numbers go to a CSV, not a table
            Figure("game-length.png", "Game length"),
            Data("game-length", "Games per length in turns", length),
        ]
    return Section("legends", "Legends and game length", (), tuple(items))


def dragon_split(run: Run) -> pl.DataFrame | None:
    """DRAKO's dragons by origin (``metrics.count_vs_score_by_origin``), or None when the
    ``cards`` table does not record the turn a card was placed."""
    if not run.has("cards") or DRAGON_TURN not in run.columns("cards"):
        return None
    seats, cards = run.scan("seats"), run.scan("cards")
    return m.count_vs_score_by_origin(cards, seats, "dragon", run.players, DRAGON_TURN)


#: ``dragon_draws``' result: the table of drawn dragons' fates and the placed − discarded
#: comparison (``metrics.drawn_card_outcomes``, ``metrics.drawn_card_choice``).
DragonDraws = tuple[pl.DataFrame, dict[str, float] | None]


def dragon_draws(run: Run) -> DragonDraws | None:
    """DRAKO's drawn dragons, placed or discarded, from the ``draws`` table (one row a
    draw decision), or None when the run has none."""
    if not run.has("draws"):
        return None
    draws, seats = run.scan("draws"), run.scan("seats")
    return (
        m.drawn_card_outcomes(draws, seats, "dragon", run.players),
        m.drawn_card_choice(draws, seats, "dragon", run.players),
    )


def draw_answer(found: DragonDraws) -> tuple[str, bool]:
    """ "Is a drawn dragon worth placing?" answered from ``dragon_draws``: the win share
    and mean score after placing a dragon drawn from the draw pile against after
    discarding it, with the difference and its interval, and the dragons taken from the
    discard pile. Returns the sentence and whether the interval decides (the Findings
    line)."""
    outcomes, choice = found
    rows = {(r["source"], r["outcome"]): r for r in outcomes.iter_rows(named=True)}
    taken = rows.get(("discard", "placed"))
    from_discard = (
        f" A dragon taken from the discard pile (always placed) {_draw_share(taken)}."
        if taken
        else ""
    )
    if choice is None:
        return "Drawn dragons: too few placed and discarded to compare." + from_discard, False
    lo, hi = choice["d_ws_lo"], choice["d_ws_hi"]
    if lo > 0:
        verdict = (
            "yes: the seats that placed a dragon they drew won more than those that discarded one"
        )
    elif hi < 0:
        verdict = (
            "no: the seats that discarded a dragon they drew won more than those that placed one"
        )
    else:
        verdict = (
            "not clearly in wins: the win shares after placing and after discarding a drawn "
            "dragon differ by less than the games can show"
        )
    if not lo > 0 and not hi < 0 and choice["d_score_lo"] > 0:
        verdict += ", though placing scores more points"
    elif not lo > 0 and not hi < 0 and choice["d_score_hi"] < 0:
        verdict += ", though placing scores fewer points"
    placed, discarded = rows[("deck", "placed")], rows[("deck", "discarded")]
    return (
        f"Is a drawn dragon worth placing? {verdict}. Per decision, placed "
        f"{_draw_share(placed)}; discarded {_draw_share(discarded)}; difference "
        f"{_signed(choice['d_ws'])} [{_signed(lo)}, {_signed(hi)}] in win share, "
        f"{_signed(choice['d_score'])} [{_signed(choice['d_score_lo'])}, "
        f"{_signed(choice['d_score_hi'])}] points.{from_discard} Each drawn dragon is "
        "scored by its seat's result at the end of that game, so this compares the games "
        "in which seats chose each way, not the choice alone (a seat discards the dragons "
        "its kingdom has no good cell for).",
        lo > 0 or hi < 0,
    )


def _draw_share(row: dict[str, Any]) -> str:
    """One row of ``drawn_card_outcomes`` in words: decisions, win share with its interval,
    mean score."""
    ci = f" [{_bound(row['ws_lo'])}, {_bound(row['ws_hi'])}]" if row["ws_lo"] is not None else ""
    return f"{row['n']:,} times: win share {row['ws']:.3f}{ci}, mean score {row['mean_score']:.1f}"


def _dragon_section(
    run: Run, out: Path, split: pl.DataFrame | None, draws: DragonDraws | None
) -> Section:
    dragons = m.count_vs_score(run.scan("cards"), run.scan("seats"), "dragon", run.players)
    charts.xy_line(
        dragons, out / "dragons-vs-score.png", "Dragons in the kingdom vs final score",
        "count", "mean_score", xlabel="dragons", ylabel="mean final score (points)",
    )  # fmt: skip
    items: list[Table | Figure] = [
        Table("dragons", "Dragon count vs score (dealt and placed together)", dragons),
        Figure("dragons-vs-score.png", "Dragon count vs mean score"),
    ]
    if split is None:
        return Section("dragons", "Dragons", (), tuple(items))
    items.append(
        Table(
            "dragons-by-origin",
            "Dragons dealt vs placed by choice",
            split,
            note="dealt: the seat's dragons dealt at setup and still in place at the end "
            "(turn_placed 0: never chosen; a dealt face-down dragon the seat covered is not "
            "counted); placed: dragons the seat put down on a turn of its own. count: dragons "
            "of that origin; every seat is in both halves.",
        )
    )
    origin_chart(
        split.filter(pl.col("n") >= MIN_TAKEN),
        out / "dragons-by-origin.png",
        "Win share by dragons dealt and by dragons placed (95% Wilson intervals)",
    )
    items.append(
        Figure(
            "dragons-by-origin.png",
            "Win share by dragons dealt vs placed",
            f"Counts held by at least {MIN_TAKEN} seats (the table has every count).",
        )
    )
    answers = [dragon_answer(split, run.players)]
    if draws is not None:
        answers.append(draw_answer(draws)[0])
        items.append(
            Table(
                "dragon-draws",
                "Drawn dragons: placed or discarded",
                draws[0],
                note="One row per dragon a seat took (source deck: the top of the draw pile, "
                "which it may place or discard to reveal a cell; discard: the top discard, "
                "always placed); ws and mean_score are that seat's at the end of the game, "
                "with 95% intervals clustered by game. seats: the seats that did so.",
            )
        )
    return Section("dragons", "Dragons", tuple(answers), tuple(items))


def origin_chart(split: pl.DataFrame, path: Path, title: str) -> Path:
    """One line per ``origin`` of ``split`` (``count_vs_score_by_origin``): win share by
    count with its interval shaded, on one axis so dealt and placed compare directly."""
    with charts._canvas(5.0) as fig:
        ax = fig.add_subplot()
        origins = split["origin"].unique(maintain_order=True).to_list()
        for origin, colour in zip(origins, charts._colours(len(origins)), strict=True):
            part = split.filter(pl.col("origin") == origin).sort("count")
            xs = part["count"].to_numpy()
            ax.fill_between(xs, part["ws_lo"].to_numpy(), part["ws_hi"].to_numpy(),
                            color=colour, alpha=0.2, linewidth=0)  # fmt: skip
            ax.plot(xs, part["ws"].to_numpy(), marker="o", color=colour, label=origin)
        charts._average_line(ax, vertical=False)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("dragons of that origin held at the end")
        ax.set_ylabel("win share (1.0 = average seat)")
        charts._top_legend(fig, ax, title)
        return charts._save(fig, path)


#: DRAKO's ``cards`` column with the turn a cell's card was placed (0 = dealt at setup).
DRAGON_TURN = "turn_placed"


def dragon_answer(split: pl.DataFrame, players: int) -> str:
    """ "Are dragons weak?" answered from ``count_vs_score_by_origin``: one dragon against
    none, dealt (the seat did not choose it: the card's own effect, as near as the data
    gets) and placed by choice (the policy's choice and the card mixed), each with the
    difference of win shares and its Newcombe interval."""
    parts, verdict = [], "the dealt dragons cannot tell (too few seats)"
    for origin in ("dealt", "placed"):
        rows = {
            r["count"]: r for r in split.filter(pl.col("origin") == origin).iter_rows(named=True)
        }
        if 0 not in rows or 1 not in rows:
            continue
        one, none = rows[1], rows[0]
        d, lo, hi = (
            x * players
            for x in m.newcombe(one["ws"] / players, one["n"], none["ws"] / players, none["n"])
        )
        parts.append(
            f"one dragon {origin} {_share(one)} against none {_share(none)}, difference "
            f"{_signed(d)} [{_signed(lo)}, {_signed(hi)}] (mean score {one['mean_score']:.1f} "
            f"vs {none['mean_score']:.1f})"
        )
        if origin == "dealt":
            if hi < 0:
                verdict = "yes: a dragon the seat was dealt, not chose, lowers its win share"
            elif lo > 0:
                verdict = "no: a dragon the seat was dealt, not chose, raises its win share"
            else:
                verdict = "not clearly: a dealt dragon makes no difference the games can show"
    if not parts:
        return "Dragons: too few seats with and without dragons to compare."
    return (
        f"Are dragons weak? {verdict}. Per seat, {'; '.join(parts)}. A dealt dragon is the "
        "card's own effect as near as these games get (nobody chose it); a placed one mixes "
        "the card with when the policy chooses to place it."
    )


def _signed(x: float) -> str:
    """``x`` to 3 decimals with its sign, a negative one with a true minus (−)."""
    return number(x, sign=True)


def _bound(x: float) -> str:
    return number(x)


def _share(row: dict[str, Any], ws: str = "ws") -> str:
    """A row's win share and its interval: "1.173 [1.148, 1.198]"."""
    return f"{row[ws]:.3f} [{_bound(row[f'{ws}_lo'])}, {_bound(row[f'{ws}_hi'])}]"


def strength_section(runs: list[Run], out: Path, band: tuple[float, float] = (0.9, 1.1)) -> Section:
    """Card verdicts across strength (``reports.strength``) from runs that differ only in
    policy: each run is a level, in the order given (weakest first), runs whose every seat
    plays ``random`` left out of the verdicts."""
    from talesim.reports import strength

    names = [",".join(sorted(set(run.manifest.get("policies", [])))) for run in runs]
    cards = strength.shares_by_policy([(n, run.path) for n, run in zip(names, runs, strict=True)])
    levels = [n for n in names if n != "random"]
    verdicts = strength.verdicts(cards, levels, band)
    charts.level_dots(
        cards, levels, out / "cards-by-level.png",
        "Win share when taken, per run (strength level)", band,
    )  # fmt: skip
    return Section(
        "strength",
        "Across strength",
        (
            f"The runs as levels of strength, in the order given: {', '.join(names)} "
            "(runs of random play are not levels). A card is strong or weak when its win "
            f"share's 95% interval lies wholly above {band[1]} or below {band[0]} in every "
            "level that checked it, even when inside the band there, policy-dependent when "
            "two levels disagree, unclear otherwise. "
            + strength.CHECKED_RULE
            + " `talesim ladder` also rates the policies against each other.",
        ),
        (
            Table("card-verdicts", "Card verdicts across the runs", verdicts),
            Figure("cards-by-level.png", "Win share per card and run"),
            Table(
                "rank-correlations",
                "Rank correlation between adjacent runs",
                strength.rank_correlations(cards, levels),
            ),
            Table("cards-by-policy", "Win share per card and run", cards),
        ),
    )


#: What runs compared across strength must share (they may differ in policy only; the
#: engine's config is left out: it records the policies' weights).
SAME_ACROSS_STRENGTH = ("game", "variant", "players", "card_sha256")


def check_strength_runs(runs: list[Run]) -> None:
    """Runs reported together differ only in policy: ``RunDirError`` naming the first key
    that differs, or two runs of the same policies."""
    first = runs[0]
    for run in runs[1:]:
        for key in SAME_ACROSS_STRENGTH:
            if run.manifest.get(key) != first.manifest.get(key):
                raise RunDirError(
                    f"{run.path} and {first.path} differ in {key} "
                    f"({run.manifest.get(key)!r} vs {first.manifest.get(key)!r}): runs "
                    "reported together may differ only in policy"
                )
    seen = [tuple(sorted(set(r.manifest.get("policies", [])))) for r in runs]
    if len(set(seen)) != len(seen):
        raise RunDirError("two of the runs play the same policies: give one run per policy")


#: A written report: its page and the findings it opens with (also printed by the CLI).
Report = Page


def build_report(
    run_dir: Path, out: Path, more: list[Path] | None = None, band: tuple[float, float] = (0.9, 1.1)
) -> Path:
    """Write the report of ``run_dir`` into ``out``; return the path of index.html. With
    ``more`` runs (differing only in policy), an "Across strength" section follows."""
    return write_report(run_dir, out, more, band).index


def write_report(
    run_dir: Path, out: Path, more: list[Path] | None = None, band: tuple[float, float] = (0.9, 1.1)
) -> Report:
    """``build_report``, returning the page and its findings."""
    run = open_run(run_dir)
    others = [open_run(p) for p in more or []]
    out = Path(out)
    outdirs.check_apart(out, [r.path for r in (run, *others)], "report")
    if others:
        check_strength_runs([run, *others])
    outdirs.mark_page(out, "report")
    seats = run.scan("seats")
    by_seat = m.win_share_by(seats, "seat", run.players)
    by_policy = m.win_share_by(seats, "policy", run.players)
    mixed = by_policy.height > 1
    sections = []
    table = by_card = None
    stats = card_stats(run) if run.has("cards") else None
    if run.has("cards"):
        table = m.card_table(run.scan("cards"), seats, run.players)
        sections.append(_card_section(run, out, table, band, mixed))
        if mixed:
            by_card = card_policy_table(run, band, stats)
            sections.append(_card_policy_section(by_card, band))
    sections.append(_seat_section(run, out, by_seat, by_policy))
    if run.has("cards") and _seats_differ(seats, run.players):
        sections.append(_card_seat_section(run, band, stats))
    trickster = trickster_section(run, out)
    if trickster is not None:
        sections.append(trickster)
    if run.has("buildings"):
        sections.append(_building_section(run, out))
    split = draws = None
    if run.has("legends"):
        sections.append(_legend_section(run, out))
        if run.has("cards"):
            split, draws = dragon_split(run), dragon_draws(run)
            sections.append(_dragon_section(run, out, split, draws))
    if others:
        sections.append(strength_section([run, *others], out, band))
    found = findings(run, band, table, by_card, by_policy, stats)
    if split is not None:
        found.append(dragon_answer(split, run.players))
    if draws is not None and (drawn := draw_answer(draws))[1]:
        found.append(drawn[0])
    sections.insert(0, findings_section(found))
    title = f"talesim balance report — {run.game} ({run.manifest.get('variant', '')})"
    return Report(write_page(out, title, run_summary(run), sections), tuple(found))


# --- findings and cards by policy --------------------------------------------------------------

#: How many cards a findings line names on each side of the band (the rest are counted).
FINDINGS_CARDS = 8


def findings(
    run: Run,
    band: tuple[float, float],
    cards: pl.DataFrame | None,
    by_card: pl.DataFrame | None,
    by_policy: pl.DataFrame,
    stats: pl.DataFrame | None,
) -> list[str]:
    """The few lines the report opens with, from the page's own tables: the cards whose
    win-share interval lies wholly outside ``band`` (``strength.level_status`` strong or
    weak; per policy in a mixed run, from ``by_card``), the seat advantage (seat 0 − the
    last seat, paired by game) with the mean turns by seat where they differ, and in a
    mixed run each policy's win share."""
    lo, hi = band
    out = []
    named = dict(stats.iter_rows()) if stats is not None else {}
    if by_card is not None:
        out.append(
            f"Cards outside the band {lo}–{hi} (95% interval wholly above or below, relative "
            "to the policy's own win share), by policy:"
        )
        wins = {
            r["policy"]: strength.policy_wins(r["n"], r["ws"], run.players)
            for r in by_policy.with_columns(pl.col("policy").cast(pl.String)).iter_rows(named=True)
        }
        for policy in by_card["policy"].unique(maintain_order=True).to_list():
            rows = by_card.filter(pl.col("policy") == policy)
            if wins.get(policy, MIN_TAKEN) < MIN_TAKEN:
                out.append(
                    f"{policy}: not judged (its seats won {wins[policy]:,.0f} "
                    f"game{'' if round(wins[policy]) == 1 else 's'}; a card "
                    f"is judged against a policy that won at least {MIN_TAKEN})."
                )
                continue
            out.append(f"{policy}: " + _band_line(rows, named))
    elif cards is not None:
        out.append(
            f"Cards outside the band {lo}–{hi} (95% interval wholly above or below): "
            + _band_line(with_status(cards, band), named)
        )
    if cards is not None and "n_given" in cards.columns:
        out.append(_given_line(cards))
    out.append(_seat_line(run))
    if by_policy.height > 1:
        shares = ", ".join(f"{r['policy']} {_share(r)}" for r in by_policy.iter_rows(named=True))
        out.append(f"Win share by policy (1.0 = average seat): {shares}.")
    return out


def _given_line(cards: pl.DataFrame) -> str:
    """The cards whose win share when given (not chosen: a starting card, a card an effect
    revealed) and when chosen differ beyond both intervals, each given at least
    ``MIN_TAKEN`` times, the largest gap first: a card's verdict when chosen is not what it
    does in a seat that did not choose it."""
    rows = cards.filter(
        (pl.col("n_given") >= MIN_TAKEN)
        & ((pl.col("ws_given_hi") < pl.col("ws_lo")) | (pl.col("ws_given_lo") > pl.col("ws_hi")))
    )
    rows = rows.sort((pl.col("ws_given") - pl.col("ws")).abs(), descending=True)
    if rows.height == 0:
        return (
            f"Cards given without a choice (a starting card, a card an effect revealed; at "
            f"least {MIN_TAKEN} copies) do as well as the same cards chosen."
        )
    shown = [
        f"{r['card']} given {_share(r, 'ws_given')} (n {r['n_given']:,}) vs chosen {_share(r)}"
        for r in rows.head(FINDINGS_CARDS).iter_rows(named=True)
    ]
    more = f" and {rows.height - FINDINGS_CARDS} more" if rows.height > FINDINGS_CARDS else ""
    return (
        "Cards given without a choice (a starting card, a card an effect revealed) differ "
        f"from the same cards chosen: {', '.join(shown)}{more}. The card table's figures are "
        "for the chosen copies."
    )


def with_status(df: pl.DataFrame, band: tuple[float, float]) -> pl.DataFrame:
    """``df`` (``n, ws_lo, ws_hi`` per row) with ``status``: ``strength.level_status``
    against ``band`` (strong, weak, even, unclear, not checked)."""
    rows = df.select("n", "ws_lo", "ws_hi").iter_rows()
    status = [strength.level_status(lo, hi, band, n) for n, lo, hi in rows]
    return df.with_columns(status=pl.Series(status, dtype=pl.String))


def _band_line(rows: pl.DataFrame, named: dict[str, str]) -> str:
    """ "strong: a (cost 3) 1.21 [1.12, 1.30], ...; weak: ..." from rows with ``card, ws,
    ws_lo, ws_hi, status``, the most extreme first."""
    parts = []
    for status, descending in (("strong", True), ("weak", False)):
        hit = rows.filter(pl.col("status") == status).sort("ws", descending=descending)
        if hit.height == 0:
            continue
        shown = [
            f"{_with_stats(r['card'], named)} {_share(r)}"
            for r in hit.head(FINDINGS_CARDS).iter_rows(named=True)
        ]
        more = f" and {hit.height - FINDINGS_CARDS} more" if hit.height > FINDINGS_CARDS else ""
        parts.append(f"{status} ({hit.height}): {', '.join(shown)}{more}")
    return "; ".join(parts) + "." if parts else "none."


def _with_stats(card: str, named: dict[str, str]) -> str:
    """``card`` with its stats in brackets when the card data has any."""
    return f"{card} ({named[card]})" if named.get(card) else card


def _seat_line(run: Run) -> str:
    """Seat 0 − the last seat, and where the seats play different numbers of turns
    (DRAKO's ``seats.turns``), the mean turns by seat as its cause."""
    seats = run.scan("seats")
    adv = m.seat_advantage(seats, run.players).row(0, named=True)
    head = (
        f"seat {adv['first']} − seat {adv['last']}: {_signed(adv['diff'])} "
        f"[{_signed(adv['diff_lo'])}, {_signed(adv['diff_hi'])}]"
    )
    if not adv["diff_lo"] > 0 and not adv["diff_hi"] < 0:
        return f"No clear seat advantage: {head} (the interval includes 0)."
    line = f"Seat advantage: {head} in win share ({adv['games']:,} games, paired by game)."
    if "turns" in run.columns("seats"):
        turns = m.mean_by(seats, "seat", "turns")["mean_turns"].to_list()
        if max(turns) - min(turns) >= 0.05:
            more = "more" if turns[0] > turns[-1] else "fewer"
            line += (
                f" Mean turns by seat: {', '.join(f'{t:.2f}' for t in turns)} (seat 0 first): "
                f"seat 0 plays {abs(turns[0] - turns[-1]):.2f} {more} turns than the last seat "
                "(the game ends right after the ender's turn)."
            )
    return line


def _run_cards(run: Run) -> tuple[Any, Any] | None:
    """The run's game and card data (the card file its manifest names, loaded by the
    game's engine), or None when that file cannot be read or has changed since the run
    (its sha256 differs)."""
    from talesim.simcore import registry

    files = run.manifest.get("card_files") or [None]
    try:
        game = registry.get_game(run.game)
        engine = registry.engine(game)
        cards = engine.load_cards(Path(files[0]) if files[0] else None)
    except (ValueError, OSError):
        return None
    if str(cards.sha256) != run.manifest.get("card_sha256"):
        return None
    return game, cards


def card_stats(run: Run) -> pl.DataFrame | None:
    """``card, stats``: each card's cost, strength and points from the run's card data, as
    the ladder shows them (``simcore.ladder.card_stats``); None when the card file the
    manifest names cannot be read or has changed since the run (its sha256 differs)."""
    from talesim.simcore import ladder, registry
    from talesim.simcore.batch import Setup

    loaded = _run_cards(run)
    if loaded is None:
        return None
    game, cards = loaded
    try:
        variant = str(run.manifest.get("variant", ""))
        setup = Setup(game, variant, run.players, [], False, registry.engine(game), cards, None)
        stats: pl.DataFrame = ladder.card_stats(setup)
    except (ValueError, OSError):
        return None
    return stats


def trickster_section(run: Run, out: Path) -> Section | None:
    """Fairy Tale's Trickster by the card it copied (``metrics.trickster_copies``), or None
    when the run has no ``trickster_as`` or its card data (which names the wild cards) is
    unavailable."""
    if not (run.has("cards") and run.has("games")) or "trickster_as" not in run.columns("games"):
        return None
    loaded = _run_cards(run)
    if loaded is None:
        return None
    wild = [c.id for c in loaded[1].cards if getattr(c, "value", {}).get("kind") == "wild"]
    copies = m.trickster_copies(
        run.scan("games"), run.scan("cards"), run.scan("seats"), run.players, wild
    )
    if copies.height == 0:
        return None
    top = copies.sort("n", descending=True).row(0, named=True)
    total = int(copies["n"].sum())
    lead = (
        f"The Trickster copied a card in {total:,} of {run.n_games:,} games (face up at the "
        f"end); most often {top['trickster_as']} ({top['share']:.1%} of those, "
        f"{top['mean_points']:.2f} points on average, win share {_share(top)})."
    )
    charts.win_share_bars(
        copies.select(pl.col("trickster_as").cast(pl.String).alias("card"), "n", "ws",
                      lo="ws_lo", hi="ws_hi"),
        out / "trickster-win-share.png",
        "Win share of the Trickster's seat by the card it copied (95% Wilson intervals)",
    )  # fmt: skip
    return Section(
        "trickster",
        "The Trickster's copies",
        (lead,),
        (
            Table(
                "trickster",
                "What the Trickster became",
                copies,
                note="n: games whose Trickster copied that card; share: of the games where it "
                "copied one; mean_points: the Trickster's own points as that copy (its −1 "
                "plus the copy's value); ws: win share of its seat.",
            ),
            Figure("trickster-win-share.png", "Win share by the Trickster's copy"),
        ),
    )


def card_policy_table(
    run: Run, band: tuple[float, float], stats: pl.DataFrame | None
) -> pl.DataFrame:
    """``card, [stats,] policy, n, ws, ws_lo, ws_hi, status``: each card's win share when
    taken by one policy's seats, relative to that policy's own win share
    (``strength.card_shares(by_policy=True)``), and its status against ``band``
    (``strength.level_status``); rows in card order (``card_order``), policies by name."""
    shares = strength.card_shares(run.path, by_policy=True).filter(pl.col("kind") == "card")
    df = shares.select(pl.col("entity").alias("card"), "policy", "n", "ws", "ws_lo", "ws_hi")
    return _stats_beside(with_status(df, band), stats).sort(card_order(run), "policy")


def _stats_beside(df: pl.DataFrame, stats: pl.DataFrame | None) -> pl.DataFrame:
    """``df`` with each card's ``stats`` (cost, strength, points) beside its name."""
    if stats is None:
        return df
    return df.join(stats, on="card", how="left").select(
        "card", "stats", pl.exclude("card", "stats")
    )


def card_order(run: Run) -> pl.Expr:
    """A sort key putting a ``card`` column of names in the card data's order (the run's
    ``cards`` table stores cards as an Enum of every id in that order), by name when the
    table has no such order."""
    dtype = run.scan("cards").collect_schema()["card"]
    return pl.col("card").cast(dtype) if isinstance(dtype, pl.Enum) else pl.col("card")


def _seats_differ(seats: pl.LazyFrame, players: int) -> bool:
    """Whether seat 0 and the last seat win differently (``seat_advantage``'s interval
    excludes 0): then a card's share depends on the seat it is taken in."""
    adv = m.seat_advantage(seats, players).row(0, named=True)
    return bool(adv["diff_lo"] is not None and (adv["diff_lo"] > 0 or adv["diff_hi"] < 0))


def _card_seat_section(run: Run, band: tuple[float, float], stats: pl.DataFrame | None) -> Section:
    """Cards by seat, where the seats win differently: each card judged within its seat."""
    df = with_status(m.card_seat_table(run.scan("cards"), run.scan("seats")), band)
    if stats is not None:
        df = df.join(stats, on="card", how="left").select(
            "card", "stats", pl.exclude("card", "stats")
        )
    lo, hi = band
    return Section(
        "cards-by-seat",
        "Cards by seat",
        (
            "The seats win differently here (the seat advantage in Findings), so each card's "
            "win share when taken by one seat is given relative to that seat's own win rate: "
            "1.0 = the card does as well as the seat's average game. A card strong in every "
            "seat is strong; one strong only in the last seats may be making up for the seat.",
            f"status against the band {lo}–{hi}, as in the card table. " + strength.CHECKED_RULE,
        ),
        (Table("card-seat", "Card × seat", df.sort(card_order(run), "seat")),),
    )


def _card_policy_section(by_card: pl.DataFrame, band: tuple[float, float]) -> Section:
    lo, hi = band
    return Section(
        "cards-by-policy",
        "Cards by policy",
        (
            "Each card's win share when taken by the seats of one policy, relative to that "
            "policy's own win share (its share over all its seats): 1.0 = the card does as "
            "well as the policy's average seat, so a card is judged against the other cards "
            "of the same player, not against the gap between players of different strength. "
            "The interval counts the error of both shares (the card's and the policy's, "
            f"added in quadrature on the log scale); a policy whose seats won fewer than "
            f"{MIN_TAKEN} games judges no card (not checked).",
            f"status against the band {lo}–{hi}: strong / weak when the 95% interval lies "
            "wholly above / below it, even when wholly inside, unclear when it straddles an "
            "edge. " + strength.CHECKED_RULE,
        ),
        (Table("card-policy", "Card × policy", by_card),),
    )
