"""The lobby in the browser: a seek taken and played, quick pairing, who is online, and the lobby's chat."""

from __future__ import annotations

from browser_harness import BrowserFactory, Page, ThreadedServer
from test_browser_play import BLACK_WINS


def signed_in(web_server: ThreadedServer, browser: BrowserFactory, name: str) -> Page:
    page = browser(web_server, name)
    page.sign_in(name)
    page.wait_text(".seeks h2", "Seeks")
    return page


def lobby_watchers(web_server: ThreadedServer) -> tuple[int, int]:
    """How many connections watch the lobby a message per change (1.1), and how many in batches (1.2)."""

    async def count() -> tuple[int, int]:
        assert web_server.app is not None
        lobby = web_server.app.lobby
        per_change = [connection for connection in lobby.watchers if lobby.watches_per_event(connection)]
        return len(per_change), len(lobby.watchers) - len(per_change)

    return web_server.run(count())


def test_two_people_find_each_other_through_a_seek_and_play(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice = signed_in(web_server, browser, "alice")
    alice.create_game(
        "Anyone in the lobby (post a seek)",
        submit="Post the seek",
        checked=("create-rated",),
        **{"create-clock": "3", "create-rating-max": "1700"},
    )
    alice.wait_text(".seeks li.mine", "Freestyle · 15×15 · 5+3 · rated · you play Black · for ratings up to 1700")
    assert alice.button("Cancel my seek: Freestyle · 15×15 · 5+3 · rated", within=".seeks")
    assert "#lobby" in alice.driver.current_url, "a seek waits in the lobby, not in a room"

    bob = signed_in(web_server, browser, "bob")
    bob.wait_text(".seeks li", "alice 1500")
    assert "Freestyle · 15×15 · 5+3 · rated · you play White · for ratings up to 1700" in bob.text_of(".seeks li")
    bob.screenshot("desktop-lobby-with-a-seek")
    bob.click("Play the seek of alice", within=".seeks")
    bob.wait_text(".room-status", "Black (alice) to move.")
    alice.wait_text(".room-status", "Your turn.")
    assert "#room/" in alice.driver.current_url, "the seek's owner is taken to the game"
    for page in (alice, bob):
        page.wait_text(".room-title", "Freestyle · 15×15 · 5+3 · rated")

    for ply, move in enumerate(BLACK_WINS, start=1):
        (alice if ply % 2 else bob).play(move)
    for page in (alice, bob):
        page.wait_text(".rating-changes", "alice: 1500 → 1662 (+162) · bob: 1500 → 1338 (−162)")


def test_a_seek_shows_who_it_is_for_and_goes_when_its_owner_cancels_it(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice = signed_in(web_server, browser, "alice")
    alice.create_game("Anyone in the lobby (post a seek)", submit="Post the seek", **{"create-rating-min": "1600"})
    bob = signed_in(web_server, browser, "bob")
    bob.wait_text(".seeks", "for ratings from 1600")
    play = bob.driver.execute_script(
        "return [...document.querySelectorAll('.seeks button')].find((b) => b.textContent === 'Play')"
    )
    assert not play.is_enabled(), "bob's 1500 is outside the range"
    assert play.get_attribute("title") == "Your rating is outside the range this seek asks for."
    assert lobby_watchers(web_server) == (0, 2), "both pages follow the lobby in batches"

    alice.click("Cancel my seek: Freestyle · 15×15 · Untimed", within=".seeks")
    bob.wait_text(".seeks", "No seeks right now.")
    alice.wait_text(".seeks", "No seeks right now.")


def test_quick_pairing_brings_two_people_to_the_same_game(web_server: ThreadedServer, browser: BrowserFactory) -> None:
    alice = signed_in(web_server, browser, "alice")
    alice.click("Quick pairing: 5+3", within=".quick-pair")
    alice.wait_text(".quick-waiting", "Looking for an opponent: Freestyle · 15×15 · 5+3 · rated…")
    alice.screenshot("desktop-lobby-quick-pairing")

    carol = signed_in(web_server, browser, "carol")
    carol.click("Quick pairing: 1+0", within=".quick-pair")
    carol.wait_text(".quick-waiting", "1+0")
    carol.click("Cancel", within=".quick-waiting")
    carol.wait_gone(".quick-waiting")

    bob = signed_in(web_server, browser, "bob")
    bob.click("Quick pairing: 5+3", within=".quick-pair")
    for page in (alice, bob):
        page.wait_text(".room-title", "Freestyle · 15×15 · 5+3 · rated")
    colors = {page.label: page.text_of(".room-screen .player-bar:not(.top-bar) .player-tag") for page in (alice, bob)}
    assert sorted(tag.split(" · ")[0] for tag in colors.values()) == ["Black", "White"], colors

    carol.wait_text(".online h2", "Online (3)")
    carol.wait_text(".online li[data-player=alice]", "playing")
    carol.wait_text(".online li[data-player=bob]", "playing")
    assert "playing" not in carol.text_of(".online li[data-player=carol]")
    carol.screenshot("desktop-lobby-online")


def test_the_lobby_chat_shows_what_was_typed_as_text(web_server: ThreadedServer, browser: BrowserFactory) -> None:
    alice = signed_in(web_server, browser, "alice")
    bob = signed_in(web_server, browser, "bob")
    line = "<b>hello</b> <img src=x onerror=\"document.title='owned'\"> & gg"
    field = alice.driver.find_element("id", "lobby-chat")
    field.send_keys(line)
    alice.click("Send", within=".lobby-chat")
    for page in (alice, bob):
        page.wait_text(".lobby-chat .chat-lines", f"alice {line}")
        markup = page.driver.execute_script("return document.querySelectorAll('.chat-lines b, .chat-lines img').length")
        assert markup == 0, "the line's markup is shown as text, never made into elements"
        assert page.driver.title == "Gomoku"
    assert field.get_attribute("value") == ""
    bob.screenshot("desktop-lobby-chat")
