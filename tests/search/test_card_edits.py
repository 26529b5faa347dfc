"""simcore.card_edits: editable fields as data, their sites, and the edited card file."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from talesim.simcore import card_edits as ce
from talesim.simcore.cards import CardDataError

FIELDS = """
card_file = "cards.toml"
[[field]]
name = "points"
table = "card"
path = "value.points"
when = { "value.kind" = ["fixed"] }
min = -2
max = 9
step = 1
stronger = "up"
[[field]]
name = "lands"
table = "kind"
path = "land_points.*"
min = -3
max = 4
step = 1
signed = true
[[field]]
name = "lp"
table = "unit"
path = "abilities[kind=lp].amount"
min = 0
max = 6
step = 2
ability = true
"""

CARDS = """
# a comment that must survive
[[card]]
id = "a"
text = "Worth 3."
value = { kind = "fixed", points = 3 }
[[card]]
id = "b"
value = { kind = "count", of = "b", per = 1 }
[[kind]]
id = "human"
land_points = { plain = 2, swamp = -1 }
[[unit]]
id = "u"
text = "Income: +1 gold. Wars: +2 LP and +4 LP."
abilities = [
  { kind = "gold", amount = 1 },
  { kind = "lp", amount = 2 },
  { kind = "lp", amount = 4 },
]
"""


@pytest.fixture
def files(tmp_path: Path) -> tuple[list[ce.Field], Path]:
    (tmp_path / "balance.toml").write_text(FIELDS)
    (tmp_path / "cards.toml").write_text(CARDS)
    return ce.load_fields(tmp_path / "balance.toml"), tmp_path / "cards.toml"


def test_sites_follow_paths_wildcards_and_list_selectors(files: tuple) -> None:
    fields, cards = files
    sites = ce.sites(tomllib.loads(cards.read_text()), fields)
    got = [(s.entity, s.where, s.value) for s in sites]
    assert got == [
        ("a", "value.points", 3),  # b is a count card: `when` leaves it out
        ("human", "land_points.plain", 2),
        ("human", "land_points.swamp", -1),
        ("u", "abilities[1].amount", 2),  # the gold ability does not match [kind=lp]
        ("u", "abilities[2].amount", 4),
    ]


def test_bounds_stay_inside_the_field_and_the_radius(files: tuple) -> None:
    fields, cards = files
    a, _, swamp, lp2, lp4 = ce.sites(tomllib.loads(cards.read_text()), fields)
    assert a.bounds(3) == (-3, 3)  # 3 -> 0..6
    assert a.bounds(10) == (-3, 6)  # 0..9: points are not signed, 3 never goes below 0
    assert swamp.bounds(5) == (-2, 5)  # -3..4 from -1: lands are signed
    assert lp2.bounds(5) == (-1, 2)  # steps of 2 within 0..6 from 2
    assert lp4.bounds(5) == (-2, 1)


def test_edited_file_changes_only_the_edited_numbers_and_says_so(files: tuple) -> None:
    fields, cards = files
    a, plain, _, _, lp4 = ce.sites(tomllib.loads(cards.read_text()), fields)
    text, stale = ce.edited_text(
        cards, [ce.Edit(a, -2), ce.Edit(plain, 1), ce.Edit(lp4, 1)], header="proposal"
    )
    data = tomllib.loads(text)
    assert data["card"][0]["value"] == {"kind": "fixed", "points": 1}
    assert data["card"][1] == tomllib.loads(CARDS)["card"][1]
    assert data["kind"][0]["land_points"] == {"plain": 3, "swamp": -1}
    assert [x["amount"] for x in data["unit"][0]["abilities"]] == [1, 2, 6]
    assert text.startswith("# proposal\n")
    assert "# a comment that must survive" in text
    assert "talesim balance: points 3 -> 1" in text
    assert "talesim balance: lp#2 4 -> 6" in text
    assert data["card"][0]["text"] == "Worth 1."  # the rules text follows the number
    assert data["unit"][0]["text"] == "Income: +1 gold. Wars: +2 LP and +6 LP."
    assert stale == []


def test_sites_are_named_by_their_field_numbered_when_a_card_has_several(files: tuple) -> None:
    fields, cards = files
    sites = ce.sites(tomllib.loads(cards.read_text()), fields)
    assert [s.label for s in sites] == ["points", "lands#1", "lands#2", "lp#1", "lp#2"]
    assert [f.ability for f in fields] == [False, False, True]


def test_an_unsigned_negative_number_stays_at_most_zero(tmp_path: Path) -> None:
    (tmp_path / "balance.toml").write_text(
        '[[field]]\nname = "p"\ntable = "card"\npath = "points"\nmin = -5\nmax = 5\n'
    )
    (tmp_path / "cards.toml").write_text('[[card]]\nid = "c"\npoints = -1\n')
    (site,) = ce.sites(tomllib.loads((tmp_path / "cards.toml").read_text()),
                       ce.load_fields(tmp_path / "balance.toml"))  # fmt: skip
    assert site.bounds(9) == (-4, 1)  # -5..0


@pytest.mark.parametrize(
    ("text", "old", "new", "expected"),
    [
        ("Worth 3.", 3, 5, "Worth 5."),
        ("Wars: +1 LP per war won.", 1, 2, "Wars: +2 LP per war won."),
        ("Aging: −3 LP if it dies.", -3, -1, "Aging: −1 LP if it dies."),
        ("Costs you 1 point.", -1, -2, "Costs you 2 point."),
        ("Elves +2, Humans +1 for each linked Forest.", 2, 3,
         "Elves +3, Humans +1 for each linked Forest."),
        ("Strength 7 instead of 1; +1 LP.", 1, 2, None),  # 1 stands twice: which one?
        ("Costs you 1 point, with the −1 added.", -1, -2, None),
        ("Worth 3.", 2, 1, None),  # the old number is not in the text
        ("Gain 2.5 gold.", 2, 3, None),  # part of a decimal is not the number
        ("Worth 1.", 1, -1, None),  # a sign change cannot be written safely
    ],
)  # fmt: skip
def test_a_rules_text_is_rewritten_only_where_the_number_is_unambiguous(
    text: str, old: int, new: int, expected: str | None
) -> None:
    field = ce.Field("f", "card", "p", (), -9, 9, 1, "up", signed=True)
    site = ce.Site("c", field, ("p",), old)
    assert ce.retext(text, [ce.Edit(site, new - old)]) == expected


def test_a_text_that_cannot_follow_is_marked_stale(files: tuple) -> None:
    fields, cards = files
    _, _, _, lp2, _ = ce.sites(tomllib.loads(cards.read_text()), fields)
    cards.write_text(cards.read_text().replace("+1 gold", "+2 gold"))  # 2 now stands twice
    text, stale = ce.edited_text(cards, [ce.Edit(lp2, 1)])
    assert stale == ["u"]
    assert "STALE TEXT" in text
    assert tomllib.loads(text)["unit"][0]["text"] == "Income: +2 gold. Wars: +2 LP and +4 LP."


def test_a_bad_declaration_names_the_entry(tmp_path: Path) -> None:
    bad = tmp_path / "balance.toml"
    bad.write_text('[[field]]\nname = "x"\ntable = "card"\npath = "p"\nmin = 3\nmax = 1\n')
    with pytest.raises(CardDataError, match=r"\[\[field\]\] #1 \(x\)"):
        ce.load_fields(bad)
    bad.write_text('[[field]]\nname = "x"\ntable = "card"\npath = "p"\nmin = 0\nmax = 1\nmx = 2\n')
    with pytest.raises(CardDataError, match="unknown key"):
        ce.load_fields(bad)


@pytest.mark.parametrize("game", ["fairy-tale", "paper-tales", "drako"])
def test_every_declared_field_reaches_some_card(game: str) -> None:
    """The built-in declarations are not dead: each field has sites in the game's card file."""
    from talesim.simcore import balance, registry

    g = registry.get_game(game)
    fields = ce.load_fields(balance.fields_file(g))
    data = tomllib.loads(balance.card_file_of(g).read_text())
    for variant in g.variants:
        for f in fields:
            assert ce.sites(data, [f], variant.name), (variant.name, f.name)


def test_list_elements_variants_and_a_named_entity(tmp_path: Path) -> None:
    """``[*]`` reaches every element of a list, ``{variant}`` the played variant's table,
    and ``entity`` names the card whose share the number moves."""
    (tmp_path / "balance.toml").write_text(
        '[[field]]\nname = "dragons"\ntable = "preset"\npath = "{variant}.values[*]"\n'
        'entity = "dragon"\nmin = 0\nmax = 9\n'
    )
    cards = tmp_path / "rules.toml"
    cards.write_text("[preset.brief]\nvalues = [3, 4]\n[preset.full]\nvalues = [5]\n")
    (field,) = ce.load_fields(tmp_path / "balance.toml")
    data = tomllib.loads(cards.read_text())
    brief = ce.sites(data, [field], "brief")
    assert [(s.entity, s.key, s.value) for s in brief] == [
        ("dragon", "preset/brief.values[0]", 3),
        ("dragon", "preset/brief.values[1]", 4),
    ]
    assert [s.value for s in ce.sites(data, [field], "full")] == [5]
    edited = tomllib.loads(ce.edited_text(cards, [ce.Edit(brief[1], 2)])[0])
    assert edited["preset"] == {"brief": {"values": [3, 6]}, "full": {"values": [5]}}
