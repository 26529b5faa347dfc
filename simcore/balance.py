"""``talesim balance``: the smallest edit of the card data that brings every card's win share
into a band at every strength level, found by simulation and re-validated on fresh seeds.

0. **Levels.** ``--levels P1,P2,...`` (weakest first; each a policy spec or a policies
   file's name, ``@N`` its own game count) are self-play tables of that policy;
   ``--policy`` instead gives one level whose seats may mix policies. Each level's runs go
   to ``OUT/runs/level-K/``.
1. **Baseline.** At every level the card file as given plays that level's games (seats
   rotated, seed ``S``). Each *entity* gets its win share when taken **within each policy
   of the level**, relative to the policy's own (``reports.strength.card_shares``: the
   seats of that policy that took a copy, mean ``win`` × players, with its 95% Wilson
   interval, divided by the policy's share over all its seats; 1 in self-play), so a
   card is never judged pooled over policies of different strength, nor by the gap
   between them (DRAKO: each kingdom kind placed, and each Legend claimed). An entity is
   *out of band* at a (level, policy) when its interval lies wholly outside ``[LO, HI]``;
   entities taken fewer than ``MIN_TAKEN`` times there are not judged there. An entity
   out of band at some level or policy is one the search may edit. The policies' own win
   shares are reported, never a target.
2. **What may change.** The game's ``balance.toml`` declares the editable fields of its
   card data (``simcore.card_edits``); ``--fields`` narrows them and may narrow a field's
   bounds. The search moves only the sites of entities out of band, each by at most
   ``min(radius, max_steps_per_card)`` steps. **Guard rails**: a number keeps its sign
   unless its field is declared ``signed``; a card keeps at least one non-zero ``ability``
   number if it had one; a card moves at most ``max_steps_per_card`` steps over all its
   fields. A candidate beyond a guard rail is brought inside it before it is played
   (``within_rails``: a card's largest edits cut back, a blanking edit undone); its trial
   says which rail it crossed (``repaired``).
3. **Two objectives, minimised** (Optuna, multi-objective TPE, ``simcore.study``):
   ``distance`` and ``size`` = Σ |steps| over the edited sites. A candidate plays the
   first level on that level's baseline seeds (paired); one that meets the band there
   (every judged entity's interval meets it, at every policy) is promoted to the next
   level on its baseline seeds, and so on. ``distance`` = the number of levels it did not
   reach + ``d / (1 + d)``, where ``d`` (the history's ``gap``) = Σ over entities and
   policies of how far the interval lies outside the band (``LO - ws_hi`` or ``ws_lo -
   HI``) at the first level it failed: 0 exactly when it meets the band at every level,
   and a candidate that reached a level always ranks before one that did not. The first
   trials (at most half the budget) are starting points: every out-of-band entity's first
   site one step towards the band, all together, then each site one step alone, the
   entities farthest out first.
   **Adaptive sampling** (``--sampling adaptive``, the default): at each level a candidate
   plays in rounds, each extending the last on the same seeds: an eighth of the level's
   games, a quarter, a half, all. After each round its shares are judged on the games so
   far; a candidate already out of band on 99.9% intervals (``study.EARLY_WIDEN``: several
   looks at one candidate must not stop a good one more often than one look would judge
   it out) stops there, ranked by the distance of the games it played (on its 95%
   intervals). Only a candidate in band at every
   round plays every game and is promoted. ``--sampling fixed`` plays every game of every
   candidate. The history's ``games`` column counts what each trial played.
4. **The proposal** is, among the trials with ``distance`` 0, the one with the smallest
   ``size`` (then fewer sites, then the earliest), made **minimal**: each changed number
   moved one step back and re-checked on the same seeds (a trial of the study), a step
   that still meets the band at every level dropped, until none can be. When no trial
   meets the band, it is the smallest edit among the trials that met as many levels as
   the best one and whose ``gap`` is within ``--tolerance`` of its, and the result says
   so. ``OUT/tradeoff.csv`` is the trade-off front: every played trial no other beats on
   both distance and size, each written as a card file ``OUT/tradeoff/trial-N.toml``
   that ``--cards`` loads.
5. **Validation.** At every level the original and the proposal play that level's
   validation games on fresh seeds (seed ``S + 1``) into
   ``OUT/runs/level-K/validation-{before,after}``; ``OUT/validation/level-K/`` is their
   ``talesim compare``; ``OUT/cards-before-after.csv`` gives every (entity, level, policy)
   share in both with 95% intervals, whether it is in band (its interval meets the band)
   and whether the proposal pushed it out; ``OUT/verdicts.csv`` says per entity, before
   and after: in band at every level, **skill-dependent** (out at some levels only, named)
   or out at every level that judged it.

Files: ``OUT/cards.toml`` (the proposal: the card file with the changed numbers, each
changed entity commented, its rules text rewritten with the new numbers where that is
unambiguous or marked STALE), ``OUT/changes.csv`` (``card, field, old, new, where,
text``), ``OUT/policies.csv`` (each level's policy win shares before and after),
``OUT/history.csv`` (every trial), ``OUT/tradeoff.csv`` and ``OUT/tradeoff/``,
``OUT/study.db`` (the study; ``--resume`` continues it), ``OUT/index.html``.
"""

