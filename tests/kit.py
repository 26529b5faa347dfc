"""The test kit: what test files share (``pyproject.toml`` puts ``tests/`` on the path, so a
test file imports it as ``kit``; the fixtures are registered by ``tests/conftest.py``).

* the CLI: ``invoke`` (Typer's runner), ``ok`` (a command that must succeed),
  ``talesim_process`` (``talesim ARGS`` as a process of its own, to kill),
  ``error_line`` / ``assert_error`` (bad input is one ``error:`` line on stderr, nothing
  else printed, a given exit code, no traceback), ``assert_option_error`` (one option of a
  good command line given a bad value);
* finished runs: ``finished_run`` (a session fixture: a small complete run of a game and
  variant, written once by ``talesim simulate`` and read by many tests), ``copy_run`` (a
  copy a test may break), ``simulate_args``, ``read_table``, ``part_bytes``, ``manifest``;
  ``toy_run`` (``runner.simulate`` on the test-double game, ``tests/fake_engine.py``);
* requests: ``prepared`` (a game's request as ``runner.setup`` prepares it, for tests of
  the kernel), ``SMALL_MC`` (an ``mc`` spec at a small budget), ``seat_policies``,
  ``with_turn_cap`` (DRAKO's rules with another turn cap);
* learned players: ``random_model`` (a model of seeded random weights), ``learned_policies``
  (a policies file naming a learned policy, ``APPRENTICE``, that plays one);
* rulebooks: ``watching`` (a reference game's method, a search say, watched while the game
  plays);
* ``data_error`` (bad card or rules data is one ``CardDataError`` line naming the file);
* ``state_file`` (a fixture writing a JSON end state for ``talesim score``), ``SEAT_SCHEMA``
  (the column types every seats table starts with), ``load_by_path`` (a helper module that
  is not importable by name).
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import types
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner, Result

from talesim.simcore import learned, registry, runner

# --- the CLI --------------------------------------------------------------------------------


def invoke(*args: object) -> Result:
    """``talesim ARGS`` through Typer's runner (each argument as a string)."""
    from talesim.cli.main import app

    return CliRunner().invoke(app, [str(a) for a in args])


def talesim_process(*args: object) -> subprocess.Popen[str]:
    """``talesim ARGS`` started as a process of its own (``python -m cli.main`` in the
    repository), its output captured: a test can kill it or send it a signal."""
    return subprocess.Popen(
        [sys.executable, "-m", "talesim.cli.main", *(str(a) for a in args)],
        cwd=Path(__file__).resolve().parents[1],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def ok(*args: object) -> Result:
    """``invoke`` of a command that must succeed (exit code 0)."""
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    return result


def error_line(result: Result, exit_code: int = 2) -> str:
    """The one line a refused command prints: exit code ``exit_code``, one ``error:`` line on
    stderr and nothing else on either stream (so no traceback)."""
    assert result.exit_code == exit_code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert result.stderr.strip() == lines[0], result.output
    assert lines[0].startswith("error: "), result.output
    assert "Traceback" not in result.output
    return lines[0]


def assert_error(result: Result, *fragments: str, exit_code: int = 2) -> None:
    """``error_line`` naming every fragment."""
    line = error_line(result, exit_code)
    for fragment in fragments:
        assert fragment in line, line


def assert_option_error(cmd: list[Any], flag: str, value: str, *fragments: str) -> None:
    """``cmd`` (a good command line) with ``flag``'s value replaced by ``value`` is refused
    with one error line naming every fragment."""
    bad = list(cmd)
    bad[bad.index(flag) + 1] = value
    assert_error(invoke(*bad), *fragments)


# --- runs -----------------------------------------------------------------------------------

#: The finished run of each game the tests share: seat policies (each heuristic once), seed.
RUN_SEATS = {
    "fairy-tale": "greedy,random,collector",
    "drako": "greedy,random,legend-hunter",
    "paper-tales": "greedy,random,warlord,builder",
}
RUN_SEED = 5
#: (game, variant) -> (games, chunk size) where a run needs more than the default: Fairy
#: Tale's four chunks (resume), the Legends building pools and artifacts (every pool drawn).
RUN_SIZES = {("fairy-tale", "expert"): (200, 50), ("paper-tales", "legends"): (200, 70)}
RUN_SIZE = (40, 15)


def run_policies(game: str) -> list[str]:
    return RUN_SEATS[game].split(",")


def variant_option(game: str, variant: str | None) -> list[str]:
    """``--variant V`` (DRAKO: ``--rules V``), the game's default variant if None."""
    g = registry.get_game(game)
    return [f"--{g.variant_option}", variant or g.default_variant]


def simulate_args(game: str, out: Path, variant: str | None = None, rotate: bool = True) -> list:
    """The ``talesim simulate`` command line of ``finished_run(game, variant, rotate)``."""
    g = registry.get_game(game)
    games, chunk = RUN_SIZES.get((game, variant or g.default_variant), RUN_SIZE)
    policies = run_policies(game)
    return [
        "simulate", game, *variant_option(game, variant), "--games", games,
        "--players", len(policies), "--seed", RUN_SEED, "--policy", RUN_SEATS[game],
        *(["--rotate-seats"] if rotate else []), "--chunk-size", chunk, "--out", out, "--quiet",
    ]  # fmt: skip


@pytest.fixture(scope="session")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """``finished_run(game, variant=None, rotate=True)``: the directory of a complete run
    (``simulate_args``; None: the default variant), simulated once per session; read it,
    or break a ``copy_run``."""
    runs: dict[tuple[str, str, bool], Path] = {}

    def get(game: str, variant: str | None = None, rotate: bool = True) -> Path:
        key = (game, variant or registry.get_game(game).default_variant, rotate)
        if key not in runs:
            out = tmp_path_factory.mktemp(f"{key[0]}-{key[1]}-{'rotated' if rotate else 'fixed'}")
            ok(*simulate_args(game, out / "run", key[1], rotate))
            runs[key] = out / "run"
        return runs[key]

    return get


def copy_run(run: Path, out: Path) -> Path:
    """A copy of the run directory ``run`` at ``out``."""
    shutil.copytree(run, out)
    return out


#: The tables of Fairy Tale and of the test-double game, and the key that orders each.
SORT_KEYS = {
    "games": ["game_id"],
    "seats": ["game_id", "seat"],
    "cards": ["game_id", "seat", "pick"],
}


def read_table(out: Path, table: str, sort: bool = False) -> pl.DataFrame:
    """One table of a run, its parts in order (``sort``: by its ``SORT_KEYS``)."""
    frame = pl.read_parquet(out / table / "part-*.parquet")
    return frame.sort(SORT_KEYS[table]) if sort else frame


def part_bytes(out: Path) -> dict[str, bytes]:
    """Every Parquet part of a run, by its path in the run: what two equal runs share."""
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.glob("*/part-*.parquet"))}


