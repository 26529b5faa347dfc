"""`talesim report` / `talesim compare` end to end: real Fairy Tale runs, synthetic runs for
the sections of games whose engines land later (Paper Tales buildings, DRAKO Legends), and
every bad-input error line."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from kit import error_line, invoke, ok

from talesim.reports import strength
from talesim.reports.report import build_report
from talesim.simcore.runner import simulate


def fairy_run(out: Path, seed: int = 7, cards_path: Path | None = None, games: int = 400) -> Path:
    simulate(
        "fairy-tale",
        variant="expert",
        players=4,
        policies="greedy,random,collector,greedy",
        rotate_seats=True,
        seed=seed,
        n_games=games,
        out=out,
        chunk_size=150,
        cards_path=cards_path,
        progress=False,
    )
    return out


@pytest.fixture(scope="module")
def ft_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fairy_run(tmp_path_factory.mktemp("runs") / "ft")


def synthetic_run(out: Path, game: str, tables: dict[str, pl.DataFrame], players: int) -> Path:
    """A complete run directory written by hand (one part per table)."""
    for name, frame in tables.items():
        (out / name).mkdir(parents=True)
        frame.write_parquet(out / name / "part-00000.parquet")
    n_games = tables["seats"]["game_id"].n_unique()
    manifest = {
        "format": 1,
        "tool": "talesim",
        "version": "test",
        "game": game,
        "variant": "base",
        "players": players,
        "policies": ["greedy"] * players,
        "seed": 1,
        "n_games": n_games,
        "tables": list(tables),
        "status": "complete",
        "chunks": [{"index": 0, "first_game": 0, "n_games": n_games, "done": True}],
    }
    (out / "manifest.json").write_text(json.dumps(manifest))
    return out


def two_player_seats(n_games: int) -> pl.DataFrame:
    """Seat 0 wins even games, seat 1 odd ones; scores 10 + winner bonus."""
    rows = []
    for g in range(n_games):
        for s in range(2):
            won = (g + s) % 2 == 0
            rows.append(
                (g, s, "greedy", 10 + 5 * won + g % 3, 1 if won else 2, 1.0 if won else 0.0)
            )
    return pl.DataFrame(
        rows, schema=["game_id", "seat", "policy", "score", "rank", "win"], orient="row"
    )


# --- the Fairy Tale report -----------------------------------------------------------------


def test_report_writes_every_section_chart_and_csv(ft_run: Path, tmp_path: Path) -> None:
    index = build_report(ft_run, tmp_path / "rep")
    html = index.read_text(encoding="utf-8")
    for section in ("Cards", "Seats and policies", "Policy matchups", "Bradley"):
        assert section in html
    assert "Building value curves" not in html  # no buildings table in Fairy Tale
    for png in re.findall(r'src="([^"]+\.png)"', html):
        assert (index.parent / png).stat().st_size > 1000
    cards = pl.read_csv(index.parent / "cards.csv")
    assert cards.height == 43  # every expert card was drafted in 400 games
    assert {"ws", "ws_played", "improvement", "mean_pick", "mean_points"} <= set(cards.columns)
    assert "status" not in cards.columns  # a mixed run: judged per policy (card-policy.csv)
    # copies taken: 4 seats × 20 picks per game
    assert cards["n"].sum() == 400 * 80
    seats = pl.read_csv(index.parent / "seats.csv")
    assert seats["ws"].sum() == pytest.approx(4.0)  # win shares of the seats sum to players
    # the Trickster's copies: one row per card it became, shares summing to 1
    assert '<section id="trickster">' in html
    copies = pl.read_csv(index.parent / "trickster.csv")
    assert copies.columns == ["trickster_as", "n", "share", "mean_points", "ws", "ws_lo", "ws_hi"]
    assert copies["share"].sum() == pytest.approx(1.0)
    assert 0 < copies["n"].sum() <= 400
    assert "https://" not in html
    assert "http://" not in html


def test_report_cli_prints_index_path_then_findings(ft_run: Path, tmp_path: Path) -> None:
    result = ok("report", ft_run, "--out", tmp_path / "r")
    lines = result.output.strip().splitlines()
    assert lines[0] == f"report: {tmp_path / 'r' / 'index.html'}"
    # the findings of the page, indented, in the page's order
    html = (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<section id="findings">(.*?)</section>', html, re.S)
    assert found is not None
    page = [unescape(p) for p in re.findall(r"<p>(.*?)</p>", found.group(1))]
    assert [line.strip() for line in lines[1:]] == page
    assert any(line.startswith("  Cards outside the band 0.9–1.1") for line in lines)
    assert any("seat 0 − seat 3: " in line for line in lines)
    assert any(line.startswith("  Win share by policy (1.0 = average seat): ") for line in lines)


def test_report_opens_with_findings_and_shows_cards_by_policy(ft_run: Path, tmp_path: Path) -> None:
    index = build_report(ft_run, tmp_path / "rep")
    html = index.read_text(encoding="utf-8")
    assert html.index('<section id="findings">') < html.index('<section id="cards">')
    assert "relative to that policy&#x27;s own win share" in html
    by = pl.read_csv(index.parent / "card-policy.csv")
    assert by.columns == ["card", "stats", "policy", "n", "ws", "ws_lo", "ws_hi", "status"]
    assert set(by["policy"]) == {"greedy", "random", "collector"}
    # every copy taken, split by its seat's policy
    assert by["n"].sum() == pl.read_csv(index.parent / "cards.csv")["n"].sum()
    assert set(by["status"]) <= {"strong", "weak", "even", "unclear", "not checked"}
    assert by["stats"].drop_nulls().str.contains("pts").any()  # the card data's points
    cards = pl.read_csv(index.parent / "cards.csv")
    assert cards.columns[:5] == ["card", "n", "ws", "ws_lo", "ws_hi"]
    assert "no status here: pooled over policies of different strength" in html


def test_a_self_play_card_table_has_each_cards_status(tmp_path: Path) -> None:
    """One policy: the card table's ``status`` is the findings' rule, the 95% interval
    against the band (0.9-1.1), for every card taken often enough."""
    run = tmp_path / "self"
    simulate("fairy-tale", variant="expert", players=4, policies="greedy", seed=3,
             n_games=600, out=run, progress=False)  # fmt: skip
    index = build_report(run, tmp_path / "rep")
    cards = pl.read_csv(index.parent / "cards.csv")
    assert cards.columns[:6] == ["card", "n", "ws", "ws_lo", "ws_hi", "status"]
    for row in cards.iter_rows(named=True):
        lo, hi = row["ws_lo"], row["ws_hi"]
        expected = (
            "not checked" if row["n"] < strength.MIN_TAKEN
            else "strong" if lo > 1.1 else "weak" if hi < 0.9
            else "even" if lo >= 0.9 and hi <= 1.1
            else "not checked" if hi - lo > 0.2 else "unclear"
        )  # fmt: skip
        assert row["status"] == expected, row["card"]
    assert {"strong", "weak"} <= set(cards["status"])  # greedy's own verdicts exist


def test_full_report_renders_in_browser(
    ft_run: Path, tmp_path: Path, check_report: Callable[[Path], dict[str, Any]]
) -> None:
    result = check_report(build_report(ft_run, tmp_path / "rep"))
    assert result["console_errors"] == []
    assert result["broken_images"] == []
    assert result["n_images"] >= 6
    assert result["sorted_ok"]
    assert result["external_requests"] == []
    assert not result["horizontal_overflow"]


# --- sections of games that land later, on synthetic runs ----------------------------------


def test_building_section_from_a_buildings_table(tmp_path: Path) -> None:
    seats = two_player_seats(40)
    buildings = pl.DataFrame(
        {
            "game_id": list(range(40)),
            "seat": [g % 2 for g in range(40)],  # always the winner's seat
            "building": ["mine" if g % 4 < 2 else "town" for g in range(40)],
            "level": [1 + (g % 3 == 0) for g in range(40)],
            "turn_built": [1 + g % 4 for g in range(40)],
            "turn_upgraded": [4 if g % 3 == 0 else None for g in range(40)],
        }
    )
    run = synthetic_run(tmp_path / "pt", "paper-tales", {"seats": seats, "buildings": buildings}, 2)
    index = build_report(run, tmp_path / "rep")
    html = index.read_text(encoding="utf-8")
    assert "Building value curves" in html
    curves = pl.read_csv(index.parent / "building-curves.csv")
    assert set(curves["building"]) == {"mine", "town"}
    assert curves.filter(pl.col("level") == 1)["n"].sum() == 40
    assert curves["ws"].to_list() == pytest.approx([2.0] * curves.height)  # winners only
    assert (index.parent / "building-curves.png").exists()


def test_legend_section_from_a_legends_table(tmp_path: Path) -> None:
    seats = two_player_seats(20)
    games = pl.DataFrame({"game_id": list(range(20)), "turns": [10 + g % 5 for g in range(20)]})
    legends = pl.DataFrame(
        {"game_id": [0, 1, 2], "seat": [0, 0, 1], "legend": ["elf-pair"] * 3, "turn": [4, 5, 6]}
    )
    cards = pl.DataFrame(
        {"game_id": [0, 0, 1], "seat": [0, 0, 1], "card": ["dragon", "dragon", "elf"]}
    )
    tables = {"seats": seats, "games": games, "legends": legends, "cards": cards}
    index = build_report(synthetic_run(tmp_path / "dk", "drako", tables, 2), tmp_path / "rep")
    html = index.read_text(encoding="utf-8")
    assert "Legends and game length" in html
    assert '<section id="dragons">' in html
    legend = pl.read_csv(index.parent / "legends.csv").row(0, named=True)
    assert legend["claims"] == 3
    assert legend["claim_rate"] == pytest.approx(3 / 20)
    length = pl.read_csv(index.parent / "game-length.csv")
    assert length["count"].sum() == 20
    assert (index.parent / "dragons-vs-score.png").exists()


# --- compare -------------------------------------------------------------------------------


def test_compare_same_run_twice_is_paired_and_flat(ft_run: Path, tmp_path: Path) -> None:
    ok("compare", ft_run, ft_run, "--out", tmp_path / "c")
    cards = pl.read_csv(tmp_path / "c" / "card-changes.csv")
    assert set(cards["method"]) == {"paired"}
    assert cards["delta"].abs().max() == pytest.approx(0.0)
    assert not cards["significant"].any()
    assert "common random numbers" in (tmp_path / "c" / "index.html").read_text()


def test_compare_a_changed_card_with_same_seed(ft_run: Path, tmp_path: Path) -> None:
    """Workflow of the README: copy the card file, make a card worth much more, rerun with
    the same seed, compare: that card's win share rises significantly."""
    from talesim.simcore.games.fairy_tale.tables import DEFAULT_CARDS

    text = Path(DEFAULT_CARDS).read_text(encoding="utf-8")
    changed = tmp_path / "cards.toml"
    # Sky Dancer Dragon: a plain fixed-points card (3); make it worth 12 more points.
    new, count = re.subn(
        r'(id = "sky-dancer-dragon"(?:.|\n)*?points = )(\d+)',
        lambda mt: mt.group(1) + str(int(mt.group(2)) + 12),
        text,
        count=1,
    )
    assert count == 1
    changed.write_text(new, encoding="utf-8")
    b = fairy_run(tmp_path / "b", cards_path=changed)
    ok("compare", ft_run, b, "--out", tmp_path / "c")
    cards = pl.read_csv(tmp_path / "c" / "card-changes.csv")
    row = cards.filter(pl.col("card") == "sky-dancer-dragon").row(0, named=True)
    assert row["method"] == "paired"
    assert row["delta"] > 0
    assert row["significant"]


