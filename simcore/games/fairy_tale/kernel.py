"""Fairy Tale rules, compiled: one game per call of ``play_game``, many games per
``simulate_chunk`` (``prange`` over blocks of games, scratch allocated once per block).

The phase structure follows the reference (§3-§5) and ``reference.py`` line by line:
setup -> 4 x (draft, 3 play steps [reveal, Hunt, Open, Close], discard) -> final scoring.
All state is fixed-shape integer arrays (``GameState``); -1 marks an empty slot.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange

from simcore.jit import alloc, hot, hot_outline, parallel
from simcore.rng import rng_below, rng_shuffle, rng_start

from .policies import D_CLOSE, D_DRAFT, D_OPEN, D_PLAY, choose
from .scoring import V_COUNT, V_FIXED, V_MAJORITY, V_WILD, copy_value, delta_add, matches
from .tables import (
    C_EFF_COUNT,
    C_EFF_FACTION,
    C_EFFECT,
    C_FACTION,
    C_POINTS,
    C_SCOPE,
    C_VALUE,
    DEAL,
    FACTIONS,
    MAX_CLOSES,
    MAX_PLAYERS,
    PICKS,
    PLAYS,
    R_BEGINNER,
    R_EFFECTS,
    R_HUNT,
    R_MAJ_STRICT,
    ROUNDS,
    TABLEAU,
    Effect,
    Scope,
)

NF = len(FACTIONS)
E_HUNT = int(Effect.HUNT)
E_OPEN = int(Effect.OPEN)
E_CLOSE = int(Effect.CLOSE)
S_YOU = int(Scope.YOU)
S_OTHERS = int(Scope.OTHERS)

# Score breakdown columns (seats table): which value kinds feed which column.
B_FIXED, B_VARIABLE, B_CONDITIONAL, B_MAJORITY, B_TRICKSTER = range(5)
N_BREAKDOWN = 5


class GameState(NamedTuple):
    """Scratch state of one game (reused game after game within a block)."""

    rng: np.ndarray  # uint64[1]: the game's SplitMix64 state
    deck: np.ndarray  # int32[N]: shuffled card indices; dealt from index `top` up
    hand: np.ndarray  # int32[MAX_PLAYERS, DEAL]: the hand each player is drafting from
    hand_n: np.ndarray  # int32[MAX_PLAYERS]
    spare: np.ndarray  # int32[MAX_PLAYERS, DEAL]: buffer for passing hands
    spare_n: np.ndarray  # int32[MAX_PLAYERS]
    kept: np.ndarray  # int32[MAX_PLAYERS, DEAL]: cards kept this round (card index)
    kept_pick: np.ndarray  # int32[MAX_PLAYERS, DEAL]: pick number of each kept card
    kept_n: np.ndarray  # int32[MAX_PLAYERS]
    tab: np.ndarray  # int32[MAX_PLAYERS, TABLEAU]: tableau cards in the order played
    tab_up: np.ndarray  # int32[MAX_PLAYERS, TABLEAU]: 1 face up, 0 face down
    tab_n: np.ndarray  # int32[MAX_PLAYERS]
    cnt: np.ndarray  # int32[MAX_PLAYERS, T]: face-up copies per card
    fcnt: np.ndarray  # int32[MAX_PLAYERS, NF]: face-up cards per faction
    dcnt: np.ndarray  # int32[MAX_PLAYERS, T]: face-down copies per card
    hyp: np.ndarray  # int32[MAX_PLAYERS, T]: face-up + kept (what a drafter can count on)
    hfc: np.ndarray  # int32[MAX_PLAYERS, NF]
    pick_card: np.ndarray  # int32[MAX_PLAYERS, PICKS]: card received, in order
    pick_round: np.ndarray  # int32[MAX_PLAYERS, PICKS]: round 1..4
    pick_no: np.ndarray  # int32[MAX_PLAYERS, PICKS]: 1..20 (beginner starting card: 0)
    pick_slot: np.ndarray  # int32[MAX_PLAYERS, PICKS]: tableau slot, -1 if discarded
    pick_n: np.ndarray  # int32[MAX_PLAYERS]
    revealed: np.ndarray  # int32[MAX_PLAYERS]: card revealed this step
    rev_slot: np.ndarray  # int32[MAX_PLAYERS]
    hunted: np.ndarray  # int32[MAX_PLAYERS]: 1 if this step's card was hunted
    ce: np.ndarray  # int32[MAX_PLAYERS, MAX_CLOSES]: Close effects (source card) aimed at a player
    ce_n: np.ndarray  # int32[MAX_PLAYERS]
    cand: np.ndarray  # int32[TABLEAU]: candidate cards of a decision
    cand_slot: np.ndarray  # int32[TABLEAU]
    slot_match: np.ndarray  # int32[TABLEAU]: matching of closed slots to effects
    eff_match: np.ndarray  # int32[MAX_CLOSES]
    tmp_slot: np.ndarray  # int32[TABLEAU]
    tmp_eff: np.ndarray  # int32[MAX_CLOSES]
    bfs_prev: np.ndarray  # int32[MAX_CLOSES]
    bfs_queue: np.ndarray  # int32[MAX_CLOSES + 1]
    policy: np.ndarray  # int32[MAX_PLAYERS]: policy of each seat this game
    trick_as: np.ndarray  # int32[MAX_PLAYERS]: identity taken by a face-up Trickster, -1
    points: np.ndarray  # int32[MAX_PLAYERS, TABLEAU]: final points of each tableau card
    score: np.ndarray  # int32[MAX_PLAYERS]
    breakdown: np.ndarray  # int32[MAX_PLAYERS, N_BREAKDOWN]
    tally: np.ndarray  # int32[T]: per-card counter of the checking mode


@alloc  # keeps NRT
def new_state(n_cards, deck_size):
    """Allocate one game's scratch state (once per block, never per game)."""
    P = MAX_PLAYERS
    z = np.zeros
    return GameState(
        z(1, np.uint64),
        z(deck_size, np.int32),
        z((P, DEAL), np.int32),
        z(P, np.int32),
        z((P, DEAL), np.int32),
        z(P, np.int32),
        z((P, DEAL), np.int32),
        z((P, DEAL), np.int32),
        z(P, np.int32),
        z((P, TABLEAU), np.int32),
        z((P, TABLEAU), np.int32),
        z(P, np.int32),
        z((P, n_cards), np.int32),
        z((P, NF), np.int32),
        z((P, n_cards), np.int32),
        z((P, n_cards), np.int32),
        z((P, NF), np.int32),
        z((P, PICKS), np.int32),
        z((P, PICKS), np.int32),
        z((P, PICKS), np.int32),
        z((P, PICKS), np.int32),
        z(P, np.int32),
        z(P, np.int32),
        z(P, np.int32),
        z(P, np.int32),
        z((P, MAX_CLOSES), np.int32),
        z(P, np.int32),
        z(TABLEAU, np.int32),
        z(TABLEAU, np.int32),
        z(TABLEAU, np.int32),
        z(MAX_CLOSES, np.int32),
        z(TABLEAU, np.int32),
        z(MAX_CLOSES, np.int32),
        z(MAX_CLOSES, np.int32),
        z(MAX_CLOSES + 1, np.int32),
        z(P, np.int32),
        z(P, np.int32),
        z((P, TABLEAU), np.int32),
        z(P, np.int32),
        z((P, N_BREAKDOWN), np.int32),
        z(n_cards, np.int32),
    )


