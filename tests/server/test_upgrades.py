"""Every earlier schema upgrades: a database made at each migration, with rows in every table, is
brought up to date by today's server, which then serves its games and lets its players sign in.

Each database is made by today's migrator from the first N migration files (as a server of that
version would have made it), then filled: one finished game of alice's and bob's, written with the
columns the first schema already had, and a row in every other table of that version, built from
the table's own description (its columns' types and foreign keys), so that a table added later
gets its row without this test naming it.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_harness import ServerFactory, WireClient
from websockets.asyncio.client import connect

from server.players.sessions import hash_token
from server.storage.database import MIGRATIONS_DIR, Storage

VERSIONS = sorted(int(path.name[:4]) for path in MIGRATIONS_DIR.glob("*.sql"))
GAME_ID, ROOM_ID = "g-upgrade-1", "r-upgrade-1"
TOKENS = {"alice": "alice-token-from-long-ago", "bob": "bob-token-from-long-ago"}
MOVES = [(7, 7, "black"), (8, 8, "white"), (8, 7, "black")]
STAMP = "2025-01-02T03:04:05.000Z"


async def database_at(version: int, folder: Path) -> Path:
    """A SQLite database with the schema of migrations 1..version, empty."""
    migrations = folder / f"migrations-{version:04d}"
    migrations.mkdir()
    for path in sorted(MIGRATIONS_DIR.glob("*.sql")):
        if int(path.name[:4]) <= version:
            shutil.copy(path, migrations / path.name)
    db = folder / f"schema-{version:04d}.sqlite3"
    storage = await Storage.open(db, migrations)
    await storage.close()
    return db


def fill(db: Path) -> None:
    """The game every schema can hold, then one row in each table still empty."""
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA foreign_keys=ON")
        for name, token in TOKENS.items():
            connection.execute(
                "INSERT INTO players (name, token_hash, rating, created_at) VALUES (?, ?, 1500, ?)",
                (name, hash_token(token), STAMP),
            )
        connection.execute(
            "INSERT INTO games (game_id, room_id, rule, size, black_name, black_kind, white_name, white_kind, "
            "private, started_at) VALUES (?, ?, 'freestyle', 15, 'alice', 'human', 'bob', 'human', 0, ?)",
            (GAME_ID, ROOM_ID, STAMP),
        )
        connection.executemany(
            "INSERT INTO moves (game_id, ply, x, y, color) VALUES (?, ?, ?, ?, ?)",
            [(GAME_ID, ply, x, y, color) for ply, (x, y, color) in enumerate(MOVES, start=1)],
        )
        connection.execute(
            "INSERT INTO results (game_id, winner, reason, ended_at) VALUES (?, 'black', 'resign', ?)", (GAME_ID, STAMP)
        )
        for table in tables_parents_first(connection):
            if connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] == 0:
                insert_a_row(connection, table)


def tables_parents_first(connection: sqlite3.Connection) -> Iterator[str]:
    names = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    names = [name for name in names if name not in ("schema_migrations", "sqlite_sequence")]
    done: set[str] = set()
    while len(done) < len(names):
        for table in names:
            parents = {row[2] for row in connection.execute(f"PRAGMA foreign_key_list({table})")} - {table}
            if table not in done and parents <= done:
                done.add(table)
                yield table


def insert_a_row(connection: sqlite3.Connection, table: str) -> None:
    """A row made of plausible values: a foreign key takes its parent's first row, a column named
    like a time a timestamp, a game or player column the game's and alice's, others by their type."""
    references = {row[3]: (row[2], row[4]) for row in connection.execute(f"PRAGMA foreign_key_list({table})")}
    values = {}
    for _, column, declared, *_ in connection.execute(f"PRAGMA table_info({table})"):
        if column in references:
            parent, parent_column = references[column]
            values[column] = connection.execute(f"SELECT {parent_column} FROM {parent} LIMIT 1").fetchone()[0]
        else:
            values[column] = plausible(column, declared.upper())
    names = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    connection.execute(f"INSERT INTO {table} ({names}) VALUES ({marks})", tuple(values.values()))


NAMED_VALUES = {
    "rule": "freestyle",
    "format": "round_robin",
    "opening": "none",
    "status": "finished",
    "kind": "human",
    "color": "black",
    "role": "moderator",
    "reason": "resign",
}
"""Columns whose text is one of a few words the server reads back as such."""


def plausible(column: str, declared: str) -> object:
    if column in NAMED_VALUES:
        return NAMED_VALUES[column]
    if column.endswith(("_at", "_until", "_since")):
        return STAMP
    if column == "game_id":
        return GAME_ID
    if column == "room_id":
        return ROOM_ID
    if column in ("name", "player", "target", "actor", "player_name") or column.endswith("_name"):
        return "alice"
    if "INT" in declared:
        return 1
    if any(word in declared for word in ("REAL", "FLOA", "DOUB")):
        return 1.0
    if "BLOB" in declared:
        return b"\x01" * 32
    return f"{column}-1"


@pytest.mark.parametrize("version", VERSIONS[:-1])
async def test_a_database_of_every_earlier_schema_is_upgraded_and_served(
    version: int, tmp_path: Path, start_server: ServerFactory
) -> None:
    db = await database_at(version, tmp_path)
    fill(db)

    server = await start_server(db_path=db)

    status, _, body = await server.get(f"/api/games/{GAME_ID}")
    assert status == 200, body
    record = json.loads(body)
    assert [move["move"] for move in record["moves"]] == ["h8", "i7", "i8"]
    assert record["result"]["winner"] == "black" and record["result"]["reason"] == "resign"
    alice = WireClient(await connect(server.ws_url))
    try:
        welcome = await alice.hello("alice", TOKENS["alice"])
        assert welcome["player"]["name"] == "alice"
    finally:
        await alice.close()
    with sqlite3.connect(db) as connection:
        applied = [row[0] for row in connection.execute("SELECT version FROM schema_migrations ORDER BY version")]
    assert applied == VERSIONS
