"""``import talesim``: the library's functions against the CLI commands they back.

Each command and its function take the same arguments with the same defaults (the CLI's
presentation flags aside), write byte-identical files, and fail with the same message
(the CLI prints it after ``error:``, the library raises it as a ``TalesimError``).
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from kit import error_line, invoke, manifest, ok, part_bytes

import talesim
from talesim import api
from talesim.cli import main as cli_main

#: The CLI's presentation flags, which the library leaves to its caller.
CLI_ONLY = {"quiet", "summary", "as_json"}
#: The library's own: progress lines are off unless asked (the CLI shows them unless --quiet).
API_ONLY = {"progress"}
COMMANDS = (
    "simulate", "report", "compare", "ladder", "balance", "tune", "learn", "play", "score",
    "games", "cards",
)  # fmt: skip


def _cli_command(name: str) -> Any:
    for info in cli_main.app.registered_commands:
        if (info.name or info.callback.__name__) == name:  # type: ignore[union-attr]
            return info.callback
    raise AssertionError(f"no CLI command {name}")


@pytest.mark.parametrize("name", COMMANDS)
def test_each_function_takes_its_commands_arguments_and_defaults(name: str) -> None:
    cli = inspect.signature(_cli_command(name)).parameters
    lib = inspect.signature(getattr(talesim, name)).parameters
    assert set(cli) - CLI_ONLY == set(lib) - API_ONLY, name
    for param, p in lib.items():
        if param in API_ONLY:
            continue
        default = cli[param].default
        if p.default is inspect.Parameter.empty:
            assert default is inspect.Parameter.empty, (name, param)
        else:  # the CLI's Backend enum is a str: "local" == Backend.local
            assert p.default == default, (name, param, p.default, default)


def test_the_package_lists_what_it_exports() -> None:
    assert talesim.__version__ == talesim.simcore.__version__
    for name in talesim.__all__:
        assert getattr(talesim, name) is not None, name
    assert issubclass(talesim.GameError, talesim.TalesimError)
    assert issubclass(talesim.RunDirError, talesim.TalesimError)
    with pytest.raises(AttributeError, match="no attribute 'simulat'"):
        talesim.simulat  # noqa: B018


def test_importing_talesim_loads_no_engine() -> None:
    heavy = ("numba", "polars", "matplotlib")
    code = f"import sys, talesim; print(sorted(m for m in {heavy!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- the same bytes -----------------------------------------------------------------------


TOY = {"games": 30, "players": 3, "seed": 4, "policy": "greedy", "chunk_size": 8}


def _toy_cli(out: Path, *extra: str) -> list[str]:
    return [
        "simulate", "toy", "--games", "30", "--players", "3", "--seed", "4", "--policy",
        "greedy", "--chunk-size", "8", "--out", str(out), *extra,
    ]  # fmt: skip


def _same_manifest(a: Path, b: Path) -> None:
    clock = {"created", "finished", "updated", "started", "simulation_seconds"}
    ma, mb = manifest(a), manifest(b)
    strip = lambda m: {k: v for k, v in m.items() if k not in clock and k != "chunks"}  # noqa: E731
    assert strip(ma) == strip(mb)
    assert [c.get("games") for c in ma["chunks"]] == [c.get("games") for c in mb["chunks"]]


def test_simulate_writes_what_the_cli_writes(fake: ModuleType, tmp_path: Path) -> None:
    ok(*_toy_cli(tmp_path / "cli", "--quiet"))
    run = talesim.simulate("toy", out=tmp_path / "lib", **TOY)
    assert part_bytes(tmp_path / "lib") == part_bytes(tmp_path / "cli")
    _same_manifest(tmp_path / "lib", tmp_path / "cli")
    assert run.seats.collect().height == 30 * 3
    assert run.simulation is not None
    assert run.simulation.games == 30
    assert talesim.open_run(tmp_path / "cli").n_games == 30


def test_a_run_opened_names_its_tables(fake: ModuleType, tmp_path: Path) -> None:
    run = talesim.simulate("toy", out=tmp_path / "run", **TOY)
    assert set(run.tables) == {"games", "seats", "cards"}
    assert run.games.collect().height == 30
    with pytest.raises(AttributeError, match="has no table 'draws' \\(tables: games"):
        run.draws  # noqa: B018


def test_report_and_compare_write_what_the_cli_writes(fake: ModuleType, tmp_path: Path) -> None:
    a = talesim.simulate("toy", out=tmp_path / "a", **TOY).path
    b = talesim.simulate("toy", out=tmp_path / "b", **{**TOY, "seed": 5}).path
    ok("report", str(a), "--out", str(tmp_path / "cli-report"))
    page = talesim.report(a, out=tmp_path / "lib-report")
    assert page.index == tmp_path / "lib-report" / "index.html"
    _same_files(tmp_path / "cli-report", tmp_path / "lib-report")
    ok("compare", str(a), str(b), "--out", str(tmp_path / "cli-compare"))
    comparison = talesim.compare(a, b, out=tmp_path / "lib-compare")
    assert comparison.findings
    _same_files(tmp_path / "cli-compare", tmp_path / "lib-compare")


def _same_files(a: Path, b: Path) -> None:
    """The same files, and the same bytes where no path of the output is written in them
    (CSVs, charts); the page itself names its own directory."""
    names = sorted(str(p.relative_to(a)) for p in a.rglob("*") if p.is_file())
    assert names == sorted(str(p.relative_to(b)) for p in b.rglob("*") if p.is_file())
    for name in names:
        if name.endswith(".csv"):
            assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_play_score_games_cards_say_what_the_cli_prints(fake: ModuleType, tmp_path: Path) -> None:
    replay = talesim.play("toy", seed=4, players=3, policy="greedy", game_id=2)
    printed = ok(
        "play", "toy", "--seed", "4", "--players", "3", "--policy", "greedy", "--game", "2"
    )
    assert printed.stdout.splitlines() == replay.narration()
    as_json = ok("play", "toy", "--seed", "4", "--players", "3", "--policy", "greedy", "--json")
    assert len(as_json.stdout.splitlines()) == len(
        talesim.play("toy", seed=4, players=3, policy="greedy").events
    )
    assert json.loads(ok("games", "--json").stdout) == talesim.games()
    assert json.loads(ok("cards", "toy", "--json").stdout) == talesim.cards("toy")


# --- the same requests (searches: what the CLI and the library hand the search) -----------


class StopError(Exception):
    """Raised in place of a search, once its request is seen."""


def _captured(monkeypatch: pytest.MonkeyPatch, module: str, function: str) -> list[Any]:
    seen: list[Any] = []

    def capture(request: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(request)
        raise StopError

    monkeypatch.setattr(f"{module}.{function}", capture)
    return seen


SEARCHES = {
    "ladder": (
        "talesim.simcore.ladder", "run_ladder",
        ["ladder", "fairy-tale", "--players", "3", "--policies", "random,greedy@300",
         "--games", "200", "--seed", "2", "--band", "0.8:1.2", "--tournament-games", "90"],
        {"players": 3, "policies": "random,greedy@300", "games": 200, "seed": 2,
         "band": "0.8:1.2", "tournament_games": 90},
    ),
    "balance": (
        "talesim.simcore.balance", "run_balance",
        ["balance", "fairy-tale", "--players", "4", "--games", "400", "--budget", "5",
         "--band", "0.7:1.3", "--seed", "3", "--levels", "random,greedy", "--radius", "2",
         "--fields", "points", "--sampling", "fixed"],
        {"players": 4, "games": 400, "budget": 5, "band": "0.7:1.3", "seed": 3,
         "levels": "random,greedy", "radius": 2, "fields": "points", "sampling": "fixed"},
    ),
    "tune": (
        "talesim.simcore.tune", "run_tune",
        ["tune", "fairy-tale", "--policy", "greedy", "--players", "4", "--games", "400",
         "--budget", "4", "--seed", "9", "--against", "random"],
        {"policy": "greedy", "players": 4, "games": 400, "budget": 4, "seed": 9,
         "against": "random"},
    ),
    "learn": (
        "talesim.simcore.learn", "run",
        ["learn", "fairy-tale", "--games", "100", "--iterations", "2", "--seed", "4",
         "--hidden", "0", "--eval-games", "200"],
        {"games": 100, "iterations": 2, "seed": 4, "hidden": 0, "eval_games": 200},
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_a_search_gets_the_same_request_from_both(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module, function, argv, kwargs = SEARCHES[name]
    seen = _captured(monkeypatch, module, function)
    assert isinstance(invoke(*argv, "--out", str(tmp_path / "out"), "--quiet").exception, StopError)
    with pytest.raises(StopError):
        getattr(talesim, name)("fairy-tale", out=tmp_path / "out", **kwargs)
    assert len(seen) == 2, seen
    assert seen[0] == seen[1]


# --- the same errors -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "call"),
    [
        (["--players", "9"], {"players": 9}),
        (["--policy", "grredy"], {"policy": "grredy"}),
        (["--games", "0"], {"games": 0}),
    ],
)
def test_an_error_is_raised_with_the_line_the_cli_prints(
    fake: ModuleType, tmp_path: Path, argv: list[str], call: dict[str, Any]
) -> None:
    cli = _toy_cli(tmp_path / "cli")
    for flag, value in zip(argv[::2], argv[1::2], strict=True):
        cli[cli.index(flag) + 1] = value
    line = error_line(invoke(*cli))
    with pytest.raises(talesim.TalesimError) as caught:
        talesim.simulate("toy", out=tmp_path / "lib", **{**TOY, **call})
    assert f"error: {caught.value}" == line
    assert not (tmp_path / "lib").exists()


def test_the_library_will_not_write_into_a_run(fake: ModuleType, tmp_path: Path) -> None:
    run = talesim.simulate("toy", out=tmp_path / "run", **TOY).path
    before = part_bytes(run)
    with pytest.raises(talesim.TalesimError, match="run"):
        talesim.report(run, out=run)
    with pytest.raises(talesim.TalesimError):
        talesim.simulate("toy", out=run / "inner", **TOY)
    assert part_bytes(run) == before


def test_progress_goes_where_it_is_asked(fake: ModuleType, tmp_path: Path) -> None:
    lines: list[str] = []
    echo = api._echo(lines.append)
    echo("x")
    assert lines == ["x"]
    assert api._echo(False)("dropped") is None
