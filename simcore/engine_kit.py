"""Plain-Python glue shared by the game engines (``simcore/games/<game>/engine.py``).

An engine (``simcore.registry.Engine``) gives its game's data, ``prepare`` and the two
halves of a chunk (``simulate_arrays``: the kernel's result arrays; ``frames``: the
dataset's tables); what every engine would otherwise write again lives here: the request
checks every ``prepare`` starts with, the ``Prepared`` request with its seats and search
slots, the kernel call (``run_kernel``), an engine's ``simulate_arrays`` (``simulator``), a
chunk as tables (``run_chunk``), how many parallel blocks a chunk gets, the seats' policies
of one game (``--rotate-seats``), the columns every dataset table starts with, the ``games``
table, categorical columns from code arrays, a game played by the rulebook
(``reference_player``), the narration (``narrate_event``: a line per event kind, a template
or a function) and its shared lines (first event, start, reshuffle, final scores, winners),
the end state of ``talesim score`` (``end_state``) and the key checks of its JSON
(``state_io``), and the ``talesim bench`` harness. No numba and no game knowledge here;
polars is imported by the functions that need it.
"""

from __future__ import annotations

import importlib
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from talesim.simcore import learned, policy_spec
from talesim.simcore.cards import CardDataError
from talesim.simcore.learned import Model
from talesim.simcore.policy_file import NamedPolicy
from talesim.simcore.registry import Engine, Game, GameError, raise_first_violation

if TYPE_CHECKING:
    import polars as pl


def check_request(game: Game, variant: str, players: int, policies: Sequence[str]) -> None:
    """The checks every ``prepare`` starts with: the variant takes ``players`` players, every
    policy spec is valid, one spec per seat (``GameError``)."""
    game.check_players(variant, players)
    game.check_policies(policies)
    if len(policies) != players:
        raise GameError(f"{len(policies)} policies given for {players} players")


