"""DRAKO heuristic players: names, codes and tunable weights.

Part 1 (this file today): the policy codes and the weight table shared by
``reference.py`` (which restates every policy readably) and, in part 2, by the numba
policies that will be added here with the same formulas.

Every policy values an outcome for its own kingdom (face-up cards only: a face-down card
is unknown to everyone, its owner included) as::

    w[W_GAIN]*Δscore + w[W_LEGEND]*Δclaim + w[W_NEAR]*Δnear + w[W_TAME]*Δtame

* Δscore - change of the player's visible score (§7, face-up cards + held Legends)
* Δclaim - points of the best river Legend claimable after the action, minus those of the
           best one claimable already before it (never below 0)
* Δnear  - change of Σ over the river Legends of points × progress (share of the
           requirement on the table, 1.0 once met; see ``KingdomView.legend_progress``)
* Δtame  - change of Σ over face-up dragons of min(best linked same-kind tribes, 2) / 2
A reveal is valued by its expectation over the kinds the player has not seen.
``w[W_TAKE_BAR]``: take the top discard when its best placement is worth at least this
much, else draw. ``random`` ignores its row.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np


class Policy(IntEnum):
    RANDOM = 0  # uniform over legal choices
    GREEDY = 1  # best immediate change of its own score, Legend claims included
    LEGEND_HUNTER = 2  # greedy + progress towards river Legends and tame dragons (a plan)


POLICY_NAMES = ("random", "greedy", "legend-hunter")

W_GAIN, W_LEGEND, W_NEAR, W_TAME, W_TAKE_BAR = range(5)
N_WEIGHTS = 5


def default_weights() -> np.ndarray:
    """float64[len(Policy), N_WEIGHTS]: one tunable row per policy (random ignores its row)."""
    w = np.zeros((len(Policy), N_WEIGHTS))
    w[Policy.GREEDY] = (1.0, 1.0, 0.0, 0.0, 1.0)
    w[Policy.LEGEND_HUNTER] = (1.0, 1.0, 1.0, 2.0, 1.0)
    return w


def policy_code(name: str) -> int:
    """The code of a policy name (``ValueError`` naming the known ones)."""
    try:
        return POLICY_NAMES.index(name)
    except ValueError:
        raise ValueError(f"unknown policy '{name}' (policies: {', '.join(POLICY_NAMES)})") from None
