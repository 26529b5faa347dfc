"""DRAKO: Aetherya in plain Python: the executable rulebook (rules §3-§8), one module per
phase.

Every §N is a section of ``docs/rules/drako.md``, the rules this package restates.

Readable, object-based and slow. It is the oracle the part-2 numba kernel must match game
for game, so every random number comes from ``GameRng(seed, game_id)`` in this fixed
order (no other source of randomness exists):

  setup   1. shuffle the Legend deck (Legend indices in file order); the river's slot
             s = 0, 1, ... takes the top card (the END of the list; ``pop()``)
          2. shuffle the kingdom deck (kind ids in kind order, ``copies(players)`` each);
             the top card is the END of the list
          3. centres, seat 0 first: draw until 4 distinct kinds; the duplicates drawn are
             set aside, then put back on top of the deck and the deck is shuffled once
             (no shuffle when none was set aside); the 4 cards go to the centre cells
             5, 6, 9, 10 in the order drawn
          4. borders, seat 0 first: 12 face-down cards, cells in row-major order
          5. the next card starts the discard pile (its top = the END of the list)
  turn    (seat 0 first, then 1, 2, ...) for a ``random`` player: the source (one draw
          from 2, only when both the discard and the deck can be used), then the action
          (one draw from the legal actions of that source, in enumeration order), then
          the Legend claimed after the action (one draw, only when 2+ are claimable).
          ``greedy`` and ``legend-hunter`` draw nothing.
          Then, if the draw pile is empty: the discard pile except its top card (bottom
          first) becomes the draw pile and is shuffled once.
A choice with a single candidate is forced: no random number is drawn.

Actions are enumerated in this order (the tie order of every policy: first best wins):
take the top discard and place it on cell 0..15; draw and place on cell 0..15; draw,
discard it and reveal face-down cell 0..15 (illegal cells skipped).

Scoring (``KingdomView``) is restated here with sets; the package's compiled ``scoring.py``
is the array version (pinned equal by ``tests/drako/test_scoring_agreement.py``).

Modules (each rule in one file; ``DrakoGame`` binds the rules of ``setup``, ``turn``,
``learned``, ``search`` and ``end`` as its methods of the same name, so
``game.take_turn()`` is ``turn.take_turn(game)``; the kernel's modules of the same phase
have the same names):
  rules.py    ``Rules`` (one preset at one player count), ``Source``, ``Action``, ``Slot``,
              ``Claim``, ``Player``, ``Step``.
  scoring.py  §6, §7 scoring with sets: ``KingdomView``, ``tie_key``, ``winners``.
  brain.py    the heuristic players (``Brain``: the formulas of ``policies.py``).
  game.py     ``DrakoGame``: state, ``run``, ``play_on``, who decides; ``play_reference``,
              ``final_state``.
  setup.py    §3 setup.
  turn.py     §4 one turn: source, claims (§4.5), action and legality (§4.3), reshuffle.
  learned.py  the ``learned`` player: the model's choice and the features of each option.
  search.py   the ``mc`` policy: greedy's order, the search, the outcome, ``clone``, the
              determinization.
  end.py      §7 final scoring, the winners, the invariants.

``from .reference import …`` gives every public class and function.
"""

from __future__ import annotations

from talesim.simcore.flat_mc import Search

from .brain import Brain
from .game import DrakoGame, final_state, play_reference
from .rules import (
    TRIBE_BREAKDOWN,
    Action,
    Claim,
    Draw,
    Event,
    Player,
    Rules,
    Slot,
    Source,
    SourceOption,
    Step,
)
from .scoring import KingdomView, tie_key, winners
from .search import greedy_order

__all__ = [
    "TRIBE_BREAKDOWN",
    "Action",
    "Brain",
    "Claim",
    "DrakoGame",
    "Draw",
    "Event",
    "KingdomView",
    "Player",
    "Rules",
    "Search",
    "Slot",
    "Source",
    "SourceOption",
    "Step",
    "final_state",
    "greedy_order",
    "play_reference",
    "tie_key",
    "winners",
]
