"""``talesim ladder``: ratings of several players from a paired tournament, self-play runs
per player, and card verdicts across strength (``simcore.ladder``).

Exit codes as ``talesim simulate``: 0 done, 2 bad input before anything is written, 130
interrupted (``--resume`` finishes the ladder in OUT).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from talesim import api
from talesim.cli import options
from talesim.cli.errors import reported, resumable
from talesim.cli.options import Backend

if TYPE_CHECKING:
    from talesim.simcore.ladder import Outcome


def ladder(
    game: options.GameId,
    players: options.Players,
    policies: Annotated[
        str,
        typer.Option(
            "--policies",
            help="Policy specs, weakest first as you believe, comma-separated; SPEC@N gives "
            "that policy's level its own game count (e.g. random,greedy,mc:rollouts=4@2000).",
        ),
    ],
    games: Annotated[
        int,
        typer.Option("--games", help="Games of each self-play level (SPEC@N: that level's own)."),
    ],
    seed: options.Seed,
    out: Annotated[Path, typer.Option("--out", help="Directory for the runs and the page.")],
    variant: options.Variant = None,
    cards_file: options.CardsFile = None,
    policies_file: options.PoliciesFile = None,
    band: Annotated[
        str, typer.Option("--band", help="Verdict band LO:HI of win share when taken.")
    ] = "0.9:1.1",
    tournament_games: Annotated[
        int | None,
        typer.Option(
            "--tournament-games",
            help="Games of the tournament in all (default: --games).",
            show_default=False,
        ),
    ] = None,
    level_runs: Annotated[
        list[Path] | None,
        typer.Option(
            "--level-run",
            help="A finished self-play run to take as its policy's level instead of playing "
            "one (same game, variant, players, cards); repeatable.",
            show_default=False,
        ),
    ] = None,
    until_ci: options.UntilCi = None,
    threads: options.Threads = None,
    backend: Annotated[
        Backend, typer.Option("--backend", help="Where the runs' chunks are computed.")
    ] = Backend.local,
    scheduler: options.Scheduler = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Finish the ladder already in --out.")
    ] = False,
    quiet: options.Quiet = False,
) -> None:
    """Rate POLICIES against each other and say which card verdicts hold as play gets stronger."""
    params = dict(locals())  # the arguments, handed on by name to the library
    with reported(), resumable(out, "runs"):
        outcome = options.call_library(api.ladder, params)
    _print_outcome(outcome)


def _print_outcome(outcome: Outcome) -> None:
    """Where the page is, then its findings (ratings, verdicts, how much the deal decides)."""
    from talesim.cli.report import echo_findings

    echo_findings("page", outcome.files["page"], outcome.findings)
