"""Balance metrics: small functions on polars frames, each with its formula here.

Conventions used by every function:

* **Win share** of a group of seats = ``mean(win) × players``: 1.0 is an average seat,
  2.0 wins twice its share. ``win`` is 1 for a sole winner and 1/k for each of k tied
  winners, so shares always sum to ``players`` per game.
* **95% intervals** on a win share are Wilson score intervals on the win rate
  ``p = mean(win)`` with ``n`` observations, then scaled by ``players``. A shared win
  1/k is treated as a fractional success (its variance is slightly overstated: the
  interval is conservative).
* **Differences** of two win shares use Newcombe's hybrid score interval (method 10 of
  Newcombe 1998), built from the two Wilson intervals.
* Observations are **copies**: a seat that drafted two copies of a card counts twice.

Everything takes ``LazyFrame``s of the run's tables and returns small eager frames; the
heavy aggregations run in polars' streaming engine, so a 1,000,000-game run never has to
sit in memory whole.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def _collect(lf: pl.LazyFrame) -> pl.DataFrame:
    return lf.collect(engine="streaming")


# --- intervals -----------------------------------------------------------------------------


def wilson(p: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``p`` observed on ``n`` trials::

        centre = (p + z²/2n) / (1 + z²/n)
        half   = z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n)

    Returns (nan, nan) when ``n`` is 0."""
    if n <= 0:
        return math.nan, math.nan
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def wilson_exprs(p: str, n: str, scale: float = 1.0, z: float = Z95) -> tuple[pl.Expr, pl.Expr]:
    """``wilson`` as two polars expressions on columns ``p`` and ``n``, times ``scale``
    (null where ``n`` is 0)."""
    pc, nc = pl.col(p), pl.col(n).cast(pl.Float64)
    d = 1 + z * z / nc
    centre = (pc + z * z / (2 * nc)) / d
    half = z * ((pc * (1 - pc)).clip(lower_bound=0) / nc + z * z / (4 * nc * nc)).sqrt() / d
    ok = pl.col(n) > 0
    lo = pl.when(ok).then((centre - half) * scale).otherwise(None)
    hi = pl.when(ok).then((centre + half) * scale).otherwise(None)
    return lo, hi


def newcombe(
    p1: float, n1: float, p2: float, n2: float, z: float = Z95
) -> tuple[float, float, float]:
    """Difference ``p1 - p2`` of two independent proportions with Newcombe's interval::

        lo = d - sqrt((p1 - l1)² + (u2 - p2)²)
        hi = d + sqrt((u1 - p1)² + (p2 - l2)²)

    where (l, u) are the Wilson intervals of each proportion."""
    l1, u1 = wilson(p1, n1, z)
    l2, u2 = wilson(p2, n2, z)
    d = p1 - p2
    return d, d - math.hypot(p1 - l1, u2 - p2), d + math.hypot(u1 - p1, p2 - l2)


def difference(
    a: tuple[float, float, float], b: tuple[float, float, float]
) -> tuple[float, float, float]:
    """``a - b`` of two independent shares given as ``(value, lo, hi)`` with their own
    (scaled) Wilson intervals, and Newcombe's interval (``newcombe``) built from those
    intervals alone, so a page can compute it from its own table."""
    d = a[0] - b[0]
    return d, d - math.hypot(a[0] - a[1], b[2] - b[0]), d + math.hypot(a[2] - a[0], b[0] - b[1])


def _newcombe_exprs(
    p1: str, lo1: str, hi1: str, p2: str, lo2: str, hi2: str
) -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    """``newcombe`` on columns that already hold both (scaled) Wilson intervals."""
    a, b = pl.col(p1), pl.col(p2)
    d = a - b
    lo = d - ((a - pl.col(lo1)) ** 2 + (pl.col(hi2) - b) ** 2).sqrt()
    hi = d + ((pl.col(hi1) - a) ** 2 + (b - pl.col(lo2)) ** 2).sqrt()
    return d, lo, hi


def with_win_share(df: pl.DataFrame, wins: str, n: str, players: int, out: str) -> pl.DataFrame:
    """Add ``out`` = wins/n × players and its Wilson bounds ``out_lo`` / ``out_hi``."""
    df = df.with_columns(
        (pl.when(pl.col(n) > 0).then(pl.col(wins) / pl.col(n)).otherwise(None)).alias("_p")
    )
    lo, hi = wilson_exprs("_p", n, players)
    return df.with_columns(
        (pl.col("_p") * players).alias(out), lo.alias(f"{out}_lo"), hi.alias(f"{out}_hi")
    ).drop("_p")


# --- seats and policies ----------------------------------------------------------------------


