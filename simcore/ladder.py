"""``talesim ladder``: a strength ladder of players (ratings from a balanced tournament with
paired deals), card verdicts that say whether they hold as play gets stronger, and how much
the deal decides at each level.

Given K policy specs (weakest first, as the user believes) and P players:

1. **Tournament** (balanced: the listing order changes nothing). With ``P = qK + r``
   (``0 <= r < K``), the table *compositions* are every way of giving ``r`` of the K
   policies ``q + 1`` seats and the others ``q``: every P-subset of the policies when
   ``K >= P``, ``aabc, abbc, abcc`` for three policies at four seats, ``aabb`` for two.
   Each composition is played in **every distinct permutation of its seats** (so every
   policy sits in every seat, beside every other, equally often), each permutation a run
   with the ladder's seed: game ``g`` of every run is the same deal, the seats permuted
   (paired by seed). Policies are taken in sorted order, so the same set of policies
   listed in any order plays exactly the same games. ``tournament_games`` (default
   ``n_games``) is the total; each run plays ``tournament_games // runs`` deals (at least
   one). Runs: ``OUT/tournament/c<composition>-s<seating>/``.
2. **Ratings** (``reports.strength.ratings``): Bradley–Terry on every two seats of each
   game, Elo scale, 95% intervals from a bootstrap over the tournament's units (a deal,
   with every table it was played at: the design's own independent unit); the
   head-to-head matrix; the measured order, which may differ from the one given.
3. **Luck and skill** (``reports.luck``): per policy, the share of its outcome variance
   that the deal it gets (the deal and its seat) decides, with a bootstrap interval over
   the same units; and the whole tournament's outcome variance split into the deal, the
   players' skill and the rest.
4. **Levels**: a self-play run per policy (every seat that policy, seed ``S``), an ordinary
   run directory ``OUT/runs/<policy>/`` (``talesim report`` reads it), of its own size:
   ``level_games[policy]`` or ``n_games``; with ``until_ci`` each stops once every judged
   card's 95% half-width is at most that (its size then the maximum). An existing finished
   self-play run of the same game, variant, players, card data and engine configuration
   can be a level instead (``level_runs``): it is read, not replayed.
5. **Card verdicts across strength** (``reports.strength.verdicts``) over the levels in
   measured order from the first heuristic up; a level too small to tell a card is left
   out of its verdict and named (``not_checked``).

Every run is an ordinary, resumable run directory: ``--resume`` reuses the finished ones
and finishes the others; Ctrl-C stops after the chunk being written.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from talesim.simcore import runner, study
from talesim.simcore.batch import RunError, RunSettings, Setup

#: Default verdict band (win share when taken).
DEFAULT_BAND = (0.9, 1.1)


@dataclass(frozen=True, kw_only=True)
class Request(RunSettings):
    """A strength ladder: the policies in rising strength, games per level and the band.

    ``level_games``: a level's own game count by policy spec (as given or canonical);
    ``level_runs``: finished self-play runs taken as levels; ``until_ci``: a level stops
    once every judged card's 95% half-width is at most this."""

    policies: tuple[str, ...]
    n_games: int
    band: tuple[float, float] = DEFAULT_BAND
    tournament_games: int | None = None
    policies_file: Path | None = None
    level_games: Mapping[str, int] = field(default_factory=dict)
    level_runs: tuple[Path, ...] = ()
    until_ci: float | None = None


@dataclass(frozen=True)
class PlannedRun:
    """One run of the ladder: where it goes, who sits where, how many games, and whether
    it is a table of the tournament (or a level)."""

    label: str
    path: Path
    seats: tuple[str, ...]
    n_games: int
    table: bool = False


@dataclass
class Outcome:
    request: Request
    policies: tuple[str, ...]  # canonical specs, as given
    order: tuple[str, ...]  # measured, weakest first
    levels: tuple[str, ...]  # the verdict levels: measured order without random
    compositions: list[tuple[str, ...]]
    level_dirs: dict[str, Path] = field(default_factory=dict)  # policy -> its self-play run
    level_sizes: dict[str, int] = field(default_factory=dict)  # policy -> games it holds
    tournament_runs: int = 0
    deals: int = 0
    ratings: Any = None
    matrix: Any = None
    cards: Any = None  # card, policy, n, ws, ws_lo, ws_hi
    verdicts: Any = None
    correlations: Any = None
    luck: Any = None  # policy, rows, deal_share, deal_share_lo, deal_share_hi
    decomposition: Any = None  # part, share, share_lo, share_hi
    stats: Any = None  # card, stats: the card data beside each name
    files: dict[str, Path] = field(default_factory=dict)
    findings: tuple[str, ...] = ()  # what the page opens with (the CLI prints them too)


