"""Paper Tales in plain Python: the executable rulebook of ``docs/rules/paper-tales.md`` (cited
§N: §1-§4, §2.9, §8) and of the expansion's ``docs/rules/paper-tales-legends.md``.

Readable, object-based and slow. It is the oracle the numba kernel must match game for
game: same card data (``cards.toml``), same options (``rules.toml``), same random stream,
same decisions. Cards are physical card ids ``0..N-1`` (``tables.compile_tables().deck``
order: one id per copy, units in file order); ``Rules.unit_of[card]`` is the unit index.

A game: setup (shuffle, 3 gold each), then ``turns`` x [Recruitment, Deployment, Wars,
Income, Construction, Aging], then End. Seats are numbered clockwise: seat p's left
neighbour is seat p+1, its right neighbour seat p-1 (cyclic); passing left = to seat+1.
Seats act "simultaneously"; the engine resolves
them in seat order 0, 1, ... wherever an order could matter (§2.8: the only shared object
is the draw pile, used by the deal and by the Shapeshifter; a base deck has one
Shapeshifter, so no two seats ever reveal in the same phase).

Phases as implemented (each a function of the game in its phase module, bound as the
``Game`` method of the same name)
------------------------------------------------------------------------------
  recruitment   deal, draft steps until the packs are empty (pass to seat + direction,
                +1 = left:
                ``Rules.direction``), then hand = drafted cards (pick order) + last turn's
                kept card.
  deployment    seat by seat, the policy's placement steps then its keep choice (the rest
                of the hand is discarded); then ``reveal``: every seat pays (``pay``:
                negative costs first, then spot order; an unpaid unit is discarded), then
                seat by seat the new units' on-deploy abilities (``on_deploy``): first the
                Shapeshifters (card replacement, spot order; the revealed unit resolves its
                own at once), then the other new units in spot order; then the seat's
                every-turn deployment abilities in spot order (Master Alchemist); at the
                very end every deployment ``lp`` (Kraken, ``kraken_count_at_end``), then
                each seat's LP step is settled.
  wars          every kingdom's strength first, then per seat: wars, per-war-won and
                war-phase LP, war gold (``fight``, ``war_phase_lp``).
  income        base + income abilities (``assess``).
  construction  seat by seat: one option (``build_options``, ``payment``).
  aging         seat by seat: Healer choices (Healers in spot order), death abilities of
                the dying units, discard, +1 token to every survivor.
  end           building faces + end-phase 'lp'; winners (``winners``).

Modules (each phase's rules in one file; ``Game`` binds every rule as the method of the
same name, so ``game.pay(p)`` is ``deployment.pay(game, p)``)
------------------------------------------------------------------------------
  rules.py         ``Rules``: the card set and rules.toml at one player count; the shared
                   constants (spots, ``BREAKDOWN``, the dataset's record fields).
  kingdom.py       a kingdom and its scoring (``Piece``, ``assess``: production, income,
                   strength; ``when_holds``, ``per_value``); ``Slot``, ``ZoneCard``,
                   ``CardLog``, ``BuildingLog``, ``Player``.
  recruitment.py   the deal and the draft.
  deployment.py    placement steps (``Move``, ``moves``), the keep, the payment (base
                   ``pay``; Legends ``payment_order``).
  reveal.py        the deployment abilities: the base ``reveal``, the Legends ``tiers``.
  wars.py          ``fight``, ``war_phase_lp``, the Wars phase.
  income.py        the Income phase.
  construction.py  ``Build`` options and their cheapest ``payment``.
  aging.py         ``dies``, ``death_rewards``, the Aging phase.
  end.py           ``end_lp``, ``winners``, the End phase.
  brain.py         the players: ``Brain`` (every decision), ``Sketch``, ``Art``.
  search.py        the ``mc`` policy: which decisions it searches, their candidates, the
                   draft rewind, the determinization, the outcome, ``Game.clone``.
  game.py          ``Game``: state, draw pile, LP steps, the loop, invariants;
                   ``play_reference``, ``final_state``.

RNG draw order (all from ``GameRng(seed, game_id)``; nothing else is random)
------------------------------------------------------------------------------
  setup        1. shuffle the draw pile: card ids 0..N-1 in order, ``GameRng.shuffle``;
                  the top card is the END of the list (``pop()``).
  draw         whenever a card is drawn from an empty pile: the discard pile (in the order
               its cards were discarded, oldest first; see below) becomes the draw pile
               and is shuffled once (one ``shuffle``); then the draw goes on.
  Recruitment  2. deal: seat 0 gets its ``deal`` cards (5; 2 players: 9) one after the
                  other, then seat 1, ... (draws only; a shuffle only on a reshuffle)
               3. each draft step, seat 0 first: the seat's pick (``random``: one draw
                  ``below(len(pack))``); 2 players: then its discard from the rest (one
                  draw ``below(len(rest))``); a pack of one card is taken without a draw.
  Deployment   4. seat 0 first: each placement step (``random``: one draw
                  ``below(len(options))``, STOP included, no draw when STOP is the only
                  option), then the keep choice (one draw ``below(1 + len(hand))``, option
                  0 = keep nothing; no draw when the hand is empty or ``keep`` = 0).
               5. payment: no random numbers.
               6. seat 0 first, its Shapeshifters (spots 0..4) then its other new units
                  (spots 0..4): each new unit's on-deploy abilities in ability order:
                  ``add_age`` on ``one`` unit (Time Master) draws
                  ``below(len(units))`` over the seat's units in spot order, itself
                  included (no draw when the amount is 0 or the seat has one unit); a
                  Shapeshifter draws cards (a reshuffle when the pile runs out). Then the
                  seat's every-turn deployment abilities in spot order (Master Alchemist:
                  the same draw as Time Master when its amount, 1 x food, is > 0).
  Construction 7. seat 0 first: one draw ``below(1 + len(builds))`` (0 = build nothing)
                  when at least one build is affordable.
  Aging        8. seat 0 first, each Healer in spot order: one draw
                  ``below(1 + len(saveable))`` (0 = save nobody) when someone is saveable.
  Wars, Income, End: no random numbers.
A decision with a single option is forced: no random number is drawn. ``greedy``,
``warlord`` and ``builder`` draw nothing. (Pinned by ``test_random_numbers_are_the_
documented_ones``; ``play_reference(..., trace=True)`` logs every decision.)

Discard pile order (it matters for reshuffles): cards are appended when the code discards
them: 2-player draft discards (step by step, seat order); in Deployment, a replaced or
removed unit at its PLACE / REMOVE step, then the seat's unkept hand cards in hand order
(seat by seat), then unpaid units (seat order, payment order), then a Shapeshifter and
the cards it reveals and rejects (in reveal order); in Aging, dead units (seat order, spot
order).

Decisions and their option order (the tie order: the first best option wins)
------------------------------------------------------------------------------
  draft pick      the pack in its order (the pack as dealt, minus the cards taken).
  2-player discard  the rest of the pack, same order; greedy discards its first
                  lowest-valued card.
  deployment      decomposed into steps, repeated until STOP; each step is one option
                  (``Game.moves``):
                    0. STOP
                    then for each hand card h in hand order (drafted in pick order, then
                    the card kept from last turn) that the seat can still pay
                    (cost <= gold - costs of the cards already placed this phase; a
                    Monkey's -1 raises it):
                      PLACE h on the first empty Front spot, PLACE h on the first empty
                      Back spot, then PLACE h on each spot 0..4 holding an *old* unit
                      (in play from an earlier turn: it is discarded, ``deploy_discard``)
                    then for each old unit not moved yet this phase, in spot order:
                      MOVE it to each empty open spot, spots 0..4 (either row)
                    then for each old unit, in spot order:
                      REMOVE it (discarded without a card taking its spot; as a replaced
                      unit: ``deploy_discard``, fate ``replaced``; Legends: only if
                      everything placed stays payable without it)
                  Front spots in order: 0, 1, then the extra spot 2 when the seat owns a
                  building showing an ``extra_front_spot`` face at the start of the phase
                  (a Golem's upgrade opens it next turn); Back: 3, 4. Units placed this
                  phase are never moved, replaced or removed; an old unit moves at most
                  once per phase. A placement goes to the first empty spot of a row only:
                  within a row the spots differ only in the order the reveal resolves
                  them (payment, on-deploy abilities, Healers: spot order), which the
                  policies do not value; a MOVE may still reorder a row. So a seat takes
                  at most 6 places + 5 moves + 5 removals = 16 steps besides STOP
                  (``MAX_DEPLOY_STEPS``); with o old units and e empty spots (o + e <= 5)
                  a step has at most 1 + 6 x (2 + o) + o x e + o options: 40 (o = 3,
                  e = 2), bounded by 1 + 6 x (2 + 5) + 6 + 5 = 54 (``MAX_DEPLOY_OPTIONS``).
  keep            0 = nothing, then the cards left in hand, in hand order.
  age target      the seat's units in spot order (Time Master: itself included).
  heal            0 = nobody, then the seat's dying units carrying exactly ``age`` tokens
                  and not saved yet, in spot order.
  construction    0 = nothing, then for each building in file order: not built -> build
                  level 1, build level 2 directly; level 1 -> upgrade. Only options the
                  seat can pay; each with its cheapest payment (``Game.payment``).

Values (``policies.py``, ``Brain``): greedy-style players value an option by the features of
the kingdom it leaves (``Brain.features``), against the neighbours' strengths frozen at the
start of the phase (``Game.seen``). A card's draft value (``Brain.card_value``) depends
only on (seat, unit) within a Recruitment phase (the kingdom and gold do not change), so it
is computed once per (seat, unit) and phase (``Brain.draft_value``). With 4 greedy seats a
game makes about 1,420 evaluations (draft ~400, deployment ~850, keep ~90, construction
~70, age targets ~10).

Legends variant (``deployment_order = "tiers"``; LEGENDS.md is the spec)
------------------------------------------------------------------------------
Card ids: base units, Legends units, then artifacts (file order, one id per copy), so a
base game's ids are unchanged; ``Rules.unit_of[card] >= Rules.n_unit_types`` marks an
artifact. A seat has an artifact zone (``Player.zone``, entry order); artifacts never take
tokens or leave, their abilities and production count everywhere "the kingdom" is read
(``production``, ``assess``, ``war_phase_lp``, ``end_lp``, savers, land discounts and
gold substitutions), their printed LP are the END part ``artifacts``.

  setup        1. the deck shuffle (as above), then 1b. one draw ``below(3)``: the pair
                  of Legends buildings (2-subsets of the ``legends`` pool in file order),
                  drawn even when ``legends_buildings`` fixes the pair (then ignored).
                  Every player's buildings (``Game.bset``): the 5 base ones, the pair,
                  then Port and Abbey when ``use_port_abbey``.
  Recruitment  as the base; artifacts are drafted like units.
  Deployment   4. seat 0 first: the placement steps (``moves``, ``places_legends``: a card is
                  offered only if everything placed stays payable with it; an artifact
                  gives one option ``place_artifact``, face down into the zone). No keep
                  here.
               5. payment, seat by seat (``payment_order``, no random numbers): negative-
                  cost units, units with ``artifact_cost_modifier``, other units (each
                  spot order), then artifacts in placement order at max(floor, base + step
                  x zone + active modifiers). Unpaid cards are discarded.
               6. tiers (``tiers``): tier 0 Shapeshifters, seats in simultaneity order
                  (paper-tales-legends.md §2.8: most LP, then gold more/less, then one
                  ``below(k)`` per pick among k tied: only with two shapeshifting seats);
                  then seat by seat
                  tiers 1a (Jester, Titan), 1b (Shadow / Mirror picks; copies of tier-1a
                  abilities at once), 2 (Golem), 3 (on-deploy tokens), 4a (on-deploy
                  ``conditional_gain``), 4b (Master Alchemist); within a tier: new units in
                  spot order then new artifacts in zone order, each followed by the copies
                  it carries; tier 5 (Kraken) after every seat. Decisions in tier order:
                  Jester (``below(1 + artifacts in hand)``, 0 = none), Titan
                  (``below(unbuilt)``, mandatory, forced when one), copy target
                  (``below(1 + new units without K2)``, 0 = none), age targets as the base.
               7. seat 0 first: the keep (one draw ``below(1 + len(hand))``), the rest of
                  the hand discarded.
  Construction, Aging, End: as the base over ``Game.bset``; savers: units, then building
               faces (Abbey L1), then artifacts (Phial of Life).
Discard pile order in Legends Deployment: replaced units at their PLACE step, unpaid cards
(seat order, payment order), Shapeshifter reveals (tier 0), then each seat's unkept hand.
Policies: an artifact's draft/keep value is V(kingdom + it in the zone, pending) with its
cost if placed now (``Game.placement_cost``); a deployment step is valued with the gold
left after the canonical payment of everything placed; Jester, Titan and copy options are
valued by V(the sketch they leave); Legends features (``policies.LF_*``) follow the base
ones in the weighted sum.

LP and the score floor
----------------------
LP arrive in steps: a seat's deployment LP (Kraken), its wars, its aging, the end. After
each step the marker is ``max(score_floor, marker + step total)`` (§2.7: a score never
goes below 0); what the floor gives back is booked as the ``floor`` part, so the LP
breakdown (``BREAKDOWN``) always sums to the marker.
"""

