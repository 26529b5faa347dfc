"""One game (``Game``): its state, the helpers every phase uses (the draw pile and its
reshuffle, the discard pile, LP steps and the score floor, a unit leaving play), the game
loop (setup, ``turns`` x the six phases, End), the invariants checked between phases,
``play_reference`` and ``final_state`` (what the dataset records of a finished game).

The rules of each phase are functions of the game in the phase modules
(``recruitment.py``, ``deployment.py``, ``reveal.py``, ``wars.py``, ``income.py``,
``construction.py``, ``aging.py``, ``end.py``); ``Game`` binds each as the method of the
same name, so ``game.pay(p)`` is ``deployment.pay(game, p)``."""

from __future__ import annotations

from typing import Any

import numpy as np

from talesim.simcore import flat_mc

from ..policies import N_LEGENDS_FEATURES, Policy, legends_weights
from ..tables import MAX_AGE, MAX_GAME_BUILDINGS, Ability
from . import aging, construction, deployment, end, income, recruitment, reveal, search, wars
from .brain import Brain
from .end import winners
from .kingdom import Assessment, BuildingLog, Player, Slot, assess
from .rules import ABILITY_PARTS, EXTRA_SPOT, Rules

Event = dict[str, Any]


class Game(flat_mc.RulebookGame):
    """One game (``Game(rules, weights, seat_policies, seed, game_id, record, searches,
    trace=, lweights=)``, see ``flat_mc.RulebookGame``; mc seats: ``search.py``). ``run()``
    plays it; ``events`` narrates it when ``record``."""

    rules: Rules

    def init_state(self, seat_policies: list[int], **options: Any) -> None:
        """The players, the building set, the piles and the position, before setup.
        ``options``: ``trace`` (every decision in ``trace``) and ``lweights`` (the Legends
        feature weights, default ``policies.legends_weights()``)."""
        trace: bool = options.pop("trace", False)
        lweights: np.ndarray | None = options.pop("lweights", None)
        assert not options, f"unknown options {sorted(options)}"
        rules = self.rules
        assert len(seat_policies) == rules.players
        nb = len(rules.buildings)
        self.players = [
            Player(
                seat=p,
                policy=pol,
                gold=rules.o["start_gold"],
                parts=dict.fromkeys(rules.breakdown, 0),
                blevel=[0] * nb,
                buildings=[BuildingLog() for _ in range(nb)],
            )
            for p, pol in enumerate(seat_policies)
        ]
        # every player's buildings (catalog indices, construction order): base = all;
        # Legends: the base pool + the pair drawn at setup (+ Port, Abbey)
        self.bset = list(range(nb))
        self.pair = -1  # Legends: index of the building pair in Rules.pairs
        self.lweights = legends_weights() if lweights is None else lweights
        assert self.lweights.shape[1] == N_LEGENDS_FEATURES
        self.brain = Brain(self, self.weights)
        self.deck: list[int] = []  # draw pile, top = end
        self.discard: list[int] = []  # oldest first
        # who put each discard face down (the draft's 2-player discards, a hand's unkept
        # cards): only that seat knows it; -1 = face up (a unit that left play, an unpaid
        # card, a card a Shapeshifter revealed)
        self.discard_by: list[int] = []
        self.packs: list[list[int]] = [[] for _ in range(self.n)]  # draft in progress
        self.drafted: list[list[int]] = [[] for _ in range(self.n)]  # this draft's picks
        self.thrown: list[list[int]] = [[] for _ in range(self.n)]  # this draft's discards
        self.turn = 0
        self.phase = "setup"
        # where the game is (resumable: a copy taken at any decision plays on from there):
        # the phase (``PHASES`` index; len(PHASES): End; one more: over), whether the phase
        # has begun, and its draft step (Recruitment) or deployment steps taken, and seat
        self.ph = 0
        self.begun = False
        self.step = 0
        self.seat = 0
        self.reshuffles = 0
        self.seen: list[list[int]] = [[0] for _ in range(self.n)]  # neighbours' strengths
        self.pending_lp: list[tuple[int, int, Ability]] = []  # (seat, spot, ability)
        self.extra_open = [self.open_spots(p) for p in range(self.n)]  # (Front, Back) spots
        # (phase, seat, options, chosen, best value): every decision, for kernel debugging
        self.trace: list[tuple[str, int, int, int, float | None]] | None = [] if trace else None
        self.over = False

    # -- helpers
    def emit(self, event: str, **data: Any) -> None:
        """Narrate ``event`` (when ``record``) at the current turn."""
        if self.record:
            self.events.append({"event": event, "turn": self.turn, **data})

    def uid(self, card: int) -> str:
        return self.rules.card_id(card)

    def draw(self) -> int | None:
        """Top card of the draw pile; an empty pile first takes the shuffled discard pile."""
        if not self.deck and self.rules.o["reshuffle_discard"] and self.discard:
            self.deck = self.discard
            self.discard = []
            self.discard_by = []
            self.rng.shuffle(self.deck)
            self.reshuffles += 1
            self.emit("reshuffle", phase=self.phase, cards=len(self.deck))
        return self.deck.pop() if self.deck else None

    def slot(self, p: int, s: int) -> Slot:
        """The unit on seat ``p``'s spot ``s`` (which must hold one)."""
        sl = self.players[p].spots[s]
        assert sl is not None
        return sl

    def to_discard(self, card: int, by: int = -1) -> None:
        """``card`` on the discard pile: face up, or face down by seat ``by``."""
        self.discard.append(card)
        self.discard_by.append(by)

    def assessment(self, p: int) -> Assessment:
        pl = self.players[p]
        return assess(self.rules, pl.pieces(self.rules), pl.blevel, pl.arts())

    def freeze_strengths(self) -> None:
        """``seen[p]``: the neighbours' strengths now (what seat ``p``'s policy plays against
        during this phase)."""
        strength = [self.assessment(q).strength for q in range(self.n)]
        self.seen = [[strength[q] for q in self.rules.neighbours(p)] for p in range(self.n)]

    def score(self, p: int, part: str, lp: int) -> None:
        pl = self.players[p]
        pl.parts[part] += lp
        pl.step_lp += lp

    def settle(self, p: int) -> None:
        """End of a scoring step: move the marker, never below the floor
        (docs/rules/paper-tales.md §2.7)."""
        pl = self.players[p]
        new = pl.lp + pl.step_lp
        if new < self.rules.floor:
            pl.parts["floor"] += self.rules.floor - new
            new = self.rules.floor
        pl.lp = new
        pl.step_lp = 0

    def kill(self, p: int, s: int, fate: str) -> None:
        """Remove the unit on spot ``s`` to the discard pile (``fate`` in its log)."""
        pl = self.players[p]
        sl = self.slot(p, s)
        pl.spots[s] = None
        self.to_discard(sl.card)
        pl.log[sl.card].fate = fate

    # -- the rules, phase by phase: functions of the game in the phase modules, bound here
    # as methods; each phase's entry comes last (its name then hides the module's)
    # deployment.py: placement steps, keep, payment
    open_spots = deployment.open_spots
    budget = deployment.budget
    placement = deployment.placement
    moves = deployment.moves
    places_legends = deployment.places_legends
    after_move = deployment.after_move
    after_move_legends = deployment.after_move_legends
    apply_move = deployment.apply_move
    discard_old = deployment.discard_old
    keep_and_discard = deployment.keep_and_discard
    pay = deployment.pay
    art_modifier_now = deployment.art_modifier_now
    payment_order = deployment.payment_order
    placement_cost = deployment.placement_cost
    paid_total = deployment.paid_total
    pay_legends = deployment.pay_legends
    deployment_legends = deployment.deployment_legends
    # reveal.py: the deployment abilities (base reveal, Legends tiers)
    replaces = reveal.replaces
    on_deploy = reveal.on_deploy
    add_age = reveal.add_age
    upgrade_all = reveal.upgrade_all
    deployment_lp = reveal.deployment_lp
    shapeshift = reveal.shapeshift
    shapeshift_reveal = reveal.shapeshift_reveal
    every_turn = reveal.every_turn
    close_deployment = reveal.close_deployment
    tiers = reveal.tiers
    simultaneity_order = reveal.simultaneity_order
    sources = reveal.sources
    resolve_tier = reveal.resolve_tier
    run_deploy = reveal.run_deploy
    run_copy = reveal.run_copy
    find_spot = reveal.find_spot
    jester = reveal.jester
    build_free = reveal.build_free
    copy = reveal.copy
    add_age_legends = reveal.add_age_legends
    deploy_gain = reveal.deploy_gain
    shapeshift_legends = reveal.shapeshift_legends

    # search.py: the mc policy; learned.py: the learned one
    def searched(self, decision: str, p: int, n: int) -> int | None:
        """The option taken at seat ``p``'s ``decision`` of ``n`` options when decided
        already or searched (``search.searched``) or scored by a learned seat; None: the
        seat's policy decides."""
        i = search.searched(self, decision, p, n)
        model = self.models[p]
        if i is None and n > 1 and model is not None and self.players[p].policy == Policy.LEARNED:
            from .learned import learned_decide  # the compiled player's constants: when played

            return learned_decide(self, model, decision, p)
        return i

    search_decide = search.search_decide
    candidates = search.candidates
    rewind_draft = search.rewind_draft
    determinize = search.determinize
    outcome = search.outcome
    clone = search.clone
    # construction.py, aging.py
    build_options = construction.build_options
    payment = construction.payment
    death_abilities = aging.death_abilities
    # the phases (and the base reveal)
    recruitment = recruitment.recruitment
    deployment = deployment.deployment
    reveal = reveal.reveal
    wars = wars.wars
    income = income.income
    construction = construction.construction
    aging = aging.aging
    end = end.end

    def winners(self) -> list[int]:
        return winners([pl.lp for pl in self.players], [pl.gold for pl in self.players])

    # -- the whole game
    def setup(self) -> None:
        r = self.rules
        self.deck = list(range(len(r.unit_of)))
        self.rng.shuffle(self.deck)
        if r.legends:
            # LEGENDS.md §B.1 step 2: always drawn (a fixed pair ignores it), after the deck
            drawn = self.rng.below(len(r.pairs))
            self.pair = drawn if r.fixed_pair < 0 else r.fixed_pair
            self.bset = r.cards.building_set(self.pair)
            assert len(self.bset) <= MAX_GAME_BUILDINGS
        self.emit(
            "setup",
            players=self.n,
            gold=r.o["start_gold"],
            **({"buildings": [r.buildings[b].id for b in self.bset]} if r.legends else {}),
        )

    PHASES = ("recruitment", "deployment", "wars", "income", "construction", "aging")

    def run(self, check: bool = False) -> Game:
        """A new game (``setup``), then play on to the end."""
        self.setup()
        self.turn = 1
        if check:
            self.check_invariants()
        return self.play_on(check)

    def play_on(self, check: bool = False) -> Game:
        """Play from where the game is (``ph``, ``begun``, ``step``, ``seat``) to the end:
        the phases of each turn, then End. A phase entered with ``begun`` set resumes at
        its ``step`` and ``seat`` (a copy taken at a decision, ``search.py``)."""
        while self.ph <= len(self.PHASES):
            if self.ph == len(self.PHASES):
                self.end()
            else:
                getattr(self, self.PHASES[self.ph])()
            if check:
                self.check_invariants()
            self.begun, self.step, self.seat = False, 0, 0
            self.ph += 1
            if self.ph == len(self.PHASES) and self.turn < self.rules.turns:
                self.turn += 1
                self.ph = 0
        return self

    # -- invariants (tests)
    def card_places(self) -> list[int]:
        """Every card id wherever it is (draw pile, discard, packs, hands, kept, spots)."""
        out = list(self.deck) + list(self.discard)
        for p, pl in enumerate(self.players):
            out += self.packs[p] + pl.hand + ([pl.kept] if pl.kept is not None else [])
            out += [sl.card for sl in pl.spots if sl is not None]
            out += [z.card for z in pl.zone]
        return out

    def check_invariants(self) -> None:
        r = self.rules
        assert sorted(self.card_places()) == list(range(len(r.unit_of))), "card conservation"
        for p, pl in enumerate(self.players):
            assert pl.gold >= 0, f"seat {p} gold {pl.gold}"
            assert pl.lp >= r.floor
            assert pl.step_lp == 0
            assert sum(pl.parts.values()) == pl.lp, "score equals its breakdown"
            assert pl.parts["floor"] >= 0
            for s, sl in enumerate(pl.spots):
                if sl is None:
                    continue
                assert 0 <= sl.age <= MAX_AGE
                assert s in r.front_spots or s in r.back_spots or s == EXTRA_SPOT
            assert all(0 <= lv <= 2 for lv in pl.blevel)
            if pl.spots[EXTRA_SPOT] is not None:
                assert r.opens_extra_spot(pl.blevel)
            assert all(pl.blevel[b] == 0 for b in range(len(pl.blevel)) if b not in self.bset)
            for z in pl.zone:
                assert r.is_artifact(z.card)
                if self.phase != "deployment":
                    assert z.paid
                    assert not z.fresh
            for sl in pl.spots:
                assert sl is None or not r.is_artifact(sl.card)


