"""Paper Tales, compiled: the evaluation of a kingdom, both variants.

The kernel's twin of ``reference``'s rule functions (``production``, ``assess``,
``fight``, ``war_phase_lp``, ``end_lp``, ``dies``, ``death_rewards``; Legends: with the
artifact zone, ``gain_holds`` and the Legends multipliers) and of ``reference.Brain``'s
``project`` / ``features`` / ``value``; ``talesim score`` answers with it too
(``score``). Split by concern, not by variant; a Legends function sits beside its base
twin, and where the two are the same logic plus the Legends extras they are one function
whose Legends arguments are None / absent in a base game (numba prunes those branches at
compile time: ``production``, ``weighted``).

==============  ==========================================================================
``facts``       conditions, multipliers, ``conditional_gain``, production, the income terms
``strength``    unit and kingdom strength (``assess``), the wars, the war-phase LP and gold
``end``         End LP, deaths and their rewards, deployment LP
``cache``       what the building faces (Legends: and artifacts) give, cached per decision
``project``     the policies' projection, the features' weighted sum, the step-by-step
                value (``value_full`` / ``l_value_full``: the oracles of ``value``)
``value``       the policies' value from tables (``value``; Legends ``l_value``,
                ``l_card_value``)
``records``     the tables built once per card set (``kernel_tables``, ``unit_records``,
                ``legends_dyn``)
``score``       a position's static scoring for ``talesim score`` (compiled, both
                variants; ``reference`` is its oracle in the tests)
==============  ==========================================================================

Everything but ``records`` and ``score`` is ``hot`` (inlined into its caller, no NRT, no
allocation): the pieces and building arrays are scratch rows the kernel owns. Every
function is order-independent over the pieces (sums and counts only), so callers may list
them in any order. Ability kinds, conditions and multipliers are read from the ``ab``
opcode table; no card is named. Importers name the module a function is in
(``from ..evaluate.strength import assess``); the arrays' layouts (pieces ``PC_*``, the
kernel's extra columns, steps ``STEP_*``, unit records ``UR_*``, the value's scratch and
caches, masks, a sketch's artifacts and the zone's columns) are constants of the game's
schema module (``layout.py``, read as ``L.PC_UNIT``).
"""

from __future__ import annotations

from . import cache, end, facts, project, records, score, strength, value

__all__ = ["cache", "end", "facts", "project", "records", "score", "strength", "value"]
