"""``talesim score paper-tales STATE.json --variant legends``: artifacts per seat
(``"artifacts": [ids]``) and the Legends buildings, scored with ``reference/``'s rulebook
functions. Hand-computed positions (numbers in the docstrings), the one-line errors, the
CLI, the agreement with the base scorer on base positions, and the end LP of finished
Legends games (``reference.final_state``)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from kit import error_line, invoke

from talesim.simcore.games.paper_tales.engine import score_state, score_state_reference
from talesim.simcore.games.paper_tales.policies import POLICY_NAMES, default_weights
from talesim.simcore.games.paper_tales.reference import (
    LEGENDS_BREAKDOWN,
    MAX_FRONT,
    Rules,
    final_state,
    play_reference,
)
from talesim.simcore.games.paper_tales.tables import CardSet, load_cardset

EMPTY: dict[str, Any] = {"front": [], "back": []}


def seat(front: str = "", back: str = "", arts: str = "", **kw: int) -> dict[str, Any]:
    """One player's JSON: ``name+n`` = a unit with n age tokens; ``arts`` = artifact ids;
    ``kw``: building levels, ``gold`` / ``lp``."""

    def row(text: str) -> list[dict[str, Any]]:
        return [
            {"unit": u, "age": int(a or 0)} for u, _, a in (t.partition("+") for t in text.split())
        ]

    player: dict[str, Any] = {"front": row(front), "back": row(back)}
    if arts:
        player["artifacts"] = arts.split()
    buildings = {k.replace("_", "-"): v for k, v in kw.items() if k not in ("gold", "lp")}
    if buildings:
        player["buildings"] = buildings
    player.update({k: v for k, v in kw.items() if k in ("gold", "lp")})
    return player


@pytest.fixture(scope="module")
def base() -> CardSet:
    return load_cardset()


def score(*seats: dict[str, Any]) -> dict[str, Any]:
    """The compiled scoring of a Legends position, checked equal to the rulebook's."""
    result = score_state({"players": list(seats)}, variant="legends")
    assert result == score_state_reference({"players": list(seats)}, variant="legends")
    return result


def solo(player: dict[str, Any]) -> dict[str, Any]:
    """Seat 0 of a 3-seat table whose other seats are empty (it wins both wars: 6 LP)."""
    return score(player, EMPTY, EMPTY)["players"][0]


def by_source(player: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["source"]: s for s in player["sources"]}


def check_sums(result: dict[str, Any]) -> None:
    """The result's own arithmetic: total = sum of the breakdown; war + end + earlier =
    total; the sources' LP = every part but the wars' 3/6 and the earlier LP; sources' gold
    = income + war gold - base income."""
    for p in result["players"]:
        b = p["breakdown"]
        assert list(b) == ["earlier", *LEGENDS_BREAKDOWN[:5], *LEGENDS_BREAKDOWN[7:10]]
        assert p["total"] == sum(b.values())
        assert p["war_lp"] + p["end_lp"] + b["earlier"] == p["total"]
        assert sum(s["lp"] for s in p["sources"]) == p["total"] - b["earlier"] - b["wars"]
        gold = p["income"] + p["war_gold"] - p["income_breakdown"]["base"]
        assert sum(s["gold"] for s in p["sources"]) == gold
        assert p["income"] == sum(p["income_breakdown"].values())


# --- strength and wars ----------------------------------------------------------------


def test_legendary_sword_turns_a_lost_war_into_a_win() -> None:
    """Seat 0 Knight 4, seat 1 Knight 4 + Archer 2 = 6, seat 2 empty. Without the sword
    seat 0 beats seat 2 only (3 LP) and seat 1 wins both (6). Legendary Sword +3: seat 0
    7 >= 6 wins both (6 war LP) and seat 1 now loses to it (3)."""
    without = score(seat("knight"), seat("knight archer"), EMPTY)["players"]
    assert [(p["strength"], p["wars_won"], p["war_lp"]) for p in without[:2]] == [
        (4, 1, 3),
        (6, 2, 6),
    ]
    result = score(seat("knight", arts="legendary-sword"), seat("knight archer"), EMPTY)
    check_sums(result)
    p0, p1, _ = result["players"]
    assert (p0["strength"], p0["wars_won"], p0["war_lp"]) == (7, 2, 6)
    assert (p1["wars_won"], p1["war_lp"]) == (1, 3)
    assert p0["wars"][0] == {"against": 1, "strength": 7, "opponent_strength": 6, "won": True}
    sword = by_source(p0)["legendary-sword"]
    assert sword == {
        "source": "legendary-sword",
        "type": "artifact",
        "where": "zone 0",
        "strength": 3,
        "lp": 0,
        "gold": 0,
    }
    assert by_source(p0)["knight"]["strength"] == 4  # the sword adds to the kingdom only


