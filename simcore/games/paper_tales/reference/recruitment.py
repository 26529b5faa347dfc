"""§2.1 Recruitment: the deal, then draft steps until the packs are empty (2 players: a
discard after each pick), then hand = the drafted cards (pick order) + last turn's kept
card. Random numbers: the package docstring, "RNG draw order" 2-3. §N:
``docs/rules/paper-tales.md``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..tables import MAX_HAND
from .kingdom import CardLog

if TYPE_CHECKING:
    from .game import Game


def recruitment(game: Game) -> None:
    """The deal, the draft steps, the hands. Resumable: a game copied at a pick
    (``search.py``) plays on from its draft step ``game.step`` and seat ``game.seat``."""
    r = game.rules
    if not game.begun:
        game.phase = "recruitment"
        game.freeze_strengths()
        game.brain.draft_values = {}
        for p in range(game.n):
            pack = []
            for _ in range(r.deal):
                card = game.draw()
                assert card is not None, "the deck and the discard pile ran out"
                pack.append(card)
            game.packs[p] = pack
        game.drafted = [[] for _ in range(game.n)]
        game.thrown = [[] for _ in range(game.n)]
        game.begun, game.step, game.seat = True, 1, 0
    direction = r.direction(game.turn)
    while game.seat > 0 or game.packs[0]:  # every pack holds as many cards at a step's start
        for p in range(game.seat, game.n):
            game.seat = p
            pack = game.packs[p]
            card = pack.pop(game.brain.draft_pick(p, pack))
            game.drafted[p].append(card)
            kind = "artifact" if r.is_artifact(card) else "unit"
            game.players[p].receive(CardLog(card, game.uid(card), game.turn, game.step, kind=kind))
            for _ in range(r.discard_per_step):
                if pack:
                    out = pack.pop(game.brain.draft_discard(p, pack))
                    game.thrown[p].append(out)
                    game.to_discard(out, by=p)
        game.packs = [game.packs[(q - direction) % game.n] for q in range(game.n)]
        game.step += 1
        game.seat = 0
    for p, pl in enumerate(game.players):
        pl.hand = game.drafted[p] + ([pl.kept] if pl.kept is not None else [])
        pl.kept = None
        assert len(pl.hand) <= MAX_HAND
        game.emit(
            "draft",
            seat=p,
            direction=direction,
            cards=[game.uid(c) for c in game.drafted[p]],
            discarded=[game.uid(c) for c in game.thrown[p]],
            hand=[game.uid(c) for c in pl.hand],
        )
    game.drafted = [[] for _ in range(game.n)]
    game.thrown = [[] for _ in range(game.n)]
    game.begun, game.step, game.seat = False, 0, 0  # over (a phase may be called alone)
