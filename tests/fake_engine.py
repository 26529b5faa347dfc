"""Test double of a game engine: the "toy" drafting game, for runner and CLI tests.

It implements the engine API of ``simcore/games/<game>/engine.py``
(``simcore.registry.Engine``: ``load_cards``, ``card_catalog``, ``prepare``, ``warmup``,
``simulate_arrays``, ``frames``, ``play``, ``narrate``, ``reference_player``,
``score_state``) in plain Python with the same dataset tables as Fairy Tale (a subset of
their columns); ``simulate_arrays`` plays the games, ``frames`` makes the tables. Every
game draws from ``GameRng(seed, game_id)`` only, so a game is the same whatever chunk it falls
in: determinism and resume tests are meaningful.

Rules: each seat makes ``PICKS`` picks over ``ROUNDS`` rounds; at each pick it is offered
``OFFER`` random card types and keeps one (``greedy``: highest value; ``random``: any;
``collector``: most of a faction it already holds). A kept card is played unless a coin
says otherwise; a played card scores its value (sky cards double in ``expert``).

Test hooks (reset by ``reset()``): ``fail_at_first_game`` makes ``simulate_arrays`` raise
once for the chunk starting at that game id; ``calls`` records ``(first_game, n_games)`` of
each ``simulate_arrays`` and ``checks`` its ``check`` argument; ``warmups`` counts ``warmup``
calls; ``broken_game`` is a game id whose play breaks an "invariant": ``simulate_arrays(...,
check=True)`` raises ``InvariantError`` naming the seed and that game (unchecked, the game
is stored like any other); ``chunk_delay`` sleeps that many seconds per chunk.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
from kit import SEAT_SCHEMA

from talesim.simcore.cards import CardDataError, Fields, file_sha256, read_toml
from talesim.simcore.registry import GameError, InvariantError, get_game
from talesim.simcore.rng import GameRng

DEFAULT_CARDS = Path(__file__).resolve().parent / "fake_cards.toml"
ROUNDS = 2
PICKS = 4  # picks per seat in a game, PICKS // ROUNDS per round
OFFER = 3  # card types offered at each pick
FACTIONS = ("forest", "sky", "river")
POLICIES = ("random", "greedy", "collector")

fail_at_first_game: int | None = None
broken_game: int | None = None
chunk_delay = 0.0
calls: list[tuple[int, int]] = []
checks: list[bool] = []
warmups = 0


def reset() -> None:
    """Clear the test hooks."""
    global fail_at_first_game, broken_game, chunk_delay, warmups
    fail_at_first_game = None
    broken_game = None
    chunk_delay = 0.0
    calls.clear()
    checks.clear()
    warmups = 0


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    faction: str
    value: int
    copies: int


@dataclass(frozen=True)
class CardSet:
    cards: tuple[Card, ...]
    files: tuple[Path, ...]
    sha256: str


@dataclass(frozen=True)
class Prepared:
    cards: CardSet
    variant: str
    players: int
    policies: tuple[str, ...]
    rotate_seats: bool

    def config(self) -> dict[str, object]:
        return {
            "variant": self.variant,
            "rounds": ROUNDS,
            "picks": PICKS,
            "offer": OFFER,
            "sky_double": self.variant == "expert",
            "rotate_seats": self.rotate_seats,
        }


def load_cards(path: Path | None = None) -> CardSet:
    """Read and validate a toy card file (errors name file, card and field)."""
    path = Path(path) if path is not None else DEFAULT_CARDS
    data = read_toml(path)
    top = Fields(path, data, None)
    top.reject_unknown(["card"])
    entries = top.get("card")
    if not isinstance(entries, list) or not entries:
        raise top.error("card", "must be a non-empty array of tables")
    cards = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise CardDataError(path, "must be a table", card=f"#{i + 1}")
        card_id = entry.get("id") if isinstance(entry.get("id"), str) else f"#{i + 1}"
        f = Fields(path, entry, card_id)
        f.reject_unknown(["id", "name", "faction", "value", "copies"])
        cards.append(
            Card(
                id=f.string("id"),
                name=f.string("name"),
                faction=f.choice("faction", FACTIONS),
                value=f.integer("value", 0, 9),
                copies=f.integer("copies", 1, 9),
            )
        )
    return CardSet(tuple(cards), (path,), file_sha256(path))


def card_catalog(cards: CardSet, variant: str) -> list[dict[str, object]]:
    """Rows of ``talesim cards``."""
    return [
        {
            "id": c.id,
            "name": c.name,
            "faction": c.faction,
            "category": "creature",
            "copies": c.copies,
            "tier": 1,
            "value": c.value,
            "effect": "double in expert" if c.faction == "sky" else "",
            "status": "ok",
        }
        for c in cards.cards
    ]


def prepare(
    cards: CardSet, variant: str, players: int, policies: list[str], rotate_seats: bool
) -> Prepared:
    """Check the request the way a real engine does and freeze it."""
    if len(policies) != players:
        raise GameError(f"need {players} policies, got {len(policies)}")
    for p in policies:
        if p not in POLICIES:
            raise GameError(f"unknown policy '{p}'")
    return Prepared(cards, variant, players, tuple(policies), rotate_seats)


def warmup(prepared: Prepared) -> None:
    """Nothing to compile; counted for tests."""
    global warmups
    warmups += 1


def _seat_policy(prepared: Prepared, game_id: int, seat: int) -> str:
    if prepared.rotate_seats:
        return prepared.policies[(seat + game_id) % prepared.players]
    return prepared.policies[seat]


def _points(prepared: Prepared, card: Card) -> int:
    return card.value * (2 if prepared.variant == "expert" and card.faction == "sky" else 1)


def _choose(rng: GameRng, policy: str, offer: list[Card], kept: list[Card]) -> Card:
    if policy == "random":
        return offer[rng.below(len(offer))]
    if policy == "collector" and kept:
        count = {f: sum(c.faction == f for c in kept) for f in FACTIONS}
        return max(offer, key=lambda c: (count[c.faction], c.value))
    return max(offer, key=lambda c: c.value)


def _game(prepared: Prepared, seed: int, game_id: int) -> list[dict[str, Any]]:
    """One game as its event list (the single source for simulate_arrays and play)."""
    rng = GameRng(seed, game_id)
    types = prepared.cards.cards
    n = prepared.players
    policies = [_seat_policy(prepared, game_id, s) for s in range(n)]
    events: list[dict[str, Any]] = [{"event": "start", "game_id": game_id, "policies": policies}]
    kept: list[list[Card]] = [[] for _ in range(n)]
    scores = [0] * n
    for pick in range(1, PICKS + 1):
        rnd = (pick - 1) // (PICKS // ROUNDS) + 1
        for seat in range(n):
            offer = [types[rng.below(len(types))] for _ in range(OFFER)]
            card = _choose(rng, policies[seat], offer, kept[seat])
            kept[seat].append(card)
            played = rng.below(4) != 0
            face_up = rng.below(2) == 1
            points = _points(prepared, card) if played else 0
            scores[seat] += points
            events.append(
                {
                    "event": "pick",
                    "seat": seat,
                    "policy": policies[seat],
                    "card": card.id,
                    "pick": pick,
                    "round": rnd,
                    "played": played,
                    "face_up": face_up,
                    "points": points,
                }
            )
    top = max(scores)
    winners = [s for s in range(n) if scores[s] == top]
    ranks = [1 + sum(o > sc for o in scores) for sc in scores]
    events.append(
        {"event": "final", "scores": scores, "winners": winners, "ranks": ranks, "top": top}
    )
    return events


def simulate_arrays(
    prepared: Prepared, seed: int, first_game: int, n_games: int, check: bool = False
) -> dict[str, Any]:
    """The columns of the tables games/seats/cards for games ``first_game .. first_game +
    n_games - 1``, as lists (``frames`` makes them tables).

    ``check``: checking mode; the only "invariant" it can find broken is ``broken_game``.
    """
    global fail_at_first_game
    calls.append((first_game, n_games))
    checks.append(check)
    if chunk_delay:
        time.sleep(chunk_delay)
    if fail_at_first_game == first_game:
        fail_at_first_game = None
        raise RuntimeError(f"injected failure at game {first_game}")
    if check and broken_game is not None and first_game <= broken_game < first_game + n_games:
        raise InvariantError(
            f"seed {seed}, game {broken_game}: invariant 'cards conserved' broken "
            f"(replay: talesim play toy --seed {seed} --game {broken_game})"
        )
    games: dict[str, list[Any]] = {"game_id": [], "n_winners": [], "top_score": []}
    seats: dict[str, list[Any]] = {
        k: [] for k in ("game_id", "seat", "policy", "score", "rank", "win")
    }
    cards: dict[str, list[Any]] = {
        k: [] for k in ("game_id", "seat", "card", "pick", "round", "played", "face_up", "points")
    }
    for g in range(first_game, first_game + n_games):
        events = _game(prepared, seed, g)
        final = events[-1]
        games["game_id"].append(g)
        games["n_winners"].append(len(final["winners"]))
        games["top_score"].append(final["top"])
        for seat in range(prepared.players):
            seats["game_id"].append(g)
            seats["seat"].append(seat)
            seats["policy"].append(events[0]["policies"][seat])
            seats["score"].append(final["scores"][seat])
            seats["rank"].append(final["ranks"][seat])
            seats["win"].append(1.0 / len(final["winners"]) if seat in final["winners"] else 0.0)
        for e in events[1:-1]:
            cards["game_id"].append(g)
            for k in ("seat", "card", "pick", "round", "played", "face_up", "points"):
                cards[k].append(e[k])
    return {"games": games, "seats": seats, "cards": cards}


def frames(prepared: Prepared, a: dict[str, Any], first_game: int) -> dict[str, pl.DataFrame]:
    """The columns of ``simulate_arrays`` as the dataset's tables."""
    games, seats, cards = a["games"], a["seats"], a["cards"]
    return {
        "games": pl.DataFrame(
            games, schema={"game_id": pl.Int64, "n_winners": pl.Int8, "top_score": pl.Int16}
        ),
        "seats": pl.DataFrame(
            seats,
            schema=SEAT_SCHEMA,
        ),
        "cards": pl.DataFrame(
            cards,
            schema={
                "game_id": pl.Int64,
                "seat": pl.Int8,
                "card": pl.String,
                "pick": pl.Int8,
                "round": pl.Int8,
                "played": pl.Boolean,
                "face_up": pl.Boolean,
                "points": pl.Int16,
            },
        ),
    }


