"""``rules.toml`` read and validated: the ``[rules]`` options (every unknown of
``docs/rules/paper-tales.md`` §8 as a named option), ``[two_player]`` and the ``[variant.NAME]``
tables (the Legends one with the switches of ``docs/rules/paper-tales-legends.md`` §8 and its
engine switches). A bare §N cites the base page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from talesim.simcore.cards import Fields, read_toml

from .bounds import (
    BACK_SPOTS,
    DEAL,
    DEAL_2P,
    EXTRA_FRONT_SPOTS,
    FRONT_SPOTS,
    KEEP,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TURNS,
)
from .effects import RESOURCES
from .model import Rules, TwoPlayer

_RULE_INTS = {  # key -> (lo, hi)
    "turns": (1, TURNS),
    "start_gold": (0, 50),
    "deal": (1, DEAL),
    "keep": (0, KEEP),
    "front_spots": (1, FRONT_SPOTS),
    "back_spots": (0, BACK_SPOTS),
    "extra_front_spots": (0, EXTRA_FRONT_SPOTS),
    "war_lp": (0, 20),
    "base_income": (0, 20),
    "land_cost_per_building": (0, 20),
    "score_floor": (0, 0),
    "strong_units_min": (0, 30),
}
_RULE_BOOLS = (
    "reshuffle_discard",
    "land_cost_on_upgrade",
    "healed_units_age",
    "shapeshift_on_deploy",
    "shapeshift_free",
    "kraken_count_at_end",
)
_RULE_CHOICES = {
    "tie_break": ("gold_then_share",),
    "first_draft_direction": ("next", "previous"),
    "direct_level2_requirement": ("sum", "max"),
    "deploy_discard": ("not_death", "death"),
    "strong_units_scope": ("kingdom", "front"),
    "per_war_won_rows": ("any", "front"),
    "simultaneity_gold": ("less", "more"),  # §2.8: who acts first after more LP
    "deployment_order": ("spot", "tiers"),  # base engine | paper-tales-legends.md §2.5
    "keep_timing": ("before_reveal", "end_of_phase"),  # base | paper-tales-legends.md §2.4 step 5
}
# The Legends engine switches (spot/before_reveal are the base engine's; the Legends
# variant needs the other two, LEGENDS.md §D).
LEGENDS_ENGINE = {"deployment_order": "tiers", "keep_timing": "end_of_phase"}
# [variant.legends] keys besides the [rules] overrides: paper-tales-legends.md §8's switches.
_LEGENDS_INTS = {
    "artifact_cost_base": (0, 9),
    "artifact_cost_step": (0, 9),
    "artifact_cost_floor": (0, 9),
    "titan_level": (1, 2),
}
_LEGENDS_BOOLS = (
    "discount_active_when_paid_same_phase",
    "relic_of_fertility_ages",
    "use_port_abbey",
    "include_shadow",
)
_LEGENDS_CHOICES = {
    "court_jester_source": ("hand",),  # "placed" (paper-tales-legends.md §8): not implemented
    "abbey_mode": ("set_flat", "per_set", "per_resource"),
}
LEGENDS_KEYS = (
    *_LEGENDS_INTS,
    *_LEGENDS_BOOLS,
    *_LEGENDS_CHOICES,
    "legends_buildings",
    "resource_alias",
)
VARIANT_KEYS = ("description", "min_players", "max_players", "cards", "expansions")
AGING_ORDER = ("heal", "death_abilities", "discard", "age_survivors")
OPTION_KEYS = (
    *_RULE_INTS,
    *_RULE_BOOLS,
    *_RULE_CHOICES,
    "aging_order",
    "expansions",
)


def parse_bool(f: Fields, key: str, default: Any = ...) -> bool:
    """``f[key]``, which must be true or false (``default`` when absent; ``...``: required)."""
    val = f.get(key, default)
    if not isinstance(val, bool):
        raise f.error(key, f"must be true or false, got {val!r}")
    return val


def _read_options(
    f: Fields,
    ints: dict[str, tuple[int, int]],
    bools: tuple[str, ...],
    choices: dict[str, tuple[str, ...]],
    refused: str | None = None,
) -> dict[str, Any]:
    """Every key of ``ints`` (key -> bounds), ``bools`` and ``choices`` (key -> values),
    required and validated, in that order; a choice set to ``refused`` (the value of
    paper-tales-legends.md §8 that is not implemented) is refused by name."""
    out: dict[str, Any] = {}
    for key, (lo, hi) in ints.items():
        out[key] = f.integer(key, lo, hi)
    for key in bools:
        out[key] = parse_bool(f, key)
    for key, values in choices.items():
        if refused is not None and f.get(key) == refused:
            page = "docs/rules/paper-tales-legends.md §8"
            raise f.error(key, f"'{refused}' ({page}) is not implemented; use '{values[0]}'")
        out[key] = f.choice(key, values)
    return out


def _option(f: Fields, key: str) -> Any:
    """One [rules] key overridden in a variant table, validated like in [rules]."""
    if key in _RULE_INTS:
        return f.integer(key, *_RULE_INTS[key])
    if key in _RULE_BOOLS:
        return parse_bool(f, key)
    if key in _RULE_CHOICES:
        return f.choice(key, _RULE_CHOICES[key])
    raise f.error(key, "cannot be changed by a variant")


def _legends_options(v: Fields) -> dict[str, Any]:
    """The switches of [variant.legends] (paper-tales-legends.md §8; every key required) and its
    engine switches."""
    out = _read_options(v, _LEGENDS_INTS, _LEGENDS_BOOLS, _LEGENDS_CHOICES, refused="placed")
    fixed = v.get("legends_buildings")
    if fixed != "random" and not (
        isinstance(fixed, list) and len(fixed) == 2 and all(isinstance(x, str) for x in fixed)
    ):
        raise v.error("legends_buildings", f'must be "random" or a pair of ids, got {fixed!r}')
    out["legends_buildings"] = fixed if fixed == "random" else tuple(fixed)
    alias = v.sub("resource_alias")
    for word in alias.table:
        alias.choice(word, RESOURCES)
    out["resource_alias"] = dict(alias.table)
    for key, value in LEGENDS_ENGINE.items():
        if v.choice(key, _RULE_CHOICES[key]) != value:
            raise v.error(key, f"the Legends variant plays with {key} = '{value}'")
        out[key] = value
    return out


def parse_rules(path: Path) -> Rules:
    doc = read_toml(path)
    top = Fields(path, doc, None)
    top.reject_unknown({"schema", "game", "rules", "two_player", "variant"})
    if top.get("game", "paper-tales") != "paper-tales":
        raise top.error("game", f"this is a rules file for '{doc['game']}', not paper-tales")
    r = top.sub("rules")
    r.reject_unknown(OPTION_KEYS)
    opts = _read_options(r, _RULE_INTS, _RULE_BOOLS, _RULE_CHOICES)
    for key, value in LEGENDS_ENGINE.items():
        if opts[key] == value:
            raise r.error(key, f"'{value}' is the Legends engine: set it in [variant.legends]")
    order = tuple(r.str_list("aging_order"))
    if order != AGING_ORDER:
        names = ", ".join(AGING_ORDER)
        page = "docs/rules/paper-tales.md §8"
        raise r.error("aging_order", f"only the order of {page} ({names}) is implemented")
    opts["aging_order"] = order
    exp = r.get("expansions")
    if exp != []:
        raise r.error("expansions", f"no expansion data exists yet; must be [], got {exp!r}")
    opts["expansions"] = ()
    t = top.sub("two_player")
    t.reject_unknown({f.name for f in TwoPlayer.__dataclass_fields__.values()})
    two = TwoPlayer(
        unconfirmed=parse_bool(t, "unconfirmed"),
        deal=t.integer("deal", 1, DEAL_2P),
        discard_per_step=t.integer("discard_per_step", 0, 4),
        single_war=parse_bool(t, "single_war"),
        war_lp=t.integer("war_lp", 0, 20),
        double_ratio=t.integer("double_ratio", 1, 10),
        double_war_lp=t.integer("double_war_lp", 0, 40),
        zero_strength_wins=parse_bool(t, "zero_strength_wins"),
        per_war_won_times=t.integer("per_war_won_times", 0, 2),
    )
    if not two.single_war:
        raise t.error("single_war", "only the single-war rule is implemented for 2 players")
    variants: dict[str, dict[str, Any]] = {}
    vt = top.sub("variant")
    for name in vt.table:
        v = vt.sub(name)
        exp = v.get("expansions", [])
        if exp not in ([], ["legends"]):
            raise v.error("expansions", f"the only expansion is 'legends', got {exp!r}")
        legends = exp == ["legends"]
        overrides = [k for k in OPTION_KEYS if k != "expansions"]
        v.reject_unknown((*VARIANT_KEYS, *overrides, *(LEGENDS_KEYS if legends else ())))
        lo = v.integer("min_players", MIN_PLAYERS, MAX_PLAYERS)
        variants[name] = {
            "description": v.string("description"),
            "min_players": lo,
            "max_players": v.integer("max_players", lo, MAX_PLAYERS),
            "expansions": tuple(exp),
            "cards": tuple(v.str_list("cards")) if v.has("cards") else (),
            "options": {k: _option(v, k) for k in overrides if v.has(k)},
        }
        if legends:
            variants[name]["options"].update(_legends_options(v))
    if not variants:
        raise top.error("variant", "needs at least one [variant.NAME] table")
    return Rules(opts, two, variants)
