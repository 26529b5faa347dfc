"""Paper Tales: the compiled code's one schema module, every int constant it reads.

The kernel (``kernel/``) and the evaluation (``evaluate/``) read each constant as an
attribute of this module (``from .. import layout as L``, then ``L.A_KIND``), with no
per-file import lists: the card data's codes as plain ints (``K_*`` effect kinds, ``PH_*``
phases, ``T_*`` targets and tiers, ``W_*`` conditions, ``P_*`` multipliers, the
resources; the ``tables`` IntEnums' values), the card tables' columns and the named bounds
(``tables.columns``, ``tables.bounds``, re-exported), the policies' features and weights
(``policies``, re-exported), the evaluation's array layouts (pieces ``PC_*``, the kernel's
extra columns, records, caches, masks, the artifact zone) and the kernel's state fields and
result codes (``G_*``, ``I_*``, ``S_*``, logs, LP parts, invariants).

numba resolves a module attribute when it compiles, as it does a name imported from the
module: the value is frozen into the machine code as a constant. The one difference: numba
types an imported name as a literal (``Literal[int](2)``) and a module attribute as a plain
``int64``. Inside an expression that changes nothing, but a constant passed as a call
argument to a compiled function selects a specialisation, so the few constants passed as
arguments (``LV_*`` modes, ``D_*`` decisions, ``NONE``...) are imported by name where they
are passed, which keeps the compiled specialisations exactly as before (README.md,
"Constants: one schema module").
"""

from __future__ import annotations  # noqa: I001 (the re-exports list names in table order)

import numpy as np

from talesim.simcore.jit import ix  # noqa: F401 (re-exported: the compiled code's index cast)

from .tables import Effect, LegendsEffect, Per, Phase, Resource, Target, Tier, When
from .policies import (  # noqa: F401  (re-exported: the features and weights)
    F_WAR_LP, F_END_LP, F_DEPLOY_LP, F_AGING_LP, F_INCOME, F_GOLD, F_STRENGTH, F_MARGIN,
    F_PROD, F_BUILDABLE, F_KEEP, F_UNITS, F_LEVEL2, F_STRONG, N_FEATURES, MARGIN_CAP,
    W_UNAFFORDABLE, W_SAVE_STRENGTH, N_WEIGHTS, LF_ARTIFACTS, N_LEGENDS_FEATURES,
    Policy,
)  # fmt: skip
from .tables.bounds import (  # noqa: F401  (re-exported: the named bounds)
    MIN_PLAYERS, MAX_PLAYERS, TURNS, DEAL, DEAL_2P, KEEP, MAX_HAND,
    FRONT_SPOTS, BACK_SPOTS, EXTRA_FRONT_SPOTS, MAX_FRONT, MAX_SPOTS, MAX_WARS, LEVELS,
    MAX_BUILDINGS, MAX_CATALOG_BUILDINGS, MAX_ARTIFACTS, MAX_AGE, MAX_ABILITIES, MAX_COPIES,
    MAX_DECK, MAX_DEPLOY_OPTIONS, MAX_DEPLOY_STEPS, MAX_BUILD_OPTIONS, MAX_GAME_BUILDINGS,
    MAX_BUILD_OPTIONS_LEGENDS, MAX_JESTER_OPTIONS, MAX_COPY_OPTIONS, MAX_TITAN_OPTIONS,
)  # fmt: skip
from .tables.columns import (  # noqa: F401  (re-exported: one line a table)
    U_COPIES, U_COST, U_STRENGTH, U_PROD0, U_PROD_WHEN, U_PROD_PER, U_AB0, U_NAB, N_UCOLS,
    B_REQ0, B_GOLD_INSTEAD, B_LP, B_PROD0, B_EXTRA_SPOT, B_AB0, B_NAB, N_BCOLS,
    A_OWNER_BUILDING, A_OWNER, A_LEVEL, A_PHASE, A_KIND, A_ON_DEPLOY, A_AMOUNT, A_VALUE,
    A_PER, A_WHEN, A_TARGET, A_MAX_COST, A_AGE, A_MIN_AGE, A_RES_MASK, N_ACOLS,
    OWNER_UNIT, OWNER_BUILDING, OWNER_ARTIFACT,
    A_GOLD, A_LP, A_REQ0, A_COUNTER, A_MIN, A_PER_COST, A_PER_OTHER, A_COUNT, A_COST,
    A_BUILD_LEVEL, A_TIMES, A_DISCOUNT, A_TIER, N_ACOLS_LEGENDS,
    X_COPIES, X_LP, X_PROD0, X_AB0, X_NAB, N_XCOLS,
    R_TURNS, R_START_GOLD, R_DEAL, R_KEEP, R_FRONT_SPOTS, R_BACK_SPOTS, R_EXTRA_FRONT,
    R_WAR_LP, R_BASE_INCOME, R_LAND_COST, R_SCORE_FLOOR, R_RESHUFFLE, R_FIRST_DIRECTION,
    R_DIRECT_L2_SUM, R_LAND_ON_UPGRADE, R_DISCARD_IS_DEATH, R_HEALED_AGE,
    R_STRONG_FRONT_ONLY, R_STRONG_MIN, R_PWW_FRONT_ONLY, R_SHAPE_ON_DEPLOY, R_SHAPE_FREE,
    R_KRAKEN_AT_END, R2_DEAL, R2_DISCARD, R2_SINGLE_WAR, R2_WAR_LP, R2_DOUBLE_RATIO,
    R2_DOUBLE_LP, R2_ZERO_WINS, R2_PWW_TIMES, N_RULES,
    L_BUILDING_PAIR, L_SIMULTANEITY_MORE_GOLD, L_ART_COST_BASE, L_ART_COST_STEP,
    L_ART_COST_FLOOR, L_DISCOUNT_SAME_PHASE, L_USE_PORT_ABBEY, L_TITAN_LEVEL, L_ABBEY_MODE,
    N_LRULES,
)  # fmt: skip
from .tables.effects import N_RES  # noqa: F401  (re-exported)