def test_compare_different_seeds_is_independent(ft_run: Path, tmp_path: Path) -> None:
    other = fairy_run(tmp_path / "other", seed=8, games=200)
    ok("compare", ft_run, other, "--out", tmp_path / "c")
    assert set(pl.read_csv(tmp_path / "c" / "policy-changes.csv")["method"]) == {"independent"}


# --- bad input: one line, exit 2, nothing written ------------------------------------------


def test_report_of_a_directory_that_is_not_a_run(tmp_path: Path) -> None:
    line = error_line(invoke("report", tmp_path, "--out", str(tmp_path / "r")))
    assert "not a talesim run" in line
    assert not (tmp_path / "r").exists()


def test_report_of_a_missing_directory(tmp_path: Path) -> None:
    assert "not a directory" in error_line(invoke("report", tmp_path / "nope", "--out", "x"))


def test_report_of_an_unfinished_run(ft_run: Path, tmp_path: Path) -> None:
    broken = synthetic_run(tmp_path / "run", "fairy-tale", {"seats": two_player_seats(4)}, 2)
    manifest = json.loads((broken / "manifest.json").read_text())
    manifest["status"] = "running"
    (broken / "manifest.json").write_text(json.dumps(manifest))
    assert "unfinished run" in error_line(invoke("report", broken, "--out", str(tmp_path / "r")))


