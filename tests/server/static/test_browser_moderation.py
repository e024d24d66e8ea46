"""A moderator keeps order from the browser: takes a chat line back, mutes, then bans a player, whose
page is closed and cannot sign in again; renames another, whose browser signs in under the new name;
an admin deletes a game from a player's list."""

from __future__ import annotations

from browser_harness import BrowserFactory, Page, ThreadedServer
from test_browser_play import BLACK_WINS
from test_browser_records import play_by_script

from server.moderation.actions import Moderation


def say_in_lobby(page: Page, text: str) -> None:
    """Type a line into the lobby's chat and send it (found again if the page redrew it meanwhile)."""

    def typed() -> bool:
        field = next(iter(page.visible("#lobby-chat")), None)
        if field is None:
            return False
        field.clear()
        field.send_keys(text)
        return True

    page.wait(typed, "to type in the lobby's chat")
    page.click("Send", within=".lobby-chat")


def wait_gone_from_chat(page: Page, text: str) -> None:
    page.wait(lambda: text not in page.text_of(".lobby-chat .chat-lines"), f"{text!r} to leave the chat")


def test_a_renamed_player_plays_on_under_the_new_name_in_the_same_browser(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    rude = browser(web_server, "rude")
    rude.sign_in("rudename")
    assert web_server.app is not None
    moderation = Moderation(web_server.app.storage)
    moderator = browser(web_server, "mod", "#moderation")
    moderator.sign_in("mod")
    web_server.run(moderation.grant("operator:test", "mod", "moderator", "class teacher"))
    moderator.driver.refresh()

    moderator.wait(lambda: moderator.visible("#moderation-player"), "the moderation page")
    moderator.driver.find_element("id", "moderation-player").send_keys("rudename")
    moderator.driver.find_element("id", "moderation-reason").send_keys("offensive")
    moderator.driver.find_element("id", "moderation-new-name").send_keys("Nice")
    moderator.click("Rename")
    moderator.wait_text(".moderation-done", "rudename is now Nice.")
    rude.wait(lambda: "Nice" in rude.text_of("header .me"), "signed in again as Nice")


def test_a_moderator_removes_a_line_mutes_and_bans_from_the_web_client(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    troll = browser(web_server, "troll")
    troll.sign_in("troll")
    moderator = browser(web_server, "mod")
    moderator.sign_in("mod")
    assert web_server.app is not None
    web_server.run(Moderation(web_server.app.storage).grant("operator:test", "mod", "moderator", "class teacher"))
    moderator.driver.refresh()  # signed in again: welcome now says the role
    moderator.wait(lambda: moderator.visible("header a[href='#moderation']"), "the moderation link")

    say_in_lobby(troll, "buy cheap gold")
    moderator.wait_text(".lobby-chat .chat-lines", "troll buy cheap gold")
    moderator.click("Remove this line of troll", within=".lobby-chat")
    for page in (moderator, troll):
        wait_gone_from_chat(page, "buy cheap gold")

    moderator.follow("Moderation", within="header")
    moderator.driver.find_element("id", "moderation-player").send_keys("troll")
    moderator.driver.find_element("id", "moderation-reason").send_keys("spam")
    moderator.click("Mute")
    moderator.wait_text(".moderation-done", "troll is muted until")
    say_in_lobby(troll, "still here")
    troll.wait_text(".notice", "Your line was not sent: you are muted until")

    moderator.click("Ban")
    moderator.wait_text(".moderation-done", "troll is banned.")
    troll.wait_text("main", "You cannot sign in: 'troll' is banned from this server: spam")
    moderator.screenshot("desktop-moderation")

    entries = web_server.run(web_server.app.storage.audit_log(10))
    assert [(entry.actor, entry.action, entry.target) for entry in reversed(entries)] == [
        ("operator:test", "grant", "mod"),
        ("mod", "remove_chat", "troll"),
        ("mod", "mute", "troll"),
        ("mod", "ban", "troll"),
    ]


def test_an_admin_deletes_a_game_from_a_players_list(web_server: ThreadedServer, browser: BrowserFactory) -> None:
    game_id = play_by_script(web_server, "ann", "ben", BLACK_WINS)
    admin = browser(web_server, "boss", "#games/ann")
    admin.sign_in("boss")
    assert web_server.app is not None
    web_server.run(Moderation(web_server.app.storage).grant("operator:test", "boss", "admin", "runs the server"))
    admin.driver.refresh()
    admin.wait_text(".games-list", "ann vs ben")

    admin.driver.find_element("id", f"delete-{game_id}").click()
    admin.click("Delete 1 game")
    admin.wait_text(".games-screen", "No games yet.")
    assert web_server.run(web_server.app.storage.game_record(game_id, None)) is None
    [entry] = [
        entry for entry in web_server.run(web_server.app.storage.audit_log(10)) if entry.action == "delete_games"
    ]
    assert (entry.actor, entry.target) == ("boss", game_id)
