"""§2.3 Wars: every kingdom's strength first, then per seat its wars against its
neighbours (``fight``; two players: §2.9), the per-war-won and war-phase LP and the war
gold (``war_phase_lp``). §N: ``docs/rules/paper-tales.md``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .kingdom import Assessment, Piece, gain_holds, per_value, when_holds
from .rules import Rules

if TYPE_CHECKING:
    from ..tables import Ability
    from .game import Game


def fight(rules: Rules, mine: int, theirs: list[int]) -> tuple[int, int]:
    """(wars won, war LP) of a kingdom of strength ``mine`` against its neighbours'.

    3-5 players: each neighbour separately, ``>=`` wins (ties: both win), ``war_lp`` each.
    2 players (§2.9): one war, won with strength > 0 (unless ``zero_strength_wins``) and
    >= the opponent's; ``double_war_lp`` when >= ``double_ratio`` x the opponent's."""
    if rules.two_player:
        t = rules.two
        (opp,) = theirs
        if mine >= opp and (mine > 0 or t.zero_strength_wins):
            return 1, t.double_war_lp if mine >= t.double_ratio * opp else t.war_lp
        return 0, 0
    won = sum(1 for s in theirs if mine >= s)
    return won, won * rules.o["war_lp"]


def _war_gain(
    rules: Rules, a: Ability, piece: Piece | None, prod: list[int], facts: dict[str, Any]
) -> bool:
    return a.phase == "war" and gain_holds(rules, a, piece, prod, facts)


def war_phase_lp(
    rules: Rules,
    pieces: list[Piece],
    blevel: list[int],
    a: Assessment,
    won: int,
    arts: Sequence[int] = (),
) -> tuple[dict[str, int], int]:
    """LP parts (``per_war_won``, ``war_units``, ``war_buildings``; Legends also
    ``war_artifacts``) and war gold (Rogue).

    Per-war-won abilities count the wars won (2 players: ``per_war_won_times`` on a win)
    from either row (``per_war_won_rows``; an artifact has no row: always); war-phase
    ``lp`` and ``conditional_gain`` score whether or not a war was won."""
    pww = won
    if rules.two_player and won:
        pww = rules.two.per_war_won_times
    facts: dict[str, Any] = {
        "age_kingdom": a.age_all,
        "income_gold": a.income,
        "level2_buildings": a.n_level2,
        "strong_units": a.n_strong,
    }
    if rules.legends:
        facts["artifacts"] = a.facts["artifacts"]
        facts["unit_costs"] = a.facts["unit_costs"]
    parts = {"per_war_won": 0, "war_units": 0, "war_buildings": 0}
    if rules.legends:
        parts["war_artifacts"] = 0
    gold = 0
    front_only = rules.o["per_war_won_rows"] == "front"
    for pc in pieces:
        counts = pc.front or not front_only
        for ab in rules.units[pc.unit].abilities:
            mult = per_value(ab.per, pc, a.prod, facts, ab)
            if ab.kind == "lp_per_war_won" and counts:
                parts["per_war_won"] += ab.amount * mult * pww
            elif ab.kind == "gold_per_war_won" and counts:
                gold += ab.amount * pww
            elif ab.kind == "lp" and ab.phase == "war" and when_holds(ab.when, pc, a.prod):
                parts["war_units"] += ab.amount * mult
            elif ab.kind == "conditional_gain" and _war_gain(rules, ab, pc, a.prod, facts):
                parts["war_units"] += ab.lp
                gold += ab.gold
    for b, lv in enumerate(blevel):
        for ab in rules.face_abilities(b, lv):
            if ab.kind == "lp" and ab.phase == "war" and when_holds(ab.when, None, a.prod):
                parts["war_buildings"] += ab.amount * per_value(ab.per, None, a.prod, facts, ab)
            elif ab.kind == "conditional_gain" and _war_gain(rules, ab, None, a.prod, facts):
                parts["war_buildings"] += ab.lp
                gold += ab.gold
    for x in arts:
        for ab in rules.artifacts[x].abilities:
            mult = per_value(ab.per, None, a.prod, facts, ab)
            if ab.kind == "lp_per_war_won":
                parts["per_war_won"] += ab.amount * mult * pww
            elif ab.kind == "gold_per_war_won":
                gold += ab.amount * pww
            elif ab.kind == "lp" and ab.phase == "war":
                parts["war_artifacts"] += ab.amount * mult
            elif ab.kind == "conditional_gain" and _war_gain(rules, ab, None, a.prod, facts):
                parts["war_artifacts"] += ab.lp
                gold += ab.gold
    return parts, gold


def wars(game: Game) -> None:
    game.phase = "wars"
    a = [game.assessment(p) for p in range(game.n)]
    for p, pl in enumerate(game.players):
        theirs = [a[q].strength for q in game.rules.neighbours(p)]
        won, lp = fight(game.rules, a[p].strength, theirs)
        pieces = pl.pieces(game.rules)
        parts, gold = war_phase_lp(game.rules, pieces, pl.blevel, a[p], won, pl.arts())
        pl.wars_won += won
        game.score(p, "wars", lp)
        for k, v in parts.items():
            game.score(p, k, v)
        pl.gold += gold
        game.settle(p)
        game.emit(
            "wars",
            seat=p,
            strength=a[p].strength,
            against=theirs,
            won=won,
            lp=lp + sum(parts.values()),
            gold=gold,
        )
