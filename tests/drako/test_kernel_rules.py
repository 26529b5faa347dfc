"""The kernel follows the preset's rule switches during play, not only at the final score.

§N: a section of ``docs/rules/drako.md``, DRAKO's rules.

* Legend claims (§5, §6): the claim decision (``policies.claimable``), the best claim the
  greedy players value (``policies.seat_claims``) and the claim a placement would make
  possible (``incremental.best_claim_after`` / ``claim_gain``) count a goblin reached only
  through a portal under ``published`` (Game Park) and not under ``brief`` ("Goblins cannot
  use Portals": ``legend_goblin_via_portal = false``).
* The final ranking (§7.5, ``kernel.final_scoring``): ``brief`` breaks ties on four
  categories, the tribes summed (``tie_break_tribes = "summed"``); ``published`` on Game
  Park's seven.
"""

from __future__ import annotations

import numpy as np
import pytest

from talesim.simcore.games.drako import incremental, kernel, layout, policies
from talesim.simcore.games.drako.kernel import new_state
from talesim.simcore.games.drako.tables import CELLS, KINDS, Kind, compile_tables

P = 4
GREEDY = int(policies.Policy.GREEDY)
# none of these is met by the kingdom below but battle-goblin-human (published only)
RIVER = ("human-elf", "human-dwarf", "goblin-pair", "human-pair", "elf-pair", "dwarf-pair",
         "four-tribes", "battle-goblin-human")  # fmt: skip
LETTERS = {"P": "plain", "F": "forest", "M": "mountain", "S": "swamp", "H": "human",
           "E": "elf", "D": "dwarf", "G": "goblin", "R": "dragon", "O": "portal"}  # fmt: skip
# Human 5 reaches Goblins 0 and 2 only through Portal 1 (test_scoring's GOBLIN_GRID_2).
PORTAL_BATTLE = "G O G M / M H M M / P P F P / F F S F"


def kinds(text: str) -> list[int]:
    return [KINDS.index(LETTERS[t]) for t in text.split() if t != "/"]


def position(data, preset: str, up: list[int]):
    """Tables and a 4-player state whose seat 0 (greedy) holds ``PORTAL_BATTLE`` with the
    face-up flags ``up``, the river ``RIVER``."""
    tb = compile_tables(data, preset, P)
    s = new_state(P, 80)
    index = data.legend_index()
    river = [index[x] for x in RIVER]
    s.river[:8] = river
    rest = [g for g in range(len(data.legends)) if g not in river]
    s.ldeck[: len(rest)] = rest
    s.meta[layout.M_LD_N] = len(rest)
    s.grid[0] = kinds(PORTAL_BATTLE)
    s.up[0] = up
    s.meta[layout.M_LOADED] = -1
    s.policy[:] = GREEDY
    return tb, s


@pytest.mark.parametrize(("preset", "points"), [("brief", 0), ("published", 3)])
def test_kernel_claims_battle_through_a_portal_only_when_published(
    data, seat, preset, points
) -> None:
    """All face up: published can claim battle-goblin-human (river slot 7, 3 points), brief
    can claim nothing."""
    tb, s = position(data, preset, [1] * CELLS)
    sp = seat(s, 0)
    n = policies.claimable(tb, sp, 0)
    assert s.slots[:n].tolist() == ([7] if points else [])
    assert policies.seat_claims(tb, sp) == points


@pytest.mark.parametrize(("preset", "points"), [("brief", 0), ("published", 3)])
def test_kernel_values_a_portal_battle_placement_only_when_published(
    data, seat, preset, points
) -> None:
    """Cell 5 face down: no Legend now; a Human placed there would meet battle-goblin-human
    through the portal under published (claim term 3), under brief not (0)."""
    up = [1] * CELLS
    up[5] = 0
    tb, s = position(data, preset, up)
    sp = seat(s, 0)
    policies.load_seat(tb, sp, 0)
    assert policies.claimable(tb, sp, 0) == 0
    b_claim = policies.seat_claims(tb, sp)
    assert b_claim == 0
    human = np.int64(Kind.HUMAN)
    assert incremental.best_claim_after(tb, sp, 5, human, 0) == points
    assert incremental.claim_gain(tb, sp, 5, human, 0, b_claim) == points


# test_scoring's TIE_SEAT_0 / TIE_SEAT_1: human 4 against human 2 + elf 2, totals 4 and 4.
TIE_SEATS = ("H P S S / P S S S / F F F F / M M M M", "H F P P / F P P P / D D S M / D D F E")


@pytest.mark.parametrize(("preset", "ranks"), [("brief", [1, 1]), ("published", [1, 2])])
def test_kernel_final_ranks_break_ties_on_the_presets_categories(data, preset, ranks) -> None:
    """§7.5: brief (tribes one category) ranks both first; published seat 0 alone."""
    tb = compile_tables(data, preset, 2)
    s = new_state(2, 40)
    for p, text in enumerate(TIE_SEATS):
        s.grid[p] = kinds(text)
    kernel.final_scoring(tb, s, 2)
    assert s.score.tolist() == [4, 4]
    assert s.rank.tolist() == ranks
