"""``talesim score drako``, ``talesim cards drako``, ``talesim bench drako`` and
``talesim play drako`` through Typer's CliRunner (the keys of ``score --json``; one ``error:``
line for bad input). ``simulate`` is in ``test_kernel_runs.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kit import assert_error, invoke

CATEGORIES = ("elf", "dwarf", "human", "goblin", "dragon", "conflicts", "legends")


@pytest.fixture
def two_players(json_grid) -> dict:
    """Seat 0 = the full-kingdom example of test_scoring (16 points with human-elf held);
    seat 1: a Goblin between two Swamps, goblins side by side (brief: a conflict)."""
    return {
        "rules": "brief",
        "players": [
            {"grid": json_grid("P H F S / E O H G / D M R S / P E H G"), "legends": ["human-elf"]},
            {"grid": json_grid("S G S M / M G M M / F F F F / P P P P")},
        ],
    }


def test_score_json_contract(state_file, two_players) -> None:
    """Seat 1: Goblin 1 has Swamps 0 and 2 (+6), Goblin 5 none; brief: G1–G5 conflict −2;
    seat 0 wins 16 to 4."""
    result = invoke("score", "drako", state_file(two_players), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert set(out) == {"players", "winners"}
    p0, p1 = out["players"]
    for p in (p0, p1):
        assert set(CATEGORIES) | {"total", "legends_met"} <= set(p)
        assert p["total"] == sum(p[c] for c in CATEGORIES)
        assert p["conflicts"] <= 0
    assert [p0[c] for c in CATEGORIES] == [0, 2, 6, 9, 3, -6, 2]
    assert p0["total"] == 16
    assert p0["legends_met"] == ["human-elf", "human-pair", "four-tribes"]
    assert [p1[c] for c in CATEGORIES] == [0, 0, 0, 6, 0, -2, 0]
    # Goblins 1 and 5 adjacent; Mountain 7 linked to Mountains 3 and 6; rows of Forests and
    # Plains. Swamps 0 and 2 are not linked (the Goblin between them is no portal).
    assert p1["legends_met"] == ["goblin-pair", "three-plains", "three-mountains", "three-forests"]
    assert out["winners"] == [0]


def test_score_published_preset_drops_goblin_goblin_conflict(state_file, two_players) -> None:
    two_players["rules"] = "published"
    out = json.loads(invoke("score", "drako", state_file(two_players), "--json").stdout)
    assert out["players"][1]["conflicts"] == 0
    assert out["players"][1]["total"] == 6


# The grids (as in test_scoring's GOBLIN_GRID_1/2): a Goblin and a Human that see
# each other only across a Portal.
GOBLIN_GRIDS = {
    1: "G O H M / M S F M / P P P P / F F F F",
    2: "G O G M / M H M M / P P F P / F F S F",
}


@pytest.mark.parametrize(
    ("grid", "preset", "conflicts", "total", "battle"),
    [(1, "brief", 0, 1, False), (1, "published", -2, -1, False),
     (2, "brief", 0, 4, False), (2, "published", -4, 0, True)],
)  # fmt: skip
def test_score_goblins_cannot_use_portals_in_the_brief(
    state_file, json_grid, grid, preset, conflicts, total, battle
) -> None:
    """Grid 1: Human 2 scores Mountain 3, Forest 6 and, across Portal 1, Swamp 5: +1 +1 −1;
    grid 2: Human 5 scores Mountains 4, 6 and Plain 9: 4. Brief: the goblins across the
    portal neither conflict with the Human nor give it battle-goblin-human; published: −2 per
    pair, and grid 2's Human meets the battle through the portal."""
    state = {"rules": preset, "players": [{"grid": json_grid(GOBLIN_GRIDS[grid])}]}
    result = invoke("score", "drako", state_file(state), "--json")
    assert result.exit_code == 0, result.output
    (p,) = json.loads(result.stdout)["players"]
    assert p["human"] == (1 if grid == 1 else 4)
    assert (p["conflicts"], p["total"]) == (conflicts, total)
    assert ("battle-goblin-human" in p["legends_met"]) is battle


