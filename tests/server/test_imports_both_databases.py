"""Importing games on each of the two databases (a SQLite file and PostgreSQL, `tests/cluster/services.py`):
an upload stored all or none, read back, refused when repeated, and still there after a restart."""

from __future__ import annotations

import pytest
from server_harness import ClientFactory, RunningServer, ServerFactory, refused
from test_imports import PSQ, SGF, imported, upload


@pytest.fixture
def db_path(database: str) -> str:
    return database


@pytest.fixture
async def game_server(start_server: ServerFactory) -> RunningServer:
    return await start_server()


async def test_an_upload_is_stored_whole_read_back_and_not_stored_twice(
    start_server: ServerFactory, game_server: RunningServer, client: ClientFactory
) -> None:
    ann = await client("ann")
    refusal = await ann.request(**upload(("final.psq", PSQ), ("bad.txt", "h8 h8")))
    assert refused(refusal, "bad_request").startswith("bad.txt, game 1: line 1: move 2 (h8) is illegal")
    assert (await ann.request(type="list_games", player="ann"))["games"] == []

    games = await imported(ann, ("final.psq", PSQ), ("club.sgf", SGF))
    assert [game["file"] for game in games] == ["final.psq", "club.sgf", "club.sgf"]
    record = (await ann.request(type="get_game", game_id=games[0]["game_id"]))["record"]
    assert [move["time_ms"] for move in record["moves"]][:2] == [1500, 300]
    again = await ann.request(**upload(("copy.sgf", SGF)))
    assert refused(again, "bad_request").startswith(
        f"copy.sgf, game 1 is already imported, as game {games[1]['game_id']}"
    )

    await game_server.stop()
    restarted = await start_server()
    ann = await client("ann", restarted)
    listed = await ann.request(type="list_games", player="ann")
    assert {game["game_id"] for game in listed["games"]} == {game["game_id"] for game in games}
