"""One-line errors: ``error: <message>`` on stderr and a meaningful exit code.

Every command body runs inside ``reported()``. Anything it recognises becomes a single
line, never a traceback; anything else is a bug and keeps its traceback (exit code 1).

Exit codes:

* 0 -- success;
* 1 -- the run could not be written (``RunWriteError``: disk full, permission denied) or
  could not go on (``RunStoppedError``: the Dask workers running a chunk kept dying);
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

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import typer

from talesim.simcore.batch import RunStoppedError
from talesim.simcore.cards import CardDataError
from talesim.simcore.errors import TalesimError, TalesimWarning, UserError
from talesim.simcore.registry import GameError, InvariantError
from talesim.simcore.runner import RunError, RunWriteError

EXIT_WRITE_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_INVARIANT = 3
EXIT_INTERRUPTED = 130


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
    except (RunWriteError, RunStoppedError) as exc:
        fail(str(exc), EXIT_WRITE_FAILED)
    except InvariantError as exc:
        fail(str(exc), EXIT_INVARIANT)
    except TalesimError as exc:  # any other error talesim words for its user: bad input
        fail(str(exc))


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


def show_notes() -> None:
    """Print each ``TalesimWarning`` the command issues as one ``note:`` line on stderr,
    each distinct note once; other warnings keep Python's own display."""
    import warnings

    warnings.simplefilter("default", TalesimWarning)  # also forgets the notes already shown
    shown = warnings.showwarning

    def note(message: Any, category: type[Warning], *args: Any, **kwargs: Any) -> None:
        if issubclass(category, TalesimWarning):
            typer.echo(f"note: {one_line(str(message))}", err=True)
        else:
            shown(message, category, *args, **kwargs)

    if getattr(shown, "talesim_notes", False):
        return
    note.talesim_notes = True  # type: ignore[attr-defined]
    warnings.showwarning = note