# --- small state transitions -----------------------------------------------------------


@hot
def _receive(s, p, c, rnd, pick_no):
    """Player ``p`` receives card ``c`` (drafted, or the beginner starting card)."""
    k = s.pick_n[p]
    s.pick_card[p, k] = c
    s.pick_round[p, k] = rnd + 1
    s.pick_no[p, k] = pick_no
    s.pick_slot[p, k] = -1
    s.pick_n[p] = k + 1
    return k


@hot
def _to_tableau(ct, s, p, c, pick):
    """Put ``c`` face up at the end of ``p``'s tableau; returns its slot."""
    slot = s.tab_n[p]
    s.tab[p, slot] = c
    s.tab_up[p, slot] = 1
    s.tab_n[p] = slot + 1
    s.pick_slot[p, pick] = slot
    s.cnt[p, c] += 1
    s.fcnt[p, ct[c, C_FACTION]] += 1
    return slot


@hot
def _close(ct, s, p, slot):
    c = s.tab[p, slot]
    f = ct[c, C_FACTION]
    s.tab_up[p, slot] = 0
    s.cnt[p, c] -= 1
    s.fcnt[p, f] -= 1
    s.dcnt[p, c] += 1
    s.hyp[p, c] -= 1
    s.hfc[p, f] -= 1


