"""How much the deal decides a game, and how much the players' skill (``talesim ladder``).

The tournament is balanced: every table composition (a multiset of policies) is played in
every distinct seating, and every composition and seating replays the same deals (the same
seed and game ids). A **unit** (``unit``) is one deal, with every table it was played at:
the same cards go to the same seats in each of them, only who sits where (and, across
compositions, who the others are) changes; deals are independent of each other, so units
are what the bootstrap resamples. ``seats`` has one row per seat of every game played:
``unit``, ``play`` (the game), ``seat``, ``policy``, ``win`` (1, 1/k for each of k tied
winners, or 0).

Every quantity is on the **win share** ``y = win × players`` (1.0 = an average seat; it
averages 1 over every game, so over every unit and composition too).

* **The deal a player gets** is its unit and its seat: group g = (unit, seat), the cards
  that seat is dealt in that deal and the seat's position.
* **Deal share of a policy L**: a one-way random-effects ANOVA on L's rows only, grouped by
  g (only the groups where L sat; within a group the rows differ by the arrangement of the
  other players). With N rows, G groups of sizes n_g and means ȳ_g, grand mean ȳ::

      MSB = Σ n_g (ȳ_g − ȳ)² / (G − 1)        MSW = Σ Σ (y − ȳ_g)² / (N − G)
      n0  = (N − Σ n_g² / N) / (G − 1)
      σ²_deal = max(0, (MSB − MSW) / n0)    σ²_rest = MSW
      share   = σ²_deal / (σ²_deal + σ²_rest)                         (ICC(1))

  how much of L's outcome is decided by the seat it was dealt, whatever the arrangement
  of the others (if the deal decides each game with probability q and a coin the rest,
  the share is q²). Undefined (null) when G < 2, N − G < 1 or L's win share never varies
  (e.g. a policy that never wins, or always wins). Every group of L holds the same mix of
  compositions (L sits at each seat of each deal equally often in each composition it is
  in), so which opponents L faced is within-group variation, not deal. With two policies
  at two seats L sits once at each seat of a deal, so every group has one row: undefined.
* **Decomposition** of y over all rows into the deal, the players' skill and the rest.
  Groups g = (unit, seat) over every policy (G of them, sizes n_g), policies L (K of them,
  n_L rows, means ȳ_L)::

      SS_deal  = Σ_g n_g (ȳ_g − ȳ)²           SS_skill = Σ_L n_L (ȳ_L − ȳ)²
      SS_rest  = max(0, SS_total − SS_deal − SS_skill),   MS_rest = SS_rest / (N − G − K + 1)
      σ²_deal  = max(0, (SS_deal / (G − 1) − MS_rest) / n0)     (n0 as above)
      σ²_skill = max(0, (SS_skill − (K − 1) MS_rest) / N)
      σ²_rest  = MS_rest
      share of each = σ² / (σ²_deal + σ²_skill + σ²_rest)

  the method-of-moments estimator of an additive two-factor model (a random deal-seat
  effect, a fixed policy effect, the rest). *Assumption*: the two factors are orthogonal.
  The balanced design makes them so within a composition (each of its policies sits at
  each seat of each of its deals equally often, and every unit averages y = 1), so
  SS_deal + SS_skill ≤ SS_total and each part is corrected for the noise it carries, as
  in the one-way ANOVA (there MSW, here MS_rest: the rows of one deal-seat group also
  differ by policy).
  What the factors leave is the rest: the arrangement of the other players, a policy
  doing better on some deals than others, and a policy's edge that depends on its
  opponents (a policy's skill is its mean over every composition it played in). With one
  policy it is the one-way ANOVA above. If the deal decides each game with probability q,
  the strongest player with r and a coin the rest, the parts are q², r² and 1 − q² − r².
  Undefined when G < 2, N − G − K + 1 < 1 or y never varies.
* **Intervals**: 95% percentile bootstrap over units (``BOOTSTRAP`` resamples, units drawn
  with replacement; a unit drawn twice counts its groups twice, as distinct groups).
  Resamples where a share is undefined are left out of its percentiles. Each resample is
  weighted sums of per-unit totals (rows, groups, Σ n_g², Σ S_g² / n_g, Σ y, Σ y² with
  S_g = Σ y over group g, and per policy n_L, Σ y), so no row is read again.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

#: Bootstrap resamples of the intervals.
BOOTSTRAP = 200
#: A total sum of squares at most this fraction of Σ (y − 1)² is rounding: y never varies.
FLAT = 1e-9
#: Per-unit totals of one-way ANOVA groups: rows, groups, Σ n_g², Σ S_g²/n_g, Σ y, Σ y²
#: (y centred: y − 1 for y, so S_g too).
_GROUP_SUMS = 6
#: Resample weights held at once (16 MB): one matrix product per block of resamples.
_BLOCK = 1 << 21
PARTS = ("deal", "skill", "rest")


def _cells(seats: pl.DataFrame, players: int) -> pl.DataFrame:
    """Per (unit, seat, policy) sat: ``u`` (the unit's index, 0..U−1), ``n`` rows and the
    sums ``s`` = Σ (y − 1), ``q`` = Σ (y − 1)² (centred at the mean 1, for precision)."""
    y = pl.col("win").cast(pl.Float64) * players - 1.0
    return (
        seats.group_by("unit", "seat", pl.col("policy").cast(pl.String))
        .agg(n=pl.len().cast(pl.Float64), s=y.sum(), q=(y * y).sum())
        .with_columns(u=pl.col("unit").rank("dense").cast(pl.Int64) - 1)
        .sort("u", "seat", "policy")
    )


def _units(cells: pl.DataFrame) -> int:
    return int(cells["u"].max() or 0) + 1 if cells.height else 0  # type: ignore[arg-type]


def _group_sums(index: np.ndarray, size: int, groups: pl.DataFrame) -> np.ndarray:
    """(size, 6): per index value, the ``_GROUP_SUMS`` of the groups (rows of ``groups``:
    ``n``, ``s``, ``q``) carrying that index."""
    n, s, q = (groups[c].to_numpy() for c in ("n", "s", "q"))
    weights = (n, np.ones_like(n), n * n, s * s / n, s, q)
    return np.stack([np.bincount(index, w, minlength=size) for w in weights], axis=-1)


def _policy_index(cells: pl.DataFrame, names: Sequence[str]) -> pl.DataFrame:
    """``cells`` of the ``names`` only, with ``k``: the policy's position in ``names``."""
    index = pl.DataFrame(
        {"policy": list(names), "k": range(len(names))},
        schema_overrides={"policy": pl.String, "k": pl.Int64},
    )
    return cells.join(index, on="policy")


def _bootstrap(sums: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Column totals of ``sums`` (one row per unit) and their ``BOOTSTRAP`` resamples
    (units drawn with replacement, ``np.random.default_rng(seed)``): (M,), (BOOTSTRAP, M)."""
    units = sums.shape[0]
    rng = np.random.default_rng(seed)
    boots = np.zeros((BOOTSTRAP, sums.shape[1]))
    if units:
        block = max(1, min(BOOTSTRAP, _BLOCK // units))  # resamples per matrix product
        counts = np.empty((block, units))
        for start in range(0, BOOTSTRAP, block):
            stop = min(start + block, BOOTSTRAP)
            for b in range(stop - start):
                counts[b] = np.bincount(rng.integers(0, units, units), minlength=units)
            # einsum, not @: one thread, whose time does not hang on how busy the other
            # cores are (BLAS's thread pool on a loaded machine can take seconds)
            boots[start:stop] = np.einsum("bu,um->bm", counts[: stop - start], sums)
    return sums.sum(axis=0), boots


def _shares(
    groups: np.ndarray, policies: tuple[np.ndarray, np.ndarray] | None = None
) -> np.ndarray:
    """(..., 3): the deal, skill and rest shares (module docstring) from the
    ``_GROUP_SUMS`` in the last axis of ``groups`` and, for the decomposition, the
    policies' rows and Σ (y − 1) (``policies``: two arrays (..., K)); NaN where undefined.
    Without ``policies`` it is the one-way ANOVA: skill 0, deal = the ICC."""
    n, g, n2, between, total, square = np.moveaxis(groups, -1, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean_sq = total * total / n
        ss_total = square - mean_sq
        ss_deal = np.maximum(between - mean_sq, 0.0)
        if policies is None:
            ss_skill, k = np.zeros_like(n), np.ones_like(n)
        else:
            rows, sums = policies
            per = np.where(rows > 0, sums * sums / rows, 0.0).sum(axis=-1)
            ss_skill, k = np.maximum(per - mean_sq, 0.0), (rows > 0).sum(axis=-1)
        df_rest = n - g - k + 1
        rest = np.maximum(ss_total - ss_deal - ss_skill, 0.0) / df_rest
        n0 = (n - n2 / n) / (g - 1)
        deal = np.maximum((ss_deal / (g - 1) - rest) / n0, 0.0)
        skill = np.maximum((ss_skill - (k - 1) * rest) / n, 0.0)
        var = deal + skill + rest
        ok = (g >= 2) & (df_rest >= 1) & (ss_total > FLAT * square) & (var > 0)
        return np.stack([np.where(ok, x / var, np.nan) for x in (deal, skill, rest)], axis=-1)


def _interval(boots: np.ndarray, point: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 2.5 and 97.5 percentiles over the first axis of ``boots``, of the resamples
    where the share is defined; NaN where ``point`` is undefined or no resample is."""
    flat = boots.reshape(boots.shape[0], -1)
    lo, hi = np.full(flat.shape[1], np.nan), np.full(flat.shape[1], np.nan)
    for j in range(flat.shape[1]):
        v = flat[np.isfinite(flat[:, j]), j]
        if v.size:
            lo[j], hi[j] = np.percentile(v, [2.5, 97.5])
    undefined = np.isnan(point)
    return (
        np.where(undefined, np.nan, lo.reshape(point.shape)),
        np.where(undefined, np.nan, hi.reshape(point.shape)),
    )


def deal_shares(
    seats: pl.DataFrame, policies: Sequence[str], players: int, seed: int = 0
) -> pl.DataFrame:
    """``policy, rows, deal_share, deal_share_lo, deal_share_hi`` in the order of
    ``policies``: each policy's deal share (module docstring) with its 95% bootstrap
    interval over units. A policy absent from ``seats`` has 0 rows and nulls."""
    names = list(policies)
    k = len(names)
    cells = _cells(seats, players)
    units = _units(cells)
    mine = _policy_index(cells, names)
    index = mine["u"].to_numpy() * k + mine["k"].to_numpy()
    sums = _group_sums(index, units * k, mine).reshape(units, k * _GROUP_SUMS)
    point, boots = _bootstrap(sums, seed)
    share = _shares(point.reshape(k, _GROUP_SUMS))[:, 0]
    lo, hi = _interval(_shares(boots.reshape(BOOTSTRAP, k, _GROUP_SUMS))[..., 0], share)
    return pl.DataFrame(
        {
            "policy": names,
            "rows": point.reshape(k, _GROUP_SUMS)[:, 0].round().astype(np.int64),
            "deal_share": share,
            "deal_share_lo": lo,
            "deal_share_hi": hi,
        },
        schema_overrides={"policy": pl.String, "rows": pl.Int64},
    ).fill_nan(None)


def decomposition(seats: pl.DataFrame, players: int, seed: int = 0) -> pl.DataFrame:
    """``part, share, share_lo, share_hi``: the parts ``deal``, ``skill`` and ``rest`` of
    the variance of the win share over the whole tournament (module docstring), each with
    its 95% bootstrap interval over units; nulls where undefined."""
    cells = _cells(seats, players)
    units = _units(cells)
    groups = (
        cells.group_by("u", "seat")
        .agg(pl.col("n").sum(), pl.col("s").sum(), pl.col("q").sum())
        .sort("u", "seat")
    )
    names = sorted(set(cells["policy"].to_list()))
    k = len(names)
    mine = _policy_index(cells, names)
    index = mine["u"].to_numpy() * k + mine["k"].to_numpy()
    by_policy = [
        np.bincount(index, mine[c].to_numpy(), minlength=units * k).reshape(units, k)
        for c in ("n", "s")
    ]
    sums = np.hstack([_group_sums(groups["u"].to_numpy(), units, groups), *by_policy])

    def split(t: np.ndarray) -> np.ndarray:
        g = _GROUP_SUMS
        return _shares(t[..., :g], (t[..., g : g + k], t[..., g + k :]))

    point, boots = _bootstrap(sums, seed)
    share = split(point)
    lo, hi = _interval(split(boots), share)
    return pl.DataFrame(
        {"part": list(PARTS), "share": share, "share_lo": lo, "share_hi": hi},
        schema_overrides={"part": pl.String},
    ).fill_nan(None)
