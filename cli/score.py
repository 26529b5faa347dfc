"""``talesim score``: the score breakdown of an end state given as JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from cli import options
from cli.errors import UserError, read_json_file, reported


def _render(result: dict[str, Any]) -> None:
    """A readable table: one row per player, then the winners."""
    from rich.console import Console
    from rich.table import Table

    console = Console(width=None if sys.stdout.isatty() else 200)
    table = Table(title="Score breakdown")
    for column in ("seat", "total", "breakdown", "face down", "trickster as", "cards (points)"):
        table.add_column(column, justify="right" if column in ("seat", "total") else "left")
    for pl in result["players"]:
        breakdown = ", ".join(f"{k} {v}" for k, v in pl["breakdown"].items() if v) or "-"
        cards = ", ".join(
            f"{c['card']} {c['points']}" if c["face_up"] else f"({c['card']})" for c in pl["cards"]
        )
        table.add_row(
            str(pl["seat"]),
            str(pl["total"]),
            breakdown,
            str(pl["face_down"]),
            pl["trickster_as"] or "-",
            cards,
        )
    console.print(table)
    console.print("winners: " + ", ".join(f"seat {w}" for w in result["winners"]))


def score(
    game: Annotated[str, typer.Argument(help="Game id (see `talesim games`).")],
    state: Annotated[
        Path, typer.Argument(metavar="STATE.json", help="End state to score, as JSON.")
    ],
    cards_file: options.CardsFile = None,
    as_json: options.Json = False,
) -> None:
    """Score the end state in STATE.json and show each seat's breakdown."""
    with reported():
        from simcore import registry

        g = registry.get_game(game)
        data = read_json_file(state)
        engine = registry.engine(g)
        try:
            result = engine.score_state(data, engine.load_cards(cards_file))
        except ValueError as exc:
            raise UserError(f"{state}: {exc}") from None
    if as_json:
        typer.echo(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        _render(result)
