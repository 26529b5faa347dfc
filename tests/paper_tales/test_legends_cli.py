"""The Legends variant through the CLI (Typer's CliRunner): listed by ``talesim games``,
its catalog by ``talesim cards``, a game narrated by ``talesim play`` (reference/), a run
written by ``simulate`` (the numba kernel, ``kernel.py``) and ``bench``; that ``play``
replays a stored game and ``--check`` writes the same run: ``tests/test_engine_conformance.py``."""

from __future__ import annotations

import json
from collections import Counter

from kit import invoke

from talesim.simcore import registry
from talesim.simcore.games.paper_tales import engine
from talesim.simcore.games.paper_tales.policies import default_weights
from talesim.simcore.games.paper_tales.reference import Rules, play_reference
from talesim.simcore.games.paper_tales.tables import load_cardset


def test_games_lists_legends() -> None:
    result = invoke("games")
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if "legends" in line)
    assert "2-5 (2?)" in row
    assert registry.get_game("paper-tales").variant("legends").kernel
    assert "not yet" not in row


def test_cards_lists_units_artifacts_and_every_building() -> None:
    result = invoke("cards", "paper-tales", "--variant", "legends", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    kinds = Counter(r["category"] for r in rows)
    assert kinds == {"unit": 42 + 17, "artifact": 18, "building": 5 + 3 + 2}
    # the deck of a Legends game: 81 + 26 units + 18 artifacts
    # (docs/rules/paper-tales-legends.md §2.1)
    assert sum(r["copies"] for r in rows if r["category"] != "building") == 125
    pools = Counter(r["pool"] for r in rows if r["category"] == "building")
    assert pools == {
        "every game": 5,
        "2 of 3 drawn per game": 3,
        "optional tile (off by default)": 2,
    }
    art = next(r for r in rows if r["id"] == "golden-idol")
    assert art["value"] == "2 LP"


def test_base_catalog_is_unchanged_by_the_expansion() -> None:
    rows = json.loads(invoke("cards", "paper-tales", "--json").output)
    assert Counter(r["category"] for r in rows) == {"unit": 42, "building": 5}
    assert all("pool" not in r for r in rows)


def test_cards_table_shows_the_pool_column() -> None:
    result = invoke("cards", "paper-tales", "--variant", "legends")
    assert result.exit_code == 0, result.output
    header = next(line for line in result.output.splitlines() if "category" in line)
    assert "pool" in header


def test_simulate_writes_a_legends_run(finished_run) -> None:
    import polars as pl

    out = finished_run("paper-tales", "legends")
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["game"] == "paper-tales"
    assert manifest["variant"] == "legends"
    games = pl.read_parquet(out / "games")
    assert games.height == 200
    assert set(games["building_pool"].cast(pl.String)) == {
        "inn+sawmill",
        "inn+royal-palace",
        "sawmill+royal-palace",
    }
    seats = pl.read_parquet(out / "seats")
    assert seats.height == 800
    parts = list(engine.LEGENDS_SEAT_PARTS)
    assert (seats.select(pl.sum_horizontal(parts))[:, 0] == seats["score"]).all()
    assert seats["artifacts_in_zone"].sum() > 0
    assert seats["artifact_gold"].sum() > 0
    cards = pl.read_parquet(out / "cards")
    assert set(cards["kind"].cast(pl.String)) == {"unit", "artifact"}
    arts = cards.filter(pl.col("kind") == "artifact")
    assert set(arts["row"].drop_nulls().cast(pl.String)) == {"zone"}
    assert arts.filter(pl.col("deployed"))["deploy_cost"].null_count() == 0
    assert {"placed", "jester"} <= set(arts["how_deployed"].drop_nulls().cast(pl.String))
    buildings = pl.read_parquet(out / "buildings")
    assert {"inn", "sawmill", "royal-palace"} & set(buildings["building"].cast(pl.String))


def test_bench_measures_the_legends_kernel() -> None:
    result = invoke(
        "bench", "paper-tales", "--variant", "legends", "--players", "4", "--policy", "greedy",
        "--games", "200", "--reference-games", "2", "--threads", "1", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["variant"] == "legends"


def test_play_narrates_the_reference_game() -> None:
    """Every event has a sentence (no raw dict); the final event holds the scores, gold and
    breakdown of reference/'s game, played without recording."""
    policies = ["greedy", "random", "warlord", "builder"]
    for seed in range(6):
        args = ["play", "paper-tales", "--variant", "legends", "--seed", str(seed)]
        args += ["--players", "4", "--policy", ",".join(policies)]
        narrated = invoke(*args)
        assert narrated.exit_code == 0, narrated.output
        assert "{'event'" not in narrated.output
        events = [json.loads(line) for line in invoke(*args, "--json").output.splitlines()]
        final = events[-1]
        assert final["event"] == "final"
        cards = load_cardset(variant="legends")
        seats = [engine.POLICY_NAMES.index(p) for p in policies]
        game = play_reference(Rules(cards, 4), default_weights(), seats, seed, 0)
        assert final["scores"] == [pl.lp for pl in game.players]
        assert final["gold"] == [pl.gold for pl in game.players]
        assert final["breakdown"] == [dict(pl.parts) for pl in game.players]
        assert final["scores"] == [sum(b.values()) for b in final["breakdown"]]
        assert "buildings:" in narrated.output.splitlines()[1]
