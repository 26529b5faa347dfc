"""The ``talesim`` command line (Typer). One module per command; this file only wires them.

Command modules import typer, rich and the registry at top level only; numba, polars and
matplotlib are imported inside command bodies so ``talesim --help`` stays instant
(guarded by tests/test_cli_startup.py).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

# Typer (>= 0.29, pinned in pyproject) vendors its own click as ``typer._click``: the parse
# errors are that module's exceptions.
from typer import _click as click_api
from typer.core import TyperGroup

from talesim.cli.balance import balance
from talesim.cli.bench import bench
from talesim.cli.cards import cards
from talesim.cli.compare import compare
from talesim.cli.errors import EXIT_BAD_INPUT, one_line, show_notes
from talesim.cli.games import games
from talesim.cli.ladder import ladder
from talesim.cli.learn import learn
from talesim.cli.play import play
from talesim.cli.report import report
from talesim.cli.score import score
from talesim.cli.simulate import simulate
from talesim.cli.tune import tune


class OneLineErrors(TyperGroup):
    """The ``talesim`` group: a command-line parse error (missing or unknown option, a
    value of the wrong type, an unknown command) is one ``error:`` line on stderr naming
    the command's help, exit code 2, like every other bad input (``cli/errors.py``)."""

    def main(  # type: ignore[override]
        self, args: Sequence[str] | None = None, standalone_mode: bool = True, **extra: Any
    ) -> Any:
        if not standalone_mode:
            return super().main(args, standalone_mode=False, **extra)
        try:
            code = super().main(args, standalone_mode=False, **extra)
        except click_api.exceptions.NoArgsIsHelpError as e:
            typer.echo(e.format_message(), err=True)
            sys.exit(EXIT_BAD_INPUT)
        except click_api.exceptions.ClickException as e:
            ctx = getattr(e, "ctx", None)
            where = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
            typer.echo(f"error: {one_line(e.format_message())}{where}", err=True)
            sys.exit(e.exit_code)
        except typer.Abort:
            typer.echo("error: aborted", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    cls=OneLineErrors,
    name="talesim",
    help="Monte-Carlo simulator and balance analytics for card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)


def talesim_version() -> str:
    """The installed package's version (its metadata), else ``pyproject.toml``'s (sources
    run without an install)."""
    from importlib import metadata

    try:
        return metadata.version("talesim")
    except metadata.PackageNotFoundError:
        import tomllib

        pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
        return str(tomllib.loads(pyproject.read_text("utf-8"))["project"]["version"])


def _print_version(asked: bool) -> None:
    if asked:
        typer.echo(f"talesim {talesim_version()}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print talesim's version and exit.",
            is_eager=True,
            callback=_print_version,
        ),
    ] = False,
) -> None:
    """The options of ``talesim`` itself, before the command."""
    show_notes()


#: The commands, in the order ``talesim --help`` lists them; each is named after its function.
COMMANDS = (
    games,
    cards,
    simulate,
    play,
    score,
    report,
    compare,
    bench,
    balance,
    tune,
    ladder,
    learn,
)
for command in COMMANDS:
    app.command(command.__name__)(command)


if __name__ == "__main__":
    app()
