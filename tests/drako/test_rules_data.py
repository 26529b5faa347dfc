"""The rules file: counts against the rules page, the presets, the compiled tables, and one
clear error line for each kind of bad data.

Rules (sections of ``docs/rules/drako.md``): §2 (kinds, copies), §5 (15 Legends, 44
points), §7.3 (dragon values), §8.1 (brief vs published), §9 (every option: the page's
table and the file's keys are the same).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from kit import data_error

from talesim.simcore.cards import CardDataError
from talesim.simcore.games.drako.tables import (
    DEFAULT_RULES,
    KINDS,
    LEGEND_IDS,
    N_LG_COLS,
    N_RULES,
    OPTION_KEYS,
    compile_tables,
    load_cardset,
)

#: DRAKO's rules page: its §9 table lists every rule switch, one key a row.
RULES_PAGE = Path(__file__).resolve().parents[2] / "docs" / "rules" / "drako.md"


def section_9_keys() -> set[str]:
    """The keys of the first column of the §9 table of ``docs/rules/drako.md``."""
    text = RULES_PAGE.read_text()
    section = text[text.index("\n## 9.") : text.index("\n## 10.")]
    return set(re.findall(r"^\| `([a-z_]+)`", section, re.MULTILINE))


def test_every_section_9_key_is_an_option() -> None:
    """The §9 table names every option of the loader (and the deck's ``copies_by_mark``), and
    each of its keys is set in ``rules.toml``."""
    keys = section_9_keys()
    assert keys == {*OPTION_KEYS, "copies_by_mark"}
    text = DEFAULT_RULES.read_text()
    for key in keys:
        assert re.search(rf"^{key} = ", text, re.MULTILINE), key


@pytest.mark.parametrize(("players", "size"), [(2, 40), (3, 60), (4, 80)])
def test_deck_by_player_count(data, players: int, size: int) -> None:
    """§2.2: 4/2/2 per kind by back mark -> 40 / 60 / 80, the same count of every kind."""
    deck = data.deck(players)
    assert len(deck) == size
    assert all(deck.count(k) == size // 10 for k in range(len(KINDS)))


def test_kinds_and_legends_match_the_reference(data) -> None:
    assert tuple(k.id for k in data.kinds) == KINDS
    assert tuple(lg.id for lg in data.legends) == LEGEND_IDS
    assert sum(lg.points for lg in data.legends) == 44  # §5
    assert [k.id for k in data.kinds if k.portal_blind] == ["goblin"]
    assert [k.id for k in data.kinds if k.domesticates] == ["human", "elf", "dwarf"]


def test_presets_differ_exactly_in_the_brief_points(data) -> None:
    """§8.1: goblin–goblin conflict and dragon values; §6/§9: goblins across portals
    (conflicts, Legends); §7.5: the tribes as one tie-break category. Everything else as
    §9's defaults."""
    brief = data.presets["brief"].options.as_dict()
    published = data.presets["published"].options.as_dict()
    diff = {k for k in brief if brief[k] != published[k]}
    assert diff == {
        "goblin_goblin_conflict",
        "dragon_values",
        "goblin_conflict_via_portal",
        "legend_goblin_via_portal",
        "tie_break_tribes",
    }
    assert (brief["goblin_conflict_via_portal"], published["goblin_conflict_via_portal"]) == (
        False,
        True,
    )
    assert (brief["legend_goblin_via_portal"], published["legend_goblin_via_portal"]) == (
        False,
        True,
    )
    assert (brief["tie_break_tribes"], published["tie_break_tribes"]) == ("summed", "each")
    assert brief["dragon_values"] == [3, 4, 5]
    assert published["dragon_values"] == [3, 5, 6]
    assert brief["goblin_goblin_conflict"] is True
    assert published["goblin_goblin_conflict"] is False


def test_compiled_tables(data) -> None:
    t = compile_tables(data, "published", 3)
    assert t.deck.shape == (60,)
    assert t.legend.shape == (15, N_LG_COLS)
    assert t.rules.shape == (N_RULES,)
    assert t.dragon_values.tolist() == [3, 5, 6]
    goblin = KINDS.index("goblin")
    assert t.rival[goblin, goblin] == 0
    assert compile_tables(data, "brief").rival[goblin, goblin] == 1
    assert t.land_pts[KINDS.index("human"), KINDS.index("plain")] == 2
    assert t.kind_locked.tolist() == [int(k in ("dragon", "portal")) for k in KINDS]
    assert bin(int(t.adj[5])).count("1") == 4  # an inner cell has 4 orthogonal neighbours


# --- bad data: one line naming file, entry and field ------------------------------------------


def edited(tmp_path: Path, old: str, new: str, count: int = 1) -> Path:
    text = DEFAULT_RULES.read_text()
    assert old in text, old
    path = tmp_path / "rules.toml"
    path.write_text(text.replace(old, new, count))
    return path


BAD = [
    ('id = "plain"', 'id = "meadow"', ["card 'meadow'", "field 'id'", "unknown kind"]),
    ('category = "land"\nstatus', 'category = "tribe"\nstatus', ["card 'plain'", "'category'"]),
    ("copies_by_mark = [4, 2, 2]", "copies_by_mark = [4, 2]", ["field 'deck.copies_by_mark'"]),
    ("land_points = { mountain = 2 }", "land_points = { mountain = 2, lava = 1 }",
     ["card 'dwarf'", "field 'land_points.lava'", "unknown field"]),
    ('id = "elf-pair"', 'id = "elf-trio"', ["card 'elf-trio'", "unknown legend id"]),
    ('centre = "human", around = "elf"', 'centre = "human", around = "orc"',
     ["card 'human-elf'", "field 'requirement.around'"]),
    ("dragon_values = [3, 5, 6]", 'dragon_values = "high"', ["card 'preset.published'",
                                                              "field 'dragon_values'"]),
    ("dedupe_links = true", "dedupe_links = false", ["card 'rules'", "field 'dedupe_links'",
                                                      "only true is implemented"]),
    ('tie_break = "categories"', 'tie_break = "coin"', ["card 'rules'", "field 'tie_break'"]),
    ('tie_break_tribes = "summed"', 'tie_break_tribes = "some"',
     ["card 'rules'", "field 'tie_break_tribes'"]),
    ("legends_per_turn = 1", "legends_per_turn = 1\nsurprise = 3", ["field 'surprise'"]),
    ('rivals = [["goblin", "human"]', 'rivals = [["goblin", "plain"]', ["field 'rivals'"]),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new", "fragments"), BAD, ids=[b[1][:30] for b in BAD])
def test_bad_data_gives_one_clear_line(tmp_path: Path, old: str, new: str, fragments) -> None:
    path = edited(tmp_path, old, new)
    data_error(lambda: load_cardset(path), path, *fragments)


def test_missing_kind_is_named(tmp_path: Path) -> None:
    text = DEFAULT_RULES.read_text()
    start = text.index('[[kind]]\nid = "portal"')
    path = tmp_path / "rules.toml"
    path.write_text(text[:start] + text[text.index("# --- the 15 Legends") :])
    with pytest.raises(CardDataError, match="missing kind\\(s\\): portal"):
        load_cardset(path)


def test_file_for_another_game(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="not drako"):
        load_cardset(edited(tmp_path, 'game = "drako"', 'game = "fairy-tale"'))


def test_legend_row_larger_than_the_legends(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="field 'legend_row_size'"):
        load_cardset(edited(tmp_path, "legend_row_size = 8", "legend_row_size = 16"))
