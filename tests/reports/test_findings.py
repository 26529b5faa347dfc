"""The report's findings (seat advantage, cards outside the band) and DRAKO's dragons dealt
vs placed, on small synthetic runs whose numbers are worked out by hand."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest
from kit import load_by_path

from talesim.reports import metrics as m
from talesim.reports.report import build_report, write_report

#: ``synthetic_run`` of the report tests: a complete run directory written by hand.
synthetic_run = load_by_path(
    "talesim_test_reports_report", Path(__file__).with_name("test_report.py")
).synthetic_run
Z = m.Z95


def seats_frame(wins: list[list[float]], extra: dict[str, list[int]] | None = None) -> pl.DataFrame:
    """One row per (game, seat) from ``wins[g][s]``; score 10 + 10·win, rank by win."""
    rows = []
    for g, game in enumerate(wins):
        for s, w in enumerate(game):
            rows.append((g, s, "greedy", int(10 + 10 * w), 1 if w > 0 else 2, float(w)))
    df = pl.DataFrame(
        rows, schema=["game_id", "seat", "policy", "score", "rank", "win"], orient="row"
    )
    return df.with_columns(**{k: pl.Series(v) for k, v in (extra or {}).items()})


def test_seat_advantage_is_paired_by_game() -> None:
    # seat 0 wins 3 of 4 games: d = 2·(win0 − win1) = 2, 2, 2, −2
    seats = seats_frame([[1, 0], [1, 0], [1, 0], [0, 1]])
    adv = m.seat_advantage(seats.lazy(), players=2).row(0, named=True)
    assert (adv["first"], adv["last"], adv["games"]) == (0, 1, 4)
    assert adv["diff"] == pytest.approx(1.0)
    half = Z * 2.0 / math.sqrt(4)  # sd of (2, 2, 2, −2) is 2
    assert (adv["diff_lo"], adv["diff_hi"]) == pytest.approx((1 - half, 1 + half))


def test_mean_by_seat() -> None:
    seats = seats_frame([[1, 0], [0, 1]], {"turns": [5, 4, 7, 6]})
    df = m.mean_by(seats.lazy(), "seat", "turns")
    assert df["mean_turns"].to_list() == [6.0, 5.0]
    assert df["n"].to_list() == [2, 2]


def test_count_vs_score_by_origin_splits_dealt_from_placed() -> None:
    seats = seats_frame([[1, 0], [0, 1]])
    cards = pl.DataFrame(
        {
            "game_id": [0, 0, 0, 1],
            "seat": [0, 0, 1, 1],
            "card": ["dragon", "dragon", "dragon", "elf"],
            "turn_placed": [0, 3, 0, 5],
        }
    )
    df = m.count_vs_score_by_origin(cards.lazy(), seats.lazy(), "dragon", 2, "turn_placed")
    by = {(r["origin"], r["count"]): r for r in df.iter_rows(named=True)}
    # dealt: seats (0,0) and (0,1) hold one, (1,0) and (1,1) none
    assert by[("dealt", 1)]["n"] == 2
    assert by[("dealt", 1)]["ws"] == pytest.approx(1.0)
    assert by[("dealt", 0)]["n"] == 2
    # placed: only seat (0,0), the winner, placed one
    assert by[("placed", 1)]["n"] == 1
    assert by[("placed", 1)]["ws"] == pytest.approx(2.0)
    assert by[("placed", 0)]["ws"] == pytest.approx(2 / 3)


def drako_run(tmp_path: Path, games: int = 400, draws: pl.DataFrame | None = None) -> Path:
    """Seat 0 wins 3 games of 4 and plays one more turn; a dealt dragon always loses, a
    placed one is neutral. ``draws``: a ``draws`` table too."""
    wins, turns, cards = [], [], []
    for g in range(games):
        w = [1, 0] if g % 4 else [0, 1]
        wins.append(w)
        turns += [8, 7]
        loser = w.index(0)
        cards.append((g, loser, "dragon", 0))  # the loser was dealt a dragon
        cards.append((g, g % 2, "dragon", 4))  # a dragon placed, by either seat
        cards.append((g, 0, "elf", 2))
    seats = seats_frame(wins, {"turns": turns})
    cards_df = pl.DataFrame(
        cards, schema=["game_id", "seat", "card", "turn_placed"], orient="row"
    ).with_columns(pl.col("turn_placed").cast(pl.Int16))
    legends = pl.DataFrame({"game_id": [0], "seat": [0], "legend": ["elf-pair"], "turn": [3]})
    games_df = pl.DataFrame({"game_id": list(range(games)), "turns": [15] * games})
    tables = {"seats": seats, "cards": cards_df, "legends": legends, "games": games_df}
    if draws is not None:
        tables["draws"] = draws
    return synthetic_run(tmp_path / "dk", "drako", tables, 2)


def test_drako_findings_seat_advantage_turns_and_dragons(tmp_path: Path) -> None:
    report = write_report(drako_run(tmp_path), tmp_path / "rep")
    seat = next(f for f in report.findings if f.startswith("Seat advantage: "))
    assert "seat 0 − seat 1: +1.000 [" in seat
    assert "Mean turns by seat: 8.00, 7.00 (seat 0 first)" in seat
    assert "seat 0 plays 1.00 more turns" in seat
    dragons = next(f for f in report.findings if f.startswith("Are dragons weak? "))
    assert dragons.startswith("Are dragons weak? yes: a dragon the seat was dealt")
    assert "one dragon dealt 0.000 [" in dragons
    html = report.index.read_text(encoding="utf-8")
    assert html.index('<section id="findings">') < html.index('<section id="cards">')
    assert dragons.replace("'", "&#x27;") in html  # also the dragon section's answer
    split = pl.read_csv(report.index.parent / "dragons-by-origin.csv")
    assert set(split["origin"]) == {"dealt", "placed"}
    assert split.filter(pl.col("origin") == "dealt")["n"].sum() == 800  # every seat, once
    assert (report.index.parent / "dragons-by-origin.png").stat().st_size > 1000
    assert not (report.index.parent / "card-policy.csv").exists()  # one policy: no split


def test_findings_without_seat_advantage_or_cards_outside(tmp_path: Path) -> None:
    seats = seats_frame([[1, 0], [0, 1]] * 50)
    cards = pl.DataFrame({"game_id": [0, 1], "seat": [0, 0], "card": ["elf", "elf"]})
    run = synthetic_run(tmp_path / "ft", "fairy-tale", {"seats": seats, "cards": cards}, 2)
    found = write_report(run, tmp_path / "rep").findings
    assert found[0] == "Cards outside the band 0.9–1.1 (95% interval wholly above or below): none."
    assert found[1].startswith("No clear seat advantage: seat 0 − seat 1: 0.000 [−")
    assert len(found) == 2  # one policy: no policy line


def two_policy_run(tmp_path: Path, b_wins: Callable[[int], bool]) -> Path:
    """800 two-player games of policies ``a`` and ``b``, alternating seats; ``b`` wins the
    games ``g`` where ``b_wins(g)``, ``a`` the others; card x is taken by every winner,
    card y by every loser."""
    rows, cards = [], []
    for g in range(800):
        policies = ("a", "b") if g % 2 else ("b", "a")
        winner = policies.index("b" if b_wins(g) else "a")
        for s in range(2):
            won = s == winner
            rows.append((g, s, policies[s], 10 + won, 1 if won else 2, 1.0 if won else 0.0))
            cards.append((g, s, "x" if won else "y"))
    seats = pl.DataFrame(
        rows, schema=["game_id", "seat", "policy", "score", "rank", "win"], orient="row"
    )
    cards_df = pl.DataFrame(cards, schema=["game_id", "seat", "card"], orient="row")
    run = synthetic_run(tmp_path / "mix", "fairy-tale", {"seats": seats, "cards": cards_df}, 2)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["policies"] = ["a", "b"]
    (run / "manifest.json").write_text(json.dumps(manifest))
    return run


def test_mixed_run_findings_name_each_policy(tmp_path: Path) -> None:
    """``a`` wins 3 games of 4."""
    run = two_policy_run(tmp_path, lambda g: g % 4 == 0)
    index = build_report(run, tmp_path / "rep")
    found = write_report(run, tmp_path / "rep2").findings
    assert found[0].startswith("Cards outside the band 0.9–1.1 (95% interval wholly above")
    # relative to its policy's own share (a: 1.5, b: 0.5), x is 2/1.5 and 2/0.5
    assert found[1].startswith("a: strong (1): x 1.333 [")
    assert found[2].startswith("b: strong (1): x 4.000 [")
    assert found[-1].startswith("Win share by policy (1.0 = average seat): a 1.500 [")
    by = pl.read_csv(index.parent / "card-policy.csv")
    assert by.columns == ["card", "policy", "n", "ws", "ws_lo", "ws_hi", "status"]  # no stats
    assert by.filter(pl.col("card") == "y")["status"].to_list() == ["weak", "weak"]


def test_a_policy_that_rarely_wins_judges_no_card(tmp_path: Path) -> None:
    """``b`` wins 50 games of 800 (fewer than ``MIN_TAKEN``): its cards are not judged
    against its tiny share, however far above it the games it won put them."""
    run = two_policy_run(tmp_path, lambda g: g % 16 == 0)
    report = write_report(run, tmp_path / "rep")
    assert report.findings[1] == "a: none."  # x 1.067: 2.0 / 1.875, y taken 50 times
    assert report.findings[2] == (
        "b: not judged (its seats won 50 games; a card is judged against a policy that won "
        "at least 100)."
    )
    by = pl.read_csv(report.index.parent / "card-policy.csv").filter(pl.col("policy") == "b")
    assert by["status"].to_list() == ["not checked", "not checked"]
    assert by.filter(pl.col("card") == "x")["ws"].item() == pytest.approx(16.0)  # 2 / (1/8)


def draws_frames() -> tuple[pl.DataFrame, pl.DataFrame]:
    """Four-player games: game 0, seat 0 (won, 10 points) placed a drawn dragon, seat 1
    (lost, 4) discarded one; game 1, seat 0 (lost, 6) placed two, seat 2 (won, 9)
    discarded one; game 2, seat 1 (half a win, 7) took one from the discard pile, seat 3
    placed a drawn forest (not a dragon: left out)."""
    seats = pl.DataFrame(
        {
            "game_id": [0] * 4 + [1] * 4 + [2] * 4,
            "seat": [0, 1, 2, 3] * 3,
            "win": [1.0, 0, 0, 0, 0, 0, 1.0, 0, 0, 0.5, 0.5, 0],
            "score": [10, 4, 3, 2, 6, 5, 9, 1, 2, 7, 7, 3],
        }
    )
    draws = pl.DataFrame(
        {
            "game_id": [0, 0, 1, 1, 1, 2, 2],
            "seat": [0, 1, 0, 0, 2, 1, 3],
            "source": ["deck", "deck", "deck", "deck", "deck", "discard", "deck"],
            "card": ["dragon"] * 6 + ["forest"],
            "placed": [True, False, True, True, False, True, True],
        }
    )
    return draws, seats


def test_drawn_card_outcomes_by_hand() -> None:
    draws, seats = draws_frames()
    df = m.drawn_card_outcomes(draws.lazy(), seats.lazy(), "dragon", 4)
    rows = {(r["source"], r["outcome"]): r for r in df.iter_rows(named=True)}
    assert list(rows) == [("deck", "placed"), ("deck", "discarded"), ("discard", "placed")]
    placed = rows[("deck", "placed")]
    # wins per game (S, N): (1, 1), (0, 2); R = 1/3, N̄ = 1.5, e = ±4/9, se = 4/9
    assert (placed["n"], placed["seats"]) == (3, 2)
    assert placed["ws"] == pytest.approx(4 / 3)
    assert (placed["ws_lo"], placed["ws_hi"]) == pytest.approx(
        (4 / 3 - Z * 16 / 9, 4 / 3 + Z * 16 / 9)
    )
    # scores (10, 1), (12, 2): R = 22/3, e = ±16/9, se = 16/9
    assert placed["mean_score"] == pytest.approx(22 / 3)
    assert placed["mean_score_hi"] == pytest.approx(22 / 3 + Z * 16 / 9)
    discarded = rows[("deck", "discarded")]
    # wins (0, 1), (1, 1): R = 1/2, e = ±1/2, se = 1/2; times 4 players
    assert discarded["ws"] == pytest.approx(2.0)
    assert discarded["ws_lo"] == pytest.approx(2.0 - Z * 2.0)
    assert discarded["mean_score"] == pytest.approx(6.5)
    taken = rows[("discard", "placed")]  # one game: no interval
    assert (taken["n"], taken["ws"], taken["ws_lo"]) == (1, 2.0, None)


def test_drawn_card_choice_by_hand() -> None:
    draws, seats = draws_frames()
    c = m.drawn_card_choice(draws.lazy(), seats.lazy(), "dragon", 4)
    assert c is not None
    assert (c["n_placed"], c["n_discarded"]) == (3, 1 + 1)
    # games 0 and 1: e_g = 4/9 − (−1/2) = 17/18, then −17/18; se = 17/18
    assert c["d_ws"] == pytest.approx(4 * (1 / 3 - 1 / 2))
    half = Z * 17 / 18 * 4
    assert (c["d_ws_lo"], c["d_ws_hi"]) == pytest.approx((-2 / 3 - half, -2 / 3 + half))
    # scores: placed R = 22/3 (e ±16/9), discarded R = 6.5 (S 4, 9: e ∓5/2)
    assert c["d_score"] == pytest.approx(22 / 3 - 6.5)
    se = 16 / 9 + 5 / 2  # e_0 = 16/9 + 5/2 = −e_1
    assert c["d_score_hi"] == pytest.approx(22 / 3 - 6.5 + Z * se)
    assert m.drawn_card_choice(draws.lazy(), seats.lazy(), "portal", 4) is None


def test_drako_report_answers_placing_a_drawn_dragon(tmp_path: Path) -> None:
    """Every game: the winner placed a dragon it drew, the loser discarded one, and seat
    0 took one from the discard pile: placing clearly beats discarding, so the Findings
    say so, and the dragon section shows the table."""
    rows = []
    for g in range(40):
        winner = 0 if g % 4 else 1
        rows += [(g, winner, 3, "deck", True), (g, 1 - winner, 4, "deck", False)]
        rows.append((g, 0, 5, "discard", True))
    draws = pl.DataFrame(
        rows, schema=["game_id", "seat", "turn", "source", "placed"], orient="row"
    ).with_columns(card=pl.lit("dragon"))
    report = write_report(drako_run(tmp_path, 40, draws), tmp_path / "rep")
    line = next(f for f in report.findings if f.startswith("Is a drawn dragon worth placing? "))
    assert line.startswith("Is a drawn dragon worth placing? yes:")
    assert "placed 40 times: win share 2.000 [2.000, 2.000]" in line
    assert "difference +2.000 [+2.000, +2.000] in win share" in line
    assert "A dragon taken from the discard pile (always placed) 40 times: win share 1.500" in line
    table = pl.read_csv(report.index.parent / "dragon-draws.csv")
    assert table["outcome"].to_list() == ["placed", "discarded", "placed"]
    html = report.index.read_text(encoding="utf-8")
    assert "Drawn dragons: placed or discarded" in html
