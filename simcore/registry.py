"""The list of games. Metadata only: importing this module never imports numba.

``engine(name)`` imports a game's ``engine`` module lazily. Every engine module exposes
the same functions (see ``Engine``), so the runner and the CLI treat games alike.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from talesim.simcore import policy_spec
from talesim.simcore.errors import TalesimError
from talesim.simcore.names import did_you_mean
from talesim.simcore.policy_spec import Param, PolicySpecError, Spec


class GameError(TalesimError, ValueError):
    """Bad request about a game: unknown game/variant/policy, impossible player count."""


class InvariantError(TalesimError, RuntimeError):
    """A kernel run with ``check=True`` found a broken rule invariant (a bug, not bad input).
    The message names the seed, the game id and the invariant, so the game can be replayed
    with ``talesim play GAME --seed S --game g``."""


def raise_first_violation(
    violation: Any, invariants: Sequence[str], game: str, seed: int, first_game: int
) -> None:
    """``InvariantError`` for the first game of a chunk whose checking-mode code (an int
    array, one per game, 0 = fine) names a broken invariant; nothing if all are 0."""
    bad = violation.nonzero()[0]
    if len(bad):
        g = first_game + int(bad[0])
        raise InvariantError(
            f"invariant broken in game {g} (seed {seed}): {invariants[int(violation[bad[0]])]}; "
            f"replay it with `talesim play {game} --seed {seed} --game {g} ...`"
        )


@dataclass(frozen=True)
class Variant:
    name: str
    min_players: int
    max_players: int
    description: str
    unconfirmed_players: tuple[int, ...] = ()  # player counts the reference marks as unconfirmed
    #: False while only ``reference/`` plays the variant (``play``, ``cards``):
    #: ``simulate`` and ``bench`` refuse it with one clear line.
    kernel: bool = True


@dataclass(frozen=True)
class Game:
    name: str  # CLI id, e.g. "fairy-tale"
    title: str
    package: str  # python package holding engine.py, tables.py, kernel.py, ...
    variants: tuple[Variant, ...]
    default_variant: str
    policies: tuple[str, ...]
    tables: tuple[str, ...]  # dataset tables written by simulate
    #: The parameters of the policies that have some (``simcore.policy_spec``), as
    #: (policy, its parameters in canonical order) pairs; a policy without is its name.
    policy_params: tuple[tuple[str, tuple[Param, ...]], ...] = ()
    #: The name of each entry of a heuristic's float row of weights (``talesim tune``, policy
    #: files); as long as the game's ``policies.N_WEIGHTS`` (tested).
    weight_names: tuple[str, ...] = ()
    variant_option: str = "variant"  # CLI flag naming the variant (DRAKO uses --rules)
    simulates: bool = True  # False while a game has data and scoring but no kernel yet
    # `talesim bench` defaults: about ten seconds of greedy play in each engine
    bench_games: int = 200_000
    bench_reference_games: int = 300

    def variant(self, name: str | None) -> Variant:
        name = name or self.default_variant
        for v in self.variants:
            if v.name == name:
                return v
        names = [v.name for v in self.variants]
        hint = did_you_mean(name, names)
        raise GameError(f"{self.name} has no variant '{name}' (variants: {', '.join(names)}){hint}")

    def check_players(self, variant: str | None, players: int) -> Variant:
        v = self.variant(variant)
        if not v.min_players <= players <= v.max_players:
            raise GameError(
                f"{self.name} ({v.name}) is played by {v.min_players}-{v.max_players} players, "
                f"not {players}"
            )
        return v

    def check_kernel(self, variant: str | None) -> Variant:
        """The variant, if the numba kernel plays it (``simulate``, ``bench``)."""
        v = self.variant(variant)
        if not v.kernel:
            raise GameError(
                f"{self.name} ({v.name}) has no numba kernel yet: `talesim play` and "
                "`talesim cards` use reference/; simulate and bench wait for the kernel"
            )
        return v

    @property
    def weighted_policies(self) -> tuple[str, ...]:
        """The heuristics that decide from a row of weights alone (``talesim tune``, the
        bases of named policies): every policy but ``random``, ``learned`` (a model) and
        those with parameters (a search such as ``mc``)."""
        params = dict(self.policy_params)
        return tuple(p for p in self.policies if p not in ("random", "learned") and p not in params)

    def parse_policy(self, text: str, named: Sequence[str] = ()) -> Spec:
        """The policy spec ``text`` (``NAME[:key=value...]``) of this game, or one of the
        ``named`` policies of a policies file (which take no parameters); ``GameError``
        naming the game and what is wrong."""
        try:
            return policy_spec.parse(text, self.policies, dict(self.policy_params), named)
        except PolicySpecError as exc:
            raise GameError(f"{self.name}: {exc}") from None

    def canonical_policies(self, policies: Sequence[str], named: Sequence[str] = ()) -> list[str]:
        """Each seat's spec in canonical form (every parameter written out, in declared
        order): the string manifests, datasets and reports show."""
        return [self.parse_policy(p, named).canonical for p in policies]

    def check_policies(self, policies: Sequence[str], named: Sequence[str] = ()) -> None:
        """Every spec of ``policies`` is one of this game's policies with valid parameters."""
        for p in policies:
            self.parse_policy(p, named)

    @property
    def learned_features(self) -> tuple[str, ...]:
        """The features the ``learned`` player computes for a candidate, in the order its
        model reads them (the game's ``learned.FEATURES``; empty: no learned player)."""
        return self._learned("FEATURES")

    @property
    def decision_kinds(self) -> tuple[str, ...]:
        """The kinds of decision the ``learned`` player's model has a head for (the game's
        ``learned.KINDS``, in head order)."""
        return self._learned("KINDS")

    def _learned(self, name: str) -> tuple[str, ...]:
        if "learned" not in self.policies:
            return ()
        module = importlib.import_module(f"{self.package}.learned")  # numba: only when asked
        return tuple(getattr(module, name))

    def state_names_variant(self, variant: str | None) -> None:
        """For a game whose end states name their own variant (the STATE.json key
        ``variant_option``): ``GameError`` if ``score_state`` is given one apart."""
        if variant is not None:
            key = self.variant_option
            raise GameError(
                f"`talesim score {self.name}` reads the {key} from STATE.json "
                f'(its "{key}" key), not from --{key}'
            )

    def data_dir(self) -> Path:
        return Path(__file__).resolve().parent / "games" / self.package.rsplit(".", 1)[-1]


