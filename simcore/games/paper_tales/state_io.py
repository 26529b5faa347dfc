"""JSON positions for ``talesim score paper-tales STATE.json``: the input and output below.

Input (seats in table order; neighbours are adjacent, cyclic; two seats: the 2-player
war rule of rules.toml ``[two_player]``)::

    {"players": [{"front": [{"unit": "knight", "age": 0}, ...],   # <= 2, or 3 with a L2
                  "back": [{"unit": "archer", "age": 1}, ...],    # <= 2
                  "buildings": {"mine": 2, "town": 1},           # level 0 (unbuilt), 1, 2
                  "gold": 3,                                     # optional, default 0
                  "lp": 10},                                     # optional: LP already
                 ...]}                                           # scored, default 0

Output (``--json``), one object per seat::

    {"seat": 0, "strength": n, "wars_won": 0-2, "war_lp": n, "income": n, "end_lp": n,
     "war_gold": n, "gold": n (gold + war gold + income), "total": n,
     "breakdown": {"earlier": lp, "wars", "per_war_won", "war_units", "war_buildings",
                   "buildings", "relic"},                 # LP; total = max(0, their sum)
     "income_breakdown": {"base", "units", "buildings"}, "production": {wood, food, crystal},
     "wars": [{"against": seat, "strength": n, "opponent_strength": n, "won": bool}],
     "sources": [{"source": id, "type": "unit"|"building", "where": "front 0"|"level 2",
                  "strength": n, "lp": n, "gold": n}, ...],
     "cards": [{"card": id, "points": lp, "face_up": true}], "face_down": 0,
     "trickster_as": null}

``cards``/``face_down``/``trickster_as`` are the keys the shared table renderer of
``cli/score.py`` reads (Fairy Tale's names). ``winners``: see ``winners``.

Both variants are scored by the compiled evaluation the kernel plays with
(``score_position``: ``evaluate.score``); ``score_reference`` gives the same JSON from
``reference/``'s rulebook functions, its oracle in the tests.

Legends (a Legends card set: ``--variant legends``): each seat may add
``"artifacts": ["shield-of-power", ...]`` (the zone, in order) and build the Legends
buildings. The output
adds ``breakdown.war_artifacts`` (after ``war_buildings``) and ``breakdown.artifacts``
(after ``relic``), ``income_breakdown.artifacts`` and sources of ``type`` ``"artifact"``
(``where`` = ``"zone k"``); ``war_lp`` / ``end_lp`` include them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from talesim.simcore.engine_kit import short_json, state_keys_problem
from talesim.simcore.names import did_you_mean

from .tables import (
    B_EXTRA_SPOT,
    BACK_ROW,
    FRONT_ROW,
    MAX_AGE,
    MAX_PLAYERS,
    MAX_SPOTS,
    MIN_PLAYERS,
    RESOURCES,
    Ability,
    CardSet,
    LegendsTables,
    compile_legends_tables,
    compile_tables,
    load_cardset,
)

if TYPE_CHECKING:
    from .reference import Assessment, Piece, Rules


@dataclass(frozen=True)
class Position:
    """A parsed position: the seats' spots, tokens and building levels, gold and LP
    already scored (Legends: the zones)."""

    units: np.ndarray  # int32[P, MAX_SPOTS], -1 empty
    ages: np.ndarray  # int32[P, MAX_SPOTS]
    blevel: np.ndarray  # int32[P, B]
    gold: np.ndarray  # int32[P]
    lp: np.ndarray  # int32[P]
    arts: tuple[tuple[int, ...], ...] = ()  # Legends: artifact indices per seat (zone order)


def has_extra_spot(bt: np.ndarray, blevel: np.ndarray, p: int) -> int:
    """1 if seat ``p`` owns a building whose current face opens the extra Front spot."""
    return int(any(bt[b, k, B_EXTRA_SPOT] for b in range(bt.shape[0]) for k in range(blevel[p, b])))


def _count(value: Any, what: str, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= hi:
        raise ValueError(f"{what} must be an integer from 0 to {hi}, got {short_json(value)}")
    return value


def parse_state(state: Any, cards: CardSet) -> Position:
    """Validate the JSON position; raises ValueError naming what is wrong."""
    if problem := state_keys_problem(state, ("players",)):
        raise ValueError(problem)
    players = state.get("players")
    if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"'players' must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} seats")
    n, nb = len(players), len(cards.buildings)
    pos = Position(
        units=np.full((n, MAX_SPOTS), -1, dtype=np.int32),
        ages=np.zeros((n, MAX_SPOTS), dtype=np.int32),
        blevel=np.zeros((n, nb), dtype=np.int32),
        gold=np.zeros(n, dtype=np.int32),
        lp=np.zeros(n, dtype=np.int32),
    )
    tables = compile_tables(cards, cards.variant)
    rules = cards.rules
    used: Counter[int] = Counter()
    legends_keys = {"artifacts"} if cards.legends else set()
    arts: list[tuple[int, ...]] = []
    for seat, pl in enumerate(players):
        where = f"player {seat}"
        if not isinstance(pl, dict):
            raise ValueError(f"{where}: must be an object with 'front', 'back', 'buildings'")
        if "artifacts" in pl and not cards.legends:
            raise ValueError(_base_artifacts(where, pl["artifacts"]))
        unknown = set(pl) - {"front", "back", "buildings", "gold", "lp"} - legends_keys
        if unknown:
            raise ValueError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        levels = pl.get("buildings", {})
        if not isinstance(levels, dict):
            raise ValueError(f"{where}: 'buildings' must map building ids to levels 0-2")
        for bid, lv in levels.items():
            if bid not in cards.building_index:
                known = ", ".join(b.id for b in cards.buildings)
                raise ValueError(f"{where}: unknown building '{bid}' (buildings: {known})")
            pos.blevel[seat, cards.building_index[bid]] = _count(
                lv, f"{where}: level of '{bid}'", 2
            )
        extra = has_extra_spot(tables.bt, pos.blevel, seat) * rules["extra_front_spots"]
        rows = (
            ("front", FRONT_ROW, rules["front_spots"] + extra),
            ("back", BACK_ROW, rules["back_spots"]),
        )
        for row, spots, room in rows:
            entries = pl.get(row, [])
            if not isinstance(entries, list):
                raise ValueError(f'{where}: \'{row}\' must be a list of {{"unit", "age"}}')
            if len(entries) > room:
                why = "" if row == "back" or extra else " (a 3rd needs a level-2 building)"
                raise ValueError(f"{where}: '{row}' holds at most {room} units{why}")
            for k, entry in enumerate(entries):
                at = f"{where}: {row} {k}"
                if not isinstance(entry, dict) or set(entry) - {"unit", "age"}:
                    raise ValueError(f'{at}: must be an object {{"unit": id, "age": n}}')
                uid = entry.get("unit")
                if not isinstance(uid, str) or uid not in cards.index:
                    raise ValueError(f"{at}: unknown unit {short_json(uid)}{_hint(cards, uid)}")
                u = cards.index[uid]
                used[u] += 1
                pos.units[seat, spots[k]] = u
                pos.ages[seat, spots[k]] = _count(entry.get("age", 0), f"{at}: 'age'", MAX_AGE)
        if cards.legends:
            arts.append(_artifacts(cards, where, pl.get("artifacts", [])))
        pos.gold[seat] = _count(pl.get("gold", 0), f"{where}: 'gold'", 10_000)
        pos.lp[seat] = _count(pl.get("lp", 0), f"{where}: 'lp'", 10_000)
    for u, k in used.items():
        unit = cards.units[u]
        if k > unit.copies:
            raise ValueError(f"'{unit.id}' appears {k} times; the deck has {unit.copies}")
    for x, k in Counter(x for zone in arts for x in zone).items():
        art = cards.artifacts[x]
        if k > art.copies:
            raise ValueError(f"'{art.id}' appears {k} times; the deck has {art.copies}")
    return replace(pos, arts=tuple(arts)) if cards.legends else pos


@cache
def _legends_ids() -> tuple[frozenset[str], frozenset[str]]:
    """(unit ids, artifact ids) of the built-in Legends card set (for error hints)."""
    legends = load_cardset(variant="legends")
    return frozenset(legends.index), frozenset(legends.artifact_index)


def _hint(cards: CardSet, uid: Any) -> str:
    """Why an id is not a unit here: an artifact (Legends), a Legends card in a base game,
    or a misspelt unit."""
    if not isinstance(uid, str):
        return ""
    if uid in cards.artifact_index:
        return " (an artifact: list it in 'artifacts')"
    if not cards.legends and uid in _legends_ids()[0] | _legends_ids()[1]:
        return " (a Legends card: score with --variant legends)"
    return did_you_mean(uid, cards.index)


def _base_artifacts(where: str, value: Any) -> str:
    """The error for 'artifacts' in a base position, naming the first id given."""
    first = value[0] if isinstance(value, list) and value else None
    what = f"artifact {short_json(first)}" if first is not None else "'artifacts'"
    return f"{where}: {what} needs the Legends variant (score with --variant legends)"


def _artifacts(cards: CardSet, where: str, ids: Any) -> tuple[int, ...]:
    """A Legends seat's ``"artifacts": [ids]`` -> artifact indices (zone order)."""
    if not isinstance(ids, list):
        raise ValueError(f"{where}: 'artifacts' must be a list of artifact ids")
    out = []
    for k, xid in enumerate(ids):
        at = f"{where}: artifacts {k}"
        if isinstance(xid, str) and xid in cards.index:
            raise ValueError(
                f"{at}: '{xid}' is a unit, not an artifact (units go in 'front'/'back')"
            )
        if not isinstance(xid, str) or xid not in cards.artifact_index:
            raise ValueError(f"{at}: unknown artifact {short_json(xid)}")
        out.append(cards.artifact_index[xid])
    return tuple(out)


