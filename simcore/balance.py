"""``talesim balance``: the smallest edit of the card data that brings every card's win share
into a band, found by simulation and re-validated on fresh seeds.

1. **Baseline.** The card file as given plays ``n_games`` games (seats rotated, seed ``S``)
   into ``OUT/runs/baseline``. Each *entity* gets its win share when taken (``ws``: mean
   ``win`` × players of the seats that took a copy, with its 95% Wilson interval; DRAKO:
   each kingdom kind placed, and each Legend claimed). An entity is *out of band* when its
   interval lies wholly outside ``[LO, HI]`` (a share whose interval touches the band is
   not told apart from it by these games). Entities taken fewer than ``MIN_TAKEN`` times
   are not judged.
2. **What may change.** The game's ``balance.toml`` declares the editable fields of its
   card data (``simcore.card_edits``); ``--fields`` narrows them and may narrow a field's
   bounds. The search moves only the sites of entities out of band in the baseline, each
   by at most ``radius`` steps.
3. **Two objectives, minimised** (Optuna, multi-objective TPE, ``simcore.study``):
   ``distance`` = Σ over entities of how far the interval lies outside the band (``LO -
   ws_hi`` or ``ws_lo - HI``; 0 when no entity is out of band), and ``size`` = Σ |steps|
   over the edited sites (a field moved by two steps counts 2). Every candidate plays the
   baseline's seeds, so differences between candidates are paired. The first trials
   (at most half the budget) are starting points: every out-of-band entity's first site
   one step towards the band, all together, then each site one step alone, the entities
   farthest out first.
4. **The proposal** is, among the trials with ``distance`` 0, the one with the smallest
   ``size`` (then fewer sites, then the earliest); when none reaches the band, the trial
   with the smallest ``distance`` (then ``size``), and the result says so.
5. **Validation.** The original and the proposal play ``validation_games`` fresh games
   (seed ``S + 1``: unrelated streams) into ``OUT/runs/validation-{before,after}``;
   ``OUT/validation/`` is their ``talesim compare``; ``OUT/cards-before-after.csv`` gives
   every entity's share in both with 95% intervals, and whether it is in band (its
   interval meets the band). Those are the figures the page leads with.

Files: ``OUT/cards.toml`` (the proposal: the card file with the changed numbers, each
changed entity commented), ``OUT/changes.csv`` (``card, field, old, new``),
``OUT/history.csv`` (every trial), ``OUT/study.db`` (the study; ``--resume`` continues
it), ``OUT/index.html``.
"""

from __future__ import annotations

import math
import shutil
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from reports.strength import MIN_TAKEN  # cards taken fewer times are not judged
from simcore import card_edits, registry, runner, study
from simcore.batch import RunError, StudySettings
from simcore.card_edits import Edit, Field, Site

#: Steps a site may move either way.
DEFAULT_RADIUS = 3
STUDY_NAME = "balance"
BASELINE, TRIAL = "baseline", "trial"
BEFORE, AFTER = "validation-before", "validation-after"


def parse_band(text: str) -> tuple[float, float]:
    """``"LO:HI"`` with ``0 < LO < 1 < HI`` (win shares; 1.0 = an average seat)."""
    parts = str(text).split(":")
    try:
        lo, hi = (float(p) for p in parts) if len(parts) == 2 else (math.nan, math.nan)
    except ValueError:
        lo = hi = math.nan
    if not (0 < lo < 1 < hi and math.isfinite(hi)):
        raise RunError(f"band must be LO:HI with 0 < LO < 1 < HI (win shares), got {text!r}")
    return lo, hi