def win_share_by(seats: pl.LazyFrame, key: str, players: int) -> pl.DataFrame:
    """Per value of ``key`` (e.g. ``seat`` or ``policy``): seats ``n``, ``mean_score``
    and win share ``ws`` = mean(win) × players with its interval ``ws_lo``/``ws_hi``."""
    df = _collect(
        seats.group_by(key).agg(
            n=pl.len(), wins=pl.col("win").sum(), mean_score=pl.col("score").mean()
        )
    )
    df = with_win_share(df, "wins", "n", players, "ws")
    return df.select(key, "n", "ws", "ws_lo", "ws_hi", "mean_score").sort(
        pl.col(key).cast(pl.String) if df.schema[key] != pl.Int8 else key
    )


def seat_advantage(seats: pl.LazyFrame, players: int) -> pl.DataFrame:
    """Seat 0's win share minus the last seat's, paired game by game: one row ``first``,
    ``last``, ``games``, ``diff``, ``diff_lo``, ``diff_hi``. Per game g::

        d_g  = players × (win_first,g − win_last,g)
        diff = mean(d_g),   interval diff ± 1.96 · sd(d_g) / sqrt(G)

    Pairing keeps the two seats' shares of one game together: their wins are negatively
    correlated (one seat's win is the other's loss), which two independent intervals
    (Newcombe) would understate."""
    last = pl.col("seat").max()
    per_game = seats.group_by("game_id").agg(
        first=pl.col("seat").min(),
        last=last,
        d=(
            pl.col("win").filter(pl.col("seat") == pl.col("seat").min()).first()
            - pl.col("win").filter(pl.col("seat") == last).first()
        )
        * players,
    )
    df = _collect(
        per_game.select(
            pl.col("first").min().cast(pl.Int64),
            pl.col("last").max().cast(pl.Int64),
            games=pl.len(),
            diff=pl.col("d").mean(),
            sd=pl.col("d").std(),
        )
    )
    half = Z95 * pl.col("sd") / pl.col("games").cast(pl.Float64).sqrt()
    return df.select(
        "first",
        "last",
        "games",
        "diff",
        diff_lo=pl.col("diff") - half,
        diff_hi=pl.col("diff") + half,
    )


def card_seat_table(cards: pl.LazyFrame, seats: pl.LazyFrame) -> pl.DataFrame:
    """``card, seat, n, ws, ws_lo, ws_hi``: each card's win share when taken by one seat,
    relative to that seat's own win rate (1.0 = the card does as well as the seat's average
    game), so a card is judged within its seat, not by the seat's advantage::

        ws = (wins of the seat's copies / n) / (the seat's wins / its games)

    The interval is the Wilson interval of the card's win rate divided by the seat's rate
    (estimated from every game, far more than the card's copies, so taken as known)."""
    rate = seats.group_by("seat").agg(seat_rate=pl.col("win").mean())
    held = cards.select("game_id", "seat", "card").join(
        seats.select("game_id", "seat", "win"), on=["game_id", "seat"]
    )
    df = _collect(
        held.group_by(pl.col("card").cast(pl.String), "seat")
        .agg(n=pl.len(), wins=pl.col("win").sum())
        .join(rate, on="seat")
    )
    df = df.with_columns(_p=pl.when(pl.col("n") > 0).then(pl.col("wins") / pl.col("n")))
    lo, hi = wilson_exprs("_p", "n")
    by = pl.col("seat_rate")
    return df.select(
        "card",
        pl.col("seat").cast(pl.Int64),
        pl.col("n").cast(pl.Int64),
        ws=pl.col("_p") / by,
        ws_lo=lo / by,
        ws_hi=hi / by,
    ).sort("card", "seat")


def mean_by(frame: pl.LazyFrame, key: str, column: str) -> pl.DataFrame:
    """Per value of ``key``: ``n`` rows and ``mean_<column>`` (e.g. DRAKO's turns by seat)."""
    df = _collect(frame.group_by(key).agg(n=pl.len(), mean=pl.col(column).cast(pl.Float64).mean()))
    return df.rename({"mean": f"mean_{column}"}).sort(key)


def score_histogram(seats: pl.LazyFrame, key: str) -> pl.DataFrame:
    """Counts of final scores per value of ``key``: columns ``group`` (string),
    ``score``, ``count`` (one row per group and score reached)."""
    df = _collect(seats.group_by(key, "score").agg(count=pl.len()))
    return df.select(
        pl.col(key).cast(pl.String).alias("group"), pl.col("score").cast(pl.Int64), "count"
    ).sort("group", "score")


