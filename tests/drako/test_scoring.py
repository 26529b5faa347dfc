"""Per-rule scoring tests on ASCII kingdoms with hand-computed numbers.

Rules: ``docs/rules/drako.md`` §5 (Legends), §6 (links), §7 (scoring); every §N below is a
section of that page.
Grids (see conftest): upper case = face up, lower case = face down (counts as empty for a
``view``). Cells are numbered row by row::

     0  1  2  3
     4  5  6  7
     8  9 10 11
    12 13 14 15
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from talesim.simcore.games.drako import scoring
from talesim.simcore.games.drako.reference import KingdomView, Rules, winners
from talesim.simcore.games.drako.tables import (
    B_CONFLICTS,
    BREAKDOWN,
    CELLS,
    N_BREAKDOWN,
    compile_tables,
)

EMPTY_ROWS = "s s s s / s s s s / s s s s"


def row0(cards: str) -> str:
    """A kingdom whose only face-up cards are the given first row."""
    return f"{cards} / {EMPTY_ROWS}"


def with_options(data, preset: str = "brief", **changes) -> Rules:
    """Rules of ``preset`` with some §9 options changed."""
    p = data.presets[preset]
    options = dataclasses.replace(p.options, **changes)
    changed = dataclasses.replace(data, presets={preset: dataclasses.replace(p, options=options)})
    return Rules(changed, preset, 4)


def view_with(rules: Rules, grid, text: str) -> KingdomView:
    kinds, up = grid(text)
    return KingdomView(rules, [k if u else None for k, u in zip(kinds, up, strict=True)])


# --- §7.1 tribe land points ------------------------------------------------------------------


def test_human_scores_plain_2_forest_1_mountain_1(view) -> None:
    """Human in cell 1, neighbours 0 Plain (+2), 2 Forest (+1), 5 Mountain (+1) = 4."""
    v = view("P H F s / s M s s / s s s s / s s s s")
    assert v.tribe_points(1) == 4
    assert v.breakdown()["human"] == 4


def test_human_loses_1_per_swamp(view) -> None:
    """Human in cell 1 between Swamps 0, 2 and 5: 3 x (−1) = −3."""
    assert view("S H S s / s S s s / s s s s / s s s s").breakdown()["human"] == -3


def test_elf_scores_forests_and_loses_on_swamps(view) -> None:
    """Elf in cell 1: Forest 0 (+2), Swamp 2 (−1), Forest 5 (+2), Mountain? none = 3."""
    assert view("F E S s / s F s s / s s s s / s s s s").breakdown()["elf"] == 3


def test_dwarf_scores_mountains_only(view) -> None:
    """Dwarf in cell 1: Mountain 0 (+2), Plain 2 (0), Mountain 5 (+2) = 4."""
    assert view("M D P s / s M s s / s s s s / s s s s").breakdown()["dwarf"] == 4


def test_goblin_scores_3_per_adjacent_swamp(view) -> None:
    """Goblin in cell 1, Swamps 0, 2, 5: 3 x 3 = 9; the Plain in 4 is diagonal (nothing)."""
    assert view("S G S s / P S s s / s s s s / s s s s").breakdown()["goblin"] == 9


def test_diagonals_never_link(view) -> None:
    """§6: Human in cell 5, Plains on the 4 diagonals (0, 2, 8, 10): 0 points."""
    assert view("P s P s / s H s s / P s P s / s s s s").tribe_points(5) == 0


def test_full_kingdom_total_through_score_state(score) -> None:
    """Every category at once (all face up):

    P H F S      Human 1: 0 P +2, 2 F +1, portal 5 -> 4 E, 6 H, 9 M +1     = 4
    E O H G      Human 6: 2 F +1, 7 G, 10 R, portal 5 -> 1 H, 4 E, 9 M +1 = 2
    D M R S      Human 14: 10 R, 13 E, 15 G                              = 0
    P E H G      Goblins 7 (3 S, 11 S) = 6 and 15 (11 S) = 3             = 9
                 Dwarf 8: 9 M = 2; Elves 4 and 13: no forest              = 0
                 Dragon 10: Humans 6 and 14 -> domesticated, 1 dragon     = +3
                 Conflicts: G7-H6, G15-H14, E4-D8 = 3 pairs               = −6
                 Legend held: human-elf                                   = +2
    """
    r = score("P H F S / E O H G / D M R S / P E H G", legends=["human-elf"])
    assert {k: r[k] for k in ("elf", "dwarf", "human", "goblin", "dragon", "conflicts")} == {
        "elf": 0,
        "dwarf": 2,
        "human": 6,
        "goblin": 9,
        "dragon": 3,
        "conflicts": -6,
    }
    assert r["legends"] == 2
    assert r["total"] == 16 == sum(r["breakdown"].values())
    assert r["legends_met"] == ["human-elf", "human-pair", "four-tribes"]


# --- §6 links: portals, chains, dedupe, goblins -------------------------------------------------


def test_portal_links_the_cards_around_it(view) -> None:
    """Human 0 – Portal 1 – Plain 2: linked through the portal, +2."""
    assert view(row0("H O P s")).tribe_points(0) == 2


def test_card_reached_by_two_portals_counts_once(view) -> None:
    """Human 5 touches Portals 1 and 6; Plain 2 touches both portals: +2 once, not +4."""
    assert view("s O P s / s H O s / s s s s / s s s s").tribe_points(5) == 2


def test_card_reached_directly_and_through_a_portal_counts_once(view) -> None:
    """Human 0, Plain 1 (direct) and Portal 4, whose neighbours are 0, 5 and 8; Plain 5 is
    reached through the portal; Plain 1 is direct only. 2 + 2 = 4, each plain once."""
    assert view("H P s s / O P s s / s s s s / s s s s").tribe_points(0) == 4


def test_portal_chain_extends_the_link(view, data, grid) -> None:
    """Human 0, Portals 1, 5, 9 in a chain, Plain 10 next to the last: +2 with chaining;
    without chaining only Portal 1's neighbours (0, 2, 5) are linked: 0."""
    text = "H O s s / s O s s / s O P s / s s s s"
    assert view(text).tribe_points(0) == 2
    no_chain = with_options(data, portal_chaining=False)
    assert view_with(no_chain, grid, text).tribe_points(0) == 0


