"""Policy specs ``NAME[:key=value...]`` (simcore.policy_spec): parsing, canonical strings,
slots, and the one-line errors of the CLI (through Typer's runner, on the toy game with a
parameterised policy declared for the test)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from types import ModuleType

import pytest
from kit import error_line, invoke, ok

from talesim.simcore import policy_spec, registry
from talesim.simcore.policy_spec import Param, PolicySpecError

POLICIES = ("random", "greedy", "mc")
DECLARED = {
    "mc": (
        Param("rollouts", 16, lo=1, hi=1024),
        Param("top", 4, lo=1, hi=20),
        Param("playout", "greedy", choices=("random", "greedy")),
    )
}


def parse(text: str) -> policy_spec.Spec:
    return policy_spec.parse(text, POLICIES, DECLARED)


def test_canonical_spec_writes_every_parameter_in_declared_order() -> None:
    assert parse("mc").canonical == "mc:rollouts=16:top=4:playout=greedy"
    assert parse("mc:rollouts=16").canonical == "mc:rollouts=16:top=4:playout=greedy"
    assert parse(" mc:top=2:rollouts=8 ").canonical == "mc:rollouts=8:top=2:playout=greedy"
    assert parse("mc:playout=random").canonical == "mc:rollouts=16:top=4:playout=random"
    assert parse("mc") == parse("mc:rollouts=16:top=4:playout=greedy")
    assert parse("mc:rollouts=4") != parse("mc:rollouts=32")
    assert parse("mc:rollouts=4")["rollouts"] == 4


def test_a_policy_without_parameters_is_its_name() -> None:
    assert parse("greedy").canonical == "greedy"
    assert parse("greedy").values == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("cheater", "unknown policy 'cheater' (policies: random, greedy, mc)"),
        ("mc:depth=3", "policy mc has no parameter 'depth' (parameters: rollouts, top, playout)"),
        ("greedy:top=3", "policy greedy has no parameter 'top' (parameters: none)"),
        ("mc:rollouts=0", "policy mc: rollouts must be between 1 and 1024, got 0"),
        ("mc:rollouts=2000", "policy mc: rollouts must be between 1 and 1024, got 2000"),
        ("mc:rollouts=many", "policy mc: rollouts must be an integer, got 'many'"),
        ("mc:rollouts=1.5", "policy mc: rollouts must be an integer, got '1.5'"),
        ("mc:playout=mc", "policy mc: playout must be one of random, greedy, got 'mc'"),
        ("mc:rollouts=4:rollouts=8", "policy mc: rollouts is given twice"),
        ("mc:", "malformed policy spec 'mc:'"),
        ("mc:rollouts", "malformed policy spec 'mc:rollouts'"),
        ("mc:rollouts=", "malformed policy spec 'mc:rollouts='"),
        (":top=3", "malformed policy spec ':top=3': no policy name"),
    ],
)
def test_bad_specs_name_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(
        PolicySpecError, match="^" + message.replace("(", r"\(").replace(")", r"\)")
    ):
        parse(text)


def test_slots_number_the_distinct_specs_in_first_seat_order() -> None:
    specs = [parse(t) for t in ("mc:rollouts=4", "greedy", "mc", "greedy", "mc:rollouts=16")]
    s = policy_spec.slots(specs)
    assert s.names == (
        "mc:rollouts=4:top=4:playout=greedy",
        "greedy",
        "mc:rollouts=16:top=4:playout=greedy",
    )
    assert s.seat_slot == (0, 1, 2, 1, 2)


def test_every_game_declares_coherent_parameters() -> None:
    for game in registry.GAMES.values():
        policy_spec.check_declared(game.policies, dict(game.policy_params))
        for name in game.policies:  # every default spec parses to itself
            canon = game.parse_policy(name).canonical
            assert game.parse_policy(canon).canonical == canon


# --- through the CLI ------------------------------------------------------------------------


@pytest.fixture
def toy_with_params(fake: ModuleType, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The toy game with a parameter declared for its ``collector`` policy."""
    toy = dataclasses.replace(
        registry.GAMES["toy"],
        policy_params=(("collector", (Param("depth", 2, lo=1, hi=5),)),),
    )
    monkeypatch.setitem(registry.GAMES, "toy", toy)
    return fake


@pytest.mark.parametrize(
    ("policy", "message"),
    [
        ("greedy,cheater", "error: toy: unknown policy 'cheater'"),
        ("collector:width=2,greedy", "error: toy: policy collector has no parameter 'width'"),
        ("collector:depth=9,greedy", "error: toy: policy collector: depth must be between 1 and 5"),
        ("collector:depth=x,greedy", "error: toy: policy collector: depth must be an integer"),
        ("collector:depth,greedy", "error: toy: malformed policy spec 'collector:depth'"),
        ("greedy:depth=2,greedy", "error: toy: policy greedy has no parameter 'depth'"),
    ],
)
def test_spec_errors_are_one_line_exit_2(
    toy_with_params: ModuleType, tmp_path: Path, policy: str, message: str
) -> None:
    for command in ("simulate", "play"):
        args = [command, "toy", "--players", "2", "--seed", "1", "--policy", policy]
        if command == "simulate":
            args += ["--games", "4", "--out", str(tmp_path / "run")]
        assert error_line(invoke(*args)).startswith(message)
        assert not (tmp_path / "run").exists()


def test_manifest_shows_the_canonical_specs(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    ok("simulate", "toy", "--players", 2, "--seed", 1, "--games", 4,
       "--policy", " greedy , random", "--out", out, "--quiet")  # fmt: skip
    assert json.loads((out / "manifest.json").read_text())["policies"] == ["greedy", "random"]
