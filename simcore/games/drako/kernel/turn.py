"""§4 one turn (``docs/rules/drako.md``), compiled: the source, Legend claims before and after
the action, the action, the reshuffle (``take_turn``), and the moves they are made of."""

from __future__ import annotations

from talesim.simcore.jit import hot
from talesim.simcore.rng import rng_shuffle

from .. import layout as L  # noqa: N812 (the schema, read as L.NAME)
from ..incremental import claims_after_slots

# Passed as a call argument, so imported by name (numba types an imported name as a literal,
# ``L.NAME`` as an ``int64``: see ``layout.py``).
from ..layout import SRC_DISCARD, ix
from ..policies import (
    after_action,
    choose_action,
    choose_source,
    claim_after,
    claim_before,
    claimable,
    face_down,
    legal_actions,
)
from .setup import _pop_deck
from .state import seat_view

# --- §4 one turn ---------------------------------------------------------------------------


@hot
def _claim(tb, s, p, slot):
    """Player ``p`` takes the Legend of river ``slot``; the slot is refilled while the
    legend deck lasts. Every seat's kept Legend caches miss that slot (``s.dirty``); the
    loaded ones (``p``'s, ``s`` being its ``seat_view``) follow it at once
    (``incremental.claims_after_slots``)."""
    k = s.claim_n[ix(p)]
    s.claim_g[ix(p), ix(k)] = s.river[ix(slot)]
    s.claim_t[ix(p), ix(k)] = s.meta[L.M_TURN]
    s.claim_n[ix(p)] = k + 1
    s.meta[L.M_CLAIMS_LEFT] -= 1
    for q in range(s.dirty.shape[0]):
        s.dirty[ix(q)] |= 1 << slot
    s.meta[L.M_MEMO_OK] = 0
    n = s.meta[L.M_LD_N]
    if n > 0:
        s.river[ix(slot)] = s.ldeck[n - 1]
        s.meta[L.M_LD_N] = n - 1
    else:
        s.river[ix(slot)] = -1
    if s.meta[L.M_CLAIMS_OK] != 0 and s.meta[L.M_LOADED] == p:
        claims_after_slots(tb, s, s.dirty[ix(p)])
        s.dirty[ix(p)] = 0
        s.meta[L.M_MET_OK] = 1
    else:
        s.meta[L.M_CLAIMS_OK] = 0
        s.meta[L.M_MET_OK] = 0


@hot
def _apply(s, p, card, cell, reveal):
    """Carry out an action with ``card`` in hand (reference ``DrakoGame.apply``)."""
    n = s.meta[L.M_DISC_N]
    s.seen[ix(card)] += 1  # face up: on the discard pile, or placed
    if reveal:
        s.discard[ix(n)] = card
        s.up[ix(p), ix(cell)] = 1
        s.seen[ix(s.grid[ix(p), ix(cell)])] += 1
    else:
        if s.up[ix(p), ix(cell)] == 0:  # a face-up card stays seen on the discard pile
            s.seen[ix(s.grid[ix(p), ix(cell)])] += 1
        s.discard[ix(n)] = s.grid[ix(p), ix(cell)]  # the replaced card: face up on the discard
        s.grid[ix(p), ix(cell)] = card
        s.up[ix(p), ix(cell)] = 1
        s.replaced[ix(p), ix(cell)] = 1
        s.placed[ix(p), ix(cell)] = s.meta[L.M_TURN]
    s.meta[L.M_DISC_N] = n + 1


@hot
def _log_draw(s, p, source, card, cell, reveal):
    """Seat ``p``'s draw decision of this turn into the draw log (``layout.DW_*``), before
    ``_apply`` changes the cell: record ``M_TURN - 1`` (the turn loop stops at the cap, so
    it is below ``cap x players <= MAX_TURNS``)."""
    s.draws[ix(s.meta[L.M_TURN] - 1)] = (
        (source << L.DW_SOURCE)
        | ((1 - reveal) << L.DW_PLACED)
        | (card << L.DW_CARD)
        | (cell << L.DW_CELL)
        | (s.grid[ix(p), ix(cell)] << L.DW_COVERED)
        | ((1 - s.up[ix(p), ix(cell)]) << L.DW_FACE_DOWN)
    )


@hot
def _reshuffle(s, keep_top):
    """§4.4: the discard pile but its top card becomes the draw pile, shuffled once."""
    keep = 1 if keep_top else 0
    n = s.meta[L.M_DISC_N]
    if n <= keep:
        return
    m = n - keep
    for i in range(m):
        s.deck[ix(i)] = s.discard[ix(i)]
        s.seen[ix(s.discard[ix(i)])] -= 1
    for i in range(keep):
        s.discard[ix(i)] = s.discard[m + i]
    s.meta[L.M_DECK_N] = m
    s.meta[L.M_DISC_N] = keep
    rng_shuffle(s.rng, s.deck, m)


@hot
def _source_options(tb, s, p):
    """How many options an mc seat's source decision has: each placement of the top
    discard (``s.act_*`` filled), and drawing when the deck has cards."""
    n = 0
    if s.meta[L.M_DISC_N] > 0:
        n = legal_actions(tb, s, p, SRC_DISCARD, s.discard[s.meta[L.M_DISC_N] - 1])
    return n + (1 if s.meta[L.M_DECK_N] > 0 else 0)


