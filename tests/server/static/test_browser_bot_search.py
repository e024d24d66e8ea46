"""The new-game form lets a player set the search of a bot that takes one (`alphabeta`)."""

from __future__ import annotations

from browser_harness import BrowserFactory, ThreadedServer


def test_a_player_sets_alphabetas_depth_and_width_and_the_room_shows_them(
    bot_web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    fay = browser(bot_web_server, "fay")
    fay.sign_in("fay")
    fay.wait_text(".bots", "alphabeta")
    fay.set_value("create-level", "greedy")
    assert not fay.visible("#create-depth"), "greedy's search is its own"
    fay.set_value("create-level", "alphabeta")
    depth = fay.wait(lambda: next(iter(fay.visible("#create-depth")), None), "the depth field")
    assert (depth.get_attribute("min"), depth.get_attribute("max")) == ("1", "8")
    assert fay.visible("#create-rated")
    fay.set_value("create-depth", "2")
    assert not fay.visible("#create-rated"), "a bot with its own settings plays unrated"
    fay.create_game("A bot", **{"create-width": "5"})
    fay.wait_text(".room-screen .player-tag", "bot alphabeta · depth 2 · 5 moves per ply")
    fay.play("h8")
    fay.wait(lambda: len(fay.stones()) == 2, "the bot's answer")
