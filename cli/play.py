"""``talesim play``: replay one game of a run, narrated or as JSON lines."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from cli import options
from cli.errors import reported


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
    with reported():
        from simcore import runner

        runner.check_seed(seed)
        runner.check_seed(game_id, name="game id")
        s = runner.setup(
            game,
            variant=variant,
            players=players,
            policies=policy,
            cards_path=cards_file,
            rotate_seats=rotate_seats,
            policies_file=policies_file,
        )
        events = s.engine.play(s.prepared, seed, game_id)
    for event in events:
        if as_json:
            typer.echo(json.dumps(event, default=_plain, ensure_ascii=False))
        else:
            typer.echo(s.engine.narrate(event))
