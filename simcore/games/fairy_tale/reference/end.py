"""Final scoring (``docs/rules/fairy-tale.md`` §5): Tricksters take their identity,
every face-up card scores; the winners.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import BREAKDOWN, KIND_COLUMN
from .scoring import _shift, copy_value, total

if TYPE_CHECKING:
    from .game import FairyTaleGame


def final_scoring(game: FairyTaleGame) -> None:
    r = game.rules
    for p, player in enumerate(game.players):
        wild = [t.card for t in player.tableau if t.face_up and r.value(t.card)["kind"] == "wild"]
        if wild:
            player.trickster_as = game.choose_trickster(p, wild[0])
            game.emit("trickster", seat=p, card=game.cid(player.trickster_as))
    for p, player in enumerate(game.players):
        player.breakdown = dict.fromkeys(BREAKDOWN, 0)
        player.points = []
        own, own_fc = game.up.cards[p], game.up.factions[p]
        for t in player.tableau:
            pts = 0
            if t.face_up:
                kind = r.value(t.card)["kind"]
                if kind == "wild":
                    pts = r.value(t.card)["points"] + copy_value(
                        r, player.trickster_as, own, own_fc, game.up, p
                    )
                else:
                    pts = copy_value(r, t.card, own, own_fc, game.up, p)
                player.breakdown[KIND_COLUMN[kind]] += pts
            player.points.append(pts)
        player.score = sum(player.points)
    scores = [pl.score for pl in game.players]
    game.emit(
        "final",
        scores=scores,
        winners=game.winners(),
        breakdown=[pl.breakdown for pl in game.players],
        face_down=[sum(not t.face_up for t in pl.tableau) for pl in game.players],
    )


def choose_trickster(game: FairyTaleGame, p: int, wild: int) -> int:
    """The Trickster becomes the copy of one other card (of this deck) that maximises its
    owner's score; ties go to the lowest card id. It then counts as that card."""
    r = game.rules
    own, own_fc = game.up.cards[p], game.up.factions[p]
    k = own[wild]
    _shift(r, own, own_fc, wild, -k)
    best, best_u = 0, -1
    for u in r.by_id:
        if u == wild or u not in r.in_deck:
            continue
        _shift(r, own, own_fc, u, k)
        score = total(r, own, own_fc, game.up, p)
        _shift(r, own, own_fc, u, -k)
        if best_u < 0 or score > best:
            best, best_u = score, u
    _shift(r, own, own_fc, best_u, k)
    return best_u


def winners(game: FairyTaleGame) -> list[int]:
    top = max(pl.score for pl in game.players)
    return [pl.seat for pl in game.players if pl.score == top]