def parse_fields(text: str | None, declared: Sequence[Field]) -> list[Field]:
    """``--fields F1,F2[:MIN:MAX],...``: the declared fields named (all when ``text`` is
    None), a ``:MIN:MAX`` narrowing one's bounds (within the declared ones)."""
    by_name = {f.name: f for f in declared}
    if text is None:
        return list(declared)
    out = []
    for item in (x.strip() for x in text.split(",")):
        name, *bounds = item.split(":")
        if name not in by_name:
            known = ", ".join(by_name) or "none"
            raise RunError(f"unknown field '{name}' (editable fields: {known})")
        f = by_name[name]
        if bounds:
            try:
                lo, hi = (int(b) for b in bounds) if len(bounds) == 2 else (None, None)
            except ValueError:
                lo = hi = None
            if lo is None or hi is None or lo > hi:
                raise RunError(f"field bounds must be NAME:MIN:MAX with MIN <= MAX, got {item!r}")
            if lo < f.min or hi > f.max:
                raise RunError(
                    f"field '{name}': bounds {lo}:{hi} outside what the card data allows "
                    f"({f.min}:{f.max})"
                )
            f = replace(f, min=lo, max=hi)
        out.append(f)
    return out


@dataclass(frozen=True, kw_only=True)
class Request(StudySettings):
    """A balance search: the seats, the band to reach, the trials and the edits allowed."""

    policy: str
    band: tuple[float, float]
    policies_file: Path | None = None
    fields: str | None = None
    radius: int = DEFAULT_RADIUS


@dataclass
class Outcome:
    """What ``run_balance`` found (the page and the CLI read it)."""

    request: Request
    card_file: Path
    out_of_band: list[str]  # entities out of band in the baseline
    no_site: list[str]  # of those, the ones with no editable field
    sites: list[Site]
    edits: list[Edit]
    meets_band: bool  # on the search seeds
    validated_in_band: bool  # on the validation seeds
    trial: int | None  # the proposal's trial number (None: no search ran)
    history: list[dict[str, Any]] = field(default_factory=list)
    before_after: Any = None  # polars DataFrame
    files: dict[str, Path] = field(default_factory=dict)


def fields_file(game: registry.Game) -> Path:
    return game.data_dir() / card_edits.FIELDS_FILE


def card_file_of(game: registry.Game) -> Path:
    """The game's built-in card file: the one its ``balance.toml`` names (``card_file``)."""
    path = fields_file(game)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return game.data_dir() / str(data["card_file"])


def distance(df: Any, band: tuple[float, float]) -> tuple[float, dict[str, float]]:
    """How far the judged entities (``n >= MIN_TAKEN``) lie outside ``band``: an entity is
    out of band when its 95% interval lies wholly outside it, by ``LO - ws_hi`` (too weak)
    or ``ws_lo - HI`` (too strong). Returns the sum and each outside entity's distance."""
    lo, hi = band
    outside = {}
    for row in df.iter_rows(named=True):
        if row["n"] < MIN_TAKEN or row["ws"] is None:
            continue
        d = max(0.0, lo - row["ws_hi"], row["ws_lo"] - hi)
        if d > 0:
            outside[row["entity"]] = d
    return sum(outside.values()), dict(sorted(outside.items()))


def starts(
    sites: Sequence[Site], ws_of: Mapping[str, float], outside: Mapping[str, float], cap: int
) -> list[dict[str, int]]:
    """The first trials (at most ``cap``): every out-of-band entity's first site one step
    towards the band, all together; then each site one step alone, the entities farthest
    out first."""
    toward = {}
    for s in sites:
        up = ws_of[s.entity] < 1.0  # too weak: make it stronger
        sign = (1 if up else -1) * (1 if s.field.stronger == "up" else -1)
        k_lo, k_hi = s.bounds(1)
        if k_lo <= sign <= k_hi:
            toward[s.key] = sign
    zero = {s.key: 0 for s in sites}
    first: dict[str, str] = {}
    for s in sites:
        if s.key in toward:
            first.setdefault(s.entity, s.key)
    out = []
    if len(first) > 1:
        out.append({**zero, **{key: toward[key] for key in first.values()}})
    by_distance = sorted(
        (s for s in sites if s.key in toward), key=lambda s: (-outside.get(s.entity, 0.0), s.key)
    )
    out += [{**zero, s.key: toward[s.key]} for s in by_distance]
    return out[: max(cap, 1)]


