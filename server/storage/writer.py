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
rows as they now stand, locked until the transaction ends (SQLite: this
transaction holds the database's write lock; PostgreSQL: it reads them FOR
UPDATE), so that no other writer, in this process or another node, can
change them meanwhile, works out the change
(`server.players.ratings.rating_change`) and writes it after the result. Rated
games of one player finishing in one group are so rated one after the
other. `write` returns the changes, once committed, to the room that
finished the game. A player's try at a puzzle is rated the same way
(`server.storage.review.rate_try`): the player's and the puzzle's rows
read and locked in the try's transaction, so that tries on several nodes
at once lose no change; `commit` returns the try as stored, with its
rating change if it was the player's first.

A database locked by another process, or busy (on PostgreSQL: a deadlock
or a serialization failure), is retried with growing pauses for `retry_s`;
then the writer gives up with `StorageUnavailable`, as it does at once for
a full disk, an I/O error, a read-only file or an unreachable server (the
driver says which errors are which).
Nothing of a change that failed is written. A change that fails for any
other reason (a bug, or a condition read in its transaction that no longer
holds: an account deleted while a game of its player was stored, which
raises its Refusal) fails alone: the group is written again one change
per transaction.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from engine.record import PlayerKind
from server.domain import AccountDeleted, GameFinished, MovePlayed, PuzzleTried, RatingsChanged, Standing, StoreRecord
from server.metrics import Metrics
from server.players.ratings import newcomer, rating_change
from server.storage.accounts import refuse_deleting_a_player_at_play
from server.storage.drivers import Driver, Queries
from server.storage.review import rate_try
from server.storage.rows import STANDING_COLUMNS, standing_from
from server.storage.statements import statements

GROUP_LIMIT = 512
"""The most changes written in one transaction."""
FIRST_RETRY_S = 0.01
"""The pause before the first retry of a locked database; it doubles up to LONGEST_RETRY_S."""
LONGEST_RETRY_S = 0.5


class StorageUnavailable(Exception):
    """The database cannot take a change now (locked, full, failing, read-only, closed, unreachable);
    nothing of it was written. Trying again later may succeed."""


class Fenced(StorageUnavailable):
    """A group of changes refused whole by its fence: this node no longer holds its lease, or a room
    it writes to is another node's now (see `server.cluster.ownership`). Nothing of it was written."""


Rated = RatingsChanged | PuzzleTried
"""What a change's transaction worked out: the rating change of each rated game it finished, and
each puzzle try as stored (rated or not)."""

Fence = Callable[[Queries, list[StoreRecord]], Awaitable[None]]
"""A check run first in each group's transaction, given the group's records; it raises Fenced to
refuse the group."""


