"""The root of every error talesim reports to its user (``TalesimError``).

Each error's message is the whole story in one line: the CLI prints it as
``error: <message>`` and exits non-zero; the library (``import talesim``) raises it. The
subclasses live beside the code that raises them (``GameError`` in the registry,
``CardDataError`` in the card loader, ``RunError`` in the batch module, ...) and keep the
built-in class they always had (``ValueError`` or ``RuntimeError``) as a second base, so
existing ``except ValueError`` code still catches them.
"""

from __future__ import annotations


class TalesimError(Exception):
    """An error talesim explains in one line: bad input, an unusable directory, a failed
    write, a broken rule invariant."""


class UserError(TalesimError, ValueError):
    """Bad input found outside the engines (a file the CLI or the library reads, an
    argument that contradicts another); the message is the whole story."""


class TalesimWarning(UserWarning):
    """Something the user should know that does not stop the command (a card file that
    adds cards or lacks some of the game's). The CLI prints it as one ``note:`` line; the
    library issues it as a Python warning (``warnings.filterwarnings`` silences it)."""
