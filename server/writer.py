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
import json
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from engine.record import format_timestamp
from server.domain import ClocksSaved, GameFinished, GameStarted, MovePlayed, MovesTakenBack, PlayerAdded, StoreRecord

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

    def __init__(self, connection: aiosqlite.Connection, write_lock: asyncio.Lock, retry_s: float) -> None:
        """Write through `connection`, holding `write_lock` (shared with the storage's other writes)
        for each transaction; give up on a locked database after `retry_s`."""
        self._db = connection
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
            try:
                await self._transaction([record for change in group for record in change.records])
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
            _settle(group, None)
            return

    async def _transaction(self, records: list[StoreRecord]) -> None:
        async with self._lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                for sql, rows in _statements(records):
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


# ------------------------------------------------------------------ SQL

_INSERT_GAME = (
    "INSERT INTO games (game_id, room_id, rule, size, black_name, black_kind, black_level, "
    "white_name, white_kind, white_level, clock_initial_ms, clock_increment_ms, black_ms, white_ms, "
    "private, started_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_MOVE = "INSERT INTO moves (game_id, ply, x, y, color, time_ms) VALUES (?, ?, ?, ?, ?, ?)"
_DELETE_MOVES = "DELETE FROM moves WHERE game_id = ? AND ply > ?"
_INSERT_RESULT = "INSERT INTO results (game_id, winner, reason, line, ended_at) VALUES (?, ?, ?, ?, ?)"
_UPDATE_CLOCK = "UPDATE games SET black_ms = ?, white_ms = ? WHERE game_id = ?"
_INSERT_PLAYER = "INSERT INTO players (name, token_hash, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"


def _statements(records: list[StoreRecord]) -> Iterator[tuple[str, list[tuple[Any, ...]]]]:
    """The SQL of the records as (statement, rows) runs, ready for `executemany`.

    Rows are written in the records' order, consecutive rows of one
    statement in one run; the clocks last, in order too (they only set each
    game's latest times, which the rows do not read), so that a group of
    moves from many rooms is two statements in all.
    """
    yield from _runs(row for record in records if (row := _row(record)) is not None)
    yield from _runs(clock for record in records if (clock := _clock(record)) is not None)


def _runs(statements: Iterable[tuple[str, tuple[Any, ...]]]) -> list[tuple[str, list[tuple[Any, ...]]]]:
    runs: list[tuple[str, list[tuple[Any, ...]]]] = []
    for sql, row in statements:
        if runs and runs[-1][0] == sql:
            runs[-1][1].append(row)
        else:
            runs.append((sql, [row]))
    return runs


def _row(record: StoreRecord) -> tuple[str, tuple[Any, ...]] | None:
    """The row statement of a record; None for one that only sets clocks."""
    if isinstance(record, ClocksSaved):
        return None
    if isinstance(record, GameStarted):
        clock = record.clock
        initial = None if clock is None else clock.initial_ms
        return _INSERT_GAME, (
            record.game_id,
            record.room_id,
            record.rule.value,
            record.size,
            record.black.name,
            record.black.kind,
            record.black.level,
            record.white.name,
            record.white.kind,
            record.white.level,
            initial,
            None if clock is None else clock.increment_ms,
            initial,
            initial,
            int(record.private),
            format_timestamp(record.started_at),
            record.created_by,
        )
    if isinstance(record, MovePlayed):
        point = record.point
        return _INSERT_MOVE, (record.game_id, record.ply, point.x, point.y, str(record.color), record.time_ms)
    if isinstance(record, MovesTakenBack):
        return _DELETE_MOVES, (record.game_id, record.keep)
    if isinstance(record, PlayerAdded):
        return _INSERT_PLAYER, (record.name, record.token_hash, format_timestamp(record.created_at))
    result = record.result
    line = None if result.line is None else json.dumps([[point.x, point.y] for point in result.line])
    winner = None if result.winner is None else str(result.winner)
    return _INSERT_RESULT, (record.game_id, winner, result.reason.value, line, format_timestamp(record.ended_at))


def _clock(record: StoreRecord) -> tuple[str, tuple[Any, ...]] | None:
    """The game's clocks after the record, for a timed game's move, undo or end; None otherwise."""
    if not isinstance(record, MovePlayed | MovesTakenBack | GameFinished | ClocksSaved) or record.clock_ms is None:
        return None
    black_ms, white_ms = record.clock_ms
    return _UPDATE_CLOCK, (black_ms, white_ms, record.game_id)
