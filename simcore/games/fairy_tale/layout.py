"""Flat layouts of the kernel's arrays: card tables ``kt`` (int32, with the uint64 card
masks), game state ``st`` (int32) and ``sm`` (uint64: random stream and card masks).

Why flat: numba passes and keeps every array as a struct of 7-9 words (data pointer, shape,
strides), and indexes a 2-D array with a run-time row stride. With ~40 state arrays and
seven table arrays, the inlined game function kept hundreds of such words live and spilled
them to the stack in every inner loop. Here one array holds all the tables and one holds all
the state of a game, every region at a compile-time offset with a compile-time row stride,
so an access is ``base + constant + index`` and only two data pointers stay live.

Card-indexed rows have ``MC = MAX_CARDS + 1`` entries (``tables.py`` rejects a card file with
more distinct cards), so a row stride is a constant; the last entry, ``NO_CARD``, is a card
nobody ever holds (every count of it stays 0), used as padding where a fixed-length loop is
cheaper than a loop that stops at a -1. Sizes that depend on the data (the
number of distinct cards, the deck) are read from ``kt`` at run time.

``kt`` (built once per chunk by ``build_tables`` from ``tables.Tables``, read-only):

* ``kt[K_<COLUMN> + c]``: column ``C_<COLUMN>`` of card ``c``'s row of ``ct`` (column-major,
  so one column of all cards is contiguous); quest needs: ``kt[K_NEED0 + k * MC + c]``;
* ``kt[K_DEPS + c * MC + k]``: ``deps[c, k]``, -1 padded to ``MC``; the same cards split
  into those that count c (``K_COUNT_DEPS``) and the others (``K_OTHER_DEPS``: quests that
  need c, majority quests of c's faction), each padded with ``NO_CARD`` to ``DEP_W``
  entries (visited without a test) and then with -1;
* ``K_GAIN_*``: the gain of one more face-up copy of c for the kinds with a closed form,
  ``GAIN_A + GAIN_B * own[GAIN_OF] + GAIN_C * own[c]`` (fixed and wild: points; counting
  another card: per x its count; counting itself: per x (2n + 1)); ``K_GAIN_SLOW`` = 1 for
  the kinds scored before and after instead (quests, majorities);
* ``K_EFF_BOUND``: the most card c's own Open/Close can add to its owner's score as the
  policies value it (``policies.own_effect``): 0 without one (or a Close of others only),
  ``EFF_UNBOUNDED`` for an Open, and for a Close ``-count x`` the least loss of closing a
  card it selects, a Trickster valued at its best copy (``effect_bound``). ``choose_plain``
  skips a candidate whose gain plus this bound cannot beat the best so far;
* ``K_ID_ORDER``, ``K_IN_DECK`` (``MC`` each), ``K_RULES`` (``N_RULES``), ``K_N_CARDS``,
  ``K_DECK_SIZE``, the card masks (``K_MASKS``), then the deck (``K_DECK``, ``deck size``
  entries).

Card masks (``kmask(kt, KM_*)``, stored in ``kt`` as int32 pairs, low half first, so one
table array is passed instead of two: 7 words less per outlined call): card sets as 64-bit
masks, bit t = card t: ``KM_SEL + e`` the cards the Open/Close of card e can select
(``sel[e]``), ``KM_COPYABLE`` the cards a Trickster may copy (in the variant's deck, not
wild), ``KM_READERS + v`` the cards u whose ``gain_if_added`` reads the count of v as one of
u's dependents (v in ``deps[u]``), ``KM_SLOW`` the cards with ``K_GAIN_SLOW`` = 1.

``st`` (one per parallel block, reused game after game; ``state_size(deck)`` entries):
the regions below, each ``[rows x width]`` row-major; per-player rows are indexed by seat.
-1 marks an empty slot. The first ``STATE_FIXED + deck`` entries are the whole game: a
copy of them (and of ``sm``) plays on from where the game is (``POS_*``).

``sm`` (one per block, ``SM_SIZE`` entries): ``sm[SM_RNG]`` is the game's random stream
(``sm`` is the ``state`` array of ``simcore.rng``); ``sm[SM_CNT + p]`` / ``SM_DCNT`` /
``SM_HYP`` have bit t set exactly when ``st[CNT/DCNT/HYP + p * MC + t] > 0`` (the kernel
keeps them in step with every count change; checking mode verifies it). The policies'
look-ahead changes counts without touching the masks, so it reads a mask as a superset and
tests the count of every card it visits.

This module is the kernels' one schema: the compiled files (``kernel/``, ``scoring.py``,
``policies.py``, ``mc.py``) read every constant as an attribute of it (``from . import
layout as L``, ``L.K_FACTION``): the offsets above, the bounds of ``tables.py``, and the
integer codes (card value kinds ``V_*``, effects ``E_*``, scopes ``S_*``, rule switches
``R_*``, decisions ``D_*``, policies ``P_*``, seat modes ``M_*``, game phases ``PH_*``,
score breakdown columns ``B_*``). numba freezes a module attribute as a compile-time
constant just as it does an imported name (the same machine code in an expression), but
types it as a plain ``int64``, an imported name as a literal: a constant passed as a call
argument selects the callee's specialisation, so the few passed that way
(``kernel._decide(..., D_DRAFT, ...)``) are imported by name where they are passed.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any

import numpy as np
from numba.core import types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from talesim.simcore.jit import (
    alloc,
    hot,
    hot_inline,
    ix,
)

from . import tables
from .tables import (
    C_CATEGORY,
    C_EFF_CATEGORY,
    C_EFF_COUNT,
    C_EFF_EXCLUDE,
    C_EFF_FACTION,
    C_EFFECT,
    C_FACTION,
    C_MAJ_FACTION,
    C_NEED0,
    C_OF,
    C_PER,
    C_POINTS,
    C_SCOPE,
    C_VALUE,
    DEAL,
    FACTIONS,
    MAX_CARDS,
    MAX_CLOSES,
    MAX_PLAYERS,
    N_COLS,
    N_RULES,
    PICKS,
    TABLEAU,
    Effect,
    Scope,
    Value,
)

# The other bounds and the rule switches of ``tables.py`` the kernels read (``L.ROUNDS``).
MAX_NEEDS = tables.MAX_NEEDS
PLAYS = tables.PLAYS
ROUNDS = tables.ROUNDS
R_EFFECTS = tables.R_EFFECTS
R_HUNT = tables.R_HUNT
R_BEGINNER = tables.R_BEGINNER
R_MAJ_STRICT = tables.R_MAJ_STRICT


class Policy(IntEnum):
    """The players (``policies.py``; ``mc``: ``kernel._search``)."""

    RANDOM = 0
    GREEDY = 1
    COLLECTOR = 2
    MC = 3  # determinized flat Monte-Carlo search (kernel.py, reference/); no weights
    LEARNED = 4  # a model's scores of greedy's best candidates (learned.py); no weights


class Decision(IntEnum):
    DRAFT = 0  # keep one card of the hand being drafted
    PLAY = 1  # reveal one kept card
    OPEN = 2  # which own face-down card to turn face up
    CLOSE = 3  # which own face-up card to turn face down


# --- integer codes (enums for people, ints for kernels, same values) ------------------------
V_FIXED = int(Value.FIXED)
V_COUNT = int(Value.COUNT)
V_QUEST_CARDS = int(Value.QUEST_CARDS)
V_QUEST_MAJORITY = int(Value.QUEST_MAJORITY)
V_MAJORITY = int(Value.MAJORITY)
V_WILD = int(Value.WILD)
E_HUNT = int(Effect.HUNT)
E_OPEN = int(Effect.OPEN)
E_CLOSE = int(Effect.CLOSE)
S_YOU = int(Scope.YOU)
S_OTHERS = int(Scope.OTHERS)
D_DRAFT = int(Decision.DRAFT)
D_PLAY = int(Decision.PLAY)
D_OPEN = int(Decision.OPEN)
D_CLOSE = int(Decision.CLOSE)
P_RANDOM = int(Policy.RANDOM)
P_GREEDY = int(Policy.GREEDY)
P_MC = int(Policy.MC)
P_LEARNED = int(Policy.LEARNED)
# How a seat decides (``SEAT_MODE``, set once a game by ``kernel._seat_modes``).
M_RANDOM, M_PLAIN, M_OTHER, M_SEARCH = range(4)
# Where a game is (``POS_PHASE``): what ``kernel._play_on`` does next.
PH_DEAL, PH_DRAFT, PH_PLAY, PH_OPEN, PH_CLOSE, PH_END = range(6)

MC = MAX_CARDS + 1  # row stride of every card-indexed row
NO_CARD = MC - 1  # a card index nobody holds: padding with zero counts (and per 0)
DEP_W = 2  # dependents visited unconditionally (enough for the default deck; more: a loop)
NF = len(FACTIONS)
P = MAX_PLAYERS
N_BREAKDOWN = 5  # score breakdown columns of the seats table, by the value kinds they sum
B_FIXED, B_VARIABLE, B_CONDITIONAL, B_MAJORITY, B_TRICKSTER = range(N_BREAKDOWN)
#: ``K_EFF_BOUND`` of an effect whose value has no bound here (an Open; a Close when some
#: card's loss could be negative other than by its own points): never below a best value.
EFF_UNBOUNDED = 1 << 20

# --- card masks (bit t = card t), at kt[K_MASKS + 2 * KM_*] --------------------------
KM_SEL = 0  # [MC] cards the Open/Close of card e can select
KM_COPYABLE = KM_SEL + MC  # cards a Trickster can copy: in the deck and not wild
KM_READERS = KM_COPYABLE + 1  # [MC] cards u with v in deps[u] (their gain reads v's count)
KM_SLOW = KM_READERS + MC  # cards whose gain has no closed form (K_GAIN_SLOW = 1)
KM_SIZE = KM_SLOW + 1

# --- kt: card tables ------------------------------------------------------------------------
K_FACTION = C_FACTION * MC
K_CATEGORY = C_CATEGORY * MC
K_VALUE = C_VALUE * MC
K_POINTS = C_POINTS * MC
K_OF = C_OF * MC
K_PER = C_PER * MC
K_MAJ_FACTION = C_MAJ_FACTION * MC
K_EFFECT = C_EFFECT * MC
K_SCOPE = C_SCOPE * MC
K_EFF_FACTION = C_EFF_FACTION * MC
K_EFF_EXCLUDE = C_EFF_EXCLUDE * MC
K_EFF_CATEGORY = C_EFF_CATEGORY * MC
K_EFF_COUNT = C_EFF_COUNT * MC
K_NEED0 = C_NEED0 * MC  # need k of card c: kt[K_NEED0 + k * MC + c]
K_DEPS = N_COLS * MC  # [MC cards x MC]
K_COUNT_DEPS = K_DEPS + MC * MC  # [MC cards x MC]
K_OTHER_DEPS = K_COUNT_DEPS + MC * MC  # [MC cards x MC]
K_GAIN_A = K_OTHER_DEPS + MC * MC
K_GAIN_B = K_GAIN_A + MC
K_GAIN_OF = K_GAIN_B + MC
K_GAIN_C = K_GAIN_OF + MC
K_GAIN_SLOW = K_GAIN_C + MC
K_EFF_BOUND = K_GAIN_SLOW + MC
K_ID_ORDER = K_EFF_BOUND + MC
K_IN_DECK = K_ID_ORDER + MC
K_RULES = K_IN_DECK + MC
K_N_CARDS = K_RULES + N_RULES
K_DECK_SIZE = K_N_CARDS + 1
K_MASKS = (K_DECK_SIZE + 2) & ~1  # [KM_SIZE x 2] the card masks, 8-byte aligned (kmask)
K_DECK = K_MASKS + 2 * KM_SIZE  # the variant's deck, K_DECK_SIZE entries

# --- st: game state (all int32) ---------------------------------------------------------------
HAND = 0  # [P x DEAL] the hands being drafted (row h: the hand dealt to seat h)
HAND_N = HAND + P * DEAL  # [P]
KEPT = HAND_N + P  # [P x DEAL] cards kept this round
KEPT_PICK = KEPT + P * DEAL  # [P x DEAL] pick number (index into PICK_*) of each kept card
KEPT_N = KEPT_PICK + P * DEAL  # [P]
TAB = KEPT_N + P  # [P x TABLEAU] tableau cards in the order played
TAB_UP = TAB + P * TABLEAU  # [P x TABLEAU] 1 face up, 0 face down
TAB_N = TAB_UP + P * TABLEAU  # [P]
CNT = TAB_N + P  # [P x MC] face-up copies per card
DCNT = CNT + P * MC  # [P x MC] face-down copies per card
HYP = DCNT + P * MC  # [P x MC] face-up + kept (what a drafter can count on)
FCNT = HYP + P * MC  # [P x NF] face-up cards per faction
HFC = FCNT + P * NF  # [P x NF] face-up + kept cards per faction
PICK_CARD = HFC + P * NF  # [P x PICKS] card received, in order
PICK_ROUND = PICK_CARD + P * PICKS  # [P x PICKS] round 1..4
PICK_NO = PICK_ROUND + P * PICKS  # [P x PICKS] 1..20 (beginner starting card: 0)
PICK_SLOT = PICK_NO + P * PICKS  # [P x PICKS] tableau slot, -1 if discarded
PICK_N = PICK_SLOT + P * PICKS  # [P]
REVEALED = PICK_N + P  # [P] card revealed this step
REV_SLOT = REVEALED + P  # [P] its tableau slot
HUNTED = REV_SLOT + P  # [P] 1 if this step's card was hunted
CE = HUNTED + P  # [P x MAX_CLOSES] Close effects (source card) aimed at a player
CE_N = CE + P * MAX_CLOSES  # [P]
CAND = CE_N + P  # [TABLEAU] candidate cards of a decision
CAND_SLOT = CAND + TABLEAU  # [TABLEAU] their tableau slots (Open / Close)
SLOT_MATCH = CAND_SLOT + TABLEAU  # [TABLEAU] matching of closed slots to effects
EFF_MATCH = SLOT_MATCH + TABLEAU  # [MAX_CLOSES]
TMP_SLOT = EFF_MATCH + MAX_CLOSES  # [TABLEAU]
TMP_EFF = TMP_SLOT + TABLEAU  # [MAX_CLOSES]
BFS_PREV = TMP_EFF + MAX_CLOSES  # [MAX_CLOSES]
BFS_QUEUE = BFS_PREV + MAX_CLOSES  # [MAX_CLOSES + 1]
POLICY = BFS_QUEUE + MAX_CLOSES + 1  # [P] policy of each seat this game
SEAT_MODE = POLICY + P  # [P] how the seat decides this game (M_*: random, plain, other, mc)
SEAT_W = SEAT_MODE + P  # [P x 2] a plain seat's whole-number gain and effect weights
TRICK_AS = SEAT_W + P * 2  # [P] identity taken by a face-up Trickster, -1
POINTS = TRICK_AS + P  # [P x TABLEAU] final points of each tableau card
SCORE = POINTS + P * TABLEAU  # [P]
BREAKDOWN = SCORE + P  # [P x N_BREAKDOWN]
TALLY = BREAKDOWN + P * N_BREAKDOWN  # [MC] per-card counter of the checking mode
# Where the game is (``PH_*``), so that a copy of ``st`` plays on from there:
POS_ROUND = TALLY + MC  # round 0..3 (ROUNDS: the game is over)
POS_PHASE = POS_ROUND + 1  # PH_*: deal, draft, play, open, close, end
POS_STEP = POS_PHASE + 1  # draft step or play step
POS_SEAT = POS_STEP + 1  # the seat deciding next (draft, play) or resolving (open, close)
POS_SUB = POS_SEAT + 1  # open: the seat's Open effects applied; close: 1 = matching begun
POS_SHIFT = POS_SUB + 1  # draft: seat p reads row (p + shift) mod n
POS_TOP = POS_SHIFT + 1  # next undealt card of DECK
POS_VIOL = POS_TOP + 1  # checking mode: the first invariant broken so far (0: none)
FORCE_SEAT = POS_VIOL + 1  # a seat whose next decision is made already (-1: none) ...
FORCE_IDX = FORCE_SEAT + 1  # ... and the candidate it takes
ANSWER_SEAT = FORCE_IDX + 1  # a learned seat whose asked decision is answered (-1: none) ...
ANSWER_IDX = ANSWER_SEAT + 1  # ... and the candidate (apart from FORCE_*: a playout's
# forced first choice may still be pending while the seats before it ask)
ASK_DEC = ANSWER_IDX + 1  # an mc seat's pending decision: policies.Decision, ...
ASK_CAND = ASK_DEC + 1  # ... the offset of its candidates in st, ...
ASK_N = ASK_CAND + 1  # ... their number, ...
ASK_SEAT = ASK_N + 1  # ... the seat, ...
ASK_HYP = ASK_SEAT + 1  # ... 1 if it counts kept cards (draft), ...
ASK_NEIGH = ASK_HYP + 1  # ... and the neighbour the hand goes to
SLOT = ASK_NEIGH + 1  # [P] slot of each seat's policy spec this game (the dataset's policy)
MC_PAR = SLOT + P  # [P x 3] an mc seat's rollouts, top and playout policy
MODEL = MC_PAR + P * 3  # [P] the model row a learned seat (an mc seat's playouts) plays
MC_DN = MODEL + P  # [P] decisions each mc seat has searched this game
MC_PO = MC_DN + P  # [P] playouts each mc seat has run this game
MC_LIST = MC_PO + P  # [TABLEAU] a search's distinct candidate cards, ...
MC_LIDX = MC_LIST + TABLEAU  # [TABLEAU] ... their index among the decision's candidates
MC_RANK = MC_LIDX + TABLEAU  # [TABLEAU] the candidates searched, best first by greedy
MC_SUM = MC_RANK + TABLEAU  # [TABLEAU] their summed playout outcomes
DECK = MC_SUM + TABLEAU  # the shuffled deck, dealt from index `top` up (deck size entries)
STATE_FIXED = DECK  # size of st without the deck

# Determinization scratch (an mc search's copy of st only), after the deck, at these
# offsets from ``DECK + deck size``; the place lists hold up to ``places_cap`` entries.
N_GROUPS = P * DEAL + 1  # group 0: the pool; 1 + h * DEAL + k - 1: row h after look k
D_GRP = 0  # [N_GROUPS x MC] the cards of each group
D_STEP = D_GRP + N_GROUPS * MC  # [P x DEAL] the group of each pick of this round
D_ROW = D_STEP + P * DEAL  # [P] the group of each row's cards
D_POOL = D_ROW + P  # [MC] the pool's cards
D_PLACE = D_POOL + MC  # [places_cap] the hidden places (offsets in st), in order
D_FIXED = D_PLACE  # scratch before the place lists


@hot_inline
def places_cap(deck_size):
    """Hidden places of a determinization at most: other seats' kept cards, hands, deck."""
    return 2 * P * DEAL + deck_size