@dataclass(frozen=True)
class Prepared:
    """A validated request (what ``prepare`` returns): card data, variant, seats and the
    compiled tables. A game subclasses it, naming its policies (``POLICY_NAMES``; with
    ``POLICY_PARAMS``, the parameters of those that have some) and adding ``config()`` (the
    rule options stored in the manifest)."""

    POLICY_NAMES: ClassVar[tuple[str, ...]] = ()
    POLICY_PARAMS: ClassVar[policy_spec.Declared] = {}
    #: The policy code of the search (``mc``) in ``POLICY_NAMES``.
    MC_CODE: ClassVar[int] = -1
    #: The policy code of the ``learned`` player in ``POLICY_NAMES`` (-1: none).
    LEARNED_CODE: ClassVar[int] = -1
    GAME: ClassVar[Game | None] = None

    def __init_subclass__(
        cls,
        game: Game | None = None,
        names: Sequence[str] = (),
        mc: int = -1,
        learned: int = -1,
        **kw: Any,
    ) -> None:
        """``class Prepared(engine_kit.Prepared, game=GAME, names=POLICY_NAMES, mc=Policy.MC,
        learned=Policy.LEARNED)``: a game's request with its policies (``POLICY_NAMES``), the
        parameters its registry entry declares for them (``POLICY_PARAMS``), the search's
        code (``MC_CODE``) and the learned player's (``LEARNED_CODE``)."""
        super().__init_subclass__(**kw)
        if game is not None:
            cls.GAME = game
            cls.POLICY_NAMES = tuple(names)
            cls.POLICY_PARAMS = dict(game.policy_params)
            cls.MC_CODE = int(mc)
            cls.LEARNED_CODE = int(learned)

    cards: Any
    variant: str
    players: int
    policies: tuple[str, ...]  # one spec per seat (before rotation), canonical
    rotate_seats: bool
    tables: Any  # the game's compiled tables (a NamedTuple of arrays)
    #: float64[len(code_names), N_WEIGHTS]: the built-in rows, then one per named policy
    weights: np.ndarray
    #: policies defined as data (``--policies-file``): codes after the built-in ones
    named: tuple[NamedPolicy, ...] = ()
    #: the models of the learned seats and playouts, one kernel row each (``with_models``):
    #: the variant's shipped model when a seat or a playout is ``learned``, then each named
    #: learned policy's
    models: tuple[Model, ...] = ()

    @property
    def code_names(self) -> tuple[str, ...]:
        """The name of each policy code: the built-in policies, then the named ones. Every
        heuristic decides from its row of ``weights`` alone (only ``random``, code 0, is
        told apart by its code), so a named policy is its own code and row."""
        return (*self.POLICY_NAMES, *(p.name for p in self.named))

    @property
    def base_code(self) -> np.ndarray:
        """int32 built-in policy each code plays (a named policy: its base)."""
        bases = [*self.POLICY_NAMES, *(p.base for p in self.named)]
        return np.array([self.POLICY_NAMES.index(b) for b in bases], dtype=np.int32)

    @property
    def specs(self) -> tuple[policy_spec.Spec, ...]:
        """The parsed spec of each seat (before rotation)."""
        named = [p.name for p in self.named]
        return tuple(
            policy_spec.parse(p, self.POLICY_NAMES, self.POLICY_PARAMS, named)
            for p in self.policies
        )

    @property
    def seat_policy(self) -> np.ndarray:
        """int32 policy code of each seat (before rotation)."""
        return np.array([self.code_names.index(s.name) for s in self.specs], dtype=np.int32)

    @property
    def slots(self) -> policy_spec.Slots:
        """The run's distinct specs (slots) and each seat's slot (before rotation)."""
        return policy_spec.slots(self.specs)

    @property
    def seat_slot(self) -> np.ndarray:
        """int32 slot of each seat (before rotation): the index of its spec in
        ``slots.names``, the categories of the dataset's ``policy`` column."""
        return np.array(self.slots.seat_slot, dtype=np.int32)

    @property
    def slot_policy(self) -> np.ndarray:
        """int32 base policy code of each slot."""
        return np.array([self.code_names.index(s.name) for s in self.slots.specs], dtype=np.int32)

    def weight_rows(self) -> dict[str, list[float]]:
        """The weights as the manifest stores them: policy name -> row."""
        return {name: [float(x) for x in self.weights[i]] for i, name in enumerate(self.code_names)}

    def model_row(self, name: str) -> int:
        """The row of ``models`` that policy ``name`` plays (``learned`` or a named learned
        policy); -1 for any other policy."""
        if name == "learned":
            return 0
        learned = [p.name for p in self.named if p.base == "learned"]
        if name not in learned:
            return -1
        return learned.index(name) + (1 if self.uses_default_model else 0)

    @property
    def uses_default_model(self) -> bool:
        """Whether a seat, or an mc seat's playouts, play the built-in ``learned``."""
        return any(
            s.name == "learned" or (s.name == "mc" and s["playout"] == "learned")
            for s in self.specs
        )

    def slot_row(self, spec: policy_spec.Spec) -> list[int]:
        """The kernel's row of one spec (``slot_table``): policy code, mc rollouts, mc top,
        mc playout policy code, model row (a learned seat's; an mc seat's playouts'). A
        learned policy, built in or named, plays the ``LEARNED_CODE`` with its model row, as
        a seat or as the playouts; a named heuristic plays its own code (its weight row)."""
        if spec.name == "mc":
            playout = str(spec["playout"])
            model = self.model_row(playout)
            return [
                self.MC_CODE,
                int(spec["rollouts"]),
                int(spec["top"]),
                self.LEARNED_CODE if model >= 0 else self.code_names.index(playout),
                model,
            ]
        row = self.model_row(spec.name)
        if row >= 0:
            return [self.LEARNED_CODE, 0, 0, 0, row]
        return [self.code_names.index(spec.name), 0, 0, 0, -1]

    def slot_table(self) -> tuple[np.ndarray, np.ndarray]:
        """The kernel's seats: int32[slots, 5], each slot's ``slot_row``, and the int32 slot
        of each seat (before rotation). By default (DRAKO, Paper Tales) a heuristic seat's
        slot is its policy code: rows ``0 .. len(code_names) - 1`` are the policy codes (so
        the ``policy`` result column of heuristic runs is the policy code), and each
        distinct mc spec gets a row after them."""
        n = len(self.code_names)
        # The "mc" code's own row is never a seat's (mc seats get a row per spec below).
        rows = [
            [code, 0, 0, 0, -1] if name == "mc" else self.slot_row(policy_spec.Spec(name, ()))
            for code, name in enumerate(self.code_names)
        ]
        seat_slot = []
        mc: list[str] = []
        for spec in self.specs:
            if spec.name != "mc":
                seat_slot.append(self.code_names.index(spec.name))
                continue
            if spec.canonical not in mc:
                mc.append(spec.canonical)
                rows.append(self.slot_row(spec))
            seat_slot.append(n + mc.index(spec.canonical))
        return np.array(rows, dtype=np.int32), np.array(seat_slot, dtype=np.int32)

    def slot_names(self) -> list[str]:
        """The name of each slot of ``slot_table``: the policy names, then the mc specs'
        canonical strings (the categories of the dataset's ``policy`` column)."""
        names = list(self.code_names)
        for spec in self.specs:
            if spec.name == "mc" and spec.canonical not in names:
                names.append(spec.canonical)
        return names

    @property
    def has_search(self) -> bool:
        """Whether a seat plays the search (``mc``) or the learned player: the run needs
        the search kernel (a heuristics' kernel compiles neither)."""
        table, seat_slot = self.slot_table()
        codes = table[seat_slot, 0]
        return bool(((codes == self.MC_CODE) | (codes == self.LEARNED_CODE)).any())

    def packed_models(self) -> np.ndarray:
        """The kernels' float64 rows of ``models`` (``simcore.learned.pack``)."""
        return learned.pack(self.models)

    def seat_names(self, game_id: int) -> list[str]:
        """Each seat's policy spec in game ``game_id`` (seats rotated when asked)."""
        seats = seat_policies(range(self.players), self.rotate_seats, game_id)
        return [self.policies[s] for s in seats]

    def reference_seats(
        self, game_id: int, search: Callable[..., Any] | None = None
    ) -> tuple[list[int], list[Any]]:
        """The policy code of each seat in game ``game_id`` and, for an mc seat, its
        ``Search`` (``search(rollouts, top, playout)``, by default the rulebooks' shared
        ``flat_mc.Search``; None for a heuristic seat), for the game's ``reference/``."""
        if search is None:
            from talesim.simcore.flat_mc import Search  # the RNG's numba: not at import time

            search = Search
        table, seat_slot = self.slot_table()
        slots = seat_policies(seat_slot, self.rotate_seats, game_id)
        codes = [int(table[s, 0]) for s in slots]
        searches = [
            (
                search(int(table[s, 1]), int(table[s, 2]), int(table[s, 3]))
                if table[s, 4] < 0
                else search(
                    int(table[s, 1]), int(table[s, 2]), int(table[s, 3]), self.models[table[s, 4]]
                )
            )
            if table[s, 0] == self.MC_CODE
            else None
            for s in slots
        ]
        return codes, searches

    def reference_models(self, game_id: int) -> list[Model | None]:
        """Each seat's model in game ``game_id`` (a learned seat's; None for any other)."""
        table, seat_slot = self.slot_table()
        slots = seat_policies(seat_slot, self.rotate_seats, game_id)
        return [
            self.models[table[s, 4]] if table[s, 0] == self.LEARNED_CODE else None for s in slots
        ]


