"""Policy specs: ``NAME[:key=value...]``, one per seat (commas separate seats).

A game declares each policy's parameters as data (``Param``: name, type, bounds, default)
beside its policy names (``simcore.registry.Game.policy_params``). A spec names a policy
and sets some of its parameters; ``parse`` checks it and returns a ``Spec`` whose
*canonical* string writes every declared parameter out, in declared order, defaults
included: ``mc`` and ``mc:top=4:rollouts=16`` (with 16 and 4 the defaults) are both
``mc:rollouts=16:top=4:playout=greedy``, while ``mc:rollouts=4`` and ``mc:rollouts=32``
are different players. A policy without parameters is its name (``greedy``), so the
heuristics' specs, manifests and datasets read as before.

The canonical string is what the manifest, the dataset's ``seats.policy`` and the reports
show. The kernels tell seats apart by *slot*: the index of a seat's spec among the run's
distinct specs (``slots``), with a slot table of (base policy code, parameter values).

No numba, no game knowledge: the registry imports this module, and ``talesim --help`` must
stay instant.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from talesim.simcore.errors import TalesimError
from talesim.simcore.names import did_you_mean

Value = int | str

_NAME = re.compile(r"[a-z][a-z0-9-]*\Z")


class PolicySpecError(TalesimError, ValueError):
    """A spec that names no policy of the game, or sets an unknown key or a bad value."""


@dataclass(frozen=True)
class Param:
    """One parameter of a policy: an integer in ``[lo, hi]``, or one of ``choices``."""

    name: str
    default: Value
    lo: int | None = None  # integer parameters: inclusive bounds
    hi: int | None = None
    choices: tuple[str, ...] = ()  # string parameters: the allowed values
    help: str = ""
    #: a string parameter that names a policy: a policies file's named policies are
    #: allowed besides ``choices`` (``mc:playout=NAME``)
    names_policy: bool = False

    def __post_init__(self) -> None:
        if self.choices:
            assert isinstance(self.default, str)
            assert self.default in self.choices
        else:
            assert isinstance(self.default, int)
            assert self.lo is not None
            assert self.hi is not None
            assert self.lo <= self.default <= self.hi

    def parse(self, policy: str, text: str, named: Sequence[str] = ()) -> Value:
        """The value written ``text`` (``PolicySpecError`` naming policy, key and bounds);
        ``named``: the named policies a ``names_policy`` parameter may take too."""
        if self.choices:
            allowed = (*self.choices, *named) if self.names_policy else self.choices
            if text not in allowed:
                raise PolicySpecError(
                    f"policy {policy}: {self.name} must be one of {', '.join(allowed)}, "
                    f"got '{text}'{did_you_mean(text, allowed)}"
                )
            return text
        if not re.fullmatch(r"[+-]?[0-9]+", text):
            raise PolicySpecError(f"policy {policy}: {self.name} must be an integer, got '{text}'")
        value = int(text)
        assert self.lo is not None
        assert self.hi is not None
        if not self.lo <= value <= self.hi:
            raise PolicySpecError(
                f"policy {policy}: {self.name} must be between {self.lo} and {self.hi}, got {value}"
            )
        return value

    def describe(self) -> str:
        """``name=default`` with its range, for ``talesim games`` and help texts."""
        if self.choices:
            return f"{self.name}={self.default} ({'|'.join(self.choices)})"
        return f"{self.name}={self.default} ({self.lo}-{self.hi})"


#: A game's parameter declarations: policy name -> its parameters (policies without
#: parameters need no entry).
Declared = Mapping[str, Sequence[Param]]


@dataclass(frozen=True)
class Spec:
    """A parsed policy spec: the base policy and every declared parameter's value."""

    name: str
    values: tuple[tuple[str, Value], ...]  # (key, value) for every declared parameter, in order

    def __str__(self) -> str:
        return self.canonical

    @property
    def canonical(self) -> str:
        """``name:key=value:...`` with every parameter written out, in declared order."""
        return ":".join([self.name, *(f"{k}={v}" for k, v in self.values)])

    def __getitem__(self, key: str) -> Value:
        for k, v in self.values:
            if k == key:
                return v
        raise KeyError(key)


def parse(
    text: str, policies: Sequence[str], declared: Declared, named: Sequence[str] = ()
) -> Spec:
    """The ``Spec`` written ``text``: ``NAME`` or ``NAME:key=value[:key=value...]`` with
    ``NAME`` one of ``policies`` or of the ``named`` policies of a policies file (which
    take no parameters) and each key one of its ``declared`` parameters, at most once.
    Missing keys take their defaults. Anything else: ``PolicySpecError``."""
    text = text.strip()
    name, *items = text.split(":")
    name = name.strip()
    if not name:
        raise PolicySpecError(f"malformed policy spec '{text}': no policy name")
    names = (*policies, *named)
    if name not in names:
        hint = did_you_mean(name, names)
        raise PolicySpecError(f"unknown policy '{name}' (policies: {', '.join(names)}){hint}")
    params = list(declared.get(name, ()))
    by_key = {p.name: p for p in params}
    given: dict[str, Value] = {}
    for item in items:
        key, eq, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if not eq or not key or not raw:
            raise PolicySpecError(
                f"malformed policy spec '{text}': '{item}' is not key=value "
                f"(write {name}:key=value:key=value)"
            )
        if key not in by_key:
            known = ", ".join(by_key) if by_key else "none"
            hint = did_you_mean(key, by_key)
            raise PolicySpecError(
                f"policy {name} has no parameter '{key}' (parameters: {known}){hint}"
            )
        if key in given:
            raise PolicySpecError(f"policy {name}: {key} is given twice in '{text}'")
        given[key] = by_key[key].parse(name, raw, named)
    return Spec(name, tuple((p.name, given.get(p.name, p.default)) for p in params))


def canonical(text: str, policies: Sequence[str], declared: Declared) -> str:
    """The canonical string of spec ``text`` (see ``parse``)."""
    return parse(text, policies, declared).canonical


def check_declared(policies: Sequence[str], declared: Declared) -> None:
    """Assert a game's declarations are coherent: every declared policy exists, names are
    lower-case words, keys are unique (a programming error, not user input)."""
    for name in policies:
        assert _NAME.match(name), name
    for name, params in declared.items():
        assert name in policies, name
        keys = [p.name for p in params]
        assert len(set(keys)) == len(keys), (name, keys)
        for k in keys:
            assert _NAME.match(k), k


@dataclass(frozen=True)
class Slots:
    """The distinct specs of a run's seats: ``specs[slot]`` in first-seat order and
    ``seat_slot[s]``, the slot of seat ``s`` (before any seat rotation)."""

    specs: tuple[Spec, ...]
    seat_slot: tuple[int, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """The canonical strings of the slots (the dataset's ``policy`` categories)."""
        return tuple(s.canonical for s in self.specs)


def slots(specs: Sequence[Spec]) -> Slots:
    """Number the distinct specs of ``specs`` (one per seat) in order of first seat."""
    distinct: list[Spec] = []
    seat_slot = []
    for s in specs:
        if s not in distinct:
            distinct.append(s)
        seat_slot.append(distinct.index(s))
    return Slots(tuple(distinct), tuple(seat_slot))