@hot_inline
def state_size(deck_size):
    """Entries of ``st``: the game, its deck, and the determinization scratch (two place
    lists and a card list)."""
    return STATE_FIXED + deck_size + D_FIXED + 2 * places_cap(deck_size) + deck_size


# --- sm: uint64 game state --------------------------------------------------------------------
SM_RNG = 0  # the game's SplitMix64 state (simcore.rng reads and advances index 0)
SM_CNT = SM_RNG + 1  # [P] cards with CNT > 0
SM_DCNT = SM_CNT + P  # [P] cards with DCNT > 0
SM_HYP = SM_DCNT + P  # [P] cards with HYP > 0
SM_SIZE = SM_HYP + P


ONE = np.uint64(1)
ZERO = np.uint64(0)


@hot_inline
def bit(t):
    """The mask of card ``t`` alone."""
    return ONE << np.uint64(t)


if TYPE_CHECKING:  # how callers see it; numba calls the intrinsic with its typing context

    def data_ptr(arr: np.ndarray) -> Any: ...

else:

    @intrinsic
    def data_ptr(typingctx, arr):
        """The data pointer of a C-contiguous array, typed ``CPointer(dtype)``: indexed like the
        array (``p[ix(i)]``), passed as one word where numba passes an array as seven (meminfo,
        parent, size, itemsize, data, shape, strides). The outlined decision functions take
        their arrays this way (``kernel._decide``)."""
        sig = types.CPointer(arr.dtype)(arr)

        def codegen(context, builder, signature, args):
            return context.make_array(signature.args[0])(context, builder, args[0]).data

        return sig, codegen


