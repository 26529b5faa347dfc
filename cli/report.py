"""``talesim report``: the balance report of finished runs (``cli/compare.py`` uses
``Out``; every command that writes a page prints it with ``echo_findings``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from talesim import api
from talesim.cli.errors import reported

Out = Annotated[Path, typer.Option("--out", help="Directory for index.html, PNGs and CSVs.")]


def echo_findings(label: str, index: Path, findings: Sequence[str]) -> None:
    """What every page-writing command prints last: ``label: index.html``, then the page's
    findings, one an indented line, in the page's order."""
    typer.echo(f"{label}: {index}")
    for line in findings:
        typer.echo(f"  {line}")


def report(
    runs: Annotated[
        list[Path],
        typer.Argument(
            metavar="RUN [RUN...]",
            help="Run directory from `simulate`; several runs that differ only in policy "
            "(weakest first) add card verdicts across strength.",
        ),
    ],
    out: Out,
    band: Annotated[
        str,
        typer.Option(
            "--band",
            help="Win-share band LO:HI: cards outside it are findings (with several runs: "
            "the verdicts' band too).",
        ),
    ] = "0.9:1.1",
) -> None:
    """Write the balance report of RUN: cards, seats, policies (and each game's extras);
    print its findings (cards outside the band, seat advantage, policies)."""
    with reported():
        written = api.report(runs, out=out, band=band)
        echo_findings("report", written.index, written.findings)
