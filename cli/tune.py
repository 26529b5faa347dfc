"""``talesim tune``: tune a heuristic policy's weights by play (``simcore.tune``), validated
on fresh seeds; writes OUT/policies.toml (``--policies-file``).

Exit codes as ``talesim simulate``: 0 done, 2 bad input before anything is written, 130
interrupted (``--resume`` continues the study in OUT).
"""

from __future__ import annotations

from typing import Annotated

import typer

from talesim import api
from talesim.cli import options
from talesim.cli.errors import reported, resumable
from talesim.cli.options import Backend


def tune(
    game: options.GameId,
    policy: Annotated[
        str, typer.Option("--policy", help="The heuristic whose weights are tuned (BASE).")
    ],
    players: options.Players,
    games: Annotated[int, typer.Option("--games", help="Games per candidate.")],
    budget: Annotated[int, typer.Option("--budget", help="Trials (candidate weights) to try.")],
    seed: options.Seed,
    out: options.SearchOut,
    against: Annotated[
        str | None,
        typer.Option(
            "--against",
            help="Policy of the other seats (default: BASE itself).",
            show_default=False,
        ),
    ] = None,
    variant: options.Variant = None,
    cards_file: options.CardsFile = None,
    sampling: options.Sampling = "adaptive",
    validation_games: options.ValidationGames = None,
    threads: options.Threads = None,
    backend: options.SearchBackend = Backend.local,
    scheduler: options.Scheduler = None,
    storage: options.Storage = None,
    resume: options.SearchResume = False,
    quiet: options.Quiet = False,
) -> None:
    """Tune the weights of heuristic POLICY to maximise its win share against --against."""
    params = dict(locals())  # the arguments, handed on by name to the library
    with reported(), resumable(out, "trials"):
        outcome = options.call_library(api.tune, params)
    from talesim.cli.report import echo_findings

    typer.echo(f"policies: {outcome.files['policies']}")
    echo_findings("page", outcome.files["page"], outcome.findings)
