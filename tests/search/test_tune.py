"""``talesim tune``: weights searched by play, the tuned policy loadable everywhere with
--policies-file, bad input, resume (Fairy Tale, the default kernel group)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from kit import assert_error, assert_option_error, invoke
from typer.testing import Result

from talesim.reports.html import Page
from talesim.simcore import policy_file, study


def tune_cmd(out: Path, *extra: str, budget: int = 4) -> list[str | Path]:
    return [
        "tune", "fairy-tale", "--policy", "greedy", "--players", "4", "--games", "1500",
        "--budget", str(budget), "--seed", "3", "--sampling", "adaptive", "--out", out,
        "--quiet", *extra,
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
    assert history.columns[:3] == ["trial", "ws", "games"]
    # adaptive sampling: a trial plays a round of study.rounds (0: a twin of an earlier one)
    assert set(history["games"]) <= {0, *study.rounds(1500)}
    # trial 0 is the default row; the proposal is the best trial that played every game
    assert history.row(0, named=True)["gain"] == 1.0
    full = history.filter(pl.col("games") == 1500)
    best = full.sort("ws", descending=True).row(0, named=True)
    assert list(policy.weights) == [best[k] for k in ("gain", "effect", "harm", "synergy", "deny")]
    keys = ("gain", "effect", "harm", "synergy", "deny")
    kept = list(policy.weights) == [history.row(0, named=True)[k] for k in keys]
    validation = pl.read_csv(out / "validation.csv")
    rows = ["greedy-default"] if kept else ["greedy-tuned", "greedy-default"]
    assert validation["policy"].to_list() == rows
    assert (validation["n"] == 1500).all()
    assert (out / "index.html").is_file()
    # the page's path, then its findings: the gain with its interval, validated or not
    lines = result.stdout.splitlines()
    page = lines.index(f"page: {out / 'index.html'}")
    assert lines[page + 1].startswith("  Best weights (trial ")
    assert "gain " in lines[page + 2]
    verdicts = ("  Nothing to validate",) if kept else ("  Validated", "  Not validated")
    assert lines[page + 3].startswith(verdicts)


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
        ("--sampling", "lazy", "sampling must be one of adaptive, fixed"),
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


def test_adaptive_sampling_stops_a_candidate_clearly_below_the_best(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A candidate whose interval after a round lies below the best full candidate's share
    stops there; one that never does plays every game."""
    from talesim.simcore import tune

    # the share each _play call returns (interval +-0.05, +-0.084 as an early round widens
    # it), in order: trial 0 plays its four rounds and ends at 1.2 (the best so far);
    # trial 1 is at 0.5 after its first round (up to 0.58, below 1.2: it stops); trial 2
    # is at 1.15, whose widened interval reaches 1.234: it plays every game
    shares = iter([1.0, 1.0, 1.0, 1.2, 0.5, 1.15, 1.15, 1.15, 1.15])

    def fake_play(*args: object, **kwargs: object) -> dict:
        ws = next(shares)
        return {"n": 1, "ws": ws, "ws_lo": ws - 0.05, "ws_hi": ws + 0.05, "mean_score": 0.0}

    monkeypatch.setattr(tune, "_play", fake_play)
    monkeypatch.setattr(tune, "_validate", lambda *a, **k: (None, ""))
    monkeypatch.setattr(
        "talesim.reports.tune_page.write_tune_page", lambda o, out: Page(out / "index.html", ())
    )
    req = tune.Request(game="fairy-tale", variant=None, players=4, n_games=800, budget=3,
                       seed=1, out=tmp_path / "out", base="greedy", against=None)  # fmt: skip
    outcome = tune.run_tune(req)
    assert [h["games"] for h in outcome.history] == [800, 100, 800]
    assert [h["ws"] for h in outcome.history] == [1.2, 0.5, 1.15]
    assert outcome.trial == 0
