"""Shared fixtures: the test kit's (``tests/kit.py``: ``finished_run``, ``state_file``) and
the "toy" test-double game, registered in place of a real engine.

``tests/fake_engine.py`` is loaded by file path as module ``talesim_test_double.engine``
(the registry imports a game's engine as ``<package>.engine``). The ``fake`` fixture adds a
``Game`` named "toy" whose package is ``talesim_test_double`` to ``simcore.registry.GAMES``, so
``registry.engine("toy")`` -- and therefore the runner and the CLI -- use the fake engine;
the registry is restored after the test. The fixture returns the engine module, whose
test hooks (``calls``, ``warmups``, ``fail_at_first_game``) it resets.

Under ``pytest -n N --dist loadgroup`` (``make test``) every test runs on the worker of the
game kernel it compiles (``pytest_xdist_make_scheduler``), so each numba kernel is compiled
cold by one worker only and two compiles run side by side.
"""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# The suite compiles the kernels at LLVM -O1, not numba's default -O3: the same results (no
# kernel uses fastmath, so the optimisation level cannot change an integer or a float) for
# less LLVM time in each entry point (``simcore/link_late.py``: the chunk's optimisation is
# most of a cold compile). Set before simcore is imported: its cache directories are keyed
# by the setting (``simcore.cache_key``), so the suite's code never reaches the CLI or a
# benchmark. ``NUMBA_OPT=3 make test`` runs it at -O3. (-O0 is no faster to compile and
# numba cannot cache its code.)
os.environ.setdefault("NUMBA_OPT", "1")

from kit import finished_run, load_by_path, state_file  # noqa: F401 (the kit's fixtures)

from talesim.simcore import registry
from talesim.simcore.registry import Game, Variant

TOY_PACKAGE = "talesim_test_double"


def _load_fake_engine() -> types.ModuleType:
    package = types.ModuleType(TOY_PACKAGE)
    package.__path__ = []
    sys.modules.setdefault(TOY_PACKAGE, package)
    return load_by_path(f"{TOY_PACKAGE}.engine", Path(__file__).with_name("fake_engine.py"))


FAKE_ENGINE = _load_fake_engine()

TOY = Game(
    name="toy",
    title="Toy drafting game (test double)",
    package=TOY_PACKAGE,
    variants=(
        Variant("basic", 2, 4, "no sky bonus"),
        Variant("expert", 2, 5, "sky cards score double", unconfirmed_players=(5,)),
    ),
    default_variant="expert",
    policies=FAKE_ENGINE.POLICIES,
    tables=("games", "seats", "cards"),
)


#: Test directory -> the numba kernel its tests compile; every other test (CLI, runner,
#: reports, bad input) uses Fairy Tale, the foundation game. In ``paper_tales`` the tests
#: whose id names Legends (the ``test_legends_*.py`` files, the cases parametrised by the
#: ``legends`` variant) compile the Legends kernel: group ``paper-tales-legends``.
KERNEL_GROUPS = {
    "drako": "drako",
    "paper_tales": "paper-tales",
}


#: The test file parametrised over every registered game (each case goes to its game's group).
CONFORMANCE = "test_engine_conformance.py"


def kernel_group(nodeid: str) -> str:
    """The kernel group of a test id such as ``tests/drako/test_x.py::test_y``. The Paper
    Tales tests whose id names Legends (the ``test_legends_*.py`` files, the check-mode,
    golden and differential cases of the ``legends`` variant) form their own group: the two
    kernels are the suite's longest compiles (~4-8 min each), and two groups let two
    workers compile them at the same time."""
    parts = nodeid.split("::")[0].split("/")
    folder = parts[1] if len(parts) > 2 and parts[0] == "tests" else ""
    group = KERNEL_GROUPS.get(folder, "fairy-tale")
    if parts[-1] == CONFORMANCE:  # parametrised over every game: "...[drako-brief]"
        case = nodeid.rpartition("[")[2]
        if case.startswith("paper-tales"):
            return "paper-tales-legends" if "legends" in case else "paper-tales"
        return "drako" if case.startswith("drako") else "fairy-tale"
    if group == "paper-tales" and "legends" in nodeid:
        return "paper-tales-legends"
    return group


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under ``-n N --dist loadgroup`` send every kernel group whole to one worker.

    (xdist's own ``xdist_group`` markers rename node ids, which pytest 9 ignores; a
    scheduler keyed on the path does not depend on that.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class KernelGroups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return kernel_group(nodeid)

    return KernelGroups(config, log)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.ModuleType]:
    """Register the toy game for one test; yield its (fake) engine module."""
    monkeypatch.setitem(registry.GAMES, "toy", TOY)
    FAKE_ENGINE.reset()
    yield FAKE_ENGINE
    FAKE_ENGINE.reset()
