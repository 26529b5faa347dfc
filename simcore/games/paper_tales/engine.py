"""Paper Tales engine: the functions the runner and the CLI call (see ``simcore.registry``).

``load_cards`` (cards.toml + rules.toml), ``card_catalog`` (``talesim cards paper-tales``),
``score_state`` (``talesim score paper-tales``), and the simulation: ``prepare`` validates
the request and compiles the tables, ``simulate_arrays`` runs the numba kernel
(``kernel.simulate_chunk``) on a chunk of games, ``frames`` turns its fixed-size result
arrays into the dataset's tables (games, seats, cards, buildings), ``warmup`` compiles.
``reference_player``, ``play`` and ``narrate`` replay one game with ``reference/``
(proven equal to the kernel game for game by ``tests/paper_tales/test_reference_vs_kernel.py``).
What the three engines share (``run_chunk``, ``bench``, the request) is ``simcore.engine_kit``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from talesim.simcore import engine_kit
from talesim.simcore.buffers import zeroed_buffers
from talesim.simcore.learned import Record
from talesim.simcore.registry import GameError, get_game

from . import state_io
from .policies import POLICY_NAMES, Policy, default_weights
from .tables import (
    MAX_FRONT,
    MAX_HAND,
    MAX_PLAYERS,
    RESOURCES,
    Ability,
    CardSet,
    LegendsTables,
    Production,
    Tables,
    compile_legends_tables,
    compile_tables,
    load_cardset,
)

if TYPE_CHECKING:
    from .evaluate.records import KernelTables
    from .kernel.game import LegendsArgs

GAME = get_game("paper-tales")


def load_cards(path: Path | None = None) -> CardSet:
    """The card set: ``path`` replaces cards.toml (units + buildings); rules.toml built in."""
    return load_cardset(path)


def for_variant(cards: CardSet, variant: str) -> CardSet:
    """The card set a variant plays: ``legends`` adds cards_legends.toml (the same
    cards.toml, a ``--cards`` file included, stays first) and its switches."""
    if variant == cards.variant or variant not in cards.rules.variants:
        return cards
    if not cards.rules.variants[variant].get("cards"):
        return cards
    return load_cardset(cards.files[0], cards.files[-1], variant=variant)


def _abilities(abilities: tuple[Ability, ...]) -> str:
    return "; ".join(a.text() for a in abilities)


def _requirement(req: tuple[int, ...], gold_instead: int | None) -> str:
    text = " + ".join(f"{n} {r}" for r, n in zip(RESOURCES, req, strict=True) if n) or "-"
    return text + (f" (or {gold_instead} gold)" if gold_instead is not None else "")


def _production(lv1: Production, lv2: Production) -> str:
    a, b = lv1.text(), lv2.text()
    return " | ".join(x for x in (a, f"L2 +{b}" if b else "") if x)


#: ``pool`` column of ``talesim cards paper-tales --variant legends``.
POOLS = {
    "base": "every game",
    "legends": "2 of 3 drawn per game",
    "integral": "optional tile (off by default)",
}


def card_catalog(cards: CardSet, variant: str) -> list[dict[str, object]]:
    """The units, then (Legends) the artifacts, then the buildings, as the rows of
    ``talesim cards paper-tales``."""
    GAME.variant(variant)
    if variant not in cards.rules.variants:
        raise GameError(f"the rules file has no [variant.{variant}] table")
    cards = for_variant(cards, variant)
    rows: list[dict[str, object]] = [
        {
            "id": u.id,
            "name": u.name,
            "category": "unit",
            "copies": u.copies,
            "value": "",
            "effect": _abilities(u.abilities),
            "status": u.status,
            "cost": str(u.cost),
            "strength": str(u.strength),
            "produces": u.produces.text(),
        }
        for u in cards.units
    ]
    rows += [
        {
            "id": x.id,
            "name": x.name,
            "category": "artifact",
            "copies": x.copies,
            "value": f"{x.lp} LP",
            "effect": _abilities(x.abilities),
            "status": x.status,
            "cost": "1 + artifacts deployed",
            "strength": "",
            "produces": x.produces.text(),
        }
        for x in cards.artifacts
    ]
    for b in cards.buildings:
        l1, l2 = b.levels
        effect = " | ".join(
            f"L{k}: {_abilities(lv.abilities)}" for k, lv in ((1, l1), (2, l2)) if lv.abilities
        )
        rows.append(
            {
                "id": b.id,
                "name": b.name,
                "category": "building",
                # base: one per player (docs/rules/paper-tales.md §1)
                "copies": b.copies or MAX_PLAYERS,
                "value": f"{l1.lp}/{l2.lp} LP",
                "effect": effect,
                "status": b.status,
                "cost": f"L1 {_requirement(l1.requires, l1.gold_instead)}; "
                f"L2 {_requirement(l2.requires, l2.gold_instead)}",
                "strength": "",
                "produces": _production(l1.produces, l2.produces),
            }
        )
        if cards.legends:
            rows[-1]["pool"] = POOLS[b.pool]
    return rows


def score_state(
    state: dict[str, Any], cards: CardSet | None = None, variant: str | None = None
) -> dict[str, Any]:
    """Static evaluation of a position given as JSON (see ``state_io``) by the compiled
    evaluation the kernel plays with (``evaluate.score``); ``variant`` ``legends``
    (``for_variant``) reads artifacts and the Legends buildings."""
    cards = _score_cards(cards, variant)
    return state_io.score_position(cards, state_io.parse_state(state, cards))


def score_state_reference(
    state: dict[str, Any], cards: CardSet | None = None, variant: str | None = None
) -> dict[str, Any]:
    """``score_state`` by ``reference/`` (the oracle it is tested against)."""
    cards = _score_cards(cards, variant)
    return state_io.score_reference(cards, state_io.parse_state(state, cards))


def _score_cards(cards: CardSet | None, variant: str | None) -> CardSet:
    """The card set a position of ``variant`` is scored with (default: the built-in set)."""
    cards = cards or load_cardset()
    if variant is not None:
        if variant not in cards.rules.variants:
            known = ", ".join(cards.rules.variants)
            raise ValueError(f"paper-tales has no variant '{variant}' (variants: {known})")
        cards = for_variant(cards, variant)
    return cards


def play_events(
    cards: CardSet,
    variant: str,
    seat_policies: list[int],
    seed: int,
    game_id: int,
    prepared: Prepared | None = None,
    searches: list[Any] | None = None,
    names: list[str] | None = None,
    models: list[Any] | None = None,
) -> list[dict[str, Any]]:
    """Every event of one game played by ``reference/`` (a ``start`` event first); the
    built-in policies' weights, or ``prepared``'s (named policies included); ``searches``:
    each mc seat's ``Search``; ``names``: each seat's player (default: its policy);
    ``models``: each learned seat's model."""
    from .policies import default_weights
    from .reference import Rules, play_reference

    rules = Rules(cards, len(seat_policies))
    weights = default_weights() if prepared is None else prepared.weights
    codes = POLICY_NAMES if prepared is None else prepared.code_names
    lweights = None if prepared is None else legends_rows(prepared)
    game = play_reference(
        rules, weights, seat_policies, seed, game_id, record=True, lweights=lweights,
        searches=searches, models=models,
    )  # fmt: skip
    start = {
        "event": "start",
        "game": "paper-tales",
        "variant": variant,
        "seed": seed,
        "game_id": game_id,
        "players": len(seat_policies),
        "policies": names or [codes[p] for p in seat_policies],
    }
    return [start, *game.events]


