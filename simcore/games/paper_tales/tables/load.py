"""``load_cardset``: the card files (units, buildings, productions; the artifacts in
``legends``) and the rules file read into a validated ``CardSet``; every mistake is one
``CardDataError`` line naming file, card and field."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from talesim.simcore.cards import CardDataError, Fields, entries, file_sha256, new_id, read_toml

from .abilities import parse_abilities
from .bounds import (
    DEFAULT_CARDS,
    DEFAULT_RULES,
    MAX_ARTIFACTS,
    MAX_BUILDINGS,
    MAX_CATALOG_BUILDINGS,
    MAX_COPIES,
    MAX_DECK,
    SOURCE_KEYS,
    STATUSES,
)
from .effects import RESOURCES
from .legends import apply_switches, check_legends_buildings
from .model import Artifact, Building, BuildingLevel, CardSet, Production, Unit
from .rules import parse_bool, parse_rules


def load_cardset(
    cards_path: Path | None = None, rules_path: Path | None = None, variant: str | None = None
) -> CardSet:
    """Read and validate the card data and the rules file.

    ``variant`` None or ``"base"``: ``cards_path`` (default cards.toml) alone, the
    ``[rules]`` options. A variant whose ``[variant.NAME]`` table lists ``cards`` (Legends:
    cards.toml + cards_legends.toml, beside the rules file) loads those files in order
    (``cards_path`` replaces the first one) and applies the variant's option overrides."""
    cards_path = Path(cards_path) if cards_path else DEFAULT_CARDS
    rules_path = Path(rules_path) if rules_path else DEFAULT_RULES
    rules = parse_rules(rules_path)
    name = variant or "base"
    if variant is not None and name not in rules.variants:
        raise CardDataError(rules_path, f"no [variant.{name}] table", field="variant")
    spec: dict[str, Any] = rules.variants.get(name, {})
    expansions = tuple(spec.get("expansions", ()))
    files = [cards_path]
    if spec.get("cards"):
        files = [
            cards_path if i == 0 else rules_path.parent / f for i, f in enumerate(spec["cards"])
        ]
    legends = "legends" in expansions
    units: list[Unit] = []
    buildings: list[Building] = []
    artifacts: list[Artifact] = []
    for i, path in enumerate(files):
        u, b, x = _parse_card_file(path, expansion=i > 0, legends=legends)
        units += u
        buildings += b
        artifacts += x
    _check_unique(files[-1], "unit", units)
    _check_unique(files[-1], "artifact", artifacts)
    _check_unique(files[-1], "building", buildings)
    if len(buildings) > MAX_CATALOG_BUILDINGS:
        raise CardDataError(
            files[-1], f"at most {MAX_CATALOG_BUILDINGS} buildings in all, got {len(buildings)}"
        )
    if sum(x.copies for x in artifacts) > MAX_ARTIFACTS:
        raise CardDataError(files[-1], f"at most {MAX_ARTIFACTS} artifact cards", field="artifact")
    if legends:
        rules = replace(rules, options={**rules.options, **spec["options"]})
        units, buildings = apply_switches(rules_path, rules.options, units, buildings)
        check_legends_buildings(rules_path, rules.options, buildings)
    deck_size = sum(u.copies for u in units) + sum(x.copies for x in artifacts)
    return CardSet(
        units=tuple(units),
        buildings=tuple(buildings),
        rules=rules,
        deck_size=deck_size,
        files=(*files, rules_path),
        sha256=file_sha256(*files, rules_path),
        index={u.id: i for i, u in enumerate(units)},
        building_index={b.id: i for i, b in enumerate(buildings)},
        artifacts=tuple(artifacts),
        artifact_index={x.id: i for i, x in enumerate(artifacts)},
        variant=name,
        expansions=expansions,
    )


def _parse_card_file(
    path: Path, expansion: bool, legends: bool
) -> tuple[list[Unit], list[Building], list[Artifact]]:
    """One card file. The base file has units and buildings; an expansion file (Legends)
    also ``expansion``/``extends`` and ``[[artifact]]`` tables. ``deck_size`` = this
    file's unit + artifact copies."""
    doc = read_toml(path)
    top = Fields(path, doc, None)
    top.for_game("paper-tales")
    allowed = {"schema", "game", "deck_size", "unit", "building"}
    if expansion:
        allowed |= {"expansion", "extends", "artifact"}
    top.reject_unknown(allowed)
    if top.get("schema", 1) != 1:
        raise top.error("schema", f"unsupported schema {doc['schema']!r} (this loader reads 1)")
    if expansion and top.get("expansion", None) != "legends":
        raise top.error("expansion", "the only expansion this loader reads is 'legends'")
    deck_size = top.integer("deck_size", 1, MAX_DECK)
    units = _parse_units(path, top, expansion, legends)
    artifacts = _parse_artifacts(path, top) if expansion else []
    total = sum(u.copies for u in units) + sum(x.copies for x in artifacts)
    if total != deck_size:
        what = "unit and artifact" if expansion else "unit"
        raise top.error(
            "deck_size", f"the {what} copies sum to {total}, the file declares {deck_size}"
        )
    buildings = _parse_buildings(path, top, expansion, legends)
    return units, buildings, artifacts


def _check_unique(path: Path, key: str, items: list[Any]) -> None:
    seen: set[str] = set()
    for it in items:
        if it.id in seen:
            raise CardDataError(path, f"{key} id used in two card files", card=it.id, field="id")
        seen.add(it.id)


