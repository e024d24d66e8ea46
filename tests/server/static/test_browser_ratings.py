"""Ratings in the browser: a rated game's changes for both players, the leaderboard, and a player's profile."""

from __future__ import annotations

from browser_harness import BrowserFactory, Page, ThreadedServer
from test_browser_play import BLACK_WINS


def play_a_rated_game(web_server: ThreadedServer, browser: BrowserFactory) -> tuple[Page, Page]:
    """Alice opens a rated room for anyone, bob joins it, and alice wins with five."""
    alice = browser(web_server, "alice")
    alice.sign_in("alice")
    alice.create_game("Anyone (open room)", checked=("create-rated",))
    alice.wait_text(".room-title", "rated")
    bob = browser(web_server, "bob")
    bob.sign_in("bob")
    bob.click("Join the game of alice")
    bob.wait_text(".room-status", "Black (alice) to move.")
    bob.wait_text(".room-screen .player-name", "1500?")
    alice.wait_text(".actions", "Offer a draw")
    assert "Take back" not in alice.text_of(".actions"), "a rated game allows no take-backs"
    for ply, move in enumerate(BLACK_WINS, start=1):
        (alice if ply % 2 else bob).play(move)
    return alice, bob


def test_a_rated_game_ends_with_both_rating_changes(web_server: ThreadedServer, browser: BrowserFactory) -> None:
    alice, bob = play_a_rated_game(web_server, browser)
    alice.wait_text(".room-status", "You won with five in a row.")
    bob.wait_text(".room-status", "You lost: alice made five in a row.")
    for page in (alice, bob):
        page.wait_text(".rating-changes", "alice: 1500 → 1662 (+162) · bob: 1500 → 1338 (−162)")
    alice.wait_text("header .me", "alice (1662?)")
    bob.wait_text("header .me", "bob (1338?)")
    alice.screenshot("desktop-room-rated-game-over")


def test_the_leaderboard_and_the_profiles_show_the_new_ratings(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice, bob = play_a_rated_game(web_server, browser)
    bob.wait_text(".rating-changes", "bob: 1500 → 1338 (−162)")

    alice.follow("Players", within="header")
    alice.follow("People")
    alice.wait(lambda: alice.driver.current_url.endswith("#players/human"), "the people's leaderboard")
    alice.wait_text(".leaderboard tbody tr:first-child", "alice")
    assert "1662?" in alice.text_of(".leaderboard tr[data-player=alice]")
    assert "1338?" in alice.text_of(".leaderboard tr[data-player=bob]")
    alice.screenshot("desktop-leaderboard")

    alice.follow("bob", within=".leaderboard")
    alice.wait_text(".profile-screen h1", "bob")
    alice.wait_text(".profile-rating", "1338?")
    alice.wait_text(".profile-record", "1 rated game · won 0, lost 1, drawn 0")
    chart = alice.wait(lambda: next(iter(alice.visible(".rating-chart")), None), "the rating history")
    assert chart.accessible_name == "Rating after one rated game: 1338."
    alice.wait_text(".profile-screen .games-list", "alice vs bob")
    assert "Black won (five in a row)" in alice.text_of(".profile-screen .games-list")

    bob.follow("alice", within=".room-screen .player-bar")
    bob.wait_text(".profile-rating", "1662?")
    bob.wait_text(".profile-record", "won 1, lost 0, drawn 0")
    bob.screenshot("desktop-profile")