def pairwise_results(seats: pl.LazyFrame) -> pl.DataFrame:
    """Head-to-head record of every ordered pair of policies.

    Each game gives, for every two seats a ≠ b, one comparison of a's policy against b's:
    a is *ahead* if its rank is better (1 = first), and a tie of ranks counts half. Rows:
    ``policy``, ``opponent``, ``n`` comparisons, ``ahead`` (sum of 1 / 0.5 / 0)."""
    s = seats.select("game_id", "seat", pl.col("policy").cast(pl.String), "rank")
    pairs = s.join(s, on="game_id", suffix="_b").filter(pl.col("seat") != pl.col("seat_b"))
    ahead = (
        pl.when(pl.col("rank") < pl.col("rank_b"))
        .then(1.0)
        .when(pl.col("rank") == pl.col("rank_b"))
        .then(0.5)
        .otherwise(0.0)
    )
    df = _collect(
        pairs.group_by("policy", pl.col("policy_b").alias("opponent")).agg(
            n=pl.len(), ahead=ahead.sum()
        )
    )
    return df.sort("policy", "opponent")


def matchup_matrix(pairs: pl.DataFrame) -> pl.DataFrame:
    """Head-to-head win share of ``policy`` against ``opponent`` = 2 × ahead / n
    (1.0 = even), with a Wilson interval ``ws_lo``/``ws_hi`` on ahead / n, times 2.
    ``pairs`` comes from ``pairwise_results``."""
    df = with_win_share(pairs, "ahead", "n", 2, "ws")
    return df.select("policy", "opponent", "n", "ws", "ws_lo", "ws_hi")


def bt_fit(
    tot: np.ndarray, wins: np.ndarray, iterations: int = 1000, tol: float = 1e-12
) -> np.ndarray:
    """Bradley–Terry strengths, P(i ahead of j) = s_i / (s_i + s_j), by Hunter's (2004) MM
    iteration ``s_i <- W_i / sum_j n_ij / (s_i + s_j)``, renormalised each step to
    geometric mean 1: ``tot[i, j]``
    comparisons of i with j, ``wins[i]`` comparisons i was ahead in (ties half). A policy
    that won none gets 0; the others have geometric mean 1."""
    k = len(wins)
    s = np.ones(k)
    with np.errstate(divide="ignore", invalid="ignore"):
        for _ in range(iterations):
            pair = np.where(tot > 0, tot / (s[:, None] + s[None, :]), 0.0)
            np.fill_diagonal(pair, 0.0)
            denom = pair.sum(axis=1)
            new = np.where((denom > 0) & (wins > 0), wins / np.where(denom > 0, denom, 1.0), 0.0)
            positive = new[new > 0]
            g = math.exp(float(np.log(positive).mean())) if positive.size else 1.0
            new = new / g
            done = float(np.max(np.abs(new - s), initial=0.0)) < tol
            s = new
            if done:
                break
    return s


# --- cards -----------------------------------------------------------------------------------

#: Optional ``cards`` columns the card table uses when a game's dataset has them, by role.
PLAYED_COLUMNS = ("played", "deployed")  # the copy reached the tableau (Fairy Tale / Paper Tales)
FINAL_COLUMNS = ("face_up",)  # the copy was in the final scoring tableau
PICK_COLUMN = "pick"  # draft pick number, 1 = first pick
POINTS_COLUMN = "points"  # final points the copy scored


def _first_present(names: list[str], options: tuple[str, ...]) -> str | None:
    return next((c for c in options if c in names), None)


