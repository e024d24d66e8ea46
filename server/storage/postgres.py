"""The PostgreSQL driver, through asyncpg (the `cluster` extra): a pool for reads, one connection for writes.

The same SQL as on SQLite runs here: `?` and `:name` placeholders become
PostgreSQL's `$1, $2, ...` (translated once per statement, then cached), and
the schema gives PostgreSQL what the SQL expects of SQLite (a `nocase`
collation, a `rowid` column where rows are listed in stored order: see
`migrations/postgresql/0007_baseline.sql`).

A new database starts from that baseline, recorded as the versions it
stands for, then takes every shared migration after it. Nodes starting at
once migrate one at a time (an advisory lock).

When the server cannot be reached (stopped, restarting, cut off), a query
fails with an error that `unavailable_reason` names; the pools make new
connections for the next queries, so that service resumes by itself once
the server is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any

import asyncpg

from engine.record import format_timestamp
from server.storage.drivers import CommitOutcomeUnknown, Parameters, StorageError, migration_files
from server.storage.rows import Row

logger = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 5.0
"""How long opening a connection may take before the database counts as unreachable."""
COMMAND_TIMEOUT_S = 10.0
"""How long one statement may take before the database counts as unavailable."""
READ_CONNECTIONS = 4
"""The most connections reading at once."""
COMMIT_OUTCOME_WAIT_S = 60.0
"""How long a commit whose answer was lost is asked after (the server restarting, cut off) before
the writer gives up knowing; a node cut off that long has lost its lease, and its rooms with it."""
COMMIT_OUTCOME_POLL_S = 0.2
"""The pause between two asks about a commit whose answer was lost."""
MIGRATION_LOCK = 0x676F6D6F6B75
"""The advisory lock a node holds while it migrates ('gomoku' in hex)."""

_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|::|\?|:([A-Za-z_][A-Za-z0-9_]*)")
"""A quoted string (left alone), a cast (left alone), a `?` or a `:name` placeholder."""

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

    Connection = PoolConnectionProxy[asyncpg.Record]
    """A connection lent by a pool."""

_BROKEN = (asyncpg.InternalClientError, asyncpg.InterfaceError)
"""Errors of asyncpg's own about a connection left in a state it cannot go on from (an operation
interrupted when the server went away: "cannot switch to state 12; another operation is in
progress"): the connection is closed, never lent again."""
_TRANSIENT = (asyncpg.SerializationError, asyncpg.DeadlockDetectedError, asyncpg.LockNotAvailableError)
"""Errors that say another transaction was in the way: trying again may work."""


