"""Fixtures for the report tests.

``browser.py`` is a helper module, not a test, loaded here by file path and handed out
through the ``check_report`` fixture, which skips the test when Playwright or Chromium is missing,
or fails it when ``TALESIM_REQUIRE_BROWSER=1`` (CI sets this, so a missing browser can't
turn the browser tests into silent skips).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from kit import load_by_path

BROWSER = load_by_path("talesim_test_reports_browser", Path(__file__).with_name("browser.py"))


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
