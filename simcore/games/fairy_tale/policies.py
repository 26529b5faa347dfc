"""Fairy Tale heuristic players, compiled. ``reference/`` restates each one in plain Python.

Every decision is "pick one of ``n`` candidates" (``n >= 2``; a forced choice never reaches
a policy and draws no random number). A policy scores each candidate and takes the first
best; ``random`` draws uniformly from the game's stream instead.

Value of a candidate card ``c`` (weights ``w``, a float64 row per policy)::

    w[W_GAIN]*gain + w[W_EFFECT]*effect + w[W_HARM]*harm + w[W_SYNERGY]*synergy + w[W_DENY]*deny

* gain    - own score change if ``c`` were face up now (draft: counting kept cards as face up;
            the Trickster: its -1 plus the best card it could copy, in every decision)
* effect  - own score change from ``c``'s Open/Close once revealed (best Open, least-bad Close)
* harm    - points the other players lose to ``c``'s Close (each closes their least-bad card)
* synergy - draft only: the largest extra value ``c`` adds to one more copy of a related card
* deny    - draft only: ``c``'s gain for the neighbour who receives the hand next
Open/Close targets: open the card worth most, close the card whose loss is least (a
Trickster is worth, and closing it loses, its -1 plus its best copy: ``target_gain``,
``target_loss``).

Compiled on the flat arrays of ``layout.py``: ``own``/``ownf`` are the offsets of the
deciding player's count rows in ``st`` (``HYP``/``HFC`` while drafting, else ``CNT``/``FCNT``),
``down`` the offset of their face-down row (``DCNT``); the other players' rows are read from
``CNT``/``FCNT``. Every function restores the counts it changes while looking ahead.
"""

from __future__ import annotations

import numpy as np

from talesim.simcore.jit import hot, hot_outline
from talesim.simcore.rng import rng_below

from . import layout as L  # noqa: N812 (the schema, read as L.NAME)
from .layout import Decision as Decision  # re-exported: the decisions' names
from .layout import Policy, bit, ix, kmask, lowest
from .scoring import closed_gain, closed_gain_cards, gain_if_added, loss_if_removed

#: The heuristics: the policies a search's playouts can use.
HEURISTICS = (Policy.RANDOM, Policy.GREEDY, Policy.COLLECTOR)

W_GAIN, W_EFFECT, W_HARM, W_SYNERGY, W_DENY = range(5)
N_WEIGHTS = 5

POLICY_NAMES = tuple(p.name.lower() for p in Policy)


def default_weights() -> np.ndarray:
    """float64[len(Policy), N_WEIGHTS]: one tunable row per policy (random ignores its row)."""
    w = np.zeros((len(Policy), N_WEIGHTS))
    w[Policy.GREEDY] = (1.0, 1.0, 0.0, 0.0, 0.0)
    w[Policy.COLLECTOR] = (1.0, 1.0, 0.5, 1.0, 0.5)
    return w


@hot
def card_gain(kt, st, c, own, ownf, held, n_players, p, strict):
    """Own score change if ``c`` joined ``own`` face up (a Trickster: its points plus its best
    copy, ``best_copy_gain``). ``held``: a mask of at least the cards counted in ``own``."""
    if kt[ix(L.K_VALUE + c)] != L.V_WILD:
        return gain_if_added(kt, st, c, own, ownf, n_players, p, strict)
    return kt[ix(L.K_POINTS + c)] + best_copy_gain(kt, st, own, ownf, held, n_players, p, strict)


@hot
def neighbour_gain(kt, st, sm, c, n_players, neighbour, strict):
    """``card_gain`` of ``c`` for seat ``neighbour`` (its face-up counts): what passing ``c``
    on would give the neighbour who gets the hand (``collector``'s and ``learned``'s deny)."""
    return card_gain(
        kt,
        st,
        c,
        L.CNT + neighbour * L.MC,
        L.FCNT + neighbour * L.NF,
        sm[ix(L.SM_CNT + neighbour)],
        n_players,
        neighbour,
        strict,
    )


@hot
def best_copy_gain(kt, st, own, ownf, held, n_players, p, strict):
    """Largest ``gain_if_added`` among the cards a Trickster can copy (0 if none). A card none
    of whose dependents is held (``held``: a mask of at least the cards counted in ``own``)
    and whose gain has a closed form gains exactly its ``K_GAIN_*`` terms: only the others
    are scored in full."""
    closed = closed_gain_cards(kt, held)
    copyable = kmask(kt, L.KM_COPYABLE)
    best = 0
    first = True
    m = copyable & closed
    while m != 0:
        u = lowest(m)
        m &= m - L.ONE
        d = closed_gain(kt, st, u, own)
        if first or d > best:
            best = d
            first = False
    m = copyable & ~closed
    while m != 0:
        u = lowest(m)
        m &= m - L.ONE
        d = gain_if_added(kt, st, u, own, ownf, n_players, p, strict)
        if first or d > best:
            best = d
            first = False
    return best