def test_face_down_portal_links_nothing(view) -> None:
    """A face-down card counts as empty, a face-down portal too: Human 0, portal 1 face down."""
    assert view(row0("H o P s")).tribe_points(0) == 0


@pytest.mark.parametrize("preset", ["brief", "published"])
def test_goblin_never_scores_a_swamp_through_a_portal(view, preset) -> None:
    """§6: Goblin 0 – Portal 1 – Swamp 2: 0 (goblins can't use portals), both presets."""
    assert view(row0("G O S s"), preset).breakdown()["goblin"] == 0
    assert view(row0("G S s s"), preset).breakdown()["goblin"] == 3


@pytest.mark.parametrize(("preset", "expected"), [("brief", 0), ("published", -2)])
def test_goblin_conflict_across_a_portal_brief_no_published_yes(view, preset, expected) -> None:
    """§6: Goblin 0 – Portal 1 – Human 2. Brief ("Goblins cannot use Portals"): no conflict;
    published (Game Park: both sides see each other across the portal): −2."""
    assert view(row0("G O H s"), preset).breakdown()["conflicts"] == expected
    assert view(row0("G H s s"), preset).breakdown()["conflicts"] == -2  # adjacent: both


def test_goblin_conflict_via_portal_option(view, data, grid) -> None:
    """The switch, whatever the preset: ``goblin_conflict_via_portal = true`` turns the
    brief's Goblin 0 – Portal 1 – Human 2 into a conflict, ``false`` the published one off."""
    lax = with_options(data, "brief", goblin_conflict_via_portal=True)
    assert view_with(lax, grid, row0("G O H s")).breakdown()["conflicts"] == -2
    strict = with_options(data, "published", goblin_conflict_via_portal=False)
    assert view_with(strict, grid, row0("G O H s")).breakdown()["conflicts"] == 0
    assert view_with(strict, grid, row0("G H s s")).breakdown()["conflicts"] == -2


