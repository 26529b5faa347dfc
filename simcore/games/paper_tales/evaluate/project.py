"""Paper Tales evaluation: the policies' projection and the features' weighted sum.

``Brain.project`` (``project``; Legends ``l_project`` with the tiers still to come and
``l_sketch``), the features' weighted sum (``weighted``, both variants: the Legends
building set and artifact term are None / absent in a base game, pruned at compile time),
and the step-by-step value (``value_full`` / ``l_value_full``: project, assess, wars,
end, deployment, deaths, as the reference does), the oracle the table-driven ``value`` is
tested against.
"""

from __future__ import annotations

from talesim.simcore.jit import hot, hot_outline

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..layout import ix
from .end import death_rewards, deploy_lp, dies, end_lp, l_end_lp
from .facts import base_facts, gain_holds, pending_effects, production
from .strength import assess, fight, l_assess, l_war_phase_lp, war_phase_lp


@hot
def project(ut, bt, ab, pc, n, bl, wpc, wbl):
    """``Brain.project`` into ``wpc``/``wbl``: the pending pieces' predictable on-deploy
    effects (``add_age`` on self / others per one, ``upgrade_buildings``)."""
    others, upgrade = pending_effects(ut, pc, n)
    for i in range(n):
        for c in range(L.N_PC):
            wpc[i, c] = pc[i, c]
        wpc[i, L.PC_AGE] += others
        if pc[i, L.PC_PENDING]:
            u = pc[i, L.PC_UNIT]
            wpc[i, L.PC_AGE] += ut[u, L.KU_SELF_AGE] - ut[u, L.KU_OTHERS_AGE]
            wpc[i, L.PC_PENDING] = 0
    for b in range(bt.shape[0]):
        wbl[b] = L.LEVELS if upgrade and bl[b] == 1 else bl[b]


@hot
def l_project(ut, bt, ab, xt, pc, n, pdone, bl, sa, na, zx, wpc, wbl):
    """``Brain.project_legends`` into ``wpc`` / ``wbl`` (and the sketch's artifact indices
    into ``zx``): the pending sources' on-deploy effects of the tiers still to come, in tier
    order (``upgrade_buildings``; ``add_age`` per one on self / others / all; flat
    ``conditional_gain``). Returns (gold gained, deployment LP gained, False when nothing
    projects: the pieces are then ``pc`` itself, not copied into ``wpc``). Beside
    ``project``, not folded into it: the base one is a single pass over the per-unit
    amounts ``KU_SELF_AGE`` / ``KU_OTHERS_AGE`` / ``KU_UPGRADE``, this one walks the tiers
    over pieces and artifacts."""
    for b in range(bt.shape[0]):
        wbl[b] = bl[b]
    pending = False
    for i in range(na):
        zx[i] = sa[i, L.SA_X]
        pending |= sa[i, L.SA_PENDING] != 0
    for i in range(n):  # a pending unit matters only with a kind l_project applies
        pending |= pc[i, L.PC_PENDING] != 0 and ut[pc[i, L.PC_UNIT], L.KU_MASK] & L.M_PROJECT_L != 0
    gold = bonus = 0
    if not pending:
        return gold, bonus, False
    for i in range(n):
        for c in range(L.N_PC):
            wpc[i, c] = pc[i, c]
        wpc[i, L.PC_PENDING] = 0
    for tier in (L.T_LEVELS, L.T_AGE, L.T_COUNT):
        for src in range(n + na):
            if src < n:
                if not pc[src, L.PC_PENDING] or tier <= pdone[src]:
                    continue
                me = src
                u = pc[src, L.PC_UNIT]
                if not ut[u, L.KU_MASK] & L.M_PROJECT_L:
                    continue
                lo, hi = ut[u, L.U_AB0], ut[u, L.U_AB0] + ut[u, L.U_NAB]
            else:
                a = src - n
                if not sa[a, L.SA_PENDING] or tier <= sa[a, L.SA_DONE]:
                    continue
                me = -1
                x = sa[a, L.SA_X]
                lo, hi = xt[x, L.X_AB0], xt[x, L.X_AB0] + xt[x, L.X_NAB]
            for j in range(lo, hi):
                if not ab[j, L.A_ON_DEPLOY] or ab[j, L.A_TIER] != tier:
                    continue
                kind = ab[j, L.A_KIND]
                if kind == L.K_UPGRADE_BUILDINGS:
                    for b in range(bt.shape[0]):
                        if wbl[b] == 1:
                            wbl[b] = L.LEVELS
                elif (
                    kind == L.K_ADD_AGE
                    and ab[j, L.A_PER] == L.P_ONE
                    and ab[j, L.A_TARGET] != L.T_ONE
                ):
                    t = ab[j, L.A_TARGET]
                    for o in range(n):
                        if (
                            (t == L.T_SELF and o == me)
                            or (t == L.T_OTHERS and o != me)
                            or t == L.T_ALL
                        ):
                            wpc[o, L.PC_AGE] += ab[j, L.A_AMOUNT]
                elif kind == L.K_CONDITIONAL_GAIN:
                    wood, food, crystal = production(ut, bt, wpc, n, wbl, xt, zx, na)
                    age_all, n_level2 = base_facts(bt, wpc, n, wbl)
                    age = wpc[me, L.PC_AGE] if me >= 0 else 0
                    spot = wpc[me, L.PC_SPOT] if me >= 0 else -1
                    facts = (age_all, n_level2, 0, 0, na)
                    if gain_holds(ut, ab, j, age, spot, wpc, n, wood, food, crystal, facts):
                        gold += ab[j, L.A_GOLD]
                        bonus += ab[j, L.A_LP]
    return gold, bonus, True


