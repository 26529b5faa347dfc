"""Batch runner: split a run into chunks of game ids, simulate each, write a Parquet dataset.

A run of ``n_games`` games with seed ``S`` is cut into chunks of ``chunk_size`` consecutive
game ids; chunk ``i`` covers ``[i*K, min((i+1)*K, N))``. For every chunk the game's engine
returns one polars DataFrame per dataset table, written to ``OUT/<table>/part-{i:05d}.parquet``.
``OUT/manifest.json`` records the request, the card data hash, the engine's rule options and
which chunks are done; it is rewritten after every chunk, so ``resume=True`` redoes only the
missing chunks and, games being deterministic per ``(seed, game id)``, ends with the same
bytes as an uninterrupted run.

With ``until_ci=H`` (``simcore.until_ci``) ``n_games`` is a maximum: the run stops after
the first chunk whose contiguous prefix of stored chunks meets the criterion; the manifest
is then cut to those chunks (and any part stored beyond them deleted), so the directory is
exactly a run of the games stored, with an ``until_ci`` block saying why it stopped.

Backends compute the chunks; this module alone writes the run directory:

* ``local`` (default): the kernel of chunk ``i+1`` runs on the calling thread with numba's
  threads (numba's thread count is thread-local) while one background thread writes
  chunk ``i``;
* ``dask`` (``simcore.dask_backend``): chunks are tasks on a Dask cluster (one given by its
  scheduler address, or a ``LocalCluster`` started for the run). Workers compute a chunk
  and send its tables back, encoded as Parquet with ``encode_part`` like every part; the
  client writes the parts and the manifest with the same code as the local path. So
  parts stay atomic, only one process ever writes the manifest, and workers need no
  shared filesystem (nor the card files: the prepared game travels with the tasks).

Guarantees:

* every input is validated (game, variant, players, policies, card data, seed, counts,
  threads, backend, the state of ``OUT``, and for dask the cluster being reachable) before
  anything is created on disk;
* every file is written atomically (temp file in the same directory, fsync, ``os.replace``),
  so an interrupted or killed run leaves whole parts and a consistent manifest only; a
  failed write (disk full, permission) is one ``RunWriteError`` naming the file, and the
  run stays resumable;
* Ctrl-C (SIGINT, main thread only) stops the run cleanly after the chunk being computed
  is written and raises ``RunInterrupted``; a second Ctrl-C aborts at once
  (``KeyboardInterrupt``). Either way the manifest says "running" and ``resume`` finishes
  the run.

This module imports neither numba, polars nor dask at import time (the CLI imports it to
catch ``RunError`` while ``talesim --help`` must stay instant).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType, ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from talesim import simcore
from talesim.simcore import registry
from talesim.simcore import until_ci as ci
from talesim.simcore.batch import (
    Batch,
    Chunk,
    ChunkStore,
    EncodedPart,
    RunError,
    RunOptions,
    Setup,
    check_frames,
    encode_part,
)
from talesim.simcore.cards import CardDataError
from talesim.simcore.errors import TalesimError, TalesimWarning
from talesim.simcore.names import did_you_mean
from talesim.simcore.policy_file import NamedPolicy
from talesim.simcore.policy_spec import Spec
from talesim.simcore.registry import Game, GameError

if TYPE_CHECKING:
    import polars as pl

DEFAULT_CHUNK_SIZE = 50_000  # a few seconds of kernel time per chunk on one core
MAX_SEED = 2**63 - 1
MANIFEST = "manifest.json"
MANIFEST_FORMAT = 1
PART_NAME = "part-{index:05d}.parquet"
PART_GLOB = "part-*.parquet"
TEMP_GLOB = ".*.tmp"  # temp files of atomic writes: ".<final name>.<pid>.tmp"
BACKENDS = ("local", "dask")

# Manifest keys that must equal the request for ``resume`` (they determine the data).
# ``check`` is recorded but is no part of it: a checked run stores the same games.
RESUME_KEYS = (
    "game",
    "variant",
    "players",
    "policies",
    "rotate_seats",
    "seed",
    "n_games",
    "chunk_size",
    "card_sha256",
    "config",
    "named_policies",
    "models",
)


class RunDirError(RunError):
    """The output directory cannot be used: not empty, not a run, or a mismatching manifest."""


class RunWriteError(TalesimError, RuntimeError):
    """Writing the run directory failed (disk full, permission, ...): one line naming the file.

    Raised instead of the underlying ``OSError`` (kept as ``__cause__``). Nothing partial is
    left behind: a chunk's manifest entry is marked done only after all its parts are in
    place, so with ``resumable`` the run can be finished with ``resume=True``.
    """

    def __init__(self, path: Path, error: BaseException, *, resumable: bool) -> None:
        reason = getattr(error, "strerror", None) or str(error)
        hint = "; the run is resumable with --resume" if resumable else ""
        super().__init__(f"cannot write {path}: {reason}{hint}")
        self.path = path
        self.resumable = resumable


class RunInterrupted(KeyboardInterrupt):
    """The user pressed Ctrl-C and the run stopped cleanly between two chunks.

    Every chunk counted in ``done`` is stored; the manifest stays "running", so
    ``simulate(..., resume=True)`` with the same arguments finishes the run.
    """

    def __init__(self, out: Path, done: int, total: int) -> None:
        super().__init__(f"interrupted after {done} of {total} chunks")
        self.out = out
        self.done = done
        self.total = total


@dataclass(frozen=True)
class RunResult:
    """What one ``simulate`` call did.

    ``games`` and ``seconds`` cover this call only (a resumed run counts the chunks it
    computed); ``seconds`` is the wall time of the chunk loop, kernel compilation excluded.
    """

    out: Path
    games: int
    seconds: float
    games_per_s: float
    n_games: int  # games in the whole dataset
    resumed_games: int  # games already done before this call (resume)
    # --until-ci: why the run stopped ("half-width" or "max-games"), and the criterion on
    # the stored run (``simcore.until_ci.Verdict``); all None for a run of a fixed size
    stopped: str | None = None
    largest_half_width: float | None = None  # the largest judged half-width
    widest: str | None = None  # the entity (card or Legend id) that has it
    judged: int | None = None  # entities taken at least MIN_TAKEN times


# --- validation --------------------------------------------------------------------------


def check_int(name: str, value: object, lo: int, hi: int | None = None) -> int:
    """``value`` as an int in ``[lo, hi]`` (``hi=None``: no upper bound), else ``RunError``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RunError(f"{name} must be an integer, got {value!r}")
    if value < lo or (hi is not None and value > hi):
        bound = f"between {lo} and {hi}" if hi is not None else f"at least {lo}"
        raise RunError(f"{name} must be {bound}, got {value}")
    return value


