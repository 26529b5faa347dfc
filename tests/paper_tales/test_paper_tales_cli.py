"""``talesim cards|score|simulate|games paper-tales`` through Typer's CliRunner (the issue 3
contract: one ``error:`` line for bad input; simulate / play / bench / resume)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from cli.main import app


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


def assert_error(result: Result, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    assert "Traceback" not in result.output


@pytest.fixture
def state_file(tmp_path: Path, seat):
    def write(*seats: dict) -> Path:
        path = tmp_path / "state.json"
        path.write_text(json.dumps({"players": list(seats)}))
        return path

    return write


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


def test_score_json_contract(state_file, three_seats) -> None:
    result = invoke("score", "paper-tales", state_file(*three_seats), "--json")
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


def test_score_table(state_file, three_seats) -> None:
    result = invoke("score", "paper-tales", state_file(*three_seats))
    assert result.exit_code == 0, result.output
    assert "Score breakdown" in result.stdout
    assert "wars 6, per_war_won 2, buildings 4" in result.stdout
    assert "mine L2 5" in result.stdout
    assert "winners: seat 1" in result.stdout


def test_score_two_seats_uses_the_two_player_war(state_file, seat) -> None:
    out = json.loads(
        invoke(
            "score", "paper-tales", state_file(seat("knight knight"), seat("rogue")), "--json"
        ).stdout
    )
    assert [p["war_lp"] for p in out["players"]] == [6, 0]


def test_score_bad_state_is_one_line(state_file, seat) -> None:
    assert_error(
        invoke("score", "paper-tales", state_file(seat("wizard"), seat())), 'unknown unit "wizard"'
    )
    assert_error(invoke("score", "paper-tales", state_file(seat())), "2 to 5 seats")


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


def simulate(out: Path, *extra: str | Path, games: int = 40) -> Result:
    return invoke(
        "simulate", "paper-tales", "--games", str(games), "--players", "4", "--seed", "5",
        "--policy", "greedy,random,warlord,builder", "--rotate-seats", "--chunk-size", "15",
        "--out", out, *extra,
    )  # fmt: skip


def test_simulate_writes_the_four_tables(tmp_path: Path) -> None:
    import polars as pl

    out = tmp_path / "run"
    result = simulate(out)
    assert result.exit_code == 0, result.output
    for table in ("games", "seats", "cards", "buildings"):
        frame = pl.read_parquet(out / table)
        assert frame.height > 0, table
        assert frame["game_id"].n_unique() == 40 or table == "buildings"
    seats = pl.read_parquet(out / "seats")
    assert seats.height == 160
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["game"] == "paper-tales"


def test_turn_upgraded_is_null_for_a_building_never_upgraded(tmp_path: Path) -> None:
    """Dataset contract: ``buildings.turn_upgraded`` is the turn the building reached level 2
    (a direct level 2: its build turn) and null when it never did, never 0."""
    import polars as pl

    out = tmp_path / "run"
    assert simulate(out).exit_code == 0
    buildings = pl.read_parquet(out / "buildings")
    level1 = buildings.filter(pl.col("level") == 1)
    level2 = buildings.filter(pl.col("level") == 2)
    assert level1.height > 0
    assert level2.height > 0
    assert level1["turn_upgraded"].null_count() == level1.height
    assert level2["turn_upgraded"].null_count() == 0
    assert (level2["turn_upgraded"] >= level2["turn_built"]).all()
    assert level2["turn_built"].min() >= 1


def test_play_replays_the_stored_game(tmp_path: Path) -> None:
    import polars as pl

    out = tmp_path / "run"
    assert simulate(out).exit_code == 0
    seats = pl.read_parquet(out / "seats").filter(pl.col("game_id") == 17).sort("seat")
    result = invoke(
        "play", "paper-tales", "--seed", "5", "--game", "17", "--players", "4",
        "--policy", "greedy,random,warlord,builder", "--rotate-seats", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in result.stdout.splitlines()]
    final = events[-1]
    assert final["event"] == "final"
    assert final["scores"] == seats["score"].to_list()
    assert final["gold"] == seats["gold"].to_list()
    assert events[0]["policies"] == seats["policy"].cast(pl.String).to_list()
    narrated = invoke(
        "play", "paper-tales", "--seed", "5", "--game", "17", "--players", "4",
        "--policy", "greedy,random,warlord,builder", "--rotate-seats",
    )  # fmt: skip
    assert narrated.exit_code == 0
    assert "Game over. Final scores:" in narrated.stdout


def test_resume_gives_identical_bytes(tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    assert simulate(whole).exit_code == 0
    assert simulate(cut).exit_code == 0
    for part in sorted(cut.glob("*/part-00001.parquet")) + sorted(cut.glob("*/part-00002.parquet")):
        part.unlink()
    manifest = json.loads((cut / "manifest.json").read_text())
    for chunk in manifest["chunks"][1:]:
        chunk["done"] = False
    manifest["status"] = "running"
    (cut / "manifest.json").write_text(json.dumps(manifest))
    resumed = simulate(cut, "--resume")
    assert resumed.exit_code == 0, resumed.output
    for part in sorted(whole.glob("*/part-*.parquet")):
        twin = cut / part.relative_to(whole)
        assert twin.read_bytes() == part.read_bytes(), part


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
