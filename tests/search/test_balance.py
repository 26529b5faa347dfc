"""``talesim balance``: a planted imbalance is found and fixed on validation seeds; bad input
is one error line with nothing written; a search resumes after Ctrl-C or a kill.

Fairy Tale (the suite's default kernel group): its kernel is the quickest to run.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from kit import assert_error, assert_option_error, invoke
from typer.testing import Result

from talesim.simcore import balance, registry

FT_CARDS = registry.get_game("fairy-tale").data_dir() / "cards.toml"
BAND = "0.5:1.6"


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Fairy Tale's cards with the Unicorn (3 copies, fixed 3 points) at 9 points: with
    greedy players its win share when taken is ~1.77, every other card inside 0.5-1.6."""
    text = FT_CARDS.read_text()
    i = text.index('id = "unicorn"')
    j = text.index('value = { kind = "fixed", points = 3 }', i)
    path = tmp_path_factory.mktemp("planted") / "cards.toml"
    path.write_text(text[:j] + text[j:].replace("points = 3", "points = 9", 1))
    return path


def balance_cmd(out: Path, cards: Path, *extra: str, budget: int = 6) -> list[str | Path]:
    return [
        "balance", "fairy-tale", "--players", "4", "--policy", "greedy", "--games", "3000",
        "--budget", str(budget), "--band", BAND, "--seed", "2", "--out", out,
        "--cards", cards, "--fields", "points", "--radius", "6", "--max-steps-per-card", "6",
        "--sampling", "adaptive", "--tolerance", "0.01", "--quiet", *extra,
    ]  # fmt: skip


@pytest.fixture(scope="module")
def searched(planted: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result]:
    out = tmp_path_factory.mktemp("balance") / "out"
    return out, invoke(*balance_cmd(out, planted))


def test_balance_finds_the_planted_card_and_validates_the_fix(searched: tuple) -> None:
    out, result = searched
    assert result.exit_code == 0, result.output
    changes = pl.read_csv(out / "changes.csv")
    assert changes.columns == ["card", "field", "old", "new", "where", "text"]
    assert changes["card"].to_list() == ["unicorn"]
    assert changes["field"].to_list() == ["points"]  # the name --fields takes
    assert changes["where"].to_list() == ["value.points"]
    assert changes["old"].to_list() == [9]
    assert 3 <= changes["new"][0] < 9
    rows = pl.read_csv(out / "cards-before-after.csv").filter(pl.col("entity") == "unicorn")
    assert rows["in_band"].to_list() == [False]  # the original, on the validation seeds
    assert rows["in_band_after"].to_list() == [True]
    assert rows["ws_after"][0] < rows["ws"][0]
    assert "unicorn points: 9 ->" in result.stdout
    # the planted file's text still says 3: the 9 it edits is not in it, so it is stale
    assert "  Rules text NOT rewritten (the old number" in result.stdout
    assert "cards.toml marks it STALE TEXT): unicorn." in result.stdout
    # the page's findings after its path: the cards in band before and after, per level
    lines = result.stdout.splitlines()
    after = lines[lines.index(f"page: {out / 'index.html'}") + 1 :]
    assert after[0].startswith("  Proposal: 1 edit(s)")
    assert after[1].startswith("  Cards in band on the validation seeds, before → after: level 1")
    proposal = tomllib.loads((out / "cards.toml").read_text())
    unicorn = next(c for c in proposal["card"] if c["id"] == "unicorn")
    assert unicorn["value"]["points"] == changes["new"][0]


def test_the_proposal_loads_with_cards_and_the_page_leads_with_it(searched: tuple) -> None:
    out, _ = searched
    assert invoke("cards", "fairy-tale", "--cards", out / "cards.toml").exit_code == 0
    page = (out / "index.html").read_text()
    sections = [page.index(f'<section id="{s}">') for s in ("findings", "validation", "history")]
    assert sections == sorted(sections)
    assert sections[0] < page.index("Proposal: ") < sections[1]
    assert "unicorn" in page
    for name in ("before-after-level-1.png", "search-history.png", "history.csv", "study.db"):
        assert (out / name).is_file(), name
    assert (out / "validation" / "level-1" / "index.html").is_file()
    history = pl.read_csv(out / "history.csv")
    assert history.height > 6  # the budget, then the minimal-edit pass
    # minimal: the proposal's number one step back towards 9 was checked and fails the band
    new = pl.read_csv(out / "changes.csv")["new"][0]
    back = history.filter(pl.col("edits") == f"unicorn points 9->{new + 1}")
    assert back.height >= 1
    assert (back["distance"] > 0).all()
    # adaptive sampling: a candidate out of band on its first eighth stopped there
    assert 3000 // 8 in history["games"].to_list()
    tradeoff = pl.read_csv(out / "tradeoff.csv")
    assert (tradeoff["size"].diff().drop_nulls() > 0).all()
    assert (tradeoff["distance"].diff().drop_nulls() < 0).all()
    for cards in tradeoff["cards"]:  # each point is a card file to simulate
        assert invoke("cards", "fairy-tale", "--cards", out / cards).exit_code == 0
    # the first trial is the starting point: the one out-of-band card one step weaker
    assert history["edits"][0] == "unicorn points 9->8"
    verdicts = pl.read_csv(out / "verdicts.csv").filter(pl.col("entity") == "unicorn")
    assert verdicts.row(0) == ("unicorn", "out", "in band")


