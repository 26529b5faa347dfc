"""§2.6 Aging, both variants: Healer choices, death abilities, discard, tokens (§N:
``docs/rules/paper-tales.md``)."""

from __future__ import annotations

from talesim.simcore.jit import hot, hot_outline

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..evaluate.end import dies
from ..layout import F_DIED  # passed as call arguments (see layout.py)
from .brain import heal_choice
from .payment import _l_death_abilities
from .place import death_abilities
from .state import _kill, _settle


@hot
def _dying(tb, s, p):
    """Bitmask of seat ``p``'s spots whose unit dies in this Aging (§2.6, ``dies``)."""
    dying = 0
    for spot in range(L.MAX_SPOTS):
        if s.sp[p, spot, L.S_CARD] >= 0 and dies(
            tb.ut, tb.ab, s.sp[p, spot, L.S_UNIT], s.sp[p, spot, L.S_AGE]
        ):
            dying |= 1 << spot
    return dying


@hot
def _die_and_age(tb, s, p, dead, saved):
    """Aging after the death abilities: the units on the spots of bitmask ``dead`` are
    discarded, every survivor takes a token (a saved one only with ``healed_units_age``)."""
    for spot in range(L.MAX_SPOTS):
        if (dead >> spot) & 1:
            s.log[p, s.card_log[s.sp[p, spot, L.S_CARD]], L.L_DIED] = 1
            _kill(s, p, spot, F_DIED)
    for spot in range(L.MAX_SPOTS):
        if s.sp[p, spot, L.S_CARD] < 0:
            continue
        if (saved >> spot) & 1 and not tb.rules[L.R_HEALED_AGE]:
            continue
        s.sp[p, spot, L.S_AGE] += 1
        s.log[p, s.card_log[s.sp[p, spot, L.S_CARD]], L.L_SURVIVED] += 1


@hot_outline
def aging(tb, lx, weights, s, ls, n_players):
    """§8 order: Healer choices -> death abilities -> discard -> +1 token to survivors.
    Savers: units (spot order); Legends: then building faces of the set, then artifacts
    (zone order); artifacts never age, they count an Aging survived."""
    ut, bt = tb.ut, tb.bt
    for p in range(n_players):
        dying = _dying(tb, s, p)
        saved = 0
        for spot in range(L.MAX_SPOTS):
            if s.sp[p, spot, L.S_CARD] >= 0:
                u = s.sp[p, spot, L.S_UNIT]
                lo = ut[u, L.U_AB0]
                saved = _heal_source(
                    tb, lx, weights, s, ls, p, lo, lo + ut[u, L.U_NAB], dying, saved
                )
        if lx is not None:
            xt = lx.xt
            for b in range(bt.shape[0]):
                if ls.inset[b]:
                    for k in range(s.blevel[p, b]):
                        lo = bt[b, k, L.B_AB0]
                        hi = lo + bt[b, k, L.B_NAB]
                        saved = _heal_source(tb, lx, weights, s, ls, p, lo, hi, dying, saved)
            for i in range(ls.zn[p]):
                x = ls.zone[p, i, L.Z_X]
                lo = xt[x, L.X_AB0]
                hi = lo + xt[x, L.X_NAB]
                saved = _heal_source(tb, lx, weights, s, ls, p, lo, hi, dying, saved)
        dead = dying & ~saved
        if lx is None:
            death_abilities(tb, s, p, dead)
        else:
            _l_death_abilities(tb, lx, s, ls, p, dead)
        _die_and_age(tb, s, p, dead, saved)
        if lx is not None:
            for i in range(ls.zn[p]):
                s.log[p, s.card_log[ls.zone[p, i, L.Z_CARD]], L.L_SURVIVED] += 1
        _settle(tb, s, p)


@hot
def _heal_source(tb, lx, weights, s, ls, p, lo, hi, dying, saved):
    """The ``heal`` abilities in rows ``lo..hi-1`` of one saver; the new ``saved`` mask."""
    ab = tb.ab
    for j in range(lo, hi):
        if ab[j, L.A_KIND] != L.K_HEAL:
            continue
        n_save = 0
        for x in range(L.MAX_SPOTS):
            if (dying >> x) & 1 and not (saved >> x) & 1 and s.sp[p, x, L.S_AGE] == ab[j, L.A_AGE]:
                s.spots[n_save] = x
                n_save += 1
        if n_save:
            k = heal_choice(tb, lx, weights, s, ls, p, n_save)
            if k:
                saved |= 1 << s.spots[k - 1]
    return saved