# scored by a position's static evaluation (phases war, income, end)
K_FIGHT_FROM_BACK = int(Effect.FIGHT_FROM_BACK)
K_SET_STRENGTH = int(Effect.SET_STRENGTH)
K_ADD_STRENGTH = int(Effect.ADD_STRENGTH)
K_CANNOT_FIGHT = int(Effect.CANNOT_FIGHT)
K_LP = int(Effect.LP)
K_LP_PER_WAR_WON = int(Effect.LP_PER_WAR_WON)
K_GOLD_PER_WAR_WON = int(Effect.GOLD_PER_WAR_WON)
K_GOLD = int(Effect.GOLD)
# played by the turn engine
K_ADD_AGE = int(Effect.ADD_AGE)
K_UPGRADE_BUILDINGS = int(Effect.UPGRADE_BUILDINGS)
K_SHAPESHIFT = int(Effect.SHAPESHIFT)
K_NO_LAND_COST = int(Effect.NO_LAND_COST)
K_GOLD_FOR_RESOURCE = int(Effect.GOLD_FOR_RESOURCE)
K_NEVER_DIES = int(Effect.NEVER_DIES)
K_DIES_AT_AGE = int(Effect.DIES_AT_AGE)
K_HEAL = int(Effect.HEAL)
K_DEATH_LP = int(Effect.DEATH_LP)
K_DEATH_GOLD = int(Effect.DEATH_GOLD)
K_LP_PER_DYING_AGE = int(Effect.LP_PER_DYING_AGE)
# Legends
K_DEPLOY_ARTIFACT = int(LegendsEffect.DEPLOY_ARTIFACT_FROM_HAND)
K_REPEAT_DEPLOY = int(LegendsEffect.REPEAT_DEPLOY_ABILITIES)
K_BUILD_FREE = int(LegendsEffect.BUILD_FREE)
K_CONDITIONAL_GAIN = int(LegendsEffect.CONDITIONAL_GAIN)
K_ART_COST_MODIFIER = int(LegendsEffect.ARTIFACT_COST_MODIFIER)

# --- phases ----------------------------------------------------------------------------------
PH_DEPLOYMENT = int(Phase.DEPLOYMENT)
PH_WAR = int(Phase.WAR)
PH_INCOME = int(Phase.INCOME)
PH_END = int(Phase.END)

