"""Paper Tales heuristic players: names, codes, features and tunable weights.

``reference.Brain`` plays these policies readably; the numba kernel plays the same
formulas (below), with the same signature for every policy.

Every non-random policy is one-ply: for each legal option of a decision it builds the
seat's kingdom as the option leaves it (no lookahead, no other seat changes) and values it
as the weighted sum of the integer features ``F_*`` below, against the neighbours'
strengths frozen at the start of the phase (``Game.seen``). The option of highest value
wins; the first one in the decision's enumeration order wins ties. The sum is evaluated
left to right in feature order, in float64::

    value = ((w[0]*f[0] + w[1]*f[1]) + w[2]*f[2]) + ... + w[N_FEATURES-1]*f[N_FEATURES-1]

(start from 0.0 and add ``w[i]*f[i]`` for i = 0, 1, ...), so numba gets identical values.
Two extra weights are not feature weights: ``W_UNAFFORDABLE`` (subtracted from a draft or
keep value when the card costs more than the gold the seat holds) and ``W_SAVE_STRENGTH``
(Healer saves: value of keeping one point of printed strength alive).

Option values per decision (``reference.Brain``; ``V(sketch)`` = the weighted sum above):

* draft pick / keep: ``card_value`` = max of V(kingdom + the card on a virtual Front spot
  (0)) and V(kingdom + the card on a virtual Back spot (3)), front first, the card pending
  and fresh, its cost taken from the gold; then ``- W_UNAFFORDABLE`` if cost > gold. Keep:
  option 0 (nothing) is -inf. 2-player discard: ``-card_value`` (first lowest card).
* deployment step: V(the kingdom after the step) (``Game.after_move``); STOP: V(now).
* age target: V(the kingdom with the tokens on that unit).
* heal: nobody = 0.0; a save = ``W_SAVE_STRENGTH * (strength * turns_left) - lp -
  w[F_GOLD] * gold`` (lp, gold: what that unit's death would bring), in that order.
* construction: nothing = V(now); a build = V(building at its new level, gold - payment).

``random`` draws uniformly among the legal options of each decision (a decision with one
option draws nothing) and ignores its weight row.

Legends games (``reference/`` docstring, "Legends variant"; LEGENDS.md §E, §J) add:

* artifact draft pick / keep: V(kingdom + the artifact in the zone, pending) with the cost
  it would have if placed now; ``- W_UNAFFORDABLE`` if that cost > gold.
* deployment step: also ``place_artifact``; valued with the gold left after the canonical
  payment of everything placed.
* Court Jester: 0 = none (V(now)), then each artifact in hand (V(with it, cost paid)).
* Shadow / Magic Mirror: 0 = none, then each new unit without a copy ability (V(the
  target's predictable on-deploy effects once more)).
* Titan: each unbuilt building of the game's set (mandatory; V(with it built)).
* the sum goes on with the Legends features ``LF_*`` and ``legends_weights()``.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np


class Policy(IntEnum):
    RANDOM = 0  # uniform over the legal options of each decision
    GREEDY = 1  # one-ply: weighted LP of this turn + end LP + income, gold, building progress
    WARLORD = 2  # greedy's evaluation, weights on strength, war LP, strong units (Barracks)
    BUILDER = 3  # greedy's evaluation, weights on resources, buildings and level-2 upgrades
    MC = 4  # determinized flat Monte-Carlo search (``reference/search.py``); its row = greedy's
    LEARNED = 5  # a model's scores of greedy's best candidates (``learned.py``); row = greedy's


POLICY_NAMES = ("random", "greedy", "warlord", "builder", "mc", "learned")

# --- features of a kingdom (all ints; computed by reference.Brain.features) -------------
F_WAR_LP = 0  # LP the kingdom would score in this turn's wars against the frozen
#               neighbour strengths: wars + per-war-won + war-phase LP of units/buildings
F_END_LP = 1  # end LP if the kingdom stood as it is to the end: building faces (1/3) +
#               end 'lp' (Relic), a unit that never dies counted with the tokens it will
#               carry then (+1 per Aging left, this turn's included); the rest as now
F_DEPLOY_LP = 2  # deployment LP of this turn's placed units (Kraken: -3 per level-2)
F_AGING_LP = 3  # LP the Aging phase would score now (death LP, LP per dying token)
F_INCOME = 4  # gold of this turn's Income phase (base included)
F_GOLD = 5  # gold the seat holds (after the option's costs)
F_STRENGTH = 6  # kingdom strength
F_MARGIN = 7  # sum over the neighbours of clamp(strength - theirs, -MARGIN_CAP, MARGIN_CAP)
F_PROD = 8  # (wood + food + crystal produced) x turns left after this one
F_BUILDABLE = 9  # (buildings whose next level's requirement is produced) x turns left
F_KEEP = 10  # (printed strength of units surviving this turn's Aging) x turns left
F_UNITS = 11  # units in play
F_LEVEL2 = 12  # (level-2 buildings) x turns left: the 5th spot and the level-2 faces
F_STRONG = 13  # units with war strength >= strong_units_min (Barracks level 2 plan)
N_FEATURES = 14
FEATURE_NAMES = (
    "war_lp", "end_lp", "deploy_lp", "aging_lp", "income", "gold", "strength", "margin",
    "prod", "buildable", "keep", "units", "level2", "strong",
)  # fmt: skip
MARGIN_CAP = 5

W_UNAFFORDABLE = N_FEATURES  # subtracted when a drafted/kept card costs more than the gold
W_SAVE_STRENGTH = N_FEATURES + 1  # Healer: value per printed strength point saved
N_WEIGHTS = N_FEATURES + 2


def default_weights() -> np.ndarray:
    """float64[len(Policy), N_WEIGHTS]: one tunable row per policy (random ignores its row)."""
    w = np.zeros((len(Policy), N_WEIGHTS))
    #                 war  end  dep  age  inc  gold str  marg prod bld  keep unit lv2  strg
    w[Policy.GREEDY, :N_FEATURES] = (
        1.0, 1.0, 1.0, 1.0, 0.5, 0.3, 0.0, 0.2, 0.3, 0.5, 0.1, 0.2, 0.5, 0.0,
    )  # fmt: skip
    w[Policy.WARLORD, :N_FEATURES] = (
        1.5, 0.7, 1.0, 1.0, 0.3, 0.2, 0.2, 0.6, 0.1, 0.2, 0.3, 0.3, 0.3, 0.5,
    )  # fmt: skip
    w[Policy.BUILDER, :N_FEATURES] = (
        0.6, 1.5, 1.0, 1.0, 0.7, 0.4, 0.0, 0.1, 0.6, 1.0, 0.1, 0.1, 1.0, 0.0,
    )  # fmt: skip
    w[1:, W_UNAFFORDABLE] = 3.0
    w[1:, W_SAVE_STRENGTH] = 0.5
    # mc and learned rank their candidates, and make the decisions they do not search or
    # score, with greedy's row
    w[Policy.MC] = w[Policy.GREEDY]
    w[Policy.LEARNED] = w[Policy.GREEDY]
    return w


# --- Legends features (LEGENDS.md §E), appended after the base ones -------------------------
# A Legends game values an option as the base sum above, then (same left-to-right float64
# order) + lw[i] * lf[i] for i = 0.. N_LEGENDS_FEATURES - 1, with ``lw`` the policy's row of
# ``legends_weights()``. Base games never compute them, so base values are unchanged. In a
# Legends game the base features also see the artifact zone (production, income,
# strength, war LP, end LP incl. printed artifact LP, deployment LP and gold of on-deploy
# ``conditional_gain``s, the Cursed Crown's tokens).
LF_ARTIFACTS = 0  # artifacts in the zone x turns left after this one (a permanent asset)
N_LEGENDS_FEATURES = 1
LEGENDS_FEATURE_NAMES = ("artifacts",)


def legends_weights() -> np.ndarray:
    """float64[len(Policy), N_LEGENDS_FEATURES]: the Legends feature weights (random: 0)."""
    w = np.zeros((len(Policy), N_LEGENDS_FEATURES))
    w[1:, LF_ARTIFACTS] = 0.5  # greedy, warlord, builder, mc, learned [choice, to tune]
    return w


def policy_code(name: str) -> int:
    """The code of a policy name (``ValueError`` naming the known ones)."""
    try:
        return POLICY_NAMES.index(name)
    except ValueError:
        raise ValueError(f"unknown policy '{name}' (policies: {', '.join(POLICY_NAMES)})") from None
