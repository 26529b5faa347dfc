"""A card file's ids against the game's own cards: a renamed id is refused with the id to
keep; new and withdrawn cards are accepted with one note listing them."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from kit import error_line, invoke

from talesim.simcore import runner
from talesim.simcore.cards import CardDataError
from talesim.simcore.errors import TalesimWarning

CARDS = Path(__file__).resolve().parents[1] / "simcore" / "games" / "fairy_tale" / "cards.toml"


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    text = CARDS.read_text(encoding="utf-8")
    assert text.count(f'id = "{old}"') == 1
    path = tmp_path / f"{new}.toml"
    path.write_text(text.replace(f'id = "{old}"', f'id = "{new}"'), encoding="utf-8")
    return path


def _setup(path: Path) -> None:
    runner.setup("fairy-tale", variant="expert", players=4, policies="greedy", cards_path=path)


def test_a_renamed_id_is_refused_naming_the_id_to_keep(tmp_path: Path) -> None:
    path = _edited(tmp_path, "the-trickster", "the-tricksters")
    with pytest.raises(CardDataError, match="did you mean the-trickster\\?") as caught:
        _setup(path)
    assert "card 'the-tricksters': field 'id'" in str(caught.value)


def test_a_new_card_in_place_of_another_is_accepted_with_a_note(tmp_path: Path) -> None:
    path = _edited(tmp_path, "the-trickster", "jester")
    with pytest.warns(TalesimWarning) as seen:
        _setup(path)
    assert [str(w.message) for w in seen] == [
        f"{path} adds 1 card(s) (jester) and lacks 1 of the game's (the-trickster)"
    ]


def test_the_games_own_card_file_gets_no_note(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", TalesimWarning)
        _setup(CARDS)


def test_the_cli_prints_the_note_once_and_the_refusal_as_one_line(tmp_path: Path) -> None:
    args = ["simulate", "fairy-tale", "--games", "4", "--players", "4", "--seed", "1"]
    args += ["--policy", "greedy", "--quiet", "--cards"]
    jester = _edited(tmp_path, "the-trickster", "jester")
    done = invoke(*args, jester, "--out", tmp_path / "a")
    assert done.exit_code == 0, done.output
    notes = [line for line in done.stderr.splitlines() if line.startswith("note:")]
    assert notes == [
        f"note: {jester} adds 1 card(s) (jester) and lacks 1 of the game's (the-trickster)"
    ]
    renamed = _edited(tmp_path, "the-trickster", "the-tricksters")
    line = error_line(invoke(*args, renamed, "--out", tmp_path / "b"))
    assert "did you mean the-trickster?" in line
    assert not (tmp_path / "b").exists()
