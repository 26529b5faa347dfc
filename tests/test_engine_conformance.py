"""One contract for every registered game and variant with a kernel: what the runner, the
CLI and the reports rely on of an engine (``simcore.registry.Engine``), and what makes its
kernel trustworthy.

For each (game, variant): ``runner.setup`` prepares it; a chunk's tables are exactly the
game's tables with the dataset's common columns; the tables do not depend on how the games
are cut into chunks; ``play`` (reference/, narrated) ends with the scores and winners the
kernel stored for that game; ``bench`` runs; a named policy with its base's weights plays
the base; ``balance``, ``tune`` and ``ladder`` plug in. The kernel replays every golden
playthrough (``tests/golden_games.py``: the kernel equals the rulebook on each pinned game);
checking mode (``--check``) changes nothing in the games or the run; runs (heuristic,
``mc`` or ``learned`` seats) are the same whatever the chunks and threads; a model of greedy's
order plays greedy's games, and a run of heuristics compiles nothing of the learned player;
``mc:playout=NAME`` plays out what NAME names; a bad policy spec is one error line; ``talesim
play`` narrates a coherent game for every policy and replays a game a finished run stored; a
resumed run is the same bytes.

The per-game folders test the rules; this file tests that every engine plugs in the same
way. Each case runs in its game's kernel group (``tests/conftest.py``: a case id starts
with the game's name), so no kernel is compiled twice.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numba
import numpy as np
import polars as pl
import pytest
from golden_games import GAMES as GOLDEN
from golden_games import files, kernel_view
from kit import (
    APPRENTICE,
    RUN_SEED,
    SEAT_SCHEMA,
    SMALL_MC,
    copy_run,
    error_line,
    invoke,
    learned_policies,
    manifest,
    ok,
    part_bytes,
    prepared,
    random_model,
    rank_model,
    run_policies,
    simulate_args,
    variant_option,
)

from talesim.simcore import engine_kit, registry, runner

#: Every (game, variant) the kernel plays; a case id starts with the game's name (its group).
VARIANTS = [(g, v) for g in registry.GAMES.values() if g.simulates for v in g.variants if v.kernel]
CASES = [pytest.param(g.name, v.name, id=f"{g.name}-{v.name}") for g, v in VARIANTS]

#: Every seats table starts with these; every cards table starts with the game and seat and
#: has a card column.
SEAT_COLUMNS = tuple(SEAT_SCHEMA)
CARD_COLUMNS = ("game_id", "seat", "card")
SEED, GAMES = 11, 24


def _setup(
    game: str, variant: str, policies: list[str] | None = None, policies_file: Path | None = None
) -> runner.Setup:
    """The game prepared with seats rotated: ``policies`` (named ones from
    ``policies_file``), by default a heuristic, random and the heuristic again (as many as
    the variant seats, at most three)."""
    g = registry.get_game(game)
    if policies is None:
        heuristic = next(p for p in g.policies if p != "random")
        players = min(max(3, g.variant(variant).min_players), g.variant(variant).max_players)
        policies = [heuristic, "random", heuristic][:players]
    return runner.setup(
        game, variant=variant, players=len(policies), policies=policies, rotate_seats=True,
        policies_file=policies_file,
    )  # fmt: skip


def _chunk(s: runner.Setup, first: int, n: int) -> dict[str, Any]:
    return engine_kit.run_chunk(s.engine, s.prepared, SEED, first, n)


def _heuristics(game: str) -> list[str]:
    """Random and the game's heuristics (the policies that need neither parameters nor a
    model)."""
    return ["random", *registry.get_game(game).weighted_policies]


def _learns(game: str) -> bool:
    """The game has a ``learned`` player (a model file decides)."""
    return "learned" in registry.get_game(game).policies


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_engine_conformance(game: str, variant: str) -> None:
    s = _setup(game, variant)
    whole = _chunk(s, 0, GAMES)
    assert set(whole) == set(s.game.tables)
    runner.check_frames(s.game, runner.Chunk(0, 0, GAMES), whole)
    seats = whole["seats"]
    assert tuple(seats.columns[: len(SEAT_COLUMNS)]) == SEAT_COLUMNS
    assert seats.height == GAMES * s.players
    assert whole["games"]["game_id"].to_list() == list(range(GAMES))
    per_game = seats.group_by("game_id").agg(
        wins=pl.col("win").sum(), winners=(pl.col("rank") == 1).sum(), n=pl.len()
    )
    assert per_game["wins"].to_list() == pytest.approx([1.0] * GAMES)
    assert (per_game["n"] == s.players).all()
    assert ((seats["win"] > 0) == (seats["rank"] == 1)).all()
    assert set(seats["policy"].cast(pl.String)) <= set(s.policies)
    if "cards" in whole:
        assert tuple(whole["cards"].columns[:2]) == CARD_COLUMNS[:2]
        assert CARD_COLUMNS[2] in whole["cards"].columns

    # the same games however the range is cut into chunks
    cut = [_chunk(s, 0, 7), _chunk(s, 7, GAMES - 7)]
    for table, frame in whole.items():
        assert pl.concat([c[table] for c in cut]).equals(frame), table

    # play (reference/) replays the stored game
    for g in (0, GAMES - 1):
        events = s.engine.play(s.prepared, SEED, g)
        final = events[-1]
        assert final["event"] == "final"
        stored = seats.filter(pl.col("game_id") == g).sort("seat")
        assert final["scores"] == stored["score"].to_list()
        winners = stored.filter(pl.col("rank") == 1)["seat"].to_list()
        assert sorted(final["winners"]) == winners
        assert all(isinstance(s.engine.narrate(e), str) for e in events)


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_engine_bench_runs(game: str, variant: str) -> None:
    g = registry.get_game(game)
    heuristic = next(p for p in g.policies if p != "random")
    players = g.variant(variant).min_players
    engine = registry.engine(g)
    out = engine_kit.bench(engine, g, players, heuristic, 1, 20, 1, variant)
    assert out["game"] == game
    assert out["variant"] == variant
    assert out["numba_games_per_s"] > 0
    assert out["reference_games_per_s"] > 0


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_a_named_policy_with_its_base_weights_plays_the_base(
    game: str, variant: str, tmp_path: Path
) -> None:
    """A policies-file policy is its base heuristic with another weight row: given the
    base's own row it plays the base's games exactly (kernel and reference/), under its
    own name in the dataset."""
    import numpy as np

    from talesim.simcore import policy_file

    s = _setup(game, variant)
    heuristic = s.policies[0]
    row = tuple(float(w) for w in s.engine.default_weights()[s.game.policies.index(heuristic)])
    path = tmp_path / "policies.toml"
    path.write_text(policy_file.dumps(game, [policy_file.NamedPolicy("copy", heuristic, row)]))
    named = runner.setup(
        game, variant=variant, players=s.players, policies=["copy", *s.policies[1:]],
        rotate_seats=True, policies_file=path,
    )  # fmt: skip
    assert named.prepared.code_names[-1] == "copy"
    assert np.array_equal(named.prepared.weights[-1], np.array(row))
    base, copy = _chunk(s, 0, GAMES), _chunk(named, 0, GAMES)
    assert copy["seats"]["score"].equals(base["seats"]["score"])
    assert set(copy["seats"]["policy"].cast(pl.String)) == {"copy", *s.policies[1:]}
    renamed = copy["seats"]["policy"].cast(pl.String).replace("copy", heuristic)
    assert renamed.equals(base["seats"]["policy"].cast(pl.String))
    events = named.engine.play(named.prepared, SEED, 5)
    assert events[-1]["scores"] == s.engine.play(s.prepared, SEED, 5)[-1]["scores"]
    assert "copy" in events[0]["policies"]


#: One variant a game with a learned player (the first its kernel plays).
LEARNED_CASES = [
    pytest.param(g.name, next(v.name for v in g.variants if v.kernel), id=g.name)
    for g in registry.GAMES.values()
    if g.simulates and "learned" in g.policies
]


@pytest.mark.parametrize(("game", "variant"), LEARNED_CASES)
def test_mc_plays_out_a_named_policy_as_what_it_names(
    game: str, variant: str, tmp_path: Path
) -> None:
    """``mc:playout=NAME`` with a policies file's named policy: a copy of greedy's weights
    plays the searches out as ``playout=greedy`` does, and a named learned policy with the
    shipped model's file as ``playout=learned`` does: the same games (kernel and
    the rulebook), the seat named by its spec."""
    from talesim.simcore import policy_file

    g = registry.get_game(game)
    row = tuple(float(w) for w in registry.engine(g).default_weights()[g.policies.index("greedy")])
    shipped = engine_kit.default_model(g, variant).path
    path = tmp_path / "policies.toml"
    path.write_text(policy_file.dumps(game, [
        policy_file.NamedPolicy("copy", "greedy", row),
        policy_file.NamedPolicy("shipped", "learned", (), model_path=str(shipped)),
    ]))  # fmt: skip
    for named, built_in in (("copy", "greedy"), ("shipped", "learned")):
        searcher = f"{SMALL_MC}:playout={named}"
        mine = _setup(game, variant, [searcher, "greedy", "random"], path)
        theirs = _setup(game, variant, [f"{SMALL_MC}:playout={built_in}", "greedy", "random"])
        assert _chunk(mine, 0, 8)["seats"]["score"].equals(_chunk(theirs, 0, 8)["seats"]["score"])
        assert searcher in set(_chunk(mine, 0, 2)["seats"]["policy"].cast(pl.String))
        scores = mine.engine.play(mine.prepared, SEED, 3)[-1]["scores"]
        assert scores == theirs.engine.play(theirs.prepared, SEED, 3)[-1]["scores"]


#: Every (game, variant) with a learned player.
LEARNED_VARIANTS = [
    pytest.param(g.name, v.name, id=f"{g.name}-{v.name}") for g, v in VARIANTS if _learns(g.name)
]


@pytest.mark.parametrize(("game", "variant"), LEARNED_VARIANTS)
def test_a_model_of_greedys_order_plays_greedys_games(game: str, variant: str) -> None:
    """The model decides: scored by minus greedy's rank (``kit.rank_model``), a learned seat
    takes greedy's first best at every decision it is asked, so its games are greedy's
    (every table but the seats' policy names); a model of random weights plays others."""
    engine = registry.engine(game)
    others = [p for p in _heuristics(game) if p != "greedy"][-2:]

    def tables(first: str, model: Any = None) -> dict[str, pl.DataFrame]:
        models = (model,) if model is not None else ()
        prep = prepared(game, variant, [first, *others], True, models)
        out = engine_kit.run_chunk(engine, prep, SEED, 0, 60)
        return {**out, "seats": out["seats"].drop("policy")}

    greedy = tables("greedy")
    same = tables("learned", rank_model(game))
    for name, frame in greedy.items():
        assert frame.equals(same[name]), name
    other = tables("learned", random_model(game, 5))
    assert not other["seats"].equals(greedy["seats"])


#: Runs in a fresh process with an empty kernel cache (argv: game, variant): the names of
#: the learned player's and the search's ranking kernels compiled by a run of heuristics,
#: then (the control: the check sees a compile) by a run with a learned seat.
HEURISTIC_RUN = """
import importlib, sys
from talesim.simcore import registry, runner
game, variant = sys.argv[1:]
package = registry.get_game(game).package
learned = importlib.import_module(package + ".learned")
mc = importlib.import_module(package + ".mc")
players = registry.get_game(game).variant(variant).min_players
kernels = (learned.learned_choice, learned.ranked_features, mc.rank)
for first in ("greedy", "learned"):
    seats = [first, "random", *["greedy"] * (players - 2)]
    s = runner.setup(game, variant=variant, players=players, policies=seats)
    s.engine.simulate_arrays(s.prepared, 1, 0, 2)
    print([f.__name__ for f in kernels if f.signatures])
"""


@pytest.mark.slow
@pytest.mark.parametrize(("game", "variant"), LEARNED_CASES)
def test_heuristic_runs_never_compile_the_learned_player(
    game: str, variant: str, tmp_path: Path
) -> None:
    """A run of heuristics compiles its own kernel only: nothing of the learned player nor
    of the search's ranking. An empty kernel cache makes every kernel compile (a kernel
    loaded from the cache would not show its callees); a learned seat's run afterwards
    shows the check sees what a run compiles."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", HEURISTIC_RUN, game, variant], env=env,
                         capture_output=True, text=True, check=True)  # fmt: skip
    heuristics, with_learned = out.stdout.strip().splitlines()[-2:]
    assert heuristics == "[]", out.stdout + out.stderr
    assert "learned_choice" in with_learned, out.stdout + out.stderr


#: Games a ``balance`` / ``tune`` / ``ladder`` case plays: enough for every card to show up,
#: few enough to stay quick (the commands' logic is tested on Fairy Tale in tests/search).
SEARCH_GAMES = {"fairy-tale": 400, "drako": 300, "paper-tales": 120}


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_balance_tune_and_ladder_plug_in(game: str, variant: str, tmp_path: Path) -> None:
    """``talesim balance``, ``tune`` and ``ladder`` through the CLI with small budgets: the
    game's engine, card data and editable fields (``balance.toml``) plug in."""
    g = registry.get_game(game)
    choose = ["--variant", variant]
    games = str(SEARCH_GAMES[game] // (2 if variant == "legends" else 1))
    players = str(min(4, g.variant(variant).max_players))
    out = tmp_path / "balance"
    ok("balance", game, *choose, "--players", players, "--policy", "greedy",
         "--games", games, "--budget", "2", "--band", "0.95:1.05", "--seed", "3",
         "--out", out, "--quiet")  # fmt: skip
    assert pl.read_csv(out / "changes.csv").columns == [
        "card", "field", "old", "new", "where", "text"
    ]  # fmt: skip
    assert (out / "index.html").is_file()
    ok("cards", game, *choose, "--cards", out / "cards.toml")  # the proposal loads
    out = tmp_path / "tune"
    ok("tune", game, *choose, "--policy", "greedy", "--players", players, "--games", games,
         "--budget", "2", "--seed", "3", "--out", out, "--quiet")  # fmt: skip
    seats = ",".join(["greedy-tuned"] + ["greedy"] * (int(players) - 1))
    ok("simulate", game, *choose, "--games", "20", "--players", players, "--seed", "1",
         "--policy", seats, "--policies-file", out / "policies.toml",
         "--out", tmp_path / "run", "--quiet")  # fmt: skip
    assert "greedy-tuned" in set(
        pl.read_parquet(tmp_path / "run" / "seats")["policy"].cast(pl.String)
    )
    out = tmp_path / "ladder"
    ok("ladder", game, *choose, "--players", players, "--policies", "random,greedy",
         "--games", games, "--seed", "3", "--out", out, "--quiet")  # fmt: skip
    assert pl.read_csv(out / "ratings.csv")["policy"].to_list() == ["greedy", "random"]
    assert pl.read_csv(out / "card-verdicts.csv").height > 0


# --- the kernel replays the golden playthroughs ---------------------------------------------

GOLDEN_CASES = [
    pytest.param(game, path, id=f"{game}-{path.stem}") for game in GOLDEN for path in files(game)
]


@pytest.mark.parametrize(("game", "path"), GOLDEN_CASES)
def test_kernel_replays_golden_game(game: str, path: Path) -> None:
    """The numba kernel stores each pinned game as ``reference/`` played it: every fact
    of the file that the kernel stores (``golden_games.kernel_view``) is equal."""
    pinned, stored = kernel_view(game, json.loads(path.read_text()))
    assert pinned
    assert stored.keys() == pinned.keys()
    for key, value in pinned.items():
        assert stored[key] == value, key


# --- checking mode --------------------------------------------------------------------------

#: Games of a checking-mode case (Legends: half, its kernel is the slowest).
CHECK_GAMES = {"fairy-tale": 400, "drako": 200, "paper-tales": 300}

CHECK_CASES = [
    pytest.param(g.name, v.name, n, id=f"{g.name}-{v.name}-{n}p")
    for g, v in VARIANTS
    for n in range(v.min_players, v.max_players + 1)
]


@pytest.mark.parametrize(("game", "variant", "players"), CHECK_CASES)
def test_checking_mode_passes_and_changes_nothing(game: str, variant: str, players: int) -> None:
    """Checking mode (``--check``: the kernel verifies every rule invariant as it plays)
    finds nothing on real games, every player count with every policy seated and seats
    rotated, and changes nothing in what they store (each game's ``test_check_mode.py``
    shows that it catches each corruption it claims to catch)."""
    policies = _heuristics(game)
    s = _setup(game, variant, [policies[(players + i) % len(policies)] for i in range(players)])
    games = CHECK_GAMES[game] // (2 if variant == "legends" else 1)
    checked = s.engine.simulate_arrays(s.prepared, 11, 500, games, check=True)
    plain = s.engine.simulate_arrays(s.prepared, 11, 500, games)
    assert not checked["violation"].any()
    for name, values in plain.items():
        np.testing.assert_array_equal(checked[name], values, err_msg=name)


# --- the same games however they are run --------------------------------------------------

#: Games of a run with heuristic seats (enough for several parallel blocks), with an ``mc``
#: seat and with a ``learned`` seat (in the games with a learned player).
SAME_GAMES = {
    "heuristics": {"fairy-tale": 300, "drako": 80, "paper-tales": 300},
    "mc": {"fairy-tale": 12, "drako": 9, "paper-tales": 6},
    "learned": {"fairy-tale": 60, "drako": 20, "paper-tales": 20},
}
SAME_CASES = [
    pytest.param(g.name, v.name, seats, id=f"{g.name}-{v.name}-{seats}")
    for g, v in VARIANTS
    for seats in SAME_GAMES
    if seats != "learned" or _learns(g.name)
]


@pytest.mark.parametrize(("game", "variant", "seats"), SAME_CASES)
def test_runs_are_the_same_whatever_the_chunks_and_threads(
    game: str, variant: str, seats: str, tmp_path: Path
) -> None:
    """A game's stream belongs to (seed, game) and a search's to (seed, game, seat,
    decision), not to a block or a thread: a run is the same in one chunk on one thread as
    in three chunks on two, with every heuristic seated (seats rotated), or an ``mc`` seat
    or a ``learned`` seat (``kit.random_model``) among two heuristics."""
    heuristics = _heuristics(game)[1:]
    first = {"heuristics": "random", "mc": SMALL_MC, "learned": APPRENTICE}[seats]
    policies = [first, *heuristics] if seats == "heuristics" else [first, *heuristics[:2]]
    s = _setup(
        game, variant, policies, learned_policies(game, tmp_path) if seats == "learned" else None
    )
    n = SAME_GAMES[seats][game]
    cuts = (0, n // 4, n // 2, n)
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = s.engine.simulate_arrays(s.prepared, 9, 0, n)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
        parts = [
            s.engine.simulate_arrays(s.prepared, 9, lo, hi - lo)
            for lo, hi in itertools.pairwise(cuts)
        ]
    finally:
        numba.set_num_threads(old)
    for key, value in one.items():
        np.testing.assert_array_equal(np.concatenate([p[key] for p in parts]), value, err_msg=key)


# --- the search policy ----------------------------------------------------------------------

BAD_SPECS = [
    ("mc:rollouts=0", "rollouts must be between 1 and 1024"),
    ("mc:depth=3", "policy mc has no parameter 'depth'"),
    ("mc:playout=mc", "playout must be one of {playouts}"),
    ("mc:top=two", "top must be an integer"),
    ("nobody", "unknown policy 'nobody'"),
]
SPEC_CASES = [
    pytest.param(g.name, spec, fragment, id=f"{g.name}-{spec}")
    for g in registry.GAMES.values()
    if g.simulates
    for spec, fragment in BAD_SPECS
]


@pytest.mark.parametrize(("game", "spec", "fragment"), SPEC_CASES)
def test_a_bad_policy_spec_is_one_error_line(
    game: str, spec: str, fragment: str, tmp_path: Path
) -> None:
    """``simulate`` and ``play`` refuse a bad spec with one ``error:`` line naming the game
    and what is wrong (an ``mc`` playout must be one of the game's heuristics), exit code 2,
    and no dataset."""
    mc = {param.name: param for param in dict(registry.get_game(game).policy_params)["mc"]}
    fragment = fragment.format(playouts=", ".join(mc["playout"].choices))
    out = tmp_path / "run"
    for command in (["simulate", game, "--games", 4, "--out", out], ["play", game]):
        result = invoke(*command, "--players", 2, "--seed", 1, "--policy", f"{spec},greedy")
        line = error_line(result)
        assert line.startswith(f"error: {game}: "), line
        assert fragment in line, line
    assert not out.exists()


# --- talesim play ---------------------------------------------------------------------------

PLAY_CASES = [
    pytest.param(g.name, v.name, p, id=f"{g.name}-{v.name}-{p}")
    for g, v in VARIANTS
    for p in g.policies
]
#: The decisions an ``mc`` seat searches and a ``learned`` seat scores, as the narration
#: names them.
SEARCHED = {
    "fairy-tale": ("draft", "play"),
    "drako": ("source", "action"),
    "paper-tales": ("draft", "deploy", "build"),
}


@pytest.mark.parametrize(("game", "variant", "policy"), PLAY_CASES)
def test_play_narrates_a_coherent_game_for_every_policy(
    game: str, variant: str, policy: str, tmp_path: Path
) -> None:
    """``talesim play`` of a two-seat game, seat 0 playing ``policy`` (``mc`` at a small
    budget, ``learned`` with a model of random weights) against greedy: the first line
    names the variant, seed, game and each seat's spec in full; every event is told in
    words (no raw event); the end has a score line a seat and names as winners seats with
    the top score; an ``mc`` seat shows its searches of each kind of decision (candidates,
    mean outcome over the playouts, the choice), a ``learned`` seat its scored candidates."""
    first = {"mc": SMALL_MC, "learned": APPRENTICE}.get(policy, policy)
    seats, named = [first, "greedy"], [APPRENTICE] if policy == "learned" else []
    # a model whose seat meets every kind of decision in this game (seed 5's DRAKO seat
    # always takes the discard in `published`, so it is never asked an action)
    policies_file = ["--policies-file", learned_policies(game, tmp_path, 7)] if named else []
    result = ok("play", game, *variant_option(game, variant), "--seed", 3, "--players", 2,
                "--policy", ",".join(seats), *policies_file)  # fmt: skip
    lines = result.stdout.splitlines()
    specs = ", ".join(registry.get_game(game).canonical_policies(seats, named))
    assert lines[0].endswith(f"({variant}), seed 3, game 0: 2 players ({specs})"), lines[0]
    assert not [line for line in lines if line.lstrip().startswith("{")]
    end = next(i for i, line in enumerate(lines) if line.endswith("Final scores:"))
    seat_lines = [re.match(r"\s+seat (\d+): (-?\d+)", line) for line in lines[end + 1 : -1]]
    scores = {int(m[1]): int(m[2]) for m in seat_lines if m}
    assert sorted(scores) == [0, 1], lines[end:]
    assert re.fullmatch(r"Winners?: seat \d+(, seat \d+)*", lines[-1]), lines[-1]
    winners = [int(w) for w in re.findall(r"seat (\d+)", lines[-1])]
    assert all(scores[w] == max(scores.values()) for w in winners), lines[end:]
    decides = {"mc": "seat 0 searches its {}", "learned": "seat 0 scores its {}"}
    if policy in decides:
        for decision in SEARCHED[game]:
            assert decides[policy].format(decision) in result.stdout, decision
        assert re.search(r"^ +-> \S", result.stdout, re.MULTILINE)
    if policy == "mc":
        assert "over 2 playouts" in result.stdout


REPLAY_CASES = [
    pytest.param(g.name, v.name, rotate, id=f"{g.name}-{v.name}-{'rotated' if rotate else 'fixed'}")
    for g, v in VARIANTS
    for rotate in (True, False)
    if rotate or v.name == g.default_variant
]


@pytest.mark.parametrize(("game", "variant", "rotate"), REPLAY_CASES)
def test_play_replays_a_game_the_run_stored(
    game: str, variant: str, rotate: bool, finished_run: Any
) -> None:
    """``talesim play --game 17 --json`` with a finished run's settings ends as the run
    stored game 17: each seat's policy (``--rotate-seats``: seat s plays policy (s + 17) mod
    n), score, every part of its breakdown, every other per-seat figure the seats table
    keeps (gold, face-down cards) and the winners; the game's own figures (turns)."""
    run = finished_run(game, variant, rotate)
    policies = run_policies(game)
    n = len(policies)
    result = ok("play", game, *variant_option(game, variant), "--seed", RUN_SEED, "--game", 17,
                "--players", n, "--policy", ",".join(policies),
                *(["--rotate-seats"] if rotate else []), "--json")  # fmt: skip
    events = [json.loads(line) for line in result.stdout.splitlines()]
    start, final = events[0], events[-1]
    assert final["event"] == "final"
    assert pl.read_parquet(run / "games").height == manifest(run)["n_games"]
    games = pl.read_parquet(run / "games").filter(pl.col("game_id") == 17).row(0, named=True)
    seats = pl.read_parquet(run / "seats").filter(pl.col("game_id") == 17).sort("seat")
    seated = [policies[(s + 17) % n] for s in range(n)] if rotate else policies
    assert start["policies"] == seats["policy"].cast(pl.String).to_list() == seated
    assert final["scores"] == seats["score"].to_list()
    assert final["winners"] == seats.filter(pl.col("rank") == 1)["seat"].to_list()
    for row, parts in zip(seats.iter_rows(named=True), final["breakdown"], strict=True):
        for part, points in parts.items():
            assert points == row[part if part in row else f"{part}_pts"], part
    for key, value in final.items():
        if isinstance(value, list) and key in seats.columns:
            assert value == seats[key].to_list(), key
        elif not isinstance(value, list) and key in games:
            assert value == games[key], key


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_simulate_check_writes_the_same_run(
    game: str, variant: str, finished_run: Any, tmp_path: Path
) -> None:
    """``talesim simulate --check`` writes the Parquet bytes the same command writes
    without it."""
    checked = tmp_path / "run"
    ok(*simulate_args(game, checked, variant), "--check")
    assert part_bytes(checked) == part_bytes(finished_run(game, variant))


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_resume_rebuilds_the_same_bytes(
    game: str, variant: str, finished_run: Any, tmp_path: Path
) -> None:
    """A run that lost its middle chunks (parts deleted, chunks marked not done) resumed
    with its own command line says how many games were already done and has again the
    Parquet bytes of the uninterrupted run."""
    whole = finished_run(game, variant)
    cut = copy_run(whole, tmp_path / "run")
    m = manifest(cut)
    assert len(part_bytes(whole)) == len(m["chunks"]) * len(registry.get_game(game).tables)
    lost = m["chunks"][1:3]
    for chunk in lost:
        chunk["done"] = False
        for part in cut.glob(f"*/part-{chunk['index']:05d}.parquet"):
            part.unlink()
    m["status"] = "running"
    (cut / "manifest.json").write_text(json.dumps(m))
    result = ok(*simulate_args(game, cut, variant), "--resume")
    assert f"{m['n_games'] - sum(c['n_games'] for c in lost):,} were already done" in result.stdout
    assert part_bytes(cut) == part_bytes(whole)
    assert manifest(cut)["status"] == "complete"
