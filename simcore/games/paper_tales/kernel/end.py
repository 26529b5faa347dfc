"""§2.7 End (building LP, Relic, winners) and checking mode (``check_state``: the
invariants of both variants). §N: ``docs/rules/paper-tales.md``.
"""

from __future__ import annotations

from talesim.simcore.jit import hot, hot_outline

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..evaluate.end import end_lp, l_end_lp
from ..layout import (  # passed as call arguments (see layout.py)
    LP_ARTIFACTS,
    LP_BUILDINGS,
    LP_RELIC,
)
from .place import _opens_extra, _spot_open
from .state import _lscore, _score, _seat_assess, _settle


@hot
def _winners(s, n_players):
    """§2.7: highest LP; tie -> most gold; still tied -> all of them (``I_WINNER``)."""
    best = s.pi[0, L.I_LP]
    for p in range(n_players):
        best = max(best, s.pi[p, L.I_LP])
    rich = -1
    for p in range(n_players):
        if s.pi[p, L.I_LP] == best:
            rich = max(rich, s.pi[p, L.I_GOLD])
    for p in range(n_players):
        s.pi[p, L.I_WINNER] = 1 if s.pi[p, L.I_LP] == best and s.pi[p, L.I_GOLD] == rich else 0


@hot
def tally_places(tb, s, n_players):
    """``s.tally[c]``: how many times card ``c`` lies in the piles, packs, hands, kept cards
    and spots (``Game.card_places``; conservation: exactly once)."""
    for c in range(tb.deck.shape[0]):
        s.tally[c] = 0
    for i in range(s.g[L.G_DECK_N]):
        s.tally[s.deck[i]] += 1
    for i in range(s.g[L.G_DISC_N]):
        s.tally[s.disc[i]] += 1
    for p in range(n_players):
        for i in range(s.pi[p, L.I_PACK_N]):
            s.tally[s.packs[p, i]] += 1
        for i in range(s.pi[p, L.I_HAND_N]):
            s.tally[s.hand[p, i]] += 1
        if s.pi[p, L.I_KEPT] >= 0:
            s.tally[s.pi[p, L.I_KEPT]] += 1
        for spot in range(L.MAX_SPOTS):
            if s.sp[p, spot, L.S_CARD] >= 0:
                s.tally[s.sp[p, spot, L.S_CARD]] += 1


@hot
def tally_broken(tb, s):
    """True when some card is not exactly once in ``s.tally``."""
    wrong = 0
    for c in range(tb.deck.shape[0]):
        wrong += s.tally[c] != 1
    return wrong > 0


@hot
def seat_violation(tb, s, p, extra_lp):
    """Code of the first broken per-seat invariant of seat ``p`` (0: none); ``extra_lp``:
    LP booked outside ``s.parts`` (the Legends parts)."""
    rules = tb.rules
    if s.pi[p, L.I_GOLD] < 0:
        return L.V_GOLD
    if s.pi[p, L.I_LP] < rules[L.R_SCORE_FLOOR]:
        return L.V_FLOOR
    if s.pi[p, L.I_STEP] != 0:
        return L.V_STEP
    total = extra_lp
    for k in range(L.N_PARTS):
        total += s.parts[p, k]
    if total != s.pi[p, L.I_LP]:
        return L.V_BREAKDOWN
    if s.parts[p, L.LP_FLOOR] < 0:
        return L.V_FLOOR_PART
    for spot in range(L.MAX_SPOTS):
        if s.sp[p, spot, L.S_CARD] < 0:
            continue
        if not 0 <= s.sp[p, spot, L.S_AGE] <= L.MAX_AGE:
            return L.V_AGE
        if spot != L.EXTRA_SPOT and not _spot_open(tb, s, p, spot):
            return L.V_SPOT
    for b in range(tb.bt.shape[0]):
        if not 0 <= s.blevel[p, b] <= L.LEVELS:
            return L.V_LEVEL
    if s.sp[p, L.EXTRA_SPOT, L.S_CARD] >= 0 and not _opens_extra(tb, s, p):
        return L.V_EXTRA
    return 0


@hot_outline
def end(tb, lx, s, ls, n_players):
    """``Game.end``: building LP and the Relic of Wisdom (Legends: the artifacts' end LP, its
    own part), then the winners."""
    ut, bt, ab = tb.ut, tb.bt, tb.ab
    for p in range(n_players):
        n, nz, facts = _seat_assess(tb, lx, s, ls, p)
        wood, food, crystal, _, _, age_all, n_level2, _ = facts
        if lx is None:
            buildings, relic = end_lp(
                ut, bt, ab, s.pc, n, s.bl, 0, wood, food, crystal, age_all, n_level2
            )
            _score(s, p, LP_BUILDINGS, buildings)
            _score(s, p, LP_RELIC, relic)
        else:
            buildings, relic, arts = l_end_lp(
                ut, bt, ab, lx.xt, s.pc, n, s.bl, ls.zx, nz, 0, wood, food, crystal, age_all,
                n_level2,
            )  # fmt: skip
            _score(s, p, LP_BUILDINGS, buildings)
            _score(s, p, LP_RELIC, relic)
            _lscore(s, ls, p, LP_ARTIFACTS, arts)
        _settle(tb, s, p)
    _winners(s, n_players)


@hot_outline
def check_state(tb, lx, s, ls, n_players):
    """Code of the first broken rule invariant (``INVARIANTS``; Legends:
    ``LEGENDS_INVARIANTS``), 0 when all hold. Legends: the zones count in the card tally
    and their LP parts in the breakdown, then ``_legends_violation``. Called between
    phases, where every artifact in a zone has been paid and its deployment is over."""
    tally_places(tb, s, n_players)
    if lx is not None:
        for p in range(n_players):
            for i in range(ls.zn[p]):
                s.tally[ls.zone[p, i, L.Z_CARD]] += 1
    if tally_broken(tb, s):
        return L.V_CARDS
    for p in range(n_players):
        extra = 0
        if lx is not None:
            for c in range(L.N_LPARTS):
                extra += ls.lparts[p, c]
        violation = seat_violation(tb, s, p, extra)
        if violation:
            return violation
        if lx is not None:
            violation = _legends_violation(tb, s, ls, p)
            if violation:
                return violation
    return 0


@hot
def _legends_violation(tb, s, ls, p):
    """``V_ART_PLACE``, ``V_OUT_OF_SET`` or ``V_ZONE`` for seat ``p`` (0: none)."""
    U, deck = tb.ut.shape[0], tb.deck
    for spot in range(L.MAX_SPOTS):
        if s.sp[p, spot, L.S_CARD] >= 0 and deck[s.sp[p, spot, L.S_CARD]] >= U:
            return L.V_ART_PLACE
    for i in range(ls.zn[p]):
        if deck[ls.zone[p, i, L.Z_CARD]] < U:
            return L.V_ART_PLACE
    for b in range(tb.bt.shape[0]):
        if s.blevel[p, b] > 0 and not ls.inset[b]:
            return L.V_OUT_OF_SET
    for i in range(ls.zn[p]):
        if not ls.zone[p, i, L.Z_PAID] or ls.zone[p, i, L.Z_FRESH]:
            return L.V_ZONE
    return 0
