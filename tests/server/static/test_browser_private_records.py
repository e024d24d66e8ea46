"""A private game of one's own in the browser: listed, replayed and downloaded by its player, shown on
their profile to them, while the page of anyone else shows no trace of it."""

from __future__ import annotations

import json
from pathlib import Path

from browser_harness import BrowserFactory, Page, ThreadedServer
from selenium.webdriver.common.by import By
from test_browser_play import BLACK_WINS
from websockets.sync.client import ClientConnection, connect


def token_of(page: Page, name: str) -> str:
    """The token the page keeps for `name` (the browser's own storage)."""
    script = "return JSON.parse(localStorage.getItem('gomoku.tokens'))[arguments[0]]"
    token: str = page.driver.execute_script(script, name)
    return token


def ask(socket: ClientConnection, **request: object) -> dict[str, object]:
    socket.send(json.dumps({**request, "id": 1}))
    while True:
        reply: dict[str, object] = json.loads(socket.recv(timeout=20))
        if reply.get("id") == 1:
            return reply


def private_rated_game(server: ThreadedServer, black: tuple[str, str], white: str) -> str:
    """A private rated game, won by black (signed in with its name and token); its game id."""
    url = f"ws://127.0.0.1:{server.port}/ws"
    with connect(url) as first, connect(url) as second:
        assert ask(first, type="hello", name=black[0], token=black[1])["type"] == "welcome"
        ask(second, type="hello", name=white)
        room = ask(first, type="create_room", private=True, rated=True)["room"]
        assert isinstance(room, dict)
        ask(second, type="join_room", room_id=room["room_id"])
        for ply, move in enumerate(BLACK_WINS, start=1):
            assert ask(first if ply % 2 else second, type="move", room_id=room["room_id"], move=move)["type"] == "moved"
        return str(room["game_id"])


def test_a_player_replays_downloads_and_sees_their_own_private_game(
    web_server: ThreadedServer, browser: BrowserFactory, tmp_path: Path
) -> None:
    ann = browser(web_server, "ann")
    ann.sign_in("ann")
    game_id = private_rated_game(web_server, ("ann", token_of(ann, "ann")), "ben")

    ann.open(f"#game/{game_id}")
    ann.wait_text(".replay-screen h1", "ann vs ben")
    ann.wait_text(".replay-position", "Move 9 of 9: Black l8.")
    ann.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    ann.driver.find_element(By.CSS_SELECTOR, ".replay-screen a[aria-label='Download as SGF']").click()
    saved = ann.wait(lambda: next(iter(tmp_path.glob(f"{game_id}.sgf")), None), "the SGF file")
    assert "GM[4]" in saved.read_text(encoding="utf-8")

    ann.open("#player/ann")
    ann.wait_text(".profile-record", "1 rated game · won 1, lost 0, drawn 0 · 1 game played")
    ann.wait_text(".profile-screen .games-list", "ann vs ben")

    reader = browser(web_server, "reader")
    reader.sign_in("reader")
    reader.open("#player/ann")
    reader.wait_text(".profile-record", "1 rated game · won 1, lost 0, drawn 0 · 0 games played")
    reader.wait_text(".profile-screen", "No games yet.")
    reader.open(f"#game/{game_id}")
    reader.wait_text(".replay-screen", "This game was not found.")