@hot_outline
def wild_gain(kt, st, c, own, ownf, held, n_players, p, strict):
    """``card_gain`` of a wild card ``c`` (its points plus ``best_copy_gain``), not inlined:
    for the Open/Close look-aheads and decisions, where a Trickster is rarely a target, one
    compiled copy of the copy loop instead of one per call site."""
    return kt[ix(L.K_POINTS + c)] + best_copy_gain(kt, st, own, ownf, held, n_players, p, strict)


@hot
def target_gain(kt, st, t, own, ownf, held, n_players, p, strict):
    """``card_gain`` of an Open target ``t`` (face down, not counted in ``own``; ``held``: a
    mask of at least the cards counted in ``own``): a Trickster is worth its best copy as in
    the draft, not its printed points."""
    if kt[ix(L.K_VALUE + t)] != L.V_WILD:
        return gain_if_added(kt, st, t, own, ownf, n_players, p, strict)
    return wild_gain(kt, st, t, own, ownf, held, n_players, p, strict)


@hot
def target_loss(kt, st, t, own, ownf, held, n_players, p, strict):
    """Points lost if one face-up ``t`` (counted in ``own``; ``held``: a mask of at least the
    cards counted) were closed: ``target_gain`` of ``t`` without it. A Trickster loses its
    points and its best copy (``loss_if_removed`` would count only its points)."""
    if kt[ix(L.K_VALUE + t)] != L.V_WILD:
        return loss_if_removed(kt, st, t, own, ownf, n_players, p, strict)
    f = kt[ix(L.K_FACTION + t)]
    st[ix(own + t)] -= 1
    st[ix(ownf + f)] -= 1
    d = wild_gain(kt, st, t, own, ownf, held, n_players, p, strict)
    st[ix(own + t)] += 1
    st[ix(ownf + f)] += 1
    return d


@hot
def least_close_loss(kt, st, e, own, ownf, held, n_players, p, strict, known, known_loss):
    """Points ``p`` loses when ``e``'s Close hits them and they pick least-bad cards (the
    lowest card on ties). ``held``: a mask of at least the cards counted in ``own``.
    ``known_loss``: what removing card ``known`` loses before any card is removed, already
    computed by the caller (``known = -1``: none)."""
    total = 0
    removed0 = -1
    removed1 = -1
    count = kt[ix(L.K_EFF_COUNT + e)]
    targets = held & kmask(kt, L.KM_SEL + e)
    for k in range(count):
        best = 0
        bt = -1
        m = targets
        while m != 0:
            t = lowest(m)
            m &= m - L.ONE
            if st[ix(own + t)] > 0:
                if t == known:
                    loss = known_loss
                else:
                    loss = target_loss(kt, st, t, own, ownf, held, n_players, p, strict)
                if bt < 0 or loss < best:
                    best = loss
                    bt = t
        if bt < 0:
            break
        total += best
        if k == count - 1:
            break  # the last card closed: no count to change (count <= MAX_EFFECT_COUNT = 3)
        known = -1  # the counts change: nothing is known any more
        st[ix(own + bt)] -= 1
        st[ix(ownf + kt[ix(L.K_FACTION + bt)])] -= 1
        if k == 0:
            removed0 = bt
        else:
            removed1 = bt
    if removed1 >= 0:
        st[ix(own + removed1)] += 1
        st[ix(ownf + kt[ix(L.K_FACTION + removed1)])] += 1
    if removed0 >= 0:
        st[ix(own + removed0)] += 1
        st[ix(ownf + kt[ix(L.K_FACTION + removed0)])] += 1
    return total