def _label(source: dict[str, Any]) -> str:
    """``knight`` for a unit, ``mine L2`` for a building (the table's cards column)."""
    if source["type"] == "building":
        return f"{source['source']} L{source['where'].rsplit(' ', 1)[-1]}"
    return str(source["source"])


def winners(totals: list[int], gold: list[int]) -> list[int]:
    """docs/rules/paper-tales.md §2.7: highest total; tie -> most gold; still tied -> every
    tied seat (shared win)."""
    best = max(zip(totals, gold, strict=True))
    return [s for s, key in enumerate(zip(totals, gold, strict=True)) if key == best]


def _source_keys(sources: list[dict[str, Any]]) -> dict[str, Any]:
    """A seat's ``sources`` and the keys the shared table renderer reads from them."""
    return {
        "sources": sources,
        "cards": [{"card": _label(src), "points": src["lp"], "face_up": True} for src in sources],
        "face_down": 0,
        "trickster_as": None,
    }


def _result(seats: list[dict[str, Any]]) -> dict[str, Any]:
    """The seats with their wars (each opponent's strength and the outcome) and the
    winners."""
    n = len(seats)
    for p, seat in enumerate(seats):
        me = seat["strength"]
        opponents = [1 - p] if n == 2 else sorted({(p - 1) % n, (p + 1) % n})
        seat["wars"] = [
            {
                "against": q,
                "strength": me,
                "opponent_strength": seats[q]["strength"],
                "won": bool(seat["wars_won"]) if n == 2 else me >= seats[q]["strength"],
            }
            for q in opponents
        ]
    return {
        "players": seats,
        "winners": winners([s["total"] for s in seats], [s["gold"] for s in seats]),
    }


