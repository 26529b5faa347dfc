"""The ``learned`` player, compiled: the features of a decision's candidates (greedy's best
``top`` of them, ranked as ``mc`` ranks them: ``mc.rank``), and the model's choice
among those (``learned_choice``); the same features recorded for each ``mc`` search
(``record_search``, ``talesim learn``). A learned seat decides its draft picks, deployment
steps and construction choices, the decisions ``mc`` searches (one model head each,
``KINDS``); its other decisions (keep, token targets, heals, the Legends Jester / Titan /
copies) are greedy's: its weight row is greedy's.

``reference/learned.py`` restates each function and makes the same choices
(``tests/paper_tales/test_learned.py``). The features (``FEATURES``, the registry's
``learned_features`` reads them) of candidate option ``i`` of seat ``p``, everything
from what ``p`` sees:

=============  ===========================================================================
value          greedy's value of the option (the number ``mc`` ranks by)
rank           its place in greedy's order among the candidates (0: greedy's choice)
war-lp ..      greedy's value components (``policies.F_*``) of the kingdom the option
artifacts      leaves: war-lp, end-lp, now-lp (deployment + aging LP), income, gold,
               strength, margin, prod, buildable, keep, level2, strong, and the Legends
               artifacts (0 in a base game); a draft card's at the better of the two rows
               for that component (greedy's ``card_value`` under that component alone)
cost           gold the option commits: the printed cost of the unit drafted or placed,
               the price of the building raised (0 otherwise, an artifact included)
card-strength  the printed strength of the unit drafted or placed (0 otherwise)
pass           1 for STOP (deployment) and building nothing
turn, step     the turn; the draft step (picks so far + 1), the deployment steps taken
               this phase (0 for construction)
players        the number of players
options        the decision's distinct options
lead           the seat's LP minus the best other seat's
lead-left,     its LP minus its left (seat + 1) and right (seat - 1) neighbour's
lead-right
=============  ===========================================================================

A value component is the option's value under a weight row that is 1 on that feature (and
both deployment and aging LP for now-lp), 0 elsewhere: the very valuation greedy runs, so
the same integers as ``reference.Brain.features``. The search kernel gets these rows after
the policies' rows (``with_feature_rows``: ``weights`` and the Legends ``lweights``); a
seat's features are valued with its ``I_POLICY`` set to each row in turn, then set back.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from talesim.simcore.jit import hot, hot_outline
from talesim.simcore.learned import MAX_HIDDEN
from talesim.simcore.learned_score import model_score, model_top

from . import layout as L  # noqa: N812 (the schema, read as L.NAME)
from . import policies as P  # noqa: N812 (the policies' constants, read as P.NAME)
from .layout import ix
from .mc import option_values, rank

#: The value components: (feature, the ``F_*`` it sums; the Legends ``LF_*``, -1: none).
COMPONENTS = (
    ("war-lp", (P.F_WAR_LP,), -1),
    ("end-lp", (P.F_END_LP,), -1),
    ("now-lp", (P.F_DEPLOY_LP, P.F_AGING_LP), -1),
    ("income", (P.F_INCOME,), -1),
    ("gold", (P.F_GOLD,), -1),
    ("strength", (P.F_STRENGTH,), -1),
    ("margin", (P.F_MARGIN,), -1),
    ("prod", (P.F_PROD,), -1),
    ("buildable", (P.F_BUILDABLE,), -1),
    ("keep", (P.F_KEEP,), -1),
    ("level2", (P.F_LEVEL2,), -1),
    ("strong", (P.F_STRONG,), -1),
    ("artifacts", (), P.LF_ARTIFACTS),
)
N_COMPONENTS = len(COMPONENTS)
#: The features of a candidate, in the order the model reads them.
FEATURES = (
    "value",
    "rank",
    *(name for name, _, _ in COMPONENTS),
    "cost",
    "card-strength",
    "pass",
    "turn",
    "step",
    "players",
    "options",
    "lead",
    "lead-left",
    "lead-right",
)
N_FEATURES = len(FEATURES)
F_RANK = FEATURES.index("rank")
F_COMPONENT0 = FEATURES.index("war-lp")
F_ARTIFACTS = F_COMPONENT0 + N_COMPONENTS - 1  # the Legends component (0 in a base game)
F_COST, F_CARD_STRENGTH, F_PASS, F_TURN, F_STEP, F_PLAYERS, F_OPTIONS = (
    FEATURES.index(f)
    for f in ("cost", "card-strength", "pass", "turn", "step", "players", "options")
)
F_LEAD, F_LEAD_LEFT, F_LEAD_RIGHT = (FEATURES.index(f) for f in ("lead", "lead-left", "lead-right"))
#: The decision kinds, each a head of the model: ``layout.D_*`` codes in order.
KINDS = ("draft", "deploy", "build")
#: The float scratch of a learned decision (``x``): the features of up to
#: ``MAX_DEPLOY_OPTIONS`` candidates, then the model's hidden sums (``X_HIDDEN``).
X_HIDDEN = L.MAX_DEPLOY_OPTIONS * N_FEATURES
X_SIZE = X_HIDDEN + MAX_HIDDEN


def new_scratch() -> np.ndarray:
    """The float scratch of ``learned_choice`` and ``record_search`` (one per block)."""
    return np.zeros(X_SIZE, dtype=np.float64)


def feature_rows() -> tuple[np.ndarray, np.ndarray]:
    """The value components' weight rows (float64[N_COMPONENTS, N_WEIGHTS]) and their
    Legends rows (float64[N_COMPONENTS, N_LEGENDS_FEATURES]): 1 on the component's
    features, 0 elsewhere (``W_UNAFFORDABLE`` included: no penalty)."""
    w = np.zeros((N_COMPONENTS, P.N_WEIGHTS))
    lw = np.zeros((N_COMPONENTS, P.N_LEGENDS_FEATURES))
    for r, (_, features, legends) in enumerate(COMPONENTS):
        w[r, list(features)] = 1.0
        if legends >= 0:
            lw[r, legends] = 1.0
    return w, lw


def with_feature_rows(weights: np.ndarray, lweights: np.ndarray | None) -> tuple[Any, Any]:
    """The search kernel's ``weights`` and Legends ``lweights`` (None: a base game): the
    policies' rows, then ``feature_rows`` (row ``len(weights) + r``: component ``r``)."""
    w, lw = feature_rows()
    out = np.ascontiguousarray(np.vstack([weights, w]), np.float64)
    if lweights is None:
        return out, None
    return out, np.ascontiguousarray(np.vstack([lweights, lw]), np.float64)


