"""``talesim play``: replay one game of a run, narrated or as JSON lines."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from talesim import api
from talesim.cli import options
from talesim.cli.errors import reported


def _plain(value: Any) -> Any:
    """JSON fallback for numpy scalars and arrays an engine may leave in an event."""
    for method in ("item", "tolist"):
        if hasattr(value, method):
            return getattr(value, method)()
    raise TypeError(f"not JSON serialisable: {value!r}")


def play(
    game: options.GameId,
    seed: options.Seed,
    players: options.Players,
    policy: options.Policy,
    game_id: Annotated[
        int, typer.Option("--game", help="Game id within the run (as stored by simulate).")
    ] = 0,
    variant: options.Variant = None,
    cards_file: options.CardsFile = None,
    policies_file: options.PoliciesFile = None,
    rotate_seats: options.RotateSeats = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per line per event.")
    ] = False,
) -> None:
    """Replay game --game of a run seeded with --seed, event by event."""
    params = dict(locals())  # the arguments, handed on by name to the library
    with reported():
        replay = options.call_library(api.play, params)
    if as_json:
        for event in replay.events:
            typer.echo(json.dumps(event, default=_plain, ensure_ascii=False))
    else:
        for line in replay.narration():
            typer.echo(line)
