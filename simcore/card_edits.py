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
    signed = true                   # optional: the number may change sign (default: it
                                    # keeps its sign; 0 counts as positive)
    ability = true                  # optional: a parameter of the card's ability (what it
                                    # does beyond its plain numbers); the search never
                                    # zeroes the last non-zero one a card has

A path is dot-separated keys; ``*`` stands for every key of a table (``land_points.*``:
each land a tribe scores), ``[*]`` for every element of a list (``dragon_values[*]``),
``[key=value]`` for every element of a list of tables whose ``key`` equals ``value``
(``abilities[kind=lp].amount``) and ``{variant}`` for the variant being played
(``{variant}.dragon_values[*]`` inside ``[preset]``). One declared field on one entity may
so give several *sites*, each one number with its concrete path (``abilities[1].amount``).
A site is named by its field's name (``lp``), numbered when one entity has several sites of
the field (``produces#2``): the name ``--fields`` takes, the terminal, the page and
``changes.csv`` show.

The card file is read and written with ``tomlkit``, which keeps its comments and layout:
the proposal is the user's file with a few numbers changed, each with a comment saying
what it was.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from talesim.simcore.cards import CardDataError

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
    signed: bool = False  # may change sign (else a value keeps its sign; 0 counts as >= 0)
    ability: bool = False  # a parameter of the card's ability (never all zeroed)


@dataclass(frozen=True)
class Site:
    """One editable number: entity ``entity`` (its id) of table ``table``, at ``path``
    (concrete keys and list indices), currently ``value``."""

    entity: str
    field: Field
    path: tuple[str | int, ...]
    value: int
    table_id: str = ""  # the id of the table entry holding it (its [[table]] ``id``)
    label: str = ""  # the field's name, numbered when the entity has several (``sites``)

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
        bounds (a value already outside them may only move back towards them), and, unless
        the field is ``signed``, never across zero (a negative value stays at most 0, any
        other at least 0)."""
        f = self.field
        least, most = f.min, f.max
        if not f.signed:
            least, most = (least, min(most, 0)) if self.value < 0 else (max(least, 0), most)
        lo = max(-radius, -((self.value - least) // f.step))
        hi = min(radius, (most - self.value) // f.step)
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
        known = {"name", "table", "path", "when", "min", "max", "step", "stronger", "entity",
                 "signed", "ability"}  # fmt: skip
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
                signed=bool(raw.get("signed", False)),
                ability=bool(raw.get("ability", False)),
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
    return _labelled(out)


def _labelled(found: Sequence[Site]) -> list[Site]:
    """``found`` with each site's ``label``: its field's name, ``#k`` added (1, 2, ...) when
    its entity has several sites of that field."""
    total = Counter((s.entity, s.field.name) for s in found)
    seen: Counter[tuple[str, str]] = Counter()
    out = []
    for s in found:
        key = (s.entity, s.field.name)
        seen[key] += 1
        label = s.field.name + (f"#{seen[key]}" if total[key] > 1 else "")
        out.append(replace(s, label=label))
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


#: A number in a card's rules text: an optional sign (``+``, ``-``, ``−``) and digits.
_NUMBER = re.compile(r"(?<![\w.])([+\-−]?)(\d+)(?!\w|\.\d)")


def retext(text: str, edits: Sequence[Edit]) -> str | None:
    """A card's rules ``text`` with the numbers of ``edits`` (all on that card) rewritten,
    or None when that cannot be done safely: each old value's magnitude must stand in the
    text exactly once as a number, the edits at different places, and no value may change
    sign. The text's own sign and wording are kept (``+1`` -> ``+2``, ``−1`` -> ``−2``,
    "costs you 1 point" -> "costs you 2 point")."""
    spans = []
    for edit in edits:
        old, new = edit.site.value, edit.new
        found = [m for m in _NUMBER.finditer(text) if int(m[2]) == abs(old)]
        if len(found) != 1 or (old < 0 < new) or (new < 0 < old):
            return None
        spans.append((found[0], abs(new)))
    if len({m.start() for m, _ in spans}) != len(spans):
        return None
    for m, magnitude in sorted(spans, key=lambda x: -x[0].start()):
        text = text[: m.start()] + f"{m[1]}{magnitude}" + text[m.end() :]
    return text


def edited_text(path: Path, edits: Sequence[Edit], header: str = "") -> tuple[str, list[str]]:
    """The text of card file ``path`` with ``edits`` applied, each changed entity's
    ``[[table]]`` headed by a comment naming the change, and the entities whose rules text
    (their ``text`` key) could not be rewritten with the new numbers (``retext``): their
    comment says the text is stale. ``header`` (comment lines) goes first."""
    import tomlkit

    doc = read_document(path)
    notes: dict[int, tuple[Any, list[Edit]]] = {}
    for edit in edits:
        entity = _entity(doc, edit.site)
        node = entity
        for part in edit.site.path[:-1]:
            node = node[part]
        node[edit.site.path[-1]] = edit.new
        notes.setdefault(id(entity), (entity, []))[1].append(edit)
    stale = []
    for entity, changed in notes.values():
        comment = "talesim balance: " + "; ".join(
            f"{e.site.label or e.site.where} {e.site.value} -> {e.new}" for e in changed
        )
        if isinstance(entity.get("text"), str):
            new_text = retext(str(entity["text"]), changed)
            if new_text is None:
                stale.append(changed[0].site.entity)
                comment += "; STALE TEXT: the rules text below still has the old number(s)"
            else:
                entity["text"] = new_text
        if isinstance(entity, tomlkit.items.Table):
            entity.comment(comment)
    text = tomlkit.dumps(doc)
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    return ("\n".join(lines) + "\n\n" if lines else "") + text, sorted(set(stale))
