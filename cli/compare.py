"""``talesim compare``: what changed in balance between two runs of the same game."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from talesim import api
from talesim.cli.errors import reported
from talesim.cli.report import Out, echo_findings


def compare(
    run_a: Annotated[Path, typer.Argument(metavar="RUN_A", help="Run before the change.")],
    run_b: Annotated[Path, typer.Argument(metavar="RUN_B", help="Run after the change.")],
    out: Out,
) -> None:
    """Compare two runs of the same game: change in win share per card, policy and seat.

    Prints the page's path, then its findings: the card-data fields that changed and one
    line per significant change (Benjamini–Hochberg adjusted p < 0.05)."""
    with reported():
        page = api.compare(run_a, run_b, out=out)
        echo_findings("comparison", page.index, page.findings)
