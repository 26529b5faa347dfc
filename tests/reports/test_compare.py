"""``talesim compare``'s findings, significance and card table: Benjamini–Hochberg by hand,
p-values read off intervals, the card-data diff from the manifests' card files, and one
end-to-end comparison of a changed card (page, CSVs and the terminal's findings)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest
from kit import invoke, simulate_args

from talesim.reports import compare as c
from talesim.reports import metrics as m
from talesim.reports.run import Run
from talesim.simcore.cards import file_sha256

# --- significance ------------------------------------------------------------------------------


def test_bh_adjust_by_hand() -> None:
    # m = 4 tests (None is no test). Sorted: 0.005 (k=1), 0.01 (2), 0.03 (3), 0.04 (4);
    # m·p/k = 0.02, 0.02, 0.04, 0.04; the running minimum from the largest keeps them.
    assert c.bh_adjust([0.01, 0.04, 0.03, 0.005, None]) == pytest.approx(
        [0.02, 0.04, 0.04, 0.02, None]
    )
    # m·p/k = 0.03, 0.03, 0.9: unchanged; and 0.7, 0.8 -> 1.4, 0.8: the minimum from above
    # makes the smaller p's q = 0.8 (q never exceeds the q of a larger p).
    assert c.bh_adjust([0.02, 0.01, 0.9]) == pytest.approx([0.03, 0.03, 0.9])
    assert c.bh_adjust([0.7, 0.8]) == pytest.approx([0.8, 0.8])
    assert c.bh_adjust([0.6]) == pytest.approx([0.6])
    assert c.bh_adjust([]) == []


def test_p_value_from_the_interval() -> None:
    se = 0.05
    # A symmetric normal interval: the usual z-test, z = 0.1 / 0.05 = 2.
    p = c.p_value(0.1, 0.1 - m.Z95 * se, 0.1 + m.Z95 * se)
    assert p == pytest.approx(math.erfc(2 / math.sqrt(2)))
    assert c.p_value(-0.1, -0.1 - m.Z95 * se, -0.1 + m.Z95 * se) == pytest.approx(p)
    # An interval ending at 0 is p = 0.05 exactly, whatever its other side (Newcombe).
    assert c.p_value(0.2, 0.0, 0.9) == pytest.approx(0.05)
    assert c.p_value(0.0, 0.0, 0.0) is None  # a share that cannot vary: no test
    assert c.p_value(None, None, None) is None


def _delta_rows(key: str, values: list[str], deltas: list[float], se: float) -> pl.DataFrame:
    return pl.DataFrame(
        {
            key: values,
            "delta": deltas,
            "delta_lo": [d - m.Z95 * se for d in deltas],
            "delta_hi": [d + m.Z95 * se for d in deltas],
            "significant": [True] * len(deltas),
            "method": ["paired"] * len(deltas),
        }
    )


def test_significance_is_bh_over_every_table_of_the_page() -> None:
    # z = 2.2, 2.1, 3.5, 0.5: raw p 0.0278, 0.0357, 0.000465, 0.617 (m = 4).
    cards = _delta_rows("card", ["x", "y"], [0.22, 0.21], 0.1)
    seats = _delta_rows("seat", ["0", "1"], [0.35, 0.05], 0.1)
    out = c.with_significance({"card-changes": cards, "seat-changes": seats})
    raw = [math.erfc(z / math.sqrt(2)) for z in (2.2, 2.1, 3.5, 0.5)]
    # Sorted: 3.5 (k=1), 2.2 (2), 2.1 (3), 0.5 (4): 4p/k, then the running minimum from above.
    q = [min(4 * raw[1] / 3, 4 * raw[0] / 2), 4 * raw[1] / 3, 4 * raw[2], raw[3]]
    assert out["card-changes"]["p"].to_list() == pytest.approx(raw[:2])
    assert out["card-changes"]["p_bh"].to_list() == pytest.approx(q[:2])
    assert out["seat-changes"]["p_bh"].to_list() == pytest.approx(q[2:])
    # Both card intervals exclude 0, but after the adjustment (0.0476, 0.0476 < 0.05) ...
    assert out["card-changes"]["significant"].to_list() == [True, True]
    assert out["seat-changes"]["significant"].to_list() == [True, False]
    # ... with a fifth, null test nothing changes; with two more flat tests (m = 6) the
    # cards' q = 6·0.0357/3 = 0.071 is no longer significant although each excludes 0.
    flat = _delta_rows("policy", ["p", "q"], [0.0, 0.0], 0.1)
    wider = c.with_significance({"card-changes": cards, "seat-changes": seats, "p": flat})
    assert wider["card-changes"]["significant"].to_list() == [False, False]
    assert wider["card-changes"]["delta_lo"].to_list() == cards["delta_lo"].to_list()


# --- card data ---------------------------------------------------------------------------------

CARDS = """schema = 1
game = "fairy-tale"

