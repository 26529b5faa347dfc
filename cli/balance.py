"""``talesim balance``: search the smallest card-data edit that brings every card's win share
into a band (``simcore.balance``), validated on fresh seeds.

Exit codes as ``talesim simulate``: 0 done (a search that found no edit meeting the band
is done too: it says so), 2 bad input before anything is written, 130 interrupted (the
study in OUT keeps every finished trial; ``--resume`` continues).
"""

from __future__ import annotations

from typing import Annotated

import typer

from cli import options
from cli.errors import progress_echo, reported, resumable
from cli.options import Backend


def balance(
    game: options.GameId,
    players: options.Players,
    policy: options.Policy,
    games: Annotated[
        int, typer.Option("--games", help="Games per candidate (and per validation run).")
    ],
    budget: Annotated[int, typer.Option("--budget", help="Trials (candidate edits) to try.")],
    band: Annotated[
        str, typer.Option("--band", help="Target win-share band LO:HI, 0 < LO < 1 < HI.")
    ],
    seed: options.Seed,
    out: options.SearchOut,
    variant: options.Variant = None,
    cards_file: options.CardsFile = None,
    policies_file: options.PoliciesFile = None,
    fields: Annotated[
        str | None,
        typer.Option(
            "--fields",
            help="Editable fields to use, comma-separated (default: every field the game's "
            "balance.toml declares); NAME:MIN:MAX narrows a field's bounds.",
            show_default=False,
        ),
    ] = None,
    radius: Annotated[int, typer.Option("--radius", help="Steps a field may move either way.")] = 3,
    validation_games: options.ValidationGames = None,
    threads: options.Threads = None,
    backend: options.SearchBackend = Backend.local,
    scheduler: options.Scheduler = None,
    storage: options.Storage = None,
    resume: options.SearchResume = False,
    quiet: options.Quiet = False,
) -> None:
    """Propose the smallest edit of the card data that brings every card into the band."""
    with reported():
        from simcore import balance as search

        run = options.run_options(threads, backend, scheduler, quiet)
        request = search.Request(
            **options.study_settings(game, variant, players, games, budget, seed, out,
                                     cards_file, validation_games, storage, resume, run),
            policy=policy,
            band=search.parse_band(band),
            policies_file=policies_file,
            fields=fields,
            radius=radius,
        )  # fmt: skip
        with resumable(out, "trials"):
            outcome = search.run_balance(request, echo=progress_echo(quiet))
    if not outcome.out_of_band:
        typer.echo("every judged card is already inside the band: no edit")
    elif not outcome.edits:
        typer.echo("no editable field on the cards out of band: no edit")
    else:
        verdict = "meets the band" if outcome.meets_band else "does NOT meet the band (best found)"
        typer.echo(
            f"proposal ({verdict}; validation: "
            f"{'every card inside' if outcome.validated_in_band else 'some card outside'}):"
        )
        for e in outcome.edits:
            typer.echo(f"  {e.site.entity} {e.site.where}: {e.site.value} -> {e.new}")
    typer.echo(f"page: {outcome.files['page']}")
