"""The Legends card-level parts of the loader: the §8 switches that rewrite cards
(LEGENDS.md §D), the check of the Legends building pool, and its pairs. §N:
``docs/rules/paper-tales-legends.md``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from talesim.simcore.cards import CardDataError

from .model import Ability, Building, CardSet, Unit


def apply_switches(
    path: Path, o: dict[str, Any], units: list[Unit], buildings: list[Building]
) -> tuple[list[Unit], list[Building]]:
    """The card-level §8 switches (LEGENDS.md §D): ``titan_level`` (every ``build_free``
    level), ``relic_of_fertility_ages`` (false: a ``never_dies`` ability is appended to
    the Relic of Fertility), ``include_shadow`` (false: the Shadow's copies are 0, not in
    the deck) and ``abbey_mode`` (the Abbey level-2 ability)."""
    out = []
    for u in units:
        abil = tuple(
            replace(a, level=o["titan_level"]) if a.kind == "build_free" else a for a in u.abilities
        )
        if u.id == "relic-of-fertility" and not o["relic_of_fertility_ages"]:
            abil += (Ability(phase="aging", kind="never_dies"),)
        copies = 0 if u.id == "shadow" and not o["include_shadow"] else u.copies
        out.append(replace(u, abilities=abil, copies=copies))
    mode = o["abbey_mode"]
    bout = []
    for b in buildings:
        if b.id == "abbey" and mode != "set_flat":
            lv2 = b.levels[1]
            if mode == "per_set":
                new = Ability(phase="war", kind="lp", amount=4, per="resource_sets")
            else:
                new = Ability(phase="war", kind="lp", amount=1, per="resources")
            b = replace(b, levels=(b.levels[0], replace(lv2, abilities=(new,))))
        bout.append(b)
    return out, bout


def check_legends_buildings(path: Path, o: dict[str, Any], buildings: list[Building]) -> None:
    pool = [b.id for b in buildings if b.pool == "legends"]
    if len(pool) < 2:
        raise CardDataError(path, "the legends pool needs at least 2 buildings", field="building")
    fixed = o["legends_buildings"]
    if fixed != "random" and (len(set(fixed)) != 2 or not set(fixed) <= set(pool)):
        raise CardDataError(
            path,
            f'must be "random" or two different buildings of the legends pool '
            f"({', '.join(pool)}), got {list(fixed)!r}",
            field="variant.legends.legends_buildings",
        )


def building_pair_index(cards: CardSet) -> int:
    """-1: the pair is drawn at setup; k: ``legends_buildings`` fixes the k-th pair."""
    fixed = cards.rules.options.get("legends_buildings", "random")
    if fixed == "random":
        return -1
    want = sorted(cards.building_index[i] for i in fixed)
    return [list(p) for p in cards.building_pairs()].index(want)
