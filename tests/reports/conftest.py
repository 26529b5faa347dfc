"""Fixtures for the report tests.

``browser.py`` is a helper module, not a test; pytest runs with ``--import-mode=importlib``,
so tests cannot import it by name. It is loaded here by file path and handed out through
the ``check_report`` fixture, which skips the test when Playwright or Chromium is missing,
or fails it when ``TALESIM_REQUIRE_BROWSER=1`` (CI sets this, so a missing browser can't
turn the browser tests into silent skips).
"""

from __future__ import annotations

import importlib.util
import os
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def _load_browser() -> types.ModuleType:
    name = "talesim_test_reports_browser"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("browser.py"))
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


BROWSER = _load_browser()


@pytest.fixture
def check_report() -> Callable[[Path], dict[str, Any]]:
    """``browser.check_report``; skip (or fail under TALESIM_REQUIRE_BROWSER=1) without it."""
    reason = BROWSER.unavailable_reason()
    if reason is not None:
        if os.environ.get("TALESIM_REQUIRE_BROWSER") == "1":
            pytest.fail(f"TALESIM_REQUIRE_BROWSER=1 but the browser check cannot run: {reason}")
        pytest.skip(f"browser check unavailable: {reason}")
    checker: Callable[[Path], dict[str, Any]] = BROWSER.check_report
    return checker