@dataclass(slots=True)
class _Change:
    """One caller's records, and the future its caller awaits."""

    records: list[StoreRecord]
    done: asyncio.Future[tuple[Rated, ...]] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class RecordWriter:
    """A queue of changes and the task that commits them in groups on one connection."""

    def __init__(self, driver: Driver, retry_s: float, metrics: Metrics | None = None) -> None:
        """Write in `driver`'s transactions; give up on a locked database after `retry_s`; report to `metrics`."""
        self._driver = driver
        self._metrics = metrics
        self.rating_watchers: list[Callable[[RatingsChanged], None]] = []
        """Told of each rating change once it is committed, before its writer hears (the rating
        book, which keeps the standings of the players online)."""
        self._retry_s = retry_s
        self.fence: Fence | None = None
        """Checked first in every transaction (several nodes on one database: `server.cluster`)."""
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
        return tuple(rated for rated in await self.commit(records) if isinstance(rated, RatingsChanged))

    async def commit(self, records: list[StoreRecord]) -> tuple[Rated, ...]:
        """`write`, returning also each puzzle try as stored (rated in the transaction, or not)."""
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
                if self._driver.is_transient(error) and loop.time() + pause < give_up_at:
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, LONGEST_RETRY_S)
                    continue
                if isinstance(error, StorageUnavailable):
                    _settle(group, error)
                    return
                reason = self._driver.unavailable_reason(error)
                if reason is None and self._driver.is_transient(error):
                    reason = f"the database stayed busy ({error})"
                if reason is not None:
                    _settle(group, StorageUnavailable(reason))
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
                    if isinstance(rating, RatingsChanged):
                        for watcher in self.rating_watchers:
                            watcher(rating)
                if not change.done.done():
                    change.done.set_result(changed)
            return

    async def _transaction(self, group: list[_Change]) -> list[tuple[Rated, ...]]:
        """Write the group's records in one transaction; the rating changes and puzzle tries of each
        change.

        Records go in runs that `statements` batches across changes (one
        `executemany` for many rooms' moves); a rated finish or a puzzle try
        ends a run, so that the rows it rates from are read with everything
        before it written.
        """
        async with self._driver.transaction() as transaction:
            if self.fence is not None:
                await self.fence(transaction, [record for change in group for record in change.records])
            rated = []
            unwritten: list[StoreRecord] = []
            for change in group:
                changed: list[Rated] = []
                for record in change.records:
                    if isinstance(record, PuzzleTried | AccountDeleted):
                        await _execute(transaction, unwritten)
                        unwritten = []
                        record = await self._as_stored_now(transaction, record)
                        if isinstance(record, PuzzleTried):
                            changed.append(record)
                    unwritten.append(record)
                    if isinstance(record, GameFinished) and record.rated:
                        await _execute(transaction, unwritten)
                        rating = await self._rate(transaction, record)
                        unwritten = [rating]
                        changed.append(rating)
                rated.append(tuple(changed))
            await _execute(transaction, unwritten)
        return rated

    async def _as_stored_now(
        self, transaction: Queries, record: PuzzleTried | AccountDeleted
    ) -> PuzzleTried | AccountDeleted:
        """A record whose rows depend on what is stored now (read in the transaction, everything
        before it written, rows locked): a try with its rating change if it is the player's first;
        an account's deletion, or Refusal `not_allowed` while its name holds a seat in a game."""
        if isinstance(record, PuzzleTried):
            return await rate_try(transaction, record, self._driver.for_update)
        await refuse_deleting_a_player_at_play(transaction, record, self._driver.for_update)
        return record

    async def _rate(self, transaction: Queries, finish: GameFinished) -> RatingsChanged:
        """The rating change of a rated game just finished, from its players' rows as stored now
        (in the transaction, after every record before it), locked until it commits."""
        seats = await transaction.row(
            "SELECT black_name, black_kind, white_name, white_kind FROM games WHERE game_id = ?", (finish.game_id,)
        )
        if seats is None:  # a bug: not ValueError, which aiosqlite raises for a closed connection
            raise LookupError(f"game {finish.game_id} is not stored: its result cannot be rated")
        black = await self._standing(transaction, seats["black_name"], seats["black_kind"])
        white = await self._standing(transaction, seats["white_name"], seats["white_kind"])
        return rating_change(finish, black, white)

    async def _standing(self, transaction: Queries, name: str, kind: PlayerKind) -> Standing:
        """A seated player's standing as stored now, its row locked; a newcomer's for a name with no
        row (every player signs in, and every bot is enrolled, before it can take a seat)."""
        row = await transaction.row(
            f"SELECT {STANDING_COLUMNS} FROM players WHERE name = ? COLLATE NOCASE{self._driver.for_update}", (name,)
        )
        return newcomer(name, kind) if row is None else standing_from(row)


async def _execute(transaction: Queries, records: list[StoreRecord]) -> None:
    for sql, rows in statements(records):
        await transaction.executemany(sql, rows)


def _settle(group: list[_Change], error: BaseException) -> None:
    for change in group:
        if not change.done.done():
            change.done.set_exception(error)