def legends_rows(prepared: Prepared) -> np.ndarray:
    """``policies.legends_weights()`` with one row per policy code: a named policy plays
    its base's Legends weights (a policies file gives the base row only)."""
    from .policies import legends_weights

    return np.ascontiguousarray(legends_weights()[prepared.base_code], np.float64)


def _spot(spot: int) -> str:
    return f"front {spot}" if spot < MAX_FRONT else f"back {spot - MAX_FRONT}"


def _names(units: list[str]) -> str:
    return ", ".join(units) if units else "nothing"


def _head(event: dict[str, Any]) -> str:
    """The start of a seat's line: its turn and seat."""
    return f"turn {event.get('turn', 0)}: seat {event.get('seat', '-')}"


def _fields(event: dict[str, Any]) -> dict[str, Any]:
    """The fields ``LINES``' templates read: the event's (a list of names joined, "nothing"
    when empty; ``spot`` and ``to`` as spot names) and ``head`` (``_head``)."""
    fields = engine_kit.joined(event, "nothing")
    fields["head"] = _head(event)
    for key in ("spot", "to"):
        if key in event:
            fields[key] = _spot(event[key])
    return fields


def _narrate_setup(event: dict[str, Any]) -> str:
    drawn = f"; buildings: {_names(event['buildings'])}" if "buildings" in event else ""
    return (
        f"Setup: the deck is shuffled, {event['players']} players get {event['gold']} gold" + drawn
    )