@functools.lru_cache(maxsize=4096)
def numbered(sql: str) -> tuple[str, tuple[int | str, ...]]:
    """The statement with `?` and `:name` placeholders as `$1, $2, ...`, and what each number stands
    for: a position in the parameters, or a name (a name used twice keeps its number)."""
    keys: list[int | str] = []

    def number(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "?":
            keys.append(len(keys))
            return f"${len(keys)}"
        name = match.group(1)
        if name is None:
            return token
        if name not in keys:
            keys.append(name)
        return f"${keys.index(name) + 1}"

    translated = _PLACEHOLDER.sub(number, sql)
    if len({type(key) for key in keys}) > 1:
        raise ValueError(f"a statement mixes `?` and `:name` placeholders: {sql}")
    return translated, tuple(keys)


def _arguments(keys: tuple[int | str, ...], parameters: Parameters) -> list[Any]:
    if isinstance(parameters, dict):
        return [parameters[key] for key in keys if isinstance(key, str)]
    if len(parameters) != len(keys):
        raise ValueError(f"the statement takes {len(keys)} parameters, {len(parameters)} were given")
    return list(parameters)


class _Queries:
    """Queries on one asyncpg connection."""

    def __init__(self, connection: Connection) -> None:
        self._db = connection

    async def rows(self, sql: str, parameters: Parameters = ()) -> list[Row]:
        translated, keys = numbered(sql)
        return list(await self._db.fetch(translated, *_arguments(keys, parameters)))

    async def row(self, sql: str, parameters: Parameters = ()) -> Row | None:
        translated, keys = numbered(sql)
        row: Row | None = await self._db.fetchrow(translated, *_arguments(keys, parameters))
        return row

    async def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        translated, keys = numbered(sql)
        await self._db.executemany(translated, [_arguments(keys, row) for row in rows])


class PostgresDriver:
    """A PostgreSQL database, read through a pool and written through one connection."""

    for_update = " FOR UPDATE"

    def __init__(self, writes: asyncpg.Pool, reads: asyncpg.Pool) -> None:
        self._writes = writes
        """One connection: one write transaction at a time, as the record writer's group commit wants."""
        self._reads = reads

    @classmethod
    async def open(cls, url: str, migrations: Traversable) -> PostgresDriver:
        """Connect to the database at `url` and bring its schema up to date.

        Raises StorageError with one sentence naming the database and what is wrong.
        """
        pools: list[asyncpg.Pool] = []
        try:
            writes = await _pool(url, 1, pools)
            async with writes.acquire() as connection:
                await _migrate(connection, migrations)
            reads = await _pool(url, READ_CONNECTIONS, pools)
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            for pool in pools:
                await pool.close()
            raise StorageError(f"cannot use the database {_without_password(url)}: {error}") from error
        except BaseException:
            for pool in pools:
                pool.terminate()
            raise
        return cls(writes, reads)

    async def close(self) -> None:
        await self._reads.close()
        await self._writes.close()

    @contextlib.asynccontextmanager
    async def snapshot(self) -> AsyncIterator[_Queries]:
        """A read-only transaction at REPEATABLE READ: every query inside sees one committed state."""
        async with self._reads.acquire() as connection:
            async with connection.transaction(isolation="repeatable_read", readonly=True):
                yield _Queries(connection)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[_Queries]:
        """The writing connection in one transaction (READ COMMITTED; rows it must not see change
        are read with `for_update`).

        A commit whose answer never came (the connection lost once `COMMIT`
        was sent, the server stopping) may have landed or not: its outcome
        is read back by the transaction's id (`txid_status`) before this
        returns, as committed, or raises, as written nothing (`_settle`). An
        error releasing the connection after the server confirmed the commit
        changes nothing of it.
        """
        committed = False
        try:
            async with self._writes.acquire() as connection:
                transaction = connection.transaction()
                await transaction.start()
                try:
                    transaction_id = await connection.fetchval("SELECT txid_current()")
                    yield _Queries(connection)
                except BaseException as error:
                    if isinstance(error, _BROKEN):
                        connection.terminate()  # the pool opens a new one for the next transaction
                    with contextlib.suppress(Exception):
                        await transaction.rollback()
                    raise
                try:
                    await transaction.commit()
                except Exception as error:  # the server's refusal or a lost answer: asked alike
                    await self._settle(transaction_id, error)
                committed = True
        except Exception as error:
            if not committed:
                raise
            logger.warning("the writer's connection failed after its commit landed: %s", error)

    async def _settle(self, transaction_id: int, lost: Exception) -> None:
        """Learn whether the transaction committed, its answer having been `lost`: return if it did,
        raise `lost` if it did not. Asks the server, through the read pool, until it answers (it
        may be restarting) or COMMIT_OUTCOME_WAIT_S have passed; then raises CommitOutcomeUnknown."""
        loop = asyncio.get_running_loop()
        give_up_at = loop.time() + COMMIT_OUTCOME_WAIT_S
        while True:
            try:
                async with self._reads.acquire() as connection:
                    status = await connection.fetchval("SELECT txid_status($1)", transaction_id)
            except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                status = None
            if status == "committed":
                logger.warning("a commit whose answer was lost (%s) had landed: read back", lost)
                return
            if status == "aborted":
                raise lost
            if loop.time() > give_up_at:
                raise CommitOutcomeUnknown(
                    f"the database did not say within {COMMIT_OUTCOME_WAIT_S:.0f} s whether a commit landed ({lost})"
                ) from lost
            await asyncio.sleep(COMMIT_OUTCOME_POLL_S)

    def is_transient(self, error: BaseException) -> bool:
        return isinstance(error, _TRANSIENT)

    def unavailable_reason(self, error: BaseException) -> str | None:
        if isinstance(error, CommitOutcomeUnknown):
            return str(error)
        if isinstance(error, asyncpg.InsufficientResourcesError):
            return f"the database server is out of resources ({error})"
        if isinstance(error, asyncpg.OperatorInterventionError | asyncpg.CannotConnectNowError):
            return "the database server is shutting down or starting"
        if isinstance(error, OSError | asyncio.TimeoutError | asyncpg.InterfaceError):
            return "the database server cannot be reached"
        if isinstance(error, asyncpg.InternalClientError):
            return f"the connection to the database server broke ({error})"
        if isinstance(error, asyncpg.PostgresConnectionError | asyncpg.ConnectionDoesNotExistError):
            return "the connection to the database server was lost"
        return None


async def _pool(url: str, size: int, opened: list[asyncpg.Pool]) -> asyncpg.Pool:
    pool = await asyncpg.create_pool(
        url, min_size=1, max_size=size, timeout=CONNECT_TIMEOUT_S, command_timeout=COMMAND_TIMEOUT_S
    )
    opened.append(pool)
    return pool


def _without_password(url: str) -> str:
    return re.sub(r"://([^:/@]*):[^@]*@", r"://\1:***@", url)


async def _migrate(connection: Connection, directory: Traversable) -> None:
    """Apply the migrations this database lacks, in one transaction, one node at a time: on a new
    database, PostgreSQL's baseline (`directory/postgresql/NNNN_baseline.sql`, standing for every
    shared migration up to NNNN) first, then the shared migrations after it."""
    shared = migration_files(directory)
    baselines = directory / "postgresql"
    baseline = migration_files(baselines) if baselines.is_dir() else []
    if len(baseline) > 1:
        raise StorageError(f"more than one baseline in {baselines}")
    async with connection.transaction():
        await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
            "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        applied = {row["version"] for row in await connection.fetch("SELECT version FROM schema_migrations")}
        stamp = format_timestamp(datetime.now(UTC))
        record = "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)"
        if not applied and baseline:
            base_version, _, base_path = baseline[0]
            await connection.execute(base_path.read_text(encoding="utf-8"))
            covered = [(version, name) for version, name, _ in shared if version <= base_version]
            await connection.executemany(record, [(version, name, stamp) for version, name in covered])
            applied = {version for version, _ in covered}
        for version, name, path in shared:
            if version not in applied:
                await connection.execute(path.read_text(encoding="utf-8"))
                await connection.execute(record, version, name, stamp)
