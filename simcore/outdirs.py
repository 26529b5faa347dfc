"""What a command may write into: never into another command's data.

Every talesim output directory is marked by one JSON file it holds, which says what it is:

* a run (``simulate``, and the runs a ladder, balance, tune or learn plays):
  ``manifest.json`` with its chunk list (``simcore.runner.MANIFEST``);
* a search (``balance``, ``tune``, ``ladder``): ``request.json`` (``simcore.study.REQUEST``);
* a ``learn`` run: ``learn.json`` with its request (``LEARN_SUMMARY``);
* a ``report`` or ``compare`` page: ``page.json``, ``{"page": "report"}`` or
  ``{"page": "compare"}`` (``mark_page``), written beside ``index.html``.

``check_out`` is the one check every writing command makes before anything else: its
``--out`` is neither inside such a directory, nor one of another kind (a command may write
again into its own kind of output: its own ``--resume`` / ``--overwrite``, or a page
written again), nor equal to or inside one of the command's input runs. It only reads.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from talesim.simcore.runner import MANIFEST, RunDirError
from talesim.simcore.study import REQUEST

#: The file that marks a report or comparison page directory.
PAGE = "page.json"
#: The file that marks a ``talesim learn`` directory (its request and iterations).
LEARN_SUMMARY = "learn.json"

#: Each kind of output: its marker file, what its JSON object holds, and its name in messages.
KINDS: dict[str, tuple[str, Callable[[dict[str, Any]], bool], str]] = {
    "run": (MANIFEST, lambda d: isinstance(d.get("chunks"), list), "a talesim run"),
    "search": (REQUEST, lambda d: "game" in d, "a balance, tune or ladder search"),
    "learn": (LEARN_SUMMARY, lambda d: "request" in d, "a learn run"),
    "report": (PAGE, lambda d: d.get("page") == "report", "a report page"),
    "compare": (PAGE, lambda d: d.get("page") == "compare", "a comparison page"),
}


def _json_object(path: Path) -> dict[str, Any] | None:
    """The JSON object in ``path``, or None (no such file, not JSON, not an object)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def kind_of(directory: Path) -> str | None:
    """Which talesim output ``directory`` is (a key of ``KINDS``), or None."""
    for kind, (marker, holds, _name) in KINDS.items():
        data = _json_object(Path(directory) / marker)
        if data is not None and holds(data):
            return kind
    return None


def check_apart(out: Path, inputs: Iterable[Path], what: str) -> None:
    """``RunDirError`` when ``out`` is one of the ``inputs`` runs or inside one (``what``:
    the page written, for the message). An input that is no run is left to the reader of
    the runs to refuse."""
    target = Path(out).resolve()
    for run in inputs:
        source = Path(run).resolve()
        if kind_of(source) != "run":
            continue
        if target == source:
            raise RunDirError(f"{out} is the run directory itself; write the {what} elsewhere")
        if source in target.parents:
            raise RunDirError(f"{out} is inside the run {run}; write the {what} elsewhere")


def check_out(out: Path, kind: str, inputs: Iterable[Path] = ()) -> None:
    """``RunDirError`` (one line, nothing written) unless command output of ``kind`` may go
    to ``out``: not equal to or inside one of the ``inputs`` runs (``check_apart``), not
    inside any talesim output directory, and not itself one of another kind."""
    check_apart(out, inputs, f"{kind} output")
    target = Path(out).resolve()
    found = kind_of(target)
    if found is not None and found != kind:
        raise RunDirError(f"--out {out} is {KINDS[found][2]}: write the {kind} output elsewhere")
    for parent in target.parents:
        found = kind_of(parent)
        if found is not None:
            raise RunDirError(
                f"--out {out} is inside {KINDS[found][2]} ({parent}): write the {kind} "
                "output elsewhere"
            )


def mark_page(out: Path, page: str) -> None:
    """Mark ``out`` as a ``page`` directory ("report" or "compare"): ``out/page.json``."""
    Path(out).mkdir(parents=True, exist_ok=True)
    (Path(out) / PAGE).write_text(json.dumps({"page": page}) + "\n", encoding="utf-8")