def check_seed(seed: object, name: str = "seed") -> int:
    """A seed (or game id) in ``0 .. 2**63-1``."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise RunError(f"{name} must be an integer between 0 and 2**63-1, got {seed!r}")
    return seed


def check_threads(threads: int | None) -> int | None:
    """Validate a numba thread count against ``NUMBA_NUM_THREADS`` (imports numba)."""
    if threads is None:
        return None
    check_int("threads", threads, 1)
    import numba

    limit = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]  # set at runtime
    if threads > limit:
        raise RunError(
            f"threads must be at most {limit} (numba's NUMBA_NUM_THREADS), got {threads}"
        )
    return threads


def expand_policies(spec: str | Sequence[str], players: int) -> list[str]:
    """One policy spec per seat: ``"greedy"`` for every seat, or exactly ``players`` specs.

    ``spec`` is a comma-separated string (the CLI's ``--policy``; a seat's spec
    ``NAME[:key=value...]`` has no comma) or a sequence of specs. Specs are checked and
    canonicalised against the game by ``setup``; here only the count is checked.
    """
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    names = [str(n).strip() for n in names]
    if not names or any(not n for n in names):
        raise GameError(f"empty policy name in {spec!r}")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise GameError(
            f"{len(names)} policies given ({','.join(names)}) for {players} players: "
            "give one policy for every seat, or a single policy for all seats"
        )
    return names


def check_card_ids(g: Game, variant: str, engine: ModuleType, cards: Any, path: Path) -> None:
    """A card file's ids against the game's own cards (its catalog for ``variant``): an id
    of the file that is no card of the game while a near one of the game's is missing is a
    renamed card, refused (``CardDataError`` with the id to keep: the id is what the data,
    the reports and a comparison know a card by; ``name`` is free to change); ids the file
    adds or lacks otherwise are new or withdrawn cards, accepted with a ``TalesimWarning``
    listing them."""
    own = {row["id"] for row in engine.card_catalog(engine.load_cards(None), variant)}
    ids = list(dict.fromkeys(row["id"] for row in engine.card_catalog(cards, variant)))
    added = [i for i in ids if i not in own]
    missing = sorted(own.difference(ids))
    for new in added:
        hint = did_you_mean(new, missing)
        if hint:
            raise CardDataError(
                path,
                f"no card of {g.name} has this id, and a card near it is missing{hint} (a "
                "card keeps its id when edited: change its name, not its id; a new card "
                "needs an id of its own)",
                card=new,
                field="id",
            )
    if added or missing:
        parts = [f"adds {len(added)} card(s) ({_listed(added)})"] if added else []
        parts += [f"lacks {len(missing)} of the game's ({_listed(missing)})"] if missing else []
        warnings.warn(f"{path} {' and '.join(parts)}", TalesimWarning, stacklevel=3)


def _listed(ids: Sequence[str], most: int = 8) -> str:
    """``a, b, c`` (the first ``most``, then how many more)."""
    more = f" and {len(ids) - most} more" if len(ids) > most else ""
    return ", ".join(ids[:most]) + more


def setup(
    game: str,
    *,
    variant: str | None,
    players: int,
    policies: str | Sequence[str],
    cards_path: Path | str | None = None,
    rotate_seats: bool = False,
    policies_file: Path | str | None = None,
) -> Setup:
    """Validate a game request and prepare the engine; nothing is written anywhere.

    Order: game, variant and player count, policies (registry only, no engine import:
    each seat's spec parsed and written in canonical form, ``simcore.policy_spec``), then
    the card file and the engine's own checks (``load_cards``, ``prepare``, which get the
    canonical specs).
    Raises ``GameError`` or ``CardDataError``.
    """
    g = registry.get_game(game)
    check_int("players", players, 1)
    v = g.check_players(variant, players)
    seat_policies, named = canonical_specs(g, expand_policies(policies, players), policies_file)
    path = Path(cards_path) if cards_path is not None else None
    if path is not None and not path.exists():
        raise CardDataError(path, "file not found")
    engine = registry.engine(g)
    cards = engine.load_cards(path)
    if path is not None:
        check_card_ids(g, v.name, engine, cards, path)
    base_of = {p.name: p.base for p in named}
    specs = [g.parse_policy(p, list(base_of)) for p in seat_policies]
    as_base = [_as_base(spec, base_of) for spec in specs]
    prepared = engine.prepare(cards, v.name, players, as_base, rotate_seats)
    from talesim.simcore import engine_kit  # numpy: not at import time (``talesim --help``)

    plays = {spec.name for spec in specs} | {
        str(spec["playout"]) for spec in specs if "playout" in dict(spec.values)
    }
    used = [p for p in named if p.name in plays]
    if used:
        prepared = engine_kit.with_named(prepared, used, seat_policies)
    prepared = engine_kit.with_models(prepared)
    return Setup(g, v.name, players, seat_policies, rotate_seats, engine, cards, prepared)


def _named_record(prepared: Any) -> dict[str, Any] | None:
    """The named policies the seats play, as the manifest stores them (None: none)."""
    named = getattr(prepared, "named", ())
    if not named:
        return None
    return {
        p.name: (
            {"base": p.base, "model": p.model.path, "model_sha256": p.model.sha256}
            if p.base == "learned"
            else {"base": p.base, "weights": list(p.weights)}
        )
        for p in named
    }


def _as_base(spec: Spec, base_of: dict[str, str]) -> str:
    """Seat ``spec`` with each named policy (the seat's, an mc seat's playout) replaced by
    its base: what ``engine.prepare`` checks before ``with_named`` adds the named ones."""
    if spec.name in base_of:
        return base_of[spec.name]
    values = dict(spec.values)
    playout = values.get("playout")
    if playout in base_of:
        values["playout"] = base_of[str(playout)]
    return Spec(spec.name, tuple(values.items())).canonical


def _models_record(prepared: Any) -> list[dict[str, str]] | None:
    """The learned seats' models as the manifest records them: the file each was read from
    and its sha256 (None: no learned seat)."""
    models = getattr(prepared, "models", ())
    return [{"file": Path(m.path).name, "sha256": m.sha256} for m in models] if models else None


def canonical_specs(
    g: Game, specs: Sequence[str], policies_file: Path | str | None
) -> tuple[list[str], tuple[NamedPolicy, ...]]:
    """Each spec in canonical form, a policies file's named specs replaced by what they
    name (checked like a ``--policy``), and the file's weighted named policies."""
    named = named_policies(g, policies_file)
    aliases = {p.name: p.spec for p in named if p.spec}
    weighted = tuple(p for p in named if not p.spec)
    names = [p.name for p in weighted]  # an alias's mc may play them out (playout=NAME)
    for name, spec in aliases.items():
        try:
            g.parse_policy(spec, names)
        except GameError as exc:
            raise CardDataError(Path(str(policies_file)), f"policy '{name}': {exc}") from None
    canonical = g.canonical_policies([aliases.get(p.strip(), p) for p in specs], names)
    return canonical, weighted


