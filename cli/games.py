"""``talesim games``: the games, their variants, player counts and policies (registry only)."""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from cli import options
from simcore.policy_spec import Param
from simcore.registry import GAMES, Game, Variant


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


def param_record(param: Param) -> dict[str, Any]:
    """A policy parameter as data: its name, default, and bounds or choices."""
    if param.choices:
        return {"name": param.name, "default": param.default, "choices": list(param.choices)}
    return {"name": param.name, "default": param.default, "lo": param.lo, "hi": param.hi}


def game_record(game: Game) -> dict[str, Any]:
    """What the table and the parameter lines say of ``game``, as data (``games --json``)."""
    return {
        "game": game.name,
        "title": game.title,
        "variants": [
            {
                "name": v.name,
                "min_players": v.min_players,
                "max_players": v.max_players,
                "unconfirmed_players": list(v.unconfirmed_players),
                "default": v.name == game.default_variant,
                "simulates": v.kernel,
            }
            for v in game.variants
        ],
        "policies": list(game.policies),
        "policy_parameters": {
            name: [param_record(p) for p in params] for name, params in game.policy_params
        },
    }


def games(as_json: options.Json = False) -> None:
    """List the games, their variants, player counts and policies."""
    if as_json:
        typer.echo(json.dumps([game_record(g) for g in GAMES.values()], indent=1))
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