def test_goblin_land_via_portal_option(data, grid) -> None:
    """``goblin_land_via_portal = true`` lets Goblin 0 score Swamp 2 across Portal 1: 3."""
    lax = with_options(data, goblin_land_via_portal=True)
    assert view_with(lax, grid, row0("G O S s")).breakdown()["goblin"] == 3


def test_goblin_goblin_conflict_brief_yes_published_no(view) -> None:
    """§7.2 / §8.1(1): two adjacent Goblins: brief −2, published 0."""
    assert view(row0("G G s s"), "brief").breakdown()["conflicts"] == -2
    assert view(row0("G G s s"), "published").breakdown()["conflicts"] == 0


def test_goblin_goblin_conflict_is_direct_only(view) -> None:
    """Brief: Goblins 0 and 2 around Portal 1 do not conflict (goblin links are direct)."""
    assert view(row0("G O G s"), "brief").breakdown()["conflicts"] == 0


def test_rival_pair_counts_once_however_linked(view) -> None:
    """Elf 0 and Dwarf 1 are adjacent and also linked through Portals 4 – 5: one pair, −2."""
    assert view("E D s s / O O s s / s s s s / s s s s").breakdown()["conflicts"] == -2


def test_elf_dwarf_conflict_through_portal_and_friends_do_not_fight(view) -> None:
    """Elf – Portal – Dwarf: −2. Human next to Elf and Dwarf: no rivalry, 0."""
    assert view(row0("E O D s")).breakdown()["conflicts"] == -2
    assert view(row0("E H D s")).breakdown()["conflicts"] == 0


def test_each_rival_pair_is_counted(view) -> None:
    """Goblin 1 between Humans 0 and 2 and above Elf 5: 3 pairs, −6."""
    assert view("H G H s / s E s s / s s s s / s s s s").breakdown()["conflicts"] == -6


# --- §7.3 dragons ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "value"), [("brief", 3), ("published", 3)])
def test_one_domesticated_dragon(view, preset, value) -> None:
    """Dragon 1 between Humans 0 and 2: domesticated, 1 dragon = +3 in both presets."""
    assert view(row0("H R H s"), preset).breakdown()["dragon"] == value


def test_dragon_finds_its_tribes_through_a_portal(view) -> None:
    """Portal 5's neighbours: Human 1, Human 4, Dragon 6: domesticated, +3."""
    assert view("s H s s / H O R s / s s s s / s s s s").breakdown()["dragon"] == 3


def test_wild_dragons_lose_their_value(view) -> None:
    """Goblins never domesticate; a Human and an Elf are not 2 of one kind: −3 each."""
    assert view(row0("G R G s")).breakdown()["dragon"] == -3
    assert view(row0("H R E s")).breakdown()["dragon"] == -3


@pytest.mark.parametrize(("preset", "expected"), [("brief", 8), ("published", 10)])
def test_two_domesticated_dragons(view, preset, expected) -> None:
    """Dragons 1 (Humans 0, 2) and 5 (Humans 4, 6) both tame: 2 x 4 (brief), 2 x 5."""
    assert view("H R H s / H R H s / s s s s / s s s s", preset).breakdown()["dragon"] == expected


@pytest.mark.parametrize(("preset", "expected"), [("brief", 0), ("published", 0)])
def test_one_tame_one_wild_dragon(view, preset, expected) -> None:
    """Dragon 1 tame (+v), Dragon 5 wild (−v): 0 in both presets."""
    assert view("H R H s / s R s s / s s s s / s s s s", preset).breakdown()["dragon"] == expected


@pytest.mark.parametrize(("preset", "expected"), [("brief", 15), ("published", 18)])
def test_three_domesticated_dragons(view, preset, expected) -> None:
    """3 tame dragons: 3 x 5 (brief), 3 x 6 (published)."""
    text = "H R H s / H R H s / H R H s / s s s s"
    assert view(text, preset).breakdown()["dragon"] == expected