def named_policies(g: Game, path: Path | str | None) -> tuple[NamedPolicy, ...]:
    """The policies a ``--policies-file`` defines for game ``g`` (none without a file;
    ``CardDataError`` for a bad file)."""
    if path is None:
        return ()
    from talesim.simcore.policy_file import load

    engine = registry.engine(g)
    n_weights = int(engine.default_weights().shape[1])
    named = load(Path(path), g.name, g.policies, n_weights, g.weighted_policies)
    return tuple(_with_model(g, p) for p in named)


def _with_model(g: Game, p: NamedPolicy) -> NamedPolicy:
    """A named learned policy with its model loaded (``simcore.learned.load``; any other
    policy as it is)."""
    if p.base != "learned":
        return p
    from dataclasses import replace

    from talesim.simcore import learned

    model = learned.load(p.model_path, g.name, g.learned_features, g.decision_kinds)
    return replace(p, model=model)


# --- chunks and files --------------------------------------------------------------------


def plan_chunks(n_games: int, chunk_size: int) -> list[Chunk]:
    """Chunk ``i`` covers game ids ``[i*K, min((i+1)*K, N))``; together they cover ``[0, N)``."""
    check_int("games", n_games, 1)
    check_int("chunk size", chunk_size, 1)
    return [
        Chunk(i, first, min(chunk_size, n_games - first))
        for i, first in enumerate(range(0, n_games, chunk_size))
    ]


def part_path(out: Path, table: str, index: int) -> Path:
    """Where chunk ``index`` of ``table`` is stored."""
    return out / table / PART_NAME.format(index=index)


