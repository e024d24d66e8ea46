"""Playing in the browser: two people to the end while a third watches, the offers between them, and bots."""

from __future__ import annotations

from browser_harness import BrowserFactory, Page, ThreadedServer

BLACK_WINS = ["h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9", "l8"]
"""Black makes five on row 8; white follows on row 9."""


def board_after(moves: list[str]) -> dict[str, str]:
    return {move: "black" if index % 2 == 0 else "white" for index, move in enumerate(moves)}


def test_two_people_play_to_the_end_while_a_third_watches_every_move(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice = browser(web_server, "alice")
    alice.sign_in("alice")
    alice.screenshot("desktop-lobby")
    alice.create_game("Anyone (open room)")
    alice.wait_text(".room-status", "Waiting for an opponent to join.")
    assert "#room/" in alice.driver.current_url

    bob = browser(web_server, "bob")
    bob.sign_in("bob")
    bob.wait_text(".open-rooms", "alice")
    bob.click("Join the game of alice")
    bob.wait_text(".room-status", "Black (alice) to move.")
    alice.wait_text(".room-status", "Your turn.")

    carol = browser(web_server, "carol")
    carol.sign_in("carol")
    carol.wait_text(".live-games", "alice vs bob")
    carol.screenshot("desktop-lobby-with-a-game")
    carol.click("Watch alice vs bob")
    carol.wait_text(".room-status", "Black (alice) to move.")
    alice.wait_text(".spectators", "1 spectator")

    for ply, move in enumerate(BLACK_WINS, start=1):
        (alice if ply % 2 else bob).play(move)
        expected = board_after(BLACK_WINS[:ply])
        for page in (alice, bob, carol):
            page.wait_stones(expected)
        carol.wait_text("[data-role=announcer]", f"Move {ply}: {'Black' if ply % 2 else 'White'} {move}.")
        if ply == 4:
            alice.screenshot("desktop-room-playing")
            carol.screenshot("desktop-room-watching")

    alice.wait_text(".room-status", "You won with five in a row.")
    bob.wait_text(".room-status", "You lost: alice made five in a row.")
    carol.wait_text(".room-status", "Black (alice) wins with five in a row.")
    carol.driver.find_element("id", "option-moveNumbers").click()
    carol.wait(lambda: len(carol.visible(".room-screen .number")) == len(BLACK_WINS), "a number on every stone")
    carol.screenshot("desktop-room-move-numbers")
    for point in ("h8", "i8", "j8", "k8", "l8"):
        assert "winning line" in alice.point(point).accessible_name, point
    alice.screenshot("desktop-room-game-over")


def open_friend_game(web_server: ThreadedServer, browser: BrowserFactory, **choices: str) -> tuple[Page, Page]:
    """Alice invites bob with the link the page gives her; bob opens it and takes the other seat.

    The room is private: bob's lobby does not list it.
    """
    alice = browser(web_server, "alice")
    alice.sign_in("alice")
    alice.create_game("A friend (private link)", **choices)
    link = alice.wait(lambda: alice.driver.find_element("id", "share-link").get_attribute("value"), "the link")
    assert link.startswith(web_server.url + "#room/")
    alice.screenshot("desktop-room-waiting-for-a-friend")
    bob = browser(web_server, "bob")
    bob.sign_in("bob")
    bob.wait_text(".open-rooms", "No one is waiting for an opponent.")
    bob.driver.get(link)
    bob.wait_text(".room-status", "Black (alice) to move.")
    return alice, bob


def test_a_friend_comes_by_the_link_and_the_offers_get_answers(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice, bob = open_friend_game(web_server, browser)
    alice.play("h8")
    bob.play("i9")
    alice.wait_stones({"h8": "black", "i9": "white"})

    alice.click("Take back")
    bob.wait_text(".offers", "alice asks to take back a move.")
    bob.click("Allow the take-back")
    for page in (alice, bob):
        page.wait_stones({})
    alice.wait_text(".room-status", "Your turn.")

    bob.click("Offer a draw")
    alice.wait_text(".offers", "bob offers a draw.")
    alice.click("Decline")
    bob.wait_text(".offers", "The draw offer was declined.")

    alice.click("Offer a draw")
    bob.click("Accept the draw")
    for page in (alice, bob):
        page.wait_text(".room-status", "Draw by agreement.")

    alice.click("Rematch")
    bob.wait_text(".offers", "alice wants a rematch.")
    bob.click("Play the rematch")
    alice.wait_text(".room-status", "Black (bob) to move.")
    bob.wait_text(".room-status", "Your turn.")


def clock_seconds(page: Page, color: str) -> float:
    """What a player's clock shows, in seconds (`m:ss` or `s.t`)."""
    text = page.driver.execute_script(
        "return document.querySelector(`.room-screen .clock[aria-label^='${arguments[0]}']`).textContent", color
    )
    minutes, _, seconds = text.rpartition(":")
    return float(minutes or 0) * 60 + float(seconds)


def test_the_clocks_run_and_resigning_asks_first(web_server: ThreadedServer, browser: BrowserFactory) -> None:
    alice, bob = open_friend_game(web_server, browser, **{"create-clock": "1"})
    black_left = clock_seconds(bob, "Black")
    bob.wait(lambda: clock_seconds(bob, "Black") <= black_left - 2, "black's clock to run on bob's page")
    assert clock_seconds(bob, "White") == 60
    alice.play("h8")
    alice.wait(lambda: clock_seconds(alice, "White") < 60, "white's clock to run once black has moved")
    black_after_move = clock_seconds(alice, "Black")
    bob.play("h9")
    alice.wait_stones({"h8": "black", "h9": "white"})
    assert clock_seconds(alice, "Black") <= black_after_move + 0.1, "an untimed increment: nothing added"

    alice.click("Resign")
    alice.click("Keep playing")
    alice.wait_text(".room-status", "Your turn.")
    alice.click("Resign")
    alice.screenshot("desktop-resign-confirmation")
    alice.click("Yes, resign")
    alice.wait_text(".room-status", "You lost: you resigned.")
    bob.wait_text(".room-status", "alice resigned: you won.")


def test_a_player_plays_a_bot_and_asks_the_engine_for_a_hint(
    bot_web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    dave = browser(bot_web_server, "dave")
    dave.sign_in("dave")
    dave.wait_text(".bots", "greedy")
    dave.click("Play against greedy")
    dave.play("h8")
    dave.wait(lambda: len(dave.stones()) == 2, "the bot's answer")

    dave.click("Hint from the engine")
    dave.wait_text(".hint-result", "Best move")
    suggested = [
        label
        for label in dave.driver.execute_script(
            "return [...document.querySelectorAll('.room-screen .point')].map(p => p.getAttribute('aria-label'))"
        )
        if label.endswith("suggested move")
    ]
    assert len(suggested) == 1
    assert dave.visible(".room-screen .ghost"), "the expected line is drawn as numbered ghost stones"
    dave.screenshot("desktop-room-hint")

    dave.click("Take back")
    dave.wait_stones({})
    dave.click("Resign")
    dave.click("Yes, resign")
    dave.wait_text(".room-status", "You lost: you resigned.")
    dave.click("Rematch")
    dave.wait(lambda: list(dave.stones().values()) == ["black"], "the bot's first move as black")
    dave.wait_text(".room-status", "Your turn.")


def test_anyone_can_follow_two_bots(bot_web_server: ThreadedServer, browser: BrowserFactory) -> None:
    erin = browser(bot_web_server, "erin")
    erin.sign_in("erin")
    erin.create_game("Two bots (watch them)", **{"create-size": "9"})
    erin.wait(lambda: any(end in erin.text_of(".room-status") for end in ("wins", "Draw")), "the end of the game")
    stones = erin.stones()
    assert len(stones) >= 9 and set(stones.values()) == {"black", "white"}


def test_an_invitation_names_its_sender_and_a_private_game_can_be_shown_to_spectators(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice = browser(web_server, "alice")
    alice.sign_in("alice")
    alice.create_game("A friend (private link)")
    invitation = alice.wait(lambda: alice.driver.find_element("id", "share-link").get_attribute("value"), "the link")

    bob = browser(web_server, "bob", fragment=invitation.removeprefix(web_server.url))
    bob.wait_text(".signin-screen", "alice invites you to a game: Freestyle · 15×15.")
    bob.screenshot("desktop-signin-invited")
    bob.sign_in("bob")
    bob.wait_text(".room-status", "Black (alice) to move.")

    alice.wait_text(".share", "Link for spectators:")
    watch_link = alice.driver.find_element("id", "watch-link").get_attribute("value")
    assert watch_link is not None and "#watch/" in watch_link
    carol = browser(web_server, "carol", fragment=watch_link.removeprefix(web_server.url))
    carol.sign_in("carol")
    carol.wait_text(".room-status", "Black (alice) to move.")
    alice.wait_text(".spectators", "1 spectator")
    alice.play("h8")
    carol.wait_stones(board_after(["h8"]))


COVERED_LABELS = """
const stones = [...document.querySelectorAll('.room-screen .stone')].map((stone) => {
  const box = stone.getBoundingClientRect();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2, r: box.width / 2 };
});
const covered = [];
for (const label of document.querySelectorAll('.room-screen .coordinates text')) {
  const box = label.getBoundingClientRect();
  for (const stone of stones) {
    const nearestX = Math.max(box.left, Math.min(stone.x, box.right));
    const nearestY = Math.max(box.top, Math.min(stone.y, box.bottom));
    if (Math.hypot(nearestX - stone.x, nearestY - stone.y) < stone.r) covered.push(label.textContent);
  }
}
return covered;
"""
"""The coordinate labels that a stone covers, even in part."""


def test_stones_on_the_edge_leave_the_coordinates_readable(web_server: ThreadedServer, browser: BrowserFactory) -> None:
    alice, bob = open_friend_game(web_server, browser)
    corners_and_edges = ["a1", "o15", "a15", "o1", "h1", "a8", "h15", "o8"]
    for ply, move in enumerate(corners_and_edges, start=1):
        (alice if ply % 2 else bob).play(move)
    alice.wait_stones(board_after(corners_and_edges))
    alice.screenshot("desktop-room-stones-on-the-edge")
    assert alice.driver.execute_script(COVERED_LABELS) == []