@hot
def _facts(tb, s, p, decision, i, n_players, x, xo):
    """Option ``i``'s own features and the context at ``x[xo:]`` (all but ``value``,
    ``rank``, ``options`` and the components)."""
    U = tb.ut.shape[0]
    u = -1
    cost = 0
    passing = 0
    step = s.g[L.G_STEP]
    if decision == L.D_DRAFT:
        u = tb.deck[ix(s.packs[p, i])]
    elif decision == L.D_BUILD:
        step = 0
        if i:
            cost = s.bopt[i - 1, 3]
        else:
            passing = 1
    else:
        kind = s.opt[ix(i), 0]
        if kind == L.M_PLACE:
            u = tb.deck[ix(s.hand[p, s.opt[ix(i), 1]])]
        passing = 1 if kind == L.M_STOP else 0
    strength = 0
    if 0 <= u < U:
        cost = tb.ut[u, L.U_COST]
        strength = tb.ut[u, L.U_STRENGTH]
    lp = s.pi[p, L.I_LP]
    best = -(1 << 30)
    for q in range(n_players):
        if q != p:
            best = max(best, s.pi[q, L.I_LP])
    x[xo + F_COST] = cost
    x[xo + F_CARD_STRENGTH] = strength
    x[xo + F_PASS] = passing
    x[xo + F_TURN] = s.g[L.G_TURN]
    x[xo + F_STEP] = step
    x[xo + F_PLAYERS] = n_players
    x[xo + F_LEAD] = lp - best
    x[xo + F_LEAD_LEFT] = lp - s.pi[(p + 1) % n_players, L.I_LP]
    x[xo + F_LEAD_RIGHT] = lp - s.pi[(p - 1) % n_players, L.I_LP]


