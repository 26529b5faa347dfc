"""The columns of the compiled tables: ``U_*`` (units), ``B_*`` (building faces), ``A_*``
(abilities, and the Legends ``A_*`` after ``N_ACOLS``), ``X_*`` (artifacts), and the
switch vectors ``R_*``/``R2_*`` (rules) and ``L_*`` (Legends)."""

from __future__ import annotations

from .effects import N_RES

# ut: one int32 row per distinct unit
U_COPIES = 0
U_COST = 1
U_STRENGTH = 2
U_PROD0 = 3  # U_PROD0 + Resource: resources produced
U_PROD_WHEN = U_PROD0 + N_RES  # When code gating the production
U_PROD_PER = U_PROD_WHEN + 1  # Per code multiplying the production
U_AB0 = U_PROD_PER + 1  # first row of its abilities in ``ab``
U_NAB = U_AB0 + 1  # number of abilities
N_UCOLS = U_NAB + 1

# bt: one int32 row per (building, level index 0/1)
B_REQ0 = 0  # B_REQ0 + Resource: requirement of this level (level 2: the upgrade's)
B_GOLD_INSTEAD = B_REQ0 + N_RES  # gold paid instead of the requirement, -1: no such option
B_LP = B_GOLD_INSTEAD + 1  # LP at game end while the building shows this face
B_PROD0 = B_LP + 1  # B_PROD0 + Resource: production this face adds
B_EXTRA_SPOT = B_PROD0 + N_RES  # 1: opens the extra Front spot
B_AB0 = B_EXTRA_SPOT + 1
B_NAB = B_AB0 + 1
N_BCOLS = B_NAB + 1

# ab: one int32 row per ability
A_OWNER_BUILDING = 0  # 0: a unit's ability, 1: a building face's
A_OWNER = 1  # unit or building index
A_LEVEL = 2  # building level (1, 2) of the face carrying it; 0 for units
A_PHASE = 3  # Phase code
A_KIND = 4  # Effect code
A_ON_DEPLOY = 5  # 1: only in the Deployment phase the unit is put into play
A_AMOUNT = 6
A_VALUE = 7  # set_strength value
A_PER = 8  # Per code
A_WHEN = 9  # When code
A_TARGET = 10  # Target code (add_age), -1 otherwise
A_MAX_COST = 11  # shapeshift
A_AGE = 12  # shapeshift: tokens on the revealed unit; heal: tokens of a savable unit
A_MIN_AGE = 13  # dies_at_age
A_RES_MASK = 14  # gold_for_resource: bit r set = resource r may be paid in gold
N_ACOLS = A_RES_MASK + 1
# Legends columns (LEGENDS.md §A.4), only in a Legends card set's ``ab``. A_OWNER_BUILDING
# is then the owner kind: OWNER_UNIT, OWNER_BUILDING or OWNER_ARTIFACT (A_OWNER = index).
OWNER_UNIT, OWNER_BUILDING, OWNER_ARTIFACT = 0, 1, 2
A_GOLD = N_ACOLS  # conditional_gain
A_LP = A_GOLD + 1  # conditional_gain
A_REQ0 = A_LP + 1  # A_REQ0 + Resource: conditional_gain's `requires`
A_COUNTER = A_REQ0 + N_RES  # conditional_gain: Per code of the counter
A_MIN = A_COUNTER + 1  # conditional_gain: counter >= min
A_PER_COST = A_MIN + 1  # units_cost_* threshold (of `per` or `counter`)
A_PER_OTHER = A_PER_COST + 1  # 1: units_cost_* does not count the source
A_COUNT = A_PER_OTHER + 1  # deploy_artifact_from_hand
A_COST = A_COUNT + 1  # deploy_artifact_from_hand: gold per artifact
A_BUILD_LEVEL = A_COST + 1  # build_free
A_TIMES = A_BUILD_LEVEL + 1  # repeat_deploy_abilities
A_DISCOUNT = A_TIMES + 1  # no_land_cost: -1 = no land cost at all, n = n gold lower
A_TIER = A_DISCOUNT + 1  # Deployment tier (Tier code) of an on-deploy/deployment ability; -1
N_ACOLS_LEGENDS = A_TIER + 1

# xt: one int32 row per distinct artifact (Legends)
X_COPIES = 0
X_LP = 1  # printed LP added at the end of the game
X_PROD0 = 2  # X_PROD0 + Resource
X_AB0 = X_PROD0 + N_RES
X_NAB = X_AB0 + 1
N_XCOLS = X_NAB + 1

# rules: int32 switches
R_TURNS = 0
R_START_GOLD = 1
R_DEAL = 2
R_KEEP = 3
R_FRONT_SPOTS = 4
R_BACK_SPOTS = 5
R_EXTRA_FRONT = 6
R_WAR_LP = 7
R_BASE_INCOME = 8
R_LAND_COST = 9
R_SCORE_FLOOR = 10
R_RESHUFFLE = 11
R_FIRST_DIRECTION = 12  # +1: turn 1 passes left (to seat+1); -1: right (to seat-1)
R_DIRECT_L2_SUM = 13  # 1: direct level 2 needs L1 + L2 lists added; 0: the maximum
R_LAND_ON_UPGRADE = 14
R_DISCARD_IS_DEATH = 15
R_HEALED_AGE = 16
R_STRONG_FRONT_ONLY = 17  # 1: strong_units counts the Front row only
R_STRONG_MIN = 18
R_PWW_FRONT_ONLY = 19  # 1: per-war-won abilities only from the Front row
R_SHAPE_ON_DEPLOY = 20
R_SHAPE_FREE = 21
R_KRAKEN_AT_END = 22
R2_DEAL = 23  # two players ...
R2_DISCARD = 24
R2_SINGLE_WAR = 25
R2_WAR_LP = 26
R2_DOUBLE_RATIO = 27
R2_DOUBLE_LP = 28
R2_ZERO_WINS = 29
R2_PWW_TIMES = 30
N_RULES = 31

# lrules: int32 Legends switches (``[variant.legends]``; docs/rules/paper-tales-legends.md §8)
L_BUILDING_PAIR = 0  # -1: drawn at setup; k: the k-th pair (``building_pairs`` order)
L_SIMULTANEITY_MORE_GOLD = 1  # 1: more gold acts first (Legends [B]); 0: less (base [C])
L_ART_COST_BASE = 2  # artifact cost = max(floor, base + step x zone + modifiers)
L_ART_COST_STEP = 3
L_ART_COST_FLOOR = 4
L_DISCOUNT_SAME_PHASE = 5  # 1: a discount unit paid earlier in this payment counts
L_USE_PORT_ABBEY = 6
L_TITAN_LEVEL = 7  # (already applied to the build_free rows)
L_ABBEY_MODE = 8  # 0 set_flat, 1 per_set, 2 per_resource (already applied to Abbey L2)
N_LRULES = 9
