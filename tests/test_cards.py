"""``simcore.cards``: the loaders' shared reading of an array of tables (``entries``) and of a
new card id (``new_id``) name the file, the card and the field of what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from talesim.simcore.cards import CardDataError, entries, new_id


def test_entries_name_each_table_by_its_id_or_number() -> None:
    raw = [{"id": "fox"}, {"name": "no id"}]
    fields = list(entries(Path("c.toml"), raw, "unit"))
    assert [f.card for f in fields] == ["fox", "unit #2"]
    with pytest.raises(CardDataError, match=r"^c\.toml: card '#2': must be a table$"):
        list(entries(Path("c.toml"), [{"id": "a"}, 3], ""))


def test_new_id_checks_the_convention_and_duplicates() -> None:
    seen: set[str] = set()
    raw = [{"id": "time-master"}, {"id": "Time Master"}, {"id": "time-master"}]
    first, bad, again = entries(Path("c.toml"), raw, "card")
    assert new_id(first, seen, "card") == "time-master"
    assert seen == {"time-master"}
    with pytest.raises(CardDataError, match="field 'id': ids are lowercase letters"):
        new_id(bad, seen, "card")
    with pytest.raises(CardDataError, match="field 'id': duplicate card id"):
        new_id(again, seen, "card")
