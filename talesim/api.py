"""talesim as a library: one function per CLI command, with the command's arguments and
defaults, writing the same bytes.

Every ``talesim`` command is a thin layer over the function of the same name here: it
parses its options, calls the function inside ``cli.errors.reported`` and prints what the
function returns. So a notebook and the terminal run one code path:

>>> import talesim
>>> run = talesim.simulate("fairy-tale", games=2000, players=4, seed=1, policy="greedy",
...                        out="runs/x")                                    # doctest: +SKIP
>>> run.seats.collect().height                                              # doctest: +SKIP
8000

Differences from the CLI, by design: the CLI's presentation flags (``--quiet``,
``--summary``, ``--json``) are not arguments; progress lines are off unless
``progress=True``; errors are exceptions (``TalesimError`` and its subclasses) carrying the
line the CLI prints after ``error:``; results are objects (a ``Run`` with polars
LazyFrames of its tables, the search outcomes with their tables) instead of text.
``tests/test_api.py`` checks that each function's arguments and defaults are its
command's, and that both write byte-identical files.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from talesim.simcore.errors import UserError
from talesim.simcore.outdirs import LEARN_SUMMARY, check_out

if TYPE_CHECKING:
    from talesim.reports.compare import Comparison
    from talesim.reports.report import Report
    from talesim.reports.run import Run
    from talesim.simcore.balance import Outcome as BalanceOutcome
    from talesim.simcore.batch import RunOptions
    from talesim.simcore.ladder import Outcome as LadderOutcome
    from talesim.simcore.tune import Outcome as TuneOutcome

#: A path argument: a ``str`` or any path-like (``pathlib.Path``).
PathArg = str | PathLike[str]

#: Where a command's progress lines go: a callable taking one line, or None for nowhere.
Echo = Callable[[str], None]


def _path(value: PathArg | None) -> Path | None:
    return None if value is None else Path(value)


def _echo(progress: bool | Echo) -> Echo:
    """``progress`` as a line sink: True prints to stderr, False drops, a callable is used."""
    if callable(progress):
        return progress
    if progress:
        return lambda line: print(line, file=sys.stderr, flush=True)
    return lambda _line: None


def run_options(
    threads: int | None,
    backend: str,
    scheduler: str | None,
    progress: bool,
    *,
    chunk_size: int | None = None,
    check: bool = False,
) -> RunOptions:
    """How a command's games run (threads, backend, scheduler, progress bar, chunk size,
    checking mode): built once, handed on whole to the runner or to a search's request."""
    from talesim.simcore.batch import RunOptions

    return RunOptions(
        chunk_size=chunk_size,
        threads=threads,
        backend=str(backend),
        scheduler=scheduler,
        check=check,
        progress=bool(progress),
    )


def _study_settings(
    game: str,
    variant: str | None,
    players: int,
    games: int,
    budget: int,
    seed: int,
    out: Path,
    cards_file: Path | None,
    validation_games: int | None,
    storage: str | None,
    resume: bool,
    options: RunOptions,
) -> dict[str, Any]:
    """The fields every study request shares (``simcore.batch.StudySettings``: ``tune``,
    ``balance``)."""
    return {
        "game": game, "variant": variant, "players": players, "n_games": games,
        "budget": budget, "seed": seed, "out": out, "cards_path": cards_file,
        "validation_games": validation_games, "storage": storage, "resume": resume,
        "options": options,
    }  # fmt: skip