def _temp_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _atomic_write(path: Path, write: Callable[[Path], object]) -> None:
    """Run ``write(temp)`` then rename temp over ``path``; no temp file survives a failure."""
    tmp = _temp_path(path)
    try:
        write(tmp)
        _fsync(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_part(part: pl.DataFrame | EncodedPart, path: Path) -> None:
    """Write one Parquet part atomically (a frame is encoded with ``encode_part`` first).

    The disk only ever sees plain byte writes, so a full disk or a refused permission is
    the ``OSError`` it is (with its errno), never a polars error.
    """
    data = (part if isinstance(part, EncodedPart) else encode_part(part)).data
    _atomic_write(path, lambda tmp: tmp.write_bytes(data))


def write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    """Write ``OUT/manifest.json`` atomically."""
    text = json.dumps(manifest, indent=2) + "\n"
    _atomic_write(out / MANIFEST, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def read_manifest(out: Path) -> dict[str, Any]:
    """The manifest of run directory ``out``; ``RunDirError`` if missing or unreadable."""
    path = Path(out) / MANIFEST
    if not path.is_file():
        raise RunDirError(f"{out} is not a talesim run (no {MANIFEST})")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RunDirError(f"{path} is not a readable manifest ({exc})") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("chunks"), list):
        raise RunDirError(f"{path} is not a talesim manifest (no chunk list)")
    return manifest


def is_complete(out: Path) -> bool:
    """``out`` holds a finished run (a manifest saying "complete")."""
    return (Path(out) / MANIFEST).is_file() and read_manifest(out).get("status") == "complete"


def _remove_temp_files(out: Path, tables: Sequence[str]) -> None:
    for name in [".", *tables]:
        directory = out / name
        if directory.is_dir():
            for tmp in directory.glob(TEMP_GLOB):
                tmp.unlink(missing_ok=True)


def _clear_run(out: Path, tables: Sequence[str]) -> None:
    """Delete a previous run's parts, card-data copy and manifest, the manifest last: a
    run killed in between is never parts without a manifest, nor a directory that
    ``_check_out`` would refuse to overwrite.

    Only ``part-*.parquet`` and temp files are removed from table directories, which are
    then removed if empty; anything else a user put in ``out`` stays.
    """
    import shutil

    _remove_temp_files(out, tables)
    for table in tables:
        directory = out / table
        if directory.is_dir():
            for part in directory.glob(PART_GLOB):
                part.unlink()
            if not any(directory.iterdir()):
                directory.rmdir()
    shutil.rmtree(out / CARD_COPIES, ignore_errors=True)
    (out / MANIFEST).unlink(missing_ok=True)


def _only_leftovers(out: Path) -> bool:
    """``out`` holds nothing but what a run killed as it started leaves before its manifest
    exists: temp files of atomic writes, empty directories and the card-data copy."""
    for entry in out.iterdir():
        if entry.name == CARD_COPIES and entry.is_dir():
            continue
        if entry.is_file() and entry.match(TEMP_GLOB):
            continue
        if entry.is_dir() and not any(entry.iterdir()):
            continue
        return False
    return True


def _check_out(out: Path, *, resume: bool, overwrite: bool) -> dict[str, Any] | None:
    """Decide whether ``out`` may be used; return the old manifest when resuming."""
    if out.exists() and not out.is_dir():
        raise RunDirError(f"{out} exists and is not a directory")
    non_empty = out.is_dir() and any(out.iterdir())
    if resume:
        if not (out / MANIFEST).is_file():
            raise RunDirError(f"cannot resume: {out} is not a talesim run (no {MANIFEST})")
        return read_manifest(out)
    if non_empty and not overwrite:
        raise RunDirError(
            f"{out} already exists and is not empty; use --resume to finish the run in it "
            "or --overwrite to replace it"
        )
    if non_empty and not (out / MANIFEST).is_file() and not _only_leftovers(out):
        raise RunDirError(
            f"refusing to overwrite {out}: it has no {MANIFEST}, so it does not look like "
            "a talesim run"
        )
    return None


def _check_resumable(
    old: dict[str, Any], request: dict[str, Any], out: Path, *, until_ci: bool
) -> None:
    """``RunDirError`` unless ``request`` may resume the run of manifest ``old``: every
    ``RESUME_KEYS`` equal, but ``n_games`` (a maximum) with ``until_ci``, or a larger
    ``n_games`` for a complete run (``_extends``); an unfinished until-ci run is resumed
    with ``until_ci`` only (its ``n_games`` is no run size)."""
    previous = old.get("until_ci")
    if not until_ci and isinstance(previous, dict) and old.get("status") != "complete":
        raise RunDirError(
            f"cannot resume {out}: it is an unfinished --until-ci run (half-width "
            f"{_show(previous.get('half_width'))}); resume it with --until-ci"
        )
    for key in RESUME_KEYS:
        if key == "n_games" and (until_ci or _extends(old, request)):
            continue
        if old.get(key) != request[key]:
            raise RunDirError(
                f"cannot resume {out}: {key} is {_show(old.get(key))} in the manifest but "
                f"{_show(request[key])} was requested"
            )


def _extends(old: dict[str, Any] | None, request: dict[str, Any]) -> bool:
    """Whether ``request`` extends the complete run of manifest ``old`` to more games (the
    games it holds are kept; more chunks of its chunk size follow)."""
    return (
        old is not None
        and old.get("status") == "complete"
        and isinstance(old.get("n_games"), int)
        and request["n_games"] > old["n_games"]
    )


def _show(value: object) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _jsonable(value: object) -> Any:
    """``value`` as it reads back from JSON (tuples become lists), for manifest comparisons."""
    return json.loads(json.dumps(value))


# --- progress ----------------------------------------------------------------------------


def _stderr_is_tty() -> bool:
    return sys.stderr.isatty()


class ProgressUpdate(Protocol):
    """``update(description, advance, total=None)``: a new description, ``advance`` more
    games done and, unless None, a new total."""

    def __call__(self, description: str, advance: int, total: int | None = None) -> None: ...


@contextmanager
def _progress(enabled: bool, total: int, completed: int) -> Iterator[ProgressUpdate]:
    """Yield ``update(description, advance, total=None)``; a rich bar on stderr when
    enabled, else no-op."""
    if not enabled:
        yield lambda description, advance, total=None: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class GamesPerSecond(ProgressColumn):
        """Games simulated per second (rich's moving estimate)."""

        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text("? games/s" if speed is None else f"{speed:,.0f} games/s")

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        GamesPerSecond(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=False,
    )
    with bar:
        task = bar.add_task("compiling", total=total, completed=completed)
        yield lambda description, advance, total=None: bar.update(
            task, description=description, advance=advance, total=total
        )


@contextmanager
def _numba_threads(threads: int | None) -> Iterator[None]:
    """Run the block with numba's (thread-local) thread count set to ``threads``."""
    if threads is None:
        yield
        return
    import numba

    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(previous)


# --- interruption ------------------------------------------------------------------------


@contextmanager
def _stop_on_sigint() -> Iterator[Callable[[], bool]]:
    """Yield ``stop_requested()``, true once SIGINT (Ctrl-C) arrived during the block.

    The first Ctrl-C only sets the flag, which the backends check between chunks; a second
    one raises ``KeyboardInterrupt`` at once. Python delivers signals to the main thread
    only, so elsewhere nothing is installed (the flag stays false), nor where SIGINT is
    ignored; the previous handler is restored on exit.
    """
    requested = threading.Event()
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) == signal.SIG_IGN  # e.g. nohup: keep ignoring it
    ):
        yield requested.is_set
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        if requested.is_set():
            raise KeyboardInterrupt
        requested.set()
        with suppress(OSError):  # os.write: print() is not reentrant inside a handler
            os.write(2, b"\nstopping after the chunk being computed (Ctrl-C again to abort)\n")

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield requested.is_set
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)


# --- backends ----------------------------------------------------------------------------


def _run_local(batch: Batch) -> float:
    """The local backend: kernels on this thread (numba threads), tables and writes on one
    other.

    The engine's ``simulate_arrays`` gives a chunk's result arrays; ``frames`` turns them
    into tables on the writer thread, so the next chunk's kernel runs meanwhile instead of
    leaving a core idle (Paper Tales: ~0.3 CPU-s of tables per 50,000 games, 20 times in a
    million). The writer owns the manifest while it runs (the caller reads it only after
    the pool has drained), so every manifest write happens after that chunk's parts are in
    place. Compilation (``warmup``) is excluded from the returned seconds.

    With ``--until-ci`` the writer also decides, after storing chunk ``i``, whether the run
    has enough (``batch.enough``). The kernel of chunk ``i+1`` has been running meanwhile;
    if it has enough, that chunk is dropped instead of stored. So the run stops exactly
    after chunk ``i`` and the pipelining stays; the price is one chunk's kernel time,
    once, at the end.
    """
    s = batch.setup
    if batch.chunks:
        s.engine.warmup(s.prepared)
    batch.update("simulating", 0)
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="talesim-writer") as pool:
        pending: Future[None] | None = None
        for chunk in batch.chunks:
            if batch.stop() or batch.enough():
                break
            t0 = time.perf_counter()
            result = s.engine.simulate_arrays(
                s.prepared, batch.seed, chunk.first_game, chunk.n_games, batch.check
            )
            seconds = time.perf_counter() - t0
            if pending is not None:
                pending.result()  # surface a write error before queueing more work
                if batch.enough():
                    break  # the chunks stored answer the question: this one is not needed
            pending = pool.submit(_store_chunk, batch, chunk, result, seconds)
            batch.update("simulating", chunk.n_games)
        if pending is not None:
            pending.result()
    return time.perf_counter() - start


