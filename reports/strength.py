"""Strength across players: ratings with intervals, and card verdicts that say whether they
hold as play gets stronger (``talesim ladder``, and ``talesim report`` of several runs that
differ only in policy).

* **Ratings**: Bradley–Terry on the pairwise results of the tournament's seats (every two
  seats of a game, one ahead of the other by rank, ties half), on the Elo scale (0 = the
  average policy), with 95% intervals from a bootstrap over the tournament's units
  (``BOOTSTRAP`` resamples: whole units, e.g. a deal with every table it was played at,
  drawn with replacement, the model refitted on each).
* **Card levels**: per card and policy, the win share when taken in that policy's self-play
  run (every seat that policy) with its Wilson interval. At one level a card is *strong*
  (interval wholly above the band), *weak* (wholly below), *even* (wholly inside),
  *not checked* (the level cannot tell: the card was taken fewer than ``MIN_TAKEN`` times,
  or its interval straddles an edge and is wider than the band itself, so no number of
  games like these could place it) or *unclear* (a narrower interval straddling an edge:
  the card sits near the edge, more games would tell).
* **Verdicts** over the levels from the first heuristic up (``random`` is not a level: how
  a card does under random play says little about the card), from the levels that checked
  the card (a level too small to tell is left out and named in ``not_checked``, so one
  small, expensive level does not turn every verdict unclear): ``strong`` / ``weak`` /
  ``even`` when the card is that at every checked level; ``policy-dependent`` when two
  checked levels give different definite statuses (strong, weak, even), with the levels
  where it flips named; ``unclear`` otherwise (one definite status and some unclear
  levels, or no level checked it: more games would tell). A verdict stated only at the
  strongest level is no verdict when the others checked the card: every checked level
  counts.
* **Rank correlation** (Spearman) of the cards' win shares between adjacent levels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from talesim.reports import metrics
from talesim.reports.metrics import bt_fit
from talesim.reports.run import open_run
from talesim.simcore.until_ci import MIN_TAKEN  # a card taken fewer times is not judged

#: Bootstrap resamples of the rating intervals.
BOOTSTRAP = 200
DEFINITE = ("strong", "weak", "even")
NOT_CHECKED = "not checked"
#: What "checked" means, as the pages say it (``level_status``).
CHECKED_RULE = (
    f"A level checks a card when it took it at least {MIN_TAKEN} times and its interval "
    "does not straddle an edge of the band while being wider than the band itself "
    "(not_checked names the levels that could not tell)."
)


def card_shares(run_dir: Path, by_policy: bool = False) -> pl.DataFrame:
    """Every entity's win share when taken in a finished run: ``entity, kind, n, ws,
    ws_lo, ws_hi`` (kind: ``card``, or ``legend`` for a DRAKO Legend claimed).

    With ``by_policy``, one row per entity and policy (a ``policy`` column after ``kind``):
    the copies the seats of that policy took, their share *relative to the policy's own*
    win share over all its seats. In self-play that share is exactly 1 and nothing changes;
    in a mixed table a card is so judged against the other cards of the same player, never
    against the gap between players of different strength. There the policy's share is an
    estimate too, and its error scales every card of the policy alike: the interval is the
    ratio's, the two relative errors added in quadrature on the log scale
    (``relative_share``). A policy whose seats won fewer than ``MIN_TAKEN`` games
    (``random`` beside stronger players: a handful of wins in thousands of seats) judges no
    card (null interval): dividing by its share made a few lucky games look like verdicts."""
    run = open_run(run_dir)
    seats = run.scan("seats")
    if not by_policy:
        return _entity_shares(run, seats)
    policy = pl.col("policy").cast(pl.String)
    own = metrics.win_share_by(seats.with_columns(policy), "policy", run.players)
    frames = []
    for p, n, *share in own.select("policy", "n", "ws", "ws_lo", "ws_hi").iter_rows():
        if own.height == 1:
            share = [1.0, 1.0, 1.0]  # self-play: the policy's share is 1 by construction
        shares = _entity_shares(run, seats.filter(policy == p))
        ws, lo, hi = relative_share(
            shares["ws"].to_numpy(), shares["ws_lo"].to_numpy(), shares["ws_hi"].to_numpy(),
            *share,
        )  # fmt: skip
        if own.height > 1 and policy_wins(n, share[0], run.players) < MIN_TAKEN:
            lo, hi = np.full_like(lo, np.nan), np.full_like(hi, np.nan)
        frames.append(
            shares.select("entity", "kind", pl.lit(p).alias("policy"), "n").with_columns(
                ws=pl.Series(ws, nan_to_null=True),
                ws_lo=pl.Series(lo, nan_to_null=True),
                ws_hi=pl.Series(hi, nan_to_null=True),
            )
        )
    return pl.concat(frames)


def policy_wins(seats: int, ws: float, players: int) -> float:
    """The games a policy's ``seats`` won, from its win share ``ws`` (ties count 1/k)."""
    return seats * ws / players


