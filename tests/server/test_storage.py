"""The store: migrations, players, and games written as rooms hand them over (on SQLite, and on
PostgreSQL where a test takes `database`)."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest

from engine.record import ClockSetting, PlayerInfo
from engine.types import Color, EndReason, GameResult, Point, Rule
from server.domain import (
    GameFinished,
    GameId,
    GameStarted,
    MovePlayed,
    MovesTakenBack,
    Refusal,
    RoomId,
    SeatsDecided,
    new_game_id,
    new_room_id,
)
from server.players.sessions import hash_token, new_token, sign_in, token_matches
from server.storage.database import Storage, StorageError

START = datetime(2026, 11, 22, 17, 0, tzinfo=UTC)


def started(game_id: GameId, room_id: RoomId) -> GameStarted:
    return GameStarted(
        game_id=game_id,
        room_id=room_id,
        rule=Rule.FREESTYLE,
        size=15,
        black=PlayerInfo("alice"),
        white=PlayerInfo("hard", "bot", "hard"),
        clock=ClockSetting(60_000, 1_000),
        started_at=START,
        private=False,
    )


async def test_migrations_are_applied_in_order_once_and_recorded(tmp_path: Path) -> None:
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    (migrations / "0002_notes.sql").write_text("CREATE TABLE notes (text TEXT);", encoding="utf-8")
    (migrations / "0001_start.sql").write_text("CREATE TABLE things (name TEXT);", encoding="utf-8")
    db = tmp_path / "db.sqlite3"
    storage = await Storage.open(db, migrations)
    assert await storage.applied_migrations() == [1, 2]
    await storage.close()

    (migrations / "0003_more.sql").write_text("ALTER TABLE notes ADD COLUMN author TEXT;", encoding="utf-8")
    storage = await Storage.open(db, migrations)
    assert await storage.applied_migrations() == [1, 2, 3]
    await storage.close()
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        columns = [row[1] for row in connection.execute("PRAGMA table_info(notes)")]
    assert columns == ["text", "author"]


async def test_a_badly_named_migration_is_refused(tmp_path: Path) -> None:
    (tmp_path / "add things.sql").write_text("SELECT 1;", encoding="utf-8")
    with pytest.raises(StorageError, match="NNNN"):
        await Storage.open(tmp_path / "db.sqlite3", tmp_path)


async def test_only_the_hash_of_a_token_is_kept(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    storage = await Storage.open(db)
    player, token = await sign_in(storage, "alice", None)
    assert (player.name, player.kind) == ("alice", "human")
    again, same = await sign_in(storage, "alice", token)
    assert (again.name, same) == ("alice", token)
    with pytest.raises(Refusal) as wrong:
        await sign_in(storage, "alice", new_token())
    assert wrong.value.code == "unauthorized"
    await storage.close()
    with sqlite3.connect(db) as connection:
        stored = connection.execute("SELECT token_hash FROM players WHERE name = 'alice'").fetchone()[0]
    assert stored == hash_token(token) and token.encode() not in db.read_bytes()
    assert token_matches(token, hash_token(token)) and not token_matches(token + "x", hash_token(token))


async def test_moves_undo_and_result_make_up_the_record(database: str) -> None:
    storage = await Storage.open(database)
    game_id, room_id = new_game_id(), new_room_id()
    await storage.apply(
        [
            started(game_id, room_id),
            MovePlayed(game_id, 1, Point(7, 7), Color.BLACK, 1200, (59_800, 60_000)),
        ]
    )
    await storage.apply([MovePlayed(game_id, 2, Point(8, 8), Color.WHITE, 300, (59_800, 60_700))])
    await storage.apply([MovePlayed(game_id, 3, Point(6, 6), Color.BLACK, 900, (59_900, 60_700))])

    restored = await storage.unfinished_games()
    assert [game.moves for game in restored] == [(Point(7, 7), Point(8, 8), Point(6, 6))]
    assert restored[0].clock_ms == (59_900, 60_700) and restored[0].white.level == "hard"

    await storage.apply([MovesTakenBack(game_id, 1, (59_000, 60_700))])
    result = GameResult(Color.WHITE, EndReason.RESIGN)
    await storage.apply([GameFinished(game_id, result, START.replace(hour=18), (59_000, 60_700))])

    record = await storage.game_record(game_id, None)
    assert record is not None
    assert [(move.point, move.color, move.time_ms) for move in record.moves] == [(Point(7, 7), Color.BLACK, 1200)]
    assert record.result == result and record.ended_at == START.replace(hour=18)
    assert record.clock == ClockSetting(60_000, 1_000)
    assert await storage.unfinished_games() == []
    page = await storage.list_games("alice", 10, None)
    assert page is not None and [summary.move_count for summary in page.games] == [1] and page.next is None
    by_bot = await storage.list_games("hard", 10, None)
    assert by_bot is not None and [summary.game_id for summary in by_bot.games] == [game_id]
    nobody = await storage.list_games("carol", 10, None)
    assert nobody is not None and nobody.games == ()
    await storage.close()


async def test_a_bots_own_depth_and_width_follow_it_when_an_opening_swaps_the_seats(database: str) -> None:
    storage = await Storage.open(database)
    game_id = new_game_id()
    bot, alice = PlayerInfo("alphabeta", "bot", "alphabeta", depth=3, width=7), PlayerInfo("alice")
    await storage.apply([replace(started(game_id, new_room_id()), black=bot, white=alice)])
    await storage.apply([SeatsDecided(game_id, black=alice, white=bot)])
    (restored,) = await storage.unfinished_games()
    assert (restored.black, restored.white) == (alice, bot)
    await storage.close()


async def test_a_failed_write_leaves_nothing_behind(database: str) -> None:
    storage = await Storage.open(database)
    game_id = new_game_id()
    await storage.apply([started(game_id, new_room_id())])
    duplicate = MovePlayed(game_id, 1, Point(1, 1), Color.BLACK, 10, None)
    with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)):
        await storage.apply([MovePlayed(game_id, 1, Point(0, 0), Color.BLACK, 10, None), duplicate])
    record = await storage.game_record(game_id, None)
    assert record is not None and record.moves == ()
    await storage.close()


async def test_names_that_differ_only_in_case_are_made_distinct_when_the_rule_arrives(tmp_path: Path) -> None:
    from server.storage.database import MIGRATIONS_DIR

    older = tmp_path / "older-migrations"
    older.mkdir()
    for path in sorted(MIGRATIONS_DIR.glob("*.sql"))[:2]:
        (older / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    db = tmp_path / "db.sqlite3"
    storage = await Storage.open(db, older)
    await storage.close()
    with sqlite3.connect(db) as connection:
        for name in ("alice", "ALICE"):
            connection.execute(
                "INSERT INTO players (name, token_hash, created_at) VALUES (?, ?, '2026-11-01T00:00:00Z')",
                (name, hash_token(name)),
            )

    storage = await Storage.open(db)
    first = await storage.find_player("Alice")
    assert first is not None and first.name == "alice"
    assert await storage.add_player("aLiCe", hash_token("c")) is None
    with sqlite3.connect(db) as connection:
        names = sorted(row[0] for row in connection.execute("SELECT name FROM players"))
    assert names[0].startswith("ALICE-") and names[1] == "alice"
    await storage.close()
