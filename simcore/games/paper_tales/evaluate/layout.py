"""Paper Tales evaluation: the layouts of the arrays it reads and writes.

A kingdom is a list of *pieces*, as in the reference: rows of ``pc[MAX_PIECES, N_PC]``
(columns ``PC_*``), ``n`` of them, plus the building levels ``bl[B]``; Legends: and its
artifact zone ``zx[:nz]`` (artifact indices, ``xt`` rows). A list, not the 5 spots,
because a policy's draft sketch puts a virtual card on spot 0 or 3 beside the unit
already there (``Brain.card_value``). Here too: the kernel's extra table columns
(``KU_*``, ``KB_MASK``), the scoring steps ``D_*``, the unit records ``UR_*``, the
policies' value scratch (``AC_*``; the building cache ``BC_*``; Legends: the face and
artifact cache and first-pass slots ``FX_*`` / ``LA_*``), the ability-kind masks ``M_*``,
a sketch's artifacts ``SA_*`` and the artifact zone's columns ``Z_*`` / ``SX_*``.
"""

from __future__ import annotations

from ..schema import (
    K_ADD_AGE,
    K_ADD_STRENGTH,
    K_CANNOT_FIGHT,
    K_CONDITIONAL_GAIN,
    K_DEATH_GOLD,
    K_DEATH_LP,
    K_DIES_AT_AGE,
    K_FIGHT_FROM_BACK,
    K_GOLD,
    K_GOLD_PER_WAR_WON,
    K_LP,
    K_LP_PER_DYING_AGE,
    K_LP_PER_WAR_WON,
    K_NEVER_DIES,
    K_SET_STRENGTH,
    K_UPGRADE_BUILDINGS,
)
from ..tables import MAX_AGE, MAX_ARTIFACTS, MAX_SPOTS, N_BCOLS, N_UCOLS

# --- a piece: one unit on a (possibly virtual) spot ----------------------------------------
PC_SPOT = 0  # spot 0..4 (0..2 Front, 3..4 Back)
PC_UNIT = 1  # unit index (``ut`` row)
PC_AGE = 2  # age tokens
PC_PENDING = 3  # 1: placed, on-deploy abilities not resolved (projected by policies)
PC_FRESH = 4  # 1: placed in this Deployment phase
N_PC = 5
MAX_PIECES = MAX_SPOTS + 1  # 5 spots + the virtual card of a draft/keep sketch (card_value)


# --- ability-kind masks (``kernel_tables``): bit k set = the unit / face has an ability of
# Effect k. The evaluator skips the ability loops a mask rules out (same results, faster).
KB_MASK = N_BCOLS  # extra column of the kernel's ``bt``
# --- the kernel's extra ``ut`` columns (``kernel_tables``) ------------------------------------
KU_MASK = N_UCOLS  # the ability-kind mask
KU_DYN = N_UCOLS + 1  # scoring steps (D_*) where an ability reads more than the unit itself
KU_SELF_AGE = N_UCOLS + 2  # tokens its on-deploy add_age puts on itself (projection)
KU_OTHERS_AGE = N_UCOLS + 3  # ... on each other unit of its owner (projection)
KU_UPGRADE = N_UCOLS + 4  # 1: on deploy, every level-1 building becomes level 2
KU_PER_DYING = N_UCOLS + 5  # LP per token on the owner's dying units
KU_FRONT_FIRST = (
    N_UCOLS + 6
)  # 1: its Front-row records dominate its Back-row ones (``front_first``)
N_KU = N_UCOLS + 7
# --- scoring steps of a unit (bits of KU_DYN) -------------------------------------------------
D_INCOME, D_STRENGTH, D_WAR, D_END, D_DEPLOY, D_DEATH = 1, 2, 4, 8, 16, 32
D_ALL = 63
# The steps each base kind is read in (kinds absent here are read by no step of a
# kingdom's value: production, tokens and dying have their own columns and records; an

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

# ability-kind masks (``KU_MASK`` / ``KB_MASK`` bits): an entity without one of these kinds
# is skipped by the scan that reads only them
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
# its steps from the kingdom's totals ``D_*`` and ``LA_DYING``), in two slots of ``zx``: a
# decision's base sketch (``LV_BASE``) and the sketch being valued. Not part of the cache.
(
    LA_WOOD, LA_FOOD, LA_CRYSTAL, LA_AGE_ALL, LA_PER_DYING, LA_INCOME, LA_STRENGTH, LA_STRONG,
    LA_PER_WAR, LA_WAR_UNITS, LA_RELIC, LA_DEP, LA_TOKENS, LA_AGING_LP, LA_KEEP, LA_ROWS,
) = range(16)  # fmt: skip
N_LA = LA_ROWS + MAX_PIECES
LA_DYING = D_ALL + 1  # a row's bit: the piece dies at the next Aging
FX_BASE = FX_N0 + N_FS  # the base sketch's first pass
FX_PASS = FX_BASE + N_LA  # the valued sketch's
FX_TERMS = FX_PASS + N_LA  # then per step, room for every ability of every face and artifact
# ``l_value``'s modes: value the sketch; value it from the first pass in the ``FX_PASS`` slot
# (``l_option_pass``; in full if it projects); only the first pass of the unprojected sketch
# into the ``FX_BASE`` slot (no value)
LV_FULL, LV_GIVEN, LV_BASE = 0, 1, 2