from __future__ import annotations

# the names other code imports from ``reference`` (the public API of the rulebook)
from ..tables import MAX_FRONT  # re-exported: tests import it from here
from .aging import death_rewards, dies, never_dies
from .brain import Art, Brain, Sketch
from .construction import Build
from .deployment import STOP, Move
from .end import end_lp, winners
from .game import Event, Game, final_state, play_reference
from .kingdom import (
    Assessment,
    BuildingLog,
    CardLog,
    Piece,
    Player,
    Slot,
    ZoneCard,
    assess,
    base_facts,
    gain_holds,
    income_gain,
    per_value,
    production,
    when_holds,
)
from .rules import (
    ABILITY_PARTS,
    BACK,
    BREAKDOWN,
    BUILDING_FIELDS,
    CARD_FIELDS,
    EXTRA_SPOT,
    FRONT,
    LEGENDS_BREAKDOWN,
    LEGENDS_CARD_FIELDS,
    ZONE,
    Rules,
)
from .wars import fight, war_phase_lp

__all__ = [
    "ABILITY_PARTS",
    "BACK",
    "BREAKDOWN",
    "BUILDING_FIELDS",
    "CARD_FIELDS",
    "EXTRA_SPOT",
    "FRONT",
    "LEGENDS_BREAKDOWN",
    "LEGENDS_CARD_FIELDS",
    "MAX_FRONT",
    "STOP",
    "ZONE",
    "Art",
    "Assessment",
    "Brain",
    "Build",
    "BuildingLog",
    "CardLog",
    "Event",
    "Game",
    "Move",
    "Piece",
    "Player",
    "Rules",
    "Sketch",
    "Slot",
    "ZoneCard",
    "assess",
    "base_facts",
    "death_rewards",
    "dies",
    "end_lp",
    "fight",
    "final_state",
    "gain_holds",
    "income_gain",
    "never_dies",
    "per_value",
    "play_reference",
    "production",
    "war_phase_lp",
    "when_holds",
    "winners",
]
