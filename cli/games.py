"""``talesim games``: the games, their variants, player counts and policies (registry only)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

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


def policy_names(game: Game) -> list[str]:
    """Each policy, with its parameters (default and range) if it has some:
    ``mc:rollouts=16 (1-1024):top=4 (1-12):...``."""
    params = dict(game.policy_params)
    return [":".join([p, *(x.describe() for x in params.get(p, ()))]) for p in game.policies]


def games() -> None:
    """List the games, their variants, player counts and policies."""
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
                ", ".join(policy_names(game)) if i == 0 else "",
                "yes" if v.name == game.default_variant else "",
                "yes" if v.kernel else "not yet (play, cards)",
            )
        table.add_section()
    Console().print(table)
