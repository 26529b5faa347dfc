"""``talesim ladder`` through the CLI (Fairy Tale, small): the runs, the ratings, the
verdict files, bad input and resume."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from kit import assert_error, invoke
from typer.testing import Result

from talesim.simcore import ladder


def ladder_cmd(out: Path, policies: str = "random,collector,greedy", *extra: str | Path) -> list:
    return [
        "ladder", "fairy-tale", "--players", "4", "--policies", policies, "--games", "1200",
        "--tournament-games", "1440", "--seed", "2", "--out", out, "--quiet", *extra,
    ]  # fmt: skip


@pytest.fixture(scope="module")
def laddered(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result]:
    out = tmp_path_factory.mktemp("ladder") / "out"
    return out, invoke(*ladder_cmd(out))


@pytest.mark.parametrize(("k", "players"), [(2, 2), (2, 3), (2, 4), (3, 4), (3, 5), (4, 4), (5, 3)])
def test_tables_are_balanced(k: int, players: int) -> None:
    """Every policy sits at the tables equally often, in every seat equally often, and
    right after every other policy equally often (the neighbour a drafted hand comes from)."""
    policies = [f"p{i}" for i in range(k)]
    comps = ladder.compositions(policies, players)
    tables = [seats for c in comps for seats in ladder.seatings(c)]
    per_seat = {(p, s): 0 for p in policies for s in range(players)}
    follows: dict[tuple[str, str], int] = {}
    for seats in tables:
        for s, p in enumerate(seats):
            per_seat[p, s] += 1
            pair = (p, seats[(s + 1) % players])
            follows[pair] = follows.get(pair, 0) + 1
    assert len(set(per_seat.values())) == 1, per_seat
    distinct = {n for (a, b), n in follows.items() if a != b}
    assert len(distinct) == 1, follows
    assert all(len(set(c)) > 1 for c in comps)  # no table is self-play


def test_compositions_by_hand() -> None:
    assert ladder.compositions(["c", "a", "b"], 4) == [
        ("a", "a", "b", "c"), ("a", "b", "b", "c"), ("a", "b", "c", "c"),
    ]  # fmt: skip
    assert ladder.compositions(["b", "a"], 4) == [("a", "a", "b", "b")]
    assert ladder.compositions(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert len(ladder.seatings(("a", "a", "b", "c"))) == 12
    assert len(ladder.seatings(("a", "b", "c", "d"))) == 24


def test_parse_policies_with_level_sizes() -> None:
    assert ladder.parse_policies("greedy, mc:rollouts=4@2_000,collector") == (
        ("greedy", "mc:rollouts=4", "collector"),
        {"mc:rollouts=4": 2000},
    )
    with pytest.raises(ladder.RunError, match="SPEC@GAMES"):
        ladder.parse_policies("greedy@lots,collector")


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
    assert verdicts.columns == ["card", "verdict", "flips", "not_checked"]
    assert set(verdicts["verdict"]) <= {"strong", "weak", "even", "policy-dependent", "unclear"}
    assert verdicts.height == 43
    wide = pl.read_csv(out / "cards-by-level.csv")
    assert wide.columns[:3] == ["card", "stats", "verdict"]
    assert wide.columns[3:] == [  # the levels, weakest first (random is none)
        "collector", "collector_lo", "collector_hi", "greedy", "greedy_lo", "greedy_hi",
    ]  # fmt: skip
    assert wide.height == 43
    stats = dict(zip(wide["card"], wide["stats"], strict=True))
    assert stats["sky-dancer-dragon"] == "pts 3"
    # the tournament: three compositions (aabc, abbc, abcc) in each of their 12 seatings,
    # 40 deals each; each policy's self-play run is an ordinary run directory
    runs = sorted(p.name for p in (out / "tournament").iterdir())
    assert len(runs) == 36
    assert runs[:2] == ["c00-s000", "c00-s001"]
    first = json.loads((out / "tournament" / "c00-s000" / "manifest.json").read_text())
    assert first["policies"] == ["collector", "collector", "greedy", "random"]
    assert first["n_games"] == 40
    luck = pl.read_csv(out / "luck.csv")
    assert luck["policy"].to_list() == ["greedy", "collector", "random"]
    for row in luck.iter_rows(named=True):
        assert 0 <= row["deal_share_lo"] <= row["deal_share"] <= row["deal_share_hi"] <= 1
    beside = out.parent / "greedy-report"  # a page never goes inside the ladder's directory
    assert invoke("report", out / "runs" / "greedy", "--out", beside).exit_code == 0
    # the page's path, then its findings: the ratings best first, each with its level
    lines = result.stdout.splitlines()
    assert lines[0] == f"page: {out / 'index.html'}"
    assert lines[1].startswith("  Ratings (Bradley–Terry, Elo scale, 0 = average; 95% ")
    assert lines[1].index("greedy +") < lines[1].index("collector") < lines[1].index("random")
    assert "(level of 1,200 games)" in lines[1]
    assert lines[2].startswith("  Strongest: greedy")
    assert lines[3].startswith("  Head to head")


def test_listing_order_changes_nothing(laddered: tuple, tmp_path: Path) -> None:
    """The same policies listed in another order play exactly the same tournament: the
    same ratings and intervals, the same measured order. The levels are taken from the
    first ladder's runs (``--level-run``): read, not replayed."""
    out, _ = laddered
    other = tmp_path / "reordered"
    levels = [
        a for p in ("random", "collector", "greedy") for a in ("--level-run", out / "runs" / p)
    ]
    result = invoke(*ladder_cmd(other, "greedy,random,collector", *levels))
    assert result.exit_code == 0, result.output
    assert not (other / "runs").exists()
    assert pl.read_csv(other / "ratings.csv").equals(pl.read_csv(out / "ratings.csv"))
    assert pl.read_csv(other / "luck.csv").equals(pl.read_csv(out / "luck.csv"))
    assert pl.read_csv(other / "card-verdicts.csv").equals(pl.read_csv(out / "card-verdicts.csv"))