def relative_share(
    ws: np.ndarray, ws_lo: np.ndarray, ws_hi: np.ndarray, own: float, own_lo: float,
    own_hi: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """``ws / own`` and its 95% interval from the two intervals, as if independent: the
    log-scale half-widths added in quadrature (``ws_lo``'s with ``own_hi``'s, ``ws_hi``'s
    with ``own_lo``'s). An exact ``own`` (``own_lo == own_hi``) leaves the card's interval
    scaled; a low end of 0 gives 0, a high end over an ``own_lo`` of 0 is unbounded (NaN:
    not judged), and an ``own`` of 0 (a policy that never won) gives NaN throughout."""
    ws, lo, hi = (np.asarray(a, dtype=np.float64) for a in (ws, ws_lo, ws_hi))
    if not own > 0:  # the policy never won: nothing to be relative to
        return tuple(np.full_like(ws, np.nan) for _ in range(3))  # type: ignore[return-value]
    if own_lo == own_hi == own:
        return ws / own, lo / own, hi / own
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = ws / own
        down = np.hypot(np.log(ws / lo), np.log(own_hi / own))
        up = np.hypot(np.log(hi / ws), np.log(own / own_lo) if own_lo > 0 else np.inf)
        rel_lo = np.where(ws > 0, rel * np.exp(-down), 0.0)
        rel_hi = np.where(ws > 0, rel * np.exp(up), hi / own_lo if own_lo > 0 else np.nan)
    rel_hi = np.where(np.isfinite(rel_hi), rel_hi, np.nan)
    return rel, np.where(np.isnan(rel), np.nan, rel_lo), rel_hi


def _entity_shares(run: Any, seats: pl.LazyFrame) -> pl.DataFrame:
    """``card_shares`` over the seats ``seats`` of ``run``."""
    cards = metrics.card_table(run.scan("cards"), seats, run.players)
    out = [
        cards.select(
            pl.col("card").alias("entity"),
            pl.lit("card").alias("kind"),
            pl.col("n").cast(pl.Int64),
            "ws",
            "ws_lo",
            "ws_hi",
        )
    ]
    if run.has("legends"):
        legends = metrics.legend_table(run.scan("legends"), seats, run.players, run.n_games)
        out.append(
            legends.select(
                pl.col("legend").alias("entity"),
                pl.lit("legend").alias("kind"),
                pl.col("claims").cast(pl.Int64).alias("n"),
                "ws",
                "ws_lo",
                "ws_hi",
            )
        )
    return pl.concat(out)


def shares_by_policy(runs: Sequence[tuple[str, Path]]) -> pl.DataFrame:
    """``card, policy, n, ws, ws_lo, ws_hi``: the ``card_shares`` of each ``(policy, run
    directory)`` pair, one strength level a run."""
    shares = ("n", "ws", "ws_lo", "ws_hi")  # the times taken, the share and its interval
    frames = []
    for policy, path in runs:
        taken = card_shares(path).rename({"entity": "card"})
        frames.append(taken.select("card", pl.lit(policy).alias("policy"), *shares))
    return pl.concat(frames)


def _strengths(tot: np.ndarray, wins: np.ndarray) -> np.ndarray:
    """``metrics.bt_fit`` with every policy's wins floored at a millionth of a comparison:
    a policy that won nothing (in the data or in a resample) gets a tiny strength instead
    of 0, so its rating is a finite lower bound."""
    return bt_fit(tot, np.maximum(wins, 1e-6))


def _pair_matrices(seats: pl.DataFrame, names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Per resampling unit (``unit``: 0..), the pairwise counts of its games (``play``: the
    game played; seats are compared within one): ``tot[u, i, j]`` comparisons of policy i
    with j and ``won[u, i]`` comparisons i won."""
    idx = {p: i for i, p in enumerate(names)}
    s = seats.select("unit", "play", pl.col("policy").cast(pl.String), "rank", "seat")
    pairs = s.join(s.drop("unit"), on="play", suffix="_b").filter(
        (pl.col("seat") != pl.col("seat_b")) & (pl.col("policy") != pl.col("policy_b"))
    )
    units = int(seats["unit"].cast(pl.Int64).max() or 0) + 1 if seats.height else 0  # type: ignore[arg-type]
    k = len(names)
    tot = np.zeros((units, k, k))
    won = np.zeros((units, k))
    g = pairs["unit"].to_numpy()
    i = np.array([idx[p] for p in pairs["policy"].to_list()], dtype=np.int64)
    j = np.array([idx[p] for p in pairs["policy_b"].to_list()], dtype=np.int64)
    r, rb = pairs["rank"].to_numpy(), pairs["rank_b"].to_numpy()
    ahead = np.where(r < rb, 1.0, np.where(r == rb, 0.5, 0.0))
    np.add.at(tot, (g, i, j), 1.0)
    np.add.at(won, (g, i), ahead)
    return tot, won


def ratings(seats: pl.DataFrame, names: Sequence[str], seed: int = 0) -> pl.DataFrame:
    """``policy, rating, rating_lo, rating_hi`` (Elo scale, 0 = average; 95% bootstrap
    interval), best first. ``seats`` has one row per seat of each game played: ``play``
    (the game), ``unit`` (its resampling unit, 0..: e.g. a deal, whose tables are resampled
    together), ``seat``, ``policy``, ``rank``."""
    tot, won = _pair_matrices(seats, names)
    n = tot.shape[0]
    point = 400 * np.log10(_strengths(tot.sum(0), won.sum(0)))
    rng = np.random.default_rng(seed)
    boots = np.empty((BOOTSTRAP, len(names)))
    for b in range(BOOTSTRAP):
        counts = np.bincount(rng.integers(0, n, n), minlength=n).astype(np.float64)
        t = np.tensordot(counts, tot, axes=1)
        w = counts @ won
        boots[b] = 400 * np.log10(_strengths(t, w))
    lo, hi = np.percentile(boots, [2.5, 97.5], axis=0)
    played = tot.sum(axis=(0, 2)) > 0
    df = pl.DataFrame(
        {
            "policy": list(names),
            "rating": np.where(played, point, np.nan),
            "rating_lo": np.where(played, lo, np.nan),
            "rating_hi": np.where(played, hi, np.nan),
        }
    )
    return df.sort("rating", descending=True, nulls_last=True)


def run_ratings(seats: pl.LazyFrame | pl.DataFrame, blocks: int = 200) -> pl.DataFrame:
    """``ratings`` of the policies of one run (``game_id, seat, policy, rank`` rows): its
    games are independent deals, so the bootstrap resamples them in ``blocks`` blocks of
    consecutive games (at most one game a block), which keeps it fast at a million games."""
    frame = seats.lazy().select("game_id", "seat", "policy", "rank").collect()
    names = sorted(frame["policy"].cast(pl.String).unique().to_list())
    n_games = int(frame["game_id"].max() or 0) + 1 if frame.height else 0  # type: ignore[arg-type]
    per = max(1, -(-n_games // blocks))  # games per block, rounded up
    frame = frame.with_columns(
        play=pl.col("game_id"), unit=(pl.col("game_id") // per).cast(pl.Int64)
    )
    return ratings(frame.with_columns(pl.col("policy").cast(pl.String)), names)


def level_status(
    ws_lo: float | None, ws_hi: float | None, band: tuple[float, float], n: int | None = None
) -> str:
    """A card's status at one level from its interval and the copies taken ``n`` (None:
    not known, not checked against ``MIN_TAKEN``), as in the module docstring."""
    if ws_lo is None or ws_hi is None or math.isnan(ws_lo) or math.isnan(ws_hi):
        return NOT_CHECKED
    if n is not None and n < MIN_TAKEN:
        return NOT_CHECKED
    lo, hi = band
    if ws_lo > hi:
        return "strong"
    if ws_hi < lo:
        return "weak"
    if ws_lo >= lo and ws_hi <= hi:
        return "even"
    if ws_hi - ws_lo > hi - lo:
        return NOT_CHECKED
    return "unclear"


def verdicts(cards: pl.DataFrame, levels: Sequence[str], band: tuple[float, float]) -> pl.DataFrame:
    """``card, verdict, flips, not_checked, statuses`` from ``cards`` (``card, policy, ws_lo,
    ws_hi`` and, if present, ``n`` rows; the ``levels`` in strength order, weakest first).
    ``flips``: where a definite status changes to another, as ``"even->strong at
    mc:rollouts=32"`` (several joined by ``"; "``); ``not_checked``: the levels that could
    not tell (joined by ``", "``); ``statuses``: the status at each level."""
    by = {(r["card"], r["policy"]): r for r in cards.iter_rows(named=True)}
    rows = []
    for card in sorted({r["card"] for r in cards.iter_rows(named=True)}):
        status = []
        for lv in levels:
            row = by.get((card, lv), {})
            status.append(level_status(row.get("ws_lo"), row.get("ws_hi"), band, row.get("n")))
        checked = [(lv, st) for lv, st in zip(levels, status, strict=True) if st != NOT_CHECKED]
        definite = [(lv, st) for lv, st in checked if st in DEFINITE]
        flips = [f"{a[1]}->{b[1]} at {b[0]}" for a, b in pairwise(definite) if a[1] != b[1]]
        kinds = {st for _, st in checked}
        if len(kinds) == 1 and kinds <= set(DEFINITE):
            verdict = kinds.pop()
        elif flips:
            verdict = "policy-dependent"
        else:
            verdict = "unclear"
        rows.append(
            {
                "card": card,
                "verdict": verdict,
                "flips": "; ".join(flips),
                "not_checked": ", ".join(
                    lv for lv, st in zip(levels, status, strict=True) if st == NOT_CHECKED
                ),
                "statuses": ", ".join(f"{lv}: {st}" for lv, st in zip(levels, status, strict=True)),
            }
        )
    return pl.DataFrame(
        rows,
        schema={
            "card": pl.String,
            "verdict": pl.String,
            "flips": pl.String,
            "not_checked": pl.String,
            "statuses": pl.String,
        },
    )


def rank_correlations(cards: pl.DataFrame, levels: Sequence[str]) -> pl.DataFrame:
    """Spearman correlation of the cards' ``ws`` between each two adjacent ``levels``
    (cards present at both): ``from, to, cards, spearman``."""
    rows = []
    for a, b in pairwise(levels):
        joined = (
            cards.filter(pl.col("policy") == a)
            .select("card", pl.col("ws").alias("a"))
            .join(
                cards.filter(pl.col("policy") == b).select("card", pl.col("ws").alias("b")),
                on="card",
            )
            .drop_nulls()
        )
        rho = None
        if joined.height >= 3:
            ra = joined["a"].rank("average").to_numpy()
            rb = joined["b"].rank("average").to_numpy()
            if ra.std() > 0 and rb.std() > 0:
                rho = float(np.corrcoef(ra, rb)[0, 1])
        rows.append({"from": a, "to": b, "cards": joined.height, "spearman": rho})
    return pl.DataFrame(
        rows, schema={"from": pl.String, "to": pl.String, "cards": pl.Int64, "spearman": pl.Float64}
    )