def card_table(cards: pl.LazyFrame, seats: pl.LazyFrame, players: int) -> pl.DataFrame:
    """One row per card: how often it was taken and how its holders fared.

    Every row of ``cards`` (one drafted/taken copy) is joined with its seat's ``win``.
    For the copies of a card:

    * ``n`` copies taken and ``ws`` = mean(win) × players when taken;
    * ``n_played`` / ``ws_played``: copies that were played (``played`` or ``deployed``);
    * ``n_not_played`` / ``ws_not_played``: taken but never played;
    * ``improvement`` = ws_played − ws_not_played (Newcombe interval): how much better its
      holders do when they play it — the classic "improvement when drawn" of draft games;
    * ``n_final`` / ``ws_final``: copies in the final tableau (``face_up``);
    * ``play_rate`` = n_played / n; ``mean_pick`` (1 = first pick); ``mean_points`` per copy
      taken (where the game scores per card);
    * ``n_given`` / ``ws_given``: copies that came to the seat without its choice (``pick``
      0: Fairy Tale beginner's starting card, a card a Paper Tales Shapeshifter revealed),
      only where a run has them. They are left out of every other column, so a card's
      figures say what choosing it does, and the given ones what having it does.

    Rows in card order (the card data's, where the ``card`` column is an Enum). Columns a
    game's dataset lacks are left out.
    """
    names = cards.collect_schema().names()
    given: pl.LazyFrame | None = None
    if PICK_COLUMN in names and _collect(cards.select((pl.col(PICK_COLUMN) == 0).any())).item():
        given = cards.filter(pl.col(PICK_COLUMN) == 0)
        cards = cards.filter(pl.col(PICK_COLUMN) != 0)
    played = _first_present(names, PLAYED_COLUMNS)
    final = _first_present(names, FINAL_COLUMNS)
    win = pl.col("win")
    aggs = [pl.len().alias("n"), win.sum().alias("wins")]
    if played:
        pc = pl.col(played).cast(pl.Boolean)
        aggs += [
            pc.sum().cast(pl.Int64).alias("n_played"),
            win.filter(pc).sum().alias("wins_played"),
            win.filter(~pc).sum().alias("wins_not_played"),
        ]
    if final:
        fc = pl.col(final).cast(pl.Boolean)
        aggs += [fc.sum().cast(pl.Int64).alias("n_final"), win.filter(fc).sum().alias("wins_final")]
    if PICK_COLUMN in names:
        aggs.append(pl.col(PICK_COLUMN).cast(pl.Float64).mean().alias("mean_pick"))
    if POINTS_COLUMN in names:
        aggs.append(pl.col(POINTS_COLUMN).cast(pl.Float64).mean().alias("mean_points"))
    joined = cards.join(seats.select("game_id", "seat", "win"), on=["game_id", "seat"])
    # card order: an Enum card column sorts in the card data's order, a string one by name
    df = _collect(joined.group_by("card").agg(aggs).sort("card")).with_columns(
        pl.col("card").cast(pl.String)
    )
    df = with_win_share(df, "wins", "n", players, "ws")
    cols = ["card", "n", "ws", "ws_lo", "ws_hi"]
    if played:
        df = df.with_columns(
            (pl.col("n") - pl.col("n_played")).alias("n_not_played"),
            (pl.col("n_played") / pl.col("n")).alias("play_rate"),
        )
        df = with_win_share(df, "wins_played", "n_played", players, "ws_played")
        df = with_win_share(df, "wins_not_played", "n_not_played", players, "ws_not_played")
        d, lo, hi = _newcombe_exprs(
            "ws_played", "ws_played_lo", "ws_played_hi",
            "ws_not_played", "ws_not_played_lo", "ws_not_played_hi",
        )  # fmt: skip
        df = df.with_columns(
            d.alias("improvement"), lo.alias("improvement_lo"), hi.alias("improvement_hi")
        )
        cols += ["n_played", "ws_played", "ws_played_lo", "ws_played_hi"]
        cols += ["n_not_played", "ws_not_played", "ws_not_played_lo", "ws_not_played_hi"]
        cols += ["improvement", "improvement_lo", "improvement_hi", "play_rate"]
    if final:
        df = with_win_share(df, "wins_final", "n_final", players, "ws_final")
        cols += ["n_final", "ws_final", "ws_final_lo", "ws_final_hi"]
    cols += [c for c in ("mean_pick", "mean_points") if c in df.columns]
    if given is not None:
        held = given.join(seats.select("game_id", "seat", "win"), on=["game_id", "seat"])
        by_card = held.group_by(pl.col("card").cast(pl.String)).agg(
            pl.len().alias("n_given"), pl.col("win").sum().alias("wins_given")
        )
        df = df.join(_collect(by_card), on="card", how="left").with_columns(
            pl.col("n_given").fill_null(0).cast(pl.Int64), pl.col("wins_given").fill_null(0.0)
        )
        df = with_win_share(df, "wins_given", "n_given", players, "ws_given")
        cols += ["n_given", "ws_given", "ws_given_lo", "ws_given_hi"]
    return df.select(cols)


# --- Paper Tales buildings ---------------------------------------------------------------------


