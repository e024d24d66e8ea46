"""The cluster's lobby: one node runs it for all, the others forward their lobby requests to it.

Seeks, quick pairing, who is online, lobby chat and their per-player and per-address limits live in
one `Lobby`, on the node that holds the lobby's key in Redis (the first node up claims it, and
renews it every `--heartbeat-s`; when it lapses, `--lease-s` after its node's last renewal,
another node claims it, and every node signs its players in there again. Seeks are soft state,
gone with the lobby's node: each node watches the new lobby again for its connections that
watched the old one, so that each gets a fresh `lobby` snapshot without them). A node that does
not run the lobby sends each lobby request over the bus (`LobbyCommandMessage`), with its
connections signing in and closing.
The lobby's node serves it with the same `LobbyRequests` as its own connections', the caller
standing in as a `RemoteRequester` known to the lobby by a connection number of its own (negative,
so that it is never one of this node's). What the lobby sends to callers on other nodes leaves
once per message and node (`ReplyMessage`, a tick's batch sent once to all of a node's watchers),
and each node's edge fans it out. A game the lobby pairs opens on the lobby's node, its seats
naming the players' own connections wherever they are.

The lobby's node directs the tournaments too (`server/cluster/tournament_lease.py`): tournament
requests are forwarded and served as lobby requests are, and each node remembers its connections
that watch a tournament, to watch it again where the tournaments are taken up (`DirectorNotice`).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Protocol

from engine.record import PlayerKind
from server.chores import pause
from server.cluster.bus_hub import ClusterHub, refusal_of
from server.cluster.bus_messages import (
    LOBBY_LANE,
    BusMessage,
    BusUnavailable,
    DirectorNotice,
    GameEndedNotice,
    LobbyClosedMessage,
    LobbyCommandMessage,
    LobbySignedInMessage,
    ReplyMessage,
)
from server.cluster.directory import OwnerKeys
from server.cluster.fan_out import Bus
from server.cluster.lease_settings import LeaseSettings
from server.domain import CallerRef, ConnectionId, GameId, Refusal, caller_ref, node_of
from server.edge.connections import Connection
from server.hub.lobby_requests import LobbyRequest, LobbyRequests
from server.hub.services import Requester
from server.lobby.hall import Lobby
from wire.messages import ClientRequest, ServerMessage, UnwatchLobby, WatchLobby, error_message, parse_client_message
from wire.tournaments import TournamentRequest, UnwatchTournament, WatchTournament

if TYPE_CHECKING:
    from server.cluster.bus import RedisBus

logger = logging.getLogger(__name__)

LOBBY_OWNER_KEY = "gomoku:lobby-owner"


class TournamentService(Protocol):
    """The tournaments' requests as the lobby's node serves them (`TournamentRequests`)."""

    async def serve(self, connection: Requester, request: TournamentRequest) -> None: ...

    def connection_closed(self, connection: Requester) -> None: ...

    def game_ended_elsewhere(self, game_id: GameId) -> None: ...


class RemoteRequester:
    """A connection on another node, as the lobby's node serves its requests."""

    def __init__(
        self, lobby: BusLobby, number: ConnectionId, ref: CallerRef, name: str, kind: PlayerKind, address: str
    ) -> None:
        self._lobby = lobby
        self.id = number
        self.ref = ref
        self.player: str | None = name
        self.player_kind: PlayerKind = kind
        self.address = address

    def send(self, message: ServerMessage) -> None:
        self.send_wire(message.to_wire().encode())

    def send_wire(self, frame: bytes) -> None:
        self._lobby.send_to(self.ref, frame)

    def send_lobby_change(self, frame: bytes, fresh_snapshot: Callable[[], bytes]) -> None:
        """A lobby change, sent as it is (its node's connection queues it)."""
        self.send_wire(frame)


