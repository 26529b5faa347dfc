"""The ``learned`` player's model as data: a small network that scores a decision's
candidates from their features, loaded like a card file.

A model belongs to one game and lists the variants it plays, the features it reads (the
game's ``learned.FEATURES``, by name and in order), its decision kinds (the game's
``learned.KINDS``) and ``top``: how many candidates it scores, the best ``top`` by the
game's greedy value (the candidates its expert searched while it learned). Each kind has a
head of its own::

    z      = (x - mean) / scale                       (x: a candidate's features)
    score  = linear . z + output . relu(hidden_weights^T z + hidden_bias)

``hidden = 0`` is a linear model. The seat plays the candidate of the best score; ties go
to the earlier one in greedy's order (the heuristic's first best).

File format (TOML, written by ``talesim learn``; ``dumps`` / ``load``)::

    schema = 1
    game = "fairy-tale"
    variants = ["expert"]
    players = [4]                     # player counts it was trained at (information)
    top = 4
    hidden = 16
    features = ["gain", "effect", ...]
    note = "talesim learn fairy-tale ..."    # how it was made (optional)

    [head.draft]
    mean = [...]                      # F numbers each: mean, scale (> 0), linear
    scale = [...]
    linear = [...]
    hidden_weights = [[...], ...]     # F rows of `hidden` numbers
    hidden_bias = [...]               # `hidden` numbers
    output = [...]

The kernels read every model of a run as one row of a float64 array (``pack``); ``score``
is the plain-Python twin of the kernels' ``simcore.learned_score.model_score`` (the same
operations in the same order, so the rulebook and the kernel take the same decisions).
No numba here.
"""

from __future__ import annotations

import hashlib
import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple, TypeGuard

import numpy as np

from talesim.simcore.cards import CardDataError

SCHEMA = 1
#: The packed row's header: features, hidden units, kinds, top.
HEADER = 4
#: Hidden units a model has at most (the scratch of the kernels' ``model_score``).
MAX_HIDDEN = 64
_TOP_FIELDS = {"schema", "game", "variants", "players", "top", "hidden", "features", "note", "head"}
_HEAD_FIELDS = ("mean", "scale", "linear", "hidden_weights", "hidden_bias", "output")


@dataclass(frozen=True)
class Head:
    """One decision kind's weights (float64 arrays): ``mean``/``scale``/``linear`` [F],
    ``hidden_weights`` [F, H], ``hidden_bias`` and ``output`` [H]."""

    mean: np.ndarray
    scale: np.ndarray
    linear: np.ndarray
    hidden_weights: np.ndarray
    hidden_bias: np.ndarray
    output: np.ndarray


@dataclass(frozen=True)
class Model:
    """A learned player's model (see the module docstring); ``sha256`` of its file's bytes
    (the manifest records it), ``path`` where it was read ('' for one built in memory)."""

    game: str
    variants: tuple[str, ...]
    players: tuple[int, ...]
    top: int
    hidden: int
    features: tuple[str, ...]
    kinds: tuple[str, ...]
    heads: tuple[Head, ...]  # one per kind, in ``kinds`` order
    note: str = ""
    path: str = ""
    sha256: str = ""

    @property
    def size(self) -> int:
        """Length of the packed row (``pack``)."""
        f, h = len(self.features), self.hidden
        return HEADER + len(self.kinds) * head_size(f, h)

    def score(self, kind: int, x: Sequence[float]) -> float:
        """Score of a candidate of decision kind ``kind`` with features ``x``: the kernels'
        ``model_score``, operation for operation."""
        head = self.heads[kind]
        f = len(self.features)
        z = [(float(x[i]) - float(head.mean[i])) / float(head.scale[i]) for i in range(f)]
        s = 0.0
        for i in range(f):
            s += float(head.linear[i]) * z[i]
        for j in range(self.hidden):
            a = float(head.hidden_bias[j])
            for i in range(f):
                a += float(head.hidden_weights[i, j]) * z[i]
            if a > 0.0:
                s += float(head.output[j]) * a
        return s

    def choose(self, kind: int, xs: Sequence[Sequence[float]]) -> tuple[list[float], int]:
        """Each candidate's ``score`` (features ``xs``, in greedy's order) and the index of
        the best, ties to the first (the kernels' strict ``>``: greedy's first best)."""
        scores = [self.score(kind, x) for x in xs]
        best, choice = -float("inf"), 0
        for j, s in enumerate(scores):
            if s > best:
                best, choice = s, j
        return scores, choice


