"""``talesim balance``, ``tune`` and ``ladder`` on Paper Tales (base): through the Typer runner,
with small budgets (the commands' logic is tested on Fairy Tale in tests/search; this checks
that the game's engine, card data and editable fields plug in)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
from typer.testing import CliRunner

from cli.main import app

GAME = ["paper-tales"]


def run(*args: str | Path) -> None:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output


def test_balance_runs_and_proposes_a_loadable_card_file(tmp_path: Path) -> None:
    out = tmp_path / "balance"
    run("balance", *GAME, "--players", "4", "--policy", "greedy", "--games", "120",
        "--budget", "2", "--band", "0.95:1.05", "--seed", "3", "--out", out, "--quiet")  # fmt: skip
    changes = pl.read_csv(out / "changes.csv")
    assert changes.columns == ["card", "field", "old", "new"]
    assert (out / "index.html").is_file()
    run("cards", *GAME, "--cards", out / "cards.toml")


def test_tune_writes_a_policy_simulate_loads(tmp_path: Path) -> None:
    out = tmp_path / "tune"
    run("tune", *GAME, "--policy", "greedy", "--players", "4", "--games", "120",
        "--budget", "2", "--seed", "3", "--out", out, "--quiet")  # fmt: skip
    run("simulate", *GAME, "--games", "20", "--players", "4", "--seed", "1",
        "--policy", "greedy-tuned,greedy,greedy,greedy", "--policies-file",
        out / "policies.toml", "--out", tmp_path / "run", "--quiet")  # fmt: skip
    seats = pl.read_parquet(tmp_path / "run" / "seats")
    assert "greedy-tuned" in set(seats["policy"].cast(pl.String))


def test_ladder_rates_and_judges_the_cards(tmp_path: Path) -> None:
    out = tmp_path / "ladder"
    run("ladder", *GAME, "--players", "4", "--policies", "random,greedy", "--games", "120",
        "--seed", "3", "--out", out, "--quiet")  # fmt: skip
    ratings = pl.read_csv(out / "ratings.csv")
    assert ratings["policy"].to_list() == ["greedy", "random"]
    assert pl.read_csv(out / "card-verdicts.csv").height > 0
