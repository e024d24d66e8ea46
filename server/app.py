"""The game server: one port for websocket connections and HTTP, its rooms, records and bots.

`GameServer` wires the parts together and owns their lifetimes: storage,
the room registry, the bot pool, the request handlers, the HTTP API and
the open connections. Its websocket entry point is the receive loop, which
knows no rules: it reads frames (closing on a binary frame; websockets
itself closes an oversized one), limits the request rate, parses each
frame with `wire.messages` and hands the request to the handlers.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from websockets.asyncio.router import route
from websockets.asyncio.server import Server, ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.frames import CloseCode
from werkzeug.routing import Map, Rule

from engine.registry import level_names
from server.accounts.service import Accounts, AccountSettings
from server.bots.engine_config import EngineConfigError, EngineSpec
from server.bots.outside_engines import OutsideEngines
from server.bots.players import BotPlayers, BotRoster
from server.bots.pool import BotPool
from server.chores import pause
from server.cluster.lease_settings import LeaseSettings
from server.domain import LOCAL_NODE, ConnectionId, Refusal, RoomId
from server.edge.client_address import ClientAddresses
from server.edge.connections import AddressCounts, Connection, RateLimit, forwarded_for, peer_address
from server.edge.http import WEBSOCKET_PATH, HttpApi
from server.edge.origins import OriginPolicy
from server.edge.subscriptions import Edge
from server.hub.commands import Hub
from server.hub.handlers import RequestHandlers
from server.hub.services import HandlerSettings, Limits, Services
from server.lobby.hall import LOBBY_CHANGES, Lobby
from server.metrics import Metrics
from server.moderation.chat_lines import ChatLines
from server.players.bot_ratings import read_ratings
from server.players.ratings import RatingBook
from server.review.service import ReviewService, ReviewSettings
from server.rooms.actors import RoomRegistry
from server.rooms.room import Room, RoomSettings
from server.storage.database import Storage, StorageError, StorageSettings, StorageUnavailable, is_postgres
from server.tournaments.director import Director, TournamentSettings
from server.tournaments.requests import TournamentRequests
from wire.messages import (
    MAX_FRAME_BYTES,
    Hello,
    ProtocolError,
    ServerMessage,
    error_message,
    parse_client_message,
    peek_request_id,
)

if TYPE_CHECKING:
    # The cluster's modules are imported only by a server that is one of several nodes (a bus, or a
    # database on PostgreSQL): they need the `cluster` extra, which one process on SQLite does not.
    from server.cluster.bus import RedisBus
    from server.cluster.bus_lobby import RemoteRequester
    from server.cluster.node import ClusterNode
    from server.cluster.ownership import Ownership
    from server.cluster.tournament_lease import DirectorRow, TournamentDirection

logger = logging.getLogger(__name__)

LOBBY_TICK_S = 0.25
"""How often the lobby pairs waiting quick seeks and sends its watchers of batches what changed."""

ANALYSIS_NICENESS = 10
"""How far below the bots' CPU priority analyses search: on a machine with fewer free cores than
searches, a bot's move (bounded by time) gets the CPU first, and loses no depth to an analysis."""

CLOSE_REASON_BYTES = 123
"""The most a close frame's reason may hold (RFC 6455: 125 bytes of payload, 2 of them the code)."""

CLOCK_SAVE_EVERY_S = 5.0
"""How often the running clocks are stored (see GameServer._save_clocks_now_and_then)."""

