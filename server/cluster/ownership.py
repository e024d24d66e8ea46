"""Which node owns which room, the fence on every group commit, and taking over the rooms of dead nodes.

Each room is owned by one node (`room_owners`: the node, the epoch of its
lease, and the room's own fencing epoch, raised at each claim). A node owns
the rooms it creates (their owner row is written with their first game) and
those it claims: at start, the rooms of unfinished games that have no owner
and those whose owner's lease is gone; then, every heartbeat, those of nodes
whose lease has expired since (`FOR UPDATE SKIP LOCKED`, so that nodes
claiming at once split them). Claimed rooms come back as after a restart
(`RoomKeeper.restore`: clocks charged as after a restart, bot turns resume).

Every group commit of the node first passes `fence`, in its transaction:
the node's lease must be unexpired and the epoch it holds, and each room it
writes must still be owned by it at the epoch it claimed (rows read FOR
SHARE, so that no claim slips in before the commit). Otherwise the whole
group is refused (`Fenced`) and nothing of it lands; the rooms found lost
are dropped (`RoomKeeper.drop`). A node whose lease expired (paused past
it, cut off from the database) drops every room and joins again as a new
epoch that owns nothing.

Only PostgreSQL runs several nodes; on SQLite none of this runs.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Protocol

import asyncpg

from server.chores import pause
from server.cluster.lease_settings import LeaseSettings
from server.cluster.leases import DATABASE_UNREACHABLE, NOW_MS, NodeLease
from server.domain import GameStarted, Refusal, RoomId, StoreRecord
from server.storage.drivers import Queries, StorageError
from server.storage.writer import Fenced, StorageUnavailable

logger = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 5.0

_LIVE = f"n.node_id = o.node_id AND n.epoch = o.node_epoch AND n.lease_expires_ms > {NOW_MS}"
"""SQL: the owner `o` of a room is a node `n` holding the lease the room names, unexpired."""


async def _connect(url: str, settings: LeaseSettings) -> asyncpg.Connection:
    """The ownership's connection. Each of its statements times out after the lease's expiry (an
    answer later than that is of no use): one the database does not answer (waiting on a lock)
    would otherwise hold the heartbeat, and the node would keep serving rooms past its lease."""
    return await asyncpg.connect(url, timeout=CONNECT_TIMEOUT_S, command_timeout=settings.expiry_s)


class RoomKeeper(Protocol):
    """What the node does with rooms it gains or loses (the server's registry of rooms)."""

    async def restore(self, rooms: set[RoomId]) -> None:
        """Bring these rooms back from their stored games, as after a restart."""
        ...

    async def drop(self, rooms: set[RoomId]) -> None:
        """Stop serving these rooms at once (another node owns them now)."""
        ...


class Ownership:
    """This node's lease and rooms."""

    def __init__(
        self, url: str, connection: asyncpg.Connection, node_id: str, settings: LeaseSettings, keeper: RoomKeeper
    ) -> None:
        self._url = url
        self.node_id = node_id
        self._db = connection
        """A connection of the ownership's own: lease renewals and claims never wait behind the writer."""
        self._lease = NodeLease(connection, node_id, settings)
        self._keeper = keeper
        self.settings = settings
        self.owned: dict[RoomId, int] = {}
        """The rooms this node owns, and the room epoch it claimed each at."""
        self._talking = asyncio.Lock()
        """One statement or transaction at a time on the ownership's connection (the watch and `find`)."""
        self._claiming = asyncio.Lock()
        """Held from a claim until its rooms are restored: a room owned here is served here once
        `owner` can say so (a request never finds it owned but not yet held)."""
        self._renewed_at = 0.0
        """When the lease last taken or renewed was asked for (the loop's clock): it lasts at most
        the expiry from then, as the database counts from a moment after."""
        self._watch: asyncio.Task[None] | None = None
        self._dropping: set[asyncio.Task[None]] = set()
        self._unrestored: set[RoomId] = set()
        """Rooms claimed and not restored yet (being restored, or the database went away in
        between: the next heartbeat tries them again)."""
        self._restoring: asyncio.Task[None] | None = None

    @classmethod
    async def join(cls, url: str, node_id: str, settings: LeaseSettings, keeper: RoomKeeper) -> Ownership:
        """Take a new lease as `node_id` in the database at `url` (owning nothing yet). Then have the
        storage fence its writes with `fence`, and `begin`. Raises StorageError if the database
        cannot be reached."""
        try:
            ownership = cls(url, await _connect(url, settings), node_id, settings, keeper)
            await ownership._join()
        except DATABASE_UNREACHABLE as error:
            raise StorageError(f"node {node_id} cannot take its lease: {error}") from error
        return ownership

    async def begin(self) -> None:
        """Claim the rooms nobody alive owns, keep the lease and watch for dead nodes every heartbeat
        from then on, and restore the rooms claimed (the heartbeat goes on meanwhile: restoring many
        rooms takes longer than a lease)."""
        async with self._claiming:
            self._unrestored |= await self._claim_unowned() | await self._claim_orphans()
        self._restoring = asyncio.get_running_loop().create_task(self._restore_claimed())
        self._watch = asyncio.get_running_loop().create_task(self._keep_watch())
        await self._restoring

    @property
    def epoch(self) -> int:
        assert self._lease.epoch is not None, "joined at start"
        return self._lease.epoch

    async def close(self) -> None:
        """Stop watching and end the lease, so that the other nodes take this node's rooms at once
        (call it after the rooms are closed and their last changes stored)."""
        for task in (self._watch, self._restoring):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        await asyncio.gather(*self._dropping, return_exceptions=True)
        try:
            async with self._talking:
                await self._lease.release()
        except DATABASE_UNREACHABLE as error:
            logger.warning("could not end the lease of node %s: %s", self.node_id, error)
        await self._db.close()

    # ------------------------------------------------------------ the fence

    async def fence(self, transaction: Queries, records: list[StoreRecord]) -> None:
        """Refuse (raise Fenced) a group of records this node may not write: its lease is gone, or a
        room it writes to is another node's. Rooms created by the group become this node's."""
        lease = await transaction.row(
            f"SELECT epoch FROM cluster_nodes WHERE node_id = ? AND epoch = ? AND lease_expires_ms > {NOW_MS} "
            "FOR SHARE",
            (self.node_id, self.epoch),
        )
        if lease is None:
            self._soon(self._rejoin(self.epoch))
            raise Fenced(f"node {self.node_id} no longer holds its lease")
        created = {record.room_id for record in records if isinstance(record, GameStarted)}
        games = {game_id for record in records if (game_id := getattr(record, "game_id", None)) is not None}
        owners = await transaction.rows(
            "SELECT o.room_id, o.node_id, o.node_epoch, o.epoch FROM room_owners o WHERE o.room_id = ANY(?) "
            "OR o.room_id IN (SELECT g.room_id FROM games g WHERE g.game_id = ANY(?)) FOR SHARE OF o",
            (sorted(created), sorted(games)),
        )
        lost = {
            RoomId(row["room_id"])
            for row in owners
            if (row["node_id"], row["node_epoch"], row["epoch"])
            != (self.node_id, self.epoch, self.owned.get(RoomId(row["room_id"])))
        }
        if lost:
            self._drop_soon(lost)
            raise Fenced(f"the rooms {', '.join(sorted(lost))} are served by another node now")
        new = created - {row["room_id"] for row in owners}
        if new:
            await transaction.executemany(
                "INSERT INTO room_owners (room_id, node_id, node_epoch, epoch) VALUES (?, ?, ?, 1)",
                [(room_id, self.node_id, self.epoch) for room_id in sorted(new)],
            )
            self.owned.update(dict.fromkeys(new, 1))

    def confirm_lease(self) -> None:
        """Refuse (`unavailable`) once the expiry has passed since the lease was last renewed: the
        rooms may have been taken over, and a node that wakes from a pause must not answer from them
        before its next heartbeat finds out (writes are fenced, but reads are not)."""
        if asyncio.get_running_loop().time() - self._renewed_at >= self.settings.expiry_s:
            raise Refusal("unavailable", f"node {self.node_id} is not sure it still holds its lease; try again")

    # ------------------------------------------------------ rooms elsewhere

    async def find(self, room_id: RoomId) -> None:
        """For a room this node does not serve: take it over if its owner is dead (it is then served
        here), refuse `unavailable` if another live node serves it, nothing if no node ever owned it."""
        owner = await self.owner(room_id)
        if owner is not None and owner != self.node_id:
            raise Refusal("unavailable", "the room is served by another node")

    async def owner(self, room_id: RoomId) -> str | None:
        """The live node that owns the room (this one after taking it over, if its owner is dead),
        or None if no node ever owned it. Raises Refusal (`unavailable`) when the database cannot
        be reached, or while another node is taking the room over."""
        async with self._claiming:
            return await self._owner(room_id)

    async def _owner(self, room_id: RoomId) -> str | None:
        if room_id in self._unrestored:
            raise Refusal("unavailable", "the room is being restored on this node; try again")
        if room_id in self.owned:
            return self.node_id
        try:
            async with self._talking:
                owner = await self._db.fetchrow(
                    f"SELECT o.node_id, EXISTS (SELECT 1 FROM cluster_nodes n WHERE {_LIVE}) AS live "
                    "FROM room_owners o WHERE o.room_id = $1",
                    room_id,
                )
            if owner is None:
                return None
            if owner["live"] and owner["node_id"] != self.node_id:
                return str(owner["node_id"])
            claimed = await self._claim_orphans(room_id)
        except DATABASE_UNREACHABLE as error:
            raise Refusal("unavailable", f"the database cannot be reached ({error}); try again") from error
        if claimed:
            await self._keeper.restore(claimed)
        elif room_id not in self.owned:
            raise Refusal("unavailable", "the room is being taken over by another node; try again")
        return self.node_id

    async def claim_new(self, room_id: RoomId) -> None:
        """Own a room about to open here, before anyone hears of it, so that other nodes find its
        owner while it waits for its game (whose first record the fence then finds owned here).
        Raises Refusal (`unavailable`) when the database cannot be reached."""
        try:
            async with self._talking:
                await self._db.execute(
                    "INSERT INTO room_owners (room_id, node_id, node_epoch, epoch) VALUES ($1, $2, $3, 1)",
                    room_id,
                    self.node_id,
                    self.epoch,
                )
        except DATABASE_UNREACHABLE as error:
            raise Refusal("unavailable", f"the database cannot be reached ({error}); try again") from error
        self.owned[room_id] = 1

    # ------------------------------------------------------------- claims

    async def _claim_orphans(self, only: RoomId | None = None) -> set[RoomId]:
        """Claim the rooms whose owner no longer holds the lease they name (all, or only `only`),
        skipping those another node is claiming or writing to right now."""
        async with self._talking, self._db.transaction():
            rows = await self._db.fetch(
                "SELECT o.room_id FROM room_owners o "
                f"WHERE NOT EXISTS (SELECT 1 FROM cluster_nodes n WHERE {_LIVE}) "
                "AND ($1::text IS NULL OR o.room_id = $1) FOR UPDATE OF o SKIP LOCKED",
                only,
            )
            claimed = await self._db.fetch(
                "UPDATE room_owners SET node_id = $1, node_epoch = $2, epoch = epoch + 1 "
                "WHERE room_id = ANY($3) RETURNING room_id, epoch",
                self.node_id,
                self.epoch,
                [row["room_id"] for row in rows],
            )
        return self._owning(claimed)

    async def _claim_unowned(self) -> set[RoomId]:
        """Claim the rooms of unfinished games that no node has ever owned (games stored before the
        server ran as several nodes)."""
        async with self._talking:
            claimed = await self._db.fetch(
                "INSERT INTO room_owners (room_id, node_id, node_epoch, epoch) "
                "SELECT DISTINCT g.room_id, $1::text, $2::bigint, 1 FROM games g "
                "WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.game_id) "
                "AND NOT EXISTS (SELECT 1 FROM room_owners o WHERE o.room_id = g.room_id) "
                "ON CONFLICT (room_id) DO NOTHING RETURNING room_id, epoch",
                self.node_id,
                self.epoch,
            )
        return self._owning(claimed)

    def _owning(self, claimed: list[asyncpg.Record]) -> set[RoomId]:
        rooms = {RoomId(row["room_id"]): int(row["epoch"]) for row in claimed}
        self.owned.update(rooms)
        if rooms:
            logger.info("node %s claimed %d rooms", self.node_id, len(rooms))
        return set(rooms)

    # ---------------------------------------------------- lease and watch

    async def _join(self) -> None:
        asked_at = asyncio.get_running_loop().time()
        async with self._talking:
            await self._lease.join()
        self._renewed_at = asked_at
        logger.info("node %s joined with lease epoch %d", self.node_id, self.epoch)

    async def _keep_watch(self) -> None:
        """Every heartbeat: renew the lease (or, lost, drop everything and join again), then claim
        the rooms of nodes whose lease has expired."""
        while True:
            await pause(self.settings.heartbeat_s)
            try:
                await self._beat()
            except (*DATABASE_UNREACHABLE, StorageUnavailable) as error:
                logger.warning("node %s cannot reach the database: %s", self.node_id, error)
                await self._when_unreachable()
            except Exception:  # a heartbeat that stops silently leaves the node serving rooms it lost
                logger.exception("node %s: its heartbeat failed; it beats again", self.node_id)

    async def _beat(self) -> None:
        """Renew the lease, then claim the rooms of dead nodes. The renewal gives up after the lease's
        expiry, whatever asyncpg does: a renewal sent as PostgreSQL shut down was never answered,
        and asyncpg's own timeout (`_connect`) did not end it, which stopped the heartbeat for good."""
        async with asyncio.timeout(self.settings.expiry_s), self._talking:
            if self._db.is_closed():
                self._db = self._lease.connection = await _connect(self._url, self.settings)
            asked_at = asyncio.get_running_loop().time()
            renewed = await self._lease.renew()
        if not renewed:
            await self._rejoin(self.epoch)
            return
        self._renewed_at = asked_at
        async with self._claiming:
            self._unrestored |= await self._claim_orphans()
        if self._unrestored and (self._restoring is None or self._restoring.done()):
            self._restoring = asyncio.get_running_loop().create_task(self._restore_claimed())

    async def _restore_claimed(self) -> None:
        """Restore the rooms claimed and not restored yet, beside the heartbeat, which must not wait
        for them: a heartbeat that restored ~150 rooms itself renewed the lease too late, and the
        rooms went to other nodes while the node still restored them. Those the database fails to
        give back are tried again after the next heartbeat."""
        rooms = set(self._unrestored)
        try:
            await self._keeper.restore(rooms)
        except (*DATABASE_UNREACHABLE, StorageUnavailable) as error:
            logger.warning("node %s could not restore %d rooms yet: %s", self.node_id, len(rooms), error)
            return
        self._unrestored -= rooms

    async def _when_unreachable(self) -> None:
        """Past the lease's expiry without a renewal, the rooms are surely lost: stop serving them."""
        if asyncio.get_running_loop().time() - self._renewed_at > self.settings.expiry_s and self.owned:
            await self._lose_everything()
        async with self._talking:
            if not self._db.is_closed():
                self._db.terminate()

    async def _rejoin(self, lost_epoch: int) -> None:
        """The lease of `lost_epoch` is gone: own nothing, take a new lease, stop serving the rooms
        (once only, however many noticed)."""
        if self.epoch != lost_epoch:
            return
        lost = self._forget_all()
        await self._join()
        await self._keeper.drop(lost)

    async def _lose_everything(self) -> None:
        await self._keeper.drop(self._forget_all())

    def _forget_all(self) -> set[RoomId]:
        """Own nothing any more (the lease is lost); the rooms that were owned."""
        lost = set(self.owned)
        self.owned.clear()
        self._unrestored.clear()
        logger.warning("node %s lost its lease: it stops serving %d rooms", self.node_id, len(lost))
        return lost

    def _drop_soon(self, rooms: set[RoomId]) -> None:
        """Stop serving rooms found lost, once the group being fenced is settled."""
        for room in rooms:
            self.owned.pop(room, None)
        self._soon(self._keeper.drop(rooms))

    def _soon(self, work: Coroutine[None, None, None]) -> None:
        """Run `work` after the group being fenced is settled (the rooms' actors are waiting on it)."""
        task = asyncio.get_running_loop().create_task(work)
        self._dropping.add(task)
        task.add_done_callback(self._dropping.discard)
