"""Fixtures for the browser client's tests: a server in a thread and Chromium windows on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_harness import BrowserFactory, Page, ThreadedServer, axe_source, page_errors, start_chromium
from selenium import webdriver


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[ThreadedServer]:
    """A server without bots on a free port, with the test's SQLite file; stopped at the end."""
    server = ThreadedServer(tmp_path / "gomoku.sqlite3")
    server.start()
    yield server
    server.close()


@pytest.fixture
def bot_web_server(tmp_path: Path) -> Iterator[ThreadedServer]:
    """The same with one bot worker (the engine's hints come from the fast `greedy` level)."""
    server = ThreadedServer(tmp_path / "gomoku.sqlite3", bot_workers=1)
    server.start()
    yield server
    server.close()


@pytest.fixture
def browser(screenshot_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserFactory]:
    """Open Chromium windows (each with a fresh profile) on a server's page: `browser(server, "alice")`.

    At the end every window is closed, and the test fails if a page's console showed an error.
    """
    drivers: list[webdriver.Chrome] = []

    def open_page(server: ThreadedServer, label: str, fragment: str = "", **options: Any) -> Page:
        driver = start_chromium(tmp_path_factory.mktemp(f"chromium-{label}"), **options)
        drivers.append(driver)
        page = Page(driver, server.url, screenshot_dir, label)
        page.open(fragment)
        return page

    yield open_page
    errors = {}
    for driver in drivers:
        errors[driver.session_id] = page_errors(driver)
        driver.quit()
    assert not any(errors.values()), f"the page's console showed errors: {errors}"


@pytest.fixture(scope="session")
def axe() -> str:
    """The accessibility checker's script (axe-core), installed from its lock file on first use."""
    return axe_source()
