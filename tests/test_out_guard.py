"""No command writes into another's data (``simcore/outdirs.py``).

Every writing command refuses an ``--out`` that is, or is inside, a run, a search, a learn
run or a report or comparison page (one ``error:`` line, exit status 2, nothing written),
but for its own kind of output; ``report`` and ``compare`` also refuse their input runs
and anything inside them. The check comes first, so no row reaches a kernel.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from kit import assert_error, invoke, ok
from test_bad_input import snapshot, write_run

from talesim.simcore import outdirs


def search_dir(out: Path) -> None:
    """A directory a balance, tune or ladder search wrote (its ``request.json``)."""
    out.mkdir(parents=True)
    (out / "request.json").write_text(json.dumps({"game": "fairy-tale", "players": 4}))


def learn_dir(out: Path) -> None:
    """A directory ``talesim learn`` wrote (its ``learn.json``)."""
    out.mkdir(parents=True)
    (out / "learn.json").write_text(json.dumps({"request": {"game": "fairy-tale"}}))


def page_dir(command: str) -> Callable[[Path], None]:
    """A page directory written by ``command`` ("report" or "compare") of a hand-made run."""

    def make(out: Path) -> None:
        run = out.parent / f"{out.name}-input"
        write_run(run)
        runs = [run] if command == "report" else [run, run]
        ok(command, *runs, "--out", out)

    return make


#: Each kind of output directory and how to make one at a path.
MAKERS: dict[str, Callable[[Path], None]] = {
    "run": write_run,
    "search": search_dir,
    "learn": learn_dir,
    "report": page_dir("report"),
    "compare": page_dir("compare"),
}

#: Each writing command's kind of output and a command line writing to ``{out}`` (the check
#: comes before anything else, so the other arguments need only parse).
COMMANDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "simulate": ("run", ("simulate", "fairy-tale", "--games", "10", "--players", "4",
                         "--seed", "1", "--policy", "greedy", "--out", "{out}", "--quiet")),
    "report": ("report", ("report", "{input}", "--out", "{out}")),
    "compare": ("compare", ("compare", "{input}", "{input}", "--out", "{out}")),
    "ladder": ("search", ("ladder", "fairy-tale", "--players", "4", "--policies",
                          "random,greedy", "--games", "10", "--seed", "1", "--out", "{out}")),
    "balance": ("search", ("balance", "fairy-tale", "--players", "4", "--policy", "greedy",
                           "--games", "10", "--budget", "1", "--band", "0.8:1.25",
                           "--seed", "1", "--out", "{out}")),
    "tune": ("search", ("tune", "fairy-tale", "--policy", "greedy", "--players", "4",
                        "--games", "10", "--budget", "1", "--seed", "1", "--out", "{out}")),
    "learn": ("learn", ("learn", "fairy-tale", "--out", "{out}")),
}  # fmt: skip

#: Every (command, kind of directory, inside it or the directory itself) refused.
REFUSED = [
    (command, kind, inside)
    for command, (own, _args) in COMMANDS.items()
    for kind in MAKERS
    for inside in (False, True)
    if inside or kind != own
]


def _line(args: tuple[str, ...], tmp: Path, out: Path) -> list[str]:
    return [a.format(out=out, input=tmp / "input") for a in args]


@pytest.mark.parametrize(
    ("command", "kind", "inside"),
    REFUSED,
    ids=[f"{c}-{'inside-' if i else 'into-'}{k}" for c, k, i in REFUSED],
)
def test_out_in_another_commands_output_is_refused(
    command: str, kind: str, inside: bool, tmp_path: Path
) -> None:
    write_run(tmp_path / "input")
    target = tmp_path / "theirs"
    MAKERS[kind](target)
    out = target / "mine" if inside else target
    before = snapshot(tmp_path)
    name = outdirs.KINDS[kind][2]
    expect = f"--out {out} is inside {name}" if inside else f"--out {out} is {name}"
    assert_error(invoke(*_line(COMMANDS[command][1], tmp_path, out)), expect, "elsewhere")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("command", ["report", "compare"])
@pytest.mark.parametrize("inside", [False, True])
def test_a_page_is_never_written_into_its_input_run(
    command: str, inside: bool, tmp_path: Path
) -> None:
    """The input run itself, or a directory inside it: the page would mix with its data."""
    write_run(tmp_path / "input")
    out = tmp_path / "input" / "page" if inside else tmp_path / "input"
    before = snapshot(tmp_path)
    expect = "inside the run" if inside else "is the run directory itself"
    assert_error(invoke(*_line(COMMANDS[command][1], tmp_path, out)), str(out), expect)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("command", ["report", "compare"])
def test_a_page_is_marked_and_written_again_in_place(command: str, tmp_path: Path) -> None:
    """``page.json`` says which command wrote the page; that command may write it again."""
    write_run(tmp_path / "input")
    args = _line(COMMANDS[command][1], tmp_path, tmp_path / "page")
    ok(*args)
    assert outdirs.kind_of(tmp_path / "page") == command
    ok(*args)
    assert (tmp_path / "page" / "index.html").is_file()


def test_each_kind_may_reuse_its_own_output_and_a_plain_directory(tmp_path: Path) -> None:
    """``check_out`` lets a command at its own kind of output (its ``--resume`` or
    ``--overwrite`` decides the rest), and into directories no talesim command marked,
    whatever is in them."""
    for kind, make in MAKERS.items():
        make(tmp_path / kind)
        assert outdirs.kind_of(tmp_path / kind) == kind
        outdirs.check_out(tmp_path / kind, kind)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "manifest.json").write_text('{"name": "a browser extension"}')
    for kind in MAKERS:
        outdirs.check_out(tmp_path / "mine" / "sub", kind)