def trickster_copies(
    games: pl.LazyFrame,
    cards: pl.LazyFrame,
    seats: pl.LazyFrame,
    players: int,
    wild: list[str],
) -> pl.DataFrame:
    """Fairy Tale's Trickster by what it copied (the ``games`` table's ``trickster_as``):
    ``trickster_as, n, share, mean_points, ws, ws_lo, ws_hi``, one row per card copied, in
    card order.

    The Trickster's seat in a game is the seat with a face-up ``wild`` card in its final
    tableau (``cards.face_up``); ``n`` counts those seats, ``share`` = n / the games whose
    Trickster copied a card (a face-down or untaken Trickster copies nothing),
    ``mean_points`` = the mean ``points`` of its wild cards (the Trickster's own −1 plus
    the copy's value), ``ws`` = mean(win) × players of those seats with its Wilson interval.
    With one Trickster in the deck (the game's card data) every such game has one seat."""
    held = cards.filter(pl.col("card").cast(pl.String).is_in(wild) & pl.col("face_up"))
    held = held.group_by("game_id", "seat").agg(points=pl.col("points").cast(pl.Int64).sum())
    copied = games.select("game_id", "trickster_as").filter(pl.col("trickster_as").is_not_null())
    df = _collect(
        held.join(copied, on="game_id")
        .join(seats.select("game_id", "seat", "win"), on=["game_id", "seat"])
        .group_by("trickster_as")
        .agg(n=pl.len(), wins=pl.col("win").sum(), mean_points=pl.col("points").mean())
    )
    df = with_win_share(df, "wins", "n", players, "ws").with_columns(
        share=pl.col("n") / pl.col("n").sum()
    )
    return df.select("trickster_as", "n", "share", "mean_points", "ws", "ws_lo", "ws_hi").sort(
        pl.col("trickster_as").to_physical()
    )


def building_curves(buildings: pl.LazyFrame, seats: pl.LazyFrame, players: int) -> pl.DataFrame:
    """Value curve of each building level by the turn it was reached.

    ``buildings`` has one row per (game_id, seat, building) with ``level`` reached (1|2),
    ``turn_built`` and ``turn_upgraded`` (null unless it reached level 2; a 0, as datasets
    written before that contract held, reads as null: turns start at 1). Level 1 is reached
    at ``turn_built``; level 2 at ``turn_upgraded``, or at ``turn_built`` when built directly
    at level 2. Per (building, level, turn):

    * ``n`` seats that reached the level on that turn, their ``ws`` (interval) and
      ``mean_score``;
    * ``marginal_score`` = mean final score of the seats that had reached the level by
      that turn − mean final score of all other seats: what having it by turn t is worth
      (an observational difference, not a causal effect).
    """
    level2_turn = (
        pl.when(pl.col("turn_upgraded") > 0)
        .then(pl.col("turn_upgraded"))
        .when(pl.col("level") >= 2)
        .then(pl.col("turn_built"))
        .otherwise(None)
    )
    b = buildings.select(
        "game_id", "seat", pl.col("building").cast(pl.String), "turn_built", level2_turn.alias("t2")
    )
    reach = pl.concat(
        [
            b.select(
                "game_id",
                "seat",
                "building",
                pl.lit(1).alias("level"),
                pl.col("turn_built").alias("turn"),
            ),
            b.filter(pl.col("t2").is_not_null()).select(
                "game_id", "seat", "building", pl.lit(2).alias("level"), pl.col("t2").alias("turn")
            ),
        ]
    ).filter(pl.col("turn").is_not_null())
    s = seats.select("game_id", "seat", "win", "score")
    per = _collect(
        reach.join(s, on=["game_id", "seat"])
        .group_by("building", "level", pl.col("turn").cast(pl.Int64))
        .agg(n=pl.len(), wins=pl.col("win").sum(), score_sum=pl.col("score").cast(pl.Float64).sum())
    ).sort("building", "level", "turn")
    totals = _collect(s.select(n=pl.len(), score=pl.col("score").cast(pl.Float64).sum()))
    n_all, score_all = totals["n"][0], totals["score"][0]
    per = per.with_columns(
        mean_score=pl.col("score_sum") / pl.col("n"),
        n_by=pl.col("n").cum_sum().over("building", "level", order_by="turn"),
        score_by=pl.col("score_sum").cum_sum().over("building", "level", order_by="turn"),
    )
    per = per.with_columns(
        marginal_score=pl.col("score_by") / pl.col("n_by")
        - pl.when(pl.col("n_by") < n_all)
        .then((score_all - pl.col("score_by")) / (n_all - pl.col("n_by")))
        .otherwise(None)
    )
    per = with_win_share(per, "wins", "n", players, "ws")
    return per.select(
        "building", "level", "turn", "n", "ws", "ws_lo", "ws_hi", "mean_score", "marginal_score"
    )


# --- DRAKO -------------------------------------------------------------------------------------


