"""The compiled int32 arrays: one ability's opcode row, the rule switches, and a card
set's ``Tables`` (``compile_tables``) or ``LegendsTables`` (``compile_legends_tables``)."""

from __future__ import annotations

import numpy as np

from . import columns as c
from .bounds import LEVELS
from .effects import EFFECT_CODE, N_RES, Per, Phase, Resource, Target, Tier, When, ability_tier
from .legends import building_pair_index
from .model import Ability, CardSet, LegendsTables, Rules, Tables


def ability_row(
    a: Ability, owner: int, building: int, level: int, legends: bool = False
) -> np.ndarray:
    """The int32 opcode row of one ability (columns ``A_*``; ``legends``: also the Legends
    columns, and ``building`` is the owner kind ``OWNER_*``)."""
    row = np.zeros(c.N_ACOLS_LEGENDS if legends else c.N_ACOLS, dtype=np.int32)
    row[c.A_OWNER_BUILDING] = building
    row[c.A_OWNER] = owner
    row[c.A_LEVEL] = level
    row[c.A_PHASE] = Phase[a.phase.upper()]
    row[c.A_KIND] = EFFECT_CODE[a.kind]
    row[c.A_ON_DEPLOY] = a.on_deploy
    row[c.A_AMOUNT] = a.amount
    row[c.A_VALUE] = a.value
    row[c.A_PER] = Per[a.per.upper()]
    row[c.A_WHEN] = When[a.when.upper()]
    row[c.A_TARGET] = Target[a.target.upper()]
    row[c.A_MAX_COST] = a.max_cost
    row[c.A_AGE] = a.age
    row[c.A_MIN_AGE] = a.min_age
    row[c.A_RES_MASK] = sum(1 << Resource[r.upper()] for r in a.resources)
    if legends:
        row[c.A_GOLD] = a.gold
        row[c.A_LP] = a.lp
        row[c.A_REQ0 : c.A_REQ0 + N_RES] = a.requires
        row[c.A_COUNTER] = Per[a.counter.upper()]
        row[c.A_MIN] = a.minimum
        row[c.A_PER_COST] = a.per_cost
        row[c.A_PER_OTHER] = a.per_other
        row[c.A_COUNT] = a.count
        row[c.A_COST] = a.cost
        row[c.A_BUILD_LEVEL] = a.level
        row[c.A_TIMES] = a.times
        row[c.A_DISCOUNT] = -1 if a.discount == 0 else a.discount
        row[c.A_TIER] = ability_tier(a.kind, a.on_deploy) if a.phase == "deployment" else Tier.NONE
    return row


def rule_vector(rules: Rules) -> np.ndarray:
    """The int32 rule switches (``R_*``)."""
    o, t = rules.options, rules.two_player
    v = np.zeros(c.N_RULES, dtype=np.int32)
    v[c.R_TURNS] = o["turns"]
    v[c.R_START_GOLD] = o["start_gold"]
    v[c.R_DEAL] = o["deal"]
    v[c.R_KEEP] = o["keep"]
    v[c.R_FRONT_SPOTS] = o["front_spots"]
    v[c.R_BACK_SPOTS] = o["back_spots"]
    v[c.R_EXTRA_FRONT] = o["extra_front_spots"]
    v[c.R_WAR_LP] = o["war_lp"]
    v[c.R_BASE_INCOME] = o["base_income"]
    v[c.R_LAND_COST] = o["land_cost_per_building"]
    v[c.R_SCORE_FLOOR] = o["score_floor"]
    v[c.R_RESHUFFLE] = o["reshuffle_discard"]
    v[c.R_FIRST_DIRECTION] = 1 if o["first_draft_direction"] == "next" else -1
    v[c.R_DIRECT_L2_SUM] = o["direct_level2_requirement"] == "sum"
    v[c.R_LAND_ON_UPGRADE] = o["land_cost_on_upgrade"]
    v[c.R_DISCARD_IS_DEATH] = o["deploy_discard"] == "death"
    v[c.R_HEALED_AGE] = o["healed_units_age"]
    v[c.R_STRONG_FRONT_ONLY] = o["strong_units_scope"] == "front"
    v[c.R_STRONG_MIN] = o["strong_units_min"]
    v[c.R_PWW_FRONT_ONLY] = o["per_war_won_rows"] == "front"
    v[c.R_SHAPE_ON_DEPLOY] = o["shapeshift_on_deploy"]
    v[c.R_SHAPE_FREE] = o["shapeshift_free"]
    v[c.R_KRAKEN_AT_END] = o["kraken_count_at_end"]
    v[c.R2_DEAL] = t.deal
    v[c.R2_DISCARD] = t.discard_per_step
    v[c.R2_SINGLE_WAR] = t.single_war
    v[c.R2_WAR_LP] = t.war_lp
    v[c.R2_DOUBLE_RATIO] = t.double_ratio
    v[c.R2_DOUBLE_LP] = t.double_war_lp
    v[c.R2_ZERO_WINS] = t.zero_strength_wins
    v[c.R2_PWW_TIMES] = t.per_war_won_times
    return v


