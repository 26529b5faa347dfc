"""The ``learned`` player, compiled: the features of a decision's options, greedy's best
``top`` of them ranked, and the model's choice among those (``learned_choice``); the same
features recorded for an ``mc`` search's options (``record_search``, ``talesim learn``).

§N: a section of ``docs/rules/drako.md``, DRAKO's rules as implemented.

A learned seat is asked its two decisions of a turn as an ``mc`` seat is (§4.1): the
source (each placement of the top discard, then drawing) and, after drawing, the action
(each placement of the card, then each reveal); kind 0 and 1 of the model (``KINDS``). It
ranks the options as ``mc`` does (``mc.rank``: greedy's values, drawing at greedy's take
bar), scores greedy's best ``top`` (the model's) and plays the best score, ties to
greedy's first best; Legend claims and forced choices are greedy's (its row of the weight
table is greedy's). ``reference.DrakoGame.learned_features`` restates the features and
``DrakoGame.learned_decide`` the choice (``tests/drako/test_learned.py``).

The features (``FEATURES``, the registry's ``learned_features`` reads them) of an
option for seat ``p``, from what ``p`` sees only (face-up cards, the discard pile, the
river, the claims, the card in hand; never a face-down card nor the draw pile):

===============  ========================================================================
gain             the change of ``p``'s visible score (§7: face-up cards; greedy's
                 ``W_GAIN`` term); a reveal: its expectation over the kinds ``p`` has
                 not seen (``policies.unseen``); drawing: 0, as every term below
legend           the best river Legend claimable after it beyond the best claimable now
                 (greedy's ``W_LEGEND`` term; 0 when no claim may follow it, §4.5)
near, tame       legend-hunter's plan terms: the change of Σ points × progress over the
                 river Legends, and of Σ over dragons of their progress to taming (§7.3)
rank             its place in greedy's order (0: greedy's choice)
draw, reveal     1 for drawing (the source); 1 for discarding the card and revealing
face-down        1 if it turns one of ``p``'s face-down cards up (a reveal, a placement
                 on a face-down cell)
ends             1 if that card is ``p``'s last face-down one: the game ends (§8)
dragon, portal   1 for placing a Dragon, a Portal (locked once face up, §4.3)
neighbours       the cells next to its cell (2 to 4; 8 neighbours when not orthogonal)
turn             the turns ``p`` has played, this one included
down             ``p``'s face-down cards
rival-down       the fewest face-down cards of a rival: how near another seat is to
                 ending the game
lead             ``p``'s visible score (face-up cards and held Legends) minus the best
                 rival's
margin-1 .. -3   ``p``'s visible score minus each rival's, in the order they play after
                 ``p`` (0 past the last rival)
players          the number of players
options          the decision's options
===============  ========================================================================
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot, hot_outline
from talesim.simcore.learned import MAX_HIDDEN
from talesim.simcore.learned_score import model_score, model_top

from . import layout as L  # noqa: N812 (the schema, read as L.NAME)
from .incremental import evaluate_change, load_pair_row, near_after, tame_after

# Passed as call arguments, so imported by name (numba types an imported name as a literal,
# ``L.NAME`` as an ``int64``: see ``layout.py``).
from .layout import NO_CELL, NO_CELLS, YES, ix
from .mc import decision_options, rank
from .policies import face_down, held_points, seat_claims, unseen, visible_kingdom
from .scoring import popcount

#: The features of an option, in the order the model reads them.
FEATURES = (
    "gain",
    "legend",
    "near",
    "tame",
    "rank",
    "draw",
    "reveal",
    "face-down",
    "ends",
    "dragon",
    "portal",
    "neighbours",
    "turn",
    "down",
    "rival-down",
    "lead",
    "margin-1",
    "margin-2",
    "margin-3",
    "players",
    "options",
)
N_FEATURES = len(FEATURES)
(
    F_GAIN, F_LEGEND, F_NEAR, F_TAME, F_RANK, F_DRAW, F_REVEAL, F_FACE_DOWN, F_ENDS, F_DRAGON,
    F_PORTAL, F_NEIGHBOURS, F_TURN, F_DOWN, F_RIVAL_DOWN, F_LEAD, F_MARGIN, _, _, F_PLAYERS,
    F_OPTIONS,
) = range(N_FEATURES)  # fmt: skip
#: Margins to this many rivals (``margin-1`` .. ``margin-3``: four players at most).
N_MARGINS = F_PLAYERS - F_MARGIN
#: The decision kinds, each a head of the model: the source (``STEP_SOURCE``), the action.
KINDS = ("source", "action")
#: The float scratch of a learned decision (``x``): the features of each ranked option,
#: then the model's hidden sums (``X_HIDDEN``).
X_HIDDEN = L.MAX_OPTIONS * N_FEATURES
X_SIZE = X_HIDDEN + MAX_HIDDEN


def new_scratch() -> np.ndarray:
    """The float scratch of ``learned_choice`` and ``record_search`` (one per block)."""
    return np.zeros(X_SIZE, dtype=np.float64)


@hot
def _option_row(tb, s, p, card, n_act, option, b_claim, b_near, b_tame, down, x, xo):
    """Option ``option`` of the decision (``s.act_*`` in enumeration order; ``n_act``:
    drawing) for seat ``p`` holding or taking ``card``: its own features at ``x[xo :
    xo + F_TURN]`` (``rank`` left 0). Each term as ``policies.best_action`` computes it
    for legend-hunter (``incremental.evaluate_change`` against the kingdom's best claim
    ``b_claim`` and plan terms ``b_near``, ``b_tame``); a reveal sums ``pool[k] x`` term
    over the unseen kinds in kind order, then divides by their number. ``down``: ``p``'s
    face-down cards."""
    for f in range(F_TURN):
        x[xo + f] = 0.0
    if option == n_act:
        x[xo + F_DRAW] = 1.0
        return
    cell = s.act_cell[ix(option)]
    reveal = s.act_rev[ix(option)] != 0
    opens = s.up[ix(p), ix(cell)] == 0
    final = opens and down == 1
    claim = s.meta[L.M_CLAIMS_LEFT] > 0 and (not final or tb.rules[L.R_CLAIM_AFTER_FINAL] != 0)
    grid = s.grid[ix(p)]
    load_pair_row(tb, s, grid, cell)
    n = unseen(tb, s, p, card) if reveal else 1
    lo = 0 if reveal else card  # a placement: the card only
    hi = L.N_KINDS if reveal else card + 1
    gain = 0
    legend = 0
    near = 0.0
    tame = 0.0
    for k in range(lo, hi):
        w = s.pool[ix(k)] if reveal else 1
        if w == 0:
            continue
        d, best, nn, t = evaluate_change(tb, s, grid, cell, k, claim, b_claim, YES, YES)
        gain += w * d
        legend += w * max(0, best - b_claim)
        near += w * (nn - b_near)
        tame += w * (t - b_tame)
    if n > 0:
        x[xo + F_GAIN] = gain / n
        x[xo + F_LEGEND] = legend / n
        x[xo + F_NEAR] = near / n
        x[xo + F_TAME] = tame / n
    x[xo + F_REVEAL] = 1.0 if reveal else 0.0
    x[xo + F_FACE_DOWN] = 1.0 if opens else 0.0
    x[xo + F_ENDS] = 1.0 if final else 0.0
    x[xo + F_DRAGON] = 1.0 if not reveal and card == L.K_DRAGON else 0.0
    x[xo + F_PORTAL] = 1.0 if not reveal and card == L.K_PORTAL else 0.0
    x[xo + F_NEIGHBOURS] = popcount(tb.adj[ix(cell)])


@hot
def _context(tb, s, x, n_players, p, n_options, down):
    """The context features of seat ``p``'s decision at ``x[F_TURN : N_FEATURES]`` (row 0):
    its turns, its and its rivals' face-down cards, the visible scores' margins
    (``policies.visible_kingdom`` + ``held_points``: face-up cards and held Legends), the
    players, the options."""
    own = visible_kingdom(tb, s, p) + held_points(tb, s, p)
    best = -(1 << 30)
    rival_down = L.CELLS
    for j in range(N_MARGINS):
        x[F_MARGIN + j] = 0.0
    for j in range(1, n_players):
        q = (p + j) % n_players
        v = visible_kingdom(tb, s, q) + held_points(tb, s, q)
        best = max(best, v)
        rival_down = min(rival_down, face_down(s, q))
        x[F_MARGIN + j - 1] = own - v
    x[F_TURN] = s.turns[ix(p)]
    x[F_DOWN] = down
    x[F_RIVAL_DOWN] = rival_down
    x[F_LEAD] = own - best
    x[F_PLAYERS] = n_players
    x[F_OPTIONS] = n_options


@hot
def ranked_rows(tb, s, x, n_players, p, m):
    """The features of the ``m`` options ranked at ``s.mc_rank`` (``mc.rank``) of seat
    ``p``'s asked decision (``s``: its ``kernel.seat_view``), the r-th at ``x[r *
    N_FEATURES]``, its ``rank`` r."""
    card, n_act, draw = decision_options(tb, s, p)  # ``s.act_*`` in enumeration order again
    b_claim = seat_claims(tb, s)  # ``decision_options`` loaded the seat (``load_seat``)
    b_near = near_after(tb, s, NO_CELL, NO_CELL, NO_CELLS)
    b_tame = tame_after(tb, s, NO_CELL, NO_CELL, NO_CELLS)
    down = face_down(s, p)
    _context(tb, s, x, n_players, p, n_act + (1 if draw else 0), down)
    for r in range(m):  # the context of row 0 into every row, then each option's own
        xo = r * N_FEATURES
        for f in range(F_TURN, N_FEATURES):
            x[xo + f] = x[f]
        _option_row(tb, s, p, card, n_act, s.mc_rank[ix(r)], b_claim, b_near, b_tame, down, x, xo)
        x[xo + F_RANK] = r


@hot
def ranked_features(tb, weights, s, x, n_players, p, top):
    """Rank seat ``p``'s asked decision's options as ``mc`` does (``mc.rank``: greedy's
    best ``top`` at ``s.mc_rank``) and compute their features (``ranked_rows``); returns
    how many."""
    card, n_act, draw = decision_options(tb, s, p)
    bar = weights[ix(s.policy[ix(p)]), L.W_TAKE_BAR]
    m = rank(tb, weights, s, p, card, n_act, top, draw, bar)
    ranked_rows(tb, s, x, n_players, p, m)
    return m


@hot_outline
def learned_choice(tb, weights, models, s, x, n_players, p):
    """The learned seat ``p``'s answer to its asked decision (``s``: its
    ``kernel.seat_view``): among greedy's best ``top`` options (``ranked_features``), the
    one of the best score under its model (``s.model[p]``, head ``KINDS``), ties to
    greedy's first best. The option's index (``mc.decision_options``' order)."""
    row = s.model[ix(p)]
    kind = 0 if s.meta[L.M_STEP] == L.STEP_SOURCE else 1
    m = ranked_features(tb, weights, s, x, n_players, p, model_top(models, row))
    best = -np.inf
    choice = s.mc_rank[0]
    for r in range(m):
        score = model_score(models, row, kind, x, r * N_FEATURES, X_HIDDEN)
        if score > best:
            best = score
            choice = s.mc_rank[ix(r)]
    return choice


@hot
def record_search(tb, s, x, n_players, p, rec, u):
    """Record the ``mc`` decision of seat ``p`` just searched (``kernel._search``: its
    options ranked at ``s.mc_rank``, their summed outcomes at ``s.mc_sum``; ``s`` its
    ``kernel.seat_view``) as row ``rec.count[u]`` of game offset ``u``: each option's
    features (``ranked_rows``, greedy's order), mean outcome in wins, the decision kind and
    the seat. Nothing for a decision of one option, once the game's rows are full, or when
    ``rec`` has no games (a run that records nothing)."""
    if rec.count.shape[0] == 0:
        return
    r = rec.count[u]
    if r >= rec.n.shape[1]:
        return
    _, n_act, draw = decision_options(tb, s, p)
    m = min(s.mc_par[ix(p), 1], n_act + (1 if draw else 0))
    if m < 2:
        return  # one option: nothing was searched
    ranked_rows(tb, s, x, n_players, p, m)
    rollouts = s.mc_par[ix(p), 0]
    t = min(m, rec.value.shape[2])
    for j in range(t):
        for f in range(N_FEATURES):
            rec.x[u, r, j, f] = x[j * N_FEATURES + f]
        rec.value[u, r, j] = s.mc_sum[ix(j)] / (rollouts * L.OUTCOME_UNIT)
    rec.n[u, r] = t
    rec.kind[u, r] = 0 if s.meta[L.M_STEP] == L.STEP_SOURCE else 1
    rec.seat[u, r] = p
    rec.count[u] = r + 1