@hot
def open_gain(kt, st, e, own, ownf, held, down, face_down, n_players, p, strict):
    """Best own gain from ``e``'s Open: the matching face-down card worth most (count times;
    the lowest card on ties). ``held`` / ``face_down``: masks of at least the cards counted in
    ``own`` / ``down``."""
    total = 0
    count = kt[ix(L.K_EFF_COUNT + e)]
    opened0 = -1
    opened1 = -1
    targets = face_down & kmask(kt, L.KM_SEL + e)
    for k in range(count):
        best = 0
        bt = -1
        m = targets
        while m != 0:
            t = lowest(m)
            m &= m - L.ONE
            if st[ix(down + t)] > 0:
                g = target_gain(kt, st, t, own, ownf, held, n_players, p, strict)
                if bt < 0 or g > best:
                    best = g
                    bt = t
        if bt < 0:
            break
        total += best
        if k == count - 1:
            break  # the last card opened: no count to change (count <= MAX_EFFECT_COUNT = 3)
        st[ix(own + bt)] += 1
        st[ix(ownf + kt[ix(L.K_FACTION + bt)])] += 1
        st[ix(down + bt)] -= 1
        held |= bit(bt)
        if k == 0:
            opened0 = bt
        else:
            opened1 = bt
    for bt in (opened1, opened0):
        if bt >= 0:
            st[ix(own + bt)] -= 1
            st[ix(ownf + kt[ix(L.K_FACTION + bt)])] -= 1
            st[ix(down + bt)] += 1
    return total


@hot
def _own_effect(kt, st, c, kind, own, ownf, held, down, face_down, n_players, p, strict, gain):
    """Own score change from ``c``'s Open/Close (``kind``), ``c`` already counted in ``own``.
    ``gain``: ``card_gain(c)`` before ``c`` was counted: closing that ``c`` again loses it
    (``target_loss``, a wild card's best copy included)."""
    held_c = held | bit(c)
    if kind == L.E_OPEN:
        return open_gain(kt, st, c, own, ownf, held_c, down, face_down, n_players, p, strict)
    if kt[ix(L.K_SCOPE + c)] == L.S_OTHERS:
        return 0
    return -least_close_loss(kt, st, c, own, ownf, held_c, n_players, p, strict, c, gain)


@hot
def effect_terms(kt, st, sm, c, own, ownf, held, down, n_players, p, strict, want_harm, gain):
    """(own effect value, harm to others) of revealing ``c`` with ``own`` as p's face-up row
    (``held``: a mask of at least its cards; ``down``: p's face-down row; ``gain``: ``c``'s
    ``card_gain``, needed for a Close)."""
    kind = kt[ix(L.K_EFFECT + c)]
    if kind != L.E_OPEN and kind != L.E_CLOSE:
        return 0, 0
    f = kt[ix(L.K_FACTION + c)]
    st[ix(own + c)] += 1
    st[ix(ownf + f)] += 1
    face_down = sm[ix(L.SM_DCNT + p)]
    eff = _own_effect(kt, st, c, kind, own, ownf, held, down, face_down, n_players, p, strict, gain)
    harm = 0
    if kind == L.E_CLOSE and kt[ix(L.K_SCOPE + c)] != L.S_YOU and want_harm:
        for q in range(n_players):
            if q != p:
                harm += least_close_loss(
                    kt,
                    st,
                    c,
                    L.CNT + q * L.MC,
                    L.FCNT + q * L.NF,
                    sm[ix(L.SM_CNT + q)],
                    n_players,
                    q,
                    strict,
                    -1,
                    0,
                )
    st[ix(own + c)] -= 1
    st[ix(ownf + f)] -= 1
    return eff, harm


@hot
def own_effect(kt, st, c, own, ownf, held, down, face_down, n_players, p, strict, gain):
    """``effect_terms``' own effect value alone (no harm look-ahead: a smaller function).
    Only an effect with a choice to make is played out: an Open without a face-down card to
    open gains 0, a one-card Close that can only close ``c`` itself loses ``gain``."""
    kind = kt[ix(L.K_EFFECT + c)]
    sel = kmask(kt, L.KM_SEL + c)
    if kind == L.E_OPEN:
        if (face_down & sel) == L.ZERO:
            return 0
    elif kind == L.E_CLOSE:
        if kt[ix(L.K_SCOPE + c)] == L.S_OTHERS:
            return 0
        if (held & ~bit(c) & sel) == L.ZERO and kt[ix(L.K_EFF_COUNT + c)] == 1:
            return -gain if (sel & bit(c)) != L.ZERO else 0
    else:
        return 0
    f = kt[ix(L.K_FACTION + c)]
    st[ix(own + c)] += 1
    st[ix(ownf + f)] += 1
    eff = _own_effect(kt, st, c, kind, own, ownf, held, down, face_down, n_players, p, strict, gain)
    st[ix(own + c)] -= 1
    st[ix(ownf + f)] -= 1
    return eff


