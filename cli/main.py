"""The ``talesim`` command line (Typer). One module per command; this file only wires them.

Command modules import typer, rich and the registry at top level only; numba, polars and
matplotlib are imported inside command bodies so ``talesim --help`` stays instant
(guarded by tests/test_cli_startup.py).
"""

from __future__ import annotations

import typer

from cli.bench import bench
from cli.cards import cards
from cli.games import games
from cli.play import play
from cli.report import compare, report
from cli.score import score
from cli.simulate import simulate

app = typer.Typer(
    name="talesim",
    help="Monte-Carlo simulator and balance analytics for card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
app.command("games")(games)
app.command("cards")(cards)
app.command("simulate")(simulate)
app.command("play")(play)
app.command("score")(score)
app.command("report")(report)
app.command("compare")(compare)
app.command("bench")(bench)


if __name__ == "__main__":
    app()