def test_two_players_double_war_lp_with_two_strength_artifacts() -> None:
    """2 players: Knight 4 + Legendary Sword 3 = 7 vs Knight 4: a win, 7 < 2 x 4 -> 3 LP;
    + Shield of Power 2 = 9 >= 8 -> 6 LP (and its printed 1 LP at the end). The loser: 0."""
    one = score(seat("knight", arts="legendary-sword"), seat("knight"))["players"]
    assert [(p["wars_won"], p["war_lp"]) for p in one] == [(1, 3), (0, 0)]
    result = score(seat("knight", arts="legendary-sword shield-of-power"), seat("knight"))
    check_sums(result)
    p0, p1 = result["players"]
    assert (p0["strength"], p0["war_lp"], p0["end_lp"], p0["total"]) == (9, 6, 1, 7)
    assert p0["wars"] == [{"against": 1, "strength": 9, "opponent_strength": 4, "won": True}]
    assert (p1["war_lp"], p1["wars"][0]["won"]) == (0, False)


def test_cornucopia_feeds_cerberus() -> None:
    """Cornucopia produces 2 food: Cerberus 2 -> 3 (it needs food); production counts it."""
    assert solo(seat("cerberus"))["strength"] == 2
    p = solo(seat("cerberus", arts="cornucopia"))
    assert p["strength"] == 3
    assert p["production"] == {"wood": 0, "food": 2, "crystal": 0}


def test_war_horn_and_scepter_of_kings_score_in_the_wars_phase() -> None:
    """War Horn: 1 LP per war won (2) -> per_war_won 2, + printed 1 at the end. Scepter of
    Kings: 1 LP per level-2 building (Town L2, Mine L2) -> war_artifacts 2, + printed 1.
    Mine L2: 2 LP per crystal (Town L2 1 + Mine L1 1) = 4. War LP 6 + 2 + 2 + 4 = 14;
    end: Town 3 + Mine 3 + artifacts 2 = 8."""
    p = solo(seat("knight", arts="war-horn scepter-of-kings", town=2, mine=2))
    b = p["breakdown"]
    assert (b["wars"], b["per_war_won"], b["war_artifacts"], b["war_buildings"]) == (6, 2, 2, 4)
    assert (b["buildings"], b["artifacts"], p["war_lp"], p["end_lp"]) == (6, 2, 14, 8)
    src = by_source(p)
    assert (src["war-horn"]["lp"], src["scepter-of-kings"]["lp"]) == (3, 3)


# --- end LP and income -------------------------------------------------------------------


def test_ancient_grimoire_counts_every_artifact() -> None:
    """Ancient Grimoire: 0 printed + 1 LP per artifact in the zone (3, itself included);
    Dragon Egg 3; Golden Idol 2: artifacts = 3 + 3 + 2 = 8 end LP."""
    result = score(seat(arts="ancient-grimoire dragon-egg golden-idol"), EMPTY, EMPTY)
    check_sums(result)
    p = result["players"][0]
    assert (p["breakdown"]["artifacts"], p["end_lp"]) == (8, 8)
    src = by_source(p)
    assert [src[x]["lp"] for x in ("ancient-grimoire", "dragon-egg", "golden-idol")] == [3, 3, 2]


def test_income_artifacts() -> None:
    """Base 2 + Bottomless Purse 1 x 4 artifacts + Golden Idol 1 + Stone of Transmutation
    1 x 1 crystal (Heart of the Mountain) = 8; the artifacts' part 6; gold = 3 + 8."""
    arts = "bottomless-purse golden-idol heart-of-the-mountain stone-of-transmutation"
    result = score(seat(arts=arts, gold=3), EMPTY, EMPTY)
    check_sums(result)
    p = result["players"][0]
    assert p["income"] == 8
    assert p["income_breakdown"] == {"base": 2, "units": 0, "buildings": 0, "artifacts": 6}
    assert p["gold"] == 3 + 8
    assert p["production"]["crystal"] == 1
    src = by_source(p)
    assert [src[x]["gold"] for x in arts.split()] == [4, 1, 0, 1]
    assert p["breakdown"]["artifacts"] == 0 + 2 + 1 + 1


# --- Legends buildings -----------------------------------------------------------------------