@hot
def _asked(s, p):
    """Is seat ``p`` asked its decisions (the game stops at them): an ``mc`` seat (a
    search) or a ``learned`` one (a model)?"""
    policy = s.policy[ix(p)]
    return policy == L.P_MC or policy == L.P_LEARNED


@hot
def _decided(s, p):
    """The option of seat ``p``'s decision made already, consumed: a search's choice or a
    playout's first candidate (``M_FORCE_*``), a learned seat's answer (``M_ANSWER_*``);
    -1: none."""
    if s.meta[L.M_FORCE_SEAT] == p:
        s.meta[L.M_FORCE_SEAT] = -1
        return s.meta[L.M_FORCE_IDX]
    if s.meta[L.M_ANSWER_SEAT] == p:
        s.meta[L.M_ANSWER_SEAT] = -1
        return s.meta[L.M_ANSWER_IDX]
    return -1


@hot
def take_turn(tb, weights, s, p, search):
    """Seat ``p``'s turn from where it is (``meta[M_STEP]``; reference
    ``DrakoGame.take_turn``): source, claim before?, action, claims after (not after the
    final reveal), reshuffle. Returns 1 when this action revealed ``p``'s last face-down
    card (the game ends), 0 when the game goes on, -1 when an asked seat's decision
    (``_asked``: mc, learned) stopped the turn (``M_STEP`` says which: the search answers
    at ``M_FORCE_*``, the model at ``M_ANSWER_*``, then the turn goes on from there). The
    stops, the answers and the resumed positions happen only in a game that can search
    (``search``, a compile-time constant, ``_play_on``'s): without it the turn starts at
    ``STEP_TURN`` and asks every decision of the seat's heuristic.

    Inlined into ``_play_on``, its one caller: an outlined call marshals every array of
    the state and the tables (~430 words) each turn (measured +4% games per CPU-second)."""
    rules = tb.rules
    s = seat_view(s, p)  # p's kingdom caches
    step = s.meta[L.M_STEP] if search else L.STEP_TURN
    if step == L.STEP_TURN:
        s.meta[L.M_TURN] += 1
        s.turns[ix(p)] += 1
        s.meta[L.M_CLAIMS_LEFT] = rules[L.R_LEGENDS_PER_TURN]
    p_cell = -1
    if step != L.STEP_ACTION:
        i = -1
        if search:
            i = _decided(s, p)
        if i >= 0:  # decided already: option i of ``_source_options``
            source = L.SRC_DECK
            if i < _source_options(tb, s, p) - (1 if s.meta[L.M_DECK_N] > 0 else 0):
                source = L.SRC_DISCARD
                p_cell = s.act_cell[ix(i)]
        elif search and _asked(s, p) and _source_options(tb, s, p) > 1:
            s.meta[L.M_STEP] = L.STEP_SOURCE
            return -1
        else:
            source, planned = choose_source(tb, weights, s, p)  # planned: greedy's action
            if planned >= 0:
                p_cell = s.act_cell[ix(planned)]
        # ``random`` never claims before its action: skip the (side-effect free) Legend check
        if (
            rules[L.R_CLAIM_BEFORE] != 0
            and s.meta[L.M_CLAIMS_LEFT] > 0
            and s.policy[ix(p)] != L.P_RANDOM
        ):
            n_slots = claimable(tb, s, p)
            slot = claim_before(tb, s, p, n_slots, source, p_cell)
            if slot >= 0:
                _claim(tb, s, p, slot)
        if source == L.SRC_DISCARD:
            s.meta[L.M_DISC_N] -= 1
            card = s.discard[s.meta[L.M_DISC_N]]
            s.seen[ix(card)] -= 1  # in hand: unseen by the others until placed (``_apply``)
        else:
            card = _pop_deck(s)
        s.meta[L.M_HAND] = card
        s.meta[L.M_SRC] = source
    else:
        card = s.meta[L.M_HAND]
        source = s.meta[L.M_SRC]
    if p_cell < 0:
        n_act = legal_actions(tb, s, p, source, card)
        a = -1
        if search and n_act > 1:
            a = _decided(s, p)
            if a < 0 and _asked(s, p):
                s.meta[L.M_STEP] = L.STEP_ACTION
                return -1
        if a < 0:
            a = choose_action(tb, weights, s, p, card, n_act)
        cell = s.act_cell[ix(a)]
        reveal = s.act_rev[ix(a)]
    else:
        cell = p_cell
        reveal = 0
    s.meta[L.M_STEP] = L.STEP_TURN
    s.meta[L.M_CELL] = cell
    before = s.grid[ix(p), ix(cell)] if s.up[ix(p), ix(cell)] != 0 else -1
    _log_draw(s, p, source, card, cell, reveal)
    _apply(s, p, card, cell, reveal)
    after_action(tb, s, p, cell, before)  # p's kingdom changed: its caches follow
    final = face_down(s, p) == 0
    if not final or rules[L.R_CLAIM_AFTER_FINAL] != 0:
        while s.meta[L.M_CLAIMS_LEFT] > 0:
            n_slots = claimable(tb, s, p)
            if n_slots == 0:
                break
            _claim(tb, s, p, claim_after(tb, s, p, n_slots))
    if s.meta[L.M_DECK_N] == 0:
        _reshuffle(s, rules[L.R_KEEP_TOP] != 0)
    return 1 if final else 0
