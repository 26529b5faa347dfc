"""The readable ``mc`` search loop every game's ``reference/`` shares: determinized flat
Monte-Carlo over a decision's ranked candidates.

For each of ``rollouts`` worlds: a copy of the game (``clone``), ``prepare`` (e.g. take
back the simultaneous choices of the seats before the searching one), the hidden cards
dealt anew from the search stream (``determinize``), one playout state drawn from it, and
every seat switched to the ``playout`` heuristic; then each candidate plays the world out
from a copy of its own, its choice taken first (``force``), every copy from the same
playout state. The sums of the outcomes come back in candidate order.

The numba kernels restate this loop in their ``_search`` (same draws in the same order);
each game's differential test pins the two equal. No numba here.

``RulebookGame`` is what the three rulebooks' game classes share around the loop: the
seats, the game's random stream, the narration, each mc seat's search state and how a
game is played from its rules (``play``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self, cast

import numpy as np

from talesim.simcore.rng import GameRng, search_start

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
    playout: int  # the policy (the game's ``Policy`` code) every seat plays in the playouts
    model: Any = None  # a learned playout's ``simcore.learned.Model``


def outcome(won: bool, winners: int, margin: int) -> int:
    """A seat's result of a finished game in ``OUTCOME_UNIT``s: its share of the win (``won``,
    one of ``winners`` seats) plus ``MARGIN_WEIGHT`` x its ``margin`` over the best other
    seat, clipped."""
    win = OUTCOME_UNIT // winners if won else 0
    return win + MARGIN_WEIGHT * max(-MARGIN_CLIP, min(MARGIN_CLIP, margin))


class SearchGame(Protocol):
    """What the loop needs of a game (``reference/``'s game class)."""

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
    model: Any = None,
) -> list[int]:
    """Seat ``p``'s summed outcome of each of ``candidates`` (the values its game's
    ``force`` takes for seat ``p``) over ``rollouts`` determinized worlds, drawn from the
    search stream of (seed, game, ``p``, decision ``number``); every seat of a playout plays
    ``playout`` (a learned one with ``model``). One candidate or none: no playout
    (zeros)."""
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
        world.models = [model] * len(world.players)  # a learned playout's model
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


def mean_outcome(total: int, rollouts: int) -> float | None:
    """A candidate's mean outcome in wins (``total`` over ``rollouts`` playouts, rounded for
    the narration); None when it played none."""
    return round(total / rollouts / OUTCOME_UNIT, 4) if rollouts else None


class RulebookGame:
    """The start of every rulebook's game class (``reference/``): the rules, the policies'
    weights, one seat per policy code, the game's random stream (seed, game id), the
    narration (``events``, kept when ``record``) and the mc seats' state: each seat's
    ``Search`` (None: a heuristic), the decisions each has searched, and a decision taken
    already (``force``: seat, option index; a search's choice, a playout's candidate).

    A game adds its own state in ``init_state`` (given the seats' policy codes and the
    game's own ``options``) and plays in ``run``."""

    rules: Any
    players: Sequence[Any]

    def __init__(
        self,
        rules: Any,
        weights: np.ndarray,
        seat_policies: list[int],
        seed: int,
        game_id: int,
        record: bool = False,
        searches: Sequence[Search | None] | None = None,
        models: Sequence[Any] | None = None,
        **options: Any,
    ) -> None:
        self.rules = rules
        self.weights = weights
        self.n = len(seat_policies)
        self.seed = seed
        self.game_id = game_id
        self.rng = GameRng(seed, game_id)
        self.record = record
        self.events: list[dict[str, Any]] = []
        self.searches = list(searches) if searches is not None else [None] * self.n
        #: each seat's ``simcore.learned.Model`` (a learned seat's; None for the others)
        self.models = list(models) if models is not None else [None] * self.n
        self.search_count = [0] * self.n  # decisions each mc seat has searched
        self.force: tuple[int, int] | None = None
        self.init_state(seat_policies, **options)

    def init_state(self, seat_policies: list[int], **options: Any) -> None:
        """The game's own state: its players (one per policy code), piles, position."""
        raise NotImplementedError

    def run(self, check: bool = False) -> Self:
        """A new game, played to the end (``check``: the rule invariants along the way)."""
        raise NotImplementedError

    @classmethod
    def play(cls, *args: Any, check: bool = False, **kwargs: Any) -> Self:
        """Play one game with the readable rules: a game of the constructor's arguments
        (``record``: its events; ``searches``: each seat's ``Search``, None for a heuristic
        seat; the game's own options), played to the end (``check``: the rule invariants
        along the way). The rulebook's ``play_reference``."""
        return cls(*args, **kwargs).run(check)

    def emit(self, event: str, **data: Any) -> None:
        """Narrate ``event`` (when ``record``)."""
        if self.record:
            self.events.append({"event": event, **data})

    def silent_copy(self) -> Self:
        """The start of ``clone``: a shallow copy with its own random stream (at this one's
        state) and players, whose seats search nothing and which narrates nothing; the game
        copies the rest of its state."""
        g = copy.copy(self)
        g.rng = GameRng.at(self.rng.state)
        g.players = copy.deepcopy(self.players)
        g.searches = [None] * self.n
        g.search_count = list(self.search_count)
        g.record, g.events = False, []
        return g

    def search_totals(
        self,
        search: Search,
        p: int,
        ranked: Sequence[Any],
        prepare: Callable[[Any], None] | None = None,
    ) -> tuple[int, list[int], int]:
        """Seat ``p``'s next searched decision over its ``ranked`` candidates (best first by
        the heuristic): the decision's number, each candidate's summed outcome
        (``playout_totals``) and the index of the best (``first_best``: the heuristic's
        order breaks ties)."""
        number = self.search_count[p]
        self.search_count[p] += 1
        game = cast(SearchGame, self)  # a game class adds the loop's methods (clone, ...)
        totals = playout_totals(
            game, p, number, ranked, search.rollouts, search.playout, prepare, search.model
        )
        return number, totals, first_best(totals)