LEAN_COMPRESSION = ServerPerMessageDeflateFactory(
    server_max_window_bits=11, client_max_window_bits=11, compress_settings={"memLevel": 4}
)
"""Per-message deflate with a 2 KB window and little memory (websockets' own advice for many
connections), for `--compression`. Off by default: this server's frames are a few hundred bytes,
and measured with `bench.load`, an idle connection costs 54 KB with it and 22 KB without (65 KB
with websockets' default deflate)."""


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """Everything about the server that a command-line flag or a test may change."""

    host: str = "127.0.0.1"
    port: int = 8765
    db_path: str = "gomoku.sqlite3"
    bot_workers: int = 1
    """Processes in the bot pool; 0 runs no bots (bot seats and `analyze` are refused)."""
    bot_queue_limit: int | None = None
    """Bot requests that may wait for a worker (None: the pool's default); beyond that, `busy`."""
    room: RoomSettings = field(default_factory=RoomSettings)
    rate_per_second: float = 20.0
    rate_burst: float = 40.0
    analysis_level: str | None = None
    """The bot level that answers `analyze`; None means the strongest one."""
    analysis_workers: int = 1
    """Processes that search analyses, apart from the bots' (`--analysis-workers`)."""
    analysis_max_ms: int = 5_000
    """The longest analysis; a longer `time_ms` is lowered to it (`--analysis-max-ms`)."""
    storage: StorageSettings = field(default_factory=StorageSettings)
    limits: Limits = field(default_factory=Limits)
    compression: bool = False
    """Offer per-message deflate (LEAN_COMPRESSION): less traffic, more memory and CPU per connection."""
    engines: tuple[EngineSpec, ...] = ()
    """Outside engines offered as bot levels (`--engines FILE`); they need bot workers."""
    accounts: AccountSettings = field(default_factory=AccountSettings)
    """Wrong passwords allowed, and how long a deleted account's name waits (`server.accounts`)."""
    lease: LeaseSettings = field(default_factory=LeaseSettings)
    """How this node keeps its lease among several on one PostgreSQL (unused on SQLite)."""
    tournaments: TournamentSettings = field(default_factory=TournamentSettings)
    review: ReviewSettings = field(default_factory=ReviewSettings)
    """Game reviews and puzzles (`--review-nodes`, `--review-rated`, `--no-puzzle-mining`)."""
    bus_url: str | None = None
    """The Redis between the nodes of a cluster (`--bus redis://HOST:PORT/0`); None: one process."""
    client_addresses: ClientAddresses = field(default_factory=ClientAddresses)
    """Whose `X-Forwarded-For` is believed for a client's address (`--trusted-proxies`)."""
    origins: OriginPolicy = field(default_factory=OriginPolicy)
    """The pages besides the server's own whose websockets are let in (`--allowed-origins`)."""
    node_id: str = LOCAL_NODE
    """This node's name among the cluster's (`--node-id`): callers here are `<node_id>/<connection>`.
    Nodes on one PostgreSQL or one bus need distinct names (`gomoku-server` gives them host and pid)."""