class Engine(Protocol):
    """What every ``simcore/games/<game>/engine.py`` module provides, with the same
    parameters in every game, so no caller asks which a game takes
    (``tests/test_registry.py`` checks each module against this list; ``simcore.engine_kit``
    holds what they share: ``run_chunk``, ``bench``, the ``Prepared`` request)."""

    def load_cards(self, path: Path | None = None) -> Any: ...
    def default_weights(self) -> Any: ...
    def card_catalog(self, cards: Any, variant: str) -> list[dict[str, Any]]: ...
    def prepare(
        self, cards: Any, variant: str, players: int, policies: list[str], rotate_seats: bool
    ) -> Any: ...
    def warmup(self, prepared: Any) -> None: ...

    # A chunk in two halves (``engine_kit.run_chunk`` is the two in a row): the local backend
    # calls them apart, so a chunk's tables are built on its writer thread while the next
    # chunk's kernel runs.
    def simulate_arrays(
        self,
        prepared: Any,
        seed: int,
        first_game: int,
        n_games: int,
        check: bool = False,
        record: Any = None,  # a ``simcore.learned.Record``: the searches, for ``talesim learn``
    ) -> dict[str, Any]: ...
    def frames(self, prepared: Any, a: dict[str, Any], first_game: int) -> dict[str, Any]: ...

    def play(self, prepared: Any, seed: int, game_id: int) -> list[dict[str, Any]]: ...
    def narrate(self, event: dict[str, Any]) -> str: ...
    def reference_player(self, prepared: Any) -> Any: ...

    # ``talesim score``: an end state (JSON) scored by the kernel's code, and by the
    # rulebook's (its oracle). A game whose states name their variant refuses ``variant``
    # (``Game.state_names_variant``); Paper Tales' positions take it apart.
    def score_state(
        self, state: dict[str, Any], cards: Any = None, variant: str | None = None
    ) -> dict[str, Any]: ...
    def score_state_reference(
        self, state: dict[str, Any], cards: Any = None, variant: str | None = None
    ) -> dict[str, Any]: ...


def mc_params(
    rollouts: int, top: int, max_top: int, playout: str, playouts: tuple[str, ...]
) -> tuple[str, tuple[Param, ...]]:
    """The parameters of a game's ``mc`` search (``mc:rollouts=R:top=T:playout=NAME``) with
    its defaults: playouts per candidate, how many candidates (best by greedy, at most
    ``max_top``: the most options a decision has) and the policy of the playouts (one of
    ``playouts``, or a policies file's named policy)."""
    return (
        "mc",
        (
            Param("rollouts", rollouts, lo=1, hi=1024, help="playouts per candidate"),
            Param("top", top, lo=1, hi=max_top, help="candidates searched, best by greedy"),
            Param(
                "playout",
                playout,
                choices=playouts,
                help="the policy every seat plays in the playouts (or a named policy)",
                names_policy=True,
            ),
        ),
    )


