"""``talesim score``: the score breakdown of an end state given as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from cli import options
from cli.errors import UserError, read_json_file, reported

SEAT_KEYS = ("seat", "total", "cards", "trickster_as")


def _cell(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return "" if value is None else str(value)


def _render(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    seats = result.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        console.print_json(json.dumps(result))
        return
    columns = [k for k in SEAT_KEYS if any(k in s for s in seats)]
    columns += sorted({k for s in seats for k in s} - set(columns))
    table = Table()
    for c in columns:
        table.add_column(c, justify="right" if c in ("seat", "total") else "left")
    for s in seats:
        table.add_row(*(_cell(s.get(c)) for c in columns))
    console.print(table)
    for key, value in result.items():
        if key != "seats":
            console.print(f"{key}: {_cell(value)}")


def score(
    game: Annotated[str, typer.Argument(help="Game id (see `talesim games`).")],
    state: Annotated[
        Path, typer.Argument(metavar="STATE.json", help="End state to score, as JSON.")
    ],
    as_json: options.Json = False,
) -> None:
    """Score the end state in STATE.json and show each seat's breakdown."""
    with reported():
        from simcore import registry

        g = registry.get_game(game)
        data = read_json_file(state)
        engine = registry.engine(g)
        try:
            result = engine.score_state(data)
        except ValueError as exc:
            raise UserError(f"{state}: {exc}") from None
    if as_json:
        typer.echo(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        _render(result)
