"""``talesim games``: the games, their variants, player counts and policies (registry only)."""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.table import Table

from talesim import api
from talesim.cli import options
from talesim.simcore.registry import GAMES, Game, Variant


def player_counts(variant: Variant) -> str:
    """``"2-5"``, with counts the reference leaves unconfirmed marked: ``"2-5 (5?)"``."""
    text = (
        str(variant.min_players)
        if variant.min_players == variant.max_players
        else f"{variant.min_players}-{variant.max_players}"
    )
    if variant.unconfirmed_players:
        text += f" ({', '.join(f'{n}?' for n in variant.unconfirmed_players)})"
    return text


def policy_parameters(game: Game) -> list[str]:
    """One line per policy with parameters: its spec with every default and range,
    ``fairy-tale mc: rollouts=16 (1-1024), top=4 (1-12), playout=greedy (...)``."""
    return [
        f"{game.name} {name}: " + ", ".join(x.describe() for x in params)
        for name, params in game.policy_params
    ]


def games(as_json: options.Json = False) -> None:
    """List the games, their variants, player counts and policies."""
    if as_json:
        typer.echo(json.dumps(api.games(), indent=1))
        return
    unconfirmed = any(v.unconfirmed_players for g in GAMES.values() for v in g.variants)
    table = Table(
        caption="? = player count the reference marks unconfirmed" if unconfirmed else None
    )
    for name in ("game", "variant", "players", "policies", "default", "simulates"):
        table.add_column(name)
    for game in GAMES.values():
        for i, v in enumerate(game.variants):
            table.add_row(
                game.name if i == 0 else "",
                v.name,
                player_counts(v),
                ", ".join(game.policies) if i == 0 else "",
                "yes" if v.name == game.default_variant else "",
                "yes" if v.kernel else "not yet (play, cards)",
            )
        table.add_section()
    console = Console()
    console.print(table)
    lines = [line for game in GAMES.values() for line in policy_parameters(game)]
    if lines:
        console.print("Policy parameters (NAME:key=value:..., defaults and ranges):")
        for line in lines:
            console.print(f"  {line}", highlight=False, soft_wrap=True)
