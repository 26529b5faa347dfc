"""DRAKO engine: the functions the runner and the CLI call (see ``simcore.registry``).

``load_cards`` (the rules file), ``card_catalog`` (``talesim cards drako``),
``score_state`` (``talesim score drako``), and the simulation: ``prepare`` validates the
request and compiles the tables, ``simulate_arrays`` runs the numba kernel
(``kernel.simulate_chunk``) on a chunk of games, ``frames`` turns its fixed-size result
arrays into the polars tables of the dataset (games, seats, cards, legends), ``warmup``
compiles. ``reference_player``, ``play`` and ``narrate`` replay one game with
``reference/`` (proven equal to the kernel by the differential tests). What the three
engines share (``run_chunk``, ``bench``, the request) is ``simcore.engine_kit``. §N: a
section of ``docs/rules/drako.md``, DRAKO's rules.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from talesim.simcore import engine_kit
from talesim.simcore.buffers import zeroed_buffers
from talesim.simcore.registry import GameError, get_game

from . import state_io
from .policies import POLICY_NAMES, Policy, default_weights
from .tables import (
    BREAKDOWN,
    CELLS,
    KINDS,
    MARKS,
    CardSet,
    Tables,
    compile_tables,
    load_cardset,
)
from .tables import (
    TURNS_PER_PLAYER_CAP as TURN_CAP,
)

GAME = get_game("drako")


def load_cards(path: Path | None = None) -> CardSet:
    """The rules file (kinds, Legends, options, presets); ``path`` replaces rules.toml."""
    return load_cardset(path)


def _preset(data: CardSet, variant: str) -> Any:
    GAME.variant(variant)
    if variant not in data.presets:
        raise GameError(f"the rules file has no [preset.{variant}] table")
    return data.presets[variant].options


def card_catalog(cards: CardSet, variant: str) -> list[dict[str, object]]:
    """The 10 kingdom kinds then the Legends, as the rows of ``talesim cards drako``."""
    o = _preset(cards, variant)
    values = "/".join(map(str, o.dragon_values))
    extra = -o.dragon_values[-1]
    rows: list[dict[str, object]] = []
    for k in cards.kinds:
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
    for lg in cards.legends:
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


def score_state(
    state: dict[str, Any], cards: CardSet | None = None, variant: str | None = None
) -> dict[str, Any]:
    """Each player's score breakdown of a finished game given as JSON (``state_io``: the
    preset, each player's grid and Legends; ``engine_kit.end_state``) by the kernel's
    compiled final scoring (``kernel.score_end_state``)."""
    from .kernel import score_end_state

    data, preset, players = engine_kit.end_state(
        GAME, state, cards, variant, load_cardset, state_io.parse_state
    )
    grids, held = [pl.grid for pl in players], [pl.legends for pl in players]
    scored = score_end_state(compile_tables(data, preset), grids, held)
    return state_io.kernel_result(data, players, *scored)


def score_state_reference(
    state: dict[str, Any], cards: CardSet | None = None, variant: str | None = None
) -> dict[str, Any]:
    """``score_state`` by ``reference/`` (the oracle it is tested against)."""
    data, preset, players = engine_kit.end_state(
        GAME, state, cards, variant, load_cardset, state_io.parse_state
    )
    return state_io.score_players(preset, players, data)


# --- simulation ------------------------------------------------------------------------------


class Prepared(
    engine_kit.Prepared, game=GAME, names=POLICY_NAMES, mc=Policy.MC, learned=Policy.LEARNED
):
    """A validated DRAKO request: rules data, preset (``variant``, from ``--rules``), seats
    and the compiled tables."""

    cards: CardSet
    tables: Tables

    def config(self) -> dict[str, Any]:
        """Rule options that determine the data (stored in the manifest)."""
        return {
            "rules": self.cards.presets[self.variant].options.as_dict(),
            "deck_size": int(self.tables.deck.shape[0]),
            "weights": self.weight_rows(),
        }


def prepare(
    cards: CardSet, variant: str, players: int, policies: list[str], rotate_seats: bool
) -> Prepared:
    """Validate preset, player count and policies; compile the tables (``GameError``)."""
    engine_kit.check_request(GAME, variant, players, policies)
    _preset(cards, variant)
    from .reference import Rules  # its constructor checks the deck is big enough

    try:
        Rules(cards, variant, players)
    except ValueError as e:
        raise GameError(f"drako ({variant}): {e}") from None
    tables = compile_tables(cards, variant, players)
    return Prepared(
        cards, variant, players, tuple(policies), rotate_seats, tables, default_weights()
    )


#: Result arrays only the search kernel fills (``kernel.ChunkOut``): left out of heuristic runs.
SEARCH_ONLY = ("playouts", "end_visible", "end_alt")

_simulate_arrays = engine_kit.simulator(
    "drako",
    f"{__package__}.kernel",
    lambda prepared, n: result_buffers(n, prepared.players, max_turns(prepared)),
    search_only=SEARCH_ONLY,
)


def simulate_arrays(
    prepared: Prepared,
    seed: int,
    first_game: int,
    n_games: int,
    check: bool = False,
    record: Any = None,
) -> dict[str, np.ndarray]:
    """A chunk's raw result arrays (``kernel.ChunkOut`` fields; ``engine_kit.simulator``),
    every one game-major like every game's: the draw log, which the kernel writes
    turn-major (``result_buffers``), as a transposed view, ``draws[game, turn - 1]``. A
    heuristic run's as they always were (no ``SEARCH_ONLY`` arrays)."""
    arrays = _simulate_arrays(prepared, seed, first_game, n_games, check, record)
    arrays["draws"] = arrays["draws"].T
    return arrays