from __future__ import annotations

import math
import shutil
import tomllib
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from talesim.reports.strength import MIN_TAKEN  # cards taken fewer times are not judged
from talesim.simcore import card_edits, registry, runner, study
from talesim.simcore.batch import RunError, StudySettings
from talesim.simcore.card_edits import Edit, Field, Site
from talesim.simcore.names import did_you_mean

#: Steps a site may move either way.
DEFAULT_RADIUS = 3
#: Steps a card may move over all its fields.
DEFAULT_MAX_STEPS_PER_CARD = 2
#: A proposal that does not meet the band: the smallest edit within this much band
#: distance of the best trial's (with as many levels met).
DEFAULT_TOLERANCE = 0.01
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


def parse_fields(
    text: str | None, declared: Sequence[Field], source: Path | str = card_edits.FIELDS_FILE
) -> list[Field]:
    """``--fields F1,F2[:MIN:MAX],...``: the declared fields named (all when ``text`` is
    None), a ``:MIN:MAX`` narrowing one's bounds (within the ones ``source`` declares)."""
    by_name = {f.name: f for f in declared}
    if text is None:
        return list(declared)
    out = []
    for item in (x.strip() for x in text.split(",")):
        name, *bounds = item.split(":")
        if name not in by_name:
            known = ", ".join(by_name) or "none"
            hint = did_you_mean(name, by_name)
            raise RunError(f"unknown field '{name}' (editable fields: {known}){hint}")
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
                    f"field '{name}': bounds {lo}:{hi} outside the bounds balance.toml "
                    f"declares ({f.min}:{f.max} in {source})"
                )
            f = replace(f, min=lo, max=hi)
        out.append(f)
    return out


@dataclass(frozen=True)
class Level:
    """One strength level: its number (1 = the weakest, where the search runs), the seats'
    policies as ``runner`` takes them, and the games of its search and validation runs."""

    number: int
    seats: str
    games: int
    validation_games: int

    @property
    def name(self) -> str:
        return f"level-{self.number}"


@dataclass(frozen=True, kw_only=True)
class Request(StudySettings):
    """A balance search: the levels (``levels``: each a self-play policy, or ``policy``:
    one level whose seats may mix policies), the band to reach, the trials and the edits
    allowed. ``level_games``: a level's own game count by its spec (``SPEC@N``)."""

    band: tuple[float, float]
    policy: str | None = None
    levels: tuple[str, ...] = ()
    level_games: Mapping[str, int] = field(default_factory=dict)
    policies_file: Path | None = None
    fields: str | None = None
    radius: int = DEFAULT_RADIUS
    max_steps_per_card: int = DEFAULT_MAX_STEPS_PER_CARD
    sampling: str = "adaptive"
    tolerance: float = DEFAULT_TOLERANCE

    def level_list(self) -> list[Level]:
        """The levels, weakest first, with their game counts."""
        seats = list(self.levels) if self.levels else [str(self.policy)]
        validation = self.validation_games or self.n_games
        return [
            Level(k + 1, s, self.level_games.get(s, self.n_games),
                  self.level_games.get(s, validation))
            for k, s in enumerate(seats)
        ]  # fmt: skip


@dataclass
class Outcome:
    """What ``run_balance`` found (the page and the CLI read it)."""

    request: Request
    card_file: Path
    levels: list[Level]
    out_of_band: list[str]  # entities out of band in the baseline, at some level or policy
    no_site: list[str]  # of those, the ones with no editable field
    sites: list[Site]
    edits: list[Edit]
    meets_band: bool  # on the search seeds, at every level
    validated_in_band: bool  # on the validation seeds, at every level
    trial: int | None  # the proposal's trial number (None: no search ran)
    history: list[dict[str, Any]] = field(default_factory=list)
    before_after: Any = None  # polars DataFrame: entity x level x policy
    verdicts: Any = None  # polars DataFrame: entity, before, after
    policy_shares: Any = None  # polars DataFrame: level, policy, ws before and after
    front: list[Any] = field(default_factory=list)  # the trade-off front (optuna trials)
    tradeoff: Any = None  # polars DataFrame: the front as tradeoff.csv shows it
    pushed_out: list[str] = field(default_factory=list)  # in band before, out after
    stale_text: list[str] = field(default_factory=list)  # rules text not rewritten
    files: dict[str, Path] = field(default_factory=dict)
    findings: tuple[str, ...] = ()  # what the page opens with (the CLI prints them too)