def test_report_with_a_missing_table(tmp_path: Path) -> None:
    run = synthetic_run(tmp_path / "run", "fairy-tale", {"seats": two_player_seats(4)}, 2)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["tables"] = ["seats", "cards"]
    (run / "manifest.json").write_text(json.dumps(manifest))
    assert "missing the Parquet parts of table 'cards'" in error_line(
        invoke("report", run, "--out", str(tmp_path / "r"))
    )


def test_report_with_a_corrupt_part(tmp_path: Path) -> None:
    run = synthetic_run(tmp_path / "run", "fairy-tale", {"seats": two_player_seats(4)}, 2)
    (run / "seats" / "part-00000.parquet").write_bytes(b"not parquet at all")
    assert "not readable Parquet" in error_line(invoke("report", run, "--out", str(tmp_path / "r")))


def test_report_into_the_run_directory_is_refused(ft_run: Path) -> None:
    before = sorted(p.name for p in ft_run.iterdir())
    assert "run directory itself" in error_line(invoke("report", ft_run, "--out", str(ft_run)))
    assert sorted(p.name for p in ft_run.iterdir()) == before


def test_compare_refuses_two_different_games(ft_run: Path, tmp_path: Path) -> None:
    other = synthetic_run(tmp_path / "pt", "paper-tales", {"seats": two_player_seats(4)}, 2)
    line = error_line(invoke("compare", ft_run, other, "--out", str(tmp_path / "c")))
    assert "different games: fairy-tale vs paper-tales" in line
    assert not (tmp_path / "c").exists()