class GameServer:
    """Owns the storage, the rooms, the bot pool and the connections of one running server."""

    def __init__(
        self,
        settings: ServerSettings,
        storage: Storage,
        bots: BotPlayers | None,
        metrics: Metrics | None = None,
        roster: BotRoster | None = None,
        bus: RedisBus | None = None,
    ) -> None:
        """A server of one process, or with `bus` one node of a cluster (see `server.cluster`)."""
        self.settings = settings
        self.storage = storage
        self.bots = bots
        self.roster = roster or BotRoster(arena_ratings=read_ratings())
        self.metrics = metrics or Metrics()
        self.ratings = RatingBook(storage)
        self.connections: dict[ConnectionId, Connection] = {}
        self.edge = Edge(self.connections, settings.node_id)
        """Which connection is in which room; it sends each room's events to their sockets."""
        self.lobby = Lobby()
        self.review = ReviewService(storage, None if bots is None else bots.analysis_pool, settings.review)
        self.cluster: ClusterNode | None = None
        """With a bus, the parts a node of a cluster adds (its rooms, hub and way to the lobby)."""
        self.hub: Hub
        if bus is None:
            self.rooms = RoomRegistry(storage, self.edge.publish, bots, self.roster)
            self.hub = Hub(self.rooms, self.ratings)
        else:
            from server.cluster.node import ClusterNode

            self.cluster = ClusterNode(
                bus, self.edge, storage, bots, self.roster, self.ratings, self.lobby, self.connections, settings.lease
            )
            self.rooms, self.hub = self.cluster.rooms, self.cluster.hub
        self.metrics.count_rooms(self.rooms.count_by_status)
        several_nodes = bus is not None or is_postgres(settings.db_path)
        handler_settings = HandlerSettings(
            settings.room,
            settings.limits,
            settings.analysis_level,
            settings.analysis_max_ms,
            one_of_several_nodes=several_nodes,
        )
        services = Services(
            handler_settings,
            storage,
            self.rooms,
            bots,
            self.ratings,
            self.lobby,
            self.deliver,
            self.hub,
            self.edge,
            self.disconnect,
            self.roster,
            review=self.review,
            lobby_elsewhere=None if self.cluster is None else self.cluster.lobby,
            chat_lines=ChatLines(settings.node_id),
        )
        self.director = Director(services, storage, settings.tournaments, self.metrics, directing=not several_nodes)
        """One process directs its tournaments; of several nodes, the one holding the director's lease."""
        self.director_row: DirectorRow | None = None
        """The director's lease in PostgreSQL (None on SQLite)."""
        self.direction: TournamentDirection | None = None
        self.handlers = RequestHandlers(
            services, Accounts(storage, settings.accounts), TournamentRequests(services, storage, self.director)
        )
        if self.cluster is not None:
            self.cluster.hub.moderate_with(self.handlers.moderation)
            self.cluster.hub.sign_out_with(self.handlers.accounts)
        self.http = HttpApi(storage, self.metrics, self.review, settings.origins, self.director.next_round_at)
        self.ownership: Ownership | None = None
        """This node's lease and rooms, when it is one of several on PostgreSQL (None on SQLite)."""
        self._ids = itertools.count(1)
        self.addresses: AddressCounts = AddressCounts() if self.cluster is None else self.cluster.addresses
        """Open connections per address: this node's, and with a bus every node's."""
        self._chores: list[asyncio.Task[None]] = []
        self._reporting: set[asyncio.Task[None]] = set()
        """Tasks telling rooms of connections that closed (see `_disconnect`)."""
        """Tasks that run for the server's whole life (lag probe, clock saving)."""

    # ------------------------------------------------------------ lifecycle

    @classmethod
    async def start(cls, settings: ServerSettings) -> tuple[GameServer, Server]:
        """Open the database, bring back unfinished games, start the bot pool and listen.

        Raises StorageError for a database it cannot use, EngineConfigError for outside engines it
        cannot offer (no bot workers to run them, a name a player already has), and OSError for an
        address it cannot listen on. Whatever fails, everything opened so far is closed first (the
        bot pool's processes included), so that a server that cannot start leaves nothing running."""
        if settings.engines and settings.bot_workers < 1:
            raise EngineConfigError("outside engines run in the bots' capacity: give --bot-workers 1 or more")
        metrics = Metrics()
        storage = await Storage.open(settings.db_path, settings=settings.storage, metrics=metrics)
        try:
            await _check_engine_names(storage, settings.engines)
            bus = await _connect_bus(settings) if settings.bus_url is not None else None
        except (EngineConfigError, StorageError):
            await storage.close()
            raise
        arena_ratings = read_ratings()
        roster = BotRoster(settings.engines, arena_ratings)
        bots = None
        if settings.bot_workers > 0:
            pool = BotPool(settings.bot_workers, settings.bot_queue_limit, metrics)
            metrics.bot_queue.set_function(lambda: pool.waiting)
            analysis_pool = BotPool(settings.analysis_workers, settings.bot_queue_limit, niceness=ANALYSIS_NICENESS)
            outside = OutsideEngines(settings.engines, metrics) if settings.engines else None
            bots = BotPlayers(pool, analysis_pool, outside)
        app = cls(settings, storage, bots, metrics, roster, bus)
        try:
            return app, await app._open(settings, arena_ratings)
        except BaseException:
            await app.close()
            raise

    async def _open(self, settings: ServerSettings, arena_ratings: dict[str, int]) -> Server:
        """Join the cluster (if any), bring back what was stored, start the chores and listen."""
        if is_postgres(settings.db_path):
            await self._join_the_cluster()
        await self.ratings.enrol_bots(arena_ratings, level_names(), settings.engines)
        if self.ownership is not None:
            await self.ownership.begin()
        else:
            await self.restore_rooms()
        if self.director.directing:
            await self.director.restore()
        await self.review.start()
        loop = asyncio.get_running_loop()
        self._chores = [
            loop.create_task(self.metrics.watch_event_loop()),
            loop.create_task(self._save_clocks_now_and_then()),
            loop.create_task(self._tick_the_lobby()),
            loop.create_task(self.handlers.moderation.sanctions.watch()),
        ]
        if self.cluster is not None:
            handlers = self.handlers
            self._chores += await self.cluster.start(handlers.lobby, handlers.tournaments, handlers.analysis)
        if not self.director.directing:
            self._chores.append(self._direct_tournaments())
        return await route(
            Map([Rule(WEBSOCKET_PATH, endpoint=self.handle)]),
            settings.host,
            settings.port,
            process_request=self.http.process_request,
            max_size=MAX_FRAME_BYTES,
            compression=None,
            extensions=[LEAN_COMPRESSION] if settings.compression else [],
        )

    async def _join_the_cluster(self) -> None:
        """Take this node's lease, fence every write with it, and look up through it the rooms not
        served here (`Ownership.begin` then claims the rooms of dead nodes and restores them)."""
        from server.cluster.ownership import Ownership
        from server.cluster.tournament_lease import DirectorRow, fenced_both

        self.ownership = await Ownership.join(self.settings.db_path, self.settings.node_id, self.settings.lease, self)
        self.director_row = DirectorRow(
            self.settings.db_path, self.settings.node_id, self.settings.lease, lambda: self._node_epoch
        )
        self.storage.fence_writes(fenced_both(self.ownership.fence, self.director_row.fence))
        self.hub.confirm_lease = self.director.confirm_lease = self.ownership.confirm_lease
        if self.cluster is None:
            self.hub.find_elsewhere = self.ownership.find
        else:
            self.cluster.own_rooms_by(self.ownership)

    @property
    def _node_epoch(self) -> int:
        assert self.ownership is not None
        return self.ownership.epoch

    def _direct_tournaments(self) -> asyncio.Task[None]:
        """Of several nodes, one directs the tournaments under a lease (`server.cluster.tournament_lease`):
        its heartbeat says whether it is this one (the chore returned)."""
        from server.cluster.tournament_lease import TournamentDirection

        lobby, bus = (None, None) if self.cluster is None else (self.cluster.lobby, self.cluster.bus)
        self.direction = TournamentDirection(self.director, self.settings.lease, self.director_row, lobby, bus)
        self.rooms.watch_results(self.direction.game_ended)
        return asyncio.get_running_loop().create_task(self.direction.keep())

    async def restore(self, rooms: set[RoomId]) -> None:
        """Bring back rooms this node took over (`RoomKeeper`), as after a restart; with a bus, every
        node hears that they are served here now, and their members join them again."""
        await self.restore_rooms(rooms)
        if self.cluster is not None:
            await self.cluster.hub.took_over(rooms)

    async def drop(self, rooms: set[RoomId]) -> None:
        """Stop serving rooms another node owns now (`RoomKeeper`): their timers and bots stop, a
        request about them is answered as for a room served elsewhere, and this node's members join
        them again where they are served."""
        for room_id in rooms:
            if await self.rooms.drop(room_id):
                logger.warning("dropped room %s: another node serves it now", room_id)
                if self.cluster is not None:  # this node's members follow the room there
                    await self.cluster.hub.join_again(room_id)

    async def restore_rooms(self, rooms: set[RoomId] | None = None) -> None:
        """Every unfinished game (of `rooms` only, if given) comes back as a playing room that its
        players can rejoin, and a room whose game ended within `abandon_after_s` as a finished one,
        for a rematch; each knows its seats' ratings as stored."""
        now = asyncio.get_running_loop().time()
        restored_at = datetime.now(UTC)
        recently = restored_at - timedelta(seconds=self.settings.room.abandon_after_s)
        for game in await self.storage.games_to_restore(recently, rooms):
            if self.rooms.get(game.room_id) is not None or not await self.hub.may_restore(game.room_id):
                continue
            try:
                room = Room.restore(game, self.settings.room, now, restored_at)
            except ValueError as error:
                # One unreadable game must not keep every other game (and the server) down.
                logger.error("cannot restore game %s: %s", game.game_id, error)
                continue
            room.know([await self.ratings.standing(seat) for seat in (game.black, game.white)])
            self.hub.hold(self.rooms.actor_for(room))
            logger.info("restored game %s in room %s at ply %d", game.game_id, game.room_id, len(game.moves))

    async def close(self) -> None:
        """Stop rooms (after their writes), analyses, the bot pool and the database."""
        for chore in self._chores:
            chore.cancel()
        await asyncio.gather(*self._chores, *self._reporting, return_exceptions=True)
        await self.director.close()
        if self.direction is not None:
            await self.direction.close()
        await self.rooms.close()
        if self.cluster is not None:
            await self.cluster.close()
        await self.handlers.close()
        await self.review.close()
        if self.bots is not None:
            await self.bots.close()
        if self.ownership is not None:
            await self.ownership.close()
        await self.storage.close()

    def _elsewhere(self, connection: ConnectionId) -> RemoteRequester | None:
        """A caller on another node that this node's lobby serves (on the node that runs it)."""
        return None if self.cluster is None else self.cluster.lobby.recipient(connection)

    async def _save_clocks_now_and_then(self) -> None:
        """Store every running clock every CLOCK_SAVE_EVERY_S: a server killed outright gives back
        at most that much thinking time after its restart (a clean stop gives back none)."""
        while True:
            await pause(CLOCK_SAVE_EVERY_S)
            await self.rooms.save_clocks()

    async def _tick_the_lobby(self) -> None:
        """Every LOBBY_TICK_S: pair the quick seeks in reach of each other, send the lobby's batch."""
        while True:
            await pause(LOBBY_TICK_S)
            try:
                await self.handlers.lobby.tick()
                self.director.tick()
            except Exception:  # a pairing whose room could not be stored; the next tick goes on
                logger.exception("the lobby's tick failed")

    def deliver(self, messages: list[tuple[ConnectionId, ServerMessage]]) -> None:
        """Hand the lobby's messages to the connections' send queues (never waits; a room's go
        through the edge).

        A message broadcast to the lobby (or a lobby batch) is one object for
        all its recipients: it is turned into UTF-8 text once, not once per
        recipient. A lobby change to a 1.1 watcher may give way to a fresh
        snapshot (`Connection.send_lobby_change`), built once for all.
        """
        frames: dict[int, bytes] = {}
        snapshot: list[bytes] = []

        def fresh_snapshot() -> bytes:
            if not snapshot:
                snapshot.append(self.lobby.snapshot().to_wire().encode())
            return snapshot[0]

        for connection_id, message in messages:
            connection = self.connections.get(connection_id) or self._elsewhere(connection_id)
            if connection is None:
                continue
            frame = frames.get(id(message))
            if frame is None:
                frame = frames[id(message)] = message.to_wire().encode()
            if isinstance(message, LOBBY_CHANGES) and self.lobby.watches_per_event(connection_id):
                connection.send_lobby_change(frame, fresh_snapshot)
            else:
                connection.send_wire(frame)

    def disconnect(self, connection_id: ConnectionId, reason: str) -> None:
        """Close a connection at a moderator's word (a ban, a rename), once what is queued for it is
        sent: 1008 with the reason, cut to fit a close frame. Its receive loop then ends, and the
        connection is forgotten as any other."""
        connection = self.connections.get(connection_id)
        if connection is not None:
            said = reason.encode()[:CLOSE_REASON_BYTES].decode(errors="ignore")
            connection.close_after_sent(said)

    # ----------------------------------------------------------- websocket

    async def handle(self, websocket: ServerConnection) -> None:
        """Serve one websocket connection until it closes."""
        address = self.settings.client_addresses.of(peer_address(websocket), forwarded_for(websocket))
        limit = self.settings.limits.connections_per_address
        if not await self.addresses.admit(address, limit):
            refusal = Refusal("limit_reached", f"{limit} connections from your address are open, the most allowed")
            await websocket.send(error_message(refusal, None).to_wire())
            await _close_and_drain(websocket, CloseCode.TRY_AGAIN_LATER, "too many connections from this address")
            return
        self.metrics.connections.inc()
        try:
            await self._serve(websocket, address)
        finally:
            self.metrics.connections.dec()
            self.addresses.closed(address)

    async def _serve(self, websocket: ServerConnection, address: str) -> None:
        rate = RateLimit(self.settings.rate_per_second, self.settings.rate_burst)
        connection = Connection(ConnectionId(next(self._ids)), websocket, rate, address)
        self.connections[connection.id] = connection
        try:
            await self._receive_loop(connection)
        except ConnectionClosed:
            pass
        finally:
            del self.connections[connection.id]
            self.handlers.connection_closed(connection)
            self._disconnect(connection)
            await connection.stop()

    async def _receive_loop(self, connection: Connection) -> None:
        loop = asyncio.get_running_loop()
        async for frame in connection.websocket:
            if isinstance(frame, bytes):
                await _close_and_drain(connection.websocket, CloseCode.UNSUPPORTED_DATA, "binary frames not accepted")
                return
            if not connection.rate_limit.allow(loop.time()):
                if connection.rate_limit.exhausted:
                    await _close_and_drain(connection.websocket, CloseCode.POLICY_VIOLATION, "too many requests")
                    return
                refusal = Refusal("rate_limited", "too many requests; slow down")
                connection.send(error_message(refusal, peek_request_id(frame)))
                continue
            await self._serve_frame(connection, frame)

    async def _serve_frame(self, connection: Connection, frame: str) -> None:
        try:
            request = parse_client_message(frame)
        except ProtocolError as error:
            connection.send(error_message(error, error.request_id))
            return
        try:
            if connection.player is None and not isinstance(request, Hello):
                raise Refusal("unauthorized", "say hello first")
            await self.handlers.handle(connection, request)
        except Refusal as refusal:
            connection.send(error_message(refusal, request.id))
        except StorageUnavailable as error:
            unavailable = Refusal("unavailable", f"the server cannot store changes right now ({error}); try again")
            connection.send(error_message(unavailable, request.id))
        except Exception:
            logger.exception("request failed on connection %d", connection.id)
            connection.send(error_message(Refusal("internal", "the server failed on this request"), request.id))

    def _disconnect(self, connection: Connection) -> None:
        """Take a closed connection out of its rooms; each room is told what the edge counts then, in
        a task that starts once the connections closing at the same time have all been taken out."""
        if self.edge.connection_closed(connection.id):
            task = asyncio.get_running_loop().create_task(self._report_closed())
            self._reporting.add(task)
            task.add_done_callback(self._reporting.discard)

    async def _report_closed(self) -> None:
        reports = self.edge.closed_reports()
        results = await asyncio.gather(
            *(self.hub.report(room_id, report) for room_id, report in reports), return_exceptions=True
        )
        for (room_id, _), result in zip(reports, results, strict=True):
            if isinstance(result, BaseException):
                logger.error("room %s: cannot tell it of closed connections", room_id, exc_info=result)