def fields_file(game: registry.Game) -> Path:
    return game.data_dir() / card_edits.FIELDS_FILE


def card_file_of(game: registry.Game) -> Path:
    """The game's built-in card file: the one its ``balance.toml`` names (``card_file``)."""
    path = fields_file(game)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return game.data_dir() / str(data["card_file"])


def distance(
    df: Any, band: tuple[float, float], early: bool = False
) -> tuple[float, dict[str, float]]:
    """How far the judged rows (``n >= MIN_TAKEN``: an entity within one policy) lie
    outside ``band``: a row is out of band when its 95% interval (``early``: an early
    round's wider one, ``study.widened``) lies wholly outside it, by ``LO - ws_hi`` (too
    weak) or ``ws_lo - HI`` (too strong). Returns the sum and each outside entity's
    largest distance."""
    lo, hi = band
    outside: dict[str, float] = {}
    total = 0.0
    for row in df.iter_rows(named=True):
        if row["n"] < MIN_TAKEN or row["ws"] is None:
            continue
        ws_lo, ws_hi = row["ws_lo"], row["ws_hi"]
        if early:
            ws_lo, ws_hi = study.widened(ws_lo, row["ws"], ws_hi)
        d = max(0.0, lo - ws_hi, ws_lo - hi)
        if d > 0:
            total += d
            outside[row["entity"]] = max(d, outside.get(row["entity"], 0.0))
    return total, dict(sorted(outside.items()))


def objective(levels_short: int, d: float) -> float:
    """A candidate's ``distance`` objective (module docstring, 3)."""
    return levels_short + d / (1.0 + d)


def starts(
    sites: Sequence[Site], ws_of: Mapping[str, float], outside: Mapping[str, float], cap: int
) -> list[dict[str, int]]:
    """The first trials (at most ``cap``): every out-of-band entity's first site one step
    towards the band, all together; then each site one step alone, the entities farthest
    out first. ``ws_of``: an entity's share where it is farthest out."""
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


def guard_rail(edits: Sequence[Edit], sites: Sequence[Site], max_steps: int) -> str:
    """The guard rail (module docstring, 2) ``edits`` break, named, or "" when none: more
    than ``max_steps`` steps on one card, or every non-zero ``ability`` number of a card
    set to zero (``sites``: every editable site of the cards concerned). Signs are kept by
    the sites' bounds."""
    steps: dict[str, int] = defaultdict(int)
    new = {e.site.key: e.new for e in edits}
    for e in edits:
        steps[e.site.entity] += abs(e.steps)
    over = sorted(c for c, n in steps.items() if n > max_steps)
    if over:
        return f"more than {max_steps} steps on {', '.join(over)}"
    abilities: dict[str, list[Site]] = defaultdict(list)
    for s in sites:
        if s.field.ability:
            abilities[s.entity].append(s)
    blank = sorted(
        card for card, own in abilities.items()
        if card in steps and any(s.value for s in own) and not any(new.get(s.key, s.value)
                                                                    for s in own)
    )  # fmt: skip
    return f"no ability number left on {', '.join(blank)}" if blank else ""


def within_rails(edits: Sequence[Edit], sites: Sequence[Site], max_steps: int) -> list[Edit]:
    """``edits`` brought inside the guard rails (``guard_rail``): on a card with more than
    ``max_steps`` steps, the largest edit is cut back a step at a time (the last in site
    order on a tie) until the card has ``max_steps``; on a card whose every non-zero
    ``ability`` number would be zero, the smallest of those edits is undone."""
    steps = {e.site.key: e.steps for e in edits}
    by_card: dict[str, list[Site]] = defaultdict(list)
    for s in sites:
        by_card[s.entity].append(s)
    for own in by_card.values():
        while sum(abs(steps.get(s.key, 0)) for s in own) > max_steps:
            big = max(reversed(own), key=lambda s: abs(steps.get(s.key, 0)))
            steps[big.key] -= 1 if steps[big.key] > 0 else -1
        ability = [s for s in own if s.field.ability]
        had = [s for s in ability if s.value]  # the card's non-zero ability numbers
        if had and not any(s.value + steps.get(s.key, 0) * s.field.step for s in ability):
            steps[min(had, key=lambda s: (abs(steps.get(s.key, 0)), s.key)).key] = 0
    return _edits(sites, steps)