[[card]]
id = "dragon"
copies = 2
value = {{ kind = "fixed", points = {points} }}

[[card]]
id = "elf"
copies = 3
value = {{ kind = "fixed", points = 1 }}
{extra}"""


def _run_with_cards(path: Path, text: str) -> Run:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return Run(path.parent, {"card_files": [str(path)], "card_sha256": file_sha256(path)})


def test_card_data_changes_field_by_field(tmp_path: Path) -> None:
    a = _run_with_cards(tmp_path / "a" / "cards.toml", CARDS.format(points=3, extra=""))
    extra = '\n[[card]]\nid = "troll"\ncopies = 1\n'
    b = _run_with_cards(tmp_path / "b" / "cards.toml", CARDS.format(points=5, extra=extra))
    frame, text = c.card_data_changes(a, b)
    assert frame.rows() == [
        ("dragon", "value.points", "3", "5"),
        ("troll", "(card)", "absent", "present"),
    ]
    assert text == (
        "Card data changed from A to B in 2 fields of 2 cards: dragon value.points 3 → 5; "
        "troll (card) absent → present."
    )


def test_card_data_same_gone_or_edited(tmp_path: Path) -> None:
    a = _run_with_cards(tmp_path / "a" / "cards.toml", CARDS.format(points=3, extra=""))
    frame, text = c.card_data_changes(a, a)
    assert frame.is_empty()
    assert text.startswith("Same card data in both runs")
    b = _run_with_cards(tmp_path / "b" / "cards.toml", CARDS.format(points=5, extra=""))
    (tmp_path / "a" / "cards.toml").write_text(CARDS.format(points=4, extra=""), "utf-8")
    frame, text = c.card_data_changes(a, b)
    assert frame.is_empty()
    assert f"run A's card file {tmp_path / 'a' / 'cards.toml'} has changed since the run" in text
    (tmp_path / "a" / "cards.toml").unlink()
    _, text = c.card_data_changes(a, b)
    assert "The card data differ" in text
    assert "is gone: the changed fields cannot" in text
    _, text = c.card_data_changes(Run(tmp_path, {}), b)
    assert text == "The manifests do not record the card data: card changes unknown."


def test_card_data_changes_read_the_runs_own_copy(tmp_path: Path) -> None:
    """A run keeps a copy of its card data (``RUN/card-data/``): the changes are listed
    from it after the card file the run named is edited, then deleted."""
    runs = []
    for name, points in (("a", 3), ("b", 5)):
        run = _run_with_cards(
            tmp_path / "src" / name / "cards.toml", CARDS.format(points=points, extra="")
        )
        copy = tmp_path / name / "card-data" / "cards.toml"
        copy.parent.mkdir(parents=True)
        copy.write_bytes(Path(run.manifest["card_files"][0]).read_bytes())
        runs.append(Run(tmp_path / name, {**run.manifest, "card_copies": ["card-data/cards.toml"]}))
    (tmp_path / "src" / "a" / "cards.toml").write_text(CARDS.format(points=4, extra=""), "utf-8")
    (tmp_path / "src" / "b" / "cards.toml").unlink()
    frame, _ = c.card_data_changes(*runs)
    assert frame.rows() == [("dragon", "value.points", "3", "5")]
    (tmp_path / "a" / "card-data" / "cards.toml").write_text("edited", "utf-8")
    _, text = c.card_data_changes(*runs)  # a copy that is not the run's data is not read
    assert "has changed since the run" in text


# --- end to end --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def changed_pair(
    finished_run: Callable[..., Path], tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Path]:
    """Run A: the kit's Fairy Tale expert run; run B: the same seed with Sky Dancer Dragon
    (a plain fixed-points card, 3) made worth 12 more points."""
    from talesim.simcore.games.fairy_tale.tables import DEFAULT_CARDS

    a = finished_run("fairy-tale", "expert")
    tmp = tmp_path_factory.mktemp("changed")
    text = Path(DEFAULT_CARDS).read_text(encoding="utf-8")
    value = 'value = { kind = "fixed", points = 3 }'
    at = text.index(value, text.index('id = "sky-dancer-dragon"'))
    new = text[:at] + value.replace("3", "15") + text[at + len(value) :]
    (tmp / "cards.toml").write_text(new, encoding="utf-8")
    result = invoke(
        *simulate_args("fairy-tale", tmp / "b", "expert"), "--cards", tmp / "cards.toml"
    )
    assert result.exit_code == 0, result.output
    return a, tmp / "b"


def test_compare_opens_with_its_findings(changed_pair: tuple[Path, Path], tmp_path: Path) -> None:
    a, b = changed_pair
    result = invoke("compare", a, b, "--out", tmp_path / "c")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"comparison: {tmp_path / 'c' / 'index.html'}"
    assert lines[1] == "  card data: sky-dancer-dragon value.points 3 → 15"
    assert re.fullmatch(
        r"  card sky-dancer-dragon: win share \d\.\d{3} → \d\.\d{3} \(\+\d\.\d{3}, "
        r"95% \[\+\d\.\d{3}, \+\d\.\d{3}\], BH-adjusted p (< 0\.001|= 0\.0\d\d)\)",
        lines[2],
    )
    html = (tmp_path / "c" / "index.html").read_text(encoding="utf-8")
    assert html.index('<section id="findings">') < html.index('<section id="cards">')
    assert "Benjamini–Hochberg" in html
    assert "sky-dancer-dragon value.points 3 → 15" in html
    largest = pl.read_csv(tmp_path / "c" / "largest-changes.csv")
    assert largest.row(0, named=True)["name"] == "sky-dancer-dragon"
    assert {"p", "p_bh"} <= set(largest.columns)  # the note defines both

    cards = pl.read_csv(tmp_path / "c" / "card-changes.csv")
    assert cards.columns[:8] == [
        "card", "ws_a", "ws_b", "delta", "delta_lo", "delta_hi", "p_bh", "significant",
    ]  # fmt: skip
    assert {"played_a", "played_b", "pick_a", "pick_b", "p", "n_a", "n_b"} <= set(cards.columns)
    assert cards.schema["n_a"] == pl.Int64
    assert cards.schema["n_b"] == pl.Int64
    row = cards.filter(pl.col("card") == "sky-dancer-dragon").row(0, named=True)
    assert row["significant"]
    assert row["p_bh"] < 0.05
    assert row["p_bh"] >= row["p"]
    assert row["played_b"] > row["played_a"]  # worth more, so played more often
    assert (cards["significant"] == (cards["p_bh"] < 0.05)).all()

    seats = pl.read_csv(tmp_path / "c" / "seat-changes.csv")
    assert seats["seat"].to_list() == [0, 1, 2]
    assert seats.schema["n_a"] == pl.Int64
    assert re.search(r'<td class="num" data-value="\d+">\d+</td>', html)  # a count, no ".000"


def test_compare_of_a_run_with_itself_finds_nothing(
    finished_run: Callable[..., Path], tmp_path: Path
) -> None:
    a = finished_run("fairy-tale", "expert")
    result = invoke("compare", a, a, "--out", tmp_path / "c")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert re.fullmatch(
        r"  no significant change: no Benjamini–Hochberg adjusted p below 0\.05 among \d+ tests",
        lines[1],
    )
    html = (tmp_path / "c" / "index.html").read_text(encoding="utf-8")
    assert "Same card data in both runs" in html
