"""Edits of a game's card data: which numbers ``talesim balance`` may change, and writing
a card file with some of them changed.

Each game declares the editable fields of its card data in ``balance.toml`` beside its
card file (``simcore/games/<game>/balance.toml``), one ``[[field]]`` each:

    [[field]]
    name = "points"                 # what ``--fields`` names
    table = "card"                  # the array of tables holding the entities ([[card]])
    path = "value.points"           # where the number is, inside one entity
    when = { "value.kind" = ["fixed", "majority"] }   # optional: only entities matching
    min = -5                        # bounds of the value (inclusive), in the loader's range
    max = 15
    step = 1                        # the smallest change
    stronger = "up"                 # which way makes the entity stronger: up | down
    entity = "dragon"               # optional: the dataset entity (card) the number is of,
                                    # when the table holding it is not one entry per card

A path is dot-separated keys; ``*`` stands for every key of a table (``land_points.*``:
each land a tribe scores), ``[*]`` for every element of a list (``dragon_values[*]``),
``[key=value]`` for every element of a list of tables whose ``key`` equals ``value``
(``abilities[kind=lp].amount``) and ``{variant}`` for the variant being played
(``{variant}.dragon_values[*]`` inside ``[preset]``). One declared field on one entity may
so give several *sites*, each one number with its concrete path (``abilities[1].amount``).

The card file is read and written with ``tomlkit``, which keeps its comments and layout:
the proposal is the user's file with a few numbers changed, each with a comment saying
what it was.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcore.cards import CardDataError

#: The file beside a game's card data that declares its editable fields.
FIELDS_FILE = "balance.toml"

_SELECT = re.compile(r"^(?P<key>[A-Za-z_][\w-]*)\[(?P<field>[\w-]+)=(?P<value>[^\]]+)\]$")
_EVERY = re.compile(r"^(?P<key>[A-Za-z_][\w-]*)\[\*\]$")


@dataclass(frozen=True)
class Field:
    """One declared editable field (see the module docstring)."""

    name: str
    table: str
    path: str
    when: tuple[tuple[str, tuple[Any, ...]], ...]
    min: int
    max: int
    step: int
    stronger: str  # "up" | "down"
    entity: str | None = None  # the dataset entity, when not the table entry's own id


@dataclass(frozen=True)
class Site:
    """One editable number: entity ``entity`` (its id) of table ``table``, at ``path``
    (concrete keys and list indices), currently ``value``."""

    entity: str
    field: Field
    path: tuple[str | int, ...]
    value: int
    table_id: str = ""  # the id of the table entry holding it (its [[table]] ``id``)

    @property
    def where(self) -> str:
        """The concrete path as written in changes.csv: ``abilities[1].amount``."""
        out = ""
        for part in self.path:
            out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
        return out

    @property
    def key(self) -> str:
        """A stable identifier (Optuna parameter name): ``entry/path``."""
        return f"{self.table_id}/{self.where}"

    def bounds(self, radius: int) -> tuple[int, int]:
        """The steps this site may move: at most ``radius`` either way, within the field's
        bounds (a value already outside them may only move back towards them)."""
        f = self.field
        lo = max(-radius, -((self.value - f.min) // f.step))
        hi = min(radius, (f.max - self.value) // f.step)
        return min(lo, 0), max(hi, 0)


@dataclass(frozen=True)
class Edit:
    """A site moved by ``steps`` steps of its field."""

    site: Site
    steps: int

    @property
    def new(self) -> int:
        return self.site.value + self.steps * self.site.field.step


def load_fields(path: Path) -> list[Field]:
    """The ``[[field]]`` declarations of ``path``; a ``CardDataError`` names a bad entry."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise CardDataError(path, f"cannot read the editable fields: {exc}") from None
    fields = []
    for i, raw in enumerate(data.get("field", [])):
        where = f"[[field]] #{i + 1}"
        known = {"name", "table", "path", "when", "min", "max", "step", "stronger", "entity"}
        unknown = set(raw) - known
        if unknown:
            raise CardDataError(path, f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        try:
            when = tuple(
                (k, tuple(v) if isinstance(v, list) else (v,))
                for k, v in dict(raw.get("when", {})).items()
            )
            field = Field(
                name=str(raw["name"]),
                table=str(raw["table"]),
                path=str(raw["path"]),
                when=when,
                min=int(raw["min"]),
                max=int(raw["max"]),
                step=int(raw.get("step", 1)),
                stronger=str(raw.get("stronger", "up")),
                entity=str(raw["entity"]) if "entity" in raw else None,
            )
        except KeyError as exc:
            raise CardDataError(path, f"{where}: missing key {exc}") from None
        if field.step < 1 or field.min > field.max or field.stronger not in ("up", "down"):
            raise CardDataError(
                path, f"{where} ({field.name}): need step >= 1, min <= max, stronger up|down"
            )
        fields.append(field)
    names = [f.name for f in fields]
    if len(set(names)) != len(names):
        raise CardDataError(path, "two [[field]] entries share a name")
    return fields


def _lookup(node: Any, dotted: str) -> Any:
    for key in dotted.split("."):
        if not isinstance(node, Mapping) or key not in node:
            return None
        node = node[key]
    return node


def _expand(node: Any, parts: Sequence[str], prefix: tuple[str | int, ...]) -> Iterator[tuple]:
    """(concrete path, value) of every number ``parts`` reaches from ``node``."""
    if not parts:
        if isinstance(node, int) and not isinstance(node, bool):
            yield prefix, int(node)
        return
    head, rest = parts[0], parts[1:]
    if head == "*":
        if isinstance(node, Mapping):
            for key in node:
                yield from _expand(node[key], rest, (*prefix, str(key)))
        return
    step = _EVERY.match(head) or _SELECT.match(head)
    if step:
        items = node.get(step["key"]) if isinstance(node, Mapping) else None
        if isinstance(items, list):
            for i, item in enumerate(items):
                if _selected(step, item):
                    yield from _expand(item, rest, (*prefix, step["key"], i))
        return
    if isinstance(node, Mapping) and head in node:
        yield from _expand(node[head], rest, (*prefix, head))


def _selected(step: re.Match[str], item: Any) -> bool:
    """Whether a list's ``item`` is one a path ``step`` reaches: every item (``key[*]``) or
    a table whose ``field`` reads ``value`` (``key[field=value]``)."""
    if step.re is _EVERY:
        return True
    return isinstance(item, Mapping) and str(item.get(step["field"])) == step["value"]


def sites(data: Mapping[str, Any], fields: Sequence[Field], variant: str = "") -> list[Site]:
    """Every editable number of the card data ``data`` (a parsed card file) in a game of
    ``variant``, in file order per field."""
    out = []
    for field in fields:
        parts = field.path.replace("{variant}", variant).split(".")
        entities = data.get(field.table, [])
        if isinstance(entities, Mapping):  # a single table, e.g. [rules]
            entities = [entities]
        for entity in entities:
            if not isinstance(entity, Mapping):
                continue
            if any(_lookup(entity, k) not in allowed for k, allowed in field.when):
                continue
            eid = field.entity or str(entity.get("id", field.table))
            tid = str(entity.get("id", field.table))
            for path, value in _expand(entity, parts, ()):
                out.append(Site(eid, field, path, value, tid))
    return out


def read_document(path: Path) -> Any:
    """The card file as a ``tomlkit`` document (comments and layout kept)."""
    import tomlkit

    try:
        return tomlkit.parse(path.read_text(encoding="utf-8"))
    except (OSError, tomlkit.exceptions.TOMLKitError) as exc:
        raise CardDataError(path, f"cannot read: {exc}") from None


def _entity(doc: Any, site: Site) -> Any:
    entities = doc[site.field.table]
    if not isinstance(entities, list):
        return entities
    for entity in entities:
        if str(entity.get("id", site.field.table)) == site.table_id:
            return entity
    raise KeyError(site.table_id)


def edited_text(path: Path, edits: Sequence[Edit], header: str = "") -> str:
    """The text of card file ``path`` with ``edits`` applied, each changed entity's
    ``[[table]]`` headed by a comment naming the change; ``header`` (comment lines) goes
    first."""
    import tomlkit

    doc = read_document(path)
    notes: dict[int, tuple[Any, list[str]]] = {}
    for edit in edits:
        entity = _entity(doc, edit.site)
        node = entity
        for part in edit.site.path[:-1]:
            node = node[part]
        node[edit.site.path[-1]] = edit.new
        change = f"{edit.site.where} {edit.site.value} -> {edit.new}"
        notes.setdefault(id(entity), (entity, []))[1].append(change)
    for entity, changes in notes.values():
        if isinstance(entity, tomlkit.items.Table):
            entity.comment("talesim balance: " + "; ".join(changes))
    text = tomlkit.dumps(doc)
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    return ("\n".join(lines) + "\n\n" if lines else "") + text