@hot
def _open(ct, s, p, slot):
    c = s.tab[p, slot]
    f = ct[c, C_FACTION]
    s.tab_up[p, slot] = 1
    s.cnt[p, c] += 1
    s.fcnt[p, f] += 1
    s.dcnt[p, c] -= 1
    s.hyp[p, c] += 1
    s.hfc[p, f] += 1


@hot
def _decide(tb, weights, s, decision, n, n_players, p, use_hyp, neighbour):
    """Index chosen among ``s.cand[:n]``; a forced choice (n == 1) asks no policy."""
    if n == 1:
        return 0
    ct, deps, _, _, in_deck, rules, sel = tb
    own = s.hyp[p] if use_hyp else s.cnt[p]
    own_fc = s.hfc[p] if use_hyp else s.fcnt[p]
    return choose(
        s.policy[p],
        weights,
        s.rng,
        decision,
        s.cand,
        n,
        ct,
        deps,
        sel,
        in_deck,
        rules,
        own,
        own_fc,
        s.dcnt[p],
        s.cnt,
        s.fcnt,
        n_players,
        p,
        neighbour,
    )


# --- setup and draft ---------------------------------------------------------------------


@hot
def _beginner_start(ct, s, n_players, deck_size, top):
    """Beginner rules: each player gets one face-up card without Open/Close. A card with one
    goes back to a random place in the undealt deck and the player draws again."""
    for p in range(n_players):
        while ct[s.deck[top], C_EFFECT] == E_OPEN or ct[s.deck[top], C_EFFECT] == E_CLOSE:
            j = top + 1 + rng_below(s.rng, deck_size - top - 1)
            tmp = s.deck[top]
            s.deck[top] = s.deck[j]
            s.deck[j] = tmp
        c = s.deck[top]
        top += 1
        k = _receive(s, p, c, 0, 0)
        _to_tableau(ct, s, p, c, k)
        s.hyp[p, c] += 1
        s.hfc[p, ct[c, C_FACTION]] += 1
    return top


@hot
def _draft(tb, weights, s, n_players, rnd, hand_size, top, pick_offset):
    """Deal ``hand_size`` cards each; pick one at a time, passing left (seat+1) in rounds
    1 and 3 and right (seat-1) in rounds 2 and 4, until every card is kept. Picks are
    numbered 1..20 (``pick_offset`` = 1 when a beginner starting card came first)."""
    ct = tb[0]
    for p in range(n_players):
        for k in range(hand_size):
            s.hand[p, k] = s.deck[top]
            top += 1
        s.hand_n[p] = hand_size
        s.kept_n[p] = 0
    direction = 1 if rnd % 2 == 0 else n_players - 1
    for step in range(hand_size):
        for p in range(n_players):
            n = s.hand_n[p]
            for i in range(n):
                s.cand[i] = s.hand[p, i]
            i = _decide(tb, weights, s, D_DRAFT, n, n_players, p, True, (p + direction) % n_players)
            c = s.hand[p, i]
            for j in range(i, n - 1):
                s.hand[p, j] = s.hand[p, j + 1]
            s.hand_n[p] = n - 1
            pick = _receive(s, p, c, rnd, s.pick_n[p] + 1 - pick_offset)
            s.kept[p, s.kept_n[p]] = c
            s.kept_pick[p, s.kept_n[p]] = pick
            s.kept_n[p] += 1
            s.hyp[p, c] += 1
            s.hfc[p, ct[c, C_FACTION]] += 1
        if step < hand_size - 1:
            for p in range(n_players):
                q = (p + direction) % n_players
                s.spare_n[q] = s.hand_n[p]
                for j in range(s.hand_n[p]):
                    s.spare[q, j] = s.hand[p, j]
            for p in range(n_players):
                s.hand_n[p] = s.spare_n[p]
                for j in range(s.spare_n[p]):
                    s.hand[p, j] = s.spare[p, j]
    return top