@hot_inline
def kmask(kt, i):
    """Card mask ``i`` of ``kt`` (``KM_*``): two int32 entries, low half first (LLVM loads
    them as one uint64)."""
    a = K_MASKS + 2 * i
    lo = np.uint64(np.uint32(kt[ix(a)]))
    hi = np.uint64(np.uint32(kt[ix(a + 1)]))
    return lo | (hi << np.uint64(32))


@hot_inline
def selects(kt, e, t):
    """Can the Open/Close effect of card ``e`` select card ``t``? (``tables.selectable``:
    faction, excluded faction, category)"""
    return (kmask(kt, KM_SEL + e) & bit(t)) != ZERO


@hot_inline
def lowest(m):
    """The lowest card of a non-empty mask ``m`` (visit a mask in ascending card order with
    ``t = lowest(m); m &= m - ONE``)."""
    return np.int64(trailing_zeros(m))  # type: ignore[call-arg]


@hot
def losses_below_zero(ct):
    """Could closing a card lose less than 0 by anything but a fixed or wild card's own
    points? Closing a card loses its own copy's value and what its dependents lose with
    it; with every count ``per``, quest and majority worth >= 0 those are all >= 0 (a
    quest or majority kept with one card less was kept with it)."""
    for u in range(ct.shape[0]):
        kind = ct[u, C_VALUE]
        if kind == V_COUNT and ct[u, C_PER] < 0:
            return True
        if kind != V_COUNT and kind != V_FIXED and kind != V_WILD and ct[u, C_POINTS] < 0:
            return True
    return False