def score_position(cards: CardSet, pos: Position) -> dict[str, Any]:
    """The JSON result (see the module docstring) of a parsed position, scored by the
    compiled evaluation the kernel plays with (``evaluate.score``; both variants)."""
    from .evaluate.records import masked_tables
    from .evaluate.score import N_SC, N_SRC
    from .evaluate.score import score_position as score_compiled
    from .layout import MAX_PIECES, N_PC, PC_AGE, PC_SPOT, PC_UNIT

    legends = cards.legends
    tables = compile_legends_tables(cards) if legends else compile_tables(cards, cards.variant)
    n, nb = pos.units.shape[0], pos.blevel.shape[1]
    arts = pos.arts if legends else tuple(() for _ in range(n))
    pcs = np.zeros((n, MAX_PIECES, N_PC), np.int32)
    ns = np.zeros(n, np.int32)
    for p in range(n):
        for s in range(MAX_SPOTS):
            if pos.units[p, s] >= 0:
                row = pcs[p, ns[p]]
                row[PC_SPOT], row[PC_UNIT], row[PC_AGE] = s, pos.units[p, s], pos.ages[p, s]
                ns[p] += 1
    room = max(1, *(len(zone) for zone in arts))
    zxs = np.zeros((n, room), np.int32)
    for p, zone in enumerate(arts):
        zxs[p, : len(zone)] = zone
    nzs = np.array([len(zone) for zone in arts], np.int32)
    xt = cast(LegendsTables, tables).xt if legends else None
    seat = np.zeros((n, N_SC), np.int64)
    src = np.zeros((n, MAX_SPOTS + nb + room, N_SRC), np.int64)
    score_compiled(masked_tables(tables), xt, pcs, ns, pos.blevel, zxs, nzs, seat, src)
    return _result([_seat_json(cards, pos, p, seat[p], src[p], int(ns[p])) for p in range(n)])