# --- play steps --------------------------------------------------------------------------


@hot
def _candidates(ct, s, p, e, face_up):
    """Fill ``s.cand`` / ``s.cand_slot`` with ``p``'s tableau cards that are face up
    (``face_up`` = 1) or face down (0) and that effect card ``e`` can select; return count."""
    n = 0
    for slot in range(s.tab_n[p]):
        if s.tab_up[p, slot] == face_up and matches(ct, s.tab[p, slot], e):
            s.cand[n] = s.tab[p, slot]
            s.cand_slot[n] = slot
            n += 1
    return n


@hot
def _augment(ct, s, p, start, n_eff, slot_match, eff_match):
    """Try to add tableau slot ``start`` to the matching of closed cards to Close effects
    (one BFS for an augmenting path). Updates the matching in place on success."""
    for e in range(n_eff):
        s.bfs_prev[e] = -2  # unvisited
    s.bfs_queue[0] = start
    head = 0
    tail = 1
    while head < tail:
        slot = s.bfs_queue[head]
        head += 1
        c = s.tab[p, slot]
        for e in range(n_eff):
            if s.bfs_prev[e] != -2 or not matches(ct, c, s.ce[p, e]):
                continue
            s.bfs_prev[e] = slot
            if eff_match[e] == -1:
                cur_e = e
                cur_s = slot
                while True:
                    prev_e = slot_match[cur_s]
                    slot_match[cur_s] = cur_e
                    eff_match[cur_e] = cur_s
                    if prev_e == -1:
                        return True
                    cur_e = prev_e
                    cur_s = s.bfs_prev[cur_e]
            s.bfs_queue[tail] = eff_match[e]
            tail += 1
    return False


@hot
def _resolve_closes(tb, weights, s, n_players, p):
    """Player ``p`` closes as many distinct face-up cards as the Close effects aimed at them
    allow (a maximum matching, reference §4.4), choosing the cards one at a time."""
    ct = tb[0]
    n_eff = s.ce_n[p]
    if n_eff == 1:  # the usual case: one effect, close one matching card (no matching needed)
        n = _candidates(ct, s, p, s.ce[p, 0], 1)
        if n > 0:
            i = _decide(tb, weights, s, D_CLOSE, n, n_players, p, False, p)
            _close(ct, s, p, s.cand_slot[i])
        return
    for i in range(TABLEAU):
        s.slot_match[i] = -1
    for e in range(n_eff):
        s.eff_match[e] = -1
    while True:
        n = 0
        for slot in range(s.tab_n[p]):
            if s.tab_up[p, slot] == 0:
                continue
            for i in range(TABLEAU):
                s.tmp_slot[i] = s.slot_match[i]
            for e in range(n_eff):
                s.tmp_eff[e] = s.eff_match[e]
            if _augment(ct, s, p, slot, n_eff, s.tmp_slot, s.tmp_eff):
                s.cand[n] = s.tab[p, slot]
                s.cand_slot[n] = slot
                n += 1
        if n == 0:
            return
        i = _decide(tb, weights, s, D_CLOSE, n, n_players, p, False, p)
        slot = s.cand_slot[i]
        _augment(ct, s, p, slot, n_eff, s.slot_match, s.eff_match)
        _close(ct, s, p, slot)


