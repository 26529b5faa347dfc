"""Paper Tales' ``learned`` player (learned.py, mc.py, reference/learned.py) and
what ``talesim learn`` records of a search, both variants.

* kernel = reference: games with learned seats, and with mc seats whose playouts are
  learned, are the same games in both (every dataset table);
* the features the kernel records for a search's candidates are the rulebook's, in greedy's
  order, with each candidate's mean outcome;
* no peeking: states equal in what the seat sees and different in what it cannot see give
  the same features and the same learned choice; a change the seat sees changes them
  (that runs of heuristics never compile the learned player is every game's:
  ``tests/test_engine_conformance.py``).

The kernels are the ones ``test_mc.py`` compiles (the search kernel's signature does not
depend on the seats).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest
from kit import prepared, random_model
from typer.testing import CliRunner

from talesim.cli.main import app
from talesim.simcore import engine_kit, learned
from talesim.simcore.games.paper_tales import engine, layout
from talesim.simcore.games.paper_tales.engine import (
    GAME,
    frame_mismatch,
    reference_frames,
    simulate_arrays,
)
from talesim.simcore.games.paper_tales.learned import FEATURES, KINDS, N_FEATURES
from talesim.simcore.games.paper_tales.reference import Game, Rules
from talesim.simcore.games.paper_tales.reference.learned import ranked_features
from talesim.simcore.games.paper_tales.reference.search import Search
from talesim.simcore.games.paper_tales.tables import CardSet

run_chunk = functools.partial(engine_kit.run_chunk, engine)
VARIANTS = ("base", "legends")


CASES = [
    ("base", ["learned", "greedy", "random"], 2),
    ("base", ["builder", "learned", "warlord", "learned"], 1),
    ("legends", ["learned", "greedy", "learned", "builder"], 1),
    ("base", ["mc:rollouts=1:top=2:playout=learned", "learned"], 1),
    pytest.param(
        ("legends", ["mc:rollouts=1:top=2:playout=learned", "greedy"], 1), marks=pytest.mark.slow
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{len(c[1])}p-{c[1][0][:2]}")
def test_kernel_equals_reference_with_learned_seats(cards: CardSet, case: tuple) -> None:
    """The kernel and the rulebook play the same games with learned seats (and an mc seat
    whose playouts are learned), seats rotated: every table of the dataset is equal."""
    variant, specs, games = case
    prep = prepared(GAME.name, variant, specs, True, (random_model(GAME.name, 5, top=3),))
    frames = run_chunk(prep, 31, 0, games)
    ref = reference_frames(prep, 31, 0, games)
    for table in ("games", "seats", "cards", "buildings"):
        assert frame_mismatch(frames[table], ref[table], table) is None


def searched_features(prep: Any, seed: int, g: int) -> tuple[list[tuple], list[dict]]:
    """Each search of reference game ``g`` with more than one candidate: its candidates'
    features (the rulebook's ``ranked_features``), the decision kind and the seat; and the
    game's narrated ``search`` events."""
    seen: list[tuple] = []
    real = Game.search_decide

    def spy(self: Game, search: Search, decision: str, p: int) -> int:
        best, rows = ranked_features(self, decision, p, search.top)
        if len(best) > 1:
            seen.append((rows, KINDS.index(decision), p))
        return real(self, search, decision, p)

    codes, searches = prep.reference_seats(g, Search)
    rules = Rules(prep.cards, prep.players)
    lweights = engine.legends_rows(prep)
    Game.search_decide = spy  # type: ignore[method-assign]
    try:
        game = Game(rules, prep.weights, codes, seed, g, record=True, searches=searches,
                    lweights=lweights).run()  # fmt: skip
    finally:
        Game.search_decide = real  # type: ignore[method-assign]
    events = [e for e in game.events if e["event"] == "search" and len(e["candidates"]) > 1]
    return seen, events


@pytest.mark.parametrize("variant", ["base", "legends"])
def test_the_record_holds_the_rulebooks_features_and_outcomes(cards: CardSet, variant: str) -> None:
    """What ``talesim learn`` records of each search: the candidates' features are the
    rulebook's (``reference/learned.ranked_features``) in greedy's order (``rank`` 0, 1,
    ...), with each candidate's mean outcome (the narrated mean, in wins)."""
    prep = prepared(GAME.name, variant, ["mc:rollouts=2:top=3", "greedy", "builder"], False, ())
    rec = learned.new_record(1, 200, 3, N_FEATURES)
    simulate_arrays(prep, 41, 0, 1, record=rec)
    seen, events = searched_features(prep, 41, 0)
    assert rec.count[0] == len(seen) == len(events) > 10
    for r, (rows, kind, seat) in enumerate(seen):
        n = rec.n[0, r]
        assert n == len(rows)
        assert (rec.kind[0, r], rec.seat[0, r]) == (kind, seat)
        np.testing.assert_array_equal(rec.x[0, r, :n], np.float32(rows), err_msg=str(r))
        means = [c["mean"] for c in events[r]["candidates"]]
        np.testing.assert_allclose(rec.value[0, r, :n], means, atol=1e-4, err_msg=str(r))
    assert {int(k) for k in rec.kind[0, : rec.count[0]]} == {0, 1, 2}


# --- no peeking -----------------------------------------------------------------------------

ASKER = 2  # the learned seat: seats 0 and 1 act before it in a step
SPECS = ["greedy", "random", "learned", "warlord"]


def _features(k: Any) -> tuple[int, list[float]]:
    """The learned choice at ``k``'s stop and the features it scored (a copy's)."""
    c = k.clone()
    choice = c.learned()
    m = int(c.ml.n_opt[0])
    return choice, c.x[: min(m, 3) * N_FEATURES].tolist()


@pytest.mark.parametrize("variant", ["base", "legends"])
@pytest.mark.parametrize("where", ["draft", "deploy", "build"])
def test_learned_choice_does_not_peek(
    cards: CardSet, kgames: Any, variant: str, where: str
) -> None:
    """No peeking: at a learned seat's draft pick, deployment step and construction choice,
    states that differ only in what it cannot see (the draw pile's order, another seat's
    pack, hand, kept card or face-down placement, a card another seat discarded face down)
    give the same features and the same choice."""
    prep = prepared(GAME.name, variant, SPECS, False, (random_model(GAME.name, 9, top=3),))
    k = kgames.stopped(prep, 8, 1, getattr(kgames, f"at_{where}"))
    assert k.asker() == ASKER
    changed = kgames.hidden_changes(k)
    assert len(changed) >= 3
    base = _features(k)
    for c in changed:
        assert _features(c) == base


def test_learned_choice_sees_what_it_sees(cards: CardSet, kgames: Any) -> None:
    """Control for the no-peeking test: the seat's own hand card traded with a draw-pile
    card changes its features."""
    prep = prepared(GAME.name, "base", SPECS, False, (random_model(GAME.name, 9, top=3),))
    k = kgames.stopped(prep, 8, 1, kgames.at_deploy)

    def put(st: Any, card: int) -> None:
        st.hand[ASKER, 0] = card

    c = kgames.swap_with_deck(k, lambda st: int(st.hand[ASKER, 0]), put, ASKER)
    assert _features(c)[1] != _features(k)[1]


def test_a_learned_seat_is_asked_its_three_decisions(cards: CardSet, kgames: Any) -> None:
    """The learned seat is asked its draft picks, deployment steps and construction
    choices, and only those (its other decisions are greedy's)."""
    prep = prepared(
        GAME.name, "base", ["learned", "greedy"], False, (random_model(GAME.name, 3, top=3),)
    )
    k = kgames.KGame(prep, 2, 0)
    asked = set()
    while k.advance():
        assert k.asker() == 0
        asked.add(int(k.s.g[layout.G_ASK_DEC]))
        k.answer(k.learned())
    assert asked == {layout.D_DRAFT, layout.D_DEPLOY, layout.D_BUILD}


@pytest.mark.parametrize("variant", ["base", "legends"])
def test_play_narrates_each_learned_decision(variant: str) -> None:
    """``talesim play paper-tales --policy learned,...`` plays the shipped model
    (``models/base.toml``, both variants) and shows, at each scored decision, every
    candidate with greedy's value and its model score, and the choice."""
    result = CliRunner().invoke(
        app,
        ["play", "paper-tales", "--variant", variant, "--seed", "3", "--players", "2",
         "--policy", "learned,greedy"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    text = result.output
    for decision in ("draft", "deploy", "build"):
        assert f"seat 0 scores its {decision} decision" in text
    assert "   score " in text
    assert "    -> " in text


def test_learn_trains_a_tiny_model_end_to_end(tmp_path: Any) -> None:
    """``talesim learn paper-tales`` end to end at a tiny budget: it writes a model for the
    variant that loads, and a policies file that names it."""
    out = tmp_path / "learn"
    result = CliRunner().invoke(
        app,
        ["learn", "paper-tales", "--players", "2", "--games", "3", "--iterations", "1",
         "--expert", "mc:rollouts=1:top=2", "--eval-games", "8", "--seed", "1", "--quiet",
         "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    model = learned.load(out / "model.toml", GAME.name, FEATURES, KINDS, "base")
    assert model.top == 2
    assert "apprentice" in (out / "policies.toml").read_text()
