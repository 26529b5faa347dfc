"""The Optuna study of ``talesim balance`` and ``talesim tune``: parameters optimised by
playing games (not the in-game search of the ``mc`` policy, which runs in each game's kernel).

``talesim balance`` (card edits) and ``talesim tune`` (policy weights) both drive an Optuna
study the same way, here:

* the study lives in ``OUT/study.db`` (SQLite) unless ``storage`` names another database
  (``postgresql://...``, ``mysql://...``: several searching machines share one study);
* a search resumes where it stopped: the trials already done are kept, and the budget
  counts every trial done so far; trials queued as starting points (``enqueue``) are
  queued once;
* no trial is lost or done twice. A trial that fails (Ctrl-C, an error in its games) is
  marked failed and queued again with its parameters (Optuna's
  ``RetryHeartbeatStaleTrialCallback``: the retry's system attribute ``failed_trial``
  names the trial it redoes), and so is a trial left ``RUNNING`` by a killed process: in a
  local study when it is resumed (the process that owned it is gone), in a shared one
  once its heartbeat is older than ``GRACE_SECONDS`` (a running trial records one every
  ``HEARTBEAT_SECONDS``; any machine of the study then fails it, exactly one of them
  queues its retry; a trial killed before its first beat gets one from the first
  machine that sees it, ``_fail_stale``). Each trial fills a *slot*: a retry the slot
  of the trial it redoes, any other trial the next one (``slots``);
* the sampler is seeded per slot: TPE seeded from (``seed``, slot) afresh for each trial,
  so a slot's parameters depend on the seed and the trials finished before it, not on
  the process that asks. A study stopped (Ctrl-C, killed) and resumed ends with the
  same finished trials, slot by slot, as one that ran without a stop (a machine joining
  a shared study while a dead machine's trial is not yet stale samples the next slots
  without that trial's result: the same slots, filled once each);
* several machines share one study (``storage``): each joins it, and all stop once the
  study holds ``budget`` finished trials (a machine starts no new trial while the
  running ones would reach the budget, and waits for them: a trial of a machine that
  died is then retried); the arguments it was started with are stored in it, and a
  machine with other arguments is refused;
* a trial whose parameters equal an earlier finished trial's gets that trial's values
  (simulations are deterministic: the same candidate on the same seeds plays the same
  games), so a sampler that proposes a point twice costs nothing.

Every candidate is evaluated by the caller's ``evaluate`` on the same seeds as the baseline
(common random numbers), with adaptive sampling where the caller asks (``rounds``: a
candidate plays a growing prefix of those games and stops once the caller can tell it
apart); re-validating the winner on fresh seeds is the caller's too.
The output directory's request record (``check_out``, ``write_request``) and the progress
bar over trials (``trial_progress``) serve ``talesim ladder`` too, which has no study.
Optuna is imported by the functions that need it.
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from talesim.simcore.batch import RunError
from talesim.simcore.names import differences

if TYPE_CHECKING:
    import optuna

#: Adaptive sampling: a candidate's first round plays 1/ROUNDS of its games (``rounds``).
ROUNDS = 8
#: How a search samples its candidates' games: in rounds that stop early, or all of them.
SAMPLING = ("adaptive", "fixed")
#: An early round (not the last) stops a candidate only on 99.9% intervals, the 95% ones
#: widened by this factor (z 3.29 against 1.96; each side of the interval scaled about the
#: share): four looks at one candidate would otherwise stop a good one more often than
#: the one look of fixed sampling judges it out.
EARLY_WIDEN = 3.2905 / 1.9600


def widened(lo: float, share: float, hi: float) -> tuple[float, float]:
    """The interval ``[lo, hi]`` around ``share`` as an early round judges it
    (``EARLY_WIDEN``)."""
    return share - (share - lo) * EARLY_WIDEN, share + (hi - share) * EARLY_WIDEN


#: The study's name inside its storage (one study per output directory or name).
STUDY_DB = "study.db"
#: A running trial records a heartbeat in the storage this often (seconds) ...
HEARTBEAT_SECONDS = 10
#: ... and a trial whose last heartbeat is older than this is its dead process's: failed
#: and retried by whichever machine of a shared study sees it first. Kernels release the
#: GIL, so the heartbeat thread beats while games play.
GRACE_SECONDS = 60

#: A trial's evaluation: its parameters -> the values to minimise, and attributes kept with
#: the trial (shown in the search history).
Evaluate = Callable[[Mapping[str, Any]], tuple[Sequence[float], Mapping[str, Any]]]


@dataclass(frozen=True)
class Param:
    """One parameter of the search: ``name`` in ``[lo, hi]``, an integer or a float."""

    name: str
    lo: float
    hi: float
    kind: str = "int"  # "int" | "float"


#: The arguments a search (or ladder) directory was made with, checked by ``--resume``.
REQUEST = "request.json"


def check_out(out: Path, resume: bool, record: Mapping[str, Any], what: str) -> None:
    """The output directory of a search (``what``: "balance search", "ladder", ...) can be
    used: not a file; empty unless ``resume``; with ``resume``, made by the same request
    (its ``request.json`` equals ``record``). ``RunError`` otherwise; reads only."""
    import json

    out = Path(out)
    if out.exists() and not out.is_dir():
        raise RunError(f"--out {out} is a file, not a directory")
    if not resume:
        if out.is_dir() and any(out.iterdir()):
            raise RunError(
                f"{out} is not empty: pass --resume to continue its {what}, or another --out"
            )
        return
    path = out / REQUEST
    if not path.is_file():
        raise RunError(f"{out} holds no {what} to resume")
    stored = json.loads(path.read_text())
    if stored != dict(record):
        raise RunError(
            f"{out} holds a {what} made with other arguments ({path}): "
            f"{differences(stored, record)}"
        )


def write_request(out: Path, record: Mapping[str, Any]) -> None:
    """Create ``out`` and record the request the directory is made with."""
    import json

    Path(out).mkdir(parents=True, exist_ok=True)
    (Path(out) / REQUEST).write_text(json.dumps(dict(record), indent=1))


def storage_url(out: Path, storage: str | None) -> str:
    """``storage`` if given, else the SQLite file ``OUT/study.db``."""
    return storage or f"sqlite:///{(Path(out) / STUDY_DB).resolve()}"


def open_study(
    out: Path,
    name: str,
    n_objectives: int,
    seed: int,
    storage: str | None,
    resume: bool,
    request: Mapping[str, Any],
) -> optuna.Study:
    """Create the study, or load it: with ``resume``, or when ``storage`` names a shared
    database that already holds it (another machine's search: this one joins it). A
    ``RunError`` when the local study exists and ``resume`` is off, when there is none to
    resume, or when the stored study was started with another ``request``.

    The storage records heartbeats (``HEARTBEAT_SECONDS``, ``GRACE_SECONDS``) and retries
    a stale trial; the sampler is TPE seeded per slot (``slot_sampler``). ``RUNNING``
    trials of a local study are its killed process's: each is failed and queued again at
    once. In a shared study they may be a live machine's: only the stale ones are."""
    import optuna
    from optuna.trial import TrialState

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    logging.getLogger("optuna").propagate = False
    url = storage_url(out, storage)
    try:
        existing = {s.study_name for s in optuna.get_all_study_summaries(url)}
        rdb = _rdb_storage(url)
    except Exception as exc:  # a bad URL, an unreachable server, a missing driver
        raise RunError(f"cannot open the study storage {url}: {exc}") from None
    if name in existing and not resume and storage is None:
        raise RunError(f"study '{name}' already exists in {url}: pass --resume to continue it")
    if name not in existing and resume:
        raise RunError(f"no study '{name}' in {url} to resume")
    study = optuna.create_study(
        storage=rdb,
        study_name=name,
        directions=["minimize"] * n_objectives,
        sampler=slot_sampler(seed),
        load_if_exists=True,
    )
    stored = study.user_attrs.get("request")
    if stored is None:
        study.set_user_attr("request", dict(request))
    _check_request(stored, request, name, url)
    if storage is None:  # a shared study's RUNNING trials may belong to a live machine
        for trial in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
            _retry(study, study.tell(trial.number, state=TrialState.FAIL))
    else:
        _fail_stale(study)
    return study


def _rdb_storage(url: str) -> Any:
    """The study's storage at ``url``: heartbeats on, a stale trial queued again."""
    import optuna

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        return optuna.storages.RDBStorage(
            url,
            heartbeat_interval=HEARTBEAT_SECONDS,
            grace_period=GRACE_SECONDS,
            heartbeat_stale_trial_callback=optuna.storages.RetryHeartbeatStaleTrialCallback(),
        )


def _retry(study: optuna.Study, trial: optuna.trial.FrozenTrial) -> None:
    """Queue failed ``trial`` again: its parameters, in its slot (``failed_trial``)."""
    import optuna

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        optuna.storages.RetryHeartbeatStaleTrialCallback()(study, trial)


def _fail_stale(study: optuna.Study) -> None:
    """Fail the running trials whose heartbeat is older than ``GRACE_SECONDS`` (their
    machine died) and queue each again; another machine failing one first wins.

    Optuna never finds a trial stale that has no heartbeat at all: one whose process died
    between creating it and its first beat (a few milliseconds, but a killed search can
    land there). Such a trial gets a heartbeat from the first machine that sees it here,
    so it is stale ``GRACE_SECONDS`` later, unless its own process beats meanwhile."""
    import optuna

    for trial_id in _unbeaten(study):
        study._storage.record_heartbeat(trial_id)  # type: ignore[attr-defined]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        optuna.storages.fail_stale_trials(study)


def _unbeaten(study: optuna.Study) -> list[int]:
    """The storage ids of the study's running trials that have no heartbeat (Optuna's RDB
    tables ``trials`` and ``trial_heartbeats``; Optuna has no call that tells)."""
    import sqlalchemy

    storage = getattr(study._storage, "_backend", study._storage)  # under Optuna's cache
    engine = getattr(storage, "engine", None)
    if engine is None:
        return []
    query = sqlalchemy.text(
        "SELECT t.trial_id FROM trials t LEFT JOIN trial_heartbeats h "
        "ON h.trial_id = t.trial_id WHERE t.study_id = :study AND t.state = 'RUNNING' "
        "AND h.trial_id IS NULL"
    )
    with engine.connect() as connection:
        rows = connection.execute(query, {"study": study._study_id}).fetchall()
    return [int(row[0]) for row in rows]


def slots(trials: Sequence[optuna.trial.FrozenTrial]) -> dict[int, int]:
    """Trial number -> slot, over all of a study's trials: a retry (system attribute
    ``failed_trial``: the first trial of its slot) fills the slot of the trial it redoes,
    any other trial the next one."""
    slot: dict[int, int] = {}
    fresh = 0
    for t in sorted(trials, key=lambda t: t.number):
        first = t.system_attrs.get("failed_trial")
        if first in slot:
            slot[t.number] = slot[first]
        else:
            slot[t.number] = fresh
            fresh += 1
    return slot


def slot_seed(seed: int, slot: int) -> int:
    """The sampler's seed for a trial in ``slot`` of a search with ``seed``."""
    import numpy as np

    return int(np.random.SeedSequence([seed, slot]).generate_state(1)[0])


def slot_sampler(seed: int) -> Any:
    """A TPE sampler seeded afresh before each trial with ``slot_seed(seed, slot)``.

    One TPE seeded once would give a slot the parameters of how many trials the process
    asked before it: a resumed or joining process would start its stream over. Seeded per
    slot, the trial in slot ``k`` gets the same parameters whoever asks it, given the
    finished trials (TPE's history). A retry keeps its parameters (no sampling)."""
    import optuna

    class SlotSeeded(optuna.samplers.BaseSampler):
        def __init__(self) -> None:
            self.tpe = optuna.samplers.TPESampler(seed=slot_seed(seed, 0))

        def before_trial(self, study: optuna.Study, trial: optuna.trial.FrozenTrial) -> None:
            slot = slots(study.get_trials(deepcopy=False))[trial.number]
            self.tpe = optuna.samplers.TPESampler(seed=slot_seed(seed, slot))
            self.tpe.before_trial(study, trial)

        def infer_relative_search_space(self, study: Any, trial: Any) -> Any:
            return self.tpe.infer_relative_search_space(study, trial)

        def sample_relative(self, study: Any, trial: Any, space: Any) -> Any:
            return self.tpe.sample_relative(study, trial, space)

        def sample_independent(self, study: Any, trial: Any, name: str, dist: Any) -> Any:
            return self.tpe.sample_independent(study, trial, name, dist)

        def after_trial(self, study: Any, trial: Any, state: Any, values: Any) -> None:
            self.tpe.after_trial(study, trial, state, values)

        def reseed_rng(self) -> None:  # the seed is the slot's: nothing to reseed
            pass

    return SlotSeeded()


def check_study(
    out: Path, name: str, storage: str | None, resume: bool, request: Mapping[str, Any]
) -> None:
    """``open_study``'s refusals, read-only, so that a search can be refused before it
    writes anything: a local study that exists without ``resume``, none to resume, or a
    stored study started with another ``request``."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    url = storage_url(out, storage)
    local = storage is None
    if local and not (Path(out) / STUDY_DB).is_file():
        if resume:
            raise RunError(f"no study '{name}' in {url} to resume")
        return
    try:
        summaries = {s.study_name: s for s in optuna.get_all_study_summaries(url)}
    except Exception as exc:  # a bad URL, an unreachable server, a missing driver
        raise RunError(f"cannot open the study storage {url}: {exc}") from None
    if name not in summaries:
        if resume:
            raise RunError(f"no study '{name}' in {url} to resume")
        return
    if local and not resume:
        raise RunError(f"study '{name}' already exists in {url}: pass --resume to continue it")
    _check_request(summaries[name].user_attrs.get("request"), request, name, url)


def _check_request(
    stored: Mapping[str, Any] | None, request: Mapping[str, Any], name: str, url: str
) -> None:
    """``RunError`` naming each differing argument when study ``name`` in ``url`` was
    started with another request than ``request`` (None: it records none yet)."""
    if stored is not None and dict(stored) != dict(request):
        raise RunError(
            f"study '{name}' in {url} was started with other arguments: "
            f"{differences(stored, request)}"
        )


def enqueue_once(study: optuna.Study, starts: Sequence[Mapping[str, float]]) -> None:
    """Queue ``starts`` (parameter dicts) as the first trials of a new study; a resumed
    study already holds them (done or waiting), so nothing is queued twice."""
    if study.user_attrs.get("enqueued"):
        return
    for params in starts:
        study.enqueue_trial(dict(params), skip_if_exists=True)
    study.set_user_attr("enqueued", True)


def rounds(n: int) -> list[int]:
    """The games a candidate has played after each round of adaptive sampling: an eighth
    of ``n``, a quarter, a half, all. Each round extends the run of the last (a run resumed
    with more games, chunks of the first round's size): the same games as one run of
    ``n``, so a candidate that plays every round costs no more than one that does not."""
    return sorted({max(1, n * k // ROUNDS) for k in (1, 2, 4)} | {n})


def round_chunk(n: int) -> int:
    """The chunk size of a candidate's rounds: the first round's games, at most the
    runner's default chunk (memory); a round that ends inside a chunk plays it again
    whole when the next round extends the run."""
    from talesim.simcore.runner import DEFAULT_CHUNK_SIZE

    return min(rounds(n)[0], DEFAULT_CHUNK_SIZE)


def check_sampling(sampling: str) -> None:
    if sampling not in SAMPLING:
        raise RunError(f"sampling must be one of {', '.join(SAMPLING)}, got {sampling!r}")


def _finished(study: optuna.Study) -> list[optuna.trial.FrozenTrial]:
    from optuna.trial import TrialState

    return study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))


def run_trials(
    study: optuna.Study,
    params: Sequence[Param],
    evaluate: Evaluate,
    budget: int,
    *,
    progress: bool = False,
    describe: Callable[[list[optuna.trial.FrozenTrial]], str] = lambda _trials: "",
) -> list[optuna.trial.FrozenTrial]:
    """Run trials until the study has ``budget`` finished ones: ask for parameters, reuse
    an equal earlier trial's values or ``evaluate``, tell. With ``progress``, a bar over
    the trials (``trial_progress``) whose description after each trial is ``describe(the
    finished trials)``. Returns the finished trials, by number.

    A trial records a heartbeat while it runs (``HEARTBEAT_SECONDS``). An exception in
    ``evaluate`` (a Ctrl-C too) marks the trial failed, queues it again (``_retry``: the
    resumed search redoes it) and propagates. Before each trial the stale trials of dead
    machines are failed and queued again; while this machine's next trial would take the
    study past ``budget`` (others are running the last ones) it waits for them instead.
    """
    from optuna.distributions import BaseDistribution, FloatDistribution, IntDistribution
    from optuna.trial import TrialState

    space: dict[str, BaseDistribution] = {
        p.name: IntDistribution(int(p.lo), int(p.hi))
        if p.kind == "int"
        else FloatDistribution(p.lo, p.hi)
        for p in params
    }
    with trial_progress(progress, budget, len(_finished(study))) as update:
        while True:
            _fail_stale(study)
            trials = study.get_trials(deepcopy=False)
            finished = [t for t in trials if t.state == TrialState.COMPLETE]
            if len(finished) >= budget:
                break
            running = sum(1 for t in trials if t.state == TrialState.RUNNING)
            waiting = any(t.state == TrialState.WAITING for t in trials)
            if len(finished) + running >= budget and not waiting:
                time.sleep(HEARTBEAT_SECONDS)  # the others finish the budget, or die
                continue
            seen: dict[tuple, optuna.trial.FrozenTrial] = {}
            for t in sorted(finished, key=lambda t: t.number):
                seen.setdefault(_key(t.params), t)
            _one_trial(study, space, seen, evaluate)
            update(describe(finished_trials(study)))
    return finished_trials(study)


def _one_trial(
    study: optuna.Study,
    space: Mapping[str, Any],
    seen: Mapping[tuple, optuna.trial.FrozenTrial],
    evaluate: Evaluate,
) -> None:
    """Ask a trial, evaluate it (or take its finished twin's values), tell; a failure is
    told, queued again and raised."""
    from optuna.trial import TrialState

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "heartbeat ... with Study.optimize": ours is below
        trial = study.ask(dict(space))
    key = _key(trial.params)
    try:
        with _heartbeat(study, trial):
            if key in seen:
                twin = seen[key]
                values: Sequence[float] = twin.values
                attrs: Mapping[str, Any] = {**twin.user_attrs, "same_as": twin.number}
            else:
                values, attrs = evaluate(dict(trial.params))
    except BaseException:
        _retry(study, study.tell(trial, state=TrialState.FAIL))
        raise
    for k, v in attrs.items():
        trial.set_user_attr(k, v)
    study.tell(trial, list(values))


@contextmanager
def _heartbeat(study: optuna.Study, trial: optuna.Trial) -> Iterator[None]:
    """Record ``trial``'s heartbeat every ``HEARTBEAT_SECONDS`` (from now) while the block
    runs, on a thread of its own. Optuna does this inside ``Study.optimize`` only; a
    search asks and tells itself, so it beats here, through the storage's public
    ``record_heartbeat`` (the study's storage and the trial's id are private attributes)."""
    storage: Any = study._storage
    interval = getattr(storage, "get_heartbeat_interval", lambda: None)()
    if interval is None:
        yield
        return
    stop = threading.Event()

    def beat() -> None:
        while True:
            storage.record_heartbeat(trial._trial_id)
            if stop.wait(interval):
                return

    thread = threading.Thread(target=beat, name="talesim-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def _key(params: Mapping[str, Any]) -> tuple:
    return tuple(sorted(params.items()))


def finished_trials(study: optuna.Study) -> list[optuna.trial.FrozenTrial]:
    """The finished trials, by trial number."""
    return sorted(_finished(study), key=lambda t: t.number)


@contextmanager
def trial_progress(
    enabled: bool, budget: int, done: int, label: str = "trials"
) -> Iterator[Callable[[str], None]]:
    """A rich progress bar over the trials (or other steps: ``label``) on stderr (off when
    ``enabled`` is false or stderr is no terminal); yields ``update(description)``, which
    also advances by one."""
    import sys

    if not enabled or not sys.stderr.isatty():
        yield lambda _description: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
        console=Console(stderr=True),
        transient=False,
    ) as bar:
        task = bar.add_task("", total=budget, completed=done)
        yield lambda description: bar.update(task, advance=1, description=description)