def max_turns(prepared: Prepared) -> int:
    """The most turns a game of this request can last, so the most draw decisions it
    records (one a turn, §4.1): the preset's turn cap x the players."""
    return prepared.cards.presets[prepared.variant].options.turns_per_player_cap * prepared.players


def result_buffers(n_games: int, n_players: int, max_turns: int | None = None) -> Any:
    """``kernel.new_chunk_out(n_games, n_players, max_turns)``: the game-major buffers from
    ``simcore.buffers.zeroed_buffers``, a large chunk's in one mapping whose pages are
    allocated before the games run, in huge pages where the kernel allows it (a DRAKO game
    writes ~530 bytes, so 50,000 four-player games use ~27 MB; huge pages gave a few percent
    more games per CPU-second); the draw log alone from ``np.zeros``, whose pages are mapped
    when first written: it is sized for the turn cap (1,600 bytes a game at four players and
    the default cap, 80 MB for 50,000 games) but turn-major, so only the rows of the turns
    games last (~60) are ever written and resident (~6 MB). ``max_turns`` defaults to the
    default turn cap x ``n_players``."""
    from .kernel import ChunkOut, new_chunk_out

    if max_turns is None:
        max_turns = TURN_CAP * n_players

    template = new_chunk_out(0, n_players, max_turns)._asdict()
    del template["draws"]  # turn-major, lazily mapped: below
    specs = [((n_games, *e.shape[1:]), e.dtype) for e in template.values()]
    buffers = dict(zip(template, zeroed_buffers(specs), strict=True))
    out = ChunkOut(**buffers, draws=np.zeros((max_turns, n_games), np.int16))
    out.claim_legend[:] = -1  # ``new_chunk_out``'s padding
    return out


def warmup(prepared: Prepared) -> None:
    """Compile (or load from the cache) the kernel for this configuration."""
    simulate_arrays(prepared, 0, 0, 2)