def legend_table(
    legends: pl.LazyFrame, seats: pl.LazyFrame, players: int, n_games: int
) -> pl.DataFrame:
    """Per Legend (``legends``: one row per claim: game_id, seat, legend, turn):
    ``claims``, ``claim_rate`` = claims / games, ``ws`` of the claiming seat (interval)
    and ``mean_turn`` of the claim."""
    df = _collect(
        legends.join(seats.select("game_id", "seat", "win"), on=["game_id", "seat"])
        .group_by(pl.col("legend").cast(pl.String))
        .agg(
            claims=pl.len(),
            wins=pl.col("win").sum(),
            mean_turn=pl.col("turn").cast(pl.Float64).mean(),
        )
    ).sort("legend")
    df = df.with_columns(claim_rate=pl.col("claims") / n_games)
    df = with_win_share(df, "wins", "claims", players, "ws")
    return df.select("legend", "claims", "claim_rate", "ws", "ws_lo", "ws_hi", "mean_turn")


def value_counts(frame: pl.LazyFrame, column: str) -> pl.DataFrame:
    """Histogram of one integer column: ``value``, ``count`` (e.g. game length in turns)."""
    df = _collect(frame.group_by(pl.col(column).cast(pl.Int64).alias("value")).agg(count=pl.len()))
    return df.sort("value")


def count_vs_score(
    cards: pl.LazyFrame, seats: pl.LazyFrame, card: str, players: int
) -> pl.DataFrame:
    """Seats grouped by how many ``card`` cards they ended with (0 included): ``count``,
    ``n`` seats, ``mean_score``, ``ws`` (interval). E.g. DRAKO's dragon count vs score."""
    held = (
        cards.filter(pl.col("card").cast(pl.String) == card)
        .group_by("game_id", "seat")
        .agg(count=pl.len().cast(pl.Int64))
    )
    df = _collect(
        seats.select("game_id", "seat", "win", "score")
        .join(held, on=["game_id", "seat"], how="left")
        .with_columns(pl.col("count").fill_null(0))
        .group_by("count")
        .agg(
            n=pl.len(), wins=pl.col("win").sum(), mean_score=pl.col("score").cast(pl.Float64).mean()
        )
    ).sort("count")
    df = with_win_share(df, "wins", "n", players, "ws")
    return df.select("count", "n", "mean_score", "ws", "ws_lo", "ws_hi")


def count_vs_score_by_origin(
    cards: pl.LazyFrame, seats: pl.LazyFrame, card: str, players: int, turn: str
) -> pl.DataFrame:
    """``count_vs_score`` twice, split by where the ``card`` cards came from: ``origin``
    "dealt" counts the seat's ``card`` cards whose ``turn`` column is 0 (dealt at setup
    and still there at the end), "placed" those with ``turn`` > 0 (put there by the seat's
    choice). Columns: ``origin``, then those of ``count_vs_score``. E.g. DRAKO's dragons
    by ``turn_placed``."""
    dealt = pl.col(turn) == 0
    return pl.concat(
        [
            count_vs_score(cards.filter(where), seats, card, players).select(
                pl.lit(origin).alias("origin"), pl.all()
            )
            for origin, where in (("dealt", dealt), ("placed", ~dealt))
        ]
    )


#: ``drawn_card_outcomes``' rows: (source, outcome), in the order of the table.
DRAW_GROUPS = (("deck", "placed"), ("deck", "discarded"), ("discard", "placed"))


def _per_game(decisions: pl.DataFrame, column: str) -> tuple[np.ndarray, np.ndarray]:
    """Per game of ``decisions`` (one row a decision): the sum of ``column`` and the count."""
    g = decisions.group_by("game_id").agg(S=pl.col(column).cast(pl.Float64).sum(), N=pl.len())
    return g["S"].to_numpy(), g["N"].to_numpy().astype(np.float64)


def clustered_ratio_diff(
    a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray] | None = None
) -> tuple[float, float]:
    """A ratio estimator R = ΣS/ΣN over games (one game's decisions are one cluster: a
    seat's several draws, and the seats of one game, are not independent), or the
    difference R_a − R_b of two over the same games, and its standard error from the
    linearised per-game residuals (as ``delta_paired``), over the G games of the arrays::

        e_g = (S_ag − R_a·N_ag) / N̄_a  [ − (S_bg − R_b·N_bg) / N̄_b ],   N̄ = ΣN / G
        se  = sqrt(Σ e_g² / (G (G − 1)))

    ``a`` and ``b``: per game (S, N), aligned game by game (0 where a game has none).
    Returns (estimate, se); se is nan below two games."""
    e, est = np.zeros(len(a[0])), 0.0
    for sign, (s, n) in ((1.0, a), (-1.0, b)) if b is not None else ((1.0, a),):
        if n.sum() <= 0:
            return math.nan, math.nan
        r = s.sum() / n.sum()
        e += sign * (s - r * n) / (n.sum() / len(n))
        est += sign * r
    g = len(e)
    return est, math.sqrt((e**2).sum() / (g * (g - 1))) if g > 1 else math.nan


