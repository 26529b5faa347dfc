"""The compiled int32 arrays: one ability's opcode row, the rule switches, and a card
set's ``Tables`` (``compile_tables``) or ``LegendsTables`` (``compile_legends_tables``)."""

from __future__ import annotations

import numpy as np

from . import columns as c
from .bounds import LEVELS, MAX_PLAYERS
from .effects import EFFECT_CODE, N_RES, Per, Phase, Resource, Target, Tier, When, ability_tier
from .legends import building_pair_index
from .model import Ability, CardSet, LegendsTables, Rules, Tables

#: The fields copied into their column as they are (an int or a bool); the encoded ones
#: (codes, masks, -1 sentinels) are set one by one below.
_ABILITY_FIELDS = (
    (c.A_ON_DEPLOY, "on_deploy"),
    (c.A_AMOUNT, "amount"),
    (c.A_VALUE, "value"),
    (c.A_MAX_COST, "max_cost"),
    (c.A_AGE, "age"),
    (c.A_MIN_AGE, "min_age"),
)
_LEGENDS_ABILITY_FIELDS = (
    (c.A_GOLD, "gold"),
    (c.A_LP, "lp"),
    (c.A_MIN, "minimum"),
    (c.A_PER_COST, "per_cost"),
    (c.A_PER_OTHER, "per_other"),
    (c.A_COUNT, "count"),
    (c.A_COST, "cost"),
    (c.A_BUILD_LEVEL, "level"),
    (c.A_TIMES, "times"),
)
_RULE_OPTIONS = (  # [rules]
    (c.R_TURNS, "turns"),
    (c.R_START_GOLD, "start_gold"),
    (c.R_DEAL, "deal"),
    (c.R_KEEP, "keep"),
    (c.R_FRONT_SPOTS, "front_spots"),
    (c.R_BACK_SPOTS, "back_spots"),
    (c.R_EXTRA_FRONT, "extra_front_spots"),
    (c.R_WAR_LP, "war_lp"),
    (c.R_BASE_INCOME, "base_income"),
    (c.R_LAND_COST, "land_cost_per_building"),
    (c.R_SCORE_FLOOR, "score_floor"),
    (c.R_RESHUFFLE, "reshuffle_discard"),
    (c.R_LAND_ON_UPGRADE, "land_cost_on_upgrade"),
    (c.R_HEALED_AGE, "healed_units_age"),
    (c.R_STRONG_MIN, "strong_units_min"),
    (c.R_SHAPE_ON_DEPLOY, "shapeshift_on_deploy"),
    (c.R_SHAPE_FREE, "shapeshift_free"),
    (c.R_KRAKEN_AT_END, "kraken_count_at_end"),
)
_TWO_PLAYER_FIELDS = (  # [two_player]
    (c.R2_DEAL, "deal"),
    (c.R2_DISCARD, "discard_per_step"),
    (c.R2_SINGLE_WAR, "single_war"),
    (c.R2_WAR_LP, "war_lp"),
    (c.R2_DOUBLE_RATIO, "double_ratio"),
    (c.R2_DOUBLE_LP, "double_war_lp"),
    (c.R2_ZERO_WINS, "zero_strength_wins"),
    (c.R2_PWW_TIMES, "per_war_won_times"),
)
_LEGENDS_OPTIONS = (  # [variant.legends]
    (c.L_ART_COST_BASE, "artifact_cost_base"),
    (c.L_ART_COST_STEP, "artifact_cost_step"),
    (c.L_ART_COST_FLOOR, "artifact_cost_floor"),
    (c.L_DISCOUNT_SAME_PHASE, "discount_active_when_paid_same_phase"),
    (c.L_USE_PORT_ABBEY, "use_port_abbey"),
    (c.L_TITAN_LEVEL, "titan_level"),
)


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
    for col, attr in _ABILITY_FIELDS:
        row[col] = getattr(a, attr)
    row[c.A_PER] = Per[a.per.upper()]
    row[c.A_WHEN] = When[a.when.upper()]
    row[c.A_TARGET] = Target[a.target.upper()]
    row[c.A_RES_MASK] = sum(1 << Resource[r.upper()] for r in a.resources)
    if legends:
        for col, attr in _LEGENDS_ABILITY_FIELDS:
            row[col] = getattr(a, attr)
        row[c.A_REQ0 : c.A_REQ0 + N_RES] = a.requires
        row[c.A_COUNTER] = Per[a.counter.upper()]
        row[c.A_DISCOUNT] = -1 if a.discount == 0 else a.discount
        row[c.A_TIER] = ability_tier(a.kind, a.on_deploy) if a.phase == "deployment" else Tier.NONE
    return row


def rule_vector(rules: Rules) -> np.ndarray:
    """The int32 rule switches (``R_*``)."""
    o, t = rules.options, rules.two_player
    v = np.zeros(c.N_RULES, dtype=np.int32)
    for col, key in _RULE_OPTIONS:
        v[col] = o[key]
    for col, attr in _TWO_PLAYER_FIELDS:
        v[col] = getattr(t, attr)
    v[c.R_FIRST_DIRECTION] = 1 if o["first_draft_direction"] == "next" else -1
    v[c.R_DIRECT_L2_SUM] = o["direct_level2_requirement"] == "sum"
    v[c.R_DISCARD_IS_DEATH] = o["deploy_discard"] == "death"
    v[c.R_STRONG_FRONT_ONLY] = o["strong_units_scope"] == "front"
    v[c.R_PWW_FRONT_ONLY] = o["per_war_won_rows"] == "front"
    return v


def compile_tables(cards: CardSet, variant: str, players: int = MAX_PLAYERS) -> Tables:
    """Numpy tables of ``variant``'s card set (``cards.variant``; ``engine.for_variant``
    gives it): units, building faces, abilities (units first), rules, deck. A Legends card
    set gives the same five arrays in their Legends form (see ``LegendsTables``;
    ``compile_legends_tables`` adds the artifacts and switches). They are the same at every
    player count (``players``: the call every game's tables take; DRAKO's deck depends on
    it)."""
    if variant != cards.variant:
        raise ValueError(f"a card set of variant '{cards.variant}', not '{variant}'")
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
    t = compile_tables(cards, cards.variant)
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
    for col, key in _LEGENDS_OPTIONS:
        lr[col] = o[key]
    lr[c.L_ABBEY_MODE] = ("set_flat", "per_set", "per_resource").index(o["abbey_mode"])
    return LegendsTables(*t, xt=xt, lrules=lr)