@hot
def _resolve_step(tb, weights, s, n_players):
    """Effects of one play step, in the order Hunt -> Open -> Close (reference §4)."""
    ct, _, _, _, _, rules, _ = tb
    for p in range(n_players):
        s.hunted[p] = 0
    if rules[R_HUNT] == 1:
        for h in range(n_players):
            e = s.revealed[h]
            if ct[e, C_EFFECT] != E_HUNT:
                continue
            for q in range(n_players):
                if q != h and ct[s.revealed[q], C_FACTION] == ct[e, C_EFF_FACTION]:
                    s.hunted[q] = 1
        for q in range(n_players):
            if s.hunted[q] == 1 and s.tab_up[q, s.rev_slot[q]] == 1:
                _close(ct, s, q, s.rev_slot[q])
    if rules[R_EFFECTS] == 0:
        return
    for p in range(n_players):
        e = s.revealed[p]
        if s.hunted[p] == 1 or ct[e, C_EFFECT] != E_OPEN:
            continue
        for _ in range(ct[e, C_EFF_COUNT]):
            n = _candidates(ct, s, p, e, 0)
            if n == 0:
                break
            i = _decide(tb, weights, s, D_OPEN, n, n_players, p, False, p)
            _open(ct, s, p, s.cand_slot[i])
    for q in range(n_players):
        s.ce_n[q] = 0
    for p in range(n_players):
        e = s.revealed[p]
        if s.hunted[p] == 1 or ct[e, C_EFFECT] != E_CLOSE:
            continue
        for q in range(n_players):
            scope = ct[e, C_SCOPE]
            if (scope == S_YOU and q != p) or (scope == S_OTHERS and q == p):
                continue
            for _ in range(ct[e, C_EFF_COUNT]):
                s.ce[q, s.ce_n[q]] = e
                s.ce_n[q] += 1
    for q in range(n_players):
        if s.ce_n[q] > 0:
            _resolve_closes(tb, weights, s, n_players, q)


@hot
def _play_round(tb, weights, s, n_players, plays, check, top):
    """``plays`` steps: everyone picks a kept card, all reveal, effects apply; then the
    unplayed kept cards are discarded face down. In checking mode, returns the code of the
    first invariant broken after a step (``check_state``), else 0."""
    violation = 0
    ct = tb[0]
    for _ in range(plays):
        for p in range(n_players):
            n = s.kept_n[p]
            for i in range(n):
                s.cand[i] = s.kept[p, i]
            i = _decide(tb, weights, s, D_PLAY, n, n_players, p, False, p)
            s.revealed[p] = s.kept[p, i]
            s.rev_slot[p] = s.kept_pick[p, i]  # pick index for now; slot after the reveal
            for j in range(i, n - 1):
                s.kept[p, j] = s.kept[p, j + 1]
                s.kept_pick[p, j] = s.kept_pick[p, j + 1]
            s.kept_n[p] = n - 1
        for p in range(n_players):
            s.rev_slot[p] = _to_tableau(ct, s, p, s.revealed[p], s.rev_slot[p])
        _resolve_step(tb, weights, s, n_players)
        if check and violation == 0:
            violation = check_state(tb, s, n_players, top)
    for p in range(n_players):
        for i in range(s.kept_n[p]):
            c = s.kept[p, i]
            s.hyp[p, c] -= 1
            s.hfc[p, ct[c, C_FACTION]] -= 1
        s.kept_n[p] = 0
    return violation


# --- checking mode (talesim simulate --check) ----------------------------------------------

#: Invariant codes of ``check_state``; 0 means every invariant holds.
INVARIANTS = (
    "ok",
    "card conservation: the dealt cards are not exactly the cards in hands and received",
    "face-up counts (cnt/fcnt) disagree with the face-up tableau cards",
    "face-down counts (dcnt) disagree with the face-down tableau cards",
    "drafting counts (hyp/hfc) disagree with face-up + kept cards",
    "a tableau slot is not the slot recorded for exactly one received card",
    "a size is out of bounds (hand, kept, tableau, picks or deck position)",
    "final score differs from the sum of its breakdown or of its cards' points",
    "a face-down card scored points",
    "wrong number of tableau cards at the end of the game",
)