def _decisions(draws: pl.LazyFrame, seats: pl.LazyFrame, card: str) -> pl.DataFrame:
    """The draw decisions of ``card`` with the deciding seat's final win and score."""
    return _collect(
        draws.filter(pl.col("card").cast(pl.String) == card)
        .join(seats.select("game_id", "seat", "win", "score"), on=["game_id", "seat"])
        .select(
            "game_id",
            "seat",
            pl.col("source").cast(pl.String),
            pl.when(pl.col("placed")).then(pl.lit("placed")).otherwise(pl.lit("discarded"))
            .alias("outcome"),
            "win",
            "score",
        )
    )  # fmt: skip


def drawn_card_outcomes(
    draws: pl.LazyFrame, seats: pl.LazyFrame, card: str, players: int
) -> pl.DataFrame:
    """What became of the ``card`` cards the seats took (``draws``: one row a draw
    decision; DRAKO's), per ``source`` and ``outcome`` (placed or discarded; a card taken
    from the discard pile is always placed) in ``DRAW_GROUPS`` order: ``n`` decisions,
    ``seats`` that made them, win share ``ws`` of the deciding seat at the end of its game
    and ``mean_score``, each with a 95% normal interval clustered by game
    (``clustered_ratio_diff``: ``ws_lo``/``ws_hi``, ``mean_score_lo``/``mean_score_hi``;
    null below two games). Every decision counts once, so a seat that drew the card twice counts
    twice."""
    d = _decisions(draws, seats, card)
    rows = []
    for source, outcome in DRAW_GROUPS:
        part = d.filter((pl.col("source") == source) & (pl.col("outcome") == outcome))
        if part.height == 0:
            continue
        row: dict[str, object] = {
            "source": source,
            "outcome": outcome,
            "n": part.height,
            "seats": part.select("game_id", "seat").n_unique(),
        }
        for column, name, scale in (("win", "ws", players), ("score", "mean_score", 1)):
            est, se = clustered_ratio_diff(_per_game(part, column))
            lo, hi = (est - Z95 * se, est + Z95 * se) if se == se else (None, None)
            row[name] = est * scale
            row[f"{name}_lo"] = None if lo is None else lo * scale
            row[f"{name}_hi"] = None if hi is None else hi * scale
        rows.append(row)
    schema = {"source": pl.String, "outcome": pl.String, "n": pl.Int64, "seats": pl.Int64}
    schema |= dict.fromkeys(
        ("ws", "ws_lo", "ws_hi", "mean_score", "mean_score_lo", "mean_score_hi"), pl.Float64
    )
    return pl.DataFrame(rows, schema=schema)


def drawn_card_choice(
    draws: pl.LazyFrame, seats: pl.LazyFrame, card: str, players: int
) -> dict[str, float] | None:
    """Placing a ``card`` drawn from the draw pile against discarding it, decision by
    decision: ``d_ws`` = win share after placing − after discarding and ``d_score`` the
    same of the final score, each with its 95% interval (``*_lo``, ``*_hi``) clustered by
    game (``clustered_ratio_diff`` over every game with such a decision); ``n_placed``,
    ``n_discarded``. None unless both happened in at least two games."""
    d = _decisions(draws, seats, card).filter(pl.col("source") == "deck")
    games = d.select("game_id").unique()
    if games.height < 2:
        return None
    out: dict[str, float] = {}
    for column, name, scale in (("win", "d_ws", players), ("score", "d_score", 1)):
        sides = []
        for outcome in ("placed", "discarded"):
            part = d.filter(pl.col("outcome") == outcome)
            if part.height == 0:
                return None
            g = games.join(
                part.group_by("game_id").agg(S=pl.col(column).cast(pl.Float64).sum(), N=pl.len()),
                on="game_id",
                how="left",
            ).fill_null(0)
            sides.append((g["S"].to_numpy(), g["N"].to_numpy().astype(np.float64)))
            out[f"n_{outcome}"] = float(part.height)
        est, se = clustered_ratio_diff(sides[0], sides[1])
        out[name] = est * scale
        out[f"{name}_lo"] = (est - Z95 * se) * scale
        out[f"{name}_hi"] = (est + Z95 * se) * scale
    return out


# --- comparing two runs --------------------------------------------------------------------------


