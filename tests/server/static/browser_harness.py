"""Test helpers for the browser client: the tools it needs, a server in a thread, and a page in Chromium.

The browser tests drive a real headless Chromium (Debian's `chromium` and
`chromium-driver`) with Selenium against a real server. Without those tools
they are skipped with a message saying how to install them, unless
GOMOKU_WEB_TESTS=required (set by CI), which turns the skip into a failure.

Selenium blocks while it waits for the page, so the server cannot share the
test's event loop: `ThreadedServer` runs a `GameServer` on an event loop in
a daemon thread of its own, on 127.0.0.1, with the test's SQLite file. It
stops when the test ends, and with the test process in any case.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import threading
from collections.abc import Callable, Coroutine
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait
from websockets.asyncio.server import Server

from server.app import GameServer, ServerSettings
from server.rooms.room import RoomSettings

REQUIRED = os.environ.get("GOMOKU_WEB_TESTS") == "required"
"""Set by CI: a missing browser, driver or Node fails the tests instead of skipping them."""

INSTALL_HINT = "apt-get install chromium chromium-driver nodejs npm"
WAIT_S = 20.0
"""How long a test waits for the page to show what it expects (generous: the machine is shared)."""

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)
"""Headless, and quiet: without the background-networking flags a closed network refuses
Chromium's own connections and slows it down."""

T = TypeVar("T")


def require(path: str | None, what: str) -> str:
    """The tool's path; else skip (or fail under GOMOKU_WEB_TESTS=required) saying how to install it."""
    if path is not None:
        return path
    message = f"{what} was not found; install it (Debian: {INSTALL_HINT}) to run the web client's tests"
    if REQUIRED:
        pytest.fail(f"{message} (GOMOKU_WEB_TESTS=required)")
    pytest.skip(message)


def node_path() -> str:
    return require(shutil.which("node"), "Node.js (node)")


AXE_FOLDER = Path(__file__).parent / "axe"
"""Where the accessibility checker (axe-core, from the npm registry) is installed from its lock file."""


def axe_source() -> str:
    """The accessibility checker's script, installed with `npm ci` from its lock file on first use."""
    script = AXE_FOLDER / "node_modules" / "axe-core" / "axe.min.js"
    if not script.is_file():
        npm = require(shutil.which("npm"), "npm")
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=AXE_FOLDER, check=True, capture_output=True)
    return script.read_text()


def chromium_paths() -> tuple[str, str]:
    """The browser and its WebDriver."""
    browser = next(
        (found for name in ("chromium", "chromium-browser", "google-chrome") if (found := shutil.which(name))), None
    )
    return require(browser, "Chromium"), require(shutil.which("chromedriver"), "chromedriver (chromium-driver)")


# --------------------------------------------------------------------- server


class ThreadedServer:
    """A real GameServer on 127.0.0.1, served by an event loop in a thread of its own."""

    def __init__(self, db_path: Path, bot_workers: int = 0, claim_after_s: float = 30.0) -> None:
        self.settings = ServerSettings(
            port=0,
            db_path=str(db_path),
            bot_workers=bot_workers,
            analysis_level="greedy",
            room=RoomSettings(abandon_after_s=120.0, bot_move_pause_s=0.1, claim_after_s=claim_after_s),
        )
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="game-server", daemon=True)
        self.thread.start()
        self.app: GameServer | None = None
        self.server: Server | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run a coroutine on the server's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=60)

    def start(self) -> None:
        """Listen (again on the same port once it has one) with the same database."""
        self.app, self.server = self.run(GameServer.start(replace(self.settings, port=self.port)))
        self.port = self.server.sockets[0].getsockname()[1]

    def stop(self) -> None:
        """Close every connection (1001) and the database, as a shutdown does."""
        if self.app is None or self.server is None:
            return
        app, server = self.app, self.server
        self.app = self.server = None

        async def shut() -> None:
            server.close()
            await server.wait_closed()
            await app.close()

        self.run(shut())

    def drop_connections(self, player: str) -> int:
        """Close the websockets of one player's connections from the server's side; how many there were."""
        assert self.app is not None
        app = self.app

        async def drop() -> int:
            mine = [connection for connection in app.connections.values() if connection.player == player]
            for connection in mine:
                await connection.websocket.close(1011, "dropped by the test")
            return len(mine)

        return self.run(drop())

    def close(self) -> None:
        self.stop()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