#: Play one game with the readable rules (``flat_mc.RulebookGame.play``: ``record``: events;
#: ``check``: invariants at every phase boundary; ``searches``: each mc seat's ``Search``;
#: ``trace``, ``lweights``: ``Game.init_state``).
play_reference = Game.play


def final_state(game: Game) -> dict[str, Any]:
    """What the dataset needs from a finished game (golden files, kernel comparison).

    Per seat: ``score`` (the marker), ``breakdown`` (``BREAKDOWN`` order, sums to
    ``score``; ``floor`` = LP given back by the score floor), the summary ``war_lp`` /
    ``ability_lp`` / ``building_lp`` / ``relic_lp``, ``gold`` left, ``wars_won``, ``win``
    (1/k for k tied winners). Per card a seat received (in the order received): unit,
    turn, pick (0: Shapeshifter), deployed, turn deployed, row, turns survived, died in
    aging, fate. Per (seat, building): level, turn built, turn upgraded, how."""
    r = game.rules
    seats = []
    for pl in game.players:
        seats.append(
            {
                "policy": pl.policy,
                "score": pl.lp,
                "breakdown": [pl.parts[k] for k in r.breakdown],
                "war_lp": pl.parts["wars"] + pl.parts["war_buildings"],
                "ability_lp": sum(pl.parts[k] for k in ABILITY_PARTS),
                "building_lp": pl.parts["buildings"],
                "relic_lp": pl.parts["relic"],
                "floor_lp": pl.parts["floor"],
                "gold": pl.gold,
                "wars_won": pl.wars_won,
                "win": pl.win,
                "cards": [[getattr(c, f) for f in r.card_fields] for c in pl.logs],
                "buildings": [
                    [r.buildings[b].id, bl.level, bl.turn_built, bl.turn_upgraded, bl.how]
                    for b, bl in ((b, pl.buildings[b]) for b in game.bset)
                ],
                "kingdom": [
                    [game.uid(sl.card), sl.age] if sl is not None else None for sl in pl.spots
                ],
            }
        )
        if r.legends:
            seats[-1]["artifacts"] = [game.uid(z.card) for z in pl.zone]
            seats[-1]["artifacts_in_zone"] = len(pl.zone)
            seats[-1]["artifact_gold"] = pl.artifact_gold
            seats[-1]["artifact_lp"] = pl.parts["artifacts"] + pl.parts["war_artifacts"]
    out: dict[str, Any] = {
        "turns": game.turn,
        "reshuffles": game.reshuffles,
        "scores": [pl.lp for pl in game.players],
        "winners": game.winners(),
        "seats": seats,
    }
    if r.legends:
        out["building_pool"] = "+".join(r.buildings[b].id for b in r.pairs[game.pair])
    return out