def frames(
    prepared: Prepared, a: dict[str, np.ndarray], first_game: int
) -> dict[str, pl.DataFrame]:
    """Result arrays -> the tables of the dataset:

    * games: game_id, turns, cap_hit, n_winners, top_score;
    * seats: game_id, seat, policy, score, rank (1 = winner: total, then the §7.5 key when
      the preset breaks ties by categories), win (1/k for k winners), the seven breakdown
      columns (elf, dwarf, human, goblin, dragon, conflicts, legends), turns, ended_game;
    * cards: game_id, seat, cell, card (final kind), replaced, turn_placed (0 = dealt);
    * legends: one row per claim: game_id, seat, legend, turn;
    * draws: one row per turn, the card the seat took and what it did with it (``draw_table``).
    """
    n, P = a["score"].shape
    legend_ids = [lg.id for lg in prepared.cards.legends]
    game_id = engine_kit.game_ids(first_game, n)
    score = a["score"]
    rank = a["rank"]
    games, win = engine_kit.games_table(
        game_id, score, rank == 1, turns=a["turns"], cap_hit=a["cap_hit"]
    )
    seats = pl.DataFrame(
        {
            **engine_kit.seat_keys(game_id, P),
            "policy": engine_kit.categorical(prepared.slot_names(), a["policy"]),
            "score": score.reshape(-1),
            "rank": rank.reshape(-1),
            "win": win.reshape(-1),
            **{b: a["breakdown"][:, :, k].reshape(-1) for k, b in enumerate(BREAKDOWN)},
            "turns": a["seat_turns"].reshape(-1),
            "ended_game": a["ended"].reshape(-1),
        }
    )
    cards = pl.DataFrame(
        {
            "game_id": np.repeat(game_id, P * CELLS),
            "seat": np.tile(np.repeat(np.arange(P, dtype=np.int8), CELLS), n),
            "cell": np.tile(np.arange(CELLS, dtype=np.int8), n * P),
            "card": engine_kit.categorical(KINDS, a["grid"]),
            "replaced": a["replaced"].reshape(-1),
            "turn_placed": a["turn_placed"].reshape(-1),
        }
    )
    held = a["claim_legend"] >= 0  # [n, P, N_LEGENDS], claim order
    gi, si, ki = np.nonzero(held)
    legends = pl.DataFrame(
        {
            "game_id": game_id[gi],
            "seat": si.astype(np.int8),
            "legend": engine_kit.categorical(legend_ids, a["claim_legend"][gi, si, ki]),
            "turn": a["claim_turn"][gi, si, ki],
        }
    )
    draws = draw_table(a["draws"], a["turns"], game_id, P)
    return {"games": games, "seats": seats, "cards": cards, "legends": legends, "draws": draws}


#: The ``source`` column's values, in ``SRC_*`` code order (``reference.Source``'s names).
DRAW_SOURCES = ("discard", "deck")


def decode_draws(records: np.ndarray) -> dict[str, np.ndarray]:
    """The fields of packed draw records (``layout.DW_*``), as arrays of codes: ``source``
    (``SRC_*``), ``placed``, ``card``, ``cell``, ``covered``, ``face_down``."""
    from . import layout as L  # noqa: N812 (the schema, read as L.NAME)

    r = records.astype(np.int16)  # 15 bits: every field fits, no sign bit used

    def field(shift: int, mask: int = 1) -> np.ndarray:
        return ((r >> shift) & mask).astype(np.int8)

    return {
        "source": field(L.DW_SOURCE),
        "placed": field(L.DW_PLACED).astype(np.bool_),
        "card": field(L.DW_CARD, L.DW_KIND_BITS),
        "cell": field(L.DW_CELL, L.DW_KIND_BITS).astype(np.int8),
        "covered": field(L.DW_COVERED, L.DW_KIND_BITS),
        "face_down": field(L.DW_FACE_DOWN).astype(np.bool_),
    }


def draw_table(
    draws: np.ndarray, turns: np.ndarray, game_id: np.ndarray, players: int
) -> pl.DataFrame:
    """The ``draws`` table from a chunk's draw logs (``draws`` int16[n, cap x P], the first
    ``turns[i]`` records of game i used; a transposed view of the kernel's turn-major log
    in a run, ``simulate_arrays``): one row per turn, i.e. per
    draw decision (§4.1): game_id, seat, turn, source (``discard``: the top discard, which
    must be placed; ``deck``: the top of the draw pile), card (the kind taken), placed
    (false: a drawn card put on the discard pile, a face-down cell revealed), cell (placed
    on, or revealed), covered (the kind that lay there: replaced, or revealed), face_down
    (the cell was face down)."""
    used = turns.astype(np.int32)
    gi = np.repeat(np.arange(len(used), dtype=np.int32), used)
    t0 = np.arange(int(used.sum()), dtype=np.int32) - np.repeat(
        np.cumsum(used, dtype=np.int32) - used, used
    )
    # the turns games used, copied into a contiguous game-major block: the gather below then
    # reads each game's records side by side, not one a row of the kernel's turn-major log
    # (a cache miss a record)
    log = np.ascontiguousarray(draws[:, : int(used.max(initial=0))])
    f = decode_draws(log[gi, t0])
    return pl.DataFrame(
        {
            "game_id": game_id[gi],
            "seat": (t0 % players).astype(np.int8),
            "turn": (t0 + 1).astype(np.int16),
            "source": engine_kit.categorical(DRAW_SOURCES, f["source"]),
            "card": engine_kit.categorical(KINDS, f["card"]),
            "placed": f["placed"],
            "cell": f["cell"],
            "covered": engine_kit.categorical(KINDS, f["covered"]),
            "face_down": f["face_down"],
        }
    )


