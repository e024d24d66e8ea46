"""The hub with a bus behind it: any node takes any socket, each room runs on its owner node.

A command for a room held here goes to its actor as in one process. A command for a room held
elsewhere goes over the bus to its owner (`RoomDirectory`), which serves it as its own and
answers a refusal back to the caller's node. The owner publishes a room's changes to its own edge
and to the nodes whose sockets are in the room (`RoomFanOut`), whose edges deliver them as they
deliver their own rooms'. Each edge counts only its own connections: the owner adds up the counts
of every node (`PresenceTally`) before the room hears them. When a room changes owner, or the bus
comes back after an outage, each node asks the room's owner again for its members' seats and
snapshots: they join again, which gives each a fresh `room` snapshot. A command that reaches a
node that no longer holds its room is refused `unavailable`, its caller's node told the new owner.
An `analyze` of a room held elsewhere goes to its owner as a room command does, and is searched
there. The owner acknowledges each forwarded command once it has answered it, and the caller's node
answers `unavailable` those still waiting when another node takes their room over
(`ForwardedCommands`): an owner that dies with a command unread leaves no request unanswered. A
move still waiting is sent again to the new owner instead: the old one may have stored it.

Past 500 lines: it is the one place where a room request meets the bus, both ways (forwarding,
serving what others forward, every message another node sends), and splitting the two directions
would split each message's handling from its sending.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections import Counter
from collections.abc import Awaitable, Mapping

from server.cluster.bus_messages import (
    MODERATION_LANE,
    AccountDeletedNotice,
    BusMessage,
    BusUnavailable,
    ChangesMessage,
    CommandMessage,
    FirstDeviceNotice,
    KickMessage,
    ModerationCommandMessage,
    OwnerNotice,
    PresenceMessage,
    ReplyMessage,
    SanctionMessage,
    ServedMessage,
    SignedOutNotice,
    TakeOutMessage,
    decode_changes,
    encode_changes,
)
from server.cluster.directory import RoomDirectory
from server.cluster.fan_out import Bus, RoomFanOut
from server.cluster.forwarded import ForwardedCommands
from server.cluster.room_list import ListedRoomRegistry
from server.cluster.served_here import AccountsHere, ForwardedAnalyses, ModerationHere, RemoteModerator
from server.domain import (
    AuditEntry,
    Caller,
    CallerRef,
    ConnectionId,
    PresenceReport,
    Refusal,
    RoomId,
    caller_ref,
    connection_of,
    node_of,
)
from server.edge.connections import Connection
from server.edge.subscriptions import Edge
from server.hub.commands import Hub, RoomCommand
from server.hub.room_caps import Cap
from server.players.ratings import RatingBook
from server.rooms.room import RoomEvent, RoomRequest
from server.storage.writer import StorageUnavailable
from wire.messages import (
    Analyze,
    ClientRequest,
    ErrorMessage,
    JoinRoom,
    RoomSummaryModel,
    ServerMessage,
    error_message,
    parse_client_message,
)

logger = logging.getLogger(__name__)


class ClusterHub(Hub):
    """The hub of one node among several: local rooms served here, others through their owner."""

    def __init__(
        self,
        rooms: ListedRoomRegistry,
        ratings: RatingBook,
        fan_out: RoomFanOut,
        bus: Bus,
        directory: RoomDirectory,
        connections: Mapping[ConnectionId, Connection],
        edge: Edge,
    ) -> None:
        super().__init__(rooms, ratings)
        self._fan_out = fan_out
        self._bus = bus
        self._directory = directory
        self._connections = connections
        self._edge = edge
        self._room_list = rooms.room_list
        self.node = bus.node
        self._moderation: ModerationHere | None = None
        """This node's moderation, for what other nodes ask of it (`moderate_with`)."""
        self._analyses: ForwardedAnalyses | None = None
        self._accounts: AccountsHere | None = None
        """This node's accounts, for the sign-outs and deletions of other nodes (`sign_out_with`)."""
        self.forwarded = ForwardedCommands()
        """The commands sent to other nodes that wait for their answer."""

    def moderate_with(self, moderation: ModerationHere) -> None:
        """Hand the bans, renames, kicks and moderators' requests other nodes send to `moderation`."""
        self._moderation = moderation

    def serve_analyses_with(self, analyses: ForwardedAnalyses) -> None:
        """Search here the analyses other nodes hand on for the rooms held here (before the bus
        starts)."""
        self._analyses = analyses

    def sign_out_with(self, accounts: AccountsHere) -> None:
        """Hand the sign-outs and account deletions other nodes announce to `accounts`."""
        self._accounts = accounts

    def use_directory(self, directory: RoomDirectory) -> None:
        """Look owners up in `directory` from now on (PostgreSQL's, once the node holds its lease;
        before any room is opened or restored)."""
        self._directory = directory

    async def claim(self, room_id: RoomId) -> None:
        """Record this node as the room's owner before anyone hears of the room."""
        try:
            await self._directory.claim(room_id)
        except BusUnavailable as error:
            raise Refusal("unavailable", f"the server cannot open rooms right now ({error}); try again") from error

    async def may_restore(self, room_id: RoomId) -> bool:
        """A node that starts brings back only the stored rooms no other node holds (a node that
        starts again under its name takes its own back)."""
        return await self._directory.claim_unowned(room_id)

    async def listed_rooms(self, limit: int, after: str | None) -> tuple[list[RoomSummaryModel], RoomId | None]:
        """A page of every node's rooms (`SharedRoomList`)."""
        try:
            return await self._room_list.listed(limit, after)
        except BusUnavailable as error:
            raise Refusal("unavailable", f"the room list cannot be read right now ({error}); try again") from error

    async def seated(self, name: str) -> list[RoomId]:
        """The rooms of every node where `name` holds a seat; this node's alone if the list cannot
        be read (the player can still join the others by their ids)."""
        try:
            return await self._room_list.seated(name)
        except BusUnavailable as error:
            logger.warning("cannot read where %s is seated on other nodes: %s", name, error)
            return await super().seated(name)

    async def open_elsewhere(self) -> Counter[Cap]:
        """The unfinished rooms the other nodes hold, under each cap (`RoomCaps`) they count towards."""
        try:
            return await self._room_list.open_elsewhere()
        except BusUnavailable as error:
            raise Refusal(
                "unavailable", f"the rooms of other nodes cannot be counted now ({error}); try again"
            ) from error

    async def playing_names(self) -> set[str]:
        """The people seated in an unfinished game on any node; this node's alone if the list cannot
        be read."""
        try:
            return await self._room_list.playing_names()
        except BusUnavailable as error:
            logger.warning("cannot read who plays on other nodes: %s", error)
            return await super().playing_names()

    async def command(self, command: RoomCommand) -> None:
        """Serve the command here if the room is held here, else hand it to the room's owner (whose
        answer comes back over the bus); `not_found` if no node owns the room."""
        owner = self.node if self._actor(command.room_id) is not None else await self._owner(command.room_id)
        if owner == self.node:  # held here, or taken over from a dead node just now
            await super().command(command)
            return
        await self._forward(owner, command.room_id, command.caller, command.request, command.sent_again)

    async def held_elsewhere(self, room_id: RoomId) -> bool:
        """Whether some node owns the room (this one does not, since it has no actor for it)."""
        return await self._owner_if_any(room_id) is not None

    async def analyse_elsewhere(self, room_id: RoomId, caller: Caller, request: Analyze) -> bool:
        """Hand the `analyze` of a room held elsewhere to its owner, which checks it with the room's
        facts, searches in its own pool and answers the caller; `not_found` if no node owns it."""
        if self._actor(room_id) is not None:
            return False
        owner = await self._owner(room_id)
        if owner == self.node:  # taken over from a dead node just now
            return False
        await self._forward(owner, room_id, caller, request)
        return True

    async def room_playing_elsewhere(self, game_id: str) -> RoomId | None:
        """The room of another node where the game is going on, from the room list."""
        try:
            return await self._room_list.playing_elsewhere(game_id)
        except BusUnavailable as error:
            raise Refusal("unavailable", f"the room list cannot be read right now ({error}); try again") from error

    async def relay(self, room_id: RoomId, event: RoomEvent) -> None:
        """Publish an event that stores nothing to all the room's members: here if the room is held
        here, else through its owner (a `ChangesMessage` that comes to the room's node)."""
        if self._actor(room_id) is not None:
            await super().relay(room_id, event)
            return
        owner = await self._owner(room_id)
        await self._deliver(owner, room_id, ChangesMessage(room_id, encode_changes([event])))

    async def take_out(self, room_id: RoomId, name: str, refs: list[CallerRef], forfeit: str | None) -> None:
        """Take a player's connections out of a room held here, or ask its owner to (in the room's
        lane, after the commands sent before); Refusal if the owner cannot be reached."""
        if self._actor(room_id) is not None:
            await super().take_out(room_id, name, refs, forfeit)
            return
        owner = await self._owner(room_id)
        await self._deliver(owner, room_id, TakeOutMessage(room_id, name, tuple(refs), forfeit))

    def announce_sanction(self, entry: AuditEntry) -> None:
        """Tell every node of a ban or rename stored here (lost if Redis is away: each node also
        reads the latest ones from storage, `Sanctions.watch`)."""
        self._bus.broadcast(SanctionMessage.of(entry, self.node))

    def announce_kick(self, room_id: RoomId, name: str, reason: str) -> None:
        """Tell every node of a kick out of a room held here."""
        self._bus.broadcast(KickMessage(room_id, name, reason, self.node))

    def announce_signed_out(self, name: str, device_ids: tuple[str, ...]) -> None:
        """Tell every node of devices signed out here (lost if Redis is away: the devices' tokens are
        refused all the same, and their connections there stay open until they close)."""
        self._bus.broadcast(SignedOutNotice(name, device_ids, self.node))

    def announce_deleted(self, name: str, name_free_at: str) -> None:
        """Tell every node of an account deleted here (lost if Redis is away, as a sign-out)."""
        self._bus.broadcast(AccountDeletedNotice(name, name_free_at, self.node))

    def announce_first_device(self, name: str, device_id: str) -> None:
        """Tell every node that the name's own token became its account's first device here (before
        any sign-out of it, in the same lane)."""
        self._bus.broadcast(FirstDeviceNotice(name, device_id, self.node))

    async def moderate_in_room(self, room_id: RoomId, caller: CallerRef, name: str, request: ClientRequest) -> None:
        """Hand a moderator's request about a room to its owner, in the room's lane; `unavailable` if
        it cannot be reached."""
        owner = await self._owner(room_id)
        await self._deliver(owner, room_id, ModerationCommandMessage(room_id, caller, name, request.to_wire()))

    async def moderate_on_node(self, node: str, caller: CallerRef, name: str, request: ClientRequest) -> None:
        """Hand a moderator's request to `node`; `unavailable` if it cannot be reached."""
        message = ModerationCommandMessage(MODERATION_LANE, caller, name, request.to_wire())
        try:
            await self._bus.deliver(node, MODERATION_LANE, message)
        except BusUnavailable as error:
            raise Refusal("unavailable", f"node {node!r} cannot be reached right now ({error}); try again") from error

    async def report(self, room_id: RoomId, report: PresenceReport) -> None:
        """Tell a room what this node's edge counts of its connections, wherever the room is."""
        if self._actor(room_id) is not None:
            await super().report(room_id, self._fan_out.tally.add(room_id, self.node, report))
            return
        try:
            owner = await self._directory.owner(room_id)
        except BusUnavailable as error:
            logger.warning("room %s: cannot tell its owner of this node's connections: %s", room_id, error)
            return
        if owner is not None:
            self._bus.post(owner, room_id, PresenceMessage(room_id, self.node, report.connections, report.on_purpose))

    # ------------------------------------------------------------ from the bus

    async def receive(self, message: BusMessage) -> None:
        """Serve one message from another node (in its room's order)."""
        match message:
            case CommandMessage():
                await self._serve_command(message)
            case ReplyMessage(ticket=ticket, text=text) if ticket and not self._answers_caller(ticket, text):
                pass  # answered already (the room moved meanwhile), or a move sent again to wait again
            case ReplyMessage(refs=refs, text=text):
                frame = text.encode()
                for ref in refs:
                    connection = self._connection(ref)
                    if connection is not None:
                        connection.send_wire(frame)
            case ServedMessage(ticket=ticket):
                self.forwarded.served(ticket)
            case ChangesMessage(room_id=room_id, changes=changes) if self._actor(room_id) is not None:
                self._fan_out.publish(room_id, decode_changes(changes))  # relayed: no one enters or leaves
            case ChangesMessage(room_id=room_id, changes=changes):
                report = self._edge.publish(room_id, decode_changes(changes))
                if report is not None:
                    await self.report(room_id, report)
            case PresenceMessage(room_id=room_id, node=node):
                if self._actor(room_id) is not None:
                    await super().report(room_id, self._fan_out.tally.add(room_id, node, message.report))
            case TakeOutMessage(room_id=room_id, name=name, refs=refs, forfeit=forfeit):
                await Hub.take_out(self, room_id, name, list(refs), forfeit)
            case SanctionMessage() | ModerationCommandMessage() | KickMessage():
                await self._moderate(message)
            case SignedOutNotice() | AccountDeletedNotice() | FirstDeviceNotice():
                await self._sign_out(message)
            case OwnerNotice(room_id=room_id, node=node):
                self._directory.forget(room_id)
                await self._answer_lost(room_id, node)
                if node != self.node:
                    await self.join_again(room_id)

    async def reconnected(self) -> None:
        """The bus was away: owners may have changed and events were lost. This node's members of
        rooms held elsewhere join them again, and the rooms held here with members on other nodes
        are announced, for theirs to join again (whichever of two nodes is back last, one of the
        two reaches the other)."""
        self._directory.forget_all()
        await self._directory.announce()
        for room_id in self._edge.book.rooms():
            if self._actor(room_id) is None:
                await self.join_again(room_id)
        for actor in self._rooms:
            room_id = actor.room.room_id
            if self._fan_out.nodes_in(room_id):
                self._bus.broadcast(OwnerNotice(room_id, self.node))

    async def took_over(self, rooms: set[RoomId]) -> None:
        """Rooms restored here (taken over from a dead node, or brought back at start): every node
        forgets their old owner and its members join again here, this node's first. Their lines in
        the room list are this node's from now on."""
        try:
            await self._room_list.taken_over(rooms)
        except BusUnavailable as error:
            logger.warning("room list: %d rooms taken over are not listed as this node's yet: %s", len(rooms), error)
        for room_id in sorted(rooms):
            self._directory.forget(room_id)
            self._bus.broadcast(OwnerNotice(room_id, self.node))
            await self._answer_lost(room_id, self.node)
            await self.join_again(room_id)

    async def _answer_lost(self, room_id: RoomId, owner: str) -> None:
        """The room is `owner`'s now: the commands this node forwarded to a previous owner that wait
        for their answer may never get one (the owner died, or dropped the room, before serving
        them). A move is sent again to `owner`, marked so (its old owner may have stored it: see
        `server.cluster.forwarded`); every other command is answered `unavailable` now, its retry
        going to `owner`. A refusal the previous owner still sends is dropped (its ticket is no
        longer waiting)."""
        refusal = Refusal(
            "unavailable", "the room's node went away before answering; its fresh snapshot shows the room; try again"
        )
        for waiting in self.forwarded.moved(room_id, owner):
            connection = self._connection(waiting.ref)
            if connection is None:
                continue
            if waiting.move is None:
                connection.send(error_message(refusal, waiting.request_id))
                continue
            caller, move = waiting.move
            answer = await refusal_of(self.command(RoomCommand(room_id, caller, move, sent_again=True)), move.id)
            if isinstance(answer, ErrorMessage) and answer.code == "unavailable":
                self.forwarded.wait_for_next_owner(dataclasses.replace(waiting, sent_again=True))
            elif answer is not None:
                connection.send(answer)

    def _answers_caller(self, ticket: int, text: str) -> bool:
        """Whether an owner's refusal of the forwarded command `ticket` is its caller's answer: not if
        the command was answered already, nor if it is a move sent again refused `unavailable`,
        which waits for the room's next owner instead (`server.cluster.forwarded`)."""
        waiting = self.forwarded.answered(ticket)
        if waiting is None:
            return False
        if waiting.sent_again and json.loads(text).get("code") == "unavailable":
            self.forwarded.wait_for_next_owner(waiting)
            return False
        return True

    async def _forward(
        self, owner: str, room_id: RoomId, caller: Caller, request: RoomRequest | Analyze, sent_again: bool = False
    ) -> None:
        """Send a command to the room's owner, kept until the owner acknowledges it (`forwarded`);
        `unavailable` if it cannot be reached."""
        ticket = self.forwarded.sent(room_id, owner, caller, request, sent_again)
        wire = request.to_wire()
        message = CommandMessage(room_id, caller.ref, caller.name, caller.kind, wire, ticket, sent_again)
        try:
            await self._deliver(owner, room_id, message)
        except Refusal:
            if self.forwarded.served(ticket) or ticket == 0:
                raise  # else answered `unavailable` already, while the sending waited

    async def _deliver(self, owner: str, room_id: RoomId, message: BusMessage) -> None:
        """Hand a message to the room's owner; `unavailable` if it cannot be reached (the owner known
        is forgotten: it may have died, and the next try asks the directory again)."""
        try:
            await self._bus.deliver(owner, room_id, message)
        except BusUnavailable as error:
            self._directory.forget(room_id)
            raise Refusal("unavailable", f"the room cannot be reached right now ({error}); try again") from error

    async def _serve_command(self, message: CommandMessage) -> None:
        """Serve a command forwarded by another node as if it came from a socket here: a refusal
        (as `GameServer` words it) goes back to the caller's node, in the room's lane."""
        request = parse_client_message(message.request)
        if not isinstance(request, RoomRequest | Analyze):
            raise ValueError(f"a {request.type!r} request is no room's to serve")
        caller = Caller(message.ref, message.name, message.kind)
        answer = await refusal_of(self._serve_here(message, caller, request), request.id)
        if answer is not None:
            self._reply(message.room_id, message.ref, answer, message.ticket)
        elif message.ticket and not isinstance(request, Analyze):  # an analysis started answers later
            self._bus.post(node_of(message.ref), message.room_id, ServedMessage(message.room_id, message.ticket))

    async def _serve_here(self, message: CommandMessage, caller: Caller, request: RoomRequest | Analyze) -> None:
        """Serve a forwarded request in its room, held here (or refuse it as `_unless_moved_on` says)."""
        room_id = message.room_id
        if self._actor(room_id) is None:
            await self._unless_moved_on(room_id, caller.ref)
        if isinstance(request, Analyze):
            await self._serve_analysis(message, caller, request)
        else:
            await Hub.command(self, RoomCommand(room_id, caller, request, message.sent_again))

    async def _unless_moved_on(self, room_id: RoomId, ref: CallerRef) -> None:
        """A command for a room not held here (dropped, fenced or its lease lost, while the command
        was on its way): refused `unavailable` while another node owns it, whose name goes first
        to the caller's node (it forgets the owner it knew, and the caller's next try reaches the
        new one). Served here if this node is its owner again (taken over from a dead node just
        now), or `not_found` if no node holds it."""
        self._directory.forget(room_id)
        owner = await self._owner(room_id)
        if owner != self.node:
            self._bus.post(node_of(ref), room_id, OwnerNotice(room_id, owner))
            raise Refusal("unavailable", "the room has moved to another node; try again")

    async def _serve_analysis(self, message: CommandMessage, caller: Caller, request: Analyze) -> None:
        """Start an analysis another node handed on; its answer goes back to the caller's node."""
        if self._analyses is None:
            raise Refusal("unavailable", "this node cannot analyse yet; try again")

        def answer(analysis: ServerMessage) -> None:
            self._reply(message.room_id, caller.ref, analysis, message.ticket)

        await self._analyses.serve_forwarded(caller, request, answer)

    def _reply(self, room_id: RoomId, ref: CallerRef, answer: ServerMessage, ticket: int = 0) -> None:
        """Answer a caller on another node, in the room's lane (the forwarded command `ticket`)."""
        self._bus.post(node_of(ref), room_id, ReplyMessage(room_id, (ref,), answer.to_wire(), ticket))

    async def _moderate(self, message: SanctionMessage | ModerationCommandMessage | KickMessage) -> None:
        """Serve what another node asks of this node's moderation."""
        if self._moderation is None:
            logger.warning("a %s came before this node can moderate", type(message).__name__)
            return
        match message:
            case SanctionMessage():
                await self._moderation.carry_out(message.entry)
            case KickMessage(room_id=room_id, name=name, reason=reason, node=node) if node != self.node:
                await self._moderation.kick_out(room_id, name, reason)
            case KickMessage():
                pass  # carried out here already
            case ModerationCommandMessage(room_id=room_id, ref=ref, name=name):
                request = parse_client_message(message.request)
                moderator = RemoteModerator(self._bus, room_id, ref, name)
                answer = await refusal_of(self._moderation.serve_forwarded(moderator, request), request.id)
                if answer is not None:
                    moderator.send(answer)

    async def _sign_out(self, message: SignedOutNotice | AccountDeletedNotice | FirstDeviceNotice) -> None:
        """Close this node's connections that another node's sign-out or deletion concerns, or know
        those a first device is (the sending node did so for its own already)."""
        if message.node == self.node:
            return
        if self._accounts is None:
            logger.warning("a %s came before this node can sign out", type(message).__name__)
            return
        match message:
            case SignedOutNotice(name=name, device_ids=device_ids):
                await self._accounts.signed_out(name, device_ids)
            case AccountDeletedNotice(name=name, name_free_at=name_free_at):
                self._accounts.deleted(name, name_free_at)
            case FirstDeviceNotice(name=name, device_id=device_id):
                self._accounts.became_device(name, device_id)

    async def join_again(self, room_id: RoomId) -> None:
        """Join this node's members of a room again at its (new) owner: seated players come back to
        their seats, spectators watch again, and each gets a fresh snapshot. Also once this node has
        dropped a room another node serves now (`GameServer.drop`): the new owner's notice may have
        come while this node still held its stale copy, and joining again then failed."""
        for connection_id, name in list(self._edge.book.members(room_id).items()):
            connection = self._connections.get(connection_id)
            if connection is None:
                continue
            caller = Caller(caller_ref(connection_id, self.node), name, connection.player_kind)
            request = JoinRoom(room_id=room_id, as_="spectator")
            try:
                await self.command(RoomCommand(room_id, caller, request))
            except Refusal as refusal:
                logger.info("room %s: %s cannot join again: %s", room_id, name, refusal.message)

    async def _owner(self, room_id: RoomId) -> str:
        """The room's owner; `not_found` if no node owns it, `unavailable` if the directory cannot
        be read."""
        owner = await self._owner_if_any(room_id)
        if owner is None:
            raise Refusal("not_found", f"there is no room {room_id!r}")
        return owner

    async def _owner_if_any(self, room_id: RoomId) -> str | None:
        """The room's owner, or None if no node owns it; `unavailable` if the directory cannot be read."""
        try:
            return await self._directory.owner(room_id)
        except BusUnavailable as error:
            raise Refusal("unavailable", f"the room cannot be reached right now ({error}); try again") from error

    def _connection(self, ref: CallerRef) -> Connection | None:
        connection_id = connection_of(ref, self.node)
        return None if connection_id is None else self._connections.get(connection_id)


async def refusal_of(serving: Awaitable[None], request_id: str | int | None) -> ServerMessage | None:
    """Serve a request forwarded from another node; the `error` that answers it if it fails, worded
    as `GameServer` words it for a request from a socket here (its node sends it on)."""
    try:
        await serving
    except Refusal as refusal:
        return error_message(refusal, request_id)
    except StorageUnavailable as error:
        unavailable = Refusal("unavailable", f"the server cannot store changes ({error}); try again")
        return error_message(unavailable, request_id)
    except Exception:
        logger.exception("a request from another node failed")
        return error_message(Refusal("internal", "the server failed on this request"), request_id)
    return None
