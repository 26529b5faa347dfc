"""Option types shared by several commands (same flag, same help everywhere). What a
command does with them is the library function of the same name (``talesim.api``)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from enum import Enum, StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer


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


def call_library(function: Callable[..., Any], params: dict[str, Any]) -> Any:
    """Call the library function behind a command (``talesim.api``) with the command's own
    parameters (its ``locals()``): each of the function's arguments by name, an enum as its
    value, ``progress`` on unless ``--quiet``. A command therefore cannot pass a value the
    library would not have taken (``tests/test_api.py`` checks the two signatures agree)."""
    args: dict[str, Any] = {}
    for name in inspect.signature(function).parameters:
        if name == "progress":
            args[name] = not params.get("quiet", False)
        else:
            value = params[name]
            args[name] = value.value if isinstance(value, Enum) else value
    return function(**args)