@hot
def _interaction(kt, st, c, u, own, ownf, n_players, p, strict):
    """How much more one extra ``u`` is worth once ``c`` is held: Δ(u | own+c) − Δ(u | own)."""
    without = gain_if_added(kt, st, u, own, ownf, n_players, p, strict)
    f = kt[ix(L.K_FACTION + c)]
    st[ix(own + c)] += 1
    st[ix(ownf + f)] += 1
    with_c = gain_if_added(kt, st, u, own, ownf, n_players, p, strict)
    st[ix(own + c)] -= 1
    st[ix(ownf + f)] -= 1
    return with_c - without


@hot
def synergy(kt, st, c, own, ownf, n_players, p, strict):
    """Largest interaction of ``c`` with a related card: itself, what it counts or needs,
    and the cards that count or need it (``deps[c]``). Wild cards relate to nothing."""
    kind = kt[ix(L.K_VALUE + c)]
    if kind == L.V_WILD:
        return 0
    best = _interaction(kt, st, c, c, own, ownf, n_players, p, strict)
    if kind == L.V_COUNT and kt[ix(L.K_OF + c)] != c:
        v = _interaction(kt, st, c, kt[ix(L.K_OF + c)], own, ownf, n_players, p, strict)
        best = max(best, v)
    if kind == L.V_QUEST_CARDS:
        for k in range(L.MAX_NEEDS):
            u = kt[ix(L.K_NEED0 + k * L.MC + c)]
            if u >= 0:
                v = _interaction(kt, st, c, u, own, ownf, n_players, p, strict)
                best = max(best, v)
    for k in range(L.MC):
        u = kt[ix(L.K_DEPS + c * L.MC + k)]
        if u < 0:
            break
        v = _interaction(kt, st, c, u, own, ownf, n_players, p, strict)
        best = max(best, v)
    return best


@hot
def evaluate(decision, w, kt, st, sm, c, own, ownf, held, down, n_players, p, neighbour, strict):
    """Policy value of candidate card ``c`` for player ``p`` (see module docstring)."""
    if decision == L.D_OPEN:
        return float(target_gain(kt, st, c, own, ownf, held, n_players, p, strict))
    if decision == L.D_CLOSE:
        return float(-target_loss(kt, st, c, own, ownf, held, n_players, p, strict))
    gain = 0
    eff = 0
    harm = 0
    syn = 0
    deny = 0
    if w[W_GAIN] != 0.0 or kt[ix(L.K_EFFECT + c)] == L.E_CLOSE:  # a Close reads the gain
        gain = card_gain(kt, st, c, own, ownf, held, n_players, p, strict)
    if w[W_EFFECT] != 0.0 or w[W_HARM] != 0.0:
        eff, harm = effect_terms(
            kt, st, sm, c, own, ownf, held, down, n_players, p, strict, w[W_HARM] != 0.0, gain
        )
    if decision == L.D_DRAFT:
        if w[W_SYNERGY] != 0.0:
            syn = synergy(kt, st, c, own, ownf, n_players, p, strict)
        if w[W_DENY] != 0.0 and neighbour != p:
            deny = neighbour_gain(kt, st, sm, c, n_players, neighbour, strict)
    return (
        w[W_GAIN] * gain
        + w[W_EFFECT] * eff
        + w[W_HARM] * harm
        + w[W_SYNERGY] * syn
        + w[W_DENY] * deny
    )


@hot
def policy_weights(weights, policy):
    """Row ``policy`` of ``weights`` as a tuple (values in registers, not reloaded from memory
    after every count change)."""
    return (
        weights[policy, W_GAIN],
        weights[policy, W_EFFECT],
        weights[policy, W_HARM],
        weights[policy, W_SYNERGY],
        weights[policy, W_DENY],
    )


@hot_outline
def choose(policy, w, decision, kt, st, sm, cand, n, own, ownf, held, n_players, p, neighbour):
    """Index in the candidates ``st[cand : cand + n]`` chosen by ``policy`` (``n >= 2``;
    ``w``: its weights, ``policy_weights``): the first best. A candidate equal to an earlier
    one has the same value and can never be the first best: skipped. ``own``/``ownf``: p's
    count rows (``held``: a mask of at least the cards in ``own``); ``sm``: the random stream
    and the count masks. A draft or play decision of ``plain`` weights goes to
    ``choose_plain`` instead (``kernel._decide`` calls it directly)."""
    if policy == L.P_RANDOM:
        return rng_below(sm, n)
    down = L.DCNT + p * L.MC
    strict = kt[ix(L.K_RULES + L.R_MAJ_STRICT)] == 1
    best = -np.inf  # every finite value beats it: the first candidate is taken
    bi = 0
    seen = L.ZERO
    for i in range(n):
        c = st[ix(cand + i)]
        if (seen & bit(c)) != L.ZERO:
            continue
        seen |= bit(c)
        v = evaluate(
            decision, w, kt, st, sm, c, own, ownf, held, down, n_players, p, neighbour, strict
        )
        if v > best:
            best = v
            bi = i
    return bi


