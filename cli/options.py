"""Option types shared by several commands (same flag, same help everywhere), and the one
place a command's run options become a ``RunOptions`` (``run_options``)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from simcore.batch import RunOptions


class Backend(StrEnum):
    """Where the chunks are computed."""

    local = "local"
    dask = "dask"


GameId = Annotated[str, typer.Argument(help="Game id (see `talesim games`).")]
Variant = Annotated[
    str | None,
    typer.Option(
        "--variant",
        "--rules",
        help="Rules variant (default: the game's default; see `talesim games`).",
        show_default=False,
    ),
]
CardsFile = Annotated[
    Path | None,
    typer.Option(
        "--cards",
        help="Card data file to use instead of the game's built-in cards.",
        show_default=False,
    ),
]
Players = Annotated[int, typer.Option("--players", help="Number of players.")]
Policy = Annotated[
    str,
    typer.Option(
        "--policy",
        help="Player policy for every seat, or a comma list with one policy per seat; a "
        "policy with parameters is NAME:key=value:..., e.g. mc:rollouts=16:top=4.",
    ),
]
Seed = Annotated[int, typer.Option("--seed", help="Run seed, 0 to 2**63-1.")]
Json = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
RotateSeats = Annotated[
    bool,
    typer.Option(
        "--rotate-seats",
        help="Rotate the policies around the table from game to game.",
    ),
]
PoliciesFile = Annotated[
    Path | None,
    typer.Option(
        "--policies-file",
        help="TOML file of named policies (a base heuristic and its weights, e.g. from "
        "`talesim tune`), usable in --policy by name.",
        show_default=False,
    ),
]
ValidationGames = Annotated[
    int | None,
    typer.Option(
        "--validation-games",
        help="Games of each validation run on fresh seeds (default: --games).",
        show_default=False,
    ),
]
Threads = Annotated[
    int | None,
    typer.Option("--threads", help="numba threads (default: all cores).", show_default=False),
]
Scheduler = Annotated[
    str | None,
    typer.Option(
        "--scheduler", help="Dask scheduler address (with --backend dask).", show_default=False
    ),
]
Storage = Annotated[
    str | None,
    typer.Option(
        "--storage",
        help="Optuna storage URL shared by several searching machines (default: sqlite "
        "OUT/study.db).",
        show_default=False,
    ),
]
Quiet = Annotated[bool, typer.Option("--quiet", help="No progress bar.")]
UntilCi = Annotated[
    float | None,
    typer.Option(
        "--until-ci",
        metavar="H",
        help="Play chunk by chunk (default 5000 games a chunk) until the 95% interval of "
        "every judged card's win share (a card, or DRAKO Legend, taken 100 times or more) "
        "has a half-width of at most H, e.g. 0.02; --games is then the maximum.",
        show_default=False,
    ),
]
Sampling = Annotated[
    str,
    typer.Option(
        "--sampling",
        help="adaptive: a candidate plays 1/8, 1/4, 1/2, then all of its games and stops once "
        "it is told apart; fixed: every game of every candidate.",
    ),
]
SearchOut = Annotated[Path, typer.Option("--out", help="Directory for the search and its page.")]
SearchBackend = Annotated[
    Backend, typer.Option("--backend", help="Where each candidate's chunks run.")
]
SearchResume = Annotated[
    bool, typer.Option("--resume", help="Continue the search already in --out.")
]


def run_options(
    threads: int | None,
    backend: Backend,
    scheduler: str | None,
    quiet: bool,
    *,
    chunk_size: int | None = None,
    check: bool = False,
) -> RunOptions:
    """How a command's games run, from its ``--threads``, ``--backend``, ``--scheduler``,
    ``--quiet`` (and ``--chunk-size``, ``--check`` where it has them): built once, handed
    on whole to the runner or to the command's requests."""
    return RunOptions(
        chunk_size=chunk_size,
        threads=threads,
        backend=backend.value,
        scheduler=scheduler,
        check=check,
        progress=not quiet,
    )


def study_settings(
    game: str,
    variant: str | None,
    players: int,
    games: int,
    budget: int,
    seed: int,
    out: Path,
    cards_file: Path | None,
    validation_games: int | None,
    storage: str | None,
    resume: bool,
    options: RunOptions,
) -> dict[str, Any]:
    """The fields every study request shares (``simcore.batch.StudySettings``: ``tune``,
    ``balance``), from the options both commands declare alike."""
    return {
        "game": game, "variant": variant, "players": players, "n_games": games,
        "budget": budget, "seed": seed, "out": out, "cards_path": cards_file,
        "validation_games": validation_games, "storage": storage, "resume": resume,
        "options": options,
    }  # fmt: skip