def _store_chunk(batch: Batch, chunk: Chunk, arrays: Any, seconds: float) -> None:
    """The writer thread's work for one chunk: its tables from the engine's result arrays
    (their time added to the chunk's seconds), checked, then stored."""
    t0 = time.perf_counter()
    s = batch.setup
    tables = s.engine.frames(s.prepared, arrays, chunk.first_game)
    check_frames(s.game, chunk, tables)
    batch.store(chunk, tables, seconds + time.perf_counter() - t0)


def _check_backend(backend: str, scheduler: str | None, threads: int | None) -> None:
    """Validate ``backend``, ``scheduler`` and, for dask, ``threads`` (the worker count)."""
    if backend not in BACKENDS:
        raise RunError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if scheduler is not None and backend != "dask":
        raise RunError("--scheduler needs --backend dask")
    if backend == "dask" and threads is not None:
        check_int("threads", threads, 1)
        if scheduler is not None:
            raise RunError(
                "--threads sets the number of workers of a local Dask cluster; with "
                "--scheduler start the workers with `dask worker --nworkers N` instead"
            )


# --- the run -----------------------------------------------------------------------------


def simulate(
    game: str,
    *,
    variant: str | None = None,
    players: int,
    policies: str | Sequence[str],
    seed: int,
    n_games: int,
    out: Path | str,
    cards_path: Path | str | None = None,
    rotate_seats: bool = False,
    policies_file: Path | str | None = None,
    until_ci: float | None = None,
    resume: bool = False,
    overwrite: bool = False,
    options: RunOptions | None = None,
    **how: Any,
) -> RunResult:
    """Simulate games ``0 .. n_games-1`` of ``game`` with ``seed`` into run directory ``out``.

    ``policies``: one name for all seats or one per seat (list or comma-separated string).
    ``resume``: finish the run in ``out`` (its manifest must match the request).
    ``overwrite``: replace the run in ``out`` (only a directory holding a manifest).

    ``options`` (``RunOptions``): how the games are computed and shown; ``how``: any of
    its fields given by name (``chunk_size=7, progress=False``), over ``options``.
    ``chunk_size`` default ``min(50_000, n_games)``; when resuming, the manifest's.
    ``backend``: ``"local"`` (numba threads in this process; ``threads``: their number,
    default numba's) or ``"dask"`` (chunks as tasks on the Dask cluster at ``scheduler``,
    or on a ``LocalCluster`` of ``threads`` single-threaded worker processes, default one
    per core). The data is identical whatever the backend. ``check``: a violation of a
    rule invariant raises ``simcore.registry.InvariantError``; recorded in the manifest,
    but a checked and an unchecked run store the same games, so it does not affect
    ``resume``.

    ``until_ci``: a win-share half-width H. The run goes chunk by chunk and stops after
    the first chunk after which every judged card's 95% half-width is at most H
    (``simcore.until_ci``); ``n_games`` is then the maximum (reached: stopped
    "max-games"). The run directory is then exactly a run of the games stored, ``N'`` (a
    whole number of chunks, or ``n_games``), with the manifest's ``until_ci`` block
    saying why it stopped. Default chunk size ``until_ci.DEFAULT_CHUNK_SIZE``. With
    ``resume`` it finishes an interrupted until-ci run (H and the maximum may change),
    or extends a complete run of either kind with more chunks of its chunk size (a
    last chunk smaller than the chunk size is played again whole), never stopping below
    its games; a maximum below the games already stored is refused (``RunDirError``), and
    so is a fixed-size ``resume`` of an unfinished until-ci run. A fixed-size ``resume``
    with a larger ``n_games`` extends a complete run the same way, to exactly
    ``n_games``.

    Raises ``GameError``, ``CardDataError`` or ``RunError``/``RunDirError`` on bad input
    (including an unreachable scheduler or a missing dask install), always before creating
    or changing anything on disk; ``RunWriteError`` if the disk refuses a write,
    ``batch.RunStoppedError`` if the Dask workers running a chunk kept dying, and
    ``RunInterrupted`` after a Ctrl-C (the run is resumable after each, on either backend).
    """
    o = dataclasses.replace(options or RunOptions(), **how)
    until_ci = _check_request(seed, n_games, until_ci, o, resume=resume, overwrite=overwrite)
    out = Path(out)
    s = setup(
        game,
        variant=variant,
        players=players,
        policies=policies,
        cards_path=cards_path,
        rotate_seats=rotate_seats,
        policies_file=policies_file,
    )
    s.game.check_kernel(s.variant)
    tables = list(s.game.tables)
    if until_ci is not None:
        ci.needs_tables(tables)
    if o.backend == "local":
        check_threads(o.threads)
    old = _check_out(out, resume=resume, overwrite=overwrite)
    request = _request(s, seed, n_games, _chunk_size(o.chunk_size, old, n_games, until_ci), o)
    if old is not None:
        _check_resumable(old, request, out, until_ci=until_ci is not None)
    plan = plan_chunks(n_games, request["chunk_size"])
    kept = _kept_chunks(old, plan, out, tables)
    block, tracker = _until_ci_start(until_ci, old, request, out, tables, kept)
    run = _Started(out, s, o, request, tables, plan, kept, block, tracker)

    with ExitStack() as stack:
        run_batch: Callable[[Batch], float] = _run_local
        if o.backend != "local":
            from talesim.simcore import dask_backend  # the only place dask gets imported

            # reach the cluster (or start one) before the first file is written
            run_batch = stack.enter_context(dask_backend.connect(o.scheduler, workers=o.threads))

        # Everything is valid: from here on the disk changes.
        manifest = _start_run(run, old, overwrite=overwrite)
        batch = stack.enter_context(_batch(run, manifest))
        seconds = run_batch(batch)
        if tracker is not None:
            batch.update("simulated", 0)  # the verdict of the last chunk stored
    return _finish(run, manifest, seconds, interrupted=batch.stop())


