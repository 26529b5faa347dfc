"""The ``dask`` backend of the runner: a run's chunks as tasks on a Dask distributed cluster.

``talesim simulate ... --backend dask --scheduler tcp://HOST:8786`` sends each missing chunk
to the cluster at that address; without ``--scheduler`` a ``LocalCluster`` of single-threaded
worker processes (one per core, or ``--threads``) is started for the run and shut down
after it.

Who does what:

* **workers compute, the client writes.** A task runs ``engine_kit.run_chunk`` on one chunk,
  checks the frames and encodes each table as Parquet bytes (``batch.encode_part``, the
  same encoder as the local path, hence the same bytes); the client (the ``talesim
  simulate`` process) writes those bytes with the runner's ``write_part``/manifest code as
  they arrive. So parts stay atomic, the manifest has a single writer, and workers need no
  shared filesystem: only talesim installed (the same version and simcore source hash,
  checked before the run starts and by every task). Why encode on the workers rather than
  send frames: a 50,000-game four-player Fairy Tale chunk is 64 MB of frames but 6 MB of
  zstd Parquet, and its encoding (~0.2 s) would otherwise be done for every worker by the
  client's single writer, which would then saturate at about ten workers.
* **the prepared game travels with the tasks.** The client pickles the engine's prepared
  game (card tables, rules, policies: ~30 kB for Fairy Tale) once; each task carries those
  bytes and their hash. A worker unpickles and warms up (compiles) it on the first task
  with a new hash and keeps it in a small per-process cache, so compilation happens once
  per worker, and workers never read card files.
* **one thread per worker process.** numba's own threads would compete with the other
  worker processes, so ``NUMBA_NUM_THREADS=1`` is set in the workers: through the
  LocalCluster's environment, and on any other worker before numba is first imported
  there (each task also sets its thread's numba thread count to 1). Start remote workers
  with ``--nthreads 1`` and as many processes as cores.
* **bounded, in order, written as completed.** At most ``IN_FLIGHT_PER_THREAD`` × (worker
  threads) tasks are queued at a time, submitted in chunk order; results are written in
  completion order, and the manifest is updated after each, as in the local path. On
  Ctrl-C nothing new is submitted, the first result to arrive is written, and the rest
  are cancelled; once ``batch.enough()`` (``--until-ci`` met on the contiguous prefix of
  stored chunks) nothing more is submitted or written, and the runner deletes the chunks
  stored beyond that prefix. The LocalCluster's workers ignore SIGINT (``dask_setup``),
  so a Ctrl-C sent to the terminal's whole process group stops only the client, cleanly.
* **workers dying.** A worker that dies (killed, out of memory, its machine gone) loses
  the chunks it was running; the scheduler hands them to other workers (a LocalCluster's
  nanny restarts the dead one), so the run goes on and its data is the same. A chunk
  whose workers died more than ``distributed.scheduler.allowed-failures`` times (Dask's
  ``KilledWorker``) stops the run with one ``RunStoppedError`` line naming the chunk: the
  chunks stored so far stay, and ``--resume`` (on this backend or the local one)
  finishes the run.
* **determinism.** A game's random numbers depend only on (seed, game id), so the data is
  identical to a local run whatever the workers and the completion order.

Nothing here imports dask at module import time: ``connect`` imports it, and turns a
missing install or an unreachable scheduler into a one-line ``RunError``.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import logging
import os
import pickle
import signal
import sys
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from talesim import simcore
from talesim.simcore import engine_kit
from talesim.simcore.batch import (
    Batch,
    Chunk,
    EncodedPart,
    RunError,
    RunStoppedError,
    Setup,
    check_frames,
    encode_part,
)
from talesim.simcore.registry import Game

if TYPE_CHECKING:
    from distributed import Client, Future

CONNECT_TIMEOUT = 10.0  # seconds to wait for a scheduler given by --scheduler
IN_FLIGHT_PER_THREAD = 2  # queued tasks per worker thread: keeps workers busy, bounds memory
PREPARED_CACHE_SIZE = 4  # prepared games kept per worker process (one per concurrent run)
DASK_MISSING = "--backend dask needs the dask extra: pip install 'talesim[dask]'"

# This process's identity: a task that finds the same token runs in the client's own
# process (an in-process cluster) and must leave the process-wide numba settings alone.
_PROCESS_TOKEN = uuid.uuid4().hex


class WorkerMismatchError(RuntimeError):
    """A worker runs another talesim than the client (raised by a task, on the worker)."""


@dataclass(frozen=True)
class ChunkRequest:
    """What a worker needs to run chunks of one run (sent, unchanged, with every task).

    ``payload`` is the pickled prepared game, kept as bytes so that deserializing a task
    imports neither the engine nor numba (``NUMBA_NUM_THREADS`` must be set first).
    ``key`` hashes ``engine`` and ``payload``: the worker's cache key.
    """

    key: str
    game: Game  # for check_frames
    engine: str  # the engine's module name, e.g. "talesim.simcore.games.fairy_tale.engine"
    payload: bytes
    version: str  # talesim version of the client
    source: str  # simcore.source_hash() of the client
    client: str  # _PROCESS_TOKEN of the client process


def chunk_request(s: Setup) -> ChunkRequest:
    """The request sent with every task of a run of ``s``."""
    payload = pickle.dumps(s.prepared, protocol=pickle.HIGHEST_PROTOCOL)
    digest = hashlib.sha256(s.engine.__name__.encode() + b"\0" + payload).hexdigest()
    return ChunkRequest(
        key=digest[:32],
        game=s.game,
        engine=s.engine.__name__,
        payload=payload,
        version=simcore.__version__,
        source=_source_hash(),
        client=_PROCESS_TOKEN,
    )


# --- on the workers -------------------------------------------------------------------------

_prepared_cache: OrderedDict[str, Any] = OrderedDict()  # ChunkRequest.key -> warmed-up game
_prepare_lock = threading.Lock()


@functools.cache
def _source_hash() -> str:
    return simcore.source_hash()


def worker_identity() -> tuple[str, str]:
    """(talesim version, simcore source hash) of this process; the client compares them."""
    return simcore.__version__, _source_hash()


def _one_numba_thread() -> None:
    """Before numba is imported in this worker process, make its thread pool one thread."""
    if "numba" not in sys.modules:
        os.environ["NUMBA_NUM_THREADS"] = "1"


def dask_setup(worker: object) -> None:
    """Preload hook of the LocalCluster's workers (``preload=["simcore.dask_backend"]``).

    One numba thread per worker, and SIGINT ignored: a Ctrl-C in the terminal reaches the
    whole process group, but only the client should react to it (it stops the run
    cleanly, then shuts the cluster down).
    """
    _one_numba_thread()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _prepared(request: ChunkRequest) -> tuple[Any, Any]:
    """(engine module, prepared game) for ``request``: unpickled and warmed up once."""
    with _prepare_lock:
        prepared = _prepared_cache.get(request.key)
        if prepared is not None:
            _prepared_cache.move_to_end(request.key)
            return importlib.import_module(request.engine), prepared
        if (request.version, request.source) != worker_identity():
            raise WorkerMismatchError(
                f"a Dask worker runs talesim {simcore.__version__} (simcore source "
                f"{_source_hash()}), this client {request.version} ({request.source})"
            )
        if request.client != _PROCESS_TOKEN:
            _one_numba_thread()
        engine = importlib.import_module(request.engine)
        prepared = pickle.loads(request.payload)
        engine.warmup(prepared)
        _prepared_cache[request.key] = prepared
        while len(_prepared_cache) > PREPARED_CACHE_SIZE:
            _prepared_cache.popitem(last=False)
        return engine, prepared


def run_chunk_task(
    request: ChunkRequest, seed: int, chunk: Chunk, check: bool
) -> tuple[dict[str, EncodedPart], float]:
    """The task: the games of ``chunk`` as one encoded Parquet part per table, and the
    seconds the kernel took (compilation and encoding excluded)."""
    engine, prepared = _prepared(request)
    numba = sys.modules.get("numba")
    if numba is not None and request.client != _PROCESS_TOKEN:
        numba.set_num_threads(1)  # thread-local; also if numba was imported before us
    t0 = time.perf_counter()
    frames = engine_kit.run_chunk(engine, prepared, seed, chunk.first_game, chunk.n_games, check)
    seconds = time.perf_counter() - t0
    check_frames(request.game, chunk, frames)
    return {table: encode_part(frame) for table, frame in frames.items()}, seconds


# --- on the client ---------------------------------------------------------------------------


@contextmanager
def connect(
    scheduler: str | None, *, workers: int | None = None
) -> Iterator[Callable[[Batch], float]]:
    """Yield the backend (``run(batch) -> seconds``) bound to a Dask client.

    ``scheduler``: address of a running scheduler (``tcp://HOST:8786``); ``None`` starts a
    ``LocalCluster`` of ``workers`` single-threaded processes (default: one per core) for
    the duration of the block. Raises ``RunError`` if dask is not installed, the scheduler
    does not answer within ``CONNECT_TIMEOUT`` seconds, or a worker runs another talesim.
    """
    try:
        import distributed
    except ImportError:
        raise RunError(DASK_MISSING) from None
    with ExitStack() as stack:
        stack.enter_context(_quiet_logs())
        if scheduler is None:
            cluster = stack.enter_context(_local_cluster(distributed, workers or _cores()))
            client = stack.enter_context(distributed.Client(cluster))
        else:
            try:
                client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT)
            except ValueError as exc:  # e.g. an unknown address scheme
                raise RunError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
            except OSError:
                raise RunError(
                    f"cannot reach the Dask scheduler at {scheduler} "
                    f"(no answer within {CONNECT_TIMEOUT:g} s)"
                ) from None
            stack.enter_context(client)
        _check_workers(client)
        yield functools.partial(run_chunks, client)


@contextmanager
def _quiet_logs() -> Iterator[None]:
    """distributed's own log lines at ERROR and above only, for the block: its warnings
    while the run goes on (a result rescheduled because the worker holding it died, a
    worker lost) are no news for the user, who sees the run go on or stop with one line.
    A LocalCluster's processes are quieted by its ``silence_logs``; this is the client.
    distributed's logging config gives some of its loggers a level and a handler of their
    own (``distributed.client`` at WARNING: "Couldn't gather 1 keys, rescheduling" when a
    worker dies holding a result), so each is raised, not only the parent."""
    loggers = [logging.getLogger("distributed")] + [
        log
        for name, log in logging.root.manager.loggerDict.items()
        if name.startswith("distributed.") and isinstance(log, logging.Logger) and log.level
    ]
    previous = [log.level for log in loggers]
    for log in loggers:
        log.setLevel(max(log.level, logging.ERROR))
    try:
        yield
    finally:
        for log, level in zip(loggers, previous, strict=True):
            log.setLevel(level)


#: Attempts at starting a ``LocalCluster`` (``_local_cluster``).
LOCAL_CLUSTER_ATTEMPTS = 2


def _local_cluster(distributed: Any, workers: int) -> Any:
    """A ``LocalCluster`` of ``workers`` single-threaded processes. distributed waits 10 s
    for the event-loop thread it starts first and fails with a bare ``AssertionError`` when
    that thread has not run by then, which happened once on this 2-core machine while the
    other test worker compiled a kernel: so one more attempt before giving up."""
    for attempt in range(LOCAL_CLUSTER_ATTEMPTS):
        try:
            return distributed.LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                env={"NUMBA_NUM_THREADS": "1"},
                preload=[__name__],  # dask_setup above
                dashboard_address=":0",  # any free port: no clash with a running cluster
                silence_logs=logging.ERROR,
            )
        except AssertionError:
            if attempt + 1 == LOCAL_CLUSTER_ATTEMPTS:
                raise
    raise AssertionError("unreachable")


def _cores() -> int:
    """Cores this process may run on (its CPU affinity where the OS tells it)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def _check_workers(client: Client) -> None:
    """Every connected worker imports talesim and runs the client's version of it."""
    try:
        identities = client.run(worker_identity)
    except Exception as exc:
        raise RunError(
            f"the Dask workers cannot run talesim ({type(exc).__name__}: {exc}); "
            "install talesim on every worker"
        ) from None
    mine = worker_identity()
    for address, identity in sorted(identities.items()):
        if tuple(identity) != mine:
            raise RunError(
                f"Dask worker {address} runs talesim {identity[0]} (simcore source "
                f"{identity[1]}), this client {mine[0]} ({mine[1]}): install the same talesim "
                "on every worker"
            )


def killed_message(chunk: Chunk, allowed_failures: int) -> str:
    """The line a run stops with when the workers running ``chunk`` kept dying."""
    last = chunk.first_game + chunk.n_games - 1
    deaths = "once" if allowed_failures == 0 else f"{allowed_failures + 1} times"
    return (
        f"the Dask workers running chunk {chunk.index} (games {chunk.first_game}..{last}) "
        f"died {deaths}, so the scheduler gave up on it (KilledWorker, "
        f"distributed.scheduler.allowed-failures {allowed_failures}: a worker killed, out "
        "of memory or its machine gone); the run is resumable with --resume"
    )


def run_chunks(client: Client, batch: Batch) -> float:
    """Run ``batch`` on the cluster behind ``client``; seconds from first submission to the
    last write (the workers' compilation included)."""
    from distributed import KilledWorker, as_completed

    request = chunk_request(batch.setup)
    run_id = uuid.uuid4().hex[:8]
    queue = list(reversed(batch.chunks))  # pop() yields the chunks in order
    in_flight: dict[Future, Chunk] = {}
    completed = as_completed()

    def submit() -> None:
        threads = sum(client.nthreads().values())
        if threads == 0:
            batch.update("waiting for Dask workers", 0)
        limit = IN_FLIGHT_PER_THREAD * max(threads, 1)
        while queue and len(in_flight) < limit and not (batch.stop() or batch.enough()):
            chunk = queue.pop()
            future = client.submit(
                run_chunk_task,
                request,
                batch.seed,
                chunk,
                batch.check,
                key=f"talesim-chunk-{run_id}-{chunk.index:05d}",
                pure=False,
            )
            in_flight[future] = chunk
            completed.add(future)

    start = time.perf_counter()
    try:
        submit()
        for future in completed:
            chunk = in_flight.pop(future)
            try:
                parts, seconds = future.result()
            except WorkerMismatchError as exc:  # a worker that joined after the check
                raise RunError(
                    f"{exc}: install the same talesim on every worker; the run is resumable "
                    "with --resume"
                ) from None
            except KilledWorker as exc:
                raise RunStoppedError(killed_message(chunk, exc.allowed_failures)) from None
            batch.store(chunk, parts, seconds)
            batch.update("simulating", chunk.n_games)
            if batch.stop() or batch.enough():
                break
            submit()
    finally:
        if in_flight:
            client.cancel(list(in_flight))
    return time.perf_counter() - start
