"""§2.7 End: each building's face and the end-phase LP (``end_lp``), then the ranking
(``winners``: most LP, then most gold, still tied: a shared win). §N:
``docs/rules/paper-tales.md``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .kingdom import Assessment, Piece, assess, per_value, when_holds
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game


def end_lp(
    rules: Rules,
    pieces: list[Piece],
    blevel: list[int],
    a: Assessment,
    arts: Sequence[int] = (),
) -> dict[str, int]:
    """§2.7: each building's current face LP (+ end-phase building 'lp') and the end-phase
    'lp' of units (Relic of Wisdom: 2 per token); Legends: ``artifacts`` = every
    artifact's printed LP + end-phase artifact 'lp' (Ancient Grimoire)."""
    facts: dict[str, Any] = {"age_kingdom": a.age_all, "level2_buildings": a.n_level2}
    out = {"buildings": 0, "relic": 0}
    if rules.legends:
        facts["artifacts"] = len(arts)
        facts["unit_costs"] = a.facts["unit_costs"]
        out["artifacts"] = 0
        for x in arts:
            out["artifacts"] += rules.artifacts[x].lp
            for ab in rules.artifacts[x].abilities:
                if ab.kind == "lp" and ab.phase == "end":
                    out["artifacts"] += ab.amount * per_value(ab.per, None, a.prod, facts, ab)
    for b, lv in enumerate(blevel):
        if lv:
            out["buildings"] += rules.buildings[b].levels[lv - 1].lp
        for ab in rules.face_abilities(b, lv):
            if ab.kind == "lp" and ab.phase == "end" and when_holds(ab.when, None, a.prod):
                out["buildings"] += ab.amount * per_value(ab.per, None, a.prod, facts, ab)
    for pc in pieces:
        for ab in rules.units[pc.unit].abilities:
            if ab.kind == "lp" and ab.phase == "end" and when_holds(ab.when, pc, a.prod):
                out["relic"] += ab.amount * per_value(ab.per, pc, a.prod, facts, ab)
    return out


def winners(totals: list[int], gold: list[int]) -> list[int]:
    """§2.7: highest LP; tie -> most gold; still tied -> all of them share the win."""
    best = max(totals)
    tied = [p for p, t in enumerate(totals) if t == best]
    rich = max(gold[p] for p in tied)
    return [p for p in tied if gold[p] == rich]


def end(game: Game) -> None:
    game.phase = "end"
    for p, pl in enumerate(game.players):
        pieces = pl.pieces(game.rules)
        a = assess(game.rules, pieces, pl.blevel, pl.arts())
        for k, v in end_lp(game.rules, pieces, pl.blevel, a, pl.arts()).items():
            game.score(p, k, v)
        game.settle(p)
    win = game.winners()
    for p in win:
        game.players[p].win = 1.0 / len(win)
    game.over = True
    game.emit(
        "final",
        scores=[pl.lp for pl in game.players],
        gold=[pl.gold for pl in game.players],
        breakdown=[dict(pl.parts) for pl in game.players],
        winners=win,
    )