@hot_outline
def choose_target(kt, st, decision, cand, n, own, ownf, held, n_players, p):
    """``choose`` for an Open or Close decision of any policy but ``random``, whose weights do
    not enter (open the card worth most, close the card that loses least): the same values
    and the same first best, called with half the words of arguments (no weights). A
    candidate of ``closed_gain_cards(held)`` (``held``: a mask of at least the cards counted
    in ``own``) is scored by its closed form, except a wild card: every candidate is in the
    deck, so ``KM_COPYABLE`` drops exactly the wild ones, valued at their best copy by
    ``target_gain`` / ``target_loss``. A card that is a candidate twice is scored twice
    (rare: no ``seen`` mask)."""
    strict = kt[ix(L.K_RULES + L.R_MAJ_STRICT)] == 1
    closed = closed_gain_cards(kt, held) & kmask(kt, L.KM_COPYABLE)
    bi = 0
    best = -np.inf  # every finite value beats it: the first candidate is taken
    for i in range(n):
        c = st[ix(cand + i)]
        if (closed & bit(c)) != L.ZERO:  # opening adds the closed form, closing loses one less
            g = closed_gain(kt, st, c, own)
            v = float(g) if decision == L.D_OPEN else float(kt[ix(L.K_GAIN_C + c)] - g)
        elif decision == L.D_OPEN:
            v = float(target_gain(kt, st, c, own, ownf, held, n_players, p, strict))
        else:
            v = float(-target_loss(kt, st, c, own, ownf, held, n_players, p, strict))
        if v > best:
            bi = i
        best = max(best, v)
    return bi


#: ``choose_plain`` weighs in integers: weights up to this size in absolute value keep every
#: value exact (gains and effects are small integers), as in float64.
MAX_PLAIN_WEIGHT = 1 << 20


@hot
def plain(w, decision):
    """Do weights ``w`` (``policy_weights``) read only gain and effect in ``decision``, both
    whole numbers (``choose_plain`` weighs in integers), so that ``choose_plain`` makes it?"""
    return (
        (decision == L.D_DRAFT or decision == L.D_PLAY)
        and w[W_HARM] == 0.0
        and w[W_SYNERGY] == 0.0
        and w[W_DENY] == 0.0
        and _whole(w[W_GAIN])
        and _whole(w[W_EFFECT])
    )


@hot
def _whole(x):
    """Is ``x`` a whole number of at most ``MAX_PLAIN_WEIGHT`` in absolute value?"""
    return abs(x) <= MAX_PLAIN_WEIGHT and x == np.floor(x)


@hot_outline
def choose_plain(w_gain, w_effect, kt, st, cand, n, own, ownf, held, face_down, n_players, p):
    """``choose`` for a draft or play decision whose weights read only gain and effect and
    are whole numbers (``plain``; ``greedy``): the same values (as integers, exactly what
    ``choose`` computes in float64) and the same first best, in a function a fraction of the
    general one's size (it is most of a greedy game's time). With ``w_effect >= 0`` a
    candidate whose gain plus its effect's upper bound (``K_EFF_BOUND``: 0 for most, a
    Close's least possible loss) cannot beat the best so far is not looked ahead: it could
    not be the first best."""
    down = L.DCNT + p * L.MC
    strict = kt[ix(L.K_RULES + L.R_MAJ_STRICT)] == 1
    bounded = w_effect >= 0  # the effect's upper bound bounds the value
    best = np.iinfo(np.int64).min  # below every value: the first candidate is taken
    bi = 0
    seen = L.ZERO
    for i in range(n):
        c = st[ix(cand + i)]
        if (seen & bit(c)) != L.ZERO:
            continue
        seen |= bit(c)
        gain = 0
        eff = 0
        if w_gain != 0 or kt[ix(L.K_EFFECT + c)] == L.E_CLOSE:  # a Close reads the gain
            gain = card_gain(kt, st, c, own, ownf, held, n_players, p, strict)
        if bounded and w_gain * gain + w_effect * kt[ix(L.K_EFF_BOUND + c)] <= best:
            continue  # cannot beat the best so far (nor be the first best on a tie)
        if w_effect != 0:
            eff = own_effect(
                kt, st, c, own, ownf, held, down, face_down, n_players, p, strict, gain
            )
        v = w_gain * gain + w_effect * eff
        if v > best:  # written so that it compiles to a select, not a mispredicted branch
            bi = i
        best = max(best, v)
    return bi
