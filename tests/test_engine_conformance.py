"""One contract for every registered game and variant with a kernel: what the runner, the
CLI and the reports rely on of an engine (``simcore.registry.Engine``).

For each (game, variant): ``runner.setup`` prepares it; a chunk's tables are exactly the
game's tables with the dataset's common columns; the tables do not depend on how the games
are cut into chunks; ``play`` (reference.py, narrated) ends with the scores and winners the
kernel stored for that game; ``bench`` runs. The per-game folders test the rules; this file
tests that every engine plugs in the same way. Each case runs in its game's kernel group
(``tests/conftest.py``), so no kernel is compiled twice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pytest

from simcore import engine_kit, registry, runner

CASES = [
    pytest.param(g.name, v.name, id=f"{g.name}-{v.name}")
    for g in registry.GAMES.values()
    if g.simulates
    for v in g.variants
    if v.kernel
]

#: Every seats table starts with these (design.md); every cards table starts with the game
#: and seat and has a card column.
SEAT_COLUMNS = ("game_id", "seat", "policy", "score", "rank", "win")
CARD_COLUMNS = ("game_id", "seat", "card")
SEED, GAMES = 11, 24


def _setup(game: str, variant: str) -> runner.Setup:
    g = registry.get_game(game)
    heuristic = next(p for p in g.policies if p != "random")
    players = min(max(3, g.variant(variant).min_players), g.variant(variant).max_players)
    policies = [heuristic, "random", heuristic][:players]
    return runner.setup(
        game, variant=variant, players=players, policies=policies, rotate_seats=True
    )


def _chunk(s: runner.Setup, first: int, n: int) -> dict[str, Any]:
    return engine_kit.run_chunk(s.engine, s.prepared, SEED, first, n)


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_engine_conformance(game: str, variant: str) -> None:
    s = _setup(game, variant)
    whole = _chunk(s, 0, GAMES)
    assert set(whole) == set(s.game.tables)
    runner.check_frames(s.game, runner.Chunk(0, 0, GAMES), whole)
    seats = whole["seats"]
    assert tuple(seats.columns[: len(SEAT_COLUMNS)]) == SEAT_COLUMNS
    assert seats.height == GAMES * s.players
    assert whole["games"]["game_id"].to_list() == list(range(GAMES))
    per_game = seats.group_by("game_id").agg(
        wins=pl.col("win").sum(), winners=(pl.col("rank") == 1).sum(), n=pl.len()
    )
    assert per_game["wins"].to_list() == pytest.approx([1.0] * GAMES)
    assert (per_game["n"] == s.players).all()
    assert ((seats["win"] > 0) == (seats["rank"] == 1)).all()
    assert set(seats["policy"].cast(pl.String)) <= set(s.policies)
    if "cards" in whole:
        assert tuple(whole["cards"].columns[:2]) == CARD_COLUMNS[:2]
        assert CARD_COLUMNS[2] in whole["cards"].columns

    # the same games however the range is cut into chunks
    cut = [_chunk(s, 0, 7), _chunk(s, 7, GAMES - 7)]
    for table, frame in whole.items():
        assert pl.concat([c[table] for c in cut]).equals(frame), table

    # play (reference.py) replays the stored game
    for g in (0, GAMES - 1):
        events = s.engine.play(s.prepared, SEED, g)
        final = events[-1]
        assert final["event"] == "final"
        stored = seats.filter(pl.col("game_id") == g).sort("seat")
        assert final["scores"] == stored["score"].to_list()
        winners = stored.filter(pl.col("rank") == 1)["seat"].to_list()
        assert sorted(final["winners"]) == winners
        assert all(isinstance(s.engine.narrate(e), str) for e in events)


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_engine_bench_runs(game: str, variant: str) -> None:
    g = registry.get_game(game)
    heuristic = next(p for p in g.policies if p != "random")
    players = g.variant(variant).min_players
    engine = registry.engine(g)
    out = engine_kit.bench(engine, g, players, heuristic, 1, 20, 1, variant)
    assert out["game"] == game
    assert out["variant"] == variant
    assert out["numba_games_per_s"] > 0
    assert out["reference_games_per_s"] > 0


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_a_named_policy_with_its_base_weights_plays_the_base(
    game: str, variant: str, tmp_path: Path
) -> None:
    """A policies-file policy is its base heuristic with another weight row: given the
    base's own row it plays the base's games exactly (kernel and reference.py), under its
    own name in the dataset."""
    import numpy as np

    from simcore import policy_file

    s = _setup(game, variant)
    heuristic = s.policies[0]
    row = tuple(float(w) for w in s.engine.default_weights()[s.game.policies.index(heuristic)])
    path = tmp_path / "policies.toml"
    path.write_text(policy_file.dumps(game, [policy_file.NamedPolicy("copy", heuristic, row)]))
    named = runner.setup(
        game, variant=variant, players=s.players, policies=["copy", *s.policies[1:]],
        rotate_seats=True, policies_file=path,
    )  # fmt: skip
    assert named.prepared.code_names[-1] == "copy"
    assert np.array_equal(named.prepared.weights[-1], np.array(row))
    base, copy = _chunk(s, 0, GAMES), _chunk(named, 0, GAMES)
    assert copy["seats"]["score"].equals(base["seats"]["score"])
    assert set(copy["seats"]["policy"].cast(pl.String)) == {"copy", *s.policies[1:]}
    renamed = copy["seats"]["policy"].cast(pl.String).replace("copy", heuristic)
    assert renamed.equals(base["seats"]["policy"].cast(pl.String))
    events = named.engine.play(named.prepared, SEED, 5)
    assert events[-1]["scores"] == s.engine.play(s.prepared, SEED, 5)[-1]["scores"]
    assert "copy" in events[0]["policies"]


#: Games a ``balance`` / ``tune`` / ``ladder`` case plays: enough for every card to show up,
#: few enough to stay quick (the commands' logic is tested on Fairy Tale in tests/search).
SEARCH_GAMES = {"fairy-tale": 400, "drako": 300, "paper-tales": 120}


def _cli(*args: str | Path) -> None:
    from typer.testing import CliRunner

    from cli.main import app

    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_balance_tune_and_ladder_plug_in(game: str, variant: str, tmp_path: Path) -> None:
    """``talesim balance``, ``tune`` and ``ladder`` through the CLI with small budgets: the
    game's engine, card data and editable fields (``balance.toml``) plug in."""
    g = registry.get_game(game)
    choose = ["--variant", variant]
    games = str(SEARCH_GAMES[game] // (2 if variant == "legends" else 1))
    players = str(min(4, g.variant(variant).max_players))
    out = tmp_path / "balance"
    _cli("balance", game, *choose, "--players", players, "--policy", "greedy",
         "--games", games, "--budget", "2", "--band", "0.95:1.05", "--seed", "3",
         "--out", out, "--quiet")  # fmt: skip
    assert pl.read_csv(out / "changes.csv").columns == ["card", "field", "old", "new"]
    assert (out / "index.html").is_file()
    _cli("cards", game, *choose, "--cards", out / "cards.toml")  # the proposal loads
    out = tmp_path / "tune"
    _cli("tune", game, *choose, "--policy", "greedy", "--players", players, "--games", games,
         "--budget", "2", "--seed", "3", "--out", out, "--quiet")  # fmt: skip
    seats = ",".join(["greedy-tuned"] + ["greedy"] * (int(players) - 1))
    _cli("simulate", game, *choose, "--games", "20", "--players", players, "--seed", "1",
         "--policy", seats, "--policies-file", out / "policies.toml",
         "--out", tmp_path / "run", "--quiet")  # fmt: skip
    assert "greedy-tuned" in set(
        pl.read_parquet(tmp_path / "run" / "seats")["policy"].cast(pl.String)
    )
    out = tmp_path / "ladder"
    _cli("ladder", game, *choose, "--players", players, "--policies", "random,greedy",
         "--games", games, "--seed", "3", "--out", out, "--quiet")  # fmt: skip
    assert pl.read_csv(out / "ratings.csv")["policy"].to_list() == ["greedy", "random"]
    assert pl.read_csv(out / "card-verdicts.csv").height > 0
