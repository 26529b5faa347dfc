"""``talesim learn``: train a learned player from the search (expert iteration)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Annotated

import typer

from cli import options
from cli.errors import UserError, progress_echo, reported, resumable
from simcore.outdirs import LEARN_SUMMARY, check_out


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
    echo = progress_echo(quiet)
    with reported():
        check_out(out, "learn")
        from simcore import learn as learning
        from simcore import registry, runner

        g = registry.get_game(game)
        v = g.check_players(variant, players)
        g.check_policies([against])
        req = learning.Request(
            game=g.name,
            variant=v.name,
            players=players,
            games=games,
            iterations=iterations,
            seed=seed,
            out=str(out),
            expert=g.canonical_policies([expert])[0],
            hidden=hidden,
            eval_games=eval_games,
            against=against,
        )
        learning.check(req)
        if threads is not None:
            runner.check_threads(threads)
            import numba

            numba.set_num_threads(threads)
        summary = out / LEARN_SUMMARY
        if out.exists() and any(out.iterdir()):
            if not summary.exists():
                raise UserError(f"{out} exists and is not a learn run: choose another --out")
            if overwrite:
                shutil.rmtree(out)
            elif not resume:
                raise UserError(
                    f"{out} holds a learn run: add --resume to continue it or --overwrite"
                )

        def progress(label: str, done: int, total: int) -> None:
            echo(f"{label}: {done:,}/{total:,}")

        with resumable(out, "iterations"):
            result = learning.run(req, progress)
    best = result["iterations"][result["best"]]
    vs = best["vs_heuristic"]
    typer.echo(
        f"{out / 'model.toml'}: iteration {result['best']}, win share {vs['ws']:.3f} "
        f"[{vs['lo']:.3f}, {vs['hi']:.3f}] against {against}, agreement with the expert "
        f"{best['agreement']:.1%}"
    )
