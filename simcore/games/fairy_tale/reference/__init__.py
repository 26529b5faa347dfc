"""Fairy Tale in plain Python: the executable rulebook.

Readable, object-based and slow. It draws from the same random stream as the numba kernel
and makes the same decisions, so for the same (seed, game id, policies, cards, variant) it
plays exactly the same game (``tests/fairy_tale/test_reference_vs_kernel.py``). Scores are
always recomputed from scratch here (``total``); the kernel's incremental shortcuts must
agree with it.

Rules (``docs/rules/fairy-tale.md`` §0, §3-§5; a bare §N below cites that page):
  setup    shuffle the deck; beginner: each player gets one face-up card without Open/Close
  round    x4: deal 5 (beginner round 1: 4); pick one, pass the rest (left = seat+1 in rounds
           1 and 3, right in 2 and 4) until all are kept; then 3 play steps (beginner round
           1: 2): everyone reveals one kept card, then Hunt -> Open -> Close; discard the rest
  end      face-down cards score 0; a face-up Trickster copies the best other card; majorities
           compare face-up counts; ties share the win

Modules (each rule in one file; ``FairyTaleGame`` binds the rules of ``effects``, ``end``
and ``search`` as its methods of the same name, so ``game.hunt()`` is
``effects.hunt(game)``):
  rules.py    ``Rules`` (the card facts), the game's records (``Player``, ``Slot``,
              ``Received``), where a game is (``Phase``, ``Position``), ``BREAKDOWN``.
  scoring.py  §5 scoring from scratch: ``copy_value``, ``total``, the gain or loss of a copy.
  brain.py    the heuristic players (``Brain``: the formulas of ``policies.py``).
  game.py     ``FairyTaleGame``: setup, deal, draft, play steps, discard, decisions;
              ``play_reference``, ``final_state``.
  effects.py  §4 Hunt, Open, Close (the matching of closed cards to Close effects).
  end.py      §5 final scoring: the Trickster's identity, card points, the winners.
  search.py   the ``mc`` policy: ``Search``, the ranked candidates, the step rewind, the
              determinization, the outcome, ``clone``.

``from .reference import …`` gives every public class and function.
"""

from __future__ import annotations

from talesim.simcore.flat_mc import MARGIN_CLIP, MARGIN_WEIGHT, OUTCOME_UNIT, Search

from .brain import Brain
from .game import FairyTaleGame, final_state, play_reference
from .rules import BREAKDOWN, KIND_COLUMN, Event, Phase, Player, Position, Received, Rules, Slot
from .scoring import Counts, _shift, card_gain, card_loss, copy_value, gain_of_adding, total

__all__ = [
    "BREAKDOWN",
    "KIND_COLUMN",
    "MARGIN_CLIP",
    "MARGIN_WEIGHT",
    "OUTCOME_UNIT",
    "Brain",
    "Counts",
    "Event",
    "FairyTaleGame",
    "Phase",
    "Player",
    "Position",
    "Received",
    "Rules",
    "Search",
    "Slot",
    "_shift",
    "card_gain",
    "card_loss",
    "copy_value",
    "final_state",
    "gain_of_adding",
    "play_reference",
    "total",
]
