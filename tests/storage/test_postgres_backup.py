"""The cluster's records backed up as docs/operating.md says: `pg_dump --format=custom`, then `pg_restore`
into a new, empty database, which a server opens and reads every game from."""

from __future__ import annotations

import subprocess
from pathlib import Path
from urllib.parse import urlsplit

from engine.record import PlayerInfo
from engine.types import Color, EndReason, GameResult, Point, Rule
from server.domain import GameFinished, GameStarted, MovePlayed, new_game_id, new_room_id, utc_now
from server.storage.database import Storage
from tools.local_services import postgres_bin


def connection_options(url: str) -> list[str]:
    parts = urlsplit(url)
    return ["--host", parts.hostname or "127.0.0.1", "--port", str(parts.port), "--username", parts.username or ""]


async def test_pg_dump_then_pg_restore_into_an_empty_database_keeps_every_game(
    postgres_url: str, empty_postgres_url: str, tmp_path: Path
) -> None:
    storage = await Storage.open(postgres_url)
    game_id = new_game_id()
    black, white = PlayerInfo("alice"), PlayerInfo("bob")
    await storage.apply([GameStarted(game_id, new_room_id(), Rule.FREESTYLE, 15, black, white, None, utc_now(), False)])
    await storage.apply([MovePlayed(game_id, 1, Point(7, 7), Color.BLACK, 10, None)])
    await storage.apply([GameFinished(game_id, GameResult(Color.WHITE, EndReason.RESIGN), utc_now(), None)])
    await storage.close()
    programs = postgres_bin()
    assert programs is not None
    dump = tmp_path / "gomoku.dump"
    source, target = urlsplit(postgres_url), urlsplit(empty_postgres_url)

    subprocess.run(
        [programs / "pg_dump", "--format=custom", "--file", dump, *connection_options(postgres_url), source.path[1:]],
        check=True,
        timeout=60,
    )
    subprocess.run(
        [
            programs / "pg_restore",
            "--no-owner",
            "--dbname",
            target.path[1:],
            *connection_options(empty_postgres_url),
            dump,
        ],
        check=True,
        timeout=60,
    )

    restored = await Storage.open(empty_postgres_url)
    try:
        record = await restored.game_record(game_id, None)
        assert record is not None and [move.point for move in record.moves] == [Point(7, 7)]
        assert record.result is not None and record.result.winner is Color.WHITE
    finally:
        await restored.close()
