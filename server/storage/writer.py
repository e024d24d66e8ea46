"""How the rooms' records reach the disk: many rooms' changes in one transaction, retried when locked.

Every room stores its change before anyone hears of it, and a commit with
full sync costs an fsync: one transaction per move would make every move
wait for every other move's fsync. `RecordWriter` queues the changes of all
rooms and writes whatever has gathered in one transaction (group commit):
each `write` still returns only once its records are committed, so "stored
before sent" holds for each room, and under load a single fsync covers many
moves.

A rated game's result is rated in its transaction: when the records finish
a rated game, the writer writes what came before, reads both players'
rows as they now stand (this transaction holds SQLite's write lock, so no
other writer, in this process or another, can change them meanwhile; a
database with row locks would read them FOR UPDATE), works out the change
(`server.players.ratings.rating_change`) and writes it after the result. Rated
games of one player finishing in one group are so rated one after the
other. `write` returns the changes, once committed, to the room that
finished the game.

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
from collections.abc import Callable
from dataclasses import dataclass, field

import aiosqlite

from engine.record import PlayerKind
from server.domain import GameFinished, MovePlayed, RatingsChanged, Standing, StoreRecord
from server.metrics import Metrics
from server.players.ratings import newcomer, rating_change
from server.storage.rows import STANDING_COLUMNS, standing_from
from server.storage.statements import statements

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
    done: asyncio.Future[tuple[RatingsChanged, ...]] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class RecordWriter:
    """A queue of changes and the task that commits them in groups on one connection."""

    def __init__(
        self, connection: aiosqlite.Connection, write_lock: asyncio.Lock, retry_s: float, metrics: Metrics | None = None
    ) -> None:
        """Write through `connection`, holding `write_lock` (shared with the storage's other writes)
        for each transaction; give up on a locked database after `retry_s`; report to `metrics`."""
        self._db = connection
        self._metrics = metrics
        self.rating_watchers: list[Callable[[RatingsChanged], None]] = []
        """Told of each rating change once it is committed, before its writer hears (the rating
        book, which keeps the standings of the players online)."""
        self._lock = write_lock
        self._retry_s = retry_s
        self._queue: list[_Change] = []
        self._wake = asyncio.Event()
        self._closed = False
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def write(self, records: list[StoreRecord]) -> tuple[RatingsChanged, ...]:
        """Commit the records, all or none, in one transaction, possibly shared with other changes,
        with the rating change of each rated game they finish; return those changes.

        Raises StorageUnavailable when the database cannot take them, or the
        error a bad record caused.
        """
        if not records:
            return ()
        if self._closed:
            raise StorageUnavailable("the database is closed")
        change = _Change(records)
        self._queue.append(change)
        self._wake.set()
        return await change.done

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
            started = loop.time()
            try:
                rated = await self._transaction(group)
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
                moves = sum(isinstance(record, MovePlayed) for change in group for record in change.records)
                self._metrics.moves.inc(moves)
            for change, changed in zip(group, rated, strict=True):
                for rating in changed:
                    for watcher in self.rating_watchers:
                        watcher(rating)
                if not change.done.done():
                    change.done.set_result(changed)
            return

    async def _transaction(self, group: list[_Change]) -> list[tuple[RatingsChanged, ...]]:
        """Write the group's records in one transaction; the rating changes of each change.

        Records go in runs that `statements` batches across changes (one
        `executemany` for many rooms' moves); a rated finish ends a run, so
        that its players' rows are read with everything before it written.
        """
        async with self._lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                rated = []
                unwritten: list[StoreRecord] = []
                for change in group:
                    changed = []
                    for record in change.records:
                        unwritten.append(record)
                        if isinstance(record, GameFinished) and record.rated:
                            await self._execute(unwritten)
                            rating = await self._rate(record)
                            unwritten = [rating]
                            changed.append(rating)
                    rated.append(tuple(changed))
                await self._execute(unwritten)
                await self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    await self._db.execute("ROLLBACK")
                raise
        return rated

    async def _execute(self, records: list[StoreRecord]) -> None:
        for sql, rows in statements(records):
            await self._db.executemany(sql, rows)

    async def _rate(self, finish: GameFinished) -> RatingsChanged:
        """The rating change of a rated game just finished, from its players' rows as stored now
        (in the transaction, after every record before it)."""
        async with self._db.execute(
            "SELECT black_name, black_kind, white_name, white_kind FROM games WHERE game_id = ?", (finish.game_id,)
        ) as cursor:
            seats = await cursor.fetchone()
        if seats is None:  # a bug: not ValueError, which `_commit` reads as a closed connection
            raise LookupError(f"game {finish.game_id} is not stored: its result cannot be rated")
        black = await self._standing(seats["black_name"], seats["black_kind"])
        white = await self._standing(seats["white_name"], seats["white_kind"])
        return rating_change(finish, black, white)

    async def _standing(self, name: str, kind: PlayerKind) -> Standing:
        """A seated player's standing as stored now; a newcomer's for a name with no row (every
        player signs in, and every bot is enrolled, before it can take a seat)."""
        async with self._db.execute(
            f"SELECT {STANDING_COLUMNS} FROM players WHERE name = ? COLLATE NOCASE", (name,)
        ) as cursor:
            row = await cursor.fetchone()
        return newcomer(name, kind) if row is None else standing_from(row)


def _settle(group: list[_Change], error: BaseException) -> None:
    for change in group:
        if not change.done.done():
            change.done.set_exception(error)