# --- targets and (Legends) deployment tiers --------------------------------------------------
T_SELF = int(Target.SELF)
T_OTHERS = int(Target.OTHERS)
T_ALL = int(Target.ALL)
T_ONE = int(Target.ONE)
T_REPLACE, T_ENTER, T_COPY = int(Tier.REPLACE), int(Tier.ENTER), int(Tier.COPY)
T_LEVELS, T_AGE, T_COUNT, T_PENALTY = (
    int(Tier.LEVELS),
    int(Tier.AGE),
    int(Tier.COUNT),
    int(Tier.PENALTY),
)

# --- conditions ------------------------------------------------------------------------------
W_ALWAYS = int(When.ALWAYS)
W_AGED = int(When.AGED)
W_EXACTLY_ONE_AGE = int(When.EXACTLY_ONE_AGE)
W_FRONT_ROW = int(When.FRONT_ROW)
W_HAS_FOOD = int(When.HAS_FOOD)
W_HAS_CRYSTAL = int(When.HAS_CRYSTAL)

# --- multipliers -----------------------------------------------------------------------------
P_ONE = int(Per.ONE)
P_AGE_SELF = int(Per.AGE_SELF)
P_AGE_KINGDOM = int(Per.AGE_KINGDOM)
P_WOOD = int(Per.WOOD)
P_FOOD = int(Per.FOOD)
P_CRYSTAL = int(Per.CRYSTAL)
P_INCOME_GOLD = int(Per.INCOME_GOLD)
P_LEVEL2_BUILDINGS = int(Per.LEVEL2_BUILDINGS)
P_STRONG_UNITS = int(Per.STRONG_UNITS)
# Legends
P_ARTIFACTS = int(Per.ARTIFACTS)
P_UNITS_COST_GE = int(Per.UNITS_COST_GE)
P_UNITS_COST_LE = int(Per.UNITS_COST_LE)
P_RESOURCE_SETS = int(Per.RESOURCE_SETS)
P_RESOURCES = int(Per.RESOURCES)

# --- resources -------------------------------------------------------------------------------
WOOD = int(Resource.WOOD)
FOOD = int(Resource.FOOD)
CRYSTAL = int(Resource.CRYSTAL)

# ============================================================================================
# The evaluation's layouts (``evaluate/``)
#
# A kingdom is a list of *pieces*, as in the reference: rows of ``pc[MAX_PIECES, N_PC]``
# (columns ``PC_*``), ``n`` of them, plus the building levels ``bl[B]``; Legends: and its
# artifact zone ``zx[:nz]`` (artifact indices, ``xt`` rows). A list, not the 5 spots,
# because a policy's draft sketch puts a virtual card on spot 0 or 3 beside the unit
# already there (``Brain.card_value``).
# ============================================================================================

# --- a piece: one unit on a (possibly virtual) spot ----------------------------------------
PC_SPOT = 0  # spot 0..4 (0..2 Front, 3..4 Back)
PC_UNIT = 1  # unit index (``ut`` row)
PC_AGE = 2  # age tokens
PC_PENDING = 3  # 1: placed, on-deploy abilities not resolved (projected by policies)
PC_FRESH = 4  # 1: placed in this Deployment phase
N_PC = 5
MAX_PIECES = MAX_SPOTS + 1  # 5 spots + the virtual card of a draft/keep sketch (card_value)

# --- the kernel's extra ``bt`` and ``ut`` columns (``kernel_tables``) --------------------------
KB_MASK = N_BCOLS  # the ability-kind mask of a face (``M_*`` below)
KU_MASK = N_UCOLS  # the ability-kind mask of a unit
KU_DYN = N_UCOLS + 1  # scoring steps (STEP_*) where an ability reads more than the unit itself
KU_SELF_AGE = N_UCOLS + 2  # tokens its on-deploy add_age puts on itself (projection)
KU_OTHERS_AGE = N_UCOLS + 3  # ... on each other unit of its owner (projection)
KU_UPGRADE = N_UCOLS + 4  # 1: on deploy, every level-1 building becomes level 2
KU_PER_DYING = N_UCOLS + 5  # LP per token on the owner's dying units
KU_FRONT_FIRST = (
    N_UCOLS + 6
)  # 1: its Front-row records dominate its Back-row ones (``front_first``)
N_KU = N_UCOLS + 7
# --- scoring steps of a unit (bits of KU_DYN; ``records.STEPS_OF_KIND``) ---------------------
STEP_INCOME, STEP_STRENGTH, STEP_WAR, STEP_END, STEP_DEPLOY, STEP_DEATH = 1, 2, 4, 8, 16, 32
STEP_ALL = 63

