"""Suggestions for a misspelt name: the one helper every "unknown ..." message uses.

Light: only ``difflib``, so the registry and the card loaders may import it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(name: object, known: Iterable[str]) -> str:
    """``"; did you mean X?"`` (or ``"X or Y"``) naming the valid names nearest to ``name``
    (``difflib.get_close_matches``), or ``""`` when none is near or ``name`` is no string."""
    if not isinstance(name, str):
        return ""
    close = difflib.get_close_matches(name, list(dict.fromkeys(known)), n=2, cutoff=0.6)
    return f"; did you mean {' or '.join(close)}?" if close else ""