def test_score_table(state_file, two_players) -> None:
    result = invoke("score", "drako", state_file(two_players))
    assert result.exit_code == 0, result.output
    assert "Score breakdown" in result.stdout
    assert "conflicts -6" in result.stdout
    assert "winners: seat 0" in result.stdout


@pytest.mark.parametrize(
    ("state", "fragment"),
    [
        ({"rules": "expert", "players": []}, "'rules' must be one of brief, published"),
        ({"players": [{"grid": [["plain"] * 4] * 3}]}, "player 0: 'grid' must be 4 rows of 4"),
        ({"players": [{"grid": [["plain", "lava", "elf", "elf"]] * 4}]}, "unknown card \"lava\""),
        ({"players": [{"grid": [["dragon"] * 4] * 4}]}, "'dragon' appears 16 times; the box has 8"),
        ({"players": [{"grid": [["elf", "dwarf", "human", "goblin"]] * 2 + [["plain"] * 4] * 2,
                       "legends": ["elf-trio"]}]}, "unknown legend 'elf-trio'"),
        ({"players": [], "extra": 1}, "unknown key(s) extra"),
    ],
)  # fmt: skip
def test_score_bad_state_is_one_line(state_file, state, fragment) -> None:
    assert_error(invoke("score", "drako", state_file(state)), fragment)


def test_legend_held_twice_is_refused(state_file, two_players) -> None:
    two_players["players"][1]["legends"] = ["human-elf"]
    assert_error(invoke("score", "drako", state_file(two_players)), "'human-elf' is held twice")


def test_cards_table_and_json() -> None:
    result = invoke("cards", "drako", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["id"] for r in rows[:10]] == [
        "plain", "forest", "mountain", "swamp", "human", "elf", "dwarf", "goblin", "dragon",
        "portal",
    ]  # fmt: skip
    assert len(rows) == 25
    assert rows[8]["value"].startswith("3/4/5")
    published = json.loads(invoke("cards", "drako", "--rules", "published", "--json").stdout)
    assert published[8]["value"].startswith("3/5/6")
    table = invoke("cards", "drako")
    assert table.exit_code == 0
    assert "battle-goblin-human" in table.stdout


def test_cards_unknown_preset() -> None:
    assert_error(invoke("cards", "drako", "--rules", "expert"), "drako has no variant 'expert'")


def test_simulate_still_checks_the_request_first(tmp_path: Path) -> None:
    result = invoke(
        "simulate", "drako", "--games", "10", "--players", "5", "--seed", "1",
        "--policy", "greedy", "--out", tmp_path / "run",
    )  # fmt: skip
    assert_error(result, "played by 2-4 players, not 5")


def test_games_lists_drako() -> None:
    result = invoke("games")
    assert result.exit_code == 0
    assert "drako" in result.stdout
    assert "legend-hunter" in result.stdout


def test_play_narrates_a_turn_an_event() -> None:
    """``talesim play drako --json``: the start, the setup, one event a turn, the final
    event; the text form narrates them (that the final event is the game ``simulate``
    stores: ``tests/test_engine_conformance.py``)."""
    args = ("play", "drako", "--seed", "3", "--game", "7", "--players", "3",
            "--policy", "greedy,random,legend-hunter", "--rules", "published")  # fmt: skip
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert events[0]["event"] == "start"
    assert events[1]["event"] == "setup"
    final = events[-1]
    assert final["event"] == "final"
    turns = [e for e in events if e["event"] == "turn"]
    assert len(turns) == final["turns"]
    text = invoke(*args)
    assert text.exit_code == 0, text.output
    assert "DRAKO (published), seed 3, game 7" in text.stdout
    assert "turn   1: seat 0" in text.stdout
    assert "Final scores:" in text.stdout


def test_bench_json_keys() -> None:
    """``talesim bench drako --json``: Fairy Tale's keys (tiny run: compile is cached)."""
    result = invoke(
        "bench", "drako", "--json", "--players", "2", "--policy", "random", "--threads", "1",
        "--games", "50", "--reference-games", "2",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert set(out) == {
        "game", "variant", "players", "policy", "threads", "numba_games_per_s",
        "reference_games_per_s", "ratio",
    }  # fmt: skip
    assert out["game"] == "drako"
    assert out["variant"] == "brief"
