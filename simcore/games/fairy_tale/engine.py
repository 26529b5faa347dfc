"""Fairy Tale engine: the functions the runner and the CLI call (see ``simcore.registry``).

Validates the request, compiles the card tables, runs the numba kernel, and turns its
fixed-size result arrays into polars frames. ``play`` and ``score_state`` use the readable
``reference`` (proven equal to the kernel by the differential tests).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from talesim.simcore import engine_kit
from talesim.simcore.registry import GameError, get_game

from . import state_io
from .kernel import new_chunk_out, score_end_state
from .policies import POLICY_NAMES, Policy, default_weights
from .reference import BREAKDOWN, FairyTaleGame, Rules, play_reference
from .tables import PICKS, CardSet, Tables, compile_tables, load_cardset

GAME = get_game("fairy-tale")


class Prepared(
    engine_kit.Prepared, game=GAME, names=POLICY_NAMES, mc=Policy.MC, learned=Policy.LEARNED
):
    """A validated Fairy Tale request: card set (``CardSet``), seats and the compiled tables
    (``tables.Tables``); one kernel slot per distinct spec."""

    cards: CardSet
    tables: Tables

    def slot_table(self) -> tuple[np.ndarray, np.ndarray]:
        """The kernel's seats: int32[slots, 5], each distinct spec's ``slot_row`` (policy
        code, mc rollouts, top and playout policy code, model row), and each seat's slot
        (``seat_slot``: its spec's index in ``slots.names``)."""
        rows = [self.slot_row(spec) for spec in self.slots.specs]
        return np.array(rows, dtype=np.int32).reshape(-1, 5), self.seat_slot

    def slot_names(self) -> list[str]:
        """The name of each slot: the distinct specs (``slots.names``)."""
        return list(self.slots.names)

    def config(self) -> dict[str, Any]:
        """Rule options that determine the data (stored in the manifest)."""
        vr = self.cards.rules.variants[self.variant]
        return {
            "majority_ties": self.cards.rules.majority_ties,
            "multi_close": self.cards.rules.multi_close,
            "tie_break": self.cards.rules.tie_break,
            "tiers": list(vr.tiers),
            "effects": vr.effects,
            "hunt": vr.hunt,
            "beginner_setup": vr.beginner_setup,
            "deck_size": int(self.tables.deck.shape[0]),
            "weights": self.weight_rows(),
        }


def load_cards(path: Path | None = None) -> CardSet:
    return load_cardset(path)


def card_catalog(cards: CardSet, variant: str) -> list[dict[str, object]]:
    tiers = _variant_rules(cards, variant).tiers
    return [
        {
            "id": c.id,
            "name": c.name,
            "faction": c.faction,
            "category": c.category,
            "copies": c.copies,
            "tier": c.tier,
            "value": c.value_text(),
            "effect": c.effect_text(),
            "status": c.status,
        }
        for c in cards.cards
        if c.tier in tiers
    ]


def _variant_rules(cards: CardSet, variant: str) -> Any:
    GAME.variant(variant)
    if variant not in cards.rules.variants:
        raise GameError(f"the rules file has no [variant.{variant}] table")
    return cards.rules.variants[variant]


def prepare(
    cards: CardSet, variant: str, players: int, policies: list[str], rotate_seats: bool
) -> Prepared:
    engine_kit.check_request(GAME, variant, players, policies)
    vr = _variant_rules(cards, variant)
    tables = compile_tables(cards, variant)
    needed = players * PICKS
    if tables.deck.shape[0] < needed:
        raise GameError(
            f"{players} players need {needed} cards; the {variant} deck of this "
            f"card file has {tables.deck.shape[0]}"
        )
    if vr.beginner_setup:
        plain = sum(
            c.copies
            for c in cards.cards
            if c.tier in vr.tiers and c.effect["kind"] not in ("open", "close")
        )
        if plain < players:
            raise GameError(f"beginner setup needs {players} cards without Open/Close")
    return Prepared(
        cards, variant, players, tuple(policies), rotate_seats, tables, default_weights()
    )


#: ``simulate_arrays(prepared, seed, first_game, n_games, check=False, record=None)``: a
#: chunk's raw result arrays (``kernel.ChunkOut`` fields; ``engine_kit.simulator``), played by
#: the kernels this module imports (``tests/fairy_tale/test_check_mode.py`` swaps one here).
simulate_arrays = engine_kit.simulator(
    "fairy-tale", f"{__package__}.kernel", lambda prepared, n: new_chunk_out(n, prepared.players)
)


def warmup(prepared: Prepared) -> None:
    simulate_arrays(prepared, 0, 0, 2)


def frames(
    prepared: Prepared, a: dict[str, np.ndarray], first_game: int
) -> dict[str, pl.DataFrame]:
    """Result arrays -> the games / seats / cards tables of the dataset."""
    n, P = a["score"].shape
    ids = prepared.cards.ids()
    card_enum = pl.Series("card", ids, dtype=pl.Enum(ids))
    game_id = engine_kit.game_ids(first_game, n)
    score = a["score"].astype(np.int16)
    games, win = engine_kit.games_table(game_id, score, score == score.max(axis=1)[:, None])
    trick = a["trick"]
    games = games.with_columns(
        trickster_as=pl.select(
            pl.when(pl.Series(trick >= 0)).then(card_enum.gather(np.maximum(trick, 0)))
        ).to_series()
    )
    seats = pl.DataFrame(
        {
            **engine_kit.seat_keys(game_id, P),
            "policy": engine_kit.categorical(prepared.slots.names, a["policy"]),
            "score": score.reshape(-1),
            "rank": engine_kit.ranks(score).reshape(-1),
            "win": win.reshape(-1),
            **{f"{b}_pts": a["breakdown"][:, :, k].reshape(-1) for k, b in enumerate(BREAKDOWN)},
            "face_down": a["face_down"].reshape(-1),
        }
    )
    cards = pl.DataFrame(
        {
            "game_id": np.repeat(game_id, P * PICKS),
            "seat": np.tile(np.repeat(np.arange(P, dtype=np.int8), PICKS), n),
            "card": card_enum.gather(a["card"].reshape(-1).astype(np.int64)),
            "pick": a["pick"].reshape(-1),
            "round": a["round"].reshape(-1),
            "played": a["played"].reshape(-1),
            "face_up": a["face_up"].reshape(-1),
            "points": a["points"].reshape(-1),
        }
    )
    return {"games": games, "seats": seats, "cards": cards}


# --- one game, narrated -------------------------------------------------------------------


def reference_player(prepared: Prepared) -> Callable[..., FairyTaleGame]:
    """``play(seed, game_id, record=False)``: game ``game_id`` played by ``reference``
    (``engine_kit.reference_player``)."""
    return engine_kit.reference_player(
        prepared, Rules(prepared.cards, prepared.variant), play_reference
    )


def play(prepared: Prepared, seed: int, game_id: int) -> list[dict[str, Any]]:
    """Every event of game ``game_id`` (same game as ``simulate`` stores under that id)."""
    game = reference_player(prepared)(seed, game_id, record=True)
    start = engine_kit.start_event("fairy-tale", prepared, seed, game_id, event="setup")
    return [start, *game.events]


def _narrate_search(event: dict[str, Any]) -> str:
    """An ``mc`` seat's search: each distinct candidate's mean outcome over its playouts."""
    rows = [
        f"      {c['card']:<28} "
        + (f"mean {c['mean']:+.4f} over {c['playouts']} playouts" if c["playouts"] else "")
        for c in event["candidates"]
    ]
    forced = "" if event["candidates"][0]["playouts"] else " (one distinct candidate)"
    return "\n".join(
        [
            f"    seat {event['seat']} searches its {event['decision']} decision{forced}:",
            *rows,
            f"      -> {event['chosen']}",
        ]
    )


def _narrate_learned(event: dict[str, Any]) -> str:
    """A ``learned`` seat's scored candidates."""
    rows = [f"      {c['card']:<28} score {c['score']:+.3f}" for c in event["candidates"]]
    return "\n".join(
        [
            f"    seat {event['seat']} scores its {event['decision']} candidates (greedy's best,"
            " in greedy's order):",
            *rows,
            f"      -> {event['chosen']}",
        ]
    )


def _narrate_final(event: dict[str, Any]) -> str:
    return engine_kit.narrate_final(
        "Final scores:",
        event,
        lambda p, parts: (
            f"  seat {p}: {event['scores'][p]}  ({parts}; {event['face_down'][p]} face down)"
        ),
        points="",
    )


#: ``narrate``'s line of each event kind (``engine_kit.narrate_event``; lists joined).
LINES: dict[str, engine_kit.Line] = {
    "setup": lambda event: engine_kit.narrate_start("Fairy Tale", event),
    "start_card": "  seat {seat} starts with {card} face up",
    "deal": "Round {round}: seat {seat} is dealt {cards}",
    "search": _narrate_search,
    "learned": _narrate_learned,
    "pick": "  pick {pick:>2}: seat {seat} keeps {card}",
    "reveal": "  round {round} step {step}: seat {seat} reveals {card}",
    "hunt": "    seat {seat}'s {card} hunts seat {target_seat}'s {target} (face down, no effect)",
    "open": "    seat {seat} opens {card} ({by})",
    "close": "    seat {seat} closes {card} ({by})",
    "discard": "  seat {seat} discards {cards}",
    "trickster": "  seat {seat}'s Trickster counts as {card}",
    "final": _narrate_final,
}


def narrate(event: dict[str, Any]) -> str:
    """One event of ``play`` as readable text."""
    return engine_kit.narrate_event(event, LINES, engine_kit.joined)


# --- scoring an end state --------------------------------------------------------------------


def score_state(
    state: dict[str, Any], cards: CardSet | None = None, variant: str | None = None
) -> dict[str, Any]:
    """The scores of the tableaux of a finished game given as JSON (``state_io``: the
    variant, each player's face-up and face-down cards; ``engine_kit.end_state``) as the
    kernel plays them (``kernel.score_end_state``)."""
    cards, variant, tableaux = engine_kit.end_state(
        GAME, state, cards, variant, load_cardset, state_io.parse_state
    )
    scored = score_end_state(compile_tables(cards, variant), tableaux)
    return state_io.kernel_result(cards, tableaux, scored)


def score_state_reference(
    state: dict[str, Any], cards: CardSet | None = None, variant: str | None = None
) -> dict[str, Any]:
    """``score_state`` by ``reference`` (the oracle it is tested against)."""
    cards, variant, tableaux = engine_kit.end_state(
        GAME, state, cards, variant, load_cardset, state_io.parse_state
    )
    rules = Rules(cards, variant)
    game = FairyTaleGame(rules, default_weights(), [0] * len(tableaux), 0, 0)
    state_io.place(game, tableaux)
    game.final_scoring()
    return state_io.result(game)