@hot
def copy_gain_floor(ct, in_deck):
    """A lower bound on a Trickster's best copy gain (``policies.best_copy_gain``) while
    ``losses_below_zero`` is false: every card adds at least its own copy's value and takes
    nothing from the others, so a fixed card gains at least its points and any other kind
    at least 0; the best copy gains at least the largest of those (0 with nothing to copy)."""
    floor = 0
    first = True
    for u in range(ct.shape[0]):
        kind = ct[u, C_VALUE]
        if in_deck[u] == 0 or kind == V_WILD:
            continue
        least = ct[u, C_POINTS] if kind == V_FIXED else 0
        if first or least > floor:
            floor = least
            first = False
    return floor


@hot
def effect_bound(ct, sel, c, below_zero, copy_floor):
    """``K_EFF_BOUND`` of card ``c`` (see above; ``below_zero``: ``losses_below_zero``;
    ``copy_floor``: ``copy_gain_floor``). A Close of ``count`` cards loses at least
    ``count x`` the least loss of one card it selects, which is 0, a fixed card's negative
    points, or a wild card's points plus at least ``copy_floor`` (the policies value a
    Trickster at its best copy), whichever is least (fewer cards to close lose no less)."""
    kind = ct[c, C_EFFECT]
    if kind == E_OPEN:
        return EFF_UNBOUNDED
    if kind != E_CLOSE or ct[c, C_SCOPE] == S_OTHERS:
        return 0
    if below_zero:
        return EFF_UNBOUNDED
    floor = 0
    for i in range(sel.shape[1]):
        t = sel[c, i]
        if t >= 0 and ct[t, C_VALUE] == V_FIXED:
            floor = min(floor, ct[t, C_POINTS])
        elif t >= 0 and ct[t, C_VALUE] == V_WILD:
            floor = min(floor, ct[t, C_POINTS] + copy_floor)
    return -ct[c, C_EFF_COUNT] * floor


