"""How the rooms' records reach the disk: many rooms' changes in one transaction, retried when locked.

Every room stores its change before anyone hears of it, and a commit with
full sync costs an fsync: one transaction per move would make every move
wait for every other move's fsync. `RecordWriter` queues the changes of all
rooms and writes whatever has gathered in one transaction (group commit):
each `write` still returns only once its records are committed, so "stored
before sent" holds for each room, and under load a single fsync covers many
moves.

A database locked by another process, or busy, is retried with growing
pauses for `retry_s`; then the writer gives up with `StorageUnavailable`,
as it does at once for a full disk, an I/O error or a read-only file.
Nothing of a change that failed is written. A change that fails for any
other reason (a bug) fails alone: the group is written again one change
per transaction.
"""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass, field

import aiosqlite

from server.domain import MovePlayed, StoreRecord
from server.metrics import Metrics
from server.statements import statements

GROUP_LIMIT = 512
"""The most changes written in one transaction."""
FIRST_RETRY_S = 0.01
"""The pause before the first retry of a locked database; it doubles up to LONGEST_RETRY_S."""
LONGEST_RETRY_S = 0.5

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


class StorageUnavailable(Exception):
    """The database cannot take a change now (locked, full, failing, read-only, closed); nothing of it
    was written. Trying again later may succeed."""


def is_transient(error: BaseException) -> bool:
    """Whether the error says another connection holds the database, so that trying again may work."""
    return isinstance(error, sqlite3.Error) and str(getattr(error, "sqlite_errorname", "")).startswith(_TRANSIENT)


def unavailable_reason(error: BaseException) -> str | None:
    """What is wrong with the database or the disk, if that is what the error says; None for other errors."""
    name = str(getattr(error, "sqlite_errorname", ""))
    for prefix, reason in _UNAVAILABLE.items():
        if name.startswith(prefix):
            return reason
    return None


@dataclass(slots=True)
class _Change:
    """One caller's records, and the future its caller awaits."""

    records: list[StoreRecord]
    done: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class RecordWriter:
    """A queue of changes and the task that commits them in groups on one connection."""

    def __init__(
        self, connection: aiosqlite.Connection, write_lock: asyncio.Lock, retry_s: float, metrics: Metrics | None = None
    ) -> None:
        """Write through `connection`, holding `write_lock` (shared with the storage's other writes)
        for each transaction; give up on a locked database after `retry_s`; report to `metrics`."""
        self._db = connection
        self._metrics = metrics
        self._lock = write_lock
        self._retry_s = retry_s
        self._queue: list[_Change] = []
        self._wake = asyncio.Event()
        self._closed = False
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def write(self, records: list[StoreRecord]) -> None:
        """Commit the records, all or none, in one transaction, possibly shared with other changes.

        Raises StorageUnavailable when the database cannot take them, or the
        error a bad record caused.
        """
        if not records:
            return
        if self._closed:
            raise StorageUnavailable("the database is closed")
        change = _Change(records)
        self._queue.append(change)
        self._wake.set()
        await change.done

    async def close(self) -> None:
        """Write what is queued, then stop; later writes are refused."""
        self._closed = True
        self._wake.set()
        await self._task

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                group, self._queue = self._queue[:GROUP_LIMIT], self._queue[GROUP_LIMIT:]
                await self._commit(group)
            if self._closed:
                return

    async def _commit(self, group: list[_Change]) -> None:
        """Write the group in one transaction, retrying a locked database; settle every change's future.

        A change whose caller stopped waiting (cancelled, which happens only
        when the server shuts down) is not written.
        """
        group = [change for change in group if not change.done.done()]
        if not group:
            return
        loop = asyncio.get_running_loop()
        give_up_at = loop.time() + self._retry_s
        pause = FIRST_RETRY_S
        while True:
            records = [record for change in group for record in change.records]
            started = loop.time()
            try:
                await self._transaction(records)
            except Exception as error:
                if is_transient(error) and loop.time() + pause < give_up_at:
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, LONGEST_RETRY_S)
                    continue
                reason = unavailable_reason(error)
                if reason is not None or isinstance(error, ValueError):  # aiosqlite: a closed connection
                    _settle(group, StorageUnavailable(reason or str(error)))
                elif len(group) > 1:
                    for change in group:
                        await self._commit([change])
                else:
                    _settle(group, error)
                return
            if self._metrics is not None:
                self._metrics.db_write.observe(loop.time() - started)
                self._metrics.db_write_changes.observe(len(group))
                self._metrics.moves.inc(sum(isinstance(record, MovePlayed) for record in records))
            _settle(group, None)
            return

    async def _transaction(self, records: list[StoreRecord]) -> None:
        async with self._lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                for sql, rows in statements(records):
                    await self._db.executemany(sql, rows)
                await self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    await self._db.execute("ROLLBACK")
                raise


def _settle(group: list[_Change], error: BaseException | None) -> None:
    for change in group:
        if change.done.done():
            continue
        if error is None:
            change.done.set_result(None)
        else:
            change.done.set_exception(error)
