"""``talesim report``: the balance report of finished runs (``cli/compare.py`` uses
``Out`` and ``_os_error``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cli.errors import UserError, reported
from simcore.outdirs import check_out

Out = Annotated[Path, typer.Option("--out", help="Directory for index.html, PNGs and CSVs.")]


def _os_error(exc: OSError, out: Path) -> UserError:
    """An I/O failure as one line naming the path it happened on (reading or writing)."""
    where = exc.filename if exc.filename is not None else out
    return UserError(f"{where}: {exc.strerror or exc}")


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
        check_out(out, "report", runs)
        from reports.report import write_report
        from simcore.balance import parse_band

        bounds = parse_band(band)
        try:
            written = write_report(runs[0], out, list(runs[1:]), bounds)
        except OSError as exc:
            raise _os_error(exc, out) from None
        typer.echo(f"report: {written.index}")
        for line in written.findings:
            typer.echo(f"  {line}")