@alloc
def build_tables(ct, deps, deck, id_order, in_deck, rules, sel):
    """The card tables ``kt`` (layout above) from the arrays of ``tables.Tables``; the card
    masks are built in ``km`` and stored in ``kt`` at ``K_MASKS`` as int32 pairs."""
    n_cards = ct.shape[0]
    kt = np.full(K_DECK + deck.shape[0], -1, np.int32)
    km = np.zeros(KM_SIZE, np.uint64)
    for c in range(n_cards):
        for col in range(ct.shape[1]):
            kt[col * MC + c] = ct[c, col]
        for k in range(DEP_W):
            kt[K_COUNT_DEPS + c * MC + k] = NO_CARD
            kt[K_OTHER_DEPS + c * MC + k] = NO_CARD
        n_count = 0
        n_other = 0
        for k in range(deps.shape[1]):
            u = deps[c, k]
            kt[K_DEPS + c * MC + k] = u
            if u >= 0:
                km[KM_READERS + u] |= bit(c)
            if u >= 0 and ct[u, C_VALUE] == V_COUNT:
                kt[K_COUNT_DEPS + c * MC + n_count] = u
                n_count += 1
            elif u >= 0:
                kt[K_OTHER_DEPS + c * MC + n_other] = u
                n_other += 1
        kind = ct[c, C_VALUE]
        kt[K_GAIN_A + c] = 0
        kt[K_GAIN_B + c] = 0
        kt[K_GAIN_OF + c] = c
        kt[K_GAIN_C + c] = 0
        kt[K_GAIN_SLOW + c] = 0
        if kind in (V_FIXED, V_WILD):
            kt[K_GAIN_A + c] = ct[c, C_POINTS]
        elif kind == V_COUNT and ct[c, C_OF] != c:
            kt[K_GAIN_B + c] = ct[c, C_PER]
            kt[K_GAIN_OF + c] = ct[c, C_OF]
        elif kind == V_COUNT:  # (n + 1) copies worth per x (n + 1), minus n worth per x n
            kt[K_GAIN_A + c] = ct[c, C_PER]
            kt[K_GAIN_C + c] = 2 * ct[c, C_PER]
        else:
            kt[K_GAIN_SLOW + c] = 1
            km[KM_SLOW] |= bit(c)
        for i in range(sel.shape[1]):
            if sel[c, i] >= 0:
                km[KM_SEL + c] |= bit(sel[c, i])
        kt[K_ID_ORDER + c] = id_order[c]
        kt[K_IN_DECK + c] = in_deck[c]
        if in_deck[c] == 1 and ct[c, C_VALUE] != V_WILD:
            km[KM_COPYABLE] |= bit(c)
    below_zero = losses_below_zero(ct)
    copy_floor = copy_gain_floor(ct, in_deck)
    for c in range(n_cards):
        kt[K_EFF_BOUND + c] = effect_bound(ct, sel, c, below_zero, copy_floor)
    kt[K_PER + NO_CARD] = 0
    kt[K_VALUE + NO_CARD] = V_FIXED
    for r in range(rules.shape[0]):
        kt[K_RULES + r] = rules[r]
    kt[K_N_CARDS] = n_cards
    kt[K_DECK_SIZE] = deck.shape[0]
    for i in range(deck.shape[0]):
        kt[K_DECK + i] = deck[i]
    halves = km.view(np.int32)  # little-endian: the low half first, as kmask reads it
    for i in range(2 * KM_SIZE):
        kt[K_MASKS + i] = halves[i]
    return kt
