"""The dask backend: chunks as tasks on a Dask cluster, the client writing the run.

Toy-engine tests use an in-process cluster reached over TCP (``--scheduler`` path; the
toy engine is registered in this process only, so its workers must live here); the Fairy
Tale test starts a real ``LocalCluster`` of worker processes (``--backend dask`` without a
scheduler) and compares it with the local backend.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from kit import error_line, invoke, ok, part_bytes, read_table, toy_run

pytest.importorskip("distributed")

from distributed import Client, LocalCluster

from talesim.simcore import dask_backend, engine_kit, runner
from talesim.simcore.registry import InvariantError
from talesim.simcore.runner import RunError, RunInterrupted

TABLES = ("games", "seats", "cards")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """TCP address of an in-process cluster: 2 single-threaded workers in this process."""
    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        dashboard_address=":0",
        silence_logs=logging.ERROR,
    ) as cluster:
        yield cluster.scheduler_address


@pytest.fixture(autouse=True)
def fresh_worker_cache() -> Iterator[None]:
    """In-process workers share this process's prepared-game cache: start each test empty."""
    dask_backend._prepared_cache.clear()
    yield
    dask_backend._prepared_cache.clear()


def done_flags(out: Path) -> list[bool]:
    return [c["done"] for c in runner.read_manifest(out)["chunks"]]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- toy engine on an in-process cluster ---------------------------------------------------


def test_dask_run_equals_a_local_run(fake: ModuleType, tmp_path: Path, scheduler: str) -> None:
    local = tmp_path / "local"
    toy_run(local)
    fake.reset()
    out = tmp_path / "dask"
    result = toy_run(out, backend="dask", scheduler=scheduler)
    assert (result.games, result.n_games) == (50, 50)
    assert sorted(fake.calls) == [(i * 7, min(7, 50 - i * 7)) for i in range(8)]
    assert fake.warmups == 1  # one worker process here: prepared and warmed up once
    m = runner.read_manifest(out)
    assert m["status"] == "complete"
    assert all(done_flags(out))
    assert part_bytes(out) == part_bytes(local)


