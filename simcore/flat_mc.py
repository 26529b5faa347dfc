"""The readable ``mc`` search loop every game's ``reference.py`` shares: determinized flat
Monte-Carlo over a decision's ranked candidates.

For each of ``rollouts`` worlds: a copy of the game (``clone``), ``prepare`` (e.g. take
back the simultaneous choices of the seats before the searching one), the hidden cards
dealt anew from the search stream (``determinize``), one playout state drawn from it, and
every seat switched to the ``playout`` heuristic; then each candidate plays the world out
from a copy of its own, its choice taken first (``force``), every copy from the same
playout state. The sums of the outcomes come back in candidate order.

The numba kernels restate this loop in their ``_search`` (same draws in the same order);
each game's differential test pins the two equal. No numba here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from simcore.rng import GameRng, search_start

#: A search outcome in whole units: a win is worth ``OUTCOME_UNIT``, shared k ways by the k
#: winners (``OUTCOME_UNIT // k``, exact for k <= 5), plus ``MARGIN_WEIGHT`` per point of
#: margin over the best other seat, the margin clipped to ``±MARGIN_CLIP``: win + 0.001 x
#: margin. Every game's kernel restates these in its own compiled ``_outcome``.
OUTCOME_UNIT = 60_000
MARGIN_WEIGHT = 60
MARGIN_CLIP = 50


@dataclass(frozen=True)
class Search:
    """An ``mc`` seat's parameters (its canonical spec ``mc:rollouts=R:top=T:playout=NAME``)."""

    rollouts: int
    top: int
    playout: int  # the heuristic (the game's ``Policy`` code) every seat plays in the playouts


def outcome(won: bool, winners: int, margin: int) -> int:
    """A seat's result of a finished game in ``OUTCOME_UNIT``s: its share of the win (``won``,
    one of ``winners`` seats) plus ``MARGIN_WEIGHT`` x its ``margin`` over the best other
    seat, clipped."""
    win = OUTCOME_UNIT // winners if won else 0
    return win + MARGIN_WEIGHT * max(-MARGIN_CLIP, min(MARGIN_CLIP, margin))


class SearchGame(Protocol):
    """What the loop needs of a game (``reference.py``'s game class)."""

    seed: int
    game_id: int
    rng: GameRng
    force: Any

    @property
    def players(self) -> Sequence[Any]: ...  # each with a settable ``policy``

    def clone(self) -> Any: ...
    def determinize(self, p: int, rng: GameRng) -> None: ...
    def play_on(self) -> Any: ...
    def outcome(self, p: int) -> int: ...


def playout_totals(
    game: SearchGame,
    p: int,
    number: int,
    candidates: Sequence[Any],
    rollouts: int,
    playout: int,
    prepare: Callable[[Any], None] | None = None,
) -> list[int]:
    """Seat ``p``'s summed outcome of each of ``candidates`` (the values its game's
    ``force`` takes for seat ``p``) over ``rollouts`` determinized worlds, drawn from the
    search stream of (seed, game, ``p``, decision ``number``). One candidate or none: no
    playout (zeros)."""
    totals = [0] * len(candidates)
    if len(candidates) < 2:
        return totals
    rng = GameRng.at(search_start(game.seed, game.game_id, p, number))
    for _ in range(rollouts):
        world = game.clone()
        if prepare is not None:
            prepare(world)
        world.determinize(p, rng)
        playout_state = rng.next_u64()
        for pl in world.players:
            pl.policy = playout
        for j, candidate in enumerate(candidates):
            copy = world.clone()
            copy.rng.state = playout_state
            copy.force = (p, candidate)
            copy.play_on()
            totals[j] += copy.outcome(p)
    return totals


def first_best(totals: Sequence[int]) -> int:
    """Index of the best total; ties to the first (the candidates come best first by the
    heuristic's value, so the heuristic breaks ties)."""
    return totals.index(max(totals))