@hot
def check_state(tb, s, n_players, top):
    """Code of the first broken invariant of state ``s`` during play (0: all hold). Cheap
    enough to run after every play step in checking mode."""
    ct = tb[0]
    n_cards = ct.shape[0]
    deck_size = s.deck.shape[0]
    if top < 0 or top > deck_size:
        return 6
    for p in range(n_players):
        if not (0 <= s.hand_n[p] <= DEAL and 0 <= s.kept_n[p] <= DEAL):
            return 6
        if not (0 <= s.tab_n[p] <= TABLEAU and 0 <= s.pick_n[p] <= PICKS):
            return 6
    # 1: every dealt card is in a hand or was received (and nothing else was)
    for c in range(n_cards):
        s.tally[c] = 0
    for i in range(top):
        s.tally[s.deck[i]] += 1
    for p in range(n_players):
        for i in range(s.hand_n[p]):
            s.tally[s.hand[p, i]] -= 1
        for k in range(s.pick_n[p]):
            s.tally[s.pick_card[p, k]] -= 1
    for c in range(n_cards):
        if s.tally[c] != 0:
            return 1
    for p in range(n_players):
        # 2, 3: the count arrays are exactly the tableau's face-up / face-down cards
        for c in range(n_cards):
            s.tally[c] = 0
        for f in range(NF):
            up_f = 0
            for slot in range(s.tab_n[p]):
                if s.tab_up[p, slot] == 1 and ct[s.tab[p, slot], C_FACTION] == f:
                    up_f += 1
            if s.fcnt[p, f] != up_f:
                return 2
        for slot in range(s.tab_n[p]):
            if s.tab_up[p, slot] == 1:
                s.tally[s.tab[p, slot]] += 1
        for c in range(n_cards):
            if s.cnt[p, c] != s.tally[c] or s.cnt[p, c] < 0:
                return 2
        for c in range(n_cards):
            s.tally[c] = 0
        for slot in range(s.tab_n[p]):
            if s.tab_up[p, slot] == 0:
                s.tally[s.tab[p, slot]] += 1
        for c in range(n_cards):
            if s.dcnt[p, c] != s.tally[c]:
                return 3
        # 4: what a drafter counts on = face up + kept
        for c in range(n_cards):
            s.tally[c] = s.cnt[p, c]
        for i in range(s.kept_n[p]):
            s.tally[s.kept[p, i]] += 1
        for c in range(n_cards):
            if s.hyp[p, c] != s.tally[c]:
                return 4
        for f in range(NF):
            kept_f = 0
            for i in range(s.kept_n[p]):
                if ct[s.kept[p, i], C_FACTION] == f:
                    kept_f += 1
            if s.hfc[p, f] != s.fcnt[p, f] + kept_f:
                return 4
        # 5: tableau slots and received cards correspond one to one
        for slot in range(s.tab_n[p]):
            owners = 0
            for k in range(s.pick_n[p]):
                if s.pick_slot[p, k] == slot:
                    owners += 1
                    if s.pick_card[p, k] != s.tab[p, slot]:
                        return 5
            if owners != 1:
                return 5
        for k in range(s.pick_n[p]):
            if s.pick_slot[p, k] >= s.tab_n[p]:
                return 5
    return 0


@hot
def check_final(s, n_players):
    """Code of the first broken end-of-game invariant (0: all hold). Runs after final
    scoring, when a face-up Trickster already counts as the card it copies."""
    for p in range(n_players):
        total = 0
        by_card = 0
        for b in range(N_BREAKDOWN):
            total += s.breakdown[p, b]
        for slot in range(s.tab_n[p]):
            by_card += s.points[p, slot]
            if s.tab_up[p, slot] == 0 and s.points[p, slot] != 0:
                return 8
        if total != s.score[p] or by_card != s.score[p]:
            return 7
        if s.tab_n[p] != TABLEAU:
            return 9
    return 0


# --- final scoring -----------------------------------------------------------------------


@hot
def _choose_trickster(tb, s, n_players, p, wild):
    """A face-up Trickster becomes the copy of one other card that maximises its owner's
    score (ties: the lowest card id); it then counts as that card everywhere."""
    ct, deps, _, id_order, in_deck, rules, _ = tb
    strict = rules[R_MAJ_STRICT] == 1
    k = s.cnt[p, wild]
    fw = ct[wild, C_FACTION]
    s.cnt[p, wild] = 0
    s.fcnt[p, fw] -= k
    # The owner's score with the k wild copies as u is (score without them) + the gain of
    # adding k copies of u one by one; the first term is the same for every u.
    best = 0
    best_u = -1
    for i in range(id_order.shape[0]):
        u = id_order[i]
        if u == wild or in_deck[u] == 0:
            continue
        fu = ct[u, C_FACTION]
        gain = 0
        for _ in range(k):
            gain += delta_add(ct, deps, u, s.cnt[p], s.fcnt[p], s.cnt, s.fcnt, n_players, p, strict)
            s.cnt[p, u] += 1
            s.fcnt[p, fu] += 1
        s.cnt[p, u] -= k
        s.fcnt[p, fu] -= k
        if best_u < 0 or gain > best:
            best = gain
            best_u = u
    s.cnt[p, best_u] += k
    s.fcnt[p, ct[best_u, C_FACTION]] += k
    return best_u