@hot
def l_sketch(s, ls, p, n):
    """``Brain.sketch`` (Legends) beside the pieces ``s.pc[:n]`` the caller loaded: each
    piece's last tier done into ``ls.pdone``, the zone (face-down cards included) into
    ``ls.sa``; the number of sketch artifacts."""
    for i in range(n):
        ls.pdone[i] = ls.sx[p, s.pc[i, L.PC_SPOT], L.SX_DONE]
    for i in range(ls.zn[p]):
        ls.sa[i, L.SA_X] = ls.zone[p, i, L.Z_X]
        ls.sa[i, L.SA_PENDING] = ls.zone[p, i, L.Z_FRESH] and ls.zone[p, i, L.Z_DONE] < L.T_PENALTY
        ls.sa[i, L.SA_DONE] = ls.zone[p, i, L.Z_DONE]
    return ls.zn[p]


@hot
def buildable(bt, bl, wood, food, crystal):
    """Buildings whose next level's printed requirement is produced (gold ignored)."""
    count = 0
    for b in range(bt.shape[0]):
        lv = bl[b]
        if lv < 2 and (
            wood >= bt[b, ix(lv), L.B_REQ0]
            and food >= bt[b, ix(lv), L.B_REQ0 + 1]
            and crystal >= bt[b, ix(lv), L.B_REQ0 + 2]
        ):
            count += 1
    return count


@hot
def clamp_margin(d):
    if d < -L.MARGIN_CAP:
        return -L.MARGIN_CAP
    if d > L.MARGIN_CAP:
        return L.MARGIN_CAP
    return d


@hot
def weighted(w, pol, bt, bl, left, kingdom, gold, seen0, seen1, two, lx=None, inset=None, na=0):
    """The 14 features of a kingdom's totals ``kingdom`` (war LP, end LP, deployment LP,
    aging LP, income, strength, wood, food, crystal, printed strength surviving Aging,
    pieces, level-2 buildings, strong units) times the policy's weights, summed in feature
    order (float64, as the reference does). Legends (``lx``, ``inset``: None in a base game,
    where numba prunes their branches): ``F_BUILDABLE`` counts only the game's building set
    ``inset`` (the other buildings of ``bl``, a scratch, are made complete), and the
    ``LF_*`` terms follow (``na`` artifacts)."""
    if inset is not None:
        for b in range(bt.shape[0]):
            if not inset[b]:
                bl[b] = L.LEVELS
    war, end, dep, aging, income, strength, wood, food, crystal, keep, n, n_level2, n_strong = (
        kingdom
    )
    margin = clamp_margin(strength - seen0)
    if not two:
        margin += clamp_margin(strength - seen1)
    wp = w[ix(pol)]
    v = 0.0
    v += wp[L.F_WAR_LP] * war
    v += wp[L.F_END_LP] * end
    v += wp[L.F_DEPLOY_LP] * dep
    v += wp[L.F_AGING_LP] * aging
    v += wp[L.F_INCOME] * income
    v += wp[L.F_GOLD] * gold
    v += wp[L.F_STRENGTH] * strength
    v += wp[L.F_MARGIN] * margin
    v += wp[L.F_PROD] * ((wood + food + crystal) * left)
    v += wp[L.F_BUILDABLE] * (buildable(bt, bl, wood, food, crystal) * left)
    v += wp[L.F_KEEP] * (keep * left)
    v += wp[L.F_UNITS] * n
    v += wp[L.F_LEVEL2] * (n_level2 * left)
    v += wp[L.F_STRONG] * n_strong
    if lx is not None:
        v += lx.lweights[pol, L.LF_ARTIFACTS] * (na * left)
    return v


