"""``talesim simulate``: play N seeded games into a Parquet run directory.

Exit codes (see ``cli.errors``): 0 done; 1 the disk refused a write; 2 bad input (also an
unreachable Dask scheduler or a missing dask install); 3 ``--check`` found a broken rule
invariant; 130 interrupted by Ctrl-C. After 1 and 130 the run is finished with the same
command plus ``--resume``, which the message spells out.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from talesim import api
from talesim.cli import options
from talesim.cli.errors import EXIT_INTERRUPTED, reported
from talesim.cli.options import Backend

if TYPE_CHECKING:
    from talesim.simcore.runner import RunResult

# The options only ``simulate`` takes, or takes with a help of its own.
ChunkSize = Annotated[
    int | None,
    typer.Option(
        "--chunk-size",
        help="Games per Parquet part (default 50000; 5000 with --until-ci).",
        show_default=False,
    ),
]
Threads = Annotated[
    int | None,
    typer.Option(
        "--threads",
        help="numba threads (default: all cores); with --backend dask and no "
        "--scheduler, the number of local worker processes.",
        show_default=False,
    ),
]
BackendChoice = Annotated[
    Backend,
    typer.Option(
        "--backend",
        help="local: numba threads in this process; dask: chunks as tasks on a Dask "
        "cluster (--scheduler, or a local cluster started for the run).",
    ),
]
Scheduler = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="Dask scheduler address, e.g. tcp://HOST:8786 (with --backend dask).",
        show_default=False,
    ),
]
Check = Annotated[
    bool,
    typer.Option(
        "--check",
        help="Run the kernel in checking mode: verify every rule invariant after each "
        "step; stops at the first violation, naming seed and game id.",
    ),
]


def simulate(
    game: options.GameId,
    games: Annotated[
        int,
        typer.Option("--games", help="Number of games to simulate (with --until-ci: the maximum)."),
    ],
    players: options.Players,
    seed: options.Seed,
    policy: options.Policy,
    out: Annotated[Path, typer.Option("--out", help="Run directory to write.")],
    variant: options.Variant = None,
    cards_file: options.CardsFile = None,
    policies_file: options.PoliciesFile = None,
    chunk_size: ChunkSize = None,
    threads: Threads = None,
    backend: BackendChoice = Backend.local,
    scheduler: Scheduler = None,
    check: Check = False,
    resume: Annotated[
        bool, typer.Option("--resume", help="Finish the interrupted run in --out.")
    ] = False,
    overwrite: Annotated[
        bool, typer.Option("--overwrite", help="Replace the run already in --out.")
    ] = False,
    rotate_seats: options.RotateSeats = False,
    until_ci: options.UntilCi = None,
    quiet: options.Quiet = False,
    summary: Annotated[
        bool, typer.Option("--summary", help="Print win shares and card points afterwards.")
    ] = False,
) -> None:
    """Simulate GAMES seeded games of GAME and store them as a Parquet dataset in OUT
    (with --until-ci: until the card win shares are that precise, GAMES at most)."""
    params = dict(locals())  # the arguments, handed on by name to the library
    args: list[str] = [game, "--games", str(games), "--players", str(players)]
    args += ["--seed", str(seed), "--policy", policy, "--out", str(out)]
    args += ["--variant", variant] if variant is not None else []
    args += ["--cards", str(cards_file)] if cards_file is not None else []
    args += ["--policies-file", str(policies_file)] if policies_file is not None else []
    args += ["--chunk-size", str(chunk_size)] if chunk_size is not None else []
    args += ["--threads", str(threads)] if threads is not None else []
    args += ["--backend", backend.value] if backend is not Backend.local else []
    args += ["--scheduler", scheduler] if scheduler is not None else []
    args += ["--until-ci", str(until_ci)] if until_ci is not None else []
    flags = {"--check": check, "--rotate-seats": rotate_seats, "--quiet": quiet}
    args += [flag for flag, on in flags.items() if on]
    again = shlex.join(["talesim", "simulate", *args, "--resume"])

    with reported():
        from talesim.simcore import runner

        try:
            run = options.call_library(api.simulate, params)
        except runner.RunInterrupted as exc:
            typer.echo(f"{exc}; finish with: {again}", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except KeyboardInterrupt:
            if (out / runner.MANIFEST).is_file():
                typer.echo(
                    f"aborted; the chunks already written are kept; finish with: {again}", err=True
                )
            else:
                typer.echo("aborted before anything was written", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None
    result = run.simulation
    assert result is not None  # simulate always says what it did
    if summary:
        from rich.console import Console

        from talesim.reports.summary import render_summary, summarize

        render_summary(summarize(result.out), Console())
    resumed = f" ({result.resumed_games:,} were already done)" if result.resumed_games else ""
    typer.echo(
        f"{result.games:,} games in {result.seconds:.2f} s ({result.games_per_s:,.0f} games/s)"
        f"{resumed} -> {result.out}"
    )
    if until_ci is not None:
        typer.echo(stop_line(result, until_ci))


def stop_line(result: RunResult, half_width: float) -> str:
    """Why an ``--until-ci`` run stopped, in one line."""
    if result.largest_half_width is None:
        judged = "no card taken often enough to be judged"
    else:
        judged = f"largest {result.largest_half_width:.4f}: {result.widest}; {result.judged} judged"
    if result.stopped == "half-width":
        return (
            f"stopped at {result.n_games:,} games: every judged card's 95% win-share "
            f"half-width is at most {half_width:g} ({judged})"
        )
    return (
        f"stopped at the maximum, {result.n_games:,} games, before every judged card's 95% "
        f"win-share half-width was at most {half_width:g} ({judged})"
    )
