"""What the runner hands a backend and a backend hands back: the types and checks that
``simcore.runner`` (which owns the run directory) and every backend (the local one in the
runner, ``simcore.dask_backend``) share, in a module of their own so that neither imports
the other for them; and the settings a command hands the runner (``RunOptions``, and the
``RunSettings`` of the commands that make many runs).

A backend gets a ``Batch`` (a validated ``Setup``, the seed, the chunks still missing, where
results go), computes each ``Chunk`` with the game's engine, checks the tables with
``check_frames`` and hands them, or their ``encode_part`` encodings, to the batch's store.
Nothing here imports numba, polars or dask at import time.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from talesim.simcore.errors import TalesimError
from talesim.simcore.registry import Game

if TYPE_CHECKING:
    import polars as pl


class RunError(TalesimError, ValueError):
    """A bad run request (seed, counts, threads): reported to the user as one line."""


class RunStoppedError(RuntimeError):
    """A run stopped before its end for a cause outside its request: the Dask workers that
    ran one of its chunks kept dying (each death hands the chunk to another worker, until
    the scheduler gives up on it). One line naming the chunk and the cause; the chunks
    already stored are whole and marked done, so the run is resumable (``resume=True``,
    on any backend).
    """


@dataclass(frozen=True, kw_only=True)
class RunOptions:
    """How a run's games are computed, checked and shown, never which games they are: a
    run holds the same games whatever these are. A command builds them once from its
    options and hands them whole to every run it makes (``runner.simulate(...,
    options=...)``).

    ``chunk_size``: games per Parquet part (None: the runner's default, or the chunk size
    of the run being resumed); ``threads``: numba threads, or with the dask backend and no
    ``scheduler`` the local cluster's worker processes (None: one per core);
    ``backend``: ``"local"`` or ``"dask"``; ``scheduler``: a Dask scheduler's address;
    ``check``: the kernel in checking mode (every rule invariant after each step);
    ``progress``: a progress bar on stderr when it is a terminal."""

    chunk_size: int | None = None
    threads: int | None = None
    backend: str = "local"
    scheduler: str | None = None
    check: bool = False
    progress: bool = True

    def quiet(self) -> RunOptions:
        """These options without the progress bar: the runs of a command that shows its
        own progress (one step per run or per trial)."""
        return replace(self, progress=False)


@dataclass(frozen=True, kw_only=True)
class RunSettings:
    """What every command that runs many simulations (``balance``, ``tune``, ``ladder``) is
    asked: the game and seats, the seed and output directory, whether to resume the work
    already in it, and how the games run (``options``; its ``progress`` is the command's
    own bar, its runs show none)."""

    game: str
    variant: str | None
    players: int
    seed: int
    out: Path
    cards_path: Path | None = None
    resume: bool = False
    options: RunOptions = field(default_factory=RunOptions)


@dataclass(frozen=True, kw_only=True)
class StudySettings(RunSettings):
    """What the two Optuna searches (``tune``, ``balance``) are asked besides the run: the
    games each candidate plays, the trials, the games of the validation on fresh seeds
    (None: the search's count) and the study's storage (None: ``DIR/study.db``)."""

    n_games: int
    budget: int
    validation_games: int | None = None
    storage: str | None = None


@dataclass(frozen=True)
class Chunk:
    """Game ids ``first_game .. first_game + n_games - 1``, stored as part number ``index``."""

    index: int
    first_game: int
    n_games: int


@dataclass(frozen=True)
class Setup:
    """A validated game request with its engine, card set and prepared configuration."""

    game: Game
    variant: str
    players: int
    policies: list[str]
    rotate_seats: bool
    engine: ModuleType
    cards: Any
    prepared: Any


@dataclass(frozen=True)
class EncodedPart:
    """One table of one chunk, already encoded as Parquet (by ``encode_part``), and its rows."""

    data: bytes
    rows: int


def encode_part(frame: pl.DataFrame) -> EncodedPart:
    """``frame`` as the bytes of a Parquet part (zstd, column statistics on).

    Every part is encoded here, locally or on a Dask worker, so equal frames give equal
    bytes. The frame is rechunked first: Parquet pages follow the in-memory chunks, which
    depend on how a frame was built (e.g. an unpickled frame arrives in record batches).
    """
    buffer = io.BytesIO()
    frame.rechunk().write_parquet(buffer, compression="zstd", statistics=True)
    return EncodedPart(buffer.getvalue(), frame.height)


ChunkStore = Callable[[Chunk, "Mapping[str, pl.DataFrame | EncodedPart]", float], None]
Update = Callable[[str, int], None]


@dataclass(frozen=True)
class Batch:
    """The chunks still missing from a run, handed to a backend, and where results go.

    A backend computes ``engine_kit.run_chunk(engine, prepared, seed, first_game, n_games,
    check)`` for each chunk (in any order, anywhere), checks the frames with ``check_frames``, hands
    them, or their ``encode_part`` encodings, to ``store`` (which writes the parts and
    marks the chunk done in the manifest; only ever called from one thread at a time),
    reports ``update(description, games)`` and submits no new chunk once ``stop()`` is
    true. Once ``enough()`` is true (``--until-ci``: the chunks stored so far answer the
    question) it also stores no more chunks: one already computed is dropped. It returns
    the wall time of its chunk loop in seconds.
    """

    setup: Setup
    seed: int
    chunks: list[Chunk]
    check: bool
    store: ChunkStore
    update: Update
    stop: Callable[[], bool]
    enough: Callable[[], bool] = lambda: False


def check_frames(game: Game, chunk: Chunk, frames: dict[str, Any]) -> None:
    """Engine contract: exactly the game's tables, and one ``games`` row per game."""
    if set(frames) != set(game.tables):
        raise RuntimeError(
            f"{game.name} engine returned tables {sorted(frames)}, expected {sorted(game.tables)}"
        )
    if "games" in frames and frames["games"].height != chunk.n_games:
        raise RuntimeError(
            f"{game.name} engine returned {frames['games'].height} game rows for chunk "
            f"{chunk.index} ({chunk.n_games} games)"
        )
