"""Dask workers dying under a run: a cluster's normal life.

Each test starts its own ``LocalCluster`` of single-threaded worker processes (the ones
``--backend dask`` starts, preload and numba threads included), hands its address to the
run as ``--scheduler`` and kills worker processes with SIGKILL (by the pid each worker
reports) while the scheduler says they hold one of the run's chunks. A worker killed once
loses its chunks to the other worker (its nanny starts a new one): the run completes with
the bytes of a local run. Workers killed every time they hold a chunk make the scheduler
give up on it (``KilledWorker``): the run stops with one ``error:`` line, exit status 1,
and a resume on the local backend finishes it with the same bytes.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from kit import invoke, part_bytes, talesim_process

pytest.importorskip("distributed")

from distributed import Client, LocalCluster

from talesim.simcore import dask_backend, runner

TABLES = ("games", "seats", "cards")
SORT_KEYS = {
    "games": ["game_id"],
    "seats": ["game_id", "seat"],
    "cards": ["game_id", "seat", "pick"],
}
# Fairy Tale, the cheapest kernel: 12 chunks of 2,000 games, about 1.5 s of kernel time on
# one core: a worker holds a chunk whenever the run goes on, long enough (~0.1 s) for a
# kill to land before it is done.
FT = {
    "players": 4,
    "policies": "collector,greedy,collector,random",
    "rotate_seats": True,
    "seed": 77,
    "n_games": 24_000,
    "chunk_size": 2000,
}
N_CHUNKS = 12
TIMEOUT = 240.0  # seconds: a cold numba cache compiles the kernel first


def ft_args(out: Path, *extra: str) -> list[str]:
    return [
        *("simulate", "fairy-tale", "--players", "4", "--policy"),
        *(str(FT["policies"]), "--rotate-seats", "--seed", "77", "--games", "24000"),
        *("--chunk-size", "2000", "--out", str(out), "--quiet", *extra),
    ]


@pytest.fixture
def cluster() -> Iterator[tuple[LocalCluster, Client]]:
    """Two single-threaded worker processes, as ``--backend dask`` starts them; the
    scheduler gives up on a task after its workers died twice (allowed-failures 1)."""
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            env={"NUMBA_NUM_THREADS": "1"},
            preload=[dask_backend.__name__],
            dashboard_address=":0",
            silence_logs=logging.CRITICAL,
            scheduler_kwargs={"allowed_failures": 1},
        ) as c,
        Client(c) as client,
    ):
        yield c, client


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run on the local backend (one thread), for comparison."""
    out = tmp_path_factory.mktemp("local") / "run"
    runner.simulate("fairy-tale", out=out, threads=1, progress=False, **FT)
    return out


def done_chunks(out: Path) -> int:
    try:
        manifest = json.loads((out / runner.MANIFEST).read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return 0
    return sum(1 for c in manifest["chunks"] if c["done"])


def worker_pids(client: Client) -> dict[str, int]:
    """Worker address -> process id, as each worker says (``client.run``)."""
    return {address: int(pid) for address, pid in client.run(os.getpid).items()}


def chunk_holders(client: Client) -> dict[str, int]:
    """Worker address -> pid of the workers processing a talesim chunk now."""
    busy = [
        address
        for address, keys in client.processing().items()
        if any(str(k).startswith("talesim-chunk-") for k in keys)
    ]
    if not busy:
        return {}
    pids = client.run(os.getpid, workers=busy, on_error="ignore")
    return {address: int(pid) for address, pid in pids.items() if isinstance(pid, int)}


def assert_same_run(out: Path, reference: Path) -> None:
    manifest = runner.read_manifest(out)
    assert manifest["status"] == "complete"
    assert len(manifest["chunks"]) == N_CHUNKS
    for table in TABLES:
        a = pl.read_parquet(out / table / "part-*.parquet").sort(SORT_KEYS[table])
        b = pl.read_parquet(reference / table / "part-*.parquet").sort(SORT_KEYS[table])
        assert a.height > 0
        assert a.equals(b), table
    assert part_bytes(out) == part_bytes(reference)
    assert not list(out.rglob("*.tmp"))


def in_background(work: Callable[[], Any]) -> tuple[threading.Thread, list[BaseException]]:
    errors: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:  # surfaced by the test after join
            errors.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, errors


def test_a_worker_killed_mid_run_loses_nothing(
    tmp_path: Path, cluster: tuple[LocalCluster, Client], uninterrupted: Path
) -> None:
    _, client = cluster
    out = tmp_path / "run"
    killed: dict[str, Any] = {}

    def kill_one_worker() -> None:
        """Once a chunk is stored, SIGKILL a worker that holds a chunk; note the moment."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if done_chunks(out) >= 1:
                holders = chunk_holders(client)
                if holders:
                    address, pid = sorted(holders.items())[0]
                    done = done_chunks(out)
                    os.kill(pid, signal.SIGKILL)
                    killed.update(address=address, pid=pid, done=done)
                    return
            time.sleep(0.005)

    killer, errors = in_background(kill_one_worker)
    result = runner.simulate(
        "fairy-tale",
        out=out,
        backend="dask",
        scheduler=client.scheduler.address,
        progress=False,
        **FT,
    )
    killer.join(timeout=TIMEOUT)
    assert not errors, errors
    assert killed, "no worker was killed"
    assert 1 <= killed["done"] < N_CHUNKS  # mid-run: after a chunk, before the end
    assert result.games == 24_000
    assert (
        killed["pid"] not in worker_pids(client).values()
    )  # the dead worker is gone (its nanny started another)
    assert_same_run(out, uninterrupted)


def test_workers_that_keep_dying_stop_the_run_with_one_line_and_resume_finishes(
    tmp_path: Path, cluster: tuple[LocalCluster, Client], uninterrupted: Path
) -> None:
    """Once the first chunk is stored, every worker is killed whenever one holds a chunk:
    no chunk survives on a warm worker, and a new worker holds its first chunk while it
    loads the kernel, so the chunks queued first die with two workers, and the scheduler
    gives up on them (allowed-failures 1). The CLI prints one line and exits 1; the local
    backend's ``--resume`` finishes the run."""
    _, client = cluster
    out = tmp_path / "run"
    dask = ("--backend", "dask", "--scheduler", client.scheduler.address)
    proc = talesim_process(*ft_args(out, *dask))
    kills: list[int] = []

    def keep_killing() -> None:
        while proc.poll() is None:
            if done_chunks(out) >= 1 and chunk_holders(client):
                for pid in worker_pids(client).values():
                    if pid not in kills:
                        os.kill(pid, signal.SIGKILL)
                        kills.append(pid)
            time.sleep(0.01)

    killer, errors = in_background(keep_killing)
    try:
        stdout, stderr = proc.communicate(timeout=TIMEOUT)
    finally:
        proc.kill()
    killer.join(timeout=10)
    assert not errors, errors
    assert proc.returncode == 1, stderr
    assert stdout == ""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    line = lines[0]
    assert line.startswith("error: the Dask workers running chunk "), line
    assert "died 2 times, so the scheduler gave up on it (KilledWorker" in line
    assert line.endswith("; the run is resumable with --resume")
    assert len(kills) >= 2
    manifest = runner.read_manifest(out)
    assert manifest["status"] == "running"
    done = sum(1 for c in manifest["chunks"] if c["done"])
    assert 1 <= done < N_CHUNKS

    resumed = invoke(*ft_args(out, "--resume", "--threads", "1"))
    assert resumed.exit_code == 0, resumed.output
    assert f"({done * 2000:,} were already done)" in resumed.stdout
    assert_same_run(out, uninterrupted)
