"""The compiled code's schema: every integer constant the numba half of DRAKO reads.

§N: a section of ``docs/rules/drako.md``, DRAKO's rules as implemented.

One module, so a reader finds every code, bound and index in one place, and the compiled
files (``kernel/``, ``scoring.py``, ``incremental.py``, ``policies.py``, ``mc.py``) have no
per-file import lists: they read ``L.NAME`` (``from . import layout as L``). Here are

* the bounds and table layouts of ``tables.py`` (``CELLS``, ``N_KINDS``, the legend row's
  columns ``LG_*``, the rule switches ``R_*``, the breakdown columns ``B_*``), re-exported:
  the loaders that fill those tables keep them next to their code;
* the kernel's own: the scalars of a game (``GameState.meta[M_*]``), how far a turn has
  got (``STEP_*``), the card sources (``SRC_*``), the policy codes (``P_*``) and weight
  columns (``W_*``), the facts of a loaded kingdom (``GameState.kfacts[KF_*]``), the kind,
  category, shape and adjacency codes the scorers test, the fixed cells of the setup and
  the ``mc`` outcome's units.

numba resolves a module attribute when it compiles, as it does a name imported from the
module: the value is frozen into the machine code as a constant. The one difference: numba
types an imported int as a literal (``Literal[int](3)``) and a module attribute as a plain
``int64``. Inside an expression that changes nothing, but a constant passed as an argument
to a compiled function selects which copy of it is compiled: the few passed so are imported
by name where they are passed (the policy codes and steps in ``kernel/``, the typed "as it
is" arguments ``NO_CELL`` ... ``NO``), which keeps the compiled copies exactly as before.
talesim keys the game's cache directory by the hash of its compiled sources, this file
included (``simcore.cache_dir_for``), so a changed constant recompiles.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from talesim.simcore.jit import ix  # noqa: F401 (re-exported: the compiled code's index cast)

from .tables import (  # noqa: F401 (re-exported: the schema)
    B_CONFLICTS,
    B_DRAGON,
    B_LEGENDS,
    BORDER,
    CELLS,
    CENTRE,
    LG_ADJ,
    LG_AROUND,
    LG_CENTRE,
    LG_COUNT,
    LG_EITHER,
    LG_KINDS,
    LG_POINTS,
    LG_SHAPE,
    MAX_TURNS,
    N_BREAKDOWN,
    N_KINDS,
    N_LEGENDS,
    N_LG_COLS,
    N_RULES,
    N_TRIBE_COLUMNS,
    R_CENTRE_DISTINCT,
    R_CLAIM_AFTER_FINAL,
    R_CLAIM_BEFORE,
    R_CONFLICT_POINTS,
    R_DRAGON_MAX_POSITIVE,
    R_DRAGON_VIA_PORTAL,
    R_FACE_UP_ONLY,
    R_GOBLIN_CONFLICT_VIA_PORTAL,
    R_GOBLIN_LAND_VIA_PORTAL,
    R_KEEP_TOP,
    R_LEGEND_GOBLIN_VIA_PORTAL,
    R_LEGEND_ROW,
    R_LEGENDS_PER_TURN,
    R_PORTAL_CHAINING,
    R_SAME_KIND_FORBIDDEN,
    R_TIE_CATEGORIES,
    R_TIE_TRIBES_SUMMED,
    R_TURN_CAP,
    SIDE,
    Adjacency,
    Category,
    Kind,
    Shape,
)


# --- players: codes and weight columns (``policies.py``, ``reference.Brain``) ---------------
class Policy(IntEnum):
    RANDOM = 0  # uniform over legal choices
    GREEDY = 1  # best immediate change of its own score, Legend claims included
    LEGEND_HUNTER = 2  # greedy + progress towards river Legends and tame dragons (a plan)
    MC = 3  # determinized flat Monte-Carlo search (``kernel._search``, ``DrakoGame.search``)
    LEARNED = 4  # a model's scores of greedy's best options (``learned.py``); greedy's row


P_RANDOM = int(Policy.RANDOM)
P_MC = int(Policy.MC)
P_LEARNED = int(Policy.LEARNED)
# Columns of the weight table (``policies.default_weights``): a policy's value of an outcome
# is w[W_GAIN]*Δscore + w[W_LEGEND]*Δclaim + w[W_NEAR]*Δnear + w[W_TAME]*Δtame; it takes
# the top discard when its best placement is worth at least w[W_TAKE_BAR].
W_GAIN, W_LEGEND, W_NEAR, W_TAME, W_TAKE_BAR = range(5)
N_WEIGHTS = 5

# --- ``GameState.meta`` entries: the scalars of a game ---------------------------------------
M_DECK_N = 0  # cards in the draw pile
M_DISC_N = 1  # cards in the discard pile
M_LD_N = 2  # cards in the legend deck
M_TURN = 3  # game turns played so far
M_CLAIMS_LEFT = 4  # Legend claims the current player may still make this turn
M_LOADED = 5  # seat whose kingdom the shared caches (Legends, memo) were loaded for, -1: none
M_CLAIMS_OK = 6  # 1: ``load_claims``' caches hold that kingdom under the current river
# (kept with the seat's caches: ``s.kept_claims``)
M_MEMO_OK = 7  # 1: ``s.xmask`` / ``s.xval`` hold values for that kingdom and river
M_MET_OK = 8  # 1: ``kfacts[KF_MET]`` holds the Legends that kingdom meets (``after_action``)
M_PMAX = 9  # ``portal_pair_max`` of the game's tables (``kernel.setup``), for the reveal bound
# Where the game is (``kernel._play_on`` plays on from there) and the mc decisions:
M_STEP = 10  # STEP_*: how far the current turn has got
M_HAND = 11  # STEP_ACTION: the card in hand
M_SRC = 12  # STEP_ACTION: its source (SRC_*)
M_FORCE_SEAT = 13  # seat whose next asked decision is made already (-1: none) ...
M_FORCE_IDX = 14  # ... as this candidate (a search's choice, a playout's candidate)
M_VIOL = 15  # checking mode: the first broken invariant (kernel.INVARIANTS), 0
M_CAP = 16  # 1: the turn cap ended the game
M_CELL = 17  # the cell of the turn's action
M_END_REC = 18  # 1: record how the game ended (``kernel._record_end``: the search kernel)
M_ALT = 19  # the ender had a placement that would not have ended the game
M_ANSWER_SEAT = 20  # a learned seat whose asked decision is answered (-1: none) ...
M_ANSWER_IDX = 21  # ... as this option (``learned.learned_choice``)
N_META = 22
STEP_TURN = 0  # the turn of seat ``M_TURN % players`` begins
STEP_SOURCE = 1  # the turn is counted; the seat chooses its source next (mc, learned: asked)
STEP_ACTION = 2  # the card is in hand, the claim before made; the action next (asked)
SRC_DISCARD, SRC_DECK = 0, 1  # reference.Source

# --- the draw log: one packed record a turn (``GameState.draws``, the ``draws`` table) -------
# Every turn takes exactly one card, from the discard pile or the draw pile (§4.1), and either
# places it or (a drawn card) discards it and reveals a face-down cell: one draw decision a
# turn, so a game has exactly as many records as turns: at most the turn cap x the players
# (``R_TURN_CAP``; ``MAX_TURNS`` under any rules file). Record ``t - 1`` is
# game turn ``t``'s, played by seat ``(t - 1) % players``; its fields, packed in 15 bits of
# an int16 (each a shift and a width):
DW_SOURCE = 0  # 1 bit: SRC_DISCARD or SRC_DECK
DW_PLACED = 1  # 1 bit: 1 placed into the kingdom, 0 discarded (a drawn card, cell revealed)
DW_CARD = 2  # 4 bits: the kind taken
DW_CELL = 6  # 4 bits: the cell placed on, or revealed
DW_COVERED = 10  # 4 bits: the kind that lay on that cell (replaced, or revealed)
DW_FACE_DOWN = 14  # 1 bit: that cell was face down before the action
DW_KIND_BITS = 15  # mask of a 4-bit field (a kind, a cell)

# --- ``GameState.kfacts`` entries (int64): facts of the loaded kingdom (``incremental.py``) ---
KF_VIS = 0  # visible cells
KF_BLINDS = 1  # visible portal-blind cells (goblins)
KF_DRAGON_PTS = 2  # §7.3 dragon points
KF_TAME = 3  # visible dragons that are domesticated
KF_GAIN_ROWS = 4  # kinds whose ``s.gain`` row is filled (``load_claims`` clears it)
KF_PROW_ROWS = 5  # cells whose ``s.prow`` row is filled (``load_kingdom`` clears it)
KF_MET = 6  # river slots whose Legend the kingdom meets (``load_claims``)
KF_BCLAIM = 7  # the kingdom's best claim (``load_claims``' return value)
KF_NEAR_OK = 8  # 1: ``s.near_terms`` is filled (``load_near_terms``; ``load_claims`` clears it)
N_KFACTS = 9

# --- the codes the scorers test (enums for people, ints for kernels, same values) ------------
K_DRAGON = int(Kind.DRAGON)
K_PORTAL = int(Kind.PORTAL)
CAT_LAND = int(Category.LAND)
CAT_TRIBE = int(Category.TRIBE)
SHAPE_PRESENT = int(Shape.PRESENT)
ADJ_ORTHOGONAL = int(Adjacency.ORTHOGONAL)
ALL_CELLS = (1 << CELLS) - 1  # the bitmask of every cell of a kingdom
# (tribe kind, breakdown column): the tribes' columns of ``tables.BREAKDOWN``
TRIBE_COLUMNS = (
    (int(Kind.ELF), 0),
    (int(Kind.DWARF), 1),
    (int(Kind.HUMAN), 2),
    (int(Kind.GOBLIN), 3),
)
#: Fills the tie key's unused tail when the tribes are summed: below every category value
#: (a kingdom's subtotals stay within a few hundred points), so it sorts last and, being
#: the same for every player, never decides.
TIE_PAD = -(1 << 30)

# --- the setup's cells and the bound of one decision -----------------------------------------
CENTRE_CELLS = np.array(CENTRE, dtype=np.int64)
BORDER_CELLS = np.array(BORDER, dtype=np.int64)
N_CENTRE = len(CENTRE)
N_BORDER = len(BORDER)
#: The most options of one decision: 16 placements and 16 reveals, or 16 placements + draw.
MAX_OPTIONS = 2 * CELLS + 1

# Arguments for "the kingdom as it is" (no changed cell or kind, an empty zone or mask) and
# ``best_claim_changed``'s fixed flags, as typed run-time values: a literal (``-1``, ``0``,
# ``True``) passed to a compiled function makes numba compile one more copy of it, and of all
# it inlines, for that literal. Always passed as arguments, so imported by name.
NO_CELL = np.int64(-1)
NO_CELLS = np.int64(0)
EVERY_CELL = np.int64(ALL_CELLS)
YES = np.bool_(True)
NO = np.bool_(False)

#: A playout's outcome in whole units (``reference.OUTCOME_UNIT`` etc.): a win is worth
#: ``OUTCOME_UNIT // k`` shared k ways (the winners after the §7.5 tie-break), plus
#: ``MARGIN_WEIGHT`` a point of margin over the best other score, clipped to
#: ``±MARGIN_CLIP``: win + 0.001 x margin.
OUTCOME_UNIT = 60_000
MARGIN_WEIGHT = 60
MARGIN_CLIP = 50