@pytest.mark.parametrize(("preset", "expected"), [("brief", 10), ("published", 12)])
def test_four_domesticated_dragons_the_fourth_is_negative(view, preset, expected) -> None:
    """§7.3: 4 tame dragons: 3 count +v, the 4th −v: brief 15 − 5 = 10, published 18 − 6."""
    text = "H R H s / H R H s / H R H s / H R H s"
    assert view(text, preset).breakdown()["dragon"] == expected


@pytest.mark.parametrize(("preset", "expected"), [("brief", -15), ("published", -18)])
def test_five_dragons_one_tame(view, preset, expected) -> None:
    """Dragon 1 tame; Dragons 3, 5, 9, 13 wild: v − 4v = −3v, v = 5 (brief) / 6 (published)."""
    text = "H R H R / s R s s / s R s s / s R s s"
    assert view(text, preset).breakdown()["dragon"] == expected


def test_dragon_scores_in_score_state_per_card(score) -> None:
    """Per-card points: Human 0 has Plain 4 (+2); the tame Dragon 1 +3; Human 2 has Plains
    3 and 6 (+4); lands score nothing themselves."""
    r = score("H R H P / P P P P / F F F F / M M M M")
    assert [c["points"] for c in r["cards"][:4]] == [2, 3, 4, 0]
    assert r["dragon"] == 3
    assert r["human"] == 6


# --- §5 the 15 Legends, met and unmet ------------------------------------------------------------

LEGEND_CASES = {
    # legend: (met, not met) — first rows only, the rest face down
    "human-elf": ("H O E s", "H s E s"),
    "human-dwarf": ("H D s s", "H s D s"),
    "goblin-pair": ("G G s s", "G O G s"),  # goblins never link through a portal
    "human-pair": ("H O H s", "H s H s"),
    "elf-pair": ("E E s s", "E s s E"),
    "dwarf-pair": ("D O D s", "D s D s"),
    "four-tribes": ("H E D G", "H E D g"),  # a face-down goblin does not count
    "battle-goblin-human": ("H G H s", "H G O H"),  # a goblin centre counts direct only
    "battle-goblin-elf": ("G E G s", "E G s E"),
    "battle-goblin-dwarf": ("D G D s", "G D s G"),
    "battle-elf-dwarf": ("E D E s", "E D s E"),
    "three-plains": ("P O P P", "P P s P"),
    "three-swamps": ("S S S s", "S S s S"),
    "three-mountains": ("M M M s", "M M s M"),
    "three-forests": ("F F O F", "F F s F"),
}


def test_every_legend_has_a_case(data) -> None:
    assert sorted(LEGEND_CASES) == sorted(lg.id for lg in data.legends)


@pytest.mark.parametrize("legend_id", list(LEGEND_CASES))
def test_legend_met_and_unmet(view, data, legend_id) -> None:
    legend = next(lg for lg in data.legends if lg.id == legend_id)
    met, unmet = LEGEND_CASES[legend_id]
    for preset in ("brief", "published"):
        assert view(row0(met), preset).legend_met(legend), (preset, met)
        assert not view(row0(unmet), preset).legend_met(legend), (preset, unmet)


def test_three_lands_in_an_l_shape(view, data) -> None:
    """Plain 0 linked to Plains 1 and 4 (a corner): met."""
    legend = next(lg for lg in data.legends if lg.id == "three-plains")
    assert view("P P s s / P s s s / s s s s / s s s s").legend_met(legend)


def test_two_vs_one_non_goblin_centre_reaches_goblins_through_portal(view, data, grid) -> None:
    """§5 note: Human 2 reaches Goblin 0 across Portal 1 and Goblin 6 directly. Published
    (Game Park): met. Brief (goblins use no portal): only Goblin 6 counts, not met. The
    switch ``legend_goblin_via_portal`` turns each preset into the other."""
    legend = next(lg for lg in data.legends if lg.id == "battle-goblin-human")
    text = "G O H s / s s G s / s s s s / s s s s"
    assert view(text, "published").legend_met(legend)
    assert not view(text, "brief").legend_met(legend)
    strict = with_options(data, "published", legend_goblin_via_portal=False)
    assert not view_with(strict, grid, text).legend_met(legend)
    lax = with_options(data, "brief", legend_goblin_via_portal=True)
    assert view_with(lax, grid, text).legend_met(legend)


