"""talesim: a Monte-Carlo strategy simulator and balance analytics for tabletop card games,
as a Python library.

Each ``talesim`` command is one function here, with the command's arguments and defaults,
writing the same files (``talesim.api`` says how they differ: no presentation flags,
progress off unless ``progress=True``, errors raised as ``TalesimError``)::

    import polars as pl
    import talesim

    run = talesim.simulate("fairy-tale", games=2000, players=4, seed=1,
                           policy="greedy", out="runs/x")
    run.seats.group_by("seat").agg(pl.col("win").mean()).collect()
    talesim.report(run.path, out="runs/x-report").findings

``docs/tutorial.md`` walks through a card change simulated, compared and charted.

Importing ``talesim`` is cheap: the functions load numba, polars and the engines on first
use (so ``talesim --help`` stays instant).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from talesim.simcore import __version__
from talesim.simcore.errors import TalesimError, UserError

if TYPE_CHECKING:
    from talesim.api import (
        Replay,
        balance,
        cards,
        compare,
        games,
        ladder,
        learn,
        open_run,
        play,
        report,
        score,
        simulate,
        tune,
    )
    from talesim.reports.run import Run
    from talesim.simcore.batch import RunError
    from talesim.simcore.cards import CardDataError
    from talesim.simcore.registry import GameError, InvariantError
    from talesim.simcore.runner import RunDirError, RunInterrupted, RunWriteError

#: Public name -> the module that defines it (loaded on first access).
_LAZY = {
    **dict.fromkeys(
        ("simulate", "open_run", "report", "compare", "ladder", "balance", "tune", "learn",
         "play", "score", "games", "cards", "Replay"),
        "talesim.api",
    ),
    "Run": "talesim.reports.run",
    "RunError": "talesim.simcore.batch",
    "CardDataError": "talesim.simcore.cards",
    "GameError": "talesim.simcore.registry",
    "InvariantError": "talesim.simcore.registry",
    "RunDirError": "talesim.simcore.runner",
    "RunInterrupted": "talesim.simcore.runner",
    "RunWriteError": "talesim.simcore.runner",
}  # fmt: skip

__all__ = [
    "CardDataError",
    "GameError",
    "InvariantError",
    "Replay",
    "Run",
    "RunDirError",
    "RunError",
    "RunInterrupted",
    "RunWriteError",
    "TalesimError",
    "UserError",
    "__version__",
    "balance",
    "cards",
    "compare",
    "games",
    "ladder",
    "learn",
    "open_run",
    "play",
    "report",
    "score",
    "simulate",
    "tune",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'talesim' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
