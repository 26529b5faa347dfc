"""The talesim CLI through typer's CliRunner, against the toy test-double engine."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import polars as pl
import pytest
from kit import assert_error, invoke

from talesim.simcore import engine_kit, registry

COMMANDS = ("games", "cards", "simulate", "play", "score", "bench")


def simulate_args(out: Path, *extra: str) -> list[str | Path]:
    return [
        "simulate",
        "toy",
        "--games",
        "30",
        "--players",
        "3",
        "--seed",
        "4",
        "--policy",
        "greedy",
        "--out",
        out,
        "--chunk-size",
        "8",
        *extra,
    ]


# --- help --------------------------------------------------------------------------------


def test_main_help_lists_every_command() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    for command in COMMANDS:
        assert command in result.stdout


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("games", []),
        ("cards", ["--variant", "--cards", "--json"]),
        (
            "simulate",
            [
                *("--games", "--players", "--seed", "--policy", "--out", "--chunk-size"),
                *("--threads", "--resume", "--overwrite", "--rotate-seats", "--quiet", "--summary"),
            ],
        ),
        ("play", ["--seed", "--game", "--players", "--policy", "--json"]),
        ("score", ["STATE.json", "--json"]),
        ("bench", ["--players", "--policy", "--threads", "--games", "--reference-games"]),
    ],
)
def test_command_help(command: str, options: list[str]) -> None:
    result = invoke(command, "--help")
    assert result.exit_code == 0
    for option in options:
        assert option in result.stdout


# --- games and cards ---------------------------------------------------------------------


def test_games_lists_variants_players_and_policies(fake: ModuleType) -> None:
    result = invoke("games")
    assert result.exit_code == 0
    out = result.stdout
    for text in ("fairy-tale", "beginner", "expert", "2-4", "2-5", "collector", "toy"):
        assert text in out
    assert "2-5 (5?)" in out  # the toy's unconfirmed five-player count
    assert "unconfirmed" in out
    # a policy with parameters is listed by name, its parameters below the table
    assert "collector, mc" in out
    assert "fairy-tale mc: rollouts=16 (1-1024), top=4 (1-12), playout=greedy" in out


def test_games_json_holds_the_tables_facts(fake: ModuleType) -> None:
    """``games --json``: per game its variants (players, default), policies and each
    policy's parameters with their defaults and bounds or choices, from the registry."""
    result = invoke("games", "--json")
    assert result.exit_code == 0
    games = {g["game"]: g for g in json.loads(result.stdout)}
    assert set(games) == set(registry.GAMES)
    ft = games["fairy-tale"]
    variants = [
        (v["name"], v["min_players"], v["max_players"], v["default"]) for v in ft["variants"]
    ]
    assert variants == [("basic", 2, 4, False), ("beginner", 2, 4, False), ("expert", 2, 5, True)]
    assert ft["policies"] == list(registry.get_game("fairy-tale").policies)
    rollouts, top, playout = ft["policy_parameters"]["mc"]
    assert rollouts == {"name": "rollouts", "default": 16, "lo": 1, "hi": 1024}
    assert top == {"name": "top", "default": 4, "lo": 1, "hi": 12}
    assert playout["default"] == "greedy"
    assert "collector" in playout["choices"]
    assert games["toy"]["variants"][-1]["unconfirmed_players"] == [5]


def test_version_is_the_packages() -> None:
    """``talesim --version``: the installed package's version, the one pyproject.toml gives."""
    import tomllib

    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    version = tomllib.loads(pyproject.read_text("utf-8"))["project"]["version"]
    result = invoke("--version")
    assert result.exit_code == 0
    assert result.stdout == f"talesim {version}\n"


def test_cards_table_and_json(fake: ModuleType) -> None:
    result = invoke("cards", "toy")
    assert result.exit_code == 0
    assert "dragon" in result.stdout
    assert "6 cards" in result.stdout
    result = invoke("cards", "toy", "--variant", "basic", "--json")
    assert result.exit_code == 0
    rows = json.loads(result.stdout)
    assert [r["id"] for r in rows][:2] == ["acorn", "mushroom"]
    catalog = {"id", "name", "faction", "category", "copies", "tier", "value", "effect"}
    assert set(rows[0]) == catalog | {"status"}


def test_cards_with_a_card_file(fake: ModuleType, tmp_path: Path) -> None:
    cards = tmp_path / "cards.toml"
    cards.write_text('[[card]]\nid = "x"\nname = "X"\nfaction = "sky"\nvalue = 1\ncopies = 1\n')
    result = invoke("cards", "toy", "--cards", cards, "--json")
    assert result.exit_code == 0
    assert [r["id"] for r in json.loads(result.stdout)] == ["x"]


