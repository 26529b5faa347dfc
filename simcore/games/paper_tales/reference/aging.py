"""§2.6 Aging, in the §8 order: Healer choices, the death abilities of the dying units,
the discard, +1 token to every survivor (``dies``, ``death_rewards``). §N:
``docs/rules/paper-tales.md``; the expansion's rules: ``docs/rules/paper-tales-legends.md``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..tables import MAX_AGE
from .kingdom import Piece, base_facts, per_value, production, when_holds
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game


def never_dies(rules: Rules, unit: int) -> bool:
    return any(a.kind == "never_dies" for a in rules.units[unit].abilities)


def dies(rules: Rules, pc: Piece) -> bool:
    """§2.6: a unit with >= 1 token dies, unless ``never_dies``; ``dies_at_age`` raises the
    threshold (Salamander: 2)."""
    need = 1
    for a in rules.units[pc.unit].abilities:
        if a.kind == "never_dies":
            return False
        if a.kind == "dies_at_age":
            need = a.min_age
    return pc.age >= need


def death_rewards(
    rules: Rules, pieces: list[Piece], blevel: list[int], dying: list[Piece], prod: list[int]
) -> tuple[int, int]:
    """(LP, gold) of the Aging phase's death abilities: each dying unit's ``death_lp`` /
    ``death_gold``, then every unit's ``lp_per_dying_age`` (dying ones included) times
    the tokens on the dying units."""
    lp = gold = 0
    facts = base_facts(pieces, blevel)
    for pc in dying:
        for a in rules.units[pc.unit].abilities:
            if a.kind == "death_lp" and when_holds(a.when, pc, prod):
                lp += a.amount * per_value(a.per, pc, prod, facts)
            elif a.kind == "death_gold":
                gold += a.amount * per_value(a.per, pc, prod, facts)
    tokens = sum(pc.age for pc in dying)
    for pc in pieces:
        for a in rules.units[pc.unit].abilities:
            if a.kind == "lp_per_dying_age":
                lp += a.amount * tokens
    return lp, gold


def aging(game: Game) -> None:
    """§8 order: Healer choices -> death abilities -> discard -> +1 token to survivors
    (saved units included when ``healed_units_age``)."""
    r = game.rules
    game.phase = "aging"
    game.freeze_strengths()
    for p, pl in enumerate(game.players):
        pieces = pl.pieces(r)
        dying = {pc.spot for pc in pieces if dies(r, pc)}
        saved: list[int] = []
        savers = [a for pc in pieces for a in r.units[pc.unit].abilities]
        if r.legends:  # then building faces (Abbey L1), then artifacts (Phial of Life)
            savers += [a for b in game.bset for a in r.face_abilities(b, pl.blevel[b])]
            savers += [a for x in pl.arts() for a in r.artifacts[x].abilities]
        for a in savers:
            if a.kind == "heal":
                saveable = [
                    x.spot
                    for x in pieces
                    if x.spot in dying and x.spot not in saved and x.age == a.age
                ]
                if saveable:
                    k = game.brain.heal(p, saveable)
                    if k:
                        saved.append(saveable[k - 1])
        dead = [pc for pc in pieces if pc.spot in dying and pc.spot not in saved]
        lp, gold = game.death_abilities(p, [pc.spot for pc in dead])
        for pc in dead:
            pl.log[game.slot(p, pc.spot).card].died_in_aging = True
            game.kill(p, pc.spot, "died")
        for s, sl in enumerate(pl.spots):
            if sl is None or (s in saved and not r.o["healed_units_age"]):
                continue
            sl.age += 1
            assert sl.age <= MAX_AGE
            pl.log[sl.card].turns_survived += 1
        for z in pl.zone:  # never age nor leave (paper-tales-legends.md §2.3)
            pl.log[z.card].turns_survived += 1
        game.settle(p)
        game.emit(
            "aging",
            seat=p,
            saved=[game.uid(game.slot(p, s).card) for s in saved],
            died=[r.units[pc.unit].id for pc in dead],
            lp=lp,
            gold=gold,
        )


def death_abilities(game: Game, p: int, spots: list[int]) -> tuple[int, int]:
    """The death abilities of seat ``p``'s units on ``spots`` (about to be discarded):
    LP booked as ``aging``, gold gained at once. Returns (LP, gold)."""
    pl = game.players[p]
    pieces = pl.pieces(game.rules)
    dead = [pc for pc in pieces if pc.spot in spots]
    prod = production(game.rules, pieces, pl.blevel, pl.arts())
    lp, gold = death_rewards(game.rules, pieces, pl.blevel, dead, prod)
    game.score(p, "aging", lp)
    pl.gold += gold
    return lp, gold