class Record(NamedTuple):
    """What a run that records (``talesim learn``) keeps of each searched decision, by game
    offset ``u`` and row ``r < count[u]``: the features of each searched candidate (greedy's
    order, ``n[u, r]`` of them), its mean playout outcome in wins, the decision kind and the
    searching seat. The kernels fill it; a run that records nothing passes ``no_record()``."""

    x: np.ndarray  # float32[n, R, T, F]
    value: np.ndarray  # float32[n, R, T]
    n: np.ndarray  # int8[n, R]
    kind: np.ndarray  # int8[n, R]
    seat: np.ndarray  # int8[n, R]
    count: np.ndarray  # type: ignore[assignment]  # int16[n] (shadows tuple.count)


def new_record(n_games: int, rows: int, top: int, n_features: int) -> Record:
    """Zeroed ``Record`` buffers: ``rows`` decisions a game, ``top`` candidates each."""
    return Record(
        np.zeros((n_games, rows, top, n_features), dtype=np.float32),
        np.zeros((n_games, rows, top), dtype=np.float32),
        np.zeros((n_games, rows), dtype=np.int8),
        np.zeros((n_games, rows), dtype=np.int8),
        np.zeros((n_games, rows), dtype=np.int8),
        np.zeros(n_games, dtype=np.int16),
    )


def no_record() -> Record:
    """The ``Record`` of a run that records nothing (no games: the kernels skip it)."""
    return new_record(0, 0, 0, 0)


def head_size(f: int, h: int) -> int:
    """Packed length of one head: mean, scale, linear, hidden weights, bias, output."""
    return 3 * f + f * h + 2 * h


def pack(models: Sequence[Model]) -> np.ndarray:
    """float64[max(1, len(models)), width]: one row per model, the kernels' layout: header
    (features, hidden, kinds, top), then each kind's head (mean, scale, linear, hidden
    weights row-major [F, H], hidden bias, output). No model: one row of zeros (the search
    kernel takes the array whatever the seats)."""
    width = max([HEADER, *(m.size for m in models)])
    out = np.zeros((max(1, len(models)), width), dtype=np.float64)
    for r, m in enumerate(models):
        f, h = len(m.features), m.hidden
        out[r, :HEADER] = (f, h, len(m.kinds), m.top)
        at = HEADER
        for head in m.heads:
            for part in (head.mean, head.scale, head.linear, head.hidden_weights.reshape(-1)):
                out[r, at : at + part.size] = part
                at += part.size
            out[r, at : at + h] = head.hidden_bias
            out[r, at + h : at + 2 * h] = head.output
            at += 2 * h
    return np.ascontiguousarray(out)


def load(
    path: Path | str,
    game: str,
    features: Sequence[str],
    kinds: Sequence[str],
    variant: str | None = None,
) -> Model:
    """The model of ``path`` for ``game``, whose learned player computes ``features`` for
    ``kinds`` of decisions; with ``variant``, it must list that variant. One
    ``CardDataError`` naming the file and what is wrong."""
    path = Path(path)
    try:
        raw = path.read_bytes()
        data = tomllib.loads(raw.decode("utf-8"))
    except FileNotFoundError:
        raise CardDataError(path, "file not found") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CardDataError(path, f"not a readable TOML model file: {exc}") from None
    model = from_dict(data, path, game, features, kinds)
    if variant is not None and variant not in model.variants:
        raise CardDataError(
            path,
            f"the model plays {game} {', '.join(model.variants)}, not {variant} "
            "(train one with `talesim learn`)",
        )
    return replace(model, path=str(path), sha256=hashlib.sha256(raw).hexdigest())


