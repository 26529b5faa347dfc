"""One-line errors for bad input: ``error: <message>`` on stderr and exit code 2.

Every command body runs inside ``reported()``. Bad requests raised anywhere below the CLI
(``GameError``, ``CardDataError``, ``RunError``/``RunDirError``) and the CLI's own
``UserError`` become a single line, never a traceback; anything else is a bug and keeps
its traceback. Light imports only: this module is loaded by ``talesim --help``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import typer

from simcore.cards import CardDataError
from simcore.registry import GameError
from simcore.runner import RunError

EXIT_BAD_INPUT = 2


class UserError(Exception):
    """A bad-input problem found by the CLI itself; the message is the whole story."""


USER_ERRORS: tuple[type[Exception], ...] = (GameError, CardDataError, RunError, UserError)


def one_line(message: str) -> str:
    """``message`` with its lines joined by '; ' (an error is always one line)."""
    return "; ".join(line.strip() for line in str(message).splitlines() if line.strip())


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with code 2."""
    typer.echo(f"error: {one_line(message)}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT)


@contextmanager
def reported() -> Iterator[None]:
    """Turn user errors raised in the block into one ``error:`` line and exit code 2."""
    try:
        yield
    except USER_ERRORS as exc:
        fail(str(exc))


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
