"""The players (``policies.py`` holds their weights and features): ``Brain`` takes every
decision of every seat. ``random`` draws from the game's stream; the others value each
option by the features of the kingdom it leaves (a ``Sketch``, its pending on-deploy
effects projected) x their weight row and take the first best (package docstring:
"Values", "Decisions and their option order")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..policies import (
    F_AGING_LP,
    F_BUILDABLE,
    F_DEPLOY_LP,
    F_END_LP,
    F_GOLD,
    F_INCOME,
    F_KEEP,
    F_LEVEL2,
    F_MARGIN,
    F_PROD,
    F_STRENGTH,
    F_STRONG,
    F_UNITS,
    F_WAR_LP,
    LF_ARTIFACTS,
    MARGIN_CAP,
    N_FEATURES,
    N_LEGENDS_FEATURES,
    N_WEIGHTS,
    W_SAVE_STRENGTH,
    W_UNAFFORDABLE,
    Policy,
)
from ..tables import BACK_ROW, FRONT_ROW, N_RES, Ability, Tier, ability_tier
from .aging import death_rewards, dies, never_dies
from .end import end_lp
from .kingdom import Piece, assess, base_facts, gain_holds, per_value, production, when_holds
from .wars import fight, war_phase_lp

if TYPE_CHECKING:
    from .construction import Build
    from .deployment import Move
    from .game import Game


@dataclass
class Art:
    """An artifact in a sketch's zone: its index, and whether its on-deploy abilities are
    still to come (``pending``) / it entered this phase (``fresh``)."""

    x: int
    pending: bool = False
    fresh: bool = False
    done: int = -1


class Sketch:
    """A seat's kingdom as an option would leave it (policies only): pieces, building
    levels and gold; Legends: the artifact zone, and the deployment LP that projecting
    pending on-deploy gains adds (``bonus_lp``)."""

    __slots__ = ("arts", "blevel", "bonus_lp", "gold", "pieces")

    def __init__(
        self,
        pieces: list[Piece],
        blevel: list[int],
        gold: int,
        arts: list[Art] | None = None,
        bonus_lp: int = 0,
    ) -> None:
        self.pieces = pieces
        self.blevel = blevel
        self.gold = gold
        self.arts = arts if arts is not None else []
        self.bonus_lp = bonus_lp

    def copy(self) -> Sketch:
        return Sketch(
            [Piece(**vars(pc)) for pc in self.pieces],
            list(self.blevel),
            self.gold,
            [Art(**vars(a)) for a in self.arts],
            self.bonus_lp,
        )

    def xs(self) -> list[int]:
        return [a.x for a in self.arts]


class Brain:
    """The players. ``random`` draws from the game's stream; the others value each option by
    ``features`` x their weight row and take the first best."""

    def __init__(self, game: Game, weights: np.ndarray) -> None:
        assert weights.shape[1] == N_WEIGHTS
        self.game = game
        self.rules = game.rules
        self.weights = weights
        self.lweights = game.lweights  # Legends feature weights (policies.legends_weights)
        self.draft_values: dict[tuple[int, int], float] = {}  # (seat, unit) -> card_value

    def pick(self, n: int) -> int:
        """Uniform index in [0, n); forced (no draw) when n == 1."""
        return 0 if n == 1 else self.game.rng.below(n)

    def is_random(self, p: int) -> bool:
        return self.game.players[p].policy == Policy.RANDOM

    def w(self, p: int) -> np.ndarray:
        return self.weights[self.game.players[p].policy]

    def lw(self, p: int) -> np.ndarray:
        """Seat ``p``'s Legends feature weights (``policies.legends_weights`` row)."""
        return self.lweights[self.game.players[p].policy]

    # -- evaluation
    def sketch(self, p: int) -> Sketch:
        pl = self.game.players[p]
        if not self.rules.legends:
            return Sketch(pl.pieces(self.rules), list(pl.blevel), pl.gold)
        arts = [
            Art(z.x, pending=z.fresh and z.done < Tier.PENALTY, fresh=z.fresh, done=z.done)
            for z in pl.zone
        ]
        return Sketch(pl.pieces(self.rules), list(pl.blevel), pl.gold, arts)

    def project(self, sk: Sketch) -> Sketch:
        """The sketch with the predictable on-deploy effects of its pending units applied
        (spot order): ``add_age`` on self / others (per one), ``upgrade_buildings``. Chosen
        targets (Time Master, Master Alchemist) and Shapeshifter reveals are not guessed."""
        if self.rules.legends:
            return self.project_legends(sk)
        if not any(pc.pending for pc in sk.pieces):
            return sk
        out = sk.copy()
        for pc in out.pieces:
            if not pc.pending:
                continue
            for a in self.rules.units[pc.unit].abilities:
                if not a.on_deploy:
                    continue
                if a.kind == "add_age" and a.per == "one" and a.target == "self":
                    pc.age += a.amount
                elif a.kind == "add_age" and a.per == "one" and a.target == "others":
                    for other in out.pieces:
                        if other is not pc:
                            other.age += a.amount
                elif a.kind == "upgrade_buildings":
                    out.blevel = [2 if lv == 1 else lv for lv in out.blevel]
            pc.pending = False
        return out

    def project_legends(self, sk: Sketch) -> Sketch:
        """Legends ``project``: the pending units' and artifacts' on-deploy effects of the
        tiers still to come, in tier order: ``upgrade_buildings`` (tier 2), ``add_age`` on
        self / others / all (per one, tier 3), then flat on-deploy ``conditional_gain``s
        (tier 4: gold to ``gold``, LP to ``bonus_lp``). Chosen targets (Lackey, Time
        Master, Master Alchemist), Jester artifacts, Titan buildings, copies and
        Shapeshifter reveals are not guessed."""
        if not any(pc.pending for pc in sk.pieces) and not any(a.pending for a in sk.arts):
            return sk
        r = self.rules
        out = sk.copy()
        sources: list[tuple[Piece | None, tuple[Ability, ...], int]] = [
            (pc, r.units[pc.unit].abilities, pc.done) for pc in out.pieces if pc.pending
        ]
        sources += [(None, r.artifacts[a.x].abilities, a.done) for a in out.arts if a.pending]
        for tier in (Tier.LEVELS, Tier.AGE, Tier.COUNT):
            for pc, abilities, done in sources:
                for a in abilities:
                    if not a.on_deploy or ability_tier(a.kind, True) != tier or tier <= done:
                        continue
                    if a.kind == "upgrade_buildings":
                        out.blevel = [2 if lv == 1 else lv for lv in out.blevel]
                    elif a.kind == "add_age" and a.per == "one" and a.target != "one":
                        for other in out.pieces:
                            hit = {"self": other is pc, "others": other is not pc, "all": True}
                            if hit[a.target]:
                                other.age += a.amount
                    elif a.kind == "conditional_gain":
                        prod = production(r, out.pieces, out.blevel, out.xs())
                        facts = base_facts(out.pieces, out.blevel, r, out.xs())
                        if gain_holds(r, a, pc, prod, facts):
                            out.gold += a.gold
                            out.bonus_lp += a.lp
        for pc in out.pieces:
            pc.pending = False
        for art in out.arts:
            art.pending = False
        return out

    def features(self, p: int, sketch: Sketch) -> list[int]:
        """The ``F_*`` features of a sketch (see policies.py); Legends games append the
        ``LF_*`` features (``legends_features``) after them."""
        r = self.rules
        sk = self.project(sketch)
        pieces, blevel = sk.pieces, sk.blevel
        xs = sk.xs()
        a = assess(r, pieces, blevel, xs)
        theirs = self.game.seen[p]
        won, war_lp = fight(r, a.strength, theirs)
        parts, _ = war_phase_lp(r, pieces, blevel, a, won, xs)
        agings_left = r.turns - self.game.turn + 1  # features are used before this Aging
        at_end = [
            Piece(pc.spot, pc.unit, pc.age + agings_left) if never_dies(r, pc.unit) else pc
            for pc in pieces
        ]
        end = end_lp(r, at_end, blevel, a, xs)
        facts = base_facts(pieces, blevel)
        deploy_lp = 0
        for pc in pieces:
            if pc.fresh:
                for ab in r.units[pc.unit].abilities:
                    if (
                        ab.kind == "lp"
                        and ab.phase == "deployment"
                        and when_holds(ab.when, pc, a.prod)
                    ):
                        deploy_lp += ab.amount * per_value(ab.per, pc, a.prod, facts)
        dying = [pc for pc in pieces if dies(r, pc)]
        aging_lp, _ = death_rewards(r, pieces, blevel, dying, a.prod)
        left = r.turns - self.game.turn
        f = [0] * N_FEATURES
        f[F_WAR_LP] = war_lp + parts["per_war_won"] + parts["war_units"] + parts["war_buildings"]
        f[F_END_LP] = end["buildings"] + end["relic"]
        f[F_DEPLOY_LP] = deploy_lp
        f[F_AGING_LP] = aging_lp
        f[F_INCOME] = a.income
        f[F_GOLD] = sk.gold
        f[F_STRENGTH] = a.strength
        f[F_MARGIN] = sum(max(-MARGIN_CAP, min(MARGIN_CAP, a.strength - s)) for s in theirs)
        f[F_PROD] = sum(a.prod) * left
        f[F_BUILDABLE] = self.buildable(blevel, a.prod) * left
        keep = sum(r.units[pc.unit].strength for pc in pieces if not dies(r, pc))
        f[F_KEEP] = keep * left
        f[F_UNITS] = len(pieces)
        f[F_LEVEL2] = a.n_level2 * left
        f[F_STRONG] = a.n_strong
        if r.legends:
            f[F_WAR_LP] += parts["war_artifacts"]
            f[F_END_LP] += end["artifacts"]
            f[F_DEPLOY_LP] += sk.bonus_lp
            f += [0] * N_LEGENDS_FEATURES
            f[N_FEATURES + LF_ARTIFACTS] = len(xs) * left
        return f

    def buildable(self, blevel: list[int], prod: list[int]) -> int:
        """Buildings of the game's set whose next level's printed requirement is produced
        (gold ignored)."""
        n = 0
        for b in self.game.bset:
            lv = blevel[b]
            if lv < 2:
                req = self.rules.buildings[b].levels[lv].requires
                n += all(prod[r] >= req[r] for r in range(N_RES))
        return n

    def value(self, p: int, sketch: Sketch) -> float:
        f = self.features(p, sketch)
        w = self.w(p)
        v = 0.0
        for i in range(N_FEATURES):
            v += float(w[i]) * f[i]
        if self.rules.legends:
            lw = self.lw(p)
            for i in range(N_LEGENDS_FEATURES):
                v += float(lw[i]) * f[N_FEATURES + i]
        return v

    def card_value(self, p: int, card: int) -> float:
        """Draft/keep value of ``card``: the kingdom with it added (its cost paid) in the
        better of the Front (virtual spot 0) and the Back row (virtual spot 3); minus
        ``W_UNAFFORDABLE`` if it costs more than the seat's gold."""
        base = self.sketch(p)
        if self.rules.is_artifact(card):
            return self.artifact_value(p, card, base)
        unit = self.rules.unit_of[card]
        cost = self.rules.cost(card)
        best = -np.inf
        for spot in (FRONT_ROW[0], BACK_ROW[0]):
            sk = base.copy()
            sk.pieces.append(Piece(spot, unit, 0, pending=True, fresh=True))
            sk.gold -= cost
            best = max(best, self.value(p, sk))
        if cost > base.gold:
            best -= float(self.w(p)[W_UNAFFORDABLE])
        return float(best)

    def artifact_value(self, p: int, card: int, base: Sketch) -> float:
        """Legends draft/keep value of an artifact card: V(kingdom + it in the zone,
        pending, its cost paid) with the cost it would have if placed now (``Game.
        placement_cost``); minus ``W_UNAFFORDABLE`` if that cost is more than the gold."""
        cost = self.game.placement_cost(p, card)
        sk = base.copy()
        sk.arts.append(Art(self.rules.artifact_of(card), pending=True, fresh=True))
        sk.gold -= cost
        value = self.value(p, sk)
        if cost > base.gold:
            value -= float(self.w(p)[W_UNAFFORDABLE])
        return float(value)

    def decide(self, p: int, n: int, value: Callable[[int], float]) -> int:
        """Option index in [0, n): forced (no draw) when n == 1; ``random``: one uniform
        draw; otherwise the first option of highest ``value(i)``. With ``Game.trace`` on,
        every decision is logged as (phase, seat, n, chosen, best value or None)."""
        best: float | None = None
        if n == 1:
            chosen = 0
        elif self.is_random(p):
            chosen = self.pick(n)
        else:
            values = [value(i) for i in range(n)]
            best = max(values)
            chosen = values.index(best)
        if self.game.trace is not None:
            self.game.trace.append((self.game.phase, p, n, chosen, best))
        return chosen

    # -- the decisions
    def draft_value(self, p: int, card: int) -> float:
        """``card_value`` during Recruitment, where it depends only on (seat, unit): the
        kingdom and gold do not change, so it is computed once per unit and phase."""
        key = (p, self.rules.unit_of[card])
        if key not in self.draft_values:
            self.draft_values[key] = self.card_value(p, card)
        return self.draft_values[key]

    def draft_pick(self, p: int, pack: list[int]) -> int:
        i = self.game.searched("draft", p, len(pack))
        if i is not None:
            return i
        return self.decide(p, len(pack), lambda i: self.draft_value(p, pack[i]))

    def draft_discard(self, p: int, pack: list[int]) -> int:
        """2 players: the card to discard (greedy: its first lowest-valued one)."""
        return self.decide(p, len(pack), lambda i: -self.draft_value(p, pack[i]))

    def deploy_step(self, p: int, options: list[Move]) -> int:
        i = self.game.searched("deploy", p, len(options))
        if i is not None:
            return i
        return self.decide(
            p, len(options), lambda i: self.value(p, self.game.after_move(p, options[i]))
        )

    def keep(self, p: int, hand: list[int]) -> int:
        """0: keep nothing; i: keep ``hand[i - 1]``. Greedy keeps its best card (nothing is
        valued -inf: keeping is free)."""
        if not hand:
            return 0
        return self.decide(
            p, 1 + len(hand), lambda i: self.card_value(p, hand[i - 1]) if i else -np.inf
        )

    def age_target(self, p: int, spots: list[int], amount: int) -> int:
        """Index in ``spots`` of the unit receiving ``amount`` tokens."""

        def value(i: int) -> float:
            sk = self.sketch(p)
            for pc in sk.pieces:
                if pc.spot == spots[i]:
                    pc.age += amount
            return self.value(p, sk)

        return self.decide(p, len(spots), value)

    def heal(self, p: int, saveable: list[int]) -> int:
        """0: save nobody; i: save the unit on ``saveable[i - 1]``. Greedy: value of a save
        = W_SAVE_STRENGTH x (printed strength x turns left) - the LP its death would bring
        (its death LP + LP per dying token) - W_GOLD x its death gold; nobody = 0."""
        r = self.rules
        w = self.w(p)
        pl = self.game.players[p]
        pieces = pl.pieces(r)
        prod = production(r, pieces, pl.blevel, pl.arts())
        left = r.turns - self.game.turn

        def value(i: int) -> float:
            if i == 0:
                return 0.0
            pc = next(x for x in pieces if x.spot == saveable[i - 1])
            lp, gold = death_rewards(r, pieces, pl.blevel, [pc], prod)
            v = float(w[W_SAVE_STRENGTH]) * (r.units[pc.unit].strength * left)
            v -= lp
            v -= float(w[F_GOLD]) * gold
            return v

        return self.decide(p, 1 + len(saveable), value)

    def jester(self, p: int, cards: list[int], cost: int) -> int:
        """Court Jester (K1): 0 = none, i = put ``cards[i - 1]`` (an artifact in hand) into
        the zone for ``cost``. Greedy: V(now) against V(with it, pending, cost paid)."""

        def value(i: int) -> float:
            sk = self.sketch(p)
            if i:
                sk.arts.append(Art(self.rules.artifact_of(cards[i - 1]), True, True, Tier.ENTER))
                sk.gold -= cost
            return self.value(p, sk)

        return self.decide(p, 1 + len(cards), value)

    def copy_target(self, p: int, spots: list[int]) -> int:
        """Shadow / Magic Mirror (K2): 0 = none, i = repeat the on-deploy abilities of the
        unit on ``spots[i - 1]``. Greedy: V(sketch projected, then that unit's predictable
        on-deploy effects projected once more)."""

        def value(i: int) -> float:
            sk = self.project(self.sketch(p))
            if i:
                target = next(pc for pc in sk.pieces if pc.spot == spots[i - 1])
                for a in self.rules.units[target.unit].abilities:
                    if a.on_deploy:
                        sk = self.copy_enter(p, sk, a)
                target.pending, target.done = True, Tier.COPY
                sk = self.project(sk)
            return self.value(p, sk)

        return self.decide(p, 1 + len(spots), value)

    def copy_enter(self, p: int, sk: Sketch, a: Ability) -> Sketch:
        """A copied tier-1a ability in a copy option's sketch, as this policy would resolve
        it: ``build_free`` builds its best unbuilt building (first best, set order),
        ``deploy_artifact_from_hand`` adds its best artifact from the hand if that beats
        none; other kinds: unchanged."""
        pl = self.game.players[p]
        best = sk
        if a.kind == "build_free":
            top = -np.inf
            for b in self.game.bset:
                if sk.blevel[b] == 0:
                    trial = sk.copy()
                    trial.blevel[b] = a.level
                    v = self.value(p, trial)
                    if v > top:
                        top, best = v, trial
        elif a.kind == "deploy_artifact_from_hand" and a.cost <= sk.gold:
            top = self.value(p, sk)
            for card in pl.hand:
                if self.rules.is_artifact(card):
                    trial = sk.copy()
                    trial.arts.append(Art(self.rules.artifact_of(card), True, True, Tier.ENTER))
                    trial.gold -= a.cost
                    v = self.value(p, trial)
                    if v > top:
                        top, best = v, trial
        return best

    def titan(self, p: int, buildings: list[int], level: int) -> int:
        """Titan (K3): index in ``buildings`` (mandatory) of the one built free at
        ``level``. Greedy: V(sketch with it built)."""

        def value(i: int) -> float:
            sk = self.sketch(p)
            sk.blevel[buildings[i]] = level
            return self.value(p, sk)

        return self.decide(p, len(buildings), value)

    def build(self, p: int, options: list[Build]) -> int:
        """0: build nothing; i: ``options[i - 1]``."""
        chosen = self.game.searched("build", p, 1 + len(options))
        if chosen is not None:
            return chosen

        def value(i: int) -> float:
            sk = self.sketch(p)
            if i:
                o = options[i - 1]
                sk.blevel[o.b] = o.level
                sk.gold -= o.gold
            return self.value(p, sk)

        return self.decide(p, 1 + len(options), value)
