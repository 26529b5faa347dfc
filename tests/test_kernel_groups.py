"""The xdist groups of ``make test`` (``-n 2 --dist loadgroup``, ``tests/conftest.py``): every
test runs on the worker of the kernel it compiles, and the Paper Tales base and Legends
kernels, the suite's longest compiles, are two groups that two workers compile side by side.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parent


@pytest.fixture
def suite(request: pytest.FixtureRequest) -> Any:
    """``tests/conftest.py`` as pytest loaded it (tests cannot import it by name)."""
    for plugin in request.config.pluginmanager.get_plugins():
        if hasattr(plugin, "kernel_group") and hasattr(plugin, "KERNEL_GROUPS"):
            return plugin
    raise LookupError("tests/conftest.py is not loaded")


def test_every_grouped_folder_exists(suite: Any) -> None:
    for folder in suite.KERNEL_GROUPS:
        assert list((TESTS / folder).glob("test_*.py")), folder


@pytest.mark.parametrize(
    ("nodeid", "group"),
    [
        ("tests/paper_tales/test_reference_units.py::test_archer", "paper-tales"),
        ("tests/paper_tales/test_legends_units.py::test_titan", "paper-tales-legends"),
        ("tests/paper_tales/test_legends_check_mode.py::test_x[3]", "paper-tales-legends"),
        (
            "tests/paper_tales/test_reference_vs_kernel.py::test_kernel_plays_the_reference_"
            "games[base-random-500-2]",
            "paper-tales",
        ),
        (
            "tests/paper_tales/test_reference_vs_kernel.py::test_kernel_plays_the_reference_"
            "games[legends-random-150-2]",
            "paper-tales-legends",
        ),
        (
            "tests/paper_tales/test_golden.py::test_kernel_replays_golden_game[legends-3p]",
            "paper-tales-legends",
        ),
        ("tests/test_engine_conformance.py::test_x[paper-tales-legends]", "paper-tales-legends"),
        ("tests/test_engine_conformance.py::test_x[paper-tales-base]", "paper-tales"),
        ("tests/drako/test_kernel.py::test_x", "drako"),
        ("tests/reports/test_run.py::test_x", "fairy-tale"),
        ("tests/test_cli.py::test_x", "fairy-tale"),
    ],
)
def test_kernel_group(suite: Any, nodeid: str, group: str) -> None:
    kernel_group: Callable[[str], str] = suite.kernel_group
    assert kernel_group(nodeid) == group
