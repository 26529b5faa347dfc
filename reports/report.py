"""``talesim report``: the balance report of one run, as DIR/index.html + PNGs + CSVs.

Each section is built from the tables the run has, so a game's sections appear as soon
as its dataset carries them: the card table for every game with a ``cards`` table,
building value curves when there is a ``buildings`` table (Paper Tales), Legends, game
length and dragons when there is a ``legends`` table (DRAKO). Numbers come from
``reports.metrics`` (formulas in its docstrings); pictures from ``reports.charts``.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from reports import charts
from reports import metrics as m
from reports.html import Figure, Section, Table, write_page
from reports.run import Run, open_run
from simcore import outdirs
from simcore.runner import RunDirError

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


def _card_section(run: Run, out: Path) -> Section:
    cards = run.scan("cards")
    seats = run.scan("seats")
    table = m.card_table(cards, seats, run.players)
    items: list[Table | Figure] = [
        Table(
            "cards",
            "Card table",
            table,
            note="n: copies taken. ws: win share when taken; _played / _not_played: copies "
            "played or not; improvement = ws_played − ws_not_played; _final: copies in the "
            "final tableau; flag: ≥ 1.5 SD from the mean card.",
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


def _seat_section(run: Run, out: Path) -> Section:
    seats = run.scan("seats")
    by_seat = m.win_share_by(seats, "seat", run.players)
    by_policy = m.win_share_by(seats, "policy", run.players)
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
                "Bradley–Terry rating per policy",
                m.bradley_terry(pairs),
                note="P(i ahead of j) = s_i / (s_i + s_j); elo = 400·log10(s), 0 = average.",
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
    items: list[Table | Figure] = []
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
        items += [
            Table("game-length", "Game length (turns)", length),
            Figure("game-length.png", "Game length"),
        ]
    if run.has("cards"):
        dragons = m.count_vs_score(run.scan("cards"), seats, "dragon", run.players)
        charts.xy_line(
            dragons, out / "dragons-vs-score.png", "Dragons in the kingdom vs final score",
            "count", "mean_score", xlabel="dragons", ylabel="mean final score (points)",
        )  # fmt: skip
        items += [
            Table("dragons", "Dragon count vs score", dragons),
            Figure("dragons-vs-score.png", "Dragon count vs mean score"),
        ]
    return Section("legends", "Legends, game length and dragons", (), tuple(items))


def strength_section(runs: list[Run], out: Path, band: tuple[float, float] = (0.9, 1.1)) -> Section:
    """Card verdicts across strength (``reports.strength``) from runs that differ only in
    policy: each run is a level, in the order given (weakest first), runs whose every seat
    plays ``random`` left out of the verdicts."""
    from reports import strength

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


def build_report(
    run_dir: Path, out: Path, more: list[Path] | None = None, band: tuple[float, float] = (0.9, 1.1)
) -> Path:
    """Write the report of ``run_dir`` into ``out``; return the path of index.html. With
    ``more`` runs (differing only in policy), an "Across strength" section follows."""
    run = open_run(run_dir)
    others = [open_run(p) for p in more or []]
    out = Path(out)
    outdirs.check_apart(out, [r.path for r in (run, *others)], "report")
    if others:
        check_strength_runs([run, *others])
    outdirs.mark_page(out, "report")
    sections = []
    if run.has("cards"):
        sections.append(_card_section(run, out))
    sections.append(_seat_section(run, out))
    if run.has("buildings"):
        sections.append(_building_section(run, out))
    if run.has("legends"):
        sections.append(_legend_section(run, out))
    if others:
        sections.append(strength_section([run, *others], out, band))
    title = f"talesim balance report — {run.game} ({run.manifest.get('variant', '')})"
    return write_page(out, title, run_summary(run), sections)