def test_paired_deals_same_seed_every_seating(laddered: tuple) -> None:
    """Game g of every seating is the same deal: with every seat random, the rotation of
    the seats does not change the game (the random players draw from the game's stream)."""
    out, _ = laddered
    a = pl.read_parquet(out / "tournament" / "c00-s000" / "games")
    b = pl.read_parquet(out / "tournament" / "c02-s011" / "games")
    assert a["game_id"].to_list() == b["game_id"].to_list()


def test_level_sizes_and_level_runs(laddered: tuple, tmp_path: Path) -> None:
    """A level of its own size (SPEC@N); a level taken from a run must be a finished
    self-play run of a listed policy with the ladder's game, variant, players and cards."""
    out, _ = laddered
    small = tmp_path / "small"
    result = invoke(
        *ladder_cmd(small, "collector@300,greedy", "--level-run", out / "runs" / "greedy",
                    "--tournament-games", "96")
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (
        json.loads((small / "runs" / "collector" / "manifest.json").read_text())["n_games"] == 300
    )
    assert "level of 300 games" in result.stdout
    assert "level of 1,200 games" in result.stdout
    verdicts = pl.read_csv(small / "card-verdicts.csv")
    # 300 games cannot tell: those cards' verdicts come from greedy, marked as not checked
    assert (verdicts["not_checked"] == "collector").sum() > 0
    assert_error(
        invoke(
            *ladder_cmd(tmp_path / "x", "collector,greedy", "--level-run", out / "runs" / "random")
        ),
        "not among --policies",
    )
    assert_error(
        invoke(*ladder_cmd(tmp_path / "x", "collector,greedy", "--level-run",
                           out / "tournament" / "c00-s000")),
        "not a self-play run",
    )  # fmt: skip
    assert_error(
        invoke(*ladder_cmd(tmp_path / "x", "collector,greedy", "--variant", "basic",
                           "--level-run", out / "runs" / "greedy")),
        "variant",
    )  # fmt: skip
    assert_error(invoke(*ladder_cmd(tmp_path / "x", "collector@0,greedy")), "games of level")
    assert_error(invoke(*ladder_cmd(tmp_path / "x", "collector@x,greedy")), "SPEC@GAMES")
    assert not (tmp_path / "x").exists()


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


def test_until_ci_stops_each_level_on_its_own(laddered: tuple, tmp_path: Path) -> None:
    """--until-ci: a level stops at the first chunk where every judged card's half-width is
    at most H (a stored prefix of the maximum), and the page says so."""
    out, _ = laddered
    small = tmp_path / "ci"
    result = invoke(
        *ladder_cmd(small, "collector,greedy", "--games", "20000", "--until-ci", "0.15",
                    "--level-run", out / "runs" / "greedy", "--tournament-games", "96")
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    manifest = json.loads((small / "runs" / "collector" / "manifest.json").read_text())
    assert manifest["until_ci"]["stopped"] == "half-width"
    assert manifest["n_games"] < 20000
    assert manifest["until_ci"]["largest_half_width"] <= 0.15
    assert f"level of {manifest['n_games']:,} games" in result.stdout
    assert "until every judged card" in (small / "index.html").read_text()


def test_bad_until_ci(tmp_path: Path) -> None:
    assert_error(
        invoke(*ladder_cmd(tmp_path / "out", "random,greedy", "--until-ci", "0")), "until-ci"
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
    assert_error(other, "other arguments", "policies", "there", "now")


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