def with_named(prepared: Any, named: Sequence[NamedPolicy], policies: Sequence[str]) -> Any:
    """``prepared`` (prepared with each named policy replaced by its base) playing the
    seats' real ``policies``: the named policies' codes and weight rows added."""
    if not named:
        return prepared
    n_weights = prepared.weights.shape[1]
    rows = np.array(  # a learned policy reads no weights: a row of zeros
        [p.weights or (0.0,) * n_weights for p in named], dtype=np.float64
    ).reshape(len(named), n_weights)
    return replace(
        prepared,
        policies=tuple(policies),
        named=tuple(named),
        weights=np.ascontiguousarray(np.vstack([prepared.weights, rows])),
    )


def with_models(prepared: Any) -> Any:
    """``prepared`` with the models its learned seats and playouts play (``models``): the
    variant's shipped model (``default_model``) when a seat or a playout is ``learned``,
    then each named learned policy's. A game without a learned player (no ``LEARNED_CODE``:
    the test double's ``Prepared`` is not an ``engine_kit.Prepared``) is left as it is."""
    if getattr(prepared, "LEARNED_CODE", -1) < 0:
        return prepared
    models = [default_model(prepared.GAME, prepared.variant)] if prepared.uses_default_model else []
    models += [p.model for p in prepared.named if p.base == "learned"]
    for m in models:
        if prepared.variant not in m.variants:
            raise CardDataError(
                m.path,
                f"the model plays {m.game} {', '.join(m.variants)}, not {prepared.variant} "
                "(train one with `talesim learn`)",
            )
    return replace(prepared, models=tuple(models))