def manifest(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "manifest.json").read_text())
    return data


def toy_run(out: Path, **overrides: Any) -> runner.RunResult:
    """``simulate`` the toy game (the ``fake`` fixture) with small defaults, quiet."""
    kwargs: dict[str, Any] = {
        "players": 3,
        "policies": "greedy,random,collector",
        "seed": 11,
        "n_games": 50,
        "out": out,
        "chunk_size": 7,
        "progress": False,
    }
    kwargs.update(overrides)
    return runner.simulate(kwargs.pop("game", "toy"), **kwargs)


# --- requests -------------------------------------------------------------------------------


def seat_policies(spec: str, players: int, mixed: Sequence[str]) -> list[str]:
    """The seats of a kernel-against-rulebook case: ``spec`` in every seat, or (``spec`` is
    "mixed") the first ``players`` policies of ``mixed``."""
    return list(mixed[:players]) if spec == "mixed" else [spec] * players


#: An ``mc`` spec at a small budget: games with searches, quick enough for a test.
SMALL_MC = "mc:rollouts=2:top=2"


def with_turn_cap(data: Any, cap: int) -> Any:
    """DRAKO's rules data (a ``CardSet``) with ``turns_per_player_cap = cap`` in every
    preset."""
    presets = {
        name: replace(p, options=replace(p.options, turns_per_player_cap=cap))
        for name, p in data.presets.items()
    }
    return replace(data, presets=presets)


def prepared(
    game: str,
    variant: str,
    specs: list[str],
    rotate: bool = False,
    models: Sequence[learned.Model] | None = None,
) -> Any:
    """The request ``talesim simulate`` prepares (``runner.setup``): ``game``'s ``variant``
    with a seat per policy spec (each in canonical form), seats rotated if ``rotate``;
    ``models``: the models its ``learned`` seats and playouts play (in place of the
    game's shipped model)."""
    if models is None:
        return runner.setup(
            game, variant=variant, players=len(specs), policies=list(specs), rotate_seats=rotate
        ).prepared
    engine = registry.engine(game)
    canonical = registry.get_game(game).canonical_policies(specs)
    prep = engine.prepare(engine.load_cards(None), variant, len(specs), canonical, rotate)
    return replace(prep, models=tuple(models))