@hot
def _final_scores(tb, s, n_players):
    """Reference §5: face-down cards score 0; Tricksters take their identity (seat order);
    then every face-up card scores with the final counts."""
    ct, _, _, _, _, rules, _ = tb
    strict = rules[R_MAJ_STRICT] == 1
    for p in range(n_players):
        s.trick_as[p] = -1
        for slot in range(s.tab_n[p]):
            c = s.tab[p, slot]
            if s.tab_up[p, slot] == 1 and ct[c, C_VALUE] == V_WILD and s.trick_as[p] < 0:
                s.trick_as[p] = _choose_trickster(tb, s, n_players, p, c)
    for p in range(n_players):
        s.score[p] = 0
        for b in range(N_BREAKDOWN):
            s.breakdown[p, b] = 0
        for slot in range(s.tab_n[p]):
            s.points[p, slot] = 0
            if s.tab_up[p, slot] == 0:
                continue
            c = s.tab[p, slot]
            kind = ct[c, C_VALUE]
            if kind == V_WILD:
                u = s.trick_as[p]
                v = ct[c, C_POINTS] + copy_value(
                    ct, u, s.cnt[p], s.fcnt[p], s.cnt, s.fcnt, n_players, p, strict
                )
                b = B_TRICKSTER
            else:
                v = copy_value(ct, c, s.cnt[p], s.fcnt[p], s.cnt, s.fcnt, n_players, p, strict)
                if kind == V_FIXED:
                    b = B_FIXED
                elif kind == V_COUNT:
                    b = B_VARIABLE
                elif kind == V_MAJORITY:
                    b = B_MAJORITY
                else:
                    b = B_CONDITIONAL
            s.points[p, slot] = v
            s.breakdown[p, b] += v
            s.score[p] += v


@hot_outline
def play_game(tb, weights, s, n_players, seed, game_id, check):
    """Play one complete game into ``s`` (policies already set in ``s.policy``). With
    ``check``, verify every invariant after each step and at the end; returns the code of
    the first one broken (``INVARIANTS``), else 0."""
    ct, _, deck0, _, _, rules, _ = tb
    rng_start(s.rng, seed, game_id)
    deck_size = deck0.shape[0]
    for i in range(deck_size):
        s.deck[i] = deck0[i]
    rng_shuffle(s.rng, s.deck, deck_size)
    for p in range(MAX_PLAYERS):
        s.hand_n[p] = 0
        s.kept_n[p] = 0
        s.tab_n[p] = 0
        s.pick_n[p] = 0
        for t in range(ct.shape[0]):
            s.cnt[p, t] = 0
            s.dcnt[p, t] = 0
            s.hyp[p, t] = 0
        for f in range(NF):
            s.fcnt[p, f] = 0
            s.hfc[p, f] = 0
    top = 0
    violation = 0
    beginner = rules[R_BEGINNER] == 1
    if beginner:
        top = _beginner_start(ct, s, n_players, deck_size, top)
    for rnd in range(ROUNDS):
        first = beginner and rnd == 0
        top = _draft(
            tb, weights, s, n_players, rnd, DEAL - 1 if first else DEAL, top, 1 if beginner else 0
        )
        if check and violation == 0:
            violation = check_state(tb, s, n_players, top)
        v = _play_round(tb, weights, s, n_players, PLAYS - 1 if first else PLAYS, check, top)
        if violation == 0:
            violation = v
    _final_scores(tb, s, n_players)
    if check and violation == 0:
        violation = check_final(s, n_players)
    return violation


# --- many games --------------------------------------------------------------------------