#: Where a game's shipped models live, in its package: ``models/*.toml``.
MODELS_DIR = "models"


def default_model(game: Game, variant: str) -> Model:
    """The shipped model of ``game`` that plays ``variant`` (the first file of the game's
    ``models/`` folder, by name, listing it); ``GameError`` when there is none."""
    for path in sorted((game.data_dir() / MODELS_DIR).glob("*.toml")):
        model = learned.load(path, game.name, game.learned_features, game.decision_kinds)
        if variant in model.variants:
            return model
    raise GameError(
        f"{game.name} ({variant}) has no shipped learned model: train one with "
        f"`talesim learn {game.name} --{game.variant_option} {variant} ...` and name it in a "
        "policies file"
    )


def run_chunk(
    engine: Engine, prepared: Any, seed: int, first_game: int, n_games: int, check: bool = False
) -> dict[str, Any]:
    """Games ``first_game .. first_game + n_games - 1`` as the dataset's tables: the
    engine's ``simulate_arrays`` and ``frames`` in a row (the local backend calls them apart,
    so a chunk's tables are built on its writer thread while the next chunk's kernel runs)."""
    arrays = engine.simulate_arrays(prepared, seed, first_game, n_games, check)
    return engine.frames(prepared, arrays, first_game)


def run_kernel(
    prepared: Prepared,
    kernels: tuple[Callable[..., None], Callable[..., None]],
    out: Any,
    seed: int,
    first_game: int,
    n_games: int,
    check: bool,
    record: learned.Record | None = None,
) -> None:
    """Play a chunk into the result buffers ``out`` with the heuristic kernel or, when a seat
    plays ``mc`` or ``learned`` (``has_search``), the search kernel (``kernels``: the two,
    in that order; DRAKO's and Fairy Tale's), each called with the tables, the seats
    (weights, slot table, each seat's slot, rotation), ``chunk_bounds``, ``out`` and
    ``check``. A game with a learned player (``LEARNED_CODE``) gives its search kernel the
    packed models after the weights and the searches' ``record`` last (``no_record()``
    unless given)."""
    table, seat_slot = prepared.slot_table()
    bounds = chunk_bounds(prepared, seed, first_game, n_games)
    if not prepared.has_search:
        seats = (prepared.weights, table, seat_slot, prepared.rotate_seats)
        kernels[0](prepared.tables, *seats, *bounds, out, check)
    elif prepared.LEARNED_CODE < 0:
        seats = (prepared.weights, table, seat_slot, prepared.rotate_seats)
        kernels[1](prepared.tables, *seats, *bounds, out, check)
    else:
        rec = record if record is not None else learned.no_record()
        seats = (prepared.packed_models(), table, seat_slot, prepared.rotate_seats)
        kernels[1](prepared.tables, prepared.weights, *seats, *bounds, out, check, rec)


