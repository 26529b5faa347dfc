"""``talesim tune``: the weights of a heuristic policy tuned by play, with Optuna.

The policy ``BASE`` decides from one float row (its weights; ``simcore.policy_file``). The
search looks for the row that maximises the win share of one seat playing it against
``P - 1`` seats of ``--against`` (default: ``BASE`` itself), seats rotated (each game
gives the candidate another seat), every candidate on the same seeds (paired):

* parameters: every weight of the row, a float in ``[0, max(2 x default, 1)]`` (the
  heuristics' weights are non-negative);
* objective: ``-ws`` of the candidate seat (``ws`` = mean ``win`` × players, 1.0 = an
  average seat), minimised by single-objective TPE (``simcore.study``); the first trial is
  the default row, so the search starts from the policy as it is;
* **adaptive sampling** (``sampling="adaptive"``, the default; ``study.rounds``): a
  candidate plays an eighth of the games, a quarter, a half, then all, each round
  extending the last, and stops at the first round where its interval (99.9%:
  ``study.EARLY_WIDEN``) lies wholly below the best win share a candidate reached on
  every game (racing against the incumbent); its objective is then the share of the
  games it played, and only a candidate that played every game can be the winner.
  ``"fixed"``: every game of every candidate. The history's ``games`` counts what each
  trial played;
* the winner is re-validated on fresh seeds (seed ``S + 1``): the tuned policy against
  ``--against``, and as a control the default weights (``BASE-default``) in the same seat
  against the same seats and deals, each with its 95% interval. Those are the figures the
  page and the output give.

Files: ``OUT/policies.toml`` (the tuned policy, ``BASE-tuned``, loadable with
``--policies-file``), ``OUT/history.csv``, ``OUT/study.db``, ``OUT/index.html``,
``OUT/runs/`` (the validation runs).
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from talesim.simcore import policy_file, registry, runner, study
from talesim.simcore.batch import RunError, StudySettings
from talesim.simcore.policy_file import NamedPolicy

STUDY_NAME = "tune"
TRIAL, TUNED, CONTROL = "trial", "validation-tuned", "validation-default"


@dataclass(frozen=True, kw_only=True)
class Request(StudySettings):
    """A tuning search: the policy whose weights are tuned, its opponents and the budget."""

    base: str
    against: str | None
    sampling: str = "adaptive"


@dataclass
class Outcome:
    request: Request
    tuned: NamedPolicy
    default: tuple[float, ...]
    weight_names: tuple[str, ...]
    trial: int
    search_ws: float
    validation: Any = None  # polars: policy, n, ws, ws_lo, ws_hi (tuned, default)
    history: list[dict[str, Any]] = field(default_factory=list)
    files: dict[str, Path] = field(default_factory=dict)
    findings: tuple[str, ...] = ()  # what the page opens with (the CLI prints them too)


def tuned_name(base: str) -> str:
    return f"{base}-tuned"


def default_row(game: registry.Game, base: str) -> tuple[float, ...]:
    """The built-in weights of ``base`` (``RunError`` for ``random`` or an unknown one)."""
    if base not in game.weighted_policies:
        heuristics = ", ".join(game.weighted_policies)
        raise RunError(f"--policy must be a heuristic with weights ({heuristics}), got '{base}'")
    engine = registry.engine(game)
    weights = engine.default_weights()
    return tuple(float(w) for w in weights[game.policies.index(base)])


def bounds(default: float) -> tuple[float, float]:
    return 0.0, max(2.0 * default, 1.0)


def _share(run_dir: Path, policy: str) -> dict[str, Any]:
    """The win share of the seats playing ``policy`` in a finished run."""
    import polars as pl

    from talesim.reports import metrics
    from talesim.reports.run import open_run

    run = open_run(run_dir)
    df = metrics.win_share_by(run.scan("seats"), "policy", run.players)
    row = df.filter(pl.col("policy").cast(pl.String) == policy).row(0, named=True)
    return {k: row[k] for k in ("n", "ws", "ws_lo", "ws_hi", "mean_score")}


def _record(req: Request, cards_sha: str) -> dict[str, Any]:
    return {
        "game": req.game,
        "variant": req.variant,
        "players": req.players,
        "base": req.base,
        "against": req.against or req.base,
        "games": req.n_games,
        "seed": req.seed,
        "card_sha256": cards_sha,
        "sampling": req.sampling,
    }


def run_tune(req: Request, echo: Callable[[str], None] = lambda _m: None) -> Outcome:
    """Run the search of ``req`` (module docstring) under ``req.out``; bad input is a
    ``RunError``/``GameError``/``CardDataError`` before anything is written."""
    game = registry.get_game(req.game)
    default, record = _check_request(req, game)
    out = Path(req.out)
    study.check_out(out, req.resume, record, "tune search")
    study.check_study(out, STUDY_NAME, req.storage, req.resume, record)
    study.write_request(out, record)

    keys = list(game.weight_names) or [f"w{i}" for i in range(len(default))]
    trials = _search(req, out, record, keys, default, echo)
    full = [t for t in trials if _games(t, req.n_games) == req.n_games] or trials
    best = min(full, key=lambda t: (t.values[0], t.number))
    row = tuple(float(best.params[k]) for k in keys)
    history = [
        {"trial": t.number, "ws": -t.values[0], "games": _games(t, req.n_games),
         **{k: float(t.params[k]) for k in keys}}
        for t in trials
    ]  # fmt: skip
    validation, note = _validate(req, out, row, default, len(trials), echo)
    name = tuned_name(req.base)
    policy = NamedPolicy(name, req.base, row, note)
    (out / "policies.toml").write_text(
        policy_file.dumps(
            req.game,
            [policy],
            f"{name}: {req.base} with tuned weights (talesim tune). Load it with\n"
            f"--policies-file {out / 'policies.toml'} --policy {name},...\n"
            f"default {req.base} weights: {list(default)}",
        )
    )
    outcome = Outcome(
        req, policy, default, tuple(keys), best.number, -best.values[0], validation, history
    )
    from talesim.reports.tune_page import write_tune_page

    page = write_tune_page(outcome, out)
    outcome.files = {"policies": out / "policies.toml", "page": page.index}
    outcome.findings = page.findings
    return outcome


def _seats(req: Request, first: str) -> list[str]:
    """The seats of every run: ``first`` (the policy measured) and ``--against`` after it."""
    return [first] + [req.against or req.base] * (req.players - 1)


def _check_request(req: Request, game: registry.Game) -> tuple[tuple[float, ...], dict[str, Any]]:
    """The default weights of ``req.base`` and the search's record (``request.json``),
    after checking the whole request (``RunError``/``GameError``/``CardDataError``;
    nothing is written)."""
    runner.check_int("games", req.n_games, 1)
    runner.check_int("budget", req.budget, 1)
    runner.check_seed(req.seed)
    study.check_sampling(req.sampling)
    if req.validation_games is not None:
        runner.check_int("validation games", req.validation_games, 1)
    default = default_row(game, req.base)
    if req.against is not None:  # alone first: the stand-in file's name is no policy of yours
        game.check_policies([req.against])
    name = tuned_name(req.base)
    # validate the whole request (a stand-in file defines the tuned policy)
    probe = NamedPolicy(name, req.base, default)
    _with_policies(req.game, Path(req.out), probe, lambda path: runner.setup(
        req.game, variant=req.variant, players=req.players, policies=_seats(req, name),
        cards_path=req.cards_path, rotate_seats=True, policies_file=path,
    ), scratch=True)  # fmt: skip
    cards_sha = (
        hashlib.sha256(Path(req.cards_path).read_bytes()).hexdigest() if req.cards_path else ""
    )
    return default, _record(req, cards_sha)


def _play(
    req: Request, out: Path, run: str, policy: NamedPolicy, seed: int, n: int, **how: Any
) -> dict:
    """The win share of ``policy`` in run ``OUT/runs/<run>``: ``n`` games with ``seed``,
    ``policy`` in the first seat against ``--against``, seats rotated. ``how``:
    ``resume``/``chunk_size`` for a candidate's rounds (``study.rounds``)."""
    target = out / "runs" / run
    seats = _seats(req, policy.name)
    resume = bool(how.pop("resume", False))
    options = replace(req.options.quiet(), **how)
    _with_policies(req.game, out, policy, lambda path: runner.simulate(
        req.game, variant=req.variant, players=req.players, policies=seats,
        seed=seed, n_games=n, out=target, cards_path=req.cards_path, rotate_seats=True,
        policies_file=path, overwrite=not resume, resume=resume, options=options,
    ))  # fmt: skip
    return _share(target, seats[0])