def delta_independent(a: pl.DataFrame, b: pl.DataFrame, key: str, players: int) -> pl.DataFrame:
    """Change in win share per ``key`` between two independent runs.

    ``a`` and ``b`` hold per-key ``n`` and ``wins`` (sum of win). ``delta`` = ws_b − ws_a
    with Newcombe's interval ``delta_lo``/``delta_hi`` on the two win rates, times
    ``players``; ``significant`` when
    the interval excludes 0."""
    a = with_win_share(a.select(key, "n", "wins"), "wins", "n", players, "ws")
    b = with_win_share(b.select(key, "n", "wins"), "wins", "n", players, "ws")
    df = a.join(b, on=key, how="full", coalesce=True, suffix="_b")
    d, lo, hi = _newcombe_exprs("ws_b", "ws_lo_b", "ws_hi_b", "ws", "ws_lo", "ws_hi")
    df = df.with_columns(delta=d, lo=lo, hi=hi)
    return _finish_delta(df, key, "independent")


def delta_paired(a: pl.LazyFrame, b: pl.LazyFrame, key: str, players: int) -> pl.DataFrame:
    """Change in win share per ``key`` between two runs of the *same games* (same seed and
    game ids: common random numbers), paired game by game.

    ``a``/``b`` have one row per observation (a copy of a card, a seat): ``game_id``,
    ``key``, ``win``; only game ids present in both runs count (G of them). For each key
    and run, per game g: S_g = Σ win, N_g = observations; the run's rate is R = ΣS / ΣN.
    The change R_b − R_a is a difference of ratio estimators over the same games; its
    standard error comes from the linearised per-game residuals::

        e_g = (S_bg − R_b·N_bg) / N̄_b − (S_ag − R_a·N_ag) / N̄_a,   N̄ = ΣN / G
        se  = sqrt(Σ e_g² / (G (G − 1)))

    so everything the two games share (the deal, the other seats) cancels. ``delta`` and
    its normal 95% interval ``delta_lo``/``delta_hi`` are times ``players``."""
    common = a.select("game_id").unique().join(b.select("game_id").unique(), on="game_id")
    games = _collect(common.select(pl.len()))["len"][0]

    def per_game(x: pl.LazyFrame) -> pl.LazyFrame:
        return x.group_by("game_id", key).agg(S=pl.col("win").sum(), N=pl.len().cast(pl.Float64))

    ga = per_game(a.join(common, on="game_id"))
    gb = per_game(b.join(common, on="game_id"))
    g = ga.join(gb, on=["game_id", key], how="full", coalesce=True, suffix="_b").with_columns(
        pl.col("S", "N", "S_b", "N_b").fill_null(0.0)
    )
    sums = _collect(
        g.group_by(key).agg(
            wins=pl.col("S").sum(),
            n=pl.col("N").sum(),
            wins_b=pl.col("S_b").sum(),
            n_b=pl.col("N_b").sum(),
        )
    )
    sums = sums.with_columns(R=pl.col("wins") / pl.col("n"), R_b=pl.col("wins_b") / pl.col("n_b"))
    e = (pl.col("S_b") - pl.col("R_b") * pl.col("N_b")) / (pl.col("n_b") / games) - (
        pl.col("S") - pl.col("R") * pl.col("N")
    ) / (pl.col("n") / games)
    sq = _collect(
        g.join(sums.lazy().select(key, "R", "R_b", "n", "n_b"), on=key)
        .group_by(key)
        .agg(e2=(e**2).sum())
    )
    df = sums.join(sq, on=key, how="left")
    se = (pl.col("e2") / (games * (games - 1))).sqrt() * players if games > 1 else pl.lit(None)
    df = with_win_share(df, "wins", "n", players, "ws")
    df = with_win_share(df, "wins_b", "n_b", players, "ws_b_")
    df = df.rename({"ws_b_": "ws_b", "ws_b__lo": "ws_lo_b", "ws_b__hi": "ws_hi_b"})
    delta = (pl.col("R_b") - pl.col("R")) * players
    df = df.with_columns(delta=delta, lo=delta - Z95 * se, hi=delta + Z95 * se)
    return _finish_delta(df, key, "paired")


def _finish_delta(df: pl.DataFrame, key: str, method: str) -> pl.DataFrame:
    df = df.with_columns(
        significant=(pl.col("lo") > 0) | (pl.col("hi") < 0),  # the interval excludes 0
        method=pl.lit(method),
    ).with_columns(pl.col("significant").fill_null(False))
    return df.select(
        key, pl.col("n").alias("n_a"), pl.col("ws").alias("ws_a"), "n_b", "ws_b",
        "delta", pl.col("lo").alias("delta_lo"), pl.col("hi").alias("delta_hi"),
        "significant", "method",
    ).sort(pl.col("delta").abs(), descending=True, nulls_last=True)  # fmt: skip
