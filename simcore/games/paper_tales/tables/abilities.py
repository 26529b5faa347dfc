"""One card's ability list read and validated: the effect kind, its phase and
parameters (defaults filled in), and every rule about which owner (unit, building face,
artifact) may carry which kind, counter, condition and target."""

from __future__ import annotations

from typing import Any

from talesim.simcore.cards import Fields

from .bounds import MAX_ABILITIES
from .effects import (
    ALL_EFFECTS,
    EFFECTS,
    LEGENDS_PARAMS,
    LEGENDS_PER,
    ON_DEPLOY_KINDS,
    PHASES,
    RESOURCES,
    UNIT_ONLY_KINDS,
    UNITS_COST_PER,
    Per,
    Target,
    When,
    enum_names,
)
from .model import PARAM_ATTR, Ability
from .rules import parse_bool


def parse_abilities(
    f: Fields, key: str, unit: bool, legends: bool = False, owner: str | None = None
) -> tuple[Ability, ...]:
    """A card's ability list. ``owner``: "unit" | "building" | "artifact" (from ``unit``
    when absent). The Legends kinds, counters, targets and parameters need ``legends``."""
    owner = owner or ("unit" if unit else "building")
    raw = f.get(key, [])
    if not isinstance(raw, list):
        raise f.error(key, f"must be a list of ability tables, got {raw!r}")
    if len(raw) > MAX_ABILITIES:
        raise f.error(key, f"at most {MAX_ABILITIES} abilities, got {len(raw)}")
    out = []
    for i, entry in enumerate(raw):
        name = f"{key}[{i}]"
        if not isinstance(entry, dict):
            raise f.error(name, f"must be a table, got {entry!r}")
        a = Fields(f.file, entry, f.card, prefix=f"{f.prefix}{name}.")
        kind = a.choice("kind", ALL_EFFECTS if legends else EFFECTS)
        phases, params = ALL_EFFECTS[kind]
        params = dict(params)
        if legends:
            if "per" in params or "counter" in params:
                params["per_cost"] = LEGENDS_PARAMS["per_cost"]
                params["per_other"] = LEGENDS_PARAMS["per_other"]
            if kind == "no_land_cost":
                params["discount"] = LEGENDS_PARAMS["discount"]
        phase = a.choice("phase", PHASES)
        if phase not in phases:
            raise a.error("phase", f"effect '{kind}' acts in {' or '.join(phases)}, not {phase}")
        a.reject_unknown(("phase", "kind", "on_deploy", *params))
        on_deploy = parse_bool(a, "on_deploy", False)
        if owner != "artifact" and on_deploy and (phase != "deployment" or not unit):
            raise a.error("on_deploy", "only a unit's deployment-phase ability can be on_deploy")
        if owner == "artifact" and on_deploy and phase != "deployment":
            raise a.error("on_deploy", "only a deployment-phase ability can be on_deploy")
        if kind == "lp" and phase == "deployment" and not on_deploy:
            raise a.error("on_deploy", "a deployment-phase 'lp' must be on_deploy = true")
        if (
            kind in ON_DEPLOY_KINDS or (kind == "conditional_gain" and phase == "deployment")
        ) and not on_deploy:
            raise a.error("on_deploy", f"a deployment-phase '{kind}' must be on_deploy = true")
        if kind == "artifact_cost_modifier" and on_deploy:
            raise a.error("on_deploy", "'artifact_cost_modifier' is static: never on_deploy")
        if owner == "building" and kind in (
            "fight_from_back",
            "set_strength",
            "cannot_fight",
            "add_age",
        ):
            raise a.error("kind", f"'{kind}' acts on a unit; a building cannot carry it")
        if owner == "artifact" and kind in UNIT_ONLY_KINDS:
            raise a.error("kind", f"'{kind}' needs a unit; an artifact cannot carry it")
        if owner == "artifact" and kind == "add_age" and not on_deploy:
            raise a.error(
                "on_deploy", "an artifact's 'add_age' acts when it enters: on_deploy = true"
            )
        if owner == "building" and kind in ON_DEPLOY_KINDS:
            raise a.error(
                "kind", f"'{kind}' acts when a card enters play; a building cannot carry it"
            )
        values = _param_values(a, params, legends)
        for pname in ("land_cost", "requirements"):
            if values.get(pname):
                raise a.error(pname, "only false is implemented (the Titan pays nothing)")
        if kind == "conditional_gain" and not (values["gold"] or values["lp"]):
            raise a.error("gold", "a conditional_gain must give gold or LP (both are 0)")
        if kind == "conditional_gain" and owner != "unit" and values["when"] != "always":
            raise a.error("when", f"'{values['when']}' needs a unit; a {owner} has no row/tokens")
        counters = (values.get("per"), values.get("counter"))
        if values.get("per_other") and owner != "unit":
            raise a.error("per_other", f"a {owner} is no unit: per_other needs a unit")
        if (a.has("per_cost") or a.has("per_other")) and not set(counters) & set(UNITS_COST_PER):
            raise a.error("per_cost", "per_cost / per_other go with a units_cost_* counter")
        if values.get("per") == "age_self" and not unit:
            raise a.error("per", f"'{values['per']}' needs a unit; a building has no tokens")
        if values.get("when") in ("aged", "front_row", "exactly_one_age") and not unit:
            raise a.error("when", f"'{values['when']}' needs a unit; a building has no row/tokens")
        if owner == "artifact" and values.get("target") in ("self", "others"):
            raise a.error("target", "an artifact carries no tokens: its target is 'all' or 'one'")
        if values.get("target") == "all" and owner == "unit":
            raise a.error("target", "'all' is an artifact's target (a unit uses self/others)")
        # Evaluation order of the war phase (scoring.py): production, income, unit strength,
        # kingdom strength, wars, then LP. A multiplier must be known when it is used.
        if "strong_units" in counters and not (kind == "lp" and phase == "war"):
            raise a.error("per", "'strong_units' is known only for a war-phase 'lp'")
        if "income_gold" in counters and phase != "war":
            raise a.error("per", "'income_gold' is known only in the war phase")
        out.append(Ability(phase=phase, kind=kind, on_deploy=on_deploy, **values))
    return tuple(out)


def _param_values(a: Fields, params: dict[str, Any], legends: bool) -> dict[str, Any]:
    """An ability's parameters (``params``: name -> spec) read from its table ``a``, by
    the attribute names of ``Ability``."""
    values: dict[str, Any] = {}
    for pname, spec in params.items():
        attr = PARAM_ATTR.get(pname, pname)
        if spec[0] == "int":
            values[attr] = a.integer(pname, spec[1], spec[2], spec[3])
        elif spec[0] == "bool":
            values[attr] = parse_bool(a, pname, spec[1])
        elif spec[0] == "choice":
            values[attr] = a.choice(pname, spec[1], spec[2])
        elif spec[0] == "requires":
            req = a.sub(pname, {})
            req.reject_unknown(RESOURCES)
            values[attr] = tuple(req.integer(r, 0, 9, 0) for r in RESOURCES)
        elif spec[0] == "resources":
            res = a.str_list(pname)
            for r in res:
                if r not in RESOURCES:
                    raise a.error(
                        pname, f"unknown resource '{r}' (resources: {', '.join(RESOURCES)})"
                    )
            values[attr] = tuple(res)
        else:
            enum = {"per": Per, "when": When, "target": Target}[spec[0]]
            names = enum_names(enum)
            if not legends:
                names = tuple(n for n in names if n not in LEGENDS_PER and n != "all")
            values[attr] = a.choice(pname, names, spec[1])
    return values