def _edits(sites: Sequence[Site], params: Mapping[str, int]) -> list[Edit]:
    return [Edit(s, int(params.get(s.key, 0))) for s in sites if params.get(s.key, 0)]


def _size(edits: Sequence[Edit]) -> int:
    return sum(abs(e.steps) for e in edits)


def describe(edits: Sequence[Edit]) -> str:
    """``card field old->new; ...``: the edits by the names ``--fields`` takes."""
    return "; ".join(f"{e.site.entity} {e.site.label} {e.site.value}->{e.new}" for e in edits)


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
        "levels": [[lv.seats, lv.games, lv.validation_games] for lv in req.level_list()],
        "band": list(req.band),
        "seed": req.seed,
        **card_data,
        "fields": req.fields,
        "radius": req.radius,
        "max_steps_per_card": req.max_steps_per_card,
        "sampling": req.sampling,
        "tolerance": req.tolerance,
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

    levels = req.level_list()
    bases = []
    for lv in levels:
        echo(f"baseline, {lv.name} ({lv.seats}): {lv.games} games")
        bases.append(_play(req, out, lv, BASELINE, card_file, req.seed, lv.games))
    outside_by: dict[str, float] = {}
    ws_of: dict[str, float] = {}
    for shares in bases:
        for entity, d in distance(shares, req.band)[1].items():
            if d > outside_by.get(entity, 0.0):
                outside_by[entity] = d
                ws_of[entity] = _farthest_ws(shares, entity, req.band)
    outside = sorted(outside_by)
    data = tomllib.loads(card_file.read_text(encoding="utf-8"))
    all_sites = card_edits.sites(data, fields, game.variant(req.variant).name)
    sites = [s for s in all_sites if s.entity in outside]
    no_site = sorted(set(outside) - {s.entity for s in sites})
    outcome = Outcome(req, card_file, levels, outside, no_site, sites, [], not outside, False, None)
    chosen_params: dict[str, int] = {}
    if sites:
        echo(f"{len(outside)} out of band; searching {len(sites)} editable numbers")
        chosen_params = _search(outcome, out, bases, ws_of, dict(sorted(outside_by.items())))
    outcome.edits = _edits(sites, chosen_params)
    _write_proposal(outcome, out)
    _write_tradeoff(outcome, out)
    _validate(outcome, out, echo)
    from talesim.reports.balance_page import write_balance_page

    page = write_balance_page(outcome, out)
    outcome.files = {
        "cards": out / "cards.toml",
        "changes": out / "changes.csv",
        "page": page.index,
    }
    outcome.findings = page.findings
    return outcome


def _farthest_ws(shares: Any, entity: str, band: tuple[float, float]) -> float:
    """``entity``'s win share in the policy where it lies farthest outside ``band``."""
    lo, hi = band
    rows = [
        r for r in shares.iter_rows(named=True) if r["entity"] == entity and r["n"] >= MIN_TAKEN
    ]
    return max(rows, key=lambda r: max(lo - r["ws_hi"], r["ws_lo"] - hi))["ws"]


def _check_request(req: Request, game: registry.Game) -> tuple[Path, list[Field]]:
    """The card file the search edits and the fields it may edit, after checking the whole
    request (``RunError``/``GameError``/``CardDataError``; nothing is written)."""
    runner.check_int("games", req.n_games, 1)
    runner.check_int("budget", req.budget, 1)
    runner.check_int("radius", req.radius, 1, 50)
    runner.check_int("max steps per card", req.max_steps_per_card, 1, 50)
    runner.check_seed(req.seed)
    if req.validation_games is not None:
        runner.check_int("validation games", req.validation_games, 1)
    study.check_sampling(req.sampling)
    if not (math.isfinite(req.tolerance) and req.tolerance >= 0):
        raise RunError(f"tolerance must be a number >= 0, got {req.tolerance:g}")
    if (req.policy is None) == (not req.levels):
        raise RunError("give the seats as --policy (one level) or --levels (several), not both")
    unknown = sorted(set(req.level_games) - set(req.levels))
    if unknown:
        raise RunError(f"a game count for a level not in --levels: {', '.join(unknown)}")
    for lv in req.level_list():
        runner.check_int(f"games of {lv.seats}", lv.games, 1)
        runner.setup(
            req.game,
            variant=req.variant,
            players=req.players,
            policies=lv.seats,
            cards_path=req.cards_path,
            rotate_seats=True,
            policies_file=req.policies_file,
        )  # validates game, variant, players, policies and the card file
    card_file = Path(req.cards_path) if req.cards_path else card_file_of(game)
    fields = parse_fields(req.fields, card_edits.load_fields(fields_file(game)), fields_file(game))
    _check_bounds(req, fields, card_file)
    return card_file, fields