def _games(trial: Any, n_games: int) -> int:
    """The games trial ``trial`` played (all of them in a search without the record)."""
    return int(trial.user_attrs.get("games", n_games))


def _search(
    req: Request,
    out: Path,
    record: dict[str, Any],
    keys: list[str],
    default: tuple[float, ...],
    echo: Callable[[str], None],
) -> list[Any]:
    """Run the study's trials (module docstring), the default row first; the finished
    trials."""
    params = [study.Param(k, *bounds(d), kind="float") for k, d in zip(keys, default, strict=True)]
    optuna_study = study.open_study(out, STUDY_NAME, 1, req.seed, req.storage, req.resume, record)
    study.enqueue_once(optuna_study, [dict(zip(keys, default, strict=True))])
    name = tuned_name(req.base)
    adaptive = req.sampling == "adaptive"
    plan = study.rounds(req.n_games) if adaptive else [req.n_games]
    chunk = study.round_chunk(req.n_games) if adaptive else None
    done = study.finished_trials(optuna_study)
    incumbent = [max((-t.values[0] for t in done if _games(t, req.n_games) == req.n_games),
                     default=None)]  # fmt: skip

    def evaluate(p: Mapping[str, Any]) -> tuple[list[float], dict[str, Any]]:
        policy = NamedPolicy(name, req.base, tuple(float(p[k]) for k in keys))
        for k, games in enumerate(plan):
            share = _play(req, out, TRIAL, policy, req.seed, games, resume=k > 0,
                          chunk_size=chunk)  # fmt: skip
            best = incumbent[0]
            early_hi = study.widened(share["ws_lo"], share["ws"], share["ws_hi"])[1]
            if games < req.n_games and best is not None and early_hi < best:
                break  # clearly below the best candidate so far: stop here
        if games == req.n_games:
            incumbent[0] = max(share["ws"], incumbent[0] or share["ws"])
        attrs = {"ws": share["ws"], "ws_lo": share["ws_lo"], "ws_hi": share["ws_hi"]}
        return [-share["ws"]], {**attrs, "games": games}

    echo(f"tuning {req.base}: {len(keys)} weights, {req.n_games} games a trial")
    trials = study.run_trials(
        optuna_study, params, evaluate, req.budget, progress=req.options.progress,
        describe=lambda done: f"best win share {-min(t.values[0] for t in done):.3f}",
    )  # fmt: skip
    shutil.rmtree(out / "runs" / TRIAL, ignore_errors=True)
    return trials