def test_findings_name_given_cards_that_differ_from_chosen_ones() -> None:
    from talesim.reports.report import _given_line

    def row(card: str, ws: float, given: float, n_given: int = 100) -> dict[str, Any]:
        return {
            "card": card, "ws": ws, "ws_lo": ws - 0.05, "ws_hi": ws + 0.05,
            "n_given": n_given, "ws_given": given, "ws_given_lo": given - 0.1,
            "ws_given_hi": given + 0.1,
        }  # fmt: skip

    cards = pl.DataFrame(
        [row("warhorse", 1.34, 0.84, 973), row("elf", 1.0, 1.08), row("oak", 0.85, 1.2),
         row("orc", 1.0, 0.5, n_given=99)]
    )  # fmt: skip
    assert _given_line(cards) == (
        "Cards given without a choice (a starting card, a card an effect revealed) differ from "
        "the same cards chosen: warhorse given 0.840 [0.740, 0.940] (n 973) vs chosen 1.340 "
        "[1.290, 1.390], oak given 1.200 [1.100, 1.300] (n 100) vs chosen 0.850 [0.800, "
        "0.900]. The card table's figures are for the chosen copies."
    )
    # orc differs as much, but from 99 copies: fewer than a verdict needs
    assert _given_line(cards.filter(pl.col("card").is_in(["elf", "orc"]))).startswith(
        "Cards given without a choice (a starting card, a card an effect revealed; at least 100"
    )


def test_the_card_table_note_explains_only_the_columns_there() -> None:
    from talesim.reports.report import card_table_note

    drako = card_table_note(["card", "n", "ws", "ws_lo", "ws_hi", "status"], (0.8, 1.25))
    assert "_played" not in drako
    assert "_final" not in drako
    assert drako.startswith(
        "n: copies taken; ws: win share when taken; status: against the band 0.8–1.25"
    )
    columns = ["card", "n", "ws", "ws_played", "ws_final", "mean_pick", "n_given"]
    ft = card_table_note(columns, (0.9, 1.1))
    assert "_played / _not_played" in ft
    assert "_final: copies in the final tableau" in ft
    assert "_given: copies that came without a choice" in ft


def test_cards_by_seat_only_where_the_seats_win_differently() -> None:
    from talesim.reports.report import _seats_differ

    def seats(winner: Callable[[int], int]) -> pl.LazyFrame:
        rows = [
            {"game_id": g, "seat": s, "win": float(winner(g) == s)}
            for g in range(200)
            for s in range(2)
        ]
        return pl.DataFrame(rows).lazy()

    assert _seats_differ(seats(lambda g: 0 if g % 4 else 1), players=2)  # seat 0 wins 3 in 4
    assert not _seats_differ(seats(lambda g: g % 2), players=2)  # each seat wins half
