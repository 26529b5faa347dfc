"""Paper Tales rules, compiled, both variants: one game per ``play_game`` call, many per
``simulate_chunk`` (``prange`` over blocks of games, one scratch ``State`` allocated per
block; Legends: and one ``LState``).

It follows ``reference/`` phase by phase, decision by decision: same option enumeration
order, same random draws in the same order (the reference's module docstring: "RNG draw
order", "Discard pile order", "Decisions and their option order"; Legends: "Legends
variant", LEGENDS.md §B), same float64 values (``evaluate.value.value``,
``evaluate.value.l_value``). A kingdom is scored with the ``evaluate`` package's functions
(Legends: their twins with the artifacts) on a *pieces* list built from
the seat's spots (``state._load``), exactly as the reference builds ``Player.pieces``.

One function per phase and per decision for both variants: the Legends tables ``lx``
(``game.legends_lx``) and state ``ls`` (``state.LState``) are None in a base game, and
numba prunes every ``if lx is None`` / ``if lx is not None`` branch at compile time, so
the base game compiles to base code only. What only a Legends game does (the artifact
zone and the payment order, the deployment tiers, the Jester, Titan and copies, the
game's building set) is in functions of its own, called under ``lx is not None``.

Modules, by phase (each imports only the ones above it; §N: ``docs/rules/paper-tales.md``;
``paper-tales-legends.md`` §N: ``docs/rules/paper-tales-legends.md``):

================  ========================================================================
``state``         ``State`` / ``LState`` and the small helpers every phase uses (their field
                  codes, result codes and invariants' names: ``layout.py``)
``place``         §2.2 placements: open spots, a step's options (``moves``), applying one
``payment``       paper-tales-legends.md §2.4: the artifact zone, the payment order, the Legends
                  options
``sketch``        the policies' valuation helpers (sketches, first pass, changed rows)
``recruitment``   §2.1 Recruitment and ``draft_choice``
``brain``         the other decisions of ``reference.Brain``, both variants
``reveal``        §2.2 the base game's reveal and deployment abilities
``tiers``         paper-tales-legends.md §2.5 the deployment tiers (Jester, free build, copies)
``deployment``    §2.2 the Deployment phase
``wars``          §2.3 Wars, §2.4 Income
``construction``  §2.5 Construction (payment facts, prices, options)
``aging``         §2.6 Aging
``end``           §2.7 End and checking mode (``check_state``)
``game``          ``play_game``, the resumable ``_play_on``, ``simulate_chunk``, the result
                  buffers' layout, ``legends_lx``
``search``        the asked seats' game, a kernel of its own (``simulate_chunk_search``): the
                  ``mc`` search on ``mc.py``'s parts, a learned seat's answer
================  ========================================================================

State (``State``; P = players, S = ``MAX_SPOTS``, D = deck size, B = buildings, U = card
types; -1 marks an empty slot) and ``LState`` (P seats, S spots, X = ``MAX_ARTIFACTS``:
the artifact zone in order of entry, the per-spot tier bookkeeping, the two new LP parts,
the new card-log columns and the game's building set): see the field comments. Card tables
come in as arguments, never as globals, so ``--cards FILE`` works, and are read by field
name (numba resolves a NamedTuple field to its position when it compiles): ``tb``, a
``KernelTables`` = ``evaluate.records.kernel_tables(tables)`` (Legends: of a
``LegendsTables``, whose ``deck`` holds card types, ``t >= U`` the artifact ``t - U``),
and ``lx``, a ``game.LegendsArgs``. Every int constant is read from the game's schema
module (``from .. import layout as L``, ``L.G_TURN``), except the few passed as call
arguments, imported by name (``layout.py``'s docstring says why). This package re-exports
the names the engine and the tests use.
"""

from __future__ import annotations

