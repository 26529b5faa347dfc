"""simcore.policy_file: named policies as data, checked like a card file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from talesim.simcore import policy_file as pf
from talesim.simcore.cards import CardDataError

BUILTIN = ("random", "greedy", "collector")


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "policies.toml"
    path.write_text(text)
    return path


def test_round_trip(tmp_path: Path) -> None:
    policies = [pf.NamedPolicy("greedy-tuned", "greedy", (1.0, 0.5, 0.0, 0.25, 2.0), 'a "note"')]
    path = write(tmp_path, pf.dumps("fairy-tale", policies, header="made by a test"))
    assert pf.load(path, "fairy-tale", BUILTIN, 5) == tuple(policies)
    assert path.read_text().startswith("# made by a test\n")


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ('[policy.x]\nbase = "random"\nweights = [1, 1, 1, 1, 1]\n', "field 'base'"),
        ('[policy.x]\nbase = "nobody"\nweights = [1, 1, 1, 1, 1]\n', "field 'base'"),
        ('[policy.x]\nbase = "greedy"\nweights = [1, 1]\n', "list of 5 finite numbers"),
        ('[policy.x]\nbase = "greedy"\nweights = [1, 1, 1, 1, nan]\n', "finite"),
        ('[policy.x]\nbase = "greedy"\nweights = [1, 1, 1, 1, true]\n', "finite numbers"),
        ('[policy.greedy]\nbase = "greedy"\nweights = [1, 1, 1, 1, 1]\n', "built-in"),
        ('[policy.Bad_Name]\nbase = "greedy"\nweights = [1, 1, 1, 1, 1]\n', "lower-case"),
        ('[policy.x]\nbase = "greedy"\nweights = [1, 1, 1, 1, 1]\nwieghts = 2\n', "unknown"),
        ("", "no [policy.NAME]"),
    ],
)
def test_a_bad_policy_is_one_error_naming_it(tmp_path: Path, body: str, fragment: str) -> None:
    path = write(tmp_path, 'schema = 1\ngame = "fairy-tale"\n' + body)
    with pytest.raises(CardDataError, match=re.escape(fragment)) as err:
        pf.load(path, "fairy-tale", BUILTIN, 5)
    assert str(path) in str(err.value)


def test_another_games_file_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'schema = 1\ngame = "drako"\n[policy.x]\nbase = "greedy"\n')
    with pytest.raises(CardDataError, match="not 'fairy-tale'"):
        pf.load(path, "fairy-tale", BUILTIN, 5)
    with pytest.raises(CardDataError, match="file not found"):
        pf.load(tmp_path / "missing.toml", "fairy-tale", BUILTIN, 5)


def test_a_search_policy_is_no_base(tmp_path: Path) -> None:
    """Only the weighted heuristics are bases: a search such as ``mc`` has parameters, not
    a weight row (the runner passes the game's ``weighted_policies``)."""
    from talesim.simcore import registry

    ft = registry.get_game("fairy-tale")
    assert "mc" in ft.policies
    assert ft.weighted_policies == ("greedy", "collector")
    path = write(tmp_path, 'schema = 1\ngame = "fairy-tale"\n[policy.x]\nbase = "mc"\n'
                 "weights = [1, 1, 1, 1, 1]\n")  # fmt: skip
    with pytest.raises(CardDataError, match="field 'base'"):
        pf.load(path, "fairy-tale", ft.policies, 5, ft.weighted_policies)
