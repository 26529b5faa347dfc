"""Generic card-data loading: TOML files, field validation, one-line errors.

Each game's ``tables.py`` describes its own schema with the helpers below; every
problem is raised as ``CardDataError`` whose message names the file, the card and
the field, so the CLI can print exactly one clear line.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from talesim.simcore.errors import TalesimError
from talesim.simcore.names import did_you_mean


class CardDataError(TalesimError, ValueError):
    """A card file is unreadable or breaks the game's schema."""

    def __init__(
        self, file: Path | str, message: str, card: str | None = None, field: str | None = None
    ) -> None:
        where = str(file)
        if card is not None:
            where += f": card '{card}'"
        if field is not None:
            where += f": field '{field}'"
        super().__init__(f"{where}: {message}")
        self.file = str(file)
        self.card = card
        self.field = field


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file, turning I/O and syntax errors into ``CardDataError``."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise CardDataError(path, "file not found") from None
    except IsADirectoryError:
        raise CardDataError(path, "is a directory, not a TOML file") from None
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError(path, f"not valid TOML ({exc})") from None
    except UnicodeDecodeError:
        raise CardDataError(path, "not valid UTF-8 text") from None
    except OSError as exc:  # not a directory, name too long, permission denied, ...
        raise CardDataError(path, f"cannot read ({exc.strerror or exc})") from None


def entries(path: Path, raw: Iterable[Any], label: str) -> Iterator[Fields]:
    """The ``Fields`` of each table of an array of tables (``[[card]]``), in file order, each
    named in errors by its ``id`` or, without a string id, by ``label`` and its number (``#3``
    after an empty label); an entry that is not a table is a ``CardDataError``."""
    for n, entry in enumerate(raw, start=1):
        name = f"{label} #{n}" if label else f"#{n}"
        if not isinstance(entry, dict):
            raise CardDataError(path, "must be a table", card=name)
        raw_id = entry.get("id")
        yield Fields(path, entry, raw_id if isinstance(raw_id, str) else name)


def new_id(f: Fields, seen: set[str], what: str) -> str:
    """The entry's ``id``: lowercase letters, digits and hyphens (the dataset's id
    convention), not in ``seen`` (ids of the same ``what`` read so far), which it joins."""
    cid = f.string("id")
    if not all(ch.islower() or ch.isdigit() or ch == "-" for ch in cid):
        raise f.error("id", "ids are lowercase letters, digits and hyphens")
    if cid in seen:
        raise f.error("id", f"duplicate {what} id")
    seen.add(cid)
    return cid


def file_sha256(*paths: Path) -> str:
    """sha256 over the bytes of the given files, in order (the manifest's card-set hash)."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


class Fields:
    """Typed access to one TOML table, with errors that name file, card and field."""

    def __init__(
        self, file: Path | str, table: Mapping[str, Any], card: str | None, prefix: str = ""
    ) -> None:
        self.file = file
        self.table = table
        self.card = card
        self.prefix = prefix

    def _err(self, field: str, message: str) -> CardDataError:
        return CardDataError(self.file, message, card=self.card, field=self.prefix + field)

    def reject_unknown(self, allowed: Iterable[str]) -> None:
        allowed = set(allowed)
        for key in self.table:
            if key not in allowed:
                hint = did_you_mean(key, sorted(allowed))
                raise self._err(key, f"unknown field (allowed: {', '.join(sorted(allowed))}){hint}")

    def for_game(self, game: str) -> None:
        """The file's ``game`` (optional) is ``game``: another game's file is refused by its
        game, before this game's schema judges its fields."""
        other = self.table.get("game", game)
        if other != game:
            raise self._err("game", f"this is a card file for {other!r}, not {game}")

    def has(self, field: str) -> bool:
        return field in self.table

    def get(self, field: str, default: Any = ...) -> Any:
        if field not in self.table:
            if default is ...:
                raise self._err(field, "missing")
            return default
        return self.table[field]

    def string(self, field: str, default: Any = ...) -> str:
        value = self.get(field, default)
        if not isinstance(value, str) or not value:
            raise self._err(field, f"must be a non-empty string, got {value!r}")
        return value

    def optional_string(self, field: str) -> str | None:
        """A non-empty string if the field is present, else None."""
        return self.string(field) if field in self.table else None

    def integer(self, field: str, lo: int, hi: int, default: Any = ...) -> int:
        value = self.get(field, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._err(field, f"must be an integer, got {value!r}")
        if not lo <= value <= hi:
            raise self._err(field, f"must be between {lo} and {hi}, got {value}")
        return value

    def choice(self, field: str, options: Iterable[str], default: Any = ...) -> str:
        options = list(options)
        value = self.get(field, default)
        if value not in options:
            raise self._err(field, f"must be one of {', '.join(map(str, options))}; got {value!r}")
        return str(value)

    def str_list(self, field: str, default: Any = ...) -> list[str]:
        value = self.get(field, default)
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self._err(field, f"must be a list of strings, got {value!r}")
        return list(value)

    def sub(self, field: str, default: Any = ...) -> Fields:
        value = self.get(field, default)
        if not isinstance(value, Mapping):
            raise self._err(field, f"must be a table, got {value!r}")
        return Fields(self.file, value, self.card, prefix=f"{self.prefix}{field}.")

    def error(self, field: str, message: str) -> CardDataError:
        """An error about ``field`` (for cross-field checks done by the caller)."""
        return self._err(field, message)