class BusLobby:
    """Every node's way to the cluster's lobby (`LobbyElsewhere`), and on the lobby's node, what
    serves the other nodes' callers."""

    def __init__(
        self,
        bus: Bus,
        keys: OwnerKeys,
        lobby: Lobby,
        connections: Mapping[ConnectionId, Connection],
        lease: LeaseSettings,
    ) -> None:
        """`lease`: the lobby's key is renewed every heartbeat and lapses at the lease's expiry, as
        a node's lease in PostgreSQL does."""
        self._bus = bus
        self._lease = lease
        self._keys = keys
        self._lobby = lobby
        self._connections = connections
        self._node = bus.node
        self._run = f"{self._node} {secrets.token_hex(8)}"
        """What this node writes in the lobby's key: its name and a mark of this run of it, so that
        the other nodes see a node started again under its name as a new lobby (its seeks and
        players gone with the run before)."""
        self._holder: str | None = None
        """The lobby's key as last read: which run of which node runs the lobby."""
        self._watched: str | None = None
        """The last lobby known (`_holder` not None): this node's watchers watch it, and watch again
        when another runs (the key may be read empty in between, as a lobby changes hands)."""
        self._requests: LobbyRequests | None = None
        self._numbers = itertools.count(-1, -1)
        self._by_ref: dict[CallerRef, RemoteRequester] = {}
        self._by_number: dict[ConnectionId, RemoteRequester] = {}
        self._outgoing: dict[str, dict[bytes, list[CallerRef]]] = {}
        self._watching: dict[ConnectionId, WatchLobby] = {}
        """This node's connections that watch the lobby, wherever it runs: they watch it again when
        it moves."""
        self._tournaments: TournamentService | None = None
        self._watching_tournaments: dict[ConnectionId, dict[str, WatchTournament]] = {}
        """This node's connections that watch tournaments, wherever they are directed: they watch
        them again when another node takes them up."""
        self._renewed_at = 0.0
        """When this node last renewed the lobby's key (the loop's clock)."""

    def serve_with(self, requests: LobbyRequests, tournaments: TournamentService | None = None) -> None:
        """The lobby (and tournament) requests of this node, which serve the other nodes' when the
        lobby is here."""
        self._requests = requests
        self._tournaments = tournaments

    @property
    def owner(self) -> str | None:
        """The node that runs the lobby, as this node last read it."""
        return None if self._holder is None else _node_of_run(self._holder)

    @property
    def runs_here(self) -> bool:
        """Whether this node runs the lobby, its key renewed within the lease's expiry."""
        fresh = asyncio.get_running_loop().time() - self._renewed_at < self._lease.expiry_s
        return self._holder == self._run and fresh

    # -------------------------------------------------- LobbyElsewhere

    async def forward(self, connection: Connection, request: ClientRequest) -> bool:
        if isinstance(request, WatchLobby):
            self._watching[connection.id] = request.model_copy(update={"id": None})  # watched again unasked
        elif isinstance(request, UnwatchLobby):
            self._watching.pop(connection.id, None)
        elif isinstance(request, WatchTournament):
            again = request.model_copy(update={"id": None})
            self._watching_tournaments.setdefault(connection.id, {})[request.tournament_id] = again
        elif isinstance(request, UnwatchTournament):
            self._watching_tournaments.get(connection.id, {}).pop(request.tournament_id, None)
        if self._holder == self._run:
            return False
        owner = self._elsewhere()
        if owner is None:
            raise Refusal("unavailable", "the lobby cannot be reached right now; try again")
        assert connection.player is not None, "only signed-in connections reach the lobby"
        ref = caller_ref(connection.id, self._node)
        message = LobbyCommandMessage(
            ref, connection.player, connection.player_kind, connection.address, request.to_wire()
        )
        try:
            await self._bus.deliver(owner, LOBBY_LANE, message)
        except BusUnavailable as error:
            if await self._moved_on():
                return await self.forward(connection, request)
            raise Refusal("unavailable", f"the lobby cannot be reached right now ({error}); try again") from error
        return True

    async def _moved_on(self) -> bool:
        """Whether the lobby runs elsewhere than known, as the key says now (or here: claimed now,
        its node having given it up as it stopped). Asked when the lobby's node cannot be reached,
        so that a request need not wait for the next heartbeat to find it."""
        known = self._holder
        try:
            await self.claim_or_follow()
        except BusUnavailable:
            return False
        return self._holder != known

    def signed_in(self, connection: Connection) -> None:
        owner = self._elsewhere()
        if owner is not None and connection.player is not None:
            self._bus.post(owner, LOBBY_LANE, self._signed_in(connection))

    def closed(self, connection: Connection) -> None:
        self._watching.pop(connection.id, None)
        self._watching_tournaments.pop(connection.id, None)
        owner = self._elsewhere()
        if owner is not None:
            self._bus.post(owner, LOBBY_LANE, LobbyClosedMessage(caller_ref(connection.id, self._node)))

    def ref_of(self, connection: ConnectionId) -> CallerRef | None:
        requester = self._by_number.get(connection)
        return None if requester is None else requester.ref

    # ------------------------------------------------ the lobby's node

    def recipient(self, connection: ConnectionId) -> RemoteRequester | None:
        """The caller on another node that the lobby here knows by `connection`, if any."""
        return self._by_number.get(connection)

    async def receive(
        self,
        message: LobbyCommandMessage | LobbySignedInMessage | LobbyClosedMessage | DirectorNotice | GameEndedNotice,
    ) -> None:
        """Serve a lobby message from another node."""
        match message:
            case DirectorNotice():
                await self._watch_tournaments_again()
            case GameEndedNotice(game_id=game_id):
                if self._tournaments is not None:
                    self._tournaments.game_ended_elsewhere(game_id)
            case LobbySignedInMessage():
                self._requester(message.ref, message.name, message.kind, message.address)
            case LobbyClosedMessage(ref=ref):
                requester = self._by_ref.pop(ref, None)
                if requester is not None and self._requests is not None:
                    del self._by_number[requester.id]
                    self._requests.connection_closed(requester)
                    if self._tournaments is not None:
                        self._tournaments.connection_closed(requester)
            case LobbyCommandMessage():
                await self._serve(message)

    async def _serve(self, message: LobbyCommandMessage) -> None:
        requester = self._requester(message.ref, message.name, message.kind, message.address)
        request = parse_client_message(message.request)
        if isinstance(request, TournamentRequest) and self._tournaments is not None:
            await self._serve_tournament(requester, request)
            return
        if not isinstance(request, LobbyRequest):
            raise ValueError(f"a {request.type!r} request is not the lobby's to serve")
        if self._requests is None or self._holder != self._run:
            requester.send(error_message(Refusal("unavailable", "the lobby is moving; try again"), request.id))
            return
        answer = await refusal_of(self._requests.serve(requester, request), request.id)
        if answer is not None:
            requester.send(answer)

    async def _serve_tournament(self, requester: RemoteRequester, request: TournamentRequest) -> None:
        assert self._tournaments is not None
        if self._holder != self._run:
            requester.send(error_message(Refusal("unavailable", "the tournaments are moving; try again"), request.id))
            return
        answer = await refusal_of(self._tournaments.serve(requester, request), request.id)
        if answer is not None:
            requester.send(answer)

    def _requester(self, ref: CallerRef, name: str, kind: PlayerKind, address: str) -> RemoteRequester:
        """The stand-in of a caller on another node (signed in to the lobby when first heard of)."""
        requester = self._by_ref.get(ref)
        if requester is None:
            number = ConnectionId(next(self._numbers))
            requester = self._by_ref[ref] = self._by_number[number] = RemoteRequester(
                self, number, ref, name, kind, address
            )
            self._lobby.signed_in(number, name)
        return requester

    def send_to(self, ref: CallerRef, frame: bytes) -> None:
        """Send a frame to a caller on another node: the same frame to several callers of one node
        goes once, at the end of the tick."""
        if not self._outgoing:
            asyncio.get_running_loop().call_soon(self._send_outgoing)
        self._outgoing.setdefault(node_of(ref), {}).setdefault(frame, []).append(ref)

    def _send_outgoing(self) -> None:
        outgoing, self._outgoing = self._outgoing, {}
        for node, frames in outgoing.items():
            for frame, refs in frames.items():
                self._bus.post(node, LOBBY_LANE, ReplyMessage(LOBBY_LANE, tuple(refs), frame.decode()))

    # -------------------------------------------------------- the key

    async def keep(self) -> None:
        """Every heartbeat, `claim_or_follow` (a failure is logged, and tried again the next time)."""
        while True:
            await pause(self._lease.heartbeat_s)
            try:
                await self.claim_or_follow()
            except BusUnavailable as error:
                logger.warning("lobby: cannot renew or read the lobby's key: %s", error)

    async def release(self) -> None:
        """Give the lobby up if this node runs it (a clean stop): a node starting next, or the next
        heartbeat of another, claims it at once rather than once the key lapses (until then, their
        lobby requests would go to a node that is gone). A failure is logged: the key lapses."""
        if self._holder != self._run:
            return
        try:
            await self._keys.remove_if(LOBBY_OWNER_KEY, self._run)
        except BusUnavailable as error:
            logger.warning("lobby: cannot give the lobby up (its key lapses in %g s): %s", self._lease.expiry_s, error)
        self._holder = None

    async def claim_or_follow(self) -> None:
        """Claim the lobby if nobody runs it, renew it while this node does, and follow its moves:
        when another node (or another run of one) runs it from now on, this node's players sign in
        there again, and its watchers watch it again (its seeks are gone with the node that ran
        it). A node that has not renewed the key within the lease (paused past it) claims it afresh
        like any other, and follows the node that took it meanwhile. Raises BusUnavailable."""
        asked_at = asyncio.get_running_loop().time()
        renewed = self.runs_here and await self._keys.renew_if(LOBBY_OWNER_KEY, self._run, self._lease.expiry_s)
        if not renewed:  # nobody's (lapsed, or lost with Redis), or claimed by another node meanwhile
            await self._claim()
        holder = await self._keys.get(LOBBY_OWNER_KEY)
        if holder == self._run:
            self._renewed_at = asked_at
        if holder is not None and holder != self._run and _node_of_run(holder) == self._node:
            holder = await self._claim_from_an_earlier_run(holder)
        moved, self._holder = holder != self._holder, holder
        owner = self._elsewhere()
        if moved and owner is not None:
            for connection in list(self._connections.values()):
                if connection.player is not None:
                    self._bus.post(owner, LOBBY_LANE, self._signed_in(connection))
        if holder is not None:
            watched, self._watched = self._watched, holder
            if watched is not None and watched != holder:
                await self._watch_again()

    async def _claim(self) -> None:
        if await self._keys.put_new(LOBBY_OWNER_KEY, self._run, self._lease.expiry_s):
            logger.info("lobby: this node runs the lobby from now on")

    async def _claim_from_an_earlier_run(self, held: str) -> str | None:
        """The lobby's key names this node, but an earlier run of it (killed, then started again
        before the key lapsed): that lobby is gone, as node names are unique among live nodes. Claim
        it (unless another node does first); who holds it now."""
        await self._keys.remove_if(LOBBY_OWNER_KEY, held)
        await self._claim()
        return await self._keys.get(LOBBY_OWNER_KEY)

    def _elsewhere(self) -> str | None:
        """The node that runs the lobby if it is another one (None: here, or nobody known)."""
        if self._holder is None or self._holder == self._run:
            return None
        return _node_of_run(self._holder)

    async def _watch_again(self) -> None:
        """The lobby moved: this node's watchers watch it where it runs now, each getting a fresh
        `lobby` snapshot (the notice that the seeks of the node that ran it are gone)."""
        for connection_id, request in list(self._watching.items()):
            connection = self._connections.get(connection_id)
            if connection is None:
                continue
            try:
                if not await self.forward(connection, request) and self._requests is not None:
                    await self._requests.serve(connection, request)
            except Refusal as refusal:
                logger.info("lobby: %s cannot watch the lobby again: %s", connection.player, refusal.message)

    async def _watch_tournaments_again(self) -> None:
        """Another node (or this one) has taken the tournaments up: this node's watchers watch them
        again there (after reading who runs the lobby now, which directs them), each getting a
        fresh `tournament` snapshot."""
        try:
            await self.claim_or_follow()
        except BusUnavailable as error:
            logger.warning("lobby: cannot read the lobby's key: %s", error)
        for connection_id, watched in list(self._watching_tournaments.items()):
            connection = self._connections.get(connection_id)
            if connection is not None:
                for request in list(watched.values()):
                    await self._watch_tournament_again(connection, request)

    async def _watch_tournament_again(self, connection: Connection, request: WatchTournament) -> None:
        try:
            if not await self.forward(connection, request) and self._tournaments is not None:
                await self._tournaments.serve(connection, request)
        except Refusal as refusal:
            logger.info("%s cannot watch %s again: %s", connection.player, request.tournament_id, refusal.message)

    def _signed_in(self, connection: Connection) -> LobbySignedInMessage:
        assert connection.player is not None
        ref = caller_ref(connection.id, self._node)
        return LobbySignedInMessage(ref, connection.player, connection.player_kind, connection.address)


def _node_of_run(run: str) -> str:
    """The node of a run written in the lobby's key (`<node> <mark>`; a node's name has no space)."""
    return run.split(" ", 1)[0]


def start_bus(bus: RedisBus, hub: ClusterHub, lobby: BusLobby) -> None:
    """Start the bus: the lobby's messages go to the lobby, the rooms' to the hub; once the bus is
    back after an outage, the lobby's key is claimed (or followed) and the rooms' owners told."""

    async def receive(message: BusMessage) -> None:
        if isinstance(
            message, LobbyCommandMessage | LobbySignedInMessage | LobbyClosedMessage | DirectorNotice | GameEndedNotice
        ):
            await lobby.receive(message)
        else:
            await hub.receive(message)

    async def reconnected() -> None:
        await lobby.claim_or_follow()
        await hub.reconnected()

    bus.start(receive, reconnected)
