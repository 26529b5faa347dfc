"""JSON end states for ``talesim score drako STATE.json``: the input and output below
(§N: a section of ``docs/rules/drako.md``, DRAKO's rules).

Input (every card face up; row 0 first; ``legends``: the Legends the player holds)::

    {"rules": "brief" | "published",
     "players": [{"grid": [[4 kind ids], [4 kind ids], [4 kind ids], [4 kind ids]],
                  "legends": ["human-elf", ...]}, ...]}

Output (``--json``), one object per player, then the winners after the §7.5 tie-break::

    {"players": [{"elf": n, "dwarf": n, "human": n, "goblin": n, "dragon": n,
                  "conflicts": n (<= 0), "legends": n, "total": n,
                  "legends_met": [legend ids the grid satisfies], ...}],
     "winners": [seat, ...]}

Each player object also carries ``seat``, ``breakdown`` (the seven categories),
``cards`` (per cell: card, row, col, points: a tribe's land points, a dragon's signed
value, else 0) and ``face_down``/``trickster_as`` (always 0 / null), which the shared
table renderer of ``cli/score.py`` reads.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from talesim.simcore.engine_kit import player_keys_problem, short_json, state_keys_problem
from talesim.simcore.names import did_you_mean

from .reference import KingdomView, Rules, winners
from .tables import BREAKDOWN, KINDS, MAX_PLAYERS, MIN_PLAYERS, SIDE, CardSet


@dataclass(frozen=True)
class PlayerState:
    grid: list[int]  # CELLS kind ids, row-major
    legends: list[int]  # indices of the held Legends


def parse_state(state: Any, data: CardSet) -> tuple[str, list[PlayerState]]:
    """Validate the JSON state; returns the preset name and the players. Raises ValueError
    naming what is wrong."""
    if problem := state_keys_problem(state, ("rules", "players")):
        raise ValueError(problem)
    preset = state.get("rules", "brief")
    known = ", ".join(data.presets)
    if not isinstance(preset, str) or preset not in data.presets:
        raise ValueError(f"'rules' must be one of {known}, got {short_json(preset)}")
    players = state.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"'players' must be a list of 1 to {MAX_PLAYERS} players")
    legend_index = data.legend_index()
    out: list[PlayerState] = []
    held_by: dict[str, int] = {}
    used: Counter[int] = Counter()
    for seat, pl in enumerate(players):
        if problem := player_keys_problem(seat, pl, ("grid", "legends")):
            raise ValueError(problem)
        grid = pl.get("grid")
        if (
            not isinstance(grid, list)
            or len(grid) != SIDE
            or not all(isinstance(row, list) and len(row) == SIDE for row in grid)
        ):
            raise ValueError(f"player {seat}: 'grid' must be {SIDE} rows of {SIDE} card ids")
        cells: list[int] = []
        for r, row in enumerate(grid):
            for c, cid in enumerate(row):
                if cid not in KINDS:
                    raise ValueError(
                        f"player {seat}: unknown card {short_json(cid)} at row {r}, column {c} "
                        f"(cards: {', '.join(KINDS)}){did_you_mean(cid, KINDS)}"
                    )
                cells.append(KINDS.index(cid))
        used.update(cells)
        legends = pl.get("legends", [])
        if not isinstance(legends, list) or not all(isinstance(x, str) for x in legends):
            raise ValueError(f"player {seat}: 'legends' must be a list of legend ids")
        for lid in legends:
            if lid not in legend_index:
                hint = did_you_mean(lid, legend_index)
                raise ValueError(f"player {seat}: unknown legend '{lid}'{hint}")
            if lid in held_by:
                raise ValueError(
                    f"legend '{lid}' is held twice (players {held_by[lid]} and {seat})"
                )
            held_by[lid] = seat
        out.append(PlayerState(cells, [legend_index[x] for x in legends]))
    for k, n in used.items():  # the box (the 4-player deck) bounds every state
        copies = data.kinds[k].copies(MAX_PLAYERS)
        if n > copies:
            raise ValueError(f"'{KINDS[k]}' appears {n} times; the box has {copies}")
    return preset, out


def _row(
    seat: int, pl: PlayerState, breakdown: dict[str, int], met: list[str], points: list[int]
) -> dict[str, Any]:
    """One player's object of the output (``total``: the breakdown's sum)."""
    return {
        "seat": seat,
        **breakdown,
        "total": sum(breakdown.values()),
        "legends_met": met,
        "breakdown": breakdown,
        "cards": [
            {
                "card": KINDS[k],
                "row": c // SIDE,
                "col": c % SIDE,
                "points": points[c],
                "face_up": True,
            }
            for c, k in enumerate(pl.grid)
        ],
        "face_down": 0,
        "trickster_as": None,
    }


def score_players(preset: str, players: list[PlayerState], data: CardSet) -> dict[str, Any]:
    """Score every kingdom (all cards face up) and apply the tie-break, by ``reference/``."""
    rules = Rules(data, preset, max(MIN_PLAYERS, len(players)))
    rows: list[dict[str, Any]] = []
    for seat, pl in enumerate(players):
        view = KingdomView(rules, pl.grid)
        breakdown = view.breakdown(sum(data.legends[g].points for g in pl.legends))
        met = [lg.id for lg in data.legends if view.legend_met(lg)]
        rows.append(_row(seat, pl, breakdown, met, view.cell_points()))
    won = winners(
        [r["total"] for r in rows],
        [{b: r[b] for b in BREAKDOWN} for r in rows],
        rules.o.tie_break == "categories",
        rules.o.tie_break_tribes == "summed",
    )
    return {"players": rows, "winners": won}


def kernel_result(
    data: CardSet, players: list[PlayerState], scored: Any, points: Any, met: Any
) -> dict[str, Any]:
    """``score_players``'s output from the kernel's scoring (``kernel.score_end_state``: the
    state with the breakdowns and ranks, each card's points, the Legends met)."""
    rows = [
        _row(
            seat,
            pl,
            {name: int(scored.bd[seat, b]) for b, name in enumerate(BREAKDOWN)},
            [lg.id for g, lg in enumerate(data.legends) if met[seat, g]],
            [int(x) for x in points[seat]],
        )
        for seat, pl in enumerate(players)
    ]
    return {"players": rows, "winners": [p for p in range(len(players)) if scored.rank[p] == 1]}