def _seat_json(
    cards: CardSet, pos: Position, p: int, sc: np.ndarray, src: np.ndarray, n_units: int
) -> dict[str, Any]:
    """Seat ``p``'s JSON from its row of ``evaluate.score``'s ``seat`` and ``src``."""
    from .evaluate.score import (
        END_PARTS,
        INCOME_PARTS,
        LP_PARTS,
        SC_INCOME,
        SC_LP,
        SC_STRENGTH,
        SC_WAR_GOLD,
        SC_WARS_WON,
        SC_WOOD,
        SRC_GOLD,
        SRC_LP,
        SRC_STRENGTH,
        WAR_PARTS,
    )

    nb = pos.blevel.shape[1]
    legends = cards.legends
    only_legends = ("war_artifacts", "artifacts")
    lp = {
        k: int(v)
        for k, v in zip(LP_PARTS, sc[SC_LP : SC_LP + len(LP_PARTS)], strict=True)
        if legends or k not in only_legends
    }
    inc = {
        k: int(v)
        for k, v in zip(INCOME_PARTS, sc[SC_INCOME : SC_INCOME + len(INCOME_PARTS)], strict=True)
        if legends or k not in only_legends
    }
    breakdown = {"earlier": int(pos.lp[p]), **lp}
    income = sum(inc.values())
    war_gold = int(sc[SC_WAR_GOLD])
    sources: list[dict[str, Any]] = []

    def source(key: str, kind: str, where: str, row: np.ndarray, **more: int) -> None:
        sources.append(
            {
                "source": key,
                "type": kind,
                "where": where,
                **more,
                "strength": int(row[SRC_STRENGTH]),
                "lp": int(row[SRC_LP]),
                "gold": int(row[SRC_GOLD]),
            }
        )

    i = 0
    for s in range(MAX_SPOTS):
        u = int(pos.units[p, s])
        if u >= 0:
            row, k = ("front", s) if s in FRONT_ROW else ("back", s - len(FRONT_ROW))
            source(cards.units[u].id, "unit", f"{row} {k}", src[i], age=int(pos.ages[p, s]))
            i += 1
    for b, building in enumerate(cards.buildings):
        lv = int(pos.blevel[p, b])
        if lv:
            source(building.id, "building", f"level {lv}", src[n_units + b])
    for k, x in enumerate(pos.arts[p] if legends else ()):
        source(cards.artifacts[x].id, "artifact", f"zone {k}", src[n_units + nb + k])
    return {
        "seat": p,
        "strength": int(sc[SC_STRENGTH]),
        "wars_won": int(sc[SC_WARS_WON]),
        "war_lp": sum(lp.get(k, 0) for k in WAR_PARTS),
        "income": income,
        "war_gold": war_gold,
        "end_lp": sum(lp.get(k, 0) for k in END_PARTS),
        "gold": int(pos.gold[p]) + income + war_gold,
        "total": max(cards.rules["score_floor"], sum(breakdown.values())),
        "breakdown": breakdown,
        "income_breakdown": inc,
        "production": dict(
            zip(RESOURCES, (int(v) for v in sc[SC_WOOD : SC_WOOD + 3]), strict=True)
        ),
        "wars": [],  # filled by ``_wars``
        **_source_keys(sources),
    }


# --- the oracle: the same JSON from reference/'s rulebook functions ------------------------

LEGENDS_WAR_PARTS = ("wars", "per_war_won", "war_units", "war_buildings", "war_artifacts")
LEGENDS_END_PARTS = ("buildings", "relic", "artifacts")