def simulate(
    game: str,
    *,
    games: int,
    players: int,
    seed: int,
    policy: str,
    out: PathArg,
    variant: str | None = None,
    cards_file: PathArg | None = None,
    policies_file: PathArg | None = None,
    chunk_size: int | None = None,
    threads: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    check: bool = False,
    resume: bool = False,
    overwrite: bool = False,
    rotate_seats: bool = False,
    until_ci: float | None = None,
    progress: bool = False,
) -> Run:
    """Simulate ``games`` seeded games of ``game`` into the run directory ``out`` and open
    it (``talesim simulate``).

    ``policy`` is one spec for every seat or a comma list with one per seat
    (``"greedy"``, ``"greedy,mc:rollouts=8"``); ``until_ci=H`` stops once every judged
    card's 95% win-share half-width is at most H (``games`` is then the maximum).
    ``resume=True`` finishes (or, with a larger ``games``, extends) the run in ``out``.
    Raises ``RunInterrupted`` on Ctrl-C (the run stays resumable).

    >>> run = talesim.simulate("fairy-tale", games=1000, players=4, seed=1,
    ...                        policy="greedy", out="runs/ft")              # doctest: +SKIP
    >>> run.seats.group_by("seat").agg(pl.col("win").mean()).collect()      # doctest: +SKIP
    """
    from talesim.reports.run import open_run as _open
    from talesim.simcore import runner

    out = Path(out)
    check_out(out, "run")
    options = run_options(threads, backend, scheduler, progress, chunk_size=chunk_size, check=check)
    result = runner.simulate(
        game,
        variant=variant,
        players=players,
        policies=policy,
        seed=seed,
        n_games=games,
        out=out,
        cards_path=_path(cards_file),
        rotate_seats=rotate_seats,
        policies_file=_path(policies_file),
        until_ci=until_ci,
        resume=resume,
        overwrite=overwrite,
        options=options,
    )
    return _open(result.out, result)


def open_run(path: PathArg) -> Run:
    """Open a finished run directory: its manifest and a polars LazyFrame per table
    (``run.seats``, ``run.games``, ``run.cards``, ... or ``run.scan(name)``).

    >>> run = talesim.open_run("runs/ft")                                   # doctest: +SKIP
    >>> run.tables, run.n_games                                             # doctest: +SKIP
    """
    from talesim.reports.run import open_run as _open

    return _open(Path(path))


def report(runs: PathArg | Sequence[PathArg], *, out: PathArg, band: str = "0.9:1.1") -> Report:
    """Write the balance report of a run (``talesim report``) into ``out``: ``index.html``,
    its charts and CSVs. Several runs of one game that differ only in policy (weakest
    first) add card verdicts across strength. Returns the page's path and its findings
    (``report.index``, ``report.findings``)."""
    from talesim.reports.report import write_report
    from talesim.simcore.balance import parse_band

    paths = [Path(runs)] if isinstance(runs, str | PathLike) else [Path(r) for r in runs]
    if not paths:
        raise UserError("report needs at least one run")
    out = Path(out)
    check_out(out, "report", paths)
    bounds = parse_band(band)
    try:
        return write_report(paths[0], out, paths[1:], bounds)
    except OSError as exc:
        raise os_error(exc, out) from None


def compare(run_a: PathArg, run_b: PathArg, *, out: PathArg) -> Comparison:
    """Compare two runs of the same game (``talesim compare``): paired changes in win
    share per card, policy and seat with Benjamini–Hochberg corrected significance, and
    the card-data fields that differ. Returns the page's path and its findings."""
    from talesim.reports.compare import build_compare

    out = Path(out)
    check_out(out, "compare", [Path(run_a), Path(run_b)])
    try:
        return build_compare(Path(run_a), Path(run_b), out)
    except OSError as exc:
        raise os_error(exc, out) from None


def os_error(exc: OSError, out: Path) -> UserError:
    """An I/O failure as one line naming the path it happened on (reading or writing)."""
    where = exc.filename if exc.filename is not None else out
    return UserError(f"{where}: {exc.strerror or exc}")


def ladder(
    game: str,
    *,
    players: int,
    policies: str,
    games: int,
    seed: int,
    out: PathArg,
    variant: str | None = None,
    cards_file: PathArg | None = None,
    policies_file: PathArg | None = None,
    band: str = "0.9:1.1",
    tournament_games: int | None = None,
    level_runs: Sequence[PathArg] | None = None,
    until_ci: float | None = None,
    threads: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    resume: bool = False,
    progress: bool | Echo = False,
) -> LadderOutcome:
    """Rate ``policies`` (comma list, weakest first; ``SPEC@N`` gives a level its own game
    count) against each other and say which card verdicts hold as play gets stronger
    (``talesim ladder``). Returns ratings, luck shares, verdicts and the files written."""
    from talesim.simcore import balance as balancing
    from talesim.simcore import ladder as ladders

    out = Path(out)
    runs = tuple(Path(p) for p in level_runs or ())
    check_out(out, "search", runs)
    specs, level_games = ladders.parse_policies(policies)
    request = ladders.Request(
        game=game,
        variant=variant,
        players=players,
        policies=specs,
        n_games=games,
        level_games=level_games,
        level_runs=runs,
        until_ci=until_ci,
        seed=seed,
        out=out,
        band=balancing.parse_band(band),
        tournament_games=tournament_games,
        cards_path=_path(cards_file),
        policies_file=_path(policies_file),
        resume=resume,
        options=run_options(threads, backend, scheduler, bool(progress)),
    )
    return ladders.run_ladder(request, echo=_echo(progress))


