"""DRAKO rules, compiled: one game per call of ``play_game``, many games per
``simulate_chunk`` (``prange`` over blocks of games, scratch allocated once per block).
The rules are ``docs/rules/drako.md``; every §N in this package is a section of it.

Line by line the same game as ``reference/`` (setup, turns, Legend claims, reshuffles,
end, scoring), drawing the same random numbers in the same order from the game's
SplitMix64 stream (``simcore.rng``), so ``tests/drako/test_reference_vs_kernel.py`` can
require identical games. The policies' decisions (``random``, ``greedy``,
``legend-hunter``) are in ``policies.py``.

All state is fixed-shape integer arrays (``GameState``), allocated once per block; piles
are stacks whose top is the last used entry (``meta[M_DECK_N] - 1``), as the reference's
lists. Card tables arrive as the tuple ``tb`` (``tables.Tables``), never as globals.

Modules, in the order of the rules (each imports only the ones above it):

==========  ===================================================================================
``state``   ``GameState``, ``new_state``, ``seat_view``, ``INVARIANTS``
``setup``   §3 setup, ``count_seen``
``turn``    §4 one turn (``take_turn``): claims, the action, the reshuffle
``end``     §7 final scoring and ranking, ``_record_end``, the checking mode,
            ``score_end_state`` (``talesim score drako``)
``game``    ``_new_game``, the resumable ``_play_on``, ``play_game``
``search``  the asked seats' game (``_search``, ``play_game_search``: mc and learned
            seats) and the same driven from Python (``clone``, ``play_on``, ``search``,
            ``learned_answer``, ``answer``)
``chunk``   many games: ``simulate_chunk``, ``simulate_chunk_search`` (one ``_run_block``
            for both), ``ChunkOut``
==========  ===================================================================================

This package re-exports the names the engine, the tests and the benchmarks use.
"""

from __future__ import annotations

from .chunk import (
    ChunkOut,
    _run_block,
    _seat_up,
    _store,
    new_chunk_out,
    simulate_chunk,
    simulate_chunk_search,
)
from .end import (
    _record_end,
    _seat_cells,
    check_final,
    check_state,
    final_scoring,
    score_end_state,
)
from .game import _new_game, _play_on, play_game
from .search import (
    _asking,
    _resume,
    _search,
    answer,
    clone,
    learned_answer,
    new_game,
    play_game_search,
    play_on,
    search,
)
from .setup import _pop_deck, count_seen, setup
from .state import INVARIANTS, GameState, new_state, seat_view
from .turn import _apply, _claim, _reshuffle, _source_options, take_turn

__all__ = [
    "INVARIANTS",
    "ChunkOut",
    "GameState",
    "_apply",
    "_asking",
    "_claim",
    "_new_game",
    "_play_on",
    "_pop_deck",
    "_record_end",
    "_reshuffle",
    "_resume",
    "_run_block",
    "_search",
    "_seat_cells",
    "_seat_up",
    "_source_options",
    "_store",
    "answer",
    "check_final",
    "check_state",
    "clone",
    "count_seen",
    "final_scoring",
    "learned_answer",
    "new_chunk_out",
    "new_game",
    "new_state",
    "play_game",
    "play_game_search",
    "play_on",
    "score_end_state",
    "search",
    "seat_view",
    "setup",
    "simulate_chunk",
    "simulate_chunk_search",
    "take_turn",
]