def _check_request(
    seed: int,
    n_games: int,
    until_ci: float | None,
    o: RunOptions,
    *,
    resume: bool,
    overwrite: bool,
) -> float | None:
    """The checks of a run request that need neither the game nor the disk; returns the
    ``until_ci`` half-width, checked."""
    check_seed(seed)
    check_int("games", n_games, 1)
    if until_ci is not None:
        until_ci = ci.check_half_width(until_ci)
    if o.chunk_size is not None:
        check_int("chunk size", o.chunk_size, 1)
    if resume and overwrite:
        raise RunError("--resume and --overwrite cannot be combined")
    _check_backend(o.backend, o.scheduler, o.threads)
    return until_ci


def _chunk_size(
    asked: int | None, old: dict[str, Any] | None, n_games: int, until_ci: float | None
) -> int:
    """The run's chunk size: the one asked, else the resumed run's, else the default (of a
    fixed-size or an until-ci run); never above ``n_games``."""
    if old is not None and asked is None and isinstance(old.get("chunk_size"), int):
        asked = old["chunk_size"]
    default = DEFAULT_CHUNK_SIZE if until_ci is None else ci.DEFAULT_CHUNK_SIZE
    return min(asked or default, n_games)


def _request(s: Setup, seed: int, n_games: int, chunk_size: int, o: RunOptions) -> dict[str, Any]:
    """The request as the manifest records it (``RESUME_KEYS`` and ``check``)."""
    return {
        "game": s.game.name,
        "variant": s.variant,
        "players": s.players,
        "policies": s.policies,
        "rotate_seats": s.rotate_seats,
        "seed": seed,
        "n_games": n_games,
        "chunk_size": chunk_size,
        "card_sha256": str(s.cards.sha256),
        "config": _jsonable(s.prepared.config()),
        "named_policies": _named_record(s.prepared),
        "check": o.check,
        "models": _models_record(s.prepared),
    }


@dataclass(frozen=True)
class _Started:
    """A run as ``simulate`` decided it before the disk changed: the run directory, the
    validated setup and options, the manifest's request, the tables, the plan, the chunks
    kept from a resumed run, the manifest's ``until_ci`` block and the until-ci tracker
    (both None for a run of a fixed size)."""

    out: Path
    setup: Setup
    options: RunOptions
    request: dict[str, Any]
    tables: list[str]
    plan: list[Chunk]
    kept: set[int]
    block: dict[str, Any] | None
    tracker: ci.Tracker | None


@contextmanager
def _batch(run: _Started, manifest: dict[str, Any]) -> Iterator[Batch]:
    """The chunks still missing, handed to a backend, while a Ctrl-C stops between chunks,
    numba runs the options' threads (local backend) and the progress bar shows."""
    o, tracker, plan = run.options, run.tracker, run.plan
    met = tracker is not None and tracker.stop_at is not None
    todo = [] if met else [plan[e["index"]] for e in manifest["chunks"] if not e["done"]]
    resumed_games = sum(plan[i].n_games for i in run.kept)
    with ExitStack() as stack:
        stop_requested = stack.enter_context(_stop_on_sigint())
        stack.enter_context(_numba_threads(o.threads if o.backend == "local" else None))
        update = stack.enter_context(
            _progress(o.progress and _stderr_is_tty(), run.request["n_games"], resumed_games)
        )
        store = _chunk_store(run.out, run.tables, manifest, o.check, tracker)
        batch = Batch(run.setup, run.request["seed"], todo, o.check, store, update, stop_requested)
        if tracker is not None:
            batch = _until_ci_batch(batch, tracker, update, plan)
        yield batch


def _finish(
    run: _Started, manifest: dict[str, Any], seconds: float, *, interrupted: bool
) -> RunResult:
    """After the chunk loop: every chunk is stored (else ``RunInterrupted`` after a
    Ctrl-C), an until-ci run is cut to the chunks that met its criterion, and the manifest
    says "complete"."""
    out, plan, tracker, block = run.out, run.plan, run.tracker, run.block
    keep = len(plan) if tracker is None or tracker.stop_at is None else tracker.stop_at
    missing = sum(1 for e in manifest["chunks"][:keep] if not e["done"])
    if missing:
        if interrupted:
            done = sum(1 for e in manifest["chunks"] if e["done"])
            raise RunInterrupted(out, done, len(plan))
        raise RuntimeError(
            f"the {run.options.backend} backend returned with {missing} chunks missing"
        )
    if tracker is not None and block is not None:
        _keep_prefix(out, manifest, run.tables, keep)
        v = tracker.verdict
        block.update(
            stopped="half-width" if tracker.stop_at is not None else "max-games",
            largest_half_width=v.largest if v is not None else None,
            widest=v.widest if v is not None else None,
            judged=v.judged if v is not None else 0,
        )
    manifest["status"] = "complete"
    manifest["finished"] = _now()
    try:
        write_manifest(out, manifest)
    except OSError as exc:
        raise RunWriteError(out / MANIFEST, exc, resumable=True) from exc
    stored = int(manifest["n_games"])
    resumed_games = sum(plan[i].n_games for i in run.kept if i < keep)
    games = stored - resumed_games
    why = block or {}
    return RunResult(
        out=out,
        games=games,
        seconds=seconds,
        games_per_s=games / seconds if seconds > 0 else 0.0,
        n_games=stored,
        resumed_games=resumed_games,
        stopped=why.get("stopped"),
        largest_half_width=why.get("largest_half_width"),
        widest=why.get("widest"),
        judged=why.get("judged"),
    )


