"""``talesim ladder``: a strength ladder of players (ratings from a tournament with paired
deals) and card verdicts that say whether they hold as play gets stronger.

Given K policy specs (weakest first, as the user believes) and P players:

1. **Tournament.** The tables are every choice of P of the K policies (K >= P), or the K
   policies cycled over the P seats (K < P). Each table's deals are replayed in all P
   rotations of its seats: run ``r`` of a table seats policy ``(s + r) mod P`` of it at seat
   ``s``, every run with the same seed, so game ``g`` of every run is the same deal with
   the seats permuted (paired by seed). ``games`` is the tournament's total; each run
   plays ``games // (tables x P)`` deals (at least one). Runs: ``OUT/tournament/``.
2. **Ratings** (``reports.strength.ratings``): Bradley–Terry on every two seats of each
   game, Elo scale, 95% bootstrap intervals over deals; the head-to-head matrix; the
   measured order, which may differ from the one given.
3. **Self-play** per policy: every seat that policy, seed ``S``, ``games`` games, an
   ordinary run directory ``OUT/runs/<policy>/`` (``talesim report`` reads it).
4. **Card verdicts across strength** (``reports.strength.verdicts``) over the policies in
   measured order from the first heuristic up.

Every run is an ordinary, resumable run directory: ``--resume`` reuses the finished ones
and finishes the others; Ctrl-C stops after the chunk being written.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simcore import runner, search
from simcore.batch import RunError, RunSettings

#: Default verdict band (win share when taken).
DEFAULT_BAND = (0.9, 1.1)


@dataclass(frozen=True, kw_only=True)
class Request(RunSettings):
    """A strength ladder: the policies in rising strength, games per rung and the band."""

    policies: tuple[str, ...]
    n_games: int
    band: tuple[float, float] = DEFAULT_BAND
    tournament_games: int | None = None
    policies_file: Path | None = None


@dataclass
class Outcome:
    request: Request
    policies: tuple[str, ...]  # canonical specs, as given
    order: tuple[str, ...]  # measured, weakest first
    levels: tuple[str, ...]  # the verdict levels: measured order without random
    tables: list[tuple[str, ...]]
    ratings: Any = None
    matrix: Any = None
    cards: Any = None  # card, policy, n, ws, ws_lo, ws_hi
    verdicts: Any = None
    correlations: Any = None
    files: dict[str, Path] = field(default_factory=dict)


def tables_of(policies: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The tournament's tables (module docstring)."""
    if len(policies) >= players:
        return [tuple(c) for c in itertools.combinations(policies, players)]
    return [tuple(policies[i % len(policies)] for i in range(players))]


def slug(spec: str) -> str:
    """A directory name for a policy spec: ``mc:rollouts=4`` -> ``mc_rollouts-4``."""
    return re.sub(r"[^a-z0-9_-]", "", spec.replace(":", "_").replace("=", "-"))


