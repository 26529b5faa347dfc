"""One-line errors: ``error: <message>`` on stderr and a meaningful exit code.

Every command body runs inside ``reported()``. Anything it recognises becomes a single
line, never a traceback; anything else is a bug and keeps its traceback (exit code 1).

Exit codes:

* 0 -- success;
* 1 -- the run could not be written (``RunWriteError``: disk full, permission denied);
  the run directory is left resumable (``talesim simulate ... --resume``);
* 2 -- bad input: ``GameError``, ``CardDataError``, ``RunError``/``RunDirError`` (which
  also cover an unusable run directory, an unreachable Dask scheduler and a missing dask
  install) and the CLI's own ``UserError``; nothing was written;
* 3 -- a kernel in checking mode (``simulate --check``) found a broken rule invariant
  (``InvariantError``): a bug in the engine, not in the input; the message names the seed
  and the game id to replay with ``talesim play``;
* 130 -- interrupted by Ctrl-C (``simulate`` prints how to resume).

Light imports only: this module is loaded by ``talesim --help``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import typer

from simcore.cards import CardDataError
from simcore.registry import GameError, InvariantError
from simcore.runner import RunError, RunWriteError

EXIT_WRITE_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_INVARIANT = 3
EXIT_INTERRUPTED = 130


class UserError(Exception):
    """A bad-input problem found by the CLI itself; the message is the whole story."""


USER_ERRORS: tuple[type[Exception], ...] = (GameError, CardDataError, RunError, UserError)


def one_line(message: str) -> str:
    """``message`` with its lines joined by '; ' (an error is always one line)."""
    return "; ".join(line.strip() for line in str(message).splitlines() if line.strip())


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``error: message`` on stderr and exit with ``code`` (default 2, bad input)."""
    typer.echo(f"error: {one_line(message)}", err=True)
    raise typer.Exit(code)


@contextmanager
def reported() -> Iterator[None]:
    """Turn the errors raised in the block into one ``error:`` line and their exit code."""
    try:
        yield
    except USER_ERRORS as exc:
        fail(str(exc))
    except RunWriteError as exc:
        fail(str(exc), EXIT_WRITE_FAILED)
    except InvariantError as exc:
        fail(str(exc), EXIT_INVARIANT)


def read_json_file(path: Path) -> Any:
    """Parse a JSON file (``talesim score``'s STATE); I/O and syntax errors become UserError."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise UserError(f"{path}: is a directory, not a JSON file") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(
            f"{path}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from None
    except RecursionError:
        raise UserError(f"{path}: JSON nested too deeply") from None


@contextmanager
def resumable(out: Path, what: str) -> Iterator[None]:
    """A Ctrl-C in the block: one line saying what is kept in ``out`` and how to go on (the
    same command plus ``--resume``), exit status 130."""
    try:
        yield
    except KeyboardInterrupt:
        typer.echo(
            f"interrupted; the finished {what} are kept in {out}: continue with the same "
            "command plus --resume",
            err=True,
        )
        raise typer.Exit(EXIT_INTERRUPTED) from None


def progress_echo(quiet: bool) -> Callable[[str], None]:
    """Where a long command's progress lines go: stderr, or nowhere with ``--quiet``."""
    return (lambda _m: None) if quiet else (lambda m: typer.echo(m, err=True))