def score_reference(cards: CardSet, pos: Position) -> dict[str, Any]:
    """``score_position`` by ``reference/`` (``assess``, ``fight``, ``war_phase_lp``,
    ``end_lp``): the oracle of the compiled scoring (tests). Legends adds the artifacts'
    parts (``war_artifacts``, ``artifacts``, ``income_breakdown.artifacts``, ``artifact``
    sources in the zone)."""
    from .reference import Piece, Rules, assess, end_lp, fight, war_phase_lp

    n = pos.units.shape[0]
    rules = Rules(cards, n)
    nb = len(cards.buildings)
    pieces = [
        [Piece(s, int(pos.units[p, s]), int(pos.ages[p, s])) for s in range(MAX_SPOTS)]
        for p in range(n)
    ]
    pieces = [[pc for pc in row if pc.unit >= 0] for row in pieces]
    blevel = [[int(v) for v in pos.blevel[p]] for p in range(n)]
    arts = [list(pos.arts[p]) if cards.legends else [] for p in range(n)]
    a = [assess(rules, pieces[p], blevel[p], arts[p]) for p in range(n)]
    seats: list[dict[str, Any]] = []
    for p in range(n):
        theirs = [a[q].strength for q in rules.neighbours(p)]
        won, wars_lp = fight(rules, a[p].strength, theirs)
        parts, war_gold = war_phase_lp(rules, pieces[p], blevel[p], a[p], won, arts[p])
        end = end_lp(rules, pieces[p], blevel[p], a[p], arts[p])
        breakdown = {"earlier": int(pos.lp[p]), "wars": wars_lp, **parts, **end}
        income = a[p].income
        sources = _reference_sources(rules, pieces[p], blevel[p], arts[p], a[p], won, nb)
        income_breakdown = {
            "base": rules.o["base_income"],
            "units": a[p].income_units,
            "buildings": a[p].income_buildings,
        }
        if cards.legends:
            income_breakdown["artifacts"] = a[p].income_artifacts
        seats.append(
            {
                "seat": p,
                "strength": a[p].strength,
                "wars_won": won,
                "war_lp": sum(breakdown.get(k, 0) for k in LEGENDS_WAR_PARTS),
                "income": income,
                "war_gold": war_gold,
                "end_lp": sum(breakdown.get(k, 0) for k in LEGENDS_END_PARTS),
                "gold": int(pos.gold[p]) + income + war_gold,
                "total": max(rules.floor, sum(breakdown.values())),
                "breakdown": breakdown,
                "income_breakdown": income_breakdown,
                "production": dict(zip(RESOURCES, a[p].prod, strict=True)),
                "wars": [],
                **_source_keys(sources),
            }
        )
    return _result(seats)


def _reference_sources(
    rules: Rules,
    pieces: list[Piece],
    blevel: list[int],
    arts: list[int],
    a: Assessment,
    won: int,
    nb: int,
) -> list[dict[str, Any]]:
    """Per source (unit, building, artifact): strength (a unit's own, whether it fights or
    not; a building's / artifact's ``add_strength`` to the kingdom), LP (war + end: a
    building's face LP, an artifact's printed LP) and gold (income + war). Each source is
    run through ``war_phase_lp`` / ``end_lp`` alone, with the whole kingdom's assessment
    ``a`` (production, counters), so the sources add up to the seat's parts."""
    from .reference import end_lp, income_gain, per_value, war_phase_lp

    def war(pcs: list[Piece], bl: list[int], xs: list[int]) -> tuple[int, int]:
        parts, gold = war_phase_lp(rules, pcs, bl, a, won, xs)
        return sum(parts.values()), gold

    def income(abilities: Sequence[Ability], piece: Piece | None) -> int:
        return sum(income_gain(rules, ab, piece, a.prod, a.facts) for ab in abilities)

    def added(abilities: Sequence[Ability]) -> int:
        return sum(
            ab.amount * per_value(ab.per, None, a.prod, a.facts, ab)
            for ab in abilities
            if ab.kind == "add_strength"
        )

    out: list[dict[str, Any]] = []
    for pc, strength in zip(pieces, a.strengths, strict=True):
        lp, gold = war([pc], [0] * nb, [])
        row, k = ("front", pc.spot) if pc.front else ("back", pc.spot - len(FRONT_ROW))
        out.append(
            {
                "source": rules.units[pc.unit].id,
                "type": "unit",
                "where": f"{row} {k}",
                "age": pc.age,
                "strength": strength,
                "lp": lp + end_lp(rules, [pc], [0] * nb, a, arts)["relic"],
                "gold": gold + income(rules.units[pc.unit].abilities, pc),
            }
        )
    for b, lv in enumerate(blevel):
        if lv:
            only = [lv if c == b else 0 for c in range(nb)]
            lp, gold = war([], only, [])
            faces = rules.face_abilities(b, lv)
            out.append(
                {
                    "source": rules.buildings[b].id,
                    "type": "building",
                    "where": f"level {lv}",
                    "strength": added(faces),
                    "lp": lp + end_lp(rules, [], only, a, arts)["buildings"],
                    "gold": gold + income(faces, None),
                }
            )
    for k, x in enumerate(arts):
        art = rules.artifacts[x]
        lp, gold = war([], [0] * nb, [x])
        end = art.lp + sum(
            ab.amount * per_value(ab.per, None, a.prod, a.facts, ab)
            for ab in art.abilities
            if ab.kind == "lp" and ab.phase == "end"
        )
        out.append(
            {
                "source": art.id,
                "type": "artifact",
                "where": f"zone {k}",
                "strength": added(art.abilities),
                "lp": lp + end,
                "gold": gold + income(art.abilities, None),
            }
        )
    return out
