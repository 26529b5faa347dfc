"""``talesim simulate``: play N seeded games into a Parquet run directory."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cli import options
from cli.errors import reported


def simulate(
    game: Annotated[str, typer.Argument(help="Game id (see `talesim games`).")],
    games: Annotated[int, typer.Option("--games", help="Number of games to simulate.")],
    players: options.Players,
    seed: options.Seed,
    policy: options.Policy,
    out: Annotated[Path, typer.Option("--out", help="Run directory to write.")],
    variant: options.Variant = None,
    cards_file: options.CardsFile = None,
    chunk_size: Annotated[
        int | None,
        typer.Option(
            "--chunk-size", help="Games per Parquet part (default 50000).", show_default=False
        ),
    ] = None,
    threads: Annotated[
        int | None,
        typer.Option("--threads", help="numba threads (default: all cores).", show_default=False),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Finish the interrupted run in --out.")
    ] = False,
    overwrite: Annotated[
        bool, typer.Option("--overwrite", help="Replace the run already in --out.")
    ] = False,
    rotate_seats: options.RotateSeats = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
    summary: Annotated[
        bool, typer.Option("--summary", help="Print win shares and card points afterwards.")
    ] = False,
) -> None:
    """Simulate GAMES seeded games of GAME and store them as a Parquet dataset in OUT."""
    with reported():
        from simcore import runner

        try:
            result = runner.simulate(
                game,
                variant=variant,
                players=players,
                policies=policy,
                seed=seed,
                n_games=games,
                out=out,
                cards_path=cards_file,
                chunk_size=chunk_size,
                threads=threads,
                resume=resume,
                overwrite=overwrite,
                rotate_seats=rotate_seats,
                progress=not quiet,
            )
        except KeyboardInterrupt:
            typer.echo(f"interrupted: finish the run with --resume --out {out}", err=True)
            raise typer.Exit(130) from None
    if summary:
        from rich.console import Console

        from reports.summary import render_summary, summarize

        render_summary(summarize(result.out), Console())
    resumed = f" ({result.resumed_games:,} were already done)" if result.resumed_games else ""
    typer.echo(
        f"{result.games:,} games in {result.seconds:.2f} s ({result.games_per_s:,.0f} games/s)"
        f"{resumed} -> {result.out}"
    )