def from_dict(
    data: dict[str, Any], path: Path, game: str, features: Sequence[str], kinds: Sequence[str]
) -> Model:
    """``load``'s checks on a parsed file."""
    unknown = set(data) - _TOP_FIELDS
    if unknown:
        raise CardDataError(path, f"unknown top-level key(s): {', '.join(sorted(unknown))}")
    if data.get("schema") != SCHEMA:
        raise CardDataError(path, f"field 'schema' must be {SCHEMA} (is this a model file?)")
    if data.get("game") != game:
        raise CardDataError(
            path, f"this is a {data.get('game')!r} model, not a {game!r} one", field="game"
        )
    if list(data.get("features", [])) != list(features):
        raise CardDataError(
            path,
            "the model reads features "
            f"{', '.join(map(str, data.get('features', []))) or '(none)'}; this version "
            f"computes {', '.join(features)} (retrain it with `talesim learn`)",
            field="features",
        )
    variants = data.get("variants")
    if (
        not isinstance(variants, list)
        or not variants
        or not all(isinstance(v, str) for v in variants)
    ):
        raise CardDataError(path, "a non-empty list of variant names", field="variants")
    players = data.get("players", [])
    if not isinstance(players, list) or not all(_is_int(p) for p in players):
        raise CardDataError(path, "a list of player counts", field="players")
    top = data.get("top")
    if not _is_int(top) or not 1 <= top <= 64:
        raise CardDataError(path, "an integer from 1 to 64", field="top")
    hidden = data.get("hidden")
    if not _is_int(hidden) or not 0 <= hidden <= MAX_HIDDEN:
        raise CardDataError(path, f"an integer from 0 to {MAX_HIDDEN}", field="hidden")
    heads_raw = data.get("head")
    if not isinstance(heads_raw, dict) or set(heads_raw) != set(kinds):
        raise CardDataError(
            path, f"one [head.KIND] table for each of {', '.join(kinds)}", field="head"
        )
    f = len(features)
    heads = tuple(_head(path, k, heads_raw[k], f, hidden) for k in kinds)
    return Model(
        game=game,
        variants=tuple(variants),
        players=tuple(int(p) for p in players),
        top=int(top),
        hidden=int(hidden),
        features=tuple(features),
        kinds=tuple(kinds),
        heads=heads,
        note=str(data.get("note", "")),
    )


def _is_int(x: Any) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def _numbers(path: Path, where: str, value: Any, n: int) -> np.ndarray:
    if (
        not isinstance(value, list)
        or len(value) != n
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        or not all(math.isfinite(v) for v in value)
    ):
        raise CardDataError(path, f"{where}: a list of {n} finite numbers")
    return np.array(value, dtype=np.float64)


def _head(path: Path, kind: str, raw: Any, f: int, h: int) -> Head:
    where = f"head '{kind}'"
    if not isinstance(raw, dict):
        raise CardDataError(path, f"{where}: must be a table")
    unknown = set(raw) - set(_HEAD_FIELDS)
    if unknown:
        raise CardDataError(path, f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    mean = _numbers(path, f"{where}: field 'mean'", raw.get("mean"), f)
    scale = _numbers(path, f"{where}: field 'scale'", raw.get("scale"), f)
    if (scale <= 0).any():
        raise CardDataError(path, f"{where}: field 'scale': every entry must be > 0")
    linear = _numbers(path, f"{where}: field 'linear'", raw.get("linear"), f)
    rows = raw.get("hidden_weights", [])
    if not isinstance(rows, list) or len(rows) != (f if h else 0):
        raise CardDataError(
            path, f"{where}: field 'hidden_weights': {f if h else 0} rows of {h} numbers"
        )
    w1 = np.zeros((f, h), dtype=np.float64)
    for i, row in enumerate(rows):
        w1[i] = _numbers(path, f"{where}: field 'hidden_weights' row {i}", row, h)
    b1 = _numbers(path, f"{where}: field 'hidden_bias'", raw.get("hidden_bias", []), h)
    w2 = _numbers(path, f"{where}: field 'output'", raw.get("output", []), h)
    return Head(mean, scale, linear, w1, b1, w2)


def dumps(model: Model, header: str = "") -> str:
    """The TOML text of ``model`` (``load`` reads it back to the same numbers: floats are
    written by ``repr``, which round-trips)."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    lines += [
        f"schema = {SCHEMA}",
        f'game = "{model.game}"',
        "variants = [" + ", ".join(f'"{v}"' for v in model.variants) + "]",
        "players = [" + ", ".join(str(p) for p in model.players) + "]",
        f"top = {model.top}",
        f"hidden = {model.hidden}",
        "features = [" + ", ".join(f'"{f}"' for f in model.features) + "]",
    ]
    if model.note:
        lines.append(f"note = {_quote(model.note)}")
    for kind, head in zip(model.kinds, model.heads, strict=True):
        lines += ["", f"[head.{kind}]"]
        lines.append(f"mean = {_floats(head.mean)}")
        lines.append(f"scale = {_floats(head.scale)}")
        lines.append(f"linear = {_floats(head.linear)}")
        if model.hidden:
            lines.append("hidden_weights = [")
            lines += [f"    {_floats(row)}," for row in head.hidden_weights]
            lines.append("]")
        else:
            lines.append("hidden_weights = []")
        lines.append(f"hidden_bias = {_floats(head.hidden_bias)}")
        lines.append(f"output = {_floats(head.output)}")
    return "\n".join(lines) + "\n"


def _floats(values: np.ndarray) -> str:
    return "[" + ", ".join(repr(float(v)) for v in values) + "]"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