async def _connect_bus(settings: ServerSettings) -> RedisBus:
    """The bus to the other nodes (redis-py, the `cluster` extra, is imported only here); raises
    StorageError when Redis does not answer, as for a database the server cannot use."""
    assert settings.bus_url is not None
    from server.cluster.bus import RedisBus
    from server.cluster.bus_messages import BusUnavailable

    try:
        return await RedisBus.connect(settings.bus_url, settings.node_id)
    except BusUnavailable as error:
        raise StorageError(str(error)) from error


async def _check_engine_names(storage: Storage, engines: tuple[EngineSpec, ...]) -> None:
    """Refuse an outside engine named like a player: the engine would take over their name."""
    for spec in engines:
        player = await storage.find_player(spec.name)
        if player is not None and not player.is_level:
            raise EngineConfigError(f"the engine name {spec.name!r} is a player's name on this server; choose another")


async def _close_and_drain(websocket: ServerConnection, code: CloseCode, reason: str) -> None:
    """Close, reading and dropping whatever the client still sends until its close frame arrives.

    Frames left unread would fill the receive queue, stop reading, and so
    hide the client's close frame until the close timeout.
    """
    closing = asyncio.ensure_future(websocket.close(code, reason))
    with contextlib.suppress(ConnectionClosed):
        async for _ in websocket:
            pass
    await closing