def _entries(path: Path, top: Fields, key: str) -> list[tuple[Fields, str]]:
    raw = top.get(key)
    if not isinstance(raw, list) or not raw:
        raise top.error(key, f"needs at least one [[{key}]] table")
    seen: set[str] = set()
    return [(f, new_id(f, seen, key)) for f in entries(path, raw, key)]


COMMON_KEYS = {"id", "name", "name_fr", "status", "source", "text", "notes"}
EXPANSION_KEYS = {"origin", "tags"}
ORIGINS = ("legends", "legends?", "btg?")


def _common(f: Fields, expansion: bool = False) -> dict[str, Any]:
    status = f.choice("status", STATUSES)
    source = f.string("source")
    for key in (s.strip() for s in source.split(",")):
        if key not in SOURCE_KEYS:
            raise f.error("source", f"unknown source key '{key}' (keys: {', '.join(SOURCE_KEYS)})")
    out = {
        "name": f.string("name"),
        "name_fr": f.optional_string("name_fr"),
        "status": status,
        "source": source,
        "text": f.string("text"),
        "notes": f.optional_string("notes"),
    }
    if expansion:
        out["origin"] = f.choice("origin", ORIGINS)
        out["tags"] = f.string("tags")
    return out


def _parse_units(
    path: Path, top: Fields, expansion: bool = False, legends: bool = False
) -> list[Unit]:
    units = []
    for f, cid in _entries(path, top, "unit"):
        f.reject_unknown(
            {"copies", "cost", "strength", "produces", "abilities"}
            | COMMON_KEYS
            | (EXPANSION_KEYS if expansion else set())
        )
        units.append(
            Unit(
                id=cid,
                copies=f.integer("copies", 1, MAX_COPIES),
                cost=f.integer("cost", -9, 9),
                strength=f.integer("strength", 0, 20),
                produces=_parse_production(f, "produces"),
                abilities=parse_abilities(f, "abilities", unit=True, legends=legends),
                **_common(f, expansion),
            )
        )
    return units


def _parse_artifacts(path: Path, top: Fields) -> list[Artifact]:
    out = []
    for f, cid in _entries(path, top, "artifact"):
        f.reject_unknown({"copies", "lp", "produces", "abilities"} | COMMON_KEYS | EXPANSION_KEYS)
        produces = _parse_production(f, "produces")
        if (produces.when, produces.per) != ("always", "one"):
            raise f.error(
                "produces", "an artifact's production takes no 'when'/'per' (no tokens, no row)"
            )
        out.append(
            Artifact(
                id=cid,
                copies=f.integer("copies", 1, MAX_COPIES),
                lp=f.integer("lp", 0, 9),
                produces=produces,
                abilities=parse_abilities(
                    f, "abilities", unit=False, legends=True, owner="artifact"
                ),
                **_common(f, True),
            )
        )
    return out


def _parse_buildings(
    path: Path, top: Fields, expansion: bool = False, legends: bool = False
) -> list[Building]:
    entries = _entries(path, top, "building")
    if len(entries) > MAX_BUILDINGS:
        raise top.error("building", f"at most {MAX_BUILDINGS} buildings, got {len(entries)}")
    out = []
    for f, bid in entries:
        f.reject_unknown(
            {"level1", "level2"}
            | COMMON_KEYS
            | (EXPANSION_KEYS | {"pool", "copies"} if expansion else set())
        )
        levels = tuple(_parse_level(f.sub(f"level{n}"), legends) for n in (1, 2))
        extra: dict[str, Any] = {}
        if expansion:
            extra["pool"] = f.choice("pool", ("legends", "integral"))
            extra["copies"] = f.integer("copies", 1, 9) if f.has("copies") else None
        out.append(Building(id=bid, levels=levels, **_common(f, expansion), **extra))  # type: ignore[arg-type]
    return out


def _parse_level(f: Fields, legends: bool = False) -> BuildingLevel:
    f.reject_unknown(
        {"requires", "gold_instead", "lp", "produces", "abilities", "extra_front_spot"}
    )
    req = f.sub("requires")
    req.reject_unknown(RESOURCES)
    requires = tuple(req.integer(r, 0, 9, 0) for r in RESOURCES)
    gold = f.integer("gold_instead", 0, 20) if f.has("gold_instead") else None
    produces = _parse_production(f, "produces")
    if (produces.when, produces.per) != ("always", "one"):
        raise f.error(
            "produces", "a building's production takes no 'when'/'per' (no tokens, no row)"
        )
    spot = parse_bool(f, "extra_front_spot", False)
    return BuildingLevel(
        requires=requires,  # type: ignore[arg-type]
        gold_instead=gold,
        lp=f.integer("lp", -9, 20),
        produces=produces,
        abilities=parse_abilities(f, "abilities", unit=False, legends=legends),
        extra_front_spot=spot,
    )


def _parse_production(f: Fields, key: str) -> Production:
    if not f.has(key):
        return Production()
    p = f.sub(key)
    p.reject_unknown((*RESOURCES, "when", "per"))
    amounts = tuple(p.integer(r, 0, 9, 0) for r in RESOURCES)
    if not any(amounts):
        raise f.error(key, "produces nothing (name at least one of wood, food, crystal)")
    # Production is computed before anything else, so it may depend only on the unit
    # itself (its tokens, its row): a kingdom-wide condition would be circular.
    return Production(
        amounts,  # type: ignore[arg-type]
        when=p.choice("when", PRODUCTION_WHEN, "always"),
        per=p.choice("per", PRODUCTION_PER, "one"),
    )


PRODUCTION_WHEN = ("always", "aged", "front_row", "exactly_one_age")
PRODUCTION_PER = ("one", "age_self")
