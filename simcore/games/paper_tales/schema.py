"""Paper Tales: the card data's codes as plain ints, for the compiled code.

numba reads a module-level int as a compile-time constant, so the kernel and the
evaluation compare with these names instead of the ``tables`` IntEnums (same values):
``K_*`` effect kinds (``Effect``, Legends ``LegendsEffect``), ``PH_*`` phases, ``T_*``
targets and tiers, ``W_*`` conditions (``When``), ``P_*`` multipliers (``Per``), the
resources' indices.
"""

from __future__ import annotations

from .tables import Effect, LegendsEffect, Per, Phase, Resource, Target, Tier, When

# --- effect kinds --------------------------------------------------------------------------
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
