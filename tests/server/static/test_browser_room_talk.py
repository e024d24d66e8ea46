"""In a room: the players and spectators chat (shown as text), and a player whose opponent has gone
claims the win once the server allows it (a page reloaded meanwhile still counts down to it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_harness import BrowserFactory, ThreadedServer
from test_browser_play import board_after, open_friend_game
from test_browser_resume import network

CLAIM_AFTER_S = 4.0


@pytest.fixture
def quick_claim_server(tmp_path: Path) -> Iterator[ThreadedServer]:
    """A server on which the win may be claimed CLAIM_AFTER_S seconds after the opponent has gone."""
    server = ThreadedServer(tmp_path / "gomoku.sqlite3", claim_after_s=CLAIM_AFTER_S)
    server.start()
    yield server
    server.close()


@pytest.fixture
def slow_claim_server(tmp_path: Path) -> Iterator[ThreadedServer]:
    """A server on which the win may be claimed 30 s after the opponent has gone: longer than a
    page takes to reload, even on a busy machine."""
    server = ThreadedServer(tmp_path / "gomoku.sqlite3", claim_after_s=30.0)
    server.start()
    yield server
    server.close()


def test_players_and_spectators_chat_and_see_it_as_typed(web_server: ThreadedServer, browser: BrowserFactory) -> None:
    alice, bob = open_friend_game(web_server, browser)
    carol = browser(web_server, "carol")
    carol.sign_in("carol")
    carol.open(alice.driver.current_url.removeprefix(web_server.url).replace("#room/", "#watch/"))
    carol.wait_text(".room-status", "Black (alice) to move.")

    line = "good luck <script>document.title='owned'</script> :)"
    alice.driver.find_element("id", "room-chat").send_keys(line)
    alice.click("Send", within=".room-chat")
    for page in (alice, bob, carol):
        page.wait_text(".room-chat .chat-lines", f"alice {line}")
        assert page.driver.execute_script("return document.querySelectorAll('.chat-lines script').length") == 0
        assert page.driver.title in ("Gomoku", "(Your move) Gomoku"), "the line ran no script"
    carol.driver.find_element("id", "room-chat").send_keys("nice game\n")
    for page in (alice, bob):
        page.wait_text(".room-chat .chat-lines", "carol nice game")
    alice.screenshot("desktop-room-chat")


def test_a_player_claims_the_win_once_the_opponent_has_been_gone_long_enough(
    quick_claim_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice, bob = open_friend_game(quick_claim_server, browser)
    alice.play("h8")
    bob.play("h9")
    alice.wait_stones(board_after(["h8", "h9"]))

    network(bob, online=False)  # bob's line drops, and stays down
    assert quick_claim_server.drop_connections("bob") == 1
    alice.wait_text(".claim", "bob has left the game. If they do not come back, you may claim the win in")
    disabled = alice.driver.execute_script(
        "return [...document.querySelectorAll('.claim button')].map((button) => button.disabled)"
    )
    assert disabled == [True], "the claim waits for the server's grace period"
    alice.wait_text(".room-screen .player-bar", "away")
    alice.screenshot("desktop-room-opponent-away")

    alice.wait_text(".claim", "bob has left the game. You may claim the win", timeout=CLAIM_AFTER_S + 20)
    alice.click("Claim the win", within=".claim")
    alice.wait_text(".room-status", "bob left the game: you won.")
    alice.wait_gone(".claim")


def test_a_page_reloaded_after_the_opponent_has_gone_still_counts_down_to_the_claim(
    slow_claim_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice, bob = open_friend_game(slow_claim_server, browser)
    alice.play("h8")
    bob.wait_stones(board_after(["h8"]))
    network(bob, online=False)
    assert slow_claim_server.drop_connections("bob") == 1
    alice.wait_text(".claim", "bob has left the game. If they do not come back, you may claim the win in")

    alice.driver.refresh()
    alice.wait_text(".room-screen .player-bar", "away")
    alice.wait_text(".claim", "bob has left the game. If they do not come back, you may claim the win in")
    disabled = alice.driver.execute_script(
        "return [...document.querySelectorAll('.claim button')].map((button) => button.disabled)"
    )
    assert disabled == [True], "the reloaded page knows the claim is not open yet"