def test_legends_score_their_points(score) -> None:
    """§7.4: held Legends add their points whatever the grid: 2 + 4 + 3 = 9."""
    r = score(
        "P P P P / F F F F / M M M M / S S S S",
        legends=["human-elf", "four-tribes", "battle-elf-dwarf"],
    )
    assert r["legends"] == 9
    assert r["total"] == 9
    assert r["legends_met"] == ["three-plains", "three-swamps", "three-mountains", "three-forests"]


# --- goblins and portals: the two grids, reference and numba scorer ------------------

# Grid 1. Human 2: Mountain 3 +1, Forest 6 +1, and across Portal 1 Swamp 5 −1 = 1; Goblin 0
# sees Human 2 only across the portal. Plains row 2 and forests row 3: three-plains and
# three-forests; Mountains 3-7 only two linked.
GOBLIN_GRID_1 = "G O H M / M S F M / P P P P / F F F F"
# Grid 2. Human 5: Mountains 4 and 6 +1 +1, Plain 9 +2 = 4; it reaches Goblins 0 and 2
# only across Portal 1 (two goblins: direct only, never through the portal). Mountain 7
# linked to Mountains 3 and 6: three-mountains.
GOBLIN_GRID_2 = "G O G M / M H M M / P P F P / F F S F"
GOBLIN_GRIDS = {
    # (grid, preset): (human, conflicts, total, Legends met)
    (GOBLIN_GRID_1, "brief"): (1, 0, 1, ["three-plains", "three-forests"]),
    (GOBLIN_GRID_1, "published"): (1, -2, -1, ["three-plains", "three-forests"]),
    (GOBLIN_GRID_2, "brief"): (4, 0, 4, ["three-mountains"]),
    (GOBLIN_GRID_2, "published"): (4, -4, 0, ["battle-goblin-human", "three-mountains"]),
}


@pytest.mark.parametrize(
    ("text", "preset"), list(GOBLIN_GRIDS), ids=["1-brief", "1-published", "2-brief", "2-published"]
)
def test_goblins_cannot_use_portals_in_the_brief(data, grid, text, preset) -> None:
    """§6, brief: "Goblins cannot use Portals" — no conflict and no 2-vs-1 Legend through a
    portal; published keeps Game Park's (conflicts and the battle through the portal).
    The reference (``KingdomView``) and the numba scorer (``scoring.py``) agree."""
    human, conflicts, total, met = GOBLIN_GRIDS[text, preset]
    rules = Rules(data, preset, 2)
    kinds, _ = grid(text)
    view = KingdomView(rules, list(kinds))
    b = view.breakdown()
    assert (b["human"], b["conflicts"], sum(b.values())) == (human, conflicts, total)
    assert [lg.id for lg in data.legends if view.legend_met(lg)] == met

    tb = compile_tables(data, preset, 2)
    g = np.array(kinds, dtype=np.int32)
    direct, full = np.zeros(CELLS, np.int64), np.zeros(CELLS, np.int64)
    out = np.zeros(N_BREAKDOWN, np.int32)
    vis = (1 << CELLS) - 1
    got = scoring.score_kingdom(
        g, vis, tb.kind_cat, tb.kind_blind, tb.kind_tame, tb.land_pts, tb.rival,
        tb.dragon_values, tb.adj, tb.rules, direct, full, out,
    )  # fmt: skip
    assert (out[BREAKDOWN.index("human")], out[B_CONFLICTS], got) == (human, conflicts, total)
    flags = np.zeros(len(data.legends), np.int32)
    scoring.legends_met(tb.legend, g, vis, tb.kind_blind, tb.rules, direct, full, flags)
    assert [lg.id for lg, f in zip(data.legends, flags, strict=True) if f] == met


# --- §7.5 tie-break ----------------------------------------------------------------------------