def _edits(sites: Sequence[Site], params: Mapping[str, int]) -> list[Edit]:
    return [Edit(s, int(params.get(s.key, 0))) for s in sites if params.get(s.key, 0)]


def _size(edits: Sequence[Edit]) -> int:
    return sum(abs(e.steps) for e in edits)


def _describe(edits: Sequence[Edit]) -> str:
    return "; ".join(f"{e.site.entity} {e.site.where} {e.site.value}->{e.new}" for e in edits)


def _search_record(req: Request, card_file: Path) -> dict[str, Any]:
    """What makes two searches the same search (a shared study's machines must agree):
    the request without paths, budget or backend, and the card data's hash."""
    import hashlib

    return {"card_sha256": hashlib.sha256(card_file.read_bytes()).hexdigest(), **_record(req)}


def _request_record(req: Request, card_file: Path) -> dict[str, Any]:
    """The request a run directory is made with (``request.json``): ``card_file``'s path."""
    return _record(req, cards=str(card_file))


def _record(req: Request, **card_data: str) -> dict[str, Any]:
    """The search's settings in the order the records keep them, ``card_data`` after the
    seed."""
    return {
        "game": req.game,
        "variant": req.variant,
        "players": req.players,
        "policy": req.policy,
        "games": req.n_games,
        "band": list(req.band),
        "seed": req.seed,
        **card_data,
        "fields": req.fields,
        "radius": req.radius,
    }


def run_balance(req: Request, echo: Callable[[str], None] = lambda _m: None) -> Outcome:
    """Run the search of ``req`` (module docstring); everything is written under
    ``req.out``. Bad input is a ``RunError``/``GameError``/``CardDataError`` before
    anything is written."""
    game = registry.get_game(req.game)
    card_file, fields = _check_request(req, game)
    out = Path(req.out)
    study.check_out(out, req.resume, _request_record(req, card_file), "balance search")
    study.check_study(out, STUDY_NAME, req.storage, req.resume, _search_record(req, card_file))
    study.write_request(out, _request_record(req, card_file))

    echo(f"baseline: {req.n_games} games")
    base = _play(req, out, BASELINE, card_file, req.seed, req.n_games)
    base_distance, outside_by = distance(base, req.band)
    outside = list(outside_by)
    data = tomllib.loads(card_file.read_text(encoding="utf-8"))
    all_sites = card_edits.sites(data, fields, game.variant(req.variant).name)
    sites = [s for s in all_sites if s.entity in outside]
    no_site = sorted(set(outside) - {s.entity for s in sites})
    outcome = Outcome(req, card_file, outside, no_site, sites, [], not outside, False, None)
    chosen_params: dict[str, int] = {}
    if sites:
        echo(f"{len(outside)} out of band; searching {len(sites)} editable numbers")
        ws_of = dict(zip(base["entity"].to_list(), base["ws"].to_list(), strict=True))
        chosen_params = _search(outcome, out, base_distance, outside_by, ws_of)
    outcome.edits = _edits(sites, chosen_params)
    _write_proposal(outcome, out)
    _validate(outcome, out, echo)
    from reports.balance_page import write_balance_page

    outcome.files = {
        "cards": out / "cards.toml",
        "changes": out / "changes.csv",
        "page": write_balance_page(outcome, out),
    }
    return outcome


def _check_request(req: Request, game: registry.Game) -> tuple[Path, list[Field]]:
    """The card file the search edits and the fields it may edit, after checking the whole
    request (``RunError``/``GameError``/``CardDataError``; nothing is written)."""
    runner.check_int("games", req.n_games, 1)
    runner.check_int("budget", req.budget, 1)
    runner.check_int("radius", req.radius, 1, 50)
    runner.check_seed(req.seed)
    if req.validation_games is not None:
        runner.check_int("validation games", req.validation_games, 1)
    runner.setup(
        req.game,
        variant=req.variant,
        players=req.players,
        policies=req.policy,
        cards_path=req.cards_path,
        rotate_seats=True,
        policies_file=req.policies_file,
    )  # validates game, variant, players, policies and the card file
    card_file = Path(req.cards_path) if req.cards_path else card_file_of(game)
    fields = parse_fields(req.fields, card_edits.load_fields(fields_file(game)))
    _check_bounds(req, fields, card_file)
    return card_file, fields