# --- unit records ``ur[u, row, age, UR_*]`` (``unit_records``) ------------------------------
UR_WOOD, UR_FOOD, UR_CRYSTAL = 0, 1, 2  # production
UR_INCOME = 3  # income abilities' gold
UR_STRENGTH = 4  # strength counted in the kingdom's (0 in the Back row without fight_from_back)
UR_STRONG = 5  # 1: counts as a strong unit
UR_PER_WAR = 6  # per-war-won LP for one war
UR_WAR_LP = 7  # war-phase 'lp'
UR_END_LP = 8  # end-phase 'lp' (Relic)
UR_DEPLOY_LP = 9  # deployment 'lp' (Kraken)
UR_DIES = 10  # 1: dies in Aging
UR_DEATH_LP = 11  # death_lp when it dies
W_DYN, W_DYING = PC_SPOT, PC_PENDING  # columns of ``value``'s scratch rows
# --- the totals of ``value``'s first pass (``piece_terms``), an int64 row ``acc[AC_*]`` -------
AC_WOOD, AC_FOOD, AC_CRYSTAL, AC_AGE_ALL, AC_PER_DYING, AC_INCOME, AC_STRENGTH = range(7)
AC_STRONG, AC_PER_WAR, AC_WAR_UNITS, AC_RELIC, AC_DEP, AC_TOKENS, AC_AGING_LP = range(7, 14)
AC_KEEP = 14  # printed strength of the units that survive Aging
AC_DYN = 15  # pieces with a step computed from the kingdom's totals (``W_DYN`` != 0)
N_AC = 16
N_UR = 16  # padded: one 64-byte line a record
UR_AGES = MAX_AGE + 10  # tokens tabulated: the box's 30 + projections and Agings left
# --- the building cache ``bc`` (``faces_of``): what a configuration of levels gives -----------
BC_KEY = 0  # the levels as a base-3 number; -1: empty
BC_WOOD, BC_FOOD, BC_CRYSTAL = 1, 2, 3  # production
BC_LEVEL2 = 4  # level-2 buildings
BC_LP = 5  # end LP of the faces shown
BC_N0 = 6  # BC_N0 + step: its face-ability terms
BS_INCOME, BS_STRENGTH, BS_WAR, BS_END = 0, 1, 2, 3  # the steps that read face abilities
N_BS = 4
BC_TERMS = BC_N0 + N_BS  # then per step, room for every ability of every face: the terms
# (when, per, amount) of its face abilities (``face_room``)

# --- ability-kind masks (``KU_MASK`` / ``KB_MASK`` bits): bit k set = the unit / face has an
# ability of Effect k. The evaluator skips the ability loops a mask rules out (same results,
# faster): an entity without one of these kinds is skipped by the scan that reads only them.
M_GOLD = 1 << K_GOLD
M_STRENGTH = (
    (1 << K_SET_STRENGTH) | (1 << K_ADD_STRENGTH) | (1 << K_CANNOT_FIGHT) | (1 << K_FIGHT_FROM_BACK)
)
M_ADD_STRENGTH = 1 << K_ADD_STRENGTH
M_LP = 1 << K_LP
M_WAR_UNIT = (1 << K_LP_PER_WAR_WON) | (1 << K_GOLD_PER_WAR_WON) | M_LP
M_NEVER_DIES = 1 << K_NEVER_DIES
M_DYING = M_NEVER_DIES | (1 << K_DIES_AT_AGE)
M_DEATH = (1 << K_DEATH_LP) | (1 << K_DEATH_GOLD)
M_PER_DYING = 1 << K_LP_PER_DYING_AGE
M_PROJECT = (1 << K_ADD_AGE) | (1 << K_UPGRADE_BUILDINGS)
# Legends
M_GAIN = 1 << K_CONDITIONAL_GAIN
M_INCOME_L = M_GOLD | M_GAIN
M_WAR_UNIT_L = M_WAR_UNIT | M_GAIN
M_WAR_FACE_L = M_LP | M_GAIN
M_PROJECT_L = (1 << K_UPGRADE_BUILDINGS) | (1 << K_ADD_AGE) | M_GAIN  # what l_project applies