# --- one game, narrated -------------------------------------------------------------------


def reference_player(prepared: Prepared) -> Callable[..., Any]:
    """``play(seed, game_id, record=False)``: game ``game_id`` played by ``reference/``
    (``engine_kit.reference_player``; ``tests/drako/test_reference_vs_kernel.py``)."""
    from .reference import Rules, play_reference

    rules = Rules(prepared.cards, prepared.variant, prepared.players)
    return engine_kit.reference_player(prepared, rules, play_reference)


def play(prepared: Prepared, seed: int, game_id: int) -> list[dict[str, Any]]:
    """Every event of game ``game_id``, played by ``reference/``."""
    game = reference_player(prepared)(seed, game_id, record=True)
    return [engine_kit.start_event("drako", prepared, seed, game_id), *game.events]


def _narrate_setup(event: dict[str, Any]) -> str:
    lines = [f"Legend river: {', '.join(event['river'])}"]
    lines += [
        f"  seat {p} centre (cells 5 6 9 10): {' '.join(c)}" for p, c in enumerate(event["centres"])
    ]
    lines.append(f"  first discard: {event['discard']}")
    return "\n".join(lines)


def _narrate_turn(event: dict[str, Any]) -> str:
    head = f"turn {event['turn']:>3}: seat {event['seat']}"
    if event["action"] == "reveal":
        return (
            f"{head} draws {event['card']}, discards it and reveals cell {event['cell']}:"
            f" {event['revealed']}"
        )
    how = "takes the discard" if event["source"] == "discard" else "draws"
    old = ("face-down " if event["was_face_down"] else "") + event["replaced"]
    return f"{head} {how} {event['card']} -> cell {event['cell']} (replaces {old})"


def _narrate_search(event: dict[str, Any]) -> str:
    """An ``mc`` seat's search: greedy's value and the mean outcome of each option."""
    forced = "" if event["candidates"][0]["playouts"] else " (top=1: greedy's choice)"
    rows = [
        f"      {c['option']:<28} greedy {c['value']:+.3f}"
        + (f"  mean {c['mean']:+.4f} over {c['playouts']} playouts" if c["playouts"] else "")
        for c in event["candidates"]
    ]
    return "\n".join(
        [
            f"          seat {event['seat']} searches its {event['decision']}{forced}:",
            *rows,
            f"      -> {event['chosen']}",
        ]
    )


def _narrate_learned(event: dict[str, Any]) -> str:
    """A ``learned`` seat's scored options."""
    rows = [
        f"      {c['option']:<28} greedy {c['value']:+.3f}  score {c['score']:+.3f}"
        for c in event["candidates"]
    ]
    return "\n".join(
        [
            f"          seat {event['seat']} scores its {event['decision']} (greedy's best,"
            " in greedy's order):",
            *rows,
            f"      -> {event['chosen']}",
        ]
    )


def _narrate_final(event: dict[str, Any]) -> str:
    cap = " (turn cap reached)" if event["cap_hit"] else ""
    return engine_kit.narrate_final(
        f"Game over after {event['turns']} turns{cap}. Final scores:",
        event,
        lambda p, parts: f"  seat {p}: {event['scores'][p]}  ({parts})",
    )


#: ``narrate``'s line of each event kind (``engine_kit.narrate_event``).
LINES: dict[str, engine_kit.Line] = {
    "start": lambda event: engine_kit.narrate_start("DRAKO", event),
    "setup": _narrate_setup,
    "turn": _narrate_turn,
    "search": _narrate_search,
    "learned": _narrate_learned,
    "claim": "          seat {seat} claims {legend} ({when} the action)",
    "reshuffle": engine_kit.narrate_reshuffle,
    "final": _narrate_final,
}


def narrate(event: dict[str, Any]) -> str:
    """One event of ``play`` as readable text."""
    return engine_kit.narrate_event(event, LINES)