def _narrate_draft(event: dict[str, Any]) -> str:
    way = "left, to seat+1" if event["direction"] > 0 else "right, to seat-1"
    thrown = f", discards {_names(event['discarded'])}" if event["discarded"] else ""
    return f"{_head(event)} drafts {_names(event['cards'])} (passing to {way}){thrown}"


def _narrate_place(event: dict[str, Any]) -> str:
    old = f", discarding {event['replaced']}" if event["replaced"] else ""
    return f"{_head(event)} places {event['unit']} face down on {_spot(event['spot'])}{old}"


def _narrate_keep(event: dict[str, Any]) -> str:
    kept = event["kept"] or "nothing"
    return f"{_head(event)} keeps {kept}, discards {_names(event['discarded'])}"


def _narrate_pay(event: dict[str, Any]) -> str:
    where = "in the artifact zone" if event["spot"] < 0 else f"on {_spot(event['spot'])}"
    cost = event["cost"]
    return f"{_head(event)} reveals {event['unit']} {where}, pays {cost} (gold {event['gold']})"


def _narrate_unpaid(event: dict[str, Any]) -> str:
    cost = f" {event['cost']}" if "cost" in event else ""
    return f"{_head(event)} cannot pay{cost} for {event['unit']}: discarded"


def _narrate_shapeshift(event: dict[str, Any]) -> str:
    return (
        f"{_head(event)} Shapeshifter reveals "
        f"{_names(event['revealed'] + [event['becomes'] or ''])}"
        f" and becomes {event['becomes'] or 'nothing'}"
    )


def _narrate_wars(event: dict[str, Any]) -> str:
    return (
        f"{_head(event)} strength {event['strength']} vs {event['against']}: {event['won']}"
        f" war(s) won, {event['lp']:+d} LP"
        + (f", {event['gold']:+d} gold" if event["gold"] else "")
    )


def _narrate_build(event: dict[str, Any]) -> str:
    how = "upgrades" if event["upgrade"] else "builds"
    return (
        f"{_head(event)} {how} {event['building']} to level {event['level']}"
        f" for {event['gold']} gold"
    )


def _narrate_aging(event: dict[str, Any]) -> str:
    saved = f", saved {_names(event['saved'])}" if event["saved"] else ""
    died = _names(event["died"]) + " die" if event["died"] else "nobody dies"
    return f"{_head(event)} aging: {died}{saved} ({event['lp']:+d} LP, {event['gold']:+d} gold)"


def _narrate_final(event: dict[str, Any]) -> str:
    return engine_kit.narrate_final(
        "Game over. Final scores:",
        event,
        lambda p, parts: f"  seat {p}: {event['scores'][p]} LP, {event['gold'][p]} gold ({parts})",
    )


#: ``narrate``'s line of each event kind (``engine_kit.narrate_event``; ``_fields``).
LINES: dict[str, engine_kit.Line] = {
    "start": lambda event: engine_kit.narrate_start("Paper Tales", event),
    "setup": _narrate_setup,
    "reshuffle": engine_kit.narrate_reshuffle,
    "draft": _narrate_draft,
    "place": _narrate_place,
    "move": "{head} moves {unit} from {spot} to {to}",
    "remove": "{head} discards {unit} from {spot} to make room",
    "keep": _narrate_keep,
    "place_artifact": "{head} places artifact {artifact} face down in the artifact zone",
    "pay": _narrate_pay,
    "unpaid": _narrate_unpaid,
    "jester": "{head} Court Jester deploys artifact {artifact} for {cost} gold",
    "titan": "{head} builds {building} at level {level}, free",
    "copy": "{head} {unit} copies the abilities of {target}",
    "gain": "{head} conditional gain: {gold:+d} gold, {lp:+d} LP",
    "age": "{head} {unit} puts {amount} age token(s) on {targets}",
    "upgrade": "{head} {building} becomes level 2 ({how})",
    "shapeshift": _narrate_shapeshift,
    "deploy_lp": "{head} deployment LP {lp:+d}",
    "wars": _narrate_wars,
    "income": "{head} income {gold:+d} gold (gold {total})",
    "build": _narrate_build,
    "aging": _narrate_aging,
    "search": lambda event: _narrate_decision(_head(event), event),
    "learned": lambda event: _narrate_decision(_head(event), event),
    "final": _narrate_final,
}


def narrate(event: dict[str, Any]) -> str:
    """One event of ``play_events`` as readable text."""
    return engine_kit.narrate_event(event, LINES, _fields)