from ..layout import (
    BACK0,
    BL_BUILT,
    BL_HOW,
    BL_LEVEL,
    BL_UPGRADED,
    BREAKDOWN_COLUMNS,
    EXTRA_SPOT,
    FATES,
    G_DECK_N,
    G_DISC_N,
    G_TURN,
    HOW_DEPLOYED,
    HOWS,
    I_EXTRA,
    I_GOLD,
    I_HAND_N,
    I_LP,
    I_POLICY,
    I_SEEN0,
    I_SEEN1,
    I_STEP,
    INVARIANTS,
    L_DEPLOYED,
    L_DIED,
    L_FATE,
    L_PICK,
    L_ROW,
    L_SURVIVED,
    L_TURN,
    L_TURN_DEPLOYED,
    L_UNIT,
    LEGENDS_FATES,
    LEGENDS_HOWS,
    LEGENDS_INVARIANTS,
    LEGENDS_ROWS,
    LL_COST,
    LL_HOW,
    LP_ARTIFACTS,
    LP_FLOOR,
    LP_RELIC,
    LP_WARS,
    M_MOVE,
    M_PLACE,
    M_REMOVE,
    M_STOP,
    MAX_LOGS,
    N_BLOG,
    N_LL,
    N_LOG,
    N_LPARTS,
    N_PARTS,
    NO_COST,
    S_AGE,
    S_CARD,
    S_RESOLVED,
    S_UNIT,
    V_AGE,
    V_ART_PLACE,
    V_BREAKDOWN,
    V_CARDS,
    V_CARDS_L,
    V_EXTRA,
    V_FLOOR,
    V_FLOOR_PART,
    V_GOLD,
    V_LEVEL,
    V_OUT_OF_SET,
    V_SPOT,
    V_STEP,
    V_ZONE,
)
from .brain import deploy_choice, keep_choice
from .end import check_state
from .game import ChunkOut, LChunkOut, _new_game, legends_lx, play_game, simulate_chunk
from .place import _apply_move, _opens_extra, moves
from .recruitment import _draft_twin
from .reveal import _reveal
from .sketch import (
    _build_value,
    _card_value_from,
    _changed_pass,
    _commit_step,
    _kept_base,
    _projects,
    _repeated_units,
    _sketch_base,
    _sketch_move,
    _step_value,
    _upgrade_pending,
    _value,
    first_best,
    front_first_holds,
)
from .state import (
    LState,
    State,
    _assess_seat,
    _load,
    _new_lstate,
    _receive,
    new_state,
)

__all__ = [
    "BACK0",
    "BL_BUILT",
    "BL_HOW",
    "BL_LEVEL",
    "BL_UPGRADED",
    "BREAKDOWN_COLUMNS",
    "EXTRA_SPOT",
    "FATES",
    "G_DECK_N",
    "G_DISC_N",
    "G_TURN",
    "HOWS",
    "HOW_DEPLOYED",
    "INVARIANTS",
    "I_EXTRA",
    "I_GOLD",
    "I_HAND_N",
    "I_LP",
    "I_POLICY",
    "I_SEEN0",
    "I_SEEN1",
    "I_STEP",
    "LEGENDS_FATES",
    "LEGENDS_HOWS",
    "LEGENDS_INVARIANTS",
    "LEGENDS_ROWS",
    "LL_COST",
    "LL_HOW",
    "LP_ARTIFACTS",
    "LP_FLOOR",
    "LP_RELIC",
    "LP_WARS",
    "L_DEPLOYED",
    "L_DIED",
    "L_FATE",
    "L_PICK",
    "L_ROW",
    "L_SURVIVED",
    "L_TURN",
    "L_TURN_DEPLOYED",
    "L_UNIT",
    "MAX_LOGS",
    "M_MOVE",
    "M_PLACE",
    "M_REMOVE",
    "M_STOP",
    "NO_COST",
    "N_BLOG",
    "N_LL",
    "N_LOG",
    "N_LPARTS",
    "N_PARTS",
    "S_AGE",
    "S_CARD",
    "S_RESOLVED",
    "S_UNIT",
    "V_AGE",
    "V_ART_PLACE",
    "V_BREAKDOWN",
    "V_CARDS",
    "V_CARDS_L",
    "V_EXTRA",
    "V_FLOOR",
    "V_FLOOR_PART",
    "V_GOLD",
    "V_LEVEL",
    "V_OUT_OF_SET",
    "V_SPOT",
    "V_STEP",
    "V_ZONE",
    "ChunkOut",
    "LChunkOut",
    "LState",
    "State",
    "_apply_move",
    "_assess_seat",
    "_build_value",
    "_card_value_from",
    "_changed_pass",
    "_commit_step",
    "_draft_twin",
    "_kept_base",
    "_load",
    "_new_game",
    "_new_lstate",
    "_opens_extra",
    "_projects",
    "_receive",
    "_repeated_units",
    "_reveal",
    "_sketch_base",
    "_sketch_move",
    "_step_value",
    "_upgrade_pending",
    "_value",
    "check_state",
    "deploy_choice",
    "first_best",
    "front_first_holds",
    "keep_choice",
    "legends_lx",
    "moves",
    "new_state",
    "play_game",
    "simulate_chunk",
]