# --- learned players ------------------------------------------------------------------------

#: The name ``learned_policies`` gives a learned player with a model of random weights.
APPRENTICE = "apprentice"


def random_model(game: str, seed: int, hidden: int = 4, top: int = 4) -> learned.Model:
    """A model of seeded random weights for ``game``'s learned player (its features and
    decision kinds; every variant and player count): it decides unlike any heuristic."""
    g = registry.get_game(game)
    rng = np.random.default_rng(seed)
    f = len(g.learned_features)
    heads = tuple(
        learned.Head(
            rng.normal(size=f),
            rng.uniform(0.5, 2.0, size=f),
            rng.normal(size=f),
            rng.normal(size=(f, hidden)),
            rng.normal(size=hidden),
            rng.normal(size=hidden),
        )
        for _ in g.decision_kinds
    )
    return learned.Model(game, *_trained_for(g), top, hidden, g.learned_features,
                         g.decision_kinds, heads)  # fmt: skip


def rank_model(game: str, top: int = 4) -> learned.Model:
    """A linear model for ``game`` scoring minus the ``rank`` feature: it plays the
    heuristic's first best, always (every variant and player count)."""
    g = registry.get_game(game)
    f = len(g.learned_features)
    linear = np.zeros(f)
    linear[g.learned_features.index("rank")] = -1.0
    head = learned.Head(np.zeros(f), np.ones(f), linear, np.zeros((f, 0)), np.zeros(0),
                        np.zeros(0))  # fmt: skip
    return learned.Model(game, *_trained_for(g), top, 0, g.learned_features, g.decision_kinds,
                         (head,) * len(g.decision_kinds))  # fmt: skip


def _trained_for(g: registry.Game) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """Every variant ``g``'s kernel plays and every player count of its variants."""
    variants = tuple(v.name for v in g.variants if v.kernel)
    players = tuple(range(min(v.min_players for v in g.variants),
                          max(v.max_players for v in g.variants) + 1))  # fmt: skip
    return variants, players


def learned_policies(game: str, directory: Path, seed: int = 5) -> Path:
    """A policies file in ``directory`` naming ``APPRENTICE``: ``game``'s learned player
    with ``random_model(game, seed)`` (written beside it); its path."""
    from talesim.simcore import policy_file

    model = directory / "model.toml"
    model.write_text(learned.dumps(random_model(game, seed)))
    path = directory / "policies.toml"
    apprentice = policy_file.NamedPolicy(APPRENTICE, "learned", (), model_path=model.name)
    path.write_text(policy_file.dumps(game, [apprentice]))
    return path


# --- rulebooks ------------------------------------------------------------------------------


@contextmanager
def watching(owner: type, method: str, see: Callable[..., object]) -> Iterator[None]:
    """Within the block, ``owner.method`` calls ``see(self, *args)`` before doing its work
    (restored on the way out): how a test records what a reference game decides, e.g. each
    search of a rulebook with its options."""
    real = getattr(owner, method)

    def spy(self: Any, *args: Any) -> Any:
        see(self, *args)
        return real(self, *args)

    setattr(owner, method, spy)
    try:
        yield
    finally:
        setattr(owner, method, real)


# --- data -----------------------------------------------------------------------------------

#: The columns every seats table starts with, typed as the test double writes them.
SEAT_SCHEMA = {
    "game_id": pl.Int64,
    "seat": pl.Int8,
    "policy": pl.String,
    "score": pl.Int16,
    "rank": pl.Int8,
    "win": pl.Float64,
}


@pytest.fixture
def state_file(tmp_path: Path) -> Callable[[Any], Path]:
    """``state_file(state)``: ``state`` (a JSON end state) written to a file; its path."""

    def write(state: Any) -> Path:
        path = tmp_path / "state.json"
        path.write_text(json.dumps(state))
        return path

    return write


def data_error(load: Callable[[], Any], path: Path | None = None, *fragments: str) -> str:
    """The message of the ``CardDataError`` that ``load()`` raises: one line, starting with
    ``path`` (if given) and naming every fragment."""
    from talesim.simcore.cards import CardDataError

    with pytest.raises(CardDataError) as err:
        load()
    message = str(err.value)
    assert "\n" not in message, message
    assert path is None or message.startswith(str(path)), message
    for fragment in fragments:
        assert fragment in message, message
    return message


def load_by_path(name: str, path: Path) -> types.ModuleType:
    """The module at ``path`` imported as ``name`` (once): a helper that is not a test and not
    importable by name under ``--import-mode=importlib``."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module
