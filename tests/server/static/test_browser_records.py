"""Stored games in the browser: anyone's list, a replay with a slider, keys and autoplay, and downloads."""

from __future__ import annotations

import json
from pathlib import Path

from browser_harness import BrowserFactory, Page, ThreadedServer
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from test_browser_play import BLACK_WINS, board_after
from websockets.sync.client import connect


def play_by_script(server: ThreadedServer, black: str, white: str, moves: list[str]) -> str:
    """A finished game played over the wire (no browser); returns its game id."""
    url = f"ws://127.0.0.1:{server.port}/ws"
    with connect(url) as first, connect(url) as second:

        def ask(socket: object, **request: object) -> dict[str, object]:
            socket.send(json.dumps({**request, "id": 1}))  # type: ignore[attr-defined]
            while True:
                reply: dict[str, object] = json.loads(socket.recv(timeout=20))  # type: ignore[attr-defined]
                if reply.get("id") == 1:
                    return reply

        ask(first, type="hello", name=black)
        ask(second, type="hello", name=white)
        created = ask(first, type="create_room")
        room = created["room"]
        assert isinstance(room, dict)
        ask(second, type="join_room", room_id=room["room_id"])
        for ply, move in enumerate(moves, start=1):
            assert ask(first if ply % 2 else second, type="move", room_id=room["room_id"], move=move)["type"] == "moved"
        return str(room["game_id"])


def replay_stones(page: Page) -> dict[str, str]:
    return page.stones(".replay-screen")


def test_a_finished_game_is_found_replayed_and_downloaded(
    web_server: ThreadedServer, browser: BrowserFactory, tmp_path: Path
) -> None:
    game_id = play_by_script(web_server, "ann", "ben", BLACK_WINS)
    reader = browser(web_server, "reader")
    reader.sign_in("reader")
    reader.driver.find_element(By.LINK_TEXT, "Games").click()
    reader.wait_text(".games-screen", "No games yet.")
    field = reader.driver.find_element(By.ID, "games-player")
    field.send_keys("ann", Keys.ENTER)
    reader.wait_text(".games-screen h1", "Games of ann")
    reader.wait_text(".games-list", "ann vs ben")
    reader.wait_text(".games-list", "Black won (five in a row)")
    reader.screenshot("desktop-games")

    reader.driver.find_element(By.LINK_TEXT, "Replay").click()
    reader.wait_text(".replay-screen h1", "ann vs ben")
    assert reader.driver.current_url.endswith(f"#game/{game_id}")
    reader.wait(lambda: replay_stones(reader) == board_after(BLACK_WINS), "the final position")
    reader.wait_text(".replay-position", "Move 9 of 9: Black l8.")
    reader.screenshot("desktop-replay")

    heading = reader.driver.find_element(By.CSS_SELECTOR, ".replay-screen h1")
    heading.send_keys(Keys.HOME)
    reader.wait(lambda: replay_stones(reader) == {}, "the empty board")
    heading.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    reader.wait(lambda: replay_stones(reader) == board_after(BLACK_WINS[:3]), "three moves")
    reader.wait_text(".replay-position", "Move 3 of 9: Black i8.")

    slider = reader.driver.find_element(By.ID, "replay-slider")
    slider.send_keys(Keys.END)
    reader.wait(lambda: replay_stones(reader) == board_after(BLACK_WINS), "the slider at the end")
    slider.send_keys(Keys.HOME)
    reader.wait(lambda: replay_stones(reader) == {}, "the slider at the start")

    reader.driver.execute_script(
        "const s = document.getElementById('replay-speed'); s.value = '250'; s.dispatchEvent(new Event('change'));"
    )
    reader.click("Play")
    reader.wait(lambda: 0 < len(replay_stones(reader)) < 9, "autoplay under way")
    reader.wait(lambda: replay_stones(reader) == board_after(BLACK_WINS), "autoplay to the end")
    reader.button("Play")

    reader.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    reader.driver.find_element(By.CSS_SELECTOR, ".replay-screen a[aria-label='Download as SGF']").click()
    saved = reader.wait(lambda: next(iter(tmp_path.glob(f"{game_id}.sgf")), None), "the SGF file")
    assert "GM[4]" in saved.read_text(encoding="utf-8")
    for label, expected in (("Download as PSQ", "Piskvork"), ("Download as JSON", '"game_id"')):
        link = reader.driver.find_element(By.CSS_SELECTOR, f".replay-screen a[aria-label='{label}']")
        body = reader.driver.execute_async_script(
            "fetch(arguments[0]).then((reply) => reply.text()).then(arguments[1])", link.get_attribute("href")
        )
        assert expected in body, label


def test_the_engine_gives_a_hint_at_any_move_of_a_stored_game(
    bot_web_server: ThreadedServer, browser: BrowserFactory
) -> None:
    game_id = play_by_script(bot_web_server, "ann", "ben", BLACK_WINS)
    reader = browser(bot_web_server, "reader", fragment=f"#game/{game_id}")
    reader.sign_in("reader")
    reader.wait_text(".replay-screen h1", "ann vs ben")
    reader.wait_text(".replay-position", "Move 9 of 9: Black l8.")
    assert not reader.visible(".replay-screen .hint"), "no hint where five stones stand"

    reader.driver.find_element(By.CSS_SELECTOR, ".replay-screen h1").send_keys(Keys.HOME, *[Keys.ARROW_RIGHT] * 7)
    reader.wait_text(".replay-position", "Move 7 of 9: Black k8.")
    reader.click("Hint from the engine", within=".replay-screen")
    reader.wait_text(".replay-screen .hint-result", "Best move")
    reader.wait(lambda: reader.visible(".replay-screen .hint-ring"), "the best move marked on the board")
    reader.screenshot("desktop-replay-hint")
    reader.driver.find_element(By.CSS_SELECTOR, ".replay-screen h1").send_keys(Keys.ARROW_LEFT)
    reader.wait_gone(".replay-screen .hint-ring")