def test_in_flight_tasks_are_bounded(
    fake: ModuleType, tmp_path: Path, scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At most IN_FLIGHT_PER_THREAD x 2 worker threads = 4 chunks queued at any time."""
    fake.chunk_delay = 0.02
    submitted = 0
    stored = 0
    peak = 0
    submit = Client.submit
    make_store = runner._chunk_store

    def counting_submit(self: Client, *args: Any, **kwargs: Any) -> Any:
        nonlocal submitted, peak
        submitted += 1
        peak = max(peak, submitted - stored)
        return submit(self, *args, **kwargs)

    def counting_store(*args: Any) -> runner.ChunkStore:
        store = make_store(*args)

        def wrapped(*chunk: Any) -> None:
            nonlocal stored
            store(*chunk)
            stored += 1

        return wrapped

    monkeypatch.setattr(Client, "submit", counting_submit)
    monkeypatch.setattr(runner, "_chunk_store", counting_store)
    toy_run(tmp_path / "run", n_games=60, chunk_size=3, backend="dask", scheduler=scheduler)
    assert (submitted, stored) == (20, 20)
    assert peak == dask_backend.IN_FLIGHT_PER_THREAD * 2


def test_ctrl_c_stops_a_dask_run_and_a_local_resume_finishes_it(
    fake: ModuleType, tmp_path: Path, scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = tmp_path / "whole"
    toy_run(whole, n_games=60, chunk_size=3)
    fake.reset()
    fake.chunk_delay = 0.02
    original = fake.simulate_arrays

    def simulate_arrays(prepared: Any, seed: int, first: int, n: int, check: bool = False) -> Any:
        if first == 9:  # chunk 3, on a worker thread: the signal goes to the main thread
            os.kill(os.getpid(), signal.SIGINT)
        return original(prepared, seed, first, n, check)

    monkeypatch.setattr(fake, "simulate_arrays", simulate_arrays)
    out = tmp_path / "run"
    with pytest.raises(RunInterrupted) as caught:
        toy_run(out, n_games=60, chunk_size=3, backend="dask", scheduler=scheduler)
    done = sum(done_flags(out))
    assert caught.value.done == done
    assert caught.value.total == 20
    assert 1 <= done < 20
    assert runner.read_manifest(out)["status"] == "running"
    assert not list(out.rglob("*.tmp"))

    monkeypatch.setattr(fake, "simulate_arrays", original)
    fake.chunk_delay = 0.0
    toy_run(out, n_games=60, chunk_size=3, resume=True)
    assert part_bytes(out) == part_bytes(whole)


def test_until_ci_keeps_the_stopping_prefix_only(
    fake: ModuleType, tmp_path: Path, scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--until-ci with chunks completing out of order: the criterion is judged on the
    contiguous prefix of stored chunks, so the run stops where a local run stops, and the
    chunks stored beyond that prefix are deleted."""
    kwargs: dict[str, Any] = {"n_games": 600, "chunk_size": 10, "until_ci": 0.25}
    local = tmp_path / "local"
    stop = toy_run(local, **kwargs).n_games // 10
    assert stop == 5  # toy games, seed 11: chunks 0..4
    fake.reset()
    original = fake.simulate_arrays

    def last_chunk_late(prepared: Any, seed: int, first: int, n: int, check: bool = False) -> Any:
        if first == (stop - 1) * 10:
            time.sleep(0.5)  # the other worker stores the chunks after it meanwhile
        return original(prepared, seed, first, n, check)

    monkeypatch.setattr(fake, "simulate_arrays", last_chunk_late)
    written: list[str] = []
    write_part = runner.write_part

    def recording(part: Any, path: Path) -> None:
        written.append(path.name)
        write_part(part, path)

    monkeypatch.setattr(runner, "write_part", recording)
    out = tmp_path / "dask"
    result = toy_run(out, backend="dask", scheduler=scheduler, **kwargs)
    assert (result.stopped, result.n_games) == ("half-width", stop * 10)
    assert f"part-{stop:05d}.parquet" in written  # stored past the stop, then dropped
    assert part_bytes(out) == part_bytes(local)
    m = runner.read_manifest(out)
    assert [c["index"] for c in m["chunks"]] == list(range(stop))
    assert m["until_ci"] == runner.read_manifest(local)["until_ci"]  # summed in chunk order


def test_check_reaches_the_workers_and_an_invariant_error_comes_back(
    fake: ModuleType, tmp_path: Path, scheduler: str
) -> None:
    toy_run(tmp_path / "checked", backend="dask", scheduler=scheduler, check=True)
    assert fake.checks == [True] * 8
    fake.reset()
    fake.broken_game = 30
    out = tmp_path / "broken"
    with pytest.raises(InvariantError, match=r"^seed 11, game 30: invariant"):
        toy_run(out, backend="dask", scheduler=scheduler, check=True)
    flags = done_flags(out)
    assert flags[4] is False  # games 28..34
    assert runner.read_manifest(out)["status"] == "running"


def test_a_worker_of_another_talesim_joining_later_stops_the_run(
    fake: ModuleType, tmp_path: Path, scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Workers are checked when the run starts; a task meeting another talesim (a worker
    that joined later) stops the run with one line, and the run stays resumable."""
    make_request = dask_backend.chunk_request

    def from_another_client(s: runner.Setup) -> dask_backend.ChunkRequest:
        return dataclasses.replace(make_request(s), source="0" * 16)

    monkeypatch.setattr(dask_backend, "chunk_request", from_another_client)
    out = tmp_path / "run"
    with pytest.raises(RunError, match=r"^a Dask worker runs talesim .* the run is resumable"):
        toy_run(out, backend="dask", scheduler=scheduler)
    assert runner.read_manifest(out)["status"] == "running"


def test_cli_with_a_scheduler(fake: ModuleType, tmp_path: Path, scheduler: str) -> None:
    out = tmp_path / "run"
    args = ["simulate", "toy", "--games", "30", "--players", "3", "--seed", "4"]
    args += ["--policy", "greedy", "--out", str(out), "--chunk-size", "8"]
    result = ok(*args, "--backend", "dask", "--scheduler", scheduler)
    assert result.stdout.strip().splitlines()[-1].startswith("30 games in ")
    assert runner.read_manifest(out)["status"] == "complete"


# --- connecting ------------------------------------------------------------------------------


def test_an_unreachable_scheduler_is_one_error(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT", 1.0)
    address = f"tcp://127.0.0.1:{free_port()}"
    out = tmp_path / "run"
    with pytest.raises(RunError, match=rf"^cannot reach the Dask scheduler at {address} \("):
        toy_run(out, backend="dask", scheduler=address)
    assert not out.exists()

    args = ["simulate", "toy", "--games", "30", "--players", "3", "--seed", "4", "--policy"]
    args += ["greedy", "--out", str(out), "--backend", "dask", "--scheduler", address]
    assert error_line(invoke(*args)) == (
        f"error: cannot reach the Dask scheduler at {address} (no answer within 1 s)"
    )
    assert not out.exists()


def test_a_bad_scheduler_address_is_one_error(fake: ModuleType, tmp_path: Path) -> None:
    with pytest.raises(RunError, match=r"at foo://x: unknown address scheme 'foo'"):
        toy_run(tmp_path / "run", backend="dask", scheduler="foo://x")
    assert not (tmp_path / "run").exists()


class StubClient:
    """Just ``run``: what ``_check_workers`` asks of a client."""

    def __init__(self, answer: dict[str, Any] | Exception) -> None:
        self.answer = answer

    def run(self, function: Any) -> dict[str, Any]:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def test_workers_must_run_the_same_talesim() -> None:
    mine = dask_backend.worker_identity()
    dask_backend._check_workers(StubClient({"tcp://a:1": mine}))  # type: ignore[arg-type]
    with pytest.raises(RunError, match=r"Dask worker tcp://b:2 runs talesim 0\.0\.1 \(simcore"):
        dask_backend._check_workers(
            StubClient({"tcp://a:1": mine, "tcp://b:2": ("0.0.1", "0" * 16)})  # type: ignore[arg-type]
        )
    missing = ModuleNotFoundError("No module named 'simcore'")
    with pytest.raises(RunError, match=r"cannot run talesim \(ModuleNotFoundError: .*simcore"):
        dask_backend._check_workers(StubClient(missing))  # type: ignore[arg-type]


def test_a_task_from_another_talesim_is_refused(fake: ModuleType) -> None:
    s = runner.setup("toy", variant=None, players=3, policies="greedy", rotate_seats=False)
    request = dask_backend.chunk_request(s)
    chunk = runner.Chunk(0, 0, 4)
    parts, seconds = dask_backend.run_chunk_task(request, 1, chunk, False)
    frames = engine_kit.run_chunk(s.engine, s.prepared, 1, 0, 4)
    assert parts == {table: runner.encode_part(frame) for table, frame in frames.items()}
    assert parts["games"].rows == 4
    assert seconds >= 0
    dask_backend._prepared_cache.clear()
    other = dask_backend.ChunkRequest(**{**request.__dict__, "source": "0" * 16})
    with pytest.raises(dask_backend.WorkerMismatchError, match="a Dask worker runs talesim"):
        dask_backend.run_chunk_task(other, 1, chunk, False)


def test_a_task_checks_the_engine_contract(
    fake: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = runner.setup("toy", variant=None, players=3, policies="greedy", rotate_seats=False)
    request = dask_backend.chunk_request(s)
    real = fake.simulate_arrays

    def one_game_short(prepared: Any, seed: int, first: int, n: int, check: bool = False) -> Any:
        return real(prepared, seed, first, n - 1, check)

    monkeypatch.setattr(fake, "simulate_arrays", one_game_short)
    with pytest.raises(RuntimeError, match=r"returned 4 game rows for chunk 0 \(5 games\)"):
        dask_backend.run_chunk_task(request, 1, runner.Chunk(0, 0, 5), False)


# --- Fairy Tale on a LocalCluster of worker processes ---------------------------------------


def test_fairy_tale_on_a_local_cluster_equals_the_local_backend(tmp_path: Path) -> None:
    kwargs: dict[str, Any] = {
        "players": 4,
        "policies": "greedy,collector,random,greedy",
        "rotate_seats": True,
        "seed": 2024,
        "n_games": 600,
        "chunk_size": 150,
        "progress": False,
    }
    local = tmp_path / "local"
    runner.simulate("fairy-tale", out=local, **kwargs)  # compiles here first (disk cache)
    out = tmp_path / "dask"
    runner.simulate("fairy-tale", out=out, backend="dask", threads=2, **kwargs)
    for table in TABLES:
        a, b = read_table(local, table, sort=True), read_table(out, table, sort=True)
        assert a.height > 0
        assert a.equals(b), table
    assert part_bytes(out) == part_bytes(local)
    assert runner.read_manifest(out)["status"] == "complete"


def test_local_cluster_workers_use_one_numba_thread_and_ignore_ctrl_c() -> None:
    with dask_backend.connect(None, workers=1) as backend:
        client = backend.args[0]  # type: ignore[attr-defined]
        info = client.run(
            lambda: (
                os.environ.get("NUMBA_NUM_THREADS"),
                __import__("numba").config.NUMBA_NUM_THREADS,
                signal.getsignal(signal.SIGINT) == signal.SIG_IGN,
            )
        )
    assert list(info.values()) == [("1", 1, True)]


def test_a_local_cluster_whose_event_loop_starts_late_is_started_again() -> None:
    """distributed's bare AssertionError (its event-loop thread not running within 10 s)
    gets one more attempt; a second failure is raised, any other error at once."""
    from types import SimpleNamespace

    outcomes: list[Any] = [AssertionError(), "cluster"]

    def local_cluster(**kwargs: Any) -> Any:
        outcome = outcomes.pop(0)
        if isinstance(outcome, BaseException):
            raise outcome
        assert kwargs["n_workers"] == 3
        assert kwargs["threads_per_worker"] == 1
        return outcome

    fake = SimpleNamespace(LocalCluster=local_cluster)
    assert dask_backend._local_cluster(fake, 3) == "cluster"
    outcomes[:] = [AssertionError(), AssertionError(), "cluster"]
    with pytest.raises(AssertionError):
        dask_backend._local_cluster(fake, 3)
    outcomes[:] = [OSError("port in use"), "cluster"]
    with pytest.raises(OSError, match="port in use"):
        dask_backend._local_cluster(fake, 3)


def test_distributeds_own_warnings_are_quiet_during_a_run() -> None:
    """distributed configures ``distributed.client`` with a level of its own (WARNING, and
    outside pytest a stderr handler): quieting only the ``distributed`` logger let
    "Couldn't gather 1 keys, rescheduling" through beside the run's one ``error:`` line.
    Every such logger is at ERROR inside ``_quiet_logs`` and back to its level after."""
    client = logging.getLogger("distributed.client")
    assert client.level == logging.WARNING  # distributed's own config
    with dask_backend._quiet_logs():
        assert not client.isEnabledFor(logging.WARNING)
        assert not logging.getLogger("distributed").isEnabledFor(logging.WARNING)
        assert client.isEnabledFor(logging.ERROR)
    assert client.level == logging.WARNING