def _runs(req: Request, policies: Sequence[str]) -> list[tuple[str, Path, list[str], int]]:
    """(label, directory, seat policies, games) of every run of the ladder, in order."""
    out = Path(req.out)
    tables = tables_of(policies, req.players)
    total = req.tournament_games or req.n_games
    deals = max(1, total // (len(tables) * req.players))
    runs = []
    for t, table in enumerate(tables):
        for r in range(req.players):
            seats = [table[(s + r) % req.players] for s in range(req.players)]
            runs.append(
                (
                    f"table {t + 1}, rotation {r + 1}",
                    out / "tournament" / f"t{t:02d}-r{r}",
                    seats,
                    deals,
                )
            )
    for p in policies:
        runs.append((f"self-play {p}", out / "runs" / slug(p), [p] * req.players, req.n_games))
    return runs


def _record(req: Request, policies: Sequence[str]) -> dict[str, Any]:
    return {
        "game": req.game,
        "variant": req.variant,
        "players": req.players,
        "policies": list(policies),
        "games": req.n_games,
        "tournament_games": req.tournament_games,
        "seed": req.seed,
        "cards": str(req.cards_path) if req.cards_path else None,
        "policies_file": str(req.policies_file) if req.policies_file else None,
    }


def run_ladder(req: Request, echo: Callable[[str], None] = lambda _m: None) -> Outcome:
    """Run the ladder of ``req`` (module docstring) under ``req.out``; bad input is a
    ``RunError``/``GameError``/``CardDataError`` before anything is written."""
    import polars as pl

    from reports import metrics, strength

    if len(req.policies) < 2:
        raise RunError("a ladder needs at least two policies (--policies P1,P2,...)")
    runner.check_int("games", req.n_games, 1)
    if req.tournament_games is not None:
        runner.check_int("tournament games", req.tournament_games, 1)
    runner.check_seed(req.seed)
    lo, hi = req.band
    if not 0 < lo < 1 < hi:
        raise RunError(f"band must be LO:HI with 0 < LO < 1 < HI, got {lo}:{hi}")
    probe = runner.setup(
        req.game, variant=req.variant, players=req.players,
        policies=[req.policies[0]] * req.players,
        cards_path=req.cards_path, policies_file=req.policies_file,
    )  # fmt: skip
    game = probe.game
    specs, weighted = runner.canonical_specs(game, req.policies, req.policies_file)
    named = [p.name for p in weighted]
    policies = tuple(specs)
    if len(set(policies)) != len(policies):
        raise RunError(f"the same policy is given twice: {', '.join(req.policies)}")
    game.check_kernel(probe.variant)
    runs = _runs(req, policies)
    for _, _, seats, _ in runs:  # every table is a valid request
        runner.setup(
            req.game, variant=req.variant, players=req.players, policies=seats,
            cards_path=req.cards_path, policies_file=req.policies_file,
        )  # fmt: skip
    out = Path(req.out)
    record = _record(req, policies)
    search.check_out(out, req.resume, record, "ladder")
    search.write_request(out, record)

    with search.trial_progress(req.progress, len(runs), 0, label="runs") as update:
        for label, target, seats, n in runs:
            done = (target / runner.MANIFEST).is_file() and (
                runner.read_manifest(target).get("status") == "complete"
            )
            if not done:
                echo(f"{label}: {n} games ({', '.join(seats)})")
                runner.simulate(
                    req.game, variant=req.variant, players=req.players, policies=seats,
                    seed=req.seed, n_games=n, out=target, cards_path=req.cards_path,
                    chunk_size=req.chunk_size, threads=req.threads,
                    resume=(target / runner.MANIFEST).is_file(), progress=False,
                    backend=req.backend, scheduler=req.scheduler,
                    policies_file=req.policies_file,
                )  # fmt: skip
            update(label)

    # ratings over the tournament: the bootstrap unit is the deal (table, game id) with all
    # its rotations; pairs are compared within each game played (run, game id)
    frames = []
    n_tables = len(tables_of(policies, req.players))
    deals = runs[0][3]
    for i, (_, target, _, _) in enumerate(runs[: n_tables * req.players]):
        scan = pl.scan_parquet(target / "seats" / "part-*.parquet").select(
            "game_id", "seat", pl.col("policy").cast(pl.String), "rank"
        )
        frames.append(
            scan.with_columns(
                game=pl.lit(i // req.players * deals) + pl.col("game_id"),
                play=pl.lit(i * deals) + pl.col("game_id"),
            ).collect()
        )
    tournament = pl.concat(frames)
    ratings = strength.ratings(tournament, policies, seed=req.seed)
    pairs = metrics.pairwise_results(
        tournament.select(game_id="play", seat="seat", policy="policy", rank="rank").lazy()
    )
    matrix = metrics.matchup_matrix(pairs.filter(pl.col("policy") != pl.col("opponent")))
    order = tuple(reversed(ratings["policy"].to_list()))  # weakest first
    levels = tuple(p for p in order if game.parse_policy(p, named).name != "random")
    rows = []
    for p in policies:
        shares = strength.card_shares(out / "runs" / slug(p))
        rows.append(
            shares.select(
                pl.col("entity").alias("card"),
                pl.lit(p).alias("policy"),
                "n",
                "ws",
                "ws_lo",
                "ws_hi",
            )
        )
    cards = pl.concat(rows)
    outcome = Outcome(
        req,
        policies,
        order,
        levels,
        tables_of(policies, req.players),
        ratings,
        matrix,
        cards,
        strength.verdicts(cards, levels, req.band),
        strength.rank_correlations(cards, levels),
    )
    # ratings.csv and cards-by-policy.csv are the page's tables (reports/ladder_page.py)
    outcome.verdicts.select("card", "verdict", "flips").write_csv(out / "card-verdicts.csv")
    from reports.ladder_page import write_ladder_page

    outcome.files = {"page": write_ladder_page(outcome, out)}
    return outcome
