"""A search process killed (SIGKILL) while it holds a trial: the study it leaves is
continued with no trial lost or done twice.

``talesim tune`` on Fairy Tale (the cheapest kernel) at a tiny size runs in a subprocess
and is killed once the study (SQLite) shows a ``RUNNING`` trial past TPE's ten random
startup trials. ``--resume`` fails that trial and queues it again (its parameters, in its
slot); the finished trials then equal, slot by slot (parameters and values), those of a
study that ran without a stop: the sampler is seeded per slot. A second machine joining
a shared ``--storage`` study whose first machine was killed retries the dead machine's
trial once its heartbeat is stale, and the study ends with every slot finished once.
"""

from __future__ import annotations

import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

import optuna
import pytest
from kit import invoke, talesim_process

from talesim.simcore import policy_file, study, tune

BUDGET = 13
KILL_AT = 11  # a trial TPE samples from the history (its first ten are random)
TIMEOUT = 300.0


def tune_cmd(out: Path, *extra: str) -> list[str]:
    return [
        *("tune", "fairy-tale", "--policy", "greedy", "--players", "4", "--games", "400"),
        *("--budget", str(BUDGET), "--seed", "5", "--sampling", "fixed", "--out", str(out)),
        *("--quiet", *extra),
    ]


def db_url(path: Path) -> str:
    return f"sqlite:///{path.resolve()}"


def load(url: str) -> list[optuna.trial.FrozenTrial]:
    return optuna.load_study(study_name=tune.STUDY_NAME, storage=url).get_trials()


def by_slot(trials: list[optuna.trial.FrozenTrial]) -> dict[int, tuple[Any, Any]]:
    """Slot -> (parameters, values) of the finished trials; a slot finished twice fails."""
    slot = study.slots(trials)
    done: dict[int, tuple[Any, Any]] = {}
    for t in trials:
        if t.state.name == "COMPLETE":
            assert slot[t.number] not in done, f"slot {slot[t.number]} finished twice"
            done[slot[t.number]] = (t.params, t.values)
    return done


def running_trial(db: Path) -> int | None:
    """The number of the trial the study holds RUNNING with all its parameters (Fairy
    Tale's five weights) set: playing its games (None: none, or no study yet)."""
    if not db.is_file():
        return None
    query = (
        "SELECT number FROM trials WHERE state = 'RUNNING' AND 5 = "
        "(SELECT COUNT(*) FROM trial_params WHERE trial_params.trial_id = trials.trial_id)"
    )
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as con:
            row = con.execute(query).fetchone()
    except sqlite3.Error:
        return None
    return None if row is None else int(row[0])


def start_and_kill(out: Path, db: Path, *extra: str) -> int:
    """Start ``talesim tune`` and SIGKILL it while it runs trial ``KILL_AT`` or later;
    the number of the trial it held."""
    proc = talesim_process(*tune_cmd(out, *extra))
    deadline = time.monotonic() + TIMEOUT
    try:
        while True:
            number = running_trial(db)
            if number is not None and number >= KILL_AT:
                break
            assert proc.poll() is None, f"tune ended before the kill: {proc.communicate()}"
            assert time.monotonic() < deadline, "no trial reached in time"
            time.sleep(0.005)
    finally:
        proc.kill()  # SIGKILL: no handler, the trial stays RUNNING
        proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == -signal.SIGKILL
    assert running_trial(db) == number
    return number


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tune") / "out"
    result = invoke(*tune_cmd(out))
    assert result.exit_code == 0, result.output
    return out


def weights(out: Path) -> tuple[float, ...]:
    (policy,) = policy_file.load(out / "policies.toml", "fairy-tale", ("greedy",), 5)
    return policy.weights


def test_a_killed_search_resumes_with_no_trial_lost_or_doubled(
    tmp_path: Path, uninterrupted: Path
) -> None:
    reference = load(db_url(uninterrupted / study.STUDY_DB))
    assert [t.state.name for t in reference] == ["COMPLETE"] * BUDGET

    out = tmp_path / "out"
    killed = start_and_kill(out, out / study.STUDY_DB)
    result = invoke(*tune_cmd(out, "--resume"))
    assert result.exit_code == 0, result.output

    trials = load(db_url(out / study.STUDY_DB))
    failed = [t.number for t in trials if t.state.name == "FAIL"]
    assert failed == [killed]
    retries = [t for t in trials if t.system_attrs.get("failed_trial") == killed]
    assert len(retries) == 1  # queued once ...
    (retry,) = retries
    assert retry.state.name == "COMPLETE"  # ... and run once, with the killed trial's params
    assert retry.params == trials[killed].params
    assert sum(t.state.name == "COMPLETE" for t in trials) == BUDGET
    assert len(trials) == BUDGET + 1
    assert by_slot(trials) == by_slot(reference)  # every slot: same parameters and values
    assert weights(out) == weights(uninterrupted)