def play(prepared: Prepared, seed: int, game_id: int) -> list[dict[str, Any]]:
    """The events of one game (the same game ``simulate_arrays`` stores as ``game_id``)."""
    return _game(prepared, seed, game_id)


def narrate(event: dict[str, Any]) -> str:
    """One readable line per event."""
    kind = event["event"]
    if kind == "start":
        return f"game {event['game_id']}: seats play {', '.join(event['policies'])}"
    if kind == "pick":
        verb = "plays" if event["played"] else "keeps"
        return (
            f"round {event['round']}, pick {event['pick']}: seat {event['seat']} {verb} "
            f"{event['card']} (+{event['points']})"
        )
    return f"final scores {event['scores']}; winners {event['winners']}"


def score_state(
    state: dict[str, Any], cards: Any = None, variant: str | None = None
) -> dict[str, Any]:
    """Score an end state ``{"variant"?: str, "players": [{"face_up": [card id, ...]}, ...]}``
    into the same shape as Fairy Tale's ``score_state`` (whose states name their variant
    too: ``variant`` given apart is refused)."""
    get_game("toy").state_names_variant(variant)
    if not isinstance(state, dict) or not isinstance(state.get("players"), list):
        raise ValueError("state must be an object with a 'players' list")
    variant = state.get("variant", "expert")
    cards = cards or load_cards()
    by_id = {c.id: c for c in cards.cards}
    prepared = Prepared(cards, variant, len(state["players"]), (), False)
    players: list[dict[str, Any]] = []
    for i, seat in enumerate(state["players"]):
        ids = seat.get("face_up") if isinstance(seat, dict) else None
        if not isinstance(ids, list):
            raise ValueError(f"player {i}: 'face_up' must be a list of card ids")
        rows = []
        for card_id in ids:
            if card_id not in by_id:
                raise ValueError(f"player {i}: unknown card '{card_id}'")
            rows.append(
                {"card": card_id, "points": _points(prepared, by_id[card_id]), "face_up": True}
            )
        total = sum(r["points"] for r in rows)
        players.append(
            {
                "seat": i,
                "total": total,
                "cards": rows,
                "breakdown": {"fixed": total},
                "face_down": 0,
                "trickster_as": None,
            }
        )
    top = max((p["total"] for p in players), default=0)
    return {"players": players, "winners": [p["seat"] for p in players if p["total"] == top]}


def reference_player(prepared: Prepared) -> Any:
    """``play(seed, game_id)``: one game at a time (what ``talesim bench`` compares with)."""
    return lambda seed, game_id: _game(prepared, seed, game_id)
