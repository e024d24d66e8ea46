"""`gomoku-admin backup`: a copy of the database taken while players play, which a server then serves whole."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from server_harness import FIVE_FOR_BLACK, ClientFactory, RunningServer, ServerFactory, WireClient

REPO = Path(__file__).resolve().parents[2]
PAIRS = 4
"""Pairs of players playing games back to back while the backup is taken."""
MOVE_PAUSE_S = 0.06
"""Between a player's moves: within the server's requests per second for one connection."""


def admin(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.moderation.admin_cli", *arguments],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


async def play_games_until(stop: asyncio.Event, black: WireClient, white: WireClient, finished: list[str]) -> None:
    """Games to five, one after another, until `stop`; each finished game's id is added to `finished`."""
    while not stop.is_set():
        created = await black.request(type="create_room", black="me", white="open")
        room_id, game_id = created["room"]["room_id"], created["room"]["game_id"]
        await white.request(type="join_room", room_id=room_id, as_="player")
        for ply, (x, y) in enumerate(FIVE_FOR_BLACK, start=1):
            mover = black if ply % 2 else white
            reply = await mover.request(type="move", room_id=room_id, x=x, y=y)
            assert reply["type"] == "moved", reply
            await asyncio.sleep(MOVE_PAUSE_S)
        await black.expect_next("game_over")
        finished.append(game_id)
        for player in (black, white):
            await player.request(type="leave_room", room_id=room_id)


async def test_a_backup_taken_under_load_restores_to_a_server_that_serves_every_game(
    game_server: RunningServer, start_server: ServerFactory, client: ClientFactory, db_path: Path, tmp_path: Path
) -> None:
    stop, finished = asyncio.Event(), list[str]()
    players = [await client(f"player{number}") for number in range(2 * PAIRS)]
    playing = [
        asyncio.create_task(play_games_until(stop, players[2 * pair], players[2 * pair + 1], finished))
        for pair in range(PAIRS)
    ]
    while len(finished) < PAIRS:
        await asyncio.sleep(0.05)
    finished_before = list(finished)
    copy = tmp_path / "backup.sqlite3"
    taken = await asyncio.to_thread(admin, "--db", str(db_path), "backup", str(copy))
    stop.set()
    await asyncio.gather(*playing)

    assert taken.returncode == 0, taken.stderr
    (line,) = taken.stdout.splitlines()
    assert line.startswith("backed up ") and str(copy) in line
    with sqlite3.connect(copy) as connection:
        backed_up = {row[0] for row in connection.execute("SELECT game_id FROM games")}
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert set(finished_before) <= backed_up, "a game finished before the backup began is missing"
    assert f"backed up {len(backed_up)} games" in line

    restored = await start_server(db_path=copy)
    for game_id in finished_before:
        status, _, body = await restored.get(f"/api/games/{game_id}")
        assert status == 200
        original = json.loads((await game_server.get(f"/api/games/{game_id}"))[2])
        assert json.loads(body)["moves"] == original["moves"] and json.loads(body)["result"] == original["result"]


def test_a_backup_never_overwrites_and_leaves_nothing_when_refused(tmp_path: Path) -> None:
    existing = tmp_path / "kept.sqlite3"
    existing.write_bytes(b"something precious")
    refused = admin("--db", str(tmp_path / "none.sqlite3"), "backup", str(existing))
    assert refused.returncode == 2 and refused.stderr.startswith("gomoku-admin: cannot back up")
    database = tmp_path / "games.sqlite3"
    sqlite3.connect(database).close()
    refused = admin("--db", str(database), "backup", str(existing))
    assert refused.returncode == 2 and "exists already" in refused.stderr
    assert existing.read_bytes() == b"something precious"
    refused = admin("--db", "postgresql://gomoku@127.0.0.1/gomoku", "backup", str(tmp_path / "new.sqlite3"))
    assert refused.returncode == 2 and "pg_dump" in refused.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["games.sqlite3", "kept.sqlite3"]
