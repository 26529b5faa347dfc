"""``talesim learn``: train a learned player from the search (expert iteration)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from talesim import api
from talesim.cli import options
from talesim.cli.errors import reported, resumable


def learn(
    game: Annotated[str, typer.Argument(help="Game id (see `talesim games`).")],
    out: Annotated[Path, typer.Option("--out", help="Output folder (model, data, page).")],
    variant: options.Variant = None,
    players: options.Players = 4,
    games: Annotated[
        int, typer.Option("--games", help="Games an iteration plays to record the expert.")
    ] = 2000,
    iterations: Annotated[
        int, typer.Option("--iterations", help="Iterations at most (stops when no better).")
    ] = 3,
    seed: options.Seed = 0,
    expert: Annotated[
        str, typer.Option("--expert", help="The expert's mc spec (its playouts become learned).")
    ] = "mc",
    hidden: Annotated[int, typer.Option("--hidden", help="Hidden units (0: linear).")] = 16,
    eval_games: Annotated[
        int, typer.Option("--eval-games", help="Games of each paired evaluation.")
    ] = 4000,
    against: Annotated[
        str, typer.Option("--against", help="The heuristic the apprentice is measured against.")
    ] = "greedy",
    threads: options.Threads = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue a stopped run.")] = False,
    overwrite: Annotated[
        bool, typer.Option("--overwrite", help="Replace an earlier learn run in OUT.")
    ] = False,
    quiet: options.Quiet = False,
) -> None:
    """Train a learned player for GAME: seats that search play games, their searched
    decisions are recorded, a model is fitted to rank candidates as the search does, and
    the apprentice plays against the best heuristic; the apprentice becomes the search's
    playout policy for the next iteration. Writes OUT/model.toml, OUT/policies.toml (use
    it with --policies-file OUT/policies.toml --policy apprentice), OUT/learn.json and the
    recorded decisions (OUT/iteration-K/decisions.parquet)."""
    params = dict(locals())  # the arguments, handed on by name to the library
    with reported(), resumable(out, "iterations"):
        result = options.call_library(api.learn, params)
    best = result["iterations"][result["best"]]
    vs = best["vs_heuristic"]
    typer.echo(
        f"{out / 'model.toml'}: iteration {result['best']}, win share {vs['ws']:.3f} "
        f"[{vs['lo']:.3f}, {vs['hi']:.3f}] against {against}, agreement with the expert "
        f"{best['agreement']:.1%}"
    )
    from talesim.cli.report import echo_findings
    from talesim.reports.html import INDEX
    from talesim.reports.learn_page import findings

    echo_findings("page", out / INDEX, findings(result))
