"""Which node directs the tournaments: one at a time, under a lease, its writes fenced on PostgreSQL.

One node directs every tournament (pairing costs milliseconds; one director keeps the tournaments'
timers, watchers and "next game" notices in one place). With a bus it is the lobby's node: the
lobby already has one owner, the other nodes already forward their requests to it (tournament
requests go the same way, `BusLobby.forward`), and the lobby there knows every node's players, so
a "next game" notice reaches a player wherever they are. Without a bus (several nodes on one
PostgreSQL, none sharing a lobby) any node may direct, and the first to claim does.

On PostgreSQL the director's lease is the row of `tournament_director`: it names the node and
the epoch of the node's lease (`cluster_nodes`), and is held while that lease lives; a node takes
it over once that lease has run out (or the holder let it go). Every group commit that writes a
tournament record reads the row FOR SHARE and goes on only if it still names this node, its lease
and the epoch it claimed (`DirectorRow.fence`, run after the node's own fence): a claim cannot slip
in before the commit, and a paused ex-director's late pairing, round or game is refused whole. The
primary key of `tournament_pairings` (tournament, round, board) stands behind it: a round's board
cannot be stored twice. On SQLite with a bus the lobby's Redis key is the lease, and nothing fences
(the processes share one file on one machine, as the lobby does).

Taking over is `Director.take_up`: `Director.restore` for every tournament not yet over, as after a
restart (pairings are stored before their games open, so none is paired twice), then a
`DirectorNotice` to every node, whose watchers watch again there. Results of tournament games whose
rooms run on other nodes reach the director by a `GameEndedNotice` from the room's node, and, so
that none is lost while the director changes, by `Director.reconcile` every heartbeat.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, get_args

import asyncpg

from server.chores import pause
from server.cluster.bus_messages import LOBBY_LANE, BusUnavailable, DirectorNotice, GameEndedNotice
from server.cluster.lease_settings import LeaseSettings
from server.cluster.leases import DATABASE_UNREACHABLE
from server.domain import RoomFacts, StoreRecord, TournamentRecord
from server.storage.drivers import Queries
from server.storage.writer import Fence, Fenced, StorageUnavailable
from server.tournaments.director import Director

if TYPE_CHECKING:
    from server.cluster.bus import RedisBus
    from server.cluster.bus_lobby import BusLobby

logger = logging.getLogger(__name__)

DIRECTOR = "tournaments"
"""The one row of `tournament_director`: one director for every tournament."""

CONNECT_TIMEOUT_S = 5.0

_TOURNAMENT_RECORDS = get_args(TournamentRecord)

_HOLDER_LIVE = (
    "EXISTS (SELECT 1 FROM cluster_nodes n WHERE n.node_id = tournament_director.node_id "
    "AND n.epoch = tournament_director.node_epoch "
    "AND n.lease_expires_ms > CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT))"
)
"""SQL: the node the row names still holds the lease it names."""


class DirectorRow:
    """The director's lease in PostgreSQL, through a connection of its own (a claim never waits
    behind the writer)."""

    def __init__(self, url: str, node_id: str, settings: LeaseSettings, node_epoch: Callable[[], int]) -> None:
        """`node_epoch`: the epoch of the lease this node holds now (it changes when the node joins again)."""
        self._url = url
        self.node_id = node_id
        self._settings = settings
        self._node_epoch = node_epoch
        self._db: asyncpg.Connection | None = None
        self._talking = asyncio.Lock()
        self.held: tuple[int, int] | None = None
        """The node epoch and the row's epoch this node claimed it at, while it holds it."""
        self.lost: Callable[[], None] = lambda: None
        """Called when the fence finds the row held by another (the director stops at once)."""

    async def claim(self) -> bool:
        """Take the row (at a new epoch) if nobody holds it (its node's lease has run out, or it was
        let go) or this node's lease names it (a release that did not reach the database); whether
        this node holds it now."""
        node_epoch = self._node_epoch()
        epoch = await self._fetchval(
            "INSERT INTO tournament_director (director, node_id, node_epoch, epoch) VALUES ($1, $2, $3, 1) "
            "ON CONFLICT (director) DO UPDATE SET node_id = EXCLUDED.node_id, node_epoch = EXCLUDED.node_epoch, "
            "epoch = tournament_director.epoch + 1 "
            f"WHERE NOT {_HOLDER_LIVE} OR (tournament_director.node_id = $2 AND tournament_director.node_epoch = $3) "
            "RETURNING epoch",
            DIRECTOR,
            self.node_id,
            node_epoch,
        )
        self.held = None if epoch is None else (node_epoch, int(epoch))
        return epoch is not None

    async def still_held(self) -> bool:
        """Whether the row still names this node at the lease and epoch it claimed (False once lost)."""
        if self.held is None or self.held[0] != self._node_epoch():
            self.held = None  # the node's lease was lost: whatever it held under it is gone
            return False
        node_epoch, epoch = self.held
        mine = await self._fetchval(
            "SELECT 1 FROM tournament_director WHERE director = $1 AND node_id = $2 AND node_epoch = $3 AND epoch = $4",
            DIRECTOR,
            self.node_id,
            node_epoch,
            epoch,
        )
        if mine is None:
            self.held = None
        return mine is not None

    async def release(self) -> None:
        """Let the row go (this node no longer directs): another node may claim it at once."""
        held, self.held = self.held, None
        if held is not None:
            await self._execute(
                "UPDATE tournament_director SET node_epoch = 0 WHERE director = $1 AND node_id = $2 AND epoch = $3",
                DIRECTOR,
                self.node_id,
                held[1],
            )

    async def fence(self, transaction: Queries, records: list[StoreRecord]) -> None:
        """Refuse (raise Fenced) a group that writes a tournament record unless this node directs."""
        if not any(isinstance(record, _TOURNAMENT_RECORDS) for record in records):
            return
        held = self.held
        row = None
        if held is not None:
            row = await transaction.row(
                "SELECT epoch FROM tournament_director WHERE director = ? AND node_id = ? AND node_epoch = ? "
                "AND epoch = ? FOR SHARE",
                (DIRECTOR, self.node_id, held[0], held[1]),
            )
        if row is None:
            self.held = None
            self.lost()
            raise Fenced(f"node {self.node_id} no longer directs the tournaments")

    async def close(self) -> None:
        if self._db is not None:
            self._db.terminate()

    async def _fetchval(self, query: str, *arguments: object) -> Any:
        async with self._talking:
            return await (await self._connection()).fetchval(query, *arguments)

    async def _execute(self, query: str, *arguments: object) -> None:
        async with self._talking:
            await (await self._connection()).execute(query, *arguments)

    async def _connection(self) -> asyncpg.Connection:
        if self._db is None or self._db.is_closed():
            self._db = await asyncpg.connect(
                self._url, timeout=CONNECT_TIMEOUT_S, command_timeout=self._settings.expiry_s
            )
        return self._db


