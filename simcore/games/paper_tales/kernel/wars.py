"""§2.3 Wars and §2.4 Income, both variants (§N: ``docs/rules/paper-tales.md``)."""

from __future__ import annotations

from talesim.simcore.jit import hot, hot_outline

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..evaluate.strength import fight, l_war_phase_lp, war_phase_lp
from ..layout import (  # passed as call arguments (see layout.py)
    LP_PER_WAR_WON,
    LP_WAR_ARTIFACTS,
    LP_WAR_BUILDINGS,
    LP_WAR_UNITS,
    LP_WARS,
)
from .state import (
    _assess_seat,
    _lassess,
    _lscore,
    _score,
    _seat_assess,
    _settle,
    _strength_of,
    _two,
)


@hot
def _fight_seat(rules, s, p, n_players, strength):
    """(wars won, war LP) of seat ``p``'s ``strength`` against its neighbours' in
    ``s.strength`` (2 players: the single war)."""
    if n_players == 2:
        return fight(rules, True, strength, s.strength[1 - p], 0)
    right = s.strength[(p - 1) % n_players]  # seat p-1: the right neighbour
    left = s.strength[(p + 1) % n_players]  # seat p+1: the left neighbour
    return fight(rules, False, strength, right, left)


@hot
def _score_wars(s, p, won, lp, per_war, war_units, war_buildings):
    """The wars phase's results of seat ``p`` (wars won and the four base LP parts)."""
    s.pi[p, L.I_WARS] += won
    _score(s, p, LP_WARS, lp)
    _score(s, p, LP_PER_WAR_WON, per_war)
    _score(s, p, LP_WAR_UNITS, war_units)
    _score(s, p, LP_WAR_BUILDINGS, war_buildings)


@hot_outline
def wars(tb, lx, s, ls, n_players):
    """``Game.wars``: each seat against its neighbours' strengths, then the war-phase LP and
    gold (Legends: the artifacts count, and their war-phase LP is its own part)."""
    ut, bt, ab, rules = tb.ut, tb.bt, tb.ab, tb.rules
    two = _two(n_players)
    for q in range(n_players):
        if lx is None:
            s.strength[q] = _strength_of(tb, s, q)
        else:
            s.strength[q] = _lassess(tb, lx, s, ls, q)[4]
    for p in range(n_players):
        n, nz, facts = _seat_assess(tb, lx, s, ls, p)
        wood, food, crystal, income, strength, age_all, n_level2, n_strong = facts
        won, lp = _fight_seat(rules, s, p, n_players, strength)
        if lx is None:
            per_war, war_units, war_buildings, gold = war_phase_lp(
                ut, bt, ab, rules, s.pc, n, s.bl, two, won, wood, food, crystal, income,
                age_all, n_level2, n_strong,
            )  # fmt: skip
            _score_wars(s, p, won, lp, per_war, war_units, war_buildings)
        else:
            per_war, war_units, war_buildings, war_arts, gold = l_war_phase_lp(
                ut, bt, ab, rules, lx.xt, s.pc, n, s.bl, ls.zx, nz, two, won, wood, food,
                crystal, income, age_all, n_level2, n_strong,
            )  # fmt: skip
            _score_wars(s, p, won, lp, per_war, war_units, war_buildings)
            _lscore(s, ls, p, LP_WAR_ARTIFACTS, war_arts)
        s.pi[p, L.I_GOLD] += gold
        _settle(tb, s, p)


@hot_outline
def income(tb, lx, s, ls, n_players):
    """``Game.income``: every seat's income (Legends: with the artifacts')."""
    for p in range(n_players):
        if lx is None:
            s.pi[p, L.I_GOLD] += _assess_seat(tb, s, p)[1][3]
        else:
            s.pi[p, L.I_GOLD] += _lassess(tb, lx, s, ls, p)[3]