# ----------------------------------------------------------------------- page


class Page:
    """One browser window on the client, with the few moves a test needs.

    Elements are found the way people find them: by their visible text,
    their label or their accessible name (board points carry `data-point`
    too, which is their coordinate).
    """

    def __init__(self, driver: webdriver.Chrome, base_url: str, screenshots: Path, label: str) -> None:
        self.driver = driver
        self.base_url = base_url
        self.screenshots = screenshots
        self.label = label

    # ------------------------------------------------------------ waiting

    def wait(self, condition: Callable[[], T | None], what: str, timeout: float = WAIT_S) -> T:
        """The first truthy answer of `condition`, or a failure saying what never happened."""

        def attempt(_: object) -> T | None:
            try:
                return condition()
            except StaleElementReferenceException:
                return None

        try:
            result = WebDriverWait(self.driver, timeout, poll_frequency=0.1).until(attempt)
        except TimeoutException:
            self.screenshot(f"timeout-{what[:40]}")
            raise AssertionError(f"{self.label}: timed out waiting for {what}") from None
        assert result is not None, "WebDriverWait returns only a truthy answer"
        return result

    def visible(self, css: str) -> list[WebElement]:
        """The elements matching `css` that are shown (one round trip to the browser)."""
        found: list[WebElement] = self.driver.execute_script(
            "return [...document.querySelectorAll(arguments[0])].filter((e) => e.checkVisibility())", css
        )
        return found

    def button(self, text: str, within: str = "main") -> WebElement:
        """A shown, enabled button (not a board point) whose text or accessible name is `text`."""
        script = """
            for (const button of document.querySelectorAll(arguments[0] + ' button:not(.point)')) {
              if (button.disabled || !button.checkVisibility()) continue;
              const text = button.textContent.trim();
              if (text === arguments[1] || button.getAttribute('aria-label') === arguments[1]) return button;
            }
            return null;"""
        found: WebElement = self.wait(lambda: self.driver.execute_script(script, within, text), f"a button {text!r}")
        return found

    def click(self, text: str, within: str = "main") -> None:
        """Click a shown button; one the page redrew between finding and clicking it (a lobby batch
        redraws the seeks) is found again."""

        def clicked() -> bool:
            self.button(text, within).click()  # `wait` tries again when the button went stale
            return True

        self.wait(clicked, f"to click {text!r}")

    def follow(self, text: str, within: str = "main") -> None:
        """Click a shown link whose text is `text`."""
        script = """
            for (const link of document.querySelectorAll(arguments[0] + ' a')) {
              if (link.checkVisibility() && link.textContent.trim() === arguments[1]) return link;
            }
            return null;"""
        link: WebElement = self.wait(lambda: self.driver.execute_script(script, within, text), f"a link {text!r}")
        link.click()

    def text_of(self, css: str) -> str:
        """The text shown in the elements matching `css`."""
        text: str = self.driver.execute_script(
            "return [...document.querySelectorAll(arguments[0])].filter((e) => e.checkVisibility())"
            ".map((e) => e.innerText).join(' ')",
            css,
        )
        return text

    def wait_gone(self, css: str) -> None:
        self.wait(lambda: not self.visible(css), f"{css} to go")

    def wait_text(self, css: str, text: str, timeout: float = WAIT_S) -> None:
        self.wait(lambda: text in self.text_of(css), f"{text!r} in {css}", timeout)

    # ------------------------------------------------------------- screens

    def open_menu(self) -> None:
        """Open the header's menu (the language, the theme, the sound, changing player)."""
        if not self.visible("#header-menu"):
            self.driver.find_element("css selector", "header .menu-button").click()
        self.wait(lambda: self.visible("#header-menu"), "the menu to open")

    def open(self, fragment: str = "") -> None:
        self.driver.get(self.base_url + fragment)

    def sign_in(self, name: str) -> None:
        field = self.wait(lambda: next(iter(self.visible("#signin-name")), None), "the name field")
        field.clear()
        field.send_keys(name)
        self.click("Play")
        self.wait(lambda: name in self.text_of("header .me"), f"signed in as {name}")

    def create_game(
        self, opponent: str, submit: str = "Create game", checked: tuple[str, ...] = (), **choices: str
    ) -> None:
        """Fill the lobby's form and create: `opponent` is the radio's label, `checked` the ids of
        checkboxes to tick, `choices` the values of selects and fields by id."""
        self.wait(lambda: self.visible(".create-form"), "the new game form")
        for radio in self.visible(".create-form label"):
            if radio.text == opponent:
                radio.click()
        for box in checked:
            self.driver.find_element("id", box).click()
        for control_id, value in choices.items():
            self.set_value(control_id, value)
        self.click(submit)

    def set_value(self, control_id: str, value: str) -> None:
        """Set a select's or a field's value as a person's choice would (a change event follows)."""
        self.driver.execute_script(
            "const s = document.getElementById(arguments[0]); s.value = arguments[1];"
            "s.dispatchEvent(new Event('change', {bubbles: true}));",
            control_id,
            value,
        )

    # --------------------------------------------------------------- board

    def point(self, name: str) -> WebElement:
        return self.wait(lambda: next(iter(self.visible(f'.room-screen [data-point="{name}"]')), None), name)

    def stones(self, screen: str = ".room-screen") -> dict[str, str]:
        """What the board shows, read from the points' accessible names: {"h8": "black", ...}."""
        labels: list[str] = self.driver.execute_script(
            "return [...document.querySelectorAll(arguments[0] + ' .point')].map(p => p.getAttribute('aria-label'))",
            screen,
        )
        found = {}
        for label in labels:
            parts = label.split(", ")
            if parts[1] in ("black stone", "white stone"):
                found[parts[0]] = parts[1].split()[0]
        return found

    def wait_stones(self, expected: dict[str, str], screen: str = ".room-screen") -> None:
        self.wait(lambda: self.stones(screen) == expected, f"the board to show {expected}")

    def play(self, name: str) -> None:
        """Click a point once it is this player's turn (the board takes clicks only then)."""
        self.wait(lambda: self.visible(".room-screen .board.playable"), f"my turn to play {name}")
        self.point(name).click()

    def screenshot(self, name: str) -> Path:
        path = self.screenshots / f"{name}.png"
        self.driver.save_screenshot(str(path))
        return path


