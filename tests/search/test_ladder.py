"""``talesim ladder`` through the CLI (Fairy Tale, small): the runs, the ratings, the
verdict files, bad input and resume."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner, Result

from cli.main import app
from simcore import ladder


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


def assert_error(result: Result, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def ladder_cmd(out: Path, policies: str = "random,collector,greedy", *extra: str) -> list:
    return [
        "ladder", "fairy-tale", "--players", "4", "--policies", policies, "--games", "1200",
        "--seed", "2", "--out", out, "--quiet", *extra,
    ]  # fmt: skip


@pytest.fixture(scope="module")
def laddered(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result]:
    out = tmp_path_factory.mktemp("ladder") / "out"
    return out, invoke(*ladder_cmd(out))


def test_tables_cover_every_policy() -> None:
    assert ladder.tables_of(["a", "b", "c"], 4) == [("a", "b", "c", "a")]
    assert ladder.tables_of(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]


def test_ladder_runs_rates_and_writes_its_files(laddered: tuple) -> None:
    out, result = laddered
    assert result.exit_code == 0, result.output
    ratings = pl.read_csv(out / "ratings.csv")
    assert ratings.columns == ["policy", "rating", "rating_lo", "rating_hi"]
    assert ratings["policy"].to_list() == ["greedy", "collector", "random"]  # measured
    cards = pl.read_csv(out / "cards-by-policy.csv")
    assert cards.columns == ["card", "policy", "n", "ws", "ws_lo", "ws_hi"]
    assert set(cards["policy"]) == {"random", "collector", "greedy"}
    assert cards["card"].n_unique() == 43
    verdicts = pl.read_csv(out / "card-verdicts.csv")
    assert verdicts.columns == ["card", "verdict", "flips"]
    assert set(verdicts["verdict"]) <= {"strong", "weak", "even", "policy-dependent", "unclear"}
    assert verdicts.height == 43
    # the tournament: one table (three policies cycled over four seats), four rotations of
    # the same 300 deals; each policy's self-play run is an ordinary run directory
    runs = sorted(p.name for p in (out / "tournament").iterdir())
    assert runs == ["t00-r0", "t00-r1", "t00-r2", "t00-r3"]
    first = json.loads((out / "tournament" / "t00-r1" / "manifest.json").read_text())
    assert first["policies"] == ["collector", "greedy", "random", "random"]
    assert first["n_games"] == 300
    assert invoke("report", out / "runs" / "greedy", "--out", out / "greedy-report").exit_code == 0
    assert "greedy: rating" in result.stdout


def test_paired_deals_same_seed_every_rotation(laddered: tuple) -> None:
    """Game g of every rotation is the same deal: with every seat random, the rotation of
    the seats does not change the game (the random players draw from the game's stream)."""
    out, _ = laddered
    a = pl.read_parquet(out / "tournament" / "t00-r0" / "games")
    b = pl.read_parquet(out / "tournament" / "t00-r2" / "games")
    assert a["game_id"].to_list() == b["game_id"].to_list()


@pytest.mark.parametrize(
    ("policies", "fragment"),
    [
        ("greedy", "at least two policies"),
        ("greedy,greedy", "twice"),
        ("greedy,nobody", "unknown policy"),
    ],
)
def test_bad_policies_are_one_error_line(tmp_path: Path, policies: str, fragment: str) -> None:
    assert_error(invoke(*ladder_cmd(tmp_path / "out", policies)), fragment)
    assert not (tmp_path / "out").exists()


def test_bad_band(tmp_path: Path) -> None:
    assert_error(
        invoke(*ladder_cmd(tmp_path / "out", "random,greedy", "--band", "1.1:0.9")), "band"
    )
    assert not (tmp_path / "out").exists()


def test_resume_reuses_finished_runs(laddered: tuple) -> None:
    out, _ = laddered
    assert_error(invoke(*ladder_cmd(out)), "--resume")
    before = (out / "runs" / "greedy" / "manifest.json").read_text()
    again = invoke(*ladder_cmd(out, "random,collector,greedy", "--resume"))
    assert again.exit_code == 0, again.output
    assert (out / "runs" / "greedy" / "manifest.json").read_text() == before
    other = invoke(*ladder_cmd(out, "random,greedy", "--resume"))
    assert_error(other, "other arguments")


def test_report_of_several_runs_adds_verdicts_across_strength(
    laddered: tuple, tmp_path: Path
) -> None:
    out, _ = laddered
    runs = [out / "runs" / p for p in ("random", "collector", "greedy")]
    result = invoke("report", *runs, "--out", tmp_path / "report")
    assert result.exit_code == 0, result.output
    page = (tmp_path / "report" / "index.html").read_text()
    assert "Across strength" in page
    verdicts = pl.read_csv(tmp_path / "report" / "card-verdicts.csv")
    assert verdicts.height == 43
    # the same verdicts as the ladder's where the measured order is the order given
    ladder_verdicts = pl.read_csv(out / "card-verdicts.csv")
    assert verdicts.select("card", "verdict").equals(ladder_verdicts.select("card", "verdict"))


def test_report_refuses_runs_that_differ_in_more_than_policy(
    laddered: tuple, tmp_path: Path
) -> None:
    out, _ = laddered
    other = tmp_path / "basic"
    assert invoke(
        "simulate", "fairy-tale", "--variant", "basic", "--games", "50", "--players", "4",
        "--seed", "1", "--policy", "greedy", "--out", other, "--quiet",
    ).exit_code == 0  # fmt: skip
    assert_error(
        invoke("report", out / "runs" / "greedy", other, "--out", tmp_path / "r"), "variant"
    )
    twice = invoke(
        "report", out / "runs" / "greedy", out / "runs" / "greedy", "--out", tmp_path / "r"
    )
    assert_error(twice, "same policies")