def _narrate_decision(head: str, event: dict[str, Any]) -> str:
    """An ``mc`` seat's search (each candidate's mean outcome over its playouts) or a
    ``learned`` seat's scored candidates, greedy's value beside each, and the choice."""
    verb = "searches" if event["event"] == "search" else "scores"
    lines = [f"{head} {verb} its {event['decision']} decision:"]
    for c in event["candidates"]:
        if event["event"] == "search":
            mean = "-" if c["mean"] is None else f"{c['mean']:+.3f}"
            tail = f"mean {mean} over {c['playouts']} playouts"
        else:
            tail = f"score {c['score']:+.3f}"
        lines.append(f"    {c['option']:<44} greedy {c['value']:8.2f}   {tail}")
    lines.append(f"    -> {event['chosen']}")
    return "\n".join(lines)


# --- simulation ------------------------------------------------------------------------------


class Prepared(
    engine_kit.Prepared, game=GAME, names=POLICY_NAMES, mc=Policy.MC, learned=Policy.LEARNED
):
    """A validated Paper Tales request: the variant's card set, seats and the compiled tables
    (``tables.Tables``; Legends: ``LegendsTables``)."""

    cards: CardSet
    tables: Tables

    def config(self) -> dict[str, Any]:
        """Rule options that determine the data (stored in the manifest)."""
        two = self.cards.rules.two_player
        return {
            "rules": {
                k: list(v) if isinstance(v, tuple) else v
                for k, v in self.cards.rules.options.items()
            },
            "two_player": {k: getattr(two, k) for k in two.__dataclass_fields__},
            "deck_size": int(self.tables.deck.shape[0]),
            "weights": self.weight_rows(),
        }