def compile_tables(cards: CardSet) -> Tables:
    """Numpy tables: units, building faces, abilities (units first), rules, deck. A
    Legends card set gives the same five arrays in their Legends form (see
    ``LegendsTables``; ``compile_legends_tables`` adds the artifacts and switches)."""
    leg = cards.legends
    rows: list[np.ndarray] = []
    ut = np.zeros((len(cards.units), c.N_UCOLS), dtype=np.int32)
    for u, unit in enumerate(cards.units):
        ut[u, c.U_COPIES] = unit.copies
        ut[u, c.U_COST] = unit.cost
        ut[u, c.U_STRENGTH] = unit.strength
        ut[u, c.U_PROD0 : c.U_PROD0 + N_RES] = unit.produces.amounts
        ut[u, c.U_PROD_WHEN] = When[unit.produces.when.upper()]
        ut[u, c.U_PROD_PER] = Per[unit.produces.per.upper()]
        ut[u, c.U_AB0] = len(rows)
        ut[u, c.U_NAB] = len(unit.abilities)
        rows += [ability_row(a, u, c.OWNER_UNIT, 0, leg) for a in unit.abilities]
    bt = np.zeros((len(cards.buildings), LEVELS, c.N_BCOLS), dtype=np.int32)
    for b, building in enumerate(cards.buildings):
        for k, lv in enumerate(building.levels):
            bt[b, k, c.B_REQ0 : c.B_REQ0 + N_RES] = lv.requires
            bt[b, k, c.B_GOLD_INSTEAD] = -1 if lv.gold_instead is None else lv.gold_instead
            bt[b, k, c.B_LP] = lv.lp
            bt[b, k, c.B_PROD0 : c.B_PROD0 + N_RES] = lv.produces.amounts
            bt[b, k, c.B_EXTRA_SPOT] = lv.extra_front_spot
            bt[b, k, c.B_AB0] = len(rows)
            bt[b, k, c.B_NAB] = len(lv.abilities)
            rows += [ability_row(a, b, c.OWNER_BUILDING, k + 1, leg) for a in lv.abilities]
    for x, art in enumerate(cards.artifacts):
        rows += [ability_row(a, x, c.OWNER_ARTIFACT, 0, leg) for a in art.abilities]
    ncols = c.N_ACOLS_LEGENDS if leg else c.N_ACOLS
    ab = np.stack(rows) if rows else np.zeros((0, ncols), dtype=np.int32)
    n_units = len(cards.units)
    deck = np.array(
        [u for u, unit in enumerate(cards.units) for _ in range(unit.copies)]
        + [n_units + x for x, art in enumerate(cards.artifacts) for _ in range(art.copies)],
        dtype=np.int32,
    )
    return Tables(ut=ut, bt=bt, ab=ab, rules=rule_vector(cards.rules), deck=deck)


def compile_legends_tables(cards: CardSet) -> LegendsTables:
    """A Legends card set's tables: ``compile_tables`` + ``xt`` (artifacts, their ability
    rows follow the building faces' in ``ab``) + ``lrules`` (switches ``L_*``)."""
    if not cards.legends:
        raise ValueError("compile_legends_tables needs a Legends card set")
    t = compile_tables(cards)
    xt = np.zeros((len(cards.artifacts), c.N_XCOLS), dtype=np.int32)
    row = sum(len(u.abilities) for u in cards.units) + sum(
        len(lv.abilities) for b in cards.buildings for lv in b.levels
    )
    for x, art in enumerate(cards.artifacts):
        xt[x, c.X_COPIES] = art.copies
        xt[x, c.X_LP] = art.lp
        xt[x, c.X_PROD0 : c.X_PROD0 + N_RES] = art.produces.amounts
        xt[x, c.X_AB0] = row
        xt[x, c.X_NAB] = len(art.abilities)
        row += len(art.abilities)
    o = cards.rules.options
    lr = np.zeros(c.N_LRULES, dtype=np.int32)
    lr[c.L_BUILDING_PAIR] = building_pair_index(cards)
    lr[c.L_SIMULTANEITY_MORE_GOLD] = o["simultaneity_gold"] == "more"
    lr[c.L_ART_COST_BASE] = o["artifact_cost_base"]
    lr[c.L_ART_COST_STEP] = o["artifact_cost_step"]
    lr[c.L_ART_COST_FLOOR] = o["artifact_cost_floor"]
    lr[c.L_DISCOUNT_SAME_PHASE] = o["discount_active_when_paid_same_phase"]
    lr[c.L_USE_PORT_ABBEY] = o["use_port_abbey"]
    lr[c.L_TITAN_LEVEL] = o["titan_level"]
    lr[c.L_ABBEY_MODE] = ("set_flat", "per_set", "per_resource").index(o["abbey_mode"])
    return LegendsTables(*t, xt=xt, lrules=lr)