def test_inn_level_2_counts_cheap_units_and_opens_the_fifth_spot() -> None:
    """Inn L2 (with L1's income): Farmer, Woodcutter, Sculptor (cost 0) in 3 Front spots, a
    Knight (cost 1) in the Back. Income 2 + 3 = 5; wars 6 + Inn L2 3 = 9; end Inn 3."""
    result = score(seat("farmer woodcutter sculptor", "knight", inn=2), EMPTY, EMPTY)
    check_sums(result)
    p = result["players"][0]
    assert (p["strength"], p["income"], p["war_lp"], p["end_lp"]) == (1 + 2 + 1, 5, 9, 3)
    assert by_source(p)["inn"] == {
        "source": "inn",
        "type": "building",
        "where": "level 2",
        "strength": 0,
        "lp": 3 + 3,
        "gold": 3,
    }


def test_sawmill_and_royal_palace_level_2() -> None:
    """Sawmill L2: L1 makes 1 wood, + Woodcutter 1 = 2 wood -> 2 war LP. Royal Palace L2:
    1 LP per artifact (Dragon Egg, War Horn) = 2. War LP 6 + 2 + 2 + War Horn 2 = 12;
    end: 3 + 3 + Dragon Egg 3 + War Horn 1 = 10."""
    p = solo(seat("woodcutter", arts="dragon-egg war-horn", sawmill=2, royal_palace=2))
    assert p["breakdown"]["war_buildings"] == 4
    assert (p["war_lp"], p["end_lp"], p["total"]) == (12, 10, 22)
    assert p["production"]["wood"] == 2
    src = by_source(p)
    assert (src["sawmill"]["lp"], src["royal-palace"]["lp"]) == (2 + 3, 2 + 3)


def test_port_and_abbey_conditional_war_lp() -> None:
    """Port L2: +2 war LP if the kingdom makes wood (Port L1 makes 1 food, income +1).
    Abbey L2: +4 if it makes wood, food and crystal. Without wood neither scores."""
    dry = solo(seat("miner", port=2, abbey=2))
    assert dry["breakdown"]["war_buildings"] == 0
    assert dry["income"] == 3
    wet = solo(seat("miner woodcutter", port=2, abbey=2))
    assert wet["breakdown"]["war_buildings"] == 2 + 4
    assert (by_source(wet)["port"]["lp"], by_source(wet)["abbey"]["lp"]) == (2 + 3, 4 + 3)


# --- the base position under both scorers ------------------------------------------------


THREE_SEATS = [
    seat("knight commander+1", "archer farmer", barracks=2, town=2, gold=2),
    seat("manticore", "relic-of-wisdom+3", mine=2, tavern=1, gold=5, lp=4),
    seat("dragon ogre", "blacksmith", temple=1),
]


@pytest.mark.parametrize(
    "players",
    [
        THREE_SEATS,
        THREE_SEATS[:2],
        [seat("rogue cerberus", "hunter"), seat("militiaman+2 colossus+1"), *THREE_SEATS],
    ],
    ids=["3 seats", "2 seats", "5 seats"],
)
def test_base_positions_score_the_same_with_the_rulebook(base: CardSet, players: list) -> None:
    """A position without Legends cards scores the same in the base and the Legends
    variants, per seat and per source; the Legends parts are 0."""
    old = score_state({"players": players}, base)
    assert score_state({"players": players}, base, variant="base") == old
    new = score(*players)
    check_sums(new)
    assert new["winners"] == old["winners"]
    for o, n in zip(old["players"], new["players"], strict=True):
        assert {k: v for k, v in n["breakdown"].items() if k in o["breakdown"]} == o["breakdown"]
        assert n["breakdown"]["war_artifacts"] == n["breakdown"]["artifacts"] == 0
        assert n["income_breakdown"] == {**o["income_breakdown"], "artifacts": 0}
        same = {k: v for k, v in o.items() if k not in ("breakdown", "income_breakdown")}
        assert {k: n[k] for k in same} == same


# --- finished Legends games ----------------------------------------------------------------