def draft_steps(deal: int, discards: int) -> int:
    """Draft steps (= picks) of a pack of ``deal`` cards when each step takes one card and
    throws ``discards`` more away (while the pack lasts)."""
    return -(-deal // (1 + discards))


def prepare(
    cards: CardSet, variant: str, players: int, policies: list[str], rotate_seats: bool
) -> Prepared:
    """Validate variant, player count, policies and the deck; compile the tables
    (``GameError`` for bad input, before anything is written)."""
    engine_kit.check_request(GAME, variant, players, policies)
    if variant not in cards.rules.variants:
        raise GameError(f"the rules file has no [variant.{variant}] table")
    cards = for_variant(cards, variant)
    from .reference import Rules  # its constructor checks the deck is big enough

    try:
        rules = Rules(cards, players)
    except ValueError as e:
        raise GameError(f"paper-tales: {e}") from None
    picks = draft_steps(rules.deal, rules.discard_per_step)
    if picks + rules.o["keep"] > MAX_HAND:
        raise GameError(
            f"paper-tales: {picks} picks a turn + {rules.o['keep']} kept card exceed the"
            f" hand of {MAX_HAND} cards"
        )
    tables = compile_legends_tables(cards) if cards.legends else compile_tables(cards, variant)
    return Prepared(
        cards, variant, players, tuple(policies), rotate_seats, tables, default_weights()
    )


def _play(
    prepared: Prepared,
    out: Any,
    seed: int,
    first_game: int,
    n_games: int,
    check: bool,
    record: Record | None,
) -> dict[str, np.ndarray]:
    """Play a chunk into ``out`` (``result_buffers``) with ``kernel.simulate_chunk`` or, when
    a seat plays ``mc`` or ``learned``, ``kernel.search.simulate_chunk_search``, which also
    counts each game's playouts (the array it returns, ``playouts``). ``RuntimeError`` for a
    game that exceeded a kernel bound."""
    from .kernel import simulate_chunk

    bounds = engine_kit.chunk_bounds(prepared, seed, first_game, n_games)
    table, seat_slot = prepared.slot_table()
    added = {}
    if prepared.has_search:
        from talesim.simcore.learned import no_record

        from .kernel.search import simulate_chunk_search

        playouts = np.zeros(n_games, np.int64)
        tb, lx, weights = search_args(prepared)
        simulate_chunk_search(
            tb, lx, weights, prepared.packed_models(), table, seat_slot, prepared.rotate_seats,
            *bounds, out, playouts, check, record if record is not None else no_record(),
        )  # fmt: skip
        added["playouts"] = playouts
    else:
        tb, lx = kernel_args(prepared)
        seats = (prepared.weights, prepared.seat_policy, prepared.rotate_seats)
        simulate_chunk(tb, lx, *seats, *bounds, out, check)
    if out.overflow.any():
        g = first_game + int(out.overflow.nonzero()[0][0])
        raise RuntimeError(f"paper-tales game {g} (seed {seed}) exceeded a kernel bound")
    return added


def _invariants(prepared: Prepared) -> tuple[str, ...]:
    """The names of the kernel's invariant codes (base game or Legends)."""
    from .kernel import INVARIANTS, LEGENDS_INVARIANTS

    return LEGENDS_INVARIANTS if prepared.cards.legends else INVARIANTS


def kernel_args(prepared: Prepared) -> tuple[KernelTables, LegendsArgs | None]:
    """The kernel's card tables: ``tb`` (``evaluate.records.kernel_tables``) and ``lx``
    (``kernel.legends_lx`` with a Legends weight row per policy code; None in a base game,
    where numba prunes the Legends branches)."""
    from .evaluate.records import kernel_tables
    from .kernel import legends_lx

    lx: LegendsArgs | None = None
    if prepared.cards.legends:
        lx = legends_lx(prepared.cards, cast(LegendsTables, prepared.tables))
        lx = lx._replace(lweights=legends_rows(prepared))
    return kernel_tables(prepared.tables), lx


def search_args(prepared: Prepared) -> tuple[KernelTables, LegendsArgs | None, np.ndarray]:
    """The search kernel's card tables and weights: ``kernel_args`` with the learned
    player's feature rows after the policies' rows, in ``weights`` and the Legends
    ``lweights`` (``learned.with_feature_rows``)."""
    from .learned import with_feature_rows

    tb, lx = kernel_args(prepared)
    weights, lweights = with_feature_rows(prepared.weights, None if lx is None else lx.lweights)
    if lx is not None:
        lx = lx._replace(lweights=lweights)
    return tb, lx, weights


def result_buffers(prepared: Prepared, n_games: int) -> Any:
    """A chunk's result buffers (``kernel.ChunkOut``; Legends: ``kernel.LChunkOut``),
    zeroed and backed by memory before the kernel writes them (``zeroed_buffers``: one
    populated mapping, in huge pages where the OS allows, instead of a page fault per 4 KiB
    in the kernel's threads). Fresh for every chunk: the frames built from them may share
    their memory, so a buffer is free only once its frames are gone."""
    from .kernel import MAX_LOGS, N_BLOG, N_LOG, N_PARTS, ChunkOut

    n, P = n_games, prepared.players
    nb = max(prepared.tables.bt.shape[0], 1)
    specs: list[tuple[tuple[int, ...], Any]] = [
        ((n,), np.int8),  # turns
        ((n,), np.int8),  # reshuffles
        ((n, P), np.int8),  # policy
        ((n, P), np.int16),  # score
        ((n, P, N_PARTS), np.int16),  # parts
        ((n, P), np.int8),  # wars_won
        ((n, P), np.int16),  # gold
        ((n, P), np.bool_),  # winner
        ((n, P), np.int8),  # n_logs
        ((n, P, MAX_LOGS, N_LOG - 1), np.int16),  # log
        ((n, P, nb, N_BLOG), np.int8),  # blog
        ((n,), np.int8),  # violation
        ((n,), np.bool_),  # overflow
    ]
    if not prepared.cards.legends:
        return ChunkOut(*zeroed_buffers(specs))
    from .kernel import N_LL, N_LPARTS, LChunkOut
    from .tables import MAX_ARTIFACTS

    specs += [
        ((n, P, N_LPARTS), np.int16),  # lparts
        ((n, P, MAX_LOGS, N_LL), np.int16),  # llog
        ((n, P), np.int8),  # zone_n
        ((n, P), np.int16),  # art_gold
        ((n,), np.int8),  # pair
        ((n, P, MAX_ARTIFACTS), np.int16),  # zone (-1: empty)
    ]
    out = LChunkOut(*zeroed_buffers(specs))
    out.zone.fill(-1)
    return out


#: ``simulate_arrays(prepared, seed, first_game, n_games, check=False, record=None)``: a
#: chunk's raw result arrays (``kernel.ChunkOut`` fields; Legends: ``kernel.LChunkOut``;
#: with mc seats, each game's ``playouts``; ``engine_kit.simulator``). ``check``: the rule
#: invariants verified after every phase.
simulate_arrays = engine_kit.simulator(
    "paper-tales", f"{__package__}.kernel", result_buffers, _play, _invariants
)


def warmup(prepared: Prepared) -> None:
    """Compile (or load from the cache) the kernel for this configuration."""
    simulate_arrays(prepared, 0, 0, 2)


LEGENDS_SEAT_PARTS = (
    "wars",
    "per_war_won",
    "war_units",
    "war_buildings",
    "war_artifacts",
    "deployment",
    "aging",
    "buildings",
    "relic",
    "artifacts",
    "floor",
)  # fmt: skip  (reference.LEGENDS_BREAKDOWN)
SEAT_PARTS = (
    "wars",
    "per_war_won",
    "war_units",
    "war_buildings",
    "deployment",
    "aging",
    "buildings",
    "relic",
    "floor",
)  # fmt: skip  (reference.BREAKDOWN)


def frames(prepared: Prepared, a: dict[str, np.ndarray], first_game: int) -> dict[str, Any]:
    """Result arrays -> the tables of the dataset (``reference.final_state`` per game):

    * games: game_id, turns, reshuffles, n_winners, top_score;
    * seats: game_id, seat, policy, score, rank (1 = winner: LP, then gold), win (1/k for
      k winners), wars_won, the LP breakdown (wars, per_war_won, war_units, war_buildings,
      deployment, aging, buildings, relic, floor; sums to score), the summaries war_lp
      (wars + war_buildings), ability_lp (per_war_won + war_units + deployment + aging),
      building_lp, relic_lp, and gold left;
    * cards: one row per unit card a seat received, in the order received: game_id, seat,
      card (the unit id), turn, pick (1..; 0 = revealed by a Shapeshifter), deployed, turn_deployed
      (0 = never), row (front/back; null = never deployed), turns_survived,
      died_in_aging, fate;
    * buildings: one row per building a seat built: game_id, seat, building, level,
      turn_built, turn_upgraded (the turn it reached level 2: the build's turn for a direct
      level 2; null when it never reached level 2), how (build / direct / golem).
    """
    import polars as pl

    from . import kernel as kl  # the log columns (``L_*``, ``BL_*``) and their categories

    legends = prepared.cards.legends
    fates: tuple[str, ...] = kl.FATES
    hows: tuple[str, ...] = kl.HOWS
    row_names: tuple[str, ...] = ("front", "back")
    if legends:
        fates, hows, row_names = kl.LEGENDS_FATES, kl.LEGENDS_HOWS, kl.LEGENDS_ROWS[1:]
    n, P = a["score"].shape
    game_id = engine_kit.game_ids(first_game, n)
    score = a["score"]
    parts = a["parts"]
    seat_parts = LEGENDS_SEAT_PARTS if legends else SEAT_PARTS
    if legends:  # the LEGENDS_BREAKDOWN order, from the base parts and the Legends ones
        parts = np.concatenate([parts, a["lparts"]], axis=2)[:, :, list(kl.BREAKDOWN_COLUMNS)]
    games, win = engine_kit.games_table(
        game_id, score, a["winner"], turns=a["turns"], reshuffles=a["reshuffles"]
    )
    if legends:
        pairs = [
            "+".join(prepared.cards.buildings[b].id for b in pair)
            for pair in prepared.cards.building_pairs()
        ]
        games = games.with_columns(
            building_pool=engine_kit.categorical(pairs, a["pair"].astype(np.int64))
        )
    part = {k: parts[:, :, i].reshape(-1) for i, k in enumerate(seat_parts)}
    seats = pl.DataFrame(
        {
            **engine_kit.seat_keys(game_id, P),
            "policy": engine_kit.categorical(prepared.slot_names(), a["policy"]),
            "score": score.reshape(-1),
            "rank": engine_kit.ranks(score, a["gold"]).reshape(-1),
            "win": win.reshape(-1),
            "wars_won": a["wars_won"].reshape(-1),
            **part,
            "war_lp": part["wars"] + part["war_buildings"],
            "ability_lp": part["per_war_won"]
            + part["war_units"]
            + part["deployment"]
            + part["aging"],
            "building_lp": part["buildings"],
            "relic_lp": part["relic"],
            "gold": a["gold"].reshape(-1),
        }
    )
    if legends:
        seats = seats.with_columns(
            artifacts_in_zone=pl.Series(a["zone_n"].reshape(-1)),
            artifact_gold=pl.Series(a["art_gold"].reshape(-1)),
        )
    cards = _cards_table(prepared, a, game_id, fates, row_names)
    buildings = _buildings_table(prepared, a["blog"], game_id, hows)
    return {"games": games, "seats": seats, "cards": cards, "buildings": buildings}


def _cards_table(
    prepared: Prepared,
    a: dict[str, np.ndarray],
    game_id: np.ndarray,
    fates: tuple[str, ...],
    row_names: tuple[str, ...],
) -> Any:
    """The cards table (``frames``) from the unit logs ``a["log"]`` [n, P, MAX_LOGS,
    N_LOG - 1] (log columns shifted by one: no card id), a seat's rows its first
    ``n_logs``; a Legends game adds its columns from ``a["llog"]``."""
    import polars as pl

    from . import kernel as kl

    log = a["log"]
    n, P = a["score"].shape
    held = (np.arange(log.shape[2])[None, None, :] < a["n_logs"][:, :, None]).reshape(-1)
    rows = log.reshape(-1, log.shape[3])[held]  # (game, seat, received) order
    logs_n = a["n_logs"].reshape(-1)  # a seat's rows are its first n_logs: repeat the keys

    def col(c: int) -> np.ndarray:
        return rows[:, c - 1]

    units = [u.id for u in prepared.cards.units] + [x.id for x in prepared.cards.artifacts]
    row = col(kl.L_ROW)
    cards = pl.DataFrame(
        {
            "game_id": np.repeat(game_id, a["n_logs"].sum(axis=1)),
            "seat": np.repeat(np.tile(np.arange(P, dtype=np.int8), n), logs_n),
            "card": engine_kit.categorical(units, col(kl.L_UNIT)),
            "turn": col(kl.L_TURN).astype(np.int8),
            "pick": col(kl.L_PICK).astype(np.int8),
            "deployed": col(kl.L_DEPLOYED).astype(np.bool_),
            "turn_deployed": col(kl.L_TURN_DEPLOYED).astype(np.int8),
            "row": engine_kit.categorical(list(row_names), np.maximum(row - 1, 0)),
            "turns_survived": col(kl.L_SURVIVED).astype(np.int8),
            "died_in_aging": col(kl.L_DIED).astype(np.bool_),
            "fate": engine_kit.categorical(fates, col(kl.L_FATE)),
        }
    ).with_columns(pl.when(pl.Series(row > 0)).then(pl.col("row")).alias("row"))
    if prepared.cards.legends:
        cards = cards.with_columns(
            _legends_card_columns(
                prepared, a["llog"].reshape(-1, a["llog"].shape[3])[held], col(kl.L_UNIT)
            )
        )
    return cards


def _buildings_table(
    prepared: Prepared, blog: np.ndarray, game_id: np.ndarray, hows: tuple[str, ...]
) -> Any:
    """The buildings table (``frames``) from the building logs ``blog`` [n, P, B, N_BLOG]."""
    import polars as pl

    from . import kernel as kl

    nb = len(prepared.cards.buildings)
    gi, si, bi = np.nonzero(blog[:, :, :nb, kl.BL_LEVEL] > 0)
    built = blog[gi, si, bi]
    return pl.DataFrame(
        {
            "game_id": game_id[gi],
            "seat": si.astype(np.int8),
            "building": engine_kit.categorical([b.id for b in prepared.cards.buildings], bi),
            "level": built[:, kl.BL_LEVEL],
            "turn_built": built[:, kl.BL_BUILT],
            "turn_upgraded": built[:, kl.BL_UPGRADED],
            "how": engine_kit.categorical(hows[1:], built[:, kl.BL_HOW] - 1),
        }
    ).with_columns(
        pl.when(pl.col("turn_upgraded") > 0).then(pl.col("turn_upgraded")).alias("turn_upgraded")
    )


def _legends_card_columns(prepared: Prepared, llog: np.ndarray, unit: np.ndarray) -> list[Any]:
    """The Legends ``cards`` columns (LEGENDS.md §F): kind, deploy_cost (null: never
    deployed), how_deployed (null: never deployed)."""
    import polars as pl

    from .kernel import HOW_DEPLOYED, LL_COST, LL_HOW, NO_COST

    n_units = len(prepared.cards.units)
    cost = llog[:, LL_COST].astype(np.int16)
    how = llog[:, LL_HOW]
    return [
        engine_kit.categorical(["unit", "artifact"], (unit >= n_units).astype(np.int64)).alias(
            "kind"
        ),
        pl.when(pl.Series(cost != NO_COST)).then(pl.Series(cost)).alias("deploy_cost"),
        pl.when(pl.Series(how > 0))
        .then(engine_kit.categorical(list(HOW_DEPLOYED[1:]), np.maximum(how - 1, 0)))
        .alias("how_deployed"),
    ]


def reference_frames(
    prepared: Prepared, seed: int, first_game: int, n_games: int
) -> dict[str, list[dict[str, Any]]]:
    """The rows of the dataset tables ``frames`` builds, built from ``reference/``'s
    ``final_state`` of the same games (the differential tests' oracle; slow)."""
    from .reference import final_state

    play = reference_player(prepared)
    legends = prepared.cards.legends
    seat_parts = LEGENDS_SEAT_PARTS if legends else SEAT_PARTS
    out: dict[str, list[dict[str, Any]]] = {"games": [], "seats": [], "cards": [], "buildings": []}
    names = prepared.slot_names()
    _, seat_slot = prepared.slot_table()
    for g in range(first_game, first_game + n_games):
        slots = engine_kit.seat_policies(seat_slot, prepared.rotate_seats, g)
        fs = final_state(play(seed, g))
        scores = fs["scores"]
        gold = [st["gold"] for st in fs["seats"]]
        game = {
            "game_id": g,
            "turns": fs["turns"],
            "reshuffles": fs["reshuffles"],
            "n_winners": len(fs["winners"]),
            "top_score": max(scores),
        }
        if legends:
            game["building_pool"] = fs["building_pool"]
        out["games"].append(game)
        for p, st in enumerate(fs["seats"]):
            ahead = sum(
                1 for q in range(len(scores)) if (scores[q], gold[q]) > (scores[p], gold[p])
            )
            seat = {
                "game_id": g,
                "seat": p,
                "policy": names[slots[p]],
                "score": st["score"],
                "rank": 1 + ahead,
                "win": st["win"],
                "wars_won": st["wars_won"],
                **dict(zip(seat_parts, st["breakdown"], strict=True)),
                "war_lp": st["war_lp"],
                "ability_lp": st["ability_lp"],
                "building_lp": st["building_lp"],
                "relic_lp": st["relic_lp"],
                "gold": st["gold"],
            }
            if legends:
                seat["artifacts_in_zone"] = st["artifacts_in_zone"]
                seat["artifact_gold"] = st["artifact_gold"]
            out["seats"].append(seat)
            for c in st["cards"]:
                unit, turn, pick, dep, turn_dep, row, surv, died, fate = c[:9]
                row_out = {
                    "game_id": g,
                    "seat": p,
                    "card": unit,
                    "turn": turn,
                    "pick": pick,
                    "deployed": dep,
                    "turn_deployed": turn_dep,
                    "row": row or None,
                    "turns_survived": surv,
                    "died_in_aging": died,
                    "fate": fate,
                }
                if legends:
                    kind, cost, how = c[9:]
                    row_out.update(kind=kind, deploy_cost=cost, how_deployed=how or None)
                out["cards"].append(row_out)
            for bid, level, turn_built, turn_up, how in st["buildings"]:
                if level:
                    out["buildings"].append(
                        {
                            "game_id": g,
                            "seat": p,
                            "building": bid,
                            "level": level,
                            "turn_built": turn_built,
                            "turn_upgraded": turn_up or None,
                            "how": how,
                        }
                    )
    return out


def frame_mismatch(actual: Any, rows: list[dict[str, Any]], table: str) -> str | None:
    """The first difference between a dataset table and ``reference_frames`` rows (every
    column, values in order; enums compared as strings), or None when they are equal."""
    import polars as pl

    if actual.height != len(rows):
        return f"{table}: {actual.height} rows, reference {len(rows)}"
    if not rows:
        return None
    expected = pl.DataFrame(rows, infer_schema_length=None)
    if actual.columns != expected.columns:
        return f"{table}: columns {actual.columns}, reference {expected.columns}"
    got = actual.with_columns(
        [pl.col(c).cast(pl.String) for c, t in actual.schema.items() if isinstance(t, pl.Enum)]
    )
    for c in actual.columns:
        a, e = got[c].to_list(), expected[c].to_list()
        if a != e:
            i = next(k for k, (x, y) in enumerate(zip(a, e, strict=True)) if x != y)
            return f"{table}.{c} row {i}: kernel {a[i]!r}, reference {e[i]!r}"
    return None


# --- one game, narrated -------------------------------------------------------------------


def reference_player(prepared: Prepared) -> Callable[..., Any]:
    """``play(seed, game_id, record=False)``: game ``game_id`` played by ``reference/``
    (``engine_kit.reference_player``), each seat with its policy's Legends weights."""
    from .reference import Rules, play_reference

    rules = Rules(prepared.cards, prepared.players)
    return engine_kit.reference_player(
        prepared, rules, play_reference, lweights=legends_rows(prepared)
    )


def play(prepared: Prepared, seed: int, game_id: int) -> list[dict[str, Any]]:
    """Every event of game ``game_id``, played by ``reference/`` (the same game the kernel
    stores under that id). The last event, ``final``, holds the scores ``simulate`` stores."""
    seat_policy, searches = prepared.reference_seats(game_id)
    return play_events(
        prepared.cards, prepared.variant, seat_policy, seed, game_id, prepared, searches,
        prepared.seat_names(game_id), prepared.reference_models(game_id),
    )  # fmt: skip
