"""``talesim score``: the score breakdown of an end state given as JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from talesim import api
from talesim.cli import options
from talesim.cli.errors import reported

#: Keys shown in their own way (or not at all) rather than as plain columns.
_SPECIAL = {"seat", "total", "breakdown", "cards"}


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "-"
    return str(value)


def _render(result: dict[str, Any]) -> None:
    """A readable table: one row per seat (its scalar results, the breakdown, the cards),
    then the winners. Works for every game: the columns come from the result itself, and
    a column holding the same empty value (0, null, []) for every seat is left out (it is
    in ``--json``), as are nested details such as per-source tables."""
    from rich.console import Console
    from rich.table import Table

    players = result["players"]
    scalar = [
        k
        for k, v in players[0].items()
        if k not in _SPECIAL
        and (v is None or isinstance(v, int | float | str) or _is_str_list(v))
        and any(p.get(k) not in (None, 0, "", []) for p in players)
    ]
    console = Console(width=None if sys.stdout.isatty() else 200)
    table = Table(title="Score breakdown")
    table.add_column("seat", justify="right")
    table.add_column("total", justify="right")
    for k in scalar:
        numeric = isinstance(players[0][k], int | float)
        table.add_column(k.replace("_", " "), justify="right" if numeric else "left")
    table.add_column("breakdown")
    has_cards = all(isinstance(c, dict) and "card" in c for c in players[0].get("cards", [None]))
    if has_cards:
        table.add_column("cards (points)")
    for p in players:
        breakdown = ", ".join(f"{k} {v}" for k, v in p.get("breakdown", {}).items() if v) or "-"
        row = [str(p["seat"]), str(p["total"]), *(_cell(p.get(k)) for k in scalar), breakdown]
        if has_cards:
            row.append(", ".join(_card(c) for c in p["cards"]))
        table.add_row(*row)
    console.print(table)
    console.print("winners: " + ", ".join(f"seat {w}" for w in result["winners"]))


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


def _card(c: dict[str, Any]) -> str:
    """``name points``; a face-down card (``face_up`` false) in parentheses."""
    if c.get("face_up", True) is False:
        return f"({c['card']})"
    return f"{c['card']} {c['points']}" if "points" in c else str(c["card"])


def score(
    game: options.GameId,
    state: Annotated[
        Path, typer.Argument(metavar="STATE.json", help="End state to score, as JSON.")
    ],
    variant: options.Variant = None,
    cards_file: options.CardsFile = None,
    as_json: options.Json = False,
) -> None:
    """Score the end state in STATE.json and show each seat's breakdown."""
    with reported():
        result = api.score(game, state, variant=variant, cards_file=cards_file)
    if as_json:
        typer.echo(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        _render(result)
