"""The named bounds of Paper Tales (the kernel allocates these; the loader keeps the data
inside them), the decision spaces of the turn engine, the data files' paths and the
``status``/``source`` vocabularies of the card files. §N: ``docs/rules/paper-tales.md``."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent.parent  # the game package: the data files
DEFAULT_CARDS = HERE / "cards.toml"
DEFAULT_RULES = HERE / "rules.toml"
LEGENDS_CARDS = HERE / "cards_legends.toml"

STATUSES = ("confirmed", "inferred", "proposal")
SOURCE_KEYS = ("CARD", "GP", "TP", "DZ", "REV", "RB", "brief", "inferred", "proposal")

MIN_PLAYERS = 2  # §1: base game 2-5 players (2 by the GP rules, unconfirmed)
MAX_PLAYERS = 5
TURNS = 4  # §1: 4 turns of 6 phases
DEAL = 5  # §2.1: cards dealt per player and turn (3-5 players)
DEAL_2P = 9  # §2.9: 2 players are dealt 9 (keep 1, discard 1 per step)
KEEP = 1  # §2.2: unplayed cards kept for the next turn
MAX_HAND = DEAL + KEEP  # 6: 5 drafted + the card kept from the previous turn
FRONT_SPOTS = 2  # §2.2: 2 Front + 2 Back
BACK_SPOTS = 2
EXTRA_FRONT_SPOTS = 1  # §2.2: one 5th spot, in the Front row, with any level-2 building
MAX_FRONT = FRONT_SPOTS + EXTRA_FRONT_SPOTS  # 3
MAX_SPOTS = MAX_FRONT + BACK_SPOTS  # 5: spots 0..2 Front (2 = the extra one), 3..4 Back
FRONT_ROW = tuple(range(MAX_FRONT))  # spot indices of the Front row
BACK_ROW = tuple(range(MAX_FRONT, MAX_SPOTS))
MAX_WARS = 2  # one war with each neighbour (2 players: one war)
LEVELS = 2  # building faces: level 1, level 2
MAX_BUILDINGS = 8  # distinct buildings a card file may define (base game: 5)
MAX_CATALOG_BUILDINGS = 10  # all files of a variant: 5 base + Inn, Sawmill, Royal Palace,
#                             Port, Abbey (Legends); a game uses <= 9 of them
MAX_ARTIFACTS = 18  # artifact cards in the Legends data: one zone can hold every one
MAX_AGE = 30  # age tokens on one unit: the box holds 30 (§1)
MAX_ABILITIES = 4  # abilities on one unit or one building face (base game: 3, Kraken)
MAX_COPIES = 9
MAX_DECK = 200
# Decision spaces of the turn engine (reference/, "Decisions and their option order"):
# a deployment step is STOP, or PLACE one of <= 6 hand cards on the first empty spot of
# either row or on one of <= 5 old units, or MOVE an old unit to an empty spot (old x
# empty <= 2 x 3 on 5 spots), or REMOVE one of <= 5 old units.
MAX_DEPLOY_OPTIONS = (
    1 + MAX_HAND * (2 + MAX_SPOTS) + (MAX_SPOTS // 2) * (MAX_SPOTS - MAX_SPOTS // 2) + MAX_SPOTS
)  # 54 (the most a position reaches: 40)
MAX_DEPLOY_STEPS = MAX_HAND + 2 * MAX_SPOTS  # 16 placements/moves/removals before STOP
MAX_BUILD_OPTIONS = 1 + 2 * MAX_BUILDINGS  # nothing, or per building: L1 / direct L2, or upgrade
# Legends decision bounds (LEGENDS.md §G; the base ones above are unchanged): a game's
# building set is 5 base + the pair + Port and Abbey when on.
MAX_GAME_BUILDINGS = 9
MAX_BUILD_OPTIONS_LEGENDS = 1 + 2 * MAX_GAME_BUILDINGS  # 19
MAX_JESTER_OPTIONS = 1 + MAX_HAND  # none, or each artifact in hand
MAX_COPY_OPTIONS = 1 + MAX_SPOTS  # none, or each new unit
MAX_TITAN_OPTIONS = MAX_GAME_BUILDINGS  # each unbuilt building of the set
