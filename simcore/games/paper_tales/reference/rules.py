"""The rules of one game setup: the card set and ``rules.toml`` at one player count
(``Rules``: its options, the two-player and Legends switches, draft directions,
neighbours, artifact costs), and the constants the phases share (spots, the LP breakdown
parts, the dataset's record fields)."""

from __future__ import annotations

from ..tables import (
    BACK_ROW,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Ability,
    Artifact,
    CardSet,
    Unit,
    building_pair_index,
)

EXTRA_SPOT = 2  # the 5th spot (Front), open with a level-2 building
FRONT, BACK = "front", "back"
BREAKDOWN = (
    "wars",  # war LP: 3 per war won (2 players: 3 or 6)
    "per_war_won",  # lp_per_war_won abilities (Commander, Colossus, Master Alchemist)
    "war_units",  # war-phase 'lp' of units (none in the base game)
    "war_buildings",  # war-phase 'lp' of building faces (Tavern/Mine/Temple/Barracks L2)
    "deployment",  # deployment 'lp' (Kraken's -3 per level-2 building)
    "aging",  # death LP and LP per dying token (Sculptor, Demon, Palm Reader, Kraken)
    "buildings",  # end: each building's face (1 / 3)
    "relic",  # end-phase 'lp' of units (Relic of Wisdom)
    "floor",  # LP given back by the score floor (>= 0)
)
ABILITY_PARTS = ("per_war_won", "war_units", "deployment", "aging")
# Legends games (LEGENDS.md §F): two more parts; base games keep BREAKDOWN exactly.
LEGENDS_BREAKDOWN = (
    *BREAKDOWN[:4],
    "war_artifacts",  # war-phase 'lp' / conditional_gain of artifacts (Scepter of Kings)
    *BREAKDOWN[4:8],
    "artifacts",  # end: printed LP of every artifact in the zone + end 'lp' (Grimoire)
    "floor",
)
ZONE = "zone"  # the row of an artifact in the dataset


CARD_FIELDS = (
    "unit", "turn", "pick", "deployed", "turn_deployed", "row", "turns_survived",
    "died_in_aging", "fate",
)  # fmt: skip
# Legends records (LEGENDS.md §F): "unit" is the card id (a unit or an artifact), then
LEGENDS_CARD_FIELDS = (*CARD_FIELDS, "kind", "deploy_cost", "how_deployed")
BUILDING_FIELDS = ("building", "level", "turn_built", "turn_upgraded", "how")


class Rules:
    """The card set and rules.toml at one player count, in readable form."""

    def __init__(self, cards: CardSet, players: int) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(
                f"paper-tales plays {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}"
            )
        self.cards = cards
        self.players = players
        self.o = cards.rules.options
        self.two = cards.rules.two_player
        self.two_player = players == 2
        self.units = cards.units
        self.buildings = cards.buildings
        self.artifacts: tuple[Artifact, ...] = cards.artifacts
        self.legends = cards.legends
        n_types = len(cards.units)
        # card id -> card type: a unit index, or n_types + x for the artifact x (Legends)
        self.unit_of = [u for u, unit in enumerate(cards.units) for _ in range(unit.copies)] + [
            n_types + x for x, art in enumerate(cards.artifacts) for _ in range(art.copies)
        ]
        self.n_unit_types = n_types
        self.tiers = self.o["deployment_order"] == "tiers"
        self.keep_late = self.o["keep_timing"] == "end_of_phase"
        self.breakdown = LEGENDS_BREAKDOWN if self.legends else BREAKDOWN
        self.card_fields = LEGENDS_CARD_FIELDS if self.legends else CARD_FIELDS
        self.pairs = cards.building_pairs() if self.legends else []
        self.fixed_pair = building_pair_index(cards) if self.legends else -1
        self.deal = self.two.deal if self.two_player else self.o["deal"]
        self.discard_per_step = self.two.discard_per_step if self.two_player else 0
        self.turns = self.o["turns"]
        self.front_spots = tuple(range(self.o["front_spots"]))
        self.back_spots = tuple(BACK_ROW[: self.o["back_spots"]])
        self.floor = self.o["score_floor"]
        if self.deal * players > len(self.unit_of):
            raise ValueError(f"{players} players need {self.deal * players} cards in the deck")
        if not self.o["reshuffle_discard"] and self.deal * players * self.turns > len(self.unit_of):
            raise ValueError(
                f"{players} players draw {self.deal * players * self.turns} cards: the deck"
                f" has {len(self.unit_of)}, so reshuffle_discard must be true"
            )

    def unit(self, card: int) -> Unit:
        return self.units[self.unit_of[card]]

    def cost(self, card: int) -> int:
        return self.unit(card).cost

    def is_artifact(self, card: int) -> bool:
        return self.unit_of[card] >= self.n_unit_types

    def artifact_of(self, card: int) -> int:
        """The artifact index of an artifact card."""
        return self.unit_of[card] - self.n_unit_types

    def card_id(self, card: int) -> str:
        if self.is_artifact(card):
            return self.artifacts[self.artifact_of(card)].id
        return self.unit(card).id

    def art_cost(self, in_zone: int, modifier: int) -> int:
        """docs/rules/paper-tales-legends.md §2.4: an artifact paid with ``in_zone``
        artifacts already in the zone and the sum ``modifier`` of active
        ``artifact_cost_modifier``s costs max(floor, base + step x in_zone + modifier)."""
        o = self.o
        raw = o["artifact_cost_base"] + o["artifact_cost_step"] * in_zone + modifier
        return max(o["artifact_cost_floor"], raw)

    def direction(self, turn: int) -> int:
        """+1: pass left (to seat+1), -1: right (to seat-1). Turn 1 goes
        ``first_draft_direction``, then it alternates."""
        first = 1 if self.o["first_draft_direction"] == "next" else -1
        return first if turn % 2 == 1 else -first

    def neighbours(self, p: int) -> list[int]:
        """Seats seat ``p`` fights: the right neighbour (p-1), then the left (p+1);
        2 players: the opponent once."""
        n = self.players
        return [1 - p] if n == 2 else [(p - 1) % n, (p + 1) % n]

    def face_abilities(self, b: int, level: int) -> list[Ability]:
        """Abilities of building ``b`` at ``level`` (a level-2 face keeps level 1's)."""
        return [a for k in range(level) for a in self.buildings[b].levels[k].abilities]

    def opens_extra_spot(self, blevel: list[int]) -> bool:
        return self.o["extra_front_spots"] > 0 and any(
            self.buildings[b].levels[k].extra_front_spot
            for b, lv in enumerate(blevel)
            for k in range(lv)
        )
