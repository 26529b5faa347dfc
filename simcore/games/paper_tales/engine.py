"""Paper Tales engine: the functions the runner and the CLI call (see ``simcore.registry``).

Part 1 (issue 3): ``load_cards`` (cards.toml + rules.toml), ``card_catalog`` (``talesim
cards paper-tales``) and ``score_state`` (``talesim score paper-tales``). Part 2a: the turn
engine ``reference.py``, whose games ``play_events`` returns and ``narrate`` tells (ready
for ``talesim play`` once ``prepare`` exists). The numba kernel lands next; until then
``prepare``, ``run_chunk`` and ``bench`` raise one clear ``GameError``, so ``talesim
simulate|play|bench paper-tales`` stop with one ``error:`` line before anything is written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NoReturn

from simcore.registry import GameError, get_game

from . import state_io
from .tables import MAX_FRONT, MAX_PLAYERS, RESOURCES, Ability, CardSet, Production, load_cardset

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


def play_events(
    cards: CardSet, variant: str, seat_policies: list[int], seed: int, game_id: int
) -> list[dict[str, Any]]:
    """Every event of one game played by ``reference.py`` (a ``start`` event first)."""
    from .policies import POLICY_NAMES, default_weights
    from .reference import Rules, play_reference

    rules = Rules(cards, len(seat_policies))
    game = play_reference(rules, default_weights(), seat_policies, seed, game_id, record=True)
    start = {
        "event": "start",
        "game": "paper-tales",
        "variant": variant,
        "seed": seed,
        "game_id": game_id,
        "players": len(seat_policies),
        "policies": [POLICY_NAMES[p] for p in seat_policies],
    }
    return [start, *game.events]


def _spot(spot: int) -> str:
    return f"front {spot}" if spot < MAX_FRONT else f"back {spot - MAX_FRONT}"


def _names(units: list[str]) -> str:
    return ", ".join(units) if units else "nothing"


def narrate(event: dict[str, Any]) -> str:
    """One event of ``play_events`` as readable text."""
    kind = event["event"]
    head = f"turn {event.get('turn', 0)}: seat {event.get('seat', '-')}"
    if kind == "start":
        return (
            f"Paper Tales ({event['variant']}), seed {event['seed']}, game {event['game_id']}:"
            f" {event['players']} players ({', '.join(event['policies'])})"
        )
    if kind == "setup":
        return f"Setup: the deck is shuffled, {event['players']} players get {event['gold']} gold"
    if kind == "reshuffle":
        return (
            f"          the discard pile becomes the draw pile ({event['cards']} cards, shuffled)"
        )
    if kind == "draft":
        way = "seat+1" if event["direction"] > 0 else "seat-1"
        thrown = f", discards {_names(event['discarded'])}" if event["discarded"] else ""
        return f"{head} drafts {_names(event['cards'])} (passing to {way}){thrown}"
    if kind == "place":
        old = f", discarding {event['replaced']}" if event["replaced"] else ""
        return f"{head} places {event['unit']} face down on {_spot(event['spot'])}{old}"
    if kind == "move":
        return f"{head} moves {event['unit']} from {_spot(event['spot'])} to {_spot(event['to'])}"
    if kind == "keep":
        return f"{head} keeps {event['kept'] or 'nothing'}, discards {_names(event['discarded'])}"
    if kind == "pay":
        where, cost = _spot(event["spot"]), event["cost"]
        return f"{head} reveals {event['unit']} on {where}, pays {cost} (gold {event['gold']})"
    if kind == "unpaid":
        return f"{head} cannot pay {event['cost']} for {event['unit']}: discarded"
    if kind == "age":
        on = _names(event["targets"])
        return f"{head} {event['unit']} puts {event['amount']} age token(s) on {on}"
    if kind == "upgrade":
        return f"{head} {event['building']} becomes level 2 ({event['how']})"
    if kind == "shapeshift":
        return (
            f"{head} Shapeshifter reveals {_names(event['revealed'] + [event['becomes'] or ''])}"
            f" and becomes {event['becomes'] or 'nothing'}"
        )
    if kind == "deploy_lp":
        return f"{head} deployment LP {event['lp']:+d}"
    if kind == "wars":
        return (
            f"{head} strength {event['strength']} vs {event['against']}: {event['won']} war(s)"
            f" won, {event['lp']:+d} LP" + (f", {event['gold']:+d} gold" if event["gold"] else "")
        )
    if kind == "income":
        return f"{head} income {event['gold']:+d} gold (gold {event['total']})"
    if kind == "build":
        how = "upgrades" if event["upgrade"] else "builds"
        return (
            f"{head} {how} {event['building']} to level {event['level']} for {event['gold']} gold"
        )
    if kind == "aging":
        saved = f", saved {_names(event['saved'])}" if event["saved"] else ""
        return (
            f"{head} aging: {_names(event['died']) + ' die' if event['died'] else 'nobody dies'}"
            f"{saved}"
            f" ({event['lp']:+d} LP, {event['gold']:+d} gold)"
        )
    if kind == "final":
        lines = ["Game over. Final scores:"]
        for p, s in enumerate(event["scores"]):
            parts = ", ".join(f"{k} {v:+d}" for k, v in event["breakdown"][p].items() if v)
            lines.append(f"  seat {p}: {s} LP, {event['gold'][p]} gold ({parts or 'nothing'})")
        winners = event["winners"]
        lines.append(
            "Winner" + ("s" if len(winners) > 1 else "") + ": "
            + ", ".join(f"seat {w}" for w in winners)
        )  # fmt: skip
        return "\n".join(lines)
    return str(event)


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
