"""Bad card or rules data: one clear ``CardDataError`` line naming file, card and field,
one case per kind of mistake."""

from __future__ import annotations

from pathlib import Path

import pytest
from kit import data_error

from simcore.cards import CardDataError
from simcore.games.paper_tales.tables import DEFAULT_CARDS, DEFAULT_RULES, load_cardset


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


CARD_CASES = [
    (  # unknown effect kind
        'kind = "fight_from_back" }]\nstatus = "confirmed"\nsource = "CARD, TP, DZ"',
        'kind = "fly" }]\nstatus = "confirmed"\nsource = "CARD, TP, DZ"',
        ("card 'archer'", "field 'abilities[0].kind'", "must be one of"),
    ),
    (  # wrong type
        "copies = 3\ncost = 1\nstrength = 4\nabilities = []",
        'copies = "three"\ncost = 1\nstrength = 4\nabilities = []',
        ("card 'knight'", "field 'copies'", "must be an integer"),
    ),
    (  # unknown resource produced
        "produces = { crystal = 1 }\nabilities = []",
        "produces = { gems = 1 }\nabilities = []",
        ("card 'miner'", "field 'produces.gems'", "unknown field"),
    ),
    (  # unknown resource in a substitution list
        'resources = ["wood"]',
        'resources = ["stone"]',
        ("card 'wood-merchant'", "field 'abilities[0].resources'", "unknown resource 'stone'"),
    ),
    (  # unknown resource in a building requirement
        "level1 = { requires = { food = 1 }",
        "level1 = { requires = { beer = 1 }",
        ("card 'tavern'", "field 'level1.requires.beer'", "unknown field"),
    ),
    (  # copies that do not sum to the deck
        "copies = 3\ncost = 1\nstrength = 4\nabilities = []",
        "copies = 2\ncost = 1\nstrength = 4\nabilities = []",
        ("field 'deck_size'", "the unit copies sum to 80, the file declares 81"),
    ),
    (  # effect in a phase it cannot act in
        'blacksmith: phase = "income"',
        'phase = "war"',
        ("card 'blacksmith'", "field 'abilities[0].phase'", "acts in income, not war"),
    ),
    (  # a parameter the kind does not take
        'kind = "gold_per_war_won", amount = 1 }',
        'kind = "gold_per_war_won", amount = 1, per = "food" }',
        ("card 'rogue'", "field 'abilities[0].per'", "unknown field"),
    ),
    (  # unknown multiplier
        'militiaman: per = "age_self"',
        'per = "moon"',
        ("card 'militiaman'", "field 'abilities[0].per'", "must be one of"),
    ),
    (  # missing required parameter
        'kind = "set_strength", value = 3, when = "has_food"',
        'kind = "set_strength", when = "has_food"',
        ("card 'cerberus'", "field 'abilities[0].value'", "missing"),
    ),
    (  # on_deploy outside deployment
        "commander: amount = 1 }",
        "amount = 1, on_deploy = true }",
        ("card 'commander'", "field 'abilities[0].on_deploy'", "only a unit's deployment"),
    ),
    (  # a multiplier not known yet when the ability is evaluated
        'kind = "add_strength", amount = 1, per = "income_gold"',
        'kind = "add_strength", amount = 1, per = "strong_units"',
        ("card 'ogre'", "field 'abilities[0].per'", "'strong_units' is known only"),
    ),
    (  # unit-only effect on a building
        'abilities = [{ phase = "income", kind = "gold", amount = 2 }]',
        'abilities = [{ phase = "war", kind = "fight_from_back" }]',
        ("card 'temple'", "field 'level1.abilities[0].kind'", "a building cannot carry it"),
    ),
    (  # production condition that would be circular
        'produces = { food = 1, when = "front_row" }',
        'produces = { food = 1, when = "has_food" }',
        ("card 'hunter'", "field 'produces.when'", "must be one of"),
    ),
    (  # duplicate id
        'id = "knight"',
        'id = "archer"',
        ("card 'archer'", "field 'id'", "duplicate unit id"),
    ),
    (  # unknown field on a card
        'id = "knight"',
        'id = "knight"\nfaction = "holy"',
        ("card 'knight'", "field 'faction'", "unknown field"),
    ),
    (  # unknown source key, bad status
        'source = "CARD, TP"\ntext = "No ability."',
        'source = "CARD, BGG"\ntext = "No ability."',
        ("card 'knight'", "field 'source'", "unknown source key 'BGG'"),
    ),
    (
        'status = "confirmed"\nsource = "CARD, TP"\ntext = "No ability."',
        'status = "sure"\nsource = "CARD, TP"\ntext = "No ability."',
        ("card 'knight'", "field 'status'", "must be one of confirmed"),
    ),
    (  # missing text
        'text = "No ability."',
        'notes = "no text"',
        ("card 'knight'", "field 'text'", "missing"),
    ),
    (  # another game's file
        'schema = 1\ngame = "paper-tales"',
        'schema = 1\ngame = "drako"',
        ("field 'game'", "not paper-tales"),
    ),
]


@pytest.mark.parametrize(("old", "new", "fragments"), CARD_CASES)
def test_bad_card_data_is_one_line(tmp_path: Path, old: str, new: str, fragments) -> None:
    path = edited(tmp_path, DEFAULT_CARDS, old, new)
    data_error(lambda: load_cardset(path), path, *fragments)


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