def balance(
    game: str,
    *,
    players: int,
    games: int,
    budget: int,
    band: str,
    seed: int,
    out: PathArg,
    policy: str | None = None,
    levels: str | None = None,
    variant: str | None = None,
    cards_file: PathArg | None = None,
    policies_file: PathArg | None = None,
    fields: str | None = None,
    radius: int = 3,
    max_steps_per_card: int = 2,
    sampling: str = "adaptive",
    tolerance: float = 0.01,
    validation_games: int | None = None,
    threads: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    storage: str | None = None,
    resume: bool = False,
    progress: bool | Echo = False,
) -> BalanceOutcome:
    """Propose the smallest edit of the card data that brings every card into ``band``
    (``"LO:HI"``) at every level (``talesim balance``), validated on fresh seeds. Returns
    the proposal (``outcome.edits``), per-card verdicts before and after, and the files."""
    from talesim.simcore import balance as search
    from talesim.simcore.ladder import parse_policies

    out = Path(out)
    check_out(out, "search")
    options = run_options(threads, backend, scheduler, bool(progress))
    specs, level_games = parse_policies(levels) if levels is not None else ((), {})
    request = search.Request(
        **_study_settings(game, variant, players, games, budget, seed, out,
                          _path(cards_file), validation_games, storage, resume, options),
        policy=policy,
        levels=specs,
        level_games=level_games,
        band=search.parse_band(band),
        policies_file=_path(policies_file),
        fields=fields,
        radius=radius,
        max_steps_per_card=max_steps_per_card,
        sampling=sampling,
        tolerance=tolerance,
    )  # fmt: skip
    return search.run_balance(request, echo=_echo(progress))


def tune(
    game: str,
    *,
    policy: str,
    players: int,
    games: int,
    budget: int,
    seed: int,
    out: PathArg,
    against: str | None = None,
    variant: str | None = None,
    cards_file: PathArg | None = None,
    sampling: str = "adaptive",
    validation_games: int | None = None,
    threads: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    storage: str | None = None,
    resume: bool = False,
    progress: bool | Echo = False,
) -> TuneOutcome:
    """Tune heuristic ``policy``'s weights to maximise its win share against ``against``
    (default: itself) (``talesim tune``). Returns the tuned policy, its validation against
    the default weights and the files (``outcome.files["policies"]``)."""
    from talesim.simcore import tune as tuning

    out = Path(out)
    check_out(out, "search")
    options = run_options(threads, backend, scheduler, bool(progress))
    request = tuning.Request(
        **_study_settings(game, variant, players, games, budget, seed, out,
                          _path(cards_file), validation_games, storage, resume, options),
        base=policy,
        against=against,
        sampling=sampling,
    )  # fmt: skip
    return tuning.run_tune(request, echo=_echo(progress))


def learn(
    game: str,
    *,
    out: PathArg,
    variant: str | None = None,
    players: int = 4,
    games: int = 2000,
    iterations: int = 3,
    seed: int = 0,
    expert: str = "mc",
    hidden: int = 16,
    eval_games: int = 4000,
    against: str = "greedy",
    threads: int | None = None,
    resume: bool = False,
    overwrite: bool = False,
    progress: bool | Echo = False,
) -> dict[str, Any]:
    """Train a learned player from the search (``talesim learn``): ``out/model.toml``,
    ``out/policies.toml`` (policy ``apprentice``), the recorded decisions and a page.
    Returns the summary written to ``out/learn.json`` (iterations, the best one, its win
    share against ``against`` and its agreement with the expert)."""
    from talesim.simcore import learn as learning
    from talesim.simcore import registry, runner

    out = Path(out)
    echo = _echo(progress)
    check_out(out, "learn")
    g = registry.get_game(game)
    v = g.check_players(variant, players)
    g.check_policies([against])
    req = learning.Request(
        game=g.name,
        variant=v.name,
        players=players,
        games=games,
        iterations=iterations,
        seed=seed,
        out=str(out),
        expert=g.canonical_policies([expert])[0],
        hidden=hidden,
        eval_games=eval_games,
        against=against,
    )
    learning.check(req)
    if threads is not None:
        runner.check_threads(threads)
        import numba

        numba.set_num_threads(threads)
    summary = out / LEARN_SUMMARY
    if out.exists() and any(out.iterdir()):
        if not summary.exists():
            raise UserError(f"{out} exists and is not a learn run: choose another --out")
        if overwrite:
            shutil.rmtree(out)
        elif not resume:
            raise UserError(f"{out} holds a learn run: add --resume to continue it or --overwrite")

    def on_progress(label: str, done: int, total: int) -> None:
        echo(f"{label}: {done:,}/{total:,}")

    result: dict[str, Any] = learning.run(req, on_progress)
    return result


