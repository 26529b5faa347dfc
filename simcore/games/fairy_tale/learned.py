"""The ``learned`` player, compiled: the features of a decision's candidates, greedy's best
``top`` of them ranked, and the model's choice among those (``learned_choice``); the same
features recorded for a search's candidates (``record_search``, ``talesim learn``).

``reference/learned.py`` restates each function and makes the same choices
(``tests/fairy_tale/test_learned.py``). The features (``FEATURES``, the registry's
``learned_features`` reads them) of candidate card ``c`` for seat ``p``, everything
from what ``p`` sees:

==============  ==========================================================================
gain            greedy's gain of ``c`` (``policies.evaluate``; Open: the target's gain;
                Close: minus the target's loss)
effect, harm    its Open/Close's own value and the others' loss (draft and play)
synergy, deny   draft only: the most ``c`` adds to a related card; its gain for the
                neighbour who gets the hand
rank            its place in greedy's order among the candidates (0: greedy's choice)
points          its printed points
opens, closes,  1 if its effect is an Open, a Close, a Hunt
hunts
held            copies of ``c`` already counted for ``p`` (kept cards count while drafting)
round, step     where the game is (0-based)
players         the number of players
face-down       ``p``'s face-down tableau cards
options         the decision's distinct candidates
==============  ==========================================================================

Greedy's value of a candidate is its ``gain + effect`` (Open, Close: the gain), exactly
``policies.evaluate`` under greedy's weights, so the ranking is ``mc.rank``'s.
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot, hot_outline
from talesim.simcore.learned import MAX_HIDDEN
from talesim.simcore.learned_score import model_score, model_top

from . import layout as L  # noqa: N812 (the schema, read as L.NAME)
from .layout import bit, ix
from .policies import card_gain, effect_terms, neighbour_gain, synergy, target_gain, target_loss

#: The features of a candidate, in the order the model reads them.
FEATURES = (
    "gain",
    "effect",
    "harm",
    "synergy",
    "deny",
    "rank",
    "points",
    "opens",
    "closes",
    "hunts",
    "held",
    "round",
    "step",
    "players",
    "face-down",
    "options",
)
N_FEATURES = len(FEATURES)
F_RANK = FEATURES.index("rank")
F_OPTIONS = FEATURES.index("options")
#: The decision kinds, each a head of the model: ``Decision`` codes in order.
KINDS = ("draft", "play", "open", "close")
#: Candidates a decision can have at most (a tableau's cards).
CAP = L.TABLEAU
#: The float scratch a learned decision needs (``x``): features, greedy's values, order,
#: the model's hidden units.
X_VALUE = CAP * N_FEATURES
X_ORDER = X_VALUE + CAP
X_HIDDEN = X_ORDER + CAP
X_SIZE = X_HIDDEN + MAX_HIDDEN


def new_scratch() -> np.ndarray:
    """The float scratch of ``learned_choice`` and ``record_search`` (one per block)."""
    return np.zeros(X_SIZE, dtype=np.float64)


@hot
def _features(kt, st, sm, decision, c, own, ownf, held, n_players, p, strict, x, xo):
    """Candidate ``c``'s features at ``x[xo : xo + N_FEATURES]`` but the draft-only
    ``synergy`` and ``deny`` (``_draft_features``, for the ranked candidates only) and
    ``rank`` and ``options`` (the caller knows them), all left 0; returns greedy's value of
    ``c``."""
    gain = 0
    eff = 0
    harm = 0
    if decision == L.D_OPEN:
        gain = target_gain(kt, st, c, own, ownf, held, n_players, p, strict)
    elif decision == L.D_CLOSE:
        gain = -target_loss(kt, st, c, own, ownf, held, n_players, p, strict)
    else:
        gain = card_gain(kt, st, c, own, ownf, held, n_players, p, strict)
        down = L.DCNT + p * L.MC
        eff, harm = effect_terms(
            kt, st, sm, c, own, ownf, held, down, n_players, p, strict, True, gain
        )
    effect = kt[ix(L.K_EFFECT + c)]
    down_cards = 0
    for slot in range(st[ix(L.TAB_N + p)]):
        down_cards += 1 - st[ix(L.TAB_UP + p * L.TABLEAU + slot)]
    x[xo + 0] = gain
    x[xo + 1] = eff
    x[xo + 2] = harm
    x[xo + 3] = 0.0
    x[xo + 4] = 0.0
    x[xo + 5] = 0.0
    x[xo + 6] = kt[ix(L.K_POINTS + c)]
    x[xo + 7] = 1.0 if effect == L.E_OPEN else 0.0
    x[xo + 8] = 1.0 if effect == L.E_CLOSE else 0.0
    x[xo + 9] = 1.0 if effect == L.E_HUNT else 0.0
    x[xo + 10] = st[ix(own + c)]
    x[xo + 11] = st[ix(L.POS_ROUND)]
    x[xo + 12] = st[ix(L.POS_STEP)]
    x[xo + 13] = n_players
    x[xo + 14] = down_cards
    x[xo + 15] = 0.0
    return float(gain + eff)


@hot
def _draft_features(kt, st, sm, c, own, ownf, n_players, p, neighbour, strict, x, xo):
    """A drafted candidate ``c``'s ``synergy`` (the most it adds to a related card) and
    ``deny`` (its gain for the neighbour who gets the hand) at ``x[xo + 3]``, ``x[xo + 4]``:
    the costliest features, so computed only for the candidates the model scores."""
    x[xo + 3] = synergy(kt, st, c, own, ownf, n_players, p, strict)
    if neighbour != p:
        x[xo + 4] = neighbour_gain(kt, st, sm, c, n_players, neighbour, strict)


@hot
def ranked_features(kt, st, sm, x, n_players, top):
    """The features of the distinct candidates of the decision asked at ``ASK_*`` (the
    ``k``-th distinct one at ``x[k * N_FEATURES]``, its index among the candidates at
    ``MC_LIDX + k``) and greedy's best ``top`` of them in greedy's order (``x[X_ORDER + r]``:
    the ``k`` of the r-th; its ``rank`` feature r; ties in candidate order, as
    ``mc.rank``). Returns how many are ranked."""
    p = st[ix(L.ASK_SEAT)]
    decision = st[ix(L.ASK_DEC)]
    cand = st[ix(L.ASK_CAND)]
    n = st[ix(L.ASK_N)]
    use_hyp = st[ix(L.ASK_HYP)] == 1
    neighbour = st[ix(L.ASK_NEIGH)]
    own = L.HYP + p * L.MC if use_hyp else L.CNT + p * L.MC
    ownf = L.HFC + p * L.NF if use_hyp else L.FCNT + p * L.NF
    held = sm[ix(L.SM_HYP + p)] if use_hyp else sm[ix(L.SM_CNT + p)]
    strict = kt[ix(L.K_RULES + L.R_MAJ_STRICT)] == 1
    k = 0
    seen = L.ZERO
    for i in range(n):
        c = st[ix(cand + i)]
        if (seen & bit(c)) != L.ZERO:
            continue
        seen |= bit(c)
        st[ix(L.MC_LIDX + k)] = i
        x[X_VALUE + k] = _features(
            kt, st, sm, decision, c, own, ownf, held, n_players, p, strict, x, k * N_FEATURES
        )
        k += 1
    for j in range(k):
        x[j * N_FEATURES + F_OPTIONS] = k
    m = min(top, k)
    for r in range(m):
        best = -1
        for j in range(k):
            if x[X_VALUE + j] == -np.inf:
                continue  # ranked already
            if best < 0 or x[X_VALUE + j] > x[X_VALUE + best]:
                best = j
        x[X_ORDER + r] = best
        x[best * N_FEATURES + F_RANK] = r
        x[X_VALUE + best] = -np.inf
        if decision == L.D_DRAFT:
            c = st[ix(cand + st[ix(L.MC_LIDX + best)])]
            _draft_features(
                kt, st, sm, c, own, ownf, n_players, p, neighbour, strict, x, best * N_FEATURES
            )
    return m


@hot_outline
def learned_choice(kt, models, st, sm, x, n_players):
    """The learned seat's answer to the decision asked at ``ASK_*``: among greedy's best
    ``top`` candidates (``ranked_features``), the one of the best score under its model
    (``MODEL``), ties to greedy's first best. Its index among the candidates."""
    p = st[ix(L.ASK_SEAT)]
    row = st[ix(L.MODEL + p)]
    kind = st[ix(L.ASK_DEC)]
    m = ranked_features(kt, st, sm, x, n_players, model_top(models, row))
    best = -np.inf
    choice = 0
    for r in range(m):
        k = int(x[X_ORDER + r])
        s = model_score(models, row, kind, x, k * N_FEATURES, X_HIDDEN)
        if s > best:
            best = s
            choice = st[ix(L.MC_LIDX + k)]
    return choice