def test_a_machine_joining_a_shared_study_retries_the_dead_machines_trial(
    tmp_path: Path, uninterrupted: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second machine runs the next slots at once (the dead trial is not yet stale),
    then waits for the last one: the killed trial, failed once its heartbeat is older than
    the grace period (here 2 s) and retried."""
    db = tmp_path / "shared.db"
    storage = ("--storage", db_url(db))
    killed = start_and_kill(tmp_path / "a", db, *storage)
    monkeypatch.setattr(study, "HEARTBEAT_SECONDS", 1)
    monkeypatch.setattr(study, "GRACE_SECONDS", 2)
    result = invoke(*tune_cmd(tmp_path / "b", *storage))
    assert result.exit_code == 0, result.output

    trials = load(db_url(db))
    assert [t.number for t in trials if t.state.name == "FAIL"] == [killed]
    (retry,) = [t for t in trials if t.system_attrs.get("failed_trial") == killed]
    assert retry.state.name == "COMPLETE"
    assert retry.params == trials[killed].params
    assert sum(t.state.name == "COMPLETE" for t in trials) == BUDGET
    done = by_slot(trials)
    assert sorted(done) == list(range(BUDGET))
    reference = by_slot(load(db_url(uninterrupted / study.STUDY_DB)))
    # the slots up to the killed one were sampled with the same history
    assert {k: done[k] for k in range(killed + 1)} == {k: reference[k] for k in range(killed + 1)}


# --- the study's mechanics, with an evaluation that plays no games -------------------------

PARAMS = [study.Param("x", 0, 10, kind="float"), study.Param("n", 0, 20)]


def evaluate(p: Any) -> tuple[list[float], dict[str, Any]]:
    """A deterministic stand-in for a candidate's games."""
    return [(p["x"] - 3.3) ** 2 + (p["n"] - 7) ** 2 / 10], {"seen": p["n"]}


def open_local(out: Path, resume: bool = False, storage: str | None = None) -> optuna.Study:
    out.mkdir(parents=True, exist_ok=True)
    return study.open_study(out, "s", 1, 9, storage, resume, {"case": 1})


def test_slots_follow_retries() -> None:
    retry = {"failed_trial": 2, "retry_history": [2]}
    again = {"failed_trial": 2, "retry_history": [2, 4]}
    trials = [
        optuna.trial.create_trial(state=optuna.trial.TrialState.FAIL, system_attrs=attrs)
        for attrs in ({}, {}, {}, {}, retry, {}, again, {})
    ]
    for number, t in enumerate(trials):
        t.number = number
    #            0  1  2  3  4(retry of 2)  5  6(retry of the retry)  7
    assert study.slots(trials) == {0: 0, 1: 1, 2: 2, 3: 3, 4: 2, 5: 4, 6: 2, 7: 5}


def test_an_interrupted_study_ends_with_the_trials_of_an_uninterrupted_one(
    tmp_path: Path,
) -> None:
    """Ctrl-C in trial 12 (TPE past its ten random trials): the trial is failed and queued
    again; the resumed study redoes it once and samples the same slots."""
    whole = open_local(tmp_path / "whole")
    study.run_trials(whole, PARAMS, evaluate, 15)
    calls = 0

    def interrupted(p: Any) -> tuple[list[float], dict[str, Any]]:
        nonlocal calls
        calls += 1
        if calls == 13:
            raise KeyboardInterrupt
        return evaluate(p)

    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        study.run_trials(open_local(out), PARAMS, interrupted, 15)
    states = [t.state.name for t in open_local(out, resume=True).get_trials()]
    assert states == ["COMPLETE"] * 12 + ["FAIL", "WAITING"]
    resumed = open_local(out, resume=True)
    study.run_trials(resumed, PARAMS, evaluate, 15)
    trials = resumed.get_trials()
    assert [t.number for t in trials if t.state.name == "FAIL"] == [12]
    assert trials[13].system_attrs["failed_trial"] == 12
    assert trials[13].params == trials[12].params
    assert by_slot(trials) == by_slot(whole.get_trials())


def test_a_trial_left_running_is_retried_once_in_its_slot(tmp_path: Path) -> None:
    """A local study resumed after its process died: the RUNNING trial is failed and
    queued again at once; resuming twice queues it once."""
    whole = open_local(tmp_path / "whole")
    study.run_trials(whole, PARAMS, evaluate, 6)
    out = tmp_path / "run"
    s = open_local(out)
    study.run_trials(s, PARAMS, evaluate, 3)
    s.ask(dict(whole.get_trials()[3].distributions))  # its parameters set, then killed
    open_local(out, resume=True)
    s = open_local(out, resume=True)
    assert [t.state.name for t in s.get_trials()] == ["COMPLETE"] * 3 + ["FAIL", "WAITING"]
    study.run_trials(s, PARAMS, evaluate, 6)
    trials = s.get_trials()
    assert sum(t.system_attrs.get("failed_trial") == 3 for t in trials) == 1
    assert by_slot(trials) == by_slot(whole.get_trials())


def test_a_shared_studys_trial_without_a_heartbeat_becomes_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process killed between creating its trial and its first heartbeat: the joining
    machine gives the trial a heartbeat, fails it once that is older than the grace period,
    and retries it; a live machine's trial (beating) would not be touched."""
    monkeypatch.setattr(study, "HEARTBEAT_SECONDS", 1)
    monkeypatch.setattr(study, "GRACE_SECONDS", 1)
    url = db_url(tmp_path / "shared.db")
    first = open_local(tmp_path / "a", storage=url)
    study.run_trials(first, PARAMS, evaluate, 2)
    first.ask()  # RUNNING, no heartbeat: its process is gone
    second = open_local(tmp_path / "b", storage=url)
    assert [t.state.name for t in second.get_trials()] == ["COMPLETE", "COMPLETE", "RUNNING"]
    study.run_trials(second, PARAMS, evaluate, 4)
    trials = second.get_trials()
    assert [t.state.name for t in trials].count("COMPLETE") == 4
    assert [t.number for t in trials if t.state.name == "FAIL"] == [2]
    assert sorted(by_slot(trials)) == [0, 1, 2, 3]