def _play(req: Request, out: Path, level: Level, name: str, cards: Path, seed: int, n: int) -> Any:
    """``reports.strength.card_shares`` by policy of run ``OUT/runs/level-K/<name>``: ``n``
    games of ``cards`` at ``level`` with ``seed``, seats rotated. The baseline and the
    original's validation depend on the request only (checked by ``--resume``), so a
    finished one is kept; a trial and the proposal's validation depend on the card file
    of the moment."""
    from talesim.reports.strength import card_shares

    target = out / "runs" / level.name / name
    if not runner.is_complete(target) or name in (TRIAL, AFTER):
        _simulate(req, level, target, cards, seed, n)
    return card_shares(target, by_policy=True)


def _simulate(
    req: Request, level: Level, target: Path, cards: Path, seed: int, n: int, **how: Any
) -> None:
    """``n`` games of ``cards`` at ``level`` into ``target`` (replaced), seats rotated;
    ``how``: ``resume``/``chunk_size`` for a candidate's rounds."""
    resume = bool(how.pop("resume", False))
    runner.simulate(
        req.game,
        variant=req.variant,
        players=req.players,
        policies=level.seats,
        seed=seed,
        n_games=n,
        out=target,
        cards_path=cards,
        rotate_seats=True,
        policies_file=req.policies_file,
        overwrite=not resume,
        resume=resume,
        options=replace(req.options.quiet(), **how),
    )


def _candidate(req: Request, out: Path, level: Level, cards: Path) -> tuple[Any, int]:
    """A candidate card file at ``level`` on the baseline's seeds: its card shares by
    policy and the games it played. Adaptive sampling (module docstring, 3) plays it in
    ``study.rounds`` (each extending the last: the same games as one run) and stops at the first
    round where it is out of band; fixed sampling plays every game."""
    from talesim.reports.strength import card_shares

    target = out / "runs" / level.name / TRIAL
    if req.sampling == "fixed":
        _simulate(req, level, target, cards, req.seed, level.games)
        return card_shares(target, by_policy=True), level.games
    chunk = study.round_chunk(level.games)
    for k, games in enumerate(study.rounds(level.games)):
        _simulate(req, level, target, cards, req.seed, games, resume=k > 0, chunk_size=chunk)
        shares = card_shares(target, by_policy=True)
        if games < level.games and distance(shares, req.band, early=True)[0] > 0:
            break
    return shares, games


