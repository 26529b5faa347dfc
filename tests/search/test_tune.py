"""``talesim tune``: weights searched by play, the tuned policy loadable everywhere with
--policies-file, bad input, resume (Fairy Tale, the default kernel group)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from kit import assert_error, assert_option_error, invoke
from typer.testing import Result

from simcore import policy_file


def tune_cmd(out: Path, *extra: str, budget: int = 4) -> list[str | Path]:
    return [
        "tune", "fairy-tale", "--policy", "greedy", "--players", "4", "--games", "1500",
        "--budget", str(budget), "--seed", "3", "--out", out, "--quiet", *extra,
    ]  # fmt: skip


@pytest.fixture(scope="module")
def tuned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result]:
    out = tmp_path_factory.mktemp("tune") / "out"
    return out, invoke(*tune_cmd(out))


def test_tune_writes_a_policy_validated_against_the_default(tuned: tuple) -> None:
    out, result = tuned
    assert result.exit_code == 0, result.output
    (policy,) = policy_file.load(out / "policies.toml", "fairy-tale", ("random", "greedy"), 5)
    assert policy.name == "greedy-tuned"
    assert policy.base == "greedy"
    history = pl.read_csv(out / "history.csv")
    assert history.height == 4
    assert history.columns[:2] == ["trial", "ws"]
    # trial 0 is the default row; the proposal is the best trial on the search seeds
    assert history.row(0, named=True)["gain"] == 1.0
    best = history.sort("ws", descending=True).row(0, named=True)
    assert list(policy.weights) == [best[k] for k in ("gain", "effect", "harm", "synergy", "deny")]
    validation = pl.read_csv(out / "validation.csv")
    assert validation["policy"].to_list() == ["greedy-tuned", "greedy-default"]
    assert (validation["n"] == 1500).all()
    assert "validated win share" in result.stdout
    assert (out / "index.html").is_file()


def test_the_tuned_policy_plays_in_simulate_and_play(tuned: tuple, tmp_path: Path) -> None:
    out, _ = tuned
    run = tmp_path / "run"
    seats = "greedy-tuned,greedy,greedy,greedy"
    sim = invoke(
        "simulate", "fairy-tale", "--games", "40", "--players", "4", "--seed", "1", "--policy",
        seats, "--rotate-seats", "--policies-file", out / "policies.toml", "--out", run,
        "--quiet",
    )  # fmt: skip
    assert sim.exit_code == 0, sim.output
    frame = pl.read_parquet(run / "seats")
    assert set(frame["policy"].cast(pl.String)) == {"greedy-tuned", "greedy"}
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["named_policies"]["greedy-tuned"]["base"] == "greedy"
    played = invoke(
        "play", "fairy-tale", "--seed", "1", "--game", "7", "--players", "4", "--policy",
        seats, "--rotate-seats", "--policies-file", out / "policies.toml", "--json",
    )  # fmt: skip
    final = json.loads(played.stdout.splitlines()[-1])
    stored = frame.filter(pl.col("game_id") == 7).sort("seat")["score"].to_list()
    assert final["scores"] == stored
    # a resumed run must use the same named policies
    other = tmp_path / "other.toml"
    text = (out / "policies.toml").read_text()
    start = text.index("weights = [") + len("weights = [")
    other.write_text(text[:start] + "0.5" + text[text.index(",", start) :])
    resumed = invoke(
        "simulate", "fairy-tale", "--games", "40", "--players", "4", "--seed", "1", "--policy",
        seats, "--rotate-seats", "--policies-file", other, "--out", run, "--resume", "--quiet",
    )  # fmt: skip
    assert_error(resumed, "cannot resume")  # the weights are in the config and named_policies


@pytest.mark.parametrize(
    ("flag", "value", "fragment"),
    [
        ("--policy", "random", "heuristic with weights"),
        ("--policy", "mc", "heuristic with weights"),
        ("--policy", "nobody", "heuristic with weights"),
        ("--budget", "0", "budget"),
        ("--games", "0", "games"),
        ("--players", "7", "players"),
    ],
)
def test_bad_input_is_one_error_line_and_writes_nothing(
    tmp_path: Path, flag: str, value: str, fragment: str
) -> None:
    assert_option_error(tune_cmd(tmp_path / "out"), flag, value, fragment)
    assert not (tmp_path / "out").exists()


def test_resume_continues_the_study(tuned: tuple) -> None:
    out, _ = tuned
    assert_error(invoke(*tune_cmd(out)), "--resume")
    result = invoke(*tune_cmd(out, "--resume", budget=6))
    assert result.exit_code == 0, result.output
    history = pl.read_csv(out / "history.csv")
    assert history.height == 6


def test_a_policies_file_names_a_search_spec(tmp_path: Path) -> None:
    """A ``spec`` entry names a policy spec with parameters: the seat plays it and the
    dataset shows its canonical string; a bad spec in the file is one error line."""
    path = tmp_path / "policies.toml"
    path.write_text(
        'schema = 1\ngame = "fairy-tale"\n[policy.quick-search]\nspec = "mc:rollouts=2:top=2"\n'
    )
    run = tmp_path / "run"
    result = invoke(
        "simulate", "fairy-tale", "--games", "6", "--players", "4", "--seed", "1", "--policy",
        "quick-search,greedy,greedy,greedy", "--policies-file", path, "--out", run, "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    seats = pl.read_parquet(run / "seats")
    assert set(seats["policy"].cast(pl.String)) == {"mc:rollouts=2:top=2:playout=greedy", "greedy"}
    path.write_text('schema = 1\ngame = "fairy-tale"\n[policy.bad]\nspec = "mc:depth=3"\n')
    bad = invoke(
        "simulate", "fairy-tale", "--games", "6", "--players", "4", "--seed", "1", "--policy",
        "bad", "--policies-file", path, "--out", tmp_path / "bad", "--quiet",
    )  # fmt: skip
    assert_error(bad, "policy 'bad'", "depth")
