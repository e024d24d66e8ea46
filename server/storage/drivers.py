"""What `Storage` and its record writer ask of a database, so that one Storage runs on SQLite and PostgreSQL.

A driver (`server.storage.sqlite`, `server.storage.postgres`) opens the
database and brings its schema up to date, gives read snapshots and write
transactions whose queries all take SQL with `?` (or `:name`) placeholders
and return rows read by column name, and says which of its errors mean
"the database cannot take this now" (`unavailable_reason`) or "try again"
(`is_transient`). The few things the two databases spell differently are
the driver's attributes (`for_update`), in one place.
"""

from __future__ import annotations

import re
from contextlib import AbstractAsyncContextManager
from importlib.resources.abc import Traversable
from typing import Any, Protocol

from server.storage.rows import Row

Parameters = tuple[Any, ...] | dict[str, Any]
"""A query's parameters: by position for `?`, by name for `:name`."""

MIGRATION_NAME = re.compile(r"(\d{4})_[a-z0-9_]+\.sql")


class StorageError(Exception):
    """The database cannot be used at all: it cannot be opened or created, or its migrations are wrong."""


class CommitOutcomeUnknown(Exception):
    """A commit was sent, its answer was lost, and the database could not be asked whether it landed:
    what the transaction wrote may be stored or not."""


class Reads(Protocol):
    """The queries of one read snapshot (`Storage._snapshot`): what a feature's read functions
    (`accounts.py`, `moderation.py`, `tournaments.py`) take."""

    async def rows(self, sql: str, parameters: Parameters = ()) -> list[Row]: ...

    async def row(self, sql: str, parameters: Parameters = ()) -> Row | None: ...


class Queries(Protocol):
    """Queries on one connection, inside a read snapshot or a write transaction."""

    async def rows(self, sql: str, parameters: Parameters = ()) -> list[Row]: ...

    async def row(self, sql: str, parameters: Parameters = ()) -> Row | None: ...

    async def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None: ...


class Driver(Protocol):
    """One database, as `Storage` and `RecordWriter` use it."""

    for_update: str
    """What ends a SELECT that locks the rows it reads until the transaction ends: ' FOR UPDATE' where
    rows have locks, '' on SQLite, where a write transaction holds the whole database already."""

    def snapshot(self) -> AbstractAsyncContextManager[Queries]:
        """Queries in one read transaction: all see the same committed state, the latest one."""
        ...

    def transaction(self) -> AbstractAsyncContextManager[Queries]:
        """Queries in one write transaction, committed when the block ends, rolled back if it raises;
        one write transaction at a time per driver. When it returns, the transaction is stored;
        when it raises, nothing of it is, or (CommitOutcomeUnknown only) that could not be learned."""
        ...

    def is_transient(self, error: BaseException) -> bool:
        """Whether the error says another transaction was in the way, so that trying again may work."""
        ...

    def unavailable_reason(self, error: BaseException) -> str | None:
        """What is wrong with the database, its server or its disk, if that is what the error says;
        None for an error of the change itself."""
        ...

    async def close(self) -> None: ...


def migration_files(directory: Traversable) -> list[tuple[int, str, Traversable]]:
    """The migration files in `directory` as (version, name, file), in order; names must be NNNN_words.sql.

    `directory` is a folder or a package's resources (the installed `server.migrations`); without
    any, no schema could be made, so that is refused at once rather than failing at the first query."""
    if not directory.is_dir():
        raise StorageError(f"the schema's migrations are missing: {directory} is not a folder (reinstall the server)")
    found = []
    for file in directory.iterdir():
        if not file.name.endswith(".sql"):
            continue
        match = MIGRATION_NAME.fullmatch(file.name)
        if match is None:
            raise StorageError(f"migration file {file.name!r} is not named NNNN_words.sql")
        found.append((int(match.group(1)), file.name, file))
    if not found:
        raise StorageError(f"the schema's migrations are missing: no NNNN_words.sql in {directory}")
    found.sort(key=lambda entry: entry[0])
    versions = [version for version, _, _ in found]
    if len(set(versions)) != len(versions):
        raise StorageError(f"two migration files share a number in {directory}")
    return found
