"""The page for everyone: the keyboard alone, a screen reader's names, renju's forbidden points for
black, English or Chinese, a phone's taps, and nothing loaded from anywhere but the server."""

from __future__ import annotations

from browser_harness import BrowserFactory, Page, ThreadedServer
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select


def focused(page: Page) -> WebElement:
    return page.driver.switch_to.active_element


def test_a_name_is_all_it_takes_and_the_browser_remembers_it(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice = browser(web_server, "alice")
    alice.screenshot("desktop-sign-in")
    alice.sign_in("alice")
    alice.driver.refresh()
    alice.wait(lambda: "alice" in alice.text_of("header .me"), "signed in again by the stored token")
    assert not alice.visible(".signin-screen")

    mallory = browser(web_server, "mallory")
    field = mallory.wait(lambda: next(iter(mallory.visible("#signin-name")), None), "the name field")
    field.send_keys("alice", Keys.ENTER)
    mallory.wait_text("#signin-error", "The name “alice” belongs to someone else. Please pick another one.")
    field.clear()
    field.send_keys("王小明", Keys.ENTER)
    mallory.wait_text("#signin-error", "Use 1 to 32 letters, digits, - or _.")  # the page's words, not a tooltip
    mallory.sign_in("mallory")

    alice.open_menu()
    alice.click("Change player", within="header")
    alice.wait(lambda: alice.visible(".signin-screen"), "the sign-in form")
    alice.sign_in("alice2")


def test_the_keyboard_alone_plays_and_every_point_says_what_is_on_it(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    alice = browser(web_server, "alice")
    name_field = alice.wait(lambda: next(iter(alice.visible("#signin-name")), None), "the name field")
    assert focused(alice) == name_field, "the page opens with the name field focused"
    focused(alice).send_keys("alice", Keys.ENTER)
    alice.wait(lambda: "alice" in alice.text_of("header .me"), "signed in")

    alice.create_game("A friend (private link)")
    bob = browser(web_server, "bob")
    bob.sign_in("bob")
    bob.driver.get(alice.driver.find_element(By.ID, "share-link").get_attribute("value") or "")
    alice.wait_text(".room-status", "Your turn.")

    alice.wait(lambda: focused(alice).tag_name == "h1", "the room's heading to take the focus")
    focused(alice).send_keys(Keys.TAB)
    assert focused(alice).accessible_name == "h8, empty", "Tab goes from the heading to the board's middle"
    focused(alice).send_keys(Keys.ARROW_LEFT)
    assert focused(alice).accessible_name == "g8, empty"
    focused(alice).send_keys(Keys.ENTER)
    bob.wait_stones({"g8": "black"})
    alice.wait(lambda: focused(alice).accessible_name == "g8, black stone, move 1, last move", "g8 named as played")

    bob.play("h9")
    alice.wait_text(".room-status", "Your turn.")
    focused(alice).send_keys(Keys.ARROW_UP, Keys.SPACE)
    bob.wait_stones({"g8": "black", "h9": "white", "g9": "black"})

    focused(alice).send_keys(Keys.TAB)
    assert focused(alice).text == "bob", "the board is one stop in the tab order; the players' names (links) follow"
    focused(alice).send_keys(Keys.TAB, Keys.TAB)
    assert focused(alice).text == "Offer a draw"

    labels: list[list[str]] = alice.driver.execute_script(
        "return [...document.querySelectorAll('.room-screen .point')]"
        ".map((point) => [point.dataset.point, point.getAttribute('aria-label')])"
    )
    assert len(labels) == 225
    columns = "abcdefghijklmno"
    for index, (point, label) in enumerate(labels):
        assert point == f"{columns[index % 15]}{15 - index // 15}", "points in reading order, from the top left"
        assert label.startswith(f"{point}, "), label
    assert dict(labels)["h9"] == "h9, white stone, move 2"
    board = alice.driver.find_element(By.CSS_SELECTOR, ".room-screen .board-points")
    assert board.accessible_name == "Board, 15 by 15"
    assert alice.text_of("[data-role=announcer]") == "Move 3: Black g9."


def test_renju_forbidden_points_are_shown_to_black_only(web_server: ThreadedServer, browser: BrowserFactory) -> None:
    alice = browser(web_server, "alice")
    alice.sign_in("alice")
    alice.create_game("A friend (private link)", **{"create-rule": "renju"})
    bob = browser(web_server, "bob")
    bob.sign_in("bob")
    bob.driver.get(alice.driver.find_element(By.ID, "share-link").get_attribute("value") or "")
    for black, white in (("g10", "a1"), ("g9", "a3"), ("f8", "a5"), ("h8", "a7")):
        alice.play(black)
        bob.play(white)
    alice.wait_text(".room-status", "Your turn.")

    alice.wait(
        lambda: alice.point("g8").accessible_name == "g8, empty, forbidden for black (double three)", "g8 forbidden"
    )
    assert len(alice.visible(".room-screen .forbidden")) == 1
    assert bob.point("g8").accessible_name == "g8, empty"
    assert not bob.visible(".room-screen .forbidden")
    alice.screenshot("desktop-renju-forbidden")

    alice.point("g8").click()
    alice.wait_text(".notice", "That point is forbidden for black (renju).")
    assert "g8" not in alice.stones()


def test_the_page_speaks_english_or_chinese(web_server: ThreadedServer, browser: BrowserFactory) -> None:
    alice = browser(web_server, "alice")
    alice.sign_in("alice")
    alice.open_menu()
    Select(alice.driver.find_element(By.ID, "language")).select_by_value("zh")
    alice.wait_text("header nav", "大厅")
    assert alice.driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "zh-CN"
    alice.wait_text(".lobby-screen h1", "大厅")
    alice.create_game("任何人（公开房间）", submit="创建对局")
    alice.wait_text(".room-status", "等待对手加入。")
    assert alice.point("h8").accessible_name == "h8，空"
    alice.screenshot("desktop-room-chinese")

    alice.driver.refresh()
    alice.wait_text("header nav", "棋谱")
    alice.open_menu()
    Select(alice.driver.find_element(By.ID, "language")).select_by_value("en")
    alice.wait_text("header nav", "Games")

    chen = browser(web_server, "chen", language="zh-CN")
    chen.wait_text(".signin-screen h1", "下五子棋")


def test_every_file_the_page_loads_comes_from_the_server(web_server: ThreadedServer, browser: BrowserFactory) -> None:
    alice = browser(web_server, "alice")
    alice.sign_in("alice")
    alice.wait_text(".lobby-screen h1", "Lobby")
    loaded: list[str] = alice.driver.execute_script(
        "return performance.getEntries().filter((entry) => entry.name.includes('//')).map((entry) => entry.name)"
    )
    assert {"js/views/board.js", "style.css"} <= {name.removeprefix(web_server.url) for name in loaded}
    assert [name for name in loaded if not name.startswith(web_server.url)] == []


def test_a_phone_taps_twice_to_play(web_server: ThreadedServer, browser: BrowserFactory) -> None:
    phone = browser(web_server, "phone", width=390, height=844, mobile=True)
    phone.sign_in("phone")
    phone.wait_text(".bots", "")
    phone.screenshot("phone-lobby")
    phone.create_game("A friend (private link)")
    bob = browser(web_server, "bob")
    bob.sign_in("bob")
    bob.driver.get(phone.driver.find_element(By.ID, "share-link").get_attribute("value") or "")
    phone.wait_text(".room-status", "Your turn.")
    assert phone.driver.find_element(By.ID, "option-confirmTaps").is_selected(), "on by default on a touch screen"

    phone.point("h8").click()
    phone.wait(lambda: phone.visible(".room-screen .armed-ring"), "the first tap to mark the point")
    assert phone.stones() == {}
    phone.point("h8").click()
    bob.wait_stones({"h8": "black"})
    bob.play("i9")
    phone.wait_stones({"h8": "black", "i9": "white"})
    phone.screenshot("phone-room")


def test_a_narrow_window_taps_twice_by_default_even_with_a_mouse(
    web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    narrow = browser(web_server, "narrow", width=390, height=844)
    narrow.sign_in("narrow")
    narrow.create_game("A friend (private link)")
    bob = browser(web_server, "bob")
    bob.sign_in("bob")
    bob.driver.get(narrow.driver.find_element(By.ID, "share-link").get_attribute("value") or "")
    narrow.wait_text(".room-status", "Your turn.")
    assert narrow.driver.find_element(By.ID, "option-confirmTaps").is_selected(), "the points are smaller than a finger"
    narrow.point("h8").click()
    narrow.wait(lambda: narrow.visible(".room-screen .armed-ring"), "the first click to mark the point")
    assert narrow.stones() == {}
