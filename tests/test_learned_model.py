"""The learned player's model file (``simcore/learned.py``): written and read back to the
same numbers, scored as the formula says (hand-computed), and every kind of bad file one
``CardDataError`` line naming the file and what is wrong. Plain Python: no kernel."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from kit import data_error

from talesim.simcore import learned
from talesim.simcore.cards import CardDataError
from talesim.simcore.learned import Head, Model

FEATURES = ("a", "b")
KINDS = ("draft", "play")


def small_model(hidden: int = 1) -> Model:
    """Two features, two kinds; head 'play' = head 'draft' with its output negated."""
    head = Head(
        mean=np.array([1.0, 0.0]),
        scale=np.array([2.0, 1.0]),
        linear=np.array([0.5, -1.0]),
        hidden_weights=np.array([[1.0], [2.0]])[:, :hidden],
        hidden_bias=np.array([-1.0])[:hidden],
        output=np.array([3.0])[:hidden],
    )
    play = Head(
        head.mean, head.scale, head.linear, head.hidden_weights, head.hidden_bias, -head.output
    )
    return Model(
        "toy", ("basic",), (4,), 3, hidden, FEATURES, KINDS, (head, play), note="made by hand"
    )


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "model.toml"
    path.write_text(text)
    return path


def load(path: Path, variant: str | None = None) -> Model:
    return learned.load(path, "toy", FEATURES, KINDS, variant)


def test_a_written_model_reads_back_to_the_same_numbers(tmp_path: Path) -> None:
    model = small_model()
    back = load(write(tmp_path, learned.dumps(model, header="two lines\nof header")))
    assert back.variants == ("basic",)
    assert back.players == (4,)
    assert back.top == 3
    assert back.note == "made by hand"
    for h, g in zip(model.heads, back.heads, strict=True):
        for field in Head.__dataclass_fields__:
            np.testing.assert_array_equal(getattr(h, field), getattr(g, field))
    assert back.sha256
    assert back.path == str(tmp_path / "model.toml")


def test_score_is_the_formula() -> None:
    """x = (3, 2): z = ((3-1)/2, 2/1) = (1, 2); linear 0.5*1 - 1*2 = -1.5; hidden
    -1 + 1*1 + 2*2 = 4 > 0, times 3 = 12: 10.5. Head 'play' negates the output: -13.5.
    x = (1, 0): z = (0, 0), hidden -1 (relu 0): 0 in both heads."""
    model = small_model()
    assert model.score(0, [3.0, 2.0]) == 10.5
    assert model.score(1, [3.0, 2.0]) == -13.5
    assert model.score(0, [1.0, 0.0]) == 0.0
    linear = small_model(hidden=0)
    assert linear.score(0, [3.0, 2.0]) == -1.5


def test_pack_lays_out_each_head_after_the_header() -> None:
    model = small_model()
    row = learned.pack([model])[0]
    assert list(row[:4]) == [2, 1, 2, 3]  # features, hidden, kinds, top
    size = learned.head_size(2, 1)
    draft, play = row[4 : 4 + size], row[4 + size : 4 + 2 * size]
    assert list(draft) == [1, 0, 2, 1, 0.5, -1, 1, 2, -1, 3]
    assert play[-1] == -3
    assert learned.pack([]).shape == (1, 4)  # no model: one row of zeros


BAD = [
    # (regex in the written file, replacement, what the error names)
    (r"^schema = 1$", "schema = 2", "field 'schema' must be 1"),
    (r'^game = "toy"$', 'game = "drako"', "a 'drako' model, not a 'toy' one"),
    (r"^features = .*$", 'features = ["a"]', "reads features a; this version computes a, b"),
    (r"^variants = .*$", "variants = []", "non-empty list of variant names"),
    (r"^top = 3$", "top = 0", "an integer from 1 to 64"),
    (r"^hidden = 1$", "hidden = 65", "an integer from 0 to 64"),
    (r"^hidden = 1$", "hidden = 2", "head 'draft'"),
    (r"^\[head\.play\]$", "[head.open]", "one [head.KIND] table for each of draft, play"),
    (r"^(scale = )\[2\.0", r"\1[0.0", "scale"),
    (r"^(linear = )\[0\.5", r'\1["x"', "finite numbers"),
    (r"^schema = 1$", "schema = 1\nextra = 3", "unknown top-level key(s): extra"),
    (r"^schema = 1$", "schema = [", "not a readable TOML model file"),
]


@pytest.mark.parametrize(("old", "new", "says"), BAD, ids=[b[2][:30] for b in BAD])
def test_a_bad_model_file_is_one_line_naming_it(
    tmp_path: Path, old: str, new: str, says: str
) -> None:
    text, n = re.subn(old, new, learned.dumps(small_model()), count=1, flags=re.M)
    assert n == 1, old
    path = write(tmp_path, text)
    data_error(lambda: load(path), path, says)


def test_a_missing_file_and_a_variant_it_does_not_play(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="file not found"):
        load(tmp_path / "absent.toml")
    path = write(tmp_path, learned.dumps(small_model()))
    assert load(path, "basic").variants == ("basic",)
    with pytest.raises(CardDataError, match="expert"):
        load(path, "expert")
