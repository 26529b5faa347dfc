"""Differential test: the numba kernel plays exactly the games of the readable reference.

For the same (seed, game id, seat policies, cards, variant) both must agree on everything
stored: scores, score breakdown, every received card in order (card, round, pick number),
whether it was played and ends face up, its points, face-down counts and the Trickster's
identity. Reference: design of ``reference/`` (package docstring) and §3-§5 of
``docs/rules/fairy-tale.md``.

Budget: the reference plays ~30 (collector, 4-5 players) to ~2000 (random) games/s, so the
default run plays >= 1,000 games per variant in well under a minute; ``-m slow`` plays more.
"""

from __future__ import annotations

import numpy as np
import pytest
from kit import seat_policies

from talesim.simcore.games.fairy_tale.engine import GAME, prepare, simulate_arrays
from talesim.simcore.games.fairy_tale.policies import POLICY_NAMES
from talesim.simcore.games.fairy_tale.reference import Rules, Search, final_state, play_reference

MIXED = ("greedy", "random", "collector", "greedy", "random")

# (variant, players, policy spec, games). Spec: one policy for every seat, or "mixed".
# Games per variant: basic 1,410, beginner 1,410, expert 1,440.
CASES = [
    ("basic", 2, "random", 250),
    ("basic", 3, "random", 250),
    ("basic", 4, "random", 250),
    ("basic", 2, "greedy", 180),
    ("basic", 4, "greedy", 120),
    ("basic", 3, "collector", 120),
    ("basic", 4, "collector", 60),
    ("basic", 3, "mixed", 120),
    ("basic", 4, "mixed", 60),
    ("beginner", 2, "random", 250),
    ("beginner", 3, "random", 250),
    ("beginner", 4, "random", 250),
    ("beginner", 3, "greedy", 300),
    ("beginner", 2, "collector", 120),
    ("beginner", 4, "collector", 60),
    ("beginner", 4, "mixed", 180),
    ("expert", 2, "random", 200),
    ("expert", 3, "random", 200),
    ("expert", 4, "random", 200),
    ("expert", 5, "random", 200),
    ("expert", 3, "greedy", 160),
    ("expert", 5, "greedy", 120),
    ("expert", 2, "collector", 120),
    ("expert", 5, "collector", 60),
    ("expert", 4, "mixed", 120),
    ("expert", 5, "mixed", 60),
]

SLOW_CASES = [
    (variant, players, spec, games * 10)
    for variant, players, spec, games in CASES
    if spec != "random" or players == 4
]


def canonical(policies: list[str]) -> list[str]:
    """The specs as the runner hands them to ``prepare`` (every parameter written out)."""
    return GAME.canonical_policies(policies)


def compare(
    cards,
    variant: str,
    players: int,
    policies: list[str],
    seed: int,
    first: int,
    n: int,
    rotate: bool = False,
) -> int:
    """Play games ``first .. first+n-1`` both ways and assert every stored field is equal.
    Returns the number of games in which a Trickster took an identity."""
    prep = prepare(cards, variant, players, canonical(policies), rotate)
    a = simulate_arrays(prep, seed, first, n)
    rules = Rules(cards, variant)
    slots = [int(x) for x in prep.seat_slot]
    tricksters = 0
    for i in range(n):
        g = first + i
        seats, searches = prep.reference_seats(g, Search)
        game = play_reference(rules, prep.weights, seats, seed, g, searches=searches)
        ref = final_state(game)
        where = f"{variant} {players}p {policies} seed {seed} game {g}"
        expected = [slots[(p + g) % players] for p in range(players)] if rotate else slots
        assert a["policy"][i].tolist() == expected, where
        assert a["score"][i].tolist() == ref["scores"], where
        assert a["breakdown"][i].tolist() == ref["breakdown"], where
        down = [sum(not up for _, up in tab) for tab in ref["tableau"]]
        assert a["face_down"][i].tolist() == down, where
        owners = [t for t in ref["trickster_as"] if t >= 0]
        assert int(a["trick"][i]) == (owners[0] if owners else -1), where
        tricksters += bool(owners)
        for p in range(players):
            received = ref["received"][p]
            assert len(received) == 20, where
            for k, (card, rnd, pick_no, slot) in enumerate(received):
                got = (
                    int(a["card"][i, p, k]),
                    int(a["round"][i, p, k]),
                    int(a["pick"][i, p, k]),
                    bool(a["played"][i, p, k]),
                    bool(a["face_up"][i, p, k]),
                    int(a["points"][i, p, k]),
                )
                played = slot >= 0
                face_up = played and ref["tableau"][p][slot][1]
                points = ref["points"][p][slot] if played else 0
                assert got == (card, rnd, pick_no, played, face_up, points), (
                    f"{where} seat {p} k {k}"
                )
            assert int(a["played"][i, p].sum()) == 12, where
            assert sum(ref["points"][p]) == ref["scores"][p], where
    return tricksters


def _id(case: tuple) -> str:
    variant, players, spec, games = case
    return f"{variant}-{players}p-{spec}-{games}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_kernel_equals_reference(cards, case) -> None:
    """The kernel and reference/ agree field by field on every game (§3-§5)."""
    variant, players, spec, games = case
    compare(cards, variant, players, seat_policies(spec, players, MIXED), 20240 + players, 0, games)


def test_games_per_variant_at_least_1000() -> None:
    """The default differential run covers >= 1,000 games of each variant."""
    per_variant: dict[str, int] = {}
    for variant, _, _, games in CASES:
        per_variant[variant] = per_variant.get(variant, 0) + games
    assert min(per_variant.values()) >= 1000, per_variant
    assert set(per_variant) == {"basic", "beginner", "expert"}


def test_kernel_equals_reference_far_game_ids_and_big_seed(cards) -> None:
    """Game ids far from 0 and the largest seed give the same games both ways (the stream of
    game g does not depend on where a chunk starts)."""
    compare(cards, "expert", 4, ["random"] * 4, 2**63 - 1, 10**12, 60)
    compare(cards, "expert", 3, ["greedy"] * 3, 0, 123_456_789, 20)


def test_kernel_equals_reference_with_rotated_seats(cards) -> None:
    """--rotate-seats: seat s of game g plays policy[(s + g) % P], in both implementations."""
    compare(cards, "expert", 3, ["greedy", "random", "collector"], 77, 5, 45, rotate=True)


def test_tricksters_were_compared(cards) -> None:
    """Sanity: the expert games above include Trickster identities (so that field is tested);
    with 5 players every card is dealt, so the Trickster is often face up at the end."""
    assert compare(cards, "expert", 5, ["random"] * 5, 3, 0, 100) >= 10


def test_policy_names_cover_all_cases() -> None:
    """The case table uses only known policies."""
    for _, players, spec, _ in CASES:
        assert set(seat_policies(spec, players, MIXED)) <= set(POLICY_NAMES)


@pytest.mark.slow
@pytest.mark.parametrize("case", SLOW_CASES, ids=_id)
def test_kernel_equals_reference_many_games(cards, case) -> None:
    """More games of the non-trivial cases (run with ``-m slow``)."""
    variant, players, spec, games = case
    compare(cards, variant, players, seat_policies(spec, players, MIXED), 99, 1000, games)


def test_arrays_are_deterministic(cards) -> None:
    """Two kernel runs of the same chunk return identical arrays."""
    prep = prepare(cards, "expert", 4, ["collector"] * 4, False)
    a = simulate_arrays(prep, 5, 0, 40)
    b = simulate_arrays(prep, 5, 0, 40)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)