def _validate(
    req: Request,
    out: Path,
    row: tuple[float, ...],
    default: tuple[float, ...],
    n_trials: int,
    echo: Callable[[str], None],
) -> tuple[Any, str]:
    """The tuned ``row`` and, as the control, the default weights (``BASE-default``, a
    policy of its own in the same seats) on fresh seeds: their win shares, and the note
    the policies file keeps. When the search kept the default weights, the two rows are
    one run's (the same weights in the same seats on the same seeds play the same games)."""
    import polars as pl

    name, default_name = tuned_name(req.base), f"{req.base}-default"
    n_val = req.validation_games or req.n_games
    kept = tuple(row) == tuple(default)
    echo(f"validation: {n_val} fresh games" + (" of the default weights" if kept else
                                               ", tuned and default"))  # fmt: skip
    tuned = _play(req, out, TUNED, NamedPolicy(name, req.base, row), req.seed + 1, n_val)
    control = tuned if kept else _play(
        req, out, CONTROL, NamedPolicy(default_name, req.base, default), req.seed + 1, n_val
    )  # fmt: skip
    validation = pl.DataFrame(
        [{"policy": name, **tuned}, {"policy": default_name, **control}],
    )
    note = (
        f"talesim tune: {n_trials} trials of {req.n_games} games against "
        f"{req.against or req.base}; validated win share {tuned['ws']:.3f} "
        f"({tuned['ws_lo']:.3f}-{tuned['ws_hi']:.3f}) on {n_val} fresh games (default "
        f"{req.base}: {control['ws']:.3f})"
    )
    return validation, note


def _with_policies(
    game: str, out: Path, policy: NamedPolicy, call: Callable[[Path], Any], scratch: bool = False
) -> Any:
    """``call(path)`` with ``path`` a policies file defining ``policy``: ``OUT/runs/
    policies.toml``, or one in a temporary directory when ``scratch`` (nothing may be
    written yet)."""
    import tempfile

    text = policy_file.dumps(game, [policy])
    if scratch:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "policies.toml"
            path.write_text(text)
            return call(path)
    path = out / "runs" / "policies.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return call(path)