# A sketch's artifacts ``sa[MAX_ARTIFACTS + 1, N_SA]`` (``reference.Art``): the zone, plus the
# virtual artifact of a draft / keep / Jester option.
SA_X, SA_PENDING, SA_DONE = 0, 1, 2
N_SA = 3
# The artifact zone's columns (``kernel.LState.zone``) and the per-spot tier
# bookkeeping (``LState.sx``); here because the policies' sketches read them.
Z_CARD, Z_X, Z_FRESH, Z_PAID, Z_ENTERED, Z_DONE = range(6)
N_Z = 6
SX_DONE, SX_SKIP = 0, 1
N_SX = 2

# --- ``l_value``'s cache of the building faces and artifacts, in the tail of ``zx`` ---------
# ``zx[:FX_ARTS]`` holds a kingdom's artifact indices (``l_project``); the rest is what the
# faces shown (levels after the projection) and those artifacts give: their production,
# level-2 count, printed LP and, per step, the ability rows it reads as terms (row, 1 for a
# face: its condition applies). The options of a decision share their buildings and
# artifacts, so it is rebuilt about once a decision (``fixed_terms``).
FX_ARTS = MAX_ARTIFACTS + 1  # a zone's artifacts + a draft / keep / Jester option's
FX_KEY = FX_ARTS  # the levels as a base-3 number; -1: empty
FX_NA = FX_KEY + 1  # artifacts cached
FX_X0 = FX_NA + 1  # their indices
FX_WOOD = FX_X0 + FX_ARTS  # production (then food, crystal)
FX_LEVEL2 = FX_WOOD + 3  # level-2 buildings
FX_LP = FX_LEVEL2 + 1  # the top faces' LP and the artifacts' printed LP
FX_N0 = FX_LP + 1  # FX_N0 + step: its terms
FS_INCOME, FS_STRENGTH, FS_WAR, FS_END = 0, 1, 2, 3
N_FS = 4
# ``l_value``'s first pass (``l_piece_terms``: the pieces' shares of the totals, then per row
# its steps from the kingdom's totals ``STEP_*`` and ``LA_DYING``), in two slots of ``zx``: a
# decision's base sketch (``LV_BASE``) and the sketch being valued. Not part of the cache.
(
    LA_WOOD, LA_FOOD, LA_CRYSTAL, LA_AGE_ALL, LA_PER_DYING, LA_INCOME, LA_STRENGTH, LA_STRONG,
    LA_PER_WAR, LA_WAR_UNITS, LA_RELIC, LA_DEP, LA_TOKENS, LA_AGING_LP, LA_KEEP, LA_ROWS,
) = range(16)  # fmt: skip
N_LA = LA_ROWS + MAX_PIECES
LA_DYING = STEP_ALL + 1  # a row's bit: the piece dies at the next Aging
FX_BASE = FX_N0 + N_FS  # the base sketch's first pass
FX_PASS = FX_BASE + N_LA  # the valued sketch's
FX_TERMS = FX_PASS + N_LA  # then per step, room for every ability of every face and artifact
# ``l_value``'s modes: value the sketch; value it from the first pass in the ``FX_PASS`` slot
# (``l_option_pass``; in full if it projects); only the first pass of the unprojected sketch
# into the ``FX_BASE`` slot (no value)
LV_FULL, LV_GIVEN, LV_BASE = 0, 1, 2

# ============================================================================================
# The kernel's state (``kernel/state.py``: ``State``, ``LState``): field codes, result codes
# ============================================================================================

P_RANDOM = int(Policy.RANDOM)
P_MC = int(Policy.MC)
P_LEARNED = int(Policy.LEARNED)
EXTRA_SPOT = 2  # the 5th spot (Front), open with a level-2 face (reference.EXTRA_SPOT)
BACK0 = MAX_FRONT  # first Back spot
MAX_DEAL = max(DEAL, DEAL_2P)  # cards in a pack: 9 (2 players)
# Cards one seat receives in a game: <= MAX_HAND drafted a turn (the hand bound), plus the
# units a Shapeshifter reveals for it (one per spot and turn; a chain of Shapeshifters
# revealing each other is cut by the overflow flag, never in the base game).
MAX_LOGS = TURNS * (MAX_HAND + MAX_SPOTS)
# Deployment LP waiting for the end of the phase (kraken_count_at_end): per seat and
# spot, a unit's abilities, times a chain of Shapeshifters on the same spot.
MAX_PENDING = MAX_PLAYERS * MAX_SPOTS * 4 * (MAX_COPIES + 1)

