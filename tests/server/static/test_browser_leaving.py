"""Leaving the page and coming back: a player who goes elsewhere is away, and one who comes back is seated."""

from __future__ import annotations

from browser_harness import BrowserFactory, Page, ThreadedServer
from test_browser_play import board_after, open_friend_game

ANOTHER_SITE = "data:text/html,<p>Another site</p>"
"""A page elsewhere for the tab to go to (the browser may keep the game's page in its back/forward cache)."""


def bob_goes_elsewhere_after_the_first_move(web_server: ThreadedServer, browser: BrowserFactory) -> tuple[Page, Page]:
    """Alice plays h8 in a game with bob, then bob's tab goes to another site: alice sees him away."""
    alice, bob = open_friend_game(web_server, browser)
    alice.play("h8")
    bob.wait_stones(board_after(["h8"]))
    bob.driver.get(ANOTHER_SITE)
    alice.wait_text(".player-bar .presence", "away")
    alice.wait_text(".claim", "bob has left")
    return alice, bob


def test_a_player_who_navigates_elsewhere_is_away_and_back_after_going_back(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice, bob = bob_goes_elsewhere_after_the_first_move(web_server, browser)

    bob.driver.back()
    bob.wait_stones(board_after(["h8"]))
    alice.wait_gone(".player-bar .presence")
    bob.play("h9")
    alice.wait_stones(board_after(["h8", "h9"]))


def test_a_player_who_reopens_the_site_is_back_in_the_game_without_a_click(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice, bob = bob_goes_elsewhere_after_the_first_move(web_server, browser)
    bob.open()
    bob.wait_text(".room-status", "Your turn.")
    bob.wait_stones(board_after(["h8"]))
    assert "#room/" in bob.driver.current_url
    alice.wait_gone(".player-bar .presence")
    alice.wait_gone(".claim")
    bob.wait(lambda: bob.driver.title == "(Your move) Gomoku", "the tab's title to say it is bob's move")
    bob.play("h9")
    alice.wait_stones(board_after(["h8", "h9"]))
    alice.wait(lambda: alice.driver.title == "(Your move) Gomoku", "the tab's title to say it is alice's move")
    bob.wait(lambda: bob.driver.title == "Gomoku", "the tab's title to be the game's name again")
