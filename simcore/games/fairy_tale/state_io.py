"""JSON end states for ``talesim score fairy-tale STATE.json``.

Input::

    {"variant": "expert",
     "players": [{"face_up": ["homesteaders", ...], "face_down": ["lich", ...]}, ...]}

Output (``--json``)::

    {"variant": ..., "players": [{"seat": 0, "total": 21, "cards": [{"card": id, "points": n},
     ...], "breakdown": {...}, "face_down": n, "trickster_as": id or null}], "winners": [0]}
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from talesim.simcore.engine_kit import player_keys_problem, short_json, state_keys_problem
from talesim.simcore.names import did_you_mean

from .reference import BREAKDOWN, FairyTaleGame, Slot
from .tables import MAX_PLAYERS, TABLEAU, CardSet


def parse_state(state: Any, cards: CardSet) -> tuple[str, list[tuple[list[int], list[int]]]]:
    """Validate the JSON state; returns the variant and, per player, (face-up, face-down)
    card indices. Raises ValueError naming what is wrong."""
    if problem := state_keys_problem(state, ("variant", "players")):
        raise ValueError(problem)
    variant = state.get("variant", "expert")
    known = ", ".join(cards.rules.variants)
    if not isinstance(variant, str):
        raise ValueError(f"'variant' must be a string ({known}), got {short_json(variant)}")
    if variant not in cards.rules.variants:
        raise ValueError(f"unknown variant '{variant}' (variants: {known})")
    tiers = cards.rules.variants[variant].tiers
    players = state.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"'players' must be a list of 1 to {MAX_PLAYERS} players")
    used: Counter[int] = Counter()
    out = []
    for seat, pl in enumerate(players):
        if problem := player_keys_problem(seat, pl, ("face_up", "face_down")):
            raise ValueError(problem)
        lists = []
        for key in ("face_up", "face_down"):
            ids = pl.get(key, [])
            if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
                raise ValueError(f"player {seat}: '{key}' must be a list of card ids")
            idx = []
            for cid in ids:
                if cid not in cards.index:
                    hint = did_you_mean(cid, cards.index)
                    raise ValueError(f"player {seat}: unknown card '{cid}' in {key}{hint}")
                i = cards.index[cid]
                if cards.cards[i].tier not in tiers:
                    raise ValueError(f"player {seat}: '{cid}' is not in the {variant} deck")
                used[i] += 1
                idx.append(i)
            lists.append(idx)
        if len(lists[0]) + len(lists[1]) > TABLEAU:
            raise ValueError(f"player {seat}: more than {TABLEAU} tableau cards")
        out.append((lists[0], lists[1]))
    for i, k in used.items():
        if k > cards.cards[i].copies:
            raise ValueError(
                f"'{cards.cards[i].id}' appears {k} times; the deck has {cards.cards[i].copies}"
            )
    return variant, out


def place(game: FairyTaleGame, tableaux: list[tuple[list[int], list[int]]]) -> None:
    """Lay the given cards in the game's tableaux (face-up first, then face-down)."""
    for p, (up, down) in enumerate(tableaux):
        for c in up:
            game.players[p].tableau.append(Slot(c, True, -1))
            game.up.cards[p][c] += 1
            game.up.factions[p][game.rules.faction(c)] += 1
        for c in down:
            game.players[p].tableau.append(Slot(c, False, -1))
            game.down[p][c] += 1


def kernel_result(
    cards: CardSet, tableaux: list[tuple[list[int], list[int]]], scored: Any
) -> dict[str, Any]:
    """``result`` of the kernel's scoring of ``tableaux`` (``kernel.score_end_state``'s
    ``GameState``; the slots are laid out face-up cards first, as ``place`` does)."""
    ids = [c.id for c in cards.cards]
    players: list[dict[str, Any]] = []
    totals = [int(scored.score[p]) for p in range(len(tableaux))]
    for p, (up, down) in enumerate(tableaux):
        laid = [(c, True) for c in up] + [(c, False) for c in down]
        trick = int(scored.trick_as[p])
        players.append(
            {
                "seat": p,
                "total": totals[p],
                "cards": [
                    {"card": ids[c], "points": int(scored.points[p, slot]), "face_up": face_up}
                    for slot, (c, face_up) in enumerate(laid)
                ],
                "breakdown": {
                    name: int(scored.breakdown[p, b]) for b, name in enumerate(BREAKDOWN)
                },
                "face_down": len(down),
                "trickster_as": ids[trick] if trick >= 0 else None,
            }
        )
    top = max(totals)
    return {"players": players, "winners": [p for p, t in enumerate(totals) if t == top]}


def result(game: FairyTaleGame) -> dict[str, Any]:
    ids = [c.id for c in game.rules.cards]
    return {
        "players": [
            {
                "seat": pl.seat,
                "total": pl.score,
                "cards": [
                    {"card": ids[t.card], "points": pts, "face_up": t.face_up}
                    for t, pts in zip(pl.tableau, pl.points, strict=True)
                ],
                "breakdown": pl.breakdown,
                "face_down": sum(not t.face_up for t in pl.tableau),
                "trickster_as": ids[pl.trickster_as] if pl.trickster_as >= 0 else None,
            }
            for pl in game.players
        ],
        "winners": game.winners(),
    }
