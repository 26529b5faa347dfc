"""The validated card data (``Ability``, ``Production``, ``Unit``, ``Artifact``,
``BuildingLevel``, ``Building``, ``TwoPlayer``, ``Rules``, ``CardSet``) and the compiled
arrays' containers (``Tables``, ``LegendsTables``)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from .effects import ALL_EFFECTS, RESOURCES


@dataclass(frozen=True)
class Ability:
    """One ability: phase + effect kind + parameters (defaults filled in)."""

    phase: str
    kind: str
    on_deploy: bool = False
    amount: int = 0
    value: int = 0
    per: str = "one"
    when: str = "always"
    target: str = "none"
    max_cost: int = 0
    age: int = 0
    min_age: int = 0
    resources: tuple[str, ...] = ()
    # Legends parameters (LEGENDS.md §A)
    count: int = 0
    cost: int = 0
    take_from: str = "hand"  # data key `from`
    times: int = 0
    level: int = 0
    land_cost: bool = False
    requirements: bool = False
    gold: int = 0
    lp: int = 0
    requires: tuple[int, int, int] = (0, 0, 0)
    counter: str = "one"
    minimum: int = 0  # data key `min`
    per_cost: int = 0
    per_other: bool = False
    discount: int = 0  # no_land_cost: 0 = no land cost at all (base), n = n gold lower

    def text(self) -> str:
        """A compact description for the card catalog, e.g. ``war: +1 LP x food``."""
        params = []
        for key in ALL_EFFECTS[self.kind][1]:
            val = getattr(self, PARAM_ATTR.get(key, key))
            if key in ("per", "when", "counter") and val in ("one", "always"):
                continue
            if key == "requires":
                val = "/".join(f"{n} {r}" for r, n in zip(RESOURCES, val, strict=True) if n)
                if not val:
                    continue
            params.append(f"{key}={'/'.join(val) if isinstance(val, tuple) else val}")
        head = f"{self.phase}{' (on deploy)' if self.on_deploy else ''}: {self.kind}"
        return head + (f" {', '.join(params)}" if params else "")


PARAM_ATTR = {"from": "take_from", "min": "minimum"}  # data key -> Ability attribute


@dataclass(frozen=True)
class Production:
    """Resources produced while in play; ``when``/``per`` gate and multiply all of it."""

    amounts: tuple[int, int, int] = (0, 0, 0)
    when: str = "always"
    per: str = "one"

    def text(self) -> str:
        parts = [f"{n} {r}" for r, n in zip(RESOURCES, self.amounts, strict=True) if n]
        if not parts:
            return ""
        out = " + ".join(parts)
        if self.per != "one":
            out += f" x {self.per}"
        if self.when != "always":
            out += f" if {self.when}"
        return out


@dataclass(frozen=True)
class Unit:
    id: str
    name: str
    name_fr: str | None
    copies: int
    cost: int
    strength: int
    produces: Production
    abilities: tuple[Ability, ...]
    status: str
    source: str
    text: str
    notes: str | None = None
    origin: str | None = None  # Legends file: legends | legends? | btg?
    tags: str | None = None  # Legends file: the reference's per-fact tags


@dataclass(frozen=True)
class Artifact:
    """A Legends artifact card (docs/rules/paper-tales-legends.md §2.3): no cost, no strength,
    no row; printed ``lp`` at END."""

    id: str
    name: str
    copies: int
    lp: int
    produces: Production
    abilities: tuple[Ability, ...]
    status: str
    source: str
    text: str
    notes: str | None = None
    origin: str | None = None
    tags: str | None = None
    name_fr: str | None = None


@dataclass(frozen=True)
class BuildingLevel:
    requires: tuple[int, int, int]
    gold_instead: int | None
    lp: int
    produces: Production
    abilities: tuple[Ability, ...]
    extra_front_spot: bool


@dataclass(frozen=True)
class Building:
    id: str
    name: str
    name_fr: str | None
    levels: tuple[BuildingLevel, BuildingLevel]
    status: str
    source: str
    text: str
    notes: str | None = None
    pool: str = "base"  # base | legends (2 of 3 drawn per game) | integral (Port, Abbey)
    copies: int | None = None
    origin: str | None = None
    tags: str | None = None


@dataclass(frozen=True)
class TwoPlayer:
    unconfirmed: bool
    deal: int
    discard_per_step: int
    single_war: bool
    war_lp: int
    double_ratio: int
    double_war_lp: int
    zero_strength_wins: bool
    per_war_won_times: int


@dataclass(frozen=True)
class Rules:
    """rules.toml's ``[rules]`` (every key, validated) plus ``[two_player]`` and variants."""

    options: dict[str, Any]
    two_player: TwoPlayer
    variants: dict[str, dict[str, Any]]

    def __getitem__(self, key: str) -> Any:
        return self.options[key]


@dataclass(frozen=True)
class CardSet:
    units: tuple[Unit, ...]
    buildings: tuple[Building, ...]
    rules: Rules
    deck_size: int
    files: tuple[Path, ...]
    sha256: str = ""
    index: dict[str, int] = field(default_factory=dict)  # unit id -> unit index
    building_index: dict[str, int] = field(default_factory=dict)
    artifacts: tuple[Artifact, ...] = ()  # Legends
    artifact_index: dict[str, int] = field(default_factory=dict)
    variant: str = "base"
    expansions: tuple[str, ...] = ()

    def ids(self) -> list[str]:
        return [u.id for u in self.units]

    @property
    def legends(self) -> bool:
        return "legends" in self.expansions

    def building_pairs(self) -> list[tuple[int, int]]:
        """The possible Legends building pairs (2-subsets of the ``legends`` pool, in file
        order): the setup draw picks one by index (LEGENDS.md §B.1 step 2)."""
        pool = [b for b, bd in enumerate(self.buildings) if bd.pool == "legends"]
        return list(itertools.combinations(pool, 2))

    def building_set(self, pair: int) -> list[int]:
        """Every player's buildings in a game (catalog indices, construction order): the
        base pool, then ``building_pairs()[pair]`` (Legends), then Port and Abbey when
        ``use_port_abbey``."""
        out = [b for b, bd in enumerate(self.buildings) if bd.pool == "base"]
        if self.legends:
            out += list(self.building_pairs()[pair])
            if self.rules.options["use_port_abbey"]:
                out += [b for b, bd in enumerate(self.buildings) if bd.pool == "integral"]
        return out


class Tables(NamedTuple):
    """Everything the scorer and the kernel need about the cards and the rules."""

    ut: np.ndarray  # int32[U, N_UCOLS]: units, columns U_*
    bt: np.ndarray  # int32[B, LEVELS, N_BCOLS]: building faces, columns B_*
    ab: np.ndarray  # int32[A, N_ACOLS]: abilities, columns A_*
    rules: np.ndarray  # int32[N_RULES]: switches R_*
    deck: np.ndarray  # int32[deck_size]: one unit index per physical card


class LegendsTables(NamedTuple):
    """A Legends card set's tables: the base five (``ab`` with ``N_ACOLS_LEGENDS`` columns,
    ``bt`` over the whole building catalog, ``deck`` = card types: ``t < U`` a unit, ``t >=
    U`` the artifact ``t - U``), plus the artifacts and the Legends switches."""

    ut: np.ndarray
    bt: np.ndarray
    ab: np.ndarray
    rules: np.ndarray
    deck: np.ndarray
    xt: np.ndarray  # int32[X, N_XCOLS]: artifacts, columns X_*
    lrules: np.ndarray  # int32[N_LRULES]: switches L_*
