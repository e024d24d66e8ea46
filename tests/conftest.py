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

from engine.build import pure_python_requested, stale_sources

pytest_plugins = ("tests.cluster.services",)
"""PostgreSQL for the tests that run on both databases (`database`) or on PostgreSQL alone."""

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


def pytest_configure(config: pytest.Config) -> None:
    """Refuse to test a compiled engine older than its sources: the tests would pass or fail on
    code that is no longer there. `./dev` compiles it again."""
    if pure_python_requested():
        return
    stale = stale_sources()
    if stale:
        names = ", ".join(os.path.relpath(source) for source in stale)
        pytest.exit(f"the compiled engine is older than {names}: run ./dev to compile it again", returncode=4)