class ChunkOut(NamedTuple):
    """Result buffers of a chunk, indexed by game offset ``i`` (then seat, then pick)."""

    score: np.ndarray  # int16[n, P]
    breakdown: np.ndarray  # int16[n, P, N_BREAKDOWN]
    face_down: np.ndarray  # int8[n, P]: face-down tableau cards at the end
    policy: np.ndarray  # int8[n, P]: policy id of each seat
    trick: np.ndarray  # int16[n]: identity taken by a face-up Trickster, -1
    card: np.ndarray  # int16[n, P, PICKS]: cards received, in order
    round: np.ndarray  # int8[n, P, PICKS]
    pick: np.ndarray  # int8[n, P, PICKS]
    played: np.ndarray  # bool[n, P, PICKS]
    face_up: np.ndarray  # bool[n, P, PICKS]: played and face up at the end
    points: np.ndarray  # int16[n, P, PICKS]: final points (0 unless face up)
    violation: np.ndarray  # int8[n]: checking mode: first broken invariant (INVARIANTS), 0


def new_chunk_out(n_games: int, n_players: int) -> ChunkOut:
    """Allocate the result buffers of a chunk (in Python, before the kernel runs)."""
    n, P = n_games, n_players
    return ChunkOut(
        np.zeros((n, P), np.int16),
        np.zeros((n, P, N_BREAKDOWN), np.int16),
        np.zeros((n, P), np.int8),
        np.zeros((n, P), np.int8),
        np.zeros(n, np.int16),
        np.zeros((n, P, PICKS), np.int16),
        np.zeros((n, P, PICKS), np.int8),
        np.zeros((n, P, PICKS), np.int8),
        np.zeros((n, P, PICKS), np.bool_),
        np.zeros((n, P, PICKS), np.bool_),
        np.zeros((n, P, PICKS), np.int16),
        np.zeros(n, np.int8),
    )


@alloc  # the block scratch
def _run_block(tb, weights, seat_policy, rotate, n_players, seed, first_game, lo, hi, out, check):
    """Play game offsets ``lo .. hi-1`` of a chunk with one scratch state."""
    s = new_state(tb[0].shape[0], tb[2].shape[0])
    for i in range(lo, hi):
        g = first_game + i
        for p in range(n_players):
            s.policy[p] = seat_policy[(p + g) % n_players] if rotate else seat_policy[p]
        out.violation[i] = play_game(tb, weights, s, n_players, seed, g, check)
        out.trick[i] = -1
        for p in range(n_players):
            out.score[i, p] = s.score[p]
            out.policy[i, p] = s.policy[p]
            for b in range(N_BREAKDOWN):
                out.breakdown[i, p, b] = s.breakdown[p, b]
            down = 0
            for slot in range(s.tab_n[p]):
                down += 1 - s.tab_up[p, slot]
            out.face_down[i, p] = down
            if s.trick_as[p] >= 0:
                out.trick[i] = s.trick_as[p]
            for k in range(PICKS):
                slot = s.pick_slot[p, k]
                out.card[i, p, k] = s.pick_card[p, k]
                out.round[i, p, k] = s.pick_round[p, k]
                out.pick[i, p, k] = s.pick_no[p, k]
                out.played[i, p, k] = slot >= 0
                out.face_up[i, p, k] = slot >= 0 and s.tab_up[p, slot] == 1
                out.points[i, p, k] = s.points[p, slot] if slot >= 0 else 0


@parallel
def simulate_chunk(
    tb, weights, seat_policy, rotate, n_players, seed, first_game, n_games, n_blocks, out, check
):
    """Play games ``first_game .. first_game + n_games - 1`` into ``out`` (a ``ChunkOut``).
    Blocks of games run in parallel; each block allocates its scratch once. Seat s of
    game g plays ``seat_policy[(s + g) % n]`` if ``rotate``. ``check``: checking mode
    (``out.violation``)."""
    for b in prange(n_blocks):
        lo = b * n_games // n_blocks
        hi = (b + 1) * n_games // n_blocks
        _run_block(
            tb, weights, seat_policy, rotate, n_players, seed, first_game, lo, hi, out, check
        )