def _play(req: Request, out: Path, name: str, cards: Path, seed: int, n: int) -> Any:
    """``reports.strength.card_shares`` of run ``OUT/runs/<name>``: ``n`` games of
    ``cards`` with ``seed``, seats rotated. The baseline and the original's validation
    depend on the request only (checked by ``--resume``), so a finished one is kept; a
    trial and the proposal's validation depend on the card file of the moment."""
    from reports.strength import card_shares

    target = out / "runs" / name
    if not runner.is_complete(target) or name in (TRIAL, AFTER):
        runner.simulate(
            req.game,
            variant=req.variant,
            players=req.players,
            policies=req.policy,
            seed=seed,
            n_games=n,
            out=target,
            cards_path=cards,
            rotate_seats=True,
            policies_file=req.policies_file,
            overwrite=True,
            options=req.options.quiet(),
        )
    return card_shares(target)


def _search(
    outcome: Outcome,
    out: Path,
    base_distance: float,
    outside_by: Mapping[str, float],
    ws_of: Mapping[str, float],
) -> dict[str, int]:
    """Run the study's trials over ``outcome.sites`` (module docstring, 3 and 4), record
    the history, the proposal's trial and whether it meets the band in ``outcome``, and
    return the proposal's parameters."""
    req, sites, card_file = outcome.request, outcome.sites, outcome.card_file
    optuna_study = study.open_study(
        out, STUDY_NAME, 2, req.seed, req.storage, req.resume, _search_record(req, card_file)
    )
    study.enqueue_once(optuna_study, starts(sites, ws_of, outside_by, req.budget // 2))
    params = [study.Param(s.key, *s.bounds(req.radius)) for s in sites]
    trial_cards = out / "runs" / "trial-cards.toml"

    def evaluate(p: Mapping[str, int]) -> tuple[list[float], dict[str, Any]]:
        edits = _edits(sites, p)
        if not edits:
            d, off = base_distance, outside_by
        else:
            trial_cards.parent.mkdir(parents=True, exist_ok=True)
            trial_cards.write_text(card_edits.edited_text(card_file, edits))
            shares = _play(req, out, TRIAL, trial_cards, req.seed, req.n_games)
            d, off = distance(shares, req.band)
        worst = sorted(off, key=lambda e: -off[e])[:5]
        attrs = {"out_of_band": len(off), "worst": ",".join(worst), "edits": _describe(edits)}
        return [d, float(_size(edits))], attrs

    def describe(trials: list[Any]) -> str:
        best = min(trials, key=lambda t: tuple(t.values))
        return f"best: distance {best.values[0]:.3f}, size {best.values[1]:.0f}"

    trials = study.run_trials(
        optuna_study, params, evaluate, req.budget, progress=req.options.progress, describe=describe
    )
    shutil.rmtree(out / "runs" / TRIAL, ignore_errors=True)
    trial_cards.unlink(missing_ok=True)
    outcome.history = [
        {
            "trial": t.number,
            "distance": t.values[0],
            "size": t.values[1],
            "out_of_band": t.user_attrs.get("out_of_band"),
            "edits": t.user_attrs.get("edits", ""),
        }
        for t in trials
    ]
    meeting = [t for t in trials if t.values[0] == 0.0]

    def rank(t: Any) -> tuple:
        n_sites = sum(1 for v in t.params.values() if v)
        if meeting:
            return (t.values[1], n_sites, t.number)
        return (t.values[0], t.values[1], n_sites, t.number)

    best = min(meeting or trials, key=rank)
    outcome.trial = best.number
    outcome.meets_band = bool(meeting)
    return {k: int(v) for k, v in best.params.items()}


def _validate(outcome: Outcome, out: Path, echo: Callable[[str], None]) -> None:
    """Play the original and the proposal on fresh seeds (module docstring, 5): each
    entity's share before and after with its interval and whether it is in band, in
    ``outcome``; their ``talesim compare`` in ``OUT/validation``."""
    import polars as pl

    req = outcome.request
    n_val = req.validation_games or req.n_games
    echo(f"validation: {n_val} fresh games, before and after")
    before = _play(req, out, BEFORE, outcome.card_file, req.seed + 1, n_val)
    after = (
        _play(req, out, AFTER, out / "cards.toml", req.seed + 1, n_val) if outcome.edits else before
    )
    after = after.rename(
        {c: f"{c}_after" for c in ("n", "ws")} | {"ws_lo": "ws_after_lo", "ws_hi": "ws_after_hi"}
    )
    joined = before.join(after, on=["entity", "kind"], how="full", coalesce=True)
    lo, hi = req.band

    def in_band(n: str, ws: str) -> pl.Expr:
        clear = (pl.col(f"{ws}_hi") < lo) | (pl.col(f"{ws}_lo") > hi)
        return pl.when(pl.col(n) >= MIN_TAKEN).then(~clear).otherwise(None)

    joined = joined.select(
        "entity", "kind", "n", "ws", "ws_lo", "ws_hi", in_band("n", "ws").alias("in_band"),
        "n_after", "ws_after", "ws_after_lo", "ws_after_hi",
        in_band("n_after", "ws_after").alias("in_band_after"),
    ).sort("ws", "entity", descending=[True, False], nulls_last=True)  # fmt: skip
    outcome.before_after = joined
    outcome.validated_in_band = bool(joined["in_band_after"].fill_null(True).all())
    from reports.compare import build_compare

    if outcome.edits:
        build_compare(out / "runs" / BEFORE, out / "runs" / AFTER, out / "validation")


def _check_bounds(req: Request, fields: Sequence[Field], card_file: Path) -> None:
    """Every field's bounds are values the card loader accepts: the card file with all of
    a field's sites at its ``min``, then at its ``max``, must load (``RunError`` naming the
    field otherwise)."""
    import tempfile

    from simcore.cards import CardDataError

    game = registry.get_game(req.game)
    engine = registry.engine(game)
    data = tomllib.loads(card_file.read_text(encoding="utf-8"))
    for f in fields:
        field_sites = card_edits.sites(data, [f], game.variant(req.variant).name)
        if not field_sites:
            continue
        for bound in (f.min, f.max):
            edits = [
                Edit(s, (bound - s.value) // f.step)
                for s in field_sites
                if (bound - s.value) % f.step == 0
            ]
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / card_file.name
                path.write_text(card_edits.edited_text(card_file, edits))
                try:
                    engine.load_cards(path)
                except CardDataError as exc:
                    raise RunError(
                        f"field '{f.name}': the bound {bound} is outside what the card loader "
                        f"accepts ({exc})"
                    ) from None


def _write_proposal(outcome: Outcome, out: Path) -> None:
    """``OUT/cards.toml``: the card file with the edits, headed by what changed (the page
    writes changes.csv with the other tables)."""
    req = outcome.request
    if outcome.edits:
        status = "meets" if outcome.meets_band else "does NOT meet"
        header = (
            f"talesim balance proposal: {len(outcome.edits)} edit(s) to {outcome.card_file.name}; "
            f"on the search seeds it {status} the band {req.band[0]}:{req.band[1]}\n"
            + "\n".join(
                f"  {e.site.entity} {e.site.where}: {e.site.value} -> {e.new}"
                for e in outcome.edits
            )
            + "\nValidation on fresh seeds: index.html and cards-before-after.csv beside this file."
        )
    else:
        header = "talesim balance: no edit proposed (this is the original card file)"
    (out / "cards.toml").write_text(
        card_edits.edited_text(outcome.card_file, outcome.edits, header)
    )
