"""Messages that lead to the fix: the nearest valid names for a misspelt one
(``did_you_mean``), and the arguments a ``--resume`` changed (``differences``).

Light: only ``difflib`` and ``json``, so the registry and the card loaders may import it.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from typing import Any


def did_you_mean(name: object, known: Iterable[str]) -> str:
    """``"; did you mean X?"`` (or ``"X or Y"``) naming the valid names nearest to ``name``
    (``difflib.get_close_matches``), or ``""`` when none is near or ``name`` is no string."""
    if not isinstance(name, str):
        return ""
    close = difflib.get_close_matches(name, list(dict.fromkeys(known)), n=2, cutoff=0.6)
    return f"; did you mean {' or '.join(close)}?" if close else ""


def differences(stored: Mapping[str, Any], asked: Mapping[str, Any], limit: int = 4) -> str:
    """What a ``--resume`` asked differently from what a directory was made with, one
    ``key: stored there, asked now`` clause per differing argument (``limit`` at most, then
    how many more), in the order of ``asked``: ``"n_games 400 there, 800 now; seed 1 there,
    2 now"``. Nested values (a list, a table of settings) are shown as JSON."""
    keys = [*asked, *(k for k in stored if k not in asked)]
    missing = object()
    clauses = []
    for key in keys:
        old, new = stored.get(key, missing), asked.get(key, missing)
        if old != new:
            clauses.append(f"{key} {_shown(old, missing)} there, {_shown(new, missing)} now")
    more = f"; and {len(clauses) - limit} more" if len(clauses) > limit else ""
    return "; ".join(clauses[:limit]) + more


def _shown(value: object, missing: object) -> str:
    if value is missing:
        return "(absent)"
    if isinstance(value, dict | list):
        text = json.dumps(value, sort_keys=True)
        return text if len(text) <= 60 else text[:57] + "..."
    return json.dumps(value) if isinstance(value, str) or value is None else str(value)