def fenced_both(first: Fence, second: Fence) -> Fence:
    """One fence of two: the node's own (its lease, its rooms), then the director's."""

    async def fence(transaction: Queries, records: list[StoreRecord]) -> None:
        await first(transaction, records)
        await second(transaction, records)

    return fence


class TournamentDirection:
    """Every heartbeat: take up directing when this node should and may, stop when it should not or
    may not any more, and meanwhile read back the results stored by rooms of other nodes."""

    def __init__(
        self,
        director: Director,
        settings: LeaseSettings,
        row: DirectorRow | None,
        lobby: BusLobby | None,
        bus: RedisBus | None,
    ) -> None:
        """`row`: the lease on PostgreSQL (None on SQLite, where the lobby's key is the lease);
        `lobby` and `bus`: the cluster's lobby, whose node directs (None without a bus: any node may)."""
        self._director = director
        self._settings = settings
        self._row = row
        self._lobby = lobby
        self._bus = bus
        self._tasks: set[asyncio.Task[None]] = set()
        self._renewed_at = 0.0
        """When the lease was last found held (the loop's clock)."""
        if row is not None:
            row.lost = lambda: self._soon(self._step_down())

    async def keep(self) -> None:
        """At once, then every heartbeat, `beat` (a failure is logged, and the next heartbeat tries
        again)."""
        while True:
            try:
                await self.beat()
            except (*DATABASE_UNREACHABLE, StorageUnavailable, BusUnavailable) as error:
                logger.warning("tournaments: cannot check who directs them: %s", error)
                await self._step_down_if_lapsed()
            except Exception:  # a heartbeat that stops silently would leave the tournaments undirected
                logger.exception("tournaments: the director's heartbeat failed; it beats again")
            await pause(self._settings.heartbeat_s)

    async def beat(self) -> None:
        """Take up, keep or stop directing the tournaments."""
        wanted = self._lobby is None or self._lobby.runs_here
        asked_at = asyncio.get_running_loop().time()
        if self._director.directing:
            if not wanted or (self._row is not None and not await self._row.still_held()):
                await self._step_down()
                return
            self._renewed_at = asked_at
            await self._director.reconcile()
        elif wanted and (self._row is None or await self._row.claim()):
            self._renewed_at = asked_at
            await self._director.take_up()
            if self._bus is not None:
                self._bus.broadcast(DirectorNotice(self._bus.node))

    def game_ended(self, facts: RoomFacts) -> None:
        """A tournament's game ended in a room here (the registry's word; a room knows whether the
        server scheduled its game, as opened or as restored): unless the director is here too, tell
        the lobby's node, which directs."""
        if not facts.scheduled or facts.game_id is None:
            return
        if self._director.directing or self._bus is None or self._lobby is None:
            return
        owner = self._lobby.owner
        if owner is not None:
            self._bus.post(owner, LOBBY_LANE, GameEndedNotice(facts.game_id))

    async def close(self) -> None:
        """Stop directing and let the lease go, so that another node takes the tournaments up at once."""
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._release()
        if self._row is not None:
            await self._row.close()

    async def _step_down_if_lapsed(self) -> None:
        """The database cannot be reached: past the lease's expiry, another node may direct."""
        if self._director.directing and asyncio.get_running_loop().time() - self._renewed_at > self._settings.expiry_s:
            await self._step_down()

    async def _step_down(self) -> None:
        if not self._director.directing:
            return
        logger.warning("tournaments: this node stops directing them")
        await self._director.let_go()
        await self._release()

    async def _release(self) -> None:
        if self._row is not None:
            try:
                await self._row.release()
            except DATABASE_UNREACHABLE as error:
                logger.warning("tournaments: could not let the director's lease go: %s", error)

    def _soon(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` after the group being fenced is settled."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
