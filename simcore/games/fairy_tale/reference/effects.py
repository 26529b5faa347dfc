"""The play steps' effects (``docs/rules/fairy-tale.md`` §4): Hunt, then Open, then Close (a
maximum matching of closed cards to Close effects).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..policies import Decision
from .rules import Phase

if TYPE_CHECKING:
    from .game import FairyTaleGame


def resolve_effects(game: FairyTaleGame, revealed: list[int], slots: list[int]) -> None:
    """Hunt -> Open -> Close (§4) of the cards ``revealed`` (one per seat, at
    tableau ``slots``)."""
    game.revealed = [(c, -1) for c in revealed]
    game.slots = list(slots)
    game.hunt()
    game.pos.phase, game.pos.seat, game.pos.sub = Phase.OPEN, 0, 0
    game.resolve_open_close()


def hunt(game: FairyTaleGame) -> None:
    """Each Hunt card turns face down the cards of its faction revealed this step by the
    other players (their effects are cancelled)."""
    r = game.rules
    revealed = [rc[0] for rc in game.revealed]  # type: ignore[index]
    game.hunted = [False] * game.n
    if not r.hunt:
        return
    for h, e in enumerate(revealed):
        if r.effect(e)["kind"] != "hunt":
            continue
        prey = r.effect(e)["faction"]
        for q in range(game.n):
            if q != h and r.cards[revealed[q]].faction == prey:
                game.hunted[q] = True
                game.emit(
                    "hunt",
                    seat=h,
                    card=game.cid(e),
                    target_seat=q,
                    target=game.cid(revealed[q]),
                )
    for q in range(game.n):
        if game.hunted[q] and game.players[q].tableau[game.slots[q]].face_up:
            game.turn(q, game.slots[q], False)


def resolve_open_close(game: FairyTaleGame) -> None:
    """Open, then Close, from ``pos`` (``Phase.OPEN`` or ``Phase.CLOSE``)."""
    r = game.rules
    revealed = [rc[0] for rc in game.revealed]  # type: ignore[index]
    if not r.effects:
        return
    if game.pos.phase == Phase.OPEN:
        for p in range(game.pos.seat, game.n):
            game.pos.seat = p
            e = revealed[p]
            if game.hunted[p] or r.effect(e)["kind"] != "open":
                continue
            for k in range(game.pos.sub, r.effect(e)["count"]):
                game.pos.sub = k
                tableau = game.players[p].tableau
                options = [
                    s for s, t in enumerate(tableau) if not t.face_up and r.selects(e, t.card)
                ]
                if not options:
                    break
                i = game.decide(Decision.OPEN, p, [tableau[s].card for s in options], p)
                game.turn(p, options[i], True)
                game.emit("open", seat=p, by=game.cid(e), card=game.cid(tableau[options[i]].card))
            game.pos.sub = 0
        game.aimed = [[] for _ in range(game.n)]
        for p, e in enumerate(revealed):
            eff = r.effect(e)
            if game.hunted[p] or eff["kind"] != "close":
                continue
            for q in range(game.n):
                if (eff["scope"] == "you" and q != p) or (eff["scope"] == "others" and q == p):
                    continue
                game.aimed[q] += [e] * eff["count"]
        game.pos.phase, game.pos.seat = Phase.CLOSE, 0
        game.close_chosen = []
    for q in range(game.pos.seat, game.n):
        game.pos.seat = q
        if game.aimed[q]:
            game.resolve_closes(q, game.aimed[q])
        game.close_chosen = []


def resolve_closes(game: FairyTaleGame, q: int, effects: list[int]) -> None:
    """Player ``q`` closes as many distinct face-up cards as ``effects`` allow (a maximum
    matching of cards to effects), choosing one card at a time among those that can
    still be matched together with the ones already chosen (``close_chosen``)."""
    tableau = game.players[q].tableau
    chosen = game.close_chosen
    while True:
        options = [
            s
            for s, t in enumerate(tableau)
            if t.face_up and game.matchable([tableau[x].card for x in [*chosen, s]], effects)
        ]
        if not options:
            return
        i = game.decide(Decision.CLOSE, q, [tableau[s].card for s in options], q)
        chosen.append(options[i])
        game.turn(q, options[i], False)
        game.emit(
            "close",
            seat=q,
            card=game.cid(tableau[options[i]].card),
            by=sorted({game.cid(e) for e in effects}),
        )


def matchable(game: FairyTaleGame, cards: list[int], effects: list[int]) -> bool:
    """Can every card be answered by a different effect that selects it?"""
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    for k, e in enumerate(effects):
        if game.rules.selects(e, first) and game.matchable(rest, effects[:k] + effects[k + 1 :]):
            return True
    return False