@hot
def aging(ut, ab, pc, n, wood, food, crystal, age_all, n_level2):
    """The next Aging of the pieces ``pc[:n]`` (``value_full``'s last steps): (LP of the
    deaths, printed strength of the units that survive)."""
    mask = 0
    keep = 0
    for i in range(n):
        u = pc[i, L.PC_UNIT]
        if dies(ut, ab, u, pc[i, L.PC_AGE]):
            mask |= 1 << i
        else:
            keep += ut[u, L.U_STRENGTH]
    return death_rewards(ut, ab, pc, n, mask, wood, food, crystal, age_all, n_level2)[0], keep


@hot_outline
def value_full(tb, weights, pol, pc, n, bl, gold, seen0, seen1, two, turn, wpc, wbl):
    """``Brain.value`` step by step with the kingdom functions above (the reference's
    structure): the oracle of ``value`` (tests)."""
    ut, bt, ab, rules = tb.ut, tb.bt, tb.ab, tb.rules
    project(ut, bt, ab, pc, n, bl, wpc, wbl)
    wood, food, crystal, income, strength, age_all, n_level2, n_strong = assess(
        ut, bt, ab, rules, wpc, n, wbl
    )
    won, war_lp = fight(rules, two, strength, seen0, seen1)
    per_war, war_units, war_buildings, _ = war_phase_lp(
        ut, bt, ab, rules, wpc, n, wbl, two, won, wood, food, crystal, income, age_all,
        n_level2, n_strong,
    )  # fmt: skip
    turns = rules[L.R_TURNS]
    end_b, end_r = end_lp(
        ut, bt, ab, wpc, n, wbl, turns - turn + 1, wood, food, crystal, age_all, n_level2
    )
    dep = deploy_lp(ut, ab, wpc, n, True, wood, food, crystal, age_all, n_level2)
    aging_lp, keep = aging(ut, ab, wpc, n, wood, food, crystal, age_all, n_level2)
    war = war_lp + per_war + war_units + war_buildings
    lp = (war, end_b + end_r, dep, aging_lp)
    totals = (income, strength, wood, food, crystal, keep, n, n_level2, n_strong)
    return weighted(weights, pol, bt, wbl, turns - turn, lp + totals, gold, seen0, seen1, two)


@hot_outline
def l_value_full(
    tb, lx, weights, pol, pc, n, pdone, bl, sa, na, gold, bonus, seen0, seen1, two, turn, wpc,
    wbl, zx, inset,
):  # fmt: skip
    """``l_value`` step by step with the kingdom functions above (the reference's
    structure: project, assess, fight, war-phase LP, end LP, deployment LP, deaths): the
    oracle of ``l_value`` (tests; the kernel does not call it). Two oracles, as there are
    two values (``value.py``)."""
    ut, bt, ab, rules, xt = tb.ut, tb.bt, tb.ab, tb.rules, lx.xt
    gain, more, projected = l_project(ut, bt, ab, xt, pc, n, pdone, bl, sa, na, zx, wpc, wbl)
    gold += gain
    bonus += more
    if not projected:  # nothing moves: read the sketch itself (no copy)
        wpc = pc
    wood, food, crystal, income, strength, age_all, n_level2, n_strong = l_assess(
        ut, bt, ab, rules, xt, wpc, n, wbl, zx, na
    )
    won, war_lp = fight(rules, two, strength, seen0, seen1)
    per_war, war_units, war_buildings, war_arts, _ = l_war_phase_lp(
        ut, bt, ab, rules, xt, wpc, n, wbl, zx, na, two, won, wood, food, crystal, income,
        age_all, n_level2, n_strong,
    )  # fmt: skip
    turns = rules[L.R_TURNS]
    end_b, end_r, end_a = l_end_lp(
        ut, bt, ab, xt, wpc, n, wbl, zx, na, turns - turn + 1, wood, food, crystal, age_all,
        n_level2,
    )  # fmt: skip
    dep = deploy_lp(ut, ab, wpc, n, True, wood, food, crystal, age_all, n_level2)
    aging_lp, keep = aging(ut, ab, wpc, n, wood, food, crystal, age_all, n_level2)
    war = war_lp + per_war + war_units + war_buildings + war_arts
    lp = (war, end_b + end_r + end_a, dep + bonus, aging_lp)
    totals = (income, strength, wood, food, crystal, keep, n, n_level2, n_strong)
    kingdom = lp + totals
    return weighted(
        weights, pol, bt, wbl, turns - turn, kingdom, gold, seen0, seen1, two, lx, inset, na
    )
