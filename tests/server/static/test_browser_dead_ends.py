"""No page is a dead end: a tournament or a room that does not exist says so once, with a way back."""

from __future__ import annotations

from browser_harness import BrowserFactory, ThreadedServer


def test_an_unknown_tournament_says_so_and_leads_back_to_the_tournaments(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice = browser(web_server, "alice", "#tournament/zzz")
    alice.sign_in("alice")
    alice.wait_text(".tournament-screen h1", "No such tournament")
    assert not alice.visible(".notice"), "said once, on the page"
    alice.screenshot("desktop-tournament-unknown")
    alice.follow("All tournaments")
    alice.wait_text(".tournaments-screen h1", "Tournaments")


def test_an_unknown_room_says_so_once_and_leads_back_to_the_lobby(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice = browser(web_server, "alice", "#room/doesnotexist")
    alice.sign_in("alice")
    alice.wait_text(".room-screen", "This game cannot be opened")
    assert not alice.visible(".notice"), "said once, on the page"
    assert alice.text_of(".room-screen").count("does not exist") == 1
    alice.screenshot("desktop-room-unknown")
    alice.follow("Back to the lobby")
    alice.wait(lambda: alice.visible(".lobby-screen"), "the lobby")