def kingdom_json(seat_state: dict[str, Any]) -> dict[str, Any]:
    """A seat of ``final_state`` as a score position (its spots, zone and buildings)."""
    spots = seat_state["kingdom"]
    return {
        "front": [{"unit": s[0], "age": s[1]} for s in spots[:MAX_FRONT] if s],
        "back": [{"unit": s[0], "age": s[1]} for s in spots[MAX_FRONT:] if s],
        "artifacts": seat_state["artifacts"],
        "buildings": {b[0]: b[1] for b in seat_state["buildings"] if b[1]},
    }


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_end_lp_of_finished_games_matches_the_game_record(players: int) -> None:
    """The end phase scores the final kingdoms: the score of each final kingdom has the
    ``buildings``, ``relic`` and ``artifacts`` parts the game recorded (3 games each)."""
    cards = load_cardset(variant="legends")
    rules = Rules(cards, players)
    greedy = POLICY_NAMES.index("greedy")
    parts = [LEGENDS_BREAKDOWN.index(k) for k in ("buildings", "relic", "artifacts")]
    artifacts_seen = 0
    for seed in range(3):
        game = play_reference(rules, default_weights(), [greedy] * players, seed, 0)
        final = final_state(game)
        state = {"players": [kingdom_json(s) for s in final["seats"]]}
        result = score_state(state, cards)
        assert result == score_state_reference(state, cards)
        check_sums(result)
        for recorded, scored in zip(final["seats"], result["players"], strict=True):
            b = scored["breakdown"]
            assert [b["buildings"], b["relic"], b["artifacts"]] == [
                recorded["breakdown"][i] for i in parts
            ]
            artifacts_seen += len(recorded["artifacts"])
    assert artifacts_seen  # the games did deploy artifacts


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "message"),
    [
        (seat(arts="excalibur"), 'player 1: artifacts 0: unknown artifact "excalibur"'),
        (
            seat(arts="dragon-egg knight"),
            "player 1: artifacts 1: 'knight' is a unit, not an artifact",
        ),
        (
            seat("dragon-egg"),
            "player 1: front 0: unknown unit \"dragon-egg\" (an artifact: list it in 'artifacts')",
        ),
        ({"front": [], "artifacts": "dragon-egg"}, "player 1: 'artifacts' must be a list"),
        (seat(arts="dragon-egg dragon-egg"), "'dragon-egg' appears 2 times; the deck has 1"),
        (seat(castle=1), "player 1: unknown building 'castle'"),
    ],
)
def test_legends_errors_name_the_seat_and_the_id(player: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        score(EMPTY, player)


@pytest.mark.parametrize(
    ("player", "message"),
    [
        (
            seat(arts="dragon-egg"),
            'player 1: artifact "dragon-egg" needs the Legends variant (score with --variant',
        ),
        ({"front": [], "artifacts": []}, "player 1: 'artifacts' needs the Legends variant"),
        (
            seat("knight dragon-egg"),
            'player 1: front 1: unknown unit "dragon-egg" (a Legends card: score with --variant',
        ),
        (seat(inn=1), "player 1: unknown building 'inn'"),
    ],
)
def test_legends_cards_in_a_base_position(
    base: CardSet, player: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        score_state({"players": [EMPTY, player]}, base)


def test_unknown_variant_is_refused() -> None:
    with pytest.raises(ValueError, match="paper-tales has no variant 'gold'"):
        score_state({"players": [EMPTY, EMPTY]}, variant="gold")


# --- the CLI -------------------------------------------------------------------------------


def test_cli_scores_a_legends_position(seats_file) -> None:
    """Seat 0 of the Legendary Sword test through ``talesim score --variant legends``."""
    path = seats_file(seat("knight", arts="legendary-sword"), seat("knight archer"), EMPTY)
    result = invoke("score", "paper-tales", path, "--variant", "legends", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert [p["war_lp"] for p in out["players"]] == [6, 3, 0]
    assert out["winners"] == [0]
    table = invoke("score", "paper-tales", path, "--variant", "legends")
    assert table.exit_code == 0, table.output
    assert "legendary-sword 0" in table.stdout
    assert "winners: seat 0" in table.stdout


def test_cli_errors(seats_file) -> None:
    legends = seats_file(seat("knight", arts="dragon-egg"), EMPTY)
    assert 'state.json: player 0: artifact "dragon-egg" needs the Legends variant' in error_line(
        invoke("score", "paper-tales", legends)
    )
    assert "paper-tales has no variant 'gold'" in error_line(
        invoke("score", "paper-tales", legends, "--variant", "gold")
    )
    bad = seats_file(seat(arts="knight"), EMPTY)
    assert "player 0: artifacts 0: 'knight' is a unit" in error_line(
        invoke("score", "paper-tales", bad, "--variant", "legends")
    )
    base = seats_file(seat("knight"), EMPTY)
    assert invoke("score", "paper-tales", base, "--variant", "base", "--json").stdout == (
        invoke("score", "paper-tales", base, "--json").stdout
    )


def test_cli_variant_for_a_game_whose_score_has_none(seats_file) -> None:
    """Fairy Tale and DRAKO read the variant from the state itself ("variant" / "rules"):
    ``--variant`` is one error line rather than an option silently ignored."""
    path = seats_file(EMPTY, EMPTY)
    assert (
        '`talesim score fairy-tale` reads the variant from STATE.json (its "variant" key), '
        "not from --variant"
    ) in error_line(invoke("score", "fairy-tale", path, "--variant", "expert"))
    assert (
        '`talesim score drako` reads the rules from STATE.json (its "rules" key), not from --rules'
    ) in error_line(invoke("score", "drako", path, "--rules", "brief"))
