"""The kernel's flat layout (``layout.py``): the card-count bound it relies on, and the count
masks it keeps beside the count rows."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from talesim.simcore import buffers
from talesim.simcore.cards import CardDataError
from talesim.simcore.games.fairy_tale import kernel
from talesim.simcore.games.fairy_tale.engine import prepare
from talesim.simcore.games.fairy_tale.layout import (
    EFF_UNBOUNDED,
    K_EFF_BOUND,
    MC,
    NO_CARD,
    SM_CNT,
    SM_DCNT,
    SM_HYP,
)
from talesim.simcore.games.fairy_tale.tables import (
    DEFAULT_CARDS,
    MAX_CARDS,
    CardSet,
    compile_tables,
    load_cardset,
)


def _with_extra_cards(tmp_path: Path, n_extra: int) -> Path:
    """The default card file plus ``n_extra`` plain fixed cards."""
    text = DEFAULT_CARDS.read_text()
    for i in range(n_extra):
        text += (
            f'\n[[card]]\nid = "filler-{i}"\nname = "Filler {i}"\nfaction = "shadow"\n'
            'category = "character"\ncopies = 1\ntier = "basic"\nstatus = "proposal"\n'
            'text = "-"\nvalue = { kind = "fixed", points = 1 }\n'
        )
    path = tmp_path / "cards.toml"
    path.write_text(text)
    return path


def test_card_files_up_to_the_bound_load_and_larger_ones_are_rejected(tmp_path: Path) -> None:
    n_default = len(load_cardset().cards)
    assert MAX_CARDS == MC - 1 == NO_CARD  # the last row entry is the never-held padding card
    assert len(load_cardset(_with_extra_cards(tmp_path, MAX_CARDS - n_default)).cards) == MAX_CARDS
    with pytest.raises(CardDataError, match=re.escape(f"at most {MAX_CARDS} distinct cards")):
        load_cardset(_with_extra_cards(tmp_path, MAX_CARDS + 1 - n_default))


def test_count_masks_match_the_count_rows_after_every_game(cards: CardSet) -> None:
    """Bit t of a player's mask is set exactly when the count row has card t (checking mode
    verifies the same after every step); the padding card is never held."""
    prepared = prepare(
        cards, "expert", 5, ["greedy", "random", "collector", "greedy", "random"], False
    )
    tb = prepared.tables
    s = kernel.new_state(tb.ct.shape[0], tb.deck.shape[0])
    for g in range(30):
        s.policy[:5] = [1, 0, 2, 1, 0]
        assert kernel.play_game(tb, prepared.weights, s, 5, np.uint64(9), g, True) == 0
        for p in range(5):
            for rows, mask in ((s.dcnt, SM_DCNT), (s.hyp, SM_HYP)):
                bits = [(int(s.sm[mask + p]) >> t) & 1 for t in range(MC)]
                assert bits == [int(x > 0) for x in rows[p]]
            if s.trick_as[p] < 0:  # a Trickster's final identity is scored without its mask
                bits = [(int(s.sm[SM_CNT + p]) >> t) & 1 for t in range(MC)]
                assert bits == [int(x > 0) for x in s.cnt[p]]
            assert s.cnt[p, NO_CARD] == s.dcnt[p, NO_CARD] == s.hyp[p, NO_CARD] == 0


def test_result_buffers_of_a_large_chunk_are_zeroed_writable_and_shaped_like_small_ones() -> None:
    """A chunk above ``POPULATE_MIN_BYTES`` gets its buffers from one populated mapping: the
    same dtypes, shapes and zeros as the ``np.zeros`` buffers of a small chunk."""
    small = kernel.new_chunk_out(3, 4)
    n = buffers.POPULATE_MIN_BYTES // 100  # > 1 MB of results
    large = kernel.new_chunk_out(n, 4)
    assert sum(a.nbytes for a in large) > buffers.POPULATE_MIN_BYTES
    for a, b in zip(small, large, strict=True):
        assert (a.dtype, a.shape[1:]) == (b.dtype, b.shape[1:])
        assert b.shape[0] == n
        assert b.flags.c_contiguous
        assert b.flags.writeable
        assert b.flags.aligned
        assert b.ctypes.data % 64 == 0
        assert not b.any()
    large.points[-1, -1, -1] = 7  # the arrays do not overlap
    assert sum(int(a.sum()) for a in large) == 7


def _effect_bounds(cards: CardSet) -> dict[str, int]:
    kt = kernel.kernel_tables(compile_tables(cards, "expert"))
    return {card.id: int(kt[K_EFF_BOUND + c]) for c, card in enumerate(cards.cards)}


def test_effect_bounds_of_the_default_cards_and_of_cards_that_can_lose_less_than_zero(
    tmp_path: Path,
) -> None:
    """``K_EFF_BOUND``: an Open is unbounded, a Close of others and a card without an
    effect add nothing, a Close of the owner's cards at most ``count x`` minus the lowest
    negative points of a fixed card it selects (0 in the default cards), and nothing bounds
    a Close once some count card's ``per`` is negative."""
    bounds = _effect_bounds(load_cardset())
    assert bounds["priest"] == bounds["dark-pact"] == EFF_UNBOUNDED
    assert bounds["shadowking"] == bounds["unicorn"] == bounds["paladin"] == 0
    assert bounds["dragons-cave"] == bounds["lich"] == bounds["demon"] == 0
    text = DEFAULT_CARDS.read_text()
    sky_dancer = 'value = { kind = "fixed", points = 3 }'
    assert text.count(sky_dancer) == 3  # sky dancer dragon, unicorn, knight of the round table
    path = tmp_path / "cards.toml"
    path.write_text(text.replace(sky_dancer, 'value = { kind = "fixed", points = -3 }', 1))
    bounds = _effect_bounds(load_cardset(path))
    assert bounds["dragons-cave"] == bounds["lich"] == bounds["demon"] == 3  # select it
    assert bounds["fairy-ring"] == bounds["werewolf"] == 0  # do not
    children = 'of = "children-of-the-dragon", per = 1 }'
    path.write_text(text.replace(children, 'of = "children-of-the-dragon", per = -1 }'))
    bounds = _effect_bounds(load_cardset(path))
    assert bounds["fairy-ring"] == bounds["lich"] == EFF_UNBOUNDED
    assert bounds["shadowking"] == 0


def test_close_bound_values_the_trickster_at_its_best_copy(tmp_path: Path) -> None:
    """A Close that selects the Trickster: the policies value closing it at its -1 plus its
    best copy, which gains at least the largest fixed points of a card it can copy (6, a
    stronghold). A Vampire made to close Shadow Characters (Lich ... Shadowking 1-4 points,
    the Trickster -1 + 6) loses at least 0: bound 0 (1 while the Trickster counted -1). A
    Trickster of -8 loses at least -8 + 6 = -2: bound 2 (8 at -8)."""
    text = DEFAULT_CARDS.read_text()
    vampire = 'faction = "any", exclude_faction = "shadow", category = "character"'
    assert text.count(vampire) == 1
    text = text.replace(vampire, 'faction = "shadow", category = "character"')
    path = tmp_path / "cards.toml"
    path.write_text(text)
    assert _effect_bounds(load_cardset(path))["vampire"] == 0
    trickster = 'value = { kind = "wild", points = -1 }'
    assert text.count(trickster) == 1
    path.write_text(text.replace(trickster, 'value = { kind = "wild", points = -8 }'))
    assert _effect_bounds(load_cardset(path))["vampire"] == 2