def _until_ci_start(
    half_width: float | None,
    old: dict[str, Any] | None,
    request: dict[str, Any],
    out: Path,
    tables: list[str],
    kept: set[int],
) -> tuple[dict[str, Any] | None, ci.Tracker | None]:
    """The manifest's ``until_ci`` block of a run starting (or resuming) in until-ci mode,
    and its tracker, given the statistics of the chunks already stored (``kept``). A run
    of a fixed size has no tracker, and a block only when it extends a complete until-ci
    run (which stays what it was)."""
    if half_width is None:
        if old is not None and old.get("status") == "complete" and not _extends(old, request):
            return old.get("until_ci"), None
        return None, None
    n_games = request["n_games"]
    extended_from = _extended_from(old, n_games, out)
    block = {
        "half_width": half_width,
        "max_games": n_games,
        "extended_from": extended_from,  # games of the complete run this one extends
        "stopped": None,
        "largest_half_width": None,
        "widest": None,
        "judged": None,
    }
    min_chunks = -(-extended_from // request["chunk_size"])  # ceil: never shortened
    tracker = ci.Tracker(half_width, request["players"], min_chunks)
    for index in sorted(kept):
        if tracker.stop_at is not None:
            break  # the stored prefix decides
        tracker.add(index, _stored_stats(out, tables, index, request["players"]))
    return block, tracker


def _until_ci_batch(
    batch: Batch, tracker: ci.Tracker, bar: ProgressUpdate, plan: list[Chunk]
) -> Batch:
    """``batch`` that has ``enough`` once ``tracker`` met its criterion, and whose progress
    bar shows the largest judged half-width against the target, out of the games the
    criterion predicts: half-widths shrink as 1/sqrt(games), so about ``games x (largest /
    H)^2``, rounded up to a chunk, at least one more chunk, at most the maximum."""
    chunk_size = plan[0].n_games
    n_games = plan[-1].first_game + plan[-1].n_games

    def update(description: str, advance: int) -> None:
        v = tracker.verdict
        if v is None or v.largest is None:
            bar(description, advance)
            return
        if tracker.stop_at is not None:
            total = plan[tracker.stop_at - 1].first_game + plan[tracker.stop_at - 1].n_games
        else:
            games = tracker.prefix * chunk_size
            needed = games * (v.largest / tracker.half_width) ** 2
            chunks = max(tracker.prefix + 1, math.ceil(needed / chunk_size))
            total = min(n_games, chunks * chunk_size)
        target = f"(±{v.largest:.4f}, target ±{tracker.half_width:g})"
        bar(f"{description} {target}", advance, total)

    return dataclasses.replace(batch, update=update, enough=lambda: tracker.stop_at is not None)


def _extended_from(old: dict[str, Any] | None, n_games: int, out: Path) -> int:
    """Games an until-ci run may not stop below: those of the complete run it resumes (or
    that an interrupted until-ci run was extending); ``RunDirError`` if the run already
    holds games beyond ``n_games``, the maximum."""
    if old is None:
        return 0
    ends = [
        e["first_game"] + e["n_games"]
        for e in old["chunks"]
        if isinstance(e, dict) and e.get("done") is True
    ]
    held = max(ends, default=0)
    if held > n_games:
        raise RunDirError(
            f"cannot resume {out}: it holds games up to {held:,}, more than the maximum "
            f"--games {n_games:,}"
        )
    if old.get("status") == "complete":
        return int(old["n_games"])
    previous = old.get("until_ci")
    return int(previous.get("extended_from") or 0) if isinstance(previous, dict) else 0


def _stored_stats(out: Path, tables: list[str], index: int, players: int) -> pl.DataFrame:
    """``until_ci.chunk_stats`` of stored chunk ``index``, read from its parts; an
    unreadable part is a ``RunDirError`` (nothing has been written yet)."""
    import polars as pl

    paths = {t: part_path(out, t, index) for t in tables}
    try:
        return ci.chunk_stats(paths, players)
    except (pl.exceptions.PolarsError, OSError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise RunDirError(f"cannot resume {out}: chunk {index} is unreadable ({first})") from None


def _keep_prefix(out: Path, manifest: dict[str, Any], tables: list[str], keep: int) -> None:
    """Make ``out`` the run of its first ``keep`` chunks: delete every part beyond them (a
    chunk the dask backend stored past the stopping point, a part of an earlier, longer
    plan) and cut the manifest's chunk list and game count to match.

    Chunks marked done beyond ``keep`` are first marked not done on disk, so the manifest
    never lists a chunk whose parts are gone; if the process dies in between, the run is
    resumable as it was.
    """
    beyond = [e for e in manifest["chunks"][keep:] if e["done"]]
    try:
        if beyond:
            for entry in beyond:
                entry.update(done=False, seconds=None, rows=None, checked=False)
            write_manifest(out, manifest)
        for table in tables:
            for part in (out / table).glob(PART_GLOB):
                index = part.name.removeprefix("part-").removesuffix(".parquet")
                if index.isdigit() and int(index) >= keep:
                    part.unlink()
    except OSError as exc:
        where = Path(exc.filename) if exc.filename else out / MANIFEST
        raise RunWriteError(where, exc, resumable=True) from exc
    manifest["chunks"] = manifest["chunks"][:keep]
    manifest["n_games"] = sum(int(e["n_games"]) for e in manifest["chunks"])
    manifest["simulation_seconds"] = _total_seconds(manifest["chunks"])


def _start_run(run: _Started, old: dict[str, Any] | None, *, overwrite: bool) -> dict[str, Any]:
    """Prepare ``run.out`` for the chunk loop and write the starting manifest (the chunks
    ``run.kept`` done, with the ``until_ci`` block, if any); return it.

    The manifest is written before the table directories are created, so if the disk
    refuses (``RunWriteError``), ``out`` holds either a resumable run or nothing that
    blocks running the same command again (a directory this call created is removed).
    """
    out, tables = run.out, run.tables
    created = not out.exists()
    try:
        if overwrite and (out / MANIFEST).is_file():
            _clear_run(out, sorted(set(tables) | set(_old_tables(out))))
        out.mkdir(parents=True, exist_ok=True)
        _remove_temp_files(out, tables)
        manifest = _new_manifest(run, old)
        try:
            write_manifest(out, manifest)
        except OSError as exc:
            if created:
                with suppress(OSError):
                    out.rmdir()
            raise RunWriteError(out / MANIFEST, exc, resumable=old is not None) from exc
        for table in tables:
            (out / table).mkdir(exist_ok=True)
        _copy_card_files(out, run.setup.cards.files, manifest["card_copies"])
    except OSError as exc:
        where = Path(exc.filename) if exc.filename else out
        raise RunWriteError(where, exc, resumable=(out / MANIFEST).is_file()) from exc
    return manifest


#: The run's own copy of the card data it was played with (``RUN/card-data/<file>``), so
#: ``compare`` can list what changed even after the card file is edited or deleted.
CARD_COPIES = "card-data"


def card_copy_names(files: Sequence[Path | str]) -> list[str]:
    """Where the run keeps its copy of each card file, relative to the run: ``card-data/``
    and the file's name (numbered ``K-name`` when two files share a name)."""
    names = [Path(f).name for f in files]
    if len(set(names)) < len(names):
        names = [f"{i}-{name}" for i, name in enumerate(names)]
    return [f"{CARD_COPIES}/{name}" for name in names]


def _copy_card_files(out: Path, files: Sequence[Path | str], copies: Sequence[str]) -> None:
    """Copy the card files into the run (replacing an older copy: a resumed run has the
    same bytes, an overwritten one its own)."""
    import shutil

    shutil.rmtree(out / CARD_COPIES, ignore_errors=True)
    (out / CARD_COPIES).mkdir()
    for source, copy in zip(files, copies, strict=True):
        shutil.copyfile(source, out / copy)


def _old_tables(out: Path) -> list[str]:
    try:
        tables = read_manifest(out).get("tables", [])
    except RunDirError:
        return []
    return [t for t in tables if isinstance(t, str) and t and "/" not in t and t != ".."]


def _new_manifest(run: _Started, old: dict[str, Any] | None) -> dict[str, Any]:
    """The manifest at the start of this call; the chunks ``run.kept`` (``_kept_chunks``)
    stay done."""
    request = run.request
    previous = _previous_chunks(old)
    chunks = []
    for c in run.plan:
        entry: dict[str, Any] = {
            "index": c.index,
            "first_game": c.first_game,
            "n_games": c.n_games,
            "done": False,
            "seconds": None,
            "rows": None,
            "checked": False,
        }
        if c.index in run.kept:
            prev = previous[c.index]
            entry.update(
                done=True,
                seconds=prev.get("seconds"),
                rows=prev.get("rows"),
                checked=prev.get("checked") is True,
            )
        chunks.append(entry)
    return {
        "format": MANIFEST_FORMAT,
        "tool": "talesim",
        "version": simcore.__version__,
        "game": request["game"],
        "variant": request["variant"],
        "players": request["players"],
        "policies": request["policies"],
        "rotate_seats": request["rotate_seats"],
        "seed": request["seed"],
        "n_games": request["n_games"],
        "chunk_size": request["chunk_size"],
        "card_files": [str(Path(f).resolve()) for f in run.setup.cards.files],
        "card_copies": card_copy_names(run.setup.cards.files),
        "card_sha256": request["card_sha256"],
        "config": request["config"],
        "named_policies": request["named_policies"],
        **({"models": request["models"]} if request["models"] else {}),
        "check": request["check"],  # this call's; each chunk records its own as "checked"
        "tables": run.tables,
        "created": (old or {}).get("created") or _now(),
        "finished": None,
        "simulation_seconds": _total_seconds(chunks),
        **({"until_ci": run.block} if run.block is not None else {}),
        "status": "running",
        "chunks": chunks,
    }


def _previous_chunks(old: dict[str, Any] | None) -> dict[Any, dict[str, Any]]:
    return {e.get("index"): e for e in (old or {}).get("chunks", []) if isinstance(e, dict)}


def _kept_chunks(
    old: dict[str, Any] | None, plan: list[Chunk], out: Path, tables: list[str]
) -> set[int]:
    """The chunks of ``plan`` that ``old`` has done, with the same games and every part
    present: this call keeps them (an entry of another size, e.g. the short last chunk of
    a run being extended, is played again)."""
    previous = _previous_chunks(old)
    kept = set()
    for c in plan:
        prev = previous.get(c.index)
        if (
            prev is not None
            and prev.get("done") is True
            and prev.get("first_game") == c.first_game
            and prev.get("n_games") == c.n_games
            and all(part_path(out, t, c.index).is_file() for t in tables)
        ):
            kept.add(c.index)
    return kept


def _total_seconds(chunks: list[dict[str, Any]]) -> float:
    return round(sum(float(e["seconds"] or 0.0) for e in chunks if e["done"]), 6)


def _chunk_store(
    out: Path,
    tables: list[str],
    manifest: dict[str, Any],
    check: bool,
    tracker: ci.Tracker | None = None,
) -> ChunkStore:
    """``store(chunk, parts, seconds)``: write the chunk's parts (frames, or frames already
    encoded by a Dask worker), then mark the chunk done; with a ``tracker`` (``--until-ci``)
    then hand it the chunk's statistics.

    The manifest is rewritten only after every part of the chunk is in place, so a chunk
    marked done always has whole parts, and a failed write leaves it "not done" (resume
    redoes it). I/O failures become ``RunWriteError`` naming the file.
    """

    def store(
        chunk: Chunk, parts: Mapping[str, pl.DataFrame | EncodedPart], seconds: float
    ) -> None:
        rows = {}
        for table in tables:
            path = part_path(out, table, chunk.index)
            part = parts[table]
            try:
                write_part(part, path)
            except OSError as exc:
                raise RunWriteError(path, exc, resumable=True) from exc
            rows[table] = part.rows if isinstance(part, EncodedPart) else part.height
        entry = manifest["chunks"][chunk.index]
        entry.update(done=True, seconds=round(seconds, 6), rows=rows, checked=check)
        manifest["simulation_seconds"] = _total_seconds(manifest["chunks"])
        try:
            write_manifest(out, manifest)
        except OSError as exc:
            entry["done"] = False  # as on disk
            raise RunWriteError(out / MANIFEST, exc, resumable=True) from exc
        if tracker is not None:
            tracker.add(chunk.index, ci.chunk_stats(parts, tracker.players))

    return store
