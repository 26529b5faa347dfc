"""§2.1 Recruitment: the deal, then draft steps until the packs are empty (2 players: a
discard after each pick), then hand = the drafted cards (pick order) + last turn's kept
card. Random numbers: the package docstring, "RNG draw order" 2-3."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..tables import MAX_HAND
from .kingdom import CardLog

if TYPE_CHECKING:
    from .game import Game


def recruitment(game: Game) -> None:
    r = game.rules
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
    direction = r.direction(game.turn)
    drafted: list[list[int]] = [[] for _ in range(game.n)]
    thrown: list[list[int]] = [[] for _ in range(game.n)]
    step = 0
    while any(game.packs):
        step += 1
        for p in range(game.n):
            pack = game.packs[p]
            card = pack.pop(game.brain.draft_pick(p, pack))
            drafted[p].append(card)
            kind = "artifact" if r.is_artifact(card) else "unit"
            game.players[p].receive(CardLog(card, game.uid(card), game.turn, step, kind=kind))
            for _ in range(r.discard_per_step):
                if pack:
                    out = pack.pop(game.brain.draft_discard(p, pack))
                    thrown[p].append(out)
                    game.to_discard(out)
        game.packs = [game.packs[(q - direction) % game.n] for q in range(game.n)]
    for p, pl in enumerate(game.players):
        pl.hand = drafted[p] + ([pl.kept] if pl.kept is not None else [])
        pl.kept = None
        assert len(pl.hand) <= MAX_HAND
        game.emit(
            "draft",
            seat=p,
            direction=direction,
            cards=[game.uid(c) for c in drafted[p]],
            discarded=[game.uid(c) for c in thrown[p]],
            hand=[game.uid(c) for c in pl.hand],
        )