# --- the LP breakdown (reference.BREAKDOWN order) -----------------------------------------
LP_WARS, LP_PER_WAR_WON, LP_WAR_UNITS, LP_WAR_BUILDINGS = 0, 1, 2, 3
LP_DEPLOYMENT, LP_AGING, LP_BUILDINGS, LP_RELIC, LP_FLOOR = 4, 5, 6, 7, 8
N_PARTS = 9

# --- card logs (reference.CardLog; one row per card a seat received, in order) -------------
L_CARD, L_UNIT, L_TURN, L_PICK, L_DEPLOYED, L_TURN_DEPLOYED = 0, 1, 2, 3, 4, 5
L_ROW, L_SURVIVED, L_DIED, L_FATE = 6, 7, 8, 9
N_LOG = 10
ROWS = ("", "front", "back")  # L_ROW codes
ROW_FRONT, ROW_BACK = 1, 2
FATES = ("hand", "not_deployed", "kept", "unpaid", "replaced", "shapeshifted", "died", "in_play")
F_HAND, F_NOT_DEPLOYED, F_KEPT, F_UNPAID, F_REPLACED, F_SHAPESHIFTED, F_DIED, F_IN_PLAY = range(8)

# --- building logs (reference.BuildingLog) ---------------------------------------------------
BL_LEVEL, BL_BUILT, BL_UPGRADED, BL_HOW = 0, 1, 2, 3
N_BLOG = 4
HOWS = ("", "build", "direct", "golem")
H_BUILD, H_DIRECT, H_GOLEM = 1, 2, 3

# --- per-game counters (State.g) -------------------------------------------------------------
G_TURN, G_DECK_N, G_DISC_N, G_RESHUFFLES, G_PENDING_N, G_OVERFLOW = range(6)
# where the game is (``game._play_on`` resumes there; ``reference.Game.ph`` etc.): the phase
# (0..5 the turn's phases, 6 End, 7 over), whether it has begun, its draft step or the
# deployment steps taken, its seat; the first broken invariant (checking mode)
G_PHASE, G_BEGUN, G_STEP, G_SEAT, G_VIOL = 6, 7, 8, 9, 10
# a game that can search (``search.py``): the option a seat's next searched decision takes
# (a search's choice, a playout's candidate; seat -1: none), and the decision asked
G_FORCE_SEAT, G_FORCE_IDX, G_ASK_SEAT, G_ASK_DEC = 11, 12, 13, 14
# a learned seat whose asked decision is answered (-1: none) and the option (apart from
# G_FORCE_*: a playout's forced first choice may still be pending while the seats before
# it in a draft step ask)
G_ANSWER_SEAT, G_ANSWER_IDX = 15, 16
N_G = 17
N_PHASES = 6  # G_PHASE of End
# the decisions an mc seat searches and a learned seat scores (G_ASK_DEC; the model's heads,
# ``learned.KINDS``; ``reference.search.DECISIONS``)
D_DRAFT, D_DEPLOY, D_BUILD = 0, 1, 2
ASK = -2  # ``_searched``: the game stops at an mc or learned seat's decision

# --- per-seat ints (State.pi) ----------------------------------------------------------------
I_GOLD, I_LP, I_STEP, I_WARS, I_HAND_N, I_KEPT, I_LOG_N, I_EXTRA = range(8)
I_POLICY, I_SEEN0, I_SEEN1, I_PACK_N, I_DRAFT_N, I_WINNER = 8, 9, 10, 11, 12, 13
# I_SEEN0 / I_SEEN1: the frozen strengths of the right (seat-1) and left (seat+1) neighbours
I_TWIN = 14  # Recruitment: the first seat whose draft values this seat's equal (_draft_twin)
I_MODEL = 15  # the model row a learned seat (an mc seat's playouts) plays; set with I_POLICY
N_PI = 16

# --- spot fields (State.sp[P, S, N_SP]) ------------------------------------------------------
S_CARD, S_UNIT, S_AGE, S_FRESH, S_RESOLVED, S_MOVED = range(6)
N_SP = 6

