"""Suite-wide test settings.

Hypothesis profiles: `default` keeps the property tests inside the suite's
time budget on a busy two-core machine (no per-example deadline, since a
shared CPU makes timings meaningless); `thorough` is for hunting bugs by
hand: `HYPOTHESIS_PROFILE=thorough ./dev test tests/engine`.

The browser tests' screenshots go to GOMOKU_SCREENSHOTS (by default a
folder in the system's temporary directory), printed at the end of a run.
"""

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


SCREENSHOTS = Path(os.environ.get("GOMOKU_SCREENSHOTS") or Path(tempfile.gettempdir()) / "gomoku-web-screenshots")
"""Where the browser tests save a picture of each main screen (and of any wait that timed out)."""


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say where the browser tests' screenshots are (useful when one of them failed)."""
    if SCREENSHOTS.is_dir() and any(SCREENSHOTS.glob("*.png")):
        terminalreporter.write_line(f"web client screenshots: {SCREENSHOTS}")
