"""What request handlers work with: the server's settings and parts, gathered once.

`RequestHandlers` (`server.hub.handlers`) and `LobbyRequests` (`server.hub.lobby_requests`)
each serve a part of the protocol; they share one `Services`, built by
`GameServer`. `AnalysisRequests` (`server.bots.analysis`) is handed only the parts
it reads, so that it does not depend on the connection layer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from engine.record import PlayerKind
from server.bots.players import BotPlayers, BotRoster
from server.domain import Caller, CallerRef, ConnectionId, Records, Refusal, caller_ref
from server.edge.connections import Connection
from server.edge.subscriptions import Edge
from server.hub.commands import Hub
from server.lobby.hall import Lobby
from server.moderation.chat_lines import ChatLines
from server.players.ratings import RatingBook
from server.review.service import ReviewService
from server.rooms.actors import RoomActor, RoomRegistry
from server.rooms.room import RoomSettings
from wire.messages import ClientRequest, ServerMessage

Deliver = Callable[[list[tuple[ConnectionId, ServerMessage]]], None]
Disconnect = Callable[[ConnectionId, str], None]


@dataclass(frozen=True, slots=True)
class Limits:
    """How much one player, one address or the whole server may take; past each, `limit_reached`."""

    connections_per_address: int = 256
    """Open websocket connections from one IP address (`--max-connections-per-address`)."""
    rooms_per_player: int = 10
    """Rooms a player has opened that are waiting or playing (`--max-rooms-per-player`)."""
    bot_games_per_player: int = 3
    """Unfinished games between two bots a player has opened (`--max-bot-games-per-player`)."""
    bot_games: int = 32
    """Unfinished games between two bots on the whole server (`--max-bot-games`)."""
    seeks_per_player: int = 3
    """Seeks a player may have waiting in the lobby (`--max-seeks-per-player`)."""
    quick_seeks_per_address: int = 32
    """Quick seeks waiting from one IP address (`--max-quick-seeks-per-address`)."""
    chat_lines: int = 5
    """Chat lines a player may say per `chat_window_s` (the protocol's 5 per 10 s)."""
    chat_window_s: float = 10.0
    new_player_chat_lines: int = 1
    """Chat lines per `chat_window_s` for a player with no rated game yet (`--new-player-chat-lines`)."""
    new_names_per_address_per_hour: int = 20
    """New players one IP address may sign up in an hour (`--max-new-names-per-address-per-hour`)."""


@dataclass(frozen=True, slots=True)
class HandlerSettings:
    """The server settings request handlers follow."""

    room: RoomSettings = field(default_factory=RoomSettings)
    limits: Limits = field(default_factory=Limits)
    analysis_level: str | None = None
    """The bot level that answers `analyze`; None means the strongest one."""
    analysis_max_ms: int = 5_000
    """The longest analysis; a longer `time_ms` is lowered to it."""
    one_of_several_nodes: bool = False
    """Whether this server is a node of a cluster (on PostgreSQL, or with a bus): `welcome` then
    lists the `cluster` feature."""


class Asker(Protocol):
    """Whoever a request comes from, as `signed_in` reads them: a connection here, or one on
    another node whose request was forwarded here."""

    @property
    def player(self) -> str | None:
        """The player signed in on it."""


class Requester(Asker, Protocol):
    """Who a lobby request comes from: a connection here, or (on the node that runs a cluster's
    lobby) a connection on another node."""

    @property
    def id(self) -> ConnectionId:
        """The connection, as the lobby knows it."""

    @property
    def player_kind(self) -> PlayerKind:
        """A person, or a bot account."""

    @property
    def address(self) -> str:
        """The IP address it comes from."""

    def send(self, message: ServerMessage) -> None:
        """Queue a message to it."""


class LobbyElsewhere(Protocol):
    """The lobby when another node may run it (a cluster's: `server.cluster.bus_lobby`)."""

    async def forward(self, connection: Connection, request: ClientRequest) -> bool:
        """Hand a lobby request to the node that runs the lobby; False if that is this node."""

    def signed_in(self, connection: Connection) -> None:
        """Tell the lobby's node that a connection here has signed in."""

    def closed(self, connection: Connection) -> None:
        """Tell the lobby's node that a signed-in connection here has closed."""

    def ref_of(self, connection: ConnectionId) -> CallerRef | None:
        """The reference of a connection of another node's that the lobby here knows by `connection`."""


@dataclass(frozen=True, slots=True)
class Services:
    """The parts of one running server that requests reach."""

    settings: HandlerSettings
    storage: Records
    rooms: RoomRegistry
    bots: BotPlayers | None
    """Who plays the bots' moves; None on a server that runs no bots."""
    ratings: RatingBook
    lobby: Lobby
    deliver: Deliver
    """Sends the lobby's messages (a room's go through the hub and the edge)."""
    hub: Hub
    """Where room requests go, as commands."""
    edge: Edge
    """Which connection is in which room."""
    disconnect: Disconnect
    """Closes a connection at a moderator's word (a ban, a rename), saying why."""
    roster: BotRoster = field(default_factory=BotRoster)
    """Every bot level: our own and the outside engines (whose names nobody may take)."""
    chat_lines: ChatLines = field(default_factory=ChatLines)
    """The latest chat lines, for a moderator to remove and a player to report."""
    review: ReviewService | None = None
    """Game reviews and puzzles; None on a server put together without them (every request refused)."""
    lobby_elsewhere: LobbyElsewhere | None = None
    """In a cluster, the way to the node that runs the lobby; None in one process."""

    async def forwarded(self, connection: Connection, request: ClientRequest) -> bool:
        """Whether a lobby's request (tournaments' too) went to the node that runs a cluster's lobby;
        False when it is to be served here (this node runs it, or there is no cluster)."""
        return self.lobby_elsewhere is not None and await self.lobby_elsewhere.forward(connection, request)

    def ref_of(self, connection: ConnectionId) -> CallerRef:
        """The reference rooms know a connection the lobby names by: one of this node's, or one of
        another node's that this node's lobby serves."""
        elsewhere = None if self.lobby_elsewhere is None else self.lobby_elsewhere.ref_of(connection)
        return caller_ref(connection, self.edge.node) if elsewhere is None else elsewhere


def signed_in(connection: Asker) -> str:
    """The player signed in on the connection (requests other than hello come from one)."""
    if connection.player is None:
        raise Refusal("unauthorized", "say hello first")
    return connection.player


def caller_of(connection: Connection, node: str) -> Caller:
    """The connection's player, as rooms know a caller (the connection is one of `node`'s)."""
    return Caller(caller_ref(connection.id, node), signed_in(connection), connection.player_kind)


async def hold_new_room(services: Services, actor: RoomActor) -> None:
    """Hold a room just opened, then tell it the edge's count of its players' connections: one that
    closed after the room was published but before it was held could not be reported to it, and
    its player would stay present for good."""
    services.hub.hold(actor)
    room_id = actor.room.room_id
    await actor.report_presence(services.edge.recount(room_id, list(actor.room.presence.connections)))
