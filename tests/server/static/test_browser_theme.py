"""Light or dark: the page follows the system's colour scheme, and the player's choice overrides it for good."""

from __future__ import annotations

from browser_harness import BrowserFactory, Page, ThreadedServer
from test_browser_play import board_after, open_friend_game


def system_scheme(page: Page, scheme: str) -> None:
    """Make the browser report `prefers-color-scheme: scheme`, as a system switching would."""
    features = [{"name": "prefers-color-scheme", "value": scheme}]
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


def background(page: Page) -> str:
    color: str = page.driver.execute_script("return getComputedStyle(document.documentElement).backgroundColor")
    return color


def test_the_page_follows_the_system_scheme_until_the_player_chooses(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice, bob = open_friend_game(web_server, browser)
    alice.play("h8")
    bob.wait_stones(board_after(["h8"]))
    light = background(bob)
    alice.screenshot("desktop-room-light")

    system_scheme(bob, "dark")
    bob.wait(lambda: background(bob) != light, "the dark theme with the system's")
    assert bob.driver.execute_script("return document.documentElement.dataset.theme") == "dark"
    bob.screenshot("desktop-room-dark")
    bob.open("#lobby")
    bob.wait(lambda: bob.visible(".create-form"), "the lobby")
    bob.screenshot("desktop-lobby-dark")

    bob.set_value("theme", "light")
    bob.wait(lambda: background(bob) == light, "the light theme the player chose")
    bob.driver.refresh()
    bob.wait(lambda: bob.driver.execute_script("return document.documentElement.dataset.theme") == "light", "light")
    assert background(bob) == light, "the choice is remembered over the system's"
