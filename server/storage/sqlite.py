"""The SQLite driver: one file, through aiosqlite, a connection for writes and one for reads.

The journal is WAL with full sync: once a write transaction commits, the
change survives the process being killed. Migrations are `migrations/NNNN_name.sql`,
applied in order and recorded in `schema_migrations`.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import aiosqlite

from engine.record import format_timestamp
from server.storage.drivers import Parameters, StorageError, migration_files
from server.storage.rows import Row

_TRANSIENT = ("SQLITE_BUSY", "SQLITE_LOCKED")
"""Error names (and their extended forms) that say: another connection holds the database; try again."""
_UNAVAILABLE = {
    "SQLITE_FULL": "the disk is full",
    "SQLITE_IOERR": "the disk failed to read or write",
    "SQLITE_READONLY": "the database file is read-only",
    "SQLITE_CANTOPEN": "the database file cannot be opened",
    "SQLITE_BUSY": "the database is locked by another program",
    "SQLITE_LOCKED": "the database is locked by another program",
}
"""Errors of the database or the disk rather than of the change, and how to say them."""


def is_transient(error: BaseException) -> bool:
    """Whether the error says another connection holds the database, so that trying again may work."""
    return isinstance(error, sqlite3.Error) and str(getattr(error, "sqlite_errorname", "")).startswith(_TRANSIENT)


def unavailable_reason(error: BaseException) -> str | None:
    """What is wrong with the database or the disk, if that is what the error says; None for other errors."""
    if isinstance(error, ValueError) and "closed" in str(error):  # aiosqlite: a closed connection
        return "the database is closed"
    name = str(getattr(error, "sqlite_errorname", ""))
    for prefix, reason in _UNAVAILABLE.items():
        if name.startswith(prefix):
            return reason
    return None


class _Queries:
    """Queries on one aiosqlite connection."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection

    async def rows(self, sql: str, parameters: Parameters = ()) -> list[Row]:
        async with self._db.execute(sql, parameters) as cursor:
            return list(await cursor.fetchall())

    async def row(self, sql: str, parameters: Parameters = ()) -> Row | None:
        async with self._db.execute(sql, parameters) as cursor:
            row: sqlite3.Row | None = await cursor.fetchone()
            return row

    async def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        await self._db.executemany(sql, rows)


class SqliteDriver:
    """A SQLite file, with a writing and a reading connection."""

    for_update = ""

    def __init__(self, writes: aiosqlite.Connection, reads: aiosqlite.Connection) -> None:
        self._writes = writes
        self._reads = reads
        self._write_lock = asyncio.Lock()
        """One transaction at a time on the writing connection."""
        self._read_lock = asyncio.Lock()
        """One read transaction at a time on the reading connection."""

    @classmethod
    async def open(cls, path: Path, migrations: Traversable, busy_timeout_ms: int) -> SqliteDriver:
        """Open (creating if needed) the database at `path` and apply pending migrations.

        Raises StorageError with one sentence naming the path and what is wrong with it.
        """
        _check_place(path)
        connections: list[aiosqlite.Connection] = []
        try:
            writes = await _connect(path, busy_timeout_ms, connections)
            await writes.execute("PRAGMA journal_mode=WAL")
            await writes.execute("PRAGMA synchronous=FULL")
            await _migrate(writes, migrations)
            reads = await _connect(path, busy_timeout_ms, connections)
        except sqlite3.Error as error:
            for connection in connections:
                await connection.close()
            reason = unavailable_reason(error) or str(error)
            raise StorageError(f"cannot use the database {path}: {reason}") from error
        except BaseException:
            for connection in connections:
                await connection.close()
            raise
        return cls(writes, reads)

    async def close(self) -> None:
        await self._reads.close()
        await self._writes.close()

    @contextlib.asynccontextmanager
    async def snapshot(self) -> AsyncIterator[_Queries]:
        """The read connection in one read transaction: every query inside sees the same committed
        state, and the latest one (interleaved queries on one connection would share an older
        snapshot: a player just created could look absent)."""
        async with self._read_lock:
            await self._reads.execute("BEGIN")
            try:
                yield _Queries(self._reads)
            finally:
                await self._reads.execute("COMMIT")

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[_Queries]:
        """The writing connection in one write transaction, which takes the database's write lock at
        once (BEGIN IMMEDIATE): what it reads no other writer changes until it commits."""
        async with self._write_lock:
            try:
                await self._writes.execute("BEGIN IMMEDIATE")
                yield _Queries(self._writes)
                await self._writes.execute("COMMIT")
            except BaseException:
                if self._writes.in_transaction:
                    await self._writes.execute("ROLLBACK")
                raise

    def is_transient(self, error: BaseException) -> bool:
        return is_transient(error)

    def unavailable_reason(self, error: BaseException) -> str | None:
        return unavailable_reason(error)

    async def limit_pages(self, pages: int | None) -> None:
        """Cap the database at `pages` pages (SQLite's max_page_count; None: no cap). Past it, writes
        fail as on a full disk: for an operator bounding disk use, and for tests standing in for one."""
        await self._writes.execute(f"PRAGMA max_page_count = {2**32 - 2 if pages is None else int(pages)}")

    async def page_count(self) -> int:
        """The database's size in pages."""
        async with self._writes.execute("PRAGMA page_count") as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])


async def _connect(path: Path, busy_timeout_ms: int, opened: list[aiosqlite.Connection]) -> aiosqlite.Connection:
    """A connection to the database with the server's pragmas; added to `opened` so that a failure
    later in opening closes it."""
    connection = await aiosqlite.connect(str(path), isolation_level=None)
    opened.append(connection)
    connection.row_factory = sqlite3.Row
    await connection.execute("PRAGMA foreign_keys=ON")
    await connection.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
    return connection


def _check_place(path: Path) -> None:
    """Refuse at once, with a clear reason, a path SQLite would only say it cannot open."""
    if path.is_dir():
        raise StorageError(f"cannot use the database {path}: it is a directory")
    if not path.parent.is_dir():
        raise StorageError(f"cannot use the database {path}: the folder {path.parent} does not exist")
    # Opened once here, where a failure is plain: aiosqlite's failed connect leaves its thread
    # answering into an event loop that may be closed by then (a traceback after the server's reason).
    try:
        sqlite3.connect(path).close()
    except sqlite3.Error as error:
        raise StorageError(f"cannot use the database {path}: {unavailable_reason(error) or error}") from error


async def _migrate(connection: aiosqlite.Connection, directory: Traversable) -> None:
    await connection.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations "
        "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    async with connection.execute("SELECT version FROM schema_migrations") as cursor:
        applied = {row[0] for row in await cursor.fetchall()}
    for version, name, path in migration_files(directory):
        if version in applied:
            continue
        script = path.read_text(encoding="utf-8")
        stamp = format_timestamp(datetime.now(UTC))
        await connection.executescript(
            f"BEGIN;\n{script}\n;INSERT INTO schema_migrations VALUES ({version}, '{name}', '{stamp}');\nCOMMIT;"
        )