def simulator(
    game: str,
    kernel: str,
    buffers: Callable[[Any, int], Any],
    play: Callable[..., dict[str, np.ndarray]] | None = None,
    invariants: Callable[[Any], Sequence[str]] | None = None,
    search_only: Sequence[str] = (),
) -> Callable[..., dict[str, np.ndarray]]:
    """An engine's ``simulate_arrays(prepared, seed, first_game, n_games, check=False,
    record=None)``: a chunk played into fresh result ``buffers(prepared, n_games)`` (the
    kernel's ``ChunkOut``), its raw result arrays (no polars). ``kernel`` names the module
    that holds the game's kernels (its kernel package, or an engine that imports them),
    imported at the first chunk (numba only when games are played). The
    games are played by its ``simulate_chunk`` and ``simulate_chunk_search``
    (``run_kernel``) or, for a game whose kernels take other arguments, by ``play(prepared,
    out, seed, first_game, n_games, check, record)``, which returns the arrays it adds.
    ``check``: checking mode, ``InvariantError`` naming the first game that broke a rule
    invariant (``out.violation``: codes into the module's ``INVARIANTS``, or
    ``invariants(prepared)``); ``record``: the buffers the searches are recorded into
    (``talesim learn``). A heuristic run leaves out the arrays only the search kernel fills
    (``search_only``)."""

    def simulate_arrays(
        prepared: Any,
        seed: int,
        first_game: int,
        n_games: int,
        check: bool = False,
        record: learned.Record | None = None,
    ) -> dict[str, np.ndarray]:
        module = importlib.import_module(kernel)
        out = buffers(prepared, n_games)
        chunk = (seed, first_game, n_games, check, record)
        if play is None:
            kernels = (module.simulate_chunk, module.simulate_chunk_search)
            run_kernel(prepared, kernels, out, *chunk)
            added = {}
        else:
            added = play(prepared, out, *chunk)
        if check:
            names = module.INVARIANTS if invariants is None else invariants(prepared)
            raise_first_violation(out.violation, names, game, seed, first_game)
        arrays = {**out._asdict(), **added}
        if not prepared.has_search:
            for key in search_only:
                del arrays[key]
        return arrays

    return simulate_arrays


def reference_player(
    prepared: Prepared, rules: Any, play_reference: Callable[..., Any], **options: Any
) -> Callable[..., Any]:
    """``play(seed, game_id, record=False)``: game ``game_id`` played by the game's
    ``reference/``, the same game its kernel stores under that id (the differential tests);
    ``record`` keeps its events. ``play_reference(rules, weights, seat policies, seed,
    game_id, record=, searches=, **options)`` is the rulebook's, each mc seat its
    ``Search``."""

    def play(seed: int, game_id: int, record: bool = False) -> Any:
        seat_policy, searches = prepared.reference_seats(game_id)
        models = prepared.reference_models(game_id)
        return play_reference(
            rules, prepared.weights, seat_policy, seed, game_id, record=record,
            searches=searches, models=models, **options,
        )  # fmt: skip

    return play


#: How a game narrates one kind of event (``narrate_event``): a ``str.format`` template
#: over the event's fields, or a function of the event for a line that needs more.
Line = str | Callable[[dict[str, Any]], str]


