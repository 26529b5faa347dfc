"""``talesim balance``: search the smallest card-data edit that brings every card's win share
into a band at every strength level (``simcore.balance``), validated on fresh seeds.

Exit codes as ``talesim simulate``: 0 done (a search that found no edit meeting the band
is done too: it says so), 2 bad input before anything is written, 130 interrupted (the
study in OUT keeps every finished trial; ``--resume`` continues).
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from talesim import api
from talesim.cli import options
from talesim.cli.errors import reported, resumable
from talesim.cli.options import Backend


def balance(
    game: options.GameId,
    players: options.Players,
    games: Annotated[
        int,
        typer.Option("--games", help="Games per candidate at each level (and per validation run)."),
    ],
    budget: Annotated[int, typer.Option("--budget", help="Trials (candidate edits) to try.")],
    band: Annotated[
        str, typer.Option("--band", help="Target win-share band LO:HI, 0 < LO < 1 < HI.")
    ],
    seed: options.Seed,
    out: options.SearchOut,
    policy: Annotated[
        str | None,
        typer.Option(
            "--policy",
            help="One level: the policy of every seat, or a comma list with one per seat "
            "(a mixed table: each card is judged within each policy).",
            show_default=False,
        ),
    ] = None,
    levels: Annotated[
        str | None,
        typer.Option(
            "--levels",
            help="Strength levels, weakest first, each a self-play table of that policy "
            "(spec or named policy), SPEC@N its own game count: e.g. greedy,learned@5000. "
            "The search runs on the first; the proposal meets the band at every level.",
            show_default=False,
        ),
    ] = None,
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
    max_steps_per_card: Annotated[
        int,
        typer.Option("--max-steps-per-card", help="Steps a card may move over all its fields."),
    ] = 2,
    sampling: options.Sampling = "adaptive",
    tolerance: Annotated[
        float,
        typer.Option(
            "--tolerance",
            help="When no trial meets the band: propose the smallest edit within this much "
            "band distance of the best.",
        ),
    ] = 0.01,
    validation_games: options.ValidationGames = None,
    threads: options.Threads = None,
    backend: options.SearchBackend = Backend.local,
    scheduler: options.Scheduler = None,
    storage: options.Storage = None,
    resume: options.SearchResume = False,
    quiet: options.Quiet = False,
) -> None:
    """Propose the smallest edit of the card data that brings every card into the band at
    every level."""
    params = dict(locals())  # the arguments, handed on by name to the library
    with reported(), resumable(out, "trials"):
        outcome = options.call_library(api.balance, params)
    from talesim.cli.report import echo_findings

    for line in summary_lines(outcome):
        typer.echo(line)
    echo_findings("page", outcome.files["page"], outcome.findings)


def summary_lines(outcome: Any) -> list[str]:
    """What the terminal says after a search, before the page's findings: the proposal by
    field name (what a designer must look at besides the edits is in the findings)."""
    if not outcome.out_of_band:
        return ["every judged card is already inside the band at every level: no edit"]
    if not outcome.edits:
        return ["no editable field on the cards out of band: no edit"]
    where = "every level" if len(outcome.levels) > 1 else "its level"
    verdict = "meets" if outcome.meets_band else "does NOT meet"
    lines = [
        f"proposal ({verdict} the band at {where} on the search seeds"
        + ("" if outcome.meets_band else ", best found")
        + f"; validation: "
        f"{'every card inside' if outcome.validated_in_band else 'some card outside'}):"
    ]
    if not outcome.meets_band:
        lines.append(
            f"no trial met the band: the smallest edit within {outcome.request.tolerance:g} of "
            f"the best band distance (trial {outcome.trial}); tradeoff.csv lists the others"
        )
    lines += [f"  {e.site.entity} {e.site.label}: {e.site.value} -> {e.new}" for e in outcome.edits]
    return lines