@hot_outline
def ranked_features(tb, lx, weights, s, ls, ms, x, p, decision, top, n_players):
    """Greedy's best ``top`` distinct options of seat ``p``'s ``decision`` in greedy's order
    (``rank``: ``ms.rank[j]`` the j-th) and their features (the j-th at
    ``x[j * N_FEATURES]``). ``weights`` carries the feature rows last
    (``with_feature_rows``). Returns how many are ranked."""
    m = rank(tb, lx, weights, s, ls, ms, p, decision, top, n_players)
    k = ms.n_opt[0]
    for j in range(m):
        xo = j * N_FEATURES
        x[xo] = ms.rval[j]
        x[xo + F_RANK] = j
        _facts(tb, s, p, decision, ms.rank[j], n_players, x, xo)
        x[xo + F_OPTIONS] = k
    policy = s.pi[p, L.I_POLICY]
    row0 = weights.shape[0] - N_COMPONENTS
    for r in range(N_COMPONENTS):
        if lx is None and r == N_COMPONENTS - 1:  # the Legends component: 0
            for j in range(m):
                x[j * N_FEATURES + F_ARTIFACTS] = 0.0
            continue
        s.pi[p, L.I_POLICY] = row0 + r
        option_values(tb, lx, weights, s, ls, p, decision, ms.rank, m, ms.val, np.int64(0),
                      n_players)  # fmt: skip
        for j in range(m):
            x[j * N_FEATURES + F_COMPONENT0 + r] = ms.val[j]
    s.pi[p, L.I_POLICY] = policy
    return m


@hot_outline
def learned_choice(tb, lx, weights, models, s, ls, ms, x, n_players):
    """The learned seat's answer to the decision asked at ``G_ASK_*``: among greedy's best
    ``top`` options (``ranked_features``; ``ms``: scratch of its own, apart from a search
    in progress), the one of the best score under its model (``I_MODEL``: its row of the
    packed ``models``), ties to greedy's first best. Its option index."""
    p = np.int64(s.g[L.G_ASK_SEAT])  # int64, as the search's seat: no new specialisation
    decision = s.g[L.G_ASK_DEC]
    row = s.pi[p, L.I_MODEL]
    top = np.int32(model_top(models, row))  # int32, as the search's top
    m = ranked_features(tb, lx, weights, s, ls, ms, x, p, decision, top, n_players)
    best = -np.inf
    choice = ms.rank[0]
    for j in range(m):
        score = model_score(models, row, decision, x, j * N_FEATURES, X_HIDDEN)
        if score > best:
            best = score
            choice = ms.rank[j]
    return choice


@hot
def record_search(tb, lx, weights, s, ls, ms, ml, x, n_players, outcome_unit, rec, u):
    """Record the ``mc`` decision just searched at ``G_ASK_*`` (its candidates ranked in
    ``ms.rank``, their summed outcomes in ``ms.sums``) as row ``rec.count[u]`` of game
    offset ``u``: each candidate's features (``ranked_features`` into the scratch ``ml``:
    the same ranking), its mean outcome in wins, the decision kind and the seat. Nothing
    for a decision of one distinct option, once the game's rows are full, or when ``rec``
    has no games (a run that records nothing)."""
    if rec.count.shape[0] == 0:
        return
    r = rec.count[u]
    if r >= rec.n.shape[1]:
        return
    p = np.int64(s.g[L.G_ASK_SEAT])
    decision = s.g[L.G_ASK_DEC]
    m = ranked_features(tb, lx, weights, s, ls, ml, x, p, decision, ms.par[p, 1], n_players)
    if m < 2:
        return  # one distinct option: nothing was searched
    rollouts = ms.par[p, 0]
    t = min(m, rec.value.shape[2])
    for j in range(t):
        for f in range(N_FEATURES):
            rec.x[u, r, j, f] = x[j * N_FEATURES + f]
        rec.value[u, r, j] = ms.sums[j] / (rollouts * outcome_unit)
    rec.n[u, r] = t
    rec.kind[u, r] = decision
    rec.seat[u, r] = p
    rec.count[u] = r + 1
