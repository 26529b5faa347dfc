"""Fairy Tale rules, compiled: one game per call of ``play_game``, many games per
``simulate_chunk`` (``prange`` over blocks of games, scratch allocated once per block).

The phase structure follows the rules (``docs/rules/fairy-tale.md`` §3-§5) and
``reference/`` line by line:
setup -> 4 x (draft, 3 play steps [reveal, Hunt, Open, Close], discard) -> final scoring.

All state of a game lives in one int32 array ``st`` plus one uint64 array ``sm`` (the random
stream and the masks of the count rows), all card data in ``kt`` (int32, its card masks
read as uint64 by ``kmask``), at the named offsets of ``layout.py`` (why: see there); -1
marks an empty slot. Every change of a CNT/DCNT/HYP count goes through ``_count_up`` /
``_count_down``, which keep its mask in step. ``GameState`` gives tests and tools named 2-D
views of ``st``.

Modules, by phase (each imports only the ones above it):

=============  =============================================================================
``state``      ``GameState``, ``kernel_tables``, the small transitions (counts and masks, a
               card received, played to the tableau, turned face up or down)
``decide``     each seat's mode (``_seat_modes``) and every decision's dispatch (``_decide``)
``check``      checking mode: ``INVARIANTS``, ``check_state``, ``check_final``
``draft``      setup (``_new_game``: shuffle, beginner start), the deal and the draft
``effects``    the play steps: reveal, Hunt, Open, Close (the matching), ``_play_round``
``end``        final scoring (Tricksters, card points) and ``score_end_state``
``game``       one game: the resumable ``_play_on``, ``_play_game`` (heuristic seats)
``search``     the asked seats' game: the ``mc`` search (``_search``, ``_play_game_search``)
               and the Python entries (``play_game``, ``play_on``, ``search``, ...)
``chunk``      many games: ``simulate_chunk``, ``simulate_chunk_search``, ``ChunkOut``
=============  =============================================================================

This package re-exports the names the engine, the tests and the tools use.
"""

from __future__ import annotations

from .check import INVARIANTS, check_final, check_state
from .chunk import ChunkOut, new_chunk_out, simulate_chunk, simulate_chunk_search
from .end import score_end_state
from .search import answer, learned_answer, new_game, play_game, play_on, search
from .state import GameState, copy_state, kernel_tables, new_state, state_views

__all__ = [
    "INVARIANTS",
    "ChunkOut",
    "GameState",
    "answer",
    "check_final",
    "check_state",
    "copy_state",
    "kernel_tables",
    "learned_answer",
    "new_chunk_out",
    "new_game",
    "new_state",
    "play_game",
    "play_on",
    "score_end_state",
    "search",
    "simulate_chunk",
    "simulate_chunk_search",
    "state_views",
]