class Replay:
    """One game replayed event by event (``talesim play``): ``events`` as dicts, and
    ``narration()`` as the CLI prints them."""

    def __init__(self, events: list[dict[str, Any]], narrate: Callable[[Any], str]) -> None:
        self.events = events
        self._narrate = narrate

    def narration(self) -> list[str]:
        """One line per event, as ``talesim play`` prints them."""
        return [self._narrate(event) for event in self.events]


def play(
    game: str,
    *,
    seed: int,
    players: int,
    policy: str,
    game_id: int = 0,
    variant: str | None = None,
    cards_file: PathArg | None = None,
    policies_file: PathArg | None = None,
    rotate_seats: bool = False,
) -> Replay:
    """Replay game ``game_id`` of a run seeded with ``seed`` (``talesim play``): exactly
    the game ``simulate`` stored under that id with the same arguments.

    >>> talesim.play("fairy-tale", seed=1, players=4, policy="greedy").narration()[:3]
    ...                                                                     # doctest: +SKIP
    """
    from talesim.simcore import runner

    runner.check_seed(seed)
    runner.check_seed(game_id, name="game id")
    s = runner.setup(
        game,
        variant=variant,
        players=players,
        policies=policy,
        cards_path=_path(cards_file),
        rotate_seats=rotate_seats,
        policies_file=_path(policies_file),
    )
    return Replay(list(s.engine.play(s.prepared, seed, game_id)), s.engine.narrate)


def score(
    game: str,
    state: PathArg | dict[str, Any],
    *,
    variant: str | None = None,
    cards_file: PathArg | None = None,
) -> dict[str, Any]:
    """Score an end state (``talesim score``): a JSON file's path or the parsed dict.
    Returns each seat's breakdown, totals and winners."""
    from talesim.simcore import registry

    g = registry.get_game(game)
    engine = registry.engine(g)
    name = None if variant is None else g.variant(variant).name
    data = state if isinstance(state, dict) else read_json_file(Path(state))
    try:
        result: dict[str, Any] = engine.score_state(
            data, engine.load_cards(_path(cards_file)), name
        )
    except registry.GameError:  # a ValueError already worded for the user: as it is
        raise
    except ValueError as exc:
        where = "state" if isinstance(state, dict) else str(state)
        raise UserError(f"{where}: {exc}") from None
    return result


def read_json_file(path: Path) -> Any:
    """Parse a JSON file (``score``'s STATE); I/O and syntax errors become one-line
    ``UserError``s."""
    import json

    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise UserError(f"{path}: is a directory, not a JSON file") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(
            f"{path}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from None
    except RecursionError:
        raise UserError(f"{path}: JSON nested too deeply") from None


def games() -> list[dict[str, Any]]:
    """The games, their variants, player counts, policies and policy parameters, as
    ``talesim games --json`` prints them."""
    from talesim.simcore.registry import GAMES, game_record

    return [game_record(g) for g in GAMES.values()]


def cards(
    game: str, *, variant: str | None = None, cards_file: PathArg | None = None
) -> list[dict[str, Any]]:
    """The card catalog of ``game`` (``talesim cards``): one dict per card (id, name,
    copies, effect, ... and the engine's own columns), as ``cards --json`` prints it.
    ``polars.DataFrame(talesim.cards("fairy-tale"))`` makes it a table."""
    from talesim.simcore import registry

    g = registry.get_game(game)
    v = g.variant(variant)
    engine = registry.engine(g)
    rows: list[dict[str, Any]] = engine.card_catalog(engine.load_cards(_path(cards_file)), v.name)
    return rows
