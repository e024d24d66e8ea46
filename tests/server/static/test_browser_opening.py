"""An opening rule in the browser (1.1 openings): swap2 decided by two people, each offered exactly
the choices the rule gives them, the stones picked on the board before they are sent."""

from __future__ import annotations

from browser_harness import BrowserFactory, Page, ThreadedServer


def choices(page: Page) -> list[str]:
    """The kinds of step the page offers its player, as the server named them."""
    found: list[str] = page.driver.execute_script(
        "return [...document.querySelectorAll('.opening-choice')].map((choice) => choice.dataset.choice)"
    )
    return found


def test_swap2_is_decided_on_the_board_and_the_seats_follow_the_choice(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice = browser(web_server, "alice")
    alice.sign_in("alice")
    alice.create_game("A friend (private link)", **{"create-opening": "swap2"})
    link = alice.wait(lambda: alice.driver.find_element("id", "share-link").get_attribute("value"), "the link")
    bob = browser(web_server, "bob")
    bob.sign_in("bob")
    bob.driver.get(link)
    bob.wait_text(".room-status", "alice is deciding the opening.")
    alice.wait_text(".room-status", "Your decision in the opening.")
    alice.wait_text(".room-title", "Freestyle · 15×15 · swap2 · private")
    alice.wait_text(".opening", "Place 3 stones on the board, in this order: Black, White, Black.")
    assert choices(alice) == ["place"]
    assert choices(bob) == [], "the other player only waits"

    for point in ("h8", "a15", "i9"):
        alice.play(point)
    alice.wait_text(".opening", "Picked 3 of 3.")
    alice.point("i9").click()  # a mis-click, taken back before anything is sent
    alice.wait_text(".opening", "Picked 2 of 3.")
    assert bob.stones() == {}, "nothing is sent while stones are picked"
    alice.play("i8")
    assert "i8, empty, picked for the opening (3, black stone)" == alice.point("i8").accessible_name
    alice.screenshot("desktop-opening-placing")
    alice.click("Place these stones", within=".opening")
    for page in (alice, bob):
        page.wait_stones({"h8": "black", "a15": "white", "i8": "black"})

    bob.wait_text(".room-status", "Your decision in the opening.")
    bob.wait_text(".opening", "Your decision (you are White for now).")
    assert choices(bob) == ["choose_color", "place"], "swap2's second player: a colour, or two more stones"
    bob.screenshot("desktop-opening-choice")
    bob.play("j10")
    bob.play("k11")
    bob.click("Place these stones", within=".opening")

    alice.wait_text(".opening", "Choose your colour for the rest of the game:")
    assert choices(alice) == ["choose_color"]
    alice.wait_text(".opening-steps", "alice placed h8, a15, i8")
    alice.wait_text(".opening-steps", "bob placed j10, k11")
    alice.click("Play White", within=".opening")

    alice.wait_text(".room-status", "Your turn.")
    bob.wait_text(".room-status", "White (alice) to move.")
    assert "Black · you" in bob.text_of(".room-screen .player-bar:not(.top-bar) .player-tag"), "the seats swapped"
    alice.wait_text(".opening", "The opening is decided.")
    alice.play("l12")
    bob.wait_stones({"h8": "black", "a15": "white", "i8": "black", "j10": "white", "k11": "black", "l12": "white"})


def test_a_seek_with_an_opening_brings_both_players_to_it(web_server: ThreadedServer, browser: BrowserFactory) -> None:
    alice = browser(web_server, "alice")
    alice.sign_in("alice")
    alice.create_game("Anyone in the lobby (post a seek)", submit="Post the seek", **{"create-opening": "swap"})
    alice.wait_text(".seeks li.mine", "Freestyle · 15×15 · Untimed · swap · you place the first stones")
    assert not alice.visible(".create-form fieldset.inline"), "the opening decides the colours: none to choose"
    bob = browser(web_server, "bob")
    bob.sign_in("bob")
    bob.wait_text(".seeks li", "alice places the first stones")
    bob.click("Play the seek of alice", within=".seeks")
    alice.wait_text(".room-status", "Your decision in the opening.")
    bob.wait_text(".room-status", "alice is deciding the opening.")
    assert choices(alice) == ["place"]
