"""``talesim cards``: a game's card catalog as a table or JSON."""

from __future__ import annotations

import json
import sys

import typer

from talesim import api
from talesim.cli import options
from talesim.cli.errors import reported

COLUMNS = ("id", "name", "faction", "category", "copies", "tier", "value", "effect", "status")


def cards(
    game: options.GameId,
    variant: options.Variant = None,
    cards_file: options.CardsFile = None,
    as_json: options.Json = False,
) -> None:
    """Show the card catalog of GAME."""
    with reported():
        from rich.console import Console
        from rich.table import Table

        from talesim.simcore import registry

        v = registry.get_game(game).variant(variant)
        rows = api.cards(game, variant=variant, cards_file=cards_file)
    if as_json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    columns = list(COLUMNS)
    for row in rows:  # the engine's extra columns, in order of first appearance
        columns += [k for k in row if k not in columns]
    table = Table(title=f"{game} ({v.name}): {len(rows)} cards", title_justify="left")
    for c in columns:
        numeric = c == "copies"
        table.add_column(c, justify="right" if numeric else "left", overflow="fold")
    for row in rows:
        table.add_row(*(str(row.get(c, "")) for c in columns))
    # Piped output has no terminal width: do not squeeze the table into 80 columns.
    Console(width=None if sys.stdout.isatty() else 200).print(table)
