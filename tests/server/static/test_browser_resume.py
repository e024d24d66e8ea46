"""Losing the connection: the page says so, comes back by itself, and shows the board as the server has it."""

from __future__ import annotations

from typing import Any

from browser_harness import BrowserFactory, Page, ThreadedServer
from test_browser_play import BLACK_WINS, board_after, open_friend_game


def network(page: Page, online: bool) -> None:
    """Cut the browser off the network, or connect it again (the socket already open is not touched)."""
    conditions: dict[str, Any] = {"offline": not online, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    page.driver.execute_cdp_cmd("Network.enable", {})
    page.driver.execute_cdp_cmd("Network.emulateNetworkConditions", conditions)


def test_a_dropped_connection_comes_back_with_the_moves_it_missed(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice, bob = open_friend_game(web_server, browser)
    alice.play("h8")
    bob.play("h9")
    bob.wait_stones(board_after(["h8", "h9"]))

    network(bob, online=False)
    assert web_server.drop_connections("bob") == 1
    bob.wait_text(".connection", "Reconnecting…")
    bob.wait_text(".room-banner", "Reconnecting…")
    alice.play("i8")
    alice.wait_stones(board_after(["h8", "h9", "i8"]))
    bob.screenshot("desktop-room-reconnecting")
    assert bob.stones() == board_after(["h8", "h9"]), "bob's page cannot know yet"
    assert not bob.visible(".room-screen .board.playable"), "a board that may be out of date takes no move"

    network(bob, online=True)
    bob.wait_text(".connection", "Online")
    bob.wait_stones(board_after(["h8", "h9", "i8"]))
    bob.wait_gone(".room-banner")
    bob.play("i9")
    alice.wait_stones(board_after(["h8", "h9", "i8", "i9"]))

    bob.open("#lobby")
    bob.wait_text(".resume", "Back to game")
    bob.click("Back to game " + alice.driver.current_url.rsplit("/", 1)[1], within=".resume")
    bob.wait_stones(board_after(["h8", "h9", "i8", "i9"]))
    bob.wait_text(".room-status", "Black (alice) to move.")


def test_a_restarted_server_brings_the_game_back_and_both_players_finish_it(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice, bob = open_friend_game(web_server, browser)
    for ply, move in enumerate(BLACK_WINS[:4], start=1):
        (alice if ply % 2 else bob).play(move)
    bob.wait_stones(board_after(BLACK_WINS[:4]))

    web_server.stop()
    for page in (alice, bob):
        page.wait_text(".room-banner", "Reconnecting…")
    web_server.start()
    for page in (alice, bob):
        page.wait_text(".connection", "Online")
        page.wait_stones(board_after(BLACK_WINS[:4]))
        page.wait_gone(".room-banner")

    for ply, move in enumerate(BLACK_WINS[4:], start=5):
        (alice if ply % 2 else bob).play(move)
    alice.wait_text(".room-status", "You won with five in a row.")
    bob.wait_text(".room-status", "You lost: alice made five in a row.")
