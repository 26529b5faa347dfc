"""Bad card or rules data: one clear ``CardDataError`` line naming file, card and field,
one case per kind of mistake (the card-data cases, edits of TOML text, in
``loader_errors.toml``)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from kit import data_error

from talesim.simcore.cards import CardDataError
from talesim.simcore.games.paper_tales.tables import DEFAULT_CARDS, DEFAULT_RULES, load_cardset


def edited(tmp_path: Path, source: Path, old: str, new: str) -> Path:
    """A copy of ``source`` with the first ``old`` replaced. ``old`` may start with
    ``"<id>: "`` to replace inside that card's table only."""
    text = source.read_text(encoding="utf-8")
    card, sep, rest = old.partition(": ")
    start, end = 0, len(text)
    if sep and f'id = "{card}"' in text:
        old = rest
        start = text.index(f'id = "{card}"')
        end = text.find("[[", start)
        end = len(text) if end < 0 else end
    block = text[start:end]
    assert old in block, old
    path = tmp_path / source.name
    path.write_text(text[:start] + block.replace(old, new, 1) + text[end:], encoding="utf-8")
    return path


CASES_FILE = Path(__file__).with_name("loader_errors.toml")
#: The card-data cases: a mistake each, the edit that makes it and what its error names.
CARD_CASES = tomllib.loads(CASES_FILE.read_text(encoding="utf-8"))["card"]


@pytest.mark.parametrize("case", CARD_CASES, ids=[c["mistake"] for c in CARD_CASES])
def test_bad_card_data_is_one_line(tmp_path: Path, case: dict[str, Any]) -> None:
    path = edited(tmp_path, DEFAULT_CARDS, case["old"], case["new"])
    data_error(lambda: load_cardset(path), path, *case["error"])


RULE_CASES = [
    ('first_draft_direction = "next"', 'first_draft_direction = "left"', "must be one of next"),
    ("war_lp = 3 ", 'war_lp = "3" ', "field 'rules.war_lp': must be an integer"),
    ("healed_units_age = true", "healed_units_age = 1", "must be true or false"),
    ("deal = 9 ", "deal = 11 ", "field 'two_player.deal': must be between 1 and 9"),
    ("expansions = []", 'expansions = ["forge"]', "no expansion data exists yet"),
    (
        'aging_order = ["heal", "death_abilities", "discard", "age_survivors"]',
        'aging_order = ["discard", "heal", "death_abilities", "age_survivors"]',
        "only the order of docs/rules/paper-tales.md §8",
    ),
    ("turns = 4 ", "turns = 4\nrounds = 4 ", "field 'rules.rounds': unknown field"),
]


@pytest.mark.parametrize(("old", "new", "fragment"), RULE_CASES)
def test_bad_rules_data_is_one_line(tmp_path: Path, old: str, new: str, fragment: str) -> None:
    path = edited(tmp_path, DEFAULT_RULES, old, new)
    data_error(lambda: load_cardset(None, path), None, fragment)


def test_missing_and_broken_files(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="file not found"):
        load_cardset(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[[unit]\n")
    with pytest.raises(CardDataError, match="not valid TOML"):
        load_cardset(bad)
