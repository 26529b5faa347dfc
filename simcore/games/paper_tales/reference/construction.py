"""§2.5 Construction: seat by seat, one option (build a level 1, a level 2 directly, or
upgrade a level 1), each at its cheapest payment (``payment``: land cost, resources or
their gold substitutes); option order: the package docstring, "Decisions and their option
order". §N: ``docs/rules/paper-tales.md``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..tables import MAX_BUILD_OPTIONS, MAX_BUILD_OPTIONS_LEGENDS, N_RES
from .kingdom import production

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class Build:
    """A construction option: building ``b`` to ``level`` (``upgrade``: from level 1)."""

    b: int
    level: int
    upgrade: bool
    gold: int  # cheapest payment, land cost included


def construction(game: Game) -> None:
    """Resumable: a game copied at a seat's choice (``search.py``) plays on from seat
    ``game.seat``."""
    if not game.begun:
        game.phase = "construction"
        game.freeze_strengths()
        game.begun, game.seat = True, 0
    for p in range(game.seat, game.n):
        game.seat = p
        pl = game.players[p]
        options = game.build_options(p)
        bound = MAX_BUILD_OPTIONS_LEGENDS if game.rules.legends else MAX_BUILD_OPTIONS
        assert 1 + len(options) <= bound
        k = game.brain.build(p, options)
        if not k:
            continue
        o = options[k - 1]
        pl.gold -= o.gold
        assert pl.gold >= 0
        pl.blevel[o.b] = o.level
        log = pl.buildings[o.b]
        log.level = o.level
        if not o.upgrade:
            log.turn_built = game.turn
        if o.level == 2:
            log.turn_upgraded = game.turn
        log.how = "build" if o.level == 1 or o.upgrade else "direct"
        game.emit(
            "build",
            seat=p,
            building=game.rules.buildings[o.b].id,
            level=o.level,
            upgrade=o.upgrade,
            gold=o.gold,
        )
    game.begun, game.seat = False, 0  # over (a phase may be called alone)


def build_options(game: Game, p: int) -> list[Build]:
    pl = game.players[p]
    out = []
    for b in game.bset:
        lv = pl.blevel[b]
        for level, upgrade in ((1, False), (2, False)) if lv == 0 else ((2, True),):
            if lv == 2:
                continue
            gold = game.payment(p, b, level, upgrade)
            if gold is not None and gold <= pl.gold:
                out.append(Build(b, level, upgrade, gold))
    return out


def payment(game: Game, p: int, b: int, level: int, upgrade: bool) -> int | None:
    """Cheapest gold payment for building ``b`` to ``level`` (None: impossible).

    Gold = land cost (new buildings: ``land_cost_per_building`` x buildings owned;
    none with ``no_land_cost``; upgrades only with ``land_cost_on_upgrade``) + for each
    level paid, either its resources (never consumed) or its ``gold_instead`` (Temple),
    + 1 G per missing resource when a ``gold_for_resource`` ability covers it (Wood
    Merchant: wood; Grand Architect: any). Levels paid: upgrade -> 2; new -> 1, or 1
    and 2 (direct level 2: resources summed, or their maximum, ``direct_level2_
    requirement``). Choices tried: bit k of c (c = 0, 1, ...) = level k pays gold; the
    first cheapest wins. Whether the seat holds that much gold is not checked here."""
    r = game.rules
    pl = game.players[p]
    pieces = pl.pieces(r)
    prod = production(r, pieces, pl.blevel, pl.arts())
    abilities = [a for pc in pieces for a in r.units[pc.unit].abilities]
    if r.legends:  # land discounts and substitutions of building faces and artifacts
        abilities += [a for b in game.bset for a in r.face_abilities(b, pl.blevel[b])]
        abilities += [a for x in pl.arts() for a in r.artifacts[x].abilities]
    land_abilities = [a for a in abilities if a.kind == "no_land_cost"]
    free_land = any(a.discount == 0 for a in land_abilities)
    discount = sum(a.discount for a in land_abilities)
    subst = {res for a in abilities if a.kind == "gold_for_resource" for res in a.resources}
    owned = sum(1 for lv in pl.blevel if lv)
    land = 0
    if not free_land and (not upgrade or r.o["land_cost_on_upgrade"]):
        land = max(0, r.o["land_cost_per_building"] * owned - discount)
    levels = [r.buildings[b].levels[k] for k in ((1,) if upgrade else range(level))]
    best = None
    for c in range(1 << len(levels)):
        gold = land
        need = [0] * N_RES
        ok = True
        for k, face in enumerate(levels):
            if c >> k & 1:
                if face.gold_instead is None:
                    ok = False
                else:
                    gold += face.gold_instead
                continue
            for res in range(N_RES):
                if r.o["direct_level2_requirement"] == "sum":
                    need[res] += face.requires[res]
                else:
                    need[res] = max(need[res], face.requires[res])
        if not ok:
            continue
        for res, name in enumerate(("wood", "food", "crystal")):
            missing = max(0, need[res] - prod[res])
            if missing and name not in subst:
                ok = False
            gold += missing
        if ok and (best is None or gold < best):
            best = gold
    return best