def compositions(policies: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The tournament's table compositions (module docstring), each sorted, in order."""
    ordered = sorted(policies)
    q, r = divmod(players, len(ordered))
    out = []
    for extra in itertools.combinations(range(len(ordered)), r):
        counts = [q + (i in extra) for i in range(len(ordered))]
        out.append(tuple(p for p, c in zip(ordered, counts, strict=True) for _ in range(c)))
    return out


def seatings(composition: Sequence[str]) -> list[tuple[str, ...]]:
    """Every distinct permutation of a composition over the seats, in sorted order."""
    return sorted(set(itertools.permutations(composition)))


def slug(spec: str) -> str:
    """A directory name for a policy spec: ``mc:rollouts=4`` -> ``mc_rollouts-4``."""
    return re.sub(r"[^a-z0-9_-]", "", spec.replace(":", "_").replace("=", "-"))


def parse_policies(text: str) -> tuple[tuple[str, ...], dict[str, int]]:
    """``--policies`` as given: comma-separated specs, each with an optional ``@N``, its
    level's own game count (``greedy,mc:rollouts=4@1000``). ``RunError`` for a bad count."""
    specs: list[str] = []
    games: dict[str, int] = {}
    for item in (p.strip() for p in text.split(",")):
        if not item:
            continue
        spec, at, count = item.partition("@")
        spec = spec.strip()
        specs.append(spec)
        if at:
            try:
                games[spec] = int(count.replace("_", ""))
            except ValueError:
                raise RunError(
                    f"a level's game count must be an integer: {item!r} (SPEC@GAMES)"
                ) from None
    return tuple(specs), games


def plan(
    req: Request, policies: Sequence[str], given: Mapping[str, Path]
) -> tuple[list[PlannedRun], list[PlannedRun]]:
    """(tournament runs, level runs still to play) of the ladder, in order. ``policies``
    and the keys of ``req.level_games`` are canonical specs; ``given``: the levels taken
    from existing runs (not played)."""
    out = Path(req.out)
    comps = compositions(policies, req.players)
    tables = [
        (c, k, seats) for c, comp in enumerate(comps) for k, seats in enumerate(seatings(comp))
    ]
    deals = max(1, (req.tournament_games or req.n_games) // len(tables))
    tournament = [
        PlannedRun(
            f"composition {c + 1}, seating {k + 1}",
            out / "tournament" / f"c{c:02d}-s{k:03d}",
            seats,
            deals,
            table=True,
        )
        for c, k, seats in tables
    ]
    levels = [
        PlannedRun(
            f"self-play {p}",
            out / "runs" / slug(p),
            (p,) * req.players,
            req.level_games.get(p, req.n_games),
        )
        for p in policies
        if p not in given
    ]
    return tournament, levels


def _record(req: Request, policies: Sequence[str], given: Mapping[str, Path]) -> dict[str, Any]:
    return {
        "game": req.game,
        "variant": req.variant,
        "players": req.players,
        "policies": list(policies),
        "games": req.n_games,
        "level_games": dict(req.level_games),
        "level_runs": {p: str(path) for p, path in given.items()},
        "until_ci": req.until_ci,
        "tournament_games": req.tournament_games,
        "seed": req.seed,
        "cards": str(req.cards_path) if req.cards_path else None,
        "policies_file": str(req.policies_file) if req.policies_file else None,
    }


def _setup(req: Request, seats: Sequence[str]) -> Setup:
    return runner.setup(
        req.game, variant=req.variant, players=req.players, policies=list(seats),
        cards_path=req.cards_path, policies_file=req.policies_file,
    )  # fmt: skip


def _level_run(req: Request, path: Path, policies: Sequence[str]) -> tuple[str, Path]:
    """(policy, path) of an existing run given as a level, after checking it is a finished
    self-play run of one of ``policies`` that this ladder's own level would equal (game,
    variant, players, card data, engine configuration); ``RunError`` naming what differs."""
    manifest = runner.read_manifest(path)
    where = f"--level-run {path}"
    if manifest.get("status") != "complete":
        raise RunError(f"{where} is not a finished run (finish it with talesim simulate --resume)")
    played = manifest.get("policies") or []
    if len(set(played)) != 1:
        raise RunError(f"{where} is not a self-play run: its seats play {', '.join(played)}")
    policy = played[0]
    if policy not in policies:
        raise RunError(f"{where} plays {policy}, which is not among --policies: add it there")
    own = _setup(req, [policy] * req.players)
    want = {
        "game": own.game.name,
        "variant": own.variant,
        "players": req.players,
        "card_sha256": str(own.cards.sha256),
        "config": json.loads(json.dumps(own.prepared.config())),
    }
    for key, value in want.items():
        if manifest.get(key) != value:
            shown = "differs" if key == "config" else f"is {manifest.get(key)!r}, not {value!r}"
            raise RunError(f"{where}: its {key} {shown} (the ladder's)")
    return policy, Path(path)


def _validate(req: Request) -> None:
    if len(req.policies) < 2:
        raise RunError("a ladder needs at least two policies (--policies P1,P2,...)")
    runner.check_int("games", req.n_games, 1)
    for spec, n in req.level_games.items():
        runner.check_int(f"games of level {spec}", n, 1)
    if req.tournament_games is not None:
        runner.check_int("tournament games", req.tournament_games, 1)
    runner.check_seed(req.seed)
    lo, hi = req.band
    if not 0 < lo < 1 < hi:
        raise RunError(f"band must be LO:HI with 0 < LO < 1 < HI, got {lo}:{hi}")
    if req.until_ci is not None and not req.until_ci > 0:
        raise RunError(f"--until-ci must be a half-width above 0, got {req.until_ci}")


def run_ladder(req: Request, echo: Callable[[str], None] = lambda _m: None) -> Outcome:
    """Run the ladder of ``req`` (module docstring) under ``req.out``; bad input is a
    ``RunError``/``GameError``/``CardDataError`` before anything is written."""
    _validate(req)
    probe = _setup(req, [req.policies[0]] * req.players)
    game = probe.game
    specs, weighted = runner.canonical_specs(game, req.policies, req.policies_file)
    named = [p.name for p in weighted]
    policies = tuple(specs)
    if len(set(policies)) != len(policies):
        raise RunError(f"the same policy is given twice: {', '.join(req.policies)}")
    canonical = dict(zip(req.policies, policies, strict=True))
    games = {canonical.get(p, p): n for p, n in req.level_games.items()}
    if unknown := sorted(set(games) - set(policies)):
        raise RunError(f"a game count is given for {', '.join(unknown)}, not among --policies")
    req = dataclasses.replace(req, level_games=games)  # keyed by canonical spec from here
    game.check_kernel(probe.variant)
    given: dict[str, Path] = {}
    for path in req.level_runs:
        policy, where = _level_run(req, Path(path), policies)
        if policy in given:
            raise RunError(f"two --level-run runs play {policy}: {given[policy]} and {where}")
        given[policy] = where
    tournament, to_play = plan(req, policies, given)
    # every table is a valid request (the seatings of one composition stand or fall together)
    for seats in dict.fromkeys(tuple(sorted(run.seats)) for run in [*tournament, *to_play]):
        _setup(req, seats)
    out = Path(req.out)
    record = _record(req, policies, given)
    study.check_out(out, req.resume, record, "ladder")
    study.write_request(out, record)

    runs = [*tournament, *to_play]
    with study.trial_progress(req.options.progress, len(runs), 0, label="runs") as update:
        for run in runs:
            if not runner.is_complete(run.path):
                echo(f"{run.label}: {run.n_games} games ({', '.join(run.seats)})")
                runner.simulate(
                    req.game, variant=req.variant, players=req.players,
                    policies=list(run.seats), seed=req.seed, n_games=run.n_games,
                    out=run.path, cards_path=req.cards_path, policies_file=req.policies_file,
                    until_ci=None if run.table else req.until_ci,
                    resume=(run.path / runner.MANIFEST).is_file(), options=req.options.quiet(),
                )  # fmt: skip
            update(run.label)
    level_dirs = {run.seats[0]: run.path for run in to_play} | given
    return _outcome(req, policies, named, tournament, level_dirs, card_stats(probe))


def tournament_seats(tournament: Sequence[PlannedRun]) -> Any:
    """One row per seat of every tournament game: ``unit`` (the deal: every composition and
    seating replays the same game ids with the same seed, so a deal with all the tables it
    was played at is the independent unit the bootstrap resamples), ``play`` (the game
    played), ``seat``, ``policy``, ``rank``, ``win``."""
    import polars as pl

    frames = []
    for i, run in enumerate(tournament):
        scan = pl.scan_parquet(run.path / "seats" / runner.PART_GLOB).select(
            "game_id", "seat", pl.col("policy").cast(pl.String), "rank", "win"
        )
        frames.append(
            scan.with_columns(
                unit=pl.col("game_id").cast(pl.Int64),
                play=pl.lit(i * run.n_games, pl.Int64) + pl.col("game_id").cast(pl.Int64),
            ).collect()
        )
    return pl.concat(frames).select(
        "unit", "play", pl.col("seat").cast(pl.Int64), "policy", "rank",
        pl.col("win").cast(pl.Float64),
    )  # fmt: skip


def card_stats(s: Setup) -> Any:
    """``card, stats``: each card's cost, strength and points as the ladder's card data
    gives them (``talesim cards``), shown beside its name."""
    import polars as pl

    rows = s.engine.card_catalog(s.cards, s.variant)
    labels = (("cost", "cost"), ("strength", "str"), ("value", "pts"), ("produces", "makes"))
    out = []
    for row in rows:
        parts = [f"{short} {row[k]}" for k, short in labels if str(row.get(k) or "").strip()]
        out.append({"card": str(row["id"]), "stats": "; ".join(parts)})
    return pl.DataFrame(out, schema={"card": pl.String, "stats": pl.String}).unique(
        "card", keep="first", maintain_order=True
    )


def _outcome(
    req: Request,
    policies: tuple[str, ...],
    named: Sequence[str],
    tournament: Sequence[PlannedRun],
    level_dirs: dict[str, Path],
    stats: Any,
) -> Outcome:
    """Ratings, luck, levels and verdicts from the finished runs; writes the page."""
    import polars as pl

    from talesim.reports import luck, metrics, strength
    from talesim.reports.run import open_run
    from talesim.simcore import registry

    game = registry.get_game(req.game)
    seats = tournament_seats(tournament)
    ratings = strength.ratings(seats, sorted(policies), seed=req.seed)  # any order: same fit
    pairs = metrics.pairwise_results(
        seats.select(game_id="play", seat="seat", policy="policy", rank="rank").lazy()
    )
    matrix = metrics.matchup_matrix(pairs.filter(pl.col("policy") != pl.col("opponent")))
    order = tuple(reversed(ratings["policy"].to_list()))  # weakest first
    levels = tuple(p for p in order if game.parse_policy(p, named).name != "random")
    cards = strength.shares_by_policy([(p, level_dirs[p]) for p in policies])
    outcome = Outcome(
        req,
        policies,
        order,
        levels,
        compositions(policies, req.players),
        level_dirs=dict(level_dirs),
        level_sizes={p: open_run(d).n_games for p, d in level_dirs.items()},
        tournament_runs=len(tournament),
        deals=tournament[0].n_games,
        ratings=ratings,
        matrix=matrix,
        cards=cards,
        verdicts=strength.verdicts(cards, levels, req.band),
        correlations=strength.rank_correlations(cards, levels),
        luck=luck.deal_shares(seats, order[::-1], req.players, seed=req.seed),
        decomposition=luck.decomposition(seats, req.players, seed=req.seed),
        stats=stats,
    )
    out = Path(req.out)
    # ratings.csv, luck.csv and cards-by-level.csv (wide) are the page's tables
    # (reports/ladder_page.py); these two are for scripts
    outcome.verdicts.select("card", "verdict", "flips", "not_checked").write_csv(
        out / "card-verdicts.csv"
    )
    cards.write_csv(out / "cards-by-policy.csv")
    from talesim.reports.ladder_page import write_ladder_page

    page = write_ladder_page(outcome, out)
    outcome.files, outcome.findings = {"page": page.index}, page.findings
    return outcome