@hot
def record_search(kt, st, sm, x, n_players, m, rollouts, outcome_unit, rec, u):
    """Record the ``mc`` decision just searched at ``ASK_*`` (its ``m`` candidates ranked at
    ``MC_RANK``, their summed outcomes at ``MC_SUM``) as row ``rec.count[u]`` of game
    offset ``u``: each candidate's features (``ranked_features``, the same order), mean
    outcome in wins, the decision kind and the seat. Nothing for a decision of one distinct
    candidate, once the game's rows are full, or when ``rec`` has no games (a run that
    records nothing)."""
    if rec.count.shape[0] == 0:
        return
    r = rec.count[u]
    if r >= rec.n.shape[1]:
        return
    ranked = ranked_features(kt, st, sm, x, n_players, m)
    if ranked < 2:
        return  # one distinct candidate: nothing was searched
    t = min(ranked, rec.value.shape[2])
    for j in range(t):
        k = int(x[X_ORDER + j])
        for f in range(N_FEATURES):
            rec.x[u, r, j, f] = x[k * N_FEATURES + f]
        rec.value[u, r, j] = st[ix(L.MC_SUM + j)] / (rollouts * outcome_unit)
    rec.n[u, r] = t
    rec.kind[u, r] = st[ix(L.ASK_DEC)]
    rec.seat[u, r] = st[ix(L.ASK_SEAT)]
    rec.count[u] = r + 1
