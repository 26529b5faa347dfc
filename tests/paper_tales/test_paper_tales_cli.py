"""``talesim cards|score|simulate|games|bench paper-tales`` through Typer's CliRunner: the
``score`` JSON and table, the card catalog, the tables a run writes, one ``error:`` line for
bad input (``play`` and resume: ``tests/test_engine_conformance.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kit import assert_error, invoke


@pytest.fixture
def three_seats(seat) -> list[dict]:
    """Seat 0: Knight 4 + Commander 4 + Archer 2 (back) + Barracks L1 (1 W from Town) = 11,
    wins both wars: 6 + Commander 2 = 8 war LP; Town L2 3 + Barracks 1 = 4 end LP.
    Seat 1: Manticore 2 (no food), Relic 3 A = 6 LP, Tavern L1 1 + Mine L2 3 + Mine L2's
    2 LP per C (1) = 2 war LP. Seat 2: Ogre 2 + income 5 = 7, Dragon 0 (no crystal); beats
    seat 1 only: 3 LP; Temple L1 1. Totals 12, 12, 4; tie -> gold 4 vs 7: seat 1."""
    return [
        seat("knight commander+1", "archer farmer", barracks=1, town=2, gold=2),
        seat("manticore", "relic-of-wisdom+3", mine=2, tavern=1, gold=5),
        seat("dragon ogre", "blacksmith", temple=1),
    ]


def test_score_json_contract(seats_file, three_seats) -> None:
    result = invoke("score", "paper-tales", seats_file(*three_seats), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert set(out) == {"players", "winners"}
    keys = {"seat", "strength", "wars_won", "war_lp", "income", "end_lp", "breakdown", "total"}
    for p in out["players"]:
        assert keys <= set(p)
        assert p["total"] == sum(p["breakdown"].values())
        assert p["war_lp"] + p["end_lp"] == p["total"]
    got = [
        (p["strength"], p["wars_won"], p["war_lp"], p["income"], p["end_lp"])
        for p in out["players"]
    ]
    assert got == [(11, 2, 8, 2, 4), (2, 0, 2, 2, 10), (7, 1, 3, 5, 1)]
    assert out["winners"] == [1]


def test_score_table(seats_file, three_seats) -> None:
    result = invoke("score", "paper-tales", seats_file(*three_seats))
    assert result.exit_code == 0, result.output
    assert "Score breakdown" in result.stdout
    assert "wars 6, per_war_won 2, buildings 4" in result.stdout
    assert "mine L2 5" in result.stdout
    assert "winners: seat 1" in result.stdout


def test_score_two_seats_uses_the_two_player_war(seats_file, seat) -> None:
    out = json.loads(
        invoke(
            "score", "paper-tales", seats_file(seat("knight knight"), seat("rogue")), "--json"
        ).stdout
    )
    assert [p["war_lp"] for p in out["players"]] == [6, 0]


def test_score_bad_state_is_one_line(seats_file, seat) -> None:
    assert_error(
        invoke("score", "paper-tales", seats_file(seat("wizard"), seat())), 'unknown unit "wizard"'
    )
    assert_error(invoke("score", "paper-tales", seats_file(seat())), "2 to 5 seats")


def test_cards_table_and_json() -> None:
    result = invoke("cards", "paper-tales", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert len(rows) == 42 + 5
    assert sum(r["copies"] for r in rows if r["category"] == "unit") == 81
    assert [r["id"] for r in rows[-5:]] == ["town", "tavern", "mine", "temple", "barracks"]
    kraken = next(r for r in rows if r["id"] == "kraken")
    assert (kraken["cost"], kraken["strength"]) == ("6", "9")
    assert "lp amount=-3, per=level2_buildings" in kraken["effect"]
    table = invoke("cards", "paper-tales")
    assert table.exit_code == 0, table.output
    assert "paper-tales (base): 47 cards" in table.stdout
    assert "relic-of-wisdom" in table.stdout


def test_cards_bad_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "cards.toml"
    bad.write_text('schema = 1\ngame = "paper-tales"\ndeck_size = 1\n')
    assert_error(invoke("cards", "paper-tales", "--cards", bad), str(bad), "field 'unit'")


def test_simulate_writes_the_four_tables(finished_run) -> None:
    import polars as pl

    out = finished_run("paper-tales")
    for table in ("games", "seats", "cards", "buildings"):
        frame = pl.read_parquet(out / table)
        assert frame.height > 0, table
        assert frame["game_id"].n_unique() == 40 or table == "buildings"
    seats = pl.read_parquet(out / "seats")
    assert seats.height == 160
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["game"] == "paper-tales"


def test_turn_upgraded_is_null_for_a_building_never_upgraded(finished_run) -> None:
    """Dataset contract: ``buildings.turn_upgraded`` is the turn the building reached level 2
    (a direct level 2: its build turn) and null when it never did, never 0."""
    import polars as pl

    buildings = pl.read_parquet(finished_run("paper-tales") / "buildings")
    level1 = buildings.filter(pl.col("level") == 1)
    level2 = buildings.filter(pl.col("level") == 2)
    assert level1.height > 0
    assert level2.height > 0
    assert level1["turn_upgraded"].null_count() == level1.height
    assert level2["turn_upgraded"].null_count() == 0
    assert (level2["turn_upgraded"] >= level2["turn_built"]).all()
    assert level2["turn_built"].min() >= 1


def test_bench_reports_both_rates() -> None:
    result = invoke(
        "bench", "paper-tales", "--players", "3", "--policy", "random", "--games", "200",
        "--reference-games", "3", "--threads", "1",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "paper-tales" in result.stdout


def test_simulate_checks_players_and_policies_first(tmp_path: Path) -> None:
    base = ["simulate", "paper-tales", "--games", "1", "--seed", "1", "--out", tmp_path / "r"]
    assert_error(invoke(*base, "--players", "6", "--policy", "random"), "2-5 players, not 6")
    assert_error(invoke(*base, "--players", "3", "--policy", "chess"), "unknown policy 'chess'")


def test_games_lists_paper_tales_with_two_players_unconfirmed() -> None:
    result = invoke("games")
    assert result.exit_code == 0, result.output
    assert "paper-tales" in result.stdout
    assert "2-5 (2?)" in result.stdout
    assert "warlord" in result.stdout