# --- deployment options (State.opt rows) -----------------------------------------------------
M_STOP, M_PLACE, M_MOVE, M_REMOVE = 0, 1, 2, 3  # M_REMOVE: (spot a, -1)

INVARIANTS = (
    "no violation",
    "card conservation: every card id exactly once (piles, packs, hands, kept, spots)",
    "gold >= 0",
    "score marker >= score floor",
    "no unsettled LP between phases",
    "score equals its breakdown",
    "floor part >= 0",
    "age tokens within 0..MAX_AGE",
    "a unit on a spot that is not open",
    "building level within 0..2",
    "a unit on the 5th spot without a level-2 face",
)
V_CARDS, V_GOLD, V_FLOOR, V_STEP, V_BREAKDOWN, V_FLOOR_PART, V_AGE, V_SPOT, V_LEVEL, V_EXTRA = (
    range(1, 11)
)


# --- Legends ---------------------------------------------------------------------------------
M_PLACE_ARTIFACT = M_REMOVE + 1  # deployment option: hand card ``a`` face down into the zone
M_K5 = 1 << K_ART_COST_MODIFIER  # its ``KU_MASK`` / ``KB_MASK`` bit
NONE = np.int64(-1)  # -1 as a run-time int64: passing a literal compiles a copy (jit.py)

# --- the Legends records ---------------------------------------------------------------
LEGENDS_FATES = (
    "hand",
    "not_deployed",
    "kept",
    "unpaid",
    "replaced",
    "shapeshifted",
    "died",
    "in_play",
    "in_zone",
)  # fmt: skip  (FATES + in_zone)
F_IN_ZONE = 8
LEGENDS_ROWS = ("", "front", "back", "zone")  # ROWS + zone
ROW_ZONE = 3
LEGENDS_HOWS = ("", "build", "direct", "golem", "titan")  # HOWS + titan
H_TITAN = 4
HOW_DEPLOYED = ("", "placed", "jester", "shapeshifted")  # CardLog.how_deployed
HD_PLACED, HD_JESTER, HD_SHAPESHIFTED = 1, 2, 3
NO_COST = -100  # deploy_cost of a card never deployed (None in reference records)
LL_COST, LL_HOW = 0, 1  # LState.llog columns
N_LL = 2
LP_WAR_ARTIFACTS, LP_ARTIFACTS = 0, 1  # LState.lparts columns (the two new LP parts)
N_LPARTS = 2
# reference.LEGENDS_BREAKDOWN from the base parts (kernel LP_*, 0..8) and the new ones
# (9 + LState.lparts column): wars, per_war_won, war_units, war_buildings, war_artifacts,
# deployment, aging, buildings, relic, artifacts, floor
BREAKDOWN_COLUMNS = (0, 1, 2, 3, 9, 4, 5, 6, 7, 10, 8)

# --- the artifact zone (LState.zone[P, X, N_Z]), in order of entry ------------------------
# --- per-spot tier bookkeeping (LState.sx[P, S, N_SX]) ---------------------------------------
# (Z_* and SX_*, the zone's and the spots' columns: above, with the policies' sketches)
# --- per-game ints (LState.lg) ------------------------------------------------------------------
LG_PAIR, LG_COPIES, LG_SOURCES = 0, 1, 2
N_LG = 3
# a seat's copies in one phase: <= 1 Shadow + 1 Magic Mirror (+ Shapeshifter/Jester chains
# cannot add K2 sources beyond the cards in play): bounded by the sources
MAX_SOURCES = MAX_SPOTS + MAX_ARTIFACTS
SRC_UNIT, SRC_ART = 0, 1

#: ``kernel.INVARIANTS`` with the zones counted, then the Legends ones (codes 11..13).
LEGENDS_INVARIANTS = (
    INVARIANTS[0],
    "card conservation: every card id exactly once (piles, packs, hands, kept, spots, zones)",
    *INVARIANTS[2:],
    "an artifact on a spot or a unit in the artifact zone",
    "a building built outside the game's set (5 base + the pair drawn)",
    "an unpaid or still fresh artifact in the zone after the deployment phase",
)
V_CARDS_L = 1
V_ART_PLACE, V_OUT_OF_SET, V_ZONE = 11, 12, 13