def page_errors(driver: webdriver.Chrome) -> list[str]:
    """The errors the page's console showed: uncaught exceptions, failed loads.

    A websocket that cannot connect is left out: the tests that cut the
    network or restart the server cause those on purpose.
    """
    entries = driver.get_log("browser")
    return [
        entry["message"]
        for entry in entries
        if entry["level"] == "SEVERE" and "WebSocket connection to" not in entry["message"]
    ]


BrowserFactory = Callable[..., Page]
"""The `browser` fixture: `browser(server, "alice", fragment="", **start_chromium options)` opens a page."""


def start_chromium(
    profile: Path,
    width: int = 1280,
    height: int = 900,
    *,
    mobile: bool = False,
    language: str = "en-US",
    downloads: Path | None = None,
) -> webdriver.Chrome:
    """A headless Chromium with its profile in the (fresh) folder `profile`."""
    browser, driver_path = chromium_paths()
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    options.add_argument(f"--lang={language}")
    prefs: dict[str, Any] = {"intl.accept_languages": language}
    if downloads is not None:
        prefs |= {"download.default_directory": str(downloads), "download.prompt_for_download": False}
    options.add_experimental_option("prefs", prefs)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if mobile:
        metrics = {"width": width, "height": height, "pixelRatio": 2.0, "touch": True}
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": metrics})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_script_timeout(WAIT_S)
    return driver
