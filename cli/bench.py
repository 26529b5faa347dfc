"""``talesim bench``: games per second of the numba engine against reference/."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from talesim.cli import options
from talesim.cli.errors import reported


def bench(
    game: options.GameId = "fairy-tale",
    players: Annotated[int, typer.Option("--players", help="Number of players.")] = 4,
    policy: Annotated[str, typer.Option("--policy", help="Policy spec of every seat.")] = "greedy",
    threads: Annotated[int, typer.Option("--threads", help="numba threads.")] = 2,
    games: Annotated[
        int | None,
        typer.Option("--games", help="Games for the numba engine (default: the game's own)."),
    ] = None,
    reference_games: Annotated[
        int | None,
        typer.Option("--reference-games", help="Games for reference/ (default: the game's own)."),
    ] = None,
    variant: options.Variant = None,
    as_json: options.Json = False,
) -> None:
    """Measure games/s of GAME's numba engine and of its plain-Python reference."""
    with reported():
        from talesim.simcore import engine_kit, registry, runner

        g = registry.get_game(game)
        v = g.check_players(variant, players)
        g.check_kernel(v.name)
        policy = g.canonical_policies([policy])[0]
        runner.check_threads(threads)
        games = g.bench_games if games is None else games
        reference_games = g.bench_reference_games if reference_games is None else reference_games
        runner.check_int("games", games, 1)
        runner.check_int("reference games", reference_games, 1)
        result = engine_kit.bench(
            registry.engine(g), g, players, policy, threads, games, reference_games, v.name
        )
    if as_json:
        typer.echo(json.dumps(result))
        return
    typer.echo(
        f"{result['game']}: {result['players']} players, policy {result['policy']}, "
        f"{result['threads']} threads"
    )
    typer.echo(f"numba      {result['numba_games_per_s']:>14,.0f} games/s")
    typer.echo(f"reference  {result['reference_games_per_s']:>14,.0f} games/s")
    typer.echo(f"ratio      {result['ratio']:>14,.1f}x")