def narrate_event(
    event: dict[str, Any],
    lines: dict[str, Line],
    fields: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> str:
    """One event of a narrated game (``talesim play``) as readable text: ``lines`` of its
    kind (``event["event"]``) filled with its fields (``fields(event)`` when given: the
    event's with the game's own additions), or the raw event for a kind the game does not
    narrate."""
    line = lines.get(event["event"])
    if line is None:
        return str(event)
    if isinstance(line, str):
        return line.format_map(event if fields is None else fields(event))
    return line(event)


def joined(event: dict[str, Any], empty: str = "") -> dict[str, Any]:
    """An event's fields as a narration template reads them: a list (of cards, units...)
    joined by ", " (``empty`` for an empty one)."""
    return {
        k: (", ".join(map(str, v)) or empty) if isinstance(v, list) else v for k, v in event.items()
    }


def start_event(
    game: str, prepared: Any, seed: int, game_id: int, event: str = "start"
) -> dict[str, Any]:
    """The first event of a narrated game (``talesim play``): the game, variant, seed, game
    id, player count and each seat's policy."""
    return {
        "event": event,
        "game": game,
        "variant": prepared.variant,
        "seed": seed,
        "game_id": game_id,
        "players": prepared.players,
        "policies": prepared.seat_names(game_id),
    }


def narrate_start(title: str, event: dict[str, Any]) -> str:
    """The first line of a narrated game (``start_event``): the game's ``title``, variant,
    seed, game id, player count and each seat's policy."""
    return (
        f"{title} ({event['variant']}), seed {event['seed']}, game {event['game_id']}:"
        f" {event['players']} players ({', '.join(event['policies'])})"
    )


def narrate_final(
    title: str, event: dict[str, Any], seat_line: Callable[[int, str], str], points: str = "+d"
) -> str:
    """A narrated game's ``final`` event: ``title``, a line a seat (``seat_line(seat,
    parts)``, ``parts`` its nonzero breakdown as "name points", each formatted by
    ``points``, or "nothing"), then the winners."""
    lines = [title]
    for p, breakdown in enumerate(event["breakdown"]):
        parts = ", ".join(f"{k} {v:{points}}" for k, v in breakdown.items() if v)
        lines.append(seat_line(p, parts or "nothing"))
    lines.append(narrate_winners(event["winners"]))
    return "\n".join(lines)


def narrate_winners(winners: Sequence[int]) -> str:
    """The last line of a narrated game: its winning seats."""
    return (
        "Winner"
        + ("s" if len(winners) > 1 else "")
        + ": "
        + ", ".join(f"seat {w}" for w in winners)
    )


def narrate_reshuffle(event: dict[str, Any]) -> str:
    """A narrated reshuffle (DRAKO, Paper Tales): the discard pile becomes the draw pile."""
    return f"          the discard pile becomes the draw pile ({event['cards']} cards, shuffled)"


def chunk_bounds(
    prepared: Prepared, seed: int, first_game: int, n_games: int
) -> tuple[int, np.uint64, int, int, int]:
    """The arguments every chunk kernel takes after its tables and seats: the player count,
    the seed, the chunk's first game and size, and its parallel blocks (``blocks``)."""
    return prepared.players, np.uint64(seed), first_game, n_games, blocks(n_games)


def blocks(n_games: int) -> int:
    """Parallel blocks per chunk: enough to balance the threads, each long enough that its
    one scratch allocation does not matter."""
    return max(1, min(n_games // 64, 64))


def seat_policies(seat_policy: Sequence[int] | np.ndarray, rotate: bool, game_id: int) -> list[int]:
    """The policy code of each seat in game ``game_id``: seat ``s`` plays
    ``seat_policy[(s + g) % n]`` when ``rotate`` (the kernels' rule), else ``seat_policy[s]``."""
    codes = [int(x) for x in seat_policy]
    n = len(codes)
    return [codes[(p + game_id) % n] for p in range(n)] if rotate else codes


def game_ids(first_game: int, n_games: int) -> np.ndarray:
    """int64 game ids of a chunk."""
    return np.arange(first_game, first_game + n_games, dtype=np.int64)


def seat_keys(game_id: np.ndarray, players: int) -> dict[str, np.ndarray]:
    """``game_id`` and ``seat`` columns of a one-row-per-(game, seat) table."""
    return {
        "game_id": np.repeat(game_id, players),
        "seat": np.tile(np.arange(players, dtype=np.int8), len(game_id)),
    }


def categorical(names: Sequence[str], codes: np.ndarray) -> pl.Series:
    """A polars ``Enum`` column of ``names[code]`` for each code (the dataset's card,
    policy and building id convention)."""
    import polars as pl

    return pl.Series(list(names), dtype=pl.Enum(list(names))).gather(
        np.asarray(codes).reshape(-1).astype(np.int64)
    )


def games_table(
    game_id: np.ndarray, score: np.ndarray, winners: np.ndarray, **columns: np.ndarray
) -> tuple[pl.DataFrame, np.ndarray]:
    """The dataset's ``games`` table, one row a game: ``game_id``, the game's own
    ``columns``, ``n_winners`` and ``top_score``; and each seat's ``win`` (float64[n, P]: 1/k
    for each of a game's k ``winners``, else 0)."""
    import polars as pl

    n_win = winners.sum(axis=1)
    games = pl.DataFrame(
        {
            "game_id": game_id,
            **columns,
            "n_winners": n_win.astype(np.int8),
            "top_score": score.max(axis=1).astype(np.int16),
        }
    )
    return games, winners / n_win[:, None]


def ranks(score: np.ndarray, tiebreak: np.ndarray | None = None) -> np.ndarray:
    """int8[n, P]: 1 + the seats strictly ahead (higher score; on equal score, higher
    ``tiebreak``). The winners have rank 1."""
    ahead = score[:, None, :] > score[:, :, None]
    if tiebreak is not None:
        ahead |= (score[:, None, :] == score[:, :, None]) & (
            tiebreak[:, None, :] > tiebreak[:, :, None]
        )
    return (1 + ahead.sum(axis=2)).astype(np.int8)


def end_state(
    game: Game,
    state: dict[str, Any],
    cards: Any,
    variant: str | None,
    load: Callable[[], Any],
    parse: Callable[[Any, Any], tuple[Any, ...]],
) -> tuple[Any, ...]:
    """The card data (``load()`` unless given) and the parsed fields of an end state given
    as JSON (``parse(state, cards)``, the game's ``state_io.parse_state``) for ``talesim
    score`` of a game whose states name their variant (DRAKO, Fairy Tale): ``variant`` must
    be None (``Game.state_names_variant``)."""
    game.state_names_variant(variant)
    cards = cards or load()
    return (cards, *parse(state, cards))


def short_json(value: Any) -> str:
    """JSON of ``value``, cut to 40 characters (for the error messages of ``state_io``)."""
    import json

    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 40 else text[:37] + "..."


def state_keys_problem(state: Any, keys: Sequence[str]) -> str | None:
    """What is wrong with an end state given as JSON (``talesim score``) that must be an
    object with no keys but ``keys``, or None. ``state_io.parse_state`` raises it itself
    (the fuzz tests tell its rejections by where they are raised)."""
    has = " and ".join(f"'{k}'" for k in keys)
    if not isinstance(state, dict):
        return f"the state must be a JSON object with {has}"
    unknown = set(state) - set(keys)
    if unknown:
        return f"unknown key(s) {', '.join(sorted(unknown))} (a state has {has})"
    return None


def player_keys_problem(seat: int, player: Any, keys: Sequence[str]) -> str | None:
    """What is wrong with seat ``seat`` of a JSON end state that must be an object with no
    keys but ``keys``, or None (``state_keys_problem``)."""
    if not isinstance(player, dict):
        has = " and ".join(f"'{k}'" for k in keys)
        return f"player {seat}: must be an object with {has}"
    unknown = set(player) - set(keys)
    if unknown:
        return f"player {seat}: unknown key(s) {', '.join(sorted(unknown))}"
    return None


#: Timed kernel runs of ``talesim bench`` (the median is reported).
BENCH_RUNS = 3


def bench(
    engine: Engine,
    game: Game,
    players: int,
    policy: str,
    threads: int,
    n_games: int,
    reference_games: int,
    variant: str | None = None,
) -> dict[str, Any]:
    """``talesim bench``: games/s of a kernel (``threads`` numba threads) and of its
    reference/, games 0.. of seed 1, every seat playing ``policy``.

    The engine's ``warmup`` compiles; its ``simulate_arrays`` runs the kernel (the tables
    are not built); ``reference_player(prepared)`` gives the function that plays one game
    with the reference. The kernel's rate is the median of ``BENCH_RUNS`` timed runs: one
    run of a fraction of a second moves by 10-15% on a shared machine."""
    import numba

    variant = variant or game.default_variant
    prepared = engine.prepare(engine.load_cards(), variant, players, [policy] * players, False)
    prepared = with_models(prepared)
    play_reference = engine.reference_player(prepared)
    old = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        engine.warmup(prepared)
        rates = []
        for _ in range(BENCH_RUNS):
            t = time.perf_counter()
            engine.simulate_arrays(prepared, 1, 0, n_games)
            rates.append(n_games / (time.perf_counter() - t))
        numba_rate = statistics.median(rates)
    finally:
        numba.set_num_threads(old)
    t = time.perf_counter()
    for g in range(reference_games):
        play_reference(1, g)
    ref_rate = reference_games / (time.perf_counter() - t)
    return {
        "game": game.name,
        "variant": variant,
        "players": players,
        "policy": policy,
        "threads": threads,
        "numba_games_per_s": round(numba_rate, 1),
        "reference_games_per_s": round(ref_rate, 2),
        "ratio": round(numba_rate / ref_rate, 1),
    }