def test_tie_break_by_sorted_category_subtotals() -> None:
    """Totals 4, 4, 4: keys [4,0,..], [3,1,..], [4,0,..]: seats 0 and 2 share the win."""
    a = {"elf": 0, "dwarf": 0, "human": 4, "goblin": 0, "dragon": 0, "conflicts": 0, "legends": 0}
    b = {"elf": 0, "dwarf": 0, "human": 1, "goblin": 3, "dragon": 0, "conflicts": 0, "legends": 0}
    c = {**a, "human": 0, "legends": 4}
    assert winners([4, 4, 4], [a, b, c], categories=True) == [0, 2]
    assert winners([4, 4, 4], [a, b, c], categories=False) == [0, 1, 2]
    assert winners([4, 5, 4], [a, b, c], categories=True) == [1]


def test_tie_break_prefers_higher_subtotals_even_with_negatives() -> None:
    """Total 3 each: [5, 0, .., −2] beats [3, 0, ..]: its highest subtotal is higher."""
    base = dict.fromkeys(("elf", "dwarf", "human", "goblin", "dragon", "conflicts", "legends"), 0)
    a = {**base, "goblin": 5, "conflicts": -2}
    b = {**base, "human": 3}
    assert winners([3, 3], [a, b], categories=True) == [0]


def test_tie_break_through_score_state(scored, json_grid) -> None:
    """Seat 0: Human 0 between Plains 1 and 4: human 4. Seat 1: Goblin 0 with Swamp 1 (+3),
    Human 15 with Plain 11 (+2) and Swamp 14 (−1): goblin 3 + human 1 = 4. Key [4] > [3, 1]."""
    seat0 = "H P F F / P F F F / M F M M / M M M M"
    seat1 = "G S S S / P S S S / S P P P / P P S H"
    state = {
        "rules": "published",
        "players": [{"grid": json_grid(seat0)}, {"grid": json_grid(seat1)}],
    }
    r = scored(state)
    assert [p["total"] for p in r["players"]] == [4, 4]
    assert r["players"][1]["goblin"] == 3
    assert r["players"][1]["human"] == 1
    assert r["winners"] == [0]


# §7.5 categories. Seat 0: Human 0 between Plains 1 and 4: human 4. Seat 1: Human 0 between
# Forests 1 and 4 (+1 +1) and Elf 15 with Forest 14 (+2; Mountain 11 nothing): human 2 +
# elf 2; its Dwarves 8, 9, 12, 13 touch no Mountain and no Elf. Totals 4 and 4, nothing
# else scores (no rivals linked, no dragon); no kind beyond the box's 8 copies.
TIE_SEAT_0 = "H P S S / P S S S / F F F F / M M M M"
TIE_SEAT_1 = "H F P P / F P P P / D D S M / D D F E"


def test_tie_break_brief_sums_the_tribes_into_one_category() -> None:
    """§7.5, brief: four categories (tribes summed, dragons, Legends, conflicts): keys [4]
    and [2 + 2] tie, both win. Published (Game Park's seven): [4, 0..] beats [2, 2, 0..]."""
    base = dict.fromkeys(BREAKDOWN, 0)
    a = {**base, "human": 4}
    b = {**base, "human": 2, "elf": 2}
    assert winners([4, 4], [a, b], categories=True, tribes_summed=True) == [0, 1]
    assert winners([4, 4], [a, b], categories=True, tribes_summed=False) == [0]
    c = {**base, "human": 5, "conflicts": -2, "legends": 1}  # [5, 1, 0, −2] > [4, 0, 0, 0]
    assert winners([4, 4, 4], [a, b, c], categories=True, tribes_summed=True) == [2]


@pytest.mark.parametrize(("preset", "expected"), [("brief", [0, 1]), ("published", [0])])
def test_tie_break_categories_through_score_state(scored, json_grid, preset, expected) -> None:
    """The hand-built human / human + elf tie: brief shares the win, published seat 0."""
    state = {
        "rules": preset,
        "players": [{"grid": json_grid(TIE_SEAT_0)}, {"grid": json_grid(TIE_SEAT_1)}],
    }
    r = scored(state)
    assert [p["total"] for p in r["players"]] == [4, 4]
    assert [(p["human"], p["elf"]) for p in r["players"]] == [(4, 0), (2, 2)]
    assert r["winners"] == expected