def test_a_card_set_inside_the_band_gets_no_edit(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = invoke(*balance_cmd(out, FT_CARDS, budget=2))
    assert result.exit_code == 0, result.output
    assert "already inside the band at every level: no edit" in result.stdout
    assert pl.read_csv(out / "changes.csv").height == 0
    assert tomllib.loads((out / "cards.toml").read_text()) == tomllib.loads(FT_CARDS.read_text())


@pytest.mark.parametrize(
    ("flag", "value", "fragment"),
    [
        ("--band", "1.2:0.9", "band must be LO:HI"),
        ("--band", "0.9", "band must be LO:HI"),
        ("--band", "a:b", "band must be LO:HI"),
        ("--band", "0:1.2", "band must be LO:HI"),
        ("--fields", "strength", "unknown field 'strength'"),
        ("--fields", "points:-9:3", "outside the bounds balance.toml declares"),
        ("--max-steps-per-card", "0", "max steps per card"),
        ("--sampling", "lazy", "sampling must be one of adaptive, fixed"),
        ("--tolerance", "-1", "tolerance must be a number >= 0"),
        ("--fields", "points:4:2", "NAME:MIN:MAX"),
        ("--budget", "0", "budget"),
        ("--players", "9", "2-5 players"),
        ("--policy", "nobody", "unknown policy"),
    ],
)
def test_bad_input_is_one_error_line_and_writes_nothing(
    tmp_path: Path, planted: Path, flag: str, value: str, fragment: str
) -> None:
    assert_option_error(balance_cmd(tmp_path / "out", planted), flag, value, fragment)
    assert not (tmp_path / "out").exists()


def test_a_bound_the_card_loader_refuses_is_bad_input(
    tmp_path: Path, planted: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fields = tmp_path / "balance.toml"
    fields.write_text(
        balance.fields_file(registry.get_game("fairy-tale"))
        .read_text()
        .replace("max = 15", "max = 60")
    )
    monkeypatch.setattr(balance, "fields_file", lambda _game: fields)
    assert_error(invoke(*balance_cmd(tmp_path / "out", planted)), "the bound 60", "outside")
    assert not (tmp_path / "out").exists()


def test_an_existing_search_needs_resume(searched: tuple, planted: Path) -> None:
    out, _ = searched
    before = (out / "history.csv").read_bytes()
    assert_error(invoke(*balance_cmd(out, planted)), "--resume")
    assert (out / "history.csv").read_bytes() == before


def test_resume_keeps_the_finished_trials_and_redoes_a_killed_one(
    tmp_path: Path, planted: Path
) -> None:
    """A process killed in a trial leaves it RUNNING in the study: the resumed search marks
    it failed, keeps the trials done before it and runs on to the budget."""
    import optuna

    out = tmp_path / "out"
    assert invoke(*balance_cmd(out, planted, budget=3)).exit_code == 0
    url = f"sqlite:///{(out / 'study.db').resolve()}"
    study = optuna.load_study(study_name=balance.STUDY_NAME, storage=url)
    first = [(t.params, t.values) for t in study.trials]
    study.ask()  # as a `kill -9` in the middle of a trial leaves it
    result = invoke(*balance_cmd(out, planted, "--resume", budget=5))
    assert result.exit_code == 0, result.output
    study = optuna.load_study(study_name=balance.STUDY_NAME, storage=url)
    states = [t.state.name for t in study.trials]
    assert states.count("COMPLETE") == 5
    assert states[3] == "FAIL"
    done = [(t.params, t.values) for t in study.trials if t.state.name == "COMPLETE"]
    assert done[:3] == first
    assert json.loads((out / "request.json").read_text())["levels"] == [["greedy", 3000, 3000]]


def test_ctrl_c_keeps_the_finished_trials(
    tmp_path: Path, planted: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from talesim.simcore import runner

    real, calls = runner.simulate, []

    def interrupt_second_trial(*args: object, **kwargs: object) -> object:
        if Path(str(kwargs["out"])).name == balance.TRIAL and not kwargs["resume"]:
            calls.append(kwargs["out"])  # a candidate's first round (the others resume it)
            if len(calls) == 2:  # Ctrl-C while the second simulated candidate plays
                raise KeyboardInterrupt
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(runner, "simulate", interrupt_second_trial)
    out = tmp_path / "out"
    result = invoke(*balance_cmd(out, planted, budget=4))
    assert result.exit_code == 130
    assert "--resume" in result.stderr
    import optuna

    study = optuna.load_study(
        study_name=balance.STUDY_NAME, storage=f"sqlite:///{(out / 'study.db').resolve()}"
    )
    states = [t.state.name for t in study.trials]
    assert states[-2:] == ["FAIL", "WAITING"]  # the trial in flight, queued again
    assert study.trials[-1].system_attrs["failed_trial"] == len(states) - 2
    assert states[:-2]
    assert set(states[:-2]) == {"COMPLETE"}
    monkeypatch.setattr(runner, "simulate", real)
    assert invoke(*balance_cmd(out, planted, "--resume", budget=4)).exit_code == 0


def test_machines_sharing_a_storage_join_one_study(tmp_path: Path, planted: Path) -> None:
    """Two searches with the same --storage (here one SQLite file standing for a server)
    share one study: the second joins without --resume and runs it on to its budget; a
    search with other arguments is refused."""
    storage = f"sqlite:///{(tmp_path / 'shared.db').resolve()}"
    first = invoke(*balance_cmd(tmp_path / "a", planted, "--storage", storage, budget=3))
    assert first.exit_code == 0, first.output
    second = invoke(*balance_cmd(tmp_path / "b", planted, "--storage", storage, budget=5))
    assert second.exit_code == 0, second.output
    assert pl.read_csv(tmp_path / "b" / "history.csv").height == 5
    other = balance_cmd(tmp_path / "c", planted, "--storage", storage, budget=5)
    other[other.index("--band") + 1] = "0.6:1.5"
    assert_error(invoke(*other), "other arguments", "band", "0.6")
    assert not (tmp_path / "c").exists()


# --- strength levels, judging per policy, guard rails ------------------------------------


def test_a_candidate_that_reached_more_levels_always_ranks_first() -> None:
    assert balance.objective(0, 0.0) == 0.0
    assert balance.objective(1, 0.0) == 1.0  # met level 1, not checked further
    assert balance.objective(1, 5.0) < balance.objective(2, 0.01)
    assert balance.objective(2, 0.01) < balance.objective(2, 0.02) < 3.0


def _site(entity: str, field: str, value: int, ability: bool = False) -> balance.Site:
    f = balance.Field(field, "unit", field, (), -9, 9, 1, "up", ability=ability)
    return balance.Site(entity, f, (field,), value, entity, field)


def test_a_candidate_beyond_the_rails_is_brought_inside_them() -> None:
    cost, war = _site("commander", "cost", 2), _site("commander", "lp-per-war-won", 1, True)
    strength = _site("commander", "strength", 4)
    rogue = _site("rogue", "strength", 3)
    sites = [cost, strength, war, rogue]
    edit = balance.Edit

    def inside(*edits: balance.Edit) -> list[tuple[str, int]]:
        return [(e.site.key, e.steps) for e in balance.within_rails(edits, sites, 2)]

    # 2 + -3 steps on the Commander: the largest cut back first, then the last on a tie
    assert inside(edit(cost, 2), edit(strength, -3)) == [("commander/cost", 1),
                                                         ("commander/strength", -1)]  # fmt: skip
    assert inside(edit(rogue, -3)) == [("rogue/strength", -2)]
    # its last ability number zeroed: that edit undone
    assert inside(edit(cost, 1), edit(war, -1)) == [("commander/cost", 1)]
    assert inside(edit(cost, 1)) == [("commander/cost", 1)]  # inside already: unchanged


def test_guard_rails_limit_steps_per_card_and_never_blank_a_card() -> None:
    cost, war = _site("commander", "cost", 2), _site("commander", "lp-per-war-won", 1, True)
    gold = _site("commander", "gold", 0, True)  # zero already: not the card's last ability
    sites = [cost, war, gold]
    edit = balance.Edit
    assert balance.guard_rail([edit(cost, 2)], sites, 2) == ""
    assert balance.guard_rail([edit(cost, 2), edit(war, 1)], sites, 2) == (
        "more than 2 steps on commander"
    )
    assert balance.guard_rail([edit(war, -1)], sites, 2) == "no ability number left on commander"
    assert balance.guard_rail([edit(war, -1), edit(gold, 1)], sites, 2) == ""


def test_a_verdict_names_the_levels_where_a_card_is_out() -> None:
    rows = [  # entity, level, in_band, in_band_after
        ("even", 1, True, True), ("even", 2, True, True),
        ("skilled", 1, True, True), ("skilled", 2, False, True),
        ("strong", 1, False, False), ("strong", 2, False, None),
        ("rare", 1, None, None),
    ]  # fmt: skip
    frame = pl.DataFrame(rows, schema=["entity", "level", "in_band", "in_band_after"], orient="row")
    table = balance.verdicts(frame, ["greedy", "learned"])
    assert table["entity"].to_list() == ["rare", "skilled", "strong", "even"]  # to check first
    got = {r[0]: r[1:] for r in table.iter_rows()}
    assert got == {
        "even": ("in band", "in band"),
        "skilled": ("skill-dependent (out at: learned)", "in band"),
        "strong": ("out", "out"),
        "rare": ("not judged", "not judged"),
    }


def levels_cmd(out: Path, cards: Path, levels: str, budget: int = 6) -> list[str | Path]:
    """``balance_cmd`` with ``--levels`` instead of ``--policy``."""
    cmd = balance_cmd(out, cards, "--levels", levels, budget=budget)
    i = cmd.index("--policy")
    return cmd[:i] + cmd[i + 2 :]


@pytest.fixture(scope="module")
def levelled(planted: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result]:
    """The planted Unicorn searched at two levels: greedy self-play, then collector's with
    its own game count."""
    out = tmp_path_factory.mktemp("levels") / "out"
    return out, invoke(*levels_cmd(out, planted, "greedy,collector@2000"))


def test_levels_validate_the_proposal_at_every_level(levelled: tuple) -> None:
    out, result = levelled
    assert result.exit_code == 0, result.output
    assert json.loads((out / "request.json").read_text())["levels"] == [
        ["greedy", 3000, 3000], ["collector", 2000, 2000]
    ]  # fmt: skip
    ba = pl.read_csv(out / "cards-before-after.csv")
    unicorn = ba.filter(pl.col("entity") == "unicorn").sort("level")
    assert unicorn["level"].to_list() == [1, 2]
    assert unicorn["policy"].to_list() == ["greedy", "collector"]
    assert all(unicorn["in_band_after"].to_list())
    history = pl.read_csv(out / "history.csv")
    promoted = history.filter(pl.col("levels_met") >= 1)
    assert promoted.height > 0  # a candidate that met greedy's band was played at level 2
    for level in ("level-1", "level-2"):
        assert (out / "validation" / level / "index.html").is_file()
        assert (out / "runs" / level / "validation-after" / "manifest.json").is_file()
    assert not (out / "runs" / "level-1" / "trial").exists()  # trials are cleaned up
    page = (out / "index.html").read_text()
    assert "before-after-level-2.png" in page
    assert "collector" in page


def test_a_mixed_table_judges_each_card_within_each_policy(tmp_path: Path, planted: Path) -> None:
    out = tmp_path / "out"
    cmd = balance_cmd(out, planted, budget=2)
    cmd[cmd.index("--policy") + 1] = "greedy,collector,greedy,collector"
    result = invoke(*cmd)
    assert result.exit_code == 0, result.output
    ba = pl.read_csv(out / "cards-before-after.csv")
    assert set(ba["policy"]) == {"greedy", "collector"}
    assert ba.group_by("entity").len()["len"].max() == 2  # one row per policy, never pooled
    policies = pl.read_csv(out / "policies.csv")
    assert policies["policy"].to_list() == ["collector", "greedy"]
    assert policies["seats"].to_list() == [2 * 3000, 2 * 3000]
    # the win shares of the two policies average to 1 (an average seat): reported as such
    assert policies["ws"].mean() == pytest.approx(1.0, abs=1e-9)
    # a card's share within a policy is relative to that policy's own share
    run = out / "runs" / "level-1" / "validation-before"
    seats = pl.read_parquet(run / "seats").with_columns(pl.col("policy").cast(pl.String))
    taken = pl.read_parquet(run / "cards").filter(pl.col("card").cast(pl.String) == "unicorn")
    taken = taken.join(seats, on=["game_id", "seat"])
    for policy in ("greedy", "collector"):
        own = seats.filter(pl.col("policy") == policy)["win"].mean() * 4
        raw = taken.filter(pl.col("policy") == policy)["win"].mean() * 4
        row = ba.filter((pl.col("entity") == "unicorn") & (pl.col("policy") == policy))
        assert row["ws"][0] == pytest.approx(raw / own)


def test_a_card_out_of_band_for_one_policy_only_is_searched(planted: Path) -> None:
    """``distance`` sums over policies: a card out within one policy counts although its
    pooled share would be inside."""
    frame = pl.DataFrame(
        {"entity": ["c", "c"], "kind": ["card"] * 2, "policy": ["a", "b"], "n": [500, 500],
         "ws": [1.8, 0.9], "ws_lo": [1.7, 0.8], "ws_hi": [1.9, 1.0]}
    )  # fmt: skip
    total, outside = balance.distance(frame, (0.5, 1.6))
    assert total == pytest.approx(0.1)
    assert outside == {"c": pytest.approx(0.1)}


def test_an_early_round_judges_on_wider_intervals() -> None:
    """An early round stops a candidate on 99.9% intervals: each side of the 95% one scaled
    by 3.2905 / 1.96 about the share."""
    frame = pl.DataFrame(
        {"entity": ["far", "near"], "kind": ["card"] * 2, "policy": ["a"] * 2, "n": [500] * 2,
         "ws": [1.8, 1.75], "ws_lo": [1.7, 1.65], "ws_hi": [1.9, 1.85]}
    )  # fmt: skip
    assert balance.distance(frame, (0.5, 1.6))[0] == pytest.approx(0.1 + 0.05)
    total, outside = balance.distance(frame, (0.5, 1.6), early=True)
    assert outside == {"far": pytest.approx(1.8 - 0.1 * 3.2905 / 1.96 - 1.6)}  # near: inside
    assert total == pytest.approx(outside["far"])


@pytest.mark.parametrize(
    ("levels", "fragment"),
    [("greedy@many", "SPEC@GAMES"), ("greedy,nobody", "unknown policy"), ("greedy@0", "games")],
)
def test_levels_bad_input_is_one_error_line(
    tmp_path: Path, planted: Path, levels: str, fragment: str
) -> None:
    assert_error(invoke(*levels_cmd(tmp_path / "out", planted, levels)), fragment)
    assert not (tmp_path / "out").exists()


def test_seats_are_given_one_way(tmp_path: Path, planted: Path) -> None:
    out = tmp_path / "out"
    both = balance_cmd(out, planted, "--levels", "greedy,collector")
    assert_error(invoke(*both), "--policy (one level) or --levels")
    neither = levels_cmd(out, planted, "greedy")
    i = neither.index("--levels")
    assert_error(invoke(*neither[:i], *neither[i + 2 :]), "--policy (one level) or --levels")
    assert not out.exists()


def _trial(number: int, distance: float, size: int, met: int, gap: float, **params: int) -> Any:
    from types import SimpleNamespace

    attrs = {"levels_met": met, "gap": gap}
    return SimpleNamespace(number=number, values=[distance, size], user_attrs=attrs,
                           params=params)  # fmt: skip


def test_without_a_trial_in_band_the_smallest_edit_near_the_best_is_proposed() -> None:
    best = _trial(3, balance.objective(1, 0.0245), 19, 0, 0.0245, a=3, b=-4)
    small = _trial(0, balance.objective(1, 0.032), 4, 0, 0.032, a=1)
    far = _trial(1, balance.objective(1, 0.2), 1, 0, 0.2, b=1)
    trials = [small, far, best]
    assert balance.proposal(trials, 0.01) is small  # within 0.01 of the best gap
    assert balance.proposal(trials, 0.005) is best
    assert balance.front(trials) == [far, small, best]
    meeting = _trial(4, 0.0, 6, 1, 0.0, a=2)
    assert balance.proposal([*trials, meeting], 0.01) is meeting


def test_fixed_sampling_plays_every_game_of_every_candidate(tmp_path: Path, planted: Path) -> None:
    out = tmp_path / "out"
    result = invoke(*balance_cmd(out, planted, "--sampling", "fixed", budget=3))
    assert result.exit_code == 0, result.output
    history = pl.read_csv(out / "history.csv")
    assert set(history["games"].to_list()) <= {0, 3000}  # 0: a twin of an earlier trial
