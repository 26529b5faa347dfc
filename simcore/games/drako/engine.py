"""DRAKO engine: the functions the runner and the CLI call (see ``simcore.registry``).

Part 1 (today): ``load_cards`` (the rules file), ``card_catalog`` (``talesim cards
drako``) and ``score_state`` (``talesim score drako``). The simulation kernel lands in
part 2 of issue 4; until then ``prepare``, ``run_chunk`` and ``bench`` raise one clear
``GameError``, so ``talesim simulate|play|bench drako`` stop with one ``error:`` line
before anything is written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NoReturn

from simcore.registry import GameError, get_game

from . import state_io
from .tables import MARKS, DrakoData, load_data

GAME = get_game("drako")
NOT_YET = (
    "drako: the simulation kernel is not implemented yet (issue 4, part 2); "
    "`talesim score` and `talesim cards` work"
)


def load_cards(path: Path | None = None) -> DrakoData:
    """The rules file (kinds, Legends, options, presets); ``path`` replaces rules.toml."""
    return load_data(path)


def _preset(data: DrakoData, variant: str) -> Any:
    GAME.variant(variant)
    if variant not in data.presets:
        raise GameError(f"the rules file has no [preset.{variant}] table")
    return data.presets[variant].options


def card_catalog(data: DrakoData, variant: str) -> list[dict[str, object]]:
    """The 10 kingdom kinds then the Legends, as the rows of ``talesim cards drako``."""
    o = _preset(data, variant)
    values = "/".join(map(str, o.dragon_values))
    extra = -o.dragon_values[-1]
    rows: list[dict[str, object]] = []
    for k in data.kinds:
        if k.category == "tribe":
            value = ", ".join(f"{land} {pts:+d}" for land, pts in k.land_points.items())
            effect = "no portals" if k.portal_blind else ""
        elif k.category == "dragon":
            value = (
                f"{values} by dragon count; wild -value; beyond {o.dragon_max_positive}: {extra}"
            )
            effect = ""
        else:
            value, effect = "0", "links the cards around it" if k.category == "portal" else ""
        if k.id in o.replace_locked:
            effect = (effect + "; " if effect else "") + "locked face up"
        rows.append(
            {
                "id": k.id,
                "name": k.name,
                "category": k.category,
                "copies": sum(k.copies_by_mark),
                "value": value,
                "effect": effect,
                "status": k.status,
                "marks": "/".join(f"{m}:{n}" for m, n in zip(MARKS, k.copies_by_mark, strict=True)),
            }
        )
    for lg in data.legends:
        rows.append(
            {
                "id": lg.id,
                "name": lg.name,
                "category": f"legend ({lg.family})",
                "copies": 1,
                "value": str(lg.points),
                "effect": lg.requirement.text(),
                "status": lg.status,
                "marks": "",
            }
        )
    return rows


def score_state(state: dict[str, Any], data: DrakoData | None = None) -> dict[str, Any]:
    """Score breakdown of an end state given as JSON (see ``state_io``)."""
    data = data or load_data()
    preset, players = state_io.parse_state(state, data)
    return state_io.score_players(preset, players, data)


def _not_yet(*_: Any, **__: Any) -> NoReturn:
    raise GameError(NOT_YET)


def prepare(
    cards: DrakoData, variant: str, players: int, policies: list[str], rotate_seats: bool
) -> NoReturn:
    """Part 2. Raises ``GameError`` (before the runner writes anything)."""
    _not_yet()


def run_chunk(
    prepared: Any, seed: int, first_game: int, n_games: int, check: bool = False
) -> NoReturn:
    _not_yet()


def bench(
    players: int, policy: str, threads: int, n_games: int, reference_games: int, variant: str | None
) -> NoReturn:
    _not_yet()