GAMES: dict[str, Game] = {
    "fairy-tale": Game(
        name="fairy-tale",
        title="Fairy Tale (Yuhodo 2004, 100-card edition)",
        package="talesim.simcore.games.fairy_tale",
        variants=(
            Variant("basic", 2, 4, "80 basic cards; Open and Close effects"),
            Variant(
                "beginner",
                2,
                4,
                "basic deck; one starting face-up card, 4-card first draft, 2 plays in round 1",
            ),
            Variant("expert", 2, 5, "all 100 cards; Hunt, quests, majorities and the Trickster"),
        ),
        default_variant="expert",
        policies=("random", "greedy", "collector", "mc", "learned"),
        tables=("games", "seats", "cards"),
        policy_params=(
            mc_params(16, 4, 12, "greedy", ("random", "greedy", "collector", "learned")),
        ),
        weight_names=("gain", "effect", "harm", "synergy", "deny"),
    ),
    "drako": Game(
        name="drako",
        title="DRAKO: Aetherya",
        package="talesim.simcore.games.drako",
        variants=(
            Variant(
                "brief",
                2,
                4,
                "project brief: goblin-goblin conflicts; dragons 3/4/5, beyond the third -5",
            ),
            Variant(
                "published",
                2,
                4,
                "published game: no goblin-goblin conflict; dragons 3/5/6, beyond the third -6",
            ),
        ),
        default_variant="brief",
        policies=("random", "greedy", "legend-hunter", "mc", "learned"),
        tables=("games", "seats", "cards", "legends", "draws"),
        policy_params=(
            mc_params(32, 4, 33, "greedy", ("random", "greedy", "legend-hunter", "learned")),
        ),
        weight_names=("gain", "legend", "near", "tame", "take-bar"),
        variant_option="rules",
    ),
    "paper-tales": Game(
        name="paper-tales",
        title="Paper Tales (Catch Up Games 2017) and its expansion Ce qui forge les légendes",
        package="talesim.simcore.games.paper_tales",
        variants=(
            Variant(
                "base",
                2,
                5,
                "42 units (81 cards), 5 buildings; 2 players by the Game Park rules (§2.9)",
                unconfirmed_players=(2,),
            ),
            Variant(
                "legends",
                2,
                5,
                "base + the expansion: 26 units, 18 artifacts, 2 of Inn/Sawmill/Royal Palace "
                "(the expansion's cards are the reference's proposal)",
                unconfirmed_players=(2,),
            ),
        ),
        default_variant="base",
        policies=("random", "greedy", "warlord", "builder", "mc", "learned"),
        tables=("games", "seats", "cards", "buildings"),
        policy_params=(
            mc_params(6, 3, 54, "warlord", ("random", "greedy", "warlord", "builder", "learned")),
        ),
        weight_names=(
            "war-lp",
            "end-lp",
            "deploy-lp",
            "aging-lp",
            "income",
            "gold",
            "strength",
            "margin",
            "prod",
            "buildable",
            "keep",
            "units",
            "level2",
            "strong",
            "unaffordable",
            "save-strength",
        ),
        bench_games=20_000,
        bench_reference_games=50,
    ),
}


def get_game(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        hint = did_you_mean(name, GAMES)
        raise GameError(f"unknown game '{name}' (games: {', '.join(GAMES)}){hint}") from None


def engine(game: Game | str) -> ModuleType:
    """Import (lazily) and return the game's engine module."""
    g = get_game(game) if isinstance(game, str) else game
    return importlib.import_module(f"{g.package}.engine")


def param_record(param: Param) -> dict[str, Any]:
    """A policy parameter as data: its name, default, and bounds or choices."""
    if param.choices:
        return {"name": param.name, "default": param.default, "choices": list(param.choices)}
    return {"name": param.name, "default": param.default, "lo": param.lo, "hi": param.hi}


def game_record(game: Game) -> dict[str, Any]:
    """What the table and the parameter lines say of ``game``, as data (``games --json``)."""
    return {
        "game": game.name,
        "title": game.title,
        "variants": [
            {
                "name": v.name,
                "min_players": v.min_players,
                "max_players": v.max_players,
                "unconfirmed_players": list(v.unconfirmed_players),
                "default": v.name == game.default_variant,
                "simulates": v.kernel,
            }
            for v in game.variants
        ],
        "policies": list(game.policies),
        "policy_parameters": {
            name: [param_record(p) for p in params] for name, params in game.policy_params
        },
    }
