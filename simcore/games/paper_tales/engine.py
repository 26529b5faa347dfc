"""Paper Tales engine: the functions the runner and the CLI call (see ``simcore.registry``).

Part 1 (issue 3): ``load_cards`` (cards.toml + rules.toml), ``card_catalog`` (``talesim
cards paper-tales``) and ``score_state`` (``talesim score paper-tales``). The turn engine
and the numba kernel land in part 2; until then ``prepare``, ``run_chunk`` and ``bench``
raise one clear ``GameError``, so ``talesim simulate|play|bench paper-tales`` stop with
one ``error:`` line before anything is written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NoReturn

from simcore.registry import GameError, get_game

from . import state_io
from .tables import MAX_PLAYERS, RESOURCES, Ability, CardSet, Production, load_cardset

GAME = get_game("paper-tales")
NOT_YET = (
    "paper-tales: the simulation kernel is not implemented yet (issue 3, part 2); "
    "`talesim score` and `talesim cards` work"
)


def load_cards(path: Path | None = None) -> CardSet:
    """The card set: ``path`` replaces cards.toml (units + buildings); rules.toml built in."""
    return load_cardset(path)


def _abilities(abilities: tuple[Ability, ...]) -> str:
    return "; ".join(a.text() for a in abilities)


def _requirement(req: tuple[int, ...], gold_instead: int | None) -> str:
    text = " + ".join(f"{n} {r}" for r, n in zip(RESOURCES, req, strict=True) if n) or "-"
    return text + (f" (or {gold_instead} gold)" if gold_instead is not None else "")


def _production(lv1: Production, lv2: Production) -> str:
    a, b = lv1.text(), lv2.text()
    return " | ".join(x for x in (a, f"L2 +{b}" if b else "") if x)


def card_catalog(cards: CardSet, variant: str) -> list[dict[str, object]]:
    """The 42 units then the 5 buildings, as the rows of ``talesim cards paper-tales``."""
    GAME.variant(variant)
    if variant not in cards.rules.variants:
        raise GameError(f"the rules file has no [variant.{variant}] table")
    rows: list[dict[str, object]] = [
        {
            "id": u.id,
            "name": u.name,
            "category": "unit",
            "copies": u.copies,
            "value": "",
            "effect": _abilities(u.abilities),
            "status": u.status,
            "cost": str(u.cost),
            "strength": str(u.strength),
            "produces": u.produces.text(),
        }
        for u in cards.units
    ]
    for b in cards.buildings:
        l1, l2 = b.levels
        effect = " | ".join(
            f"L{k}: {_abilities(lv.abilities)}" for k, lv in ((1, l1), (2, l2)) if lv.abilities
        )
        rows.append(
            {
                "id": b.id,
                "name": b.name,
                "category": "building",
                "copies": MAX_PLAYERS,  # one per player (§1)
                "value": f"{l1.lp}/{l2.lp} LP",
                "effect": effect,
                "status": b.status,
                "cost": f"L1 {_requirement(l1.requires, l1.gold_instead)}; "
                f"L2 {_requirement(l2.requires, l2.gold_instead)}",
                "strength": "",
                "produces": _production(l1.produces, l2.produces),
            }
        )
    return rows


def score_state(state: dict[str, Any], cards: CardSet | None = None) -> dict[str, Any]:
    """Static evaluation of a position given as JSON (see ``state_io``)."""
    cards = cards or load_cardset()
    return state_io.score_position(cards, state_io.parse_state(state, cards))


def _not_yet(*_: Any, **__: Any) -> NoReturn:
    raise GameError(NOT_YET)


def prepare(
    cards: CardSet, variant: str, players: int, policies: list[str], rotate_seats: bool
) -> NoReturn:
    """Part 2. Raises ``GameError`` (before the runner writes anything)."""
    _not_yet()


def run_chunk(
    prepared: Any, seed: int, first_game: int, n_games: int, check: bool = False
) -> NoReturn:
    """Part 2. Raises ``GameError``."""
    _not_yet()


def bench(
    players: int, policy: str, threads: int, n_games: int, reference_games: int, variant: str | None
) -> NoReturn:
    """Part 2. Raises ``GameError``."""
    _not_yet()