# --- simulate ----------------------------------------------------------------------------


def test_simulate_happy_path(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke(*simulate_args(out))
    assert result.exit_code == 0, result.output
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("30 games in ")
    assert "games/s" in last
    assert last.endswith(f"-> {out}")
    assert result.stderr == ""  # no progress bar when stderr is not a terminal
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    assert manifest["policies"] == ["greedy"] * 3
    assert pl.read_parquet(out / "games" / "part-*.parquet").height == 30


def test_simulate_summary(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke(*simulate_args(out, "--summary", "--policy", "greedy,random,collector"))
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "Win share by seat" in text
    assert "Win share by policy" in text
    assert "highest-scoring cards" in text
    assert "lowest-scoring cards" in text
    assert "collector" in text
    assert text.strip().splitlines()[-1].startswith("30 games in ")


def test_simulate_resume_and_overwrite(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    monkeypatch.setattr(fake, "fail_at_first_game", 16)
    crashed = invoke(*simulate_args(out))
    assert crashed.exit_code != 0
    assert isinstance(crashed.exception, RuntimeError)  # engine bugs keep their traceback
    result = invoke(*simulate_args(out, "--resume"))
    assert result.exit_code == 0, result.output
    assert "14 games in " in result.stdout
    assert "(16 were already done)" in result.stdout
    result = invoke(*simulate_args(out, "--overwrite"))
    assert result.exit_code == 0
    assert result.stdout.strip().splitlines()[-1].startswith("30 games in ")


# --- play and score ----------------------------------------------------------------------


def test_play_narrates_and_matches_simulate(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert invoke(*simulate_args(out)).exit_code == 0
    args = ["play", "toy", "--seed", "4", "--game", "17", "--players", "3", "--policy", "greedy"]
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith("game 17:")
    assert lines[-1].startswith("final scores")
    events = [json.loads(line) for line in invoke(*args, "--json").stdout.splitlines()]
    assert events[-1]["event"] == "final"
    seats = pl.read_parquet(out / "seats" / "part-*.parquet").filter(pl.col("game_id") == 17)
    assert seats.sort("seat")["score"].to_list() == events[-1]["scores"]


def test_score_table_and_json(fake: ModuleType, tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    state.write_text(
        json.dumps({"players": [{"face_up": ["owl", "acorn"]}, {"face_up": ["dragon"]}]})
    )
    result = invoke("score", "toy", state, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [s["total"] for s in data["players"]] == [7, 10]
    assert data["winners"] == [1]
    result = invoke("score", "toy", state)
    assert result.exit_code == 0
    assert "owl 6, acorn 1" in result.stdout
    assert "winners: seat 1" in result.stdout


def test_bench_json_is_exactly_the_engine_kit_dict(fake: ModuleType) -> None:
    result = invoke("bench", "toy", "--games", "50", "--reference-games", "5", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {
        "game",
        "variant",
        "players",
        "policy",
        "threads",
        "numba_games_per_s",
        "reference_games_per_s",
        "ratio",
    }
    assert (data["game"], data["variant"]) == ("toy", "expert")
    assert (data["players"], data["policy"], data["threads"]) == (4, "greedy", 2)
    result = invoke("bench", "toy", "--games", "50", "--reference-games", "5", "--threads", "1")
    assert result.exit_code == 0
    assert "games/s" in result.stdout
    assert "ratio" in result.stdout


def test_bench_defaults_to_the_game_s_own_game_counts(
    fake: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[int, int]] = []

    def bench(engine, game, players, policy, threads, n_games, reference_games, variant):  # type: ignore[no-untyped-def]
        calls.append((n_games, reference_games))
        return {"game": "toy", "players": players, "policy": policy, "threads": threads,
                "numba_games_per_s": 1.0, "reference_games_per_s": 1.0, "ratio": 1.0}  # fmt: skip

    monkeypatch.setattr(engine_kit, "bench", bench)
    toy = registry.GAMES["toy"]
    assert invoke("bench", "toy", "--json").exit_code == 0
    assert invoke("bench", "toy", "--games", "7", "--reference-games", "3").exit_code == 0
    assert calls == [(toy.bench_games, toy.bench_reference_games), (7, 3)]


# --- bad input: one line, exit code 2 ----------------------------------------------------


def test_unknown_game(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke("simulate", "chess", "--games", "5", "--players", "2", "--seed", "1")
    assert result.exit_code == 2  # missing --policy/--out is typer's own usage error
    result = invoke(*simulate_args(out)[:1], "chess", *simulate_args(out)[2:])
    assert_error(result, "unknown game 'chess'", "fairy-tale")
    assert not out.exists()
    assert_error(invoke("cards", "chess"), "unknown game 'chess'")


def test_unknown_variant(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert_error(invoke(*simulate_args(out, "--variant", "nightmare")), "no variant 'nightmare'")
    assert_error(invoke("cards", "toy", "--rules", "nightmare"), "no variant 'nightmare'")
    assert not out.exists()


def test_bad_player_count(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert_error(invoke(*simulate_args(out, "--players", "7")), "2-5 players, not 7")
    assert_error(invoke("bench", "toy", "--players", "1"), "not 1")
    assert not out.exists()


def test_unknown_policy(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert_error(invoke(*simulate_args(out, "--policy", "cheater")), "unknown policy 'cheater'")
    args = ["play", "toy", "--seed", "1", "--players", "2", "--policy", "greedy,cheater"]
    assert_error(invoke(*args), "unknown policy 'cheater'")
    assert not out.exists()


def test_wrong_number_of_policies(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke(*simulate_args(out, "--policy", "greedy,random"))
    assert_error(result, "2 policies given", "3 players")
    assert not out.exists()


def test_malformed_card_file(fake: ModuleType, tmp_path: Path) -> None:
    cards = tmp_path / "cards.toml"
    cards.write_text(
        '[[card]]\nid = "x"\nname = "X"\nfaction = "sky"\nvalue = "high"\ncopies = 1\n'
    )
    out = tmp_path / "run"
    result = invoke(*simulate_args(out, "--cards", str(cards)))
    assert_error(result, str(cards), "card 'x'", "field 'value'", "must be an integer")
    assert not out.exists()
    broken = tmp_path / "broken.toml"
    broken.write_text("[[card]\n")
    assert_error(invoke("cards", "toy", "--cards", broken), "not valid TOML")
    assert_error(invoke("cards", "toy", "--cards", tmp_path / "nope.toml"), "file not found")


def test_bad_numbers(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert_error(invoke(*simulate_args(out, "--seed", "-3")), "seed must be")
    assert_error(invoke(*simulate_args(out, "--games", "0")), "games must be at least 1")
    assert_error(invoke(*simulate_args(out, "--chunk-size", "0")), "chunk size")
    assert_error(invoke(*simulate_args(out, "--threads", "0")), "threads must be at least 1")
    assert not out.exists()


def test_out_exists(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert invoke(*simulate_args(out)).exit_code == 0
    assert_error(invoke(*simulate_args(out)), "already exists", "--resume", "--overwrite")
    assert_error(invoke(*simulate_args(out, "--resume", "--seed", "5")), "seed is 4")
    other = tmp_path / "other"
    other.mkdir()
    (other / "keep.txt").write_text("x")
    assert_error(invoke(*simulate_args(other, "--overwrite")), "refusing to overwrite")
    assert (other / "keep.txt").exists()


def test_missing_state_file(fake: ModuleType, tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    assert_error(invoke("score", "toy", missing), f"{missing}: file not found")


def test_bad_state_files(fake: ModuleType, tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    state.write_text("{oops")
    assert_error(invoke("score", "toy", state), "not valid JSON", "line 1")
    state.write_text(json.dumps({"players": [{"face_up": ["unicorn"]}]}))
    assert_error(invoke("score", "toy", state), "unknown card 'unicorn'")
    assert_error(invoke("score", "toy", tmp_path), "is a directory")


def test_score_table_shows_each_games_own_results(tmp_path: Path) -> None:
    """The readable `score` table takes its columns from the result: Fairy Tale's Trickster,
    Paper Tales' strength and wars, DRAKO's tribe points and Legends met."""
    cases = {
        "fairy-tale": (
            {"variant": "expert", "players": [{"face_up": ["the-trickster", "homesteaders"]}]},
            ["trickster as", "homesteaders"],
        ),
        "paper-tales": (
            {
                "players": [
                    {
                        "front": [{"unit": "dragon", "age": 0}],
                        "back": [],
                        "buildings": {"mine": 1},
                        "gold": 2,
                    },
                    {"front": [], "back": [], "buildings": {}, "gold": 0},
                    {"front": [], "back": [], "buildings": {}, "gold": 0},
                ]
            },
            ["strength", "wars won", "income"],
        ),
        "drako": (
            {
                "rules": "brief",
                "players": [{"grid": [["elf", "forest", "plain", "plain"]] * 4, "legends": []}],
            },
            ["elf", "legends met", "three-plains"],
        ),
    }
    for game, (state, expected) in cases.items():
        path = tmp_path / f"{game}.json"
        path.write_text(json.dumps(state))
        result = invoke("score", game, path)
        assert result.exit_code == 0, result.output
        for text in expected:
            assert text in result.output, (game, text)
