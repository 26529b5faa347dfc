"""Named policies as data: a TOML file that defines policies as a base heuristic and its
weights, loadable everywhere a policy is named (``--policies-file FILE``).

    schema = 1
    game = "fairy-tale"

    [policy.greedy-tuned]
    base = "greedy"                 # a heuristic of the game (not random: it has no weights)
    weights = [1.0, 0.83, 0.0, 0.12, 0.0]   # the base's float row, every entry given
    # note = "talesim tune, 100 trials, validated ws 1.21 (1.17-1.25)"   (optional)

    [policy.deep-search]
    spec = "mc:rollouts=64:top=5"   # or a name for a policy spec with parameters

    [policy.apprentice]
    base = "learned"                # a learned player ...
    model = "model.toml"            # ... with its model (a path relative to this file)

Every heuristic of every game decides from its float row alone (the kernels and
``reference/`` read ``weights[code]``; only ``random`` is told apart by its code), so a
named policy is one more row: seats playing it get a code past the built-in policies and
that row. ``talesim tune`` writes such a file. A ``spec`` entry names a spec of a policy
with parameters (a search such as ``mc``): a seat given that name plays the spec, and the
datasets show the spec's canonical string (``runner.setup`` checks it like a ``--policy``).
A ``learned`` entry names a model file (``simcore.learned``); ``runner.setup`` loads it and
the manifest records its sha256.

The loader checks the file like a card file: one ``CardDataError`` naming the file, the
policy and the field.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from talesim.simcore.cards import CardDataError

SCHEMA = 1
_NAME = re.compile(r"[a-z][a-z0-9-]*\Z")


@dataclass(frozen=True)
class NamedPolicy:
    """A policy defined as data: ``base`` (a built-in heuristic) with ``weights``, or a
    name for a policy ``spec`` (``base`` and ``weights`` then empty)."""

    name: str
    base: str
    weights: tuple[float, ...]
    note: str = ""
    spec: str = ""
    #: a learned policy's model file (absolute, or as written relative to the policies
    #: file) and, once ``runner.setup`` has loaded it, the model
    model_path: str = ""
    model: Any = field(default=None, compare=False, repr=False)


def load(
    path: Path,
    game: str,
    builtin: Sequence[str],
    n_weights: int,
    bases: Sequence[str] | None = None,
) -> tuple[NamedPolicy, ...]:
    """The policies of ``path`` for ``game``, whose built-in policies are ``builtin``; a
    named policy's base is one of ``bases``, the heuristics that decide from a row of
    ``n_weights`` floats (default: every built-in policy but ``random``)."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CardDataError(path, "file not found") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CardDataError(path, f"not a readable TOML file: {exc}") from None
    unknown = set(data) - {"schema", "game", "policy"}
    if unknown:
        raise CardDataError(path, f"unknown top-level key(s): {', '.join(sorted(unknown))}")
    if data.get("schema") != SCHEMA:
        raise CardDataError(path, f"field 'schema' must be {SCHEMA}")
    if data.get("game") != game:
        raise CardDataError(path, f"field 'game' is {data.get('game')!r}, not {game!r}")
    table = data.get("policy", {})
    if not isinstance(table, dict) or not table:
        raise CardDataError(path, "no [policy.NAME] table")
    heuristics = [p for p in builtin if p != "random"] if bases is None else list(bases)
    return tuple(
        _policy(path, name, raw, builtin, heuristics, n_weights) for name, raw in table.items()
    )


def _policy(
    path: Path,
    name: str,
    raw: Any,
    builtin: Sequence[str],
    heuristics: Sequence[str],
    n_weights: int,
) -> NamedPolicy:
    where = f"policy '{name}'"
    if not _NAME.match(name):
        raise CardDataError(path, f"{where}: a name is lower-case letters, digits and hyphens")
    if name in builtin:
        raise CardDataError(path, f"{where}: a built-in policy has that name")
    if not isinstance(raw, dict):
        raise CardDataError(path, f"{where}: must be a table")
    unknown = set(raw) - {"base", "weights", "note", "spec", "model"}
    if unknown:
        raise CardDataError(path, f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    if raw.get("base") == "learned" and "learned" in builtin:
        model = raw.get("model")
        if "weights" in raw or "spec" in raw or not isinstance(model, str) or not model.strip():
            raise CardDataError(
                path, f"{where}: a learned policy has a field 'model' (a model file), no weights"
            )
        where_model = (path.parent / model.strip()).resolve()
        return NamedPolicy(
            name, "learned", (), str(raw.get("note", "")), model_path=str(where_model)
        )
    if "model" in raw:
        raise CardDataError(path, f"{where}: field 'model' is for base = \"learned\" only")
    if "spec" in raw:
        spec = raw["spec"]
        if "base" in raw or "weights" in raw or not isinstance(spec, str) or not spec.strip():
            raise CardDataError(
                path, f"{where}: field 'spec' is a policy spec string, without base or weights"
            )
        return NamedPolicy(name, "", (), str(raw.get("note", "")), spec.strip())
    base = raw.get("base")
    if base not in heuristics:
        raise CardDataError(
            path, f"{where}: field 'base' must be one of {', '.join(heuristics)}, got {base!r}"
        )
    weights = raw.get("weights")
    if (
        not isinstance(weights, list)
        or len(weights) != n_weights
        or not all(isinstance(w, int | float) and not isinstance(w, bool) for w in weights)
        or not all(math.isfinite(w) for w in weights)
    ):
        raise CardDataError(
            path, f"{where}: field 'weights' must be a list of {n_weights} finite numbers"
        )
    return NamedPolicy(name, str(base), tuple(float(w) for w in weights), str(raw.get("note", "")))


def dumps(game: str, policies: Sequence[NamedPolicy], header: str = "") -> str:
    """The TOML text of a policies file (``load`` reads it back)."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    lines += [f"schema = {SCHEMA}", f'game = "{game}"', ""]
    for p in policies:
        lines.append(f"[policy.{p.name}]")
        if p.spec:
            lines.append(f"spec = {_quote(p.spec)}")
        elif p.base == "learned":
            lines.append('base = "learned"')
            lines.append(f"model = {_quote(p.model_path)}")
        else:
            lines.append(f'base = "{p.base}"')
            lines.append("weights = [" + ", ".join(repr(float(w)) for w in p.weights) + "]")
        if p.note:
            lines.append(f"note = {_quote(p.note)}")
        lines.append("")
    return "\n".join(lines)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