def _search(
    outcome: Outcome,
    out: Path,
    bases: Sequence[Any],
    ws_of: Mapping[str, float],
    outside_by: Mapping[str, float],
) -> dict[str, int]:
    """Run the study's trials over ``outcome.sites`` (module docstring, 3 and 4), then the
    minimal-edit pass; record the history, the trade-off front, the proposal's trial and
    whether it meets the band in ``outcome``, and return the proposal's parameters."""
    req, sites, card_file = outcome.request, outcome.sites, outcome.card_file
    optuna_study = study.open_study(
        out, STUDY_NAME, 2, req.seed, req.storage, req.resume, _search_record(req, card_file)
    )
    study.enqueue_once(optuna_study, starts(sites, ws_of, outside_by, req.budget // 2))
    reach = min(req.radius, req.max_steps_per_card)
    params = [study.Param(s.key, *s.bounds(reach)) for s in sites]
    evaluate = _evaluator(outcome, out, bases)

    def describe_best(trials: list[Any]) -> str:
        best = min(trials, key=lambda t: tuple(t.values))
        return f"best: distance {best.values[0]:.3f}, size {best.values[1]:.0f}"

    trials = study.run_trials(
        optuna_study, params, evaluate, req.budget, progress=req.options.progress,
        describe=describe_best,
    )  # fmt: skip
    best = proposal(trials, req.tolerance)
    if best is not None and best.values[0] == 0.0:
        trials, best = _minimal(optuna_study, params, evaluate, trials, best)
    for lv in outcome.levels:
        shutil.rmtree(out / "runs" / lv.name / TRIAL, ignore_errors=True)
    (out / "runs" / "trial-cards.toml").unlink(missing_ok=True)
    outcome.history = [_history_row(t) for t in trials]
    outcome.front = front(trials)
    outcome.trial = best.number if best is not None else None
    outcome.meets_band = best is not None and best.values[0] == 0.0
    return applied(best) if best is not None else {}


def _evaluator(outcome: Outcome, out: Path, bases: Sequence[Any]) -> study.Evaluate:
    """A trial's evaluation (module docstring, 2 and 3): its parameters -> (distance,
    size), with what the history shows (edits, levels met, the band distance at the level
    it stopped, the games it played, the guard rail it broke)."""
    req, sites, levels = outcome.request, outcome.sites, outcome.levels
    trial_cards = out / "runs" / "trial-cards.toml"

    def evaluate(p: Mapping[str, int]) -> tuple[list[float], dict[str, Any]]:
        asked = _edits(sites, p)
        edits = within_rails(asked, sites, req.max_steps_per_card)
        attrs: dict[str, Any] = {
            "edits": describe(edits),
            "games": 0,
            "applied": {e.site.key: e.steps for e in edits},
            "repaired": guard_rail(asked, sites, req.max_steps_per_card),
        }
        if edits:
            trial_cards.parent.mkdir(parents=True, exist_ok=True)
            trial_cards.write_text(card_edits.edited_text(outcome.card_file, edits)[0])
        reached, d, games = 0, 0.0, 0
        off: dict[str, float] = {}
        for lv, base in zip(levels, bases, strict=True):
            shares, played = _candidate(req, out, lv, trial_cards) if edits else (base, 0)
            games += played
            d, off = distance(shares, req.band)
            if d > 0:
                break
            reached += 1
        worst = sorted(off, key=lambda e: -off[e])[:5]
        attrs |= {"levels_met": reached, "gap": d, "games": games,
                  "out_of_band": len(off), "worst": ",".join(worst)}  # fmt: skip
        return [objective(len(levels) - reached, d), float(_size(edits))], attrs

    return evaluate


def applied(t: Any) -> dict[str, int]:
    """The steps trial ``t`` played: its parameters inside the guard rails
    (``within_rails``), the sites it does not move left out."""
    steps = t.user_attrs.get("applied")
    if steps is None:  # a trial of a search without guard rails (no other kind is stored)
        steps = {k: int(v) for k, v in t.params.items() if v}
    return {k: int(v) for k, v in steps.items()}


def proposal(trials: Sequence[Any], tolerance: float) -> Any:
    """The proposal among ``trials`` (module docstring, 4): the smallest edit meeting the
    band at every level (then fewer sites, then the earliest); when none does, the
    smallest edit among the trials with as many levels met as the best and a band
    distance within ``tolerance`` of its. None when no trial was played."""
    played = list(trials)
    if not played:
        return None

    def n_sites(t: Any) -> int:
        return len(applied(t))

    meeting = [t for t in played if t.values[0] == 0.0]
    if meeting:
        return min(meeting, key=lambda t: (t.values[1], n_sites(t), t.number))
    best = min(played, key=lambda t: (t.values[0], t.values[1], n_sites(t), t.number))
    met, gap = best.user_attrs.get("levels_met"), best.user_attrs.get("gap", 0.0)
    near = [
        t for t in played
        if t.user_attrs.get("levels_met") == met and t.user_attrs.get("gap", 0.0) <= gap + tolerance
    ]  # fmt: skip
    return min(near, key=lambda t: (t.values[1], t.values[0], n_sites(t), t.number))


def _minimal(
    optuna_study: Any, params: Sequence[study.Param], evaluate: study.Evaluate,
    trials: list[Any], best: Any,
) -> tuple[list[Any], Any]:  # fmt: skip
    """The minimal-edit pass (module docstring, 4): each changed number of ``best`` moved
    one step back towards its value and re-checked on the same seeds (a trial of the
    study, so a resumed search redoes nothing); a step that still meets the band at every
    level is dropped, until no step can be. Returns the trials and the proposal."""
    improved = True
    while improved:
        improved = False
        for key, steps in sorted(applied(best).items()):
            smaller = {**applied(best), key: steps - (1 if steps > 0 else -1)}
            smaller = {k: v for k, v in smaller.items() if v}
            candidate = next((t for t in trials if applied(t) == smaller), None)
            if candidate is None:
                point = {p.name: smaller.get(p.name, 0) for p in params}
                optuna_study.enqueue_trial(point, skip_if_exists=True)
                trials = study.run_trials(optuna_study, params, evaluate, len(trials) + 1)
                candidate = next(t for t in reversed(trials) if applied(t) == smaller)
            if candidate.values[0] == 0.0:
                best, improved = candidate, True
                break
    return trials, best


def front(trials: Sequence[Any]) -> list[Any]:
    """The trials no other beats on both objectives (distance, size), by size: the
    trade-off between edit size and band distance, one trial per point."""
    played = sorted(trials, key=lambda t: (t.values[1], t.values[0], t.number))
    out: list[Any] = []
    for t in played:
        if not out or t.values[0] < out[-1].values[0]:
            out.append(t)
    return out


def _history_row(t: Any) -> dict[str, Any]:
    a = t.user_attrs
    return {
        "trial": t.number,
        "distance": t.values[0],
        "size": t.values[1],
        "levels_met": a.get("levels_met"),
        "gap": a.get("gap"),
        "out_of_band": a.get("out_of_band"),
        "games": a.get("games", 0) if "same_as" not in a else 0,
        "edits": a.get("edits", ""),
        "repaired": a.get("repaired", ""),
    }


def _validate(outcome: Outcome, out: Path, echo: Callable[[str], None]) -> None:
    """Play the original and the proposal on fresh seeds at every level (module docstring,
    5): each (entity, level, policy) share before and after with its interval, whether it
    is in band and whether the proposal pushed it out; the verdicts per entity; the
    policies' win shares; each level's ``talesim compare`` in ``OUT/validation/level-K``."""
    import polars as pl

    from talesim.reports.compare import build_compare

    req = outcome.request
    tables, policies = [], []
    for lv in outcome.levels:
        echo(f"validation, {lv.name}: {lv.validation_games} fresh games, before and after")
        before = _play(req, out, lv, BEFORE, outcome.card_file, req.seed + 1, lv.validation_games)
        after = before
        if outcome.edits:
            after = _play(
                req, out, lv, AFTER, out / "cards.toml", req.seed + 1, lv.validation_games
            )
            build_compare(
                out / "runs" / lv.name / BEFORE, out / "runs" / lv.name / AFTER,
                out / "validation" / lv.name,
            )  # fmt: skip
        tables.append(_before_after(before, after, req.band).with_columns(level=pl.lit(lv.number)))
        policies.append(_policy_shares(out / "runs" / lv.name, bool(outcome.edits), lv.number))
    joined = pl.concat(tables).select(
        "entity", "kind", "level", "policy", pl.exclude("entity", "kind", "level", "policy")
    ).sort("entity", "level", "policy")  # fmt: skip
    outcome.before_after = joined
    outcome.validated_in_band = bool(joined["in_band_after"].fill_null(True).all())
    outcome.pushed_out = sorted(set(joined.filter(pl.col("pushed_out"))["entity"].to_list()))
    outcome.verdicts = verdicts(joined, [lv.seats for lv in outcome.levels])
    outcome.policy_shares = pl.concat(policies)


def _before_after(before: Any, after: Any, band: tuple[float, float]) -> Any:
    """``before`` and ``after`` (card shares by policy) side by side, with ``in_band`` for
    each (None where not judged) and ``pushed_out`` (in band before, out after)."""
    import polars as pl

    lo, hi = band
    after = after.rename(
        {c: f"{c}_after" for c in ("n", "ws")} | {"ws_lo": "ws_after_lo", "ws_hi": "ws_after_hi"}
    )
    joined = before.join(after, on=["entity", "kind", "policy"], how="full", coalesce=True)

    def in_band(n: str, ws: str) -> pl.Expr:
        clear = (pl.col(f"{ws}_hi") < lo) | (pl.col(f"{ws}_lo") > hi)
        return pl.when(pl.col(n) >= MIN_TAKEN).then(~clear).otherwise(None)

    return joined.select(
        "entity", "kind", "policy", "n", "ws", "ws_lo", "ws_hi",
        in_band("n", "ws").alias("in_band"),
        "n_after", "ws_after", "ws_after_lo", "ws_after_hi",
        in_band("n_after", "ws_after").alias("in_band_after"),
    ).with_columns(
        pushed_out=(pl.col("in_band") & ~pl.col("in_band_after")).fill_null(False)
    )  # fmt: skip


def verdicts(before_after: Any, level_names: Sequence[str]) -> Any:
    """Per entity, before and after: ``in band`` (at every level and policy that judged
    it), ``skill-dependent (out at: ...)`` (out at some levels only, named), ``out`` (at
    every level that judged it) or ``not judged``."""
    import polars as pl

    def verdict(rows: list[dict[str, Any]], col: str) -> str:
        judged = [r for r in rows if r[col] is not None]
        if not judged:
            return "not judged"
        out_at = sorted({r["level"] for r in judged if not r[col]})
        levels_judged = {r["level"] for r in judged}
        if not out_at:
            return "in band"
        if set(out_at) == levels_judged:
            return "out"
        return "skill-dependent (out at: " + ", ".join(level_names[k - 1] for k in out_at) + ")"

    rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in before_after.iter_rows(named=True):
        rows[r["entity"]].append(r)
    table = pl.DataFrame(
        {
            "entity": list(rows),
            "before": [verdict(v, "in_band") for v in rows.values()],
            "after": [verdict(v, "in_band_after") for v in rows.values()],
        },
        schema={"entity": pl.String, "before": pl.String, "after": pl.String},
    )
    settled = (pl.col("before") == "in band") & (pl.col("after") == "in band")
    return table.sort(settled, "entity")  # the cards to look at first


def _policy_shares(level_dir: Path, edited: bool, number: int) -> Any:
    """Each policy's win share at a level, before and after (validation seeds): reported,
    never a target."""
    import polars as pl

    from talesim.reports.run import open_run

    def shares(name: str) -> Any:
        run = open_run(level_dir / name)
        return (
            run.scan("seats").group_by("policy")
            .agg((pl.col("win").mean() * run.players).alias("ws"), pl.len().alias("seats"))
            .collect()
        )  # fmt: skip

    before = shares(BEFORE)
    after = shares(AFTER if edited else BEFORE).select("policy", pl.col("ws").alias("ws_after"))
    return (
        before.join(after, on="policy")
        .select(pl.lit(number).alias("level"), pl.col("policy").cast(pl.String), "seats", "ws",
                "ws_after")
        .sort("policy")
    )  # fmt: skip


def _check_bounds(req: Request, fields: Sequence[Field], card_file: Path) -> None:
    """Every field's bounds are values the card loader accepts: the card file with all of
    a field's sites at its ``min``, then at its ``max``, must load (``RunError`` naming the
    field otherwise)."""
    import tempfile

    from talesim.simcore.cards import CardDataError

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
                path.write_text(card_edits.edited_text(card_file, edits)[0])
                try:
                    engine.load_cards(path)
                except CardDataError as exc:
                    raise RunError(
                        f"field '{f.name}': the bound {bound} is outside what the card loader "
                        f"accepts ({exc})"
                    ) from None


def _write_tradeoff(outcome: Outcome, out: Path) -> None:
    """``OUT/tradeoff/trial-N.toml`` for each trial of the trade-off front (module
    docstring, 4), ``outcome.tradeoff`` the table ``OUT/tradeoff.csv`` shows."""
    import polars as pl

    shutil.rmtree(out / "tradeoff", ignore_errors=True)
    rows = []
    for t in outcome.front:
        edits = _edits(outcome.sites, applied(t))
        name = f"tradeoff/trial-{t.number}.toml"
        header = f"talesim balance: trade-off point, trial {t.number}: {describe(edits)}"
        (out / "tradeoff").mkdir(exist_ok=True)
        text, _stale = card_edits.edited_text(outcome.card_file, edits, header)
        (out / name).write_text(text)
        row = _history_row(t)
        rows.append({k: row[k] for k in ("trial", "distance", "size", "levels_met", "gap")}
                    | {"edits": row["edits"], "cards": name})  # fmt: skip
    schema = {
        "trial": pl.Int64,
        "distance": pl.Float64,
        "size": pl.Float64,
        "levels_met": pl.Int64,
        "gap": pl.Float64,
        "edits": pl.String,
        "cards": pl.String,
    }
    outcome.tradeoff = pl.DataFrame(rows, schema=schema, orient="row")  # fmt: skip


def _write_proposal(outcome: Outcome, out: Path) -> None:
    """``OUT/cards.toml``: the card file with the edits, headed by what changed (the page
    writes changes.csv with the other tables); ``outcome.stale_text``: the edited cards
    whose rules text could not follow."""
    req = outcome.request
    if outcome.edits:
        status = "meets" if outcome.meets_band else "does NOT meet"
        header = (
            f"talesim balance proposal: {len(outcome.edits)} edit(s) to {outcome.card_file.name}; "
            f"on the search seeds it {status} the band {req.band[0]}:{req.band[1]} at "
            f"{'every level' if len(outcome.levels) > 1 else 'its level'}\n"
            + "\n".join(
                f"  {e.site.entity} {e.site.label}: {e.site.value} -> {e.new}"
                for e in outcome.edits
            )
            + "\nValidation on fresh seeds: index.html and cards-before-after.csv beside this file."
        )
    else:
        header = "talesim balance: no edit proposed (this is the original card file)"
    text, outcome.stale_text = card_edits.edited_text(outcome.card_file, outcome.edits, header)
    (out / "cards.toml").write_text(text)
